/* api.c - the remaining public entry points: the engine's life
 * (sl_sched_new/free), the submit-time check, taking in already-admitted
 * workloads, the run-to-fixpoint driver used by `sluice simulate`, and
 * reconfiguration that keeps workloads across a model rebuild. It sits on
 * top: nothing else in sched/ calls into it. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "quantity.h"
#include "xalloc.h"

struct sl_sched *sl_sched_new(const struct sl_kueue *model)
{
	struct sl_sched *s = sl_xcalloc(1, sizeof(*s));
	sq_model_build(s, model);
	return s;
}

void sl_sched_free(struct sl_sched *s)
{
	if (!s)
		return;
	sq_wt_clear(s);
	sq_model_free(s);
	for (int i = 0; i < s->nres; i++)
		free(s->res[i]);
	free(s->res);
	free(s->rows);
	free(s->abuf);
	sq_cscratch_free(s->cscr);
	sq_pscratch_free(s->pscr);
	sq_rscratch_free(s->rscr);
	sq_bfgate_free(s->bfg);
	sq_tas_free(s);
	free(s->otg.v);
	free(s);
}

/* Can pod set p ever get `total` of resource res in some eligible flavor? */
/* *eligible: some flavor of the resource's group takes the pod set's node
 * selector and tolerations at all. */
static bool ever_fits(const struct sl_sched *s, const struct sq_cq *c, const struct sq_ps *p,
		      int res, int64_t total, bool *eligible)
{
	int g = c->rg_of_res[res];
	*eligible = false;
	for (int f = 0; f < c->rg[g].nfl; f++) {
		bool ok = sq_check_flavor(s, c->rg[g].fl[f], p, NULL);
		int fr = sq_fr(s, c->rg[g].fl[f], res);
		*eligible |= ok;
		if (ok && fr != SQ_NONE && sq_potential_available(s, c->node, fr) >= total)
			return true;
	}
	return false;
}

static int check_ps(const struct sl_sched *s, const struct sq_cq *c,
		    const struct sl_sched_podset *in, const char *waits, struct sl_err *err)
{
	struct sq_ps p = {0};
	sq_ps_constraints(&p, in);
	int r = 0;
	/* partial admission may take as few as minCount pods */
	int32_t n = in->min_count > 0 && in->min_count < in->count ? in->min_count : in->count;
	for (size_t j = 0; j < in->nreq && !r; j++) {
		int64_t total = in->req[j].milli * (int64_t)n;
		int res = sq_res_index((struct sl_sched *)s, in->req[j].resource, false);
		bool covered = res != SQ_NONE && res < s->fr_stride && c->rg_of_res[res] != SQ_NONE;
		char q[64];
		bool eligible = false, fits = covered && ever_fits(s, c, &p, res, total, &eligible);
		sl_quantity_format(total, q, sizeof(q));
		if (!covered && total > 0)
			r = sl_err_set(err, SL_ENOFIT, "resource %s unavailable in ClusterQueue %s",
				       in->req[j].resource, c->name);
		else if (covered && !fits && !eligible)
			r = sl_err_set(err, SL_ENOFIT, "pod set %s: no flavor of ClusterQueue %s for "
				       "%s matches its node selector and tolerations",
				       in->name ? in->name : "main", c->name, in->req[j].resource);
		else if (covered && !fits &&
			 (waits == NULL || strcmp(waits, in->req[j].resource) != 0))
			r = sl_err_set(err, SL_ENOFIT,
				       "pod set %s requests %s %s, more than ClusterQueue %s can "
				       "ever provide in any eligible flavor",
				       in->name ? in->name : "main", q, in->req[j].resource, c->name);
	}
	sq_kv_free(p.sel, (size_t)p.nsel);
	sq_tols_free(p.tol, (size_t)p.ntol);
	return r;
}

int sl_sched_check(const struct sl_sched *s, const struct sl_sched_wl *wl, struct sl_err *err)
{
	return sl_sched_check_waits(s, wl, NULL, err);
}

int sl_sched_check_waits(const struct sl_sched *s, const struct sl_sched_wl *wl,
			 const char *waits, struct sl_err *err)
{
	const char *q = wl->queue ? wl->queue : "";
	int lq = sq_lq_find(s, wl->ns ? wl->ns : "default", q);
	if (lq == SQ_NONE)
		/* "-p=" names none: slurmctld prints its NULL */
		return sl_err_set(err, SL_ENOENT, "invalid partition specified: %s",
				  *q ? q : "(null)");
	/* Kueue takes a workload whose ClusterQueue is missing or lacks a
	 * flavor and keeps it pending (sq_enqueue says why): nothing to
	 * measure it against until the config is fixed. */
	if (s->lq[lq].cq == SQ_NONE || s->cq[s->lq[lq].cq].missing_flavor)
		return 0;
	const struct sq_cq *c = &s->cq[s->lq[lq].cq];
	if (!sq_ns_matches(&c->nssel, wl->ns ? wl->ns : "default"))
		return sl_err_set(err, SL_ENOFIT, "namespace %s doesn't match ClusterQueue %s selector",
				  wl->ns ? wl->ns : "default", c->name);
	for (size_t i = 0; i < wl->npodsets; i++) {
		int r = check_ps(s, c, &wl->podsets[i], waits, err);
		if (r)
			return r;
	}
	return 0;
}

static int set_flavor(struct sl_sched *s, struct sq_wl *w, const struct sl_sched_flavor *f,
		      struct sl_err *err)
{
	int fl = sq_flavor_index(s, f->flavor);
	int res = sq_res_index(s, f->resource, false);
	if (fl == SQ_NONE)
		return sl_err_set(err, SL_EINVAL, "workload %s: flavor %s not found", w->name, f->flavor);
	for (int i = 0; i < w->nps; i++) {
		if (strcmp(w->ps[i].name, f->podset) != 0)
			continue;
		for (int j = 0; j < w->ps[i].nreq; j++)
			if (w->ps[i].res[j] == res) {
				w->ps[i].flv[j] = fl;
				return 0;
			}
	}
	return sl_err_set(err, SL_EINVAL, "workload %s: pod set %s has no request for %s",
			  w->name, f->podset, f->resource);
}

