/* cycle.c - one scheduling cycle (Kueue pkg/scheduler/scheduler.go):
 * one head per active ClusterQueue, nomination (flavors + preemption
 * targets) against the state before the cycle, ordering (borrowing level,
 * priority, age; or the fair-sharing tournament), then processing against a
 * running snapshot: later entries see earlier admissions, preemptors'
 * usage and reservations. Temporary usage is undone at the end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

enum req { RQ_NONE, RQ_IMMEDIATE, RQ_GENERIC, RQ_PARK };

struct entry {                   /* buffers (a, t, need) live across cycles */
	struct sq_wl *w;
	int cq;
	struct sq_assign a;
	struct sq_targets t;
	bool nominated;          /* flavors assigned (not namespace/inactive) */
	bool done;
	enum req rq;
	struct sq_needbuf need;
	bool partial;            /* a and t are for the counts in cnt */
	int32_t *cnt;
	size_t capcnt;
};

struct temp {                    /* usage added for this cycle only */
	int node, fr;
	int64_t q;
};

/* Per-engine scratch: one entry per CQ and the cycle's lists, kept
 * between cycles because allocating them per head was a quarter of the
 * engine's time. */
struct sq_cscratch {
	struct entry *e;
	size_t cape;
	struct temp *tmp;
	size_t captmp;
	struct sq_wl **victims;
	size_t capvic;
	struct sq_fentry *f;
	size_t capf;
};

struct cyc {
	struct sl_sched *s;
	struct sl_sched_decisions *out;
	struct sq_cscratch *x;
	struct entry *e;
	size_t ne;
	size_t ntmp;
	struct sq_wl **victims;  /* preemption targets chosen this cycle */
	size_t nvic;
	int changed;
	bool drains;             /* any_drain(), once per call: it walks every queue */
};

void sq_cscratch_free(struct sq_cscratch *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->cape; i++) {
		sq_assign_free(&x->e[i].a);
		free(x->e[i].t.v);
		free(x->e[i].need.v);
		free(x->e[i].cnt);
	}
	free(x->e);
	free(x->tmp);
	free(x->victims);
	free(x->f);
	free(x);
}

void sq_decisions_add_admit(struct sl_sched *s, struct sl_sched_decisions *d, struct sq_wl *w)
{
	d->admit = sl_xgrow(d->admit, &d->capadmit, d->nadmit + 1, sizeof(*d->admit));
	struct sl_sched_admission *a = &d->admit[d->nadmit++];
	size_t n = 0;
	for (int i = 0; i < w->nps; i++)
		n += (size_t)w->ps[i].nreq;
	a->id = w->id;
	a->cluster_queue = s->cq[w->adm_cq].name;
	/* one allocation: the counts live after the flavor rows (a malloc
	 * more per admission was measurable in the baseline benchmark) */
	a->flavors = sl_xcalloc(1, (n + 1) * sizeof(*a->flavors) +
				       ((size_t)w->nps + 1) * sizeof(int32_t));
	a->counts = (int32_t *)(void *)(a->flavors + n + 1);
	a->ncounts = (size_t)w->nps;
	a->n = 0;
	for (int i = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++)
			if (w->ps[i].flv[j] != SQ_NONE)
				a->flavors[a->n++] = (struct sl_sched_flavor){
					w->ps[i].name, s->res[w->ps[i].res[j]], s->flv[w->ps[i].flv[j]].name};
	for (int i = 0; i < w->nps; i++)
		a->counts[i] = w->ps[i].adm_count;
	a->topology = s->tas_on ? sl_sched_topo_text(s, w->id) : NULL;
}

static void decisions_add_preempt(struct sl_sched_decisions *d, uint64_t victim,
				 uint64_t preemptor, enum sl_sched_preempt_reason r, char *msg)
{
	d->preempt = sl_xgrow(d->preempt, &d->cappreempt, d->npreempt + 1, sizeof(*d->preempt));
	d->preempt[d->npreempt++] = (struct sl_sched_preemption){victim, preemptor, r, msg};
}

