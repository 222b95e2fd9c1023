/* estimate.c - start-time estimates: when will each pending workload start?
 *
 * The plan is an event simulation over the engine's own quota arithmetic.
 * Every admitted workload ends at its start plus its time limit (an
 * evicting one ends now, one past its limit ends now: it is about to be
 * killed); a workload without a limit never ends. From now on, at each
 * end, every ClusterQueue of the cohort tree whose quota grew takes its
 * pending workloads in queue order, highest-priority head first across the
 * tree, as long as they fit (borrowing as Kueue allows); a planned workload
 * takes its quota from its planned start to its planned end.
 *
 * StrictFIFO stops at the first that does not fit, and that head keeps
 * back what Kueue's cycle reserves for it (reserve()). BestEffortFIFO also
 * lets those that fit among the next LOOKSCAN start (Kueue admits them;
 * they may delay the head, and the plan says so; one further back is
 * planned late), unless the queue backfills: then what passes a blocked
 * head ends before it starts (backfill.c), so the plan is the queue order,
 * and a head that would borrow waits behind a blocked one of its tree.
 * What never fits, or waits in a stopped or inactive queue, has no
 * estimate (SL_SCHED_NEVER).
 *
 * What it leaves out, on purpose: preemption of running work by a pending
 * workload that could preempt only later (an estimate is then late, never
 * early), partial admission below the requested count (the plan places
 * the full count), fair sharing's tournament and Kueue's borrowing-first
 * order of a cycle's heads (heads of a tree go by priority, then age).
 *
 * Cost: one sort of each queue; one flavor assignment per workload placed,
 * and per queue and end that freed some of its quota (a blocked queue is
 * retried only then), plus up to LOOKAHEAD behind a blocked BestEffortFIFO
 * head (one per shape); no preemption search (flavor.c skips its oracle
 * while s->planning). The engine's usage is changed while planning and
 * restored from a log before returning. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

#define LOOKAHEAD 32             /* tries behind a blocked head */
#define LOOKSCAN 64              /* entries looked at for them */

struct ev {                      /* an end: a real workload or a planned one */
	int64_t t;
	struct sq_wl *real;      /* NULL: planned[plan] */
	int plan;
};

struct planned {                 /* a workload planned to start */
	int cq;
	int off, n;              /* its usage in pool_fr / pool_q */
};

struct logent {                  /* one usage change to undo */
	struct sq_wl *real;
	int plan;
	int sign;
};

struct qview {                   /* one ClusterQueue's pending workloads */
	struct sq_wl **v;
	size_t n, cur;           /* v[cur] is the first not yet decided */
	char *done;              /* [n] planned or never */
	bool blocked, over;
	int64_t *avail;          /* when it blocked: what each of its FRs had */
	int navail, capavail;
	int *rfr;                /* quota its blocked StrictFIFO head holds back */
	int64_t *rq;
	size_t nres, caprfr, caprq;
};

struct est {
	struct sl_sched *s;
	int64_t now, t;
	struct qview *q;         /* [ncq] */
	struct ev *h;            /* min-heap of ends */
	size_t nh, caph;
	struct planned *p;
	size_t np, capp;
	int *pool_fr;
	int64_t *pool_q;
	size_t npool, cappool, cappoolq;
	struct logent *log;
	size_t nlog, caplog;
	bool *dirty;             /* [nnode] by root: quota freed at t */
	int *dlist;              /* the dirty roots */
	size_t nd;
	struct sq_assign a;
	size_t placed;
};

static bool ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t;
}

static void ev_push(struct est *e, struct ev v)
{
	e->h = sl_xgrow(e->h, &e->caph, e->nh + 1, sizeof(*e->h));
	size_t i = e->nh++;
	while (i > 0 && ev_less(&v, &e->h[(i - 1) / 2])) {
		e->h[i] = e->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e->h[i] = v;
}

static struct ev ev_pop(struct est *e)
{
	struct ev top = e->h[0], last = e->h[--e->nh];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = l;
		if (l >= e->nh)
			break;
		if (l + 1 < e->nh && ev_less(&e->h[l + 1], &e->h[l]))
			m = l + 1;
		if (!ev_less(&e->h[m], &last))
			break;
		e->h[i] = e->h[m];
		i = m;
	}
	if (e->nh)
		e->h[i] = last;
	return top;
}

