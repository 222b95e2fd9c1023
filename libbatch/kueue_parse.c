/* kueue_parse.c - typed field readers with path tracking for the Kueue
 * manifest parser (kueue.c), Go durations, and the small object kinds
 * (metadata, ResourceFlavor, label selectors, the Kueue Configuration). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kueue_parse.h"
#include "quantity.h"
#include "xalloc.h"

void kp_push(struct kp *p, const char *seg)
{
	size_t l = strlen(p->path);
	if (p->depth < 32)
		p->mark[p->depth] = l;
	p->depth++;
	snprintf(p->path + l, sizeof(p->path) - l, "%s%s", l ? "." : "", seg);
}

void kp_pushi(struct kp *p, size_t i)
{
	size_t l = strlen(p->path);
	if (p->depth < 32)
		p->mark[p->depth] = l;
	p->depth++;
	snprintf(p->path + l, sizeof(p->path) - l, "[%zu]", i);
}

void kp_pop(struct kp *p)
{
	if (p->depth > 0 && --p->depth < 32)
		p->path[p->mark[p->depth]] = 0;
}

int kp_err(struct kp *p, const struct sl_ynode *map, const char *key, const char *fmt, ...)
{
	char msg[SL_ERR_MSG_MAX], path[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s%s%s", p->path, p->path[0] && key ? "." : "", key ? key : "");
	int line = map ? (key ? sl_ymap_key_line(map, key) : map->line) : p->line;
	return sl_yerr(p->err, SL_EINVAL, p->file, line, p->kind, p->name && p->name[0] ? p->name : NULL,
		       path, "%s", msg);
}

int kp_keys(struct kp *p, const struct sl_ynode *map, const char *const *allowed)
{
	if (!map)
		return 0;
	if (map->type != SL_Y_MAP)
		return kp_err(p, map, NULL, "must be a map");
	for (size_t i = 0; i < map->n; i++) {
		bool ok = false;
		for (size_t j = 0; allowed[j] && !ok; j++)
			ok = strcmp(allowed[j], map->keys[i]) == 0;
		if (!ok)
			return kp_err(p, map, map->keys[i], "unknown field \"%s\"", map->keys[i]);
	}
	return 0;
}

int kp_map(struct kp *p, const struct sl_ynode *parent, const char *key)
{
	const struct sl_ynode *n = sl_ymap_get(parent, key);
	if (n && n->type != SL_Y_MAP && !sl_yscalar_is_null(n))
		return sl_yerr(p->err, SL_EINVAL, p->file, sl_ymap_key_line(parent, key), p->kind,
			       p->name, p->path, "must be a map");
	return 0;
}

static const struct sl_ynode *get(const struct sl_ynode *map, const char *key)
{
	const struct sl_ynode *n = map ? sl_ymap_get(map, key) : NULL;
	return n && n->type == SL_Y_SCALAR && sl_yscalar_is_null(n) ? NULL : n;
}

int kp_str(struct kp *p, const struct sl_ynode *map, const char *key, char **out, bool required)
{
	const struct sl_ynode *n = get(map, key);
	if (!n)
		return required ? kp_err(p, map, key, "required field is missing") : 0;
	if (n->type != SL_Y_SCALAR)
		return kp_err(p, map, key, "must be a string");
	free(*out);
	*out = sl_xstrdup(n->scalar);
	return 0;
}

int kp_seq(struct kp *p, const struct sl_ynode *map, const char *key,
	   const struct sl_ynode **out, bool required)
{
	const struct sl_ynode *n = get(map, key);
	*out = NULL;
	if (!n)
		return required ? kp_err(p, map, key, "required field is missing") : 0;
	if (n->type != SL_Y_SEQ)
		return kp_err(p, map, key, "must be a list");
	*out = n;
	return 0;
}

int kp_strv(struct kp *p, const struct sl_ynode *map, const char *key, char ***out, size_t *nout,
	    bool required)
{
	const struct sl_ynode *n;
	int r = kp_seq(p, map, key, &n, required);
	if (r || !n)
		return r;
	*out = sl_xcalloc(n->n + 1, sizeof(char *));
	*nout = n->n;
	for (size_t i = 0; i < n->n; i++) {
		if (n->vals[i]->type != SL_Y_SCALAR)
			return kp_err(p, map, key, "item %zu must be a string", i);
		(*out)[i] = sl_xstrdup(n->vals[i]->scalar);
	}
	return 0;
}

int kp_qty(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out, int *has,
	   bool required)
{
	const struct sl_ynode *n = get(map, key);
	if (has)
		*has = 0;
	if (!n)
		return required ? kp_err(p, map, key, "required field is missing") : 0;
	if (n->type != SL_Y_SCALAR || sl_quantity_parse(n->scalar, out) != 0)
		return kp_err(p, map, key, "\"%s\" is not a quantity",
			      n->type == SL_Y_SCALAR ? n->scalar : "(non-scalar)");
	if (*out < 0)
		return kp_err(p, map, key, "\"%s\" must be greater than or equal to 0", n->scalar);
	if (has)
		*has = 1;
	return 0;
}

int kp_int(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out, int *has)
{
	const struct sl_ynode *n = get(map, key);
	if (has)
		*has = 0;
	if (!n)
		return 0;
	if (n->type != SL_Y_SCALAR || sl_yscalar_int64(n, out) != 0)
		return kp_err(p, map, key, "\"%s\" is not an integer",
			      n->type == SL_Y_SCALAR ? n->scalar : "(non-scalar)");
	if (has)
		*has = 1;
	return 0;
}

int kp_bool(struct kp *p, const struct sl_ynode *map, const char *key, int *out)
{
	const struct sl_ynode *n = get(map, key);
	if (n && (n->type != SL_Y_SCALAR || sl_yscalar_bool(n, out) != 0))
		return kp_err(p, map, key, "must be true or false");
	return 0;
}

int sl_kueue_parse_duration(const char *s, int64_t *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {{"ns", 1e-6}, {"us", 1e-3}, {"µs", 1e-3}, {"ms", 1}, {"s", 1000},
		     {"m", 60000}, {"h", 3600000}};
	double total = 0;
	const char *p = s;
	if (!s || !*s)
		return -SL_EINVAL;
	if (strcmp(s, "0") == 0) {
		*ms = 0;
		return 0;
	}
	while (*p) {
		char *end;
		double v = strtod(p, &end);
		if (end == p || v < 0)
			return -SL_EINVAL;
		p = end;
		size_t best = 0, bl = 0;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t l = strlen(units[i].unit);
			if (strncmp(p, units[i].unit, l) == 0 && l > bl) {
				best = i;
				bl = l;
			}
		}
		if (!bl)
			return -SL_EINVAL;
		total += v * units[best].ms;
		p += bl;
	}
	*ms = (int64_t)(total + 0.5);
	return 0;
}

int kp_dur(struct kp *p, const struct sl_ynode *map, const char *key, int64_t *out)
{
	const struct sl_ynode *n = get(map, key);
	if (n && (n->type != SL_Y_SCALAR || sl_kueue_parse_duration(n->scalar, out) != 0))
		return kp_err(p, map, key, "\"%s\" is not a duration",
			      n->type == SL_Y_SCALAR ? n->scalar : "(non-scalar)");
	return 0;
}

int kp_enumv(struct kp *p, const struct sl_ynode *map, const char *key,
	     const struct kp_enum *tab, int *out, int dflt)
{
	const struct sl_ynode *n = get(map, key);
	*out = dflt;
	if (!n)
		return 0;
	for (size_t i = 0; n->type == SL_Y_SCALAR && tab[i].name; i++)
		if (strcmp(tab[i].name, n->scalar) == 0) {
			*out = tab[i].value;
			return 0;
		}
	char allowed[256] = "";
	for (size_t i = 0; tab[i].name; i++)
		snprintf(allowed + strlen(allowed), sizeof(allowed) - strlen(allowed), "%s%s",
			 i ? ", " : "", tab[i].name);
	return kp_err(p, map, key, "unsupported value \"%s\" (allowed: %s)",
		      n->type == SL_Y_SCALAR ? n->scalar : "(non-scalar)", allowed);
}

int kp_kv_map(struct kp *p, const struct sl_ynode *map, const char *key, struct sl_kq_kv **out,
	      size_t *nout)
{
	const struct sl_ynode *n = get(map, key);
	if (!n)
		return 0;
	if (n->type != SL_Y_MAP)
		return kp_err(p, map, key, "must be a map");
	*out = sl_xcalloc(n->n + 1, sizeof(**out));
	*nout = n->n;
	for (size_t i = 0; i < n->n; i++) {
		if (n->vals[i]->type != SL_Y_SCALAR)
			return kp_err(p, n, n->keys[i], "must be a string");
		(*out)[i].key = sl_xstrdup(n->keys[i]);
		(*out)[i].value = sl_xstrdup(n->vals[i]->scalar);
	}
	return 0;
}

/* nil = matches nothing; {} = everything. */
int kp_selector(struct kp *p, const struct sl_ynode *map, const char *key, struct sl_kq_selector *out)
{
	static const char *keys[] = {"matchLabels", "matchExpressions", NULL};
	static const char *ekeys[] = {"key", "operator", "values", NULL};
	static const struct kp_enum ops[] = {{"In", 0}, {"NotIn", 1}, {"Exists", 2},
					     {"DoesNotExist", 3}, {NULL, 0}};
	const struct sl_ynode *n = get(map, key), *ex;
	int r, op;
	if (!n)
		return 0;
	kp_push(p, key);
	if ((r = kp_keys(p, n, keys)) || (r = kp_kv_map(p, n, "matchLabels", &out->match, &out->nmatch)) ||
	    (r = kp_seq(p, n, "matchExpressions", &ex, false)))
		goto out;
	out->present = 1;
	if (!ex)
		goto out;
	out->expr = sl_xcalloc(ex->n + 1, sizeof(*out->expr));
	kp_push(p, "matchExpressions");
	for (size_t i = 0; i < ex->n && !r; i++, out->nexpr++) {
		struct sl_kq_selreq *e = &out->expr[i];
		kp_pushi(p, i);
		if (!(r = kp_keys(p, ex->vals[i], ekeys)) && !(r = kp_str(p, ex->vals[i], "key", &e->key, true)) &&
		    !(r = kp_enumv(p, ex->vals[i], "operator", ops, &op, -1)) &&
		    !(r = kp_strv(p, ex->vals[i], "values", &e->values, &e->nvalues, false))) {
			if (op < 0)
				r = kp_err(p, ex->vals[i], "operator", "required field is missing");
			else
				e->op = sl_xstrdup(ops[op].name);
		}
		if (!e->values)
			e->values = sl_xcalloc(1, sizeof(char *));
		kp_pop(p);
	}
	kp_pop(p);
out:
	kp_pop(p);
	return r;
}

