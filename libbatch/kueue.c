/* kueue.c - parse Kueue manifests (ResourceFlavor, ClusterQueue,
 * LocalQueue, Cohort, WorkloadPriorityClass; v1beta1 and v1beta2
 * spellings) from the YAML tree into struct sl_kueue. Every field is
 * checked; unknown keys are errors that name FILE:LINE, object and path.
 * Calls flow down: kueue.c -> kueue_parse.c (fields), kueue_check.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kueue.h"
#include "kueue_parse.h"
#include "quantity.h"
#include "xalloc.h"
#include "yaml.h"

static int parse_quota(struct kp *p, const struct sl_ynode *n, struct sl_kq_quota *q, bool cohort_ok)
{
	static const char *keys[] = {"name", "nominalQuota", "borrowingLimit", "lendingLimit", NULL};
	int r;
	if ((r = kp_keys(p, n, keys)) || (r = kp_str(p, n, "name", &q->resource, true)) ||
	    (r = kp_qty(p, n, "nominalQuota", &q->nominal, NULL, true)) ||
	    (r = kp_qty(p, n, "borrowingLimit", &q->bl, &q->has_bl, false)) ||
	    (r = kp_qty(p, n, "lendingLimit", &q->ll, &q->has_ll, false)))
		return r;
	if ((q->has_bl || q->has_ll) && !cohort_ok)
		return kp_err(p, n, q->has_bl ? "borrowingLimit" : "lendingLimit",
			      "must be nil when %s",
			      p->kind[0] == 'C' && p->kind[1] == 'o' ? "the cohort has no parent"
								 : "cohort is empty");
	if (q->has_ll && q->ll > q->nominal)
		return kp_err(p, n, "lendingLimit", "must be less than or equal to nominalQuota");
	return 0;
}

static int parse_flavor_quotas(struct kp *p, const struct sl_ynode *n, struct sl_kq_flavor_quotas *f,
			       const struct sl_kq_resource_group *rg, bool cohort_ok)
{
	static const char *keys[] = {"name", "resources", NULL};
	const struct sl_ynode *res;
	int r;
	if ((r = kp_keys(p, n, keys)) || (r = kp_str(p, n, "name", &f->flavor, true)) ||
	    (r = kp_seq(p, n, "resources", &res, true)))
		return r;
	f->nres = res->n;
	f->res = sl_xcalloc(res->n + 1, sizeof(*f->res));
	kp_push(p, "resources");
	for (size_t i = 0; i < res->n && !r; i++) {
		kp_pushi(p, i);
		r = parse_quota(p, res->vals[i], &f->res[i], cohort_ok);
		if (!r && (i >= rg->ncovered || strcmp(f->res[i].resource, rg->covered[i]) != 0))
			r = kp_err(p, res->vals[i], "name", "must match the name in coveredResources");
		kp_pop(p);
	}
	kp_pop(p);
	if (!r && f->nres != rg->ncovered)
		r = kp_err(p, n, "resources", "must list every covered resource (%zu), got %zu",
			   rg->ncovered, f->nres);
	return r;
}

static int parse_rg(struct kp *p, const struct sl_ynode *n, struct sl_kq_resource_group *rg,
		    bool cohort_ok)
{
	static const char *keys[] = {"coveredResources", "flavors", NULL};
	const struct sl_ynode *fl;
	int r;
	if ((r = kp_keys(p, n, keys)) ||
	    (r = kp_strv(p, n, "coveredResources", &rg->covered, &rg->ncovered, true)) ||
	    (r = kp_seq(p, n, "flavors", &fl, true)))
		return r;
	rg->nflavors = fl->n;
	rg->flavors = sl_xcalloc(fl->n + 1, sizeof(*rg->flavors));
	kp_push(p, "flavors");
	for (size_t i = 0; i < fl->n && !r; i++) {
		kp_pushi(p, i);
		r = parse_flavor_quotas(p, fl->vals[i], &rg->flavors[i], rg, cohort_ok);
		for (size_t j = 0; j < i && !r; j++)
			if (strcmp(rg->flavors[j].flavor, rg->flavors[i].flavor) == 0)
				r = kp_err(p, fl->vals[i], "name", "duplicate flavor \"%s\"",
					   rg->flavors[i].flavor);
		kp_pop(p);
	}
	kp_pop(p);
	return r;
}

/* A resource may appear in only one resource group. */
static int parse_rgs(struct kp *p, const struct sl_ynode *spec, struct sl_kq_resource_group **out,
		     size_t *nout, bool cohort_ok)
{
	const struct sl_ynode *rgs;
	int r = kp_seq(p, spec, "resourceGroups", &rgs, false);
	if (r || !rgs)
		return r;
	*nout = rgs->n;
	*out = sl_xcalloc(rgs->n + 1, sizeof(**out));
	kp_push(p, "resourceGroups");
	for (size_t i = 0; i < rgs->n && !r; i++) {
		kp_pushi(p, i);
		r = parse_rg(p, rgs->vals[i], &(*out)[i], cohort_ok);
		for (size_t g = 0; g < i && !r; g++)
			for (size_t a = 0; a < (*out)[g].ncovered; a++)
				for (size_t b = 0; b < (*out)[i].ncovered; b++)
					if (!r && strcmp((*out)[g].covered[a], (*out)[i].covered[b]) == 0)
						r = kp_err(p, rgs->vals[i], "coveredResources",
							   "resource %s is already covered by "
							   "resourceGroups[%zu]", (*out)[g].covered[a], g);
		kp_pop(p);
	}
	kp_pop(p);
	return r;
}