static void log_add(struct est *e, struct sq_wl *real, int plan, int sign)
{
	e->log = sl_xgrow(e->log, &e->caplog, e->nlog + 1, sizeof(*e->log));
	e->log[e->nlog++] = (struct logent){real, plan, sign};
}

static void charge_plan(struct est *e, int plan, int sign)
{
	const struct planned *p = &e->p[plan];
	sq_charge(e->s, p->cq, e->pool_fr + p->off, e->pool_q + p->off, p->n, sign);
}

static void undo_all(struct est *e)
{
	while (e->nlog) {
		const struct logent *l = &e->log[--e->nlog];
		if (l->real)
			sq_wl_charge(e->s, l->real, -l->sign);
		else
			charge_plan(e, l->plan, -l->sign);
	}
}

static int64_t end_of(int64_t start, int64_t limit)
{
	if (limit <= 0)
		return SL_SCHED_NEVER;
	return start > SL_SCHED_NEVER - limit ? SL_SCHED_NEVER : start + limit;
}

static int pend_cmp(const void *a, const void *b, void *arg)
{
	const struct sl_sched *s = arg;
	const struct sq_wl *x = *(struct sq_wl *const *)a, *y = *(struct sq_wl *const *)b;
	const struct sq_cq *c = &s->cq[x->cq];
	if (sq_wl_before(s, c, x, y))
		return -1;
	return sq_wl_before(s, c, y, x) ? 1 : 0;
}

size_t sq_cq_pending(struct sl_sched *s, const struct sq_cq *c, struct sq_wl ***out)
{
	size_t n = c->heap.n + c->ninadm;
	struct sq_wl **v = sl_xcalloc(n + 1, sizeof(*v));
	if (c->heap.n)
		memcpy(v, c->heap.v, c->heap.n * sizeof(*v));
	if (c->ninadm)
		memcpy(v + c->heap.n, c->inadm, c->ninadm * sizeof(*v));
	qsort_r(v, n, sizeof(*v), pend_cmp, s);
	*out = v;
	return n;
}

static void mark(struct est *e, int root)
{
	if (!e->dirty[root]) {
		e->dirty[root] = true;
		e->dlist[e->nd++] = root;
	}
}

/* Queues and the ends of what runs now. */
static void est_setup(struct est *e)
{
	struct sl_sched *s = e->s;
	e->q = sl_xcalloc((size_t)s->ncq + 1, sizeof(*e->q));
	e->dirty = sl_xcalloc((size_t)s->nnode + 1, sizeof(*e->dirty));
	e->dlist = sl_xcalloc((size_t)s->nnode + 1, sizeof(*e->dlist));
	for (int i = 0; i < s->ncq; i++) {
		struct sq_cq *c = &s->cq[i];
		struct qview *q = &e->q[i];
		q->n = sq_cq_pending(s, c, &q->v);
		q->done = sl_xcalloc(q->n + 1, 1);
		for (size_t j = 0; j < q->n; j++)
			q->v[j]->est_ms = SL_SCHED_NEVER;
		q->over = q->n == 0 || c->inactive || c->stop != SL_KSTOP_NONE;
		mark(e, sq_root(s, c->node));
		for (size_t j = 0; j < c->nadm; j++) {
			struct sq_wl *w = c->adm[j];
			int64_t end = w->evicting ? e->now : end_of(w->start_ms, w->limit_ms);
			if (end < e->now)
				end = e->now;
			if (end != SL_SCHED_NEVER)
				ev_push(e, (struct ev){end, w, -1});
		}
	}
}

