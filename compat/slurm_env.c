/* slurm_env.c - SLURM_* variables of a batch step, from the job record and
 * its resolved shape. One table row per variable, in `env | sort` order. */
#include "slurm_env.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "xalloc.h"

#define ENV_VAL_MAX 4096

/* A row writes its value into buf and returns 1, or returns 0 to skip the
 * variable (Slurm sets it only when the option was given). */
typedef int (*env_val_fn)(const struct sl_slurm_env_in *in, char *buf, size_t len);

struct env_row {
	const char *name;
	env_val_fn val;
};

#define SPEC(in) (&(in)->job->spec)

static int put_str(char *buf, size_t len, const char *s)
{
	if (s == NULL)
		return 0;
	snprintf(buf, len, "%s", s);
	return 1;
}

static int put_num(char *buf, size_t len, long long v)
{
	snprintf(buf, len, "%lld", v);
	return 1;
}

/* Tasks per node as Slurm's batch step sees them: --ntasks-per-node on
 * every node when given (-N 2 -n 4 --ntasks-per-node=3 is "3(x2)" in
 * Slurm), else a block distribution where the first ntasks % nodes nodes
 * take one more. Returns a malloc'd array of *n counts. */
static int *env_tasks(const struct sl_slurm_env_in *in, size_t *n)
{
	const struct sl_jobshape *sh = in->shape;
	int tpn = SPEC(in)->ntasks_per_node;

	*n = sh->nodes > 0 ? (size_t)sh->nodes : 1;
	int *v = sl_xcalloc(*n, sizeof(int));
	int t = sh->ntasks > 0 ? sh->ntasks : (int)*n;
	for (size_t i = 0; i < *n; i++)
		v[i] = tpn > 0 ? tpn : t / (int)*n + ((int)i < t % (int)*n ? 1 : 0);
	return v;
}

static int cpt(const struct sl_jobshape *sh)
{
	return sh->cpus_per_task > 0 ? sh->cpus_per_task : 1;
}

/* An array task's variables: its array's id and task id, and its set's
 * count, ends and step, read from the --array text as slurmctld does
 * (_create_job_array); nothing for a job that is not an array task. */
static int arr_set(const struct sl_slurm_env_in *in, char *b, size_t l, char what)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *a = NULL;
	long long v;

	if (in->job->array_job_id == 0 || SPEC(in)->array == NULL ||
	    sl_array_parse(SPEC(in)->array, SL_ARRAY_MAX_LIMIT, &a, &e) != 0)
		return 0;
	v = what == 'n' ? (long long)sl_array_count(a)
	    : what == 'l' ? (long long)sl_array_task(a, 0)
			  : (long long)sl_array_task(a, sl_array_count(a) - 1);
	sl_array_free(a);
	return put_num(b, l, v);
}

static int v_arr_job(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return in->job->array_job_id != 0 && put_num(b, l, (long long)in->job->array_job_id);
}

static int v_arr_task(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return in->job->array_job_id != 0 && put_num(b, l, (long long)in->job->array_task_id);
}

static int v_arr_step(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return in->job->array_job_id != 0 && put_num(b, l, sl_array_step(SPEC(in)->array));
}

static int v_arr_count(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return arr_set(in, b, l, 'n');
}

static int v_arr_min(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return arr_set(in, b, l, 'l');
}

static int v_arr_max(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return arr_set(in, b, l, 'h');
}

/* Rows whose value is one expression. */
#define ENV_FN(fn, expr) \
	static int fn(const struct sl_slurm_env_in *in, char *b, size_t l) { return expr; }

ENV_FN(v_cluster, put_str(b, l, in->cluster))
ENV_FN(v_zero, put_str(b, l, "0"))
ENV_FN(v_environment, !in->allocation && put_str(b, l, "BATCH"))
ENV_FN(v_hostname, !in->allocation && !in->pod && put_str(b, l, in->batch_host))
ENV_FN(v_null, put_str(b, l, "(null)"))
ENV_FN(v_node, put_str(b, l, "node"))
ENV_FN(v_jobid, put_num(b, l, (long long)in->job->id))
ENV_FN(v_uid, put_num(b, l, (long long)in->job->uid))
ENV_FN(v_gid, put_num(b, l, (long long)in->job->gid))
ENV_FN(v_user, put_str(b, l, in->job->user))
ENV_FN(v_name, put_str(b, l, SPEC(in)->name))
ENV_FN(v_account, put_str(b, l, SPEC(in)->account))
ENV_FN(v_partition, put_str(b, l, SPEC(in)->partition))
ENV_FN(v_qos, put_str(b, l, SPEC(in)->qos))
ENV_FN(v_nodelist, put_str(b, l, in->nodelist))
ENV_FN(v_batch_host, put_str(b, l, in->batch_host))
ENV_FN(v_submit_dir, put_str(b, l, SPEC(in)->submit_dir))
ENV_FN(v_submit_host, put_str(b, l, SPEC(in)->submit_host))