int sl_sched_admitted_partial(struct sl_sched *s, uint64_t id,
			      const struct sl_sched_assignment *a, const int32_t *counts,
			      struct sl_err *err)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w)
		return sl_err_set(err, SL_ENOENT, "workload %llu not found", (unsigned long long)id);
	for (int i = 0; counts && i < w->nps; i++)
		if (counts[i] < 0 || counts[i] > w->ps[i].count)
			return sl_err_set(err, SL_EINVAL,
					  "workload %s: pod set %s: admitted count %d not in 0..%d",
					  w->name, w->ps[i].name, (int)counts[i], (int)w->ps[i].count);
	int cq = a->cluster_queue ? sq_cq_find(s, a->cluster_queue) : SQ_NONE;
	if (cq == SQ_NONE)
		return sl_err_set(err, SL_ENOENT, "workload %s: ClusterQueue %s not found", w->name,
				  a->cluster_queue ? a->cluster_queue : "");
	for (size_t i = 0; i < a->n; i++) {
		int r = set_flavor(s, w, &a->flavors[i], err);
		if (r)
			return r;
	}
	/* a CQ covering "pods" charges them in the flavor of the group */
	int pods = sq_res_index(s, "pods", false);
	for (int i = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++)
			if (w->ps[i].res[j] == pods && w->ps[i].flv[j] == SQ_NONE &&
			    pods < s->fr_stride && s->cq[cq].rg_of_res[pods] != SQ_NONE)
				w->ps[i].flv[j] = s->cq[cq].rg[s->cq[cq].rg_of_res[pods]].fl[0];
	for (int i = 0; i < w->nps; i++)
		w->ps[i].adm_count = counts ? counts[i] : w->ps[i].count;
	sq_set_admitted(s, w, cq);
	return 0;
}

int sl_sched_admitted_count(struct sl_sched *s, uint64_t id, size_t podset, int32_t *count)
{
	const struct sq_wl *w = sq_wt_get(s, id);
	if (!w || w->where != SQ_W_ADMITTED || podset >= (size_t)w->nps)
		return -SL_ENOENT;
	*count = w->ps[podset].adm_count;
	return 0;
}

int sl_sched_run_to_fixpoint(struct sl_sched *s, int64_t now_ms, int max_cycles,
			     struct sl_sched_decisions *out)
{
	/* counted in Kueue's cycles, however many one call ran (cycle.c) */
	int64_t c0 = s->cycle_no;
	while (s->cycle_no - c0 < max_cycles) {
		size_t p0 = out->npreempt;
		int changed = sl_sched_cycle(s, now_ms, out);
		for (size_t i = p0; i < out->npreempt; i++)
			sl_sched_requeue(s, out->preempt[i].victim);
		if (!changed)
			break;
	}
	return (int)(s->cycle_no - c0);
}

struct saved {
	struct sq_wl *w;
	char *cq;
	char **flv;              /* per ps x req flavor name */
};

static void save_names(struct sl_sched *s, struct saved *v, struct sq_wl *w)
{
	size_t n = 0;
	for (int i = 0; i < w->nps; i++)
		n += (size_t)w->ps[i].nreq;
	v->w = w;
	/* the kept reasons name flavors and resources by index: freeze the text */
	const char *m = sq_status_message(s, w);
	if (w->mkind != SQ_M_TEXT && w->mkind != SQ_M_NONE) {
		char *t = m ? sl_xstrdup(m) : NULL;
		sq_set_status(w, w->cls, w->reason, t ? "%s" : NULL, t);
		free(t);
	}
	v->cq = w->where == SQ_W_ADMITTED && w->adm_cq != SQ_NONE ? sl_xstrdup(s->cq[w->adm_cq].name)
								    : NULL;
	v->flv = sl_xcalloc(n + 1, sizeof(char *));
	for (int i = 0, k = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++, k++)
			v->flv[k] = w->ps[i].flv[j] != SQ_NONE ? sl_xstrdup(s->flv[w->ps[i].flv[j]].name)
							       : NULL;
}

static void restore(struct sl_sched *s, struct saved *v)
{
	struct sq_wl *w = v->w;
	bool admitted = w->where == SQ_W_ADMITTED;
	for (int i = 0, k = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++, k++) {
			w->ps[i].flv[j] = v->flv[k] ? sq_flavor_index(s, v->flv[k]) : SQ_NONE;
			free(v->flv[k]);
		}
	free(v->flv);
	w->where = SQ_W_NONE;
	w->cq = w->lq = SQ_NONE;
	w->has_last = false;
	if (admitted) {
		int cq = v->cq ? sq_cq_find(s, v->cq) : SQ_NONE;
		w->lq = sq_lq_find(s, w->ns, w->lqname);
		sq_readmit(s, w, cq);
	} else {
		sq_enqueue(s, w);
	}
	free(v->cq);
}

int sl_sched_reconfigure(struct sl_sched *s, const struct sl_kueue *model, struct sl_err *err)
{
	struct sq_wl **all;
	size_t n = sq_wt_list(s, &all);
	struct saved *v = sl_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		save_names(s, &v[i], all[i]);
	sq_model_free(s);
	sq_model_build(s, model);
	/* arrival order, so ties resolve as before */
	for (size_t i = 0; i < n; i++)
		restore(s, &v[i]);
	free(v);
	free(all);
	return 0;
}
