/* test_backfill.c - backfill (libbatch/sched/backfill.c): a workload goes
 * ahead of blocked work only when it fits now and ends before every
 * reservation ahead of it; off unless asked; StrictFIFO; the cohort;
 * no time limit; a workload ahead that could preempt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

#define MIN 60000

static void add_lim(struct sl_sched *s, uint64_t id, int32_t prio, int64_t created, int32_t count,
		    int64_t lim_min)
{
	tl_add_timed(s, id, "ns", "q", prio, created, count, lim_min * MIN);
}

static bool admitted(const struct sl_sched_decisions *d, uint64_t id)
{
	for (size_t i = 0; i < d->nadmit; i++)
		if (d->admit[i].id == id)
			return true;
	return false;
}

/* 1 runs 3 of 4 cpus until 60; 2 needs 4 (reserved at 60); 3 and 4 need 1. */
static struct sl_sched *blocked(const char *model, int64_t lim3, int64_t lim4,
				struct sl_sched_decisions *d)
{
	struct sl_sched *s = tl_sched(model);
	add_lim(s, 1, 0, 0, 3, 60);
	sl_sched_run_to_fixpoint(s, 0, 10, d);
	add_lim(s, 2, 0, 1, 4, 10);
	add_lim(s, 3, 0, 2, 1, lim3);
	add_lim(s, 4, 0, 3, 1, lim4);
	sl_sched_run_to_fixpoint(s, 0, 10, d);
	return s;
}

