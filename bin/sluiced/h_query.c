/* h_query.c - read-only requests: jobs (squeue/sacct/scontrol). */
#include "array.h"
#include "authz.h"
#include "buf.h"
#include "handlers.h"
#include "jobfilter.h"
#include "job_proj.h"
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
	const struct sl_jobproj *proj; /* the members asked for; NULL: all */
	struct sl_store *store;        /* the script and environment the jobs shed */
};

static int too_big(struct hist *h)
{
	return sl_err_set(h->err, SL_ETOOBIG, "the list of %zu jobs and more is over the reply "
			  "limit of %u MiB; filter it (-u, -t, -p, -j)", h->n,
			  SL_PROTO_MAX_REPLY >> 20);
}

/* The owner asked for the script or environment (scontrol write
 * batch_script, sacct -B/-E): the daemon keeps them in the store only
 * (sl_job_shed), so a copy of the record gets them back for the listing. */
static struct sl_job *with_shed(const struct hist *h, const struct sl_job *j)
{
	struct sl_jobspec sp;
	struct sl_err e = SL_ERR_INIT;
	struct sl_job *c;

	if (h->proj == NULL || h->store == NULL || (j->spec.script && *j->spec.script) ||
	    !(sl_jobproj_has(h->proj, SL_JP_SPEC_script) || sl_jobproj_has(h->proj, SL_JP_SPEC_env)))
		return NULL;
	if (sl_store_load_spec(h->store, j->id, &sp, &e) != 0)
		return NULL;
	c = sl_job_copy(j);
	sl_job_refill(c, &sp);
	sl_jobspec_clear(&sp);
	return c;
}

static int add_job(struct hist *h, const struct sl_job *j)
{
	enum sl_job_view v = sl_authz_job(h->who, j, SL_OP_SEE_PRIVATE, NULL) == 0
			     ? SL_VIEW_OWNER : SL_VIEW_OTHERS;
	struct sl_job *full = v == SL_VIEW_OWNER ? with_shed(h, j) : NULL;
	int r = 0;

	if ((h->n > 0 && sl_buf_addc(h->b, ',') != 0) ||
	    sl_job_listing_append_proj(h->b, full ? full : j, v, h->proj) != 0)
		r = too_big(h);
	else
		h->n++;
	sl_job_free(full);
	return r;
}

static int is_none(const char *s, size_t len)
{
	return len == 4 && strncmp(s, "None", 4) == 0;
}

/* The REQUEUED record of run, one of j's: slurmdbd's record of that run
 * keeps its own submit and eligible times, priority and reason, which
 * later requeues and holds of the job do not touch. Caller frees. */
static struct sl_job *run_record(const struct sl_job *j, const struct sl_job_run *run)
{
	struct sl_job *c = sl_job_copy(j);

	c->state = SL_JOB_REQUEUED;
	c->submit_time = run->submit;
	c->eligible_time = run->eligible;
	c->spec.hold = 0; /* a hold since is the job's pending record's */
	if (run->priority >= 0)
		c->priority = run->priority;
	c->start_time = run->start;
	c->end_time = run->end;
	c->exit_code = run->exit_code;
	c->exit_signal = run->exit_signal;
	c->alloc_cpus = run->cpus;
	free(c->nodelist);
	c->nodelist = is_none(run->nodes, run->nodes_len) ? NULL
							  : sl_xstrndup(run->nodes, run->nodes_len);
	free(c->runs);
	c->runs = NULL;
	free(c->start_reason); /* the reason it waited for before that run */
	c->start_reason = run->reason_len == 0 || is_none(run->reason, run->reason_len)
				  ? NULL : sl_xstrndup(run->reason, run->reason_len);
	return c;
}

/* Each run a requeue ended (j->runs), as a REQUEUED record of its own,
 * before the job's: sacct -D lists them, and sacct without -D picks each
 * job's newest record of those its window holds (sl_sacct_select). */
