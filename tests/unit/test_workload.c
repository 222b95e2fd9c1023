/* test_workload.c - job -> workload: per-pod requests, and the node selector
 * that -C features and the GPU type become through the config's features
 * map; then the engine honouring it (a flavor without the labels is skipped,
 * a selector no flavor matches never fits). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf_testlib.h"
#include "conf.h"
#include "features.h"
#include "job.h"
#include "sched/sched.h"
#include "workload.h"
#include "xalloc.h"

/* Three flavors in one resource group; only "gpu" has the H100 label. Kueue
 * ignores a selector key that a flavor does not label, so every flavor
 * labels the keys it must be told apart by (plain: product "none"). */
static const char conf_text[] =
	"apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"
	"features:\n"
	"  h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}\n"
	"  ib: {example.com/network: infiniband, rack: r1}\n"
	"  a100: {nvidia.com/gpu.product: NVIDIA-A100}\n"
	"  rack1: {rack: r1}\n"
	"  nowhere: {example.com/zone: mars}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: plain}\n"
	"spec: {nodeLabels: {nvidia.com/gpu.product: none, example.com/zone: earth}}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: gpu}\n"
	"spec: {nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3, example.com/zone: earth}}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: zoned}\nspec: {nodeLabels: {example.com/zone: earth}}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
	"metadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n"
	"  - coveredResources: [cpu]\n    flavors:\n"
	"    - {name: plain, resources: [{name: cpu, nominalQuota: 4}]}\n"
	"    - {name: gpu, resources: [{name: cpu, nominalQuota: 4}]}\n"
	"    - {name: zoned, resources: [{name: cpu, nominalQuota: 4}]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: ns, name: q}\nspec: {clusterQueue: cq}\n";

static struct sl_conf *conf;

static int setup(void **state)
{
	return (conf = tl_conf(conf_text)) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
	sl_conf_free(conf);
	return 0;
}

static struct sl_job *job(uint64_t id, const char *constraint, const char *gpu_type)
{
	struct sl_job *j = sl_job_new();
	char *save = NULL, *tok, *copy;
	size_t n = 0;

	j->id = id;
	j->spec.name = sl_xstrdup("j");
	j->spec.account = sl_xstrdup("ns");
	j->spec.partition = sl_xstrdup("q");
	j->spec.gpu_type = gpu_type ? sl_xstrdup(gpu_type) : NULL;
	if (constraint != NULL) {
		copy = sl_xstrdup(constraint);
		j->spec.features = sl_xcalloc(8, sizeof(char *));
		for (tok = strtok_r(copy, "&", &save); tok; tok = strtok_r(NULL, "&", &save))
			j->spec.features[n++] = sl_xstrdup(tok);
		free(copy);
	}
	return j;
}

/* "k=v,k=v" of the pod set's node selector. */
static char *selector(const struct sl_job_wl *b)
{
	char *s = sl_xstrdup(""), *t;

	for (size_t i = 0; i < b->ps.nsel; i++) {
		t = sl_xasprintf("%s%s%s=%s", s, i ? "," : "", b->ps.node_selector[i].key,
				 b->ps.node_selector[i].value);
		free(s);
		s = t;
	}
	return s;
}

static void expect_selector(const char *constraint, const char *gpu, const char *want)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1, constraint, gpu);
	struct sl_job_wl b;
	char *got;

	assert_int_equal(sl_job_workload(j, sl_conf_features(conf), &b, &err), 0);
	got = selector(&b);
	assert_string_equal(got, want);
	assert_int_equal(b.ps.count, 1);
	assert_int_equal(b.ps.nreq, 1);
	assert_string_equal(b.req[0].resource, "cpu");
	assert_int_equal(b.req[0].milli, 1000);
	assert_ptr_equal(b.wl.podsets, &b.ps);
	free(got);
	sl_job_free(j);
}

static void expect_error(const struct sl_features *f, const char *constraint, const char *gpu,
			 const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1, constraint, gpu);
	struct sl_job_wl b;

	assert_int_equal(sl_job_workload(j, f, &b, &err), -SL_EINVAL);
	assert_string_equal(err.msg, msg);
	/* still a usable workload, with no selector */
	assert_int_equal(b.ps.nsel, 0);
	assert_null(b.ps.node_selector);
	assert_string_equal(b.wl.queue, "q");
	sl_job_free(j);
}

/* -N MIN-MAX: count MAX with minCount MIN (partial admission); per-node
 * requests; totals spread over the nodes refused; a fixed count is all or
 * nothing (minCount 0). */
