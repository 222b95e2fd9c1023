/* qos_limits.c - QOS and Account objects of the config, parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "qos_limits_int.h"
#include "quantity.h"
#include "xalloc.h"
#include "yaml.h"

#define LIM_API "sluice.io/v1alpha1"

struct sl_limits *sl_limits_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_limits));
}

static void objs_free(struct lim_obj *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].name);
		free(o[i].parent);
		free(o[i].pclass);
		free(o[i].file);
		for (char **u = o[i].users; u && *u; u++)
			free(*u);
		free(o[i].users);
	}
	free(o);
}

void sl_limits_free(struct sl_limits *l)
{
	if (!l)
		return;
	objs_free(l->qos, l->nqos);
	objs_free(l->acct, l->nacct);
	free(l);
}

static const char *scalar(const struct sl_ynode *map, const char *key)
{
	const struct sl_ynode *n = map && map->type == SL_Y_MAP ? sl_ymap_get(map, key) : NULL;
	return n && n->type == SL_Y_SCALAR ? n->scalar : NULL;
}

int sl_limits_is_doc(const struct sl_ynode *doc)
{
	const char *api = scalar(doc, "apiVersion"), *kind = scalar(doc, "kind");
	return api && kind && strcmp(api, LIM_API) == 0 &&
	       (strcmp(kind, "QOS") == 0 || strcmp(kind, "Account") == 0);
}

struct pctx {
	const char *file, *kind, *name;
	struct sl_err *err;
};

static int perr(struct pctx *p, int line, const char *path, const char *msg)
{
	return sl_yerr(p->err, SL_ECONFIG, p->file, line, p->kind, p->name, path, "%s", msg);
}

static int count(struct pctx *p, const struct sl_ynode *spec, const char *key, int64_t *out)
{
	const struct sl_ynode *n = sl_ymap_get(spec, key);
	if (!n)
		return 0;
	if (sl_yscalar_int64(n, out) != 0 || *out < 0)
		return perr(p, n->line, key, "must be a whole number, 0 or more");
	return 0;
}

int sl_limits_parse_time(const char *s, int64_t *min)
{
	unsigned d = 0, h = 0, m = 0, sec = 0;
	char tail;
	if (strcmp(s, "UNLIMITED") == 0 || strcmp(s, "INFINITE") == 0) {
		*min = LIM_NONE;
		return 0;
	}
	if (sscanf(s, "%u-%u:%u:%u%c", &d, &h, &m, &sec, &tail) == 4 ||
	    (d = 0, sscanf(s, "%u:%u:%u%c", &h, &m, &sec, &tail) == 3) ||
	    (h = 0, sscanf(s, "%u:%u%c", &m, &sec, &tail) == 2) ||
	    (sec = 0, sscanf(s, "%u%c", &m, &tail) == 1)) {
		*min = ((int64_t)d * 24 + h) * 60 + m + (sec ? 1 : 0);
		return 0;
	}
	return -1;
}

static int tres_index(const char *k)
{
	static const struct {
		const char *name;
		int ix;
	} names[] = {
		{"cpu", SL_TRES_CPU}, {"memory", SL_TRES_MEM}, {"mem", SL_TRES_MEM},
		{"node", SL_TRES_NODE}, {"nodes", SL_TRES_NODE}, {"nvidia.com/gpu", SL_TRES_GPU},
		{"gpu", SL_TRES_GPU}, {"gres/gpu", SL_TRES_GPU},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(k, names[i].name) == 0)
			return names[i].ix;
	return -1;
}

/* A TRES map: memory in MiB (a Kubernetes quantity in bytes, or Slurm's
 * "16G" in MiB), the rest as counts. */
static int tres(struct pctx *p, const struct sl_ynode *spec, const char *key, int64_t *out)
{
	const struct sl_ynode *m = sl_ymap_get(spec, key);
	if (!m)
		return 0;
	if (m->type != SL_Y_MAP)
		return perr(p, m->line, key, "must be a map of resources (cpu, memory, nvidia.com/gpu, node)");
	for (size_t i = 0; i < m->n; i++) {
		int ix = tres_index(m->keys[i]);
		const char *v = m->vals[i]->type == SL_Y_SCALAR ? m->vals[i]->scalar : "";
		char path[256], msg[256];
		int64_t milli;
		snprintf(path, sizeof(path), "%s.%s", key, m->keys[i]);
		if (ix < 0)
			return perr(p, m->key_lines[i], path,
				    "unknown resource (cpu, memory, nvidia.com/gpu, node)");
		size_t len = strlen(v);
		if (ix == SL_TRES_MEM && len > 1 && strchr("KMGT", v[len - 1])) {
			char q[64];
			/* Slurm's units are binary: "16G" is 16Gi. */
			snprintf(q, sizeof(q), "%.*s%ci", (int)(len - 1), v, v[len - 1]);
			if (sl_quantity_parse(q, &milli) != 0)
				milli = -1;
		} else if (sl_quantity_parse(v, &milli) != 0) {
			milli = -1;
		}
		if (milli < 0) {
			snprintf(msg, sizeof(msg), "\"%s\" is not a quantity", v);
			return perr(p, m->vals[i]->line, path, msg);
		}
		out[ix] = ix == SL_TRES_MEM ? (milli / 1000 + 1048575) / 1048576 : (milli + 999) / 1000;
	}
	return 0;
}

