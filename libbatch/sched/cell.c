/* cell.c - the sparse per-node storage of quota and usage by FR (the
 * design is at the top of sched_int.h): each node's sorted set of FRs,
 * built from the model in one pass, and the insertion of a cell when a
 * write falls outside that set. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

const struct sq_cell sq_cell_zero;

/* The leading run of consecutive FRs (sq_cell_find's shortcut). */
static void set_run(struct sq_node *n)
{
	n->run_fr = n->ncell ? n->frk[0] : 0;
	n->nrun = n->ncell ? 1 : 0;
	while (n->nrun < n->ncell && n->frk[n->nrun] == n->run_fr + n->nrun)
		n->nrun++;
}

struct sq_cell *sq_cell_mut(struct sl_sched *s, int node, int fr)
{
	struct sq_node *n = &s->node[node];
	int lo = 0, hi = n->ncell;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (n->frk[mid] < fr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n->ncell && n->frk[lo] == fr)
		return &n->cell[lo];
	if (n->ncell == n->capcell) {
		n->capcell = n->capcell ? 2 * n->capcell : 4;
		n->frk = sl_xrealloc(n->frk, (size_t)n->capcell * sizeof(*n->frk));
		n->cell = sl_xrealloc(n->cell, (size_t)n->capcell * sizeof(*n->cell));
	}
	size_t tail = (size_t)(n->ncell - lo);
	memmove(&n->frk[lo + 1], &n->frk[lo], tail * sizeof(*n->frk));
	memmove(&n->cell[lo + 1], &n->cell[lo], tail * sizeof(*n->cell));
	n->frk[lo] = fr;
	n->cell[lo] = sq_cell_zero;
	n->ncell++;
	set_run(n);
	return &n->cell[lo];
}

void sq_cells_free(struct sq_node *n)
{
	free(n->frk);
	free(n->cell);
	n->frk = NULL;
	n->cell = NULL;
	n->ncell = n->capcell = 0;
	n->run_fr = n->nrun = 0;
}

struct pair {
	int node, fr;
};

struct pairs {
	struct pair *v;
	size_t n, cap;
};

static void push(struct pairs *p, int node, int fr)
{
	if (fr == SQ_NONE)
		return;
	p->v = sl_xgrow(p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n++] = (struct pair){node, fr};
}

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->fr > y->fr) - (x->fr < y->fr);
}

/* The FRs node's own quota defines; for a ClusterQueue (covered) also
 * every flavor of a group x every resource the group covers, where flavor
 * assignment may charge it. */
static void push_own(struct sl_sched *s, struct pairs *p, int node,
		     const struct sl_kq_resource_group *rg, size_t nrg, bool covered)
{
	for (size_t g = 0; g < nrg; g++)
		for (size_t f = 0; f < rg[g].nflavors; f++) {
			const struct sl_kq_flavor_quotas *fl = &rg[g].flavors[f];
			int flv = sq_flavor_index(s, fl->flavor);
			for (size_t r = 0; r < fl->nres; r++)
				push(p, node, sq_fr(s, flv, sq_res_index(s, fl->res[r].resource, false)));
			for (size_t r = 0; covered && r < rg[g].ncovered; r++)
				push(p, node, sq_fr(s, flv, sq_res_index(s, rg[g].covered[r], false)));
		}
}

/* Sort by node then FR, and drop duplicates. */
static void uniq(struct pairs *p)
{
	if (p->n < 2)
		return;
	qsort(p->v, p->n, sizeof(*p->v), pair_cmp);
	size_t w = 1;
	for (size_t i = 1; i < p->n; i++)
		if (pair_cmp(&p->v[i], &p->v[w - 1]) != 0)
			p->v[w++] = p->v[i];
	p->n = w;
}

/* Node's own FRs, p->v[from..to), go to each of its ancestors, each
 * visited once even if the chain ran into a cohort cycle (the loader
 * rejects cycles; the engine still marks them, see mark_cycles). */
static void push_up(struct sl_sched *s, struct pairs *p, size_t from, size_t to, int node,
		    int *seen)
{
	seen[node] = node + 1;
	for (int a = s->node[node].parent; a != SQ_NONE && seen[a] != node + 1;
	     a = s->node[a].parent) {
		seen[a] = node + 1;
		for (size_t i = from; i < to; i++)
			push(p, a, p->v[i].fr);
	}
}

/* Lay the sorted, unique pairs out as each node's frk and zero cells. */
static void lay_out(struct sl_sched *s, const struct pairs *p)
{
	for (size_t i = 0; i < p->n;) {
		size_t j = i;
		while (j < p->n && p->v[j].node == p->v[i].node)
			j++;
		struct sq_node *n = &s->node[p->v[i].node];
		n->ncell = n->capcell = (int)(j - i);
		n->frk = sl_xmalloc((j - i) * sizeof(*n->frk));
		n->cell = sl_xcalloc(j - i, sizeof(*n->cell));
		for (size_t k = i; k < j; k++)
			n->frk[k - i] = p->v[k].fr;
		set_run(n);
		i = j;
	}
}

void sq_cells_build(struct sl_sched *s, const struct sl_kueue *k)
{
	struct pairs own = {0}, all = {0};
	for (size_t i = 0; i < k->ncqs; i++)
		push_own(s, &own, (int)i, k->cqs[i].rg, k->cqs[i].nrg, true);
	for (size_t i = 0; i < k->ncohorts; i++)
		push_own(s, &own, s->ncq + (int)i, k->cohorts[i].rg, k->cohorts[i].nrg, false);
	uniq(&own);
	int *seen = sl_xcalloc((size_t)s->nnode + 1, sizeof(int));
	for (size_t i = 0; i < own.n;) {
		size_t j = i, from = all.n;
		for (; j < own.n && own.v[j].node == own.v[i].node; j++)
			push(&all, own.v[j].node, own.v[j].fr);
		push_up(s, &all, from, all.n, own.v[i].node, seen);
		i = j;
	}
	free(seen);
	uniq(&all);
	lay_out(s, &all);
	free(own.v);
	free(all.v);
}
