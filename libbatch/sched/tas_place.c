/* tas_place.c - Kueue's topology placement for one pod set (and its
 * group's leader) on one TAS flavor: count how many pods (and slices) fit
 * in every domain, find the level whose domains hold them (BestFit: the
 * fullest domain that still fits; LeastFreeCapacity for unconstrained
 * requests, Kueue's TASProfileMixed default), then walk down, keeping the
 * number of domains minimal at each level (pkg/cache/scheduler/
 * tas_flavor_snapshot.go: fillInCounts, findLevelWithFitDomains,
 * updateCountsToMinimumGeneric). Kueue's messages are kept word for word.
 * Not carried over: balanced placement and preferred node affinity (alpha
 * gates, off by default), multi-layer slices, node replacement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tas_int.h"
#include "xalloc.h"

struct pctx {
	const struct sq_tas *x;
	struct tas_topo *t;
	const struct tas_req *w, *l;
	bool empty, required, unconstrained, lfc;
	int req_lvl, slice_lvl;
	int32_t slice_size, count, lcount;
	/* multi-layer slices (buildSliceSizeAtLevel): pods go in multiples of
	 * size_at[l] at level l; the constraints, outermost first */
	int32_t size_at[17];
	bool multi;
	int nc, clvl[17];
	int32_t csize[17];
	/* exclusion stats (Kueue's tasExclusionStats) */
	int total, nsel;
	int ntaint;
	char **taint;
	int *ntaintc;
	int *rexcl;              /* [nres] */
	const struct sl_kq_flavor *flv;
};

struct dl {                      /* a list of domain indices */
	int *v;
	int n, cap;
};

static void dl_push(struct dl *d, int x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = sl_xrealloc(d->v, (size_t)d->cap * sizeof(int));
	}
	d->v[d->n++] = x;
}

static int cmp_values(const struct pctx *c, int a, int b)
{
	const struct tas_dom *x = &c->t->dom[a], *y = &c->t->dom[b];
	if (c->t->host_leaf && x->parent == y->parent)
		return strcmp(x->values[x->level], y->values[y->level]);
	for (int i = 0; i <= x->level && i <= y->level; i++) {
		int r = strcmp(x->values[i], y->values[i]);
		if (r)
			return r;
	}
	return x->level - y->level;
}

static int icmp(int32_t a, int32_t b)
{
	return a < b ? -1 : a > b;
}

/* sortedDomains: BestFit slices descending, LeastFreeCapacity ascending;
 * then pods ascending, then the values. */
static int cmp_plain(const struct pctx *c, int a, int b)
{
	const struct tas_dom *x = &c->t->dom[a], *y = &c->t->dom[b];
	if (x->slice != y->slice)
		return c->lfc ? icmp(x->slice, y->slice) : icmp(y->slice, x->slice);
	if (x->pod != y->pod)
		return icmp(x->pod, y->pod);
	return cmp_values(c, a, b);
}

/* sortedDomainsWithLeader: leaders first, then as above on the counts
 * that leave room for the leader. */
static int cmp_leader(const struct pctx *c, int a, int b)
{
	const struct tas_dom *x = &c->t->dom[a], *y = &c->t->dom[b];
	if (x->leader != y->leader)
		return icmp(y->leader, x->leader);
	if (x->slice_l != y->slice_l)
		return c->lfc ? icmp(x->slice_l, y->slice_l) : icmp(y->slice_l, x->slice_l);
	if (x->pod_l != y->pod_l)
		return icmp(x->pod_l, y->pod_l);
	return cmp_values(c, a, b);
}

typedef int (*dcmp)(const struct pctx *, int, int);

/* Stable merge sort with the context Kueue's comparators need. */
static void dsort(const struct pctx *c, int *v, int n, dcmp f)
{
	if (n < 2)
		return;
	int *tmp = sl_xmalloc((size_t)n * sizeof(int));
	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = f(c, v[j], v[i]) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, (size_t)n * sizeof(int));
	}
	free(tmp);
}

