/* flavor.c - flavor assignment (Kueue pkg/scheduler/flavorassigner): for
 * each pod set and resource group pick one flavor for all covered
 * resources, honouring taints/tolerations and node labels, the quota left
 * in the CQ and cohort, the preemption oracle, flavorFungibility and the
 * scan progress remembered from the previous attempt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "quantity.h"
#include "xalloc.h"

struct gmode {
	enum sq_pmode mode;
	int borrow;
};

static int severity(const char *r)
{
	if (!r)
		return 0;
	if (strcmp(r, "NoMatchingFlavor") == 0)
		return 3;
	if (strcmp(r, "ExceedsMaxQuota") == 0)
		return 2;
	return 1;
}

static void add_reason(struct sq_assign *a, struct sq_reason r)
{
	a->rv = sl_xgrow(a->rv, &a->caprv, a->nrv + 1, sizeof(*a->rv));
	a->rv[a->nrv++] = r;
}

void sq_assign_init(struct sq_assign *a)
{
	memset(a, 0, sizeof(*a));
	a->failed_ps = SQ_NONE;
}

void sq_assign_free(struct sq_assign *a)
{
	free(a->flv);
	free(a->mode);
	free(a->tried);
	free(a->off);
	free(a->use_fr);
	free(a->use_q);
	free(a->rv);
	sq_assign_init(a);
}

static void sq_assign_add_use(struct sq_assign *a, int fr, int64_t q)
{
	for (int i = 0; i < a->nuse; i++)
		if (a->use_fr[i] == fr) {
			a->use_q[i] += q;
			return;
		}
	if ((size_t)a->nuse >= a->capuse) {
		a->capuse = a->capuse ? a->capuse * 2 : 4;
		a->use_fr = sl_xrealloc(a->use_fr, a->capuse * sizeof(int));
		a->use_q = sl_xrealloc(a->use_q, a->capuse * sizeof(int64_t));
	}
	a->use_fr[a->nuse] = fr;
	a->use_q[a->nuse++] = q;
}

/* Pod set ps's request j for the counts being assigned. */
static int64_t ps_req(const struct sq_assign *a, const struct sq_ps *p, int ps, int j)
{
	return a->counts ? sq_ps_total(p, j, a->counts[ps]) : p->total[j];
}

static int64_t assumed_use(const struct sq_assign *a, int fr)
{
	for (int i = 0; i < a->nuse; i++)
		if (a->use_fr[i] == fr)
			return a->use_q[i];
	return 0;
}

/* isPreferred: is a better than b under the CQ's fungibility preference. */
static bool preferred(const struct sq_cq *c, struct gmode a, struct gmode b)
{
	if (a.mode == SQ_NOFIT)
		return false;
	if (b.mode == SQ_NOFIT)
		return true;
	if ((a.mode == SQ_NOCAND) != (b.mode == SQ_NOCAND))
		return a.mode != SQ_NOCAND;
	if (c->preference == SL_KPREF_PREEMPTION_OVER_BORROWING) {
		if (a.borrow != b.borrow)
			return a.borrow < b.borrow;
		return a.mode > b.mode;
	}
	if (a.mode != b.mode)
		return a.mode > b.mode;
	return a.borrow < b.borrow;
}

static bool try_next(const struct sq_cq *c, struct gmode m)
{
	if (m.mode == SQ_NOFIT || m.mode == SQ_NOCAND)
		return true;
	if ((m.mode == SQ_PREEMPT || m.mode == SQ_RECLAIM) && c->when_preempt == SL_KF_TRY_NEXT)
		return true;
	return m.borrow > 0 && c->when_borrow == SL_KF_TRY_NEXT;
}

static bool tolerates(const struct sl_kq_toleration *t, const struct sl_kq_taint *x)
{
	if (t->effect[0] && strcmp(t->effect, x->effect) != 0)
		return false;
	bool exists = strcmp(t->op, "Exists") == 0;
	if (!t->key[0])
		return exists;
	if (strcmp(t->key, x->key) != 0)
		return false;
	return exists || strcmp(t->value, x->value) == 0;
}

