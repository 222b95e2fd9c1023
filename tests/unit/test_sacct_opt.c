/* test_sacct_opt.c - sacct's command line and the jobs its window lets
 * through, as slurmdb_job_cond_def_start_end() and slurmdbd's conditions
 * (as_mysql_jobacct_process.c) decide. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "sacct_opt.h"
#include "slurm_reason.h"
#include "xalloc.h"

#define NOW 1795257000 /* 2026-11-21T10:30:00Z */
#define MIDNIGHT 1795219200

static int parse_v(struct sl_sacct_opts *o, struct sl_err *err, char **argv)
{
	int argc = 0, syntax;
	while (argv[argc])
		argc++;
	memset(o, 0, sizeof(*o));
	return sl_sacct_opts_parse(argc, argv, NOW, o, &syntax, err);
}

#define PARSE(o, err, ...) parse_v(o, err, (char *[]){"sacct", __VA_ARGS__, NULL})

static void window_of(const char *a1, const char *a2, const char *a3, int64_t start,
		      int64_t end)
{
	struct sl_sacct_opts o;
	struct sl_sacct_window w;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(PARSE(&o, &err, (char *)a1, (char *)a2, (char *)a3), 0);
	assert_int_equal(sl_sacct_window(&o, NOW, &w, &err), 0);
	assert_int_equal(w.start, start);
	assert_int_equal(w.end, end);
	sl_sacct_opts_clear(&o);
}

/* -S/-E defaults: midnight to now; -s: the instant now, or the instant -S;
 * -j: from the epoch. An end equal to the start or to now is one second
 * later (the query's end is exclusive). */
static void test_window_defaults(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	window_of("-X", "-n", "-P", MIDNIGHT, NOW + 1);
	window_of("-s", "CD", "-X", NOW, NOW + 1);
	window_of("-s", "CD", "-S2026-11-21T10:00:00", NOW - 1800, NOW - 1799);
	window_of("-j", "5", "-X", 0, NOW + 1);
	window_of("-j", "5", "-sCA", 0, NOW + 1);
	window_of("-S", "2026-11-21T10:00:00", "-X", NOW - 1800, NOW + 1);
	window_of("-S2026-11-21T10:00:00", "-E2026-11-21T10:10:00", "-X", NOW - 1800,
		  NOW - 1200);
	/* parse_time's forms, a time of day today's; blank text is no -S/-E */
	window_of("-S", "9:30am", "-X", NOW - 3600, NOW + 1);
	window_of("-S", "", "-X", MIDNIGHT, NOW + 1);
	window_of("-S9:00", "-E", " ", NOW - 5400, NOW + 1);
}