static int v_nnodes(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_num(b, l, in->shape->nodes > 0 ? in->shape->nodes : 1);
}

/* CPUs a node was given: its tasks', or the whole of what the job took
 * per node when --exclusive, --mincpus or --cpus-per-gpu asked for more. */
static int node_cpus(const struct sl_slurm_env_in *in, int tasks)
{
	const struct sl_jobspec *s = SPEC(in);
	int c = (s->overcommit ? 1 : tasks) * cpt(in->shape); /* -O: one task's a node */
	int floor = s->node_cpus > s->mincpus ? s->node_cpus : s->mincpus;

	if (s->cpus_per_gpu > 0 && in->shape->gpus_per_node * s->cpus_per_gpu > floor)
		floor = in->shape->gpus_per_node * s->cpus_per_gpu;
	return c > floor ? c : floor;
}

static int v_cpus_on_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	size_t n;
	int *v = env_tasks(in, &n);
	put_num(b, l, (long long)node_cpus(in, v[0]));
	free(v);
	return 1;
}

/* The submitted environment has name (a job submitted from a job). */
static int inherited(const struct sl_slurm_env_in *in, const char *name)
{
	size_t n = strlen(name);
	for (char *const *e = SPEC(in)->env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return 1;
	return 0;
}

/* With -c; and over one the submitted environment carries (a job submitted
 * from a -c job), with this job's own, 1 by default, as
 * env_array_for_batch_job overwrites it when it is there. */
static int v_cpus_per_task(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	if (SPEC(in)->cpus_per_task != SL_NO_VAL)
		return put_num(b, l, SPEC(in)->cpus_per_task);
	return inherited(in, "SLURM_CPUS_PER_TASK") && put_num(b, l, in->shape->cpus_per_task);
}

static int v_job_cpus_per_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	size_t n;
	int *v = env_tasks(in, &n);
	for (size_t i = 0; i < n; i++)
		v[i] = node_cpus(in, v[i]);
	sl_slurm_env_fmt_counts(v, n, b, l);
	free(v);
	return 1;
}

/* Without -n or --ntasks-per-node, Slurm counts a node's tasks from its
 * CPUs: --exclusive's whole node, --mincpus's floor, over -c. */
static int v_tasks_per_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	size_t n;
	int *v = env_tasks(in, &n);
	if (SPEC(in)->ntasks == SL_NO_VAL && SPEC(in)->ntasks_per_node == SL_NO_VAL)
		for (size_t i = 0; i < n; i++)
			v[i] = node_cpus(in, v[i]) / cpt(in->shape);
	sl_slurm_env_fmt_counts(v, n, b, l);
	free(v);
	return 1;
}

/* --export=ALL is the default and leaves no trace; anything else does. */
static int exported(const struct sl_slurm_env_in *in)
{
	const char *e = SPEC(in)->export_spec;
	return e != NULL && strcasecmp(e, "ALL") != 0;
}

static int v_export_env(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return exported(in) && put_str(b, l, SPEC(in)->export_spec);
}

static int v_get_user_env(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return (exported(in) || SPEC(in)->get_user_env > 0) && put_str(b, l, "1");
}

static int v_gpus(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->gpus != SL_NO_VAL && SPEC(in)->gpus >= 0 && put_num(b, l, SPEC(in)->gpus);
}

/* --gpus-per-node's count (not --gres's), as Slurm's job has it */
static int v_gpus_per_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->gpus_per_node_opt && SPEC(in)->gpus_per_node != SL_NO_VAL &&
	       SPEC(in)->gpus_per_node > 0 && put_num(b, l, SPEC(in)->gpus_per_node);
}