bool sq_taint_tolerated(const struct sl_kq_taint *x, const struct sq_ps *p,
			const struct sl_kq_flavor *f)
{
	if (strcmp(x->effect, "NoSchedule") != 0 && strcmp(x->effect, "NoExecute") != 0)
		return true;
	for (int j = 0; j < p->ntol; j++)
		if (tolerates(&p->tol[j], x))
			return true;
	for (size_t j = 0; f && j < f->ntols; j++)
		if (tolerates(&f->tols[j], x))
			return true;
	return false;
}

/* Kueue's flavorSelector keeps only the keys of the pod's nodeSelector that
 * this flavor itself labels (not those of other flavors in the resource
 * group): a flavor without the key says nothing against it, and matches. */
static bool label_conflicts(const struct sl_kq_flavor *f, const struct sl_kq_kv *l)
{
	for (size_t i = 0; i < f->nlabels; i++)
		if (strcmp(f->labels[i].key, l->key) == 0)
			return strcmp(f->labels[i].value, l->value) != 0;
	return false;
}

/* checkFlavorForPodSets. */
bool sq_check_flavor(const struct sl_sched *s, int fl, const struct sq_ps *p,
		     struct sq_reason *why)
{
	const struct sl_kq_flavor *f = &s->flv[fl].f;
	struct sq_reason r = {.a = fl};
	if (f->line == -1) {
		r.kind = SQ_R_NOT_FOUND;
		goto bad;
	}
	for (size_t i = 0; i < f->ntaints; i++) {
		if (!sq_taint_tolerated(&f->taints[i], p, f)) {
			r.kind = SQ_R_TAINT;
			r.b = (int)i;
			goto bad;
		}
	}
	for (int j = 0; j < p->nsel; j++)
		if (label_conflicts(f, &p->sel[j])) {
			r.kind = SQ_R_AFFINITY;
			goto bad;
		}
	return true;
bad:
	if (why)
		*why = r;
	return false;
}

static bool can_preempt_while_borrowing(const struct sl_sched *s, const struct sq_cq *c)
{
	return c->bwc != SL_KP_NEVER || (s->fair_sharing && c->reclaim != SL_KP_NEVER);
}

/* GetTargets: targets for workload w (requests use_fr/use_q, frs needing
 * preemption need[]); appends to t; returns t->n. */
static size_t get_targets(struct sl_sched *s, struct sq_wl *w, int cq, const int *use_fr,
			  const int64_t *use_q, int nuse, const int *need, int nneed,
			  struct sq_targets *t)
{
	struct sq_preq x = {s, w, cq, use_fr, use_q, nuse, need, nneed};
	return s->fair_sharing ? sq_fair_targets(&x, t) : sq_classical_targets(&x, t);
}

/* SimulatePreemption for one FR (preemption_oracle.go). */
static enum sq_pmode oracle(struct sl_sched *s, struct sq_wl *w, int cq, int fr, int64_t val,
			    int *borrow)
{
	struct sq_targets t = s->otg;   /* scratch: reuse its buffer */
	int node = s->cq[cq].node;
	if (s->planning) {              /* estimate.c asks "fits now?" only */
		*borrow = sq_height_lowest_fit(s, node, fr, val, NULL);
		return SQ_NOCAND;
	}
	t.n = 0;
	get_targets(s, w, cq, &fr, &val, 1, &fr, 1, &t);
	s->otg = t;
	s->otg_key = (struct sq_otg_key){w, cq, fr, val, s->cycle_no};
	if (!t.n) {
		*borrow = sq_height_lowest_fit(s, node, fr, val, NULL);
		return SQ_NOCAND;
	}
	bool same = false;
	for (size_t i = 0; i < t.n; i++) {
		sq_wl_charge(s, t.v[i].wl, -1);
		same = same || t.v[i].wl->adm_cq == cq;
	}
	*borrow = sq_height_lowest_fit(s, node, fr, val, NULL);
	for (size_t i = t.n; i-- > 0;)
		sq_wl_charge(s, t.v[i].wl, +1);
	return same ? SQ_PREEMPT : SQ_RECLAIM;
}

