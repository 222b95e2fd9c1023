/* tas_admit.c - topology-aware scheduling at admission: which flavors a
 * pod set may take (checkPodSetAndFlavorMatchForTAS), the placement after
 * flavor assignment (a Fit by quota that finds no topology assignment
 * turns Preempt when the topology would hold the workload empty, else
 * NoFit with TopologyPlacementFailed), usage per leaf while admitted, and
 * the assignments the API hands out. Pod-set groups (a leader and its
 * workers) are placed together, as Kueue does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tas_int.h"
#include "xalloc.h"

static int msg_intern(struct sq_tas *x, char *m)
{
	for (size_t i = 0; i < x->nmsg; i++)
		if (strcmp(x->msg[i], m) == 0) {
			free(m);
			return (int)i;
		}
	if (x->nmsg == TAS_MSG_CAP - 1) {
		/* the last slot says no more than the kind: overwriting a slot
		 * would give the workloads that name it another one's message */
		x->msg = sl_xgrow(x->msg, &x->capmsg, x->nmsg + 1, sizeof(char *));
		x->msg[x->nmsg++] = sl_xstrdup("couldn't assign topology (its detail is one "
					       "message too many to keep)");
	}
	if (x->nmsg == TAS_MSG_CAP) {
		free(m);
		return (int)x->nmsg - 1;
	}
	x->msg = sl_xgrow(x->msg, &x->capmsg, x->nmsg + 1, sizeof(char *));
	x->msg[x->nmsg] = m;
	return (int)x->nmsg++;
}

const char *sq_tas_msg(const struct sl_sched *s, int i)
{
	return s->tas && i >= 0 && (size_t)i < s->tas->nmsg ? s->tas->msg[i] : "";
}

void sq_tas_ps_copy(struct sq_ps *d, const struct sl_sched_podset *p)
{
	const struct sl_sched_topo_req *r = p->topology;
	d->tas = NULL;
	if (!r)
		return;
	struct sq_tps *t = sl_xcalloc(1, sizeof(*t));
	t->has_req = r->mode != SL_TOPO_NONE || r->slice_level;
	t->mode = r->mode;
	t->level = r->level ? sl_xstrdup(r->level) : NULL;
	t->slice_level = r->slice_level ? sl_xstrdup(r->slice_level) : NULL;
	t->group = r->group ? sl_xstrdup(r->group) : NULL;
	t->slice_size = r->slice_size;
	t->topo = -1;
	t->nlayers = (int)r->nlayers;
	t->layer_level = sl_xcalloc(r->nlayers + 1, sizeof(char *));
	t->layer_size = sl_xcalloc(r->nlayers + 1, sizeof(int32_t));
	for (size_t i = 0; i < r->nlayers; i++) {
		t->layer_level[i] = sl_xstrdup(r->layers[i].level);
		t->layer_size[i] = r->layers[i].size;
	}
	d->tas = t;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static uint64_t str_hash(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0x100) * 1099511628211ull;
}

uint64_t sq_tas_ps_hash(const struct sq_ps *p)
{
	const struct sq_tps *t = p->tas;
	if (!t || !t->has_req)
		return 0;
	uint64_t h = str_hash(str_hash(14695981039346656037ull, t->level), t->slice_level);
	return str_hash(h, t->group) ^ ((uint64_t)t->mode << 32) ^ (uint64_t)(uint32_t)t->slice_size;
}

bool sq_tas_ps_equal(const struct sq_ps *a, const struct sq_ps *b)
{
	const struct sq_tps *x = a->tas, *y = b->tas;
	bool hx = x && x->has_req, hy = y && y->has_req;
	if (!hx || !hy)
		return hx == hy;
	if (x->nlayers != y->nlayers)
		return false;
	for (int i = 0; i < x->nlayers; i++)
		if (x->layer_size[i] != y->layer_size[i] || !str_eq(x->layer_level[i], y->layer_level[i]))
			return false;
	return x->mode == y->mode && x->slice_size == y->slice_size && str_eq(x->level, y->level) &&
	       str_eq(x->slice_level, y->slice_level) && str_eq(x->group, y->group);
}

static void tps_clear(struct sq_tps *t)
{
	for (int i = 0; i < t->ndom; i++)
		free(t->leaf_id[i]);
	free(t->leaf_id);
	free(t->leaf);
	free(t->cnt);
	t->leaf_id = NULL;
	t->leaf = NULL;
	t->cnt = NULL;
	t->ndom = 0;
	t->topo = -1;
}