int kp_weight(struct kp *p, const struct sl_ynode *spec, int64_t *out)
{
	static const char *keys[] = {"weight", NULL};
	const struct sl_ynode *fs = get(spec, "fairSharing");
	int r;
	if (!fs)
		return 0;
	kp_push(p, "fairSharing");
	if (!(r = kp_keys(p, fs, keys)))
		r = kp_qty(p, fs, "weight", out, NULL, false);
	kp_pop(p);
	return r;
}

int kp_meta(struct kp *p, const struct sl_ynode *doc, const char **ns)
{
	static const char *keys[] = {"name", "namespace", "labels", "annotations", "uid",
				     "resourceVersion", "generation", "creationTimestamp", NULL};
	const struct sl_ynode *m = get(doc, "metadata"), *n;
	int r;
	if (!m)
		return kp_err(p, doc, "metadata", "required field is missing");
	kp_push(p, "metadata");
	if ((r = kp_keys(p, m, keys)))
		goto out;
	n = get(m, "name");
	if (!n || n->type != SL_Y_SCALAR || !n->scalar[0]) {
		r = kp_err(p, m, "name", "required field is missing");
		goto out;
	}
	p->name = n->scalar;
	p->line = doc->line;
	n = get(m, "namespace");
	*ns = n && n->type == SL_Y_SCALAR ? n->scalar : NULL;
out:
	kp_pop(p);
	return r;
}

