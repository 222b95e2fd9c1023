/* model.c - turn a validated struct sl_kueue into the engine's model:
 * interned resources, flavors and flavor-resource pairs, one node per
 * ClusterQueue and Cohort with its quota cells (cell.c), subtree quotas
 * and heights. sl_sched_new/free and sl_sched_reconfigure (api.c) build
 * and free it through here. Names are found through hash maps: with
 * 5 000 ClusterQueues and flavors, linear scans were a quadratic load. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

int sq_res_index(struct sl_sched *s, const char *name, bool create)
{
	for (int i = 0; i < s->nres; i++)
		if (strcmp(s->res[i], name) == 0)
			return i;
	if (!create)
		return SQ_NONE;
	s->res = sl_xrealloc(s->res, (size_t)(s->nres + 1) * sizeof(*s->res));
	s->res[s->nres] = sl_xstrdup(name);
	return s->nres++;
}

static bool flv_eq(const void *ctx, int i, const char *name, const char *unused)
{
	const struct sl_sched *s = ctx;
	(void)unused;
	return strcmp(s->flv[i].name, name) == 0;
}

int sq_flavor_index(const struct sl_sched *s, const char *name)
{
	return sq_nm_get(&s->flvmap, name, "", flv_eq, s);
}

static bool node_eq(const void *ctx, int i, const char *name, const char *kind)
{
	const struct sl_sched *s = ctx;
	return s->node[i].is_cq == !kind[0] && strcmp(s->node[i].name, name) == 0;
}

/* The node of CQ or cohort `name` (CQs and cohorts are separate names). */
static int node_by_name(const struct sl_sched *s, const char *name, bool cohort)
{
	return sq_nm_get(&s->nodemap, name, cohort ? "cohort" : "", node_eq, s);
}

int sq_cq_find(const struct sl_sched *s, const char *name)
{
	return node_by_name(s, name, false);   /* CQ i is node i */
}

static bool lq_eq(const void *ctx, int i, const char *ns, const char *name)
{
	const struct sl_sched *s = ctx;
	return strcmp(s->lq[i].ns, ns) == 0 && strcmp(s->lq[i].name, name) == 0;
}

int sq_lq_find(const struct sl_sched *s, const char *ns, const char *name)
{
	return sq_nm_get(&s->lqmap, ns, name, lq_eq, s);
}

static int find_root(const struct sl_sched *s, int node)
{
	int guard = s->nnode;
	while (s->node[node].parent != SQ_NONE && guard-- > 0)
		node = s->node[node].parent;
	return node;
}

int sq_root(const struct sl_sched *s, int node)
{
	return s->node[node].root;
}

/* Roots are cached, and each tree's CQs chained, so that the requeue
 * after every finish walks one tree, not every ClusterQueue. */
static void link_trees(struct sl_sched *s)
{
	for (int i = 0; i < s->nnode; i++)
		s->node[i].root = find_root(s, i);
	s->tree_first = sl_xcalloc((size_t)s->nnode + 1, sizeof(int));
	s->tree_parked = sl_xcalloc((size_t)s->nnode + 1, sizeof(bool));
	for (int i = 0; i < s->nnode; i++)
		s->tree_first[i] = SQ_NONE;
	for (int i = s->ncq; i-- > 0;) {
		int r = s->node[s->cq[i].node].root;
		s->cq[i].next_in_tree = s->tree_first[r];
		s->tree_first[r] = i;
	}
}

static struct sl_kq_kv *kv_copy(const struct sl_kq_kv *v, size_t n)
{
	struct sl_kq_kv *r = sl_xcalloc(n + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r[i].key = sl_xstrdup(v[i].key);
		r[i].value = sl_xstrdup(v[i].value);
	}
	return r;
}

