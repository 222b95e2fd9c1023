/* test_submit.c - the submit policy: what a job record gets from who asks
 * and from the config, and every refusal in Slurm's exact words, on an
 * engine built from the model as `sluice render` builds it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf.h"
#include "job.h"
#include "sched/sched.h"
#include "authz.h"
#include "conf_testlib.h"
#include "submit.h"
#include "xalloc.h"

/* alice may charge physics (her default) and general; no one else any.
 * Partition gpu exists only in physics; 8 cpus at most. */
static const char conf_text[] =
	"apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"
	"defaultPartition: batch\n"
	"accounts:\n  alice: [physics, general]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: default}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
	"metadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n"
	"  - coveredResources: [cpu]\n    flavors:\n"
	"    - {name: default, resources: [{name: cpu, nominalQuota: 8}]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: physics, name: batch}\nspec: {clusterQueue: cq}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: general, name: batch}\nspec: {clusterQueue: cq}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: physics, name: gpu}\nspec: {clusterQueue: cq}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\n";

static struct sl_conf *conf;
static struct sl_sched *engine;
static const struct sl_peer alice = {.uid = 1000, .gid = 100, .user = "alice", .group = "users"};
static const struct sl_peer op = {.uid = 1001, .gid = 100, .user = "carol", .group = "users",
				  .operator = 1}; /* no account */

static int setup(void **state)
{
	if ((conf = tl_conf(conf_text)) == NULL)
		return -1;
	engine = sl_sched_new(sl_conf_kueue(conf));
	return 0;
}

static int teardown(void **state)
{
	sl_sched_free(engine);
	sl_conf_free(conf);
	return 0;
}

/* A job as sbatch parses `sbatch job.sh` in /home/alice. */
static struct sl_job *job(void)
{
	struct sl_job *j = sl_job_new();

	j->spec.script = sl_xstrdup("#!/bin/sh\ntrue\n");
	j->spec.script_path = sl_xstrdup("jobs/job.sh");
	j->spec.work_dir = sl_xstrdup("/home/alice");
	return j;
}

static void test_defaults(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	j->spec.ntasks = 3;
	j->spec.cpus_per_task = 2;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->uid, 1000);
	assert_int_equal(j->gid, 100);
	assert_string_equal(j->user, "alice");
	assert_string_equal(j->group, "users");
	assert_string_equal(j->spec.partition, "batch");
	assert_string_equal(j->spec.account, "physics");
	assert_string_equal(j->spec.name, "job.sh");
	assert_int_equal(j->state, SL_JOB_PENDING);
	assert_string_equal(j->reason, "None");
	assert_int_equal(j->priority, 0);
	assert_int_equal(j->alloc_cpus, 6);
	sl_job_free(j);

	j = job();
	j->spec.wrapped = 1;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_string_equal(j->spec.name, "wrap");
	sl_job_free(j);

	j = job();
	free(j->spec.script_path);
	j->spec.script_path = NULL; /* from stdin */
	j->spec.name = sl_xstrdup("mine");
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_string_equal(j->spec.name, "mine");
	sl_job_free(j);
}

/* QOS = WorkloadPriorityClass; --priority replaces it; --nice lowers it; a
 * held job has priority 0 until released. */
static void test_priority(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	j->spec.qos = sl_xstrdup("high");
	j->spec.nice = 10;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->priority, 990);
	j->spec.priority = 5;
	assert_int_equal(sl_submit_priority(conf, j, &err), 0);
	assert_int_equal(j->priority, -5);
	sl_job_free(j);

	j = job();
	j->spec.hold = 1;
	j->spec.qos = sl_xstrdup("high");
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_string_equal(j->reason, "JobHeldUser");
	assert_int_equal(j->priority, 0);
	assert_int_equal(sl_submit_priority(conf, j, &err), 0);
	assert_int_equal(j->priority, 1000);
	sl_job_free(j);
}

/* Each refusal: the code and sbatch's words. */
static void expect(struct sl_job *j, const struct sl_peer *w, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_submit_prepare(conf, engine, w, j, &err), -code);
	assert_string_equal(err.msg, msg);
	sl_job_free(j);
}

static void test_invalid(void **state)
{
	struct sl_job *j = job();
	char *big = sl_xcalloc(1, 1026);

	free(j->spec.script);
	j->spec.script = sl_xstrdup("");
	expect(j, &alice, SL_EINVAL, "Batch script is empty!");
	j = job();
	free(j->spec.work_dir);
	j->spec.work_dir = sl_xstrdup("home");
	expect(j, &alice, SL_EINVAL, "working directory must be an absolute path");
	j = job();
	memset(big, 'x', 1025);
	j->spec.std_err = big;
	expect(j, &alice, SL_EINVAL, "error path is longer than 1024 bytes");
	j = job();
	j->spec.nodes = 0;
	expect(j, &alice, SL_EINVAL, "node, task and cpu counts must be positive");
	j = job();
	j->spec.nice = 2147483646;
	expect(j, &alice, SL_EINVAL, "Invalid nice value");
	j = job();
	j->spec.qos = sl_xstrdup("urgent");
	expect(j, &alice, SL_EINVAL, "Invalid qos specification");
}

/* --priority, a negative --nice and others' accounts are for operators. */
static void test_operator_rules(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	j->spec.priority = 7;
	expect(j, &alice, SL_EPERM, "Access/permission denied: only operators may set --priority");
	j = job();
	j->spec.nice = -1;
	expect(j, &alice, SL_EPERM,
	       "Access/permission denied: only operators may set a negative --nice");
	j = job();
	j->spec.account = sl_xstrdup("chemistry");
	expect(j, &alice, SL_EACCOUNT, "Invalid account or account/partition combination specified");
	expect(job(), &(struct sl_peer){.uid = 2000, .gid = 100, .user = "bob", .group = "users"}, SL_EACCOUNT,
	       "Invalid account or account/partition combination specified: user bob has no "
	       "account in the configuration");

	j = job();
	j->spec.priority = 7;
	j->spec.nice = -3;
	j->spec.account = sl_xstrdup("general");
	assert_int_equal(sl_submit_prepare(conf, engine, &op, j, &err), 0);
	assert_int_equal(j->priority, 10);
	sl_job_free(j);
}

/* The engine's word: no such LocalQueue (for the account: another one has
 * it), or more than the ClusterQueue can ever give. */
static void test_fit(void **state)
{
	struct sl_job *j = job();

	j->spec.partition = sl_xstrdup("nosuch");
	expect(j, &alice, SL_EPARTITION,
	       "invalid partition specified: nosuch\nInvalid partition name specified");
	j = job();
	j->spec.partition = sl_xstrdup("gpu");
	j->spec.account = sl_xstrdup("general");
	expect(j, &alice, SL_EACCOUNT, "Invalid account or account/partition combination specified");
	j = job();
	j->spec.cpus_per_task = 9;
	expect(j, &alice, SL_ENOFIT, "pod set main requests 9 cpu, more than ClusterQueue cq can "
	       "ever provide in any eligible flavor\nRequested node configuration is not available");
	j = job();
	j->spec.features = sl_xcalloc(2, sizeof(char *));
	j->spec.features[0] = sl_xstrdup("h100");
	expect(j, &alice, SL_EINVAL, "Invalid feature specification");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_operator_rules),
		cmocka_unit_test(test_fit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
