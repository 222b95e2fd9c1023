/* test_sched_partial.c - partial admission (Kueue's minCount, gate
 * PartialAdmission): the reducer's search and its bounds, the counts and
 * usage an admission carries, pending reasons when nothing fits, the
 * reduced size with preemption and borrowing, restart with admitted
 * counts, the submit-time check and scheduling equivalence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

static struct sl_sched_req cpu2 = {"cpu", 2000};

static void add(struct sl_sched *s, uint64_t id, int32_t prio, int64_t created, int32_t count,
		int32_t min, const struct sl_sched_req *req)
{
	struct sl_sched_podset ps = {.name = "main", .count = count, .nreq = 1, .req = req,
				     .min_count = min};
	tl_add_ps(s, id, "ns", "q", prio, created, 1, &ps);
}

static int64_t used(struct sl_sched *s, const char *cq)
{
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].cluster_queue, cq) == 0)
			return rows[i].used;
	return -1;
}

static const char *cq50 = TL_ONE_CQ("  queueingStrategy: StrictFIFO\n", "nominalQuota: 50");

/* scheduler_test.go "partial admission single variable pod set" */
static void test_reduce_to_fit(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_sched_decisions d = {0};
	int32_t n = 0;
	add(s, 1, 0, 0, 50, 20, &cpu2);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].ncounts, 1);
	assert_int_equal(d.admit[0].counts[0], 25);
	assert_int_equal(d.admit[0].n, 1);
	assert_string_equal(d.admit[0].flavors[0].flavor, "default");
	assert_int_equal(used(s, "cq"), 50000);
	assert_int_equal(sl_sched_admitted_count(s, 1, 0, &n), 0);
	assert_int_equal(n, 25);
	assert_int_equal(sl_sched_admitted_count(s, 1, 1, &n), -SL_ENOENT);
	assert_int_equal(sl_sched_admitted_count(s, 2, 0, &n), -SL_ENOENT);
	tl_free(s, &d);
}

/* Only the separate probe of the full reduction (i = totalDelta, outside
 * sort.Search's range) finds minCount. */
static void test_reduce_to_min_count(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_sched_decisions d = {0};
	add(s, 1, 0, 0, 30, 0, &tl_cpu1);
	sl_sched_cycle(s, 0, &d);
	add(s, 2, 0, 1, 20, 10, &cpu2);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[0].counts[0], 30);
	assert_int_equal(d.admit[1].id, 2);
	assert_int_equal(d.admit[1].counts[0], 10);
	assert_int_equal(used(s, "cq"), 50000);
	tl_free(s, &d);
}

/* No reduction fits: the workload keeps the full-size attempt's reason
 * and message (getInitialAssignments returns fullAssignment). */
static void test_cannot_fit_keeps_full_message(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 0, 0, 45, 0, &tl_cpu1);
	add(s, 2, 0, 1, 20, 10, &tl_cpu1);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 1);
	tl_want_pending(s, 2, &p, SL_SCHED_WAIT_QUOTA, "WaitingForQuota",
			"couldn't assign flavors to pod set main: insufficient unused "
			"quota for cpu in flavor default, 15 more needed");
	assert_int_equal(used(s, "cq"), 45000);
	tl_free(s, &d);
}

static void test_cannot_fit_max_capacity(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 5"));
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 0, 0, 20, 10, &tl_cpu1);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 0);
	tl_want_pending(s, 1, &p, SL_SCHED_NEVER_FITS, "ExceedsMaxQuota",
			"couldn't assign flavors to pod set main: insufficient quota for "
			"cpu in flavor default, previously considered podsets requests "
			"(0) + current podset request (20) > maximum capacity (5)");
	tl_free(s, &d);
}

/* min_count 0 or == count: all or nothing, as before. */
static void test_no_min_count_all_or_nothing(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_sched_decisions d = {0};
	add(s, 1, 0, 0, 50, 0, &cpu2);
	add(s, 2, 0, 1, 50, 50, &cpu2);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 0);
	assert_int_equal(used(s, "cq"), 0);
	tl_free(s, &d);
}

/* scheduler_test.go "partial admission multiple variable pod sets" */
static void test_two_podsets_one_factor(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_sched_decisions d = {0};
	struct sl_sched_podset ps[3] = {
		{.name = "one", .count = 20, .nreq = 1, .req = &tl_cpu1},
		{.name = "two", .count = 30, .nreq = 1, .req = &tl_cpu1, .min_count = 10},
		{.name = "three", .count = 15, .nreq = 1, .req = &tl_cpu1, .min_count = 5},
	};
	tl_add_ps(s, 1, "ns", "q", 0, 0, 3, ps);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].ncounts, 3);
	assert_int_equal(d.admit[0].counts[0], 20);
	assert_int_equal(d.admit[0].counts[1], 20);
	assert_int_equal(d.admit[0].counts[2], 10);
	assert_int_equal(used(s, "cq"), 50000);
	tl_free(s, &d);
}

static const char *prio_model =
	TL_ONE_CQ("  preemption: {withinClusterQueue: LowerPriority}\n", "nominalQuota: 20");

/* "preempt with partial admission": the reducer accepts Preempt with
 * targets; the victims found for the reduced size are preempted. */