void sq_kv_free(struct sl_kq_kv *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

void sq_tols_free(struct sl_kq_toleration *t, size_t n)
{
	for (size_t i = 0; t && i < n; i++) {
		free(t[i].key);
		free(t[i].op);
		free(t[i].value);
		free(t[i].effect);
	}
	free(t);
}

static void selector_copy(struct sl_kq_selector *d, const struct sl_kq_selector *s)
{
	d->present = s->present;
	d->nmatch = s->nmatch;
	d->match = kv_copy(s->match, s->nmatch);
	d->nexpr = s->nexpr;
	d->expr = sl_xcalloc(s->nexpr + 1, sizeof(*d->expr));
	for (size_t i = 0; i < s->nexpr; i++) {
		d->expr[i].key = sl_xstrdup(s->expr[i].key);
		d->expr[i].op = sl_xstrdup(s->expr[i].op);
		d->expr[i].nvalues = s->expr[i].nvalues;
		d->expr[i].values = sl_strv_dup(s->expr[i].values); /* NULL-terminated */
	}
}

static void selector_free(struct sl_kq_selector *d)
{
	sq_kv_free(d->match, d->nmatch);
	for (size_t i = 0; i < d->nexpr; i++) {
		free(d->expr[i].key);
		free(d->expr[i].op);
		sl_strv_free(d->expr[i].values);
	}
	free(d->expr);
}

static bool strv_has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Sluice namespaces carry one label: kubernetes.io/metadata.name=<ns>. */
bool sq_ns_matches(const struct sl_kq_selector *sel, const char *ns)
{
	static const char *nskey = "kubernetes.io/metadata.name";
	if (!sel->present)
		return false;
	for (size_t i = 0; i < sel->nmatch; i++)
		if (strcmp(sel->match[i].key, nskey) != 0 || strcmp(sel->match[i].value, ns) != 0)
			return false;
	for (size_t i = 0; i < sel->nexpr; i++) {
		const struct sl_kq_selreq *e = &sel->expr[i];
		bool has = strcmp(e->key, nskey) == 0;
		bool in = has && strv_has(e->values, e->nvalues, ns);
		if ((strcmp(e->op, "In") == 0 && !in) || (strcmp(e->op, "NotIn") == 0 && in) ||
		    (strcmp(e->op, "Exists") == 0 && !has) ||
		    (strcmp(e->op, "DoesNotExist") == 0 && has))
			return false;
	}
	return true;
}

static void flavor_copy(struct sq_flavor *d, const struct sl_kq_flavor *f)
{
	/* The array grows by realloc: every field must be set here, or a
	 * reload can find the last model's "missing" mark in f.line. */
	memset(d, 0, sizeof(*d));
	d->name = sl_xstrdup(f->name);
	d->f.line = f->line;
	d->f.name = d->name;
	d->f.nlabels = f->nlabels;
	d->f.labels = kv_copy(f->labels, f->nlabels);
	d->f.ntaints = f->ntaints;
	d->f.taints = sl_xcalloc(f->ntaints + 1, sizeof(*d->f.taints));
	for (size_t i = 0; i < f->ntaints; i++) {
		d->f.taints[i].key = sl_xstrdup(f->taints[i].key);
		d->f.taints[i].value = sl_xstrdup(f->taints[i].value);
		d->f.taints[i].effect = sl_xstrdup(f->taints[i].effect);
	}
	d->f.ntols = f->ntols;
	d->f.tols = sl_xcalloc(f->ntols + 1, sizeof(*d->f.tols));
	for (size_t i = 0; i < f->ntols; i++) {
		d->f.tols[i].key = sl_xstrdup(f->tols[i].key);
		d->f.tols[i].op = sl_xstrdup(f->tols[i].op);
		d->f.tols[i].value = sl_xstrdup(f->tols[i].value);
		d->f.tols[i].effect = sl_xstrdup(f->tols[i].effect);
	}
}

static void flavor_free(struct sq_flavor *d)
{
	sq_kv_free(d->f.labels, d->f.nlabels);
	for (size_t i = 0; i < d->f.ntaints; i++) {
		free(d->f.taints[i].key);
		free(d->f.taints[i].value);
		free(d->f.taints[i].effect);
	}
	free(d->f.taints);
	sq_tols_free(d->f.tols, d->f.ntols);
	free(d->name);
}

static int intern_flavor(struct sl_sched *s, const char *name)
{
	int i = sq_flavor_index(s, name);
	if (i != SQ_NONE)
		return i;
	/* referenced but not defined: kept so its name prints; CQ goes inactive */
	s->flv = sl_xrealloc(s->flv, (size_t)(s->nflv + 1) * sizeof(*s->flv));
	memset(&s->flv[s->nflv], 0, sizeof(s->flv[0]));
	s->flv[s->nflv].name = sl_xstrdup(name);
	s->flv[s->nflv].f.name = s->flv[s->nflv].name;
	s->flv[s->nflv].f.line = -1; /* marks "missing" */
	sq_nm_put(&s->flvmap, name, "", s->nflv);
	return s->nflv++;
}

static void intern_rgs(struct sl_sched *s, const struct sl_kq_resource_group *rg, size_t nrg)
{
	for (size_t g = 0; g < nrg; g++)
		for (size_t f = 0; f < rg[g].nflavors; f++) {
			intern_flavor(s, rg[g].flavors[f].flavor);
			for (size_t r = 0; r < rg[g].flavors[f].nres; r++)
				sq_res_index(s, rg[g].flavors[f].res[r].resource, true);
		}
}

static void build_fr(struct sl_sched *s, const struct sl_kueue *k)
{
	s->fr_stride = s->nres + 16;
	s->fr_of = sl_xmalloc((size_t)s->nflv * (size_t)s->fr_stride * sizeof(int) + 1);
	for (int i = 0; i < s->nflv * s->fr_stride; i++)
		s->fr_of[i] = SQ_NONE;
	s->nfr = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? k->ncohorts : k->ncqs;
		for (size_t i = 0; i < n; i++) {
			const struct sl_kq_resource_group *rg = pass ? k->cohorts[i].rg : k->cqs[i].rg;
			size_t nrg = pass ? k->cohorts[i].nrg : k->cqs[i].nrg;
			for (size_t g = 0; g < nrg; g++)
				for (size_t f = 0; f < rg[g].nflavors; f++)
					for (size_t r = 0; r < rg[g].flavors[f].nres; r++) {
						int fl = sq_flavor_index(s, rg[g].flavors[f].flavor);
						int re = sq_res_index(s, rg[g].flavors[f].res[r].resource, false);
						int *slot = &s->fr_of[fl * s->fr_stride + re];
						if (*slot != SQ_NONE)
							continue;
						*slot = s->nfr++;
						s->fr_flv = sl_xrealloc(s->fr_flv, (size_t)s->nfr * sizeof(int));
						s->fr_res = sl_xrealloc(s->fr_res, (size_t)s->nfr * sizeof(int));
						s->fr_flv[s->nfr - 1] = fl;
						s->fr_res[s->nfr - 1] = re;
					}
		}
	}
}