static int32_t count_in(const struct pctx *c, const int64_t *req, const int64_t *cap, int *limit)
{
	int64_t best = INT32_MAX;
	*limit = -1;
	for (int r = 0; r < c->x->nres; r++) {
		if (req[r] <= 0)
			continue;
		int64_t n = cap[r] > 0 ? cap[r] / req[r] : 0;
		if (n < best || (n == best && *limit >= 0 && strcmp(c->x->res[r], c->x->res[*limit]) < 0)) {
			best = n;
			*limit = r;
		}
	}
	return (int32_t)best;
}

static void note_taint(struct pctx *c, const struct sl_kq_taint *x)
{
	char *s = x->value && x->value[0] ? sl_xasprintf("%s=%s:%s", x->key, x->value, x->effect)
					  : sl_xasprintf("%s:%s", x->key, x->effect);
	for (int i = 0; i < c->ntaint; i++)
		if (strcmp(c->taint[i], s) == 0) {
			c->ntaintc[i]++;
			free(s);
			return;
		}
	c->taint = sl_xrealloc(c->taint, (size_t)(c->ntaint + 1) * sizeof(char *));
	c->ntaintc = sl_xrealloc(c->ntaintc, (size_t)(c->ntaint + 1) * sizeof(int));
	c->taint[c->ntaint] = s;
	c->ntaintc[c->ntaint++] = 1;
}

/* The scheduler's filters on a host leaf: taints the pod set and the
 * flavor do not tolerate, then the node selector. */
static bool node_feasible(struct pctx *c, const struct tas_node *n)
{
	const struct sq_ps *p = c->w->ps;
	for (int i = 0; i < n->ntaints; i++)
		if (!sq_taint_tolerated(&n->taints[i], p, c->flv)) {
			note_taint(c, &n->taints[i]);
			return false;
		}
	for (int j = 0; j < p->nsel; j++) {
		bool ok = false;
		for (int k = 0; k < n->nlabels && !ok; k++)
			ok = strcmp(n->labels[k].key, p->sel[j].key) == 0 &&
			     strcmp(n->labels[k].value, p->sel[j].value) == 0;
		if (!ok) {
			c->nsel++;
			return false;
		}
	}
	return true;
}

static void fill_leaf(struct pctx *c, struct tas_leaf *lf, int64_t *rem)
{
	struct tas_dom *d = &c->t->dom[lf->dom];
	int nres = c->x->nres, lim;
	d->pod = d->pod_l = d->leader = 0;
	if (c->t->host_leaf && !node_feasible(c, &c->x->node[lf->nodes[0]]))
		return;
	for (int r = 0; r < nres; r++)
		rem[r] = lf->free[r] - (c->empty ? 0 : tas_used(c->x, c->t, lf)[r]) -
			 tas_assumed(c->x, c->t, lf)[r];
	d->pod = count_in(c, c->w->per, rem, &lim);
	if (d->pod == 0 && lim >= 0)
		c->rexcl[lim]++;
	d->pod_l = d->pod;   /* without a leader to place, the same count */
	if (c->l && count_in(c, c->l->per, rem, &lim) > 0) {
		d->leader = 1;
		for (int r = 0; r < nres; r++)
			rem[r] -= c->l->per[r];
		d->pod_l = count_in(c, c->w->per, rem, &lim);
	}
}

