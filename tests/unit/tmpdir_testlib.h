/* tmpdir_testlib.h - a scratch directory per test program, and files
 * written into it (test_slurm_conf.c, test_migrate.c). */
#ifndef SL_TMPDIR_TESTLIB_H
#define SL_TMPDIR_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
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

static inline int tmpdir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir_path, sizeof(tmpdir_path), "/tmp/sl-unit.XXXXXX");
	return mkdtemp(tmpdir_path) ? 0 : -1;
}

static inline int tmpdir_teardown(void **state)
{
	char *cmd = sl_xasprintf("rm -rf %s", tmpdir_path);
	(void)state;
	int r = system(cmd);
	free(cmd);
	return r;
}

#endif
