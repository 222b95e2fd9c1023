/* pbs_env.c - PBS variables of a batch job. Names and values as OpenPBS's
 * MOM sets them (src/resmom/start_exec.c: variables_else[] at line 158,
 * NCPUS and OMP_NUM_THREADS from the first chunk's ncpus, or its
 * ompthreads, at line 3527 (vn_threads, set at line 5796),
 * PBS_ENVIRONMENT=PBS_BATCH at line 4071, PBS_ARRAY_INDEX and PBS_ARRAY_ID
 * at line 173) and as qsub sends PBS_O_* (job_env_basic(), src/cmds/qsub.c).
 * A subjob's PBS_JOBID is "N[I].server", its array's "N[].server"; Torque
 * names the index PBS_ARRAYID. */
#include "pbs_env.h"
#include "pbs_job.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbs_reslist.h"
#include "slurm_env.h"
#include "xalloc.h"


const char *sl_pbs_env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

struct out {
	char **v;
	size_t n, cap;
};

static void put(struct out *o, const char *k, const char *v)
{
	if (v == NULL)
		return;
	o->v = sl_xgrow(o->v, &o->cap, o->n + 2, sizeof(*o->v));
	o->v[o->n++] = sl_xasprintf("%s=%s", k, v);
	o->v[o->n] = NULL;
}

/* PBS_O_NAME from the submission's NAME, unless qsub sent PBS_O_NAME. */
static void put_o(struct out *o, char *const *env, const char *name, const char *from)
{
	char k[64];

	snprintf(k, sizeof(k), "PBS_O_%s", name);
	if (sl_pbs_env_get(env, k) == NULL)
		put(o, k, from);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A Slurm job's, as Slurm's spank_pbs plugin sets them (src/plugins/
 * job_submit/pbs/spank_pbs.c): the job's own ids, its working directory,
 * and PBS_O_* copied from the submission's HOME, HOST, LANG, LOGNAME,
 * MAIL, PATH, QUEUE, SHELL and SYSTEM where it has them. No
 * PBS_ENVIRONMENT, PBS_QUEUE or PBS_ACCOUNT: the job_submit/pbs plugin
 * that adds those is not the spank one. */
static const char *const o_copied[] = {"HOME", "HOST", "LANG", "LOGNAME", "MAIL",
				       "PATH", "QUEUE", "SHELL", "SYSTEM"};

static void put_copied(struct out *o, char *const *env)
{
	for (size_t i = 0; i < sizeof(o_copied) / sizeof(o_copied[0]); i++) {
		char k[32];
		snprintf(k, sizeof(k), "PBS_O_%s", o_copied[i]);
		put(o, k, sl_pbs_env_get(env, o_copied[i]));
	}
}

char **sl_pbs_env_o(char *const *env)
{
	struct out o = {NULL, 0, 0};
	put_copied(&o, env);
	return o.v;
}

char **sl_pbs_env_spank(char *const *env, const char *cwd)
{
	static const struct {
		const char *to, *from;
	} from_slurm[] = {
		{"PBS_ARRAY_ID", "SLURM_ARRAY_JOB_ID"}, {"PBS_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"},
		{"PBS_JOBID", "SLURM_JOB_ID"}, {"PBS_JOBNAME", "SLURM_JOB_NAME"},
		{"PBS_NODENUM", "SLURM_NODEID"}, {"PBS_O_WORKDIR", "SLURM_SUBMIT_DIR"},
	};
	struct out o = {NULL, 0, 0};
	const char *rank = sl_pbs_env_get(env, "SLURM_PROCID");
	char num[32];

	for (size_t i = 0; i < sizeof(from_slurm) / sizeof(from_slurm[0]); i++)
		put(&o, from_slurm[i].to, sl_pbs_env_get(env, from_slurm[i].from));
	put(&o, "PBS_JOBDIR", cwd);
	put_copied(&o, env);
	if (rank != NULL) {
		snprintf(num, sizeof(num), "%d", atoi(rank) + 1);
		put(&o, "PBS_TASKNUM", num);
	}
	return o.v;
}

static void spank_pbs(struct out *o, const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	char num[32];

	if (j->array_job_id != 0) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)j->array_job_id);
		put(o, "PBS_ARRAY_ID", num);
		snprintf(num, sizeof(num), "%d", j->array_task_id);
		put(o, "PBS_ARRAY_INDEX", num);
	}
	put(o, "PBS_JOBDIR", s->work_dir);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)j->id);
	put(o, "PBS_JOBID", num);
	put(o, "PBS_JOBNAME", s->name);
	put(o, "PBS_NODENUM", "0");
	put_copied(o, s->env);
	put(o, "PBS_O_WORKDIR", s->submit_dir);
	put(o, "PBS_TASKNUM", "1");
}

/* get_num_nodes_ppn() (Torque's src/resmom/start_exec.c:1450-1530): the
 * nodes spec's first count (a host name counts 1), ppn from its first
 * "ppn=", each further '+' part's count added; 1 and 1 without a spec, or
 * with one it cannot read. */
