/* pbs_testlib.h - the golden files of PBS's layouts in unit tests
 * (tests/data/pbs/): compare a layout with its file, or rewrite the file
 * when SL_GOLDEN_UPDATE is set (check the diff before keeping it). */
#ifndef PBS_TESTLIB_H
#define PBS_TESTLIB_H

#include <time.h>
#include "client.h"
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

/* The records of tests/data/pbs/NAME, in UTC as the goldens are. Caller
 * frees with sl_job_free_array(). */
static inline struct sl_job **tl_pbs_jobs(const char *name, size_t *n)
{
	char path[256];

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(path, sizeof(path), "../pbs/%s", name);
	return tl_output_jobs(path, n);
}

/* The program's records (`jobs`, `njobs`) read from tests/data/pbs/FILE
 * before its tests and freed after them: pbs_setup and pbs_teardown, for
 * cmocka_run_group_tests(). */
#define TL_PBS_FIXTURE(file)                                  \
	static struct sl_job **jobs;                          \
	static size_t njobs;                                  \
	static int pbs_setup(void **state)                    \
	{                                                     \
		(void)state;                                  \
		jobs = tl_pbs_jobs(file, &njobs);             \
		return 0;                                     \
	}                                                     \
	static int pbs_teardown(void **state)                 \
	{                                                     \
		(void)state;                                  \
		sl_job_free_array(jobs, njobs);               \
		return 0;                                     \
	}

/* The cluster sinfo's reference describes, its node "vm" up an hour: partitions batch (ClusterQueue
 * main, 8 CPUs, 32Gi) and gpu (ClusterQueue gpus, 16 CPUs, 4 GPUs), the
 * second held by a stop policy. */
static inline struct sl_clusterinfo *tl_pbs_cluster(void)
{
	static struct sl_quota_row main_rows[] = {
		{"main", "default", "cpu", 8000, 0, 0, 3000, 1},
		{"main", "default", "memory", 32LL * 1024 * 1024 * 1024 * 1000, 0, 0,
		 1024LL * 1024 * 1024 * 1000, 1},
	};
	static struct sl_quota_row gpu_rows[] = {
		{"gpus", "a100", "cpu", 16000, 0, 0, 16000, 0},
		{"gpus", "a100", "nvidia.com/gpu", 4000, 0, 0, 4000, 0},
	};
	static struct sl_nodeinfo node = {.name = "vm", .arch = "x86_64", .os = "Linux",
					  .start_time = TL_PBS_NOW - 3600};
	static struct sl_partinfo parts[2];
	static struct sl_clusterinfo ci;

	memset(parts, 0, sizeof(parts));
	parts[0].name = "batch";
	parts[0].is_default = 1;
	parts[0].nquota = 2;
	parts[0].quota = main_rows;
	parts[1].name = "gpu";
	parts[1].avail = SL_PART_DOWN;
	parts[1].nquota = 2;
	parts[1].quota = gpu_rows;
	ci.now = TL_PBS_NOW;
	ci.node = &node;
	ci.nparts = 2;
	ci.parts = parts;
	return &ci;
}

#endif
