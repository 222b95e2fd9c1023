/* fairshare.c - Kueue fair sharing: the dominant resource share of a CQ or
 * cohort (pkg/cache/scheduler/fair_sharing.go), the admission tournament
 * across cohort levels (fair_sharing_iterator.go) and fair-sharing
 * preemption with the LessThanOrEqualToFinalShare / LessThanInitialShare
 * strategies (preemption/fairsharing). Shares are ratios and use double;
 * quota arithmetic stays integer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

struct sq_drs {
	double ratio;                /* unweighted, per mille */
	double weight;
	bool borrowing;
};

static bool has_parent(const struct sl_sched *s, int node)
{
	return s->node[node].parent != SQ_NONE && !s->node[node].broken;
}

static struct sq_drs sq_drs(const struct sl_sched *s, int node)
{
	struct sq_drs d = {0, s->node[node].weight_milli / 1000.0, false};
	if (!has_parent(s, node))
		return d;
	const struct sq_node *n = &s->node[node];
	int64_t stackbuf[64];
	int64_t *b = s->nres <= 64 ? stackbuf : sl_xcalloc((size_t)s->nres, sizeof(int64_t));
	memset(b, 0, (size_t)s->nres * sizeof(int64_t));
	/* an FR without a cell has no usage nor quota there */
	for (int i = 0; i < n->ncell; i++) {
		int64_t x = n->cell[i].usage - n->cell[i].subtree;
		if (x > 0) {
			b[s->fr_res[n->frk[i]]] += x;
			d.borrowing = true;
		}
	}
	/* What the parent can lend is quota: none on an FR that nothing in
	 * the tree defines, so the root's cells hold every FR that counts. */
	const struct sq_node *top = &s->node[n->root];
	if (d.borrowing)
		for (int r = 0; r < s->nres; r++) {
			if (b[r] <= 0)
				continue;
			int64_t lend = 0;
			for (int i = 0; i < top->ncell; i++)
				if (s->fr_res[top->frk[i]] == r)
					lend += sq_potential_available(s, n->parent, top->frk[i]);
			if (lend > 0) {
				double ratio = (double)b[r] * 1000.0 / (double)lend;
				if (ratio > d.ratio)
					d.ratio = ratio;
			}
		}
	if (b != stackbuf)
		free(b);
	return d;
}

static bool zero_weight_borrows(struct sq_drs d)
{
	return d.weight == 0 && d.borrowing;
}

static double weighted(struct sq_drs d)
{
	if (zero_weight_borrows(d))
		return INFINITY;
	if (d.ratio == 0)
		return 0;
	return d.ratio / d.weight;
}

static int sq_drs_cmp(struct sq_drs a, struct sq_drs b)
{
	bool za = zero_weight_borrows(a), zb = zero_weight_borrows(b);
	if (za && zb)
		return (a.ratio > b.ratio) - (a.ratio < b.ratio);
	if (za || zb)
		return za ? 1 : -1;
	double x = weighted(a), y = weighted(b);
	return (x > y) - (x < y);
}

/* Is node borrowing on any of these FRs (usage > subtree quota)? */
static bool sq_borrowing_on(const struct sl_sched *s, int node, const int *fr, int n)
{
	if (!has_parent(s, node))
		return false;
	for (int i = 0; i < n; i++) {
		const struct sq_cell *c = sq_cell(s, node, fr[i]);
		if (c->usage > c->subtree)
			return true;
	}
	return false;
}

/* ---- admission tournament ---- */

struct tcand {
	int idx;                 /* entry index */
	bool nonborrow;
	struct sq_drs drs;
};

static struct tcand eval_cand(struct sl_sched *s, struct sq_fentry *e, int idx, int kid)
{
	struct tcand t = {idx, false, {0, 1, false}};
	sq_charge(s, e[idx].cq, e[idx].use_fr, e[idx].use_q, e[idx].nuse, +1);
	t.drs = sq_drs(s, kid);
	t.nonborrow = !sq_borrowing_on(s, kid, e[idx].use_fr, e[idx].nuse);
	for (int i = e[idx].nuse; i-- > 0;)
		sq_remove_usage(s, s->cq[e[idx].cq].node, e[idx].use_fr[i], e[idx].use_q[i]);
	return t;
}

