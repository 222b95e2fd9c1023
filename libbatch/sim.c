/* sim.c - `sluice simulate`: load a scenario (Kueue manifests, workloads,
 * expected end state), feed the real engine, run it to its fixpoint, and
 * render / verify the end state. Workload ids are their 1-based position
 * in the file, so arrival order is file order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_int.h"
#include "buf.h"
#include "kueue.h"
#include "quantity.h"
#include "sched/sched.h"
#include "xalloc.h"
#include "yaml.h"

static int err_at(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *map, const char *key,
		  const char *path, const char *msg)
{
	return sl_yerr(err, SL_EINVAL, m->docs->file, map ? sl_ymap_key_line(map, key) : 0,
		       "scenario", m->name, path, "%s", msg);
}

static int keys_ok(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *map,
		   const char *const *allowed, const char *path)
{
	if (!map || map->type != SL_Y_MAP)
		return err_at(m, err, NULL, NULL, path, "must be a map");
	for (size_t i = 0; i < map->n; i++) {
		size_t j = 0;
		while (allowed[j] && strcmp(allowed[j], map->keys[i]) != 0)
			j++;
		if (!allowed[j]) {
			char msg[256];
			snprintf(msg, sizeof(msg), "unknown field \"%s\"", map->keys[i]);
			return err_at(m, err, map, map->keys[i], path, msg);
		}
	}
	return 0;
}

static const char *scalar(const struct sl_ynode *map, const char *key)
{
	const struct sl_ynode *n = map ? sl_ymap_get(map, key) : NULL;
	return n && n->type == SL_Y_SCALAR ? n->scalar : NULL;
}

/* The scenario's `config` becomes a Kueue Configuration object. */
static int load_config(struct sl_sim *m, struct sl_err *err)
{
	static const char *keys[] = {"fairSharing", "preemptionStrategies", "admissionFairSharing",
				     "backfill", NULL};
	const struct sl_ynode *c = sl_ymap_get(m->root, "config");
	if (!c || (c->type == SL_Y_SCALAR && sl_yscalar_is_null(c)))
		return 0;
	int r = keys_ok(m, err, c, keys, "config"), on = 0;
	if (r)
		return r;
	const struct sl_ynode *fs = sl_ymap_get(c, "fairSharing");
	if (fs && sl_yscalar_bool(fs, &on) != 0)
		return err_at(m, err, c, "fairSharing", "config.fairSharing", "must be true or false");
	m->k->config.present = 1;
	m->k->config.fs_enable = on;
	const struct sl_ynode *bf = sl_ymap_get(c, "backfill");
	if (bf && sl_yscalar_bool(bf, &m->k->config.backfill) != 0)
		return err_at(m, err, c, "backfill", "config.backfill", "must be true or false");
	const struct sl_ynode *ps = sl_ymap_get(c, "preemptionStrategies");
	for (size_t i = 0; ps && ps->type == SL_Y_SEQ && i < ps->n && i < 2; i++) {
		const char *v = ps->vals[i]->type == SL_Y_SCALAR ? ps->vals[i]->scalar : "";
		if (strcmp(v, "LessThanOrEqualToFinalShare") == 0)
			m->k->config.strategies[m->k->config.nstrategies++] = SL_KFS_LE_FINAL_SHARE;
		else if (strcmp(v, "LessThanInitialShare") == 0)
			m->k->config.strategies[m->k->config.nstrategies++] = SL_KFS_LT_INITIAL_SHARE;
		else
			return err_at(m, err, c, "preemptionStrategies", "config.preemptionStrategies",
				      "unknown strategy");
	}
	const struct sl_ynode *afs = sl_ymap_get(c, "admissionFairSharing");
	if (afs) {
		/* reuse the Configuration parser on a synthetic document */
		struct sl_ynode doc = {.type = SL_Y_MAP, .line = c->line};
		char *k[3] = {"apiVersion", "kind", "admissionFairSharing"};
		struct sl_ynode av = {.type = SL_Y_SCALAR, .scalar = "config.kueue.x-k8s.io/v1beta1"};
		struct sl_ynode kd = {.type = SL_Y_SCALAR, .scalar = "Configuration"};
		struct sl_ynode *v[3] = {&av, &kd, (struct sl_ynode *)afs};
		int kl[3] = {c->line, c->line, sl_ymap_key_line(c, "admissionFairSharing")};
		doc.n = 3;
		doc.keys = k;
		doc.vals = v;
		doc.key_lines = kl;
		int fsave = m->k->config.fs_enable;
		size_t nsave = m->k->config.nstrategies;
		r = sl_kueue_add_object(m->k, m->docs->file, &doc, err);
		m->k->config.fs_enable = fsave;
		m->k->config.nstrategies = nsave;
	}
	return r;
}