static int add_runs(struct hist *h, const struct sl_jobfilter *f, const struct sl_job *j)
{
	const char *p = j->runs;
	int r = 0;

	while (r == 0 && p != NULL && *p != '\0') {
		struct sl_job_run run;
		if (sl_job_run_parse(p, &run) == 0 &&
		    (f->start_after == 0 || run.end >= f->start_after) &&
		    (f->end_before == 0 || run.start <= f->end_before)) {
			struct sl_job *c = run_record(j, &run);
			if (sl_jobfilter_match(f, c))
				r = add_job(h, c);
			sl_job_free(c);
		}
		p = strchr(p, ';');
		p = p ? p + 1 : NULL;
	}
	return r;
}

/* ---- an array's pending tasks folded (filter.fold) ---- */

/* The groups of the array being listed already written as one record:
 * tasks of one array are one run of ids, so the groups of the array at
 * hand are enough (a group is a name and a partition; there is more than
 * one only after scontrol update). Each group's meta is its last pending task: Slurm's
 * pending meta record holds the tasks it never split off, and gives up
 * its last one last. */
struct fold {
	uint64_t array;
	const struct sl_job **meta; /* a group's meta, which names its group */
	size_t n, cap;
};

static int same_str(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int same_group(const struct sl_job *a, const struct sl_job *b)
{
	return a->array_job_id == b->array_job_id && same_str(a->spec.name, b->spec.name) &&
	       same_str(a->spec.partition, b->spec.partition);
}

/* A task Slurm would have split off its meta record: updated, held or
 * released on its own, or requeued. squeue folds it back in (its reason
 * joins the meta's), squeue -r lists it on its own, with its own fields. */
static int split_off(const struct sl_job *t, const struct sl_job *meta)
{
	return t != meta && (t->spec.hold != meta->spec.hold || sl_job_task_split(t));
}

/* A task the meta record still holds: the meta is the last of these. */
static int unsplit(const struct sl_job *t)
{
	return !sl_job_task_split(t);
}
/* j's group's meta when the group was written, else NULL. */
static const struct sl_job *folded(struct fold *fo, const struct sl_job *j)
{
	if (fo->array != j->array_job_id) {
		fo->array = j->array_job_id;
		fo->n = 0;
	}
	for (size_t i = 0; i < fo->n; i++)
		if (same_group(fo->meta[i], j))
			return fo->meta[i];
	return NULL;
}

/* Append to *merged the reason of split task t unless it is there
 * (squeue's _merge_job_reason). */
static void merge_reason(char **merged, const struct sl_job *t)
{
	const char *r = t->reason ? t->reason : "None";
	char *m;

	if (strstr(*merged, r) != NULL)
		return;
	m = sl_xasprintf("%s,%s", *merged, r);
	free(*merged);
	*merged = m;
}

/* The group's tasks each alone, those a folded listing would have merged:
 * with fold 2 or 3 the tasks split off are listed at their own turn. */
static int add_each(struct sluiced *d, struct hist *h, const struct sl_jobfilter *f,
		    const struct sl_job *meta, size_t i, size_t end)
{
	int r = 0;
	for (; i < end && r == 0; i++) {
		struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->state != SL_JOB_PENDING || !same_group(t, meta) || !sl_jobfilter_match(f, t) ||
		    (f->fold > 1 && split_off(t, meta)))
			continue;
		sl_schedctl_explain(d->sched, t);
		r = add_job(h, t);
	}
	return r;
}

/* The group of pending task i of the table, written as one record: the
 * meta's fields (its first task never split off) with the group's tasks'
 * text and the meta's reason (with those of tasks split off, when they
 * fold in: fold 1). */
static int add_folded(struct sluiced *d, struct hist *h, const struct sl_jobfilter *f,
		      struct fold *fo, size_t i)
{
	struct sl_job *head = NULL, *meta = sl_jobtab_at(d->jobs, i), *t;
	size_t n = sl_jobtab_count(d->jobs), k = 0, cap = 0, end = i, nmeta = 0;
	uint32_t throttle = (uint32_t)meta->array_throttle;
	char *reason = NULL, *text = NULL, *merged;
	uint32_t *ids = NULL;
	int r;

