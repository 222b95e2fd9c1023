/* slurm_nodes.c - the nodes and partitions slurm.conf's lines describe:
 * NodeName= hostlists expanded with NodeName=DEFAULT applied, Gres= parsed,
 * PartitionName= Nodes= resolved (hostlists, NodeSets, ALL). */
#include "slurm_conf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "xalloc.h"

struct sl_slurm_nodes {
	size_t n, cap, np, capp;
	struct sl_snode *v;
	struct sl_spart *p;
	const struct sl_slurm_conf *conf;
	size_t *byname;       /* node indexes sorted by name: lookups of hostlists */
	unsigned char *marks; /* per node: already in the partition being resolved */
};

void sl_sgres_free(struct sl_sgres *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].name);
		free(g[i].type);
	}
	free(g);
}

void sl_slurm_nodes_free(struct sl_slurm_nodes *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->n; i++) {
		free(n->v[i].name);
		sl_strv_free(n->v[i].features);
		sl_sgres_free(n->v[i].gres, n->v[i].ngres);
	}
	for (size_t i = 0; i < n->np; i++) {
		free(n->p[i].name);
		free(n->p[i].nodes);
	}
	free(n->v);
	free(n->p);
	free(n->byname);
	free(n->marks);
	free(n);
}

size_t sl_slurm_nodes_count(const struct sl_slurm_nodes *n)
{
	return n->n;
}

const struct sl_snode *sl_slurm_node(const struct sl_slurm_nodes *n, size_t i)
{
	return i < n->n ? &n->v[i] : NULL;
}

size_t sl_slurm_parts_count(const struct sl_slurm_nodes *n)
{
	return n->np;
}

const struct sl_spart *sl_slurm_part(const struct sl_slurm_nodes *n, size_t i)
{
	return i < n->np ? &n->p[i] : NULL;
}

/* "64", "2K" (x1024, as Slurm's suffixes on counts), "0". */
static int count_parse(const char *s, int64_t *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || v < 0)
		return -SL_EINVAL;
	switch (toupper((unsigned char)*end)) {
	case 0: break;
	case 'K': v *= 1024; end++; break;
	case 'M': v *= 1024 * 1024; end++; break;
	case 'G': v *= 1024LL * 1024 * 1024; end++; break;
	default: return -SL_EINVAL;
	}
	if (*end)
		return -SL_EINVAL;
	*out = v;
	return 0;
}

static int one_gres(char *tok, struct sl_sgres *g, struct sl_err *err)
{
	char *paren = strchr(tok, '('), *f[4] = {0};
	size_t nf = 0;
	if (paren)
		*paren = 0; /* "(S:0-1)": socket binding, nothing to map */
	for (char *sv = NULL, *p = strtok_r(tok, ":", &sv); p && nf < 4; p = strtok_r(NULL, ":", &sv))
		f[nf++] = p;
	if (nf == 0)
		return sl_err_set(err, SL_EINVAL, "empty Gres entry");
	g->name = sl_xstrdup(f[0]);
	g->count = 1;
	/* name[:type][:no_consume][:count]: the last field is the count when numeric */
	size_t last = nf - 1;
	if (nf > 1 && count_parse(f[last], &g->count) == 0)
		nf--;
	else if (nf > 1)
		g->count = 1;
	for (size_t i = 1; i < nf; i++)
		if (strcmp(f[i], "no_consume") != 0 && !g->type)
			g->type = sl_xstrdup(f[i]);
	return 0;
}

int sl_sgres_parse(const char *s, struct sl_sgres **out, size_t *n, struct sl_err *err)
{
	char *copy = sl_xstrdup(s), *sv = NULL;
	size_t cap = 0;
	int r = 0;
	*out = NULL;
	*n = 0;
	if (strcasecmp(s, "(null)") == 0 || !*s)
		goto out;
	/* commas inside "(S:0,1)" are not separators: cut at top level only */
	int depth = 0;
	for (char *p = copy; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == ',' && depth == 0)
			*p = '\x1f';
	}
	for (char *t = strtok_r(copy, "\x1f", &sv); t && r == 0; t = strtok_r(NULL, "\x1f", &sv)) {
		*out = sl_xgrow(*out, &cap, *n + 1, sizeof(**out));
		memset(&(*out)[*n], 0, sizeof(**out));
		r = one_gres(t, &(*out)[(*n)++], err);
	}
out:
	free(copy);
	if (r != 0) {
		sl_sgres_free(*out, *n);
		*out = NULL;
		*n = 0;
		sl_err_prefix(err, "Gres=%s", s);
	}
	return r;
}

/* The NodeName=DEFAULT lines read so far: they add up, as in slurmctld. */
struct defaults {
	size_t n, cap;
	const struct sl_sconf_line **v;
};

/* A node parameter: its own line's, else the latest DEFAULT line's. */
static const char *get2(const struct sl_sconf_line *l, const struct defaults *d, const char *key)
{
	const char *v = sl_sconf_line_get(l, key);
	for (size_t i = d->n; !v && i > 0; i--)
		v = sl_sconf_line_get(d->v[i - 1], key);
	return v;
}