static int load_objects(struct sl_sim *m, struct sl_err *err)
{
	const struct sl_ynode *objs = sl_ymap_get(m->root, "objects");
	if (!objs || objs->type != SL_Y_SEQ)
		return err_at(m, err, m->root, "objects", "objects", "required list is missing");
	for (size_t i = 0; i < objs->n; i++) {
		int r = sl_kueue_add_object(m->k, m->docs->file, objs->vals[i], err);
		if (r)
			return r;
	}
	const struct sl_ynode *nodes = sl_ymap_get(m->root, "nodes");
	if (nodes) {
		int r = sl_kueue_add_nodes(m->k, m->docs->file, nodes, err);
		if (r)
			return r;
	}
	return sl_kueue_finalize(m->k, err);
}

static int load_reqs(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *ps,
		     struct sl_sched_podset *p, const char *path)
{
	const struct sl_ynode *rq = sl_ymap_get(ps, "requests");
	if (!rq || rq->type != SL_Y_MAP)
		return err_at(m, err, ps, "requests", path, "requests must be a map");
	struct sl_sched_req *req = sl_xcalloc(rq->n + 1, sizeof(*req));
	p->req = req;
	p->nreq = rq->n;
	for (size_t i = 0; i < rq->n; i++) {
		req[i].resource = rq->keys[i];
		if (rq->vals[i]->type != SL_Y_SCALAR ||
		    sl_quantity_parse(rq->vals[i]->scalar, &req[i].milli) != 0) {
			char msg[256];
			snprintf(msg, sizeof(msg), "requests.%s: \"%s\" is not a quantity", rq->keys[i],
				 rq->vals[i]->type == SL_Y_SCALAR ? rq->vals[i]->scalar : "");
			return err_at(m, err, rq, rq->keys[i], path, msg);
		}
	}
	return 0;
}

static int load_sel_tol(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *ps,
			struct sl_sched_podset *p, const char *path)
{
	const struct sl_ynode *ns = sl_ymap_get(ps, "nodeSelector"), *tl = sl_ymap_get(ps, "tolerations");
	if (ns && ns->type == SL_Y_MAP) {
		struct sl_sched_label *l = sl_xcalloc(ns->n + 1, sizeof(*l));
		for (size_t i = 0; i < ns->n; i++)
			l[i] = (struct sl_sched_label){ns->keys[i], ns->vals[i]->type == SL_Y_SCALAR
									? ns->vals[i]->scalar : ""};
		p->node_selector = l;
		p->nsel = ns->n;
	}
	if (tl && tl->type == SL_Y_SEQ) {
		struct sl_sched_toleration *t = sl_xcalloc(tl->n + 1, sizeof(*t));
		for (size_t i = 0; i < tl->n; i++) {
			if (tl->vals[i]->type != SL_Y_MAP)
				return err_at(m, err, ps, "tolerations", path, "tolerations must be maps");
			t[i] = (struct sl_sched_toleration){scalar(tl->vals[i], "key"),
							    scalar(tl->vals[i], "operator"),
							    scalar(tl->vals[i], "value"),
							    scalar(tl->vals[i], "effect")};
		}
		p->tolerations = t;
		p->ntol = tl->n;
	}
	return 0;
}