/* fillInCountsHelper, bottom-up one level at a time. */
static void fill_counts(struct pctx *c)
{
	struct tas_topo *t = c->t;
	int64_t *rem = sl_xcalloc((size_t)c->x->nres + 1, sizeof(int64_t));
	for (int i = 0; i < t->ndom; i++) {
		struct tas_dom *d = &t->dom[i];
		d->pod = d->slice = d->pod_l = d->slice_l = d->leader = 0;
	}
	c->total += t->nleaf;
	for (int i = 0; i < t->nleaf; i++)
		fill_leaf(c, &t->leaf[i], rem);
	free(rem);
	for (int lv = t->nlevels - 1; lv >= 0; lv--) {
		for (int k = 0; k < t->nlvl[lv]; k++) {
			struct tas_dom *d = &t->dom[t->lvl[lv][k]];
			if (d->nkids > 0) {
				int32_t pods = 0, slices = 0, leader = 0;
				int32_t mpd = INT32_MAX, msd = INT32_MAX, in = c->size_at[lv + 1];
				bool contrib = false;
				for (int j = 0; j < d->nkids; j++) {
					const struct tas_dom *e = &t->dom[d->kids[j]];
					/* a child gives whole inner slices only */
					int32_t cp = in ? e->pod / in * in : e->pod;
					int32_t cpl = in ? e->pod_l / in * in : e->pod_l;
					pods += cp;
					slices += e->slice;
					if (!c->l || e->leader > 0) {
						contrib = true;
						if (cp - cpl < mpd)
							mpd = cp - cpl;
						if (e->slice - e->slice_l < msd)
							msd = e->slice - e->slice_l;
					}
					if (e->leader > leader)
						leader = e->leader;
				}
				d->pod = pods;
				d->pod_l = contrib ? pods - mpd : 0;
				d->slice = slices;
				d->slice_l = contrib ? slices - msd : 0;
				d->leader = leader;
			}
			if (lv == c->slice_lvl) {
				d->slice = d->pod / c->slice_size;
				d->slice_l = d->pod_l / c->slice_size;
			}
		}
	}
}

/* m, then ". Total nodes: N; excluded: ..." when nodes were left out. */
static char *with_stats(struct pctx *c, char *m)
{
	int nr = (c->nsel > 0) + c->ntaint;
	for (int r = 0; r < c->x->nres; r++)
		nr += c->rexcl[r] > 0;
	if (nr == 0)
		return m;
	/* Kueue sorts the reasons as strings */
	char **v = sl_xcalloc((size_t)nr + 1, sizeof(char *));
	int k = 0;
	if (c->nsel > 0)
		v[k++] = sl_xasprintf("nodeSelector: %d", c->nsel);
	for (int i = 0; i < c->ntaint; i++)
		v[k++] = sl_xasprintf("taint \"%s\": %d", c->taint[i], c->ntaintc[i]);
	for (int r = 0; r < c->x->nres; r++)
		if (c->rexcl[r] > 0)
			v[k++] = sl_xasprintf("resource \"%s\": %d", c->x->res[r], c->rexcl[r]);
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *s = v[j];
			v[j] = v[j - 1];
			v[j - 1] = s;
		}
	char *out = sl_xasprintf("%s. Total nodes: %d; excluded: ", m, c->total);
	free(m);
	for (int i = 0; i < k; i++) {
		char *n = sl_xasprintf("%s%s%s", out, i ? ", " : "", v[i]);
		free(out);
		free(v[i]);
		out = n;
	}
	free(v);
	return out;
}

static char *not_fit(struct pctx *c, int32_t fit, int32_t total)
{
	const char *unit = c->slice_size == 1 ? "pod" : "slice";
	return with_stats(c, fit == 0 ? sl_xasprintf("topology \"%s\" doesn't allow to fit any of %d "
						     "%s(s)", c->t->name, (int)total, unit)
				      : sl_xasprintf("topology \"%s\" allows to fit only %d out of %d "
						     "%s(s)", c->t->name, (int)fit, (int)total, unit));
}

static int32_t slices_below(const struct pctx *c, int dom, int lv, int target, int32_t size)
{
	const struct tas_dom *d = &c->t->dom[dom];
	if (lv == target)
		return d->pod / size;
	int32_t n = 0;
	for (int i = 0; i < d->nkids; i++)
		n += slices_below(c, d->kids[i], lv + 1, target, size);
	return n;
}

/* multiLayerNotFitMessage: what fits of each layer in the level's domain
 * with the most slices (ties: the smaller id). */
static char *multi_not_fit(struct pctx *c, int lvl)
{
	const struct tas_topo *t = c->t;
	char *m = sl_xasprintf("topology \"%s\" doesn't allow to fit", t->name);
	int best = -1;
	for (int i = 0; i < t->nlvl[lvl]; i++) {
		int d = t->lvl[lvl][i];
		if (best < 0 || t->dom[d].slice > t->dom[best].slice ||
		    (t->dom[d].slice == t->dom[best].slice && strcmp(t->dom[d].id, t->dom[best].id) < 0))
			best = d;
	}
	if (best < 0)
		return m;
	for (int k = 0; k < c->nc; k++) {
		char *n = sl_xasprintf("%s; %d/%d slice(s) fit on level %s", m,
				       (int)slices_below(c, best, lvl, c->clvl[k], c->csize[k]),
				       (int)(c->count / c->csize[k]), t->levels[c->clvl[k]]);
		free(m);
		m = n;
	}
	return with_stats(c, m);
}