static void set_init(struct sl_lim_set *s)
{
	s->max_jobs_pu = s->max_submit_pu = s->grp_jobs = s->grp_submit = s->max_wall = LIM_NONE;
	for (int i = 0; i < SL_TRES_N; i++)
		s->max_tres_pu[i] = s->max_tres_pj[i] = s->min_tres_pj[i] = s->grp_tres[i] = LIM_NONE;
}

static int keys_known(struct pctx *p, const struct sl_ynode *spec, int qos)
{
	static const char *const both[] = {"maxJobsPerUser", "maxSubmitJobsPerUser", "maxTRESPerJob",
					   "maxWall", "grpTRES", "grpJobs", "grpSubmitJobs", NULL};
	static const char *const qos_only[] = {"priorityClass", "maxTRESPerUser", "minTRESPerJob", NULL};
	static const char *const acct_only[] = {"parent", "users", NULL};
	for (size_t i = 0; i < spec->n; i++) {
		const char *k = spec->keys[i];
		int ok = 0;
		for (const char *const *t = both; *t && !ok; t++)
			ok = strcmp(*t, k) == 0;
		for (const char *const *t = qos ? qos_only : acct_only; *t && !ok; t++)
			ok = strcmp(*t, k) == 0;
		if (!ok)
			return perr(p, spec->key_lines[i], k, "unknown field");
	}
	return 0;
}

int sl_limits_add_doc(struct sl_limits *l, const char *file, const struct sl_ynode *doc,
		      struct sl_err *err)
{
	const char *kind = scalar(doc, "kind");
	int qos = strcmp(kind, "QOS") == 0, r;
	const struct sl_ynode *meta = sl_ymap_get(doc, "metadata"), *spec = sl_ymap_get(doc, "spec");
	struct pctx p = {file, kind, scalar(meta, "name"), err};
	struct lim_obj o = {0};

	if (!p.name || !*p.name)
		return perr(&p, doc->line, "metadata.name", "required");
	struct lim_obj *have = qos ? l->qos : l->acct;
	for (size_t i = 0, n = qos ? l->nqos : l->nacct; i < n; i++)
		if (strcmp(have[i].name, p.name) == 0)
			return perr(&p, doc->line, NULL, "defined twice");
	set_init(&o.set);
	o.parent_ix = -1;
	if (spec && spec->type != SL_Y_MAP)
		return perr(&p, spec->line, "spec", "must be a map");
	if (spec) {
		if ((r = keys_known(&p, spec, qos)) ||
		    (r = count(&p, spec, "maxJobsPerUser", &o.set.max_jobs_pu)) ||
		    (r = count(&p, spec, "maxSubmitJobsPerUser", &o.set.max_submit_pu)) ||
		    (r = count(&p, spec, "grpJobs", &o.set.grp_jobs)) ||
		    (r = count(&p, spec, "grpSubmitJobs", &o.set.grp_submit)) ||
		    (r = tres(&p, spec, "maxTRESPerUser", o.set.max_tres_pu)) ||
		    (r = tres(&p, spec, "maxTRESPerJob", o.set.max_tres_pj)) ||
		    (r = tres(&p, spec, "minTRESPerJob", o.set.min_tres_pj)) ||
		    (r = tres(&p, spec, "grpTRES", o.set.grp_tres)))
			return r;
		const char *w = scalar(spec, "maxWall");
		if (w && sl_limits_parse_time(w, &o.set.max_wall) != 0)
			return perr(&p, sl_ymap_key_line(spec, "maxWall"), "maxWall",
				    "is not a time ([D-]HH:MM:SS, minutes or UNLIMITED)");
		if (scalar(spec, "priorityClass"))
			o.pclass = sl_xstrdup(scalar(spec, "priorityClass"));
		if (scalar(spec, "parent")) {
			o.parent = sl_xstrdup(scalar(spec, "parent"));
			o.parent_line = sl_ymap_key_line(spec, "parent");
		}
		const struct sl_ynode *users = sl_ymap_get(spec, "users");
		if (users && users->type != SL_Y_SEQ)
			return perr(&p, users->line, "users", "must be a list of user names");
		o.users = sl_xcalloc(users ? users->n + 1 : 1, sizeof(char *));
		for (size_t i = 0; users && i < users->n; i++) {
			if (users->vals[i]->type != SL_Y_SCALAR || !*users->vals[i]->scalar) {
				for (char **u = o.users; *u; u++)
					free(*u);
				free(o.users);
				free(o.pclass);
				free(o.parent);
				return perr(&p, users->vals[i]->line, "users", "must be a list of user names");
			}
			o.users[i] = sl_xstrdup(users->vals[i]->scalar);
		}
	}
	o.name = sl_xstrdup(p.name);
	o.file = sl_xstrdup(file);
	o.line = doc->line;
	if (qos) {
		l->qos = sl_xrealloc(l->qos, (l->nqos + 1) * sizeof(*l->qos));
		l->qos[l->nqos++] = o;
	} else {
		l->acct = sl_xrealloc(l->acct, (l->nacct + 1) * sizeof(*l->acct));
		l->acct[l->nacct++] = o;
	}
	return 0;
}

