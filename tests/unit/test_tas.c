/* test_tas.c - topology-aware scheduling through the engine's API, the
 * paths scenarios do not take: nodes fed by the daemon
 * (sl_sched_set_nodes), the assignment an admission carries
 * (sl_sched_topology), capacity given back on removal, a restart's
 * assignment (sl_sched_admitted_topology), a reload that keeps the usage,
 * and the Topology / nodes parsers' refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "sched_testlib.h"

#define MODEL                                                                                      \
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: dc}\n"               \
	"spec:\n  levels:\n  - nodeLabel: rack\n  - nodeLabel: kubernetes.io/hostname\n---\n"     \
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: default}\n"    \
	"spec: {topologyName: dc}\n---\n" TL_CQ("cq", "", "nominalQuota: \"100\"") TL_LQ("ns", "q", "cq")

static const struct sl_sched_label l_a1[] = {{"rack", "r1"}, {"kubernetes.io/hostname", "a1"}};
static const struct sl_sched_label l_a2[] = {{"rack", "r1"}, {"kubernetes.io/hostname", "a2"}};
static const struct sl_sched_label l_b1[] = {{"rack", "r2"}, {"kubernetes.io/hostname", "b1"}};
static const struct sl_sched_req two[] = {{"cpu", 2000}, {"pods", 110000}};
static const struct sl_sched_req four[] = {{"cpu", 4000}, {"pods", 110000}};

static const struct sl_sched_node nodes[] = {
	{"a1", 2, l_a1, 0, NULL, 2, two, 0, NULL, 0},
	{"a2", 2, l_a2, 0, NULL, 2, two, 0, NULL, 0},
	{"b1", 2, l_b1, 0, NULL, 2, four, 0, NULL, 0},
};

static const struct sl_sched_topo_req rack = {SL_TOPO_REQUIRED, "rack", NULL, 0, NULL, 0, NULL};

static void add(struct sl_sched *s, uint64_t id, int32_t count)
{
	struct sl_sched_podset ps = {.name = "main", .count = count, .nreq = 1, .req = &tl_cpu1,
				     .topology = &rack};
	tl_add_ps(s, id, "ns", "q", 0, (int64_t)id, 1, &ps);
}

static struct sl_sched *engine(void)
{
	struct sl_sched *s = tl_sched(MODEL);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_set_nodes(s, nodes, 3, &err), 0);
	return s;
}

/* "host=count ..." of workload id's pod set 0, or "none". */
static const char *where(struct sl_sched *s, uint64_t id)
{
	static char buf[256];
	struct sl_sched_topo t;
	if (sl_sched_topology(s, id, 0, &t) != 0)
		return "none";
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < t.ndomains; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%d", i ? " " : "",
				      t.domains[i].values[t.nlevels - 1], (int)t.domains[i].count);
	return buf;
}

static void test_fed_nodes_best_fit(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	add(s, 1, 4);   /* rack r1 (a1+a2) and r2 (b1) hold 4 each: the first in order */
	add(s, 2, 3);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 1), "a1=2 a2=2");
	assert_string_equal(where(s, 2), "b1=3");
	struct sl_sched_topo t;
	assert_int_equal(sl_sched_topology(s, 1, 0, &t), 0);
	assert_string_equal(t.flavor, "default");
	assert_int_equal(t.nlevels, 1);
	assert_string_equal(t.levels[0], "kubernetes.io/hostname");
	tl_free(s, &d);
}

static void test_wait_then_admit_on_release(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	add(s, 1, 4);
	add(s, 2, 4);
	add(s, 3, 2);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 3), "none");
	/* the nodes would hold it empty: it may preempt, but nothing is lower */
	tl_want_pending(s, 3, &p, SL_SCHED_WAIT_QUOTA, "WaitingForQuota",
			"couldn't assign flavors to pod set main: topology \"dc\" doesn't allow to "
			"fit any of 2 pod(s). Total nodes: 3; excluded: resource \"cpu\": 3");
	assert_int_equal(sl_sched_remove(s, 1), 0);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 3), "a1=2");
	tl_free(s, &d);
}

/* The text sluiced stores with a job (sl_sched_topo_text) gives a restart
 * the same placement back (sl_sched_admitted_topology_text); malformed
 * text is refused with the job's id. */
static void test_topo_text_round_trip(void **state)
{
	(void)state;
	struct sl_sched *s = engine(), *r = engine();
	struct sl_sched_decisions d = {0}, d2 = {0};
	struct sl_err err = SL_ERR_INIT;
	add(s, 1, 4);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	char *text = sl_sched_topo_text(s, 1);
	assert_non_null(text);
	assert_string_equal(text, "main@default@kubernetes.io/hostname@a1=2@a2=2");
	add(r, 1, 4);
	struct sl_sched_flavor f = {"main", "cpu", "default"};
	struct sl_sched_assignment a = {"cq", 1, &f};
	assert_int_equal(sl_sched_admitted_partial(r, 1, &a, NULL, &err), 0);
	assert_int_equal(sl_sched_admitted_topology_text(r, 1, text, &err), 0);
	assert_string_equal(where(r, 1), "a1=2 a2=2");
	const char *bad[] = {"main@default", "main@default@kubernetes.io/hostname@a1",
			     "main@default@kubernetes.io/hostname@a1=0",
			     "main@default@kubernetes.io/hostname@a1,x=2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sl_err e = SL_ERR_INIT;
		assert_int_equal(sl_sched_admitted_topology_text(r, 1, bad[i], &e), -SL_EINVAL);
		assert_string_equal(e.msg, "workload 1: malformed topology assignment");
	}
	free(text);
	tl_free(s, &d);
	tl_free(r, &d2);
}

