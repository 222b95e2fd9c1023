/* tas.c - topology-aware scheduling (Kueue TAS) in the engine: the node
 * inventory, one topology tree per TAS flavor, the usage admitted
 * workloads hold per leaf, the flavor check (Kueue's
 * checkPodSetAndFlavorMatchForTAS), and the placement step after flavor
 * assignment (flavorassigner.go: a workload whose pod sets fit by quota
 * gets a topology assignment, or waits with TopologyPlacementFailed).
 * The algorithm itself is tas_place.c.
 * Cost: nothing for a model without TAS flavors (one test per call). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tas_int.h"
#include "xalloc.h"

int tas_res_index(const struct sq_tas *x, const char *name)
{
	for (int i = 0; i < x->nres; i++)
		if (strcmp(x->res[i], name) == 0)
			return i;
	return -1;
}

static int res_intern(struct sq_tas *x, const char *name)
{
	int i = tas_res_index(x, name);
	if (i >= 0)
		return i;
	x->res = sl_xrealloc(x->res, (size_t)(x->nres + 1) * sizeof(char *));
	x->res[x->nres] = sl_xstrdup(name);
	return x->nres++;
}

static void free_tree(struct tas_topo *t)
{
	for (int d = 0; d < t->ndom; d++) {
		free(t->dom[d].kids);
		free(t->dom[d].values);
		free(t->dom[d].id);
	}
	for (int l = 0; l < t->nleaf; l++) {
		free(t->leaf[l].nodes);
		free(t->leaf[l].free);
		free(t->leaf[l].used);
		free(t->leaf[l].assumed);
	}
	for (int l = 0; t->lvl && l < t->nlevels; l++)
		free(t->lvl[l]);
	free(t->lvl);
	free(t->nlvl);
	free(t->dom);
	free(t->leaf);
	t->lvl = NULL;
	t->nlvl = NULL;
	t->dom = NULL;
	t->leaf = NULL;
	t->ndom = t->capdom = t->nleaf = 0;
}

static void free_topos(struct sq_tas *x)
{
	for (int i = 0; i < x->ntopo; i++) {
		struct tas_topo *t = &x->t[i];
		free_tree(t);
		free(t->name);
		sl_strv_free(t->levels);
	}
	free(x->t);
	x->t = NULL;
	x->ntopo = 0;
	free(x->topo_of_flv);
	x->topo_of_flv = NULL;
}

static void free_nodes(struct sq_tas *x)
{
	for (int i = 0; i < x->nnode; i++) {
		struct tas_node *n = &x->node[i];
		free(n->name);
		sq_kv_free(n->labels, (size_t)n->nlabels);
		for (int j = 0; j < n->ntaints; j++) {
			free(n->taints[j].key);
			free(n->taints[j].value);
			free(n->taints[j].effect);
		}
		free(n->taints);
		free(n->free);
		free(n->used);
		free(n->assumed);
	}
	free(x->node);
	x->node = NULL;
	x->nnode = 0;
}

void sq_tas_free(struct sl_sched *s)
{
	struct sq_tas *x = s->tas;
	if (!x)
		return;
	free_topos(x);
	free_nodes(x);
	for (int i = 0; i < x->nres; i++)
		free(x->res[i]);
	free(x->res);
	for (size_t i = 0; i < x->nmsg; i++)
		free(x->msg[i]);
	free(x->msg);
	free(x->outd);
	free(x->resv);
	free(x);
	s->tas = NULL;
}

static const char *label_of(const struct tas_node *n, const char *key)
{
	for (int i = 0; i < n->nlabels; i++)
		if (strcmp(n->labels[i].key, key) == 0)
			return n->labels[i].value;
	return NULL;
}

/* Copy the inventory; every node's free capacity per TAS resource. */
static void set_nodes(struct sq_tas *x, const struct sl_sched_node *v, size_t n)
{
	free_nodes(x);
	res_intern(x, "pods");
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < v[i].nalloc; j++)
			res_intern(x, v[i].alloc[j].resource);
	x->node = sl_xcalloc(n + 1, sizeof(*x->node));
	for (size_t i = 0; i < n; i++) {
		struct tas_node *d = &x->node[x->nnode++];
		d->name = sl_xstrdup(v[i].name);
		d->unavailable = v[i].unavailable != 0;
		d->nlabels = (int)v[i].nlabels;
		d->labels = sl_xcalloc(v[i].nlabels + 1, sizeof(*d->labels));
		for (size_t j = 0; j < v[i].nlabels; j++)
			d->labels[j] = (struct sl_kq_kv){sl_xstrdup(v[i].labels[j].key),
							 sl_xstrdup(v[i].labels[j].value)};
		d->ntaints = (int)v[i].ntaints;
		d->taints = sl_xcalloc(v[i].ntaints + 1, sizeof(*d->taints));
		for (size_t j = 0; j < v[i].ntaints; j++)
			d->taints[j] = (struct sl_kq_taint){
				sl_xstrdup(v[i].taints[j].key),
				sl_xstrdup(v[i].taints[j].value ? v[i].taints[j].value : ""),
				sl_xstrdup(v[i].taints[j].effect ? v[i].taints[j].effect : "")};
		d->free = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		d->used = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		d->assumed = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		for (size_t j = 0; j < v[i].nalloc; j++)
			d->free[tas_res_index(x, v[i].alloc[j].resource)] += v[i].alloc[j].milli;
		for (size_t j = 0; j < v[i].nusage; j++) {
			int r = tas_res_index(x, v[i].usage[j].resource);
			if (r >= 0)
				d->free[r] -= v[i].usage[j].milli;
		}
	}
}

