/* test_info_nodes.c - which partitions a Kubernetes node is in (Kueue's
 * placement: a flavor's nodeLabels on the node, its tolerations covering
 * the node's NoSchedule/NoExecute taints; the control plane's state taints
 * do not take a node out), and the numbers sinfo gets: whole CPUs, MiB,
 * features without the labels that restate the node. */
#include <json-c/json.h>

#include "conf_fixture.h"
#include "exec.h"
#include "info_nodes.h"

static const char conf_text[] =
	HEAD "accounts: {\"*\": [general]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: plain}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: a100}\n"
	"spec:\n  nodeLabels: {accel: a100}\n"
	"  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: spot}\n"
	"spec:\n  nodeLabels: {pool: spot}\n"
	"  tolerations: [{key: spot, operator: Equal, value: \"true\"}]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: any}\n"
	"spec:\n  tolerations: [{operator: Exists}]\n"
#define CQ(name, flavor)                                                                     \
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: " name   \
	"}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"  \
	"    flavors:\n    - name: " flavor "\n      resources: [{name: cpu, nominalQuota: 8}]\n"
#define LQ(name, cq)                                                                         \
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: " name     \
	", namespace: general}\nspec: {clusterQueue: " cq "}\n"
	CQ("cpuq", "plain") CQ("gpuq", "a100") CQ("spotq", "spot") CQ("anyq", "any")
	LQ("batch", "cpuq") LQ("gpu", "gpuq") LQ("spot", "spotq") LQ("all", "anyq");

static const struct sl_exec_kv host_labels[] = {
	{"kubernetes.io/hostname", "n0", NULL}, {"kubernetes.io/arch", "amd64", NULL},
	{"accel", "a100", NULL}, {"pool", "spot", NULL}};
static const struct sl_exec_kv gpu_taint[] = {{"nvidia.com/gpu", "present", "NoSchedule"}};
static const struct sl_exec_kv spot_true[] = {{"spot", "true", "NoExecute"}};
static const struct sl_exec_kv spot_false[] = {{"spot", "false", "NoSchedule"}};
static const struct sl_exec_kv soft[] = {{"busy", NULL, "PreferNoSchedule"},
					 {"node.kubernetes.io/unschedulable", NULL, "NoSchedule"},
					 {"node.kubernetes.io/not-ready", NULL, "NoExecute"}};

static struct sl_exec_node nodes[] = {
	/* no labels, only state taints: the plain and any flavors */
	{.name = "plain", .cpu = 7900, .cpu_used = 1100, .mem = 3LL << 30,
	 .mem_used = (512LL << 20) + 1, .ready = 1, .ntaints = 3, .taints = soft},
	/* every label, the GPU taint: a100 and any, not plain (untolerated) */
	{.name = "gpu", .cpu = 16000, .gpu = 4, .ready = 1, .nlabels = 4, .labels = host_labels,
	 .ntaints = 1, .taints = gpu_taint},
	/* spot=true:NoExecute is tolerated by spot's Equal toleration */
	{.name = "spot-t", .cpu = 8000, .ready = 1, .nlabels = 4, .labels = host_labels,
	 .ntaints = 1, .taints = spot_true},
	/* spot=false does not equal "true": only any */
	{.name = "spot-f", .cpu = 8000, .ready = 1, .nlabels = 4, .labels = host_labels,
	 .ntaints = 1, .taints = spot_false},
};

static size_t fake_nodes(void *x, const struct sl_exec_node **out)
{
	*out = nodes;
	return sizeof(nodes) / sizeof(nodes[0]);
}

static const struct sl_executor fake_exec = {.name = "kubernetes", .nodes = fake_nodes};

static const char *field(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_to_json_string(v) : "-";
}

static void test_partitions_and_numbers(void **state)
{
	static const char *const parts[] = {"batch", "gpu", "spot", "all", NULL};
	struct sluiced d = {.executor = &fake_exec, .self_user = "root"};
	json_object *v;

	assert_non_null(mkdtemp(tmpdir));
	d.conf = load_text(conf_text);
	v = sl_info_nodes(&d, parts);
	assert_int_equal(json_object_array_length(v), 4);
	assert_string_equal(field(json_object_array_get_idx(v, 0), "partitions"),
			    "[ \"batch\", \"all\" ]");
	assert_string_equal(field(json_object_array_get_idx(v, 1), "partitions"),
			    "[ \"gpu\", \"all\" ]");
	assert_string_equal(field(json_object_array_get_idx(v, 2), "partitions"),
			    "[ \"spot\", \"all\" ]");
	assert_string_equal(field(json_object_array_get_idx(v, 3), "partitions"), "[ \"all\" ]");
	/* 7.9 CPUs: 7; 1.1 requested: 2; 512 MiB + 1 byte: 513 */
	assert_string_equal(field(json_object_array_get_idx(v, 0), "cpus"), "7");
	assert_string_equal(field(json_object_array_get_idx(v, 0), "cpus_alloc"), "2");
	assert_string_equal(field(json_object_array_get_idx(v, 0), "mem"), "3072");
	assert_string_equal(field(json_object_array_get_idx(v, 0), "mem_alloc"), "513");
	assert_string_equal(field(json_object_array_get_idx(v, 1), "features"),
			    "\"accel=a100,pool=spot\"");
	assert_string_equal(field(json_object_array_get_idx(v, 1), "gpus"), "4");
	assert_string_equal(field(json_object_array_get_idx(v, 0), "reason"), "-");
	json_object_put(v);
	sl_conf_free(d.conf);
	rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partitions_and_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