static int parse_taints(struct kp *p, const struct sl_ynode *spec, struct sl_kq_flavor *f)
{
	return kp_taints(p, spec, &f->taints, &f->ntaints);
}

/* nodeTaints of a flavor, spec.taints of a node: the same shape. */
int kp_taints(struct kp *p, const struct sl_ynode *spec, struct sl_kq_taint **out, size_t *nout)
{
	static const char *keys[] = {"key", "value", "effect", "timeAdded", NULL};
	static const struct kp_enum eff[] = {{"NoSchedule", 0}, {"PreferNoSchedule", 1},
					     {"NoExecute", 2}, {NULL, 0}};
	const struct sl_ynode *t;
	const char *key = sl_ymap_get(spec, "taints") ? "taints" : "nodeTaints";
	int r = kp_seq(p, spec, key, &t, false), e;
	if (r || !t)
		return r;
	*out = sl_xcalloc(t->n + 1, sizeof(**out));
	kp_push(p, key);
	for (size_t i = 0; i < t->n && !r; i++, (*nout)++) {
		struct sl_kq_taint *x = &(*out)[i];
		kp_pushi(p, i);
		if (!(r = kp_keys(p, t->vals[i], keys)) && !(r = kp_str(p, t->vals[i], "key", &x->key, true)) &&
		    !(r = kp_str(p, t->vals[i], "value", &x->value, false)) &&
		    !(r = kp_enumv(p, t->vals[i], "effect", eff, &e, -1))) {
			if (e < 0)
				r = kp_err(p, t->vals[i], "effect", "required field is missing");
			else
				x->effect = sl_xstrdup(eff[e].name);
		}
		if (!x->value)
			x->value = sl_xstrdup("");
		if (!x->effect)
			x->effect = sl_xstrdup("");
		if (!x->key)
			x->key = sl_xstrdup("");
		kp_pop(p);
	}
	kp_pop(p);
	return r;
}