static int load_podsets(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *wn,
			struct sim_wl *w, const char *wpath)
{
	static const char *keys[] = {"name", "count", "requests", "nodeSelector", "tolerations", "minCount",
				     "topology", NULL};
	const struct sl_ynode *pss = sl_ymap_get(wn, "podSets");
	char path[256];
	if (!pss || pss->type != SL_Y_SEQ)
		return err_at(m, err, wn, "podSets", wpath, "podSets must be a list");
	w->ps = sl_xcalloc(pss->n + 1, sizeof(*w->ps));
	w->topo = sl_xcalloc(pss->n + 1, sizeof(*w->topo));
	w->w.podsets = w->ps;
	w->w.npodsets = pss->n;
	for (size_t i = 0; i < pss->n; i++) {
		const struct sl_ynode *ps = pss->vals[i];
		int64_t cnt = 1;
		int r;
		snprintf(path, sizeof(path), "%s.podSets[%zu]", wpath, i);
		if ((r = keys_ok(m, err, ps, keys, path)))
			return r;
		w->ps[i].name = scalar(ps, "name") ? scalar(ps, "name") : "main";
		if (sl_ymap_get(ps, "count") && sl_yscalar_int64(sl_ymap_get(ps, "count"), &cnt) != 0)
			return err_at(m, err, ps, "count", path, "count must be an integer");
		w->ps[i].count = (int32_t)cnt;
		cnt = 0;
		if (sl_ymap_get(ps, "minCount") &&
		    (sl_yscalar_int64(sl_ymap_get(ps, "minCount"), &cnt) != 0 || cnt < 0 ||
		     cnt > w->ps[i].count))
			return err_at(m, err, ps, "minCount", path,
				      "minCount must be an integer between 0 and count");
		w->ps[i].min_count = (int32_t)cnt;
		if ((r = load_reqs(m, err, ps, &w->ps[i], path)) ||
		    (r = load_sel_tol(m, err, ps, &w->ps[i], path)) ||
		    (r = sim_load_topology(m, err, ps, &w->ps[i], &w->topo[i], path)))
			return r;
	}
	return 0;
}

/* `count: N` beside the flavors of an initially admitted pod set: it was
 * admitted partially, with N pods. */
static int admitted_count(struct sl_sim *m, struct sl_err *err, struct sim_wl *w,
			  const char *psname, const struct sl_ynode *ps, const char *path)
{
	int64_t n = 0;
	size_t k = 0;
	while (k < w->w.npodsets && strcmp(w->ps[k].name, psname) != 0)
		k++;
	if (k == w->w.npodsets)
		return err_at(m, err, ps, "count", path, "admitted: no such pod set");
	if (sl_yscalar_int64(sl_ymap_get(ps, "count"), &n) != 0 || n < 0 || n > w->ps[k].count)
		return err_at(m, err, ps, "count", path,
			      "admitted count must be an integer between 0 and the pod set's count");
	if (!w->admit_counts) {
		w->admit_counts = sl_xcalloc(w->w.npodsets + 1, sizeof(int32_t));
		for (size_t i = 0; i < w->w.npodsets; i++)
			w->admit_counts[i] = w->ps[i].count;
	}
	w->admit_counts[k] = (int32_t)n;
	return 0;
}

static int load_admitted(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *wn,
			 struct sim_wl *w, const char *path)
{
	const struct sl_ynode *a = sl_ymap_get(wn, "admitted"), *fl;
	if (!a)
		return 0;
	if (a->type != SL_Y_MAP || !scalar(a, "clusterQueue"))
		return err_at(m, err, wn, "admitted", path, "admitted needs clusterQueue and flavors");
	w->admit_topo = sl_ymap_get(a, "topology");
	w->admit_cq = sl_xstrdup(scalar(a, "clusterQueue"));
	fl = sl_ymap_get(a, "flavors");
	for (size_t i = 0; fl && fl->type == SL_Y_MAP && i < fl->n; i++) {
		const struct sl_ynode *ps = fl->vals[i];
		for (size_t j = 0; ps->type == SL_Y_MAP && j < ps->n; j++) {
			if (strcmp(ps->keys[j], "topology") == 0) {
				w->ps_topo = sl_xrealloc(w->ps_topo, (w->nps_topo + 1) * sizeof(*w->ps_topo));
				w->ps_topo_name = sl_xrealloc(w->ps_topo_name,
							      (w->nps_topo + 1) * sizeof(char *));
				w->ps_topo_name[w->nps_topo] = fl->keys[i];
				w->ps_topo[w->nps_topo++] = ps->vals[j];
				continue;
			}
			if (strcmp(ps->keys[j], "count") == 0) {
				int r = admitted_count(m, err, w, fl->keys[i], ps, path);
				if (r)
					return r;
				continue;
			}
			w->admit = sl_xrealloc(w->admit, (w->nadmit + 1) * sizeof(*w->admit));
			w->admit[w->nadmit++] = (struct sl_sched_flavor){
				fl->keys[i], ps->keys[j], ps->vals[j]->type == SL_Y_SCALAR ? ps->vals[j]->scalar : ""};
		}
	}
	return 0;
}

