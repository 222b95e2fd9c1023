/* test_submit_opts.c - what issue 12 added below the commands: Slurm names
 * mapped to Kubernetes names (and the config's refusal of two accounts on
 * one namespace), the submit policy's new resolutions (account case, mail
 * user, --mem=0, --exclusive, deadlines, what Kubernetes refuses), the
 * shape of --gpus-per-task/--cpus-per-gpu/--mem-per-gpu/--mincpus, and
 * the parsers of --mail-type, --signal, --hint and scontrol's paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "authz.h"
#include "conf.h"
#include "conf_testlib.h"
#include "job.h"
#include "sched/sched.h"
#include "slurm_opt.h"
#include "slurm_pattern.h"
#include "submit.h"
#include "workload.h"
#include "xalloc.h"

#define HEAD "apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"

/* accre_gpu's namespace is accre-gpu; its queue "GPU_Queue" is gpu-queue. */
static const char conf_text[] =
	HEAD "defaultPartition: GPU_Queue\n"
	"accounts:\n  alice: [accre_gpu, TRAINING-CPU]\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: small}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
	"metadata: {name: big}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
	"metadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  resourceGroups:\n"
	"  - coveredResources: [cpu, memory]\n    flavors:\n"
	"    - {name: small, resources: [{name: cpu, nominalQuota: 4}, {name: memory, nominalQuota: 8Gi}]}\n"
	"    - {name: big, resources: [{name: cpu, nominalQuota: 16}, {name: memory, nominalQuota: 64Gi}]}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: accre-gpu, name: gpu-queue}\nspec: {clusterQueue: cq}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
	"metadata: {namespace: training-cpu, name: gpu-queue}\nspec: {clusterQueue: cq}\n"
	"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\n"
	"metadata: {name: high-prio}\nvalue: 1000\n";

#include "submit_testlib.h"

static struct sl_job *job(void)
{
	return tl_submit_job(NULL);
}

static void test_k8s_name(void **state)
{
	char k[SL_K8S_NAME_MAX];

	assert_int_equal(sl_conf_k8s_name("accre_gpu", k), 0);
	assert_string_equal(k, "accre-gpu");
	assert_int_equal(sl_conf_k8s_name("TRAINING-CPU", k), 0);
	assert_string_equal(k, "training-cpu");
	assert_int_equal(sl_conf_k8s_name("m3562_g", k), 0);
	assert_string_equal(k, "m3562-g");
	assert_int_equal(sl_conf_k8s_name("a.b", k), 0);
	assert_string_equal(k, "a-b");
	assert_int_equal(sl_conf_k8s_name("_x", k), -1);
	assert_int_equal(sl_conf_k8s_name("x y", k), -1);
	assert_int_equal(sl_conf_k8s_name("", k), -1);
	assert_int_equal(sl_conf_k8s_name("a/b", k), -1);
}

static void conf_fails(const char *text, const char *want)
{
	char path[] = "/tmp/sl-unit-names-XXXXXX";
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *c = NULL;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
	assert_int_not_equal(sl_conf_load(path, &c, &err), 0);
	unlink(path);
	assert_null(c);
	assert_non_null(strstr(err.msg, want));
}

static void test_accounts_conf(void **state)
{
	const char *const *a = sl_conf_accounts(conf, "alice");

	assert_string_equal(a[0], "accre_gpu");
	assert_string_equal(a[1], "training-cpu"); /* lowercased, as Slurm stores it */
	assert_true(sl_conf_account_allowed(conf, "alice", "TRAINING-CPU"));
	assert_true(sl_conf_account_allowed(conf, "alice", "ACCRE_gpu"));
	assert_false(sl_conf_account_allowed(conf, "alice", "accre-gpu"));
	assert_string_equal(sl_conf_default_partition(conf), "GPU_Queue");
	conf_fails(HEAD "accounts:\n  alice: [m3562_g]\n  bob: [x, m3562-g]\n",
		   "accounts.bob[1]: \"m3562-g\" and \"m3562_g\" (accounts.alice[0]) both map to "
		   "namespace \"m3562-g\"");
	conf_fails(HEAD "accounts:\n  alice: [A_b, a.b]\n", "both map to namespace \"a-b\"");
	conf_fails(HEAD "accounts:\n  alice: [x_]\n", "\"x_\" is not a valid account name");
}

