/* test_depend.c - --dependency lists: what Slurm 22.05 accepts and refuses,
 * how it prints them (the cases observed on the real one, see
 * /work/shared/slurm and the integration test deps.sh), and the evaluation
 * against jobs in every state, with +time and singleton. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "depend.h"

/* Parse s, print it back; NULL when refused. Caller frees. */
static char *round_trip(const char *s, int with_state, int *code)
{
	struct sl_deplist l;
	struct sl_err err = SL_ERR_INIT;
	char *t;
	int r = sl_dep_parse(s, with_state, &l, &err);

	*code = -r;
	if (r != 0) {
		assert_null(l.v);
		return NULL;
	}
	t = sl_dep_format(&l);
	sl_deplist_clear(&l);
	return t ? t : strdup("(null)");
}

static void accepted(const char *in, const char *out)
{
	int code;
	char *t = round_trip(in, 0, &code);
	if (t == NULL)
		fail_msg("\"%s\" refused", in);
	if (strcmp(t, out) != 0)
		fail_msg("\"%s\": got \"%s\", want \"%s\"", in, t, out);
	free(t);
}

static void refused(const char *in, int want)
{
	int code;
	char *t = round_trip(in, 0, &code);
	if (t != NULL)
		fail_msg("\"%s\" accepted as \"%s\"", in, t);
	assert_int_equal(code, want);
}

static void test_parse(void **state)
{
	(void)state;
	accepted("afterok:25", "afterok:25(unfulfilled)");
	accepted("afterany:25:26", "afterany:25(unfulfilled),afterany:26(unfulfilled)");
	accepted("afterok:48?afterany:46", "afterok:48(unfulfilled)?afterany:46(unfulfilled)");
	accepted("after:46+1", "after:46+1(unfulfilled)");
	accepted("afterok:86+5", "afterok:86+5(unfulfilled)");
	accepted("aftercorr:46", "aftercorr:46(unfulfilled)");
	accepted("afternotok:46,afterany:47", "afternotok:46(unfulfilled),afterany:47(unfulfilled)");
	accepted("singleton", "singleton(unfulfilled)");
	accepted("86", "afterany:86(unfulfilled)");
	accepted("AFTEROK:86", "afterok:86(unfulfilled)");
	/* one '?' makes the whole list OR; a repeated term counts once */
	accepted("afterok:86,afterany:86?afterok:86", "afterok:86(unfulfilled)?afterany:86(unfulfilled)");
	accepted("afterok:86,afterok:86", "afterok:86(unfulfilled)");
	accepted("afterok:86:86", "afterok:86(unfulfilled)");
	accepted("afterok:86+5,afterok:86", "afterok:86+5(unfulfilled)");
	accepted("singleton,singleton", "singleton(unfulfilled)");
	accepted("afterok:86?singleton", "afterok:86(unfulfilled)?singleton(unfulfilled)");
	accepted("", "(null)");
	/* an array's tasks in brackets: one term each (the reference cluster's) */
	accepted("afterany:7_[1-2]", "afterany:7_1(unfulfilled),afterany:7_2(unfulfilled)");
	accepted("afterok:7_[1,3]:7_4", "afterok:7_1(unfulfilled),afterok:7_3(unfulfilled),"
		 "afterok:7_4(unfulfilled)");
	accepted("afterok:7_[2]+5,afterany:8", "afterok:7_2+5(unfulfilled),afterany:8(unfulfilled)");
	/* task 0 (an array's first); the set as slurmctld's bitmap holds it:
	 * in order, once each, steps expanded */
	accepted("afterok:7_0", "afterok:7_0(unfulfilled)");
	accepted("afterok:7_[0-1]", "afterok:7_0(unfulfilled),afterok:7_1(unfulfilled)");
	accepted("afterok:7_[3,1,3]", "afterok:7_1(unfulfilled),afterok:7_3(unfulfilled)");
	accepted("afterok:7_[1-5:2]", "afterok:7_1(unfulfilled),afterok:7_3(unfulfilled),"
		 "afterok:7_5(unfulfilled)");

	static const char *const bad[] = {
		"afterok:7_[1", "afterok:7_[]", "afterok:7_[2-1]", "afterok:7_[a]", "afterok:7_[1-2]x",
		"afterok:7_[1%2]", "afterok:7_[ 1]", "afterok:7_[+1]", "afterok:7_[-1]",
		"afterok:7_[4000001]", "afterok:7_[1-2:0]", "afterok:0_1",
		"afterok", "afterok:", "afterok:abc", "after:86+x", "after:86+0", "singleton:1",
		"afterok:86,,afterok:86", "86:86", "afterok:86:", "afterburst:86", "afterok:0",
		"afterok:-1", " afterok:86", "afterok:86 ", "afterok:86_", "afterok:86_x", "afterok:4294967296",
		",afterok:1", "afterok:1,", "afterok:1(unfulfilled)",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i], SL_EDEPEND);
	refused("expand:86", SL_EUNSUPP);
}

