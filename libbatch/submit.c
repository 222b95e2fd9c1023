/* submit.c - the submit policy (submit.h). The texts are Slurm's, word for
 * word: sbatch users and the integration tests compare them. */
#include "submit.h"
#include "qos_limits.h"
#include "prio.h"
#include "partdef.h"
#include "array.h"
#include "authz.h"
#include "conf.h"
#include "kueue.h"
#include "sched/sched.h"
#include "workload.h"
#include "xalloc.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define NAME_MAX_LEN 1024 /* job names, comments and the like */
#define PATH_MAX_LEN 4096 /* slurmctld's MAXPATHLEN, for paths */
#define BIND_MAX_LEN (1024 * 128) /* --dependency, --mem-bind */
#define TOO_LONG "Pathname of a file, directory or other parameter too long"
#define MIB_MILLI (1048576LL * 1000)

/* Counts and sizes fit what carries them (sl_jobspec_shape_check); a time
 * limit is one of the two markers or at most Slurm's largest, so that its
 * seconds and end time never wrap. */
static int validate_sizes(const struct sl_jobspec *s, struct sl_err *err)
{
	struct sl_jobshape sh;

	if (s->time_limit != SL_TIME_UNSET && s->time_limit != SL_TIME_INFINITE &&
	    (s->time_limit < 0 || s->time_limit > SL_TIME_MAX))
		return sl_err_set(err, SL_EINVAL, "time limit of %lld minutes is not between 0 "
				  "and %lld\nRequested time limit is invalid (missing or exceeds "
				  "some limit)", (long long)s->time_limit, SL_TIME_MAX);
	return sl_jobspec_shape_check(s, &sh, err);
}

/* A limit to the second (qsub's walltime) is the job's limit: its minutes
 * are derived here, whatever the command sent beside it, so that Slurm's
 * views and the enforced seconds never disagree. */
static int limit_secs(struct sl_jobspec *s, struct sl_err *err)
{
	if (s->time_limit_secs == 0)
		return 0;
	if (s->time_limit_secs < 0 || s->time_limit_secs > SL_TIME_MAX * 60)
		return sl_err_set(err, SL_EINVAL, "time limit of %lld seconds is not between 1 "
				  "and %lld\nRequested time limit is invalid (missing or exceeds "
				  "some limit)", (long long)s->time_limit_secs, SL_TIME_MAX * 60);
	sl_jobspec_limit_set_secs(s, s->time_limit_secs);
	return 0;
}

/* -C's words as slurmctld has them, joined by '&'. */
static size_t features_len(char *const *f)
{
	size_t n = 0;
	for (; f && *f; f++)
		n += strlen(*f) + (n > 0);
	return n;
}

static int validate(const struct sl_peer *w, const struct sl_jobspec *s,
		    struct sl_err *err)
{
	int r;
	/* slurmctld's _test_job_desc_fields: its limits (paths MAXPATHLEN,
	 * the rest 1024 bytes) and its one refusal, "--comment" of 1025
	 * bytes as a 4000-byte path; the node lists and --hint are ours. */
	const struct {
		const char *v;
		size_t max;
	} strs[] = {
		{s->name, NAME_MAX_LEN}, {s->partition, NAME_MAX_LEN},
		{s->account, NAME_MAX_LEN}, {s->qos, NAME_MAX_LEN},
		{s->comment, NAME_MAX_LEN}, {s->wckey, NAME_MAX_LEN},
		{s->mail_user, NAME_MAX_LEN}, {s->dependency, BIND_MAX_LEN},
		{s->mem_bind, BIND_MAX_LEN}, {s->std_out, PATH_MAX_LEN},
		{s->std_err, PATH_MAX_LEN}, {s->std_in, PATH_MAX_LEN},
		{s->work_dir, PATH_MAX_LEN}, {s->hint, NAME_MAX_LEN},
		{s->nodelist, NAME_MAX_LEN}, {s->exclude, NAME_MAX_LEN}};

