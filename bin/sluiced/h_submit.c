/* h_submit.c - SUBMIT: the job spec goes through the submit policy
 * (libbatch/submit.c) with the caller's rights, gets an id and is stored.
 * The reply waits for the loop turn's commit, so a printed id is always
 * durable. */
#include "buf.h"
#include "handlers.h"
#include "idcache.h"
#include "exec.h"
#include "gates.h"
#include "jobtab.h"
#include "log.h"
#include "pam.h"
#include "schedule.h"
#include "store.h"
#include "submit.h"

#include <stdio.h>
#include <time.h>

/* The request is read from its text (job_parse.c) and the reply written as
 * text: no json-c tree per submission. */
int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	struct sl_peer who = *p;
	uint64_t had = 0;
	int r;

	if (d->stopping) {
		r = sl_err_set(err, SL_EBUSY, "sluiced is shutting down");
		goto out;
	}
	/* PAM's account stack first: a user it refuses learns nothing else. */
	if ((r = sl_pam_account(d->conf, p->user, d->hostname, err)) != 0)
		goto out;
	snprintf(who.group, sizeof(who.group), "%s", sl_idcache_group(d->ids, p->gid, time(NULL)));
	if ((r = sl_job_parse_request(body, len, j, err)) != 0)
		goto out;
	/* sbatch sends the same key again when it lost the reply: the job it
	 * asked for may be taken already, and then it gets that job's id. */
	if (j->submit_key != NULL &&
	    (r = sl_store_find_key(d->store, p->uid, j->submit_key, &had, err)) != 0)
		goto out;
	if (had != 0) {
		sl_info("job %llu: submitted again with its key: the same job", (unsigned long long)had);
		sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)had);
		goto out;
	}
	if ((r = sl_submit_prepare(d->conf, sl_schedctl_engine(d->sched), &who, j, err)) != 0)
		goto out;
	if (d->executor->check != NULL && (r = d->executor->check(d->conf, &j->spec, err)) != 0)
		goto out;
	if ((r = sl_store_room(d->store, err)) != 0) /* a full disk */
		goto out;
	j->submit_time = j->eligible_time = (int64_t)time(NULL);
	if ((r = sl_gates_submit(d, j, err)) != 0) /* -d, --begin (gates.c) */
		goto out;
	if ((r = sl_store_begin(d->store, err)) != 0 ||
	    (r = sl_store_next_id(d->store, &j->id, err)) != 0 ||
	    (r = sl_store_insert(d->store, j, err)) != 0)
		goto out;
	sl_job_shed(j); /* stored; read back at launch (lifecycle.c) */
	if ((r = sl_gates_queue(d, j, err)) != 0) /* the engine, or the gates */
		goto out;
	sl_buf_addf(rep, "{\"id\":%llu}", (unsigned long long)j->id);
	sl_jobtab_add(d->jobs, j);
	j = NULL;
out:
	sl_job_free(j);
	return r;
}