static void torque_nodes_ppn(const char *spec, int *nodes, int *ppn)
{
	const char *p, *q;
	long n;

	*nodes = *ppn = 1;
	if (spec == NULL || *spec == '\0')
		return;
	if ((n = strtol(spec, NULL, 10)) <= 0 && !isalpha((unsigned char)*spec))
		return;
	int count = n > 0 ? (int)n : 1, per = 1;
	if ((q = strstr(spec, "ppn=")) != NULL && (per = atoi(q + 4)) <= 0)
		return;
	for (p = strchr(spec, '+'); p != NULL; p = strchr(p, '+')) {
		char *end;
		p++;
		if ((n = strtol(p, &end, 10)) > 0)
			count += (int)n;
		else if (isalpha((unsigned char)*p))
			count++;
		else
			return;
	}
	*nodes = count;
	*ppn = per;
}

/* What Torque's MOM adds for a job of Torque's forms (jobspec.torque;
 * InitUserEnv(), src/resmom/start_exec.c:1764-1818, and TMomFinalizeChild()
 * at 4640-4645): PBS_WALLTIME (the limit's seconds), PBS_NUM_NODES and
 * PBS_NUM_PPN (from the nodes spec, 1 without), PBS_NP (the execution
 * slots, the job's CPUs as asked), PBS_VNODENUM (0, the batch shell's
 * node). PBS_O_INITDIR is -d's, which qsub sends. */
static void torque_mom(struct out *o, const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	char num[32], spec[256];
	int nodes, ppn;

	torque_nodes_ppn(sl_pbs_reslist_get(s->pbs_resources, "nodes", spec, sizeof(spec)),
			 &nodes, &ppn);
	snprintf(num, sizeof(num), "%d", sl_jobspec_asked_cpus(s));
	put(o, "PBS_NP", num);
	snprintf(num, sizeof(num), "%d", nodes);
	put(o, "PBS_NUM_NODES", num);
	snprintf(num, sizeof(num), "%d", ppn);
	put(o, "PBS_NUM_PPN", num);
	put(o, "PBS_VNODENUM", "0");
	if (sl_jobspec_limit_secs(s) > 0) {
		snprintf(num, sizeof(num), "%lld", (long long)sl_jobspec_limit_secs(s));
		put(o, "PBS_WALLTIME", num);
	}
}

char **sl_pbs_env_build(const struct sl_pbs_env_in *in)
{
	const struct sl_jobspec *s = &in->job->spec;
	char *const *env = s->env;
	struct out o = {NULL, 0, 0};
	const struct sl_job *j = in->job;
	char *id, *array_id = NULL, num[32];

	if (!s->pbs) {
		spank_pbs(&o, j);
		goto out;
	}
	if (j->array_job_id != 0) {
		id = sl_xasprintf("%llu[%d].%s", (unsigned long long)j->array_job_id,
				  j->array_task_id, in->server);
		array_id = sl_xasprintf("%llu[].%s", (unsigned long long)j->array_job_id,
					in->server);
		snprintf(num, sizeof(num), "%d", j->array_task_id);
		put(&o, "PBS_ARRAY_ID", array_id);
		put(&o, "PBS_ARRAY_INDEX", num);
		put(&o, "PBS_ARRAYID", num);
	} else {
		id = sl_xasprintf("%llu.%s", (unsigned long long)j->id, in->server);
	}

	put(&o, "PBS_ACCOUNT", s->account);
	put(&o, "PBS_ENVIRONMENT", "PBS_BATCH");
	put(&o, "PBS_JOBID", id);
	char name[288];
	put(&o, "PBS_JOBNAME", sl_pbs_job_name(j, name, sizeof(name)));
	put(&o, "PBS_NODENUM", "0");
	put(&o, "PBS_QUEUE", s->partition);
	put(&o, "PBS_TASKNUM", "1");
	put_o(&o, env, "HOME", sl_pbs_env_get(env, "HOME"));
	put_o(&o, env, "HOST", s->submit_host);
	put_o(&o, env, "LANG", sl_pbs_env_get(env, "LANG"));
	put_o(&o, env, "LOGNAME", sl_pbs_env_get(env, "LOGNAME") ? sl_pbs_env_get(env, "LOGNAME")
							  : sl_pbs_env_get(env, "USER"));
	put_o(&o, env, "MAIL", sl_pbs_env_get(env, "MAIL"));
	put_o(&o, env, "PATH", sl_pbs_env_get(env, "PATH"));
	put_o(&o, env, "QUEUE", s->partition);
	put_o(&o, env, "SHELL", sl_pbs_env_get(env, "SHELL"));
	put_o(&o, env, "WORKDIR", s->submit_dir);
	/* the chunk's ncpus as asked (place=excl's whole node is not it), or
	 * its ompthreads: MOM sets both from the first chunk's vn_threads */
	int per_node = in->shape->tasks_per_node * in->shape->cpus_per_task;
	if (s->omp_threads >= 0)
		per_node = s->omp_threads;
	else if (per_node <= 0)
		per_node = 1;
	snprintf(num, sizeof(num), "%d", per_node);
	put(&o, "NCPUS", num);
	put(&o, "OMP_NUM_THREADS", num);
	if (s->torque)
		torque_mom(&o, j);
	free(id);
	free(array_id);
out:
	if (o.v == NULL)
		o.v = sl_xcalloc(1, sizeof(char *));
	qsort(o.v, o.n, sizeof(*o.v), by_name);
	return o.v;
}

