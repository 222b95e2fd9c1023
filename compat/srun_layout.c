/* srun_layout.c - the shape of a job step inside its allocation (Slurm
 * 22.05's step_layout with the block distribution), the refusals of a step
 * that asks for more than the job holds, in Slurm's words, and each task's
 * SLURM_* variables. Pure: see srun_layout.h. */
#include "srun_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "pbs_env.h"
#include "slurm_bind.h"
#include "slurm_env.h"
#include "srun_gpus.h"
#include "xalloc.h"

static const char *env_get(char *const *envp, const char *name)
{
	size_t k = strlen(name);
	for (char *const *e = envp; e && *e; e++)
		if (strncmp(*e, name, k) == 0 && (*e)[k] == '=')
			return *e + k + 1;
	return NULL;
}

/* "2(x3),1" -> {2,2,2,1}, at most n values, the last repeated if short. */
static void cpus_expand(const char *s, int *v, size_t n)
{
	size_t i = 0;
	int last = 1;
	while (s && *s && i < n) {
		char *end;
		long c = strtol(s, &end, 10), rep = 1;
		if (end == s)
			break;
		if (strncmp(end, "(x", 2) == 0)
			rep = strtol(end + 2, &end, 10), end += *end == ')';
		for (long k = 0; k < rep && i < n; k++)
			v[i++] = (int)c;
		last = (int)c;
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	for (; i < n; i++)
		v[i] = last;
}

static char **split_commas(const char *s, size_t *n)
{
	char **v = NULL, *dup = sl_xstrdup(s), *save = NULL;
	*n = 0;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		v = sl_xrealloc(v, (*n + 2) * sizeof(*v));
		v[(*n)++] = sl_xstrdup(t);
		v[*n] = NULL;
	}
	free(dup);
	return v;
}

/* An array task's ids, as slurmstepd has them from the job: both or none. */
static void array_ids(char *const *envp, struct sl_srun_alloc *a)
{
	const char *job = env_get(envp, "SLURM_ARRAY_JOB_ID");
	const char *task = env_get(envp, "SLURM_ARRAY_TASK_ID");
	char *e1 = NULL, *e2 = NULL;
	unsigned long long j, t;

	if (job == NULL || task == NULL || *job == '\0' || *task == '\0')
		return;
	j = strtoull(job, &e1, 10);
	t = strtoull(task, &e2, 10);
	if (*e1 == '\0' && *e2 == '\0' && j > 0 && t < UINT32_MAX - 1) {
		a->array_job_id = j;
		a->array_task_id = (uint32_t)t;
	}
}

/* name is HOST-N for some N. */
static int host_n(const char *host, const char *name)
{
	size_t k = strlen(host);
	return strncmp(name, host, k) == 0 && name[k] == '-' && name[k + 1] != '\0' &&
	       strspn(name + k + 1, "0123456789") == strlen(name + k + 1);
}

/* The host the local executor names the job's nodes after
 * (sl_exec_local_nodelist): its one node, or the HOST of each HOST-N. */
static char *local_host(char *const *nodes, size_t n)
{
	const char *dash = n > 1 ? strrchr(nodes[0], '-') : NULL;
	char *host;

	if (n == 1)
		return sl_xstrdup(nodes[0]);
	if (dash == NULL)
		return NULL;
	host = sl_xstrndup(nodes[0], (size_t)(dash - nodes[0]));
	for (size_t i = 0; i < n; i++)
		if (!host_n(host, nodes[i])) {
			free(host);
			return NULL;
		}
	return host;
}

