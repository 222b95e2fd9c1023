/* h_submit.c - SUBMIT: the job spec goes through the submit policy
 * (libbatch/submit.c) with the caller's rights, gets an id and is stored.
 * The reply waits for the loop turn's commit, so a printed id is always
 * durable. */
#include "array.h"
#include "diag.h"
#include "limgate.h"
#include "buf.h"
#include "depend.h"
#include "handlers.h"
#include "idcache.h"
#include "exec.h"
#include "gates.h"
#include "jobtab.h"
#include "log.h"
#include "pam.h"
#include "partadmin.h"
#include "schedule.h"
#include "store.h"
#include "submit.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* sbatch --test-only: the job as it would be, not stored. Its start is
 * the engine's plan with it last in its queue (schedule.c), and with
 * backfill the longest --time that would start it now; Slurm's answer
 * when no start is known. An id is used up, as Slurm does. */
static int test_only(struct sluiced *d, struct sl_job *j, struct sl_buf *rep,
		     struct sl_err *err)
{
	struct sl_jobshape sh;
	json_object *o;
	uint64_t id = 0;
	struct sl_schedctl_trial tr;
	char *nodes;
	int r;

	struct sl_deplist deps = {0};

	/* the dependency's words are checked, not its jobs (Slurm's
	 * --test-only answers "afterok:999999" with a start) */
	if (j->spec.dependency != NULL && (r = sl_dep_parse(j->spec.dependency, 0, &deps, err)) != 0)
		return r;
	sl_deplist_clear(&deps);
	if ((r = sl_store_next_id(d->store, &id, err)) != 0)
		return r;
	j->id = id;
	if ((r = sl_schedctl_trial(d->sched, j, &tr, err)) != 0)
		return r;
	if (j->spec.begin_time > tr.start) /* --begin: not before it */
		tr.start = j->spec.begin_time;
	sl_jobspec_shape(&j->spec, &sh);
	/* the local executor's node is this host; Kubernetes picks nodes later */
	nodes = d->executor->reports_ready ? sl_xstrdup("n/a")
		: sh.nodes <= 1 ? sl_xstrdup(d->hostname)
				: sl_xasprintf("%s-[0-%d]", d->hostname, sh.nodes - 1);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64((int64_t)id));
	json_object_object_add(o, "start", json_object_new_int64(tr.start));
	if (tr.shorter > 0)
		json_object_object_add(o, "shorter_time", json_object_new_int64(tr.shorter));
	if (tr.other_start > 0) {
		json_object_object_add(o, "other_partition", json_object_new_string(tr.other));
		json_object_object_add(o, "other_start", json_object_new_int64(tr.other_start));
	}
	/* what it would be allocated: the whole node with --exclusive */
	json_object_object_add(o, "cpus", json_object_new_int(sh.cpus_per_node * sh.nodes));
	json_object_object_add(o, "nodes", json_object_new_string(nodes));
	json_object_object_add(o, "partition", json_object_new_string(j->spec.partition));
	sl_buf_addstr(rep, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	free(nodes);
	return 0;
}

/* A job array: N from the store's counter, then one record per task in
 * this one turn (array.h): a Slurm array's tasks take N+1..N+K-1 and its
 * last task N, a PBS array's N+1..N+K, each stored, gated and queued as a
 * job of its own; the reply is N. The records go out in the same commit,
 * so an acknowledged array is whole on disk. */
static int submit_array(struct sluiced *d, struct sl_job *j, const struct sl_array *a,
			struct sl_buf *rep, struct sl_err *err)
{
	char *spec = sl_store_spec_text(&j->spec); /* the tasks' one spec */
	size_t n = sl_array_count(a);
	uint64_t first = 0, id = 0;
	int r = sl_store_next_id(d->store, &first, err); /* N */

