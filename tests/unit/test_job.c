/* test_job.c - job spec defaults, shape, copy and the JSON round trip. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "job_testlib.h"
#include "jobstate.h"
#include "xalloc.h"

static void test_shape(void **state)
{
	struct sl_jobspec s;
	struct sl_jobshape sh;
	sl_jobspec_init(&s);
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.nodes, 1);
	assert_int_equal(sh.ntasks, 1);
	assert_int_equal(sh.cpus_per_node, 1);
	assert_int_equal(sh.mem_per_node, 0);
	s.nodes = 2;
	s.ntasks = 5;
	s.cpus_per_task = 2;
	s.mem_per_cpu = 100;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.tasks_per_node, 3);
	assert_int_equal(sh.cpus_per_node, 6);
	assert_int_equal(sh.mem_per_node, 600);
	s.overcommit = 1; /* -O: one task's CPUs a node, the tasks as asked */
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.tasks_per_node, 3);
	assert_int_equal(sh.ntasks, 5);
	assert_int_equal(sh.cpus_per_node, 2);
	assert_int_equal(sh.mem_per_node, 200);
	sl_jobspec_init(&s);
	s.nodes = 4;
	s.ntasks_per_node = 8;
	s.gpus = 8;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.ntasks, 32);
	assert_int_equal(sh.cpus_per_node, 8);
	assert_int_equal(sh.gpus_per_node, 2);
	/* --ntasks-per-gpu alone: slurmctld's GPU for every N tasks, or one a node */
	sl_jobspec_init(&s);
	s.ntasks = 4;
	s.ntasks_per_gpu = 2;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.gpus_per_node, 2);
	s.ntasks = SL_NO_VAL;
	s.nodes = 2;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.gpus_per_node, 1);
}

/* A pending job's node count as Slurm 22.05 shows it (squeue %D,
 * scontrol's NumNodes), each case read off the reference cluster's
 * squeue, whose nodes have 64 CPUs; then what only the record decides. */
static void test_nodes_shown(void **state)
{
	static const struct {
		int nodes, ntasks, tpn, cpt, want;
	} c[] = {
		{SL_NO_VAL, 100000, SL_NO_VAL, SL_NO_VAL, 1563}, /* ceil over the CPUs */
		{SL_NO_VAL, 300, SL_NO_VAL, SL_NO_VAL, 5},
		{SL_NO_VAL, 9, SL_NO_VAL, SL_NO_VAL, 1},
		{SL_NO_VAL, 20, SL_NO_VAL, 4, 2},               /* 16 tasks of 4 a node */
		{SL_NO_VAL, 100, 2, SL_NO_VAL, 50},
		{SL_NO_VAL, 100, 3, SL_NO_VAL, 33},             /* rounded down */
		{6, 8, SL_NO_VAL, SL_NO_VAL, 6},                /* never fewer than -N */
		{SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, SL_NO_VAL, 1}, /* no -n: the shape's */
	};
	struct sl_jobspec s;
	struct sl_jobshape sh;
	struct sl_job j;
	(void)state;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		sl_jobspec_init(&s);
		s.nodes = c[i].nodes;
		s.ntasks = c[i].ntasks;
		s.ntasks_per_node = c[i].tpn;
		s.cpus_per_task = c[i].cpt;
		if (sl_jobspec_nodes_shown(&s, 64) != c[i].want)
			fail_msg("case %zu: %d nodes, not %d", i, sl_jobspec_nodes_shown(&s, 64),
				 c[i].want);
	}
	sl_jobspec_init(&s);
	s.ntasks = 300;
	assert_int_equal(sl_jobspec_nodes_shown(&s, 0), 1); /* no node known: the shape's */
	memset(&j, 0, sizeof(j));
	j.spec = s;
	sl_job_shape(&j, &sh);
	j.state = SL_JOB_PENDING;
	j.nodes_shown = 5;
	assert_int_equal(sl_job_nodes_shown(&j, &sh), 5);
	j.state = SL_JOB_RUNNING; /* then the nodes it holds */
	assert_int_equal(sl_job_nodes_shown(&j, &sh), 1);
}

