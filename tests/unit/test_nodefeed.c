/* test_nodefeed.c - the Kubernetes nodes as Kueue TAS's inventory: a node's
 * allocatable (the kubelet's 110 pods when the API says none, no GPU
 * resource without GPUs), the usage of the pods Sluice's engine did not
 * place, cordoned or not Ready nodes not placeable; fed only when a flavor
 * has a topology and the config has no `nodes:`, and only when the
 * inventory changed (or after a reload). */
#include <json-c/json.h>

#include "conf_fixture.h"
#include "exec.h"
#include "nodefeed.h"
#include "schedule.h"

#define TOPO_OBJECTS                                                                         \
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: dc}\n"     \
	"spec:\n  levels: [{nodeLabel: rack}, {nodeLabel: kubernetes.io/hostname}]\n"
#define QUEUES                                                                               \
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: q}\n"   \
	"spec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"      \
	"    flavors:\n    - name: f\n      resources: [{name: cpu, nominalQuota: 8}]\n"        \
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: batch, "  \
	"namespace: general}\nspec: {clusterQueue: q}\n"

static const char tas_conf[] =
	HEAD "accounts: {\"*\": [general]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n"
	"spec: {topologyName: dc}\n" TOPO_OBJECTS QUEUES;
static const char listed_conf[] =
	HEAD "accounts: {\"*\": [general]}\n"
	"nodes:\n- {name: n1, labels: {rack: r1, kubernetes.io/hostname: n1}, allocatable: {cpu: \"2\"}}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n"
	"spec: {topologyName: dc}\n" TOPO_OBJECTS QUEUES;
static const char plain_conf[] =
	HEAD "accounts: {\"*\": [general]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n"
	QUEUES;

static const struct sl_exec_kv labels[] = {{"rack", "r1", NULL},
					   {"kubernetes.io/hostname", "a", NULL}};
static const struct sl_exec_kv cordon[] = {{"node.kubernetes.io/unschedulable", NULL, "NoSchedule"}};

static struct sl_exec_node nodes[3];

static void reset_nodes(void)
{
	memset(nodes, 0, sizeof(nodes));
	/* 4 CPUs, 16 GiB, 2 GPUs, 20 pods; others' pods take 1.5 CPUs, 1 GiB, a GPU */
	nodes[0] = (struct sl_exec_node){.name = "a", .nlabels = 2, .labels = labels,
					 .cpu = 4000, .mem = 16LL << 30, .gpu = 2, .pods = 20,
					 .cpu_used = 3500, .cpu_other = 1500, .mem_other = 1LL << 30,
					 .gpu_other = 1, .pods_other = 2, .ready = 1};
	/* cordoned; no pods count from the API, no GPUs */
	nodes[1] = (struct sl_exec_node){.name = "b", .ntaints = 1, .taints = cordon,
					 .cpu = 2000, .mem = 1LL << 30, .ready = 1,
					 .unschedulable = 1};
	nodes[2] = (struct sl_exec_node){.name = "c", .cpu = 2000, .ready = 0};
}

static size_t fake_nodes(void *x, const struct sl_exec_node **out)
{
	*out = nodes;
	return 3;
}

static const struct sl_executor fake_exec = {.name = "kubernetes", .nodes = fake_nodes};

/* The engine's side, recorded. */
static int fed;
static size_t fed_n;

int sl_schedctl_set_nodes(struct sl_schedctl *s, const struct sl_sched_node *v, size_t n,
			  struct sl_err *err)
{
	fed++;
	fed_n = n;
	return 0;
}

static int64_t req(const struct sl_sched_req *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].resource, name) == 0)
			return r[i].milli;
	return -1;
}

static void test_view(void **state)
{
	struct sl_nodefeed *f = sl_nodefeed_new();
	const struct sl_sched_node *v;
	uint64_t h1, h2;

	reset_nodes();
	h1 = sl_nodefeed_view(f, nodes, 3, &v);
	assert_string_equal(v[0].name, "a");
	assert_int_equal(v[0].nlabels, 2);
	assert_string_equal(v[0].labels[0].key, "rack");
	assert_string_equal(v[0].labels[0].value, "r1");
	assert_int_equal(req(v[0].alloc, v[0].nalloc, "cpu"), 4000);
	assert_int_equal(req(v[0].alloc, v[0].nalloc, "memory"), (16LL << 30) * 1000);
	assert_int_equal(req(v[0].alloc, v[0].nalloc, "nvidia.com/gpu"), 2000);
	assert_int_equal(req(v[0].alloc, v[0].nalloc, "pods"), 20000);
	/* only the others' pods: Sluice's TAS pods are the engine's to charge */
	assert_int_equal(req(v[0].usage, v[0].nusage, "cpu"), 1500);
	assert_int_equal(req(v[0].usage, v[0].nusage, "memory"), (1LL << 30) * 1000);
	assert_int_equal(req(v[0].usage, v[0].nusage, "nvidia.com/gpu"), 1000);
	assert_int_equal(req(v[0].usage, v[0].nusage, "pods"), 2000);
	assert_int_equal(v[0].unavailable, 0);
	assert_int_equal(req(v[1].alloc, v[1].nalloc, "pods"), 110000);
	assert_int_equal(req(v[1].alloc, v[1].nalloc, "nvidia.com/gpu"), -1);
	assert_int_equal(v[1].ntaints, 1);
	assert_string_equal(v[1].taints[0].effect, "NoSchedule");
	assert_int_equal(v[1].unavailable, 1);  /* cordoned */
	assert_int_equal(v[2].unavailable, 1);  /* not Ready */
	h2 = sl_nodefeed_view(f, nodes, 3, &v);
	assert_true(h1 == h2);
	nodes[0].cpu_other = 1600;
	h2 = sl_nodefeed_view(f, nodes, 3, &v);
	assert_true(h1 != h2);
	nodes[0].cpu_other = 1500;
	nodes[1].unschedulable = 0;
	h2 = sl_nodefeed_view(f, nodes, 3, &v);
	assert_true(h1 != h2);
	sl_nodefeed_free(f);
}

static void test_when_fed(void **state)
{
	struct sluiced d = {.executor = &fake_exec};
	struct sl_nodefeed *f = sl_nodefeed_new();

	reset_nodes();
	fed = 0;
	d.conf = load_text(tas_conf);
	sl_nodefeed_run(f, &d, 0);
	assert_int_equal(fed, 1);
	assert_int_equal(fed_n, 3);
	sl_nodefeed_run(f, &d, 0);  /* nothing changed */
	assert_int_equal(fed, 1);
	nodes[2].ready = 1;
	sl_nodefeed_run(f, &d, 0);
	assert_int_equal(fed, 2);
	sl_nodefeed_run(f, &d, 1);  /* a reload: always */
	assert_int_equal(fed, 3);
	sl_conf_free(d.conf);

	d.conf = load_text(listed_conf); /* the config's nodes: win */
	sl_nodefeed_run(f, &d, 1);
	assert_int_equal(fed, 3);
	sl_conf_free(d.conf);
	d.conf = load_text(plain_conf);  /* no topology: no inventory needed */
	sl_nodefeed_run(f, &d, 1);
	assert_int_equal(fed, 3);
	sl_conf_free(d.conf);
	d.conf = load_text(tas_conf);    /* back: fed though the nodes are the same */
	sl_nodefeed_run(f, &d, 0);
	assert_int_equal(fed, 4);
	sl_conf_free(d.conf);
	sl_nodefeed_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_when_fed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