static int v_gpus_on_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return in->shape->gpus_per_node > 0 && put_num(b, l, in->shape->gpus_per_node);
}

static int v_mem_per_cpu(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->mem_per_cpu != SL_NO_VAL && put_num(b, l, SPEC(in)->mem_per_cpu);
}

/* --mem=0 sets none: Slurm's batch step sees a node memory of 0. */
static int v_mem_per_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->mem_per_node != SL_NO_VAL && !SPEC(in)->mem_all &&
	       SPEC(in)->mem_per_node > 0 && put_num(b, l, SPEC(in)->mem_per_node);
}

/* The node's GPUs, numbered from 0: what the Kubernetes device plugin
 * gives a container (its GPUs renumbered from 0). The local executor binds
 * no device, so there these are the job's count, not particular devices. */
static int v_gpu_ids(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	size_t off = 0;

	if (in->shape->gpus_per_node <= 0)
		return 0;
	b[0] = '\0';
	for (int i = 0; i < in->shape->gpus_per_node && off + 12 < l; i++)
		off += (size_t)snprintf(b + off, l - off, "%s%d", i ? "," : "", i);
	return 1;
}

static int v_gpus_per_task(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->gpus_per_task > 0 && put_num(b, l, SPEC(in)->gpus_per_task);
}

static int v_cpus_per_gpu(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->cpus_per_gpu > 0 && put_num(b, l, SPEC(in)->cpus_per_gpu);
}

static int v_mem_per_gpu(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->mem_per_gpu > 0 && put_num(b, l, SPEC(in)->mem_per_gpu);
}

/* sbatch --hint sets SLURM_HINT in its own environment, which the job
 * inherits (Slurm passes SLURM_* on whatever --export says). */
static int v_hint(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_str(b, l, SPEC(in)->hint);
}

/* --gpu-bind and --mem-bind, which sbatch passes to the job's steps as
 * Slurm's does (srun reads them as its options). */
static int v_gpu_bind(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_str(b, l, SPEC(in)->gpu_bind);
}

static int v_cpu_freq(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_str(b, l, SPEC(in)->cpu_freq);
}

static int v_gpu_freq(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_str(b, l, SPEC(in)->gpu_freq);
}

/* slurmd gives a requeued job's runs their restart count (none the first) */
static int v_restart_count(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return in->job->attempt > 0 && put_num(b, l, in->job->attempt);
}

static int v_overcommit(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->overcommit && put_str(b, l, "1");
}

static int v_mem_bind(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return put_str(b, l, SPEC(in)->mem_bind);
}

static int v_mem_bind_verbose(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	const char *m = SPEC(in)->mem_bind;
	int v = 0;
	for (const char *p = m; p && *p;) {
		size_t n = strcspn(p, ",");
		v |= (n == 1 && (*p == 'v' || *p == 'V')) || (n == 7 && strncasecmp(p, "verbose", 7) == 0);
		p += n + (p[n] == ',');
	}
	return m != NULL && put_str(b, l, v ? "verbose" : "quiet");
}

/* Set with -n, and with --ntasks-per-node, from which sbatch works the
 * count out (nodes x tasks per node), so that a bare srun starts them all. */
static int v_ntasks(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	if (SPEC(in)->ntasks != SL_NO_VAL)
		return put_num(b, l, SPEC(in)->ntasks);
	return SPEC(in)->ntasks_per_node != SL_NO_VAL && SPEC(in)->ntasks_per_node > 0 &&
	       put_num(b, l, in->shape->ntasks);
}

static int v_ntasks_per_node(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->ntasks_per_node != SL_NO_VAL && put_num(b, l, SPEC(in)->ntasks_per_node);
}

/* sbatch's layout hints, as its set_envs() exports them (--hint's
 * implied threads per core included). */
static int v_ntasks_per_core(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->ntasks_per_core > 0 && put_num(b, l, SPEC(in)->ntasks_per_core);
}

static int v_ntasks_per_socket(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->ntasks_per_socket > 0 && put_num(b, l, SPEC(in)->ntasks_per_socket);
}

static int v_threads_per_core(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->threads_per_core > 0 && put_num(b, l, SPEC(in)->threads_per_core);
}

static int v_distribution(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->distribution != NULL && put_str(b, l, SPEC(in)->distribution);
}

static int v_ntasks_per_gpu(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->ntasks_per_gpu > 0 && put_num(b, l, SPEC(in)->ntasks_per_gpu);
}

