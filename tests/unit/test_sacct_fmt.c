/* test_sacct_fmt.c - sacct rows (job + batch step), widths, '+' truncation
 * and -p/-P, checked against real Slurm 22.05 output (golden files in
 * tests/data/output/, from reference.md Part 3 A2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "sacct_fmt.h"
#include "xalloc.h"

#define NOW 1795257000


/* only: NULL = every job, else a list of ids terminated by 0 */
static void golden(const char *fields, enum sl_sacct_mode mode, int header, int steps,
		   const uint64_t *only, const char *expect_file)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **v = tl_output_jobs("sacct_jobs.jsonl", &n);
	char *want = tl_output(expect_file);

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	if (header)
		assert_int_equal(sl_sacct_fmt_header(f, mode, b), 0);
	for (size_t i = 0; i < n; i++) {
		int keep = only == NULL;
		for (size_t k = 0; only && only[k]; k++)
			keep |= only[k] == v[i]->id;
		if (keep)
			assert_int_equal(sl_sacct_fmt_job(f, v[i], mode, steps, NOW, b), 0);
	}
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
}

static void test_default(void **state)
{
	(void)state;
	golden(SL_SACCT_FIELDS_DEFAULT, SL_SACCT_TABLE, 1, 1, NULL, "sacct_default.out");
	golden("JobID,JobName,State,ExitCode,Elapsed", SL_SACCT_TABLE, 1, 1, NULL,
	       "sacct_elapsed.out");
}

static void test_variants(void **state)
{
	static const uint64_t five_six[] = {5, 6, 0};
	(void)state;
	golden("JobID,JobName,State,ExitCode,Elapsed,Timelimit", SL_SACCT_TABLE, 1, 1,
	       five_six, "sacct_timelimit.out");
	golden("JobID,JobName,State,ExitCode,Elapsed", SL_SACCT_PARSABLE2, 1, 0, NULL,
	       "sacct_parsable.out");
	golden("JobID,State", SL_SACCT_TABLE, 0, 0, NULL, "sacct_noheader.out");
	golden("JobID%20,JobName%30,State%20", SL_SACCT_TABLE, 1, 0, NULL, "sacct_widths.out");
}

static char *one(const char *fields, enum sl_sacct_mode mode, int steps, uint64_t id)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n;
	struct sl_job **v = tl_output_jobs("sacct_jobs.jsonl", &n);
	char *out;

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	for (size_t i = 0; i < n; i++)
		if (v[i]->id == id)
			assert_int_equal(sl_sacct_fmt_job(f, v[i], mode, steps, NOW, b), 0);
	out = sl_buf_steal(b);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
	return out;
}

static void test_fields(void **state)
{
	char *s;
	(void)state;
	s = one("JobID,User,Partition,NNodes,NodeList,NTasks,ReqMem,Submit,Start,End",
		SL_SACCT_PARSABLE2, 1, 3);
	/* a step's Submit is its start (sacct/print.c: step->start) */
	assert_string_equal(s, "3|alice|cpu|2|n[1-2]||0|2026-11-21T10:25:01|"
			    "2026-11-21T10:25:03|2026-11-21T10:25:04\n"
			    "3.batch|||1|n1|1||2026-11-21T10:25:03|"
			    "2026-11-21T10:25:03|2026-11-21T10:25:04\n");
	free(s);
	s = one("jobidraw,uid,gid,group,priority,elapsedraw,derived", SL_SACCT_PARSABLE, 1, 5);
	assert_string_equal(s, "5|2001|2001|alice|11012|87|0:0|\n5.batch|||||87||\n");
	free(s);
}

static void test_bad_field(void **state)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_sacct_fmt_new("JobID,Bogus", &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid field requested: \"Bogus\"");
	assert_null(f);
}

/* Job 9, built by the test, and a sacct format. */
struct live {
	struct sl_job *j;
	struct sl_sacct_fmt *f;
	struct sl_buf *b;
};

static struct sl_job *live_new(struct live *l, const char *fields)
{
	struct sl_err err = SL_ERR_INIT;

	l->j = sl_job_new();
	l->j->id = 9;
	l->b = sl_buf_new(4096);
	assert_int_equal(sl_sacct_fmt_new(fields, &l->f, &err), 0);
	return l->j;
}

/* Appends the job's rows, with its batch step. */
static void live_rows(struct live *l, enum sl_sacct_mode mode)
{
	assert_int_equal(sl_sacct_fmt_job(l->f, l->j, mode, 1, NOW, l->b), 0);
}

