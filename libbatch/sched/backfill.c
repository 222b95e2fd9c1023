/* backfill.c - Slurm's sched/backfill in Kueue's model, in two halves.
 *
 * The pass: after a cycle, in each ClusterQueue with `backfill: true` (or
 * with backfill on for all), a pending workload behind blocked work is
 * admitted now when it fits now, without preemption, and its time limit
 * ends no later than the reserved start (the estimate, estimate.c) of
 * every workload ahead of it: those ahead in its own queue, and, when it
 * borrows, those of its cohort tree that come first by priority then age
 * (what it takes of its own queue's nominal quota is its queue's to use,
 * as Kueue's reclaim says). So it never delays them, and none of them will
 * need to preempt it to start at its reservation: a backfilled workload is
 * never the reason a higher one preempts (preempt.c refuses it as a
 * victim of those that had arrived when it was backfilled).
 *
 * The gate: under BestEffortFIFO Kueue admits whatever fits behind a
 * blocked head, which may delay the head, and under either strategy a
 * head may borrow what a higher workload of the cohort waits for. With
 * backfill on, the cycle asks sq_backfill_gate() first, and a workload
 * that fits but would end after a reservation ahead of it (by the rule
 * above) waits, parked like one that does not fit. The plan of such a
 * queue is its queue order (estimate.c), so the reservations it protects
 * are the ones it shows.
 *
 * The price is conservatism: a workload ahead that does not use what the
 * candidate takes still bounds it (the plan does not say which quota each
 * reservation needs), and a workload without a time limit is never
 * backfilled. Workloads ahead with no estimate (SL_SCHED_NEVER) do not
 * bound anything: nothing can be reserved for them.
 *
 * Cost: one estimate (O(pending log pending)) per cycle, run only when a
 * backfill queue holds two pending workloads and one has a time limit,
 * and the state changed since the last pass (or BF_REPASS_MS passed); and
 * for the gate one more at the start of a cycle in which a backfill queue
 * has two workloads waiting, reused while the state is the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

bool sq_backfill_on(const struct sl_sched *s, const struct sq_cq *c)
{
	return (s->backfill_all || c->backfill) && !c->inactive && c->stop == SL_KSTOP_NONE;
}

static bool ahead(const struct sq_wl *a, const struct sq_wl *b)
{
	if (a->prio != b->prio)
		return a->prio > b->prio;
	if (a->created != b->created)
		return a->created < b->created;
	return a->seq < b->seq;
}

static int ahead_cmp(const void *pa, const void *pb)
{
	const struct sq_wl *a = *(struct sq_wl *const *)pa, *b = *(struct sq_wl *const *)pb;
	return ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0;
}

/* Is some workload of c blocked: parked (BestEffortFIFO), or a head that
 * was tried and waits? When none is, nothing holds a reservation there:
 * every head fits now, and a queue that drains needs no plan per cycle
 * (20 000 admissions took 8 minutes before this check, 3 s without
 * backfill). */
static bool has_blocked(const struct sq_cq *c)
{
	if (c->ninadm > 0)
		return true;
	return c->heap.n > 0 && c->heap.v[0]->tried && c->heap.v[0]->cls != SL_SCHED_NONE;
}

static bool tree_blocked(const struct sl_sched *s, int root)
{
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree)
		if (has_blocked(&s->cq[i]))
			return true;
	return false;
}

/* Anything to backfill at all? Cheaper than an estimate. */
static bool worth_it(const struct sl_sched *s)
{
	for (int i = 0; i < s->ncq; i++) {
		const struct sq_cq *c = &s->cq[i];
		if (!sq_backfill_on(s, c) || c->heap.n + c->ninadm < 2 ||
		    !tree_blocked(s, sq_root(s, c->node)))
			continue;
		for (size_t j = 0; j < c->heap.n; j++)
			if (c->heap.v[j]->limit_ms > 0)
				return true;
		for (size_t j = 0; j < c->ninadm; j++)
			if (c->inadm[j]->limit_ms > 0)
				return true;
	}
	return false;
}

