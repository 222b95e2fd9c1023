/* test_dirpool.c - spare job directories: a finished job's directory comes
 * back under the next job's name with the same inode, its marks and result
 * emptied without freeing their blocks, temporary files gone; an existing name is refused;
 * the pool's bound; spares left by an earlier daemon are taken up. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirpool.h"
#include "jobdir.h"
#include "xalloc.h"

static char root[] = "/tmp/sl-test-dirpool-XXXXXX";

static char *path(const char *a, const char *b)
{
	return b ? sl_xasprintf("%s/%s/%s", root, a, b) : sl_xasprintf("%s/%s", root, a);
}

static ino_t inode(const char *dir, const char *name)
{
	char *p = path(dir, name);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	free(p);
	return st.st_ino;
}

static off_t size_of(const char *dir, const char *name)
{
	char *p = path(dir, name);
	struct stat st;
	off_t r = stat(p, &st) == 0 ? st.st_size : -1;
	free(p);
	return r;
}

static int spares(void)
{
	DIR *d = opendir(root);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strncmp(e->d_name, ".spare-", 7) == 0;
	closedir(d);
	return n;
}

static void put(const char *dir, const char *name, const char *text)
{
	char *d = path(dir, NULL);
	assert_int_equal(sl_jobdir_write(d, name, text, strlen(text), 0644, 0, NULL), 0);
	free(d);
}

static void test_reuse(void **state)
{
	struct sl_dirpool *p = sl_dirpool_new(root, 4);
	struct sl_err err = SL_ERR_INIT;
	char *a = path("1", NULL), *b = path("2", NULL);
	struct stat st;

	assert_int_equal(sl_dirpool_take(p, a, &err), 0); /* empty pool: mkdir */
	assert_int_equal(stat(a, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0711);
	/* Its result's block is taken already: a blank result, as a spare's. */
	assert_int_equal(size_of("1", SL_JOBDIR_RESULT), 1);
	ino_t ino = st.st_ino;
	put("1", SL_JOBDIR_SPEC, "{\"x\":1}");
	put("1", SL_JOBDIR_LOCK, "");
	put("1", SL_JOBDIR_STARTED, "1700000000\n");
	put("1", SL_JOBDIR_PID, "42 7\n");
	put("1", SL_JOBDIR_RESULT, "{\"state\":\"COMPLETED\"}");
	put("1", SL_JOBDIR_SCRIPT, "#!/bin/sh\n");
	put("1", ".result.tmp", "x");
	ino_t started = inode("1", SL_JOBDIR_STARTED);

	assert_int_equal(sl_dirpool_give(p, a, &err), 0);
	assert_int_equal(access(a, F_OK), -1);
	assert_int_equal(spares(), 1);
	assert_int_equal(sl_dirpool_count(p), 1);

	assert_int_equal(sl_dirpool_take(p, b, &err), 0);
	assert_int_equal(spares(), 0);
	assert_int_equal(inode("2", NULL), ino);
	assert_int_equal(inode("2", SL_JOBDIR_STARTED), started); /* kept, emptied */
	assert_int_equal(size_of("2", SL_JOBDIR_STARTED), 1); /* a newline: no block freed */
	assert_int_equal(size_of("2", SL_JOBDIR_PID), 1);
	assert_int_equal(size_of("2", SL_JOBDIR_RESULT), 1);
	assert_int_equal(size_of("2", SL_JOBDIR_LOCK), 0);
	assert_true(size_of("2", SL_JOBDIR_SPEC) > 0);   /* left to its next writer */
	assert_true(size_of("2", SL_JOBDIR_SCRIPT) > 0); /* stepd decides */
	assert_int_equal(size_of("2", ".result.tmp"), -1);
	char *d2 = path("2", NULL), *text = NULL;
	assert_int_equal(sl_jobdir_read(d2, SL_JOBDIR_RESULT, &text, NULL), 0);
	assert_true(sl_jobdir_blank(text));
	free(text);
	/* Rewritten in place: same inode, exactly the new text. */
	assert_int_equal(sl_jobdir_write(d2, SL_JOBDIR_SPEC, "{}", 2, 0600, 0, NULL), 0);
	assert_int_equal(size_of("2", SL_JOBDIR_SPEC), 2);
	free(d2);

	/* A name in use is refused, and the spare stays in the pool. */
	assert_int_equal(sl_dirpool_give(p, b, &err), 0);
	char *c = path("3", NULL);
	assert_int_equal(mkdir(c, 0700), 0);
	assert_int_equal(sl_dirpool_take(p, c, &err), -SL_EEXIST);
	assert_int_equal(sl_dirpool_count(p), 1);
	sl_dirpool_free(p);
	free(a);
	free(b);
	free(c);
}

/* A full pool removes what it is given; a new pool takes up the spares on
 * disk and numbers new ones after them. */
static void test_bound_and_restart(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_dirpool *p = sl_dirpool_new(root, 2);
	assert_int_equal(sl_dirpool_count(p), 1); /* left by test_reuse */
	for (int i = 10; i < 13; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%d", i);
		char *d = path(name, NULL);
		assert_int_equal(mkdir(d, 0711), 0);
		put(name, SL_JOBDIR_STARTED, "1\n");
		assert_int_equal(sl_dirpool_give(p, d, &err), 0);
		assert_int_equal(access(d, F_OK), -1);
		free(d);
	}
	assert_int_equal(sl_dirpool_count(p), 2);
	assert_int_equal(spares(), 2);
	sl_dirpool_free(p);

	p = sl_dirpool_new(root, 8);
	assert_int_equal(sl_dirpool_count(p), 2);
	char *d = path("20", NULL);
	assert_int_equal(mkdir(d, 0711), 0);
	assert_int_equal(sl_dirpool_give(p, d, &err), 0);
	assert_int_equal(spares(), 3);
	assert_int_equal(sl_dirpool_count(p), 3);
	sl_dirpool_free(p);
	free(d);
}

static int setup(void **state)
{
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_bound_and_restart),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
