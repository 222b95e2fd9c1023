/* h_update.c - UPDATE (scontrol update JobId=N KEY=VALUE...): a table of the
 * fields a job may change, each with when it may (pending only, or also
 * while it runs) and who may (authz.c's rules for the operators' ones).
 *
 * The fields are applied to a copy of the job; only when every one is
 * valid and the changed job still fits its partition does the copy take
 * the job's place, so a refused update changes nothing (Slurm applies
 * fields until the first refusal: Sluice does all or nothing). The spec is
 * rewritten in the store with the record, in the turn's transaction, and a
 * pending job goes back through the gates, which put it in the engine
 * again with what it now asks. */
#include "authz.h"
#include "conf.h"
#include "exec.h"
#include "gates.h"
#include "handlers.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "schedule.h"
#include "store.h"
#include "submit.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct upd {
	struct sluiced *d;
	const struct sl_peer *p;
	struct sl_job *old;  /* the job, borrowed */
	struct sl_job *n;    /* its copy, changed */
	int refit;           /* what it asks changed: can it still fit? */
	int requeue;         /* pending: through the gates again */
	int64_t limit;       /* a running job's new time limit, or SL_TIME_UNSET */
	int renamed;
};

static int pending_only(const struct upd *u, struct sl_err *err)
{
	return u->old->state == SL_JOB_PENDING
		       ? 0 : sl_err_set(err, SL_ESTATE, "Job is no longer pending execution");
}

static int f_time_limit(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m = json_object_get_int64(v), cur = u->old->spec.time_limit;
	int longer = cur >= 0 && (m < 0 || m > cur); /* UNLIMITED is longest */
	int r;

	if (m < 0 && m != SL_TIME_INFINITE)
		return sl_err_set(err, SL_EINVAL, "Invalid TimeLimit value");
	if (u->old->state != SL_JOB_PENDING) {
		if (longer && (r = sl_authz_job(u->p, u->old, SL_OP_UPDATE_LIMIT, err)) != 0)
			return r;
		if (u->d->executor->time_limit == NULL)
			return sl_err_set(err, SL_EUNSUPP,
					  "Requested operation not supported on this system");
		u->limit = m;
	}
	u->n->spec.time_limit = m;
	return 0;
}

/* TimeMin=: at any time before the end, as slurmctld; validate() holds it
 * to the limit. */
static int f_time_min(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m = json_object_get_int64(v);

	if (m < 0 && m != SL_TIME_INFINITE)
		return sl_err_set(err, SL_EINVAL, "Invalid TimeMin value");
	u->n->spec.time_min = m;
	return 0;
}

static int f_priority(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t pr = json_object_get_int64(v);
	int r;

	if (!u->p->operator && u->old->spec.hold)
		return sl_err_set(err, SL_ESTATE, "Job is in held state, pending scheduler release");
	if ((r = sl_authz_job(u->p, u->old, SL_OP_UPDATE_PRIORITY, err)) != 0)
		return r;
	if (pr < 0 || pr >= 4294967294LL)
		return sl_err_set(err, SL_EINVAL, "Invalid priority");
	u->n->spec.priority = pr;
	u->requeue = 1;
	return 0;
}

static int f_nice(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t nice = json_object_get_int64(v);
	int r;

	if (nice < 0 && (r = sl_authz_job(u->p, u->old, SL_OP_UPDATE_NICE, err)) != 0)
		return r;
	if (nice > 2147483645 || nice < -2147483645)
		return sl_err_set(err, SL_EINVAL, "Invalid nice value");
	u->n->spec.nice = (int)nice;
	u->requeue = 1;
	return 0;
}

static void set_str(char **dst, json_object *v)
{
	const char *s = json_object_get_string(v);
	free(*dst);
	*dst = s && *s ? sl_xstrdup(s) : NULL;
}

static int f_partition(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	if (r == 0 && *json_object_get_string(v) == '\0')
		r = sl_err_set(err, SL_EPARTITION, "Invalid partition name specified");
	if (r == 0) {
		set_str(&u->n->spec.partition, v);
		u->refit = u->requeue = 1;
	}
	return r;
}

static int f_qos(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	if (r == 0) {
		set_str(&u->n->spec.qos, v);
		u->refit = u->requeue = 1;
	}
	return r;
}