	/* the last pending task, one still in the meta record if there is one */
	for (; end < n && (t = sl_jobtab_at(d->jobs, end))->array_job_id == meta->array_job_id; end++)
		if (t->state == SL_JOB_PENDING && same_group(t, meta) && sl_jobfilter_match(f, t) &&
		    (unsplit(t) || !unsplit(meta))) {
			meta = t;
			nmeta += unsplit(t);
		}
	fo->meta = sl_xgrow(fo->meta, &fo->cap, fo->n + 1, sizeof(*fo->meta));
	fo->meta[fo->n++] = meta;
	/* down to one task, Slurm's meta record is that task's own */
	if (!sl_array_meta_bitmap(meta->spec.array, meta->array_task_id, nmeta))
		return add_each(d, h, f, meta, i, end);
	sl_schedctl_explain(d->sched, meta);
	merged = sl_xstrdup(meta->reason ? meta->reason : "None");
	for (; i < end; i++) {
		t = sl_jobtab_at(d->jobs, i);
		if (t->state != SL_JOB_PENDING || !same_group(t, meta) || !sl_jobfilter_match(f, t))
			continue;
		if (split_off(t, meta) && f->fold > 1)
			continue; /* -r: listed on its own */
		if (split_off(t, meta)) {
			sl_schedctl_explain(d->sched, t);
			merge_reason(&merged, t);
			throttle = 0; /* squeue's bit_fmt of the merged set has no %N */
		}
		if (head == NULL || (!unsplit(head) && unsplit(t)))
			head = t; /* the fields shown are the meta record's */
		ids = sl_xgrow(ids, &cap, k + 1, sizeof(*ids));
		ids[k++] = (uint32_t)t->array_task_id;
	}
	head->array_tasks = f->fold == 2 ? sl_array_fmt_full(ids, k, (uint32_t)head->array_throttle)
				       : sl_array_fmt(ids, k, throttle);
	reason = head->reason, text = head->reason_text; /* lent for the listing */
	head->reason = merged, head->reason_text = meta->reason_text;
	r = add_job(h, head);
	head->reason = reason, head->reason_text = text;
	free(merged);
	free(head->array_tasks);
	head->array_tasks = NULL;
	free(ids);
	return r;
}

/* A pending array task in a folded listing: its group once, and with
 * fold 2 (-r) or 3 (scontrol) the tasks split off on their own. */
static int add_pending_task(struct sluiced *d, struct hist *h, const struct sl_jobfilter *f,
			    struct fold *fo, size_t i)
{
	struct sl_job *j = sl_jobtab_at(d->jobs, i);
	const struct sl_job *meta = folded(fo, j);
	int r = 0;

	if (meta == NULL) {
		if ((r = add_folded(d, h, f, fo, i)) != 0)
			return r;
		meta = folded(fo, j);
	}
	if (f->fold > 1 && meta != NULL && split_off(j, meta)) {
		sl_schedctl_explain(d->sched, j);
		r = add_job(h, j);
	}
	return r;
}

/* The history, folded: an array's tasks cancelled while pending, all at
 * once, are one record, as Slurm's meta record is ("N_[0-4]" CANCELLED):
 * it never split them off. The store lists in id order, so such a group
 * is a run of rows; it is written once the run ends. */
struct hist_arg {
	struct hist *h;
	const struct sl_jobfilter *f;
	struct sl_job *grp;     /* the run's first record (a copy), or NULL */
	uint32_t *ids;          /* and its tasks */
	size_t n, cap;
};

/* A task its meta record held to the end: one split off it is a record
 * of its own, its own row (Slurm: "N_1  N+1  CANCELLED+" beside the
 * meta's "N_[2-3]"). */
static int never_ran(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->state == SL_JOB_CANCELLED && !sl_job_ran(j) &&
	       !sl_job_task_split(j);
}

/* sacct -j N_I of a task its array's meta record still holds (pending, or
 * cancelled before it ran): slurmdbd's row of that record has no task id
 * (NO_VAL), so the task is not found; -j N finds the record. */
static int meta_task_only(const struct sl_jobfilter *f, const struct sl_job *j)
{
	if (!f->history || f->n_tasks == 0 || j->array_job_id == 0 || sl_job_task_split(j) ||
	    (j->state != SL_JOB_PENDING && !never_ran(j)))
		return 0;
	for (size_t i = 0; i < f->n_ids; i++)
		if (f->ids[i] == j->array_job_id)
			return 0;
	return 1;
}