static int add_node(struct sl_sched *s, const char *name, bool is_cq, size_t *cap)
{
	s->node = sl_xgrow(s->node, cap, (size_t)s->nnode + 1, sizeof(*s->node));
	struct sq_node *n = &s->node[s->nnode];
	memset(n, 0, sizeof(*n));
	n->name = sl_xstrdup(name);
	n->is_cq = is_cq;
	n->parent = SQ_NONE;
	n->weight_milli = 1000;
	sq_nm_put(&s->nodemap, n->name, is_cq ? "" : "cohort", s->nnode);
	return s->nnode++;
}

static int cohort_node(struct sl_sched *s, const char *name, size_t *cap)
{
	int i = node_by_name(s, name, true);
	if (i == SQ_NONE) {
		i = add_node(s, name, false, cap);
		s->node[i].implicit = true;
	}
	return i;
}

static void set_quotas(struct sl_sched *s, int node, const struct sl_kq_resource_group *rg, size_t nrg)
{
	for (size_t g = 0; g < nrg; g++)
		for (size_t f = 0; f < rg[g].nflavors; f++)
			for (size_t r = 0; r < rg[g].flavors[f].nres; r++) {
				const struct sl_kq_quota *kq = &rg[g].flavors[f].res[r];
				int fr = sq_fr(s, sq_flavor_index(s, rg[g].flavors[f].flavor),
					       sq_res_index(s, kq->resource, false));
				struct sq_quota *q = &sq_cell_mut(s, node, fr)->q;
				q->defined = true;
				q->nominal = kq->nominal;
				q->has_bl = kq->has_bl;
				q->bl = kq->bl;
				q->has_ll = kq->has_ll;
				q->ll = kq->ll;
			}
}