static const struct kp_enum policies[] = {
	{"Never", SL_KP_NEVER}, {"LowerPriority", SL_KP_LOWER},
	{"LowerOrNewerEqualPriority", SL_KP_LOWER_OR_NEWER_EQUAL}, {"Any", SL_KP_ANY}, {NULL, 0}};
static const struct kp_enum stops[] = {
	{"None", SL_KSTOP_NONE}, {"Hold", SL_KSTOP_HOLD}, {"HoldAndDrain", SL_KSTOP_HOLD_AND_DRAIN},
	{NULL, 0}};
static const struct kp_enum fung[] = {
	{"MayStopSearch", SL_KF_MAY_STOP}, {"TryNextFlavor", SL_KF_TRY_NEXT},
	{"Borrow", SL_KF_MAY_STOP}, {"Preempt", SL_KF_MAY_STOP}, {NULL, 0}};
static const struct kp_enum prefs[] = {
	{"BorrowingOverPreemption", SL_KPREF_BORROWING_OVER_PREEMPTION},
	{"PreemptionOverBorrowing", SL_KPREF_PREEMPTION_OVER_BORROWING}, {NULL, 0}};

static int parse_preemption(struct kp *p, const struct sl_ynode *spec, struct sl_kq_cq *c)
{
	static const char *keys[] = {"withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort", NULL};
	static const char *bkeys[] = {"policy", "maxPriorityThreshold", NULL};
	static const struct kp_enum bwc[] = {{"Never", SL_KP_NEVER}, {"LowerPriority", SL_KP_LOWER}, {NULL, 0}};
	const struct sl_ynode *n = sl_ymap_get(spec, "preemption"), *b;
	int r, v;
	if (!n || sl_yscalar_is_null(n))
		return 0;
	kp_push(p, "preemption");
	if ((r = kp_map(p, spec, "preemption")) || (r = kp_keys(p, n, keys)))
		goto out;
	if ((r = kp_enumv(p, n, "withinClusterQueue", policies, &v, SL_KP_NEVER)))
		goto out;
	c->within_cq = v;
	if ((r = kp_enumv(p, n, "reclaimWithinCohort", policies, &v, SL_KP_NEVER)))
		goto out;
	c->reclaim = v;
	b = sl_ymap_get(n, "borrowWithinCohort");
	if (b && !sl_yscalar_is_null(b)) {
		kp_push(p, "borrowWithinCohort");
		int64_t t;
		if (!(r = kp_map(p, n, "borrowWithinCohort")) && !(r = kp_keys(p, b, bkeys)) &&
		    !(r = kp_enumv(p, b, "policy", bwc, &v, SL_KP_NEVER)) &&
		    !(r = kp_int(p, b, "maxPriorityThreshold", &t, &c->has_bwc_threshold)))
			c->bwc_threshold = (int32_t)t;
		c->bwc = v;
		kp_pop(p);
		if (!r && c->bwc != SL_KP_NEVER && c->reclaim == SL_KP_NEVER)
			r = kp_err(p, n, "borrowWithinCohort", "reclaimWithinCohort=Never and "
				   "borrowWithinCohort.policy!=Never");
	}
out:
	kp_pop(p);
	return r;
}