void sq_tas_ps_free(struct sq_ps *p)
{
	if (!p->tas)
		return;
	tps_clear(p->tas);
	free(p->tas->level);
	free(p->tas->slice_level);
	free(p->tas->group);
	sl_strv_free(p->tas->layer_level);
	free(p->tas->layer_size);
	free(p->tas);
	p->tas = NULL;
}

static struct sq_tps *tps_of(struct sq_ps *p)
{
	if (!p->tas) {
		p->tas = sl_xcalloc(1, sizeof(*p->tas));
		p->tas->topo = -1;
	}
	return p->tas;
}

/* Per-pod request of p by TAS resource, one pod included. */
static void per_pod(const struct sl_sched *s, const struct sq_ps *p, int64_t *out)
{
	const struct sq_tas *x = s->tas;
	memset(out, 0, (size_t)x->nres * sizeof(int64_t));
	out[0] = 1000;
	for (int j = 0; p->count > 0 && j < p->nreq; j++) {
		int r = tas_res_index(x, s->res[p->res[j]]);
		if (r > 0)
			out[r] += p->total[j] / p->count;
		else if (r < 0 && p->total[j] > 0)
			out[0] = INT64_MAX / 4;   /* no node offers it: nothing fits */
	}
}

static int leaf_by_id(const struct tas_topo *t, const char *id)
{
	for (int i = 0; i < t->nleaf; i++)
		if (strcmp(t->dom[t->leaf[i].dom].id, id) == 0)
			return i;
	return -1;
}

static void charge_ps(struct sl_sched *s, struct sq_ps *p, int sign)
{
	struct sq_tas *x = s->tas;
	struct sq_tps *tp = p->tas;
	if (!tp || tp->topo < 0 || tp->topo >= x->ntopo)
		return;
	struct tas_topo *t = &x->t[tp->topo];
	int64_t *per = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
	per_pod(s, p, per);
	per[0] = 1000;
	for (int i = 0; i < tp->ndom; i++) {
		if (tp->gen != x->gen)
			tp->leaf[i] = leaf_by_id(t, tp->leaf_id[i]);
		if (tp->leaf[i] < 0)
			continue;   /* its node is gone: nothing to hold there */
		int64_t *u = tas_used(x, t, &t->leaf[tp->leaf[i]]);
		for (int r = 0; r < x->nres; r++)
			u[r] += sign * per[r] * tp->cnt[i];
	}
	tp->gen = x->gen;
	free(per);
}

/* sq_wl_charge's TAS half: an admitted workload's pods on their leaves. */
void sq_tas_charge(struct sl_sched *s, struct sq_wl *w, int sign)
{
	if (!s->tas)
		return;
	for (int i = 0; i < w->nps; i++)
		charge_ps(s, &w->ps[i], sign);
}

bool sq_tas_holds(const struct sq_wl *w)
{
	for (int i = 0; i < w->nps; i++)
		if (w->ps[i].tas && w->ps[i].tas->topo >= 0)
			return true;
	return false;
}

static int tas_flavor_of(const struct sl_sched *s, const struct sq_ps *p, int fl)
{
	(void)p;
	return s->tas && fl >= 0 && fl < s->tas->nflv ? s->tas->topo_of_flv[fl] : -1;
}

/* Every flavor of the ClusterQueue has a topology (Kueue's IsTASOnly):
 * its pod sets are placed even when they ask for nothing. */
static bool cq_tas_only(const struct sl_sched *s, int cq)
{
	const struct sq_cq *c = &s->cq[cq];
	int n = 0;
	for (int g = 0; g < c->nrg; g++)
		for (int f = 0; f < c->rg[g].nfl; f++) {
			if (tas_flavor_of(s, NULL, c->rg[g].fl[f]) < 0)
				return false;
			n++;
		}
	return n > 0;
}

static bool has_level(const struct tas_topo *t, const char *l)
{
	return tas_level_index(t, l) >= 0;
}

static bool layers_known(const struct tas_topo *t, const struct sq_tps *tp)
{
	for (int i = 0; i < tp->nlayers; i++)
		if (!has_level(t, tp->layer_level[i]))
			return false;
	return true;
}

static bool explicit_req(const struct sq_ps *p)
{
	return p->tas && p->tas->has_req;
}

static int place_all(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		     const int32_t *counts, bool empty, bool keep, char **msg);
static int ps_topo(const struct sl_sched *s, const struct sq_wl *w, int i, const struct sq_assign *a);