void sl_sched_decisions_clear(struct sl_sched_decisions *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nadmit; i++) {
		free(d->admit[i].flavors);   /* and the counts after them */
		free(d->admit[i].topology);
	}
	for (size_t i = 0; i < d->npreempt; i++)
		free(d->preempt[i].message);
	free(d->admit);
	free(d->preempt);
	memset(d, 0, sizeof(*d));
}

static void temp_add(struct cyc *c, int node, int fr, int64_t q)
{
	if (q <= 0)
		return;
	c->x->tmp = sl_xgrow(c->x->tmp, &c->x->captmp, c->ntmp + 1, sizeof(*c->x->tmp));
	c->x->tmp[c->ntmp++] = (struct temp){node, fr, q};
	sq_add_usage(c->s, node, fr, q);
}

static void temp_undo(struct cyc *c)
{
	while (c->ntmp) {
		struct temp *t = &c->x->tmp[--c->ntmp];
		sq_remove_usage(c->s, t->node, t->fr, t->q);
	}
}

/* getInitialAssignments: the full assignment; when it neither fits nor
 * preempts with targets, the partial-admission search; else the full
 * assignment stays, with its reasons. */
static void assign(struct sl_sched *s, struct entry *e)
{
	struct sq_wl *w = e->w;
	sq_assign_flavors(s, w, e->cq, NULL, &e->a);
	if (s->tas_on)
		sq_tas_nominate(s, w, e->cq, &e->a, NULL);
	if (e->a.rep == SQ_A_PREEMPT)
		sq_tas_targets(s, w, e->cq, &e->a, &e->need, &e->t);
	if (s->tas_on)
		sq_tas_preempt_placement(s, w, e->cq, &e->a, &e->t);
	if (!w->partial || e->a.rep == SQ_A_FIT || e->t.n > 0)
		return;
	e->partial = sq_partial_search(s, w, e->cq, &e->a, &e->t, &e->cnt, &e->capcnt);
	if (e->partial)   /* the probes placed each count in turn: the last one's */
		sq_tas_nominate(s, w, e->cq, &e->a, e->cnt);
}

/* recordAssignment: the scan position this assignment reached is where the
 * next one starts (FlavorFungibilityPreserveScanProgress), also when it
 * does not fit: a pod set whose flavor held the quota but not the
 * topology resumes at the next flavor. */
static void record_last(struct sl_sched *s, struct sq_wl *w, const struct sq_assign *a,
			uint64_t gen)
{
	int tot = a->off[w->nps];
	if (tot + 1 > w->nlast) {
		w->nlast = tot + 1;
		w->last_tried = sl_xrealloc(w->last_tried, (size_t)w->nlast * sizeof(int));
	}
	memcpy(w->last_tried, a->tried, (size_t)tot * sizeof(int));
	w->has_last = true;
	w->last_cycle = s->cycle_no;
	w->last_gen = gen;
}

static void nominate(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_cq *q = &s->cq[e->cq];
	struct sq_wl *w = e->w;
	w->tried = true;
	if (!sq_ns_matches(&q->nssel, w->ns)) {
		sq_set_status(w, SL_SCHED_INADMISSIBLE, "Misconfigured",
			      "workload namespace doesn't match ClusterQueue selector");
		e->rq = RQ_PARK;
		return;
	}
	/* scan progress survives one cycle, or longer if nothing changed */
	uint64_t gen = s->tree_gen[sq_root(s, q->node)];
	if (w->has_last && w->last_gen != gen && s->cycle_no - w->last_cycle > 1)
		w->has_last = false;
	assign(s, e);
	e->nominated = true;
	record_last(s, w, &e->a, gen);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	if (a->a.borrowing != b->a.borrowing)
		return a->a.borrowing < b->a.borrowing ? -1 : 1;
	if (a->w->prio != b->w->prio)
		return a->w->prio > b->w->prio ? -1 : 1;
	if (a->w->created != b->w->created)
		return a->w->created < b->w->created ? -1 : 1;
	return a->w->seq < b->w->seq ? -1 : 1;
}

