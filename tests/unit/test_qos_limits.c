/* test_qos_limits.c - QOS and Account objects: parsing and its errors, and
 * which limit holds a job back, by Slurm's reason codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qos_limits.h"
#include "yaml.h"

static struct sl_limits *load(const char *text, struct sl_err *err)
{
	struct sl_ydocs *d = NULL;
	struct sl_limits *l = sl_limits_new();
	int r = sl_yaml_load_buf("t.yaml", text, strlen(text), &d, err);
	for (size_t i = 0; r == 0 && i < d->n; i++) {
		assert_true(sl_limits_is_doc(d->docs[i]));
		r = sl_limits_add_doc(l, "t.yaml", d->docs[i], err);
	}
	if (r == 0)
		r = sl_limits_finalize(l, err);
	sl_ydocs_free(d);
	if (r) {
		sl_limits_free(l);
		return NULL;
	}
	return l;
}

static const char *site =
	"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: normal}\n"
	"spec: {priorityClass: standard, maxJobsPerUser: 2, maxSubmitJobsPerUser: 3,\n"
	"       maxTRESPerUser: {cpu: \"8\", nvidia.com/gpu: \"2\"}, maxWall: \"1-00:00:00\",\n"
	"       maxTRESPerJob: {memory: 64Gi}, minTRESPerJob: {cpu: 1}}\n"
	"---\napiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: science}\n"
	"spec: {grpTRES: {cpu: \"10\"}, grpSubmitJobs: 5}\n"
	"---\napiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: physics}\n"
	"spec: {parent: science, users: [alice, bob], grpJobs: 3, maxJobsPerUser: 1,\n"
	"       maxTRESPerJob: {mem: 100G}}\n";

static struct sl_lim_job job(const char *user, const char *acct, int64_t cpus)
{
	struct sl_lim_job j = {.user = user, .account = acct, .qos = "normal"};
	j.tres[SL_TRES_CPU] = cpus;
	j.tres[SL_TRES_NODE] = 1;
	j.time_limit = 60;
	return j;
}

static void test_parse(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_limits *l = load(site, &err);
	assert_non_null(l);
	assert_true(sl_limits_has_qos(l, "normal"));
	assert_true(sl_limits_has_qos(l, "NORMAL"));
	assert_false(sl_limits_has_qos(l, "high"));
	assert_string_equal(sl_limits_qos_class(l, "normal"), "standard");
	const char *acct, *const *users = sl_limits_account_users(l, 1, &acct);
	assert_string_equal(acct, "physics");
	assert_string_equal(users[0], "alice");
	assert_string_equal(users[1], "bob");
	assert_null(users[2]);
	assert_null(sl_limits_account_users(l, 2, &acct));
	sl_limits_free(l);
}

static void test_parse_errors(void **state)
{
	(void)state;
	static const struct {
		const char *doc, *msg;
	} cases[] = {
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\nspec: {maxJobs: 1}\n",
		 "t.yaml:4: QOS \"q\": maxJobs: unknown field"},
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\nspec: {maxJobsPerUser: -1}\n",
		 "t.yaml:4: QOS \"q\": maxJobsPerUser: must be a whole number, 0 or more"},
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\nspec: {grpTRES: {disk: 1}}\n",
		 "t.yaml:4: QOS \"q\": grpTRES.disk: unknown resource (cpu, memory, nvidia.com/gpu, node)"},
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\nspec: {grpTRES: {cpu: lots}}\n",
		 "t.yaml:4: QOS \"q\": grpTRES.cpu: \"lots\" is not a quantity"},
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\nspec: {maxWall: soon}\n",
		 "t.yaml:4: QOS \"q\": maxWall: is not a time ([D-]HH:MM:SS, minutes or UNLIMITED)"},
		{"apiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: a}\nspec: {parent: b}\n",
		 "t.yaml:4: Account \"a\": spec.parent: no Account \"b\""},
		{"apiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: a}\nspec: {parent: b}\n---\n"
		 "apiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: b}\nspec: {parent: a}\n",
		 "parents form a cycle"},
		{"apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\n---\n"
		 "apiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: q}\n",
		 "QOS \"q\": defined twice"},
		{"apiVersion: sluice.io/v1alpha1\nkind: Account\nmetadata: {name: a}\nspec: {users: alice}\n",
		 "users: must be a list of user names"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		assert_null(load(cases[i].doc, &err));
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg, cases[i].msg);
	}
}

static void test_per_job(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_limits *l = load(site, &err);
	char text[256];
	struct sl_lim_job j = job("alice", "physics", 4);
	assert_null(sl_limits_job_reason(l, &j, text, sizeof(text)));
	j.time_limit = 1441;
	assert_string_equal(sl_limits_job_reason(l, &j, text, sizeof(text)),
			    "QOSMaxWallDurationPerJobLimit");
	j.time_limit = 60;
	j.tres[SL_TRES_MEM] = 65 * 1024;
	assert_string_equal(sl_limits_job_reason(l, &j, text, sizeof(text)), "QOSMaxMemoryPerJob");
	assert_non_null(strstr(text, "mem=66560, MaxTRESPerJob allows 65536"));
	j.tres[SL_TRES_MEM] = 0;
	j.tres[SL_TRES_CPU] = 0;
	assert_string_equal(sl_limits_job_reason(l, &j, text, sizeof(text)), "QOSMinCpuNotSatisfied");
	sl_limits_free(l);
}

static void test_submit_and_run(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_limits *l = load(site, &err);
	struct sl_lim_usage *active = sl_lim_usage_new(), *run = sl_lim_usage_new();
	char text[256];
	struct sl_lim_job a = job("alice", "physics", 2), b = job("bob", "physics", 2),
			  c = job("carol", "science", 4);

	/* alice may submit 3 in normal; science's subtree 5 in all. */
	for (int i = 0; i < 3; i++) {
		assert_null(sl_limits_submit_reason(l, active, &a, text, sizeof(text)));
		sl_lim_usage_add(active, l, &a, 1);
	}
	assert_string_equal(sl_limits_submit_reason(l, active, &a, text, sizeof(text)),
			    "QOSMaxSubmitJobPerUserLimit");
	sl_lim_usage_add(active, l, &b, 1);
	sl_lim_usage_add(active, l, &c, 1);
	assert_string_equal(sl_limits_submit_reason(l, active, &b, text, sizeof(text)),
			    "AssocGrpSubmitJobsLimit");

	/* physics: one job per user; science: 10 CPUs for the subtree. */
	assert_null(sl_limits_run_reason(l, run, &a, text, sizeof(text)));
	sl_lim_usage_add(run, l, &a, 1);
	assert_string_equal(sl_limits_run_reason(l, run, &a, text, sizeof(text)), "AssocMaxJobsLimit");
	assert_null(sl_limits_run_reason(l, run, &b, text, sizeof(text)));
	sl_lim_usage_add(run, l, &b, 1);
	assert_null(sl_limits_run_reason(l, run, &c, text, sizeof(text)));
	sl_lim_usage_add(run, l, &c, 1);
	struct sl_lim_job d = job("dave", "science", 3);
	assert_string_equal(sl_limits_run_reason(l, run, &d, text, sizeof(text)), "AssocGrpCpuLimit");
	assert_non_null(strstr(text, "Account science: GrpTRES cpu=10 would be passed (8 in use"));
	/* QOS normal: 8 CPUs and 2 jobs per user. */
	struct sl_lim_job big = job("carol", "other", 5);
	assert_string_equal(sl_limits_run_reason(l, run, &big, text, sizeof(text)),
			    "QOSMaxCpuPerUserLimit");
	sl_lim_usage_add(run, l, &c, -1);
	assert_null(sl_limits_run_reason(l, run, &d, text, sizeof(text)));
	struct sl_lim_job c2 = job("carol", "other", 1);
	sl_lim_usage_add(run, l, &c2, 1);
	sl_lim_usage_add(run, l, &c2, 1);
	assert_string_equal(sl_limits_run_reason(l, run, &c2, text, sizeof(text)),
			    "QOSMaxJobsPerUserLimit");
	sl_lim_usage_free(active);
	sl_lim_usage_free(run);
	sl_limits_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_per_job),
		cmocka_unit_test(test_submit_and_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