static void est_free(struct est *e)
{
	for (int i = 0; e->q && i < e->s->ncq; i++) {
		free(e->q[i].v);
		free(e->q[i].done);
		free(e->q[i].avail);
		free(e->q[i].rfr);
		free(e->q[i].rq);
	}
	free(e->q);
	free(e->dirty);
	free(e->dlist);
	free(e->h);
	free(e->p);
	free(e->pool_fr);
	free(e->pool_q);
	free(e->log);
	sq_assign_free(&e->a);
}

/* Plan w to start at e->t in cq with the usage of e->a. */
static void place(struct est *e, struct sq_wl *w, int cq)
{
	size_t n = (size_t)e->a.nuse;
	e->pool_fr = sl_xgrow(e->pool_fr, &e->cappool, e->npool + n + 1, sizeof(*e->pool_fr));
	e->pool_q = sl_xgrow(e->pool_q, &e->cappoolq, e->npool + n + 1, sizeof(*e->pool_q));
	memcpy(e->pool_fr + e->npool, e->a.use_fr, n * sizeof(int));
	memcpy(e->pool_q + e->npool, e->a.use_q, n * sizeof(int64_t));
	e->p = sl_xgrow(e->p, &e->capp, e->np + 1, sizeof(*e->p));
	int plan = (int)e->np++;
	e->p[plan] = (struct planned){cq, (int)e->npool, (int)n};
	e->npool += n;
	charge_plan(e, plan, +1);
	log_add(e, NULL, plan, +1);
	w->est_ms = e->t;
	e->placed++;
	int64_t end = end_of(e->t, w->limit_ms);
	if (end != SL_SCHED_NEVER)
		ev_push(e, (struct ev){end, NULL, plan});
}

enum fit { FIT_YES, FIT_NOT_NOW, FIT_NEVER };

/* Does w fit in cq at the planned usage? Leaves the usage in e->a. The
 * scan position of FlavorFungibility is the cycle's, not the plan's. */
static enum fit try_fit(struct est *e, struct sq_wl *w, int cq)
{
	struct sl_sched *s = e->s;
	if (w->cls == SL_SCHED_NEVER_FITS || w->cls == SL_SCHED_INADMISSIBLE ||
	    !sq_ns_matches(&s->cq[cq].nssel, w->ns))
		return FIT_NEVER;
	bool had = w->has_last;
	w->has_last = false;
	sq_assign_flavors(s, w, cq, NULL, &e->a);
	w->has_last = had;
	if (e->a.rep == SQ_A_NOFIT && e->a.nofit_reason &&
	    strcmp(e->a.nofit_reason, "WaitingForQuota") != 0)
		return FIT_NEVER;
	if (e->a.rep == SQ_A_FIT && sq_fits_with(s, cq, e->a.use_fr, e->a.use_q, e->a.nuse, true))
		return FIT_YES;
	return FIT_NOT_NOW;
}

static void skip_done(struct qview *q)
{
	while (q->cur < q->n && q->done[q->cur])
		q->cur++;
	if (q->cur == q->n)
		q->over = true;
}

/* BestEffortFIFO: the next ones behind a blocked head that fit now start
 * now; one failure per shape is enough. */
static void lookahead(struct est *e, int cq)
{
	struct qview *q = &e->q[cq];
	const struct sq_wl *failed[LOOKAHEAD];
	int nf = 0;
	failed[nf++] = q->v[q->cur];
	size_t end = q->n - q->cur > LOOKSCAN ? q->cur + LOOKSCAN : q->n;
	for (size_t j = q->cur + 1, k = 0; j < end && k < LOOKAHEAD; j++) {
		struct sq_wl *w = q->v[j];
		if (q->done[j])
			continue;
		bool same = false;
		for (int f = 0; f < nf && !same; f++)
			same = failed[f]->hash == w->hash;   /* a collision only
							      * plans one late */
		if (same)
			continue;
		k++;
		enum fit r = try_fit(e, w, cq);
		if (r == FIT_YES) {
			place(e, w, cq);
			q->done[j] = 1;
		} else if (r == FIT_NEVER) {
			q->done[j] = 1;
		} else if (nf < LOOKAHEAD) {
			failed[nf++] = w;
		}
	}
}