static bool is_victim(const struct cyc *c, const struct sq_wl *w)
{
	for (size_t i = 0; i < c->nvic; i++)
		if (c->victims[i] == w)
			return true;
	return false;
}

/* scheduler.fits: does the entry fit once every victim chosen so far, and
 * its own targets, are gone? */
static bool entry_fits(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	for (size_t i = 0; i < c->nvic; i++)
		sq_wl_charge(s, c->victims[i], -1);
	for (size_t i = 0; i < e->t.n; i++)
		if (!is_victim(c, e->t.v[i].wl))
			sq_wl_charge(s, e->t.v[i].wl, -1);
	bool ok = sq_fits_with(s, e->cq, e->a.use_fr, e->a.use_q, e->a.nuse, true) &&
		  (!s->tas_on || sq_tas_fits_now(s, e->w));
	for (size_t i = e->t.n; i-- > 0;)
		if (!is_victim(c, e->t.v[i].wl))
			sq_wl_charge(s, e->t.v[i].wl, +1);
	for (size_t i = c->nvic; i-- > 0;)
		sq_wl_charge(s, c->victims[i], +1);
	return ok;
}

/* fits' FitsCheckNoTAS: the quota holds the entry (victims and its own
 * targets gone), the nodes no longer do: an earlier head of this cycle
 * took them. */
static bool misfits_tas_only(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	if (!s->tas_on || e->partial || e->a.rep == SQ_A_NOFIT)
		return false;
	for (size_t i = 0; i < c->nvic; i++)
		sq_wl_charge(s, c->victims[i], -1);
	for (size_t i = 0; i < e->t.n; i++)
		if (!is_victim(c, e->t.v[i].wl))
			sq_wl_charge(s, e->t.v[i].wl, -1);
	bool r = sq_fits_with(s, e->cq, e->a.use_fr, e->a.use_q, e->a.nuse, true) &&
		 !sq_tas_fits_now(s, e->w);
	for (size_t i = e->t.n; i-- > 0;)
		if (!is_victim(c, e->t.v[i].wl))
			sq_wl_charge(s, e->t.v[i].wl, +1);
	for (size_t i = c->nvic; i-- > 0;)
		sq_wl_charge(s, c->victims[i], +1);
	return r;
}

/* TASRecomputeAssignmentWithinSchedulingCycle (on by default): such a head
 * is assigned again at once, on the nodes as this cycle left them, and may
 * fit elsewhere or preempt for it, instead of waiting for the next cycle.
 * Kueue pins the flavors to the nomination for it (NominationMapping); the
 * assigner here has no such pin, so an assignment on other flavors is
 * refused (false): the head waits, and its scan resumes after the
 * nominated flavors next cycle, as the pinned scan would have recorded.
 * Cost: one more assignment per head that lost its nodes. */
static bool reassign(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_wl *w = e->w;
	int n = e->a.off[w->nps];
	int *was = sl_xmalloc(((size_t)n + 1) * sizeof(int));
	int *was_tried = sl_xmalloc(((size_t)n + 1) * sizeof(int));
	memcpy(was, e->a.flv, (size_t)n * sizeof(int));
	memcpy(was_tried, e->a.tried, (size_t)n * sizeof(int));
	uint64_t gen = w->last_gen;
	w->has_last = false;
	e->t.n = 0;
	assign(s, e);
	bool same = e->a.off[w->nps] == n && memcmp(was, e->a.flv, (size_t)n * sizeof(int)) == 0;
	if (!same)
		memcpy(e->a.tried, was_tried, (size_t)n * sizeof(int));
	record_last(s, w, &e->a, gen);
	free(was);
	free(was_tried);
	return same;
}

