/* h_control.c - requests that change jobs: CANCEL (scancel) and CONTROL
 * (scontrol hold, uhold, release, requeue, requeuehold, top, suspend,
 * resume: a table of verbs, each with its rule). Who may act on which job
 * is authz.c's; what each verb does, lifecycle.c's. Errors are Slurm's
 * words without " for job N", which scontrol adds. */
#include "prio.h"
#include "authz.h"
#include "diag.h"
#include "exec.h"
#include "handlers.h"
#include "jobfilter.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "log.h"
#include "submit.h"
#include "xalloc.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void result(json_object *arr, uint64_t id, int code, const char *msg)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64((int64_t)id));
	if (code != 0) {
		json_object_object_add(o, "code", json_object_new_string(sl_errname(code)));
		json_object_object_add(o, "error", json_object_new_string(msg));
	}
	json_object_array_add(arr, o);
}

/* result() for job j, with the ids users know a task by; the entry
 * (borrowed from arr). */
static json_object *job_result(json_object *arr, const struct sl_job *j, int code,
			       const char *msg)
{
	json_object *last;

	result(arr, j->id, code, msg);
	last = json_object_array_get_idx(arr, json_object_array_length(arr) - 1);
	if (j->array_job_id != 0) {
		json_object_object_add(last, "array_job_id",
				       json_object_new_int64((int64_t)j->array_job_id));
		json_object_object_add(last, "array_task_id",
				       json_object_new_int(j->array_task_id));
	}
	return last;
}

/* What scancel's signal reaches (Slurm's job_mgr.c _job_signal): steps
 * without -b or --full, the batch script alone with -b, the script's
 * process group with --full. */
enum scope { SCOPE_STEPS = 0, SCOPE_BATCH, SCOPE_FULL };

/* SIGKILL ends the job unless it is for the batch script alone (a pending
 * job ends whatever the flags); another signal cannot reach a pending job;
 * without -b or --full it goes to the job's srun steps (none: no process),
 * as in Slurm. */
static int signal_one(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, int sig,
		      enum scope scope, struct sl_err *err)
{
	if (sig == 0 || (sig == SIGKILL && (scope != SCOPE_BATCH || j->state == SL_JOB_PENDING)))
		return sl_lifecycle_cancel(d, j, p->uid, err);
	if (j->state == SL_JOB_PENDING)
		return sl_err_set(err, SL_EBUSY, "Job can not be altered now, try again later");
	if (scope == SCOPE_STEPS)
		return sl_step_signal_all(d, p, j, sig, err);
	return sl_lifecycle_signal(d, j, scope == SCOPE_FULL ? sig | SL_SIGNAL_GROUP : sig, err);
}

static void cancel_one(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		       int sig, enum scope scope, json_object *arr)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_authz_job(p, j, sig ? SL_OP_SIGNAL : SL_OP_CANCEL, &err);

	if (r == 0 && sl_jobstate_is_final(j->state))
		r = sl_err_set(&err, SL_ESTATE, "Job/step already completing or completed");
	else if (r == 0)
		r = signal_one(d, p, j, sig, scope, &err);
	if (r == 0) /* slurmctld counts each scancel job_str_signal took */
		sl_diag_job(d->diag, SL_DIAG_CANCELED, 1);
	job_result(arr, j, r ? err.code : 0, err.msg);
}

/* Still in its array's pending meta record, as slurmctld keeps a task
 * until it first starts: pending, never ran, and never split off it (a
 * task held, released or updated by its own id is a record of its own,
 * which a cancel ends as any job). PBS keeps a deleted subjob (X in
 * qstat -t), so a qsub array's tasks never are. */
static int in_meta(const struct sl_job *t)
{
	return t->array_job_id != 0 && !t->spec.pbs && t->state == SL_JOB_PENDING &&
	       !sl_job_task_split(t) && !sl_job_ran(t);
}

static int array_waits(struct sluiced *d, uint64_t array_id)
{
	size_t n = sl_jobtab_count(d->jobs);
	for (size_t i = sl_jobtab_lower(d->jobs, array_id); i < n; i++) {
		const struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->array_job_id != array_id)
			break;
		if (in_meta(t))
			return 1;
	}
	return 0;
}

/* A task this cancel took out of its meta record; by_task: named by its
 * own N_I (scancel N_I, N_[A-B]), not by the array's N. */
struct gone {
	uint64_t id;
	int by_task;
};

static void save(struct sluiced *d, struct sl_job *t)
{
	struct sl_err e = SL_ERR_INIT;
	if (sl_lifecycle_save(d, t, &e) != 0)
		sl_warn("job %llu: %s", (unsigned long long)t->id, e.msg);
}