static void test_node_range(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1, NULL, NULL);
	struct sl_job_wl b;

	j->spec.nodes = 2;
	j->spec.nodes_max = 6;
	j->spec.cpus_per_task = 2;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.ps.count, 6);
	assert_int_equal(b.ps.min_count, 2);
	assert_int_equal(b.req[0].milli, 2000);
	j->spec.nodes_max = 2;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.ps.count, 2);
	assert_int_equal(b.ps.min_count, 0);
	j->spec.nodes_max = 4;
	j->spec.ntasks_per_node = 3;
	j->spec.ntasks = 6;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0); /* per node: fine */
	assert_int_equal(b.req[0].milli, 6000);
	j->spec.ntasks_per_node = SL_NO_VAL;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--nodes=2-4 with a total of --ntasks is not supported by "
			    "Sluice: a node's share would depend on how many nodes are given; use "
			    "--ntasks-per-node or --gpus-per-node, or one node count");
	j->spec.use_min_nodes = 1; /* MIN nodes, all or nothing: a total spreads fine */
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.ps.count, 2);
	assert_int_equal(b.ps.min_count, 0);
	assert_int_equal(b.req[0].milli, 6000);
	sl_job_free(j);
}

/* The engine's FIFO key: submission order. Array 10's tasks 1-3 are jobs
 * 11, 12 and 10 (array.h): the last comes after 12 and before job 13. */
static void test_fifo_order(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1, NULL, NULL);
	struct sl_job_wl b;
	int64_t key[4];
	const uint64_t ids[] = {11, 12, 10, 13};

	(void)state;
	j->spec.array = sl_xstrdup("1-3");
	for (size_t i = 0; i < 4; i++) {
		j->id = ids[i];
		j->array_job_id = i < 3 ? 10 : 0;
		assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
		key[i] = b.wl.created;
	}
	assert_true(key[0] < key[1] && key[1] < key[2] && key[2] < key[3]);
	sl_job_free(j);
}

/* Once admitted on fewer nodes than asked, the job's shape is the given one. */
static void test_job_shape(void **state)
{
	struct sl_job *j = job(1, NULL, NULL);
	struct sl_jobshape sh;

	j->spec.nodes = 2;
	j->spec.nodes_max = 6;
	j->spec.ntasks_per_node = 2;
	sl_job_shape(j, &sh);
	assert_int_equal(sh.nodes, 2);
	assert_int_equal(sh.ntasks, 4);
	j->alloc_nodes = 5;
	sl_job_shape(j, &sh);
	assert_int_equal(sh.nodes, 5);
	assert_int_equal(sh.ntasks, 10);
	assert_int_equal(sh.cpus_per_node, 2);
	sl_job_free(j);
}

/* Issue 11, hole 1: a record past the counts (stored before the submit
 * policy checked them) is refused, never turned into a wrapped request:
 * 17592145084 MiB is past int64 in Kueue's milli-bytes. The shape itself
 * caps, so listings show no negative counts; the priority saturates. */
static void test_overflow(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1, NULL, NULL);
	struct sl_jobshape sh;
	struct sl_job_wl b;

	j->spec.mem_per_node = 17592145084LL;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "--mem=17592145084M on 1 node(s) is more than the "
			    "8796093022M of memory Sluice can count\nMemory required by task "
			    "is not available");
	j->spec.mem_per_node = SL_MEM_MAX_MIB;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.req[1].milli, SL_MEM_MAX_MIB * 1048576000LL);

	j->spec.mem_per_node = SL_NO_VAL;
	j->spec.cpus_per_task = 536870911;
	j->spec.ntasks_per_node = 8;
	sl_jobspec_shape(&j->spec, &sh);
	assert_int_equal(sh.cpus_per_node, INT32_MAX);
	j->spec.mem_per_cpu = INT64_MAX / 2;
	sl_jobspec_shape(&j->spec, &sh);
	assert_true(sh.mem_per_node == INT64_MAX);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "8 tasks per node of 536870911 CPUs each on 1 node(s) is "
			    "more than 2147483647 CPUs\nMore processors requested than permitted");

	j->spec.cpus_per_task = j->spec.ntasks_per_node = SL_NO_VAL;
	j->spec.mem_per_cpu = SL_NO_VAL;
	j->spec.ntasks = INT32_MAX;
	j->spec.nodes = 2;
	sl_jobspec_shape(&j->spec, &sh);
	assert_int_equal(sh.tasks_per_node, 1073741824);

	j->spec.ntasks = SL_NO_VAL;
	j->spec.nodes = 1;
	j->priority = 4294967294LL - (-5);
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.wl.priority, INT32_MAX);
	j->priority = -4294967294LL;
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_int_equal(b.wl.priority, INT32_MIN);
	sl_job_free(j);
}

static void test_selector(void **state)
{
	expect_selector(NULL, NULL, "");
	expect_selector("h100", NULL, "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3");
	expect_selector("h100&ib", NULL, "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3,"
			"example.com/network=infiniband,rack=r1");
	/* the same label asked twice with one value is one label */
	expect_selector("ib&rack1&ib", "h100", "example.com/network=infiniband,rack=r1,"
			"nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3");
	expect_selector(NULL, "h100", "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3");
	expect_selector("h100", "h100", "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3");
}

