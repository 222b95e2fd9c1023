/* kueue_check.c - lifetime of struct sl_kueue, the cross-reference checks
 * run once every object is loaded (sl_kueue_finalize) and lookups the
 * daemon needs. It calls nothing of the parser (kueue.c, kueue_parse.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kueue.h"
#include "kueue_parse.h"
#include "xalloc.h"
#include "yaml.h"

struct sl_kueue *sl_kueue_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_kueue));
}

static void free_kv(struct sl_kq_kv *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

static void free_rgs(struct sl_kq_resource_group *rg, size_t n)
{
	for (size_t g = 0; rg && g < n; g++) {
		sl_strv_free(rg[g].covered);
		for (size_t f = 0; f < rg[g].nflavors; f++) {
			free(rg[g].flavors[f].flavor);
			for (size_t r = 0; r < rg[g].flavors[f].nres; r++)
				free(rg[g].flavors[f].res[r].resource);
			free(rg[g].flavors[f].res);
		}
		free(rg[g].flavors);
	}
	free(rg);
}

static void free_flavor(struct sl_kq_flavor *f)
{
	free(f->name);
	free(f->file);
	free_kv(f->labels, f->nlabels);
	for (size_t i = 0; f->taints && i < f->ntaints; i++) {
		free(f->taints[i].key);
		free(f->taints[i].value);
		free(f->taints[i].effect);
	}
	free(f->taints);
	for (size_t i = 0; f->tols && i < f->ntols; i++) {
		free(f->tols[i].key);
		free(f->tols[i].op);
		free(f->tols[i].value);
		free(f->tols[i].effect);
	}
	free(f->tols);
	free(f->topology);
}

static void free_cq(struct sl_kq_cq *c)
{
	free(c->name);
	free(c->file);
	free(c->cohort);
	free_kv(c->nssel.match, c->nssel.nmatch);
	for (size_t i = 0; c->nssel.expr && i < c->nssel.nexpr; i++) {
		free(c->nssel.expr[i].key);
		free(c->nssel.expr[i].op);
		sl_strv_free(c->nssel.expr[i].values);
	}
	free(c->nssel.expr);
	free_rgs(c->rg, c->nrg);
}

void sl_kueue_free(struct sl_kueue *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nflavors; i++)
		free_flavor(&k->flavors[i]);
	for (size_t i = 0; i < k->ncqs; i++)
		free_cq(&k->cqs[i]);
	for (size_t i = 0; i < k->ncohorts; i++) {
		free(k->cohorts[i].name);
		free(k->cohorts[i].file);
		free(k->cohorts[i].parent);
		free_rgs(k->cohorts[i].rg, k->cohorts[i].nrg);
	}
	for (size_t i = 0; i < k->nlqs; i++) {
		free(k->lqs[i].ns);
		free(k->lqs[i].name);
		free(k->lqs[i].cq);
		free(k->lqs[i].file);
	}
	for (size_t i = 0; i < k->nwpcs; i++) {
		free(k->wpcs[i].name);
		free(k->wpcs[i].description);
	}
	for (size_t i = 0; i < k->config.nweights; i++)
		free(k->config.weights[i].resource);
	free(k->config.weights);
	free(k->config.wfpr_timestamp);
	sl_kueue_topo_free(k);
	sl_strv_free(k->warnings);
	free(k->flavors);
	free(k->cqs);
	free(k->cohorts);
	free(k->lqs);
	free(k->wpcs);
	free(k);
}

const struct sl_kq_cq *sl_kueue_find_cq(const struct sl_kueue *k, const char *name)
{
	for (size_t i = 0; name && i < k->ncqs; i++)
		if (strcmp(k->cqs[i].name, name) == 0)
			return &k->cqs[i];
	return NULL;
}

const struct sl_kq_flavor *sl_kueue_find_flavor(const struct sl_kueue *k, const char *name)
{
	for (size_t i = 0; name && i < k->nflavors; i++)
		if (strcmp(k->flavors[i].name, name) == 0)
			return &k->flavors[i];
	return NULL;
}

const struct sl_kq_cohort *sl_kueue_find_cohort(const struct sl_kueue *k, const char *name)
{
	for (size_t i = 0; name && i < k->ncohorts; i++)
		if (strcmp(k->cohorts[i].name, name) == 0)
			return &k->cohorts[i];
	return NULL;
}

const struct sl_kq_lq *sl_kueue_find_lq(const struct sl_kueue *k, const char *ns, const char *name)
{
	for (size_t i = 0; name && i < k->nlqs; i++)
		if ((ns == NULL || strcmp(k->lqs[i].ns, ns) == 0) && strcmp(k->lqs[i].name, name) == 0)
			return &k->lqs[i];
	return NULL;
}

const char *sl_kueue_lq_cluster_queue(const struct sl_kueue *k, const char *ns, const char *name)
{
	const struct sl_kq_lq *l = sl_kueue_find_lq(k, ns, name);
	return l ? l->cq : NULL;
}

int sl_kueue_priority_class(const struct sl_kueue *k, const char *name, int32_t *value)
{
	for (size_t i = 0; name && i < k->nwpcs; i++)
		if (strcmp(k->wpcs[i].name, name) == 0) {
			*value = k->wpcs[i].value;
			return 0;
		}
	return -SL_ENOENT;
}

static int check_dups(const struct sl_kueue *k, struct sl_err *err)
{
	for (size_t i = 0; i < k->nflavors; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k->flavors[i].name, k->flavors[j].name) == 0)
				return sl_yerr(err, SL_ECONFIG, k->flavors[i].file, k->flavors[i].line,
					       "ResourceFlavor", k->flavors[i].name, NULL, "duplicate name");
	for (size_t i = 0; i < k->ncqs; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k->cqs[i].name, k->cqs[j].name) == 0)
				return sl_yerr(err, SL_ECONFIG, k->cqs[i].file, k->cqs[i].line,
					       "ClusterQueue", k->cqs[i].name, NULL, "duplicate name");
	for (size_t i = 0; i < k->ncohorts; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k->cohorts[i].name, k->cohorts[j].name) == 0)
				return sl_yerr(err, SL_ECONFIG, k->cohorts[i].file, k->cohorts[i].line,
					       "Cohort", k->cohorts[i].name, NULL, "duplicate name");
	for (size_t i = 0; i < k->nlqs; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k->lqs[i].name, k->lqs[j].name) == 0 &&
			    strcmp(k->lqs[i].ns, k->lqs[j].ns) == 0)
				return sl_yerr(err, SL_ECONFIG, k->lqs[i].file, k->lqs[i].line,
					       "LocalQueue", k->lqs[i].name, NULL,
					       "duplicate name in namespace %s", k->lqs[i].ns);
	for (size_t i = 0; i < k->nwpcs; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k->wpcs[i].name, k->wpcs[j].name) == 0)
				return sl_yerr(err, SL_ECONFIG, NULL, 0, "WorkloadPriorityClass",
					       k->wpcs[i].name, NULL, "duplicate name");
	return 0;
}

static void warn(struct sl_kueue *k, struct sl_err *msg)
{
	k->warnings = sl_xrealloc(k->warnings, (k->nwarnings + 2) * sizeof(char *));
	k->warnings[k->nwarnings++] = sl_xstrdup(msg->msg);
	sl_err_clear(msg);
	k->warnings[k->nwarnings] = NULL;
}

/* Kueue keeps such objects and reports them in their status: the
 * ClusterQueue's Active condition (FlavorNotFound), the workloads' pending
 * message (sched/wlq.c). Refusing the whole config instead would stop every
 * other queue over one typo. */