static void test_strict_backfills_short(void **state)
{
	struct sl_sched_decisions d = {0};
	struct sl_sched *s = blocked(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n  backfill: true\n", "nominalQuota: 4"), 90, 30, &d);
	assert_false(admitted(&d, 2));
	assert_false(admitted(&d, 3));  /* 90 min would delay 2 */
	assert_true(admitted(&d, 4));   /* 30 min ends before 60 */
	int64_t t;
	sl_sched_estimate(s, 0);
	assert_int_equal(sl_sched_start_estimate(s, 2, &t), 0);
	assert_int_equal(t, 60 * MIN);  /* not delayed */
	tl_free(s, &d);
}

static void test_off_by_default(void **state)
{
	struct sl_sched_decisions d = {0};
	struct sl_sched *s = blocked(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n", "nominalQuota: 4"), 90, 30, &d);
	assert_int_equal(d.nadmit, 1);
	sl_sched_set_backfill(s, 1);    /* the Configuration's switch */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_true(admitted(&d, 4));
	assert_false(admitted(&d, 3));
	tl_free(s, &d);
}

static void test_exact_end_and_no_limit(void **state)
{
	struct sl_sched_decisions d = {0};
	/* ends exactly at the reservation: allowed; no limit: never */
	struct sl_sched *s = blocked(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n  backfill: true\n", "nominalQuota: 4"), 60, 0, &d);
	assert_true(admitted(&d, 3));
	assert_false(admitted(&d, 4));
	tl_free(s, &d);
}

static void test_time_moves(void **state)
{
	struct sl_sched_decisions d = {0};
	struct sl_sched *s = blocked(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n  backfill: true\n", "nominalQuota: 4"), 45, 45, &d);
	/* at 0 both fit before 60, but one cpu only: 3 goes, 4 does not fit */
	assert_true(admitted(&d, 3));
	assert_false(admitted(&d, 4));
	/* at 20, 4 would end at 65, after the reservation */
	sl_sched_run_to_fixpoint(s, 20 * MIN, 10, &d);
	assert_false(admitted(&d, 4));
	tl_free(s, &d);
}

static void test_besteffort(void **state)
{
	struct sl_sched_decisions d = {0};
	/* BestEffortFIFO alone admits 3 (Kueue: it fits) and delays 2 */
	struct sl_sched *s = blocked(TL_ONE_CQ("", "nominalQuota: 4"), 90, 30, &d);
	assert_true(admitted(&d, 3));
	tl_free(s, &d);
	/* with backfill, 3 would delay 2's reservation: it waits; 4 goes */
	memset(&d, 0, sizeof(d));
	s = blocked(TL_ONE_CQ("  backfill: true\n", "nominalQuota: 4"), 90, 30, &d);
	assert_false(admitted(&d, 2));
	assert_false(admitted(&d, 3));
	assert_true(admitted(&d, 4));
	/* 4 and 1 end: 2 starts, and 3 still may not */
	assert_int_equal(sl_sched_remove(s, 4), 0);
	assert_int_equal(sl_sched_remove(s, 1), 0);
	sl_sched_run_to_fixpoint(s, 40 * MIN, 10, &d);
	assert_true(admitted(&d, 2));
	assert_false(admitted(&d, 3));
	tl_free(s, &d);
	/* 4 without a time limit: neither goes, each held by the gate */
	memset(&d, 0, sizeof(d));
	s = blocked(TL_ONE_CQ("  backfill: true\n", "nominalQuota: 4"), 90, 0, &d);
	assert_int_equal(d.nadmit, 1);
	struct sl_sched_pending p;
	for (uint64_t id = 3; id <= 4; id++)
		tl_want_pending(s, id, &p, SL_SCHED_WAIT_PRIORITY, "WaitingForQuota",
				"starting now would delay workloads ahead of it (backfill)");
	tl_free(s, &d);
}

static const char *cohort_model =
	TL_FLAVOR("default")
	TL_CQ("a", "  cohort: co\n  queueingStrategy: StrictFIFO\n", "nominalQuota: 2")
	TL_CQ("b", "  cohort: co\n  queueingStrategy: StrictFIFO\n  backfill: true\n", "nominalQuota: 2")
	TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b");

static void test_cohort_reservation(void **state)
{
	struct sl_sched *s = tl_sched(cohort_model);
	struct sl_sched_decisions d = {0};
	/* a runs 2 until 60 and b 1 until 60; a's head wants 3 (borrowing 1
	 * from b) at 60; b's head wants 2, then a 1-cpu job behind it */
	tl_add_timed(s, 1, "ns", "qa", 0, 0, 2, 60 * MIN);
	tl_add_timed(s, 2, "ns", "qb", 0, 0, 1, 60 * MIN);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	tl_add_timed(s, 3, "ns", "qa", 5, 1, 3, 10 * MIN);
	tl_add_timed(s, 4, "ns", "qb", 0, 2, 2, 10 * MIN);
	tl_add_timed(s, 5, "ns", "qb", 0, 3, 1, 90 * MIN);
	tl_add_timed(s, 6, "ns", "qb", 0, 4, 1, 30 * MIN);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	/* 5 would hold b's cpu past a's reservation at 60; 6 ends at 30 */
	assert_false(admitted(&d, 5));
	assert_true(admitted(&d, 6));
	tl_free(s, &d);
}

/* A backfilled job is never the reason a job that was ahead of it must
 * preempt: when the running job ends early, the head waits for the
 * backfilled one (it ends before the head's reservation) instead of
 * preempting it, though withinClusterQueue: LowerPriority would allow it.
 * A higher job that arrives later preempts as usual. */
static void test_not_preempted_by_those_ahead(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n  backfill: true\n"
						"  preemption: {withinClusterQueue: LowerPriority}\n",
						"nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	add_lim(s, 1, 10, 0, 3, 60);
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	add_lim(s, 2, 10, 1, 4, 10);    /* blocked: 1 has its priority */
	add_lim(s, 3, 0, 2, 1, 30);     /* backfilled */
	sl_sched_run_to_fixpoint(s, 0, 10, &d);
	assert_true(admitted(&d, 3));
	assert_int_equal(d.npreempt, 0);
	assert_int_equal(sl_sched_remove(s, 1), 0);     /* ends early */
	sl_sched_run_to_fixpoint(s, 5 * MIN, 10, &d);
	assert_int_equal(d.npreempt, 0);
	assert_false(admitted(&d, 2));
	add_lim(s, 4, 20, 3, 4, 10);    /* arrives later, higher */
	sl_sched_run_to_fixpoint(s, 6 * MIN, 10, &d);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(d.preempt[0].victim, 3);
	tl_free(s, &d);
}

/* In a cohort: a workload that stays within its queue's nominal quota
 * runs whatever the cohort reserves (that quota is its queue's); one that
 * would borrow what a higher workload of the cohort is reserved to get
 * waits, though it is its queue's head and StrictFIFO would admit it. */
static void test_cohort_borrowing_gated(void **state)
{
	static const char *model = TL_FLAVOR("default")
		TL_CQ("a", "  cohort: co\n", "nominalQuota: 4")
		TL_CQ("b", "  cohort: co\n  queueingStrategy: StrictFIFO\n  backfill: true\n",
		      "nominalQuota: 2")
		TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b");
	/* cpus and minutes of job 3, and whether it runs now */
	static const struct {
		int32_t cpus;
		int64_t min;
		bool runs;
	} cases[] = {{2, 90, true}, {3, 90, false}, {3, 30, true}};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct sl_sched *s = tl_sched(model);
		struct sl_sched_decisions d = {0};
		tl_add_timed(s, 1, "ns", "qa", 0, 0, 2, 60 * MIN);
		sl_sched_run_to_fixpoint(s, 0, 10, &d);
		tl_add_timed(s, 2, "ns", "qa", 10, 1, 5, 10 * MIN);  /* borrows 1 at 60 */
		tl_add_timed(s, 3, "ns", "qb", 0, 2, cases[k].cpus, cases[k].min * MIN);
		sl_sched_run_to_fixpoint(s, 0, 10, &d);
		assert_false(admitted(&d, 2));
		assert_int_equal(admitted(&d, 3), cases[k].runs);
		tl_free(s, &d);
	}
}

/* The keys: `backfill` in a ClusterQueue's spec and in Kueue's
 * Configuration, true or false and nothing else. */
static void test_keys(void **state)
{
	struct sl_kueue *k = tl_model(TL_ONE_CQ("  backfill: true\n", "nominalQuota: 4"));
	assert_non_null(k);
	assert_int_equal(k->cqs[0].backfill, 1);
	sl_kueue_free(k);
	k = tl_model(TL_ONE_CQ("", "nominalQuota: 4")
		     "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nbackfill: true\n");
	assert_non_null(k);
	assert_int_equal(k->config.backfill, 1);
	assert_int_equal(k->cqs[0].backfill, 0);
	sl_kueue_free(k);
	assert_null(tl_model(TL_ONE_CQ("  backfill: maybe\n", "nominalQuota: 4")));
	assert_null(tl_model(TL_ONE_CQ("", "nominalQuota: 4")
			     "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
			     "backfill: [1]\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict_backfills_short),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_exact_end_and_no_limit),
		cmocka_unit_test(test_time_moves),
		cmocka_unit_test(test_besteffort),
		cmocka_unit_test(test_cohort_reservation),
		cmocka_unit_test(test_not_preempted_by_those_ahead),
		cmocka_unit_test(test_cohort_borrowing_gated),
		cmocka_unit_test(test_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