/* The best head among the tree's queues that are not blocked. */
static int best_head(struct est *e, int root)
{
	struct sl_sched *s = e->s;
	int best = SQ_NONE;
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree) {
		struct qview *q = &e->q[i];
		if (q->over || q->blocked)
			continue;
		skip_done(q);
		if (q->over)
			continue;
		const struct sq_wl *w = q->v[q->cur];
		if (best == SQ_NONE)
			best = i;
		else {
			const struct sq_wl *b = e->q[best].v[e->q[best].cur];
			if (w->prio > b->prio || (w->prio == b->prio && (w->created < b->created ||
			    (w->created == b->created && w->seq < b->seq))))
				best = i;
		}
	}
	return best;
}

/* A queue blocks: note what its FRs have available. */
static void block(struct est *e, int cq)
{
	const struct sq_node *n = &e->s->node[e->s->cq[cq].node];
	struct qview *q = &e->q[cq];
	q->blocked = true;
	if (n->ncell > q->capavail) {
		q->capavail = n->ncell;
		q->avail = sl_xrealloc(q->avail, (size_t)n->ncell * sizeof(int64_t));
	}
	q->navail = n->ncell;
	for (int i = 0; i < n->ncell; i++)
		q->avail[i] = sq_available(e->s, e->s->cq[cq].node, n->frk[i]);
}

/* Kueue's reserveCapacityForUnreclaimablePreempt, as the cycle does it
 * (cycle.c reserve()): a StrictFIFO head that waits for its own quota
 * keeps others of the cohort from borrowing it, at every cycle it stays
 * the head, so for as long as it is blocked in the plan. A BestEffortFIFO
 * head is parked after one cycle and holds nothing back. */
static void reserve(struct est *e, int cq)
{
	struct sl_sched *s = e->s;
	struct qview *q = &e->q[cq];
	int node = s->cq[cq].node;
	if (!s->cq[cq].strict_fifo || e->a.rep != SQ_A_PREEMPT || s->cq[cq].reclaim == SL_KP_ANY)
		return;
	for (int i = 0; i < e->a.nuse; i++) {
		const struct sq_cell *c = sq_cell(s, node, e->a.use_fr[i]);
		int64_t req = e->a.use_q[i], r;
		if (e->a.borrowing > 0) {
			r = req;
			if (c->q.has_bl && c->q.nominal + c->q.bl - c->usage < r)
				r = c->q.nominal + c->q.bl - c->usage;
		} else {
			r = c->q.nominal - c->usage < req ? c->q.nominal - c->usage : req;
		}
		if (r <= 0)
			continue;
		q->rfr = sl_xgrow(q->rfr, &q->caprfr, q->nres + 1, sizeof(*q->rfr));
		q->rq = sl_xgrow(q->rq, &q->caprq, q->nres + 1, sizeof(*q->rq));
		q->rfr[q->nres] = e->a.use_fr[i];
		q->rq[q->nres++] = r;
		sq_add_usage(s, node, e->a.use_fr[i], r);
	}
}

/* Give back what reserve() held (usage is a sum: order does not matter). */
static void unreserve(struct est *e, int cq)
{
	struct qview *q = &e->q[cq];
	for (size_t i = 0; i < q->nres; i++)
		sq_remove_usage(e->s, e->s->cq[cq].node, q->rfr[i], q->rq[i]);
	q->nres = 0;
}

/* Retry a blocked queue only when one of its FRs has more available than
 * when it blocked: else nothing new fits (most queues of a tree, most
 * ends). */
static void unblock_if_freed(struct est *e, int cq)
{
	const struct sq_node *n = &e->s->node[e->s->cq[cq].node];
	struct qview *q = &e->q[cq];
	if (!q->blocked)
		return;
	/* a reservation depends on the usage it was made at: made again */
	bool freed = n->ncell != q->navail || q->nres > 0;
	for (int i = 0; i < n->ncell && !freed; i++)
		freed = sq_available(e->s, e->s->cq[cq].node, n->frk[i]) > q->avail[i];
	if (freed) {
		q->blocked = false;
		unreserve(e, cq);
	}
}