static void test_restart_assignment_and_reload(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;
	add(s, 1, 4);
	struct sl_sched_flavor f = {"main", "cpu", "default"};
	struct sl_sched_assignment a = {"cq", 1, &f};
	assert_int_equal(sl_sched_admitted_partial(s, 1, &a, NULL, &err), 0);
	const char *host = "kubernetes.io/hostname", *b1[] = {"b1"};
	struct sl_sched_topo_domain dom = {b1, 4};
	struct sl_sched_topo t = {"default", 1, &host, 1, &dom};
	assert_int_equal(sl_sched_admitted_topology(s, 1, 0, &t, &err), 0);
	assert_string_equal(where(s, 1), "b1=4");
	const char *rk = "rack";
	struct sl_sched_topo bad = {"default", 1, &rk, 1, &dom};
	struct sl_err e2 = SL_ERR_INIT;
	assert_int_equal(sl_sched_admitted_topology(s, 1, 0, &bad, &e2), -SL_EINVAL);
	/* a reload keeps what b1 holds: 4 more pods fit only on rack r1 */
	tl_reconfigure(s, MODEL);
	assert_string_equal(where(s, 1), "b1=4");
	add(s, 2, 4);
	add(s, 3, 1);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 2), "a1=2 a2=2");
	assert_string_equal(where(s, 3), "none");
	/* counted once: with workload 1 gone b1 is empty again */
	assert_int_equal(sl_sched_remove(s, 1), 0);
	add(s, 4, 4);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 3), "b1=1");
	assert_string_equal(where(s, 4), "none");
	tl_reconfigure(s, MODEL);
	assert_int_equal(sl_sched_remove(s, 3), 0);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 4), "b1=4");
	tl_free(s, &d);
}

static void test_nodes_replaced(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	struct sl_err err = SL_ERR_INIT;
	add(s, 1, 3);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	/* both racks hold 4: BestFit ties go to the first by name */
	assert_string_equal(where(s, 1), "a1=2 a2=1");
	/* rack r1 leaves the inventory: what its pods held goes with it */
	assert_int_equal(sl_sched_set_nodes(s, nodes + 2, 1, &err), 0);
	assert_string_equal(where(s, 1), "");
	add(s, 2, 4);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 2), "b1=4");
	/* back again: workload 1 holds a1 and a2 once more */
	assert_int_equal(sl_sched_set_nodes(s, nodes, 3, &err), 0);
	assert_string_equal(where(s, 1), "a1=2 a2=1");
	add(s, 3, 2);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 3), "none");
	tl_free(s, &d);
}

static void test_level_not_in_topology(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	struct sl_sched_pending p;
	static const struct sl_sched_topo_req zone = {SL_TOPO_REQUIRED, "zone", NULL, 0, NULL, 0, NULL};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &tl_cpu1,
				     .topology = &zone};
	tl_add_ps(s, 1, "ns", "q", 0, 0, 1, &ps);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	tl_want_pending(s, 1, &p, SL_SCHED_NEVER_FITS, "NoMatchingFlavor",
			"couldn't assign flavors to pod set main: Flavor \"default\" does not contain "
			"the requested level");
	tl_free(s, &d);
}

static void test_parse_refusals(void **state)
{
	(void)state;
	assert_null(tl_model("apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: t}\n"
			     "spec: {levels: []}\n"));
	assert_null(tl_model("apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: t}\n"
			     "spec: {levels: [{nodeLabel: a}, {nodeLabel: a}]}\n"));
	struct sl_kueue *k = tl_model("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Topology\n"
				      "metadata: {name: t}\nspec: {levels: [{nodeLabel: a}]}\n");
	assert_non_null(k);
	assert_non_null(sl_kueue_find_topology(k, "t"));
	struct sl_ydocs *docs = NULL;
	struct sl_err err = SL_ERR_INIT;
	const char *y = "- {name: n1, allocatable: {cpu: x}}\n";
	assert_int_equal(sl_yaml_load_buf("n.yaml", y, strlen(y), &docs, &err), 0);
	assert_int_equal(sl_kueue_add_nodes(k, "n.yaml", docs->docs[0], &err), -SL_EINVAL);
	assert_non_null(strstr(err.msg, "\"x\" is not a quantity"));
	sl_ydocs_free(docs);
	struct sl_err e2 = SL_ERR_INIT;
	y = "- {name: n1}\n- {name: n1}\n";
	assert_int_equal(sl_yaml_load_buf("n.yaml", y, strlen(y), &docs, &e2), 0);
	assert_int_equal(sl_kueue_add_nodes(k, "n.yaml", docs->docs[0], &e2), -SL_EINVAL);
	assert_non_null(strstr(e2.msg, "duplicate node \"n1\""));
	sl_ydocs_free(docs);
	sl_kueue_free(k);
}