static char *no_fit(struct pctx *c, int lvl, int32_t fit, int32_t total)
{
	return c->multi ? multi_not_fit(c, lvl) : not_fit(c, fit, total);
}

/* findBestFitDomainBy over slices (or pods): the first domain with the
 * smallest count that still holds `need`; else the first. */
static int best_fit(struct pctx *c, const int *v, int n, int32_t need, int32_t lneed, bool slices)
{
	int best = v[0];
	int32_t bc = INT32_MAX;
	for (int i = 0; i < n; i++) {
		const struct tas_dom *d = &c->t->dom[v[i]];
		if (d->leader < lneed)
			continue;
		int32_t k = slices ? (lneed > 0 ? d->slice_l : d->slice) : (lneed > 0 ? d->pod_l : d->pod);
		if (k >= need && k < bc) {
			best = v[i];
			bc = k;
		}
	}
	return best;
}

/* prioritizeLeaderDomain: move to the front the first leader-capable
 * domain whose leader penalty the others can make up for. */
static void prioritize_leader(struct pctx *c, int *v, int n, int32_t count, int32_t lc,
			      int32_t ss, bool slices)
{
	if (lc == 0 || n < 2)
		return;
	int32_t need = slices ? count / ss : count, avail = 0;
	for (int i = 0; i < n; i++)
		avail += slices ? c->t->dom[v[i]].slice : c->t->dom[v[i]].pod;
	for (int i = 0; i < n; i++) {
		const struct tas_dom *d = &c->t->dom[v[i]];
		if (d->leader < lc)
			continue;
		int32_t pen = slices ? d->slice - d->slice_l : d->pod - d->pod_l;
		if (avail - pen < need)
			continue;
		int x = v[i];
		memmove(v + 1, v, (size_t)i * sizeof(int));
		v[0] = x;
		return;
	}
}

/* updateCountsToMinimumGeneric (with consumeWithLeadersGeneric): take
 * domains in order until count pods (count / ss slices) and lc leaders
 * are placed; the last one by best fit. false when they do not suffice. */
static bool to_minimum(struct pctx *c, int *v, int n, int32_t count, int32_t lc, int32_t ss,
		       bool slices, struct dl *out)
{
	struct tas_topo *t = c->t;
	prioritize_leader(c, v, n, count, lc, ss, slices);
	int32_t rem = slices ? count / ss : count, rl = lc;
	bool bf = !c->lfc;
	for (int i = 0; i < n; i++) {
		int dom = v[i];
		if (rl > 0) {
			struct tas_dom *d = &t->dom[dom];
			int32_t wl = slices ? d->slice_l : d->pod_l;
			if (bf && wl >= rem && d->leader >= rl) {
				dom = best_fit(c, v + i, n - i, rem, rl, slices);
				d = &t->dom[dom];
				wl = slices ? d->slice_l : d->pod_l;
			}
			int32_t *prim = slices ? &d->slice : &d->pod;
			if (wl >= rem && d->leader >= rl) {
				*prim = rem;
				d->leader = rl;
				d->pod = rem * (slices ? ss : 1);
				dl_push(out, dom);
				return true;
			}
			if (wl > rem)
				wl = rem;
			if (d->leader > rl)
				d->leader = rl;
			*prim = wl;
			d->pod = wl * (slices ? ss : 1);
			rl -= d->leader;
			rem -= wl;
			dl_push(out, dom);
			continue;
		}
		struct tas_dom *d = &t->dom[dom];
		int32_t have = slices ? d->slice : d->pod;
		if (bf && have >= rem) {
			dom = best_fit(c, v + i, n - i, rem, 0, slices);
			d = &t->dom[dom];
			have = slices ? d->slice : d->pod;
		}
		d->leader = 0;
		if (have >= rem) {
			if (slices)
				d->slice = rem;
			d->pod = rem * (slices ? ss : 1);
			dl_push(out, dom);
			return true;
		}
		if (slices)
			d->pod = d->slice * ss;
		rem -= have;
		dl_push(out, dom);
	}
	return rem <= 0 && rl <= 0;
}