/* The tree's pending workloads by priority then age, with the earliest
 * reservation among those before each: lim[i] bounds v[i]. */
struct tree_order {
	struct sq_wl **v;
	int64_t *lim;
	size_t n;
};

static void tree_order(struct sl_sched *s, int root, struct tree_order *o)
{
	size_t n = 0;
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree)
		n += s->cq[i].heap.n + s->cq[i].ninadm;
	o->v = sl_xcalloc(n + 1, sizeof(*o->v));
	o->lim = sl_xcalloc(n + 1, sizeof(*o->lim));
	o->n = 0;
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree) {
		struct sq_cq *c = &s->cq[i];
		for (size_t j = 0; j < c->heap.n; j++)
			o->v[o->n++] = c->heap.v[j];
		for (size_t j = 0; j < c->ninadm; j++)
			o->v[o->n++] = c->inadm[j];
	}
	qsort(o->v, o->n, sizeof(*o->v), ahead_cmp);
	int64_t m = SL_SCHED_NEVER;
	for (size_t i = 0; i < o->n; i++) {
		o->lim[i] = m;
		if (o->v[i]->est_ms < m)
			m = o->v[i]->est_ms;
	}
}

/* The earliest reservation of the tree's workloads before w. */
static int64_t tree_bound(const struct tree_order *o, const struct sq_wl *w)
{
	size_t lo = 0, hi = o->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ahead(o->v[mid], w))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->n ? o->lim[lo] : SL_SCHED_NEVER;
}

/* Does w fit now in cq without preemption? Its usage is left in *a. */
static bool fits_now(struct sl_sched *s, struct sq_wl *w, int cq, struct sq_assign *a)
{
	bool had = w->has_last;
	w->has_last = false;
	sq_assign_flavors(s, w, cq, NULL, a);
	w->has_last = had;
	return a->rep == SQ_A_FIT && sq_fits_with(s, cq, a->use_fr, a->use_q, a->nuse, true);
}

/* w ends by bound? */
static bool ends_by(const struct sq_wl *w, int64_t now, int64_t bound)
{
	return w->limit_ms > 0 && bound > now && w->limit_ms <= bound - now;
}

static void admit_now(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		      struct sl_sched_decisions *out)
{
	for (int i = 0; i < w->nps; i++) {
		for (int j = 0; j < w->ps[i].nreq; j++)
			w->ps[i].flv[j] = a->flv[a->off[i] + j];
		w->ps[i].adm_count = w->ps[i].count;
	}
	sq_set_admitted(s, w, cq);
	w->backfilled = true;
	w->bf_seq = s->seq;
	sq_afs_on_admit(s, w);
	sq_decisions_add_admit(s, out, w);
}

/* One ClusterQueue: candidates in queue order, each bounded by the queue's
 * reservations before it, and when it borrows by the tree's too (o). */
static int backfill_cq(struct sl_sched *s, int cq, int64_t now, const struct tree_order *o,
		       struct sq_assign *a, struct sl_sched_decisions *out)
{
	struct sq_wl **v;
	size_t n = sq_cq_pending(s, &s->cq[cq], &v);
	int64_t own = SL_SCHED_NEVER;

	s->st.bf_last_queue += n;
	int admitted = 0;
	const struct sq_wl *failed = NULL;
	for (size_t i = 0; i < n; i++) {
		struct sq_wl *w = v[i];
		int64_t bound = own;
		if (w->est_ms < own)
			own = w->est_ms;
		if (w->est_ms <= now || !ends_by(w, now, bound) || w->cls == SL_SCHED_NEVER_FITS ||
		    w->cls == SL_SCHED_INADMISSIBLE || w->cls == SL_SCHED_WAIT_PREEMPTION)
			continue;
		if (failed && failed->hash == w->hash && sq_wl_equiv(failed, w))
			continue;
		s->st.bf_last_depth++;
		if (!fits_now(s, w, cq, a)) {
			failed = w;
			continue;
		}
		if (a->borrowing > 0 && !ends_by(w, now, tree_bound(o, w)))
			continue;
		admit_now(s, w, cq, a, out);
		admitted++;
	}
	free(v);
	return admitted;
}