/* At e->t, start what fits in one cohort tree. */
static void plan_tree(struct est *e, int root)
{
	struct sl_sched *s = e->s;
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree)
		unblock_if_freed(e, i);
	bool waiting = false;    /* a head before this one did not fit */
	for (int cq; (cq = best_head(e, root)) != SQ_NONE;) {
		struct qview *q = &e->q[cq];
		struct sq_wl *w = q->v[q->cur];
		enum fit r = try_fit(e, w, cq);
		/* backfill: a head may not borrow ahead of a blocked one
		 * (backfill.c lets it when it ends in time) */
		if (r == FIT_YES && waiting && e->a.borrowing > 0 && sq_backfill_on(s, &s->cq[cq]))
			r = FIT_NOT_NOW;
		if (r == FIT_NOT_NOW)
			waiting = true;
		if (r == FIT_YES) {
			place(e, w, cq);
			q->done[q->cur] = 1;
		} else if (r == FIT_NEVER && !s->cq[cq].strict_fifo) {
			q->done[q->cur] = 1;
		} else if (r == FIT_NEVER) {
			q->over = true;      /* StrictFIFO: it blocks the rest forever */
		} else {
			/* with backfill, what goes ahead of a blocked head
			 * ends before it starts: the plan is the queue order */
			if (!s->cq[cq].strict_fifo && !sq_backfill_on(s, &s->cq[cq]))
				lookahead(e, cq);
			else if (s->cq[cq].strict_fifo)
				reserve(e, cq);
			block(e, cq);
		}
	}
}

static void release(struct est *e, const struct ev *v)
{
	struct sl_sched *s = e->s;
	int cq;
	if (v->real) {
		sq_wl_charge(s, v->real, -1);
		log_add(e, v->real, -1, -1);
		cq = v->real->adm_cq;
	} else {
		charge_plan(e, v->plan, -1);
		log_add(e, NULL, v->plan, -1);
		cq = e->p[v->plan].cq;
	}
	if (cq != SQ_NONE)
		mark(e, sq_root(s, s->cq[cq].node));
}

size_t sl_sched_estimate(struct sl_sched *s, int64_t now_ms)
{
	struct est e = {.s = s, .now = now_ms, .t = now_ms};
	sq_assign_init(&e.a);
	s->otg_key.w = NULL;     /* the preemption oracle's cache is the cycle's */
	s->planning = true;
	est_setup(&e);
	for (;;) {
		while (e.nd) {
			int root = e.dlist[--e.nd];
			e.dirty[root] = false;
			plan_tree(&e, root);
		}
		if (!e.nh)
			break;
		e.t = e.h[0].t;
		while (e.nh && e.h[0].t <= e.t) {
			struct ev v = ev_pop(&e);
			release(&e, &v);
		}
	}
	for (int i = 0; i < s->ncq; i++)
		unreserve(&e, i);
	undo_all(&e);
	s->planning = false;
	s->otg_key.w = NULL;
	size_t placed = e.placed;
	est_free(&e);
	return placed;
}

int sl_sched_start_estimate(const struct sl_sched *s, uint64_t id, int64_t *start_ms)
{
	const struct sq_wl *w = sq_wt_get(s, id);
	if (!w)
		return -SL_ENOENT;
	*start_ms = w->where == SQ_W_ADMITTED ? w->start_ms : w->est_ms;
	return 0;
}

int sl_sched_set_time(struct sl_sched *s, uint64_t id, int64_t limit_ms, int64_t start_ms)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w)
		return -SL_ENOENT;
	w->limit_ms = limit_ms > 0 ? limit_ms : 0;
	if (start_ms > 0 && w->where == SQ_W_ADMITTED)
		w->start_ms = w->est_ms = start_ms;
	return 0;
}
