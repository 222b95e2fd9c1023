/* test_render.c - job + flavor + config -> the exact JSON object (golden
 * files in tests/data/render/), and every refusal with its message.
 * SL_REGEN_GOLDEN=1 rewrites the goldens (review the diff!). The goldens are
 * also validated against the CRD schemas by test_render_crd.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "conf_testlib.h"
#include "conf.h"
#include "conf_kube.h"
#include "err.h"
#include "hostlist.h"
#include "kueue.h"
#include "k8s/kinds.h"
#include "k8s/render.h"
#include "slurm_opt.h"
#include "xalloc.h"

static struct sl_conf *conf;
static const gid_t groups[] = {2000, 1000, 2000, 3000};

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s != NULL && *s != '\0' ? s : ".";
}

static int setup(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char *path = sl_xasprintf("%s/tests/data/render/sluice.yaml", srcdir());
	int r = sl_conf_load(path, &conf, &err);

	if (r != 0)
		fprintf(stderr, "%s\n", err.msg);
	free(path);
	return r;
}

static int teardown(void **state)
{
	sl_conf_free(conf);
	return 0;
}

/* alice's job in team-a: the fields a resolved record has at admission. */
static struct sl_job *job(uint64_t id, const char *partition)
{
	static char *env[] = {"HOME=/home/alice", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
			      "BASH_FUNC_module%%=() {  eval $(/usr/bin/modulecmd bash $*)\n}",
			      "PRICE=$(cost) and $$", "SLURM_JOB_ID=999", NULL};
	struct sl_job *j = sl_job_new();
	struct sl_jobspec *s = &j->spec;

	j->id = id;
	j->uid = 1000;
	j->gid = 1000;
	j->user = sl_xstrdup("alice");
	j->group = sl_xstrdup("alice");
	s->name = sl_xstrdup("train job");
	s->partition = sl_xstrdup(partition);
	s->account = sl_xstrdup("team-a");
	s->work_dir = sl_xstrdup("/home/alice/run");
	s->submit_dir = sl_xstrdup("/home/alice/run");
	s->submit_host = sl_xstrdup("login1");
	s->script = sl_xstrdup("#!/bin/bash\n#SBATCH -N 1\nsrun hostname\necho 'done'\n");
	s->script_path = sl_xstrdup("train.sh");
	s->env = sl_strv_dup(env);
	return j;
}

static const struct sl_kq_flavor *flavor(const char *name)
{
	const struct sl_kq_flavor *f = sl_kueue_find_flavor(sl_conf_kueue(conf), name);

	assert_non_null(f);
	return f;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = sl_xmalloc((size_t)n + 1);
	buf[fread(buf, 1, (size_t)n, f)] = '\0';
	fclose(f);
	return buf;
}