static void mark_inactive(struct sq_cq *c)
{
	if (!c->inactive)
		c->inactive = sl_xasprintf("ClusterQueue %s is inactive", c->name);
}

/* Kueue's Active=False condition (FlavorNotFound): its message names the
 * missing flavors, comma-separated, once each. The workloads' own message
 * stays "ClusterQueue X is inactive" (sq_enqueue). */
static void mark_missing_flavors(struct sl_sched *s, struct sq_cq *c)
{
	char *list = NULL;
	for (int g = 0; g < c->nrg; g++)
		for (int f = 0; f < c->rg[g].nfl; f++) {
			const char *n = c->rg[g].flname[f];
			bool seen = false;
			if (s->flv[c->rg[g].fl[f]].f.line != -1)
				continue;
			for (int h = 0; h <= g && !seen; h++)
				for (int e = 0; e < (h < g ? c->rg[h].nfl : f) && !seen; e++)
					seen = strcmp(c->rg[h].flname[e], n) == 0;
			if (seen)
				continue;
			char *t = sl_xasprintf("%s%s%s", list ? list : "", list ? "," : "", n);
			free(list);
			list = t;
		}
	if (list == NULL)
		return;
	free(c->inactive);
	c->inactive = sl_xasprintf("Can't admit new workloads: references missing "
				   "ResourceFlavor(s): %s.", list);
	c->missing_flavor = true;
	free(list);
}

static void build_cq(struct sl_sched *s, struct sq_cq *c, const struct sl_kq_cq *k, int node)
{
	c->name = sl_xstrdup(k->name);
	c->node = node;
	c->strict_fifo = k->strict_fifo;
	selector_copy(&c->nssel, &k->nssel);
	c->within_cq = k->within_cq;
	c->reclaim = k->reclaim;
	c->bwc = k->bwc;
	c->has_bwc_threshold = k->has_bwc_threshold;
	c->bwc_threshold = k->bwc_threshold;
	c->when_borrow = k->when_borrow;
	c->when_preempt = k->when_preempt;
	c->preference = k->preference;
	c->stop = k->stop;
	c->afs = k->afs;
	c->backfill = k->backfill;
	c->nrg = (int)k->nrg;
	c->rg = sl_xcalloc(k->nrg + 1, sizeof(*c->rg));
	c->rg_of_res = sl_xmalloc(((size_t)s->fr_stride + 1) * sizeof(int));
	for (int i = 0; i <= s->fr_stride; i++)
		c->rg_of_res[i] = SQ_NONE;
	for (size_t g = 0; g < k->nrg; g++) {
		struct sq_rg *rg = &c->rg[g];
		rg->ncov = (int)k->rg[g].ncovered;
		rg->cov = sl_xcalloc(k->rg[g].ncovered + 1, sizeof(int));
		for (size_t r = 0; r < k->rg[g].ncovered; r++) {
			rg->cov[r] = sq_res_index(s, k->rg[g].covered[r], true);
			if (rg->cov[r] < s->fr_stride)
				c->rg_of_res[rg->cov[r]] = (int)g;
			if (strcmp(k->rg[g].covered[r], "pods") == 0)
				c->covers_pods = true;
		}
		rg->nfl = (int)k->rg[g].nflavors;
		rg->fl = sl_xcalloc(k->rg[g].nflavors + 1, sizeof(int));
		rg->flname = sl_xcalloc(k->rg[g].nflavors + 1, sizeof(char *));
		for (size_t f = 0; f < k->rg[g].nflavors; f++) {
			rg->fl[f] = sq_flavor_index(s, k->rg[g].flavors[f].flavor);
			rg->flname[f] = sl_xstrdup(k->rg[g].flavors[f].flavor);
		}
	}
	if (c->stop != SL_KSTOP_NONE)
		mark_inactive(c);
	mark_missing_flavors(s, c);
}