int sl_srun_alloc_from_env(char *const *envp, struct sl_srun_alloc *a, struct sl_err *err)
{
	const char *id = env_get(envp, "SLURM_JOB_ID"), *nl = env_get(envp, "SLURM_JOB_NODELIST");
	/* the job's, which a step's CUDA_VISIBLE_DEVICES may hold fewer of */
	const char *gpus = env_get(envp, "SLURM_JOB_GPUS");
	struct sl_err e = SL_ERR_INIT;
	char *end;

	memset(a, 0, sizeof(*a));
	if (id == NULL || *id == '\0')
		return -SL_ENOENT;
	a->job_id = strtoull(id, &end, 10);
	if (*end != '\0' || a->job_id == 0)
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid SLURM_JOB_ID: %s", id);
	if (nl == NULL || sl_hostlist_expand(nl, &a->nodes, &a->nnodes, &e) != 0 || a->nnodes == 0)
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid SLURM_JOB_NODELIST: %s",
				  nl ? nl : "(null)");
	array_ids(envp, a);
	a->host = local_host(a->nodes, a->nnodes);
	a->cpus = sl_xcalloc(a->nnodes, sizeof(*a->cpus));
	cpus_expand(env_get(envp, "SLURM_JOB_CPUS_PER_NODE"), a->cpus, a->nnodes);
	if (gpus == NULL || *gpus == '\0')
		gpus = env_get(envp, "CUDA_VISIBLE_DEVICES");
	if (gpus && *gpus && strcmp(gpus, "NoDevFiles") != 0)
		a->gpus = split_commas(gpus, &a->ngpus);
	sl_srun_gpus_job(envp, a);
	return 0;
}

void sl_srun_alloc_clear(struct sl_srun_alloc *a)
{
	sl_strv_free(a->nodes);
	sl_strv_free(a->gpus);
	free(a->host);
	free(a->cpus);
	memset(a, 0, sizeof(*a));
}

static int refuse(struct sl_err *err, uint64_t job, const char *why)
{
	return sl_err_set(err, SL_ENOFIT, "srun: error: Unable to create step for job %llu: %s",
			  (unsigned long long)job, why);
}

/* The tasks node i can take: its CPUs over -c, at most --ntasks-per-node. */
static int node_cap(const struct sl_srun_layout *l, const struct sl_srun_opts *o, int cpus)
{
	/* -O: the tasks spread evenly whatever the CPUs */
	int cap = o->overcommit ? (l->ntasks + l->nnodes - 1) / l->nnodes
				: cpus / (l->cpus_per_task > 0 ? l->cpus_per_task : 1);
	return l->npn > 0 && l->npn < cap ? l->npn : cap;
}

/* Cyclic: task t to the next node round the step's that has room. */
static int distribute_cyclic(struct sl_srun_layout *l, const struct sl_srun_opts *o,
			     const int *cpus, struct sl_err *err)
{
	for (int t = 0, i = 0; t < l->ntasks; t++) {
		int tried = 0;
		while (tried < l->nnodes && l->tasks_on[i] >= node_cap(l, o, cpus[i]))
			i = (i + 1) % l->nnodes, tried++;
		if (tried == l->nnodes)
			return refuse(err, l->job_id, "More processors requested than permitted");
		l->task[t] = (struct sl_srun_task){i, l->tasks_on[i]++};
		i = (i + 1) % l->nnodes;
	}
	return 0;
}

/* Block: every node gets a task, then each fills up to what its CPUs (and
 * --ntasks-per-node) hold, in node order. */
static int distribute(struct sl_srun_layout *l, const struct sl_srun_opts *o, const int *cpus,
		      struct sl_err *err)
{
	int cpt = l->cpus_per_task > 0 ? l->cpus_per_task : 1, left = l->ntasks - l->nnodes;
	for (int i = 0; i < l->nnodes && !o->overcommit; i++)
		if (cpus[i] < cpt)
			return refuse(err, l->job_id, "More processors requested than permitted");
	if (o->cyclic)
		return distribute_cyclic(l, o, cpus, err);
	for (int i = 0; i < l->nnodes; i++)
		l->tasks_on[i] = 1;
	for (int i = 0; i < l->nnodes && left > 0; i++) {
		int add = node_cap(l, o, cpus[i]) - l->tasks_on[i];
		if (add > left)
			add = left;
		if (add > 0)
			l->tasks_on[i] += add, left -= add;
	}
	if (left > 0)
		return refuse(err, l->job_id, "More processors requested than permitted");
	for (int i = 0, t = 0; i < l->nnodes; i++)
		for (int k = 0; k < l->tasks_on[i]; k++, t++)
			l->task[t] = (struct sl_srun_task){i, k};
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* -x: the job's nodes it names (out[k] = 1). A name -w also gives stops
 * the step, as srun's job_step_create_allocation does. A node of the
 * cluster the job does not hold changes nothing, as in Slurm; a name no
 * node has (or a list that does not read) sets *unknown, which slurmctld
 * refuses once the step is asked for. The cluster's nodes are known on
 * the local executor alone (a->host): elsewhere every name outside the
 * job is unknown. */
static int excluded(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
		    char *const *listed, size_t nlisted, char *out, int *unknown,
		    struct sl_err *err)
{
	char **names = NULL;
	size_t nn = 0;
	struct sl_err e = SL_ERR_INIT;
	int r = 0;

