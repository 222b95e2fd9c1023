/* h_update.c - UPDATE (scontrol update JobId=N KEY=VALUE...): each field
 * of the request is applied by its row of update_fields.c's or
 * update_place.c's table, which say when it may change and who may.
 *
 * The fields are applied to a copy of the job; only when every one is
 * valid and the changed job still fits its partition does the copy take
 * the job's place, so a refused update changes nothing (Slurm applies
 * fields until the first refusal: Sluice does all or nothing). The spec is
 * rewritten in the store with the record, in the turn's transaction, and a
 * pending job goes back through the gates, which put it in the engine
 * again with what it now asks. */
#include "update_int.h"

#include <stdlib.h>
#include <string.h>

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

static const struct sl_update_field *find(const char *key)
{
	for (size_t i = 0; i < sl_update_nfields; i++)
		if (strcmp(key, sl_update_fields[i].key) == 0)
			return &sl_update_fields[i];
	for (size_t i = 0; i < sl_update_nplace; i++)
		if (strcmp(key, sl_update_place[i].key) == 0)
			return &sl_update_place[i];
	return NULL;
}

static int apply(struct upd *u, json_object *set, struct sl_err *err)
{
	int r;

	json_object_object_foreach(set, key, val) {
		const struct sl_update_field *f = find(key);
		if (f == NULL)
			return sl_err_set(err, SL_EINVAL, "Update of this parameter is not supported: %s",
					  key);
		if (!json_object_is_type(val, f->type))
			return sl_err_set(err, SL_EPROTO, "update: %s has the wrong type", key);
		if ((r = f->apply(u, val, err)) != 0)
			return r;
	}
	return 0;
}

/* What the copy asks still fits, and its priority from its QOS and nice. */
static int validate(struct upd *u, struct sl_err *err)
{
	struct sl_job *n = u->n;
	int r;

	if (u->check && u->d->executor->check != NULL &&
	    (r = u->d->executor->check(u->d->conf, &n->spec, err)) != 0)
		return r;
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
	struct upd u = {d, p, j, sl_job_copy(j), 0, 0, SL_TIME_UNSET, 0, 0};
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
	if (sl_h_target(d, req, id, &j)) {
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
