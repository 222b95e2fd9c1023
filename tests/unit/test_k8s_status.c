/* test_k8s_status.c - k8s/status.c against the cases in
 * tests/data/k8s-status/: each file holds an object, its pods and the
 * expected record (fields absent from "expect" are not checked). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/kinds.h"
#include "k8s/status.h"
#include "jobstate.h"

static char dir[4096];

static json_object *load(const char *name)
{
	char path[8192];
	json_object *o;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o = json_object_from_file(path);
	if (o == NULL)
		fail_msg("cannot read %s", path);
	return o;
}

static const char *phase_name(enum sl_k8s_phase p)
{
	return p == SL_KST_WAITING ? "WAITING" : p == SL_KST_READY ? "READY" : "FINISHED";
}

static void check_str(const char *cas, const char *field, json_object *want, const char *got)
{
	if (json_object_is_type(want, json_type_null)) {
		if (got != NULL)
			fail_msg("%s: %s: expected null, got [%s]", cas, field, got);
		return;
	}
	if (got == NULL || strcmp(got, json_object_get_string(want)) != 0)
		fail_msg("%s: %s: expected [%s], got [%s]", cas, field, json_object_get_string(want),
			 got ? got : "(null)");
}

static void check_int(const char *cas, const char *field, json_object *want, int got)
{
	if (json_object_get_int(want) != got)
		fail_msg("%s: %s: expected %d, got %d", cas, field, json_object_get_int(want), got);
}

static void run_case(const char *cas)
{
	char file[300];
	json_object *doc, *obj, *pods, *expect;
	json_object **pv;
	struct sl_k8s_status st;
	struct sl_err err = SL_ERR_INIT;
	size_t n;

	snprintf(file, sizeof(file), "%s.json", cas);
	doc = load(file);
	assert_true(json_object_object_get_ex(doc, "object", &obj));
	assert_true(json_object_object_get_ex(doc, "pods", &pods));
	assert_true(json_object_object_get_ex(doc, "expect", &expect));
	n = json_object_array_length(pods);
	pv = calloc(n + 1, sizeof(*pv));
	for (size_t i = 0; i < n; i++)
		pv[i] = json_object_array_get_idx(pods, i);
	assert_int_equal(sl_k8s_kind_status(obj, pv, n, &st, &err), 0);
	json_object_object_foreach(expect, k, v) {
		if (strcmp(k, "phase") == 0)
			check_str(cas, k, v, phase_name(st.phase));
		else if (strcmp(k, "state") == 0)
			check_str(cas, k, v, sl_jobstate_name(st.state));
		else if (strcmp(k, "nready") == 0)
			check_int(cas, k, v, st.nready);
		else if (strcmp(k, "nexpected") == 0)
			check_int(cas, k, v, st.nexpected);
		else if (strcmp(k, "exit_code") == 0)
			check_int(cas, k, v, st.exit_code);
		else if (strcmp(k, "exit_signal") == 0)
			check_int(cas, k, v, st.exit_signal);
		else if (strcmp(k, "explained") == 0)
			check_int(cas, k, v, st.explained);
		else if (strcmp(k, "reason") == 0)
			check_str(cas, k, v, st.reason);
		else if (strcmp(k, "message") == 0)
			check_str(cas, k, v, st.message);
		else if (strcmp(k, "nodelist") == 0)
			check_str(cas, k, v, st.nodelist);
		else if (strcmp(k, "log_pod") == 0)
			check_str(cas, k, v, st.log_pod);
		else if (strcmp(k, "failed_job") == 0)
			check_str(cas, k, v, st.failed_job);
		else
			fail_msg("%s: unknown expect field %s", cas, k);
	}
	sl_k8s_status_clear(&st);
	free(pv);
	json_object_put(doc);
}

static void test_cases(void **state)
{
	char path[4200], line[256];
	FILE *f;
	int n = 0;
	snprintf(path, sizeof(path), "%s/CASES", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line) {
			run_case(line);
			n++;
		}
	}
	fclose(f);
	assert_int_equal(n, 13);
}

static void test_job_deadline(void **state)
{
	json_object *j = load("job-deadline.json");
	assert_int_equal(sl_k8s_status_job_deadline(j), 1);
	json_object_put(j);
	j = json_tokener_parse("{\"status\":{\"conditions\":[{\"type\":\"Failed\",\"status\":\"True\","
			       "\"reason\":\"BackoffLimitExceeded\"}]}}");
	assert_int_equal(sl_k8s_status_job_deadline(j), 0);
	json_object_put(j);
}

static void test_bad_kind(void **state)
{
	json_object *o = json_tokener_parse("{\"kind\":\"Pod\"}");
	struct sl_k8s_status st;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_k8s_kind_status(o, NULL, 0, &st, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "not a JobSet or MPIJob: kind Pod");
	json_object_put(o);
}

static void test_labels(void **state)
{
	json_object *o = json_tokener_parse("{\"metadata\":{\"name\":\"sl-1\",\"labels\":"
					    "{\"sluice.io/job-id\":\"1\"}}}");
	assert_string_equal(sl_k8s_obj_label(o, "sluice.io/job-id"), "1");
	assert_null(sl_k8s_obj_label(o, "nope"));
	assert_string_equal(sl_k8s_obj_meta(o, "name"), "sl-1");
	assert_null(sl_k8s_obj_meta(NULL, "name"));
	json_object_put(o);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_job_deadline),
		cmocka_unit_test(test_bad_kind),
		cmocka_unit_test(test_labels),
	};
	snprintf(dir, sizeof(dir), "%s/tests/data/k8s-status", top && *top ? top : ".");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