bool sq_tas_check_flavor(struct sl_sched *s, int cq, int fl, const struct sq_ps *p,
			 struct sq_reason *why)
{
	struct sq_tas *x = s->tas;
	if (!s->tas_on && !explicit_req(p))
		return true;
	int ti = tas_flavor_of(s, p, fl);
	const char *m = NULL;
	bool explicit = explicit_req(p);
	/* a pod set without a request in a TAS-only ClusterQueue is implied
	 * unconstrained, and checked as Kueue's checkPodSetAndFlavorMatchForTAS
	 * checks it: the flavor's topology must exist and have levels */
	if (explicit || cq_tas_only(s, cq)) {
		const struct tas_topo *t = ti >= 0 ? &x->t[ti] : NULL;
		if (!t)
			m = "Flavor \"%s\" does not support TopologyAwareScheduling";
		else if (t->missing)
			m = "Flavor \"%s\" information missing in TAS cache";
		else if (t->nlevels == 0 ||
			 (explicit &&
			  (((p->tas->mode == SL_TOPO_REQUIRED || p->tas->mode == SL_TOPO_PREFERRED) &&
			    !has_level(t, p->tas->level)) ||
			   (p->tas->slice_level && !has_level(t, p->tas->slice_level)) ||
			   !layers_known(t, p->tas))))
			m = "Flavor \"%s\" does not contain the requested level";
	} else if (ti >= 0) {
		m = "Flavor \"%s\" supports only TopologyAwareScheduling";
	}
	if (!m)
		return true;
	if (why) {
		char *text = sl_xasprintf(m, s->flv[fl].name);
		*why = (struct sq_reason){.kind = SQ_R_TAS, .a = msg_intern(x, text)};
	}
	return false;
}

struct touched {                 /* leaves holding assumed usage */
	int *v;                  /* topo * 2^20 + leaf would overflow: pairs */
	size_t n, cap;
};

static void assume(struct sl_sched *s, struct touched *tc, int ti, const struct sq_ps *p,
		   const int *leaf, const int32_t *cnt, int n)
{
	struct sq_tas *x = s->tas;
	int64_t *per = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
	per_pod(s, p, per);
	for (int i = 0; i < n; i++) {
		int64_t *u = tas_assumed(x, &x->t[ti], &x->t[ti].leaf[leaf[i]]);
		for (int r = 0; r < x->nres; r++)
			u[r] += per[r] * cnt[i];
		tc->v = sl_xgrow(tc->v, &tc->cap, tc->n + 2, sizeof(int));
		tc->v[tc->n++] = ti;
		tc->v[tc->n++] = leaf[i];
	}
	free(per);
}

static void record(struct sl_sched *s, struct sq_ps *p, int ti, const int *leaf,
		   const int32_t *cnt, int n)
{
	struct sq_tps *tp = tps_of(p);
	const struct tas_topo *t = &s->tas->t[ti];
	tps_clear(tp);
	tp->topo = ti;
	tp->gen = s->tas->gen;
	tp->ndom = n;
	tp->leaf = sl_xcalloc((size_t)n + 1, sizeof(int));
	tp->cnt = sl_xcalloc((size_t)n + 1, sizeof(int32_t));
	tp->leaf_id = sl_xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		tp->leaf[i] = leaf[i];
		tp->cnt[i] = cnt[i];
		tp->leaf_id[i] = sl_xstrdup(t->dom[t->leaf[leaf[i]].dom].id);
	}
}

/* The TAS flavor pod set i was given, -1 if none. */
static int ps_topo(const struct sl_sched *s, const struct sq_wl *w, int i, const struct sq_assign *a)
{
	for (int j = 0; j < w->ps[i].nreq; j++) {
		int ti = tas_flavor_of(s, &w->ps[i], a->flv[a->off[i] + j]);
		if (ti >= 0)
			return ti;
	}
	return -1;
}

static bool same_group(const struct sq_wl *w, int a, int b, const int *topo)
{
	const struct sq_tps *x = w->ps[a].tas, *y = w->ps[b].tas;
	return topo[a] == topo[b] && x && y && x->group && y->group && strcmp(x->group, y->group) == 0;
}

/* One group on topology ti: workers m[0] (and a leader m[1], the one of
 * fewer pods); their pods are assumed for the groups after. -1, or the
 * workers' pod set with Kueue's reason in *msg. */