/* The FRs a's preempting modes need, then GetTargets for them. */
void sq_assign_targets(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		       struct sq_needbuf *need, struct sq_targets *t)
{
	int tot = a->off[w->nps];
	need->v = sl_xgrow(need->v, &need->cap, (size_t)tot + 1, sizeof(int));
	need->n = 0;
	t->n = 0;
	for (int i = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++) {
			int k = a->off[i] + j;
			if (a->flv[k] == SQ_NONE || a->mode[k] == SQ_FIT)
				continue;
			int fr = sq_fr(s, a->flv[k], w->ps[i].res[j]), dup = 0;
			for (int m = 0; m < need->n; m++)
				dup |= need->v[m] == fr;
			if (!dup)
				need->v[need->n++] = fr;
		}
	/* one resource: the oracle has just searched the same, on the same
	 * state (the search was an eighth of a cycle with 1 000 heads) */
	const struct sq_otg_key *k = &s->otg_key;
	if (a->nuse == 1 && need->n == 1 && k->w == w && k->cq == cq &&
	    k->cycle == s->cycle_no && k->fr == need->v[0] && k->fr == a->use_fr[0] &&
	    k->val == a->use_q[0]) {
		t->v = sl_xgrow(t->v, &t->cap, s->otg.n + 1, sizeof(*t->v));
		if (s->otg.n)
			memcpy(t->v, s->otg.v, s->otg.n * sizeof(*t->v));
		t->n = s->otg.n;
		return;
	}
	get_targets(s, w, cq, a->use_fr, a->use_q, a->nuse, need->v, need->n, t);
}

/* fitsResourceQuota. */
static struct gmode fits_quota(struct sl_sched *s, struct sq_wl *w, int cq, int ps, int fr,
			       int64_t assumed, int64_t req, struct sq_assign *a,
			       const char **nofit)
{
	int node = s->cq[cq].node;
	int64_t avail = sq_available(s, node, fr), maxcap = sq_potential_available(s, node, fr);
	int64_t val = assumed + req;
	struct gmode m = {SQ_NOFIT, 0};
	if (val > maxcap) {
		add_reason(a, (struct sq_reason){SQ_R_MAXCAP, ps, fr, 0, assumed, req, maxcap});
		*nofit = "ExceedsMaxQuota";
		return m;
	}
	bool may_reclaim = false;
	m.borrow = sq_height_lowest_fit(s, node, fr, val, &may_reclaim);
	if (val <= avail) {
		m.mode = SQ_FIT;
		return m;
	}
	add_reason(a, (struct sq_reason){SQ_R_UNUSED, ps, fr, 0, val - avail, 0, 0});
	if (sq_cell(s, node, fr)->q.nominal >= val || may_reclaim ||
	    can_preempt_while_borrowing(s, &s->cq[cq])) {
		m.mode = oracle(s, w, cq, fr, val, &m.borrow);
		return m;
	}
	if (severity(*nofit) < 1)
		*nofit = "WaitingForQuota";
	return m;
}

static int next_flavor(const struct sq_wl *w, const struct sq_assign *a, int ps, int j)
{
	if (!w->has_last)
		return 0;
	int t = w->last_tried[a->off[ps] + j];
	return t < 0 ? 0 : t + 1;
}

struct rgctx {
	struct sl_sched *s;
	struct sq_wl *w;
	int cq, ps, rg;
	struct sq_assign *a;
	const char *nofit;          /* pod set's reason when it fails */
	const char *flavor_nofit;   /* last eval_flavor's reason */
};


/* One flavor of a resource group for pod set ps: worst mode over the
 * requested covered resources. */