static void test_submit_names(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();
	struct sl_job_wl b;

	j->spec.account = sl_xstrdup("TRAINING-CPU");
	j->spec.qos = sl_xstrdup("High_Prio");
	j->spec.mail_type = SL_MAIL_END;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_string_equal(j->spec.account, "training-cpu");
	assert_string_equal(j->spec.partition, "GPU_Queue");
	assert_string_equal(j->spec.mail_user, "alice");
	assert_int_equal(j->priority, 1000); /* High_Prio -> high-prio */
	assert_int_equal(sl_job_workload(j, NULL, &b, &err), 0);
	assert_string_equal(b.wl.ns, "training-cpu");
	assert_string_equal(b.wl.queue, "gpu-queue");
	sl_job_free(j);

	j = job();
	j->spec.partition = sl_xstrdup("gpu_queue!");
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), -SL_EPARTITION);
	sl_job_free(j);
}

static void test_whole_node(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	/* the largest flavor of the partition's ClusterQueue is the node */
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	j->spec.mem_per_node = 0;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.node_cpus, 16);
	assert_int_equal(j->spec.mem_per_node, 64 * 1024);
	assert_int_equal(j->spec.mem_all, 1);
	assert_int_equal(j->alloc_cpus, 1); /* pending: what it asks, as Slurm shows it */
	sl_job_free(j);

	j = job(); /* two nodes on one host share it out: 8 CPUs and half
		    * the memory each, so that the job fits the queue */
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	j->spec.nodes = 2;
	j->spec.mem_per_node = 0;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.node_cpus, 8);
	assert_int_equal(j->spec.mem_per_node, 32 * 1024);
	sl_job_free(j);
	j = job(); /* more nodes than CPUs: one CPU each, and it waits */
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	j->spec.nodes = 20;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), 0);
	assert_int_equal(j->spec.node_cpus, 1);
	sl_job_free(j);
}

