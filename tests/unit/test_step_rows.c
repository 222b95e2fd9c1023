/* test_step_rows.c - how srun's steps print: squeue -s
 * (compat/squeue_steps.c) and sacct's N.S rows (compat/sacct_fmt.c's step
 * rows), with the widths and words of Slurm 22.05 captured on the
 * reference cluster (reference.md; srun.golden). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sacct_fmt.h"
#include "squeue_steps.h"
#include "xalloc.h"

static struct sl_job *job(uint64_t id, enum sl_jobstate st)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->state = st;
	j->user = sl_xstrdup("alice");
	j->spec.partition = sl_xstrdup("cpu");
	j->spec.name = sl_xstrdup("job.sh");
	j->nodelist = sl_xstrdup("n[1-2]");
	j->submit_time = 100;
	j->start_time = 1000;
	j->alloc_cpus = 4;
	return j;
}

static struct sl_step step(uint64_t job, uint32_t id, const char *name, int64_t start)
{
	struct sl_step s = {0};
	s.job_id = job;
	s.step_id = id;
	s.name = sl_xstrdup(name);
	s.state = SL_JOB_RUNNING;
	s.start_time = start;
	s.ntasks = 2;
	s.nnodes = 1;
	s.cpus = 4;
	s.nodelist = sl_xstrdup("n1");
	s.cancelled_by = -1;
	return s;
}

static void test_squeue_steps(void **state)
{
	struct sl_job *v[] = {job(236, SL_JOB_RUNNING), job(235, SL_JOB_RUNNING),
			      job(237, SL_JOB_PENDING)};
	struct sl_step s[] = {step(235, 0, "bash", 1001), step(235, 1, "sleep", 1003)};
	struct sl_buf *b = sl_buf_new(1 << 16);
	(void)state;
	assert_int_equal(sl_squeue_steps_fmt(v, 3, s, 2, NULL, NULL, 0, 1003, b), 0);
	assert_string_equal(sl_buf_str(b),
			    "         STEPID     NAME PARTITION     USER      TIME NODELIST\n"
			    "          235.0     bash       cpu    alice      0:02 n1\n"
			    "          235.1    sleep       cpu    alice      0:00 n1\n"
			    "      235.batch    batch       cpu    alice      0:03 n1\n"
			    "      236.batch    batch       cpu    alice      0:03 n1\n");
	sl_buf_free(b);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_squeue_steps_fmt(v, 3, s, 2, "235.1,236", NULL, 1, 1003, b), 0);
	assert_string_equal(sl_buf_str(b),
			    "          235.1    sleep       cpu    alice      0:00 n1\n"
			    "      236.batch    batch       cpu    alice      0:03 n1\n");
	sl_buf_free(b);
	/* -o with the step fields; a job field steps lack is refused */
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_squeue_steps_fmt(v, 3, s, 2, "235.1", "%.10i|%j|%A|%l|%N", 0, 1003, b),
			 0);
	assert_string_equal(sl_buf_str(b), "    STEPID|NAME|TASKS|TIME_LIMIT|NODELIST\n"
					   "     235.1|sleep|2|UNLIMITED|n1\n");
	sl_buf_free(b);
	b = sl_buf_new(1 << 16); /* a job field steps lack: the text, as Slurm's */
	assert_int_equal(sl_squeue_steps_fmt(v, 3, s, 2, "235.1", "%i %T", 0, 1003, b), 0);
	assert_string_equal(sl_buf_str(b), "STEPID %T\n235.1 %T\n");
	sl_buf_free(b);
	/* an array task's steps go by its array id (the reference cluster) */
	for (size_t i = 0; i < 3; i++) /* the listing sorted v */
		if (v[i]->id == 236) {
			v[i]->array_job_id = 230;
			v[i]->array_task_id = 1;
		}
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_squeue_steps_fmt(v, 3, s, 2, "236", NULL, 1, 1003, b), 0);
	assert_string_equal(sl_buf_str(b),
			    "    230_1.batch    batch       cpu    alice      0:03 n1\n");
	sl_buf_free(b);
	for (size_t i = 0; i < 3; i++)
		sl_job_free(v[i]);
	sl_step_clear(&s[0]);
	sl_step_clear(&s[1]);
}

static int only_step0(const void *arg, const struct sl_job *j, int step)
{
	(void)arg;
	(void)j;
	return step == 0;
}