static int by_task(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int flush(struct hist_arg *a)
{
	struct sl_job *g = a->grp;
	int r;

	if (g == NULL)
		return 0;
	/* the store lists by id: the last task, which has N (array.h), first */
	qsort(a->ids, a->n, sizeof(*a->ids), by_task);
	if (a->n > 1 || g->array_task_id == sl_array_last(g->spec.array))
		g->array_tasks = sl_array_fmt(a->ids, a->n, (uint32_t)g->array_throttle);
	/* the meta record is N's whichever tasks it held at its end (its
	 * last task, whose id N is, may have been cancelled out of it) */
	g->id = g->array_job_id;
	r = add_job(a->h, g);
	sl_job_free(g);
	a->grp = NULL;
	a->n = 0;
	return r;
}

static int hist_cb(const struct sl_job *j, void *arg)
{
	struct hist_arg *a = arg;
	int r;

	if (meta_task_only(a->f, j))
		return 0;
	if (a->f->fold && never_ran(j)) {
		if (a->grp != NULL && (!same_group(a->grp, j) || a->grp->end_time != j->end_time) &&
		    (r = flush(a)) != 0)
			return r;
		if (a->grp == NULL)
			a->grp = sl_job_copy(j);
		a->ids = sl_xgrow(a->ids, &a->cap, a->n + 1, sizeof(*a->ids));
		a->ids[a->n++] = (uint32_t)j->array_task_id;
		return 0;
	}
	/* a task of the same array that ran does not end the record: the
	 * meta holds the tasks cancelled around it too (N_[1,3-4]) */
	if (a->grp != NULL && a->grp->array_job_id != j->array_job_id && (r = flush(a)) != 0)
		return r;
	if ((r = a->f->duplicates ? add_runs(a->h, a->f, j) : 0) != 0)
		return r;
	return add_job(a->h, j);
}

/* {"jobs":[...],"now":T}, written as text (see job_text.c). */
int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err)
{
	struct sl_jobfilter f;
	struct sl_jobproj *proj = NULL;
	json_object *fo = NULL, *fields = NULL;
	size_t n = sl_jobtab_count(d->jobs);
	struct hist h = {rep, 0, p, err, NULL, d->store};
	struct hist_arg ha = {&h, &f, NULL, NULL, 0, 0};
	struct fold fold = {0};
	int r;

	json_object_object_get_ex(req, "filter", &fo);
	json_object_object_get_ex(req, "fields", &fields);
	if ((r = sl_jobproj_from_obj(fields, &proj, err)) != 0)
		return r;
	if ((r = sl_jobfilter_from_obj(fo, &f, err)) != 0) {
		sl_jobproj_free(proj);
		return r;
	}
	h.proj = proj;
	sl_buf_addstr(rep, "{\"jobs\":[");
	if (f.history && ((r = sl_store_history(d->store, &f, hist_cb, &ha, err)) != 0 ||
			  (r = flush(&ha)) != 0))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_at(d->jobs, i);
		/* History already listed the finished ones from the store. */
		if (f.history && sl_jobstate_is_final(j->state))
			continue;
		if (!sl_jobfilter_match(&f, j) || meta_task_only(&f, j))
			continue;
		/* tasks cancelled while pending: their meta record, folded as
		 * the history folds them */
		if (f.fold && never_ran(j)) {
			if ((r = hist_cb(j, &ha)) != 0)
				goto out;
			continue;
		}
		if (ha.grp != NULL && ha.grp->array_job_id != j->array_job_id &&
		    (r = flush(&ha)) != 0)
			goto out;
		if (f.fold && j->array_job_id != 0 && j->state == SL_JOB_PENDING) {
			if ((r = add_pending_task(d, &h, &f, &fold, i)) != 0)
				goto out;
			continue;
		}
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
	if ((r = flush(&ha)) != 0)
		goto out;
	if (sl_buf_addf(rep, "],\"now\":%lld}", (long long)time(NULL)) != 0)
		r = too_big(&h);
out:
	free(fold.meta);
	sl_job_free(ha.grp);
	free(ha.ids);
	sl_jobfilter_clear(&f);
	sl_jobproj_free(proj);
	return r;
}