/* sbatch --open-mode sets SLURM_OPEN_MODE ("a" or "t") for the job, as
 * the job's steps open their output the same way. */
static int v_open_mode(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	enum sl_open_mode m = SPEC(in)->open_mode;
	return m != SL_OPEN_DEFAULT && put_str(b, l, m == SL_OPEN_APPEND ? "a" : "t");
}

/* sbatch -d sets SLURM_JOB_DEPENDENCY to the text given, for the job. */
static int v_dependency(const struct sl_slurm_env_in *in, char *b, size_t l)
{
	return SPEC(in)->dependency != NULL && put_str(b, l, SPEC(in)->dependency);
}

/* Sorted as `env | sort` prints them (SLURMD_ sorts before SLURM_). */
static const struct env_row env_rows[] = {
	{"CUDA_VISIBLE_DEVICES", v_gpu_ids},
	{"ENVIRONMENT", v_environment},
	{"GPU_DEVICE_ORDINAL", v_gpu_ids},
	{"HOSTNAME", v_hostname},
	{"ROCR_VISIBLE_DEVICES", v_gpu_ids}, /* gres/gpu sets all four (AMD's, Intel's) */
	{"SLURMD_NODENAME", v_batch_host},
	{"SLURM_ARRAY_JOB_ID", v_arr_job},
	{"SLURM_ARRAY_TASK_COUNT", v_arr_count},
	{"SLURM_ARRAY_TASK_ID", v_arr_task},
	{"SLURM_ARRAY_TASK_MAX", v_arr_max},
	{"SLURM_ARRAY_TASK_MIN", v_arr_min},
	{"SLURM_ARRAY_TASK_STEP", v_arr_step},
	{"SLURM_CLUSTER_NAME", v_cluster},
	{"SLURM_CPUS_ON_NODE", v_cpus_on_node},
	{"SLURM_CPUS_PER_GPU", v_cpus_per_gpu},
	{"SLURM_CPUS_PER_TASK", v_cpus_per_task},
	{"SLURM_CPU_FREQ_REQ", v_cpu_freq},
	{"SLURM_DISTRIBUTION", v_distribution},
	{"SLURM_EXPORT_ENV", v_export_env},
	{"SLURM_GET_USER_ENV", v_get_user_env},
	{"SLURM_GPUS", v_gpus},
	{"SLURM_GPUS_ON_NODE", v_gpus_on_node},
	{"SLURM_GPUS_PER_NODE", v_gpus_per_node},
	{"SLURM_GPUS_PER_TASK", v_gpus_per_task},
	{"SLURM_GPU_BIND", v_gpu_bind},
	{"SLURM_GPU_FREQ", v_gpu_freq},
	{"SLURM_GTIDS", v_zero},
	{"SLURM_HINT", v_hint},
	{"SLURM_JOBID", v_jobid},
	{"SLURM_JOB_ACCOUNT", v_account},
	{"SLURM_JOB_CPUS_PER_NODE", v_job_cpus_per_node},
	{"SLURM_JOB_DEPENDENCY", v_dependency},
	{"SLURM_JOB_GID", v_gid},
	{"SLURM_JOB_GPUS", v_gpu_ids},
	{"SLURM_JOB_ID", v_jobid},
	{"SLURM_JOB_NAME", v_name},
	{"SLURM_JOB_NODELIST", v_nodelist},
	{"SLURM_JOB_NUM_NODES", v_nnodes},
	{"SLURM_JOB_PARTITION", v_partition},
	{"SLURM_JOB_QOS", v_qos},
	{"SLURM_JOB_UID", v_uid},
	{"SLURM_JOB_USER", v_user},
	{"SLURM_LOCALID", v_zero},
	{"SLURM_MEM_BIND", v_mem_bind},
	{"SLURM_MEM_BIND_VERBOSE", v_mem_bind_verbose},
	{"SLURM_MEM_PER_CPU", v_mem_per_cpu},
	{"SLURM_MEM_PER_GPU", v_mem_per_gpu},
	{"SLURM_MEM_PER_NODE", v_mem_per_node},
	{"SLURM_NNODES", v_nnodes},
	{"SLURM_NODEID", v_zero},
	{"SLURM_NODELIST", v_nodelist},
	{"SLURM_NODE_ALIASES", v_null},
	{"SLURM_NPROCS", v_ntasks},
	{"SLURM_NTASKS", v_ntasks},
	{"SLURM_NTASKS_PER_CORE", v_ntasks_per_core},
	{"SLURM_NTASKS_PER_GPU", v_ntasks_per_gpu},
	{"SLURM_NTASKS_PER_NODE", v_ntasks_per_node},
	{"SLURM_NTASKS_PER_SOCKET", v_ntasks_per_socket},
	{"SLURM_OPEN_MODE", v_open_mode},
	{"SLURM_OVERCOMMIT", v_overcommit},
	{"SLURM_PRIO_PROCESS", v_zero},
	{"SLURM_PROCID", v_zero},
	{"SLURM_RESTART_COUNT", v_restart_count},
	{"SLURM_SUBMIT_DIR", v_submit_dir},
	{"SLURM_SUBMIT_HOST", v_submit_host},
	{"SLURM_TASKS_PER_NODE", v_tasks_per_node},
	{"SLURM_THREADS_PER_CORE", v_threads_per_core},
	{"SLURM_TOPOLOGY_ADDR", v_batch_host},
	{"SLURM_TOPOLOGY_ADDR_PATTERN", v_node},
	{"ZE_AFFINITY_MASK", v_gpu_ids},
};

