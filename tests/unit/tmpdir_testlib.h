/* tmpdir_testlib.h - a scratch directory per test program, and files and
 * directories made in it (test_slurm_conf.c, test_migrate.c, test_store.c,
 * test_hostlist.c, test_store_steps.c, test_pbs_opt.c via qsub_testlib.h). */
#ifndef SL_TMPDIR_TESTLIB_H
#define SL_TMPDIR_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "xalloc.h"

static char tmpdir_path[64];

/* NAME's text in the scratch directory; caller frees the returned path. */
static inline char *tmpdir_write(const char *name, const char *text)
{
	char *p = sl_xasprintf("%s/%s", tmpdir_path, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* A fresh directory in the scratch one, for one test's state: its path
 * (the scratch directory, then a number counting up) into buf. */
static inline void tmpdir_sub(char *buf, size_t len)
{
	static int n;
	snprintf(buf, len, "%s/%d", tmpdir_path, ++n);
	assert_int_equal(mkdir(buf, 0700), 0);
}

/* path and all it holds, gone: system()'s status. */
static inline int tmpdir_rm(const char *path)
{
	char *cmd = sl_xasprintf("rm -rf %s", path);
	int r = system(cmd);
	free(cmd);
	return r;
}

static inline int tmpdir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir_path, sizeof(tmpdir_path), "/tmp/sl-unit.XXXXXX");
	return mkdtemp(tmpdir_path) ? 0 : -1;
}

static inline int tmpdir_teardown(void **state)
{
	(void)state;
	return tmpdir_rm(tmpdir_path);
}

#endif