static void live_free(struct live *l)
{
	sl_buf_free(l->b);
	sl_sacct_fmt_free(l->f);
	sl_job_free(l->j);
}

static void test_live_jobs(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,State,AllocCPUS,ExitCode,Start,End");
	(void)state;

	j->spec.name = sl_xstrdup("wrap");
	j->spec.partition = sl_xstrdup("cpu");
	j->state = SL_JOB_PENDING;
	j->alloc_cpus = 4;
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->state = SL_JOB_RUNNING;
	j->start_time = NOW - 61;
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|PENDING|4|0:0|Unknown|Unknown\n"
			    "9|RUNNING|4|0:0|2026-11-21T10:28:59|Unknown\n"
			    "9.batch|RUNNING|4|0:0|2026-11-21T10:28:59|Unknown\n");
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_RUNNING);
	/* scontrol suspend: slurmdbd's steps are SUSPENDED with the job */
	j->state = SL_JOB_SUSPENDED;
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_SUSPENDED);
	assert_int_equal(sl_sacct_step_state(j, SL_JOB_RUNNING), SL_JOB_SUSPENDED);
	assert_int_equal(sl_sacct_step_state(j, SL_JOB_COMPLETED), SL_JOB_COMPLETED);
	j->state = SL_JOB_RUNNING;
	assert_int_equal(sl_sacct_step_state(j, SL_JOB_RUNNING), SL_JOB_RUNNING);
	/* past its time limit, being ended: slurmdbd's is TIMEOUT now, ended
	 * when the limit came */
	sl_buf_reset(l.b);
	j->spec.time_limit = 1;
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|TIMEOUT|4|0:0|2026-11-21T10:28:59|2026-11-21T10:29:59\n"
			    "9.batch|RUNNING|4|0:0|2026-11-21T10:28:59|Unknown\n");
	j->spec.time_limit = 2; /* 61 s of 120: running */
	assert_false(sl_job_past_limit(j, NOW));
	/* cancelled, its processes still ending: slurmdbd's is CANCELLED now,
	 * the batch step's too, both ended at the cancel (the daemon's
	 * end_time) */
	sl_buf_reset(l.b);
	j->state = SL_JOB_COMPLETING;
	j->cancelled_by = 1001;
	j->end_time = NOW;
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|CANCELLED by 1001|4|0:0|2026-11-21T10:28:59|2026-11-21T10:30:00\n"
			    "9.batch|CANCELLED|4|0:0|2026-11-21T10:28:59|2026-11-21T10:30:00\n");
	j->state = SL_JOB_FAILED;
	j->exit_code = 2;
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_FAILED);
	j->state = SL_JOB_OUT_OF_MEMORY;
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_OUT_OF_MEMORY);
	live_free(&l);
}

/* Comment: --comment on the job row only (sacct.c: 14 wide), empty on the
 * step rows and without one. */
static void test_comment(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,comment");
	(void)state;

	j->state = SL_JOB_COMPLETED;
	j->start_time = NOW - 5;
	j->end_time = NOW;
	assert_int_equal(sl_sacct_fmt_header(l.f, SL_SACCT_TABLE, l.b), 0);
	live_rows(&l, SL_SACCT_TABLE);
	j->spec.comment = sl_xstrdup("a comment");
	live_rows(&l, SL_SACCT_TABLE);
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "JobID               Comment \n"
			    "------------ -------------- \n"
			    "9                           \n"
			    "9.batch                     \n"
			    "9                 a comment \n"
			    "9.batch                     \n"
			    "9|a comment\n"
			    "9.batch|\n");
	live_free(&l);
}

/* A job cancelled while pending: slurmctld stamps start = end = the
 * cancel time, but it never ran a batch script: no N.batch row, and sacct
 * shows its Start as None (the reference cluster). Its Timelimit without
 * --time stays Partition_Limit (slurmdbd's NO_VAL); a job that ran has its
 * partition's, UNLIMITED here. */