/* sbatch's spelling (tas_req.c): --topology's grammar, --switches. */
static void test_topo_parse(void **state)
{
	(void)state;
	struct sl_sched_topo_req t;
	char buf[64];
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_topo_parse(NULL, 0, 0, &t, NULL, 0, buf, sizeof(buf), &err), 1);
	assert_int_equal(sl_sched_topo_parse("rack", 0, 0, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_REQUIRED);
	assert_string_equal(t.level, "rack");
	assert_null(t.slice_level);
	assert_int_equal(sl_sched_topo_parse("preferred:cloud.com/topology-rack,slice:hostname:4", 0, 0,
					     &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_PREFERRED);
	assert_string_equal(t.level, "cloud.com/topology-rack");
	assert_string_equal(t.slice_level, "hostname");
	assert_int_equal(t.slice_size, 4);
	assert_int_equal(sl_sched_topo_parse("unconstrained", 0, 0, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_UNCONSTRAINED);
	assert_int_equal(sl_sched_topo_parse("slice:rack:2", 0, 0, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_NONE);
	assert_string_equal(t.slice_level, "rack");
	/* one switch: required on the leaf switch level; more, or a wait: preferred */
	assert_int_equal(sl_sched_topo_parse(NULL, 1, 0, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_REQUIRED);
	assert_null(t.level);
	assert_int_equal(sl_sched_topo_parse(NULL, 1, 300, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_PREFERRED);
	assert_int_equal(sl_sched_topo_parse(NULL, 3, 0, &t, NULL, 0, buf, sizeof(buf), &err), 0);
	assert_int_equal(t.mode, SL_TOPO_PREFERRED);
	static const char *bad[] = {"required:", "rack,", "rack,slice:h", "rack,slice:h:0",
				    "rack,slice:h:x", "rack,foo", "a:b", "rack,slice:a:1,slice:b:1",
				    "preferred:"};
	/* layers beyond the first slice need somewhere to go */
	struct sl_sched_topo_layer ly[2];
	assert_int_equal(sl_sched_topo_parse("block,slice:rack:4,slice:hostname:2,", 0, 0, &t, ly, 2,
					     buf, sizeof(buf), &err), -SL_EINVAL);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_sched_topo_parse("block,slice:rack:4,slice:hostname:2", 0, 0, &t, ly, 2,
					     buf, sizeof(buf), &err), 0);
	assert_string_equal(t.slice_level, "rack");
	assert_int_equal(t.slice_size, 4);
	assert_int_equal(t.nlayers, 1);
	assert_string_equal(t.layers[0].level, "hostname");
	assert_int_equal(t.layers[0].size, 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sl_err e = SL_ERR_INIT;
		assert_int_equal(sl_sched_topo_parse(bad[i], 0, 0, &t, NULL, 0, buf, sizeof(buf), &e),
				 -SL_EINVAL);
		assert_string_equal(e.msg, "Invalid --topology specification");
	}
	struct sl_err e = SL_ERR_INIT;
	assert_int_equal(sl_sched_topo_parse("rack", 1, 0, &t, NULL, 0, buf, sizeof(buf), &e), -SL_EINVAL);
	assert_string_equal(e.msg, "--switches and --topology are mutually exclusive");
}

/* --switches=1 through the engine: the leaf switch level is the rack. */
static void test_switches_leaf_level(void **state)
{
	(void)state;
	struct sl_sched *s = engine();
	struct sl_sched_decisions d = {0};
	struct sl_sched_topo_req sw;
	char buf[16];
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_topo_parse(NULL, 1, 0, &sw, NULL, 0, buf, sizeof(buf), &err), 0);
	struct sl_sched_podset ps = {.name = "main", .count = 4, .nreq = 1, .req = &tl_cpu1,
				     .topology = &sw};
	tl_add_ps(s, 1, "ns", "q", 0, 0, 1, &ps);
	ps.count = 5;
	tl_add_ps(s, 2, "ns", "q", 0, 1, 1, &ps);
	sl_sched_run_to_fixpoint(s, 0, 100, &d);
	assert_string_equal(where(s, 1), "a1=2 a2=2");
	assert_string_equal(where(s, 2), "none");   /* no rack holds 5 */
	tl_free(s, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fed_nodes_best_fit),
		cmocka_unit_test(test_wait_then_admit_on_release),
		cmocka_unit_test(test_restart_assignment_and_reload),
		cmocka_unit_test(test_topo_text_round_trip),
		cmocka_unit_test(test_nodes_replaced),
		cmocka_unit_test(test_level_not_in_topology),
		cmocka_unit_test(test_parse_refusals),
		cmocka_unit_test(test_topo_parse),
		cmocka_unit_test(test_switches_leaf_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