static int parse_tols(struct kp *p, const struct sl_ynode *spec, struct sl_kq_flavor *f)
{
	static const char *keys[] = {"key", "operator", "value", "effect", "tolerationSeconds", NULL};
	static const struct kp_enum ops[] = {{"Equal", 0}, {"Exists", 1}, {NULL, 0}};
	const struct sl_ynode *t;
	int r = kp_seq(p, spec, "tolerations", &t, false), op;
	if (r || !t)
		return r;
	f->tols = sl_xcalloc(t->n + 1, sizeof(*f->tols));
	kp_push(p, "tolerations");
	for (size_t i = 0; i < t->n && !r; i++, f->ntols++) {
		struct sl_kq_toleration *x = &f->tols[i];
		kp_pushi(p, i);
		if (!(r = kp_keys(p, t->vals[i], keys)) && !(r = kp_str(p, t->vals[i], "key", &x->key, false)) &&
		    !(r = kp_str(p, t->vals[i], "value", &x->value, false)) &&
		    !(r = kp_str(p, t->vals[i], "effect", &x->effect, false)) &&
		    !(r = kp_enumv(p, t->vals[i], "operator", ops, &op, 0)))
			x->op = sl_xstrdup(ops[op].name);
		if (!x->op)
			x->op = sl_xstrdup("Equal");
		if (!x->key)
			x->key = sl_xstrdup("");
		if (!x->value)
			x->value = sl_xstrdup("");
		if (!x->effect)
			x->effect = sl_xstrdup("");
		kp_pop(p);
	}
	kp_pop(p);
	return r;
}

int kp_flavor(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec)
{
	static const char *keys[] = {"nodeLabels", "nodeTaints", "tolerations", "topologyName", NULL};
	k->flavors = sl_xgrow(k->flavors, &k->capf, k->nflavors + 1, sizeof(*k->flavors));
	struct sl_kq_flavor *f = &k->flavors[k->nflavors++];
	memset(f, 0, sizeof(*f));
	f->name = sl_xstrdup(p->name);
	f->file = sl_xstrdup(p->file);
	f->line = p->line;
	int r;
	kp_push(p, "spec");
	if (spec && !(r = kp_keys(p, spec, keys)) && !(r = kp_kv_map(p, spec, "nodeLabels", &f->labels, &f->nlabels)) &&
	    !(r = parse_taints(p, spec, f)) && !(r = parse_tols(p, spec, f)))
		r = kp_str(p, spec, "topologyName", &f->topology, false);
	else
		r = spec ? -SL_EINVAL : 0;
	kp_pop(p);
	return r;
}

static int config_fs(struct kp *p, struct sl_kq_config *c, const struct sl_ynode *doc)
{
	static const char *keys[] = {"enable", "preemptionStrategies", NULL};
	static const struct kp_enum st[] = {{"LessThanOrEqualToFinalShare", SL_KFS_LE_FINAL_SHARE},
					    {"LessThanInitialShare", SL_KFS_LT_INITIAL_SHARE}, {NULL, 0}};
	const struct sl_ynode *fs = get(doc, "fairSharing"), *ps;
	int r;
	if (!fs)
		return 0;
	c->fs_enable = 1; /* v1beta2: presence enables */
	kp_push(p, "fairSharing");
	if ((r = kp_keys(p, fs, keys)) || (r = kp_bool(p, fs, "enable", &c->fs_enable)) ||
	    (r = kp_seq(p, fs, "preemptionStrategies", &ps, false)) || !ps)
		goto out;
	if (ps->n > 2) {
		r = kp_err(p, fs, "preemptionStrategies", "at most 2 strategies");
		goto out;
	}
	for (size_t i = 0; i < ps->n && !r; i++) {
		int v = -1;
		for (size_t j = 0; st[j].name && ps->vals[i]->type == SL_Y_SCALAR; j++)
			if (strcmp(st[j].name, ps->vals[i]->scalar) == 0)
				v = st[j].value;
		if (v < 0 || (i == 1 && v != SL_KFS_LT_INITIAL_SHARE))
			r = kp_err(p, fs, "preemptionStrategies", "unsupported strategy list");
		c->strategies[c->nstrategies++] = v;
	}
out:
	kp_pop(p);
	return r;
}