static void link_parent(struct sl_sched *s, int child, int parent)
{
	struct sq_node *p = &s->node[parent];
	s->node[child].parent = parent;
	p->kids = sl_xgrow(p->kids, &p->capkids, p->nkids + 1, sizeof(int));
	p->kids[p->nkids++] = child;
}

/* A cycle in the cohort graph makes the whole tree unusable (ErrCohortHasCycle). */
static void mark_cycles(struct sl_sched *s)
{
	for (int i = 0; i < s->nnode; i++) {
		int n = i, steps = 0;
		while (n != SQ_NONE && steps <= s->nnode) {
			n = s->node[n].parent;
			steps++;
		}
		if (n != SQ_NONE)
			s->node[i].broken = true;
	}
	for (int i = 0; i < s->ncq; i++)
		if (s->node[i].broken)
			mark_inactive(&s->cq[i]);
}

static int node_height(struct sl_sched *s, int n, int depth)
{
	struct sq_node *x = &s->node[n];
	int h = x->nkids > 0 ? 1 : 0;
	if (depth > s->nnode)
		return h;
	for (size_t i = 0; i < x->nkids; i++)
		if (!s->node[x->kids[i]].is_cq) {
			int ch = node_height(s, x->kids[i], depth + 1) + 1;
			if (ch > h)
				h = ch;
		}
	x->height = x->is_cq ? 0 : h;
	return x->height;
}

/* Add what kid k lends up (subtree quota past its local quota) into
 * node n's subtree quotas. k's FRs are a subset of n's (cell.c): one merge
 * walk; an FR absent from k adds nothing. */
static void add_kid_subtree(struct sl_sched *s, int n, int k)
{
	int j = 0;
	for (int i = 0; i < s->node[k].ncell; i++) {
		const struct sq_node *x = &s->node[n], *y = &s->node[k];
		int fr = y->frk[i];
		int64_t up = y->cell[i].subtree - sq_cell_local_quota(&y->cell[i]);
		while (j < x->ncell && x->frk[j] < fr)
			j++;
		struct sq_cell *c = j < x->ncell && x->frk[j] == fr ? &x->cell[j]
								  : sq_cell_mut(s, n, fr);
		c->subtree += up;
	}
}

static void accumulate(struct sl_sched *s, int n, int depth)
{
	struct sq_node *x = &s->node[n];
	for (int i = 0; i < x->ncell; i++)
		x->cell[i].subtree = x->cell[i].q.nominal;
	if (depth > s->nnode)
		return;
	for (size_t i = 0; i < x->nkids; i++) {
		int k = x->kids[i];
		accumulate(s, k, depth + 1);
		add_kid_subtree(s, n, k);
	}
}

/* Recompute subtree quotas and heights, then usage from admitted workloads. */
static void sq_recompute_tree(struct sl_sched *s)
{
	for (int i = 0; i < s->nnode; i++)
		if (s->node[i].parent == SQ_NONE || s->node[i].broken) {
			accumulate(s, i, 0);
			node_height(s, i, 0);
		}
	for (int i = 0; i < s->nnode; i++)
		for (int j = 0; j < s->node[i].ncell; j++)
			s->node[i].cell[j].usage = 0;
	for (int c = 0; c < s->ncq; c++)
		for (size_t i = 0; i < s->cq[c].nadm; i++)
			sq_wl_charge(s, s->cq[c].adm[i], +1);
}