static int place_group(struct sl_sched *s, struct sq_wl *w, const int m[2], int ti,
		       const int32_t *counts, bool empty, bool keep, struct touched *tc, char **msg)
{
	struct sq_tas *x = s->tas;
	struct tas_req rq[2];
	int64_t *per[2] = {NULL, NULL};
	for (int k = 0; k < 2 && m[k] >= 0; k++) {
		const struct sq_ps *p = &w->ps[m[k]];
		per[k] = sl_xcalloc((size_t)x->nres + 1, sizeof(int64_t));
		per_pod(s, p, per[k]);
		rq[k] = (struct tas_req){.ps = p, .tp = p->tas, .per = per[k],
					 .count = counts ? counts[m[k]] : p->count,
					 .flv = &s->flv[x->t[ti].flv].f,
					 .implied = !explicit_req(p)};
	}
	int wk = 0;
	if (m[1] >= 0 && rq[1].count > rq[0].count)
		wk = 1;
	struct tas_pick pick;
	char *why = tas_place(x, &x->t[ti], &rq[wk], m[1] >= 0 ? &rq[1 - wk] : NULL,
			      empty, &pick);
	int fail = -1;
	if (why) {
		*msg = why;
		fail = m[wk];
	} else {
		assume(s, tc, ti, rq[wk].ps, pick.leaf, pick.cnt, pick.n);
		if (keep)
			record(s, &w->ps[m[wk]], ti, pick.leaf, pick.cnt, pick.n);
		if (m[1] >= 0) {
			assume(s, tc, ti, rq[1 - wk].ps, pick.lleaf, pick.lcnt, pick.nlead);
			if (keep)
				record(s, &w->ps[m[1 - wk]], ti, pick.lleaf, pick.lcnt,
				       pick.nlead);
		}
	}
	tas_pick_free(&pick);
	free(per[0]);
	free(per[1]);
	return fail;
}

/* FindTopologyAssignmentsForWorkload: every TAS pod set (a group's
 * leader with its workers), earlier ones' pods assumed for later ones.
 * Returns -1, or the pod set that failed with Kueue's reason in *msg. */
static int place_all(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		     const int32_t *counts, bool empty, bool keep, char **msg)
{
	struct sq_tas *x = s->tas;
	int n = w->nps, fail = -1;
	int *topo = sl_xcalloc((size_t)n + 1, sizeof(int));
	bool *done = sl_xcalloc((size_t)n + 1, sizeof(bool));
	bool only = cq_tas_only(s, cq);
	struct touched tc = {0};
	for (int i = 0; i < n; i++) {
		int32_t c = counts ? counts[i] : w->ps[i].count;
		topo[i] = c > 0 && (explicit_req(&w->ps[i]) || only) ? ps_topo(s, w, i, a) : -1;
	}
	for (int i = 0; i < n && fail < 0; i++) {
		if (topo[i] < 0 || done[i])
			continue;
		int m[2] = {i, -1};
		for (int j = i + 1; j < n && m[1] < 0; j++)
			if (!done[j] && same_group(w, i, j, topo))
				m[1] = j;
		for (int k = 0; k < 2 && m[k] >= 0; k++)
			done[m[k]] = true;
		fail = place_group(s, w, m, topo[i], counts, empty, keep, &tc, msg);
	}
	for (size_t i = 0; i < tc.n; i += 2)
		memset(tas_assumed(x, &x->t[tc.v[i]], &x->t[tc.v[i]].leaf[tc.v[i + 1]]), 0,
		       (size_t)x->nres * sizeof(int64_t));
	free(tc.v);
	free(topo);
	free(done);
	return fail;
}

static void add_reason(struct sq_assign *a, int ps, int msg)
{
	a->rv = sl_xgrow(a->rv, &a->caprv, a->nrv + 1, sizeof(*a->rv));
	size_t at = a->nrv;
	while (at > 0 && a->rv[at - 1].ps > ps)
		at--;
	memmove(a->rv + at + 1, a->rv + at, (a->nrv - at) * sizeof(*a->rv));
	a->rv[at] = (struct sq_reason){.kind = SQ_R_TAS, .ps = ps, .a = msg};
	a->nrv++;
}

static void forget(struct sq_wl *w)
{
	for (int i = 0; i < w->nps; i++)
		if (w->ps[i].tas)
			tps_clear(w->ps[i].tas);
}

