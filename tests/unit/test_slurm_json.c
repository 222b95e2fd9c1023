/* test_slurm_json.c - the --json documents (squeue_json.c, sacct_json.c)
 * and the usage cells of sacct (slurm_usage.c through sacct_fmt.c), on
 * records shaped after jobs real Slurm 22.05 ran (tests/data/json/ has its
 * documents; sacct_usage.out is its table for job 227, measured by
 * jobacct_gather/linux). The documents are compared whole with reviewed
 * snapshots (squeue_json.golden, sacct_json.golden), whose keys, order and
 * types tests/integration/json.sh checks against Slurm's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "sacct_fmt.h"
#include "slurm_json.h"
#include "slurm_usage.h"
#include "xalloc.h"

#define NOW 1795653900

/* sacct's rows for the first record of JSONL in fields and mode, header
 * first, against the golden file. */
static void sacct_golden(const char *fields, enum sl_sacct_mode mode, const char *jsonl,
			 const char *file)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_sacct_fmt *f;
	size_t n;
	struct sl_job **v = tl_output_jobs(jsonl, &n);
	char *want = tl_output(file);

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	assert_int_equal(sl_sacct_fmt_header(f, mode, b), 0);
	assert_int_equal(sl_sacct_fmt_job(f, v[0], mode, 1, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
}

/* Job 227's memory, pages, CPU and disk cells in a table, as real sacct
 * printed them (sacct_usage.out). */
static void test_sacct_usage_cells(void **state)
{
	(void)state;
	sacct_golden("JobID,MaxRSS,AveRSS,MaxVMSize,AveVMSize,MaxPages,AvePages,UserCPU,"
		     "SystemCPU,TotalCPU,CPUTime,CPUTimeRAW,AveCPU,MinCPU,NTasks,MaxRSSNode,"
		     "MaxRSSTask,MinCPUNode,MinCPUTask,MaxDiskRead,AveDiskRead,MaxDiskWrite",
		     SL_SACCT_TABLE, "usage_jobs.jsonl", "sacct_usage.out");
}

/* The TRESUsage* cells and disk figures of a measured, cancelled job, as
 * real sacct -P printed them (sacct_usage_tres.out). */
static void test_sacct_usage_tres(void **state)
{
	(void)state;
	sacct_golden("JobID,TRESUsageInMax,TRESUsageInMaxNode,TRESUsageInMaxTask,TRESUsageInMin,"
		     "TRESUsageInMinTask,TRESUsageOutMax,TRESUsageOutMaxNode,TRESUsageOutMaxTask,"
		     "TRESUsageInAve,TRESUsageInTot,TRESUsageOutAve,TRESUsageOutTot,MaxDiskRead,"
		     "MaxDiskWrite,AveDiskWrite,MaxPages,AveCPU,MinCPU,NTasks",
		     SL_SACCT_PARSABLE2, "usage_tres.jsonl", "sacct_usage_tres.out");
}

static void test_usage_forms(void **state)
{
	char buf[64];
	(void)state;
	sl_slurm_usage_cpu(140758, buf, sizeof(buf));
	assert_string_equal(buf, "00:00.140");
	sl_slurm_usage_cpu(0, buf, sizeof(buf));
	assert_string_equal(buf, "00:00:00");
	sl_slurm_usage_cpu(2000000, buf, sizeof(buf));
	assert_string_equal(buf, "00:00:02");
	sl_slurm_usage_cpu(3723000000LL + 5000, buf, sizeof(buf));
	assert_string_equal(buf, "01:02:03");
	sl_slurm_usage_cpu(86400000000LL * 2 + 61000000, buf, sizeof(buf));
	assert_string_equal(buf, "2-00:01:01");
	sl_slurm_usage_cpu_secs(1999999, buf, sizeof(buf));
	assert_string_equal(buf, "00:00:01");
	sl_slurm_usage_kib(40396, 0, buf, sizeof(buf));
	assert_string_equal(buf, "40396K");
	sl_slurm_usage_kib(2 << 20, 0, buf, sizeof(buf));
	assert_string_equal(buf, "2G");
	sl_slurm_usage_kib(40396, 'M', buf, sizeof(buf));
	assert_string_equal(buf, "39.45M");
	sl_slurm_usage_disk(48430, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0.05M");
	sl_slurm_usage_disk(1, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0.00M");
	sl_slurm_usage_disk(0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	sl_slurm_usage_disk(3 << 20, 0, buf, sizeof(buf));
	assert_string_equal(buf, "3M");
	sl_slurm_usage_count(2, 0, buf, sizeof(buf));
	assert_string_equal(buf, "2");
}

/* sstat's TRESUsageIn/Out cells for the measured job 227 (sstat -P). */
static void test_usage_tres(void **state)
{
	struct sl_usage u = {.max_rss = 40396, .max_vmsize = 47268, .max_pages = 2,
			     .disk_read = 48430, .disk_write = 1, .ntasks = 1};
	struct sl_usage_tasks t;
	char buf[512];
	(void)state;
	sl_usage_per_task(&u, &t);
	sl_slurm_usage_tres(&t, SL_UTRES_IN, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:00,energy=0,fs/disk=48430,mem=40396K,pages=2,"
				 "vmem=47268K");
	sl_slurm_usage_tres(&t, SL_UTRES_IN_NODE, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=n1,energy=n1,fs/disk=n1,mem=n1,pages=n1,vmem=n1");
	sl_slurm_usage_tres(&t, SL_UTRES_IN_TASK, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:00,fs/disk=0,mem=0,pages=0,vmem=0");
	/* sacct's (real sacct -o TRESUsageInMaxTask of a measured batch step) */
	sl_slurm_usage_tres(&t, SL_UTRES_IN_TASK_N, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=0,fs/disk=0,mem=0,pages=0,vmem=0");
	sl_slurm_usage_tres(&t, SL_UTRES_OUT, SL_UOF_TOT, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "energy=0,fs/disk=1");
	sl_slurm_usage_tres(&t, SL_UTRES_OUT_TASK, SL_UOF_MIN, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "fs/disk=0");
}

/* A step of two tasks: the reference cluster's 1220.0 (srun -n2, task 1
 * twice task 0's memory and CPU), sacct -P -o TRESUsageIn*,TRESUsageOutTot. */
static void test_usage_tres_tasks(void **state)
{
	struct sl_usage_tasks t = {0};
	int64_t t0[SL_USE_N] = {460000, 56044, 59092, 0, 8705, 1};
	int64_t t1[SL_USE_N] = {860000, 107184, 110292, 0, 8705, 1};
	char buf[512];
	(void)state;
	sl_usage_tasks_add(&t, 1, t1); /* reaped in any order */
	sl_usage_tasks_add(&t, 0, t0);
	sl_slurm_usage_tres(&t, SL_UTRES_IN, SL_UOF_AVE, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:00,energy=0,fs/disk=8705,mem=81614K,pages=0,"
				 "vmem=84692K");
	sl_slurm_usage_tres(&t, SL_UTRES_IN, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:00,energy=0,fs/disk=8705,mem=107184K,pages=0,"
				 "vmem=110292K");
	sl_slurm_usage_tres(&t, SL_UTRES_IN_TASK_N, SL_UOF_MAX, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=1,fs/disk=0,mem=1,pages=0,vmem=1");
	sl_slurm_usage_tres(&t, SL_UTRES_IN, SL_UOF_MIN, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:00,energy=0,fs/disk=8705,mem=56044K,pages=0,"
				 "vmem=59092K");
	sl_slurm_usage_tres(&t, SL_UTRES_IN_TASK_N, SL_UOF_MIN, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=0,fs/disk=0,mem=0,pages=0,vmem=0");
	sl_slurm_usage_tres(&t, SL_UTRES_IN, SL_UOF_TOT, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu=00:00:01,energy=0,fs/disk=17410,mem=163228K,pages=0,"
				 "vmem=169384K");
	sl_slurm_usage_tres(&t, SL_UTRES_OUT, SL_UOF_TOT, "n1", 0, buf, sizeof(buf));
	assert_string_equal(buf, "energy=0,fs/disk=2");
	/* an Ave that is no whole KiB prints in bytes, as slurmdbd keeps it */
	t.a[SL_USE_RSS].tot += 1;
	assert_int_equal(sl_slurm_usage_value(&t, SL_USE_RSS, SL_UOF_AVE), 83573248);
}

static void golden(int sacct, const char *file)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **v = tl_output_jobs("usage_jobs.jsonl", &n);
	char *want = tl_output(file);

	if (sacct)
		assert_int_equal(sl_sacct_json(v, n, NULL, 0, 0, "sluiceref", NOW, SL_DOC_JSON, b), 0);
	else
		assert_int_equal(sl_squeue_json(v, n, "sluiceref", NOW, SL_DOC_JSON, b), 0);
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
	sl_job_free_array(v, n);
}

static void test_squeue_json(void **state)
{
	(void)state;
	golden(0, "squeue_json.golden");
}

static void test_sacct_json(void **state)
{
	(void)state;
	golden(1, "sacct_json.golden");
}

/* A job its supervisor is ending: slurmdbd's state already, as sacct's
 * State column says. */
static void test_sacct_json_ending(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_job *j = sl_job_new(), *v[1] = {j};
	(void)state;
	j->id = 7;
	j->state = SL_JOB_RUNNING;
	j->start_time = j->submit_time = NOW - 120;
	j->spec.time_limit = 1;
	assert_int_equal(sl_sacct_json(v, 1, NULL, 0, 0, "sluiceref", NOW, SL_DOC_JSON, b), 0);
	assert_non_null(strstr(sl_buf_str(b), "\"current\": \"TIMEOUT\""));
	sl_buf_reset(b);
	j->spec.time_limit = 0;
	j->state = SL_JOB_COMPLETING;
	j->cancelled_by = 1001;
	assert_int_equal(sl_sacct_json(v, 1, NULL, 0, 0, "sluiceref", NOW, SL_DOC_JSON, b), 0);
	assert_non_null(strstr(sl_buf_str(b), "\"current\": \"CANCELLED\""));
	sl_buf_free(b);
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sacct_usage_cells),
		cmocka_unit_test(test_sacct_usage_tres),
		cmocka_unit_test(test_usage_forms),
		cmocka_unit_test(test_usage_tres), cmocka_unit_test(test_usage_tres_tasks),
		cmocka_unit_test(test_squeue_json),
		cmocka_unit_test(test_sacct_json),
		cmocka_unit_test(test_sacct_json_ending),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