char **sl_pbs_env_job(const struct sl_pbs_env_in *in, char *const *over)
{
	char **pbs = sl_pbs_env_build(in);
	char **base = sl_slurm_env_merge(in->job->spec.env, pbs);
	char **all = sl_slurm_env_merge(base, over);

	sl_strv_free(pbs);
	sl_strv_free(base);
	return all;
}

char *sl_pbs_nodefile(const struct sl_jobshape *sh, char *const *hosts, int nhosts)
{
	int nodes = sh->nodes > 0 ? sh->nodes : 1;
	int tasks = sh->ntasks > 0 ? sh->ntasks : nodes;
	size_t len = 0, cap = 0;
	char *out = NULL;

	for (int i = 0; i < nodes; i++) {
		/* block distribution, as SLURM_TASKS_PER_NODE counts them */
		int t = tasks / nodes + (i < tasks % nodes ? 1 : 0);
		const char *h = hosts[nhosts > 0 ? (i < nhosts ? i : nhosts - 1) : 0];
		for (int k = 0; k < t; k++) {
			size_t hl = strlen(h);
			out = sl_xgrow(out, &cap, len + hl + 2, 1);
			memcpy(out + len, h, hl);
			len += hl;
			out[len++] = '\n';
		}
	}
	out = sl_xgrow(out, &cap, len + 1, 1);
	out[len] = '\0';
	return out;
}

/* ---- Variable_List -------------------------------------------------------- */

/* What qsub sends first (job_env_basic(), src/cmds/qsub.c:2006-2151), in
 * its order; PBS_O_QUEUE and PBS_O_HOST are the server's, appended last. */
static const char *const vl_basic[] = {"HOME", "LANG", "LOGNAME", "PATH", "MAIL", "SHELL",
				       "TZ", "WORKDIR", "SYSTEM"};

struct vl {
	char *s;
	size_t len, cap;
};

/* ",K=V" (no comma first) with encode_arst_bs()'s escapes: a quote, comma
 * or backslash gets a backslash (src/lib/Libattr/attr_fn_arst.c:989). */
static void vl_add(struct vl *l, const char *k, const char *v)
{
	if (v == NULL)
		return;
	l->s = sl_xgrow(l->s, &l->cap, l->len + 2 * (strlen(k) + strlen(v)) + 3, 1);
	if (l->len > 0)
		l->s[l->len++] = ',';
	for (int part = 0; part < 2; part++) {
		for (const char *p = part ? v : k; *p; p++) {
			if (strchr("\"',\\", *p))
				l->s[l->len++] = '\\';
			l->s[l->len++] = *p;
		}
		if (part == 0)
			l->s[l->len++] = '=';
	}
	l->s[l->len] = '\0';
}

char *sl_pbs_variable_list(const struct sl_job *j)
{
	const struct sl_jobspec *s = &j->spec;
	char *const *env = s->env;
	struct vl l = {NULL, 0, 0};

	for (size_t i = 0; i < sizeof(vl_basic) / sizeof(vl_basic[0]); i++) {
		char k[32];
		const char *v;
		snprintf(k, sizeof(k), "PBS_O_%s", vl_basic[i]);
		if (strcmp(vl_basic[i], "WORKDIR") == 0)
			v = s->pbs && sl_pbs_env_get(env, k) ? sl_pbs_env_get(env, k) : s->submit_dir;
		else if (s->pbs)
			v = sl_pbs_env_get(env, k);
		else /* spank_pbs's copies; TZ is not one of them */
			v = strcmp(vl_basic[i], "TZ") ? sl_pbs_env_get(env, vl_basic[i]) : NULL;
		vl_add(&l, k, v);
	}
	/* Torque's -d: qsub sends it beside the others (ATTR_pbs_o_initdir) */
	if (s->pbs)
		vl_add(&l, "PBS_O_INITDIR", sl_pbs_env_get(env, "PBS_O_INITDIR"));
	/* -v's and -V's (an sbatch job's exported environment is no such list) */
	for (char *const *e = s->pbs ? env : NULL; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (eq == NULL || strncmp(*e, "PBS_O_", 6) == 0)
			continue;
		char *k = sl_xstrndup(*e, (size_t)(eq - *e));
		vl_add(&l, k, eq + 1);
		free(k);
	}
	vl_add(&l, "PBS_O_QUEUE", s->partition);
	vl_add(&l, "PBS_O_HOST", s->submit_host);
	return l.s;
}

/* mktmpdir(): "pbs." and the job id, a subjob's "N[I].server" too. */
char *sl_pbs_tmpdir(const struct sl_job *j, const char *server, const char *base)
{
	if (j->array_job_id != 0)
		return sl_xasprintf("%s/pbs.%llu[%d].%s", base,
				    (unsigned long long)j->array_job_id, j->array_task_id, server);
	return sl_xasprintf("%s/pbs.%llu.%s", base, (unsigned long long)j->id, server);
}
