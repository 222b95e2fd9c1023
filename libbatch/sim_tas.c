/* sim_tas.c - topology-aware scheduling in `sluice simulate`: a pod set's
 * `topology:` (Kueue's podset-* annotations as keys), an initial
 * admission's `topology:`, and `expect.admitted.<wl>.<podset>.topology`
 * (levels, and domains as value lists with counts), in Kueue's
 * TopologyAssignment shape. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"
#include "kueue.h"
#include "buf.h"
#include "xalloc.h"
#include "yaml.h"

static int bad(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *map, const char *key,
	       const char *path, const char *msg)
{
	return sl_yerr(err, SL_EINVAL, m->docs->file, map ? sl_ymap_key_line(map, key) : 0,
		       "scenario", m->name, path, "%s", msg);
}

/* Kueue's multi-layer slices: sliceRequiredConstraints, the annotation
 * podset-slice-required-topology-constraints (JSON) or the API's
 * podsetSliceRequiredTopologyConstraints: [{topology: L, size: N}, ...]. */
static bool is_layers_key(const char *k)
{
	return strcmp(k, "sliceRequiredConstraints") == 0 ||
	       strcmp(k, "kueue.x-k8s.io/podset-slice-required-topology-constraints") == 0 ||
	       strcmp(k, "podsetSliceRequiredTopologyConstraints") == 0;
}

/* The first constraint is the slice level and size, the others are the
 * inner layers; strings are copied (sl_sim_free frees them). */
static int load_layers(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *n,
		       const struct sl_ynode *l, struct sl_sched_topo_req *t, bool has_slice,
		       const char *path)
{
	struct sl_ydocs *docs = NULL;
	struct sl_err e2 = SL_ERR_INIT;
	const char *msg = "topology: slice constraints must be a list of {topology, size}";
	int r = 0;
	if (l->type == SL_Y_SCALAR) {   /* the annotation's JSON text */
		if (sl_yaml_load_buf("annotation", l->scalar, strlen(l->scalar), &docs, &e2) != 0 ||
		    docs->n != 1)
			r = -1;
		else
			l = docs->docs[0];
	}
	if (r || has_slice || l->type != SL_Y_SEQ || l->n == 0 || l->n > 16)
		goto bad;
	struct sl_sched_topo_layer *v = sl_xcalloc(l->n, sizeof(*v));
	t->layers = v;
	for (size_t i = 0; i < l->n; i++) {
		const struct sl_ynode *c = l->vals[i];
		const struct sl_ynode *tp = c->type == SL_Y_MAP ? sl_ymap_get(c, "topology") : NULL;
		int64_t sz = 0;
		if (!tp || tp->type != SL_Y_SCALAR || sl_yscalar_int64(sl_ymap_get(c, "size"), &sz) != 0)
			goto bad;
		char *lv = sl_xstrdup(tp->scalar);
		if (i == 0) {
			t->slice_level = lv;
			t->slice_size = (int32_t)sz;
		} else {
			v[t->nlayers++] = (struct sl_sched_topo_layer){lv, (int32_t)sz};
		}
	}
	sl_ydocs_free(docs);
	return 0;
bad:
	sl_ydocs_free(docs);
	return bad(m, err, NULL, NULL, path, msg);
}

/* topology: {required: L} | {preferred: L} | {unconstrained: true},
 * plus sliceRequired: L with sliceSize: N, and podSetGroup: NAME. The
 * annotation names (kueue.x-k8s.io/podset-required-topology, ...) are
 * accepted too. */