static void test_window_bad(void **state)
{
	struct sl_sacct_opts o;
	struct sl_sacct_window w;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(PARSE(&o, &err, "-S", "2026-11-21T11:00:00"), 0);
	assert_int_equal(sl_sacct_window(&o, NOW, &w, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "sacct: error: Start time (2026-11-21T11:00:00) requested "
				     "is after end time (2026-11-21T10:30:01).");
	sl_sacct_opts_clear(&o);
	/* parse_time's position, as the reference cluster's sacct printed it */
	static const struct {
		const char *in, *msg;
	} bad[] = {
		{"2026-13-01", "Invalid time specification (pos=5): 2026-13-01"},
		{"2026-01-01Tx", "Invalid time specification (pos=11): 2026-01-01Tx"},
		{"now+1x", "Invalid time specification (pos=4): now+1x"},
		{"bogus", "Invalid time specification (pos=0): bogus"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sl_err_clear(&err);
		assert_int_not_equal(PARSE(&o, &err, "-S", (char *)bad[i].in), 0);
		assert_string_equal(err.msg, bad[i].msg);
		sl_sacct_opts_clear(&o);
	}
}

static struct sl_job *job(enum sl_jobstate st, int64_t submit, int64_t start, int64_t end)
{
	struct sl_job *j = sl_job_new();
	j->id = 7;
	j->state = st;
	j->submit_time = j->eligible_time = submit;
	j->start_time = start;
	j->end_time = end;
	return j;
}

static int listed(struct sl_job *j, char **argv)
{
	struct sl_sacct_opts o;
	struct sl_sacct_window w;
	struct sl_err err = SL_ERR_INIT;
	int r;

	assert_int_equal(parse_v(&o, &err, argv), 0);
	assert_int_equal(sl_sacct_window(&o, NOW, &w, &err), 0);
	r = sl_sacct_window_match(&o, &w, j);
	sl_sacct_opts_clear(&o);
	return r;
}

#define LISTED(j, ...) listed(j, (char *[]){"sacct", __VA_ARGS__, NULL})

/* -s selects by what happened in the window: a final state by the end
 * falling inside it (so -S without -E is an instant), PD and R by having
 * been pending or running in it, whatever the job is now. */
static void test_states(void **state)
{
	struct sl_job *done = job(SL_JOB_COMPLETED, NOW - 600, NOW - 500, NOW - 100);
	struct sl_job *run = job(SL_JOB_RUNNING, NOW - 600, NOW - 500, 0);
	(void)state;

	assert_true(LISTED(done, "-S", "2026-11-21T10:00:00")); /* ended after -S */
	assert_false(LISTED(done, "-s", "CD", "-S", "2026-11-21T10:00:00"));
	assert_true(LISTED(done, "-s", "CD", "-S", "2026-11-21T10:28:20")); /* its end */
	assert_true(LISTED(done, "-s", "CD", "-S", "2026-11-21T10:00:00", "-E", "now"));
	assert_false(LISTED(done, "-s", "CA,F", "-S", "2026-11-21T10:00:00", "-E", "now"));
	assert_false(LISTED(done, "-s", "CD")); /* -s alone: the instant now */
	assert_true(LISTED(done, "-s", "R", "-S", "2026-11-21T10:25:00", "-E", "now"));
	assert_true(LISTED(done, "-s", "PD", "-S", "2026-11-21T10:20:00", "-E", "now"));
	assert_false(LISTED(done, "-s", "PD", "-S", "2026-11-21T10:25:00", "-E", "now"));
	assert_true(LISTED(run, "-s", "R"));
	assert_false(LISTED(run, "-s", "PD"));
	sl_job_free(done);
	sl_job_free(run);
}

/* A job's two records, as the daemon lists them (the run first): it ran
 * 10:20:02-10:20:09 (submitted and eligible 10:20:00), a requeue ended it
 * (REQUEUED) and gave it a new submit time, 10:20:09, and eligible time,
 * 121 s later; it was cancelled while pending at 10:20:19. A plain job 8
 * ended in the middle of it all. */
static size_t requeued_records(struct sl_job **v, enum sl_jobstate now_state)
{
	v[0] = job(SL_JOB_REQUEUED, NOW - 600, NOW - 598, NOW - 591);
	v[1] = job(now_state, NOW - 591, 0, now_state == SL_JOB_PENDING ? 0 : NOW - 581);
	v[1]->eligible_time = NOW - 591 + 121;
	v[2] = job(SL_JOB_COMPLETED, NOW - 595, NOW - 595, NOW - 590);
	v[2]->id = 8;
	return 3;
}

/* The states of the records of job 7 sl_sacct_select keeps, in order. */
static char *selected_v(enum sl_jobstate now_state, char **argv)
{
	struct sl_job *v[3];
	size_t n = requeued_records(v, now_state);
	struct sl_sacct_opts o;
	struct sl_sacct_window w;
	struct sl_err err = SL_ERR_INIT;
	char buf[128] = "";

	assert_int_equal(parse_v(&o, &err, argv), 0);
	assert_int_equal(sl_sacct_window(&o, NOW, &w, &err), 0);
	sl_sacct_select(&o, &w, v, &n);
	for (size_t i = 0; i < n; i++)
		if (v[i]->id == 7)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 *buf ? "," : "", sl_jobstate_name(v[i]->state));
	for (size_t i = 0; i < n; i++)
		sl_job_free(v[i]);
	sl_sacct_opts_clear(&o);
	return sl_xstrdup(buf);
}

static void expect_selected(const char *want, enum sl_jobstate now_state, char **argv)
{
	char *got = selected_v(now_state, argv);
	assert_string_equal(got, want);
	free(got);
}

#define SELECTED(want, ...) \
	expect_selected(want, SL_JOB_CANCELLED, (char *[]){"sacct", __VA_ARGS__, NULL})

/* Without -D, slurmdbd lets each record through its conditions first,
 * then keeps a job's newest: the run a requeue ended shows when the
 * window holds it and not the job's record after it (Slurm 22.05's
 * answers to these queries, on the reference cluster). */
static void test_requeued_window(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	SELECTED("CANCELLED", "-j", "7");
	SELECTED("REQUEUED", "-j", "7", "-S", "10:10", "-E", "10:20:07");
	SELECTED("REQUEUED", "-j", "7", "-S", "10:20:07", "-E", "10:20:08");
	SELECTED("REQUEUED", "-j", "7", "-E", "10:20:07");
	SELECTED("CANCELLED", "-j", "7", "-S", "10:10", "-E", "10:27");
	SELECTED("CANCELLED", "-j", "7", "-S", "10:20:12"); /* the run ended before */
	SELECTED("CANCELLED", "-j", "7", "-S", "10:20:12", "-E", "10:21"); /* -j: by submit */
	SELECTED("REQUEUED", "-j", "7", "-S", "10:10", "-E", "10:27", "-s", "RQ");
	SELECTED("CANCELLED", "-j", "7", "-S", "10:10", "-E", "10:27", "-s", "CA");
	SELECTED("CANCELLED", "-j", "7", "-S", "10:10", "-E", "10:27", "-s", "CA,RQ");
	SELECTED("REQUEUED", "-j", "7", "-S", "10:10", "-E", "10:20:07", "-s", "R");
	SELECTED("CANCELLED", "-j", "7", "-S", "10:10", "-E", "10:27", "-s", "PD");
	/* no -j: eligible times count, and the other job is left as it is */
	SELECTED("REQUEUED", "-S", "10:19:50", "-E", "10:20:07");
	SELECTED("REQUEUED", "-S", "10:20:05", "-E", "10:22"); /* eligible again at 10:22:10 */
	SELECTED("CANCELLED", "-S", "10:20:12", "-E", "10:22:30");
	SELECTED("", "-S", "10:20:12", "-E", "10:20:14");
	SELECTED("", "-S", "10:20:12", "-E", "10:20:14", "-s", "RQ");
	SELECTED("REQUEUED", "-S", "10:10", "-E", "10:20:07", "-s", "R");
	/* -D: every record the window holds */
	SELECTED("REQUEUED,CANCELLED", "-D", "-S", "10:10", "-E", "10:27");
	SELECTED("REQUEUED", "-D", "-S", "10:19:50", "-E", "10:20:07");
	SELECTED("REQUEUED,CANCELLED", "-D", "-j", "7");
}

/* Pending again after a requeue (eligible after the requeue's delay): the
 * run the requeue ended is in the window, as slurmdbd's REQUEUED record,
 * while the pending record is not yet. */
static void test_requeued_pending(void **state)
{
	char *argv[] = {"sacct", "-S", "10:00", "-E", "10:22", NULL};
	char *late[] = {"sacct", "-S", "10:00", "-E", "10:23", NULL};
	char *gone[] = {"sacct", "-S", "10:20:10", "-E", "10:21", NULL};
	char *j7[] = {"sacct", "-j", "7", NULL};
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	expect_selected("REQUEUED", SL_JOB_PENDING, argv);
	expect_selected("PENDING", SL_JOB_PENDING, late);
	expect_selected("", SL_JOB_PENDING, gone); /* the run ended before the window */
	expect_selected("PENDING", SL_JOB_PENDING, j7);
}

/* Without -j, a job never eligible (held, even once cancelled) is not in
 * any window; -j lists it. */
static void test_held(void **state)
{
	struct sl_job *j = job(SL_JOB_CANCELLED, NOW - 60, NOW - 30, NOW - 30);
	(void)state;

	assert_true(LISTED(j, "-X"));
	j->spec.hold = 1;
	assert_false(LISTED(j, "-X"));
	assert_true(LISTED(j, "-j", "7"));
	j->state = SL_JOB_PENDING;
	j->start_time = j->end_time = 0;
	assert_false(LISTED(j, "-s", "PD"));
	j->spec.hold = 0;
	assert_true(LISTED(j, "-s", "PD"));
	sl_job_free(j);
}

static void expect_err(char **argv, const char *msg)
{
	struct sl_sacct_opts o;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(parse_v(&o, &err, argv) != 0, 1);
	assert_string_equal(err.msg, msg);
	sl_sacct_opts_clear(&o);
}

#define EXPECT_ERR(msg, ...) expect_err((char *[]){"sacct", __VA_ARGS__, NULL}, msg)

static void test_options(void **state)
{
	struct sl_sacct_opts o;
	struct sl_err err = SL_ERR_INIT;
	char *fields;
	(void)state;

	EXPECT_ERR("sacct: fatal: unrecognized job state value 'napping'", "-s", "napping");
	EXPECT_ERR("sacct: fatal: job state CG is not supported / accounted", "-s", "R,CG");
	EXPECT_ERR("sacct: fatal: job state SPECIAL_EXIT is not supported / accounted", "-s",
		   "SPECIAL_EXIT");
	EXPECT_ERR("sacct: error: Invalid unit type 'x'. Possible options are 'KMGTP'\n"
		   "sacct: fatal: Invalid unit type", "--units=x");
	EXPECT_ERR("sacct: error: Unknown arguments:\nsacct: error:  a\nsacct: error:  b", "a",
		   "-X", "b");
	EXPECT_ERR("sacct: fatal: Options -o(--format) and -l(--long) are mutually exclusive. "
		   "Please remove one and retry.", "-o", "JobID", "-l");
	EXPECT_ERR("sacct: error: --associations is not supported by Sluice", "--associations=x");
	EXPECT_ERR("unrecognized option '--bogus'", "--bogus");
	/* -o lists join; -b adds its three after them; units; -u -1 is all */
	assert_int_equal(PARSE(&o, &err, "-oJobID", "-b", "--format=State", "--units=g", "-u",
			       "-1", "-s", "S,CD,TO,CD", "-P", "--delimiter=;"),
			 0);
	fields = sl_sacct_fields(&o);
	assert_string_equal(fields, "JobID,State,jobid,state,exitcode");
	assert_int_equal(o.unit, 'G');
	assert_int_equal(o.allusers, 1);
	assert_int_equal(o.sel.states.n, 3); /* S is SUSPENDED, a state of Sluice's */
	assert_int_equal(o.mode, SL_SACCT_PARSABLE2);
	assert_string_equal(o.delimiter, ";");
	free(fields);
	sl_sacct_opts_clear(&o);
	/* only states Sluice never has: nothing can match */
	assert_int_equal(PARSE(&o, &err, "-s", "RS,RV"), 0);
	assert_true(o.sel.states.matches_none);
	sl_sacct_opts_clear(&o);
	/* -g -i -I -k -K: slurmdbd's conditions */
	EXPECT_ERR("sacct: error: Invalid group id: no-such-group-x", "-g", "no-such-group-x");
	/* a number is a uid only when the user database has it (uid_from_string) */
	EXPECT_ERR("sacct: error: Invalid user id: 2147483000", "-u", "2147483000");
	EXPECT_ERR("sacct: error: Invalid user id: 99999999999", "-u", "99999999999");
	assert_int_equal(PARSE(&o, &err, "-u", "0"), 0);
	sl_sacct_opts_clear(&o);
	EXPECT_ERR("sacct: error: Invalid numeric value \"x\" for requested node range.", "-i",
		   "x");
	EXPECT_ERR("sacct: error: Invalid numeric value \"2-y\" for requested cpu range.", "-I",
		   "2-y");
	EXPECT_ERR("sacct: fatal: Invalid time limit specification", "-k", "x");
	EXPECT_ERR("sacct: fatal: Invalid time limit specification", "-k", "0");
	EXPECT_ERR("sacct: error: Numeric argument (99999999999) to big for requested cpu range.",
		   "-I", "99999999999");
	EXPECT_ERR("sacct: fatal: When requesting job scripts you must also request specific "
		   "jobs with the '-j' option.", "-B");
	/* slurmdb's job list: a task that is no number, the job named */
	EXPECT_ERR("sacct: fatal: Bad job array element specified: 5", "-j", "5_[1-2]");
	EXPECT_ERR("sacct: fatal: Bad job array element specified: 5", "-j", "5_");
	EXPECT_ERR("sacct: fatal: Bad job/step specified: abc_1", "-j", "abc_1");
	EXPECT_ERR("sacct: fatal: Options --batch-script and --env-vars are mutually exclusive",
		   "-B", "--env-vars", "-j", "5");
	assert_int_equal(PARSE(&o, &err, "-g", "0,5", "-i", "2", "-I", "2-4", "-k", "10", "-K",
			       "1:00:00"), 0);
	{
		struct sl_job *j = sl_job_new();
		j->gid = 5;
		j->alloc_nodes = 2;
		j->alloc_cpus = 3;
		j->spec.time_limit = 30;
		assert_true(sl_sacct_cond_match(&o.cond, j));
		j->spec.time_limit = 61;
		assert_false(sl_sacct_cond_match(&o.cond, j));
		j->spec.time_limit = 30;
		j->alloc_cpus = 5;
		assert_false(sl_sacct_cond_match(&o.cond, j));
		j->alloc_cpus = 3;
		j->gid = 7;
		assert_false(sl_sacct_cond_match(&o.cond, j));
		sl_sacct_opts_clear(&o);
		assert_int_equal(PARSE(&o, &err, "-k", "30"), 0); /* -k alone: that limit */
		j->gid = 7;
		assert_true(sl_sacct_cond_match(&o.cond, j));
		j->spec.time_limit = 31;
		assert_false(sl_sacct_cond_match(&o.cond, j));
		sl_job_free(j);
	}
	sl_sacct_opts_clear(&o);
	/* --reason (22.05 has no -R): by Slurm's names in any case; a job
	 * that ran by why it waited */
	EXPECT_ERR("sacct: fatal: unrecognized job reason value 'Waiting'", "--reason",
		   "None,Waiting");
	assert_int_equal(PARSE(&o, &err, "--reason=jobheldUSER,dependency"), 0);
	{
		struct sl_job *j = sl_job_new();
		j->state = SL_JOB_PENDING;
		j->reason = sl_xstrdup("JobHeldUser");
		assert_true(sl_sacct_cond_match(&o.cond, j));
		j->state = SL_JOB_COMPLETED;
		j->start_time = NOW - 5;
		assert_false(sl_sacct_cond_match(&o.cond, j)); /* ran: None */
		j->start_reason = sl_xstrdup("Dependency");
		assert_true(sl_sacct_cond_match(&o.cond, j));
		sl_job_free(j);
	}
	sl_sacct_opts_clear(&o);
}

/* Slurm's reason names: found in any case, spelled as Slurm does. */
static void test_reason_names(void **state)
{
	(void)state;
	assert_string_equal(sl_slurm_reason_name("accountingpolicy"), "AccountingPolicy");
	assert_string_equal(sl_slurm_reason_name("QOSMAXWALLDURATIONPERJOBLIMIT"),
			    "QOSMaxWallDurationPerJobLimit");
	assert_string_equal(sl_slurm_reason_name("None"), "None");
	assert_string_equal(sl_slurm_reason_name("JobArrayTaskLimit"), "JobArrayTaskLimit");
	assert_null(sl_slurm_reason_name("WaitingForQuota"));
	assert_null(sl_slurm_reason_name(""));
}

/* sacct's order: submit time, then job id (options.c's sort). */
static void test_sort(void **state)
{
	struct sl_job *v[3] = {job(SL_JOB_COMPLETED, NOW - 10, 0, 0),
			       job(SL_JOB_COMPLETED, NOW - 20, 0, 0),
			       job(SL_JOB_RUNNING, NOW - 10, 0, 0)};
	(void)state;
	v[0]->id = 9;
	v[1]->id = 8;
	v[2]->id = 3;
	sl_sacct_sort(v, 3);
	assert_int_equal(v[0]->id, 8);
	assert_int_equal(v[1]->id, 3);
	assert_int_equal(v[2]->id, 9);
	for (int i = 0; i < 3; i++)
		sl_job_free(v[i]);
}

/* In one second, as Slurm 22.05 lists them: the plain job first, then the
 * array's tasks by index, the last task's id (Slurm's keeps the array's)
 * notwithstanding. */
static void test_sort_array(void **state)
{
	struct sl_job *v[4];
	uint64_t ids[4] = {122281, 122284, 122282, 122285};
	int tasks[4] = {3, 0, -1, 1};
	(void)state;
	for (int i = 0; i < 4; i++) {
		v[i] = job(SL_JOB_COMPLETED, NOW - 10, 0, 0);
		v[i]->id = ids[i];
		if (tasks[i] >= 0) {
			v[i]->array_job_id = 122281;
			v[i]->array_task_id = tasks[i];
		}
	}
	sl_sacct_sort(v, 4);
	assert_int_equal(v[0]->id, 122282);
	assert_int_equal(v[1]->id, 122284);
	assert_int_equal(v[2]->id, 122285);
	assert_int_equal(v[3]->id, 122281);
	for (int i = 0; i < 4; i++)
		sl_job_free(v[i]);
}

/* -j's step parts, as the reference cluster listed them: N.S shows that
 * step alone; N whole; "N.1,N" the job's row and step 1 (slurmdbd keeps
 * the steps named before the whole entry); a bad step is fatal. */
static void test_step_parts(void **state)
{
	struct sl_sacct_opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(SL_JOB_COMPLETED, NOW - 10, NOW - 9, NOW - 8);
	(void)state;
	assert_int_equal(PARSE(&o, &err, "-j", "7.1,7.batch"), 0);
	assert_false(sl_sacct_show_full(&o, j));
	assert_true(sl_sacct_step_wanted(&o, j, 1));
	assert_true(sl_sacct_step_wanted(&o, j, SL_SACCT_STEP_BATCH));
	assert_false(sl_sacct_step_wanted(&o, j, 0));
	sl_sacct_opts_clear(&o);
	assert_int_equal(PARSE(&o, &err, "-j", "7,7.1"), 0);
	assert_true(sl_sacct_show_full(&o, j));
	assert_true(sl_sacct_step_wanted(&o, j, 0));
	sl_sacct_opts_clear(&o);
	assert_int_equal(PARSE(&o, &err, "-j", "7.1,7"), 0);
	assert_true(sl_sacct_show_full(&o, j));
	assert_false(sl_sacct_step_wanted(&o, j, 0));
	assert_false(sl_sacct_step_wanted(&o, j, SL_SACCT_STEP_BATCH));
	sl_sacct_opts_clear(&o);
	assert_int_equal(PARSE(&o, &err, "-j", "8.1"), 0); /* another job's step */
	assert_true(sl_sacct_show_full(&o, j));
	sl_sacct_opts_clear(&o);
	assert_int_not_equal(PARSE(&o, &err, "-j", "7.foo"), 0);
	assert_string_equal(err.msg, "sacct: fatal: Bad step specified: 7");
	sl_sacct_opts_clear(&o);
	assert_int_equal(PARSE(&o, &err, "-j", "7.2.3"), 0); /* strtol's: step 2 */
	assert_int_equal(o.steps[0].step, 2);
	sl_sacct_opts_clear(&o);
	sl_job_free(j);
}

/* -T: slurmdbd's truncation of a record to the window (its end now at the
 * latest); a step is cut only when the window has a start. */
static void test_truncate(void **state)
{
	struct sl_sacct_opts o;
	struct sl_sacct_window w = {NOW - 3600, NOW + 1, 0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = sl_job_new();
	int64_t st, en;
	(void)state;

	assert_int_equal(PARSE(&o, &err, "-T", "-X"), 0);
	assert_int_equal(o.truncate, 1);
	sl_sacct_opts_clear(&o);
	/* ran across the window's start, still running: cut at both ends */
	j->state = SL_JOB_RUNNING;
	j->start_time = NOW - 7200;
	assert_int_equal(sl_sacct_truncate(&w, NOW, j), NOW);
	assert_int_equal(j->start_time, NOW - 3600);
	assert_int_equal(j->end_time, NOW);
	/* never started: starts and ends at the window's end */
	j->state = SL_JOB_PENDING;
	j->start_time = j->end_time = 0;
	w.end = NOW - 60;
	assert_int_equal(sl_sacct_truncate(&w, NOW, j), NOW - 60);
	assert_int_equal(j->start_time, NOW - 60);
	assert_int_equal(j->end_time, NOW - 60);
	/* ended inside the window: as it was */
	j->state = SL_JOB_COMPLETED;
	j->start_time = NOW - 600, j->end_time = NOW - 300;
	(void)sl_sacct_truncate(&w, NOW, j);
	assert_int_equal(j->start_time, NOW - 600);
	assert_int_equal(j->end_time, NOW - 300);
	st = NOW - 7200, en = 0;
	sl_sacct_truncate_step(&w, NOW, &st, &en);
	assert_int_equal(st, NOW - 3600);
	assert_int_equal(en, NOW - 60);
	w.start = 0;
	st = NOW - 7200, en = 0;
	sl_sacct_truncate_step(&w, NOW, &st, &en);
	assert_int_equal(st, NOW - 7200);
	assert_int_equal(en, 0);
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_defaults),
		cmocka_unit_test(test_window_bad),
		cmocka_unit_test(test_states), cmocka_unit_test(test_requeued_window),
		cmocka_unit_test(test_requeued_pending),
		cmocka_unit_test(test_held),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_reason_names),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_sort_array),
		cmocka_unit_test(test_step_parts),
		cmocka_unit_test(test_truncate),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