static void test_cancelled_pending(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,State,ExitCode,Timelimit,NodeList,Start");
	(void)state;

	j->state = SL_JOB_CANCELLED;
	j->cancelled_by = 1001;
	j->start_time = j->end_time = NOW;
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->nodelist = sl_xstrdup("n1"); /* cancelled while running */
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|CANCELLED by 1001|0:0|Partition_Limit|None assigned|None\n"
			    "9|CANCELLED by 1001|0:0|UNLIMITED|n1|2026-11-21T10:30:00\n"
			    "9.batch|COMPLETED|0:0||n1|2026-11-21T10:30:00\n");
	assert_false(sl_sacct_has_batch_step(j) == 0);
	live_free(&l);
	j = live_new(&l, "JobID,Timelimit,TimelimitRaw");
	j->state = SL_JOB_PENDING;
	live_rows(&l, SL_SACCT_TABLE);
	j->spec.time_limit = 90;
	live_rows(&l, SL_SACCT_TABLE);
	assert_string_equal(sl_buf_str(l.b), "9            Partition+ Partition+ \n"
					     "9              01:30:00         90 \n");
	live_free(&l);
}

/* Reason of a job that ran: what it last waited for (not None, Priority or
 * Resources), else None, whatever it ended with; a job that never ran
 * shows the reason it has (the reference cluster's slurmdbd). */
static void test_reason(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,Reason");
	(void)state;

	j->state = SL_JOB_FAILED;
	j->start_time = NOW - 10;
	j->end_time = NOW;
	j->nodelist = sl_xstrdup("n1");
	j->reason = sl_xstrdup("NonZeroExitCode");
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->start_reason = sl_xstrdup("Dependency");
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b), "9|None\n9.batch|\n9|Dependency\n9.batch|\n");
	live_free(&l);
}

/* print.c takes 128 off an exit status of 128 and up: a script that traps
 * TERM and exits 143 reads 15:0 on the job and on its batch step. */
static void test_exitcode_high(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,State,ExitCode");
	(void)state;

	j->state = SL_JOB_FAILED;
	j->start_time = NOW - 5;
	j->end_time = NOW;
	j->exit_code = 143;
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->exit_code = 255;
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b), "9|FAILED|15:0\n9.batch|FAILED|15:0\n"
					     "9|FAILED|127:0\n9.batch|FAILED|127:0\n");
	live_free(&l);
}

/* The fields added for issue 12, on a running 2-node job of 4 CPUs with
 * --mem-per-cpu=1000 that waited 100 s after it became eligible and has
 * run 100 s: the job row, then its batch step (one node's share). */
/* slurmctld's derived_ec: the worst step that reported its end; a step
 * the job's cancel killed (CANCELLED by SIGTERM or SIGKILL) is none of it. */
static void test_derived(void **state)
{
	struct sl_step st[3] = {
		{.job_id = 9, .state = SL_JOB_FAILED, .exit_code = 2},
		{.job_id = 9, .state = SL_JOB_CANCELLED, .exit_signal = 15},
		{.job_id = 10, .state = SL_JOB_FAILED, .exit_code = 7},
	};
	struct sl_job *j = sl_job_new();
	(void)state;
	j->id = 9;
	j->state = SL_JOB_COMPLETED;
	assert_int_equal(sl_sacct_derived_status(st, 3, j), 2 << 8);
	assert_int_equal(sl_sacct_derived_status(st + 1, 1, j), 0);
	st[1].exit_signal = 11; /* died of its own SEGV: srun reported it */
	assert_int_equal(sl_sacct_derived_status(st + 1, 1, j), 11);
	st[1].exit_signal = 15;
	st[1].state = SL_JOB_COMPLETED; /* a signal an end was reported with */
	assert_int_equal(sl_sacct_derived_status(st + 1, 1, j), 15);
	/* requeued: a run's steps are those that started within it */
	st[0].start_time = 100;
	st[1].start_time = 300;
	j->runs = sl_xstrdup("50 100 200 0 15 1 vm");
	j->start_time = 250;
	assert_false(sl_sacct_step_of_run(j, &st[0]));
	assert_true(sl_sacct_step_of_run(j, &st[1]));
	assert_int_equal(sl_sacct_derived_status(st, 2, j), 15);
	j->start_time = 0; /* pending again: none */
	assert_false(sl_sacct_step_of_run(j, &st[1]));
	sl_job_free(j);
}