/* timeLimit and runtime, in seconds (timed scenarios, sim_clock.c). */
static int load_times(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *wn,
		      struct sim_wl *w, const char *path)
{
	static const char *const names[] = {"timeLimit", "runtime"};
	int64_t *to[] = {&w->limit_ms, &w->runtime_ms};
	for (int k = 0; k < 2; k++) {
		const struct sl_ynode *n = sl_ymap_get(wn, names[k]);
		int64_t v = -1;
		*to[k] = -1;
		if (!n)
			continue;
		if (sl_yscalar_int64(n, &v) != 0 || v < 0 || v > INT64_MAX / 1000)
			return err_at(m, err, wn, names[k], path,
				      "timeLimit and runtime must be whole seconds, 0 or more");
		*to[k] = v * 1000;
		m->timed = 1;
	}
	w->start_ms = w->end_ms = -1;
	w->first_est_ms = SL_SCHED_NEVER;
	return 0;
}

static int load_workload(struct sl_sim *m, struct sl_err *err, const struct sl_ynode *wn, size_t i)
{
	static const char *keys[] = {"name", "queue", "priority", "created", "podSets", "admitted",
				     "priorityClassName", "timeLimit", "runtime", NULL};
	struct sim_wl *w = &m->wl[i];
	char path[64];
	int64_t v = 0;
	int r;
	snprintf(path, sizeof(path), "workloads[%zu]", i);
	if ((r = keys_ok(m, err, wn, keys, path)))
		return r;
	const char *q = scalar(wn, "queue"), *slash = q ? strchr(q, '/') : NULL;
	if (!scalar(wn, "name") || !slash)
		return err_at(m, err, wn, "queue", path, "name and queue (namespace/localqueue) are required");
	w->ns = sl_xstrndup(q, (size_t)(slash - q));
	w->queue = sl_xstrdup(slash + 1);
	w->w = (struct sl_sched_wl){.id = i + 1, .name = scalar(wn, "name"), .ns = w->ns, .queue = w->queue};
	if (sl_ymap_get(wn, "priority") && sl_yscalar_int64(sl_ymap_get(wn, "priority"), &v) != 0)
		return err_at(m, err, wn, "priority", path, "priority must be an integer");
	w->w.priority = (int32_t)v;
	const char *pc = scalar(wn, "priorityClassName");
	int32_t pv;
	if (pc && sl_kueue_priority_class(m->k, pc, &pv) != 0)
		return err_at(m, err, wn, "priorityClassName", path, "WorkloadPriorityClass not found");
	if (pc)
		w->w.priority = pv;
	v = 0;
	if (sl_ymap_get(wn, "created") && sl_yscalar_int64(sl_ymap_get(wn, "created"), &v) != 0)
		return err_at(m, err, wn, "created", path, "created must be an integer (seconds)");
	w->w.created = v * 1000;
	if ((r = load_times(m, err, wn, w, path)))
		return r;
	if ((r = load_podsets(m, err, wn, w, path)))
		return r;
	return load_admitted(m, err, wn, w, path);
}

static int load_workloads(struct sl_sim *m, struct sl_err *err)
{
	const struct sl_ynode *wls = sl_ymap_get(m->root, "workloads");
	if (!wls || wls->type != SL_Y_SEQ)
		return 0;
	m->wl = sl_xcalloc(wls->n + 1, sizeof(*m->wl));
	m->nwl = wls->n;
	for (size_t i = 0; i < wls->n; i++) {
		int r = load_workload(m, err, wls->vals[i], i);
		if (r)
			return r;
	}
	return 0;
}

static int feed(struct sl_sim *m, struct sl_err *err)
{
	m->s = sl_sched_new(m->k);
	for (size_t i = 0; i < m->nwl; i++) {
		struct sim_wl *w = &m->wl[i];
		if (m->timed && !w->admit_cq)
			continue;        /* it arrives at `created` (sim_clock.c) */
		int r = sl_sched_add(m->s, &w->w, err);
		if (!r && w->admit_cq) {
			struct sl_sched_assignment a = {w->admit_cq, w->nadmit, w->admit};
			r = sl_sched_admitted_partial(m->s, w->w.id, &a, w->admit_counts, err);
		}
		if (!r && m->timed) {
			sl_sched_set_time(m->s, w->w.id, w->limit_ms > 0 ? w->limit_ms : 0, 0);
			w->start_ms = w->first_est_ms = 0;
			w->running = 1;
		}
		if (!r && w->admit_cq)
			r = sim_feed_topology(m, w, err);
		if (r) {
			sl_err_prefix(err, "%s: workloads[%zu]", m->docs->file, i);
			return r;
		}
	}
	return 0;
}

