/* test_sched_inactive.c - queues Kueue keeps but cannot use: a ClusterQueue
 * naming a missing ResourceFlavor is inactive (FlavorNotFound) and its
 * workloads wait with "ClusterQueue X is inactive" while the other queues
 * admit; a LocalQueue naming a missing ClusterQueue holds its workloads with
 * "ClusterQueue X doesn't exist". Both are config warnings, not errors. And
 * the table from Kueue's pending reasons to Slurm's (reason.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "sched_testlib.h"
#include "xalloc.h"

static const char *model =
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: default}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: good}\n"
	"spec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
	"    - name: default\n      resources: [{name: cpu, nominalQuota: 4}]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: broken}\n"
	"spec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
	"    - name: gpu-a\n      resources: [{name: cpu, nominalQuota: 4}]\n"
	"    - name: default\n      resources: [{name: cpu, nominalQuota: 4}]\n"
	"    - name: gpu-b\n      resources: [{name: cpu, nominalQuota: 4}]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: a, namespace: ns}\n"
	"spec: {clusterQueue: good}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: b, namespace: ns}\n"
	"spec: {clusterQueue: broken}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: c, namespace: ns}\n"
	"spec: {clusterQueue: nope}\n";

static void add(struct sl_sched *s, uint64_t id, const char *q)
{
	static struct sl_sched_req req = {"cpu", 1000};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &req};
	struct sl_sched_wl w = {id, "w", "ns", q, 0, (int64_t)id, 1, &ps};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_add(s, &w, &err), 0);
}

static void test_warnings(void **state)
{
	(void)state;
	struct sl_kueue *k = tl_model(model);
	assert_non_null(k);
	assert_int_equal(k->nwarnings, 3);
	assert_string_equal(k->warnings[0],
			    "t.yaml:41: LocalQueue \"c\": spec.clusterQueue: ClusterQueue \"nope\" "
			    "not found: its jobs stay pending");
	assert_string_equal(k->warnings[1],
			    "t.yaml:16: ClusterQueue \"broken\": spec.resourceGroups[0].flavors[0].name: "
			    "ResourceFlavor \"gpu-a\" not found: the ClusterQueue is inactive "
			    "(FlavorNotFound) and admits nothing");
	sl_kueue_free(k);
}

/* Kueue takes such workloads and keeps them pending: the submit check too. */
static void test_check_accepts(void **state)
{
	(void)state;
	struct sl_sched *s = tl_sched(model);
	struct sl_sched_req req = {"cpu", 64000};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &req};
	struct sl_sched_wl w = {1, "w", "ns", "b", 0, 1, 1, &ps};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_check(s, &w, &err), 0);
	w.queue = "c";
	assert_int_equal(sl_sched_check(s, &w, &err), 0);
	w.queue = "a";
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOFIT);
	w.queue = "zz";
	assert_int_equal(sl_sched_check(s, &w, &err), -SL_ENOENT);
	sl_sched_free(s);
}

static void test_others_admit(void **state)
{
	(void)state;
	struct sl_sched *s = tl_sched(model);
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, "b");
	add(s, 2, "c");
	add(s, 3, "a");
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 3);
	tl_want_pending(s, 1, &p, SL_SCHED_INADMISSIBLE, "Suspended",
			"ClusterQueue broken is inactive");
	assert_string_equal(p.cluster_queue, "broken");
	assert_string_equal(sl_sched_slurm_reason(p.cls, p.reason), "PartitionInactive");
	tl_want_pending(s, 2, &p, SL_SCHED_INADMISSIBLE, "Misconfigured",
			"ClusterQueue nope doesn't exist");
	assert_string_equal(sl_sched_slurm_reason(p.cls, p.reason), "PartitionConfig");

	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	int seen = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].cluster_queue, "broken") == 0) {
			assert_string_equal(rows[i].inactive,
					    "Can't admit new workloads: references missing "
					    "ResourceFlavor(s): gpu-a,gpu-b.");
			seen = 1;
		} else {
			assert_null(rows[i].inactive);
		}
	assert_true(seen);
	tl_free(s, &d);
}

/* The flavor appears on reload: the queue turns active and admits. */
static void test_reload_activates(void **state)
{
	(void)state;
	struct sl_sched *s = tl_sched(model);
	struct sl_sched_decisions d = {0};
	add(s, 1, "b");
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 0);
	const char *extra =
		"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: gpu-a}\n"
		"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: gpu-b}\n";
	char *text = sl_xasprintf("%s%s", model, extra);
	tl_reconfigure(s, text);
	free(text);
	sl_sched_cycle(s, 0, &d);
	assert_int_equal(d.nadmit, 1);
	assert_int_equal(d.admit[0].id, 1);
	tl_free(s, &d);
}

static void test_reason_table(void **state)
{
	(void)state;
	static const struct {
		enum sl_sched_class cls;
		const char *kueue, *slurm;
	} t[] = {
		{SL_SCHED_WAIT_QUOTA, "WaitingForQuota", "Resources"},
		{SL_SCHED_WAIT_PRIORITY, "WaitingForQuota", "Priority"},
		{SL_SCHED_WAIT_PREEMPTION, "WaitingForPreemptedWorkloads", "Resources"},
		{SL_SCHED_WAIT_QUOTA, "Preempted", "Resources"},
		{SL_SCHED_WAIT_QUOTA, "TopologyPlacementFailed", "Resources"},
		{SL_SCHED_NEVER_FITS, "ExceedsMaxQuota", "PartitionConfig"},
		{SL_SCHED_NEVER_FITS, "NoMatchingFlavor", "PartitionConfig"},
		{SL_SCHED_INADMISSIBLE, "Misconfigured", "PartitionConfig"},
		{SL_SCHED_QUEUE_STOPPED, "Suspended", "PartitionDown"},
		{SL_SCHED_INADMISSIBLE, "Suspended", "PartitionInactive"},
		{SL_SCHED_NONE, NULL, "None"},
		{SL_SCHED_WAIT_QUOTA, NULL, "Resources"},
		{SL_SCHED_NEVER_FITS, "SomethingNew", "PartitionConfig"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(sl_sched_slurm_reason(t[i].cls, t[i].kueue), t[i].slurm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_check_accepts),
		cmocka_unit_test(test_others_admit),
		cmocka_unit_test(test_reload_activates),
		cmocka_unit_test(test_reason_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