static int parse_fungibility(struct kp *p, const struct sl_ynode *spec, struct sl_kq_cq *c)
{
	static const char *keys[] = {"whenCanBorrow", "whenCanPreempt", "preference", NULL};
	const struct sl_ynode *n = sl_ymap_get(spec, "flavorFungibility");
	int r, a = SL_KF_MAY_STOP, b = SL_KF_TRY_NEXT, pr = SL_KPREF_UNSET;
	if (!n || sl_yscalar_is_null(n))
		return 0;
	kp_push(p, "flavorFungibility");
	if (!(r = kp_map(p, spec, "flavorFungibility")) && !(r = kp_keys(p, n, keys)) &&
	    !(r = kp_enumv(p, n, "whenCanBorrow", fung, &a, SL_KF_MAY_STOP)) &&
	    !(r = kp_enumv(p, n, "whenCanPreempt", fung, &b, SL_KF_TRY_NEXT)) &&
	    !(r = kp_enumv(p, n, "preference", prefs, &pr, SL_KPREF_UNSET))) {
		c->when_borrow = a;
		c->when_preempt = b;
		c->preference = pr;
		if (pr != SL_KPREF_UNSET && (a != SL_KF_TRY_NEXT || b != SL_KF_TRY_NEXT))
			r = kp_err(p, n, "preference", "may only be set when whenCanBorrow and "
				   "whenCanPreempt are TryNextFlavor");
	}
	kp_pop(p);
	return r;
}

static int parse_cq_misc(struct kp *p, const struct sl_ynode *spec, struct sl_kq_cq *c)
{
	static const struct kp_enum strat[] = {{"BestEffortFIFO", 0}, {"StrictFIFO", 1}, {NULL, 0}};
	static const struct kp_enum afs[] = {{"NoAdmissionFairSharing", 0},
					     {"UsageBasedAdmissionFairSharing", 1}, {NULL, 0}};
	static const char *askeys[] = {"admissionMode", NULL};
	int r, v;
	const struct sl_ynode *as = sl_ymap_get(spec, "admissionScope");
	if ((r = kp_enumv(p, spec, "queueingStrategy", strat, &c->strict_fifo, 0)) ||
	    (r = kp_enumv(p, spec, "stopPolicy", stops, &v, SL_KSTOP_NONE)))
		return r;
	c->stop = v;
	if ((r = kp_selector(p, spec, "namespaceSelector", &c->nssel)) ||
	    (r = kp_weight(p, spec, &c->weight_milli)) ||
	    (r = kp_bool(p, spec, "backfill", &c->backfill)))
		return r;
	if (as && !sl_yscalar_is_null(as)) {
		kp_push(p, "admissionScope");
		if (!(r = kp_map(p, spec, "admissionScope")) && !(r = kp_keys(p, as, askeys)))
			r = kp_enumv(p, as, "admissionMode", afs, &c->afs, 0);
		kp_pop(p);
	}
	return r;
}

