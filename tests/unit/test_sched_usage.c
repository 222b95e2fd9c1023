/* test_sched_usage.c - the usage rows sinfo --quota prints: nominal, used,
 * borrowed, and what each ClusterQueue lends to its cohort (split among the
 * lenders in proportion to what each leaves unused, the cohort's own quota
 * first), and the inactive message of a stopped queue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "sched_testlib.h"

/* Admit one workload of `milli` cpu from LocalQueue ns/q. */
static void run(struct sl_sched *s, uint64_t id, const char *q, int64_t milli)
{
	struct sl_sched_req req = {"cpu", milli};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &req};
	struct sl_sched_wl w = {id, "w", "ns", q, 0, (int64_t)id, 1, &ps};
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_sched_add(s, &w, &err), 0);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	sl_sched_decisions_clear(&d);
}

static const struct sl_sched_usage *row(struct sl_sched *s, const char *cq)
{
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].cluster_queue, cq) == 0)
			return &rows[i];
	fail_msg("no row for %s", cq);
	return NULL;
}

/* Row cq's used, borrowed and lent, each unless ANY. */
#define ANY INT64_MIN
static void want(struct sl_sched *s, const char *cq, int64_t used, int64_t borrowed,
		 int64_t lent)
{
	const struct sl_sched_usage *u = row(s, cq);
	if (used != ANY)
		assert_int_equal(u->used, used);
	if (borrowed != ANY)
		assert_int_equal(u->borrowed, borrowed);
	if (lent != ANY)
		assert_int_equal(u->lent, lent);
}

#define COHORT "  cohort: co\n"
/* a lends 1 cpu, c lends 2, b has none and borrows. */
static const char *three = TL_FLAVOR("default")
	TL_CQ("a", COHORT, "nominalQuota: 1") TL_CQ("b", COHORT, "nominalQuota: 0")
	TL_CQ("c", COHORT, "nominalQuota: 2") TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b")
	TL_LQ("ns", "qc", "c");

static void test_nothing_lent_when_idle(void **state)
{
	struct sl_sched *s = tl_sched(three);
	const struct sl_sched_usage *u = row(s, "a");
	assert_int_equal(u->nominal, 1000);
	want(s, "a", 0, 0, 0);
	assert_null(u->inactive);
	assert_string_equal(u->cohort, "co");
	sl_sched_free(s);
}

/* b borrows 1 cpu of the 3 unused: a gives a third, c two thirds; the
 * milli-unit the division leaves goes to the first lender. */
static void test_lent_in_proportion(void **state)
{
	struct sl_sched *s = tl_sched(three);
	run(s, 1, "qb", 1000);
	want(s, "b", 1000, 1000, 0);
	want(s, "a", ANY, ANY, 334);
	want(s, "c", ANY, ANY, 666);
	sl_sched_free(s);
}

/* A queue that uses its own quota lends less; all of it when the cohort
 * borrows everything that is unused. */
static void test_lent_all_unused(void **state)
{
	struct sl_sched *s = tl_sched(three);
	run(s, 1, "qa", 500);
	run(s, 2, "qb", 2500);
	want(s, "a", 500, 0, 500);
	want(s, "c", ANY, ANY, 2000);
	want(s, "b", ANY, 2500, ANY);
	sl_sched_free(s);
}

/* The cohort's own quota is lent before its queues'. */
static void test_cohort_quota_first(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
		"apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: co}\n"
		"spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
		"    - name: default\n      resources:\n      - {name: cpu, nominalQuota: 1}\n---\n"
		TL_CQ("a", COHORT, "nominalQuota: 2") TL_CQ("b", COHORT, "nominalQuota: 0")
		TL_LQ("ns", "qb", "b"));
	run(s, 1, "qb", 1000);
	assert_int_equal(row(s, "a")->lent, 0);
	run(s, 2, "qb", 1500);
	assert_int_equal(row(s, "b")->borrowed, 2500);
	assert_int_equal(row(s, "a")->lent, 1500);
	sl_sched_free(s);
}

/* With a lending limit only the lendable part is pooled: a keeps 1 of
 * its 3 cpus for itself, so it can lend at most 2. */
static void test_lending_limit(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
		TL_CQ("a", COHORT, "nominalQuota: 3, lendingLimit: 2")
		TL_CQ("b", COHORT, "nominalQuota: 0") TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b"));
	run(s, 1, "qb", 2000);
	assert_int_equal(row(s, "a")->lent, 2000);
	assert_int_equal(row(s, "a")->lending_limit, 2000);
	run(s, 2, "qa", 1000);
	assert_int_equal(row(s, "a")->used, 1000);
	assert_int_equal(row(s, "a")->lent, 2000);
	sl_sched_free(s);
}

/* No cohort, nothing to lend to. */
static void test_no_cohort(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default") TL_CQ("a", "", "nominalQuota: 4")
				TL_LQ("ns", "qa", "a"));
	run(s, 1, "qa", 1000);
	assert_int_equal(row(s, "a")->lent, 0);
	assert_null(row(s, "a")->cohort);
	assert_int_equal(row(s, "a")->admitted_wl, 1);
	sl_sched_free(s);
}

static void test_stopped_is_inactive(void **state)
{
	struct sl_sched *s = tl_sched(TL_FLAVOR("default")
				TL_CQ("a", "  stopPolicy: Hold\n", "nominalQuota: 4")
				TL_LQ("ns", "qa", "a"));
	assert_string_equal(row(s, "a")->inactive, "ClusterQueue a is inactive");
	sl_sched_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_lent_when_idle),
		cmocka_unit_test(test_lent_in_proportion),
		cmocka_unit_test(test_lent_all_unused),
		cmocka_unit_test(test_cohort_quota_first),
		cmocka_unit_test(test_lending_limit),
		cmocka_unit_test(test_no_cohort),
		cmocka_unit_test(test_stopped_is_inactive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