int sim_load_topology(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *ps,
		      struct sl_sched_podset *p, struct sl_sched_topo_req *t, const char *path)
{
	static const struct {
		const char *key, *ann, *api;  /* short, annotation, PodSetTopologyRequest */
	} k[] = {{"required", "kueue.x-k8s.io/podset-required-topology", "required"},
		 {"preferred", "kueue.x-k8s.io/podset-preferred-topology", "preferred"},
		 {"unconstrained", "kueue.x-k8s.io/podset-unconstrained-topology", "unconstrained"},
		 {"sliceRequired", "kueue.x-k8s.io/podset-slice-required-topology",
		  "podSetSliceRequiredTopology"},
		 {"sliceSize", "kueue.x-k8s.io/podset-slice-size", "podSetSliceSize"},
		 {"podSetGroup", "kueue.x-k8s.io/podset-group-name", "podSetGroupName"}};
	const struct sl_ynode *n = sl_ymap_get(ps, "topology"), *layers = NULL;
	const char *v[6] = {0};
	if (!n)
		return 0;
	if (n->type != SL_Y_MAP)
		return bad(m, err, ps, "topology", path, "topology must be a map");
	for (size_t i = 0; i < n->n; i++) {
		if (is_layers_key(n->keys[i])) {
			layers = n->vals[i];
			continue;
		}
		size_t j = 0;
		while (j < 6 && strcmp(n->keys[i], k[j].key) != 0 && strcmp(n->keys[i], k[j].ann) != 0 &&
		       strcmp(n->keys[i], k[j].api) != 0)
			j++;
		if (j == 6 || n->vals[i]->type != SL_Y_SCALAR) {
			char msg[256];
			snprintf(msg, sizeof(msg), "topology: unknown or non-scalar field \"%s\"", n->keys[i]);
			return bad(m, err, n, n->keys[i], path, msg);
		}
		v[j] = n->vals[i]->scalar;
	}
	if ((v[0] != NULL) + (v[1] != NULL) + (v[2] != NULL) > 1)
		return bad(m, err, ps, "topology", path,
			   "topology: required, preferred and unconstrained are exclusive");
	*t = (struct sl_sched_topo_req){.level = v[0] ? v[0] : v[1], .slice_level = v[3], .group = v[5]};
	t->mode = v[0] ? SL_TOPO_REQUIRED : v[1] ? SL_TOPO_PREFERRED : SL_TOPO_NONE;
	if (v[2] && strcmp(v[2], "true") == 0)
		t->mode = SL_TOPO_UNCONSTRAINED;
	if (v[4]) {
		char *end;
		long sz = strtol(v[4], &end, 10);
		if (*end || sz <= 0 || sz > p->count)
			return bad(m, err, n, "sliceSize", path,
				   "topology: sliceSize must be an integer between 1 and count");
		t->slice_size = (int32_t)sz;
	}
	/* sliceRequired without sliceSize is Kueue's placement failure, not bad input */
	if (v[4] && !v[3])
		return bad(m, err, ps, "topology", path, "topology: sliceSize needs sliceRequired");
	if (layers) {
		int r = load_layers(m, err, n, layers, t, v[3] != NULL, path);
		if (r)
			return r;
	}
	p->topology = t;
	return 0;
}

void sim_topo_req_free(struct sl_sched_topo_req *t)
{
	if (!t->layers)
		return;
	free((void *)t->slice_level);
	for (size_t i = 0; i < t->nlayers; i++)
		free((void *)t->layers[i].level);
	free((void *)t->layers);
}

/* One `{levels: [...], domains: [{values: [...], count: N}]}`. */
static int read_topo(const struct sl_ynode *n, struct sl_sched_topo *t, const char **lv,
		     struct sl_sched_topo_domain *d, const char **vals, size_t cap)
{
	const struct sl_ynode *l = sl_ymap_get(n, "levels"), *ds = sl_ymap_get(n, "domains");
	if (!l || l->type != SL_Y_SEQ || !ds || ds->type != SL_Y_SEQ || l->n > 16 || ds->n > cap)
		return -1;
	t->nlevels = l->n;
	for (size_t i = 0; i < l->n; i++)
		lv[i] = l->vals[i]->type == SL_Y_SCALAR ? l->vals[i]->scalar : "";
	t->levels = lv;
	t->ndomains = ds->n;
	for (size_t i = 0; i < ds->n; i++) {
		const struct sl_ynode *v = ds->vals[i]->type == SL_Y_MAP ? sl_ymap_get(ds->vals[i], "values")
									 : NULL;
		int64_t c = 0;
		if (!v || v->type != SL_Y_SEQ || v->n != l->n ||
		    sl_yscalar_int64(sl_ymap_get(ds->vals[i], "count"), &c) != 0)
			return -1;
		for (size_t j = 0; j < v->n; j++)
			vals[i * 16 + j] = v->vals[j]->type == SL_Y_SCALAR ? v->vals[j]->scalar : "";
		d[i] = (struct sl_sched_topo_domain){vals + i * 16, (int32_t)c};
	}
	t->domains = d;
	return 0;
}