static void test_parse_state(void **state)
{
	int code;
	char *t;
	(void)state;
	t = round_trip("afterok:28(failed),afterany:26(unfulfilled)", 1, &code);
	assert_string_equal(t, "afterok:28(failed),afterany:26(unfulfilled)");
	free(t);
	t = round_trip("singleton(fulfilled)?after:3+2(unfulfilled)", 1, &code);
	assert_string_equal(t, "singleton(fulfilled)?after:3+2(unfulfilled)");
	free(t);
	assert_null(round_trip("afterok:28", 1, &code));
	assert_null(round_trip("afterok:28(bogus)", 1, &code));
}

/* ---- evaluation ---- */

#define NJOBS 16
static struct sl_dep_job jobs[NJOBS]; /* by id */
static int blocked;

static int lookup(void *arg, uint64_t id, struct sl_dep_job *out)
{
	(void)arg;
	if (id < NJOBS)
		*out = jobs[id];
	else
		memset(out, 0, sizeof(*out));
	return 0;
}

static int singleton_blocked(void *arg)
{
	(void)arg;
	return blocked;
}

/* Array 10's tasks: task T is jobs[T] (ids 0..NJOBS-1 stand for tasks). */
static int lookup_task(void *arg, uint64_t id, long task, struct sl_dep_job *out)
{
	(void)arg;
	if (id == 10 && task >= 0 && task < NJOBS)
		*out = jobs[task];
	else
		memset(out, 0, sizeof(*out));
	return 0;
}

static struct sl_dep_env env = {lookup, singleton_blocked, NULL, lookup_task, 0, -1};

static void set(uint64_t id, enum sl_jobstate st, int64_t start, int64_t end)
{
	jobs[id] = (struct sl_dep_job){1, st, start, end};
}

/* Evaluate `text` at `now`: the verdict, the list left (as printed), wake. */
static enum sl_dep_verdict eval(const char *text, int64_t now, const char *left, int64_t want_wake)
{
	struct sl_deplist l;
	int64_t wake = -1;
	enum sl_dep_verdict v;
	char *t;

	assert_int_equal(sl_dep_parse(text, 0, &l, NULL), 0);
	v = sl_dep_eval(&l, now, &env, &wake);
	t = sl_dep_format(&l);
	if (strcmp(t ? t : "(null)", left) != 0)
		fail_msg("%s: left \"%s\", want \"%s\"", text, t ? t : "(null)", left);
	assert_int_equal(wake, want_wake);
	free(t);
	sl_deplist_clear(&l);
	return v;
}