static bool tless(const struct sq_fentry *e, const struct tcand *a, const struct tcand *b)
{
	if (a->nonborrow != b->nonborrow)
		return a->nonborrow;
	int c = sq_drs_cmp(a->drs, b->drs);
	if (c)
		return c < 0;
	const struct sq_wl *x = e[a->idx].w, *y = e[b->idx].w;
	if (x->prio != y->prio)
		return x->prio > y->prio;
	if (x->created != y->created)
		return x->created < y->created;
	return x->seq < y->seq;
}

static int tournament(struct sl_sched *s, struct sq_fentry *e, size_t ne, int cohort, int depth)
{
	const struct sq_node *n = &s->node[cohort];
	struct tcand best = {-1, false, {0, 1, false}};
	if (depth > s->nnode)
		return -1;
	for (size_t k = 0; k < n->nkids; k++) {
		int kid = n->kids[k], idx = -1;
		if (!s->node[kid].is_cq) {
			idx = tournament(s, e, ne, kid, depth + 1);
		} else {
			for (size_t i = 0; i < ne && idx < 0; i++)
				if (!e[i].taken && s->cq[e[i].cq].node == kid)
					idx = (int)i;
		}
		if (idx < 0)
			continue;
		struct tcand c = eval_cand(s, e, idx, kid);
		if (best.idx < 0 || tless(e, &c, &best))
			best = c;
	}
	return best.idx;
}

int sq_fair_pick(struct sl_sched *s, struct sq_fentry *e, size_t ne)
{
	for (size_t i = 0; i < ne; i++)
		if (!e[i].taken && !has_parent(s, s->cq[e[i].cq].node))
			return (int)i;
	for (size_t i = 0; i < ne; i++)
		if (!e[i].taken)
			return tournament(s, e, ne, sq_root(s, s->cq[e[i].cq].node), 0);
	return -1;
}

/* ---- fair-sharing preemption ---- */

struct fctx {
	struct sq_preq p;
	struct sq_wl **c;        /* candidates, sorted */
	bool *gone;              /* popped from the ordering */
	size_t nc;
};

static void charge_preemptor(const struct sq_preq *p, int sign)
{
	sq_charge(p->s, p->cq, p->use_fr, p->use_q, p->nuse, sign);
}

static bool fits_fs(struct fctx *x)
{
	charge_preemptor(&x->p, -1);
	bool ok = sq_fits_with(x->p.s, x->p.cq, x->p.use_fr, x->p.use_q, x->p.nuse, true);
	charge_preemptor(&x->p, +1);
	return ok;
}

static void add_cand(struct fctx *x, struct sq_wl *w, size_t *cap)
{
	if (w == x->p.w || !sq_uses_needed(w, x->p.need, x->p.nneed))
		return;
	x->c = sl_xgrow(x->c, cap, x->nc + 1, sizeof(*x->c));
	x->c[x->nc++] = w;
}

static int qcmp(const void *a, const void *b, void *arg)
{
	const struct fctx *x = arg;
	return sq_cand_cmp(x->p.s, x->p.cq, *(struct sq_wl *const *)a, *(struct sq_wl *const *)b);
}

static void find_cands(struct fctx *x)
{
	struct sl_sched *s = x->p.s;
	const struct sq_cq *q = &s->cq[x->p.cq];
	size_t cap = 0;
	if (q->within_cq != SL_KP_NEVER)
		for (size_t i = 0; i < q->nadm; i++)
			if (sq_policy_allows(q->within_cq, x->p.w, q->adm[i]))
				add_cand(x, q->adm[i], &cap);
	if (has_parent(s, q->node) && q->reclaim != SL_KP_NEVER) {
		int root = sq_root(s, q->node);
		for (int c = 0; c < s->ncq; c++) {
			if (c == x->p.cq || sq_root(s, s->cq[c].node) != root ||
			    !sq_borrowing_on(s, s->cq[c].node, x->p.need, x->p.nneed))
				continue;
			for (size_t i = 0; i < s->cq[c].nadm; i++)
				if (sq_policy_allows(q->reclaim, x->p.w, s->cq[c].adm[i]))
					add_cand(x, s->cq[c].adm[i], &cap);
		}
	}
	if (x->nc > 1)
		qsort_r(x->c, x->nc, sizeof(*x->c), qcmp, x);
	x->gone = sl_xcalloc(x->nc + 1, sizeof(bool));
}