/* reserveCapacityForUnreclaimablePreempt / quotaResourcesToReserve. */
static void reserve(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	int node = s->cq[e->cq].node;
	for (int i = 0; i < e->a.nuse; i++) {
		int fr = e->a.use_fr[i];
		int64_t req = e->a.use_q[i], r;
		const struct sq_cell *cell = sq_cell(s, node, fr);
		const struct sq_quota *q = &cell->q;
		int64_t used = cell->usage;
		if (e->a.borrowing > 0) {
			r = req;
			if (q->has_bl && q->nominal + q->bl - used < r)
				r = q->nominal + q->bl - used;
		} else {
			r = q->nominal - used < req ? q->nominal - used : req;
		}
		temp_add(c, node, fr, r);
	}
}

static const char *preempt_human(enum sl_sched_preempt_reason r)
{
	switch (r) {
	case SL_PREEMPT_IN_CLUSTER_QUEUE:
		return "prioritization in the ClusterQueue";
	case SL_PREEMPT_IN_COHORT_RECLAMATION:
		return "reclamation within the cohort";
	case SL_PREEMPT_IN_COHORT_FAIR_SHARING:
		return "Fair Sharing within the cohort";
	case SL_PREEMPT_IN_COHORT_RECLAIM_WHILE_BORROWING:
		return "reclamation within the cohort while borrowing";
	default:
		return "the ClusterQueue being stopped";
	}
}

static char *node_path(const struct sl_sched *s, int node)
{
	char *p = sl_xasprintf("/%s", s->node[node].name);
	for (int a = s->node[node].parent, g = 0; a != SQ_NONE && g <= s->nnode;
	     a = s->node[a].parent, g++) {
		char *n = sl_xasprintf("/%s%s", s->node[a].name, p);
		free(p);
		p = n;
	}
	return p;
}

static void issue_preemptions(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	char *pp = node_path(s, s->cq[e->cq].node);
	for (size_t i = 0; i < e->t.n; i++) {
		struct sq_wl *v = e->t.v[i].wl;
		c->x->victims = sl_xgrow(c->x->victims, &c->x->capvic, c->nvic + 1,
					 sizeof(*c->x->victims));
		c->victims = c->x->victims;
		c->victims[c->nvic++] = v;
		if (v->evicting)
			continue;
		v->evicting = true;
		char *vp = node_path(s, s->cq[v->adm_cq].node);
		char *msg = sl_xasprintf("Preempted to accommodate a workload (UID: %llu, JobUID: %s) "
					 "due to %s; preemptor path: %s; preemptee path: %s",
					 (unsigned long long)e->w->id, e->w->name,
					 preempt_human(e->t.v[i].reason), pp, vp);
		free(vp);
		decisions_add_preempt(c->out, v->id, e->w->id, e->t.v[i].reason, msg);
		c->changed++;
	}
	free(pp);
}

static void admit(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_wl *w = e->w;
	for (int i = 0; i < w->nps; i++) {
		for (int j = 0; j < w->ps[i].nreq; j++)
			w->ps[i].flv[j] = e->a.flv[e->a.off[i] + j];
		w->ps[i].adm_count = e->partial ? e->cnt[i] : w->ps[i].count;
	}
	sq_set_admitted(s, w, e->cq);
	sq_afs_on_admit(s, w);
	sq_decisions_add_admit(s, c->out, w);
	e->done = true;
	c->changed++;
}

static void skip(struct entry *e, const char *msg)
{
	sq_status_static(e->w, SL_SCHED_WAIT_QUOTA, "WaitingForQuota", msg);
	e->rq = RQ_IMMEDIATE;
}

/* Backfill (backfill.c): what would delay a reservation ahead of it
 * waits, parked like a head that does not fit. */