static int dom_add(struct tas_topo *t, int parent, int level, char **vals)
{
	if (t->ndom == t->capdom) {
		t->capdom = t->capdom ? t->capdom * 2 : 64;
		t->dom = sl_xrealloc(t->dom, (size_t)t->capdom * sizeof(*t->dom));
	}
	int id = t->ndom++;
	struct tas_dom *d = &t->dom[id];
	memset(d, 0, sizeof(*d));
	d->parent = parent;
	d->level = level;
	d->leaf = -1;
	d->values = sl_xcalloc((size_t)level + 2, sizeof(char *));
	memcpy(d->values, vals, (size_t)(level + 1) * sizeof(char *));
	d->id = sl_xstrdup(vals[0]);
	for (int i = 1; i <= level; i++) {
		char *n = sl_xasprintf("%s,%s", d->id, vals[i]);
		free(d->id);
		d->id = n;
	}
	if (parent >= 0) {
		struct tas_dom *p = &t->dom[parent];
		if (p->nkids == p->capkids) {
			p->capkids = p->capkids ? p->capkids * 2 : 4;
			p->kids = sl_xrealloc(p->kids, (size_t)p->capkids * sizeof(int));
		}
		p->kids[p->nkids++] = id;
	}
	t->lvl[level] = sl_xrealloc(t->lvl[level], (size_t)(t->nlvl[level] + 1) * sizeof(int));
	t->lvl[level][t->nlvl[level]++] = id;
	return id;
}

static bool node_in_flavor(const struct tas_node *n, const struct sl_kq_flavor *f)
{
	for (size_t i = 0; i < f->nlabels; i++) {
		const char *v = label_of(n, f->labels[i].key);
		if (!v || strcmp(v, f->labels[i].value) != 0)
			return false;
	}
	return true;
}

static void add_leaf_node(struct sq_tas *x, struct tas_topo *t, int dom, int node)
{
	struct tas_dom *d = &t->dom[dom];
	if (d->leaf < 0) {
		t->leaf = sl_xrealloc(t->leaf, (size_t)(t->nleaf + 1) * sizeof(*t->leaf));
		struct tas_leaf *l = &t->leaf[t->nleaf];
		memset(l, 0, sizeof(*l));
		l->dom = dom;
		l->free = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		l->used = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		l->assumed = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		d->leaf = t->nleaf++;
	}
	struct tas_leaf *l = &t->leaf[d->leaf];
	l->nodes = sl_xrealloc(l->nodes, (size_t)(l->nnodes + 1) * sizeof(int));
	l->nodes[l->nnodes++] = node;
	for (int r = 0; r < x->nres; r++)
		l->free[r] += x->node[node].free[r];
}

