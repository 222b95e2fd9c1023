/* h_query.c - read-only requests: jobs (squeue/sacct/scontrol). */
#include "authz.h"
#include "buf.h"
#include "handlers.h"
#include "jobfilter.h"
#include "jobtab.h"
#include "proto.h"
#include "schedule.h"
#include "store.h"
#include "xalloc.h"

#include <stdlib.h>
#include <time.h>

struct hist {
	struct sl_buf *b;
	size_t n;
	const struct sl_peer *who; /* what of each job they may see */
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
	enum sl_job_view v = sl_authz_job(h->who, j, SL_OP_SEE_PRIVATE, NULL) == 0
			     ? SL_VIEW_OWNER : SL_VIEW_OTHERS;

	if ((h->n > 0 && sl_buf_addc(h->b, ',') != 0) || sl_job_listing_append_view(h->b, j, v) != 0)
		return too_big(h);
	h->n++;
	return 0;
}

static int hist_cb(const struct sl_job *j, void *arg)
{
	return add_job(arg, j);
}

/* {"jobs":[...],"now":T}, written as text (see job_text.c). */
int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err)
{
	struct sl_jobfilter f;
	json_object *fo = NULL;
	size_t n = sl_jobtab_count(d->jobs);
	struct hist h = {rep, 0, p, err};
	int r;

	json_object_object_get_ex(req, "filter", &fo);
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0)
		return r;
	sl_buf_addstr(rep, "{\"jobs\":[");
	if (f.history && (r = sl_store_history(d->store, &f, hist_cb, &h, err)) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* History already listed the finished ones from the store. */
		if (f.history && sl_jobstate_is_final(j->state))
			continue;
		if (!sl_jobfilter_match(&f, j))
			continue;
		if (j->state == SL_JOB_PENDING)
			sl_schedctl_explain(d->sched, j);
		if ((r = add_job(&h, j)) != 0)
			goto out;
	}
	if (sl_buf_addf(rep, "],\"now\":%lld}", (long long)time(NULL)) != 0)
		r = too_big(&h);
out:
	sl_jobfilter_clear(&f);
	return r;
}