static struct gmode eval_flavor(struct rgctx *x, int fl, enum sq_pmode *modes)
{
	const struct sq_ps *p = &x->w->ps[x->ps];
	const struct sq_cq *c = &x->s->cq[x->cq];
	struct gmode rep = {SQ_FIT, 0};
	const char *nofit = NULL;
	for (int j = 0; j < p->nreq; j++) {
		if (p->res[j] >= x->s->fr_stride || c->rg_of_res[p->res[j]] != x->rg)
			continue;
		int fr = sq_fr(x->s, fl, p->res[j]);
		struct gmode m = {SQ_NOFIT, 0};
		if (fr != SQ_NONE)
			m = fits_quota(x->s, x->w, x->cq, x->ps, fr, assumed_use(x->a, fr),
				       ps_req(x->a, p, x->ps, j), x->a, &nofit);
		modes[j] = m.mode;
		if (preferred(c, rep, m))
			rep = m;
	}
	x->flavor_nofit = rep.mode == SQ_NOFIT ? (nofit ? nofit : "WaitingForQuota") : NULL;
	return rep;
}

/* findFlavorForPodSets for one resource group; false when nothing fits. */
static bool assign_rg(struct rgctx *x, int first_j)
{
	struct sl_sched *s = x->s;
	const struct sq_cq *c = &s->cq[x->cq];
	const struct sq_rg *rg = &c->rg[x->rg];
	const struct sq_ps *p = &x->w->ps[x->ps];
	enum sq_pmode small[2][16] = {{0}};
	enum sq_pmode *modes = small[0], *best_modes = small[1];
	if (p->nreq > 16) {
		modes = sl_xcalloc((size_t)p->nreq, sizeof(*modes));
		best_modes = sl_xcalloc((size_t)p->nreq, sizeof(*modes));
	}
	struct gmode best = {SQ_NOFIT, 1 << 30};
	int best_fl = SQ_NONE, attempted = -1;
	const char *rg_min = NULL;   /* least severe flavor reason */
	for (int idx = next_flavor(x->w, x->a, x->ps, first_j); idx < rg->nfl; idx++) {
		attempted = idx;
		struct sq_reason why;
		if (!sq_check_flavor(s, rg->fl[idx], p, &why) ||
		    ((s->tas_on || p->tas) && !sq_tas_check_flavor(s, x->cq, rg->fl[idx], p, &why))) {
			why.ps = x->ps;
			add_reason(x->a, why);
			if (!rg_min)
				rg_min = "NoMatchingFlavor";
			continue;
		}
		struct gmode m = eval_flavor(x, rg->fl[idx], modes);
		if (x->flavor_nofit && (!rg_min || severity(x->flavor_nofit) < severity(rg_min)))
			rg_min = x->flavor_nofit;
		bool stop = !try_next(c, m);
		if (stop || preferred(c, m, best)) {
			best = m;
			best_fl = rg->fl[idx];
			memcpy(best_modes, modes, (size_t)p->nreq * sizeof(*modes));
		}
		if (stop)
			break;
	}
	if (best_fl != SQ_NONE) {
		int tried = attempted == rg->nfl - 1 ? -1 : attempted;
		for (int j = 0; j < p->nreq; j++) {
			if (p->res[j] >= s->fr_stride || c->rg_of_res[p->res[j]] != x->rg)
				continue;
			int k = x->a->off[x->ps] + j;
			x->a->flv[k] = best_fl;
			x->a->mode[k] = best_modes[j];
			x->a->tried[k] = tried;
			if (tried != -1)
				x->a->pending_flavors = true;
		}
		if (best.borrow > x->a->borrowing)
			x->a->borrowing = best.borrow;
	} else {
		x->nofit = rg_min ? rg_min : "NoMatchingFlavor";
	}
	if (modes != small[0]) {
		free(modes);
		free(best_modes);
	}
	return best_fl != SQ_NONE;
}

static int cmp_res_name(const struct sl_sched *s, const struct sq_ps *p, int a, int b)
{
	return strcmp(s->res[p->res[a]], s->res[p->res[b]]);
}