/* What a pass depends on: workloads added or gone, admissions, releases.
 * A pass over the same state finds nothing new, except as time passes
 * (jobs past their limits move the plan): BF_REPASS_MS. */
#define BF_REPASS_MS 10000

static uint64_t state_sig(const struct sl_sched *s)
{
	uint64_t h = s->seq * 0x9e3779b97f4a7c15ULL ^ s->admit_seq * 0xbf58476d1ce4e5b9ULL ^
		     (uint64_t)s->wt.n * 0x94d049bb133111ebULL;
	for (int i = 0; i < s->nnode; i++)
		h = (h ^ s->tree_gen[i]) * 0x100000001b3ULL;
	return h;
}

static bool gate_plan_current(const struct sl_sched *s, uint64_t sig);
static void gate_plan(struct sl_sched *s, int64_t now_ms, uint64_t sig);

int sq_backfill(struct sl_sched *s, int64_t now_ms, struct sl_sched_decisions *out)
{
	if (!s->bf_any)
		return 0;
	uint64_t sig = state_sig(s);
	if (sig == s->bf_sig && now_ms - s->bf_at < BF_REPASS_MS && now_ms >= s->bf_at)
		return 0;
	/* nothing blocked yet (a head not tried): the next cycle looks again */
	if (!worth_it(s))
		return 0;
	s->bf_sig = sig;
	s->bf_at = now_ms;
	if (!gate_plan_current(s, sig))  /* the gate's plan, if nothing changed since */
		gate_plan(s, now_ms, sig); /* ... else one the next cycle's gate reuses */
	struct sq_assign a;
	sq_assign_init(&a);
	int admitted = 0;
	s->st.bf_last_depth = s->st.bf_last_queue = 0;
	for (int root = 0; root < s->nnode; root++) {
		bool any = false;
		for (int i = s->tree_first[root]; i != SQ_NONE && !any; i = s->cq[i].next_in_tree)
			any = sq_backfill_on(s, &s->cq[i]);
		if (!any)
			continue;
		struct tree_order o;
		tree_order(s, root, &o);
		for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree)
			if (sq_backfill_on(s, &s->cq[i]))
				admitted += backfill_cq(s, i, now_ms, &o, &a, out);
		free(o.v);
		free(o.lim);
	}
	sq_assign_free(&a);
	s->st.bf_passes++;
	s->st.bf_admitted += (uint64_t)admitted;
	s->st.bf_depth_sum += s->st.bf_last_depth;
	s->st.bf_queue_sum += s->st.bf_last_queue;
	s->otg_key.w = NULL;
	s->bf_sig = state_sig(s);   /* its own admissions are part of what it saw */
	return admitted;
}

/* ---- the gate: BestEffortFIFO with backfill ---- */

struct sq_bfgate {
	int64_t cycle;           /* the cycle it was prepared for */
	uint64_t sig;            /* ... the state it saw (state_sig) */
	int64_t at;              /* ... and when */
	bool on;
	int ntree, ncq;
	struct tree_order *tree; /* [nnode] by root; n 0 when not built */
	struct tree_order *cq;   /* [ncq] queue order, lim[i]: the earliest
				  * reservation before v[i] */
	int64_t *noted;          /* [nnoted] by root: the cycle a head of the
				  * tree last failed in (sq_backfill_note) */
	int nnoted;
};

static bool gated(const struct sl_sched *s, const struct sq_cq *c)
{
	return sq_backfill_on(s, c);
}