static int parse_cq(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec)
{
	static const char *keys[] = {"cohort", "cohortName", "queueingStrategy", "namespaceSelector",
				     "resourceGroups", "preemption", "flavorFungibility", "fairSharing",
				     "admissionScope", "stopPolicy", "admissionChecks",
				     "admissionChecksStrategy", "backfill", NULL};
	k->cqs = sl_xgrow(k->cqs, &k->capcq, k->ncqs + 1, sizeof(*k->cqs));
	struct sl_kq_cq *c = &k->cqs[k->ncqs++];
	memset(c, 0, sizeof(*c));
	c->name = sl_xstrdup(p->name);
	c->file = sl_xstrdup(p->file);
	c->line = p->line;
	c->weight_milli = 1000;
	c->when_preempt = SL_KF_TRY_NEXT;
	int r;
	kp_push(p, "spec");
	if ((r = kp_keys(p, spec, keys)) || (r = kp_str(p, spec, "cohort", &c->cohort, false)))
		goto out;
	if (!c->cohort && (r = kp_str(p, spec, "cohortName", &c->cohort, false)))
		goto out;
	if (c->cohort && !c->cohort[0]) {
		free(c->cohort);
		c->cohort = NULL;
	}
	if ((r = parse_cq_misc(p, spec, c)) || (r = parse_preemption(p, spec, c)) ||
	    (r = parse_fungibility(p, spec, c)))
		goto out;
	r = parse_rgs(p, spec, &c->rg, &c->nrg, c->cohort != NULL);
out:
	kp_pop(p);
	return r;
}

static int parse_cohort(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec)
{
	static const char *keys[] = {"parentName", "parent", "resourceGroups", "fairSharing", NULL};
	k->cohorts = sl_xgrow(k->cohorts, &k->capco, k->ncohorts + 1, sizeof(*k->cohorts));
	struct sl_kq_cohort *c = &k->cohorts[k->ncohorts++];
	memset(c, 0, sizeof(*c));
	c->name = sl_xstrdup(p->name);
	c->file = sl_xstrdup(p->file);
	c->line = p->line;
	c->weight_milli = 1000;
	int r;
	kp_push(p, "spec");
	if (!spec) {
		kp_pop(p);
		return 0;
	}
	if ((r = kp_keys(p, spec, keys)) || (r = kp_str(p, spec, "parentName", &c->parent, false)))
		goto out;
	if (!c->parent && (r = kp_str(p, spec, "parent", &c->parent, false)))
		goto out;
	if (c->parent && !c->parent[0]) {
		free(c->parent);
		c->parent = NULL;
	}
	if (!(r = kp_weight(p, spec, &c->weight_milli)))
		r = parse_rgs(p, spec, &c->rg, &c->nrg, c->parent != NULL);
out:
	kp_pop(p);
	return r;
}

static int parse_lq(struct kp *p, struct sl_kueue *k, const struct sl_ynode *spec, const char *ns)
{
	static const char *keys[] = {"clusterQueue", "stopPolicy", "fairSharing", NULL};
	k->lqs = sl_xgrow(k->lqs, &k->caplq, k->nlqs + 1, sizeof(*k->lqs));
	struct sl_kq_lq *l = &k->lqs[k->nlqs++];
	memset(l, 0, sizeof(*l));
	l->name = sl_xstrdup(p->name);
	l->ns = sl_xstrdup(ns ? ns : "default");
	l->file = sl_xstrdup(p->file);
	l->line = p->line;
	l->weight_milli = 1000;
	int r, v = SL_KSTOP_NONE;
	kp_push(p, "spec");
	if (!(r = kp_keys(p, spec, keys)) && !(r = kp_str(p, spec, "clusterQueue", &l->cq, true)) &&
	    !(r = kp_enumv(p, spec, "stopPolicy", stops, &v, SL_KSTOP_NONE)))
		r = kp_weight(p, spec, &l->weight_milli);
	l->stop = v;
	kp_pop(p);
	return r;
}

static int parse_wpc(struct kp *p, struct sl_kueue *k, const struct sl_ynode *doc)
{
	int64_t v;
	int has = 0, r;
	k->wpcs = sl_xgrow(k->wpcs, &k->capw, k->nwpcs + 1, sizeof(*k->wpcs));
	struct sl_kq_wpc *w = &k->wpcs[k->nwpcs++];
	memset(w, 0, sizeof(*w));
	w->name = sl_xstrdup(p->name);
	if ((r = kp_int(p, doc, "value", &v, &has)) ||
	    (r = kp_str(p, doc, "description", &w->description, false)))
		return r;
	if (!has)
		return kp_err(p, doc, "value", "required field is missing");
	if (v < INT32_MIN || v > INT32_MAX)
		return kp_err(p, doc, "value", "%lld is out of range for int32", (long long)v);
	w->value = (int32_t)v;
	return 0;
}