static int num(const struct sl_sconf_line *l, const struct defaults *dflt, const char *key,
	       int64_t dfl, int64_t *out, struct sl_err *err)
{
	const char *v = get2(l, dflt, key);
	*out = dfl;
	if (v && count_parse(v, out) != 0)
		return sl_err_set(err, SL_EINVAL, "%s:%d: %s=%s is not a number", l->file, l->line,
				  key, v);
	return 0;
}

/* CPUs=, else the product of the topology (Slurm's default for CPUs). */
static int node_cpus(const struct sl_sconf_line *l, const struct defaults *d, int64_t *cpus,
		     struct sl_err *err)
{
	int64_t b, s, c, t, v;
	int r;
	if ((r = num(l, d, "Boards", 1, &b, err)) || (r = num(l, d, "Sockets", 1, &s, err)) ||
	    (r = num(l, d, "CoresPerSocket", 1, &c, err)) ||
	    (r = num(l, d, "ThreadsPerCore", 1, &t, err)))
		return r;
	if (!get2(l, d, "Sockets") && get2(l, d, "SocketsPerBoard") &&
	    (r = num(l, d, "SocketsPerBoard", 1, &s, err)))
		return r;
	if ((r = num(l, d, "CPUs", b * s * c * t, &v, err)) != 0)
		return r;
	if (get2(l, d, "Procs") && !get2(l, d, "CPUs") && (r = num(l, d, "Procs", v, &v, err)))
		return r;
	*cpus = v;
	return 0;
}

