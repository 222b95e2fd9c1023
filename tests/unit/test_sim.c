/* test_sim.c - the scenario runner: a public scenario reaches its expected
 * end state, a wrong expectation yields a diff, bad input is refused with
 * a path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sim.h"

static char path[4096];

static const char *scn(const char *name)
{
	const char *top = getenv("top_srcdir");
	snprintf(path, sizeof(path), "%s/tests/scenarios/%s", top ? top : ".", name);
	return path;
}

static void test_pass(void **state)
{
	struct sl_sim *m;
	struct sl_err err = SL_ERR_INIT;
	char *diff = (char *)1;
	assert_int_equal(sl_sim_load(scn("preempt-cq-minimal-set-fillback.yaml"), &m, &err), 0);
	assert_true(sl_sim_run(m) >= 2);
	assert_int_equal(sl_sim_verify(m, &diff), 0);
	assert_null(diff);
	char *rep = sl_sim_report(m, 0);
	assert_non_null(strstr(rep, "preempted at least once (1):\n  mid "));
	free(rep);
	rep = sl_sim_report(m, 1);
	assert_non_null(strstr(rep, "\"preempted\":[\"mid\"]"));
	free(rep);
	sl_sim_free(m);
}

static void test_diff(void **state)
{
	const char *bad = "/tmp/sluice-test-sim.yaml";
	FILE *f = fopen(bad, "w");
	assert_non_null(f);
	fputs("name: d\nobjects:\n- apiVersion: kueue.x-k8s.io/v1beta1\n  kind: ResourceFlavor\n"
	      "  metadata: {name: f}\n- apiVersion: kueue.x-k8s.io/v1beta1\n  kind: ClusterQueue\n"
	      "  metadata: {name: c}\n  spec:\n    namespaceSelector: {}\n    resourceGroups:\n"
	      "    - coveredResources: [cpu]\n      flavors:\n      - name: f\n        resources:\n"
	      "        - {name: cpu, nominalQuota: 1}\n- apiVersion: kueue.x-k8s.io/v1beta1\n"
	      "  kind: LocalQueue\n  metadata: {name: q, namespace: n}\n  spec: {clusterQueue: c}\n"
	      "workloads:\n- {name: a, queue: n/q, podSets: [{name: main, count: 2, requests: {cpu: 1}}]}\n"
	      "expect: {admitted: {a: {main: {cpu: f}}}, pending: []}\n", f);
	fclose(f);
	struct sl_sim *m;
	struct sl_err err = SL_ERR_INIT;
	char *diff = NULL;
	assert_int_equal(sl_sim_load(bad, &m, &err), 0);
	sl_sim_run(m);
	assert_int_equal(sl_sim_verify(m, &diff), 1);
	assert_string_equal(diff, "  - admitted: expected a to be admitted, it is pending\n"
				  "  + pending: a not expected but is\n");
	free(diff);
	sl_sim_free(m);
	remove(bad);
}

static void test_bad_input(void **state)
{
	struct sl_sim *m = NULL;
	struct sl_err err = SL_ERR_INIT;
	assert_int_not_equal(sl_sim_load(scn("bad-quantity.yaml"), &m, &err), 0);
	assert_null(m);
	assert_string_equal(err.msg, "bad-quantity.yaml:17: ClusterQueue \"gpu\": spec.resourceGroups[0]."
				     "flavors[0].resources[0].nominalQuota: \"abc\" is not a quantity");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