static void test_usage_fields(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,CPUTime,CPUTimeRAW,AllocTRES,ReqTRES,ReqMem,"
					"Reserved,Eligible,Submit,Flags,MaxRSS,AveRSS,MaxVMSize,"
					"TotalCPU,UserCPU,SystemCPU,NodeList,ReqCPUS,AllocNodes");
	(void)state;

	j->state = SL_JOB_RUNNING;
	j->spec.nodes = 2;
	j->spec.cpus_per_task = 2;
	j->spec.mem_per_cpu = 1000;
	j->alloc_cpus = 4;
	j->alloc_nodes = 2;
	j->submit_time = j->eligible_time = NOW - 200;
	j->start_time = NOW - 100;
	j->nodelist = sl_xstrdup("n[1-2]");
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|00:06:40|400|billing=4,cpu=4,mem=4000M,node=2|"
			    "billing=4,cpu=4,mem=4000M,node=2|4000M|00:01:40|2026-11-21T10:26:40|"
			    "2026-11-21T10:26:40|SchedMain,StartRecieved||||00:00:00|00:00:00|00:00:00|n[1-2]|4|2\n"
			    "9.batch|00:03:20|200|cpu=2,mem=2000M,node=1||||2026-11-21T10:28:20|"
			    "2026-11-21T10:28:20|||||00:00:00|00:00:00|00:00:00|n1|2|1\n");
	live_free(&l);
	/* pending: no allocation, the request; never started */
	j = live_new(&l, "AllocTRES,ReqTRES,Flags,Reserved,CPUTime");
	j->state = SL_JOB_PENDING;
	j->eligible_time = NOW - 30;
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->spec.hold = 1; /* held: never eligible */
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b), "|billing=1,cpu=1,node=1|StartRecieved|00:00:30|00:00:00\n"
					     "|billing=1,cpu=1,node=1|StartRecieved|00:00:00|00:00:00\n");
	live_free(&l);
}

/* print_fields.c: a string longer than its column ends in '+', a date is
 * cut (in -P too), a number or a duration overflows; --delimiter. */
static void test_cells(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,Elapsed,Start%10,JobName%4,ElapsedRaw%2");
	(void)state;

	j->spec.name = sl_xstrdup("longname");
	j->state = SL_JOB_COMPLETED;
	j->start_time = NOW - 100 * 86400;
	j->end_time = NOW;
	assert_int_equal(sl_sacct_fmt_job(l.f, j, SL_SACCT_TABLE, 0, NOW, l.b), 0);
	sl_sacct_fmt_set_delimiter(l.f, ";;");
	assert_int_equal(sl_sacct_fmt_job(l.f, j, SL_SACCT_PARSABLE2, 0, NOW, l.b), 0);
	assert_int_equal(sl_sacct_fmt_job(l.f, j, SL_SACCT_PARSABLE, 0, NOW, l.b), 0);
	assert_string_equal(sl_buf_str(l.b),
			    "9            100-00:00:00 2026-08-13 lon+ 8640000 \n"
			    "9;;100-00:00:00;;2026-08-13;;longname;;8640000\n"
			    "9;;100-00:00:00;;2026-08-13;;longname;;8640000;;\n");
	live_free(&l);
}

/* -o ALL (any prefix of it) is every field; sacct -e lists them as Slurm's
 * _help_fields_msg() does (the golden file is Slurm's fields[] laid out
 * that way); the removed GRES fields say what replaced them. */
static void test_all_and_help(void **state)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	char *want = tl_output("sacct_helpformat.out");
	(void)state;

	assert_int_equal(sl_sacct_fields_help(b), 0);
	assert_string_equal(sl_buf_str(b), want);
	assert_int_equal(sl_sacct_fmt_new(" al%5", &f, &err), 0);
	sl_buf_free(b);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_sacct_fmt_header(f, SL_SACCT_PARSABLE2, b), 0);
	assert_int_equal(strncmp(sl_buf_str(b), "Account|AdminComment|AllocCPUS|", 31), 0);
	sl_sacct_fmt_free(f);
	assert_int_equal(sl_sacct_fmt_new("JobID,AllocGRES", &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "AllocGRES has been removed, please use AllocTRES");
	sl_err_clear(&err);
	/* prefixes follow Slurm's table: MaxRSSN is MaxRSSNode, C is Cluster */
	assert_int_equal(sl_sacct_fmt_new("maxrssn,c", &f, &err), 0);
	sl_buf_free(b);
	b = sl_buf_new(4096);
	assert_int_equal(sl_sacct_fmt_header(f, SL_SACCT_PARSABLE2, b), 0);
	assert_string_equal(sl_buf_str(b), "MaxRSSNode|Cluster\n");
	sl_sacct_fmt_free(f);
	sl_buf_free(b);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_bad_field),
		cmocka_unit_test(test_live_jobs),
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_cancelled_pending),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_exitcode_high),
		cmocka_unit_test(test_usage_fields), cmocka_unit_test(test_derived),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_all_and_help),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