/* One pod set's initial topology (its admitted flavors name the flavor). */
static int feed_one(struct sl_sim *m, struct sim_wl *w, const char *psname,
		    const struct sl_ynode *tn, struct sl_err *err)
{
	size_t k = 0;
	while (k < w->w.npodsets && strcmp(w->ps[k].name, psname) != 0)
		k++;
	const char *flavor = NULL;
	for (size_t j = 0; j < w->nadmit && !flavor; j++)
		if (strcmp(w->admit[j].podset, psname) == 0)
			flavor = w->admit[j].flavor;
	size_t cap = tn->type == SL_Y_MAP && sl_ymap_get(tn, "domains")
			     ? sl_ymap_get(tn, "domains")->n + 1 : 1;
	const char *lv[17];
	struct sl_sched_topo t = {.flavor = flavor};
	struct sl_sched_topo_domain *d = sl_xcalloc(cap, sizeof(*d));
	const char **vals = sl_xcalloc(cap * 16, sizeof(char *));
	int r = k == w->w.npodsets || !flavor || tn->type != SL_Y_MAP ||
			read_topo(tn, &t, lv, d, vals, cap) != 0
		? sl_err_set(err, SL_EINVAL, "%s: admitted topology of %s: needs an admitted pod set, "
					     "levels and domains (values, count)", w->w.name, psname)
		: sl_sched_admitted_topology(m->s, w->w.id, k, &t, err);
	free(d);
	free(vals);
	return r;
}

static const char *node_label(const struct sl_kq_node *n, const char *key)
{
	for (size_t i = 0; i < n->nlabels; i++)
		if (strcmp(n->labels[i].key, key) == 0)
			return n->labels[i].value;
	return NULL;
}

/* The one node of flavor f's topology, or NULL when there are none or
 * several. */
static const struct sl_kq_node *only_node(const struct sl_kueue *k, const struct sl_kq_flavor *f,
					  const struct sl_kq_topology *t)
{
	const struct sl_kq_node *one = NULL;
	for (size_t i = 0; i < k->nnodes; i++) {
		const struct sl_kq_node *n = &k->nodes[i];
		bool ok = !n->unavailable;
		for (size_t j = 0; ok && j < f->nlabels; j++)
			ok = node_label(n, f->labels[j].key) &&
			     strcmp(node_label(n, f->labels[j].key), f->labels[j].value) == 0;
		for (size_t j = 0; ok && j < t->nlevels; j++)
			ok = node_label(n, t->levels[j]) != NULL;
		if (ok && one)
			return NULL;
		if (ok)
			one = n;
	}
	return one;
}

/* A pre-admitted pod set on a TAS flavor without a stated placement: its
 * pods are on the flavor's only node, when it has one (the format's
 * README); else nothing is charged. */
