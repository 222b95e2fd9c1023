/* test_sbcast.c - sbcast's local copy: what slurmd's REQUEST_FILE_BCAST
 * leaves (checked on the reference cluster: EEXIST without -f, the
 * source's mode, an empty source warned of and copied). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <cmocka.h>

#include "sbcast.h"
#include "tmpdir_testlib.h"

static int copy(struct sl_sbcast *o, int *dst_errno, struct sl_err *err)
{
	*err = (struct sl_err)SL_ERR_INIT;
	o->fd = -1;
	if (sl_sbcast_source(o, NULL, err) != 0)
		return -1;
	return sl_sbcast_copy(o, dst_errno, err);
}

static void test_copy(void **state)
{
	char *src = tmpdir_write("src", "data\n"), *dst = sl_xasprintf("%s/dst", tmpdir_path);
	struct sl_sbcast o = {.src = src, .dst = dst};
	struct sl_err err;
	struct stat st;
	int e = 0;
	(void)state;

	assert_int_equal(chmod(src, 0640), 0);
	assert_int_equal(copy(&o, &e, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(stat(dst, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640); /* the source's, not 0700 */
	assert_int_equal(st.st_size, 5);
	/* again without -f: the file exists (exit 17 on the reference) */
	assert_int_equal(copy(&o, &e, &err), -SL_EIO);
	assert_int_equal(e, EEXIST);
	assert_string_equal(err.msg, "File exists");
	/* -f replaces it; -p keeps the source's times */
	struct timeval tv[2] = {{1000000000, 0}, {1000000500, 0}};
	assert_int_equal(utimes(src, tv), 0);
	o.force = o.preserve = 1;
	assert_int_equal(copy(&o, &e, &err), 0);
	assert_int_equal(stat(dst, &st), 0);
	assert_int_equal(st.st_mtime, 1000000500);
	/* a missing directory: slurmd's open fails with ENOENT */
	o.dst = "nodir/x";
	assert_int_equal(copy(&o, &e, &err), -SL_EIO);
	assert_int_equal(e, ENOENT);
	free(src);
	free(dst);
}

static void test_source(void **state)
{
	char *empty = tmpdir_write("empty", ""), *dst = sl_xasprintf("%s/empty.out", tmpdir_path);
	struct sl_sbcast o = {.src = "/nonexistent/src", .dst = dst};
	struct sl_err err;
	struct stat st;
	int e = 0;
	(void)state;

	assert_int_equal(copy(&o, &e, &err), -1);
	assert_string_equal(err.msg, "Can't open `/nonexistent/src`: No such file or directory");
	o.src = empty; /* warned of, and copied */
	assert_int_equal(copy(&o, &e, &err), 0);
	char *want = sl_xasprintf("Warning: file `%s` is empty.", empty);
	assert_string_equal(err.msg, want);
	free(want);
	assert_int_equal(stat(dst, &st), 0);
	assert_int_equal(st.st_size, 0);
	free(empty);
	free(dst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_source),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
