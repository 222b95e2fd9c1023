/* test_sched_equiv.c - BestEffortFIFO parking by scheduling equivalence
 * (Kueue's SchedulingEquivalenceHashing), requeue on release, LocalQueue
 * lookup by (namespace, name), and the preemptor whose freed capacity an
 * older borrowing head takes first (Kueue's behaviour while the
 * PrioritizePreemptorWorkloads gate is off). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

static const char *one_cq =
	TL_ONE_CQ("", "nominalQuota: 4");

static const char *want_msg = "couldn't assign flavors to pod set main: insufficient unused "
			      "quota for cpu in flavor default, 1 more needed";

/* One head fails: its equivalents are parked with it, and do not cost a
 * cycle each; a different shape still gets its turn. */
static void test_equivalent_heads_parked(void **state)
{
	struct sl_sched *s = tl_sched(one_cq);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	sl_sched_set_chaining(s, 0); /* one Kueue cycle per call: what is checked here */
	tl_add(s, 1, 0, 0, 3);
	tl_add(s, 2, 0, 1, 2);
	tl_add(s, 3, 0, 2, 2);
	tl_add(s, 4, 0, 3, 2);
	tl_add(s, 5, 0, 4, 1);
	assert_int_equal(sl_sched_cycle(s, 0, &d), 1);  /* 1 admitted */
	assert_int_equal(sl_sched_cycle(s, 1, &d), 1);  /* 2 parked: a change */
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(sl_sched_cycle(s, 2, &d), 1);  /* 3, 4 skipped, 5 admitted */
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].id, 5);
	assert_int_equal(sl_sched_cycle(s, 3, &d), 0);  /* fixpoint */
	/* the skipped ones carry the failed head's reason; behind it, they
	 * wait on Priority in Slurm's words (the first blocked job is
	 * Resources, every one after it Priority, whatever their priorities) */
	tl_want_pending(s, 2, &p, SL_SCHED_WAIT_QUOTA, "WaitingForQuota", want_msg);
	tl_want_pending(s, 4, &p, SL_SCHED_WAIT_PRIORITY, "WaitingForQuota",
			want_msg);
	assert_int_equal(p.pos_cq, 2);
	/* an arrival of the parked shape waits with them; another shape does not */
	tl_add(s, 6, 0, 5, 2);
	tl_add(s, 7, 1, 6, 2);
	assert_int_equal(sl_sched_pending_info(s, 6, &p), 0);
	assert_string_equal(p.message, want_msg);
	assert_int_equal(p.pos_cq, 4);
	assert_int_equal(sl_sched_pending_info(s, 7, &p), 0);
	assert_int_equal(p.pos_cq, 0);
	assert_string_equal(p.reason, "Pending");
	assert_int_equal(sl_sched_cycle(s, 4, &d), 1);  /* 7 tried and parked */
	assert_int_equal(sl_sched_cycle(s, 5, &d), 0);
	assert_int_equal(d.nadmit, 2);
	/* a finish requeues every shape: 7 (priority 1) first, then 2 */
	assert_int_equal(sl_sched_remove(s, 1), 0);
	sl_sched_run_to_fixpoint(s, 6, 100, &d);
	assert_int_equal(d.nadmit, 3);
	assert_int_equal(d.admit[2].id, 7);
	assert_int_equal(sl_sched_remove(s, 7), 0);
	sl_sched_run_to_fixpoint(s, 7, 100, &d);
	assert_int_equal(d.nadmit, 4);
	assert_int_equal(d.admit[3].id, 2);
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_int_equal(p.pos_cq, 0);
	assert_int_equal(sl_sched_pending_info(s, 6, &p), 0);
	assert_int_equal(p.pos_cq, 2);
	tl_free(s, &d);
}