static void gate_clear(struct sq_bfgate *g)
{
	for (int i = 0; i < g->ntree; i++) {
		free(g->tree[i].v);
		free(g->tree[i].lim);
	}
	for (int i = 0; i < g->ncq; i++) {
		free(g->cq[i].v);
		free(g->cq[i].lim);
	}
	free(g->tree);
	free(g->cq);
	g->tree = g->cq = NULL;
	g->ntree = g->ncq = 0;
	g->on = false;
}

static bool gate_plan_current(const struct sl_sched *s, uint64_t sig)
{
	return s->bfg && s->bfg->on && s->bfg->sig == sig;
}

void sq_bfgate_free(struct sq_bfgate *g)
{
	if (!g)
		return;
	gate_clear(g);
	free(g->noted);
	free(g);
}

void sq_backfill_note(struct sl_sched *s, int cq)
{
	if (!s->bf_any)
		return;
	if (!s->bfg)
		s->bfg = sl_xcalloc(1, sizeof(*s->bfg));
	struct sq_bfgate *g = s->bfg;
	if (g->nnoted < s->nnode) {
		g->noted = sl_xrealloc(g->noted, (size_t)s->nnode * sizeof(*g->noted));
		for (int i = g->nnoted; i < s->nnode; i++)
			g->noted[i] = -1;
		g->nnoted = s->nnode;
	}
	g->noted[sq_root(s, s->cq[cq].node)] = s->cycle_no;
}

static void cq_order(struct sl_sched *s, int cq, struct tree_order *o)
{
	o->n = sq_cq_pending(s, &s->cq[cq], &o->v);
	o->lim = sl_xcalloc(o->n + 1, sizeof(*o->lim));
	int64_t m = SL_SCHED_NEVER;
	for (size_t i = 0; i < o->n; i++) {
		o->lim[i] = m;
		if (o->v[i]->est_ms < m)
			m = o->v[i]->est_ms;
	}
}

void sq_backfill_prepare(struct sl_sched *s, int64_t now_ms)
{
	if (!s->bf_any)
		return;          /* engines without backfill pay nothing */
	bool need = false;       /* a backfill queue waits with another in its tree,
				  * and something there is blocked */
	for (int i = 0; i < s->ncq && !need; i++) {
		if (!gated(s, &s->cq[i]) || s->cq[i].heap.n + s->cq[i].ninadm == 0)
			continue;
		size_t n = 0;
		int root = sq_root(s, s->cq[i].node);
		for (int j = s->tree_first[root]; j != SQ_NONE && n < 2; j = s->cq[j].next_in_tree)
			n += s->cq[j].heap.n + s->cq[j].ninadm;
		need = n >= 2 && tree_blocked(s, root);
	}
	if (!s->bfg && !need)
		return;
	if (!s->bfg)
		s->bfg = sl_xcalloc(1, sizeof(*s->bfg));
	struct sq_bfgate *g = s->bfg;
	uint64_t sig = state_sig(s);
	if (need && g->on && g->sig == sig && now_ms >= g->at && now_ms - g->at < BF_REPASS_MS) {
		g->cycle = s->cycle_no;  /* the same workloads, the same plan */
		return;
	}
	if (need) {
		gate_plan(s, now_ms, sig);
	} else {
		gate_clear(g);
		g->sig = sig;
		g->at = now_ms;
	}
	g->cycle = s->cycle_no;
}

/* The plan, and each backfill queue's and tree's order with the earliest
 * reservation before each workload; kept while the state is sig. */