/* Room in the name maps: every flavor, and every flavor a quota names
 * (undefined ones are interned too); every CQ and cohort, and every
 * cohort named as a parent (implicit cohorts). */
static void maps_init(struct sl_sched *s, const struct sl_kueue *k)
{
	size_t nfl = k->nflavors, nnode = k->ncqs + 2 * k->ncohorts;
	for (size_t i = 0; i < k->ncqs; i++)
		for (size_t g = 0; g < k->cqs[i].nrg; g++)
			nfl += k->cqs[i].rg[g].nflavors;
	for (size_t i = 0; i < k->ncohorts; i++)
		for (size_t g = 0; g < k->cohorts[i].nrg; g++)
			nfl += k->cohorts[i].rg[g].nflavors;
	for (size_t i = 0; i < k->ncqs; i++)
		nnode += k->cqs[i].cohort != NULL;
	sq_nm_init(&s->flvmap, nfl);
	sq_nm_init(&s->nodemap, nnode);
}

void sq_model_build(struct sl_sched *s, const struct sl_kueue *k)
{
	size_t capnode = 0;
	maps_init(s, k);
	for (size_t i = 0; i < k->nflavors; i++) {
		s->flv = sl_xrealloc(s->flv, (size_t)(s->nflv + 1) * sizeof(*s->flv));
		flavor_copy(&s->flv[s->nflv], &k->flavors[i]);
		sq_nm_put(&s->flvmap, s->flv[s->nflv].name, "", s->nflv);
		s->nflv++;
	}
	for (size_t i = 0; i < k->ncqs; i++)
		intern_rgs(s, k->cqs[i].rg, k->cqs[i].nrg);
	for (size_t i = 0; i < k->ncohorts; i++)
		intern_rgs(s, k->cohorts[i].rg, k->cohorts[i].nrg);
	build_fr(s, k);
	s->ncq = (int)k->ncqs;
	s->cq = sl_xcalloc(k->ncqs + 1, sizeof(*s->cq));
	for (size_t i = 0; i < k->ncqs; i++) {
		int n = add_node(s, k->cqs[i].name, true, &capnode);
		s->node[n].weight_milli = k->cqs[i].weight_milli;
		build_cq(s, &s->cq[i], &k->cqs[i], n);
	}
	for (size_t i = 0; i < k->ncohorts; i++) {
		int n = add_node(s, k->cohorts[i].name, false, &capnode);
		s->node[n].weight_milli = k->cohorts[i].weight_milli;
	}
	for (size_t i = 0; i < k->ncohorts; i++)
		if (k->cohorts[i].parent)
			link_parent(s, s->ncq + (int)i, cohort_node(s, k->cohorts[i].parent, &capnode));
	for (size_t i = 0; i < k->ncqs; i++)
		if (k->cqs[i].cohort)
			link_parent(s, (int)i, cohort_node(s, k->cqs[i].cohort, &capnode));
	sq_cells_build(s, k);
	for (size_t i = 0; i < k->ncqs; i++)
		set_quotas(s, (int)i, k->cqs[i].rg, k->cqs[i].nrg);
	for (size_t i = 0; i < k->ncohorts; i++)
		set_quotas(s, s->ncq + (int)i, k->cohorts[i].rg, k->cohorts[i].nrg);
	mark_cycles(s);
	link_trees(s);
	s->nlq = (int)k->nlqs;
	s->lq = sl_xcalloc(k->nlqs + 1, sizeof(*s->lq));
	for (size_t i = 0; i < k->nlqs; i++) {
		struct sq_lq *l = &s->lq[i];
		l->ns = sl_xstrdup(k->lqs[i].ns);
		l->name = sl_xstrdup(k->lqs[i].name);
		l->cqname = sl_xstrdup(k->lqs[i].cq);
		l->cq = node_by_name(s, k->lqs[i].cq, false);
		l->stop = k->lqs[i].stop;
		l->weight_milli = k->lqs[i].weight_milli;
	}
	sq_nm_init(&s->lqmap, k->nlqs);
	for (int i = 0; i < s->nlq; i++)
		sq_nm_put(&s->lqmap, s->lq[i].ns, s->lq[i].name, i);
	s->fair_sharing = k->config.fs_enable;
	s->backfill_all = k->config.backfill;
	sq_backfill_reset(s);   /* a new model: the queues may have changed */
	s->nstrat = (int)k->config.nstrategies;
	memcpy(s->strat, k->config.strategies, sizeof(s->strat));
	if (s->nstrat == 0) {
		s->nstrat = 2;
		s->strat[0] = SL_KFS_LE_FINAL_SHARE;
		s->strat[1] = SL_KFS_LT_INITIAL_SHARE;
	}
	s->afs_enable = k->config.afs_enable;
	s->afs_half_life_ms = k->config.afs_half_life_ms;
	s->afs_sampling_ms = k->config.afs_sampling_ms ? k->config.afs_sampling_ms : 300000;
	for (size_t i = 0; i < k->config.nweights; i++)
		sq_res_index(s, k->config.weights[i].resource, true);
	s->afs_weight_milli = sl_xcalloc((size_t)s->nres + 1, sizeof(int64_t));
	for (int i = 0; i < s->nres; i++)
		s->afs_weight_milli[i] = 1000;
	for (size_t i = 0; i < k->config.nweights; i++)
		s->afs_weight_milli[sq_res_index(s, k->config.weights[i].resource, false)] =
			k->config.weights[i].weight_milli;
	s->tree_gen = sl_xcalloc((size_t)s->nnode + 1, sizeof(uint64_t));
	s->tmp_fr = sl_xcalloc((size_t)s->nfr + 1, sizeof(int64_t));
	sq_recompute_tree(s);
	sq_tas_build(s, k);
}