	*unknown = 0;
	if (o->exclude == NULL)
		return 0;
	if (sl_hostlist_expand(o->exclude, &names, &nn, &e) != 0) {
		*unknown = 1;
		return 0;
	}
	for (size_t m = 0; m < nn && r == 0; m++) {
		size_t k = 0;
		while (k < a->nnodes && strcmp(a->nodes[k], names[m]) != 0)
			k++;
		if (k < a->nnodes)
			out[k] = 1;
		else if (a->host == NULL ||
			 (strcmp(names[m], a->host) != 0 && !host_n(a->host, names[m])))
			*unknown = 1;
		for (size_t w = 0; w < nlisted && r == 0; w++)
			if (strcmp(listed[w], names[m]) == 0)
				r = sl_err_set(err, SL_EINVAL, "srun: error: Requested node %s is also "
					       "in the excluded list.\nsrun: error: Job not submitted.",
					       names[m]);
	}
	sl_strv_free(names);
	return r;
}

/* list's names, each once (hostlist_uniq: "n1,n1,n2" names two nodes). */
static int uniq_names(const char *list, char ***names, size_t *n, struct sl_err *err)
{
	char **all = NULL, *once;
	size_t k = 0;
	int r;

	if ((r = sl_hostlist_expand(list, &all, &k, err)) != 0)
		return r;
	once = sl_hostlist_compress(all, k);
	sl_strv_free(all);
	r = sl_hostlist_expand(once, names, n, err);
	free(once);
	return r;
}

/* The step's candidate nodes, as indices into the job's, less -x's: -w's
 * first (each must be the job's), then for -N beyond them the job's
 * others in order; else the job's from -r on. *nlisted: how many -w named
 * (0: no -w); *unknown: -x named a node the job does not hold. */
static int pick(const struct sl_srun_opts *o, const struct sl_srun_alloc *a, int *idx,
		int *navail, int *nlisted, int *unknown, struct sl_err *err)
{
	int rel = o->relative > 0 ? o->relative : 0, n = 0, r = 0;
	char **names = NULL, *out = sl_xcalloc(a->nnodes + 1, 1);
	size_t nn = 0;
	struct sl_err e = SL_ERR_INIT;

	*nlisted = *unknown = 0;
	if ((o->nodelist != NULL || o->exclude != NULL) && o->relative >= 0) {
		r = sl_err_set(err, SL_EINVAL, "srun: error: -r,--relative not allowed with "
			       "-w,--nodelist or -x,--exclude.");
		goto out;
	}
	if (o->nodelist != NULL && uniq_names(o->nodelist, &names, &nn, &e) != 0) {
		r = sl_err_set(err, SL_EINVAL, "srun: error: Invalid node name specified");
		goto out;
	}
	if ((r = excluded(o, a, names, nn, out, unknown, err)) != 0)
		goto out;
	for (size_t k = 0; k < a->nnodes; k++) /* in the job's order, as Slurm lays them */
		for (size_t m = 0; m < nn; m++)
			if (strcmp(a->nodes[k], names[m]) == 0) {
				idx[n++] = (int)k;
				out[k] = 2; /* taken */
				break;
			}
	*nlisted = n;
	if ((size_t)n != nn) { /* it named a node the job does not hold */
		r = refuse(err, a->job_id, "Requested node configuration is not available");
		goto out;
	}
	for (int k = o->nodelist ? 0 : rel; k < (int)a->nnodes; k++)
		if (out[k] == 0)
			idx[n++] = k;
	if (n == 0 && o->exclude != NULL) /* srun's own check, before the step's */
		r = sl_err_set(err, SL_EINVAL, "srun: error: Hostlist is empty!  Can't run job.");
	*navail = n;
out:
	sl_strv_free(names);
	free(out);
	return r;
}

/* -N typed, the job's SLURM_JOB_NUM_NODES or -w's count alike (opt.c's
 * nodes_set, the larger of the two), more than -n or SLURM_NTASKS: srun's
 * warning, before anything about the nodes is refused. */
static void nodes_warn(const struct sl_srun_opts *o, char **warn)
{
	char **names = NULL;
	size_t nn = 0;
	struct sl_err e = SL_ERR_INIT;
	int nodes = o->nodes > 0 ? o->nodes : 0;

	if (o->nodelist != NULL && uniq_names(o->nodelist, &names, &nn, &e) == 0 &&
	    (int)nn > nodes)
		nodes = (int)nn;
	sl_strv_free(names);
	if (o->ntasks > 0 && nodes > o->ntasks)
		*warn = sl_xasprintf("srun: Warning: can't run %d processes on %d nodes, setting "
				     "nnodes to %d\n", o->ntasks, nodes, o->ntasks);
}

/* The counts: -n, else --ntasks-per-node x nodes, else one per node. */
static int counts(const struct sl_srun_opts *o, const struct sl_srun_alloc *a, int avail,
		  int listed, struct sl_srun_layout *l, char **warn, struct sl_err *err)
{
	/* -w's names count as nodes asked for, beyond -N's minimum (opt.c's
	 * MAX); srun_opt.c has already cut them to its maximum */
	int nodes = o->nodes > 0 ? o->nodes : listed > 0 ? listed : avail;
	if (listed > nodes)
		nodes = listed;
	l->npn = o->ntasks_per_node;
	l->ntasks = o->ntasks > 0 ? o->ntasks : l->npn > 0 ? l->npn * nodes : nodes;
	if (nodes > l->ntasks) /* nodes_warn() said so when Slurm does */
		nodes = l->ntasks;
	/* -N (or SLURM_JOB_NUM_NODES) and -n both known: a --ntasks-per-node that
	 * does not divide them is dropped, as srun's _opt_verify drops it */
	if (o->nodes > 0 && o->ntasks > 0 && l->npn > 0 && l->npn != o->ntasks / nodes) {
		if (o->ntasks > l->npn) {
			char *w = sl_xasprintf("%ssrun: Warning: can't honor --ntasks-per-node set to "
					       "%d which doesn't match the requested tasks %d with "
					       "the number of requested nodes %d. Ignoring "
					       "--ntasks-per-node.\n", *warn ? *warn : "", l->npn,
					       o->ntasks, nodes);
			free(*warn);
			*warn = w;
		}
		l->npn = 0;
	}
	/* -r and the count asked (1 when none was) past the job's last node:
	 * srun's _validate_relative, naming where the count came from */
	if (o->relative >= 0 && o->relative + (o->nodes > 0 ? nodes : 1) > (int)a->nnodes)
		return sl_err_set(err, SL_EINVAL, "srun: error: --relative and %s option "
				  "incompatible with count of allocated nodes (%d+%d>%zu)",
				  o->nodes_opt ? "--nodes" : "SLURM_JOB_NUM_NODES", o->relative,
				  o->nodes > 0 ? nodes : 1, a->nnodes);
	if (nodes > avail)
		return sl_err_set(err, SL_ENOFIT, "srun: error: Only allocated %d nodes asked for %d%s",
				  avail, nodes, o->exclude ? "\nsrun: error: Are required nodes "
				  "explicitly excluded?" : "");
	l->nnodes = nodes;
	return 0;
}

int sl_srun_layout_make(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
			struct sl_srun_layout *l, char **warn, struct sl_err *err)
{
	int avail = 0, listed = 0, unknown = 0, r, *idx, *cpus;
	char buf[4096];