/* The meta record emptied by N_I cancels alone: slurmctld ends it with an
 * empty bitmap, and slurmdbd's row keeps the tasks it last sent, those
 * the earlier N_I cancels cleared included ("N_[1-3]", observed after
 * scancel N_1; N_2; N_3). So the tasks dropped before come back into the
 * record, ending when it ends. (Cancelled by N, the record keeps its
 * bitmap: "N_[2-3]" after scancel N_1; N, and the dropped stay out.) */
static void undrop(struct sluiced *d, uint64_t array_id, int64_t end_time)
{
	size_t n = sl_jobtab_count(d->jobs);
	for (size_t i = sl_jobtab_lower(d->jobs, array_id); i < n; i++) {
		struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->array_job_id != array_id)
			break;
		if (!t->array_dropped)
			continue;
		t->array_dropped = 0;
		t->end_time = end_time;
		save(d, t);
	}
}

/* slurmctld's job_str_signal clears cancelled tasks out of the meta record
 * and ends the record itself only when none is left; so the tasks of a
 * cancel that leaves others waiting vanish (squeue -t all, scontrol, sacct),
 * and those that empty it stay, as the CANCELLED record h_query.c folds.
 * g lists an array's tasks together (the table's order, ids N..N+K-1). */
static void drop_from_meta(struct sluiced *d, const struct gone *g, size_t n)
{
	for (size_t i = 0, k; i < n; i = k) {
		struct sl_job *first = sl_jobtab_get(d->jobs, g[i].id);
		uint64_t array_id = first ? first->array_job_id : 0;
		int waits = first != NULL && array_waits(d, array_id), by_task = 1;
		int64_t end = 0;

		for (k = i; k < n; k++) {
			struct sl_job *t = sl_jobtab_get(d->jobs, g[k].id);
			if (t == NULL || t->array_job_id != array_id)
				break;
			by_task &= g[k].by_task;
			end = t->end_time;
			if (!waits)
				continue;
			t->array_dropped = 1;
			save(d, t);
		}
		if (k == i) /* gone from the table: nothing to drop */
			k++;
		else if (!waits && by_task)
			undrop(d, array_id, end);
	}
}

/* 1 when j is named by its N_I in f's tasks (tf: f's tasks alone). */
static int named_by_task(const struct sl_jobfilter *tf, const struct sl_job *j)
{
	return tf->n_tasks > 0 && sl_jobfilter_match(tf, j);
}

static int flag(json_object *req, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(req, key, &v) && json_object_get_boolean(v);
}

int sl_h_cancel(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	struct sl_jobfilter f;
	json_object *fo = NULL, *v, *arr;
	enum scope scope;
	int sig = 0, r;
	size_t n, ngone = 0, cap = 0;
	struct gone *gone = NULL; /* pending tasks this cancel took out of their meta record */
	struct sl_jobfilter tf = {0}; /* f's tasks alone */

	json_object_object_get_ex(req, "filter", &fo);
	if (json_object_object_get_ex(req, "signal", &v))
		sig = json_object_get_int(v);
	if (sig < 0 || sig >= NSIG)
		return sl_err_set(err, SL_EINVAL, "Invalid signal %d", sig);
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0)
		return r;
	scope = flag(req, "full") ? SCOPE_FULL : flag(req, "batch") ? SCOPE_BATCH : SCOPE_STEPS;
	tf.tasks = f.tasks, tf.n_tasks = f.n_tasks;
	sl_jobfilter_index(&tf);
	arr = json_object_new_array();
	for (size_t i = 0; i < f.n_ids; i++)
		if (sl_jobtab_get(d->jobs, f.ids[i]) == NULL && !sl_h_is_array(d, f.ids[i]))
			result(arr, f.ids[i], SL_ENOENT, "Invalid job id specified");
	n = sl_jobtab_count(d->jobs);
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* Filters other than ids skip finished jobs, as Slurm does
		 * (and completing ones: finished there, flagged COMPLETING). */
		if (!sl_jobfilter_match(&f, j) ||
		    (f.n_ids + f.n_tasks == 0 && (sl_jobstate_is_final(j->state) ||
				      j->state == SL_JOB_COMPLETING)))
			continue;
		int was_meta = in_meta(j);
		cancel_one(d, p, j, sig, scope, arr);
		if (was_meta && j->state == SL_JOB_CANCELLED) {
			gone = sl_xgrow(gone, &cap, ngone + 1, sizeof(*gone));
			gone[ngone].id = j->id;
			gone[ngone++].by_task = named_by_task(&tf, j);
		}
	}
	drop_from_meta(d, gone, ngone);
	free(gone);
	sl_jobfilter_index_free(&tf);
	json_object_object_add(rep, "results", arr);
	sl_jobfilter_clear(&f);
	return 0;
}

