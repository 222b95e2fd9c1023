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
	TL_FLAVOR("default")
	TL_CQ("cq", "  preemption: {withinClusterQueue: LowerPriority}\n", "nominalQuota: 4")
	TL_LQ("ns", "q", "cq");

static struct sl_sched_req cpu1 = {"cpu", 1000};

static void add(struct sl_sched *s, uint64_t id, int32_t prio, int64_t created, int32_t count)
{
	struct sl_sched_podset ps = {"main", count, 1, &cpu1, 0, NULL, 0, NULL, 0};
	struct sl_sched_wl w = {id, "w", "ns", "q", prio, created, 1, &ps};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_add(s, &w, &err), 0);
}

static struct sl_sched *mk(void)
{
	struct sl_kueue *k = tl_model(model);
	assert_non_null(k);
	struct sl_sched *s = sl_sched_new(k);
	sl_kueue_free(k);
	return s;
}

static void test_admit_and_pending(void **state)
{
	struct sl_sched *s = mk();
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 0, 0, 3);
	add(s, 2, 0, 1, 2);
	add(s, 3, 0, 2, 1);
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
	assert_int_equal(sl_sched_pending_info(s, 2, &p), 0);
	assert_int_equal(p.cls, SL_SCHED_WAIT_QUOTA);
	assert_string_equal(p.reason, "WaitingForQuota");
	assert_string_equal(p.message, "couldn't assign flavors to pod set main: insufficient unused "
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
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
}

static void test_preempt(void **state)
{
	struct sl_sched *s = mk();
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 0, 0, 2);
	add(s, 2, -1, 1, 2);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 2);
	add(s, 3, 5, 2, 2);
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
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
}

static void test_check_and_reconfigure(void **state)
{
	struct sl_sched *s = mk();
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_podset ps = {"main", 5, 1, &cpu1, 0, NULL, 0, NULL, 0};
	struct sl_sched_wl w = {9, "big", "ns", "q", 0, 0, 1, &ps};
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOFIT);
	sl_err_clear(&err);
	w.queue = "nope";
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOENT);
	assert_string_equal(err.msg, "invalid partition specified: nope");
	w.queue = "q";
	ps.count = 4;
	assert_int_equal(sl_sched_check(s, &w, NULL), 0);
	add(s, 1, 0, 0, 4);
	add(s, 2, 0, 1, 4);
	struct sl_sched_decisions d = {0};
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_int_equal(d.nadmit, 1);
	/* double the quota: the pending workload is admitted after SIGHUP */
	struct sl_kueue *k = tl_model(TL_FLAVOR("default") TL_CQ("cq", "", "nominalQuota: 8") TL_LQ("ns", "q", "cq"));
	assert_int_equal(sl_sched_reconfigure(s, k, &err), 0);
	sl_kueue_free(k);
	sl_sched_cycle(s, 1, &d);
	assert_int_equal(d.nadmit, 2);
	assert_int_equal(d.admit[1].id, 2);
	/* the queue vanishes: pending workloads stay, with a reason */
	add(s, 3, 0, 2, 1);
	k = tl_model(TL_FLAVOR("default") TL_CQ("other", "", "nominalQuota: 8"));
	assert_int_equal(sl_sched_reconfigure(s, k, &err), 0);
	sl_kueue_free(k);
	struct sl_sched_pending p;
	assert_int_equal(sl_sched_pending_info(s, 3, &p), 0);
	assert_int_equal(p.cls, SL_SCHED_INADMISSIBLE);
	assert_string_equal(p.message, "LocalQueue q doesn't exist");
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
}

/* Every reload rebuilds the flavor table: the ClusterQueue stays active
 * through reloads that change the flavors around it (a field the copy left
 * unset once carried a stale "missing flavor" mark into the new table, and
 * the CQ went inactive now and then). */
static void test_reloads_keep_cq_active(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	const char *models[] = {
		TL_FLAVOR("default") TL_CQ("cq", "", "nominalQuota: 1") TL_LQ("ns", "q", "cq"),
		TL_FLAVOR("spare") TL_FLAVOR("default") TL_CQ("cq", "", "nominalQuota: 1")
			TL_LQ("ns", "q", "cq"),
	};
	struct sl_kueue *k = tl_model(models[0]);
	struct sl_sched *s = sl_sched_new(k);
	struct sl_sched_decisions d = {0};
	sl_kueue_free(k);
	for (int round = 0; round < 20; round++) {
		k = tl_model(models[round % 2]);
		assert_non_null(k);
		assert_int_equal(sl_sched_reconfigure(s, k, &err), 0);
		sl_kueue_free(k);
		add(s, (uint64_t)round + 1, 0, round, 1);
		sl_sched_cycle(s, round, &d);
		assert_int_equal(d.nadmit, (size_t)round + 1);
		assert_int_equal(sl_sched_remove(s, (uint64_t)round + 1), 0);
	}
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_admit_and_pending),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_check_and_reconfigure),
		cmocka_unit_test(test_reloads_keep_cq_active),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
