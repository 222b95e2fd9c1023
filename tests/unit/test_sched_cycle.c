/* test_sched_cycle.c - the public engine API: admission in a cycle,
 * pending reasons and positions, preemption, requeue/remove, the
 * submit-time check, usage rows and reconfiguration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

static const char *model =
	TL_ONE_CQ("  preemption: {withinClusterQueue: LowerPriority}\n", "nominalQuota: 4");

static void test_admit_and_pending(void **state)
{
	struct sl_sched *s = tl_sched(model);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	sl_sched_set_chaining(s, 0); /* one Kueue cycle per call: what is checked here */
	tl_add(s, 1, 0, 0, 3);
	tl_add(s, 2, 0, 1, 2);
	tl_add(s, 3, 0, 2, 1);
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_int_equal(p.pos_cq, 2);
	assert_int_equal(p.cls, SL_SCHED_WAIT_PRIORITY);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 1);
	assert_string_equal(d.admit[0].cluster_queue, "cq");
	assert_string_equal(d.admit[0].flavors[0].flavor, "default");
	sl_sched_cycle(s, 1, &d); /* 2 needs 2, 1 free: parked (BestEffortFIFO) */
	assert_int_equal(d.nadmit, 1);
	tl_want_pending(s, 2, &p, SL_SCHED_WAIT_QUOTA, "WaitingForQuota",
			"couldn't assign flavors to pod set main: insufficient unused "
			"quota for cpu in flavor default, 1 more needed");
	sl_sched_cycle(s, 2, &d); /* 3 fits behind the parked head */
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].id, 3);
	/* finishing 1 requeues 2, which now fits */
	assert_int_equal(sl_sched_remove(s, 1), 0);
	sl_sched_cycle(s, 3, &d);
	assert_int_equal(d.nadmit, 3);
	assert_int_equal(d.admit[2].id, 2);
	const struct sl_sched_usage *rows;
	assert_int_equal(sl_sched_usage(s, &rows), 1);
	assert_int_equal(rows[0].nominal, 4000);
	assert_int_equal(rows[0].used, 3000);
	assert_int_equal(rows[0].borrowed, 0);
	tl_free(s, &d);
}

static void test_preempt(void **state)
{
	struct sl_sched *s = tl_sched(model);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	tl_add(s, 1, 0, 0, 2);
	tl_add(s, 2, -1, 1, 2);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 2);
	tl_add(s, 3, 5, 2, 2);
	sl_sched_decisions_clear(&d);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 0);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(d.preempt[0].victim, 2);
	assert_int_equal(d.preempt[0].preemptor, 3);
	assert_int_equal(d.preempt[0].reason, SL_PREEMPT_IN_CLUSTER_QUEUE);
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_int_equal(p.cls, SL_SCHED_WAIT_PREEMPTION);
	assert_int_equal(sl_sched_pending_info(s, 2, &p), 0);
	assert_int_equal(p.admitted, 1);
	assert_int_equal(p.evicting, 1);
	/* victim still holds quota: nothing admitted until it is requeued */
	sl_sched_cycle(s, 2, &d);
	assert_int_equal(d.nadmit, 0);
	assert_int_equal(d.npreempt, 1);
	assert_int_equal(sl_sched_requeue(s, 2), 0);
	sl_sched_cycle(s, 3, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 3);
	assert_int_equal(sl_sched_pending_info(s, 2, &p), 0);
	assert_int_equal(p.admitted, 0);
	tl_free(s, &d);
}

static void test_check_and_reconfigure(void **state)
{
	struct sl_sched *s = tl_sched(model);
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_podset ps = {"main", 5, 1, &tl_cpu1, 0, NULL, 0, NULL, 0, NULL};
	struct sl_sched_wl w = {9, "big", "ns", "q", 0, 0, 1, &ps};
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOFIT);
	sl_err_clear(&err);
	/* more CPUs than ever: a workload that waits, when cpu may wait */
	assert_int_equal(sl_sched_check_waits(s, &w, "cpu", &err), 0);
	assert_int_equal(sl_sched_check_waits(s, &w, "memory", &err), -SL_ENOFIT);
	sl_err_clear(&err);
	w.queue = "nope";
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOENT);
	assert_string_equal(err.msg, "invalid partition specified: nope");
	w.queue = "q";
	ps.count = 4;
	assert_int_equal(sl_sched_check(s, &w, NULL), 0);
	tl_add(s, 1, 0, 0, 4);
	tl_add(s, 2, 0, 1, 4);
	struct sl_sched_decisions d = {0};
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 1);
	/* double the quota: the pending workload is admitted after SIGHUP */
	tl_reconfigure(s, TL_ONE_CQ("", "nominalQuota: 8"));
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].id, 2);
	/* the queue vanishes: pending workloads stay, with a reason */
	tl_add(s, 3, 0, 2, 1);
	tl_reconfigure(s, TL_FLAVOR("default") TL_CQ("other", "", "nominalQuota: 8"));
	struct sl_sched_pending p;
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_int_equal(p.cls, SL_SCHED_INADMISSIBLE);
	assert_string_equal(p.message, "LocalQueue q doesn't exist");
	tl_free(s, &d);
}

