/* update_fields.c - the fields of UPDATE (h_update.c) that change a job's
 * size, time, priority, names, files and mail: each says when it may
 * change (pending only, or also while it runs) and who may (authz.c's
 * rules for the operators' ones), and marks what the change asks of the
 * job (refit: it must fit again; requeue: through the gates again). */
#include "update_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "authz.h"
#include "conf.h"
#include "exec.h"
#include "gates.h"
#include "handlers.h"
#include "partadmin.h"
#include "submit.h"
#include "xalloc.h"

int sl_update_pending_only(const struct upd *u, struct sl_err *err)
{
	return u->old->state == SL_JOB_PENDING
		       ? 0 : sl_err_set(err, SL_ESTATE, "Job is no longer pending execution");
}

/* A new limit of secs seconds (0: UNLIMITED) that Slurm shows as m minutes:
 * a running job's only shorter unless an operator asks, and only where the
 * executor can tell the job. */
static int set_limit(struct upd *u, int64_t m, int64_t secs, struct sl_err *err)
{
	int64_t cur = sl_jobspec_limit_secs(&u->old->spec);
	int finite = u->old->spec.time_limit >= 0; /* UNLIMITED is longest */
	int longer = finite && (secs == 0 || secs > cur);
	int r;

	if (u->old->state != SL_JOB_PENDING) {
		if (longer && (r = sl_authz_job(u->p, u->old, SL_OP_UPDATE_LIMIT, err)) != 0)
			return r;
		if (u->d->executor->time_limit == NULL)
			return sl_err_set(err, SL_EUNSUPP,
					  "Requested operation not supported on this system");
		u->limit = secs;
	}
	if (m == SL_TIME_INFINITE) {
		u->n->spec.time_limit = m;
		u->n->spec.time_limit_secs = 0;
	} else {
		sl_jobspec_limit_set_secs(&u->n->spec, secs);
	}
	return 0;
}

/* TimeLimit= (scontrol, minutes): whole minutes again. */
static int f_time_limit(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t m = json_object_get_int64(v);

	if ((m < 0 && m != SL_TIME_INFINITE) || m > SL_TIME_MAX)
		return sl_err_set(err, SL_EINVAL, "Invalid TimeLimit value");
	return set_limit(u, m, m == SL_TIME_INFINITE ? 0 : m * 60, err);
}

/* qalter -l walltime= (seconds): the limit to the second, as qsub's. */
static int f_time_limit_secs(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t secs = json_object_get_int64(v);

	if (secs <= 0 || secs > SL_TIME_MAX * 60)
		return sl_err_set(err, SL_EINVAL, "Invalid TimeLimit value");
	return set_limit(u, (secs + 59) / 60, secs, err);
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

void sl_update_set_str(char **dst, json_object *v)
{
	const char *s = json_object_get_string(v);
	free(*dst);
	*dst = s && *s ? sl_xstrdup(s) : NULL;
}

static int f_partition(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);
	if (r == 0 && *json_object_get_string(v) == '\0')
		r = sl_err_set(err, SL_EPARTITION, "Invalid partition name specified");
	if (r == 0) /* drained or inactive by an operator: it takes no job */
		r = sl_partadmin_accepts(u->d, json_object_get_string(v), err);
	if (r == 0) {
		sl_update_set_str(&u->n->spec.partition, v);
		u->refit = u->requeue = 1;
	}
	return r;
}

static int f_qos(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);
	if (r == 0) {
		sl_update_set_str(&u->n->spec.qos, v);
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
	if ((r = sl_update_pending_only(u, err)) != 0)
		return r;
	u->n->spec.nodes = (int)n;
	if (u->n->spec.nodes_max != SL_NO_VAL && u->n->spec.nodes_max < n)
		u->n->spec.nodes_max = (int)n;
	u->refit = u->requeue = 1;
	return 0;
}

static int f_nodes_max(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);
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
	int r = sl_update_pending_only(u, err);
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
	int r = sl_update_pending_only(u, err);
	if (r == 0)
		r = sl_gates_depend(u->d, u->n, json_object_get_string(v), err);
	if (r == 0) {
		sl_update_set_str(&u->n->spec.dependency, v);
		u->requeue = 1;
	}
	return r;
}

/* StartTime=: the job's begin time (already a time: scontrol parsed it). */
static int f_begin(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t t = json_object_get_int64(v), now = (int64_t)time(NULL);
	int r = sl_update_pending_only(u, err);
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
	sl_update_set_str(&u->n->spec.name, v);
	if (u->n->spec.name == NULL)
		u->n->spec.name = sl_xstrdup("");
	u->renamed = 1;
	return 0;
}

static int f_comment(struct upd *u, json_object *v, struct sl_err *err)
{
	if (strlen(json_object_get_string(v)) > 1024)
		return sl_err_set(err, SL_EINVAL, "comment is longer than 1024 bytes");
	sl_update_set_str(&u->n->spec.comment, v);
	return 0;
}

/* WCKey=: while pending, as slurmctld (the key labels the job's usage). */
static int f_wckey(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);

	if (r == 0)
		sl_update_set_str(&u->n->spec.wckey, v);
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
	int r = sl_update_pending_only(u, err);

	if (r != 0)
		return r;
	sl_update_set_str(&u->n->spec.account, v);
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
	sl_update_set_str(&u->n->spec.mail_user, v);
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
	sl_update_set_str(&u->n->spec.work_dir, v);
	return 0;
}

/* StdOut= (and qalter's -e): the files open when the job starts. */
static int f_std_out(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);
	return r ? r : abs_path(u, &u->n->spec.std_out, v, "StdOut", err);
}

static int f_std_err(struct upd *u, json_object *v, struct sl_err *err)
{
	int r = sl_update_pending_only(u, err);

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
	int r = sl_update_pending_only(u, err);

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

/* scontrol's TasksPerNode=: an operator's, the task count kept (slurmctld
 * sets ntasks_per_node alone). */
static int f_tasks_per_node(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n;
	int r = sl_update_pending_only(u, err);

	if (r == 0 && !u->p->operator)
		r = sl_err_set(err, SL_EPERM, "Access/permission denied");
	if (r == 0)
		r = pending_count(u, v, 0, 65533, "Task count specification invalid", &n, err);
	if (r == 0) /* 0: none, as a job that never asked */
		u->n->spec.ntasks_per_node = n > 0 ? (int)n : SL_NO_VAL;
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

/* qalter's ompthreads (a new select's; SL_NO_VAL: none, the chunk's
 * ncpus): the job's OMP_NUM_THREADS, no resource, so no refit. */
static int f_omp_threads(struct upd *u, json_object *v, struct sl_err *err)
{
	int64_t n = json_object_get_int64(v);
	int r = sl_update_pending_only(u, err);

	if (r == 0 && (n < SL_NO_VAL || n > COUNT_MAX))
		r = sl_err_set(err, SL_EINVAL, "Invalid ompthreads value");
	if (r == 0)
		u->n->spec.omp_threads = (int)n;
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

const struct sl_update_field sl_update_fields[] = {
	{"time_limit", json_type_int, f_time_limit},
	{"time_limit_secs", json_type_int, f_time_limit_secs},
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
	{"omp_threads", json_type_int, f_omp_threads},
	{"tasks_per_node", json_type_int, f_tasks_per_node},
};
const size_t sl_update_nfields = sizeof(sl_update_fields) / sizeof(sl_update_fields[0]);