static void test_deadline(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job();

	j->spec.deadline = (int64_t)time(NULL) - 10;
	assert_int_equal(sl_submit_prepare(conf, engine, &alice, j, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Requested time limit is invalid (missing or exceeds some limit)");
	sl_job_free(j);
}

static void test_kubernetes_refusals(void **state)
{
	static const char *const k8s = HEAD "executor: kubernetes\nkubernetes: {inCluster: true}\n"
		"accounts:\n  alice: [general]\n"
		"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n"
		"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq}\n"
		"spec:\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
		"    flavors:\n    - {name: f, resources: [{name: cpu, nominalQuota: 8}]}\n"
		"---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
		"metadata: {namespace: general, name: batch}\nspec: {clusterQueue: cq}\n";
	struct sl_conf *c = tl_conf(k8s);
	struct sl_sched *e;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j;

	assert_non_null(c);
	e = sl_sched_new(sl_conf_kueue(c));
	j = job();
	j->spec.mem_per_node = 0;
	assert_int_equal(sl_submit_prepare(c, e, &alice, j, &err), -SL_EUNSUPP);
	assert_non_null(strstr(err.msg, "--mem=0 is not supported by Sluice on Kubernetes"));
	sl_job_free(j);
	sl_err_clear(&err);
	j = job();
	j->spec.warn_signal = 10;
	assert_int_equal(sl_submit_prepare(c, e, &alice, j, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--signal is not supported by Sluice on Kubernetes");
	sl_job_free(j);
	sl_err_clear(&err);
	j = job();
	j->spec.get_user_env = 8;
	assert_int_equal(sl_submit_prepare(c, e, &alice, j, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--get-user-env is not supported by Sluice on Kubernetes");
	sl_job_free(j);
	sl_err_clear(&err);
	j = job(); /* a pod's failure ends a JobSet: -k cannot be kept */
	j->spec.no_kill = 1;
	assert_int_equal(sl_submit_prepare(c, e, &alice, j, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--no-kill is not supported by Sluice on Kubernetes");
	sl_job_free(j);
	sl_err_clear(&err);
	j = job(); /* --exclusive is the renderer's anti-affinity: the quota is the job's */
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	assert_int_equal(sl_submit_prepare(c, e, &alice, j, &err), 0);
	assert_int_equal(j->spec.node_cpus, 0);
	sl_job_free(j);
	sl_sched_free(e);
	sl_conf_free(c);
}

static void test_shape(void **state)
{
	struct sl_jobspec s;
	struct sl_jobshape sh;

	sl_jobspec_init(&s);
	s.ntasks = 2;
	s.gpus_per_task = 1;
	s.cpus_per_gpu = 3;
	s.mem_per_gpu = 1024;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.gpus_per_node, 2);
	assert_int_equal(sh.cpus_per_node, 6);
	assert_int_equal(sh.mem_per_node, 2048);
	sl_jobspec_init(&s);
	s.mincpus = 8;
	s.mem_per_cpu = 100;
	sl_jobspec_shape(&s, &sh);
	assert_int_equal(sh.cpus_per_node, 8);
	assert_int_equal(sh.mem_per_node, 800);
}

static void test_parsers(void **state)
{
	int sig = 0, secs = 0, flags = 0;
	char *t;

	assert_int_equal(sl_slurm_parse_mail_type("BEGIN,end"), SL_MAIL_BEGIN | SL_MAIL_END);
	assert_int_equal(sl_slurm_parse_mail_type("NONE"), 0);
	assert_int_equal(sl_slurm_parse_mail_type("bogus"), -1);
	assert_int_equal(sl_slurm_parse_mail_type("bogus,FAIL"), SL_MAIL_FAIL);
	t = sl_slurm_mail_type_text(sl_slurm_parse_mail_type("ALL,TIME_LIMIT_80"));
	assert_string_equal(t, "INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT,TIME_LIMIT_80");
	free(t);
	assert_int_equal(sl_slurm_parse_signal("B:USR1@90", &sig, &secs, &flags), 0);
	assert_int_equal(sig, 10);
	assert_int_equal(secs, 90);
	assert_int_equal(flags, SL_WARN_BATCH);
	assert_int_equal(sl_slurm_parse_signal("SIGTERM", &sig, &secs, &flags), 0);
	assert_int_equal(sig, 15);
	assert_int_equal(secs, 60);
	assert_int_equal(flags, 0);
	assert_int_equal(sl_slurm_parse_signal("R:12", &sig, &secs, &flags), 0);
	assert_int_equal(flags, SL_WARN_RESV);
	/* Slurm's quirk: a leading B is the batch flag, "BUS" is B + "US" */
	assert_int_equal(sl_slurm_parse_signal("BUS", &sig, &secs, &flags), -1);
	assert_int_equal(sl_slurm_parse_signal("USR1@x", &sig, &secs, &flags), -1);
}

static void test_scontrol_paths(void **state)
{
	struct sl_pattern_ctx x = {.job_id = 42, .array_task_id = SL_PATTERN_NO_TASK,
				   .job_name = "nm", .user = "alice", .work_dir = "/w"};
	char *p = sl_slurm_pattern_scontrol("o-%x-%u-%A-%a-%j.out", &x);

	assert_string_equal(p, "/w/o-nm-alice-42-4294967294-42.out");
	free(p);
	p = sl_slurm_pattern_scontrol("/abs/%%j-%5j-%N", &x); /* no %%, widths, %N here */
	assert_string_equal(p, "/abs/%42-%5j-%N");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k8s_name),
		cmocka_unit_test(test_accounts_conf),
		cmocka_unit_test(test_submit_names),
		cmocka_unit_test(test_whole_node),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_kubernetes_refusals),
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_scontrol_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
