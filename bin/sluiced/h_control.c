/* h_control.c - requests that change jobs: CANCEL (scancel) and CONTROL
 * (scontrol hold/release/requeue). Users act on their own jobs; operators
 * and root act on all. */
#include "handlers.h"
#include "jobfilter.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "xalloc.h"

#include <signal.h>
#include <stdio.h>
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

static int owns(const struct sl_peer *p, const struct sl_job *j)
{
	return p->operator || p->uid == j->uid;
}

static void cancel_one(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		       int sig, json_object *arr)
{
	struct sl_err err = SL_ERR_INIT;
	int r;

	if (!owns(p, j)) {
		result(arr, j->id, SL_EPERM, "Access/permission denied");
		return;
	}
	if (sl_jobstate_is_final(j->state)) {
		result(arr, j->id, SL_ESTATE, "Job/step already completing or completed");
		return;
	}
	if (sig == 0)
		r = sl_lifecycle_cancel(d, j, p->uid, &err);
	else
		r = sl_lifecycle_signal(d, j, sig, &err);
	result(arr, j->id, r ? err.code : 0, err.msg);
}

int sl_h_cancel(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	struct sl_jobfilter f;
	json_object *fo = NULL, *v, *arr;
	int sig = 0, r;
	size_t n;

	json_object_object_get_ex(req, "filter", &fo);
	if (json_object_object_get_ex(req, "signal", &v))
		sig = json_object_get_int(v);
	if (sig < 0 || sig >= NSIG)
		return sl_err_set(err, SL_EINVAL, "Invalid signal %d", sig);
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0)
		return r;
	arr = json_object_new_array();
	for (size_t i = 0; i < f.n_ids; i++)
		if (sl_jobtab_get(d->jobs, f.ids[i]) == NULL)
			result(arr, f.ids[i], SL_ENOENT, "Invalid job id specified");
	n = sl_jobtab_count(d->jobs);
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* Filters other than ids skip finished jobs, as Slurm does. */
		if (!sl_jobfilter_match(&f, j) ||
		    (f.n_ids == 0 && sl_jobstate_is_final(j->state)))
			continue;
		cancel_one(d, p, j, sig, arr);
	}
	json_object_object_add(rep, "results", arr);
	sl_jobfilter_clear(&f);
	return 0;
}

static int hold(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		struct sl_err *err)
{
	if (j->state != SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is no longer pending execution for job %llu",
				  (unsigned long long)j->id);
	return sl_lifecycle_hold(d, j, p->operator && p->uid != j->uid, err);
}

static int release(struct sluiced *d, const struct sl_peer *p, struct sl_job *j,
		   struct sl_err *err)
{
	if (j->state != SL_JOB_PENDING || !j->spec.hold)
		return 0; /* Slurm: releasing a job that is not held is silent */
	if (j->reason && strcmp(j->reason, "JobHeldAdmin") == 0 && !p->operator)
		return sl_err_set(err, SL_EPERM, "Access/permission denied for job %llu",
				  (unsigned long long)j->id);
	return sl_lifecycle_release(d, j, err);
}

int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err)
{
	json_object *v;
	const char *op;
	struct sl_job *j;
	uint64_t id;

	if (!json_object_object_get_ex(req, "op", &v) || !json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "control: op is missing");
	op = json_object_get_string(v);
	if (!json_object_object_get_ex(req, "id", &v) || !json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "control: id is missing");
	id = (uint64_t)json_object_get_int64(v);
	if ((j = sl_jobtab_get(d->jobs, id)) == NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid job id specified for job %llu",
				  (unsigned long long)id);
	if (!owns(p, j))
		return sl_err_set(err, SL_EPERM, "Invalid user id for job %llu",
				  (unsigned long long)id);
	if (strcmp(op, "hold") == 0)
		return hold(d, p, j, err);
	if (strcmp(op, "release") == 0)
		return release(d, p, j, err);
	if (strcmp(op, "requeue") == 0) {
		if (j->state == SL_JOB_PENDING)
			return sl_err_set(err, SL_ESTATE, "Job is pending execution for job %llu",
					  (unsigned long long)id);
		return sl_lifecycle_requeue(d, j, err);
	}
	return sl_err_set(err, SL_EINVAL, "control: unknown op \"%s\"", op);
}
