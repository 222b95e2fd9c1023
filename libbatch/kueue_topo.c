/* kueue_topo.c - topology-aware scheduling's objects: Kueue's Topology
 * (kueue.x-k8s.io/v1alpha1 or v1beta1, spec.levels[].nodeLabel) and the
 * node inventory (`nodes:` in the config and in scenarios: name, labels,
 * allocatable, taints, usage). Plain data for libbatch/sched/tas*.c. */
#include <stdlib.h>
#include <string.h>
#include "kueue.h"
#include "kueue_parse.h"
#include "quantity.h"
#include "xalloc.h"
#include "yaml.h"

#define TOPO_MAX_LEVELS 16    /* Kueue's API caps spec.levels at 16 */
#define NODES_MAX 100000

int kp_topology(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec)
{
	static const char *keys[] = {"levels", NULL};
	static const char *lkeys[] = {"nodeLabel", NULL};
	const struct sl_ynode *lv;
	k->topos = sl_xgrow(k->topos, &k->capt, k->ntopos + 1, sizeof(*k->topos));
	struct sl_kq_topology *t = &k->topos[k->ntopos++];
	memset(t, 0, sizeof(*t));
	t->name = sl_xstrdup(p->name);
	t->file = sl_xstrdup(p->file);
	t->line = p->line;
	kp_push(p, "spec");
	int r = kp_keys(p, spec, keys);
	if (!r)
		r = kp_seq(p, spec, "levels", &lv, true);
	if (!r && (lv->n == 0 || lv->n > TOPO_MAX_LEVELS))
		r = kp_err(p, spec, "levels", "must have between 1 and %d levels", TOPO_MAX_LEVELS);
	if (!r) {
		t->levels = sl_xcalloc(lv->n + 1, sizeof(char *));
		kp_push(p, "levels");
		for (size_t i = 0; i < lv->n && !r; i++) {
			kp_pushi(p, i);
			if (!(r = kp_keys(p, lv->vals[i], lkeys)) &&
			    !(r = kp_str(p, lv->vals[i], "nodeLabel", &t->levels[i], true)))
				t->nlevels++;
			for (size_t j = 0; !r && j < i; j++)
				if (strcmp(t->levels[j], t->levels[i]) == 0)
					r = kp_err(p, lv->vals[i], "nodeLabel", "duplicate level \"%s\"",
						   t->levels[i]);
			kp_pop(p);
		}
		kp_pop(p);
	}
	kp_pop(p);
	return r;
}

static int res_list(struct kp *p, const struct sl_ynode *map, const char *key, struct sl_kq_res **out,
		    size_t *nout)
{
	const struct sl_ynode *n = sl_ymap_get(map, key);
	if (!n)
		return 0;
	if (n->type != SL_Y_MAP)
		return kp_err(p, map, key, "must be a map of quantities");
	*out = sl_xcalloc(n->n + 2, sizeof(**out));
	kp_push(p, key);
	for (size_t i = 0; i < n->n; i++) {
		int64_t v = 0;
		if (n->vals[i]->type != SL_Y_SCALAR || sl_quantity_parse(n->vals[i]->scalar, &v) != 0 ||
		    v < 0) {
			int r = kp_err(p, n, n->keys[i], "\"%s\" is not a quantity",
				       n->vals[i]->type == SL_Y_SCALAR ? n->vals[i]->scalar : "");
			kp_pop(p);
			return r;
		}
		(*out)[(*nout)++] = (struct sl_kq_res){sl_xstrdup(n->keys[i]), v};
	}
	kp_pop(p);
	return 0;
}

