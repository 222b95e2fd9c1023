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

#include "prio.h"
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

#include "submit_testlib.h"

static const struct sl_peer op = {.uid = 1001, .gid = 100, .user = "carol", .group = "users",
				  .operator = 1}; /* no account */

/* `sbatch job.sh` in /home/alice. */
static struct sl_job *job(void)
{
	return tl_submit_job("jobs/job.sh");
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
	/* --priority is on Slurm's scale (prio.h): 10005 is Kueue's 5. */
	j->spec.priority = SL_PRIO_SITE + 5;
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

	j = job(); /* --qos='': none given, the default */
	j->spec.qos = sl_xstrdup("");
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_string_equal(j->spec.qos, "normal");
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
	struct sl_err err = SL_ERR_INIT;

	free(j->spec.script);
	j->spec.script = sl_xstrdup("");
	expect(j, &alice, SL_EINVAL, "Batch script is empty!");
	j = job();
	free(j->spec.work_dir);
	j->spec.work_dir = sl_xstrdup("home");
	expect(j, &alice, SL_EINVAL, "working directory must be an absolute path");
	/* slurmctld's limits and words: 1024 bytes of a comment (the
	 * reference cluster took 1024, refused 1025), 4096 of a path */
	j = job();
	memset(big, 'x', 1025);
	j->spec.comment = big;
	expect(j, &alice, SL_EINVAL, "Pathname of a file, directory or other parameter too long");
	j = job();
	big = sl_xcalloc(1, 4098);
	memset(big, 'x', 4096);
	j->spec.std_err = big;
	big[0] = '/';
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	sl_job_free(j);
	j = job();
	big = sl_xcalloc(1, 4098);
	memset(big, 'x', 4097);
	j->spec.std_out = big;
	expect(j, &alice, SL_EINVAL, "Pathname of a file, directory or other parameter too long");
	j = job();
	j->spec.nodes = 0;
	expect(j, &alice, SL_EINVAL, "Node count specification invalid");
	j = job();
	j->spec.ntasks = 0;
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

	/* a user's --priority is dropped, as slurmctld does (validate_job_create_req) */
	j->spec.priority = 7;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.priority, SL_NO_VAL);
	sl_job_free(j);
	j = job();
	j->spec.nice = -1;
	expect(j, &alice, SL_EINVAL, "Invalid --nice value");
	j = job(); /* qsub -p 10: PBS's priority, any user's to set */
	j->spec.nice = -10;
	j->spec.pbs = 1;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	sl_job_free(j);
	j = job();
	j->spec.account = sl_xstrdup("chemistry");
	expect(j, &alice, SL_EACCOUNT, "Invalid account or account/partition combination specified");
	expect(job(), &(struct sl_peer){.uid = 2000, .gid = 100, .user = "bob", .group = "users"}, SL_EACCOUNT,
	       "Invalid account or account/partition combination specified: user bob has no "
	       "account in the configuration");

	j = job();
	j->spec.priority = SL_PRIO_SITE + 7;
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
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	j->spec.partition = sl_xstrdup("nosuch");
	expect(j, &alice, SL_EPARTITION,
	       "invalid partition specified: nosuch\nInvalid partition name specified");
	j = job(); /* "-p=": slurmctld's NULL (the reference cluster) */
	j->spec.partition = sl_xstrdup("");
	expect(j, &alice, SL_EPARTITION,
	       "invalid partition specified: (null)\nInvalid partition name specified");
	j = job();
	j->spec.partition = sl_xstrdup("gpu");
	j->spec.account = sl_xstrdup("general");
	expect(j, &alice, SL_EACCOUNT, "Invalid account or account/partition combination specified");
	/* more CPUs than the queue ever has: taken, to wait (PartitionConfig),
	 * as slurmctld with EnforcePartLimits=NO; with memory no node has
	 * too, refused for the memory */
	j = job();
	j->spec.cpus_per_task = 9;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	sl_job_free(j);
	j = job();
	j->spec.cpus_per_task = 9;
	j->spec.mem_per_node = 1 << 30;
	expect(j, &alice, SL_ENOFIT, "Memory specification can not be satisfied (resource memory "
	       "unavailable in ClusterQueue cq)\nRequested node configuration is not available");
	j = job();
	j->spec.features = sl_xcalloc(2, sizeof(char *));
	j->spec.features[0] = sl_xstrdup("h100");
	expect(j, &alice, SL_EINVAL, "Invalid feature specification");
}

/* TimeMin= against the limit: the job's own, unlimited, or unset (the
 * partition has no default); UNLIMITED only under an unlimited limit. */
static void test_time_min(void **state)
{
	static const struct {
		int64_t limit, min;
		int code;
	} cases[] = {
		{60, 0, 0}, {60, 60, 0}, {60, 61, -SL_EINVAL}, {60, SL_TIME_INFINITE, -SL_EINVAL},
		{SL_TIME_INFINITE, 500000, 0}, {SL_TIME_INFINITE, SL_TIME_INFINITE, 0},
		{SL_TIME_UNSET, 90, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_jobspec s = {.time_limit = cases[i].limit, .time_min = cases[i].min};
		assert_int_equal(sl_submit_time_min(&s, &err), cases[i].code);
		if (cases[i].code)
			assert_string_equal(err.msg, "Invalid time-min specification (exceeds job's "
					    "time or other limits)");
	}
}

/* qsub's walltime to the second is the job's limit: the daemon derives
 * the minutes Slurm's views show from it, whatever minutes came beside. */
static void test_limit_secs(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();
	(void)state;

	j->spec.account = sl_xstrdup("general");
	j->spec.time_limit = 99;
	j->spec.time_limit_secs = 45;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.time_limit, 1);
	assert_int_equal(j->spec.time_limit_secs, 45);
	assert_int_equal(sl_jobspec_limit_secs(&j->spec), 45);
	sl_job_free(j);
	/* --time-min is held to the minutes, as Slurm's */
	j = job();
	j->spec.account = sl_xstrdup("general");
	j->spec.time_limit_secs = 90;
	j->spec.time_min = 2;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.time_limit, 2);
	sl_job_free(j);
}