/* Assign every resource group a pod set requests; false on failure. */
static bool assign_ps(struct rgctx *x)
{
	struct sl_sched *s = x->s;
	const struct sq_cq *c = &s->cq[x->cq];
	const struct sq_ps *p = &x->w->ps[x->ps];
	bool small[32] = {false};
	bool *done = p->nreq > 32 ? sl_xcalloc((size_t)p->nreq, sizeof(bool)) : small;
	bool ok = true;
	for (;;) {
		int j = -1;
		for (int k = 0; k < p->nreq; k++)
			if (!done[k] && (j < 0 || cmp_res_name(s, p, k, j) < 0))
				j = k;
		if (j < 0)
			break;
		done[j] = true;
		int rg = p->res[j] < s->fr_stride ? c->rg_of_res[p->res[j]] : SQ_NONE;
		if (rg == SQ_NONE) {
			if (ps_req(x->a, p, x->ps, j) == 0)
				continue;
			add_reason(x->a, (struct sq_reason){.kind = SQ_R_UNAVAILABLE, .ps = x->ps,
							    .a = p->res[j]});
			x->nofit = "NoMatchingFlavor";
			ok = false;
			break;
		}
		for (int k = 0; k < p->nreq; k++)
			if (p->res[k] < s->fr_stride && c->rg_of_res[p->res[k]] == rg)
				done[k] = true;
		x->rg = rg;
		if (!assign_rg(x, j)) {
			ok = false;
			break;
		}
	}
	if (done != small)
		free(done);
	return ok;
}

static const char *worse_reason(const char *a, const char *b)
{
	return severity(a) >= severity(b) ? a : b;
}

/* Size a's per-request arrays for w, keeping buffers of earlier cycles. */
static void assign_reset(struct sq_assign *a, const struct sq_wl *w, const int32_t *counts)
{
	a->counts = counts;
	if ((size_t)w->nps + 2 > a->capps) {
		a->capps = (size_t)w->nps + 2;
		a->off = sl_xrealloc(a->off, a->capps * sizeof(int));
	}
	a->off[0] = 0;
	for (int i = 0; i < w->nps; i++)
		a->off[i + 1] = a->off[i] + w->ps[i].nreq;
	size_t tot = (size_t)a->off[w->nps];
	if (tot + 1 > a->cap) {
		a->cap = tot + 1;
		a->flv = sl_xrealloc(a->flv, a->cap * sizeof(int));
		a->mode = sl_xrealloc(a->mode, a->cap * sizeof(*a->mode));
		a->tried = sl_xrealloc(a->tried, a->cap * sizeof(int));
	}
	for (size_t i = 0; i < tot; i++) {
		a->flv[i] = SQ_NONE;
		a->mode[i] = SQ_NOFIT;
		a->tried[i] = -1;
	}
	a->nps = w->nps;
	a->rep = SQ_A_FIT;
	a->borrowing = 0;
	a->nuse = 0;
	a->nrv = 0;
	a->nofit_reason = NULL;
	a->pending_flavors = false;
	a->failed_ps = SQ_NONE;
}

void sq_assign_flavors(struct sl_sched *s, struct sq_wl *w, int cq, const int32_t *counts,
		       struct sq_assign *a)
{
	assign_reset(a, w, counts);
	for (int i = 0; i < w->nps; i++) {
		struct rgctx x = {s, w, cq, i, 0, a, NULL, NULL};
		bool ok = assign_ps(&x);
		if (!ok) {
			a->rep = SQ_A_NOFIT;
			a->failed_ps = i;
			a->nofit_reason = worse_reason(a->nofit_reason, x.nofit ? x.nofit : "NoMatchingFlavor");
			return;
		}
		for (int j = 0; j < w->ps[i].nreq; j++) {
			int k = a->off[i] + j;
			if (a->flv[k] == SQ_NONE)
				continue;
			sq_assign_add_use(a, sq_fr(s, a->flv[k], w->ps[i].res[j]),
					  ps_req(a, &w->ps[i], i, j));
			if (a->mode[k] != SQ_FIT)
				a->rep = SQ_A_PREEMPT;
		}
	}
}