int sl_sim_load(const char *path, struct sl_sim **out, struct sl_err *err)
{
	static const char *keys[] = {"name", "source", "description", "config", "objects", "nodes",
				     "workloads", "expect", "notes", NULL};
	struct sl_sim *m = sl_xcalloc(1, sizeof(*m));
	int r = sl_yaml_load_file(path, &m->docs, err);
	*out = NULL;
	if (r)
		goto out;
	if (m->docs->n != 1 || m->docs->docs[0]->type != SL_Y_MAP) {
		r = sl_yerr(err, SL_EINVAL, m->docs->file, 0, NULL, NULL, NULL,
			    "a scenario is one YAML map");
		goto out;
	}
	m->root = m->docs->docs[0];
	m->name = scalar(m->root, "name") ? scalar(m->root, "name") : "";
	m->expect = sl_ymap_get(m->root, "expect");
	m->k = sl_kueue_new();
	if ((r = keys_ok(m, err, m->root, keys, NULL)) || (r = load_config(m, err)) ||
	    (r = load_objects(m, err)) || (r = load_workloads(m, err)) || (r = feed(m, err)))
		goto out;
	*out = m;
	return 0;
out:
	sl_sim_free(m);
	return r;
}

void sl_sim_free(struct sl_sim *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nwl; i++) {
		for (size_t j = 0; j < m->wl[i].w.npodsets; j++) {
			free((void *)m->wl[i].ps[j].req);
			free((void *)m->wl[i].ps[j].node_selector);
			free((void *)m->wl[i].ps[j].tolerations);
		}
		free(m->wl[i].ps);
		for (size_t j = 0; m->wl[i].topo && j < m->wl[i].w.npodsets; j++)
			sim_topo_req_free(&m->wl[i].topo[j]);
		free(m->wl[i].topo);
		free(m->wl[i].ps_topo);
		free(m->wl[i].ps_topo_name);
		free(m->wl[i].ns);
		free(m->wl[i].queue);
		free(m->wl[i].admit_cq);
		free(m->wl[i].admit);
		free(m->wl[i].admit_counts);
		free(m->wl[i].preempt_msg);
	}
	free(m->wl);
	sl_sched_free(m->s);
	sl_kueue_free(m->k);
	sl_ydocs_free(m->docs);
	free(m);
}

void sim_absorb(struct sl_sim *m, struct sl_sched_decisions *d, int64_t t)
{
	for (size_t i = 0; i < d->npreempt; i++) {
		uint64_t id = d->preempt[i].victim;
		if (id < 1 || id > m->nwl)
			continue;
		struct sim_wl *w = &m->wl[id - 1];
		w->preempted++;
		w->running = 0;
		free(w->preempt_msg);
		w->preempt_msg = sl_xstrdup(d->preempt[i].message);
		w->preempt_reason = sl_sched_preempt_reason_name(d->preempt[i].reason);
	}
	for (size_t i = 0; i < d->nadmit; i++) {
		uint64_t id = d->admit[i].id;
		if (id >= 1 && id <= m->nwl) {
			m->wl[id - 1].start_ms = t;
			m->wl[id - 1].running = 1;
		}
	}
	/* a victim admitted again in a later cycle of the same fixpoint runs */
	for (size_t i = 0; i < d->nadmit; i++)
		if (d->admit[i].id >= 1 && d->admit[i].id <= m->nwl)
			m->wl[d->admit[i].id - 1].running =
				sl_sched_admitted_count(m->s, d->admit[i].id, 0, &(int32_t){0}) == 0;
}

int sl_sim_run(struct sl_sim *m)
{
	if (m->timed)
		return sim_clock_run(m);
	struct sl_sched_decisions d = {0};
	m->cycles = sl_sched_run_to_fixpoint(m->s, 0, 100000, &d);
	sim_absorb(m, &d, 0);
	sl_sched_decisions_clear(&d);
	return m->cycles;
}