void sq_tas_nominate(struct sl_sched *s, struct sq_wl *w, int cq, struct sq_assign *a,
		     const int32_t *counts)
{
	if (!s->tas_on)
		return;
	forget(w);
	if (a->rep == SQ_A_NOFIT)
		return;
	char *m = NULL;
	if (a->rep == SQ_A_FIT) {
		int f = place_all(s, w, cq, a, counts, false, true, &m);
		if (f < 0)
			return;
		forget(w);
		add_reason(a, f, msg_intern(s->tas, m));
		a->rep = SQ_A_PREEMPT;
		m = NULL;
	}
	if (place_all(s, w, cq, a, counts, true, false, &m) >= 0) {
		free(m);
		a->rep = SQ_A_NOFIT;
		a->nofit_reason = "TopologyPlacementFailed";
		return;
	}
	/* updateModeForTASRequests: fragmentation may need preemption in
	 * resources whose unused quota suffices */
	bool only = cq_tas_only(s, cq);
	for (int i = 0; i < w->nps; i++) {
		if (!(explicit_req(&w->ps[i]) || only) || ps_topo(s, w, i, a) < 0)
			continue;
		for (int j = 0; j < w->ps[i].nreq; j++)
			if (a->mode[a->off[i] + j] == SQ_FIT)
				a->mode[a->off[i] + j] = SQ_PREEMPT;
	}
	s->otg_key.w = NULL;   /* the oracle's targets ignored the topology */
}

void sq_tas_targets(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
		    struct sq_needbuf *need, struct sq_targets *t)
{
	struct sq_tas *x = s->tas;
	bool tas = x && x->ntopo > 0;
	for (int i = 0; tas && i < w->nps; i++)
		tas = ps_topo(s, w, i, a) < 0;
	if (!x || x->ntopo == 0 || tas) {   /* no pod set on a TAS flavor */
		sq_assign_targets(s, w, cq, a, need, t);
		return;
	}
	x->pre = w;
	x->pre_cq = cq;
	x->pre_a = a;
	sq_assign_targets(s, w, cq, a, need, t);
	x->pre = NULL;
}

bool sq_tas_preemptor_fits(struct sl_sched *s)
{
	struct sq_tas *x = s->tas;
	if (!x || !x->pre)
		return true;
	char *m = NULL;
	int f = place_all(s, x->pre, x->pre_cq, x->pre_a, x->pre_a->counts, false, false, &m);
	free(m);
	return f < 0;
}

/* Just before admission: do the leaves still hold the assignment after
 * what this cycle admitted before it (scheduler.fits' TAS half)? */
bool sq_tas_fits_now(struct sl_sched *s, const struct sq_wl *w)
{
	struct sq_tas *x = s->tas;
	if (!x || x->ntopo == 0)
		return true;
	bool ok = true;
	struct touched tc = {0};
	for (int i = 0; i < w->nps; i++) {
		const struct sq_tps *tp = w->ps[i].tas;
		if (tp && tp->topo >= 0)
			assume(s, &tc, tp->topo, &w->ps[i], tp->leaf, tp->cnt, tp->ndom);
	}
	for (size_t i = 0; i < tc.n; i += 2) {
		const struct tas_topo *t = &x->t[tc.v[i]];
		const struct tas_leaf *l = &t->leaf[tc.v[i + 1]];
		const int64_t *u = tas_used(x, t, l), *a = tas_assumed(x, t, l);
		for (int r = 0; r < x->nres && ok; r++)
			ok = a[r] == 0 || u[r] + a[r] <= l->free[r];
	}
	for (size_t i = 0; i < tc.n; i += 2)
		memset(tas_assumed(x, &x->t[tc.v[i]], &x->t[tc.v[i]].leaf[tc.v[i + 1]]), 0,
		       (size_t)x->nres * sizeof(int64_t));
	free(tc.v);
	return ok;
}

int sl_sched_topology(struct sl_sched *s, uint64_t id, size_t podset, struct sl_sched_topo *out)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w || w->where != SQ_W_ADMITTED || podset >= (size_t)w->nps || !s->tas)
		return -SL_ENOENT;
	const struct sq_tps *tp = w->ps[podset].tas;
	struct sq_tas *x = s->tas;
	if (!tp || tp->topo < 0 || tp->gen != x->gen)
		return -SL_ENOENT;
	const struct tas_topo *t = &x->t[tp->topo];
	int l0 = t->host_leaf ? t->nlevels - 1 : 0;
	x->outd = sl_xgrow(x->outd, &x->capoutd, (size_t)tp->ndom + 1, sizeof(*x->outd));
	size_t n = 0;
	for (int i = 0; i < tp->ndom; i++)
		if (tp->leaf[i] >= 0)
			x->outd[n++] = (struct sl_sched_topo_domain){
				(const char *const *)t->dom[t->leaf[tp->leaf[i]].dom].values + l0, tp->cnt[i]};
	*out = (struct sl_sched_topo){s->flv[t->flv].name, (size_t)(t->nlevels - l0),
				      (const char *const *)t->levels + l0, n, x->outd};
	return 0;
}