/* The spec whole and the record listed read back to the same text and
 * the same members. */
static void test_roundtrip(void **state)
{
	struct sl_job *j = sl_job_new(), *k;
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;
	char *text, *text2;
	char *argv[] = {"a b", "c", NULL}, *env[] = {"X=1", "PATH=/bin", NULL};

	j->id = 42;
	j->uid = 1000;
	j->state = SL_JOB_TIMEOUT;
	j->user = sl_xstrdup("alice");
	j->exit_signal = 15;
	j->spec.script = sl_xstrdup("#!/bin/sh\necho \"hi\"\n");
	j->spec.name = sl_xstrdup("jöb\twith\"quotes");
	j->spec.time_limit = SL_TIME_INFINITE;
	j->spec.mem_per_node = 4096;
	j->spec.open_mode = SL_OPEN_APPEND;
	j->spec.umask = 027;
	j->spec.argv = sl_strv_dup(argv);
	j->spec.env = sl_strv_dup(env);
	text = tl_spec_text(&j->spec);
	assert_int_equal(sl_jobspec_parse(text, strlen(text), &s, &err), 0);
	text2 = tl_spec_text(&s);
	assert_string_equal(text, text2);
	assert_string_equal(s.name, "jöb\twith\"quotes");
	assert_string_equal(s.script, "#!/bin/sh\necho \"hi\"\n");
	assert_string_equal(s.argv[0], "a b");
	assert_string_equal(s.env[1], "PATH=/bin");
	assert_int_equal(s.time_limit, SL_TIME_INFINITE);
	assert_int_equal(s.mem_per_node, 4096);
	assert_int_equal(s.umask, 027);
	assert_int_equal(s.open_mode, SL_OPEN_APPEND);
	assert_int_equal(s.nodes, SL_NO_VAL);
	sl_jobspec_clear(&s);
	free(text);
	free(text2);
	text = tl_listing(j);
	k = tl_job(text);
	text2 = tl_listing(k);
	assert_string_equal(text, text2);
	assert_int_equal(k->id, 42);
	assert_int_equal(k->uid, 1000);
	assert_int_equal(k->state, SL_JOB_TIMEOUT);
	assert_string_equal(k->user, "alice");
	assert_int_equal(k->exit_signal, 15);
	assert_string_equal(k->spec.name, "jöb\twith\"quotes");
	assert_int_equal(k->spec.time_limit, SL_TIME_INFINITE);
	assert_int_equal(k->cancelled_by, -1);
	assert_null(k->spec.env); /* a listing leaves them out */
	assert_null(k->spec.script);
	free(text);
	free(text2);
	sl_job_free(j);
	sl_job_free(k);
}

/* A shed job keeps everything a listing shows, and its spec is still a
 * valid one (it reads back); a refill gives the launch fields back. */
static void test_shed(void **state)
{
	struct sl_job *j = sl_job_new(), *k;
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;
	char *argv[] = {"x", NULL}, *env[] = {"X=1", NULL};
	char *text;

	j->id = 7;
	j->state = SL_JOB_COMPLETED;
	j->spec.name = sl_xstrdup("n");
	j->spec.script = sl_xstrdup("#!/bin/sh\ntrue\n");
	j->spec.script_path = sl_xstrdup("run.sh");
	j->spec.argv = sl_strv_dup(argv);
	j->spec.env = sl_strv_dup(env);
	sl_job_shed(j);
	assert_null(j->spec.env);
	assert_null(j->spec.argv);
	assert_string_equal(j->spec.script, "");
	assert_string_equal(j->spec.name, "n");
	assert_string_equal(j->spec.script_path, "run.sh");
	text = tl_spec_text(&j->spec);
	assert_int_equal(sl_jobspec_parse(text, strlen(text), &s, &err), 0);
	assert_string_equal(s.script, "");
	assert_null(s.env);
	sl_jobspec_clear(&s);
	free(text);
	text = tl_listing(j);
	k = tl_job(text);
	assert_int_equal(k->id, 7);
	sl_job_shed(k);
	sl_job_shed(k); /* twice is harmless */
	assert_string_equal(k->spec.script, "");
	/* Refill moves the stored spec's three fields in and leaves the rest. */
	struct sl_jobspec from;
	sl_jobspec_init(&from);
	from.script = sl_xstrdup("#!/bin/sh\n");
	from.env = sl_strv_dup(env);
	from.argv = sl_strv_dup(argv);
	from.name = sl_xstrdup("other");
	sl_job_refill(k, &from);
	assert_null(from.env);
	assert_null(from.script);
	assert_string_equal(k->spec.env[0], "X=1");
	assert_string_equal(k->spec.argv[0], "x");
	assert_string_equal(k->spec.script, "#!/bin/sh\n");
	assert_string_equal(k->spec.name, "n");
	sl_jobspec_clear(&from);
	free(text);
	sl_job_free(j);
	sl_job_free(k);
}