/* Several domains at the top level when none holds everything
 * (preferred, unconstrained): leaders first, then by worker capacity. */
static char *spread(struct pctx *c, int lvl, int *v, int n, int32_t sc, struct dl *out)
{
	struct tas_topo *t = c->t;
	int32_t rs = sc, rl = c->lcount;
	bool bf = !c->lfc;
	prioritize_leader(c, v, n, c->count, c->lcount, c->slice_size, true);
	int i = 0;
	for (; rl > 0 && i < n && t->dom[v[i]].leader > 0; i++) {
		int dom = v[i];
		if (bf && t->dom[dom].slice_l >= rs)
			dom = best_fit(c, v + i, n - i, rs, rl, true);
		dl_push(out, dom);
		rl -= t->dom[dom].leader;
		rs -= t->dom[dom].slice_l;
	}
	if (rl > 0)
		return no_fit(c, lvl, c->lcount - rl, sc);
	dsort(c, v + i, n - i, cmp_plain);
	for (int j = i; rs > 0 && j < n; j++) {
		int dom = v[j];
		if (bf && t->dom[dom].slice >= rs)
			dom = best_fit(c, v + j, n - j, rs, 0, true);
		dl_push(out, dom);
		rs -= t->dom[dom].slice;
	}
	return rs > 0 ? no_fit(c, lvl, sc - rs, sc) : NULL;
}

/* findLevelWithFitDomains. */
static char *fit_level(struct pctx *c, int lvl, int *fit_lvl, struct dl *out)
{
	struct tas_topo *t = c->t;
	int n = t->nlvl[lvl];
	if (n == 0)
		return sl_xasprintf("no topology domains at level: %s", t->levels[lvl]);
	int *v = sl_xmalloc((size_t)n * sizeof(int));
	memcpy(v, t->lvl[lvl], (size_t)n * sizeof(int));
	dsort(c, v, n, cmp_leader);
	char *why = NULL;
	int32_t sc = c->count / c->slice_size;
	int top = v[0];
	*fit_lvl = lvl;
	if (!c->lfc && t->dom[top].slice_l >= sc && t->dom[top].leader >= c->lcount)
		top = best_fit(c, v, n, sc, c->lcount, true);
	if (c->lfc) {
		for (int i = 0; i < n; i++) {
			const struct tas_dom *d = &t->dom[v[i]];
			if (c->lcount > 0 && d->leader < c->lcount)
				continue;
			if ((c->lcount > 0 ? d->slice_l : d->slice) >= sc) {
				dl_push(out, v[i]);
				goto out;
			}
		}
		if (c->required) {
			why = no_fit(c, lvl, t->dom[v[n - 1]].pod, sc);
			goto out;
		}
	}
	if (t->dom[top].slice_l < sc || t->dom[top].leader < c->lcount) {
		if (c->required)
			why = no_fit(c, lvl, t->dom[top].slice, sc);
		else if (lvl > 0 && !c->unconstrained)
			why = fit_level(c, lvl - 1, fit_lvl, out);
		else
			why = spread(c, lvl, v, n, sc, out);
		goto out;
	}
	dl_push(out, top);
out:
	free(v);
	return why;
}

/* A level by its node label, else by the label's last word (Slurm users
 * say "rack" for cloud.com/topology-rack); NULL: the leaf switch level,
 * the lowest above the hosts. */
