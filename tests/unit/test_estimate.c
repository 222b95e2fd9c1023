/* test_estimate.c - start-time estimates (libbatch/sched/estimate.c):
 * the plan over admitted workloads' ends and the queue order, StrictFIFO
 * and BestEffortFIFO, cohort borrowing, no time limit, what never fits,
 * evicting workloads, and sbatch --test-only's trial. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

#define MIN 60000

static int64_t est(struct sl_sched *s, uint64_t id)
{
	int64_t t = -1;
	assert_int_equal(sl_sched_start_estimate(s, id, &t), 0);
	return t;
}

/* Add workload id (count cpus) with a time limit in minutes. */
static void add_lim(struct sl_sched *s, uint64_t id, int32_t prio, int64_t created, int32_t count,
		    int64_t lim_min)
{
	tl_add_timed(s, id, "ns", "q", prio, created, count, lim_min * MIN);
}

static void test_fifo_plan(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	add_lim(s, 1, 0, 0, 3, 10);     /* runs 0..10 */
	add_lim(s, 2, 0, 1, 1, 30);     /* runs 0..30 */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 2);
	add_lim(s, 3, 0, 2, 4, 5);      /* needs all 4: after 2 ends, 30..35 */
	add_lim(s, 4, 0, 3, 2, 5);      /* StrictFIFO: behind 3, at 35 */
	add_lim(s, 5, 0, 4, 3, 5);      /* 2 + 3 > 4: after 4, at 40 */
	assert_int_equal(sl_sched_estimate(s, 5 * MIN), 3);
	assert_int_equal(est(s, 1), 0);
	assert_int_equal(est(s, 3), 30 * MIN);
	assert_int_equal(est(s, 4), 35 * MIN);
	assert_int_equal(est(s, 5), 40 * MIN);
	/* 2 ends early: the plan follows */
	assert_int_equal(sl_sched_remove(s, 2), 0);
	sl_sched_estimate(s, 6 * MIN);
	assert_int_equal(est(s, 3), 10 * MIN);
	assert_int_equal(est(s, 4), 15 * MIN);
	tl_free(s, &d);
}

static void test_besteffort_lookahead(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	add_lim(s, 1, 0, 0, 3, 10);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	add_lim(s, 2, 0, 1, 4, 10);     /* blocked until 10 */
	add_lim(s, 3, 0, 2, 1, 60);     /* fits now: Kueue admits it (BestEffortFIFO) */
	sl_sched_estimate(s, 0);
	assert_int_equal(est(s, 3), 0);
	/* and it delays 2 until it ends: the plan says so */
	assert_int_equal(est(s, 2), 60 * MIN);
	tl_free(s, &d);
}

static void test_no_limit_and_never(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	tl_add(s, 1, 0, 0, 4);          /* no time limit: never ends */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	add_lim(s, 2, 0, 1, 1, 10);
	add_lim(s, 3, 0, 2, 9, 10);     /* more than the quota */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	sl_sched_estimate(s, 0);
	assert_int_equal(est(s, 2), SL_SCHED_NEVER);
	assert_int_equal(est(s, 3), SL_SCHED_NEVER);
	assert_int_equal(sl_sched_start_estimate(s, 99, &(int64_t){0}), -SL_ENOENT);
	assert_int_equal(sl_sched_set_time(s, 99, 1, 0), -SL_ENOENT);
	tl_free(s, &d);
}

static void test_overtime_and_restart(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 2"));
	struct sl_sched_decisions d = {0};
	add_lim(s, 1, 0, 0, 2, 10);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	add_lim(s, 2, 0, 1, 2, 10);
	/* past its limit: it ends now (TIMEOUT is near), not in the past */
	sl_sched_estimate(s, 15 * MIN);
	assert_int_equal(est(s, 2), 15 * MIN);
	/* a restarted daemon gives the real start */
	assert_int_equal(sl_sched_set_time(s, 1, 10 * MIN, 12 * MIN), 0);
	assert_int_equal(est(s, 1), 12 * MIN);
	sl_sched_estimate(s, 15 * MIN);
	assert_int_equal(est(s, 2), 22 * MIN);
	tl_free(s, &d);
}