static char **features(const struct sl_sconf_line *l, const struct defaults *d)
{
	const char *f = get2(l, d, "Features");
	if (!f)
		f = get2(l, d, "Feature");
	if (!f)
		f = get2(l, d, "AvailableFeatures");
	char **v = sl_xcalloc(1, sizeof(char *)), *copy = sl_xstrdup(f ? f : ""), *sv = NULL;
	size_t n = 0;
	for (char *t = strtok_r(copy, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
		v = sl_xrealloc(v, (n + 2) * sizeof(char *));
		v[n++] = sl_xstrdup(t);
		v[n] = NULL;
	}
	free(copy);
	return v;
}

static int add_nodes(struct sl_slurm_nodes *ns, const struct sl_sconf_line *l,
		     const struct defaults *d, size_t idx, struct sl_err *err)
{
	char **names = NULL;
	size_t nn = 0;
	int64_t cpus, mem;
	int r;
	if ((r = sl_hostlist_expand(l->kv[0].value, &names, &nn, err)) != 0) {
		sl_err_prefix(err, "%s:%d: NodeName", l->file, l->line);
		return r;
	}
	if ((r = node_cpus(l, d, &cpus, err)) || (r = num(l, d, "RealMemory", 1, &mem, err)))
		goto out;
	for (size_t i = 0; i < nn && r == 0; i++) {
		ns->v = sl_xgrow(ns->v, &ns->cap, ns->n + 1, sizeof(*ns->v));
		struct sl_snode *x = &ns->v[ns->n];
		memset(x, 0, sizeof(*x));
		x->name = sl_xstrdup(names[i]);
		x->cpus = cpus;
		x->mem_mb = mem;
		x->line = idx;
		x->features = features(l, d);
		x->future = get2(l, d, "State") && strcasecmp(get2(l, d, "State"), "FUTURE") == 0;
		ns->n++;
		const char *g = get2(l, d, "Gres");
		if (g && (r = sl_sgres_parse(g, &x->gres, &x->ngres, err)) != 0)
			sl_err_prefix(err, "%s:%d", l->file, l->line);
	}
out:
	sl_strv_free(names);
	return r;
}

static int byname_cmp(const void *a, const void *b, void *arg)
{
	const struct sl_slurm_nodes *ns = arg;
	return strcmp(ns->v[*(const size_t *)a].name, ns->v[*(const size_t *)b].name);
}

/* After the NodeName lines: the index partitions' host lists are looked up in. */
static void index_nodes(struct sl_slurm_nodes *ns)
{
	ns->byname = sl_xcalloc(ns->n + 1, sizeof(*ns->byname));
	ns->marks = sl_xcalloc(ns->n + 1, 1);
	for (size_t i = 0; i < ns->n; i++)
		ns->byname[i] = i;
	qsort_r(ns->byname, ns->n, sizeof(*ns->byname), byname_cmp, ns);
}

static ssize_t node_find(const struct sl_slurm_nodes *ns, const char *name)
{
	size_t lo = 0, hi = ns->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ns->v[ns->byname[mid]].name, name);
		if (c == 0)
			return (ssize_t)ns->byname[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void part_add_node(const struct sl_slurm_nodes *ns, struct sl_spart *p, size_t i)
{
	if (ns->marks[i])
		return;
	ns->marks[i] = 1;
	p->nodes = sl_xgrow(p->nodes, &p->capnodes, p->nnodes + 1, sizeof(*p->nodes));
	p->nodes[p->nnodes++] = i;
}

/* A NodeSet: its Nodes= hostlist, or every node with its Feature=. */
static int nodeset(const struct sl_slurm_nodes *ns, const char *name, struct sl_spart *p,
		   int *found, struct sl_err *err);

static int part_nodes(const struct sl_slurm_nodes *ns, const char *list, struct sl_spart *p,
		      const struct sl_sconf_line *l, struct sl_err *err)
{
	char **names = NULL;
	size_t nn = 0;
	int r, found;
	if (strcasecmp(list, "ALL") == 0) {
		for (size_t i = 0; i < ns->n; i++)
			part_add_node(ns, p, i);
		return 0;
	}
	if ((r = sl_hostlist_expand(list, &names, &nn, err)) != 0) {
		sl_err_prefix(err, "%s:%d: Nodes", l->file, l->line);
		return r;
	}
	for (size_t i = 0; i < nn && r == 0; i++) {
		ssize_t k = node_find(ns, names[i]);
		if (k >= 0) {
			part_add_node(ns, p, (size_t)k);
			continue;
		}
		if ((r = nodeset(ns, names[i], p, &found, err)) == 0 && !found)
			r = sl_err_set(err, SL_EINVAL, "%s:%d: partition %s: node %s is not defined "
				       "by any NodeName line", l->file, l->line, p->name, names[i]);
	}
	sl_strv_free(names);
	return r;
}

static int nodeset(const struct sl_slurm_nodes *ns, const char *name, struct sl_spart *p,
		   int *found, struct sl_err *err)
{
	const struct sl_slurm_conf *c = ns->conf;
	*found = 0;
	for (size_t i = 0; i < sl_slurm_conf_nlines(c); i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(c, i);
		if (l->nkv == 0 || strcasecmp(l->kv[0].key, "NodeSet") != 0 ||
		    strcmp(l->kv[0].value, name) != 0)
			continue;
		*found = 1;
		const char *nodes = sl_sconf_line_get(l, "Nodes"), *feat = sl_sconf_line_get(l, "Feature");
		if (nodes && strcmp(nodes, name) != 0)
			return part_nodes(ns, nodes, p, l, err);
		for (size_t k = 0; feat && k < ns->n; k++)
			for (char **f = ns->v[k].features; *f; f++)
				if (strcmp(*f, feat) == 0)
					part_add_node(ns, p, k);
		return 0;
	}
	return 0;
}

static int add_part(struct sl_slurm_nodes *ns, const struct sl_sconf_line *l, size_t idx,
		    struct sl_err *err)
{
	ns->p = sl_xgrow(ns->p, &ns->capp, ns->np + 1, sizeof(*ns->p));
	struct sl_spart *p = &ns->p[ns->np++];
	memset(p, 0, sizeof(*p));
	p->name = sl_xstrdup(l->kv[0].value);
	p->line = idx;
	p->params = l;
	const char *d = sl_spart_get(ns, p, "Default");
	p->is_default = d && strcasecmp(d, "YES") == 0;
	const char *nodes = sl_spart_get(ns, p, "Nodes");
	memset(ns->marks, 0, ns->n);
	return nodes ? part_nodes(ns, nodes, p, l, err) : 0;
}

const char *sl_spart_get(const struct sl_slurm_nodes *n, const struct sl_spart *p, const char *key)
{
	const char *v = sl_sconf_line_get(p->params, key);
	for (size_t i = 0; !v && i < p->line; i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(n->conf, i);
		if (l->nkv && strcasecmp(l->kv[0].key, "PartitionName") == 0 &&
		    strcasecmp(l->kv[0].value, "DEFAULT") == 0 && sl_sconf_line_get(l, key))
			v = sl_sconf_line_get(l, key);
	}
	return v;
}

int sl_slurm_nodes_resolve(const struct sl_slurm_conf *c, struct sl_slurm_nodes **out,
			   struct sl_err *err)
{
	struct sl_slurm_nodes *ns = sl_xcalloc(1, sizeof(*ns));
	struct defaults ndef = {0};
	int r = 0;
	ns->conf = c;
	/* nodes first: a partition may name nodes defined after it */
	for (size_t i = 0; i < sl_slurm_conf_nlines(c) && r == 0; i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(c, i);
		if (l->nkv == 0 || strcasecmp(l->kv[0].key, "NodeName") != 0)
			continue;
		if (strcasecmp(l->kv[0].value, "DEFAULT") == 0) {
			ndef.v = sl_xgrow(ndef.v, &ndef.cap, ndef.n + 1, sizeof(*ndef.v));
			ndef.v[ndef.n++] = l;
		} else {
			r = add_nodes(ns, l, &ndef, i, err);
		}
	}
	if (r == 0)
		index_nodes(ns);
	for (size_t i = 0; i < sl_slurm_conf_nlines(c) && r == 0; i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(c, i);
		if (l->nkv && strcasecmp(l->kv[0].key, "PartitionName") == 0 &&
		    strcasecmp(l->kv[0].value, "DEFAULT") != 0)
			r = add_part(ns, l, i, err);
	}
	free(ndef.v);
	if (r != 0) {
		sl_slurm_nodes_free(ns);
		ns = NULL;
	}
	*out = ns;
	return r;
}