#define ENV_NROWS (sizeof(env_rows) / sizeof(env_rows[0]))

char **sl_slurm_env_build(const struct sl_slurm_env_in *in)
{
	char **out = sl_xcalloc(ENV_NROWS + 1, sizeof(char *));
	char val[ENV_VAL_MAX];
	size_t n = 0;
	for (size_t i = 0; i < ENV_NROWS; i++) {
		val[0] = '\0';
		if (env_rows[i].val(in, val, sizeof(val)))
			out[n++] = sl_xasprintf("%s=%s", env_rows[i].name, val);
	}
	out[n] = NULL;
	return out;
}

void sl_slurm_env_fmt_counts(const int *v, size_t n, char *buf, size_t len)
{
	size_t off = 0;
	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len;) {
		size_t run = 1;
		while (i + run < n && v[i + run] == v[i])
			run++;
		int w = run > 1 ? snprintf(buf + off, len - off, "%s%d(x%zu)", off ? "," : "", v[i], run)
				: snprintf(buf + off, len - off, "%s%d", off ? "," : "", v[i]);
		if (w < 0)
			break;
		off += (size_t)w;
		i += run;
	}
}

static size_t env_namelen(const char *kv)
{
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

/* The merge is linear: names go into an open-addressed table of out's
 * indexes. It runs twice per job launch (in sluiced and in the
 * supervisor), and a scan per variable cost thousands of comparisons
 * between a submitter's environment and Slurm's forty variables. */
static size_t env_slot(char *const *out, const size_t *tab, size_t mask, const char *kv,
		       size_t k)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < k; i++)
		h = (h ^ (unsigned char)kv[i]) * 16777619u;
	size_t s = h & mask;
	while (tab[s] != 0) {
		const char *o = out[tab[s] - 1];
		if (strncmp(o, kv, k) == 0 && (o[k] == '=' || o[k] == '\0'))
			break;
		s = (s + 1) & mask;
	}
	return s;
}

char **sl_slurm_env_merge(char *const *base, char *const *over)
{
	size_t nb = sl_strv_len(base), no = sl_strv_len(over), n = 0, size = 16;
	while (size < 2 * (nb + no))
		size *= 2;
	char **out = sl_xcalloc(nb + no + 1, sizeof(char *));
	size_t *tab = sl_xcalloc(size, sizeof(size_t)); /* index + 1; 0: free */
	for (size_t i = 0; i < nb + no; i++) {
		const char *kv = i < nb ? base[i] : over[i - nb];
		size_t s = env_slot(out, tab, size - 1, kv, env_namelen(kv));
		if (tab[s] != 0 && i >= nb) { /* over replaces the first of its name */
			free(out[tab[s] - 1]);
			out[tab[s] - 1] = sl_xstrdup(kv);
			continue;
		}
		/* a name base repeats is kept twice, as given */
		out[n++] = sl_xstrdup(kv);
		if (tab[s] == 0)
			tab[s] = n;
	}
	free(tab);
	out[n] = NULL;
	return out;
}