static void build_tree(struct sq_tas *x, struct tas_topo *t, const struct sl_kq_flavor *f)
{
	char **vals = sl_xcalloc((size_t)t->nlevels + 1, sizeof(char *));
	t->lvl = sl_xcalloc((size_t)t->nlevels + 1, sizeof(int *));
	t->nlvl = sl_xcalloc((size_t)t->nlevels + 1, sizeof(int));
	/* a flavor whose Topology is missing (or has no levels) has no tree:
	 * every node would be a leaf without a domain */
	for (int i = 0; t->nlevels > 0 && i < x->nnode; i++) {
		const struct tas_node *n = &x->node[i];
		bool ok = !n->unavailable && node_in_flavor(n, f);
		for (int l = 0; ok && l < t->nlevels; l++)
			ok = (vals[l] = (char *)label_of(n, t->levels[l])) != NULL;
		if (!ok)
			continue;
		int parent = -1;
		for (int l = 0; l < t->nlevels; l++) {
			int n0 = parent < 0 ? t->nlvl[0] : t->dom[parent].nkids, d = -1;
			const int *k = parent < 0 ? t->lvl[0] : t->dom[parent].kids;
			for (int j = 0; j < n0 && d < 0; j++)
				if (strcmp(t->dom[k[j]].values[l], vals[l]) == 0)
					d = k[j];
			parent = d >= 0 ? d : dom_add(t, parent, l, vals);
		}
		add_leaf_node(x, t, parent, i);
	}
	free(vals);
}

/* The model's `nodes:` as the engine's node inventory. */
static void nodes_from_model(struct sq_tas *x, const struct sl_kueue *k)
{
	struct sl_sched_node *v = sl_xcalloc(k->nnodes + 1, sizeof(*v));
	for (size_t i = 0; i < k->nnodes; i++) {
		const struct sl_kq_node *n = &k->nodes[i];
		struct sl_sched_label *l = sl_xcalloc(n->nlabels + 1, sizeof(*l));
		struct sl_sched_taint *tt = sl_xcalloc(n->ntaints + 1, sizeof(*tt));
		struct sl_sched_req *a = sl_xcalloc(n->nalloc + n->nusage + 1, sizeof(*a));
		for (size_t j = 0; j < n->nlabels; j++)
			l[j] = (struct sl_sched_label){n->labels[j].key, n->labels[j].value};
		for (size_t j = 0; j < n->ntaints; j++)
			tt[j] = (struct sl_sched_taint){n->taints[j].key, n->taints[j].value,
							n->taints[j].effect};
		for (size_t j = 0; j < n->nalloc; j++)
			a[j] = (struct sl_sched_req){n->alloc[j].resource, n->alloc[j].milli};
		for (size_t j = 0; j < n->nusage; j++)
			a[n->nalloc + j] = (struct sl_sched_req){n->usage[j].resource,
								 n->usage[j].milli};
		v[i] = (struct sl_sched_node){n->name, n->nlabels, l, n->ntaints, tt,
					      n->nalloc, a, n->nusage, a + n->nalloc,
					      n->unavailable};
	}
	set_nodes(x, v, k->nnodes);
	for (size_t i = 0; i < k->nnodes; i++) {
		free((void *)v[i].labels);
		free((void *)v[i].taints);
		free((void *)v[i].alloc);
	}
	free(v);
}

/* The model's Topology objects and TAS flavors; the inventory from the
 * model when it has a `nodes:` list, else the one fed before. */