/* StrictFIFO never parks: the blocked head stays, and so do its twins. */
static void test_strict_fifo_not_parked(void **state)
{
	struct sl_sched *s = tl_sched(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n", "nominalQuota: 4"));
	struct sl_sched_decisions d = {0};
	tl_add(s, 1, 0, 0, 3);
	tl_add(s, 2, 0, 1, 2);
	tl_add(s, 3, 0, 2, 1);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(sl_sched_cycle(s, 1, &d), 0);
	tl_free(s, &d);
}

/* Equal names in two namespaces are two LocalQueues. */
static void test_localqueue_lookup(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
				TL_CQ("a", "", "nominalQuota: 4")
				TL_CQ("b", "", "nominalQuota: 4")
				TL_LQ("ns1", "q", "a")
				TL_LQ("ns2", "q", "b"));
	struct sl_sched_pending p;
	struct sl_err err = SL_ERR_INIT;
	tl_add_to(s, 1, "ns1", "q", 0, 0, 1);
	tl_add_to(s, 2, "ns2", "q", 0, 1, 1);
	tl_add_to(s, 3, "ns3", "q", 0, 2, 1);
	assert_int_equal(sl_sched_pending_info(s, 1, &p), 0);
	assert_string_equal(p.cluster_queue, "a");
	assert_int_equal(sl_sched_pending_info(s, 2, &p), 0);
	assert_string_equal(p.cluster_queue, "b");
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_null(p.cluster_queue);
	assert_string_equal(p.message, "LocalQueue q doesn't exist");
	struct sl_sched_podset ps = {"main", 1, 1, &tl_cpu1, 0, NULL, 0, NULL, 0, NULL};
	struct sl_sched_wl w = {9, "w", "ns3", "q", 0, 0, 1, &ps};
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOENT);
	sl_sched_free(s);
}

/* Three CQs of 2 cpu in one cohort, borrowing up to 2 each. */
static const char *steal =
	TL_FLAVOR("default")
	TL_CQ("a", "  cohort: co\n  preemption: {withinClusterQueue: LowerPriority, "
		   "reclaimWithinCohort: Any}\n", "nominalQuota: 2, borrowingLimit: 2")
	TL_CQ("b", "  cohort: co\n  preemption: {withinClusterQueue: LowerPriority, "
		   "reclaimWithinCohort: Any}\n", "nominalQuota: 2, borrowingLimit: 2")
	TL_CQ("c", "  cohort: co\n", "nominalQuota: 2")
	TL_LQ("ns", "a", "a")
	TL_LQ("ns", "b", "b")
	TL_LQ("ns", "c", "c");

/* The preemptor P (cq a) evicts a-low to borrow 1 cpu. Once a-low is
 * gone, the older head Q of cq b, which also borrows, comes first in the
 * cycle (borrowing level, priority, then age) and takes the capacity; P
 * "no longer fits". Kueue does the same unless the alpha gate
 * PrioritizePreemptorWorkloads (off by default, kueue#13797) is on; with
 * the next steps (a-low reclaims from b, P preempts a-low again) this is
 * the cycle sched_scale --cqs 10 --per-cq 10 shows. */
static void test_freed_capacity_taken_by_older_head(void **state)
{
	struct sl_sched *s = tl_sched(steal);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	tl_add_to(s, 1, "ns", "a", 100, 0, 1);   /* a-low */
	tl_add_to(s, 2, "ns", "a", 200, 1, 1);   /* a-mid */
	tl_add_to(s, 3, "ns", "b", 200, 2, 2);   /* b-1 */
	tl_add_to(s, 4, "ns", "c", 200, 3, 1);   /* c-1: 5 of 6 cpu used */
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 4);
	sl_sched_decisions_clear(&d);
	tl_add_to(s, 5, "ns", "b", 200, 5, 2);   /* Q: must borrow 2, no candidates */
	tl_add_to(s, 6, "ns", "a", 200, 10, 2);  /* P: must borrow, can evict a-low */
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 0);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(d.preempt[0].victim, 1);
	assert_int_equal(d.preempt[0].preemptor, 6);
	assert_int_equal(d.preempt[0].reason, SL_PREEMPT_IN_CLUSTER_QUEUE);
	assert_int_equal(sl_sched_requeue(s, 1), 0);   /* also requeues Q */
	sl_sched_cycle(s, 2, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 5);
	assert_int_equal(sl_sched_pending_info(s, 6, &p), 0);
	assert_string_equal(p.message, "Workload no longer fits after processing another workload");
	/* P then finds no candidate (b's borrowers may only be reclaimed
	 * without borrowing), and a-low, within a's nominal, reclaims from b */
	sl_sched_decisions_clear(&d);
	sl_sched_cycle(s, 3, &d);
	sl_sched_cycle(s, 4, &d);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(d.preempt[0].preemptor, 1);
	assert_int_equal(d.preempt[0].victim, 5);
	assert_int_equal(d.preempt[0].reason, SL_PREEMPT_IN_COHORT_RECLAMATION);
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equivalent_heads_parked),
		cmocka_unit_test(test_strict_fifo_not_parked),
		cmocka_unit_test(test_localqueue_lookup),
		cmocka_unit_test(test_freed_capacity_taken_by_older_head),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