static int parse_node(struct kp *p, struct sl_kq_node *d, const struct sl_ynode *n)
{
	static const char *keys[] = {"name", "labels", "allocatable", "taints", "usage", "ready",
				     "unschedulable", NULL};
	int r, ready = 1, unsched = 0;
	if ((r = kp_keys(p, n, keys)) || (r = kp_str(p, n, "name", &d->name, true)) ||
	    (r = kp_kv_map(p, n, "labels", &d->labels, &d->nlabels)) ||
	    (r = res_list(p, n, "allocatable", &d->alloc, &d->nalloc)) ||
	    (r = kp_taints(p, n, &d->taints, &d->ntaints)) ||
	    (r = res_list(p, n, "usage", &d->usage, &d->nusage)) ||
	    (r = kp_bool(p, n, "ready", &ready)) || (r = kp_bool(p, n, "unschedulable", &unsched)))
		return r;
	/* Kueue leaves such nodes out of every topology (tas_nodes_cache.go) */
	d->unavailable = !ready || unsched;
	bool pods = false;
	for (size_t i = 0; i < d->nalloc; i++)
		pods = pods || strcmp(d->alloc[i].resource, "pods") == 0;
	if (!pods) {   /* the kubelet's default maxPods: a node always reports it */
		if (!d->alloc)
			d->alloc = sl_xcalloc(2, sizeof(*d->alloc));
		d->alloc[d->nalloc++] = (struct sl_kq_res){sl_xstrdup("pods"), 110000};
	}
	return 0;
}

int sl_kueue_add_nodes(struct sl_kueue *k, const char *file, const struct sl_ynode *list,
		       struct sl_err *err)
{
	struct kp p = {.err = err, .file = file, .line = list ? list->line : 0};
	k->has_nodes = 1;
	if (!list || (list->type == SL_Y_SCALAR && sl_yscalar_is_null(list)))
		return 0;
	if (list->type != SL_Y_SEQ || list->n > NODES_MAX)
		return sl_yerr(err, SL_EINVAL, file, p.line, NULL, NULL, "nodes",
			       "must be a list of at most %d nodes", NODES_MAX);
	k->nodes = sl_xrealloc(k->nodes, (k->nnodes + list->n + 1) * sizeof(*k->nodes));
	int r = 0;
	kp_push(&p, "nodes");
	for (size_t i = 0; i < list->n && !r; i++) {
		struct sl_kq_node *d = &k->nodes[k->nnodes++];
		memset(d, 0, sizeof(*d));
		p.line = list->vals[i]->line;
		kp_pushi(&p, i);
		r = parse_node(&p, d, list->vals[i]);
		for (size_t j = 0; !r && j + 1 < k->nnodes; j++)
			if (strcmp(k->nodes[j].name, d->name) == 0)
				r = kp_err(&p, list->vals[i], "name", "duplicate node \"%s\"", d->name);
		kp_pop(&p);
	}
	kp_pop(&p);
	return r;
}

const struct sl_kq_topology *sl_kueue_find_topology(const struct sl_kueue *k, const char *name)
{
	for (size_t i = 0; name && i < k->ntopos; i++)
		if (strcmp(k->topos[i].name, name) == 0)
			return &k->topos[i];
	return NULL;
}

static void free_res(struct sl_kq_res *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].resource);
	free(v);
}

/* Called by sl_kueue_free(). */
void sl_kueue_topo_free(struct sl_kueue *k)
{
	for (size_t i = 0; i < k->ntopos; i++) {
		free(k->topos[i].name);
		free(k->topos[i].file);
		sl_strv_free(k->topos[i].levels);
	}
	free(k->topos);
	for (size_t i = 0; i < k->nnodes; i++) {
		struct sl_kq_node *d = &k->nodes[i];
		free(d->name);
		for (size_t j = 0; j < d->nlabels; j++) {
			free(d->labels[j].key);
			free(d->labels[j].value);
		}
		free(d->labels);
		for (size_t j = 0; j < d->ntaints; j++) {
			free(d->taints[j].key);
			free(d->taints[j].value);
			free(d->taints[j].effect);
		}
		free(d->taints);
		free_res(d->alloc, d->nalloc);
		free_res(d->usage, d->nusage);
	}
	free(k->nodes);
}