/* A stored spec: the script is required, unknown members are skipped (a
 * store written by a newer sluiced), wrong types and ranges are refused. */
static void test_bad_json(void **state)
{
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;

#define SPEC_PARSE(t) sl_jobspec_parse(t, strlen(t), &s, &err)
	assert_int_equal(SPEC_PARSE("{"), -SL_EPROTO);
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"name\":\"x\"}"), -SL_EPROTO);
	assert_string_equal(err.msg, "job spec: script is missing");
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"script\":\"x\",\"nodes\":\"2\"}"), -SL_EPROTO);
	assert_string_equal(err.msg, "bad JSON: expected an integer at byte 22");
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"script\":\"x\",\"nodes\":99999999999}"), -SL_EPROTO);
	assert_string_equal(err.msg, "job: nodes: 99999999999 is out of range");
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"script\":\"x\",\"env\":[1]}"), -SL_EPROTO);
	assert_string_equal(err.msg, "bad JSON: expected a string at byte 21");
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"script\":\"x\"} {}"), -SL_EPROTO);
	assert_string_equal(err.msg, "bad JSON: trailing bytes at byte 15");
	sl_err_clear(&err);
	assert_int_equal(SPEC_PARSE("{\"script\":\"x\",\"later\":{\"a\":[1]},\"nodes\":3}"), 0);
	assert_int_equal(s.nodes, 3);
	assert_string_equal(s.script, "x");
	sl_jobspec_clear(&s);
#undef SPEC_PARSE
}

/* -C features: a JSON array, left out when empty; records written before
 * the field existed load with none. */