void sq_tas_build(struct sl_sched *s, const struct sl_kueue *k)
{
	if (!s->tas)
		s->tas = sl_xcalloc(1, sizeof(*s->tas));
	struct sq_tas *x = s->tas;
	free_topos(x);
	x->gen++;
	if (k->has_nodes) {
		nodes_from_model(x, k);
	} else {
		/* the same nodes: the caller charges every admitted workload again */
		for (int i = 0; i < x->nnode; i++) {
			memset(x->node[i].used, 0, (size_t)x->nres * sizeof(int64_t));
			memset(x->node[i].assumed, 0, (size_t)x->nres * sizeof(int64_t));
		}
	}
	x->nflv = s->nflv;
	x->topo_of_flv = sl_xcalloc((size_t)s->nflv + 1, sizeof(int));
	for (int i = 0; i < s->nflv; i++)
		x->topo_of_flv[i] = -1;
	x->t = sl_xcalloc(k->nflavors + 1, sizeof(*x->t));
	for (size_t i = 0; i < k->nflavors; i++) {
		const struct sl_kq_flavor *f = &k->flavors[i];
		int fl = f->topology ? sq_flavor_index(s, f->name) : -1;
		if (fl < 0)
			continue;
		struct tas_topo *t = &x->t[x->ntopo];
		const struct sl_kq_topology *tp = sl_kueue_find_topology(k, f->topology);
		t->flv = fl;
		t->name = sl_xstrdup(f->topology);
		t->missing = tp == NULL;
		t->nlevels = tp ? (int)tp->nlevels : 0;
		t->levels = sl_xcalloc((size_t)t->nlevels + 1, sizeof(char *));
		for (int l = 0; l < t->nlevels; l++)
			t->levels[l] = sl_xstrdup(tp->levels[l]);
		t->host_leaf = t->nlevels > 0 && strcmp(t->levels[t->nlevels - 1], TAS_HOSTNAME) == 0;
		build_tree(x, t, &s->flv[fl].f);
		x->topo_of_flv[fl] = x->ntopo++;
	}
	s->tas_on = x->ntopo > 0;
}

/* The trees again, over the current node copies. */
static void rebuild(struct sl_sched *s)
{
	struct sq_tas *x = s->tas;
	x->gen++;
	for (int i = 0; i < x->ntopo; i++) {
		free_tree(&x->t[i]);
		build_tree(x, &x->t[i], &s->flv[x->t[i].flv].f);
	}
}

/* Nodes came, went or changed: every parked workload may fit now (Kueue's
 * TAS node handler requeues the inadmissible workloads on a Node event).
 * Nodes are shared across cohort trees, so it is every tree. */
static void requeue_parked(struct sl_sched *s)
{
	for (int i = 0; i < s->ncq; i++) {
		struct sq_cq *c = &s->cq[i];
		c->nprep = 0;
		while (c->ninadm > 0)
			sq_heap_push(s, c, c->inadm[--c->ninadm]);
	}
	for (int i = 0; s->tree_parked && i < s->nnode; i++) {
		s->tree_parked[i] = false;
		s->tree_gen[i]++;
	}
}

int sl_sched_set_nodes(struct sl_sched *s, const struct sl_sched_node *nodes, size_t n,
		       struct sl_err *err)
{
	(void)err;
	if (!s->tas)
		s->tas = sl_xcalloc(1, sizeof(*s->tas));
	struct sq_tas *x = s->tas;
	/* the trees point into the node copies: rebuild them over the new ones */
	struct sq_wl **all = NULL;
	size_t nw = sq_wt_list(s, &all);
	for (size_t i = 0; i < nw; i++)
		if (all[i]->where == SQ_W_ADMITTED)
			sq_tas_charge(s, all[i], -1);
	set_nodes(x, nodes, n);
	rebuild(s);
	for (size_t i = 0; i < nw; i++)
		if (all[i]->where == SQ_W_ADMITTED)
			sq_tas_charge(s, all[i], +1);
	free(all);
	requeue_parked(s);
	return 0;
}