/* First remaining candidate of CQ cq (or -1). */
static int first_of(const struct fctx *x, int cq)
{
	for (size_t i = 0; i < x->nc; i++)
		if (!x->gone[i] && x->c[i]->adm_cq == cq)
			return (int)i;
	return -1;
}

static bool on_path(const struct sl_sched *s, int node, int cqnode)
{
	for (int a = cqnode, g = 0; a != SQ_NONE && g <= s->nnode; a = s->node[a].parent, g++)
		if (a == node)
			return true;
	return false;
}

static int subtree_first(const struct fctx *x, int node, int depth)
{
	const struct sl_sched *s = x->p.s;
	if (s->node[node].is_cq)
		return first_of(x, node);
	if (depth > s->nnode)
		return -1;
	for (size_t k = 0; k < s->node[node].nkids; k++) {
		int r = subtree_first(x, s->node[node].kids[k], depth + 1);
		if (r >= 0)
			return r;
	}
	return -1;
}

/* TargetClusterQueueOrdering: descend choosing the highest-share child that
 * has candidates and borrows (the preemptor's path is never pruned). */
static int choose_cq(struct fctx *x, int node, int depth)
{
	struct sl_sched *s = x->p.s;
	int pnode = s->cq[x->p.cq].node;
	if (s->node[node].is_cq)
		return first_of(x, node) >= 0 ? node : -1;
	if (depth > s->nnode)
		return -1;
	size_t nk = s->node[node].nkids;
	bool *tried = sl_xcalloc(nk + 1, sizeof(bool));
	int result = -1;
	for (;;) {
		int bk = -1;
		struct sq_drs bd = {0, 1, false};
		for (size_t k = 0; k < nk; k++) {
			int kid = s->node[node].kids[k];
			if (tried[k] || subtree_first(x, kid, 0) < 0)
				continue;
			struct sq_drs d = sq_drs(s, kid);
			if (!d.borrowing && kid != pnode && !on_path(s, kid, pnode))
				continue;
			int c = bk < 0 ? 1 : sq_drs_cmp(d, bd);
			if (c == 0) {
				int kb = s->node[node].kids[bk];
				bool kc = !s->node[kid].is_cq, bc = !s->node[kb].is_cq;
				if (kc != bc)
					c = kc ? 1 : -1;
				else if (!kc)
					c = sq_cand_cmp(s, x->p.cq, x->c[subtree_first(x, kid, 0)],
							x->c[subtree_first(x, kb, 0)]) < 0 ? 1 : -1;
			}
			if (c > 0) {
				bk = (int)k;
				bd = d;
			}
		}
		if (bk < 0)
			break;
		tried[bk] = true;
		result = choose_cq(x, s->node[node].kids[bk], depth + 1);
		if (result >= 0)
			break;
	}
	free(tried);
	return result;
}

/* The children of the lowest common ancestor on each side. */
static void almost_lca(const struct sl_sched *s, int a, int b, int *pa, int *pb)
{
	for (int x = a, gx = 0; x != SQ_NONE && gx <= s->nnode; x = s->node[x].parent, gx++)
		for (int y = b, gy = 0; y != SQ_NONE && gy <= s->nnode; y = s->node[y].parent, gy++)
			if (s->node[x].parent != SQ_NONE && s->node[x].parent == s->node[y].parent) {
				*pa = x;
				*pb = y;
				return;
			}
	*pa = a;
	*pb = b;
}