static bool gate(struct cyc *c, struct entry *e)
{
	int g = sq_backfill_gate(c->s, e->w, e->cq, e->a.borrowing, c->s->now_ms);
	if (g > 0)
		return true;
	if (g < 0) {             /* back at the head, for the next cycle */
		sq_status_static(e->w, SL_SCHED_WAIT_PRIORITY, "WaitingForQuota",
				 "waiting for the start-time plan (backfill)");
		e->rq = RQ_IMMEDIATE;
		c->changed++;
		return false;
	}
	sq_status_static(e->w, SL_SCHED_WAIT_PRIORITY, "WaitingForQuota",
			 "starting now would delay workloads ahead of it (backfill)");
	e->rq = RQ_PARK;
	return false;
}

/* Backfill's gate learns which trees had a head left out this cycle. */
static void note(struct cyc *c, const struct entry *e)
{
	if (!e->done && e->nominated)
		sq_backfill_note(c->s, e->cq);
}

static void process_preempt(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_wl *w = e->w;
	for (size_t i = 0; i < e->t.n; i++)
		if (is_victim(c, e->t.v[i].wl) && !e->t.v[i].wl->evicting) {
			skip(e, "Workload has overlapping preemption targets with another workload");
			return;
		}
	if (!entry_fits(c, e)) {
		skip(e, "Workload no longer fits after processing another workload");
		return;
	}
	if (!gate(c, e))
		return;
	issue_preemptions(c, e);
	for (int i = 0; i < e->a.nuse; i++)
		temp_add(c, s->cq[e->cq].node, e->a.use_fr[i], e->a.use_q[i]);
	sq_tas_reserve(s, w);
	sq_status_assign(w, SL_SCHED_WAIT_PREEMPTION, "WaitingForPreemptedWorkloads", &e->a,
			 e->t.n);
	s->cq[e->cq].sticky = w;
	w->has_last = false;
	e->rq = RQ_IMMEDIATE;
}

static void process(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_wl *w = e->w;
	if (!e->nominated)
		return;
	if (misfits_tas_only(c, e) && !reassign(c, e)) {
		skip(e, "Workload no longer fits after processing another workload");
		return;
	}
	if (e->a.rep == SQ_A_NOFIT) {
		const char *r = e->a.nofit_reason ? e->a.nofit_reason : "WaitingForQuota";
		/* a topology that does not hold the pods now may after nodes change */
		enum sl_sched_class cls = strcmp(r, "WaitingForQuota") == 0 ||
						  strcmp(r, "TopologyPlacementFailed") == 0
					  ? SL_SCHED_WAIT_QUOTA : SL_SCHED_NEVER_FITS;
		sq_status_assign(w, cls, r, &e->a, SIZE_MAX);
		e->rq = RQ_GENERIC;
		return;
	}
	if (e->a.rep == SQ_A_PREEMPT && e->t.n == 0) {
		sq_status_assign(w, SL_SCHED_WAIT_QUOTA, "WaitingForQuota", &e->a, SIZE_MAX);
		e->rq = RQ_GENERIC;
		if (s->cq[e->cq].reclaim != SL_KP_ANY) {
			reserve(c, e);
			sq_tas_reserve(s, w);
		}
		return;
	}
	if (e->a.rep == SQ_A_PREEMPT) {
		process_preempt(c, e);
		return;
	}
	if (!entry_fits(c, e)) {
		skip(e, "Workload no longer fits after processing another workload");
		return;
	}
	if (!gate(c, e))
		return;
	admit(c, e);
}

static void requeue(struct cyc *c, struct entry *e)
{
	struct sl_sched *s = c->s;
	struct sq_cq *q = &s->cq[e->cq];
	if (e->done)
		return;
	bool park = e->rq == RQ_PARK ||
		    (e->rq == RQ_GENERIC && !q->strict_fifo && !e->a.pending_flavors);
	if (park) {
		sq_park(s, q, e->w);
		if (e->rq == RQ_GENERIC)
			sq_park_shape(q, e->w);
		c->changed++;
	} else {
		sq_heap_push(s, q, e->w);
		if (e->rq == RQ_GENERIC && !q->strict_fifo)
			c->changed++;
	}
	if (q->sticky == e->w && e->rq != RQ_IMMEDIATE)
		q->sticky = NULL;
}

