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

/* What an srun step's tasks used (srun_use.c's figures), task by task. */
static void use(struct sl_step *s, int64_t user, int64_t sys, const int64_t (*t)[SL_USE_N],
		int n)
{
	s->use.user_usec = user;
	s->use.sys_usec = sys;
	for (int i = 0; i < n; i++)
		sl_usage_tasks_add(&s->use.tasks, i, t[i]);
	s->state = SL_JOB_COMPLETED;
	s->end_time = 1004;
}

static char *rows(const struct sl_job *j, const struct sl_step *s, size_t n, const char *fields)
{
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	char *out;

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	sl_sacct_fmt_set_steps(f, s, n);
	assert_int_equal(sl_sacct_fmt_job(f, j, SL_SACCT_PARSABLE2, 1, 2000, b), 0);
	out = sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	return out;
}

#define USE_FIELDS "JobID,TotalCPU,UserCPU,SystemCPU,MaxRSS,AveRSS,MaxRSSTask,AveCPU,MinCPUTask," \
		   "MaxRSSNode"

/* Each step's row carries its own use, as Slurm's (each step its own
 * slurmstepd): step 0 ran in the batch script, so the job's measured
 * figures hold its tasks' CPU time and the batch step's row is the rest;
 * step 1 came from outside the script (srun --jobid), in no measured
 * figure, so the job's row adds it. The rows add up to the job's
 * (seff's sum). The largest reaped process (200000 KiB) is step 0's
 * task's, not the script's: the batch step keeps its sampled 3252K. */
static void test_sacct_step_usage(void **state)
{
	static const int64_t t0[][SL_USE_N] = {{1000000, 200000, 210000, 2, 40000, 1000}};
	static const int64_t t1[][SL_USE_N] = {{300000, 1000, 5000, 0, 10, 0},
					       {500000, 3000, 6000, 0, 10, 0}};
	struct sl_job *j = job(240, SL_JOB_COMPLETED);
	struct sl_step s[] = {step(240, 0, "sh", 1001), step(240, 1, "sh", 1003)};
	char *out;
	(void)state;
	j->end_time = 1010;
	j->user_usec = 1400000;
	j->sys_usec = 213000;
	j->max_rss = 3252;
	j->reaped_rss = 200000;
	s[0].in_batch = 1;
	use(&s[0], 800000, 200000, t0, 1);
	use(&s[1], 700000, 100000, t1, 2);
	out = rows(j, s, 2, USE_FIELDS);
	assert_string_equal(out,
			    "240|00:02.413|00:02.100|00:00.313||||||\n"
			    "240.batch|00:00.613|00:00.600|00:00.013|3252K|3252K|0|00:00:00|0|n1\n"
			    "240.0|00:00:01|00:00.800|00:00.200|200000K|200000K|0|00:00:01|0|n1\n"
			    "240.1|00:00.800|00:00.700|00:00.100|3000K|2000K|1|00:00:00|0|n1\n");
	free(out);
	/* a process of the script's own larger than any task is the script's */
	j->reaped_rss = 250000;
	out = rows(j, s, 2, "JobID,MaxRSS");
	assert_string_equal(out, "240|\n240.batch|250000K\n240.0|200000K\n240.1|3000K\n");
	free(out);
	/* a step never takes more than the batch step has */
	s[0].use.user_usec = 2000000;
	out = rows(j, s, 2, "JobID,UserCPU,SystemCPU");
	assert_string_equal(out, "240|00:02.100|00:00.313\n240.batch|00:00:00|00:00.013\n"
				 "240.0|00:00:02|00:00.200\n240.1|00:00.700|00:00.100\n");
	free(out);
	sl_job_free(j);
	sl_step_clear(&s[0]);
	sl_step_clear(&s[1]);
}

/* Steps from before srun measured them, and an allocation of srun's own:
 * no figures of a step's own (00:00:00, empty), and the job's row the
 * batch step's; without a batch step, the job's row is its steps' (the
 * script holding srun's allocation is Sluice's, its use nobody's). */
static void test_sacct_step_unmeasured(void **state)
{
	static const int64_t t0[][SL_USE_N] = {{450000, 900, 1000, 0, 0, 0}};
	struct sl_job *j = job(241, SL_JOB_COMPLETED);
	struct sl_step s[] = {step(241, 0, "sh", 1001)};
	char *out;
	(void)state;
	j->end_time = 1010;
	j->user_usec = 400000;
	j->sys_usec = 13000;
	j->max_rss = 3252;
	s[0].state = SL_JOB_COMPLETED;
	s[0].end_time = 1004;
	out = rows(j, s, 1, "JobID,TotalCPU,MaxRSS,AveCPU");
	assert_string_equal(out, "241|00:00.413||\n241.batch|00:00.413|3252K|00:00:00\n"
				 "241.0|00:00:00||\n");
	free(out);
	j->spec.interactive = 1;
	use(&s[0], 400000, 50000, t0, 1);
	out = rows(j, s, 1, "JobID,TotalCPU,MaxRSS");
	assert_string_equal(out, "241|00:00.450|\n241.0|00:00.450|900K\n");
	free(out);
	sl_job_free(j);
	sl_step_clear(&s[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_squeue_steps),
					   cmocka_unit_test(test_sacct_steps),
					   cmocka_unit_test(test_sacct_step_usage),
					   cmocka_unit_test(test_sacct_step_unmeasured)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