/* Every reload rebuilds the flavor table: the ClusterQueue stays active
 * through reloads that change the flavors around it (a field the copy left
 * unset once carried a stale "missing flavor" mark into the new table, and
 * the CQ went inactive now and then). */
static void test_reloads_keep_cq_active(void **state)
{
	const char *models[] = {
		TL_ONE_CQ("", "nominalQuota: 1"),
		TL_FLAVOR("spare") TL_ONE_CQ("", "nominalQuota: 1"),
	};
	struct sl_sched *s = tl_sched(models[0]);
	struct sl_sched_decisions d = {0};
	for (int round = 0; round < 20; round++) {
		tl_reconfigure(s, models[round % 2]);
		tl_add(s, (uint64_t)round + 1, 0, round, 1);
		sl_sched_cycle(s, round, &d);
		assert_int_equal(d.nadmit, (size_t)round + 1);
		assert_int_equal(sl_sched_remove(s, (uint64_t)round + 1), 0);
	}
	tl_free(s, &d);
}

/* Positions after removals, checked against a count over the workloads left
 * (priority, then creation, then arrival): a removal keeps the positions
 * of the others up to date without a new sort (sluiced asks before each
 * cancel of a pending job), and Slurm's Resources/Priority follows. Two
 * LocalQueues share the ClusterQueue, parked and heap workloads mixed. */
#define NPOS 48
static int pos_before(const int32_t *prio, const int64_t *created, int a, int b)
{
	if (prio[a] != prio[b])
		return prio[a] > prio[b];
	return created[a] != created[b] ? created[a] < created[b] : a < b;
}

static void want_positions(struct sl_sched *s, const int *left, const int32_t *prio,
			   const int64_t *created)
{
	struct sl_sched_pending p;
	for (int w = 1; w < NPOS; w++) {
		int64_t cq = 0, lq = 0;
		if (!left[w]) {
			assert_int_equal(sl_sched_pending_info(s, (uint64_t)w, &p), -SL_ENOENT);
			continue;
		}
		for (int o = 1; o < NPOS; o++)
			if (left[o] && pos_before(prio, created, o, w)) {
				cq++;
				lq += (o % 3 == 0) == (w % 3 == 0);
			}
		assert_int_equal(sl_sched_pending_info(s, (uint64_t)w, &p), 0);
		assert_int_equal(p.pos_cq, cq);
		assert_int_equal(p.pos_lq, lq);
		assert_int_equal(p.cls, cq ? SL_SCHED_WAIT_PRIORITY : SL_SCHED_WAIT_QUOTA);
	}
}

static void test_positions_after_removals(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default") TL_CQ("cq", "", "nominalQuota: 2")
				      TL_LQ("ns", "q", "cq") TL_LQ("ns", "r", "cq"));
	struct sl_sched_decisions d = {0};
	int32_t prio[NPOS];
	int64_t created[NPOS];
	int left[NPOS] = {0};
	/* workload NPOS takes the quota; the others need 1 cpu each and wait,
	 * those of priority 3 parked by the second cycle, the rest in the heap
	 * never tried */
	sl_sched_set_chaining(s, 0);
	tl_add(s, NPOS, 9, 0, 2);
	for (int w = 1; w < NPOS; w++) {
		prio[w] = w * 7 % 4;
		created[w] = w * 5 % 11;
		left[w] = 1;
		tl_add_to(s, (uint64_t)w, "ns", w % 3 ? "q" : "r", prio[w], created[w], 1);
	}
	assert_int_equal(sl_sched_cycle(s, 0, &d), 1);
	assert_int_equal(sl_sched_cycle(s, 1, &d), 1);
	assert_int_equal(d.nadmit, 1);
	want_positions(s, left, prio, created);
	/* the queue's head, its tail, both LocalQueues, in an order of its own */
	for (int k = 0, w = 5; k < NPOS / 2; k++, w = (w * 17 + 3) % NPOS) {
		if (!left[w])
			continue;
		assert_int_equal(sl_sched_remove(s, (uint64_t)w), 0);
		left[w] = 0;
		want_positions(s, left, prio, created);
	}
	/* an arrival (a removed id again) sorts again, ahead of all; then
	 * removals count from there */
	int back = 1;
	while (left[back])
		back++;
	prio[back] = 5;
	created[back] = 0;
	left[back] = 1;
	tl_add_to(s, (uint64_t)back, "ns", back % 3 ? "q" : "r", prio[back], created[back], 1);
	want_positions(s, left, prio, created);
	for (int w = 2; w < NPOS; w += 2) {
		if (!left[w])
			continue;
		assert_int_equal(sl_sched_remove(s, (uint64_t)w), 0);
		left[w] = 0;
	}
	want_positions(s, left, prio, created);
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_admit_and_pending),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_check_and_reconfigure),
		cmocka_unit_test(test_reloads_keep_cq_active),
		cmocka_unit_test(test_positions_after_removals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