/* NumNodes=N on a running (or suspended) job: slurmctld takes its own
 * node count as no change, and would shrink it to fewer; Sluice cannot
 * take nodes from a job that runs, so fewer is refused as more is
 * (Slurm's answer where shrinking is disabled). */
static int f_nodes(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n = json_object_get_int64(v);
	struct sl_jobshape sh;
	int r;

	if (n < 1 || n > 1000000)
		return sl_err_set(err, SL_EINVAL, "Node count specification invalid");
	if (u->old->state == SL_JOB_RUNNING || u->old->state == SL_JOB_SUSPENDED) {
		sl_job_shape(u->old, &sh);
		return n == sh.nodes ? 0 : sl_err_set(err, SL_EUNSUPP,
						      "Requested operation not supported on this system");
	}
	if ((r = pending_only(u, err)) != 0)
		return r;
	u->n->spec.nodes = (int)n;
	if (u->n->spec.nodes_max != SL_NO_VAL && u->n->spec.nodes_max < n)
		u->n->spec.nodes_max = (int)n;
	u->refit = u->requeue = 1;
	return 0;
}

static int f_nodes_max(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	int64_t n = json_object_get_int64(v);
	if (r == 0 && (n < 1 || n > 1000000 || n < u->n->spec.nodes))
		r = sl_err_set(err, SL_EINVAL, "Node count specification invalid");
	if (r == 0) {
		u->n->spec.nodes_max = (int)n;
		u->refit = u->requeue = 1;
	}
	return r;
}

/* NumCPUs=C: the job's CPUs in all. Sluice asks per task, so C becomes
 * CPUs per task over its tasks (rounded up). */
static int f_cpus(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	int64_t c = json_object_get_int64(v);
	struct sl_jobshape sh;

	if (r == 0 && (c < 1 || c > 1000000))
		r = sl_err_set(err, SL_EINVAL, "Invalid NumCPUs value");
	if (r != 0)
		return r;
	sl_jobspec_shape(&u->n->spec, &sh);
	u->n->spec.cpus_per_task = (int)((c + sh.ntasks - 1) / sh.ntasks);
	u->refit = u->requeue = 1;
	return 0;
}

static int f_dependency(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	if (r == 0)
		r = sl_gates_depend(u->d, u->n, json_object_get_string(v), err);
	if (r == 0) {
		set_str(&u->n->spec.dependency, v);
		u->requeue = 1;
	}
	return r;
}

/* StartTime=: the job's begin time (already a time: scontrol parsed it). */
static int f_begin(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t t = json_object_get_int64(v), now = (int64_t)time(NULL);
	int r = pending_only(u, err);
	if (r == 0) {
		u->n->spec.begin_time = t;
		u->n->eligible_time = t > now ? t : now;
		u->requeue = 1;
	}
	return r;
}

static int f_name(struct upd *u, json_object *v, struct sl_err *err)
{
	if (strlen(json_object_get_string(v)) > 1024)
		return sl_err_set(err, SL_EINVAL, "job name is longer than 1024 bytes");
	set_str(&u->n->spec.name, v);
	if (u->n->spec.name == NULL)
		u->n->spec.name = sl_xstrdup("");
	u->renamed = 1;
	return 0;
}

static int f_comment(struct upd *u, json_object *v, struct sl_err *err)
{
	if (strlen(json_object_get_string(v)) > 1024)
		return sl_err_set(err, SL_EINVAL, "comment is longer than 1024 bytes");
	set_str(&u->n->spec.comment, v);
	return 0;
}

/* WCKey=: while pending, as slurmctld (the key labels the job's usage). */
static int f_wckey(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);

	if (r == 0)
		set_str(&u->n->spec.wckey, v);
	return r;
}

/* ArrayTaskThrottle=M (0: none): how many of the array's tasks may run at
 * once; the gates (gates.c) hold the others back. A job that is not an
 * array takes it and changes nothing, as in Slurm. */