static void warn_refs(struct sl_kueue *k)
{
	struct sl_err e = SL_ERR_INIT;
	for (size_t i = 0; i < k->nlqs; i++)
		if (!sl_kueue_find_cq(k, k->lqs[i].cq)) {
			sl_yerr(&e, SL_ECONFIG, k->lqs[i].file, k->lqs[i].line, "LocalQueue",
				k->lqs[i].name, "spec.clusterQueue",
				"ClusterQueue \"%s\" not found: its jobs stay pending", k->lqs[i].cq);
			warn(k, &e);
		}
	for (size_t i = 0; i < k->ncqs; i++) {
		const struct sl_kq_cq *c = &k->cqs[i];
		for (size_t g = 0; g < c->nrg; g++)
			for (size_t f = 0; f < c->rg[g].nflavors; f++)
				if (!sl_kueue_find_flavor(k, c->rg[g].flavors[f].flavor)) {
					char path[128];
					snprintf(path, sizeof(path), "spec.resourceGroups[%zu].flavors[%zu].name", g, f);
					sl_yerr(&e, SL_ECONFIG, c->file, c->line, "ClusterQueue", c->name,
						path, "ResourceFlavor \"%s\" not found: the ClusterQueue "
						"is inactive (FlavorNotFound) and admits nothing",
						c->rg[g].flavors[f].flavor);
					warn(k, &e);
				}
	}
}

static int check_refs(const struct sl_kueue *k, struct sl_err *err)
{
	for (size_t i = 0; i < k->ncohorts; i++) {
		const struct sl_kq_cohort *c = &k->cohorts[i];
		for (size_t g = 0; g < c->nrg; g++)
			for (size_t f = 0; f < c->rg[g].nflavors; f++)
				if (!sl_kueue_find_flavor(k, c->rg[g].flavors[f].flavor))
					return sl_yerr(err, SL_ECONFIG, c->file, c->line, "Cohort", c->name,
						       "spec.resourceGroups", "ResourceFlavor \"%s\" not found",
						       c->rg[g].flavors[f].flavor);
	}
	return 0;
}

static int check_cycles(const struct sl_kueue *k, struct sl_err *err)
{
	for (size_t i = 0; i < k->ncohorts; i++) {
		const struct sl_kq_cohort *c = &k->cohorts[i];
		size_t steps = 0;
		while (c && c->parent && steps <= k->ncohorts) {
			c = sl_kueue_find_cohort(k, c->parent);
			steps++;
		}
		if (c && c->parent)
			return sl_yerr(err, SL_ECONFIG, k->cohorts[i].file, k->cohorts[i].line, "Cohort",
				       k->cohorts[i].name, "spec.parentName",
				       "cohort hierarchy has a cycle");
	}
	return 0;
}

int sl_kueue_finalize(struct sl_kueue *k, struct sl_err *err)
{
	int r;
	sl_strv_free(k->warnings);
	k->warnings = NULL;
	k->nwarnings = 0;
	warn_refs(k);
	if ((r = check_dups(k, err)) || (r = check_refs(k, err)) || (r = check_cycles(k, err)))
		return r;
	k->finalized = 1;
	return 0;
}