static void test_sacct_steps(void **state)
{
	struct sl_job *j = job(235, SL_JOB_COMPLETED);
	struct sl_step s[] = {step(235, 0, "bash", 1001), step(235, 1, "sleep", 1003)};
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	(void)state;
	j->end_time = 1010;
	s[0].state = SL_JOB_CANCELLED;
	s[0].cancelled_by = 2001;
	s[0].exit_signal = 9;
	s[0].end_time = 1005;
	s[1].state = SL_JOB_FAILED;
	s[1].exit_code = 7;
	s[1].end_time = 1004;
	assert_int_equal(sl_sacct_fmt_new("JobID,JobName,State,ExitCode,NTasks,AllocCPUS,NNodes,"
					  "NodeList,Elapsed", &f, &err), 0);
	sl_sacct_fmt_set_steps(f, s, 2);
	assert_int_equal(sl_sacct_fmt_job(f, j, SL_SACCT_PARSABLE2, 1, 2000, b), 0);
	assert_string_equal(sl_buf_str(b),
			    "235|job.sh|COMPLETED|0:0||4|1|n[1-2]|00:00:10\n"
			    "235.batch|batch|COMPLETED|0:0|1|4|1|n1|00:00:10\n"
			    "235.0|bash|CANCELLED by 2001|0:9|2|4|1|n1|00:00:04\n"
			    "235.1|sleep|FAILED|7:0|2|4|1|n1|00:00:01\n");
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	/* DerivedExitCode: the steps' highest status, an exit code over a
	 * signal (the reference cluster: kill -9 then exit 7 is 7:0); and the
	 * cluster's name */
	assert_int_equal(sl_sacct_fmt_new("JobID,DerivedExitCode,Cluster", &f, &err), 0);
	sl_sacct_fmt_set_steps(f, s, 2);
	sl_sacct_fmt_set_cluster(f, "hpc");
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_sacct_fmt_job(f, j, SL_SACCT_PARSABLE2, 0, 2000, b), 0);
	assert_string_equal(sl_buf_str(b), "235|7:0|hpc\n");
	sl_buf_free(b);
	/* -j 235.0,235: step 0's row alone, the derived code still of both */
	sl_sacct_fmt_set_filter(f, only_step0, NULL);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_sacct_fmt_job(f, j, SL_SACCT_PARSABLE2, SL_SACCT_ROWS_STEPS |
					  SL_SACCT_ROWS_NO_BATCH, 2000, b), 0);
	assert_string_equal(sl_buf_str(b), "235|7:0|hpc\n235.0||hpc\n");
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free(j);
	sl_step_clear(&s[0]);
	sl_step_clear(&s[1]);
}

/* The job's measured use (its supervisor's, srun tasks included) is on
 * the job and batch rows only: an srun step has none of its own, so its
 * row is unmeasured, and seff's sum over the steps is the job's, not the
 * job's once per step (the reference cluster: the steps' TotalCPU add up
 * to the job's). */
static void test_sacct_step_usage(void **state)
{
	struct sl_job *j = job(240, SL_JOB_COMPLETED);
	struct sl_step s[] = {step(240, 0, "sh", 1001), step(240, 1, "sh", 1003)};
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	(void)state;
	j->end_time = 1010;
	j->user_usec = 400000;
	j->sys_usec = 13000;
	j->max_rss = 3252;
	for (int i = 0; i < 2; i++) {
		s[i].state = SL_JOB_COMPLETED;
		s[i].end_time = 1004;
	}
	assert_int_equal(sl_sacct_fmt_new("JobID,TotalCPU,UserCPU,SystemCPU,MaxRSS,AveCPU,"
					  "MaxRSSNode", &f, &err), 0);
	sl_sacct_fmt_set_steps(f, s, 2);
	assert_int_equal(sl_sacct_fmt_job(f, j, SL_SACCT_PARSABLE2, 1, 2000, b), 0);
	assert_string_equal(sl_buf_str(b),
			    "240|00:00.413|00:00.400|00:00.013|||\n"
			    "240.batch|00:00.413|00:00.400|00:00.013|3252K|00:00:00|n1\n"
			    "240.0|00:00:00|00:00:00|00:00:00|||\n"
			    "240.1|00:00:00|00:00:00|00:00:00|||\n");
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free(j);
	sl_step_clear(&s[0]);
	sl_step_clear(&s[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_squeue_steps),
					   cmocka_unit_test(test_sacct_steps),
					   cmocka_unit_test(test_sacct_step_usage)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
