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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* sacct -D: each run a requeue ended (j->runs), as a REQUEUED record of
 * its own, before the job's. */
static int add_runs(struct hist *h, const struct sl_jobfilter *f, const struct sl_job *j)
{
	const char *p = j->runs;
	int r = 0;

	while (r == 0 && p != NULL && *p != '\0') {
		long long sub, st, en;
		int ec, sig, cpus, used = 0;
		char nodes[1024];
		if (sscanf(p, "%lld %lld %lld %d %d %d %1023s%n", &sub, &st, &en, &ec, &sig, &cpus,
			   nodes, &used) == 7 && (f->start_after == 0 || en >= f->start_after) &&
		    (f->end_before == 0 || st <= f->end_before)) {
			struct sl_job *c = sl_job_copy(j);
			c->state = SL_JOB_REQUEUED;
			c->submit_time = sub;
			c->start_time = st;
			c->end_time = en;
			c->exit_code = ec;
			c->exit_signal = sig;
			c->alloc_cpus = cpus;
			free(c->nodelist);
			c->nodelist = strcmp(nodes, "None") == 0 ? NULL : sl_xstrdup(nodes);
			free(c->runs);
			c->runs = NULL;
			if (sl_jobfilter_match(f, c))
				r = add_job(h, c);
			sl_job_free(c);
		}
		p = strchr(p, ';');
		p = p ? p + 1 : NULL;
	}
	return r;
}

struct hist_arg {
	struct hist *h;
	const struct sl_jobfilter *f;
};

static int hist_cb(const struct sl_job *j, void *arg)
{
	struct hist_arg *a = arg;
	int r = a->f->duplicates ? add_runs(a->h, a->f, j) : 0;
	return r ? r : add_job(a->h, j);
}

/* {"jobs":[...],"now":T}, written as text (see job_text.c). */
int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err)
{
	struct sl_jobfilter f;
	json_object *fo = NULL;
	size_t n = sl_jobtab_count(d->jobs);
	struct hist h = {rep, 0, p, err};
	struct hist_arg ha = {&h, &f};
	int r;

	json_object_object_get_ex(req, "filter", &fo);
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0)
		return r;
	sl_buf_addstr(rep, "{\"jobs\":[");
	if (f.history && (r = sl_store_history(d->store, &f, hist_cb, &ha, err)) != 0)
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
		if (f.history && f.duplicates && (r = add_runs(&h, &f, j)) != 0)
			goto out;
		/* A pending job's StartTime is its expected start, as in Slurm
		 * (squeue --start, %S, scontrol): the plan's, else its --begin;
		 * sacct's history keeps Unknown. Only the listing carries it:
		 * nothing stores it. */
		int64_t started = j->start_time;
		if (j->state == SL_JOB_PENDING && !f.history) {
			j->start_time = sl_schedctl_start_estimate(d->sched, j);
			if (j->start_time == 0 && j->eligible_time > (int64_t)time(NULL))
				j->start_time = j->eligible_time;
		}
		r = add_job(&h, j);
		j->start_time = started;
		if (r != 0)
			goto out;
	}
	if (sl_buf_addf(rep, "],\"now\":%lld}", (long long)time(NULL)) != 0)
		r = too_big(&h);
out:
	sl_jobfilter_clear(&f);
	return r;
}