	memset(l, 0, sizeof(*l));
	*warn = NULL;
	l->job_id = a->job_id;
	l->array_job_id = a->array_job_id;
	l->array_task_id = a->array_task_id;
	l->cpus_per_task = o->cpus_per_task;
	l->gpus_per_task = o->gpus_per_task;
	l->gpu_bind = o->gpu_bind;
	l->ntasks_per_gpu = o->ntasks_per_gpu;
	l->label = o->label;
	l->mpi_pmix = o->mpi_pmix;
	l->mpi_pmi2 = o->mpi_pmi2;
	l->cpu_freq = o->cpu_freq;
	l->cpu_bind = o->cpu_bind;
	l->gpu_freq = o->gpu_freq;
	l->umask = -1;
	l->uid = l->gid = -1;
	/* 22.05: -c implies --exact (srun reads no SLURM_CPUS_PER_TASK) */
	l->exact = o->exact || o->step_exclusive || o->cpus_per_task > 0;
	idx = sl_xcalloc(a->nnodes + 1, sizeof(*idx));
	cpus = sl_xcalloc(a->nnodes + 1, sizeof(*cpus));
	nodes_warn(o, warn);
	if ((r = pick(o, a, idx, &avail, &listed, &unknown, err)) != 0 ||
	    (r = counts(o, a, avail, listed, l, warn, err)) != 0)
		goto out;
	if (unknown) { /* slurmctld's, when the step is asked for */
		r = refuse(err, a->job_id, "Invalid node name specified");
		goto out;
	}
	/* the step's nodes in the job's order, as Slurm's bitmap of them */
	qsort(idx, (size_t)l->nnodes, sizeof(*idx), cmp_int);
	l->nodes = sl_xcalloc((size_t)l->nnodes + 1, sizeof(*l->nodes));
	l->cpus_on = sl_xcalloc((size_t)l->nnodes, sizeof(*l->cpus_on));
	for (int i = 0; i < l->nnodes; i++) {
		l->nodes[i] = sl_xstrdup(a->nodes[idx[i]]);
		cpus[i] = l->cpus_on[i] = a->cpus[idx[i]];
	}
	l->tasks_on = sl_xcalloc((size_t)l->nnodes, sizeof(*l->tasks_on));
	l->task = sl_xcalloc((size_t)l->ntasks, sizeof(*l->task));
	if ((r = distribute(l, o, cpus, err)) != 0 || (r = sl_srun_gpus_place(o, a, l, err)) != 0)
		goto out;
	l->nodelist = sl_hostlist_compress(l->nodes, (size_t)l->nnodes);
	l->job_nodelist = sl_hostlist_compress(a->nodes, a->nnodes);
	sl_slurm_env_fmt_counts(l->tasks_on, (size_t)l->nnodes, buf, sizeof(buf));
	l->tasks_per_node = sl_xstrdup(buf);
	l->distribution = sl_xstrdup(o->dist ? o->dist : l->ntasks <= l->nnodes ? "cyclic" : "block");
out:
	free(idx);
	free(cpus);
	if (r != 0)
		sl_srun_layout_clear(l); /* nothing half made for the caller */
	return r;
}

void sl_srun_layout_clear(struct sl_srun_layout *l)
{
	sl_strv_free(l->nodes);
	free(l->tasks_on);
	free(l->cpus_on);
	free(l->gpus_on);
	free(l->task);
	free(l->nodelist);
	free(l->job_nodelist);
	free(l->tasks_per_node);
	free(l->distribution);
	memset(l, 0, sizeof(*l));
}

static void add(char ***v, size_t *n, char *kv)
{
	*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = kv;
	(*v)[*n] = NULL;
}

/* SLURM_GTIDS: the global ids of the tasks on task t's node. */
static char *gtids(const struct sl_srun_layout *l, int node)
{
	size_t cap = (size_t)l->ntasks * 12 + 16, used = 0;
	char *s = sl_xcalloc(cap, 1);
	for (int t = 0; t < l->ntasks; t++)
		if (l->task[t].node == node)
			used += (size_t)snprintf(s + used, cap - used, "%s%d", used ? "," : "", t);
	return s;
}

char **sl_srun_task_env(const struct sl_srun_layout *l, int t, char *const *base)
{
	char **v = NULL, **out, *ids = gtids(l, l->task[t].node);
	const char *node = l->nodes[l->task[t].node];
	size_t n = 0;

	int nd = l->task[t].node, cpt = l->cpus_per_task > 0 ? l->cpus_per_task : 1;

	add(&v, &n, sl_xasprintf("SLURMD_NODENAME=%s", node));
	add(&v, &n, sl_xasprintf("SLURM_CPUS_ON_NODE=%d",
				 l->exact ? l->tasks_on[nd] * cpt : l->cpus_on[nd]));
	if (l->uid >= 0) {
		add(&v, &n, sl_xasprintf("SLURM_JOB_GID=%ld", l->gid));
		add(&v, &n, sl_xasprintf("SLURM_JOB_UID=%ld", l->uid));
		add(&v, &n, sl_xasprintf("SLURM_JOB_USER=%s", l->user));
		add(&v, &n, sl_xasprintf("SLURM_PRIO_PROCESS=%d", l->prio));
	}
	add(&v, &n, sl_xasprintf("SLURM_TOPOLOGY_ADDR_PATTERN=node"));
	if (env_get(base, "TMPDIR") == NULL) /* slurmstepd's _make_tmpdir */
		add(&v, &n, sl_xasprintf("TMPDIR=/tmp"));
	if (l->gpu_freq != NULL) /* Slurm's srun gives a step's --gpu-freq so */
		add(&v, &n, sl_xasprintf("SLURMD_TRES_FREQ=gpu:%s", l->gpu_freq));
	if (l->cpu_freq != NULL)
		add(&v, &n, sl_xasprintf("SLURM_CPU_FREQ_REQ=%s", l->cpu_freq));
	/* slurmd's words for the binding it was asked (and, without
	 * task/affinity, does not make); over srun's own SLURM_CPU_BIND */
	char **bind = l->cpu_bind ? sl_slurm_cpu_bind_env(l->cpu_bind) : NULL;
	for (size_t i = 0; bind && bind[i]; i++)
		add(&v, &n, bind[i]);
	free(bind); /* its strings are v's now */
	if (!l->no_dist)
		add(&v, &n, sl_xasprintf("SLURM_DISTRIBUTION=%s",
					 l->distribution ? l->distribution : "block"));
	add(&v, &n, sl_xasprintf("SLURM_GTIDS=%s", ids));
	if (l->launch_port > 0) { /* slurmd's from srun's launch request */
		add(&v, &n, sl_xasprintf("SLURM_LAUNCH_NODE_IPADDR=%s", l->launch_addr));
		add(&v, &n, sl_xasprintf("SLURM_SRUN_COMM_HOST=%s", l->launch_addr));
		add(&v, &n, sl_xasprintf("SLURM_SRUN_COMM_PORT=%d", l->launch_port));
		add(&v, &n, sl_xasprintf("SLURM_STEP_LAUNCHER_PORT=%d", l->launch_port));
	}
	if (l->label)
		add(&v, &n, sl_xasprintf("SLURM_LABELIO=1"));
	if (l->mpi_pmix)
		add(&v, &n, sl_xasprintf("SLURM_MPI_TYPE=pmix"));
	else if (l->mpi_pmi2)
		add(&v, &n, sl_xasprintf("SLURM_MPI_TYPE=pmi2"));
	add(&v, &n, sl_xasprintf("SLURM_LOCALID=%d", l->task[t].local));
	add(&v, &n, sl_xasprintf("SLURM_NNODES=%d", l->nnodes));
	add(&v, &n, sl_xasprintf("SLURM_NODEID=%d", l->task[t].node));
	/* the job's list beside the step's count, as Slurm's tasks have them
	 * (its SLURM_JOB_* are the job's too, left as srun had them) */
	add(&v, &n, sl_xasprintf("SLURM_NODELIST=%s",
				 l->job_nodelist ? l->job_nodelist : l->nodelist));
	add(&v, &n, sl_xasprintf("SLURM_NPROCS=%d", l->ntasks));
	add(&v, &n, sl_xasprintf("SLURM_NTASKS=%d", l->ntasks));
	add(&v, &n, sl_xasprintf("SLURM_PROCID=%d", t));
	add(&v, &n, sl_xasprintf("SLURM_STEPID=%u", (unsigned)l->step_id));
	add(&v, &n, sl_xasprintf("SLURM_STEP_ID=%u", (unsigned)l->step_id));
	add(&v, &n, sl_xasprintf("SLURM_STEP_NODELIST=%s", l->nodelist));
	add(&v, &n, sl_xasprintf("SLURM_STEP_NUM_NODES=%d", l->nnodes));
	add(&v, &n, sl_xasprintf("SLURM_STEP_NUM_TASKS=%d", l->ntasks));
	add(&v, &n, sl_xasprintf("SLURM_STEP_TASKS_PER_NODE=%s", l->tasks_per_node));
	add(&v, &n, sl_xasprintf("SLURM_TASKS_PER_NODE=%s", l->tasks_per_node));
	add(&v, &n, sl_xasprintf("SLURM_TOPOLOGY_ADDR=%s", node));
	if (l->umask >= 0)
		add(&v, &n, sl_xasprintf("SLURM_UMASK=%04o", (unsigned)l->umask));
	if (l->cpus_per_task > 0)
		add(&v, &n, sl_xasprintf("SLURM_CPUS_PER_TASK=%d", l->cpus_per_task));
	if (l->ntasks_per_gpu > 0) /* srun's for a step with --ntasks-per-gpu (env.c) */
		add(&v, &n, sl_xasprintf("SLURM_NTASKS_PER_TRES=%d", l->ntasks_per_gpu));
	char **g = sl_srun_gpus_env(l, t);
	for (size_t i = 0; g && g[i]; i++)
		add(&v, &n, g[i]);
	free(g); /* its strings are v's now */
	/* The child writes its pid over the blanks (as sluice-stepd does). */
	add(&v, &n, sl_xasprintf("SLURM_TASK_PID=%-20s", ""));
	out = sl_slurm_env_merge(base, v);
	sl_strv_free(v);
	free(ids);
	if (l->gpus_none || sl_srun_gpus_unnamed(l, t))
		sl_srun_gpus_strip(out, !l->gpus_none);
	/* spank_pbs runs for each task, from the task's own variables, the
	 * caller's exported or not (--export=NONE) */
	if (l->spank_pbs && (v = sl_pbs_env_spank(out, l->cwd)) != NULL) {
		char **with = sl_slurm_env_merge(out, v);
		sl_strv_free(out);
		sl_strv_free(v);
		out = with;
	}
	return out;
}

static int is_slurm(const char *kv)
{
	return strncmp(kv, "SLURM_", 6) == 0 || strncmp(kv, "SLURMD_", 7) == 0;
}

char **sl_srun_export(const char *spec, char *const *envp)
{
	char **keep = NULL, **over = NULL, **out, **names;
	size_t nk = 0, no = 0, nn = 0;
	int all = 0;

	if (spec == NULL || strcmp(spec, "ALL") == 0)
		return sl_strv_dup(envp);
	names = split_commas(spec, &nn);
	for (size_t i = 0; i < nn; i++) {
		if (strcmp(names[i], "ALL") == 0) {
			all = 1;
		} else if (strcmp(names[i], "NONE") == 0 || strcmp(names[i], "NIL") == 0) {
			continue;
		} else if (strchr(names[i], '=')) {
			add(&over, &no, sl_xstrdup(names[i]));
		} else {
			const char *v = env_get(envp, names[i]);
			if (v)
				add(&over, &no, sl_xasprintf("%s=%s", names[i], v));
		}
	}
	for (char *const *e = envp; e && *e; e++)
		if (all || is_slurm(*e))
			add(&keep, &nk, sl_xstrdup(*e));
	out = sl_slurm_env_merge(keep, over);
	sl_strv_free(keep);
	sl_strv_free(over);
	sl_strv_free(names);
	return out;
}

int sl_srun_label_width(int ntasks)
{
	int w = 1;
	for (int n = ntasks - 1; n >= 10; n /= 10)
		w++;
	return w;
}