static void test_features(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec s, back;
	struct sl_job *j;
	const char *old = "{\"id\":7,\"spec\":{\"script\":\"x\"},\"state\":\"PENDING\"}";
	const char *bad = "{\"script\":\"x\",\"features\":[1]}";
	char *t;

	sl_jobspec_init(&s);
	s.script = sl_xstrdup("#!/bin/sh\n");
	t = tl_spec_text(&s);
	assert_null(strstr(t, "features"));
	free(t);
	s.features = sl_xcalloc(1, sizeof(char *));
	t = tl_spec_text(&s);
	assert_null(strstr(t, "features"));
	free(t);
	sl_strv_free(s.features);
	s.features = sl_xcalloc(3, sizeof(char *));
	s.features[0] = sl_xstrdup("h100");
	s.features[1] = sl_xstrdup("ib");
	t = tl_spec_text(&s);
	assert_non_null(strstr(t, "\"features\":[\"h100\",\"ib\"]"));
	assert_int_equal(sl_jobspec_parse(t, strlen(t), &back, &err), 0);
	free(t);
	assert_int_equal(sl_strv_len(back.features), 2);
	assert_string_equal(back.features[0], "h100");
	assert_string_equal(back.features[1], "ib");
	sl_jobspec_clear(&back);
	sl_jobspec_clear(&s);

	j = tl_job(old);
	assert_null(j->spec.features);
	sl_job_free(j);
	assert_int_equal(sl_jobspec_parse(bad, strlen(bad), &back, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "bad JSON: expected a string at byte 26");
}

/* Everything a job holds: its listing and its whole spec. Caller frees. */
static char *copy_text(const struct sl_job *j)
{
	char *l = tl_listing(j), *s = tl_spec_text(&j->spec);
	char *t = sl_xasprintf("%s\n%s", l, s);

	free(l);
	free(s);
	return t;
}

/* A copy is deep: every pointer member (listed in job_fields.h) its own,
 * the same text, and it outlives the original. */
static void test_copy(void **state)
{
	struct sl_job *j = sl_job_new(), *c;
	char *v[] = {"X=1", "Y=2", NULL};
	char *a, *b;
	int k = 1;

#define SET_SSTR(f) j->spec.f = sl_xasprintf("%s-%d", #f, k++);
#define SET_JSTR(f) j->f = sl_xasprintf("%s-%d", #f, k++);
#define SET_STRV(f) j->spec.f = sl_strv_dup(v);
	SPEC_STRINGS(SET_SSTR)
	JOB_STRINGS(SET_JSTR)
	SPEC_LAUNCH_STRVS(SET_STRV)
	SPEC_STRVS(SET_STRV)
	j->id = 9;
	j->spec.nodes = 3;
	j->start_time = 1234;
	c = sl_job_copy(j);
	a = copy_text(j);
	b = copy_text(c);
	assert_string_equal(a, b);
#define DIFF_S(f) assert_ptr_not_equal(c->spec.f, j->spec.f);
#define DIFF_V(f) DIFF_S(f) assert_ptr_not_equal(c->spec.f[1], j->spec.f[1]);
#define DIFF_J(f) assert_ptr_not_equal(c->f, j->f);
	SPEC_STRINGS(DIFF_S)
	SPEC_LAUNCH_STRVS(DIFF_V)
	SPEC_STRVS(DIFF_V)
	JOB_STRINGS(DIFF_J)
	sl_job_free(j);
	free(b);
	b = copy_text(c);
	assert_string_equal(a, b);
	sl_job_free(c);
	j = sl_job_new(); /* NULL members stay NULL */
	c = sl_job_copy(j);
	assert_null(c->spec.env);
	assert_null(c->user);
	assert_int_equal(c->cancelled_by, -1);
	sl_job_free(j);
	sl_job_free(c);
	free(a);
	free(b);
}

static void test_states(void **state)
{
	assert_string_equal(sl_jobstate_code(SL_JOB_PENDING), "PD");
	assert_int_equal(sl_jobstate_parse("cd"), SL_JOB_COMPLETED);
	assert_int_equal(sl_jobstate_parse("timeout"), SL_JOB_TIMEOUT);
	assert_int_equal(sl_jobstate_parse("bogus"), -1);
	assert_true(sl_jobstate_can(SL_JOB_PENDING, SL_JOB_RUNNING));
	assert_true(sl_jobstate_can(SL_JOB_PENDING, SL_JOB_CANCELLED));
	assert_false(sl_jobstate_can(SL_JOB_PENDING, SL_JOB_COMPLETED));
	assert_false(sl_jobstate_can(SL_JOB_COMPLETED, SL_JOB_RUNNING));
	assert_true(sl_jobstate_can(SL_JOB_RUNNING, SL_JOB_PENDING));
	assert_true(sl_jobstate_can(SL_JOB_FAILED, SL_JOB_PENDING)); /* scontrol requeue */
	assert_false(sl_jobstate_can(SL_JOB_FAILED, SL_JOB_CANCELLED));
	/* ran: started and held nodes; cancelled while pending is stamped, not run */
	struct sl_job r = {.state = SL_JOB_COMPLETED, .start_time = 10, .nodelist = "vm"};
	assert_true(sl_job_ran(&r));
	r.state = SL_JOB_CANCELLED;
	r.nodelist = NULL;
	assert_false(sl_job_ran(&r));
	r.state = SL_JOB_PENDING;
	r.start_time = 0;
	assert_false(sl_job_ran(&r));
	assert_true(sl_jobstate_can(SL_JOB_COMPLETING, SL_JOB_CANCELLED));
}

/* j->runs' records, as lifecycle.c writes them: the nodes of one stop at
 * the ';' before the next (they ran on into it). */
/* sacct's Suspended: wall time since the start less the run time; none
 * for a job never suspended. */
static void test_suspended_secs(void **state)
{
	struct sl_job *j = sl_job_new();
	(void)state;
	j->state = SL_JOB_RUNNING;
	j->start_time = 1000;
	assert_int_equal(sl_job_suspended_secs(j, 1050), 0);
	j->state = SL_JOB_SUSPENDED; /* suspended at 1010 */
	j->suspend_time = 1010;
	j->pre_suspend = 10;
	assert_int_equal(sl_job_suspended_secs(j, 1030), 20);
	j->state = SL_JOB_RUNNING; /* resumed at 1030 */
	j->suspend_time = 1030;
	assert_int_equal(sl_job_suspended_secs(j, 1040), 20);
	j->state = SL_JOB_COMPLETED; /* ended at 1045: ran 25 of 45 */
	j->end_time = 1045;
	assert_int_equal(sl_job_suspended_secs(j, 2000), 20);
	sl_job_free(j);
}

/* A limit to the second (qsub's walltime): enforced and shown by PBS as
 * given, Slurm's minutes beside it; a record written before the field
 * existed (an older store's) keeps its minutes. */
static void test_limit_secs(void **state)
{
	static const char older[] = "{\"time_limit\": 5, \"script\": \"#!/bin/sh\\n\"}";
	struct sl_job *j = sl_job_new();
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;
	char *text;
	(void)state;

	assert_int_equal(sl_jobspec_parse(older, strlen(older), &s, &err), 0);
	assert_int_equal(s.time_limit_secs, 0);
	assert_int_equal(sl_jobspec_limit_secs(&s), 300);
	sl_jobspec_clear(&s);
	assert_int_equal(sl_jobspec_limit_secs(&s), 0); /* unset: none */
	s.time_limit = SL_TIME_INFINITE;
	assert_int_equal(sl_jobspec_limit_secs(&s), 0);

	j->spec.script = sl_xstrdup("#!/bin/sh\n");
	sl_jobspec_limit_set_secs(&j->spec, 45);
	assert_int_equal(j->spec.time_limit, 1);
	text = tl_spec_text(&j->spec);
	assert_non_null(strstr(text, "\"time_limit_secs\":45"));
	assert_int_equal(sl_jobspec_parse(text, strlen(text), &s, &err), 0);
	assert_int_equal(s.time_limit, 1);
	assert_int_equal(sl_jobspec_limit_secs(&s), 45);
	sl_jobspec_clear(&s);
	free(text);
	sl_jobspec_limit_set_secs(&j->spec, 120); /* a whole minute: the minutes alone */
	assert_int_equal(j->spec.time_limit, 2);
	assert_int_equal(j->spec.time_limit_secs, 0);

	/* the running job's clock stops at the seconds, not at the minute */
	sl_jobspec_limit_set_secs(&j->spec, 45);
	j->state = SL_JOB_RUNNING;
	j->start_time = 1000;
	assert_false(sl_job_past_limit(j, 1044));
	assert_true(sl_job_past_limit(j, 1045));
	assert_int_equal(sl_job_run_secs(j, 1050), 45);
	assert_int_equal(sl_job_end_time(j, 1050), 1045);
	sl_job_free(j);
}

static void test_runs(void **state)
{
	const char *runs = "100 110 150 2 0 4 n[1-2];200 0 210 0 9 1 None";
	const char *second = strchr(runs, ';') + 1;
	struct sl_job_run run;
	(void)state;

	assert_int_equal(sl_job_run_parse(runs, &run), 0);
	assert_int_equal(run.submit, 100);
	assert_int_equal(run.start, 110);
	assert_int_equal(run.end, 150);
	assert_int_equal(run.exit_code, 2);
	assert_int_equal(run.exit_signal, 0);
	assert_int_equal(run.cpus, 4);
	assert_int_equal(run.nodes_len, 6);
	assert_memory_equal(run.nodes, "n[1-2]", 6);
	assert_int_equal(sl_job_run_parse(second, &run), 0);
	assert_int_equal(run.submit, 200);
	assert_int_equal(run.start, 0);
	assert_int_equal(run.exit_signal, 9);
	assert_int_equal(run.nodes_len, 4);
	assert_memory_equal(run.nodes, "None", 4);
	assert_int_equal(sl_job_run_parse("100 110 150", &run), -1);
	assert_int_equal(sl_job_run_parse("100 110 150 0 0 1 ", &run), -1);
	assert_int_equal(sl_job_run_parse("100 110 150 0 0 1 ;200", &run), -1);
	assert_int_equal(sl_job_run_parse("", &run), -1);
	/* records written before they kept the run's eligible time, priority
	 * and reason: the submit time, the job's, none */
	assert_int_equal(sl_job_run_parse(runs, &run), 0);
	assert_int_equal(run.eligible, 100);
	assert_int_equal(run.priority, -1);
	assert_null(run.reason);
	assert_int_equal(run.reason_len, 0);
}

/* sl_job_run_text writes what sl_job_run_parse reads: the run's own
 * eligible time, priority and reason (which may hold blanks) kept. */
static void test_run_text(void **state)
{
	struct sl_job *j = sl_job_new();
	struct sl_job_run run;
	char *t, *two;
	(void)state;

	j->submit_time = 100;
	j->eligible_time = 105;
	j->start_time = 110;
	j->priority = 4242;
	j->alloc_cpus = 2;
	j->nodelist = sl_xstrdup("n[1-2]");
	j->start_reason = sl_xstrdup("job requeued in held state");
	t = sl_job_run_text(j, 150, 0, 15);
	assert_string_equal(t, "100 110 150 0 15 2 n[1-2] 105 4242 job requeued in held state");
	two = sl_xasprintf("%s;%s", t, t);
	assert_int_equal(sl_job_run_parse(two, &run), 0);
	assert_int_equal(run.submit, 100);
	assert_int_equal(run.eligible, 105);
	assert_int_equal(run.priority, 4242);
	assert_int_equal(run.end, 150);
	assert_int_equal(run.exit_signal, 15);
	assert_int_equal(run.nodes_len, 6);
	assert_int_equal(run.reason_len, strlen("job requeued in held state")); /* up to the ';' */
	assert_memory_equal(run.reason, "job requeued in held state", run.reason_len);
	free(t);
	free(two);
	/* never waited for anything, no nodes; a ';' would end the record */
	free(j->start_reason);
	j->start_reason = NULL;
	free(j->nodelist);
	j->nodelist = NULL;
	t = sl_job_run_text(j, 150, 3, 0);
	assert_string_equal(t, "100 110 150 3 0 2 None 105 4242 None");
	free(t);
	j->start_reason = sl_xstrdup("a;b");
	t = sl_job_run_text(j, 150, 3, 0);
	assert_string_equal(t, "100 110 150 3 0 2 None 105 4242 a,b");
	free(t);
	sl_job_free(j);
}

/* The id the commands print: plain, an array's task, a folded record. */
static void test_id_text(void **state)
{
	struct sl_job *j = sl_job_new();
	char buf[64];
	(void)state;
	j->id = 42;
	sl_job_id_text(j, buf, sizeof(buf));
	assert_string_equal(buf, "42");
	j->array_job_id = 40;
	j->array_task_id = 1;
	sl_job_id_text(j, buf, sizeof(buf));
	assert_string_equal(buf, "40_1");
	j->array_tasks = sl_xstrdup("1-3%2");
	sl_job_id_text(j, buf, sizeof(buf));
	assert_string_equal(buf, "40_[1-3%2]");
	sl_job_id_text(j, buf, 5); /* cut, terminated */
	assert_string_equal(buf, "40_[");
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_nodes_shown),
		cmocka_unit_test(test_suspended_secs),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_shed),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_limit_secs),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_run_text),
		cmocka_unit_test(test_id_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