static void test_eval(void **state)
{
	(void)state;
	memset(jobs, 0, sizeof(jobs));
	set(1, SL_JOB_PENDING, 0, 0);
	set(2, SL_JOB_RUNNING, 1000, 0);
	set(3, SL_JOB_COMPLETED, 1000, 1100);
	set(4, SL_JOB_FAILED, 1000, 1100);
	set(5, SL_JOB_CANCELLED, 0, 1050); /* cancelled while pending */
	set(6, SL_JOB_TIMEOUT, 1000, 1200);
	set(7, SL_JOB_SUSPENDED, 1000, 0);
	set(8, SL_JOB_COMPLETING, 1000, 0);

	/* after: started, or cancelled before it could */
	assert_int_equal(eval("after:1", 2000, "after:1(unfulfilled)", 0), SL_DEP_WAIT);
	assert_int_equal(eval("after:2", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("after:5", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("after:2+1", 1030, "after:2+1(unfulfilled)", 1060), SL_DEP_WAIT);
	assert_int_equal(eval("after:2+1", 1060, "(null)", 0), SL_DEP_READY);
	/* afterany: any end; running, suspended and completing jobs have not ended */
	assert_int_equal(eval("afterany:3:4:5:6", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afterany:7:8", 2000, "afterany:7(unfulfilled),afterany:8(unfulfilled)", 0),
			 SL_DEP_WAIT);
	assert_int_equal(eval("afterany:3+10", 1200, "afterany:3+10(unfulfilled)", 1700), SL_DEP_WAIT);
	/* afterok, aftercorr (no arrays: as afterok), afternotok */
	assert_int_equal(eval("afterok:3", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afterok:4", 2000, "afterok:4(failed)", 0), SL_DEP_NEVER);
	assert_int_equal(eval("aftercorr:4", 2000, "aftercorr:4(failed)", 0), SL_DEP_NEVER);
	assert_int_equal(eval("aftercorr:3", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afternotok:3", 2000, "afternotok:3(failed)", 0), SL_DEP_NEVER);
	assert_int_equal(eval("afternotok:4:5:6", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afterok:2", 2000, "afterok:2(unfulfilled)", 0), SL_DEP_WAIT);
	/* AND: what holds leaves the list; one failure is enough for never */
	assert_int_equal(eval("afterok:3,afterok:2", 2000, "afterok:2(unfulfilled)", 0), SL_DEP_WAIT);
	assert_int_equal(eval("afternotok:3,afterany:2", 2000,
			      "afternotok:3(failed),afterany:2(unfulfilled)", 0), SL_DEP_NEVER);
	/* OR: one that holds empties it; never only when all failed */
	assert_int_equal(eval("afterok:4?afterany:2", 2000, "afterok:4(failed)?afterany:2(unfulfilled)", 0),
			 SL_DEP_WAIT);
	assert_int_equal(eval("afterok:4?afterany:3", 2000, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afterok:4?afternotok:3", 2000, "afterok:4(failed)?afternotok:3(failed)", 0),
			 SL_DEP_NEVER);
	/* a failed term stays failed: job 4 requeued and completed later
	 * does not revive it (slurmctld's DEPEND_FAILED) */
	{
		struct sl_deplist l;
		assert_int_equal(sl_dep_parse("afterok:4", 0, &l, NULL), 0);
		assert_int_equal(sl_dep_eval(&l, 2000, &env, NULL), SL_DEP_NEVER);
		set(4, SL_JOB_COMPLETED, 3000, 3100);
		assert_int_equal(sl_dep_eval(&l, 4000, &env, NULL), SL_DEP_NEVER);
		sl_deplist_clear(&l);
		set(4, SL_JOB_FAILED, 1000, 1100);
	}
	/* a job nobody knows (purged): as Slurm, its terms hold */
	assert_int_equal(eval("afterok:15", 2000, "(null)", 0), SL_DEP_READY);
	/* singleton */
	blocked = 1;
	assert_int_equal(eval("singleton", 2000, "singleton(unfulfilled)", 0), SL_DEP_WAIT);
	assert_int_equal(eval("singleton,afterok:3", 2000, "singleton(unfulfilled)", 0), SL_DEP_WAIT);
	blocked = 0;
	assert_int_equal(eval("singleton,afterok:3", 2000, "(null)", 0), SL_DEP_READY);
}

/* Arrays: "N_I" and "N_*" read and printed back; a task's term asks for
 * that task; aftercorr asks for the waiting task's own index. */
static void test_array(void **state)
{
	(void)state;
	accepted("afterok:10_3", "afterok:10_3(unfulfilled)");
	accepted("afterany:10_*", "afterany:10_*(unfulfilled)");
	accepted("afterok:10_3,afterok:10_4", "afterok:10_3(unfulfilled),afterok:10_4(unfulfilled)");
	memset(jobs, 0, sizeof(jobs));
	set(3, SL_JOB_COMPLETED, 100, 200);
	set(4, SL_JOB_FAILED, 100, 200);
	set(5, SL_JOB_RUNNING, 100, 0);
	assert_int_equal(eval("afterok:10_3", 300, "(null)", 0), SL_DEP_READY);
	assert_int_equal(eval("afterok:10_4", 300, "afterok:10_4(failed)", 0), SL_DEP_NEVER);
	assert_int_equal(eval("afterok:10_5", 300, "afterok:10_5(unfulfilled)", 0), SL_DEP_WAIT);
	assert_int_equal(eval("afterok:10_9", 300, "(null)", 0), SL_DEP_READY); /* no such task */
	env.self_array = 20;
	env.self_task = 5;
	assert_int_equal(eval("aftercorr:10", 300, "aftercorr:10(unfulfilled)", 0), SL_DEP_WAIT);
	env.self_task = 3;
	assert_int_equal(eval("aftercorr:10", 300, "(null)", 0), SL_DEP_READY);
	env.self_task = 4;
	assert_int_equal(eval("aftercorr:10", 300, "aftercorr:10(failed)", 0), SL_DEP_NEVER);
	env.self_array = 0;
	env.self_task = -1;
}

static void test_names(void **state)
{
	struct sl_deplist l;
	(void)state;
	assert_int_equal(sl_dep_parse("afterok:3:4?singleton", 0, &l, NULL), 0);
	assert_true(sl_dep_names(&l, 4));
	assert_false(sl_dep_names(&l, 5));
	assert_false(sl_dep_names(&l, 0));
	assert_true(sl_dep_has_singleton(&l));
	sl_deplist_clear(&l);
	assert_int_equal(sl_dep_parse("afterok:3", 0, &l, NULL), 0);
	assert_false(sl_dep_has_singleton(&l));
	sl_deplist_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_state),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