/* The next build reallocates some of these: they must be NULL again. */
#define FREE0(p) (free(p), (p) = NULL)

void sq_model_free(struct sl_sched *s)
{
	for (int i = 0; i < s->ncq; i++) {
		struct sq_cq *c = &s->cq[i];
		free(c->name);
		selector_free(&c->nssel);
		for (int g = 0; g < c->nrg; g++) {
			free(c->rg[g].cov);
			free(c->rg[g].fl);
			for (int f = 0; f < c->rg[g].nfl; f++)
				free(c->rg[g].flname[f]);
			free(c->rg[g].flname);
		}
		free(c->rg);
		free(c->rg_of_res);
		free(c->inactive);
		free(c->heap.v);
		free(c->inadm);
		free(c->prep);
		free(c->adm);
		sq_pos_free(&c->pos);
	}
	FREE0(s->cq);
	for (int i = 0; i < s->nnode; i++) {
		free(s->node[i].name);
		free(s->node[i].kids);
		sq_cells_free(&s->node[i]);
	}
	FREE0(s->node);
	sq_nm_free(&s->nodemap);
	sq_nm_free(&s->flvmap);
	for (int i = 0; i < s->nlq; i++) {
		free(s->lq[i].ns);
		free(s->lq[i].name);
		free(s->lq[i].cqname);
	}
	FREE0(s->lq);
	sq_nm_free(&s->lqmap);
	for (int i = 0; i < s->nflv; i++)
		flavor_free(&s->flv[i]);
	FREE0(s->flv);
	FREE0(s->fr_of);
	FREE0(s->fr_flv);
	FREE0(s->fr_res);
	FREE0(s->afs_weight_milli);
	FREE0(s->tree_gen);
	FREE0(s->tree_first);
	FREE0(s->tree_parked);
	FREE0(s->tmp_fr);
	s->ncq = s->nnode = s->nlq = s->nflv = s->nfr = 0;
}