static int f_throttle(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m = json_object_get_int64(v);

	if (m < 0 || m > INT32_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid ArrayTaskThrottle value");
	if (u->n->array_job_id == 0)
		return 0;
	u->n->array_throttle = (int)m;
	u->requeue = 1;
	return 0;
}

/* Account=: while pending, one the job's owner may use (Slurm checks the
 * owner's association, whoever asks); it names the LocalQueue's namespace,
 * so the job must fit again. Lowercased as at submit. */
static int f_account(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);

	if (r != 0)
		return r;
	set_str(&u->n->spec.account, v);
	if (u->n->spec.account == NULL ||
	    !sl_conf_account_allowed(u->d->conf, u->old->user, u->n->spec.account))
		return sl_err_set(err, SL_EACCOUNT,
				  "Invalid account or account/partition combination specified");
	for (char *c = u->n->spec.account; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	u->refit = u->requeue = 1;
	return 0;
}

/* MailType= and MailUser=: at any time, as Slurm; mail with no user goes
 * to the owner, as at submit. */
static int f_mail_type(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t bits = json_object_get_int64(v);

	if (bits < 0 || bits > INT32_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid MailType");
	u->n->spec.mail_type = (int)bits;
	if (bits != 0 && u->n->spec.mail_user == NULL)
		u->n->spec.mail_user = sl_xstrdup(u->old->user);
	return 0;
}

static int f_mail_user(struct upd *u, json_object *v, struct sl_err *err)
{
	set_str(&u->n->spec.mail_user, v);
	if (u->n->spec.mail_user == NULL)
		u->n->spec.mail_user = sl_xstrdup(u->old->user);
	return 0;
}

/* Requeue=0|1: whether preemption or a node failure puts it back. */
static int f_requeue(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t on = json_object_get_int64(v);

	if (on != 0 && on != 1)
		return sl_err_set(err, SL_EINVAL, "Invalid Requeue value");
	u->n->spec.requeue = (int)on;
	return 0;
}

/* A file of the job: relative to its working directory, as Slurm's. */
static int abs_path(struct upd *u, char **dst, json_object *v, const char *what,
		    struct sl_err *err)
{
	const char *path = json_object_get_string(v), *wd = u->n->spec.work_dir;

	if (path[0] == '\0')
		return sl_err_set(err, SL_EINVAL, "Invalid %s value", what);
	free(*dst);
	*dst = path[0] == '/' || wd == NULL ? sl_xstrdup(path) : sl_xasprintf("%s/%s", wd, path);
	return 0;
}

/* WorkDir=: Slurm takes it at any time (a running job keeps the directory
 * it started in) and keeps a relative one as written, which no node can
 * use: Sluice refuses that. */
static int f_work_dir(struct upd *u, json_object *v, struct sl_err *err)
{
	if (json_object_get_string(v)[0] != '/')
		return sl_err_set(err, SL_EINVAL, "WorkDir must be an absolute path");
	set_str(&u->n->spec.work_dir, v);
	return 0;
}

/* StdOut= (and qalter's -e): the files open when the job starts. */
static int f_std_out(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);
	return r ? r : abs_path(u, &u->n->spec.std_out, v, "StdOut", err);
}

static int f_std_err(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = pending_only(u, err);

	if (r == 0 && *json_object_get_string(v) == '\0') { /* joined into stdout */
		free(u->n->spec.std_err);
		u->n->spec.std_err = NULL;
		return 0;
	}
	return r ? r : abs_path(u, &u->n->spec.std_err, v, "StdErr", err);
}

/* A number of what the job asks, while it waits: in [lo, hi], else bad;
 * the job must fit again. */
static int pending_count(struct upd *u, json_object *v, int64_t lo, int64_t hi, const char *bad,
			 int64_t *out, struct sl_err *err)
{
	int r = pending_only(u, err);

	*out = json_object_get_int64(v);
	if (r == 0 && (*out < lo || *out > hi))
		r = sl_err_set(err, SL_EINVAL, "%s", bad);
	if (r == 0)
		u->refit = u->requeue = 1;
	return r;
}

#define COUNT_MAX 1000000
#define MEM_MAX (INT64_C(1) << 40) /* MiB */

/* MinMemoryNode= and MinMemoryCPU= (MiB): one replaces the other, as the
 * options do at submit. SL_NO_VAL (-1) per node: none asked (qalter's
 * select without mem). */
static int f_mem_node(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m;
	int r = pending_count(u, v, SL_NO_VAL, MEM_MAX, "Invalid MinMemoryNode value", &m, err);

	if (r == 0) {
		u->n->spec.mem_per_node = m;
		u->n->spec.mem_per_cpu = SL_NO_VAL;
		u->n->spec.mem_all = 0;
	}
	return r;
}

static int f_mem_cpu(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m;
	int r = pending_count(u, v, 1, MEM_MAX, "Invalid MinMemoryCPU value", &m, err);

	if (r == 0) {
		u->n->spec.mem_per_cpu = m;
		u->n->spec.mem_per_node = SL_NO_VAL;
		u->n->spec.mem_all = 0;
	}
	return r;
}

/* MinTmpDiskNode= (MB): the submit policy checks it against tmpDisk. */
static int f_tmp(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m;
	int r = pending_count(u, v, 0, MEM_MAX, "Invalid MinTmpDiskNode value", &m, err);

	if (r == 0)
		u->n->spec.tmp_mb = m;
	return r;
}

static int f_ntasks(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = pending_count(u, v, 1, COUNT_MAX, "Task count specification invalid", &n, err);

	if (r == 0)
		u->n->spec.ntasks = (int)n;
	return r;
}

/* qalter's select=: tasks per node, the tasks then derived from it. */
static int f_ntasks_per_node(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = pending_count(u, v, 1, COUNT_MAX, "Task count specification invalid", &n, err);

	if (r == 0) {
		u->n->spec.ntasks_per_node = (int)n;
		u->n->spec.ntasks = SL_NO_VAL;
	}
	return r;
}

/* GPUs on each node (0: none); a --gpus total gives way to it. */
static int f_gpus_per_node(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = pending_count(u, v, 0, COUNT_MAX, "Invalid GPU count", &n, err);

	if (r == 0) {
		u->n->spec.gpus_per_node = n > 0 ? (int)n : SL_NO_VAL;
		u->n->spec.gpus = SL_NO_VAL;
	}
	return r;
}

static int f_cpus_per_task(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = pending_count(u, v, 1, COUNT_MAX, "Invalid CPUsPerTask value", &n, err);

	if (r == 0)
		u->n->spec.cpus_per_task = (int)n;
	return r;
}

/* MinCPUsNode=N: --mincpus (0 none). */
static int f_mincpus(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = pending_count(u, v, 0, COUNT_MAX, "Invalid MinCPUsNode value", &n, err);

	if (r == 0)
		u->n->spec.mincpus = (int)n;
	return r;
}

static const struct {
	const char *key;
	json_type type;
	int (*apply)(struct upd *u, json_object *v, struct sl_err *err);
} fields[] = {
	{"time_limit", json_type_int, f_time_limit},
	{"time_min", json_type_int, f_time_min},
	{"priority", json_type_int, f_priority},
	{"nice", json_type_int, f_nice},
	{"partition", json_type_string, f_partition},
	{"qos", json_type_string, f_qos},
	{"nodes", json_type_int, f_nodes},
	{"nodes_max", json_type_int, f_nodes_max},
	{"cpus", json_type_int, f_cpus},
	{"dependency", json_type_string, f_dependency},
	{"begin_time", json_type_int, f_begin},
	{"name", json_type_string, f_name},
	{"comment", json_type_string, f_comment},
	{"wckey", json_type_string, f_wckey},
	{"array_throttle", json_type_int, f_throttle},
	{"account", json_type_string, f_account},
	{"mail_type", json_type_int, f_mail_type},
	{"mail_user", json_type_string, f_mail_user},
	{"requeue", json_type_int, f_requeue},
	{"work_dir", json_type_string, f_work_dir},
	{"std_out", json_type_string, f_std_out},
	{"std_err", json_type_string, f_std_err},
	{"mem_per_node", json_type_int, f_mem_node},
	{"mem_per_cpu", json_type_int, f_mem_cpu},
	{"tmp_mb", json_type_int, f_tmp},
	{"ntasks", json_type_int, f_ntasks},
	{"cpus_per_task", json_type_int, f_cpus_per_task},
	{"mincpus", json_type_int, f_mincpus},
	{"ntasks_per_node", json_type_int, f_ntasks_per_node},
	{"gpus_per_node", json_type_int, f_gpus_per_node},
};

static int apply(struct upd *u, json_object *set, struct sl_err *err)
{
	int r;

	json_object_object_foreach(set, key, val) {
		size_t i;
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (strcmp(key, fields[i].key) == 0)
				break;
		if (i == sizeof(fields) / sizeof(fields[0]))
			return sl_err_set(err, SL_EINVAL, "Update of this parameter is not supported: %s",
					  key);
		if (!json_object_is_type(val, fields[i].type))
			return sl_err_set(err, SL_EPROTO, "update: %s has the wrong type", key);
		if ((r = fields[i].apply(u, val, err)) != 0)
			return r;
	}
	return 0;
}

/* What the copy asks still fits, and its priority from its QOS and nice. */
static int validate(struct upd *u, struct sl_err *err)
{
	struct sl_job *n = u->n;
	int r;

	if (u->refit && ((r = sl_submit_executor_limits(u->d->conf, &n->spec, err)) != 0 ||
			 (r = sl_submit_whole_node(u->d->conf, &n->spec, err)) != 0 ||
			 (r = sl_submit_can_fit(u->d->conf, sl_schedctl_engine(u->d->sched), n,
						err)) != 0))
		return r;
	if ((r = sl_submit_time_min(&n->spec, err)) != 0 ||
	    (r = sl_submit_priority(u->d->conf, n, err)) != 0)
		return r;
	if (n->spec.hold || n->state == SL_JOB_SUSPENDED)
		n->priority = 0;
	if (u->refit && n->state == SL_JOB_PENDING) /* what listings show it asks */
		n->alloc_cpus = sl_jobspec_asked_cpus(&n->spec);
	return 0;
}

/* The copy takes the job's place (the job table keeps its pointer). */
static void swap_in(struct sl_job *j, struct sl_job *n)
{
	struct sl_job t = *j;
	*j = *n;
	*n = t;
}

int sl_update_priority(struct sluiced *d, struct sl_job *j, int64_t priority,
		       struct sl_err *err)
{
	struct sl_peer root = {.uid = 0, .operator = 1};
	json_object *set = json_object_new_object();
	int r;

	json_object_object_add(set, "priority", json_object_new_int64(priority));
	r = sl_update_job(d, &root, j, set, err);
	json_object_put(set);
	return r;
}

int sl_update_job(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, json_object *set,
		  struct sl_err *err)
{
	struct upd u = {d, p, j, sl_job_copy(j), 0, 0, SL_TIME_UNSET, 0};
	int r;

	if (sl_jobstate_is_final(j->state)) {
		r = sl_err_set(err, SL_ESTATE, "Job has already finished");
		goto out;
	}
	if ((r = apply(&u, set, err)) != 0 || (r = validate(&u, err)) != 0)
		goto out;
	if (u.limit != SL_TIME_UNSET &&
	    (r = d->executor->time_limit(d->exec, j->id, u.limit, err)) != 0)
		goto out;
	if ((r = sl_store_save_spec(d->store, j->id, &u.n->spec, err)) != 0)
		goto out;
	swap_in(j, u.n);
	if (u.renamed)
		sl_gates_touch(d, j); /* singletons of either name */
	if ((r = sl_lifecycle_save(d, j, err)) != 0)
		goto out;
	if (u.requeue && j->state == SL_JOB_PENDING && !j->spec.hold) {
		sl_schedctl_remove(d->sched, j->id);
		r = sl_gates_queue(d, j, err);
	}
out:
	sl_job_free(u.n);
	return r;
}

static int update_fn(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, void *set,
		     struct sl_err *err)
{
	return sl_update_job(d, p, j, set, err);
}

int sl_h_update(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
		struct sl_err *err)
{
	json_object *v, *set;
	struct sl_job *j;
	uint64_t id;
	int r;

	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int) ||
	    !json_object_object_get_ex(req, "set", &set) ||
	    !json_object_is_type(set, json_type_object))
		return sl_err_set(err, SL_EPROTO, "update: id or set is missing");
	id = (uint64_t)json_object_get_int64(v);
	/* With "each" every task answers for itself and the request succeeds
	 * as a whole, refusals and all, as slurmctld's job_array_resp_msg:
	 * scontrol prints each group of tasks with its answer */
	if ((j = sl_jobtab_get(d->jobs, id)) == NULL && sl_h_is_array(d, id)) {
		struct sl_err whole = SL_ERR_INIT;
		json_object *each;
		if (!json_object_object_get_ex(req, "each", &v) || !json_object_get_boolean(v))
			return sl_h_array_each(d, p, id, SL_OP_UPDATE, update_fn, set, NULL, err);
		each = json_object_new_array();
		sl_h_array_each(d, p, id, SL_OP_UPDATE, update_fn, set, each, &whole);
		json_object_object_add(rep, "results", each);
		return 0;
	}
	if (j == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified");
	if ((r = sl_authz_job(p, j, SL_OP_UPDATE, err)) != 0)
		return r;
	sl_h_split_task(j);
	return sl_update_job(d, p, j, set, err);
}
