/* quota.c - Kueue's resource-node arithmetic (pkg/cache/scheduler/
 * resource_node.go): local quota hidden by lending limits, availability
 * capped by borrowing limits, usage bubbling to the parent past the local
 * quota, and the borrowing height used to order a cycle. Exact int64.
 * Each step up the parent chain looks the FR up once in the node's cells
 * (sq_cell), and works on the cell. */
#include "sched_int.h"

static int64_t cell_local_available(const struct sq_cell *c)
{
	int64_t v = sq_cell_local_quota(c) - c->usage;
	return v > 0 ? v : 0;
}

static bool is_top(const struct sq_node *n)
{
	return n->parent == SQ_NONE || n->broken;
}

/* The cell to write: found inline (the common case, on every charge of a
 * preemption search), inserted out of line. */
static inline struct sq_cell *cell_w(struct sl_sched *s, int node, int fr)
{
	struct sq_node *n = &s->node[node];
	int i = sq_cell_find(n, fr);
	return i != SQ_NONE ? &n->cell[i] : sq_cell_mut(s, node, fr);
}

int64_t sq_local_quota(const struct sl_sched *s, int node, int fr)
{
	return sq_cell_local_quota(sq_cell(s, node, fr));
}

int64_t sq_local_available(const struct sl_sched *s, int node, int fr)
{
	return cell_local_available(sq_cell(s, node, fr));
}

static int64_t available_raw(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	const struct sq_cell *c = sq_cell(s, node, fr);
	if (is_top(n))
		return c->subtree - c->usage;
	int64_t pa = available_raw(s, n->parent, fr);
	if (c->q.has_bl) {
		int64_t lq = sq_cell_local_quota(c);
		int64_t stored = c->subtree - lq;
		int64_t used = c->usage - lq;
		if (used < 0)
			used = 0;
		int64_t cap = stored - used + c->q.bl;
		if (cap < pa)
			pa = cap;
	}
	return cell_local_available(c) + pa;
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
	const struct sq_cell *c = sq_cell(s, node, fr);
	if (is_top(n))
		return c->subtree;
	int64_t v = sq_cell_local_quota(c) + sq_potential_available(s, n->parent, fr);
	if (c->q.has_bl && c->subtree + c->q.bl < v)
		v = c->subtree + c->q.bl;
	return v;
}

void sq_add_usage(struct sl_sched *s, int node, int fr, int64_t v)
{
	if (v == 0)
		return;   /* changes nothing; and would insert a cell for nothing */
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		struct sq_cell *c = cell_w(s, node, fr);
		int64_t la = cell_local_available(c);
		c->usage += v;
		if (is_top(&s->node[node]) || v <= la)
			return;
		v -= la;
		node = s->node[node].parent;
	}
}

void sq_remove_usage(struct sl_sched *s, int node, int fr, int64_t v)
{
	if (v == 0)
		return;
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		struct sq_cell *c = cell_w(s, node, fr);
		int64_t stored = c->usage - sq_cell_local_quota(c);
		c->usage -= v;
		if (stored <= 0 || is_top(&s->node[node]))
			return;
		if (stored < v)
			v = stored;
		node = s->node[node].parent;
	}
}

bool sq_borrowing_with(const struct sl_sched *s, int node, int fr, int64_t v)
{
	const struct sq_cell *c = sq_cell(s, node, fr);
	return c->subtree < c->usage + v;
}

/* classical.FindHeightOfLowestSubtreeThatFits: 0 when the CQ does not
 * borrow; else the height of the first ancestor that can hold the rest.
 * *may_reclaim: that subtree is smaller than the whole tree. */
int sq_height_lowest_fit(const struct sl_sched *s, int cq, int fr, int64_t v, bool *may_reclaim)
{
	const struct sq_node *n = &s->node[cq];
	const struct sq_cell *c = sq_cell(s, cq, fr);
	bool has_parent = !is_top(n);
	if (!(c->subtree < c->usage + v && has_parent)) {
		if (may_reclaim)
			*may_reclaim = has_parent;
		return 0;
	}
	int64_t rem = v - cell_local_available(c);
	int node = n->parent, last = node;
	for (int guard = 0; node != SQ_NONE && guard <= s->nnode; guard++) {
		last = node;
		c = sq_cell(s, node, fr);
		if (!(c->subtree < c->usage + rem))
			break;
		rem -= cell_local_available(c);
		node = s->node[node].parent;
	}
	if (may_reclaim)
		*may_reclaim = s->node[last].parent != SQ_NONE;
	return s->node[last].height;
}

bool sq_within_nominal(const struct sl_sched *s, int node, const int *frs, int nfrs)
{
	for (int i = 0; i < nfrs; i++) {
		const struct sq_cell *c = sq_cell(s, node, frs[i]);
		if (c->usage > c->subtree)
			return false;
	}
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
	if (s->tas_on)
		sq_tas_charge(s, w, sign);
}