	sl_job_shed(j); /* the tasks are copies, without what only a launch reads */
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct sl_job *t;
		if (i + 1 == n && !j->spec.pbs)
			id = first; /* Slurm's meta record: the task started last */
		else if ((r = sl_store_next_id(d->store, &id, err)) != 0)
			break;
		t = sl_submit_array_task(j, a, i, first, id);
		if ((r = sl_store_insert_spec(d->store, t, spec, err)) == 0)
			r = sl_gates_queue(d, t, err);
		if (r == 0)
			sl_jobtab_add(d->jobs, t);
		else
			sl_job_free(t);
	}
	if (r == 0) {
		sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)first);
		sl_diag_job(d->diag, SL_DIAG_SUBMITTED, (uint32_t)n); /* each task, as Slurm */
	}
	free(spec);
	return r;
}

static int array_cb(const struct sl_job *j, void *arg)
{
	*(uint64_t *)arg = j->array_job_id;
	return 0;
}

/* The id sbatch printed for job id: its array's for an array's task (its
 * first task holds the submit key). */
static uint64_t array_of(struct sluiced *d, uint64_t id)
{
	const struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;
	uint64_t arr = 0;

	if (j != NULL)
		arr = j->array_job_id;
	else if (sl_store_job(d->store, id, array_cb, &arr, &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)id, err.msg);
	return arr != 0 ? arr : id;
}

/* The request is read from its text (job_parse.c) and the reply written as
 * text: no json-c tree per submission. */
int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	struct sl_peer who = *p;
	struct sl_array *arr = NULL;
	uint64_t had = 0;
	unsigned flags = 0;
	int r;

	if (d->stopping) {
		r = sl_err_set(err, SL_EBUSY, "sluiced is shutting down");
		goto out;
	}
	/* PAM's account stack first: a user it refuses learns nothing else. */
	if ((r = sl_pam_account(d->conf, p->user, d->hostname, err)) != 0)
		goto out;
	snprintf(who.group, sizeof(who.group), "%s", sl_idcache_group(d->ids, p->gid, time(NULL)));
	if ((r = sl_job_parse_submit(body, len, j, &flags, err)) != 0)
		goto out;
	/* sbatch sends the same key again when it lost the reply: the job it
	 * asked for may be taken already, and then it gets that job's id. */
	if (j->submit_key != NULL &&
	    (r = sl_store_find_key(d->store, p->uid, j->submit_key, &had, err)) != 0)
		goto out;
	if (had != 0) {
		had = array_of(d, had);
		sl_info("job %llu: submitted again with its key: the same job", (unsigned long long)had);
		sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)had);
		goto out;
	}
	if ((r = sl_submit_prepare(d->conf, sl_schedctl_engine(d->sched), &who, j, err)) != 0 ||
	    (r = sl_partadmin_accepts(d, j->spec.partition, err)) != 0) /* DRAIN, INACTIVE */
		goto out;
	if (d->executor->check != NULL && (r = d->executor->check(d->conf, &j->spec, err)) != 0)
		goto out;
	if ((r = sl_limgate_submit(d, j, err)) != 0) /* MaxSubmitJobsPerUser, ... */
		goto out;
	if (flags & SL_SUBMIT_TEST_ONLY) {
		r = test_only(d, j, rep, err);
		goto out;
	}
	if ((r = sl_store_room(d->store, err)) != 0) /* a full disk */
		goto out;
	j->submit_time = j->eligible_time = (int64_t)time(NULL);
	if ((r = sl_gates_submit(d, j, err)) != 0) /* -d, --begin (gates.c) */
		goto out;
	if ((r = sl_submit_array_tasks(d->conf, j, &arr, err)) != 0)
		goto out;
	if (arr != NULL) {
		if ((r = sl_store_begin(d->store, err)) == 0)
			r = submit_array(d, j, arr, rep, err);
		goto out;
	}
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_next_id(d->store, &j->id, err)) != 0 ||
	    (r = sl_store_insert(d->store, j, err)) != 0)
		goto out;
	sl_job_shed(j); /* stored; read back at launch (lifecycle.c) */
	if ((r = sl_gates_queue(d, j, err)) != 0) /* the engine, or the gates */
		goto out;
	sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)j->id);
	sl_diag_job(d->diag, SL_DIAG_SUBMITTED, 1);
	sl_jobtab_add(d->jobs, j);
	j = NULL;
out:
	sl_array_free(arr);
	sl_job_free(j);
	return r;
}