int sl_sched_admitted_topology(struct sl_sched *s, uint64_t id, size_t podset,
			       const struct sl_sched_topo *in, struct sl_err *err)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w || w->where != SQ_W_ADMITTED || podset >= (size_t)w->nps)
		return sl_err_set(err, SL_ENOENT, "workload %llu is not admitted", (unsigned long long)id);
	struct sq_tas *x = s->tas;
	int fl = sq_flavor_index(s, in->flavor);
	int ti = x && fl >= 0 ? tas_flavor_of(s, NULL, fl) : -1;
	if (ti < 0)
		return sl_err_set(err, SL_EINVAL, "flavor %s has no topology", in->flavor);
	const struct tas_topo *t = &x->t[ti];
	int l0 = t->nlevels - (int)in->nlevels;
	bool ok = l0 >= 0 && (l0 == 0 || (t->host_leaf && in->nlevels == 1));
	for (size_t i = 0; ok && i < in->nlevels; i++)
		ok = strcmp(t->levels[l0 + (int)i], in->levels[i]) == 0;
	if (!ok)
		return sl_err_set(err, SL_EINVAL, "topology assignment levels do not match topology %s",
				  t->name);
	int *leaf = sl_xcalloc(in->ndomains + 1, sizeof(int));
	int32_t *cnt = sl_xcalloc(in->ndomains + 1, sizeof(int32_t));
	for (size_t i = 0; i < in->ndomains; i++) {
		leaf[i] = -1;
		cnt[i] = in->domains[i].count;
		for (int j = 0; j < t->nleaf && leaf[i] < 0; j++) {
			const struct tas_dom *d = &t->dom[t->leaf[j].dom];
			bool m = true;
			for (size_t k = 0; m && k < in->nlevels; k++)
				m = strcmp(d->values[l0 + (int)k], in->domains[i].values[k]) == 0;
			if (m)
				leaf[i] = j;
		}
	}
	/* a domain whose nodes are gone holds nothing, as in Kueue */
	int k = 0;
	for (size_t i = 0; i < in->ndomains; i++)
		if (leaf[i] >= 0) {
			leaf[k] = leaf[i];
			cnt[k++] = cnt[i];
		}
	charge_ps(s, &w->ps[podset], -1);
	record(s, &w->ps[podset], ti, leaf, cnt, k);
	charge_ps(s, &w->ps[podset], +1);
	free(leaf);
	free(cnt);
	return 0;
}

/* updateAssignmentForTAS: a preempting workload's placement, on the nodes
 * its targets leave, or on empty nodes when it has none; kept so that the
 * cycle can reserve it (sq_tas_reserve). */
void sq_tas_preempt_placement(struct sl_sched *s, struct sq_wl *w, int cq, const struct sq_assign *a,
			      const struct sq_targets *t)
{
	char *m = NULL;
	if (!s->tas_on || a->rep != SQ_A_PREEMPT)
		return;
	forget(w);
	for (size_t i = 0; i < t->n; i++)
		sq_wl_charge(s, t->v[i].wl, -1);
	if (place_all(s, w, cq, a, a->counts, t->n == 0, true, &m) >= 0)
		forget(w);
	for (size_t i = t->n; i-- > 0;)
		sq_wl_charge(s, t->v[i].wl, +1);
	free(m);
}

/* The placement of a workload that waits for preemption holds its nodes
 * until the end of the cycle: later heads cannot take them (netUsage). */
void sq_tas_reserve(struct sl_sched *s, struct sq_wl *w)
{
	struct sq_tas *x = s->tas;
	if (!s->tas_on || !sq_tas_holds(w))
		return;
	sq_tas_charge(s, w, +1);
	x->resv = sl_xgrow(x->resv, &x->capresv, x->nresv + 1, sizeof(*x->resv));
	x->resv[x->nresv++] = w;
}

void sq_tas_unreserve(struct sl_sched *s)
{
	struct sq_tas *x = s->tas;
	for (size_t i = x ? x->nresv : 0; i-- > 0;)
		sq_tas_charge(s, x->resv[i], -1);
	if (x)
		x->nresv = 0;
}