/* Any queue with a HoldAndDrain stop policy? Almost never: then drain()
 * need not walk every admitted workload each cycle (a deep queue's cost). */
static bool any_drain(const struct sl_sched *s)
{
	for (int i = 0; i < s->ncq; i++)
		if (s->cq[i].stop == SL_KSTOP_HOLD_AND_DRAIN)
			return true;
	for (int i = 0; i < s->nlq; i++)
		if (s->lq[i].stop == SL_KSTOP_HOLD_AND_DRAIN)
			return true;
	return false;
}

/* HoldAndDrain: evict what a stopped queue still runs. */
static void drain(struct cyc *c)
{
	struct sl_sched *s = c->s;
	if (!c->drains)
		return;
	for (int i = 0; i < s->ncq; i++) {
		struct sq_cq *q = &s->cq[i];
		for (size_t j = 0; j < q->nadm; j++) {
			struct sq_wl *w = q->adm[j];
			bool cqs = q->stop == SL_KSTOP_HOLD_AND_DRAIN;
			bool lqs = w->lq != SQ_NONE && s->lq[w->lq].stop == SL_KSTOP_HOLD_AND_DRAIN;
			if (w->evicting || (!cqs && !lqs))
				continue;
			w->evicting = true;
			decisions_add_preempt(c->out, w->id, 0,
						 cqs ? SL_PREEMPT_CQ_STOPPED : SL_PREEMPT_LQ_STOPPED,
						 sl_xasprintf(cqs ? "The ClusterQueue is stopped"
								  : "The LocalQueue is stopped"));
			c->changed++;
		}
	}
}

static void run_entries(struct cyc *c)
{
	if (!c->s->fair_sharing) {
		qsort(c->e, c->ne, sizeof(*c->e), entry_cmp);
		for (size_t i = 0; i < c->ne; i++) {
			process(c, &c->e[i]);
			note(c, &c->e[i]);
		}
		return;
	}
	c->x->f = sl_xgrow(c->x->f, &c->x->capf, c->ne + 1, sizeof(*c->x->f));
	struct sq_fentry *f = c->x->f;
	for (size_t i = 0; i < c->ne; i++)
		f[i] = (struct sq_fentry){c->e[i].w, c->e[i].cq, c->e[i].a.use_fr, c->e[i].a.use_q,
					  c->e[i].a.nuse, false};
	for (int i; (i = sq_fair_pick(c->s, f, c->ne)) >= 0;) {
		f[i].taken = true;
		process(c, &c->e[i]);
		note(c, &c->e[i]);
	}
}

/* Pop one head per active CQ into the reusable entries; only != SQ_NONE:
 * that CQ's alone (a chained cycle, where every other heap is empty). */
static void take_heads(struct cyc *c, int only)
{
	struct sl_sched *s = c->s;
	if (!s->cscr)
		s->cscr = sl_xcalloc(1, sizeof(*s->cscr));
	c->x = s->cscr;
	if (c->x->cape < (size_t)s->ncq + 1) {
		size_t old = c->x->cape;
		c->x->cape = (size_t)s->ncq + 1;
		c->x->e = sl_xrealloc(c->x->e, c->x->cape * sizeof(*c->x->e));
		memset(c->x->e + old, 0, (c->x->cape - old) * sizeof(*c->x->e));
		for (size_t i = old; i < c->x->cape; i++)
			sq_assign_init(&c->x->e[i].a);
	}
	c->e = c->x->e;
	c->victims = c->x->victims;
	for (int i = only == SQ_NONE ? 0 : only; i < (only == SQ_NONE ? s->ncq : only + 1); i++) {
		struct sq_cq *q = &s->cq[i];
		struct sq_wl *w = q->inactive ? NULL : sq_pop_head(s, q);
		if (!w)
			continue;
		struct entry *e = &c->e[c->ne++];
		e->w = w;
		e->cq = i;
		e->t.n = 0;
		e->need.n = 0;
		e->partial = false;
		e->nominated = e->done = false;
		e->rq = RQ_NONE;
		e->a.nrv = 0;
		e->a.nuse = 0;
		e->a.rep = SQ_A_FIT;
		e->a.borrowing = 0;
		e->a.nofit_reason = NULL;
		e->a.pending_flavors = false;
	}
}