static void gate_plan(struct sl_sched *s, int64_t now_ms, uint64_t sig)
{
	if (!s->bfg)
		s->bfg = sl_xcalloc(1, sizeof(*s->bfg));
	struct sq_bfgate *g = s->bfg;
	gate_clear(g);
	g->sig = sig;
	g->at = now_ms;
	sl_sched_estimate(s, now_ms);
	g->ntree = s->nnode;
	g->ncq = s->ncq;
	g->tree = sl_xcalloc((size_t)s->nnode + 1, sizeof(*g->tree));
	g->cq = sl_xcalloc((size_t)s->ncq + 1, sizeof(*g->cq));
	for (int i = 0; i < s->ncq; i++) {
		if (!gated(s, &s->cq[i]))
			continue;
		int root = sq_root(s, s->cq[i].node);
		cq_order(s, i, &g->cq[i]);
		if (!g->tree[root].v)
			tree_order(s, root, &g->tree[root]);
	}
	g->on = true;
}

int sq_backfill_gate(struct sl_sched *s, const struct sq_wl *w, int cq, int borrowing,
		     int64_t now_ms)
{
	const struct sq_bfgate *g = s->bfg;
	if (!sq_backfill_on(s, &s->cq[cq]))
		return 1;
	if (!g || !g->on || g->cycle != s->cycle_no || cq >= g->ncq || !g->cq[cq].v) {
		/* no plan: nothing was blocked when the cycle began. A head
		 * of the tree that failed since may be owed what w would
		 * borrow: ask again next cycle, with a plan. */
		int root = sq_root(s, s->cq[cq].node);
		bool failed = g && root < g->nnoted && g->noted[root] == s->cycle_no;
		return borrowing > 0 && failed ? -1 : 1;
	}
	if (w->est_ms <= now_ms)
		return 1;
	const struct tree_order *o = &g->cq[cq];
	const struct sq_cq *c = &s->cq[cq];
	size_t lo = 0, hi = o->n;
	while (lo < hi) {        /* w's place in its queue's order */
		size_t mid = lo + (hi - lo) / 2;
		if (o->v[mid] != w && sq_wl_before(s, c, o->v[mid], w))
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t bound = lo < o->n ? o->lim[lo] : SL_SCHED_NEVER;
	if (borrowing > 0) {
		int64_t tb = tree_bound(&g->tree[sq_root(s, c->node)], w);
		bound = tb < bound ? tb : bound;
	}
	if (bound == SL_SCHED_NEVER)
		return 1;        /* nothing ahead of it holds a reservation */
	return ends_by(w, now_ms, bound) ? 1 : 0;
}

void sl_sched_set_backfill(struct sl_sched *s, int on)
{
	s->backfill_all = on != 0;
	sq_backfill_reset(s);
}

void sq_backfill_reset(struct sl_sched *s)
{
	s->bf_any = s->backfill_all;
	for (int i = 0; i < s->ncq && !s->bf_any; i++)
		s->bf_any = s->cq[i].backfill;
	s->bf_sig = 0;      /* the next cycle passes again */
	if (s->bfg)
		gate_clear(s->bfg);
}

int64_t sq_backfill_window(struct sl_sched *s, struct sq_wl *w, int64_t now_ms)
{
	if (w->cq == SQ_NONE || !sq_backfill_on(s, &s->cq[w->cq]) || w->where == SQ_W_ADMITTED)
		return 0;
	struct sq_wl **v;
	size_t n = sq_cq_pending(s, &s->cq[w->cq], &v);
	int64_t bound = SL_SCHED_NEVER;
	for (size_t i = 0; i < n && v[i] != w; i++)
		if (v[i]->est_ms < bound)
			bound = v[i]->est_ms;
	free(v);
	struct sq_assign a;
	sq_assign_init(&a);
	bool fits = fits_now(s, w, w->cq, &a);
	if (fits && a.borrowing > 0) {
		struct tree_order o;
		tree_order(s, sq_root(s, s->cq[w->cq].node), &o);
		int64_t tb = tree_bound(&o, w);
		bound = tb < bound ? tb : bound;
		free(o.v);
		free(o.lim);
	}
	sq_assign_free(&a);
	s->otg_key.w = NULL;
	return fits && bound > now_ms && bound != SL_SCHED_NEVER ? bound - now_ms : 0;
}