static int feed_default(struct sl_sim *m, struct sim_wl *w, size_t k, struct sl_err *err)
{
	const char *flavor = NULL;
	for (size_t j = 0; j < w->nadmit && !flavor; j++)
		if (strcmp(w->admit[j].podset, w->ps[k].name) == 0)
			flavor = w->admit[j].flavor;
	const struct sl_kq_flavor *f = flavor ? sl_kueue_find_flavor(m->k, flavor) : NULL;
	const struct sl_kq_topology *t = f ? sl_kueue_find_topology(m->k, f->topology) : NULL;
	const struct sl_kq_node *n = t && t->nlevels ? only_node(m->k, f, t) : NULL;
	if (!n)
		return 0;
	size_t l0 = strcmp(t->levels[t->nlevels - 1], "kubernetes.io/hostname") == 0 ? t->nlevels - 1 : 0;
	const char *vals[17];
	for (size_t j = l0; j < t->nlevels && j - l0 < 16; j++)
		vals[j - l0] = node_label(n, t->levels[j]);
	int32_t cnt = w->admit_counts ? w->admit_counts[k] : w->ps[k].count;
	if (cnt <= 0)
		return 0;
	struct sl_sched_topo_domain d = {vals, cnt};
	struct sl_sched_topo tp = {flavor, t->nlevels - l0, (const char *const *)t->levels + l0, 1, &d};
	return sl_sched_admitted_topology(m->s, w->w.id, k, &tp, err);
}

static bool stated(const struct sim_wl *w, const char *ps)
{
	for (size_t i = 0; w->admit_topo && w->admit_topo->type == SL_Y_MAP && i < w->admit_topo->n; i++)
		if (strcmp(w->admit_topo->keys[i], ps) == 0)
			return true;
	for (size_t i = 0; i < w->nps_topo; i++)
		if (strcmp(w->ps_topo_name[i], ps) == 0)
			return true;
	return false;
}

/* admitted.topology.<ps> or admitted.flavors.<ps>.topology; else the
 * flavor's only node */
int sim_feed_topology(struct sl_sim *m, struct sim_wl *w, struct sl_err *err)
{
	const struct sl_ynode *a = w->admit_topo;
	int r = 0;
	if (a && a->type != SL_Y_MAP)
		return sl_err_set(err, SL_EINVAL, "%s: admitted.topology must be a map", w->w.name);
	for (size_t i = 0; a && i < a->n && !r; i++)
		r = feed_one(m, w, a->keys[i], a->vals[i], err);
	for (size_t i = 0; i < w->nps_topo && !r; i++)
		r = feed_one(m, w, w->ps_topo_name[i], w->ps_topo[i], err);
	for (size_t k = 0; k < w->w.npodsets && !r; k++)
		if (!stated(w, w->ps[k].name))
			r = feed_default(m, w, k, err);
	return r;
}

void sim_tas_text(struct sl_sim *m, const struct sim_wl *w, struct sl_buf *b)
{
	struct sl_sched_topo t;
	for (size_t i = 0; i < w->w.npodsets; i++) {
		if (sl_sched_topology(m->s, w->w.id, i, &t) != 0)
			continue;
		sl_buf_addf(b, "      %s topology", w->ps[i].name);
		for (size_t j = 0; j < t.nlevels; j++)
			sl_buf_addf(b, "%s%s", j ? "," : " ", t.levels[j]);
		sl_buf_addc(b, ':');
		for (size_t j = 0; j < t.ndomains; j++) {
			sl_buf_addc(b, ' ');
			for (size_t k = 0; k < t.nlevels; k++)
				sl_buf_addf(b, "%s%s", k ? "," : "", t.domains[j].values[k]);
			sl_buf_addf(b, "=%d", (int)t.domains[j].count);
		}
		sl_buf_addc(b, '\n');
	}
}

static void jstr(struct sl_buf *b, const char *s)
{
	sl_buf_addc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sl_buf_addc(b, '\\');
		sl_buf_addc(b, *s);
	}
	sl_buf_addc(b, '"');
}