int tas_level_index(const struct tas_topo *t, const char *label)
{
	if (!label)
		return t->nlevels - (t->host_leaf && t->nlevels > 1 ? 2 : 1);
	for (int i = 0; i < t->nlevels; i++)
		if (strcmp(t->levels[i], label) == 0)
			return i;
	if (strchr(label, '/'))
		return -1;
	for (int i = 0; i < t->nlevels; i++) {
		const char *w = strrchr(t->levels[i], '/');
		w = w ? w + 1 : t->levels[i];
		const char *d = strrchr(w, '-');
		if (strcmp(w, label) == 0 || (d && strcmp(d + 1, label) == 0))
			return i;
	}
	return -1;
}

/* buildSliceSizeAtLevel: each inner layer below the one before, its size
 * dividing the one before; the levels in between take its size too. */
static char *layers(struct pctx *c, const struct sq_tps *tp)
{
	const struct tas_topo *t = c->t;
	int prev_lvl = c->slice_lvl;
	int32_t prev = c->slice_size;
	memset(c->size_at, 0, sizeof(c->size_at));
	c->nc = 0;
	c->multi = tp && tp->has_req && tp->nlayers > 0;
	if (!c->multi)
		return NULL;
	c->clvl[0] = c->slice_lvl;
	c->csize[c->nc++] = c->slice_size;
	for (int i = 0; i < tp->nlayers && c->nc < 16; i++) {
		int li = tas_level_index(t, tp->layer_level[i]);
		int32_t sz = tp->layer_size[i];
		if (li < 0)
			return sl_xasprintf("no requested topology level for additional slice layer: %s",
					    tp->layer_level[i]);
		if (li <= prev_lvl)
			return sl_xasprintf("additional slice layer topology %s must be at a lower level "
					    "than %s", tp->layer_level[i], t->levels[prev_lvl]);
		if (sz <= 0 || prev % sz != 0)
			return sl_xasprintf("additional slice layer size %d must evenly divide parent "
					    "layer size %d", (int)sz, (int)prev);
		for (int l = prev_lvl + 1; l <= li; l++)
			c->size_at[l] = sz;
		c->clvl[c->nc] = li;
		c->csize[c->nc++] = sz;
		prev = sz;
		prev_lvl = li;
	}
	return NULL;
}

/* The request's level, slice level and mode (levelKey,
 * isUnconstrained, sliceLevelKeyWithDefault). */
static char *setup(struct pctx *c)
{
	const struct sq_tps *tp = c->w->tp;
	const struct tas_topo *t = c->t;
	bool has = tp && tp->has_req;
	bool slice_only = has && tp->mode == SL_TOPO_NONE && tp->slice_level;
	const char *key = NULL;
	if (has && (tp->mode == SL_TOPO_REQUIRED || tp->mode == SL_TOPO_PREFERRED))
		key = tp->level ? tp->level : t->levels[tas_level_index(t, NULL)];
	else if (slice_only)
		key = t->levels[0];
	else if ((has && tp->mode == SL_TOPO_UNCONSTRAINED) || c->w->implied)
		key = t->levels[t->nlevels - 1];
	if (!key)
		return sl_xstrdup("topology level not specified");
	c->required = has && tp->mode == SL_TOPO_REQUIRED;
	c->unconstrained = (has && tp->mode == SL_TOPO_UNCONSTRAINED) || c->w->implied || slice_only;
	c->lfc = c->unconstrained;
	c->slice_size = 1;
	if (has && tp->slice_level) {
		if (tp->slice_size <= 0)
			return sl_xstrdup("slice topology requested, but slice size not provided");
		c->slice_size = tp->slice_size;
	}
	if ((c->req_lvl = tas_level_index(t, key)) < 0)
		return sl_xasprintf("no requested topology level: %s", key);
	const char *sk = has && tp->slice_level ? tp->slice_level : t->levels[t->nlevels - 1];
	if ((c->slice_lvl = tas_level_index(t, sk)) < 0)
		return sl_xasprintf("no requested topology level for slices: %s", sk);
	if (c->req_lvl > c->slice_lvl)
		return sl_xasprintf("podset slice topology %s is above the podset topology %s", sk, key);
	return layers(c, tp);
}

