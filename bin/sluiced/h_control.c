/* h_control.c - requests that change jobs: CANCEL (scancel) and CONTROL
 * (scontrol hold/release/requeue). Who may act on which job is authz.c's. */
#include "authz.h"
#include "exec.h"
#include "handlers.h"
#include "jobfilter.h"
#include "jobtab.h"
#include "lifecycle.h"

#include <signal.h>
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

/* What scancel's signal reaches (Slurm's job_mgr.c _job_signal): steps
 * without -b or --full, the batch script alone with -b, the script's
 * process group with --full. */
enum scope { SCOPE_STEPS = 0, SCOPE_BATCH, SCOPE_FULL };

/* SIGKILL ends the job unless it is for the batch script alone (a pending
 * job ends whatever the flags); another signal cannot reach a pending job;
 * without -b or --full it goes to the job's steps, and a Sluice job has
 * none yet (srun comes later), so it reaches no process, as in Slurm. */
static int signal_one(struct sluiced *d, const struct sl_peer *p, struct sl_job *j, int sig,
		      enum scope scope, struct sl_err *err)
{
	if (sig == 0 || (sig == SIGKILL && (scope != SCOPE_BATCH || j->state == SL_JOB_PENDING)))
		return sl_lifecycle_cancel(d, j, p->uid, err);
	if (j->state == SL_JOB_PENDING)
		return sl_err_set(err, SL_EBUSY, "Job can not be altered now, try again later");
	if (scope == SCOPE_STEPS)
		return 0;
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
	result(arr, j->id, r ? err.code : 0, err.msg);
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
	size_t n;

	json_object_object_get_ex(req, "filter", &fo);
	if (json_object_object_get_ex(req, "signal", &v))
		sig = json_object_get_int(v);
	if (sig < 0 || sig >= NSIG)
		return sl_err_set(err, SL_EINVAL, "Invalid signal %d", sig);
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0)
		return r;
	scope = flag(req, "full") ? SCOPE_FULL : flag(req, "batch") ? SCOPE_BATCH : SCOPE_STEPS;
	arr = json_object_new_array();
	for (size_t i = 0; i < f.n_ids; i++)
		if (sl_jobtab_get(d->jobs, f.ids[i]) == NULL)
			result(arr, f.ids[i], SL_ENOENT, "Invalid job id specified");
	n = sl_jobtab_count(d->jobs);
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* Filters other than ids skip finished jobs, as Slurm does
		 * (and completing ones: finished there, flagged COMPLETING). */
		if (!sl_jobfilter_match(&f, j) ||
		    (f.n_ids == 0 && (sl_jobstate_is_final(j->state) ||
				      j->state == SL_JOB_COMPLETING)))
			continue;
		cancel_one(d, p, j, sig, scope, arr);
	}
	json_object_object_add(rep, "results", arr);
	sl_jobfilter_clear(&f);
	return 0;
}

int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err)
{
	json_object *v;
	const char *op;
	struct sl_job *j;
	unsigned long long id;
	enum sl_op o;
	int r;

	if (!json_object_object_get_ex(req, "op", &v) || !json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "control: op is missing");
	op = json_object_get_string(v);
	o = strcmp(op, "hold") == 0 ? SL_OP_HOLD : strcmp(op, "release") == 0 ? SL_OP_RELEASE
	    : strcmp(op, "requeue") == 0 ? SL_OP_REQUEUE : SL_OP_COUNT;
	if (o == SL_OP_COUNT)
		return sl_err_set(err, SL_EINVAL, "control: unknown op \"%s\"", op);
	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "control: id is missing");
	id = (unsigned long long)json_object_get_int64(v);
	if ((j = sl_jobtab_get(d->jobs, id)) == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified for job %llu", id);
	if ((r = sl_authz_job(p, j, o, err)) != 0)
		return r;
	if (o == SL_OP_HOLD && j->state != SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is no longer pending execution for job %llu",
				  id);
	if (o == SL_OP_HOLD)
		return sl_lifecycle_hold(d, j, sl_authz_hold_admin(p, j), err);
	if (o == SL_OP_RELEASE && (j->state != SL_JOB_PENDING || !j->spec.hold))
		return 0; /* Slurm: releasing a job that is not held is silent */
	if (o == SL_OP_RELEASE)
		return sl_lifecycle_release(d, j, err);
	if (j->state == SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is pending execution for job %llu", id);
	return sl_lifecycle_requeue(d, j, err);
}