static int acct_index(const struct sl_limits *l, const char *name)
{
	for (size_t i = 0; i < l->nacct; i++)
		if (strcasecmp(l->acct[i].name, name) == 0)
			return (int)i;
	return -1;
}

int sl_limits_finalize(struct sl_limits *l, struct sl_err *err)
{
	for (size_t i = 0; i < l->nacct; i++) {
		struct lim_obj *a = &l->acct[i];
		if (!a->parent)
			continue;
		a->parent_ix = acct_index(l, a->parent);
		/* Slurm's tree always has root: it need not be written. */
		if (a->parent_ix < 0 && strcasecmp(a->parent, "root") != 0)
			return sl_yerr(err, SL_ECONFIG, a->file, a->parent_line, "Account", a->name,
				       "spec.parent", "no Account \"%s\"", a->parent);
	}
	for (size_t i = 0; i < l->nacct; i++) {
		size_t steps = 0;
		for (int p = l->acct[i].parent_ix; p >= 0; p = l->acct[p].parent_ix)
			if (++steps > l->nacct)
				return sl_yerr(err, SL_ECONFIG, l->acct[i].file, l->acct[i].parent_line,
					       "Account", l->acct[i].name, "spec.parent",
					       "parents form a cycle");
	}
	return 0;
}

static int set_any(const struct sl_lim_set *s)
{
	int any = s->max_jobs_pu != LIM_NONE || s->max_submit_pu != LIM_NONE ||
		  s->grp_jobs != LIM_NONE || s->grp_submit != LIM_NONE || s->max_wall != LIM_NONE;
	for (int i = 0; i < SL_TRES_N && !any; i++)
		any = s->max_tres_pu[i] != LIM_NONE || s->max_tres_pj[i] != LIM_NONE ||
		      s->min_tres_pj[i] != LIM_NONE || s->grp_tres[i] != LIM_NONE;
	return any;
}

int sl_limits_active(const struct sl_limits *l)
{
	for (size_t i = 0; l && i < l->nqos; i++)
		if (set_any(&l->qos[i].set))
			return 1;
	for (size_t i = 0; l && i < l->nacct; i++)
		if (set_any(&l->acct[i].set))
			return 1;
	return 0;
}

int sl_limits_has_qos(const struct sl_limits *l, const char *qos)
{
	for (size_t i = 0; l && qos && i < l->nqos; i++)
		if (strcasecmp(l->qos[i].name, qos) == 0)
			return 1;
	return 0;
}

const char *const *sl_limits_account_users(const struct sl_limits *l, size_t i,
					   const char **account)
{
	if (!l || i >= l->nacct)
		return NULL;
	*account = l->acct[i].name;
	return (const char *const *)l->acct[i].users;
}

int sl_limits_obj(const struct sl_limits *l, int account, size_t i, const char **name,
		  const char **parent, const struct sl_lim_set **set)
{
	const struct lim_obj *o;

	if (!l || i >= (account ? l->nacct : l->nqos))
		return -1;
	o = account ? &l->acct[i] : &l->qos[i];
	*name = o->name;
	*parent = o->parent;
	*set = &o->set;
	return 0;
}

const char *sl_limits_qos_class(const struct sl_limits *l, const char *qos)
{
	for (size_t i = 0; l && qos && i < l->nqos; i++)
		if (strcasecmp(l->qos[i].name, qos) == 0)
			return l->qos[i].pclass;
	return NULL;
}
