/* preempt.c - classical preemption (Kueue pkg/scheduler/preemption,
 * classical): candidates within the ClusterQueue and, walking up the
 * cohort tree, in borrowing subtrees; Kueue's candidate order; removal in
 * order until the preemptor fits, then fill-back of all but the last
 * victim. The live usage is modified during the search and restored. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

enum variant { V_WITHIN_CQ, V_HIER, V_RWOB, V_RWB };

struct cand {
	struct sq_wl *wl;
	int lca;
	enum variant var;
};

struct cands {
	struct cand *v;
	size_t n, cap;
};

/* Candidate lists kept between searches (the search runs for nearly
 * every head of a busy cohort). */
struct sq_pscratch {
	struct cands same, hier, prio, all;
	int64_t *rem;
	size_t caprem;
};

void sq_pscratch_free(struct sq_pscratch *p)
{
	if (!p)
		return;
	free(p->same.v);
	free(p->hier.v);
	free(p->prio.v);
	free(p->all.v);
	free(p->rem);
	free(p);
}

void sq_targets_push(struct sq_targets *t, struct sq_wl *w, enum sl_sched_preempt_reason r)
{
	t->v = sl_xgrow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n].wl = w;
	t->v[t->n++].reason = r;
}

bool sq_uses_needed(const struct sq_wl *w, const int *need, int nneed)
{
	for (int i = 0; i < w->nuse; i++)
		for (int j = 0; j < nneed; j++)
			if (w->use_fr[i] == need[j])
				return true;
	return false;
}

bool sq_policy_allows(enum sl_kq_policy p, const struct sq_wl *pre, const struct sq_wl *c)
{
	/* backfill.c admitted c ahead of pre without delaying it: pre waits
	 * for c's end (before pre's reservation) rather than preempt it */
	if (c->backfilled && pre->seq <= c->bf_seq)
		return false;
	switch (p) {
	case SL_KP_LOWER:
		return c->prio < pre->prio;
	case SL_KP_LOWER_OR_NEWER_EQUAL:
		return c->prio < pre->prio || (c->prio == pre->prio && pre->created < c->created);
	case SL_KP_ANY:
		return true;
	default:
		return false;
	}
}

/* classifyPreemptionVariant; false = cannot be preempted. */
static bool classify(const struct sq_preq *x, const struct sq_wl *c, bool adv, enum variant *v)
{
	const struct sq_cq *q = &x->s->cq[x->cq];
	if (!sq_uses_needed(c, x->need, x->nneed))
		return false;
	bool same = c->adm_cq == x->cq;
	if (!sq_policy_allows(same ? q->within_cq : q->reclaim, x->w, c))
		return false;
	if (same)
		*v = V_WITHIN_CQ;
	else if (adv)
		*v = V_HIER;
	else if (q->bwc == SL_KP_NEVER)
		*v = V_RWOB;
	else if (c->prio >= x->w->prio || (q->has_bwc_threshold && c->prio > q->bwc_threshold))
		*v = V_RWOB;
	else
		*v = V_RWB;
	return true;
}

static void cands_from_cq(const struct sq_preq *x, int cq, int lca, bool adv, struct cands *out)
{
	const struct sq_cq *q = &x->s->cq[cq];
	for (size_t i = 0; i < q->nadm; i++) {
		enum variant v;
		if (q->adm[i] == x->w || !classify(x, q->adm[i], adv, &v))
			continue;
		out->v = sl_xgrow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n++] = (struct cand){q->adm[i], lca, v};
	}
}

static void collect_subtree(const struct sq_preq *x, int cur, int lca, int skip, bool adv,
			    struct cands *out, int depth)
{
	const struct sq_node *n = &x->s->node[cur];
	if (depth > x->s->nnode)
		return;
	for (size_t i = 0; i < n->nkids; i++) {
		int k = n->kids[i];
		if (x->s->node[k].is_cq || k == skip ||
		    sq_within_nominal(x->s, k, x->need, x->nneed))
			continue;
		collect_subtree(x, k, lca, skip, adv, out, depth + 1);
	}
	for (size_t i = 0; i < n->nkids; i++) {
		int k = n->kids[i];
		if (!x->s->node[k].is_cq || k == x->s->cq[x->cq].node ||
		    sq_within_nominal(x->s, k, x->need, x->nneed))
			continue;
		cands_from_cq(x, k, lca, adv, out);
	}
}

