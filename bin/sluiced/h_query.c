/* h_query.c - read-only requests: jobs (squeue/sacct/scontrol). */
#include "buf.h"
#include "handlers.h"
#include "jobtab.h"
#include "proto.h"
#include "schedule.h"
#include "store.h"
#include "xalloc.h"

#include <stdlib.h>
#include <time.h>

struct hist {
	const struct sl_dfilter *f;
	struct sl_buf *b;
	size_t n;
	struct sl_err *err;
};

static int too_big(struct hist *h)
{
	return sl_err_set(h->err, SL_ETOOBIG, "the list of %zu jobs and more is over the reply "
			  "limit of %u MiB; filter it (-u, -t, -p, -j)", h->n,
			  SL_PROTO_MAX_REPLY >> 20);
}

static int add_job(struct hist *h, const struct sl_job *j)
{
	if ((h->n > 0 && sl_buf_addc(h->b, ',') != 0) || sl_job_listing_append(h->b, j) != 0)
		return too_big(h);
	h->n++;
	return 0;
}

static int hist_cb(const struct sl_job *j, void *arg)
{
	struct hist *h = arg;
	return sl_dfilter_match(h->f, j) ? add_job(h, j) : 0;
}

/* Single-uid history queries go to SQL's index; the rest filters in C. */
static int64_t single_uid(const struct sl_dfilter *f)
{
	return f->n_uids == 1 ? f->uids[0] : -1;
}

/* {"jobs":[...],"now":T}, written as text (see job_listing.c). */
int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err)
{
	struct sl_dfilter f;
	json_object *fo = NULL;
	size_t n = sl_jobtab_count(d->jobs);
	struct hist h = {&f, rep, 0, err};
	int r;

	json_object_object_get_ex(req, "filter", &fo);
	if ((r = sl_dfilter_decode(fo, &f, err)) != 0)
		return r;
	sl_buf_addstr(rep, "{\"jobs\":[");
	if (f.history &&
	    (r = sl_store_history(d->store, single_uid(&f), f.start_after, f.end_before,
				  hist_cb, &h, err)) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* History already listed the finished ones from the store. */
		if (f.history && sl_jobstate_is_final(j->state))
			continue;
		if (!sl_dfilter_match(&f, j))
			continue;
		if (j->state == SL_JOB_PENDING)
			sl_schedctl_explain(d->sched, j);
		if ((r = add_job(&h, j)) != 0)
			goto out;
	}
	if (sl_buf_addf(rep, "],\"now\":%lld}", (long long)time(NULL)) != 0)
		r = too_big(&h);
out:
	sl_dfilter_clear(&f);
	return r;
}