static int config_afs(struct kp *p, struct sl_kq_config *c, const struct sl_ynode *doc)
{
	static const char *keys[] = {"usageHalfLifeTime", "usageSamplingInterval", "resourceWeights", NULL};
	const struct sl_ynode *a = get(doc, "admissionFairSharing"), *w;
	int r;
	if (!a)
		return 0;
	c->afs_enable = 1;
	c->afs_sampling_ms = 300000;
	kp_push(p, "admissionFairSharing");
	if ((r = kp_keys(p, a, keys)) || (r = kp_dur(p, a, "usageHalfLifeTime", &c->afs_half_life_ms)) ||
	    (r = kp_dur(p, a, "usageSamplingInterval", &c->afs_sampling_ms)))
		goto out;
	w = get(a, "resourceWeights");
	if (w && w->type != SL_Y_MAP) {
		r = kp_err(p, a, "resourceWeights", "must be a map");
		goto out;
	}
	c->weights = sl_xcalloc((w ? w->n : 0) + 1, sizeof(*c->weights));
	for (size_t i = 0; w && i < w->n && !r; i++) {
		c->weights[i].resource = sl_xstrdup(w->keys[i]);
		c->nweights++;
		kp_push(p, "resourceWeights");
		r = kp_qty(p, w, w->keys[i], &c->weights[i].weight_milli, NULL, true);
		kp_pop(p);
	}
out:
	kp_pop(p);
	return r;
}

static int config_wfpr(struct kp *p, struct sl_kq_config *c, const struct sl_ynode *doc)
{
	static const char *keys[] = {"enable", "timeout", "blockAdmission", "recoveryTimeout",
				     "requeuingStrategy", NULL};
	static const char *rkeys[] = {"timestamp", "backoffLimitCount", "backoffBaseSeconds",
				      "backoffMaxSeconds", NULL};
	static const struct kp_enum ts[] = {{"Eviction", 0}, {"Creation", 1}, {NULL, 0}};
	const struct sl_ynode *w = get(doc, "waitForPodsReady"), *rq;
	int r, t = 0;
	int64_t v;
	c->wfpr_timeout_ms = 1800000;
	c->backoff_base_s = 60;
	c->backoff_max_s = 3600;
	if (!w)
		return 0;
	kp_push(p, "waitForPodsReady");
	if ((r = kp_keys(p, w, keys)) || (r = kp_bool(p, w, "enable", &c->wfpr_enable)) ||
	    (r = kp_dur(p, w, "timeout", &c->wfpr_timeout_ms)) ||
	    (r = kp_bool(p, w, "blockAdmission", &c->wfpr_block_admission)) ||
	    (r = kp_dur(p, w, "recoveryTimeout", &c->wfpr_recovery_timeout_ms)))
		goto out;
	rq = get(w, "requeuingStrategy");
	if (rq) {
		kp_push(p, "requeuingStrategy");
		if (!(r = kp_keys(p, rq, rkeys)) && !(r = kp_enumv(p, rq, "timestamp", ts, &t, 0)) &&
		    !(r = kp_int(p, rq, "backoffLimitCount", &v, &c->has_backoff_limit))) {
			c->backoff_limit = (int32_t)v;
			if (!(r = kp_int(p, rq, "backoffBaseSeconds", &v, NULL)) && get(rq, "backoffBaseSeconds"))
				c->backoff_base_s = v;
			if (!r && !(r = kp_int(p, rq, "backoffMaxSeconds", &v, NULL)) && get(rq, "backoffMaxSeconds"))
				c->backoff_max_s = v;
		}
		free(c->wfpr_timestamp);
		c->wfpr_timestamp = sl_xstrdup(ts[t].name);
		kp_pop(p);
	}
out:
	kp_pop(p);
	return r;
}

int kp_config(struct kp *p, struct sl_kq_config *c, const struct sl_ynode *doc)
{
	static const char *keys[] = {"apiVersion", "kind", "metadata", "fairSharing",
				     "admissionFairSharing", "waitForPodsReady", "backfill", NULL};
	int r;
	p->kind = "Configuration";
	p->name = NULL;
	c->present = 1;
	if ((r = kp_keys(p, doc, keys)) || (r = config_fs(p, c, doc)) || (r = config_afs(p, c, doc)) ||
	    (r = kp_bool(p, doc, "backfill", &c->backfill)))
		return r;
	return config_wfpr(p, c, doc);
}