/* QuantitiesFitInQuota over the request, updating the remaining part. */
static bool fit_in_quota(struct sl_sched *s, int node, const int *fr, int64_t *rem, int n)
{
	bool fits = true;
	for (int i = 0; i < n; i++) {
		const struct sq_cell *c = sq_cell(s, node, fr[i]);
		if (c->usage + rem[i] > c->subtree)
			fits = false;
		int64_t r = rem[i] - sq_local_available(s, node, fr[i]);
		rem[i] = r > 0 ? r : 0;
	}
	return fits;
}

static void collect_hier(const struct sq_preq *x, struct cands *hier, struct cands *prio)
{
	struct sl_sched *s = x->s;
	const struct sq_cq *q = &s->cq[x->cq];
	const struct sq_node *n = &s->node[q->node];
	if (n->parent == SQ_NONE || n->broken || q->reclaim == SL_KP_NEVER)
		return;
	struct sq_pscratch *p = s->pscr;
	p->rem = sl_xgrow(p->rem, &p->caprem, (size_t)x->nuse + 1, sizeof(int64_t));
	int64_t *rem = p->rem;
	memcpy(rem, x->use_q, (size_t)x->nuse * sizeof(int64_t));
	bool adv = fit_in_quota(s, q->node, x->use_fr, rem, x->nuse);
	int prev = SQ_NONE;
	for (int a = n->parent, g = 0; a != SQ_NONE && g <= s->nnode; a = s->node[a].parent, g++) {
		collect_subtree(x, a, a, prev, adv, adv ? hier : prio, 0);
		adv = fit_in_quota(s, a, x->use_fr, rem, x->nuse) || adv;
		prev = a;
	}
}

/* CandidatesOrdering: <0 when a goes first. */
int sq_cand_cmp(const struct sl_sched *s, int cq, const struct sq_wl *a, const struct sq_wl *b)
{
	if (a->evicting != b->evicting)
		return a->evicting ? -1 : 1;
	bool ain = a->adm_cq == cq, bin = b->adm_cq == cq;
	if (ain != bin)
		return ain ? 1 : -1;
	if (a->adm_cq == b->adm_cq && a->lq != b->lq && a->adm_cq != SQ_NONE &&
	    sq_afs_on(s, &s->cq[a->adm_cq])) {
		double ua = sq_lq_afs_usage(s, a->lq), ub = sq_lq_afs_usage(s, b->lq);
		if (ua != ub)
			return ua > ub ? -1 : 1;
	}
	if (a->prio != b->prio)
		return a->prio < b->prio ? -1 : 1;
	if (a->admit_seq != b->admit_seq)
		return a->admit_seq > b->admit_seq ? -1 : 1;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

static int cand_qcmp(const void *pa, const void *pb, void *arg)
{
	const struct cand *a = pa, *b = pb;
	const struct sq_preq *x = arg;
	return sq_cand_cmp(x->s, x->cq, a->wl, b->wl);
}

static void sort_cands(const struct sq_preq *x, struct cands *c)
{
	if (c->n > 1)
		qsort_r(c->v, c->n, sizeof(*c->v), cand_qcmp, (void *)x);
}

/* Evicting candidates of every list first, each list keeping its order. */
static void merge_lists(struct cands *all, struct cands *l[3])
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 3; i++)
			for (size_t j = 0; j < l[i]->n; j++)
				if (l[i]->v[j].wl->evicting == (pass == 0)) {
					all->v = sl_xgrow(all->v, &all->cap, all->n + 1, sizeof(*all->v));
					all->v[all->n++] = l[i]->v[j];
				}
}

bool sq_fits_with(struct sl_sched *s, int cq, const int *use_fr, const int64_t *use_q,
		  int nuse, bool allow_borrow)
{
	int node = s->cq[cq].node;
	for (int i = 0; i < nuse; i++) {
		if (!allow_borrow && sq_borrowing_with(s, node, use_fr[i], use_q[i]))
			return false;
		if (use_q[i] > sq_available(s, node, use_fr[i]))
			return false;
	}
	return sq_tas_preemptor_fits(s);
}

