/* pbs_testlib.h - the golden files of PBS's layouts in unit tests
 * (tests/data/pbs/): compare a layout with its file, or rewrite the file
 * when SL_GOLDEN_UPDATE is set (check the diff before keeping it). */
#ifndef PBS_TESTLIB_H
#define PBS_TESTLIB_H

#include "job_testlib.h"

#define TL_PBS_NOW 1795256642 /* 2026-11-21T10:24:02Z, the goldens' "now" */

/* Consumes got. */
static inline void tl_pbs_golden(const char *name, char *got)
{
	char path[4096], *want;
	const char *top = getenv("top_srcdir");

	if (getenv("SL_GOLDEN_UPDATE")) {
		snprintf(path, sizeof(path), "%s/tests/data/pbs/%s", top ? top : ".", name);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "../pbs/%s", name);
	want = tl_output(path);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

#endif
