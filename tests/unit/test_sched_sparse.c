/* test_sched_sparse.c - the engine's per-node quota cells (sched/cell.c):
 * a model of 5 000 ClusterQueues with a flavor each holds a cell per
 * quota, not per node x FR, and admits on the right flavor; usage charged
 * on a flavor a ClusterQueue does not list (a workload taken back after a
 * restart) is accounted in the cohort like any other. Load times are in
 * tests/bench/sched_load.c, not here. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "sched_testlib.h"
#include "sched/sched_int.h"

#define NCQ 5000

/* NCQ ClusterQueues cq<i>, each with flavor f<i> (cpu 8, memory 32Gi), in
 * cohort co<i> when cohorts, and LocalQueue ns/q<i>. */
static char *big_model(bool cohorts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	for (int i = 0; i < NCQ; i++)
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
			   "metadata: {name: f%d}\n---\n", i);
	for (int i = 0; i < NCQ; i++) {
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
			   "metadata: {name: cq%d}\nspec:\n", i);
		if (cohorts)
			fprintf(f, "  cohort: co%d\n", i);
		fprintf(f, "  namespaceSelector: {}\n  resourceGroups:\n"
			   "  - coveredResources: [cpu, memory]\n    flavors:\n    - name: f%d\n"
			   "      resources:\n      - {name: cpu, nominalQuota: 8}\n"
			   "      - {name: memory, nominalQuota: 32Gi}\n---\n", i);
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
			   "metadata: {name: q%d, namespace: ns}\nspec: {clusterQueue: cq%d}\n%s",
			i, i, i + 1 < NCQ ? "---\n" : "");
	}
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Workload id asks LocalQueue q<cq> for `cpus` pods of 1 cpu and 1Gi. */
static void add_big(struct sl_sched *s, uint64_t id, int cq, int32_t cpus)
{
	static const struct sl_sched_req req[] = {{"cpu", 1000}, {"memory", 1LL << 30}};
	struct sl_sched_podset ps = {.name = "main", .count = cpus, .nreq = 2, .req = req};
	char q[32];
	snprintf(q, sizeof(q), "q%d", cq);
	tl_add_ps(s, id, "ns", q, 0, (int64_t)id, 1, &ps);
}

static void check_big(bool cohorts)
{
	char *y = big_model(cohorts);
	struct sl_sched *s = tl_sched(y);
	free(y);
	/* one cell per quota: cpu and memory of each CQ, and of its cohort */
	size_t cells = 0;
	for (int i = 0; i < s->nnode; i++)
		cells += (size_t)s->node[i].ncell;
	assert_int_equal(s->nnode, cohorts ? 2 * NCQ : NCQ);
	assert_int_equal(cells, cohorts ? 4 * NCQ : 2 * NCQ);

	static const int cqs[] = {0, 1, 2500, NCQ - 1};
	for (size_t i = 0; i < 4; i++)
		add_big(s, i + 1, cqs[i], 8);
	add_big(s, 5, 4321, 9);   /* more than cq4321 will ever have */
	struct sl_sched_decisions d = {0};
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 4);
	assert_int_equal(d.npreempt, 0);
	for (size_t i = 0; i < d.nadmit; i++) {
		const struct sl_sched_admission *a = &d.admit[i];
		assert_true(a->id >= 1 && a->id <= 4);
		char cq[32], fl[32];
		snprintf(cq, sizeof(cq), "cq%d", cqs[a->id - 1]);
		snprintf(fl, sizeof(fl), "f%d", cqs[a->id - 1]);
		assert_string_equal(a->cluster_queue, cq);
		assert_int_equal(a->n, 2);
		assert_string_equal(a->flavors[0].flavor, fl);
		assert_string_equal(a->flavors[1].flavor, fl);
	}
	struct sl_sched_pending p;
	tl_want_pending(s, 5, &p, SL_SCHED_NEVER_FITS, "ExceedsMaxQuota",
			"couldn't assign flavors to pod set main: insufficient quota for cpu in "
			"flavor f4321, previously considered podsets requests (0) + current podset "
			"request (9) > maximum capacity (8)");
	tl_free(s, &d);
}

static void test_5000_flavors(void **state)
{
	(void)state;
	check_big(false);
}

static void test_5000_flavors_5000_cohorts(void **state)
{
	(void)state;
	check_big(true);
}

/* a lists f1 only, b lists f2 only, both in cohort co. */
static const char *apart =
	TL_FLAVOR("f1") TL_FLAVOR("f2")
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n"
	"  cohort: co\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
	"    flavors:\n    - name: f1\n      resources:\n      - {name: cpu, nominalQuota: 4}\n---\n"
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: b}\nspec:\n"
	"  cohort: co\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
	"    flavors:\n    - name: f2\n      resources:\n      - {name: cpu, nominalQuota: 4}\n---\n"
	TL_LQ("ns", "qa", "a") TL_LQ("ns", "qb", "b");

/* A workload taken back in a on f2 (a restart: the assignment names a
 * flavor a does not list) uses b's f2 quota through the cohort, as any
 * borrowing would, until it finishes. */
static void test_usage_outside_groups(void **state)
{
	(void)state;
	struct sl_sched *s = tl_sched(apart);
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;
	int a = sq_cq_find(s, "a");
	assert_int_equal(a, 0);
	int fr2 = sq_fr(s, sq_flavor_index(s, "f2"), sq_res_index(s, "cpu", false));
	assert_int_equal(sq_cell_find(&s->node[a], fr2), SQ_NONE);

	tl_add_to(s, 1, "ns", "qa", 0, 1, 3);
	struct sl_sched_flavor f = {"main", "cpu", "f2"};
	struct sl_sched_assignment as = {"a", 1, &f};
	assert_int_equal(sl_sched_admitted_partial(s, 1, &as, NULL, &err), 0);
	assert_int_equal(sq_cell(s, a, fr2)->usage, 3000);
	tl_add_to(s, 2, "ns", "qb", 0, 2, 2);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 0);
	struct sl_sched_pending p;
	tl_want_pending(s, 2, &p, SL_SCHED_WAIT_QUOTA, "WaitingForQuota",
			"couldn't assign flavors to pod set main: insufficient unused quota for "
			"cpu in flavor f2, 1 more needed");
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	assert_int_equal(n, 2);
	assert_string_equal(rows[1].cluster_queue, "b");
	assert_int_equal(rows[1].used, 0);
	assert_int_equal(rows[1].lent, 3000);

	assert_int_equal(sl_sched_remove(s, 1), 0);
	assert_int_equal(sq_cell(s, a, fr2)->usage, 0);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 2);
	assert_string_equal(d.admit[0].flavors[0].flavor, "f2");
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_5000_flavors),
		cmocka_unit_test(test_5000_flavors_5000_cohorts),
		cmocka_unit_test(test_usage_outside_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