	if (s->script == NULL || s->script[0] == '\0')
		return sl_err_set(err, SL_EINVAL, "Batch script is empty!");
	if (s->work_dir == NULL || s->work_dir[0] != '/')
		return sl_err_set(err, SL_EINVAL, "working directory must be an absolute path");
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strs[i].v != NULL && strlen(strs[i].v) > strs[i].max)
			return sl_err_set(err, SL_EINVAL, TOO_LONG);
	if (features_len(s->features) > NAME_MAX_LEN)
		return sl_err_set(err, SL_EINVAL, TOO_LONG);
	if (s->nodes != SL_NO_VAL && s->nodes < 1)
		return sl_err_set(err, SL_EINVAL, "Node count specification invalid");
	if ((s->ntasks != SL_NO_VAL && s->ntasks < 1) ||
	    (s->cpus_per_task != SL_NO_VAL && s->cpus_per_task < 1) ||
	    (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node < 1))
		return sl_err_set(err, SL_EINVAL, "node, task and cpu counts must be positive");
	if ((r = validate_sizes(s, err)) != 0)
		return r;
	/* Sluice's nodes show one core per socket and one thread per core
	 * (scontrol show node): more is refused in slurmctld's words */
	if (s->cores_per_socket > 1 || s->threads_per_core > 1)
		return sl_err_set(err, SL_ENOFIT, "Socket, core and/or thread specification can "
				  "not be satisfied\nRequested node configuration is not available");
	if ((r = sl_authz_spec(w, s, err)) != 0)
		return r;
	if (s->nice > 2147483645 || s->nice < -2147483645)
		return sl_err_set(err, SL_EINVAL, "Invalid nice value");
	/* Slurm refuses a deadline already past; one the time limit would
	 * overrun is only found out while the job waits (lifecycle's sweep). */
	if (s->deadline != 0 && s->deadline < (int64_t)time(NULL))
		return sl_err_set(err, SL_EINVAL,
				  "Requested time limit is invalid (missing or exceeds some limit)");
	if (s->mail_user != NULL && strcspn(s->mail_user, " \t\n\r") != strlen(s->mail_user))
		return sl_err_set(err, SL_EINVAL, "Invalid --mail-user: \"%s\"", s->mail_user);
	return 0;
}

/* What only the local executor's supervisor does, or only its one node
 * means, said plainly on Kubernetes instead of dropped. */
int sl_submit_executor_limits(const struct sl_conf *conf, const struct sl_jobspec *s,
			      struct sl_err *err)
{
	if (strcmp(sl_conf_executor(conf), "kubernetes") != 0) {
		if (s->tmp_mb > sl_conf_tmp_disk(conf)) /* slurmctld's words */
			return sl_err_set(err, SL_ENOFIT, "Temporary disk specification can not be "
					  "satisfied\nRequested node configuration is not available");
		return 0;
	}
	if (s->wait_all_nodes == 2)
		return sl_err_set(err, SL_EUNSUPP, "--wait-all-nodes=1 is not supported by Sluice on "
				  "Kubernetes: the batch script starts in pod 0 as soon as it runs");
	if (s->tmp_mb > 0)
		return sl_err_set(err, SL_EUNSUPP, "--tmp is not supported by Sluice on Kubernetes: "
				  "a pod's scratch space is its node's ephemeral storage, which no "
				  "ClusterQueue counts");
	if (s->mem_per_node == 0 || s->mem_all)
		return sl_err_set(err, SL_EUNSUPP, "--mem=0 is not supported by Sluice on "
				  "Kubernetes: a flavor's quota spans many nodes, so it says "
				  "nothing of one node's memory; give --mem");
	/* a pod's environment is its image's and the job's: no login to read */
	if (s->nodelist || s->exclude || s->warn_signal || s->get_user_env || s->no_kill)
		return sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice on Kubernetes",
				  s->nodelist ? "--nodelist" : s->exclude ? "--exclude"
				  : s->warn_signal ? "--signal" : s->get_user_env ? "--get-user-env"
				  : "--no-kill");
	return 0;
}

int sl_submit_nofit(const struct sl_err *e, struct sl_err *err)
{
	static const struct {
		const char *marker, *slurm, *fail;
	} kinds[] = {
		{" cpu, more than", "CPU count per node can not be satisfied", NULL},
		{"resource cpu unavailable", "CPU count per node can not be satisfied", NULL},
		{" memory, more than", "Memory specification can not be satisfied", NULL},
		{"resource memory unavailable", "Memory specification can not be satisfied", NULL},
		{" pods, more than", "Node count specification invalid", NULL},
		{"resource ", NULL, "Invalid generic resource (gres) specification"},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strstr(e->msg, kinds[i].marker) == NULL)
			continue;
		if (kinds[i].slurm != NULL)
			return sl_err_set(err, SL_ENOFIT, "%s (%s)\nRequested node configuration is "
					  "not available", kinds[i].slurm, e->msg);
		return sl_err_set(err, SL_ENOFIT, "%s\n%s", e->msg, kinds[i].fail);
	}
	return sl_err_set(err, SL_ENOFIT, "%s\nRequested node configuration is not available",
			  e->msg);
}