/* ---- scontrol's verbs on one job ---- */

static int same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int finished(const struct sl_job *j, struct sl_err *err)
{
	return sl_jobstate_is_final(j->state)
		       ? sl_err_set(err, SL_ESTATE, "Job has already finished") : 0;
}

static int op_hold(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, struct sl_err *err)
{
	int r = finished(j, err);
	return r ? r : sl_lifecycle_hold(d, j, sl_authz_hold_admin(p, j), err);
}

/* A user's hold, whoever sets it; an operator's stays one. */
static int op_uhold(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, struct sl_err *err)
{
	int r = finished(j, err);
	int admin = j->spec.hold && j->reason && strcmp(j->reason, "JobHeldAdmin") == 0 &&
		    !p->operator;
	return r ? r : sl_lifecycle_hold(d, j, admin, err);
}

static int op_release(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		      struct sl_err *err)
{
	int r = finished(j, err);
	if (r != 0 || !j->spec.hold)
		return r; /* Slurm: releasing a job that is not held is silent */
	if (j->state == SL_JOB_PENDING)
		return sl_lifecycle_release(d, j, err);
	j->spec.hold = 0; /* held while it ran: the hold goes, the job runs on */
	free(j->reason);
	j->reason = sl_xstrdup("None");
	if (j->state != SL_JOB_SUSPENDED && (r = sl_submit_priority(d->conf, j, err)) != 0)
		return r;
	return sl_lifecycle_save(d, j, err);
}

static int op_requeue(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		      struct sl_err *err)
{
	return sl_lifecycle_requeue(d, j, 0, err);
}

/* Slurm's requeue hold is the owner's to release, whoever set it. */
static int op_requeuehold(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
			  struct sl_err *err)
{
	return sl_lifecycle_requeue(d, j, 1, err);
}

/* First among the pending jobs of its user, partition, account and QOS
 * (Slurm's rule): a priority one above the highest of theirs. */
static int op_top(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		  struct sl_err *err)
{
	int64_t best = INT64_MIN;

	if (j->state != SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is no longer pending execution");
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *o = sl_jobtab_at(d->jobs, i);
		if (o != j && o->state == SL_JOB_PENDING && o->uid == j->uid && !o->spec.hold &&
		    same(o->spec.partition, j->spec.partition) &&
		    same(o->spec.account, j->spec.account) && same(o->spec.qos, j->spec.qos) &&
		    o->priority > best)
			best = o->priority;
	}
	if (best == INT64_MIN || j->priority > best)
		return 0;
	return sl_update_priority(d, j, best + 1 + j->spec.nice + SL_PRIO_SITE, err);
}

static int op_suspend(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		      struct sl_err *err)
{
	return sl_lifecycle_suspend(d, j, err);
}

static int op_resume(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		     struct sl_err *err)
{
	return sl_lifecycle_resume(d, j, err);
}

static const struct {
	const char *name;
	enum sl_op rule; /* authz.c's */
	int (*fn)(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, struct sl_err *err);
	int splits; /* on one pending task: it leaves its meta record */
	int whole;  /* on an array, its privilege is checked once, before its
		     * tasks: slurmctld's job_suspend2 answers once */
} verbs[] = {
	{"hold", SL_OP_HOLD, op_hold, 1, 0},
	{"uhold", SL_OP_HOLD, op_uhold, 1, 0},
	{"release", SL_OP_RELEASE, op_release, 1, 0},
	{"requeue", SL_OP_REQUEUE, op_requeue, 0, 0},
	{"requeuehold", SL_OP_REQUEUE, op_requeuehold, 0, 0},
	{"top", SL_OP_TOP, op_top, 0, 0},
	{"suspend", SL_OP_SUSPEND, op_suspend, 0, 1},
	{"resume", SL_OP_SUSPEND, op_resume, 0, 1},
};

int sl_h_is_array(struct sluiced *d, uint64_t id)
{
	const struct sl_job *t = sl_jobtab_at(d->jobs, sl_jobtab_lower(d->jobs, id));
	return t != NULL && t->array_job_id == id;
}