static void test_selector_errors(void **state)
{
	const struct sl_features *f = sl_conf_features(conf);

	expect_error(f, "nosuch", NULL, "Invalid feature specification");
	expect_error(f, "h100&nosuch", NULL, "Invalid feature specification");
	expect_error(NULL, "h100", NULL, "Invalid feature specification");
	expect_error(f, NULL, "v100", "GPU type \"v100\" has no node labels: add features.v100 "
		     "to the SluiceConfiguration\nInvalid generic resource (gres) specification");
	expect_error(NULL, NULL, "h100", "GPU type \"h100\" has no node labels: add "
		     "features.h100 to the SluiceConfiguration\nInvalid generic resource "
		     "(gres) specification");
	expect_error(f, "h100&a100", NULL, "feature a100 wants node label "
		     "nvidia.com/gpu.product=NVIDIA-A100, which another feature of the job sets "
		     "to NVIDIA-H100-80GB-HBM3\nInvalid feature specification");
	expect_error(f, "a100", "h100", "GPU type h100 wants node label "
		     "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3, which another feature of "
		     "the job sets to NVIDIA-A100\nInvalid feature specification");
}

static void test_selector_cap(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_label out[2];
	struct sl_job *j = job(1, "h100&ib", NULL);
	size_t n = 9;

	assert_int_equal(sl_job_node_selector(&j->spec, sl_conf_features(conf), out, 2, &n,
					      &err), -SL_EINVAL);
	assert_string_equal(err.msg, "the job's features select more than 2 node labels\n"
			    "Invalid feature specification");
	sl_job_free(j);
}

/* The engine takes the labelled flavor for -C h100 although the unlabelled
 * one comes first (Kueue: a selector key some flavor of the group defines
 * excludes the flavors without it); a key only an unlisted value matches
 * never fits, and the submit check says so. */
/* A label key that no flavor of the queue's ClusterQueue labels is refused
 * (Kueue would let it match anything); labelled keys and no selector pass;
 * an unknown queue is left to the engine's check. */
static void test_selector_known(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *rack = job(1, "rack1", NULL), *h100 = job(2, "h100", NULL);
	struct sl_job *none = job(3, NULL, NULL);
	struct sl_job_wl b;

	assert_int_equal(sl_job_workload(rack, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_job_selector_known(sl_conf_kueue(conf), &b, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "no ResourceFlavor of ClusterQueue cq labels rack, so "
			    "rack=r1 would select nothing\nInvalid feature specification");
	sl_err_clear(&err);
	b.wl.queue = "nosuch";
	assert_int_equal(sl_job_selector_known(sl_conf_kueue(conf), &b, &err), 0);
	assert_int_equal(sl_job_workload(h100, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_job_selector_known(sl_conf_kueue(conf), &b, &err), 0);
	assert_int_equal(sl_job_workload(none, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_job_selector_known(sl_conf_kueue(conf), &b, &err), 0);
	sl_job_free(rack);
	sl_job_free(h100);
	sl_job_free(none);
}

static void test_engine(void **state)
{
	struct sl_sched *s = sl_sched_new(sl_conf_kueue(conf));
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *plain = job(1, NULL, NULL), *h100 = job(2, "h100", NULL);
	struct sl_job *never = job(3, "nowhere", NULL), *rack = job(4, "rack1", NULL);
	struct sl_job_wl b;

	assert_non_null(s);
	assert_int_equal(sl_job_workload(never, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_sched_check(s, &b.wl, &err), -SL_ENOFIT);
	assert_string_equal(err.msg, "pod set main: no flavor of ClusterQueue cq for cpu matches "
			    "its node selector and tolerations");
	sl_err_clear(&err);
	assert_int_equal(sl_job_workload(h100, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_sched_check(s, &b.wl, &err), 0);
	assert_int_equal(sl_sched_add(s, &b.wl, &err), 0);
	assert_int_equal(sl_job_workload(plain, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_sched_add(s, &b.wl, &err), 0);
	/* rack: no flavor defines the key, so it restricts nothing (Kueue) */
	assert_int_equal(sl_job_workload(rack, sl_conf_features(conf), &b, &err), 0);
	assert_int_equal(sl_sched_add(s, &b.wl, &err), 0);
	/* one head per ClusterQueue and cycle, in FIFO order (one cycle per
	 * call: the engine would chain them, sched/cycle.c) */
	sl_sched_set_chaining(s, 0);
	for (int64_t now = 0; now < 3; now++) {
		sl_sched_cycle(s, now, &d);
		assert_int_equal(d.nadmit, 1);
		assert_int_equal(d.admit[0].id, now == 0 ? 1 : now == 1 ? 2 : 4);
		assert_string_equal(d.admit[0].flavors[0].flavor, now == 1 ? "gpu" : "plain");
		sl_sched_decisions_clear(&d);
	}
	sl_sched_free(s);
	sl_job_free(plain);
	sl_job_free(h100);
	sl_job_free(never);
	sl_job_free(rack);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_range),
		cmocka_unit_test(test_fifo_order),
		cmocka_unit_test(test_job_shape),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_selector),
		cmocka_unit_test(test_selector_errors),
		cmocka_unit_test(test_selector_cap),
		cmocka_unit_test(test_selector_known),
		cmocka_unit_test(test_engine),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