static void cycle_once(struct cyc *c, int64_t now_ms, int only)
{
	struct sl_sched *s = c->s;
	s->cycle_no++;
	s->now_ms = now_ms;
	sq_backfill_prepare(s, now_ms);
	drain(c);
	take_heads(c, only);
	s->st.cycles++;
	s->st.tried += c->ne;
	for (size_t i = 0; i < c->ne; i++)
		nominate(c, &c->e[i]);
	run_entries(c);
	temp_undo(c);
	if (s->tas_on)
		sq_tas_unreserve(s);
	for (size_t i = 0; i < c->ne; i++)
		requeue(c, &c->e[i]);
	c->changed += sq_backfill(s, now_ms, c->out);
}

/* Kueue admits at most one head per ClusterQueue per cycle. When a cycle
 * admitted one head, preempted nothing, and left every other ClusterQueue
 * without heads (their heads parked, their heaps empty), the next cycle
 * can only be the admitting queue's next head against the same state, so
 * it runs at once, without the walk over every ClusterQueue: the
 * decisions are those of the cycles back to back, in the same order, with
 * the same flavors and preemptions (test_sched_chain.c runs both).
 * Backfill, TAS and drains look beyond one head (the plan, the nodes, the
 * admitted set): with any of them on, one cycle per call as before. */
#define CHAIN_MAX 1024   /* cycles per call: the daemon's loop stays responsive */

static int chain_cq(const struct cyc *c, size_t npreempt_before)
{
	const struct sl_sched *s = c->s;
	int cq = SQ_NONE;
	if (s->no_chain || c->nvic != 0 || c->out->npreempt != npreempt_before || s->bf_any ||
	    s->tas_on || c->drains)
		return SQ_NONE;
	for (size_t i = 0; i < c->ne; i++) {
		const struct entry *e = &c->e[i];
		if (e->done && cq == SQ_NONE)
			cq = e->cq;
		else if (e->done || s->cq[e->cq].heap.n != 0)
			return SQ_NONE;
	}
	return cq != SQ_NONE && s->cq[cq].heap.n != 0 ? cq : SQ_NONE;
}

void sl_sched_stats(const struct sl_sched *s, struct sl_sched_stats *out)
{
	*out = s->st;
}

size_t sl_sched_queue_len(const struct sl_sched *s)
{
	size_t n = 0;
	for (int i = 0; i < s->ncq; i++)
		n += s->cq[i].heap.n + s->cq[i].ninadm;
	return n;
}

void sl_sched_set_chaining(struct sl_sched *s, int on)
{
	s->no_chain = !on;
}

/* Returns how much changed: admissions, preemptions and queue moves after
 * which another cycle may decide more (a parked head). 0 means another
 * cycle now would change nothing. */
int sl_sched_cycle(struct sl_sched *s, int64_t now_ms, struct sl_sched_decisions *out)
{
	struct cyc c = {.s = s, .out = out, .drains = any_drain(s)};
	size_t np = out->npreempt;
	cycle_once(&c, now_ms, SQ_NONE);
	for (int n = 1, cq; n < CHAIN_MAX && (cq = chain_cq(&c, np)) != SQ_NONE; n++) {
		c.ne = 0;
		cycle_once(&c, now_ms, cq);
	}
	return c.changed;
}
