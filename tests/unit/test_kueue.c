/* test_kueue.c - Kueue manifest parsing, validation and lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "kueue.h"
#include "yaml.h"

static int load(const char *text, struct sl_kueue **out, struct sl_err *err)
{
	struct sl_ydocs *d = NULL;
	int r = sl_yaml_load_buf("k.yaml", text, strlen(text), &d, err);
	*out = sl_kueue_new();
	if (!r)
		r = sl_kueue_add_docs(*out, d, err);
	sl_ydocs_free(d);
	return r;
}

static const char *good =
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: h100}\n"
	"spec:\n  nodeLabels: {gpu: h100}\n  nodeTaints: [{key: gpu, value: 'yes', effect: NoSchedule}]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: gpu}\nspec:\n"
	"  cohortName: lab\n  queueingStrategy: StrictFIFO\n  namespaceSelector: {}\n"
	"  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any,\n"
	"    borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 5}}\n"
	"  stopPolicy: Hold\n  fairSharing: {weight: '0.5'}\n"
	"  resourceGroups:\n  - coveredResources: [nvidia.com/gpu, cpu]\n    flavors:\n    - name: h100\n"
	"      resources:\n      - {name: nvidia.com/gpu, nominalQuota: 8, borrowingLimit: 2}\n"
	"      - {name: cpu, nominalQuota: 500m, lendingLimit: 100m}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: main, namespace: physics}\n"
	"spec: {clusterQueue: gpu}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: lab}\nspec: {parentName: org}\n"
	"---\napiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
	"fairSharing: {enable: true, preemptionStrategies: [LessThanInitialShare]}\n"
	"admissionFairSharing: {usageHalfLifeTime: 1h, resourceWeights: {cpu: 2}}\n";

static void test_parse_good(void **state)
{
	struct sl_kueue *k;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(load(good, &k, &err), 0);
	const struct sl_kq_cq *c = sl_kueue_find_cq(k, "gpu");
	assert_non_null(c);
	assert_string_equal(c->cohort, "lab");
	assert_int_equal(c->strict_fifo, 1);
	assert_int_equal(c->nssel.present, 1);
	assert_int_equal(c->within_cq, SL_KP_LOWER);
	assert_int_equal(c->reclaim, SL_KP_ANY);
	assert_int_equal(c->bwc, SL_KP_LOWER);
	assert_int_equal(c->bwc_threshold, 5);
	assert_int_equal(c->stop, SL_KSTOP_HOLD);
	assert_int_equal(c->weight_milli, 500);
	assert_int_equal(c->rg[0].flavors[0].res[0].nominal, 8000);
	assert_int_equal(c->rg[0].flavors[0].res[0].bl, 2000);
	assert_int_equal(c->rg[0].flavors[0].res[1].nominal, 500);
	assert_int_equal(c->rg[0].flavors[0].res[1].ll, 100);
	assert_string_equal(sl_kueue_lq_cluster_queue(k, "physics", "main"), "gpu");
	assert_null(sl_kueue_lq_cluster_queue(k, "chem", "main"));
	assert_string_equal(sl_kueue_find_lq(k, NULL, "main")->ns, "physics"); /* any namespace */
	assert_null(sl_kueue_find_lq(k, NULL, "nosuch"));
	int32_t v = 0;
	assert_int_equal(sl_kueue_priority_class(k, "high", &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(sl_kueue_priority_class(k, "low", &v), -SL_ENOENT);
	assert_int_equal(k->config.fs_enable, 1);
	assert_int_equal(k->config.nstrategies, 1);
	assert_int_equal(k->config.strategies[0], SL_KFS_LT_INITIAL_SHARE);
	assert_int_equal(k->config.afs_half_life_ms, 3600000);
	assert_int_equal(k->config.afs_sampling_ms, 300000);
	assert_int_equal(k->config.weights[0].weight_milli, 2000);
	assert_string_equal(sl_kueue_find_flavor(k, "h100")->taints[0].effect, "NoSchedule");
	sl_kueue_free(k);
}

static void expect_error(const char *text, const char *msg)
{
	struct sl_kueue *k;
	struct sl_err err = SL_ERR_INIT;
	assert_int_not_equal(load(text, &k, &err), 0);
	assert_string_equal(err.msg, msg);
	sl_kueue_free(k);
}

static void test_errors(void **state)
{
	expect_error("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n",
		     "k.yaml:1: unknown kind \"Pod\" (apiVersion \"v1\")");
	expect_error("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: gpu}\nspec:\n"
		     "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: f\n"
		     "      resources:\n      - {name: cpu, nominalQuota: abc}\n",
		     "k.yaml:10: ClusterQueue \"gpu\": spec.resourceGroups[0].flavors[0].resources[0]."
		     "nominalQuota: \"abc\" is not a quantity");
	expect_error("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
		     "  colour: blue\n", "k.yaml:5: ClusterQueue \"q\": spec.colour: unknown field \"colour\"");
	expect_error("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\nspec:\n"
		     "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: f\n"
		     "      resources:\n      - {name: cpu, nominalQuota: 1, borrowingLimit: 1}\n",
		     "k.yaml:10: ClusterQueue \"q\": spec.resourceGroups[0].flavors[0].resources[0]."
		     "borrowingLimit: must be nil when cohort is empty");
	expect_error("apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: a}\nspec: {parentName: b}\n"
		     "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: b}\nspec: {parentName: a}\n",
		     "k.yaml:1: Cohort \"a\": spec.parentName: cohort hierarchy has a cycle");
}

static void test_duration(void **state)
{
	int64_t ms;
	assert_int_equal(sl_kueue_parse_duration("1h30m", &ms), 0);
	assert_int_equal(ms, 5400000);
	assert_int_equal(sl_kueue_parse_duration("250ms", &ms), 0);
	assert_int_equal(ms, 250);
	assert_int_equal(sl_kueue_parse_duration("5x", &ms), -SL_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_duration),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
