/* test_hostlist.c - Slurm host list expressions, both directions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "err.h"
#include "hostlist.h"
#include "xalloc.h"

#include "tmpdir_testlib.h"

static void expect_expand(const char *s, const char *joined)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL, buf[4096] = "";
	size_t n = 0, i;

	assert_int_equal(sl_hostlist_expand(s, &v, &n, &err), 0);
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, v[i]);
	}
	assert_string_equal(buf, joined);
	assert_null(v[n]);
	sl_strv_free(v);
}

static void test_expand(void **state)
{
	(void)state;
	expect_expand("n1", "n1");
	expect_expand("n[1-4,7]", "n1 n2 n3 n4 n7");
	expect_expand("n[1-2],gpu[01-03],login", "n1 n2 gpu01 gpu02 gpu03 login");
	expect_expand("rack[8-10]-a", "rack8-a rack9-a rack10-a");
	expect_expand("n[009-011]", "n009 n010 n011");
	/* several brackets: every combination, the first outermost (Slurm's) */
	expect_expand("r[1-2]n[01-02]", "r1n01 r1n02 r2n01 r2n02");
	expect_expand("x[1-2][5-6],y", "x15 x16 x25 x26 y");
	expect_expand("", "");
}

static void expect_expand_fail(const char *s, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL;
	size_t n = 0;

	assert_int_equal(sl_hostlist_expand(s, &v, &n, &err), -code);
	assert_string_equal(err.msg, msg);
	assert_null(v);
}

static void test_expand_errors(void **state)
{
	(void)state;
	expect_expand_fail("n[1-3", SL_EINVAL, "unbalanced brackets in host list \"n[1-3\"");
	expect_expand_fail("n1]", SL_EINVAL, "unbalanced ']' in host list");
	expect_expand_fail("n[3-1]", SL_EINVAL, "invalid range \"3-1\" in host list");
	expect_expand_fail("n[a-b]", SL_EINVAL, "invalid range \"a-b\" in host list");
	expect_expand_fail("n[1-]", SL_EINVAL, "invalid range \"1-\" in host list");
	expect_expand_fail("n[0-99999999]", SL_EINVAL, "invalid range \"0-99999999\" in host list");
	expect_expand_fail("a[0-40000],b[0-40000]", SL_ETOOBIG,
			   "host list expands to more than 65536 names");
	expect_expand_fail("a[0-300]b[0-300]", SL_ETOOBIG,
			   "host list expands to more than 65536 names");
	expect_expand_fail("a[[1]]", SL_EINVAL, "unbalanced brackets in host list \"a[[1]]\"");
	expect_expand_fail("r[1-2]n[1", SL_EINVAL, "unbalanced brackets in host list \"r1n[1\"");
	expect_expand_fail("n[]", SL_EINVAL, "empty range in host list");
	expect_expand_fail("n[,]", SL_EINVAL, "empty range in host list");
	/* a last bracket that gives nothing fails at the first combination,
	 * not after 99^4 of them (found by fuzzing: "[]" expanded to no name) */
	expect_expand_fail("a[1-99]b[1-99]c[1-99]d[1-99]e[]", SL_EINVAL,
			   "empty range in host list");
}

static void expect_compress(const char *joined, const char *want)
{
	char *copy = strdup(joined), *save = NULL, *t, *v[64], *got;
	size_t n = 0;

	for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
		v[n++] = t;
	got = sl_hostlist_compress(v, n);
	assert_string_equal(got, want);
	free(got);
	free(copy);
}

static void test_compress(void **state)
{
	(void)state;
	expect_compress("n1", "n1");
	expect_compress("n1 n2", "n[1-2]");
	expect_compress("n1 n2 n3 n4 n7", "n[1-4,7]");
	expect_compress("n7 n3 n1 n2 n4 n2", "n[1-4,7]");
	expect_compress("n9 n10 n11", "n[9-11]");
	expect_compress("gpu01 gpu02 gpu10 n1", "gpu[01-02,10],n1");
	expect_compress("login vm", "login,vm");
	expect_compress("n1 n3 n5", "n[1,3,5]");
	expect_compress("", "");
}

static void test_roundtrip(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL, *s;
	size_t n = 0;
	(void)state;

	assert_int_equal(sl_hostlist_expand("c[1-3,5,7-9],d[01-02]", &v, &n, &err), 0);
	assert_int_equal(n, 9);
	s = sl_hostlist_compress(v, n);
	assert_string_equal(s, "c[1-3,5,7-9],d[01-02]");
	free(s);
	sl_strv_free(v);
}

/* A host file as slurm_read_hostfile reads it; the text in a file of the
 * scratch directory (tmpdir_testlib.h), the answer or the error's line. */
static void hostfile(const char *text, const char *want, const char *err_want)
{
	char *path = tmpdir_write("hosts", text), *out = NULL;
	struct sl_err err = SL_ERR_INIT;

	if (want != NULL) {
		assert_int_equal(sl_hostfile_read(path, &out, &err), 0);
		assert_string_equal(out, want);
	} else {
		assert_int_equal(sl_hostfile_read(path, &out, &err), -SL_EINVAL);
		assert_null(out);
		if (strstr(err_want, "%s") != NULL) {
			char *w = sl_xasprintf(err_want, path);
			assert_string_equal(err.msg, w);
			free(w);
		} else {
			assert_string_equal(err.msg, err_want);
		}
	}
	free(out);
	unlink(path);
	free(path);
}

static void test_hostfile(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char *out = NULL;
	(void)state;

	hostfile("n1\nn2 # the second\nn2\n", "n[1-2]", NULL);
	hostfile("n1,n3\n\nn2*2\n", "n[1-3]", NULL);
	hostfile("# all comment\nn\\#1\n", "n#1", NULL);
	hostfile(" n1\n", NULL, "Invalid hostfile %s contents on line 1");
	hostfile("n1\n-n2\n", NULL, "Invalid hostfile %s contents on line 2");
	hostfile("# nothing\n\n", NULL, "Hostlist is empty!");
	assert_int_equal(sl_hostfile_read("/nonexistent/hosts", &out, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "slurm_allocate_resources error opening file "
				     "/nonexistent/hosts, No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_errors),
		cmocka_unit_test(test_compress),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_hostfile),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