static const char *cohort_model =
	TL_FLAVOR("default")
	TL_CQ("a", "  cohort: co\n", "nominalQuota: 2")
	TL_CQ("b", "  cohort: co\n", "nominalQuota: 2")
	TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b");

static void test_cohort_lending(void **state)
{
	struct sl_sched *s = tl_sched(cohort_model);
	struct sl_sched_decisions d = {0};
	tl_add_timed(s, 1, "ns", "qb", 0, 0, 2, 20 * MIN);
	tl_add_timed(s, 2, "ns", "qa", 0, 1, 1, 10 * MIN);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 2);
	/* a wants 3: its 2 plus 1 lent by b, free when 1 ends at 20 */
	tl_add_timed(s, 3, "ns", "qa", 0, 2, 3, 10 * MIN);
	sl_sched_estimate(s, 0);
	assert_int_equal(est(s, 3), 20 * MIN);
	tl_free(s, &d);
}

/* The plan changes the engine's usage while it runs (reservations of
 * blocked StrictFIFO heads included) and must leave it as it was. */
static void test_state_restored(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
		TL_CQ("a", "  cohort: co\n  queueingStrategy: StrictFIFO\n", "nominalQuota: 4")
		TL_CQ("b", "  cohort: co\n  queueingStrategy: StrictFIFO\n", "nominalQuota: 2")
		TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b"));
	struct sl_sched_decisions d = {0};
	tl_add_timed(s, 1, "ns", "qa", 0, 0, 2, 10 * MIN);
	tl_add_timed(s, 2, "ns", "qb", 0, 0, 2, 50 * MIN);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	tl_add_timed(s, 3, "ns", "qa", 10, 1, 4, 5 * MIN);
	tl_add_timed(s, 4, "ns", "qb", 0, 2, 2, 5 * MIN);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	int64_t used[8];
	for (size_t i = 0; i < n && i < 8; i++)
		used[i] = rows[i].used;
	for (int k = 0; k < 3; k++)
		sl_sched_estimate(s, 0);
	assert_int_equal(sl_sched_usage(s, &rows), n);
	for (size_t i = 0; i < n && i < 8; i++)
		assert_int_equal(rows[i].used, used[i]);
	/* 3 reserves a's own 2 free cpus: 4 cannot borrow them, and waits
	 * for 1 to end at 10; 3 starts then, 4 at 15 when 3 ends */
	int64_t t;
	sl_sched_start_estimate(s, 3, &t);
	assert_int_equal(t, 10 * MIN);
	sl_sched_start_estimate(s, 4, &t);
	assert_int_equal(t, 15 * MIN);
	tl_free(s, &d);
}

static void test_trial(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n  backfill: true\n",
						"nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;
	add_lim(s, 1, 0, 0, 3, 60);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	add_lim(s, 2, 0, 1, 4, 10);     /* reserved at 60 */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &tl_cpu1};
	struct sl_sched_wl w = {.id = 7, .name = "t", .ns = "ns", .queue = "q", .created = 5,
				.npodsets = 1, .podsets = &ps};
	struct sl_sched_trial t;
	assert_int_equal(sl_sched_trial(s, &w, 120 * MIN, 0, &t, &err), 0);
	assert_int_equal(t.start, 70 * MIN);    /* behind 2 */
	assert_string_equal(t.cluster_queue, "cq");
	assert_int_equal(t.backfill_limit, 60 * MIN);   /* --time=1:00:00 would start now */
	assert_int_equal(sl_sched_start_estimate(s, 7, &(int64_t){0}), -SL_ENOENT);
	assert_int_equal(est(s, 2), 60 * MIN);
	/* one that can never fit */
	ps.count = 5;
	assert_int_not_equal(sl_sched_trial(s, &w, MIN, 0, &t, &err), 0);
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_plan),
		cmocka_unit_test(test_besteffort_lookahead),
		cmocka_unit_test(test_no_limit_and_never),
		cmocka_unit_test(test_overtime_and_restart),
		cmocka_unit_test(test_cohort_lending),
		cmocka_unit_test(test_state_restored),
		cmocka_unit_test(test_trial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