static void descend(struct pctx *c, int fit_lvl, struct dl *cur)
{
	struct tas_topo *t = c->t;
	struct dl nx = {0};
	int lv = fit_lvl;
	int lim = t->nlevels - 1 < c->slice_lvl ? t->nlevels - 1 : c->slice_lvl;
	to_minimum(c, cur->v, cur->n, c->count, c->lcount, c->slice_size, true, &nx);
	for (; lv < lim; lv++) {
		struct dl kids = {0};
		for (int i = 0; i < nx.n; i++)
			for (int j = 0; j < t->dom[nx.v[i]].nkids; j++)
				dl_push(&kids, t->dom[nx.v[i]].kids[j]);
		dsort(c, kids.v, kids.n, cmp_plain);
		nx.n = 0;
		to_minimum(c, kids.v, kids.n, c->count, c->lcount, c->slice_size, true, &nx);
		free(kids.v);
	}
	for (; lv < t->nlevels - 1; lv++) {
		struct dl next = {0};
		/* below the outer slice level: single pods, or an inner layer's slices */
		int32_t ss = c->size_at[lv + 1] ? c->size_at[lv + 1] : 1;
		for (int i = 0; i < nx.n; i++) {
			struct tas_dom *d = &t->dom[nx.v[i]];
			int *k = sl_xmalloc((size_t)d->nkids * sizeof(int) + sizeof(int));
			memcpy(k, d->kids, (size_t)d->nkids * sizeof(int));
			dsort(c, k, d->nkids, cmp_plain);
			for (int j = 0; ss > 1 && j < d->nkids; j++) {
				struct tas_dom *e = &t->dom[k[j]];
				e->slice = e->pod / ss;
				e->slice_l = e->pod_l / ss;
			}
			to_minimum(c, k, d->nkids, d->pod, d->leader, ss, ss > 1, &next);
			free(k);
		}
		free(nx.v);
		nx = next;
	}
	free(cur->v);
	*cur = nx;
}

static int cmp_build(const struct pctx *c, int a, int b)
{
	return cmp_values(c, a, b);
}

static void build(struct pctx *c, struct dl *cur, struct tas_pick *pick)
{
	dsort(c, cur->v, cur->n, cmp_build);
	pick->leaf = sl_xcalloc((size_t)cur->n + 1, sizeof(int));
	pick->cnt = sl_xcalloc((size_t)cur->n + 1, sizeof(int32_t));
	pick->lleaf = sl_xcalloc(2, sizeof(int));
	pick->lcnt = sl_xcalloc(2, sizeof(int32_t));
	for (int i = 0; i < cur->n; i++) {
		const struct tas_dom *d = &c->t->dom[cur->v[i]];
		if (c->l && d->leader > 0 && pick->nlead == 0) {
			pick->lleaf[pick->nlead] = d->leaf;
			pick->lcnt[pick->nlead++] = d->leader;
		}
		if (d->pod > 0) {
			pick->leaf[pick->n] = d->leaf;
			pick->cnt[pick->n++] = d->pod;
		}
	}
}

char *tas_place(const struct sq_tas *x, struct tas_topo *t, const struct tas_req *w,
		const struct tas_req *leader, bool simulate_empty, struct tas_pick *pick)
{
	struct pctx c = {.x = x, .t = t, .w = w, .l = leader, .empty = simulate_empty,
			 .count = w->count, .lcount = leader ? 1 : 0, .flv = w->flv};
	struct dl cur = {0};
	int fit_lvl = 0;
	memset(pick, 0, sizeof(*pick));
	char *why = setup(&c);
	if (why)
		return why;
	c.rexcl = sl_xcalloc((size_t)x->nres + 1, sizeof(int));
	fill_counts(&c);
	if (!(why = fit_level(&c, c.req_lvl, &fit_lvl, &cur))) {
		descend(&c, fit_lvl, &cur);
		build(&c, &cur, pick);
	}
	free(cur.v);
	for (int i = 0; i < c.ntaint; i++)
		free(c.taint[i]);
	free(c.taint);
	free(c.ntaintc);
	free(c.rexcl);
	return why;
}

void tas_pick_free(struct tas_pick *p)
{
	free(p->leaf);
	free(p->cnt);
	free(p->lleaf);
	free(p->lcnt);
	memset(p, 0, sizeof(*p));
}