/* Render and compare with tests/data/render/NAME.json byte for byte. */
static void golden(const char *name, const struct sl_render_in *in)
{
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL, *path, *want;

	if (sl_render(in, &json, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
	path = sl_xasprintf("%s/tests/data/render/%s.json", srcdir(), name);
	if (getenv("SL_REGEN_GOLDEN") != NULL) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(json, f);
		fclose(f);
	}
	want = read_file(path);
	if (want == NULL)
		fail_msg("%s: missing (SL_REGEN_GOLDEN=1 writes it)", path);
	if (strcmp(json, want) != 0) {
		fprintf(stderr, "%s differs; got:\n%s", path, json);
		fail();
	}
	free(want);
	free(path);
	free(json);
}

static struct sl_render_in in_for(const struct sl_job *j, const struct sl_render_flavor *f,
				  size_t nf)
{
	struct sl_render_in in = {
		.job = j, .nflavors = nf, .flavors = f, .kube = sl_conf_kubernetes(conf),
		.cluster = sl_conf_cluster_name(conf), .pbs_server = "head1", .attempt = 0,
		.kill_wait = sl_conf_kill_wait(conf), .groups = groups, .ngroups = 4,
	};
	return in;
}

/* sbatch -c 4 --mem=8G train.sh on the CPU partition. */
static void test_one_node(void **state)
{
	struct sl_job *j = job(1001, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}, {"memory", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 2);

	j->spec.cpus_per_task = 4;
	j->spec.mem_per_node = 8192;
	assert_ptr_equal(sl_render_kind(&in), &sl_k8s_kinds[SL_K8S_JOBSET]);
	golden("jobset-1node", &in);
	sl_job_free(j);
}

/* -N4 --ntasks-per-node=8 -c12 --mem=1600G --gpus-per-node=8 -t 1-0
 * -o %x-%j.out: the flavor's nodeLabels, tolerations and taints, the shared
 * /home, a requeued attempt. */
static void test_four_nodes_gpu(void **state)
{
	struct sl_job *j = job(1002, "gpu");
	struct sl_render_flavor f[] = {{"cpu", flavor("h100")},
				       {"memory", flavor("h100")},
				       {"nvidia.com/gpu", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 3);

	j->spec.nodes = 4;
	j->spec.ntasks_per_node = 8;
	j->spec.cpus_per_task = 12;
	j->spec.mem_per_node = 1600 * 1024;
	j->spec.gpus_per_node = 8;
	j->spec.time_limit = 1440;
	j->spec.std_out = sl_xstrdup("logs/%x-%j.out");
	j->spec.argv = sl_strv_dup((char *[]){"--epochs", "10", "it's", NULL});
	in.attempt = 1;
	golden("jobset-4node-8gpu", &in);
	sl_job_free(j);
}

/* kubernetes.agentImage: srun's step agent in every pod of a 2-node job:
 * the init container copying it, the command wrapped, the job's secret by
 * secretKeyRef, the emptyDir between them. */
static void test_agent(void **state)
{
	struct sl_job *j = job(1010, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}, {"memory", flavor("default")}};
	struct sl_kubeconf k = *sl_conf_kubernetes(conf);
	struct sl_render_in in = in_for(j, f, 2);

	k.agent_image = "ghcr.io/example/sluice-agent:1.0";
	in.kube = &k;
	j->spec.nodes = 2;
	j->spec.ntasks_per_node = 4;
	golden("jobset-agent", &in);
	sl_job_free(j);
}

/* The container's `sh -c` text of the first pod template in json. */
static char *command_text(const char *json)
{
	json_object *o = json_tokener_parse(json), *v = o;
	const char *path[] = {"spec", "replicatedJobs", "#0", "template", "spec", "template",
			      "spec", "containers", "#0", "command", "#2", NULL};
	char *t;
	size_t i;

	assert_non_null(o);
	for (i = 0; path[i] != NULL; i++) {
		if (path[i][0] == '#')
			v = json_object_array_get_idx(v, (size_t)atoi(path[i] + 1));
		else if (!json_object_object_get_ex(v, path[i], &v))
			v = NULL;
		assert_non_null(v);
	}
	t = sl_xstrdup(json_object_get_string(v));
	json_object_put(o);
	return t;
}

/* --time=1:30:00 -o out-%j.txt, no shared filesystem: the pod log. */
static void test_time_limit(void **state)
{
	struct sl_job *j = job(1003, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL;

	j->spec.time_limit = 90;
	j->spec.std_out = sl_xstrdup("out-%j.txt");
	golden("jobset-time", &in);
	sl_jobspec_limit_set_secs(&j->spec, 45); /* qsub -l walltime=45: to the second */
	assert_int_equal(sl_render(&in, &json, &err), 0);
	assert_non_null(strstr(json, "\"activeDeadlineSeconds\": 45,"));
	free(json);
	json = NULL;
	j->spec.time_limit_secs = 0;
	j->spec.time_limit = SL_TIME_INFINITE; /* --time=UNLIMITED: no deadline */
	assert_int_equal(sl_render(&in, &json, &err), 0);
	assert_null(strstr(json, "activeDeadlineSeconds"));
	assert_non_null(strstr(json, "\"completions\": 1,"));
	free(json);
	sl_job_free(j);
}

#define IDLE                                                                  \
	"if [ \"${JOB_COMPLETION_INDEX:-0}\" != 0 ]; then\n"                   \
	"  trap 'exit 0' TERM\n"                                               \
	"  while :; do sleep 3600 & wait $!; done\n"                           \
	"fi\n"

/* -e apart from -o, no shared filesystem: the pod prints stderr after stdout
 * and a boundary of this job's attempt (k8s/podlog.h); -e the same file as
 * -o, or none, keeps the plain exec. */
/* -N 2-4 admitted on 3 nodes (partial admission): the JobSet has 3 pods,
 * and the job's environment says 3 nodes. */
static void test_partial_nodes(void **state)
{
	struct sl_job *j = job(1011, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL;
	json_object *o, *v;

	j->spec.nodes = 2;
	j->spec.nodes_max = 4;
	j->alloc_nodes = 3;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	o = json_tokener_parse(json);
	v = json_object_array_get_idx(json_object_object_get(json_object_object_get(o, "spec"),
							     "replicatedJobs"), 0);
	v = json_object_object_get(json_object_object_get(v, "template"), "spec");
	assert_int_equal(json_object_get_int(json_object_object_get(v, "parallelism")), 3);
	assert_int_equal(json_object_get_int(json_object_object_get(v, "completions")), 3);
	assert_non_null(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			       "{\"name\":\"SLURM_NNODES\",\"value\":\"3\"}"));
	json_object_put(o);
	free(json);
	sl_job_free(j);
}

/* -i cannot reach a pod without the shared filesystem: refused, not
 * replaced by /dev/null; on a partition that mounts one it is fine. */
static void test_input_without_shared_fs(void **state)
{
	struct sl_job *j = job(1010, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL;

	j->spec.std_in = sl_xstrdup("/dev/null");
	assert_int_equal(sl_render_check(in.kube, &j->spec, &err), 0);
	free(j->spec.std_in);
	j->spec.std_in = sl_xstrdup("/home/alice/in.txt");
	assert_int_equal(sl_render_check(in.kube, &j->spec, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--input is not supported by Sluice on partition batch: it "
			    "has no shared filesystem (kubernetes.partitions.batch.volumeMounts), "
			    "so the pod cannot read /home/alice/in.txt");
	sl_err_clear(&err);
	assert_int_equal(sl_render(&in, &json, &err), -SL_EUNSUPP);
	assert_null(json);
	free(j->spec.partition);
	j->spec.partition = sl_xstrdup("gpu");
	sl_err_clear(&err);
	assert_int_equal(sl_render_check(in.kube, &j->spec, &err), 0);
	sl_job_free(j);
}

static void test_stderr_apart(void **state)
{
	struct sl_job *j = job(1009, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL, *cmd;

	j->spec.std_out = sl_xstrdup("out-%j.txt");
	j->spec.std_err = sl_xstrdup("err-%j.txt");
	assert_int_equal(sl_render_check(in.kube, &j->spec, &err), 0);
	golden("jobset-stderr", &in);
	in.attempt = 2;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	cmd = command_text(json);
	assert_string_equal(cmd, IDLE "umask 0022\n"
			    "exec 2>/tmp/sluice-stderr\n"
			    "/sluice/slurm_script \"$@\" </dev/null &\n"
			    "pid=$!\n"
			    "trap 'kill -TERM $pid 2>/dev/null && again=1' TERM\n"
			    "again=1\n"
			    "while [ \"$again\" ]; do again=; wait $pid 2>/dev/null; rc=$?; done\n"
			    "printf '\\n%s\\n' '--- sluice: stderr of job 1009 attempt 2 follows "
			    "(5f0c9a7e3b1d48e2a6c4f8b0d2e97153) ---'\n"
			    "cat /tmp/sluice-stderr\n"
			    "exit $rc\n");
	free(cmd);
	free(json);
	/* -e the -o file once expanded: merged, as before. */
	free(j->spec.std_err);
	j->spec.std_err = sl_xstrdup("out-1009.txt");
	assert_int_equal(sl_render(&in, &json, &err), 0);
	cmd = command_text(json);
	assert_string_equal(cmd, IDLE "umask 0022\nexec /sluice/slurm_script \"$@\" </dev/null\n");
	free(cmd);
	free(json);
	sl_job_free(j);
}

/* --container-image on the GPU partition, -e apart and --open-mode=append on
 * the shared /home. */
static void test_image_override(void **state)
{
	struct sl_job *j = job(1004, "gpu");
	struct sl_render_flavor f[] = {{"cpu", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 1);

	j->spec.container_image = sl_xstrdup("ghcr.io/acme/solver@sha256:0123abcd");
	j->spec.std_err = sl_xstrdup("/home/alice/err-%j-%u.log");
	j->spec.open_mode = SL_OPEN_APPEND;
	j->spec.umask = 077;
	golden("jobset-image", &in);
	sl_job_free(j);
}

/* The mpi partition's default (openmpi): 2 workers x 4 slots, PVC + NFS. */
static void test_mpijob(void **state)
{
	struct sl_job *j = job(1005, "mpi");
	struct sl_render_flavor f[] = {{"cpu", flavor("h100")},
				       {"nvidia.com/gpu", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 2);

	j->spec.nodes = 2;
	j->spec.ntasks = 8;
	j->spec.gpus_per_node = 4;
	j->spec.time_limit = 60;
	assert_ptr_equal(sl_render_kind(&in), &sl_k8s_kinds[SL_K8S_MPIJOB]);
	golden("mpijob-openmpi", &in);
	sl_job_free(j);
}

/* mpi-operator writes the launcher's hostfile itself: one line per worker,
 * "<name>-worker-<i>.<name>.<ns>.svc slots=<slotsPerWorker>", in index
 * order. Slurm's node list in the launcher names the same hosts in the same
 * order (short names, which the pods' DNS search resolves), and its tasks
 * per node are the slots: mpirun and srun-style scripts see one layout. */
static void test_mpijob_hostfile(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = job(1005, "mpi");
	struct sl_render_flavor f[] = {{"cpu", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 1);
	json_object *o, *spec, *env, *v;
	const char *list = NULL, *tpn = NULL, *name;
	char **hosts = NULL, want[64], slots[32];
	size_t n = 0;
	char *json = NULL;
	(void)state;

	j->spec.nodes = 3;
	j->spec.ntasks = 12;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	o = json_tokener_parse(json);
	assert_non_null(o);
	name = json_object_get_string(json_object_object_get(json_object_object_get(o, "metadata"),
							     "name"));
	spec = json_object_object_get(o, "spec");
	v = json_object_object_get(spec, "mpiReplicaSpecs");
	v = json_object_object_get(json_object_object_get(v, "Launcher"), "template");
	v = json_object_object_get(json_object_object_get(v, "spec"), "containers");
	env = json_object_object_get(json_object_array_get_idx(v, 0), "env");
	assert_non_null(env);
	for (size_t i = 0; i < json_object_array_length(env); i++) {
		v = json_object_array_get_idx(env, i);
		const char *k = json_object_get_string(json_object_object_get(v, "name"));
		if (strcmp(k, "SLURM_JOB_NODELIST") == 0)
			list = json_object_get_string(json_object_object_get(v, "value"));
		else if (strcmp(k, "SLURM_TASKS_PER_NODE") == 0)
			tpn = json_object_get_string(json_object_object_get(v, "value"));
	}
	assert_non_null(list);
	assert_non_null(tpn);
	assert_int_equal(sl_hostlist_expand(list, &hosts, &n, &err), 0);
	assert_int_equal(n, json_object_get_int(json_object_object_get(json_object_object_get(
		json_object_object_get(spec, "mpiReplicaSpecs"), "Worker"), "replicas")));
	for (size_t i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%s-worker-%zu", name, i);
		assert_string_equal(hosts[i], want);
	}
	snprintf(slots, sizeof(slots), "%d(x%zu)",
		 json_object_get_int(json_object_object_get(spec, "slotsPerWorker")), n);
	assert_string_equal(tpn, slots);
	sl_strv_free(hosts);
	json_object_put(o);
	free(json);
	sl_job_free(j);
}

/* --mpi=intel on the CPU partition; --mpi=none turns a partition's off. */
static void test_mpi_option(void **state)
{
	struct sl_job *j = job(1006, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);

	j->spec.mpi = sl_xstrdup("intel");
	j->spec.nodes = 3;
	golden("mpijob-intel", &in);
	sl_job_free(j);
	j = job(1007, "mpi");
	in.job = j;
	j->spec.mpi = sl_xstrdup("none");
	assert_ptr_equal(sl_render_kind(&in), &sl_k8s_kinds[SL_K8S_JOBSET]);
	sl_job_free(j);
}

static void render_fails(const struct sl_render_in *in, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	char *json = (char *)1;

	int r = sl_render(in, &json, &err);

	if (r != -code)
		fail_msg("got %d (%s), want %d: %s", r, err.msg, -code, msg);
	assert_null(json);
	assert_string_equal(err.msg, msg);
}

static void test_errors(void **state)
{
	struct sl_job *j = job(1008, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}, {"memory", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 1);
	struct sl_kq_flavor clash = *flavor("h100");
	struct sl_kq_kv lab = {"cloud.example.com/node-pool", "a100"};
	struct sl_err err = SL_ERR_INIT;
	char *json = NULL;

	in.kube = NULL;
	render_fails(&in, SL_ECONFIG, "no container image for partition batch: set "
		     "kubernetes.image or kubernetes.partitions.batch.image, or use "
		     "--container-image");
	in.kube = sl_conf_kubernetes(conf);
	free(j->spec.script);
	j->spec.script = sl_xmalloc(300000);
	memset(j->spec.script, 'x', 299999);
	j->spec.script[299999] = '\0';
	render_fails(&in, SL_ETOOBIG, "batch script is 299999 bytes; the Kubernetes "
		     "executor carries it in an annotation of at most 262128 bytes");
	free(j->spec.script);
	j->spec.script = sl_xstrdup("#!/bin/sh\n");
	/* The longest names (id 2^64-1, attempt 2^31-1, 100000 nodes) stay
	 * under 63 characters; the count is what can break. */
	j->id = 18446744073709551615ULL;
	in.attempt = 2147483647;
	j->spec.nodes = 100001;
	render_fails(&in, SL_EINVAL, "JobSet sl-18446744073709551615-2147483647: 100001 "
		     "nodes: an Indexed Job has 1..100000 pods");
	j->spec.nodes = 100000;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	free(json);
	in.attempt = 0;
	j->spec.nodes = 1;
	clash.nlabels = 1;
	clash.labels = &lab;
	f[1].flavor = &clash;
	in.nflavors = 2;
	in.flavors = f;
	f[0].flavor = flavor("h100");
	render_fails(&in, SL_ECONFIG, "ResourceFlavor \"h100\": nodeLabels: "
		     "cloud.example.com/node-pool=a100 conflicts with h100 from another "
		     "flavor of the admission");
	f[1].flavor = flavor("h100");
	j->spec.mpi = sl_xstrdup("lam");
	render_fails(&in, SL_EINVAL, "MPIJob sl-18446744073709551615: unknown MPI "
		     "implementation \"lam\" (openmpi, intel or mpich)");
	sl_job_free(j);
}

/* -C h100&ib --gres=gpu:h100:8 admitted to flavor h100: the pods' nodeSelector
 * holds the job's feature labels, then the flavor's (Kueue keeps the pod's
 * own nodeSelector and adds the flavor's nodeLabels); a feature label that
 * contradicts the flavor, or a GPU type without labels, is refused. */
/* Kueue TAS: the admission's topology assignment as required node
 * affinity (render_tas.c): a host list, or one term per rack domain; with
 * --exclusive's anti-affinity beside it. */
static void test_topology(void **state)
{
	struct sl_job *j = job(1011, "batch");
	struct sl_render_flavor f[] = {{"cpu", flavor("default")}};
	struct sl_render_in in = in_for(j, f, 1);

	j->spec.nodes = 3;
	j->spec.cpus_per_task = 2;
	j->spec.topology = sl_xstrdup("rack");
	j->topo_assign = sl_xstrdup("main@default@kubernetes.io/hostname@n1=2@n2=1");
	golden("jobset-tas-hosts", &in);
	free(j->topo_assign);
	j->topo_assign = sl_xstrdup("main@default@cloud.com/topology-block,cloud.com/topology-rack"
				    "@b1,r1=2@b1,r2=1");
	j->spec.shared = SL_SHARED_EXCLUSIVE;
	golden("jobset-tas-racks", &in);
	free(j->topo_assign);
	j->topo_assign = sl_xstrdup("other@default@kubernetes.io/hostname@n1=2");
	char *json = NULL;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	assert_null(strstr(json, "nodeAffinity"));
	free(json);
	sl_job_free(j);
}

static void test_features_node_selector(void **state)
{
	static const char text[] = "apiVersion: sluice.io/v1alpha1\n"
				   "kind: SluiceConfiguration\nfeatures:\n"
				   "  h100: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}\n"
				   "  ib: {example.com/network: infiniband}\n"
				   "  a100: {nvidia.com/gpu.product: NVIDIA-A100}\n";
	struct sl_err err = SL_ERR_INIT;
	struct sl_conf *fc = tl_conf(text);
	struct sl_job *j = job(1010, "gpu");
	struct sl_render_flavor f[] = {{"cpu", flavor("h100")}, {"nvidia.com/gpu", flavor("h100")}};
	struct sl_render_in in = in_for(j, f, 2);
	char *json = NULL;

	assert_non_null(fc);
	in.features = sl_conf_features(fc);
	j->spec.features = sl_strv_dup((char *[]){"h100", "ib", NULL});
	j->spec.gpu_type = sl_xstrdup("h100");
	j->spec.gpus_per_node = 8;
	assert_int_equal(sl_render(&in, &json, &err), 0);
	assert_non_null(strstr(json, "\n                \"nodeSelector\": {\n"
			       "                  \"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\",\n"
			       "                  \"example.com/network\": \"infiniband\",\n"
			       "                  \"cloud.example.com/node-pool\": \"h100\"\n"
			       "                },\n"));
	free(json);
	json = NULL;
	/* no flavor labels (the default flavor): the job's labels alone */
	f[0].flavor = f[1].flavor = flavor("default");
	assert_int_equal(sl_render(&in, &json, &err), 0);
	assert_non_null(strstr(json, "\n                \"nodeSelector\": {\n"
			       "                  \"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\",\n"
			       "                  \"example.com/network\": \"infiniband\"\n"
			       "                },\n"));
	free(json);
	f[0].flavor = f[1].flavor = flavor("h100");
	sl_strv_free(j->spec.features);
	j->spec.features = sl_strv_dup((char *[]){"a100", NULL});
	free(j->spec.gpu_type);
	j->spec.gpu_type = NULL;
	render_fails(&in, SL_ECONFIG, "ResourceFlavor \"h100\": nodeLabels: "
		     "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3 conflicts with NVIDIA-A100 "
		     "from the job's features (-C, --gres type)");
	sl_strv_free(j->spec.features);
	j->spec.features = NULL;
	j->spec.gpu_type = sl_xstrdup("v100");
	render_fails(&in, SL_EINVAL, "GPU type \"v100\" has no node labels: add features.v100 "
		     "to the SluiceConfiguration\nInvalid generic resource (gres) specification");
	sl_job_free(j);
	sl_conf_free(fc);
}

static void test_helpers(void **state)
{
	char *n = sl_render_name(42, 0);

	assert_string_equal(n, "sl-42");
	free(n);
	n = sl_render_name(42, 3);
	assert_string_equal(n, "sl-42-3");
	free(n);
	assert_int_equal(sl_render_shared_fs(sl_conf_kubernetes(conf), "gpu"), 1);
	assert_int_equal(sl_render_shared_fs(sl_conf_kubernetes(conf), "batch"), 0);
	assert_int_equal(sl_render_shared_fs(NULL, "gpu"), 0);
}

/* sbatch --container-image and --mpi (compat/slurm_opt.c) fill the spec. */
static void test_sbatch_options(void **state)
{
	char *ok[] = {"sbatch", "--container-image=nvcr.io/nvidia/pytorch:24.05-py3",
		      "--mpi=MPICH", "--wrap=true", NULL};
	char *bad[] = {"sbatch", "--mpi=pmi2", "--wrap=true", NULL};
	char *img[] = {"sbatch", "--container-image=a b", "--wrap=true", NULL};
	char *env[] = {NULL};
	struct sl_sbatch_flags fl;
	struct sl_jobspec s;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_sbatch_parse(4, ok, env, &s, &fl, &err), 0);
	assert_string_equal(s.container_image, "nvcr.io/nvidia/pytorch:24.05-py3");
	assert_string_equal(s.mpi, "mpich");
	sl_jobspec_clear(&s);
	sl_sbatch_flags_clear(&fl);
	assert_int_equal(sl_sbatch_parse(3, bad, env, &s, &fl, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid --mpi type: pmi2 (Sluice runs openmpi, intel, "
			    "mpich or none)");
	assert_int_equal(fl.exit_code, 1);
	sl_jobspec_clear(&s);
	sl_sbatch_flags_clear(&fl);
	sl_err_clear(&err);
	assert_int_equal(sl_sbatch_parse(3, img, env, &s, &fl, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid --container-image: expected an image "
			    "reference without spaces");
	sl_jobspec_clear(&s);
	sl_sbatch_flags_clear(&fl);
}

/* The REST paths the executor creates, deletes and watches at: all from a
 * kind's row, never spelled out elsewhere. */
static void test_kind_paths(void **state)
{
	char *p = sl_k8s_kind_path(&sl_k8s_kinds[SL_K8S_JOBSET], "team-a", NULL);

	assert_string_equal(p, "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets");
	free(p);
	p = sl_k8s_kind_path(&sl_k8s_kinds[SL_K8S_MPIJOB], "team-a", "sl-7-1");
	assert_string_equal(p, "/apis/kubeflow.org/v2beta1/namespaces/team-a/mpijobs/sl-7-1");
	free(p);
	p = sl_k8s_kind_path(&sl_k8s_kinds[SL_K8S_MPIJOB], NULL, NULL);
	assert_string_equal(p, "/apis/kubeflow.org/v2beta1/mpijobs");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_node),
		cmocka_unit_test(test_four_nodes_gpu),
		cmocka_unit_test(test_agent),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_stderr_apart),
		cmocka_unit_test(test_input_without_shared_fs),
		cmocka_unit_test(test_partial_nodes),
		cmocka_unit_test(test_image_override),
		cmocka_unit_test(test_mpijob),
		cmocka_unit_test(test_mpijob_hostfile),
		cmocka_unit_test(test_mpi_option),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_sbatch_options),
		cmocka_unit_test(test_features_node_selector),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_kind_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
