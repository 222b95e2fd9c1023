/* quota.c - Kueue's resource-node arithmetic (pkg/cache/scheduler/
 * resource_node.go): local quota hidden by lending limits, availability
 * capped by borrowing limits, usage bubbling to the parent past the local
 * quota, and the borrowing height used to order a cycle. Exact int64. */
#include "sched_int.h"

int64_t sq_local_quota(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	if (!n->q[fr].has_ll)
		return 0;
	int64_t v = n->subtree[fr] - n->q[fr].ll;
	return v > 0 ? v : 0;
}

int64_t sq_local_available(const struct sl_sched *s, int node, int fr)
{
	int64_t v = sq_local_quota(s, node, fr) - s->node[node].usage[fr];
	return v > 0 ? v : 0;
}

static int64_t available_raw(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	if (n->parent == SQ_NONE || n->broken)
		return n->subtree[fr] - n->usage[fr];
	int64_t pa = available_raw(s, n->parent, fr);
	if (n->q[fr].has_bl) {
		int64_t lq = sq_local_quota(s, node, fr);
		int64_t stored = n->subtree[fr] - lq;
		int64_t used = n->usage[fr] - lq;
		if (used < 0)
			used = 0;
		int64_t cap = stored - used + n->q[fr].bl;
		if (cap < pa)
			pa = cap;
	}
	return sq_local_available(s, node, fr) + pa;
}

/* A node can be "in debt" after quota shrinks; callers see 0 then. */
int64_t sq_available(const struct sl_sched *s, int node, int fr)
{
	int64_t v = available_raw(s, node, fr);
	return v > 0 ? v : 0;
}

int64_t sq_potential_available(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	if (n->parent == SQ_NONE || n->broken)
		return n->subtree[fr];
	int64_t v = sq_local_quota(s, node, fr) + sq_potential_available(s, n->parent, fr);
	if (n->q[fr].has_bl && n->subtree[fr] + n->q[fr].bl < v)
		v = n->subtree[fr] + n->q[fr].bl;
	return v;
}

void sq_add_usage(struct sl_sched *s, int node, int fr, int64_t v)
{
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		struct sq_node *n = &s->node[node];
		int64_t la = sq_local_available(s, node, fr);
		n->usage[fr] += v;
		if (n->parent == SQ_NONE || n->broken || v <= la)
			return;
		v -= la;
		node = n->parent;
	}
}

void sq_remove_usage(struct sl_sched *s, int node, int fr, int64_t v)
{
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		struct sq_node *n = &s->node[node];
		int64_t stored = n->usage[fr] - sq_local_quota(s, node, fr);
		n->usage[fr] -= v;
		if (stored <= 0 || n->parent == SQ_NONE || n->broken)
			return;
		if (stored < v)
			v = stored;
		node = n->parent;
	}
}

bool sq_borrowing_with(const struct sl_sched *s, int node, int fr, int64_t v)
{
	return s->node[node].subtree[fr] < s->node[node].usage[fr] + v;
}

/* classical.FindHeightOfLowestSubtreeThatFits: 0 when the CQ does not
 * borrow; else the height of the first ancestor that can hold the rest.
 * *may_reclaim: that subtree is smaller than the whole tree. */
int sq_height_lowest_fit(const struct sl_sched *s, int cq, int fr, int64_t v, bool *may_reclaim)
{
	const struct sq_node *n = &s->node[cq];
	bool has_parent = n->parent != SQ_NONE && !n->broken;
	if (!(sq_borrowing_with(s, cq, fr, v) && has_parent)) {
		if (may_reclaim)
			*may_reclaim = has_parent;
		return 0;
	}
	int64_t rem = v - sq_local_available(s, cq, fr);
	int node = n->parent, last = node;
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		last = node;
		if (!sq_borrowing_with(s, node, fr, rem))
			break;
		rem -= sq_local_available(s, node, fr);
		node = s->node[node].parent;
	}
	if (may_reclaim)
		*may_reclaim = s->node[last].parent != SQ_NONE;
	return s->node[last].height;
}

bool sq_within_nominal(const struct sl_sched *s, int node, const int *frs, int nfrs)
{
	for (int i = 0; i < nfrs; i++)
		if (s->node[node].usage[frs[i]] > s->node[node].subtree[frs[i]])
			return false;
	return true;
}

void sq_charge(struct sl_sched *s, int cq, const int *fr, const int64_t *q, int n, int sign)
{
	int node = s->cq[cq].node;
	for (int i = 0; i < n; i++) {
		if (fr[i] == SQ_NONE)
			continue;
		if (sign > 0)
			sq_add_usage(s, node, fr[i], q[i]);
		else
			sq_remove_usage(s, node, fr[i], q[i]);
	}
}

void sq_wl_charge(struct sl_sched *s, struct sq_wl *w, int sign)
{
	if (w->adm_cq != SQ_NONE)
		sq_charge(s, w->adm_cq, w->use_fr, w->use_q, w->nuse, sign);
}