static bool take(struct fctx *x, int i, enum sl_sched_preempt_reason r, struct sq_targets *t)
{
	x->gone[i] = true;
	sq_wl_charge(x->p.s, x->c[i], -1);
	sq_targets_push(t, x->c[i], r);
	return fits_fs(x);
}

static bool strategy_ok(enum sl_kq_fs_strategy st, struct sq_drs pnew, struct sq_drs told,
			struct sq_drs tnew)
{
	if (st == SL_KFS_LE_FINAL_SHARE)
		return sq_drs_cmp(pnew, tnew) <= 0;
	return sq_drs_cmp(pnew, told) < 0;
}

static bool run_first(struct fctx *x, struct sq_targets *t, bool *retry)
{
	struct sl_sched *s = x->p.s;
	int root = sq_root(s, s->cq[x->p.cq].node), pnode = s->cq[x->p.cq].node;
	for (int tq; (tq = choose_cq(x, root, 0)) >= 0;) {
		int tcq = tq; /* node index == cq index */
		if (tcq == x->p.cq) {
			if (take(x, first_of(x, tcq), SL_PREEMPT_IN_CLUSTER_QUEUE, t))
				return true;
			continue;
		}
		if (!sq_borrowing_on(s, pnode, x->p.need, x->p.nneed)) {
			if (take(x, first_of(x, tcq), SL_PREEMPT_IN_COHORT_RECLAMATION, t))
				return true;
			continue;
		}
		int pa, pb;
		almost_lca(s, pnode, tq, &pa, &pb);
		struct sq_drs pnew = sq_drs(s, pa), told = sq_drs(s, pb);
		for (int i; (i = first_of(x, tcq)) >= 0;) {
			sq_wl_charge(s, x->c[i], -1);
			struct sq_drs tnew = sq_drs(s, pb);
			sq_wl_charge(s, x->c[i], +1);
			if (strategy_ok(s->strat[0], pnew, told, tnew)) {
				if (take(x, i, SL_PREEMPT_IN_COHORT_FAIR_SHARING, t))
					return true;
				break;
			}
			x->gone[i] = true;
			retry[i] = true;
		}
	}
	return false;
}

static bool run_second(struct fctx *x, struct sq_targets *t, bool *retry)
{
	struct sl_sched *s = x->p.s;
	int root = sq_root(s, s->cq[x->p.cq].node), pnode = s->cq[x->p.cq].node;
	for (size_t i = 0; i < x->nc; i++)
		x->gone[i] = !retry[i];
	for (int tq; (tq = choose_cq(x, root, 0)) >= 0;) {
		int pa, pb;
		almost_lca(s, pnode, tq, &pa, &pb);
		if (sq_drs_cmp(sq_drs(s, pa), sq_drs(s, pb)) < 0 &&
		    take(x, first_of(x, tq), SL_PREEMPT_IN_COHORT_FAIR_SHARING, t))
			return true;
		for (size_t i = 0; i < x->nc; i++)
			if (x->c[i]->adm_cq == tq)
				x->gone[i] = true;
	}
	return false;
}

size_t sq_fair_targets(const struct sq_preq *p, struct sq_targets *t)
{
	struct fctx x = {*p, NULL, NULL, 0};
	struct sl_sched *s = p->s;
	size_t start = t->n;
	find_cands(&x);
	if (!x.nc) {
		free(x.gone);
		return 0;
	}
	bool *retry = sl_xcalloc(x.nc + 1, sizeof(bool));
	charge_preemptor(p, +1);
	bool fits = run_first(&x, t, retry);
	if (!fits && s->nstrat > 1)
		fits = run_second(&x, t, retry);
	charge_preemptor(p, -1);
	if (fits)
		sq_fill_back(s, p->cq, p->use_fr, p->use_q, p->nuse, true, t);
	for (size_t j = t->n; j-- > start;)
		sq_wl_charge(s, t->v[j].wl, +1);
	if (!fits)
		t->n = start;
	free(retry);
	free(x.c);
	free(x.gone);
	return t->n - start;
}