static void test_preempt_reduced(void **state)
{
	struct sl_sched *s = tl_sched(prio_model);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	struct sl_err err = SL_ERR_INIT;
	add(s, 1, -4, 0, 10, 0, &tl_cpu1);
	struct sl_sched_flavor f = {"main", "cpu", "default"};
	struct sl_sched_assignment a = {"cq", 1, &f};
	assert_int_equal(sl_sched_admitted_partial(s, 1, &a, NULL, &err), 0);
	add(s, 2, 4, 1, 30, 10, &tl_cpu1);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 0);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(d.preempt[0].victim, 1);
	assert_int_equal(d.preempt[0].preemptor, 2);
	/* the reduced attempt's message: 20 cpu, 10 more than the 10 free */
	tl_want_pending(s, 2, &p, SL_SCHED_WAIT_PREEMPTION, "WaitingForPreemptedWorkloads",
			"couldn't assign flavors to pod set main: insufficient unused "
			"quota for cpu in flavor default, 10 more needed. Pending the "
			"preemption of 1 workload(s)");
	assert_int_equal(sl_sched_requeue(s, 1), 0);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 2);
	assert_int_equal(d.admit[0].counts[0], 20);
	assert_int_equal(used(s, "cq"), 20000);
	tl_free(s, &d);
}

/* Reduced to what the cohort can lend now, borrowing. */
static void test_borrowing(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
				TL_CQ("cq-a", "  cohort: team\n", "nominalQuota: 4")
				TL_CQ("cq-b", "  cohort: team\n", "nominalQuota: 6")
				TL_LQ("ns", "a", "cq-a") TL_LQ("ns", "b", "cq-b"));
	struct sl_sched_decisions d = {0};
	struct sl_sched_podset pb = {.name = "main", .count = 2, .nreq = 1, .req = &tl_cpu1};
	struct sl_sched_podset pa = {.name = "main", .count = 12, .nreq = 1, .req = &tl_cpu1,
				     .min_count = 4};
	tl_add_ps(s, 1, "ns", "b", 0, 0, 1, &pb);
	sl_sched_cycle(s, 0, &d);
	tl_add_ps(s, 2, "ns", "a", 0, 1, 1, &pa);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].counts[0], 8);
	const struct sl_sched_usage *rows;
	assert_int_equal(sl_sched_usage(s, &rows), 2);
	assert_string_equal(rows[0].cluster_queue, "cq-a");
	assert_int_equal(rows[0].used, 8000);
	assert_int_equal(rows[0].borrowed, 4000);
	tl_free(s, &d);
}

/* Daemon restart: the admitted count is charged, and checked. */
static void test_admitted_partial_restart(void **state)
{
	struct sl_sched *s = tl_sched(cq50);
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_flavor f = {"main", "cpu", "default"};
	struct sl_sched_assignment a = {"cq", 1, &f};
	int32_t bad[1] = {51}, ok[1] = {3}, n = 0;
	add(s, 1, 0, 0, 50, 2, &cpu2);
	assert_int_equal(sl_sched_admitted_partial(s, 1, &a, bad, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "workload w: pod set main: admitted count 51 not in 0..50");
	assert_int_equal(sl_sched_admitted_partial(s, 1, &a, ok, &err), 0);
	assert_int_equal(used(s, "cq"), 6000);
	assert_int_equal(sl_sched_admitted_count(s, 1, 0, &n), 0);
	assert_int_equal(n, 3);
	sl_sched_free(s);
}

/* Eviction gives back the reduced usage; a reconfiguration keeps it;
 * the next admission searches again from the full count. */
static void test_requeue_and_reconfigure(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	add(s, 1, 0, 0, 6, 2, &tl_cpu1);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.admit[0].counts[0], 4);
	tl_reconfigure(s, TL_ONE_CQ("", "nominalQuota: 8"));
	assert_int_equal(used(s, "cq"), 4000);
	assert_int_equal(sl_sched_requeue(s, 1), 0);
	assert_int_equal(used(s, "cq"), 0);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].counts[0], 6);
	assert_int_equal(used(s, "cq"), 6000);
	tl_free(s, &d);
}

/* Submit-time check: a workload that can fit at minCount is accepted. */
static void test_check_uses_min_count(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 4"));
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_podset ps = {.name = "main", .count = 10, .nreq = 1, .req = &tl_cpu1,
				     .min_count = 4};
	struct sl_sched_wl w = {1, "w", "ns", "q", 0, 0, 1, &ps};
	assert_int_equal(sl_sched_check(s, &w, &err), 0);
	ps.min_count = 5;
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOFIT);
	sl_sched_free(s);
}

/* minCount is part of the scheduling shape: a parked all-or-nothing
 * workload does not park its partial twin. */
static void test_equivalence_includes_min_count(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 0, 0, 8, 0, &tl_cpu1);
	add(s, 2, 0, 1, 8, 0, &tl_cpu1);
	add(s, 3, 0, 2, 8, 2, &tl_cpu1);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 3);
	assert_int_equal(d.admit[0].counts[0], 4);
	assert_int_equal(sl_sched_pending_info(s, 2, &p), 0);
	assert_string_equal(p.reason, "ExceedsMaxQuota");
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce_to_fit),
		cmocka_unit_test(test_reduce_to_min_count),
		cmocka_unit_test(test_cannot_fit_keeps_full_message),
		cmocka_unit_test(test_cannot_fit_max_capacity),
		cmocka_unit_test(test_no_min_count_all_or_nothing),
		cmocka_unit_test(test_two_podsets_one_factor),
		cmocka_unit_test(test_preempt_reduced),
		cmocka_unit_test(test_borrowing),
		cmocka_unit_test(test_admitted_partial_restart),
		cmocka_unit_test(test_requeue_and_reconfigure),
		cmocka_unit_test(test_check_uses_min_count),
		cmocka_unit_test(test_equivalence_includes_min_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