int sl_h_target(struct sluiced *d, json_object *req, uint64_t id, struct sl_job **j)
{
	json_object *v;
	size_t n = sl_jobtab_count(d->jobs);

	*j = NULL;
	if (!json_object_object_get_ex(req, "task", &v)) {
		if (sl_h_is_array(d, id))
			return 1;
		*j = sl_jobtab_get(d->jobs, id);
		return 0;
	}
	for (size_t i = sl_jobtab_lower(d->jobs, id); i < n; i++) {
		struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->array_job_id != id)
			break;
		if ((int64_t)t->array_task_id == json_object_get_int64(v)) {
			*j = t;
			break;
		}
	}
	return 0;
}

void sl_h_split_task(struct sl_job *j)
{
	if (j->array_job_id != 0 && j->state == SL_JOB_PENDING)
		j->array_split = 1;
}

/* slurmctld's update_job (scontrol update, hold, uhold and release) says
 * an ended task has finished before it asks whose it is; requeue asks
 * whose first. */
static int finished_first(enum sl_op rule)
{
	return rule == SL_OP_UPDATE || rule == SL_OP_HOLD || rule == SL_OP_RELEASE;
}

int sl_h_array_each(struct sluiced *d, const struct sl_peer *p, uint64_t id, enum sl_op rule,
		    sl_h_task_fn fn, void *arg, json_object *each, struct sl_err *err)
{
	struct sl_err first = SL_ERR_INIT;
	size_t n = sl_jobtab_count(d->jobs);
	int done = 0, r = 0;

	for (size_t i = sl_jobtab_lower(d->jobs, id); i < n; i++) {
		struct sl_job *t = sl_jobtab_at(d->jobs, i);
		struct sl_err e = SL_ERR_INIT;
		int rc, ended;
		if (t->array_job_id != id)
			break;
		ended = sl_jobstate_is_final(t->state); /* before fn: requeue revives one */
		if (each != NULL ? t->array_dropped : ended)
			continue;
		if (ended && finished_first(rule))
			rc = sl_err_set(&e, SL_ESTATE, "Job has already finished");
		else if ((rc = sl_authz_job(p, t, rule, &e)) == 0)
			rc = fn(d, p, t, arg, &e);
		if (each != NULL) {
			json_object *o = job_result(each, t, rc ? e.code : 0, e.msg);
			if (ended)
				json_object_object_add(o, "ended", json_object_new_boolean(1));
		}
		if (ended)
			continue; /* asked for its own answer only */
		if (rc == 0)
			done = 1;
		else if (r == 0 || (r == -SL_ESTATE && rc != -SL_ESTATE)) {
			r = rc;
			first = e;
		}
	}
	if (!done && r == 0)
		return sl_err_set(err, SL_ESTATE, "Job has already finished");
	if (r == 0 || (done && r == -SL_ESTATE))
		return 0;
	return sl_err_set(err, first.code ? first.code : -r, "%s", first.msg);
}

static int verb_fn(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, void *arg,
		   struct sl_err *err)
{
	return verbs[*(size_t *)arg].fn(d, p, j, err);
}

int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err)
{
	json_object *v;
	const char *op;
	struct sl_job *j;
	unsigned long long id;
	size_t i;
	int r;

	if (!json_object_object_get_ex(req, "op", &v) || !json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "control: op is missing");
	op = json_object_get_string(v);
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]) && strcmp(op, verbs[i].name) != 0; i++)
		;
	if (i == sizeof(verbs) / sizeof(verbs[0]))
		return sl_err_set(err, SL_EINVAL, "control: unknown op \"%s\"", op);
	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "control: id is missing");
	id = (unsigned long long)json_object_get_int64(v);
	/* With "each" an array's tasks answer one by one, and the request
	 * succeeds as a whole; without, the array answers once (a client
	 * that does not ask reads that) */
	if (sl_h_target(d, req, id, &j)) {
		struct sl_err whole = SL_ERR_INIT;
		json_object *each;
		if (verbs[i].whole && (r = sl_authz_job(p, sl_jobtab_at(d->jobs,
						sl_jobtab_lower(d->jobs, id)), verbs[i].rule, err)) != 0)
			return r;
		if (!flag(req, "each"))
			return sl_h_array_each(d, p, id, verbs[i].rule, verb_fn, &i, NULL, err);
		each = json_object_new_array();
		sl_h_array_each(d, p, id, verbs[i].rule, verb_fn, &i, each, &whole);
		json_object_object_add(rep, "results", each);
		return 0;
	}
	if (j == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified");
	if ((r = sl_authz_job(p, j, verbs[i].rule, err)) != 0)
		return r;
	if (verbs[i].splits)
		sl_h_split_task(j);
	return verbs[i].fn(d, p, j, err);
}