/* The record fields that depend on who asked and on the config. */
static int resolve(const struct sl_conf *conf, const struct sl_peer *w, struct sl_job *j,
		   struct sl_err *err)
{
	const char *const *accts = sl_conf_accounts(conf, w->user);
	struct sl_jobspec *s = &j->spec;
	int r;

	j->uid = w->uid;
	j->gid = w->gid;
	j->user = sl_xstrdup(w->user);
	j->group = sl_xstrdup(w->group);
	if (s->partition == NULL)
		s->partition = sl_xstrdup(sl_conf_default_partition(conf));
	if (s->account == NULL) {
		if (accts == NULL || accts[0] == NULL)
			return sl_err_set(err, SL_EACCOUNT,
					  "Invalid account or account/partition combination specified: "
					  "user %s has no account in the configuration", w->user);
		s->account = sl_xstrdup(accts[0]);
	} else {
		/* Slurm lowercases account names (job_mgr.c), and so shows them */
		for (char *p = s->account; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if ((r = sl_authz_account(conf, w, s->account, err)) != 0)
			return r;
	}
	if (s->mail_type != 0 && s->mail_user == NULL)
		s->mail_user = sl_xstrdup(w->user);
	if (s->name == NULL) {
		const char *base = s->script_path ? strrchr(s->script_path, '/') : NULL;
		s->name = sl_xstrdup(s->wrapped ? "wrap" :
				     s->script_path ? (base ? base + 1 : s->script_path) : "sbatch");
	}
	return 0;
}

int sl_submit_qos_base(const struct sl_conf *conf, const char *qos, int32_t *base)
{
	char k[SL_K8S_NAME_MAX];
	const struct sl_limits *lim = sl_conf_limits(conf);
	const char *pclass = sl_limits_qos_class(lim, qos);

	/* Every job has a QOS, as in Slurm: the default one (normal) needs no
	 * definition. A QOS object names its priority class; without one, a
	 * WorkloadPriorityClass of the QOS's own name is its priority. */
	*base = 0;
	if (pclass != NULL)
		return sl_kueue_priority_class(sl_conf_kueue(conf), pclass, base) != 0 ? -SL_EINVAL
										       : 0;
	if (sl_conf_k8s_name(qos, k) != 0 ||
	    sl_kueue_priority_class(sl_conf_kueue(conf), k, base) != 0) {
		*base = 0;
		if (!sl_limits_has_qos(lim, qos) && strcasecmp(qos, sl_conf_default_qos(conf)) != 0)
			return -SL_EINVAL;
	}
	return 0;
}

int sl_submit_priority(const struct sl_conf *conf, struct sl_job *j, struct sl_err *err)
{
	int32_t base = 0;

	/* An empty --qos= (Snakemake's for an empty qos resource) is none
	 * given: Slurm without QOS enforcement takes it. */
	if (j->spec.qos != NULL && *j->spec.qos == '\0') {
		free(j->spec.qos);
		j->spec.qos = NULL;
	}
	if (j->spec.qos == NULL)
		j->spec.qos = sl_xstrdup(sl_conf_default_qos(conf));
	if (sl_submit_qos_base(conf, j->spec.qos, &base) != 0)
		return sl_err_set(err, SL_EINVAL, "Invalid qos specification");
	/* --priority and Priority= are on Slurm's scale, as squeue prints them
	 * (prio.h): the operator who sees 10050 and sets 10050 gets 10050.
	 * Kueue's priorities are int32: --priority=TOP (4294967294) is the
	 * highest of them, not the -2 a cast would make of it. */
	if (j->spec.priority != SL_NO_VAL) {
		int64_t want = j->spec.priority - SL_PRIO_SITE;
		base = want > INT32_MAX ? INT32_MAX : want < INT32_MIN ? INT32_MIN : (int32_t)want;
	}
	j->priority = (int64_t)base - j->spec.nice;
	return 0;
}

/* The features resolve, and the engine says the job can ever fit. */
int sl_submit_can_fit(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_job *j, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_job_wl b;
	int r;

	if ((r = sl_submit_workload(conf, j, &b, err)) != 0 ||
	    (r = sl_job_selector_known(sl_conf_kueue(conf), &b, err)) != 0)
		return r;
	/* A LocalQueue of that name in another namespace: the account is what
	 * is wrong (Slurm: "Invalid account or account/partition combination"). */
	/* More CPUs than the queue can ever give: Slurm (EnforcePartLimits=NO,
	 * its default) takes the job and leaves it pending for PartitionConfig,
	 * as Kueue leaves a workload over its ClusterQueue's quota; memory or
	 * GPUs no node has are refused. */
	r = sl_sched_check_waits(engine, &b.wl, "cpu", &e);
	if (r == -SL_ENOENT && sl_kueue_find_lq(sl_conf_kueue(conf), NULL, b.wl.queue))
		return sl_err_set(err, SL_EACCOUNT,
				  "Invalid account or account/partition combination specified");
	if (r == -SL_ENOENT)
		return sl_err_set(err, SL_EPARTITION, "%s\nInvalid partition name specified",
				  e.msg);
	if (r == -SL_ENOFIT)
		return sl_submit_nofit(&e, err);
	if (r != 0)
		return sl_err_set(err, e.code ? e.code : SL_EINTERNAL, "%s", e.msg);
	return 0;
}

/* The job's ClusterQueue (through its account's LocalQueue), or NULL. */
static const struct sl_kq_cq *job_cq(const struct sl_conf *conf, const struct sl_jobspec *s)
{
	const struct sl_kueue *k = sl_conf_kueue(conf);
	char ns[SL_K8S_NAME_MAX], lq[SL_K8S_NAME_MAX];
	const char *name;

	if (sl_conf_k8s_name(s->account, ns) != 0 || sl_conf_k8s_name(s->partition, lq) != 0 ||
	    (name = sl_kueue_lq_cluster_queue(k, ns, lq)) == NULL)
		return NULL;
	return sl_kueue_find_cq(k, name);
}

/* Slurm without a topology plugin takes --switches and gives it no
 * meaning (scontrol still shows it); so does Sluice where no flavor of the
 * job's ClusterQueue has a topology (Kueue TAS), rather than hold the job
 * for ever. Asked of the config as it is now, so a reload that adds or
 * takes away a topology counts for jobs already queued. */
static int switches_moot(const struct sl_conf *conf, const struct sl_jobspec *s)
{
	const struct sl_kq_cq *cq = s->switches > 0 ? job_cq(conf, s) : NULL;
	if (cq == NULL)
		return 0;
	for (size_t g = 0; g < cq->nrg; g++)
		for (size_t f = 0; f < cq->rg[g].nflavors; f++) {
			const struct sl_kq_flavor *fl =
				sl_kueue_find_flavor(sl_conf_kueue(conf), cq->rg[g].flavors[f].flavor);
			if (fl != NULL && fl->topology != NULL)
				return 0;
		}
	return 1;
}

int sl_submit_workload(const struct sl_conf *conf, const struct sl_job *j, struct sl_job_wl *b,
		       struct sl_err *err)
{
	struct sl_job moot;