static bool cand_valid(const struct sq_preq *x, const struct cand *c, bool borrow)
{
	struct sl_sched *s = x->s;
	if (c->wl->adm_cq == x->cq)
		return true;
	if (borrow && c->var == V_RWOB)
		return false;
	int n = s->cq[c->wl->adm_cq].node;
	if (sq_within_nominal(s, n, x->need, x->nneed))
		return false;
	for (int a = s->node[n].parent, g = 0; a != SQ_NONE && a != c->lca && g <= s->nnode;
	     a = s->node[a].parent, g++)
		if (sq_within_nominal(s, a, x->need, x->nneed))
			return false;
	return true;
}

void sq_fill_back(struct sl_sched *s, int cq, const int *use_fr, const int64_t *use_q,
		  int nuse, bool borrow, struct sq_targets *t)
{
	for (size_t i = t->n >= 2 ? t->n - 1 : 0; i-- > 0;) {
		sq_wl_charge(s, t->v[i].wl, +1);
		if (sq_fits_with(s, cq, use_fr, use_q, nuse, borrow)) {
			t->v[i] = t->v[t->n - 1];
			t->n--;
		} else {
			sq_wl_charge(s, t->v[i].wl, -1);
		}
	}
}

static enum sl_sched_preempt_reason var_reason(enum variant v)
{
	switch (v) {
	case V_WITHIN_CQ:
		return SL_PREEMPT_IN_CLUSTER_QUEUE;
	case V_RWB:
		return SL_PREEMPT_IN_COHORT_RECLAIM_WHILE_BORROWING;
	default:
		return SL_PREEMPT_IN_COHORT_RECLAMATION;
	}
}

static bool attempt(const struct sq_preq *x, const struct cands *all, bool borrow, struct sq_targets *t)
{
	size_t start = t->n;
	for (size_t i = 0; i < all->n; i++) {
		if (!cand_valid(x, &all->v[i], borrow))
			continue;
		sq_wl_charge(x->s, all->v[i].wl, -1);
		sq_targets_push(t, all->v[i].wl, var_reason(all->v[i].var));
		if (sq_fits_with(x->s, x->cq, x->use_fr, x->use_q, x->nuse, borrow)) {
			sq_fill_back(x->s, x->cq, x->use_fr, x->use_q, x->nuse, borrow, t);
			for (size_t j = start; j < t->n; j++)
				sq_wl_charge(x->s, t->v[j].wl, +1);
			return true;
		}
	}
	for (size_t j = start; j < t->n; j++)
		sq_wl_charge(x->s, t->v[j].wl, +1);
	t->n = start;
	return false;
}

static bool under_nominal(const struct sq_preq *x)
{
	int node = x->s->cq[x->cq].node;
	for (int i = 0; i < x->nneed; i++) {
		const struct sq_cell *c = sq_cell(x->s, node, x->need[i]);
		if (c->usage >= c->q.nominal)
			return false;
	}
	return true;
}

size_t sq_classical_targets(const struct sq_preq *x, struct sq_targets *t)
{
	if (!x->s->pscr)
		x->s->pscr = sl_xcalloc(1, sizeof(*x->s->pscr));
	struct sq_pscratch *p = x->s->pscr;
	struct cands same = p->same, hier = p->hier, prio = p->prio, all = p->all;
	same.n = hier.n = prio.n = all.n = 0;
	const struct sq_cq *q = &x->s->cq[x->cq];
	if (q->within_cq != SL_KP_NEVER)
		cands_from_cq(x, x->cq, SQ_NONE, false, &same);
	collect_hier(x, &hier, &prio);
	sort_cands(x, &same);
	sort_cands(x, &hier);
	sort_cands(x, &prio);
	struct cands *lists[3] = {&hier, &prio, &same};
	merge_lists(&all, lists);
	bool forbidden = q->bwc == SL_KP_NEVER;
	bool opts[2];
	int nopt;
	if ((hier.n == 0 && prio.n == 0) || (forbidden && !under_nominal(x))) {
		opts[0] = true;
		nopt = 1;
	} else if (forbidden && hier.n == 0) {
		opts[0] = false;
		opts[1] = true;
		nopt = 2;
	} else {
		opts[0] = true;
		opts[1] = false;
		nopt = 2;
	}
	for (int i = 0; i < nopt; i++)
		if (attempt(x, &all, opts[i], t))
			break;
	p->same = same;
	p->hier = hier;
	p->prio = prio;
	p->all = all;
	return t->n;
}