int sl_kueue_is_kueue_doc(const struct sl_ynode *doc)
{
	const struct sl_ynode *av = doc && doc->type == SL_Y_MAP ? sl_ymap_get(doc, "apiVersion") : NULL;
	if (!av || av->type != SL_Y_SCALAR)
		return 0;
	return strncmp(av->scalar, "kueue.x-k8s.io/", 15) == 0 ||
	       strncmp(av->scalar, "config.kueue.x-k8s.io/", 22) == 0;
}

static int dispatch(struct kp *p, struct sl_kueue *k, const struct sl_ynode *doc,
		    const char *api, const char *kind)
{
	static const char *topkeys[] = {"apiVersion", "kind", "metadata", "spec", "status", NULL};
	static const char *wpckeys[] = {"apiVersion", "kind", "metadata", "value", "description", NULL};
	const struct sl_ynode *spec = sl_ymap_get(doc, "spec");
	const char *ns = NULL;
	int r;
	if (strncmp(api, "config.kueue.x-k8s.io/", 22) == 0 && strcmp(kind, "Configuration") == 0)
		return kp_config(p, &k->config, doc);
	if ((r = kp_meta(p, doc, &ns)))
		return r;
	if (strcmp(kind, "WorkloadPriorityClass") == 0)
		return kp_keys(p, doc, wpckeys) ? -SL_EINVAL : parse_wpc(p, k, doc);
	if ((r = kp_keys(p, doc, topkeys)))
		return r;
	if (spec && spec->type != SL_Y_MAP && !sl_yscalar_is_null(spec))
		return kp_err(p, doc, "spec", "must be a map");
	if (spec && spec->type != SL_Y_MAP)
		spec = NULL;
	if (strcmp(kind, "ResourceFlavor") == 0)
		return kp_flavor(p, k, spec);
	if (strcmp(kind, "Cohort") == 0)
		return parse_cohort(p, k, spec);
	if (!spec)
		return kp_err(p, doc, "spec", "required field is missing");
	if (strcmp(kind, "ClusterQueue") == 0)
		return parse_cq(p, k, spec);
	if (strcmp(kind, "Topology") == 0)
		return kp_topology(p, k, spec);
	return parse_lq(p, k, spec, ns);
}

int sl_kueue_add_object(struct sl_kueue *k, const char *file, const struct sl_ynode *doc,
			struct sl_err *err)
{
	static const char *kinds[] = {"ResourceFlavor", "ClusterQueue", "LocalQueue", "Cohort",
				      "WorkloadPriorityClass", "Topology", NULL};
	struct kp p = {.err = err, .file = file, .line = doc ? doc->line : 0};
	if (!doc || doc->type != SL_Y_MAP)
		return sl_yerr(err, SL_EINVAL, file, p.line, NULL, NULL, NULL, "document is not a map");
	const struct sl_ynode *av = sl_ymap_get(doc, "apiVersion"), *kd = sl_ymap_get(doc, "kind");
	const char *api = av && av->type == SL_Y_SCALAR ? av->scalar : "";
	const char *kind = kd && kd->type == SL_Y_SCALAR ? kd->scalar : "";
	bool known = false;
	if (strncmp(api, "kueue.x-k8s.io/", 15) == 0)
		for (size_t i = 0; kinds[i]; i++)
			known = known || strcmp(kinds[i], kind) == 0;
	if (strncmp(api, "config.kueue.x-k8s.io/", 22) == 0)
		known = strcmp(kind, "Configuration") == 0;
	if (!known)
		return sl_yerr(err, SL_EINVAL, file, p.line, NULL, NULL, NULL,
			       "unknown kind \"%s\" (apiVersion \"%s\")", kind, api);
	p.kind = kind;
	p.name = "";
	return dispatch(&p, k, doc, api, kind);
}

int sl_kueue_add_docs(struct sl_kueue *k, const struct sl_ydocs *docs, struct sl_err *err)
{
	int r = 0;
	for (size_t i = 0; r == 0 && i < docs->n; i++)
		if (docs->docs[i] != NULL)
			r = sl_kueue_add_object(k, docs->file, docs->docs[i], err);
	return r != 0 ? r : sl_kueue_finalize(k, err);
}