	if (!switches_moot(conf, &j->spec))
		return sl_job_workload(j, sl_conf_features(conf), b, err);
	moot = *j; /* the workload reads it and keeps only copies of its strings' pointers */
	moot.spec.switches = 0;
	return sl_job_workload(&moot, sl_conf_features(conf), b, err);
}

/* The largest nominal quota of `resource` among the flavors of the job's
 * ClusterQueue, in milli-units; 0 when it has none (or no queue). */
static int64_t node_quota(const struct sl_conf *conf, const struct sl_jobspec *s,
			  const char *resource)
{
	const struct sl_kq_cq *cq = job_cq(conf, s);
	int64_t best = 0;

	if (cq == NULL)
		return 0;
	for (size_t g = 0; g < cq->nrg; g++)
		for (size_t f = 0; f < cq->rg[g].nflavors; f++)
			for (size_t i = 0; i < cq->rg[g].flavors[f].nres; i++) {
				const struct sl_kq_quota *q = &cq->rg[g].flavors[f].res[i];
				if (strcmp(q->resource, resource) == 0 && q->nominal > best)
					best = q->nominal;
			}
	return best;
}

/* What a whole node means for this job (local executor): --exclusive takes
 * all its CPUs, --mem=0 all its memory. The node is this host, and what of
 * it the partition may use is its ClusterQueue's quota: the largest flavor
 * of the queue, so that the job fits there (a smaller flavor could not
 * hold a node-sized request anyway). A job of N nodes runs them all on this
 * host: it shares the host out among them, else it would ask N hosts'
 * worth of one host's quota and wait for good. On Kubernetes --exclusive
 * becomes pod anti-affinity (render.c) and --mem=0 is refused
 * (sl_submit_executor_limits). */
int sl_submit_whole_node(const struct sl_conf *conf, struct sl_jobspec *s, struct sl_err *err)
{
	int local = strcmp(sl_conf_executor(conf), "local") == 0;
	struct sl_jobshape sh;
	int64_t q, nodes;

	sl_jobspec_shape(s, &sh);
	nodes = local && sh.nodes > 1 ? sh.nodes : 1;
	s->node_cpus = 0;
	if (s->shared == SL_SHARED_EXCLUSIVE && local) {
		if ((q = node_quota(conf, s, "cpu")) < 1000)
			return sl_err_set(err, SL_ENOFIT, "--exclusive: partition %s has no CPU "
					  "quota to give a whole node\nRequested node configuration "
					  "is not available", s->partition);
		q /= 1000 * nodes;
		s->node_cpus = q > 0 ? (int)q : 1;
	}
	if (s->mem_per_node == 0 || s->mem_all) {
		/* A queue that does not count memory has nothing to give: the job
		 * asks for none, as before. */
		s->mem_per_node = sl_submit_node_memory(conf, s) / nodes;
		s->mem_all = 1;
	}
	return 0;
}

int64_t sl_submit_node_memory(const struct sl_conf *conf, const struct sl_jobspec *s)
{
	return node_quota(conf, s, "memory") / MIB_MILLI;
}

int sl_submit_node_cpus(const struct sl_conf *conf, const struct sl_jobspec *s)
{
	int64_t q = node_quota(conf, s, "cpu") / 1000;

	return q < INT_MAX ? (int)q : INT_MAX;
}

/* The partition's own settings (kind: Partition, partdef.h), as slurmctld
 * applies them at submit: DefaultTime (else MaxTime) for a job without
 * --time; DefMemPerCPU or DefMemPerNode for one without a memory request;
 * MaxMemPerCPU raises the CPUs per task until the memory per CPU fits;
 * MaxMemPerNode refuses what cannot fit. MaxTime and the node counts are
 * not refused here: such a job waits (limgate.c), as with Slurm's
 * EnforcePartLimits=NO. */
int sl_submit_time_min(const struct sl_jobspec *s, struct sl_err *err)
{
	int finite = s->time_limit != SL_TIME_UNSET && s->time_limit != SL_TIME_INFINITE;

	if ((s->time_min > 0 && finite && s->time_min > s->time_limit) ||
	    (s->time_min == SL_TIME_INFINITE && finite))
		return sl_err_set(err, SL_EINVAL, "Invalid time-min specification (exceeds job's time "
				  "or other limits)");
	return 0;
}

static int partition_defaults(const struct sl_conf *conf, struct sl_jobspec *s,
			      struct sl_err *err)
{
	const struct sl_partdef *p = sl_conf_partdef(conf, s->partition);
	struct sl_jobshape sh;
	if (p == NULL)
		return 0;
	if (s->time_limit == SL_TIME_UNSET) {
		int64_t t = p->default_time != SL_PARTDEF_UNSET ? p->default_time : p->max_time;
		if (t >= 0)
			s->time_limit = t;
		else if (t == SL_PARTDEF_UNLIMITED)
			s->time_limit = SL_TIME_INFINITE;
	}
	if (s->mem_per_node == SL_NO_VAL && s->mem_per_cpu == SL_NO_VAL && !s->mem_all &&
	    s->mem_per_gpu <= 0) {
		if (p->def_mem_per_cpu >= 0)
			s->mem_per_cpu = p->def_mem_per_cpu;
		else if (p->def_mem_per_node >= 0)
			s->mem_per_node = p->def_mem_per_node;
	}
	if (p->max_mem_per_cpu > 0 && s->mem_per_cpu != SL_NO_VAL &&
	    s->mem_per_cpu > p->max_mem_per_cpu) {
		int64_t f = (s->mem_per_cpu + p->max_mem_per_cpu - 1) / p->max_mem_per_cpu;
		int cpt = s->cpus_per_task == SL_NO_VAL ? 1 : s->cpus_per_task;
		if (f > INT32_MAX / cpt)
			return sl_err_set(err, SL_EINVAL, "Memory required by task is not available");
		s->cpus_per_task = (int)(cpt * f);
		s->mem_per_cpu = (s->mem_per_cpu + f - 1) / f;
	}
	sl_jobspec_shape(s, &sh);
	if (p->max_mem_per_node > 0 && sh.mem_per_node > p->max_mem_per_node)
		return sl_err_set(err, SL_EINVAL, "Memory required by task is not available");
	return 0;
}

/* --array against maxArraySize, as slurmctld checks it (sbatch takes any
 * text). An array's output defaults to Slurm's slurm-%A_%a.out. */
static int array_check(const struct sl_conf *conf, struct sl_jobspec *s, struct sl_err *err)
{
	struct sl_array *a = NULL;
	int r;

	if (s->array != NULL && s->array[0] == '\0') { /* --array= : not an array (Slurm) */
		free(s->array);
		s->array = NULL;
	}
	if (s->array == NULL)
		return 0;
	if (strlen(s->array) > NAME_MAX_LEN)
		return sl_err_set(err, SL_EINVAL, "Invalid job array specification");
	if ((r = sl_array_parse(s->array, sl_conf_max_array_size(conf), &a, err)) != 0)
		return r;
	sl_array_free(a);
	if (s->std_out == NULL)
		s->std_out = sl_xstrdup("slurm-%A_%a.out");
	return 0;
}

int sl_submit_array_tasks(const struct sl_conf *conf, const struct sl_job *j,
			  struct sl_array **out, struct sl_err *err)
{
	*out = NULL;
	if (j->spec.array == NULL)
		return 0;
	return sl_array_parse(j->spec.array, sl_conf_max_array_size(conf), out, err);
}

struct sl_job *sl_submit_array_task(const struct sl_job *j, const struct sl_array *a, size_t i,
				    uint64_t array_id, uint64_t id)
{
	struct sl_job *t = sl_job_copy(j);

	t->id = id;
	t->array_job_id = array_id;
	t->array_task_id = (int)sl_array_task(a, i);
	t->array_throttle = (int)sl_array_throttle(a);
	/* each task waits on its own partner (aftercorr): slurmctld splits
	 * every task off the meta record, so each is listed on its own */
	if (j->spec.dependency != NULL && strstr(j->spec.dependency, "aftercorr") != NULL)
		t->array_split = 1;
	if (i > 0) { /* the key finds the array: its first task */
		free(t->submit_key);
		t->submit_key = NULL;
	}
	return t;
}

int sl_submit_prepare(const struct sl_conf *conf, const struct sl_sched *engine,
		      const struct sl_peer *who, struct sl_job *j, struct sl_err *err)
{
	int r;

	/* slurmctld's validate_job_create_req: a user's --priority is dropped
	 * without a word (the job gets its computed priority). */
	if (!who->operator)
		j->spec.priority = SL_NO_VAL;
	/* -N 0-N: Slurm keeps a minimum of 0, and the job gets a node, as any */
	if (j->spec.nodes == 0 && j->spec.nodes_max != SL_NO_VAL && j->spec.nodes_max >= 1)
		j->spec.nodes = 1;
	if ((r = limit_secs(&j->spec, err)) != 0 ||
	    (r = validate(who, &j->spec, err)) != 0 ||
	    (r = array_check(conf, &j->spec, err)) != 0 ||
	    (r = sl_submit_executor_limits(conf, &j->spec, err)) != 0 ||
	    (r = resolve(conf, who, j, err)) != 0 ||
	    (r = partition_defaults(conf, &j->spec, err)) != 0 ||
	    (r = sl_submit_time_min(&j->spec, err)) != 0 ||
	    (r = sl_submit_whole_node(conf, &j->spec, err)) != 0 ||
	    (r = sl_submit_priority(conf, j, err)) != 0 ||
	    (r = sl_submit_can_fit(conf, engine, j, err)) != 0)
		return r;
	j->state = SL_JOB_PENDING;
	j->alloc_cpus = sl_jobspec_asked_cpus(&j->spec);
	j->reason = sl_xstrdup(j->spec.hold ? "JobHeldUser" : "None");
	if (j->spec.hold)
		j->priority = 0;
	return 0;
}