/* Issue 11, hole 1: counts and sizes whose products wrap were stored as
 * negative CPUs and memory and ran on any quota. Each is refused with the
 * numbers and Slurm's words; nothing reaches the engine. */
static void test_overflow(void **state)
{
	/* Fields left 0 keep sl_job_new()'s value. */
	static const struct {
		int cpus_per_task, ntasks_per_node, ntasks, nodes, nodes_max, gpus, gpus_per_node;
		int64_t mem_per_node, mem_per_cpu;
		const char *msg;
	} cases[] = {
		/* sbatch -c 536870911 --ntasks-per-node=8 */
		{.cpus_per_task = 536870911, .ntasks_per_node = 8,
		 .msg = "8 tasks per node of 536870911 CPUs each on 1 node(s) is "
			"more than 2147483647 CPUs\nMore processors requested than permitted"},
		/* sbatch --mem=17592145084 */
		{.mem_per_node = 17592145084LL,
		 .msg = "--mem=17592145084M on 1 node(s) is more than the 8796093022M of memory "
			"Sluice can count\nMemory required by task is not available"},
		/* ceil(ntasks / nodes) must not wrap either */
		{.ntasks = 2147483647, .nodes = 2,
		 .msg = "1073741824 tasks per node of 1 CPUs each on 2 node(s) is "
			"more than 2147483647 CPUs\nMore processors requested than permitted"},
		{.ntasks_per_node = 1073741824, .nodes = 4,
		 .msg = "--ntasks-per-node=1073741824 on 4 nodes is more than "
			"2147483647 tasks\nTask count specification invalid"},
		/* per node fits; on MAX of -N 1-1073741824 it does not */
		{.cpus_per_task = 2, .nodes = 1, .nodes_max = 1073741824, .ntasks_per_node = 1,
		 .msg = "1 tasks per node of 2 CPUs each on 1073741824 node(s) is "
			"more than 2147483647 CPUs\nMore processors requested than permitted"},
		/* times 4 CPUs: past int64 itself */
		{.mem_per_cpu = INT64_MAX / 2, .cpus_per_task = 4,
		 .msg = "--mem-per-cpu=4611686018427387903M for 4 CPUs per node on "
			"1 node(s) is more than the 8796093022M of memory Sluice can count\nMemory "
			"required by task is not available"},
		/* fits one node, not two */
		{.mem_per_node = 8796093022LL / 2 + 1, .nodes = 2,
		 .msg = "--mem=4398046512M on 2 node(s) is more than the "
			"8796093022M of memory Sluice can count\nMemory required by task is not "
			"available"},
		{.gpus_per_node = 2147483647, .nodes = 2,
		 .msg = "2147483647 GPUs per node on 2 nodes is more than "
			"2147483647 GPUs\nInvalid generic resource (gres) specification"},
		/* ceil(gpus / nodes) must not wrap */
		{.gpus = 2147483647, .nodes = 2,
		 .msg = "1073741824 GPUs per node on 2 nodes is more than "
			"2147483647 GPUs\nInvalid generic resource (gres) specification"},
	};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		j = job();
#define SET_IF(f) if (cases[i].f) j->spec.f = cases[i].f
		SET_IF(cpus_per_task);
		SET_IF(ntasks_per_node);
		SET_IF(ntasks);
		SET_IF(nodes);
		SET_IF(nodes_max);
		SET_IF(gpus);
		SET_IF(gpus_per_node);
		SET_IF(mem_per_node);
		SET_IF(mem_per_cpu);
#undef SET_IF
		expect(j, &alice, SL_EINVAL, cases[i].msg);
	}
	j = job();
	j->spec.time_limit = INT64_MAX; /* its seconds would wrap at launch */
	expect(j, &alice, SL_EINVAL, "time limit of 9223372036854775807 minutes is not between 0 "
	       "and 4294967293\nRequested time limit is invalid (missing or exceeds some limit)");

	/* qsub's seconds: past Slurm's largest minutes, refused as such */
	j = job();
	j->spec.time_limit_secs = 4294967293LL * 60 + 1;
	expect(j, &alice, SL_EINVAL, "time limit of 257698037581 seconds is not between 1 and "
	       "257698037580\nRequested time limit is invalid (missing or exceeds some limit)");
	j = job();
	j->spec.time_limit_secs = -5;
	expect(j, &alice, SL_EINVAL, "time limit of -5 seconds is not between 1 and "
	       "257698037580\nRequested time limit is invalid (missing or exceeds some limit)");

	/* The largest of each still passes the policy (and then fails to fit). */
	j = job();
	j->spec.mem_per_node = 8796093022LL;
	j->spec.time_limit = 4294967293LL;
	expect(j, &alice, SL_ENOFIT, "Memory specification can not be satisfied (resource memory "
	       "unavailable in ClusterQueue cq)\nRequested node configuration is not available");

	/* --priority=TOP is Kueue's highest int32 priority, not -2. */
	j = job();
	j->spec.priority = 4294967294LL;
	j->spec.account = sl_xstrdup("general");
	assert_int_equal(sl_submit_prepare(conf, engine, &op, j, &err), 0);
	assert_int_equal(j->priority, INT32_MAX);
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_operator_rules),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_time_min),
		cmocka_unit_test(test_limit_secs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