void sim_tas_json(struct sl_sim *m, const struct sim_wl *w, const char *ps, struct sl_buf *b)
{
	struct sl_sched_topo t;
	size_t k = 0;
	while (k < w->w.npodsets && strcmp(w->ps[k].name, ps) != 0)
		k++;
	if (k == w->w.npodsets || sl_sched_topology(m->s, w->w.id, k, &t) != 0)
		return;
	sl_buf_addstr(b, ",\"topology\":{\"levels\":[");
	for (size_t l = 0; l < t.nlevels; l++) {
		if (l)
			sl_buf_addc(b, ',');
		jstr(b, t.levels[l]);
	}
	sl_buf_addstr(b, "],\"domains\":[");
	for (size_t d = 0; d < t.ndomains; d++) {
		sl_buf_addstr(b, d ? ",{\"values\":[" : "{\"values\":[");
		for (size_t l = 0; l < t.nlevels; l++) {
			if (l)
				sl_buf_addc(b, ',');
			jstr(b, t.domains[d].values[l]);
		}
		sl_buf_addf(b, "],\"count\":%d}", (int)t.domains[d].count);
	}
	sl_buf_addstr(b, "]}");
}

static int cmp_dom(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "[levels] v,v=N ..." with the domains sorted: their order is not
 * significant (the format's README), only values and counts. */
static char *topo_str(const struct sl_sched_topo *t)
{
	struct sl_buf *b = sl_buf_new(SIM_BUF_CAP);
	char **d = sl_xcalloc(t->ndomains + 1, sizeof(char *));
	for (size_t j = 0; j < t->ndomains; j++) {
		struct sl_buf *e = sl_buf_new(SIM_BUF_CAP);
		for (size_t k = 0; k < t->nlevels; k++)
			sl_buf_addf(e, "%s%s", k ? "," : "", t->domains[j].values[k]);
		sl_buf_addf(e, "=%d", (int)t->domains[j].count);
		d[j] = sl_buf_steal(e);
		sl_buf_free(e);
	}
	qsort(d, t->ndomains, sizeof(char *), cmp_dom);
	sl_buf_addc(b, '[');
	for (size_t j = 0; j < t->nlevels; j++)
		sl_buf_addf(b, "%s%s", j ? " " : "", t->levels[j]);
	sl_buf_addstr(b, "]");
	for (size_t j = 0; j < t->ndomains; j++) {
		sl_buf_addf(b, " %s", d[j]);
		free(d[j]);
	}
	free(d);
	char *s = sl_buf_steal(b);
	sl_buf_free(b);
	return s;
}

/* expect.admitted.<wl>.<ps>.topology against the engine's assignment. */
int sim_tas_verify(struct sl_sim *m, const struct sim_wl *w, const char *wname, const char *ps,
		   const struct sl_ynode *ex, struct sl_buf *b)
{
	const struct sl_ynode *n = ex->type == SL_Y_MAP ? sl_ymap_get(ex, "topology") : NULL;
	if (!n)
		return 0;
	size_t k = 0;
	while (k < w->w.npodsets && strcmp(w->ps[k].name, ps) != 0)
		k++;
	struct sl_sched_topo got = {0}, want = {0};
	bool have = k < w->w.npodsets && sl_sched_topology(m->s, w->w.id, k, &got) == 0;
	size_t cap = n->type == SL_Y_MAP && sl_ymap_get(n, "domains") ? sl_ymap_get(n, "domains")->n + 1 : 1;
	const char *lv[17];
	struct sl_sched_topo_domain *d = sl_xcalloc(cap, sizeof(*d));
	const char **vals = sl_xcalloc(cap * 16, sizeof(char *));
	bool ok = n->type == SL_Y_MAP && read_topo(n, &want, lv, d, vals, cap) == 0;
	char *ws = ok ? topo_str(&want) : sl_xstrdup("(malformed: needs levels, domains)");
	char *gs = have ? topo_str(&got) : sl_xstrdup("none");
	int r = 0;
	if (!ok || !have || strcmp(ws, gs) != 0) {
		sl_buf_addf(b, "  - admitted: %s pod set %s: expected topology %s, got %s\n", wname, ps, ws,
			    gs);
		r = 1;
	}
	free(ws);
	free(gs);
	free(d);
	free(vals);
	return r;
}
