/* diag.c - sdiag's statistics (diag.h). */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct rpc_row {
	uint32_t key; /* request type or uid */
	const char *name;
	uint64_t count;
	uint64_t us;
};

struct sched_fig {
	uint64_t passes;
	int64_t last_us, max_us, sum_us;
};

struct sl_diag {
	int64_t since;
	uint32_t jobs[SL_DIAG_NJOB];
	struct sched_fig total;    /* since start */
	struct sched_fig main;     /* since the reset */
	struct sched_fig bf;       /* passes with a backfill pass in them */
	int64_t bf_when;
	uint64_t bf_seen;          /* the engine's backfill passes at the last pass */
	struct sl_sched_stats base; /* the engine's counters at the reset */
	struct rpc_row *types, *users;
	size_t ntypes, captypes, nusers, capusers;
};

struct sl_diag *sl_diag_new(int64_t now)
{
	struct sl_diag *g = sl_xcalloc(1, sizeof(*g));
	g->since = now;
	return g;
}

void sl_diag_free(struct sl_diag *g)
{
	if (g == NULL)
		return;
	free(g->types);
	free(g->users);
	free(g);
}

void sl_diag_job(struct sl_diag *g, enum sl_diag_job e, uint32_t n)
{
	if (g != NULL && e < SL_DIAG_NJOB)
		g->jobs[e] += n;
}

static void rpc_add(struct rpc_row **v, size_t *n, size_t *cap, uint32_t key, const char *name,
		    int64_t us)
{
	size_t i;
	for (i = 0; i < *n && (*v)[i].key != key; i++)
		;
	if (i == *n) {
		*v = sl_xgrow(*v, cap, *n + 1, sizeof(**v));
		(*v)[i] = (struct rpc_row){.key = key, .name = name};
		(*n)++;
	}
	(*v)[i].count++;
	(*v)[i].us += us > 0 ? (uint64_t)us : 0;
}

void sl_diag_rpc(struct sl_diag *g, uint16_t type, const char *name, uint32_t uid, int64_t us)
{
	if (g == NULL)
		return;
	rpc_add(&g->types, &g->ntypes, &g->captypes, type, name, us);
	rpc_add(&g->users, &g->nusers, &g->capusers, uid, NULL, us);
}

static void fig_add(struct sched_fig *f, int64_t us)
{
	f->passes++;
	f->last_us = us;
	f->sum_us += us;
	if (us > f->max_us)
		f->max_us = us;
}

void sl_diag_pass(struct sl_diag *g, int64_t us, int64_t now, const struct sl_sched_stats *st)
{
	if (g == NULL)
		return;
	fig_add(&g->total, us);
	fig_add(&g->main, us);
	/* the engine's pass count moved: backfill ran in this pass */
	if (st != NULL && st->bf_passes != g->bf_seen) {
		fig_add(&g->bf, us);
		g->bf_when = now;
		g->bf_seen = st->bf_passes;
	}
}

void sl_diag_reset(struct sl_diag *g, int64_t now, const struct sl_sched_stats *st)
{
	if (g == NULL)
		return;
	g->since = now;
	memset(g->jobs, 0, sizeof(g->jobs));
	memset(&g->main, 0, sizeof(g->main));
	memset(&g->bf, 0, sizeof(g->bf));
	g->bf_when = 0;
	g->base = *st;
	g->bf_seen = st->bf_passes;
	g->ntypes = g->nusers = 0;
}

void sl_diag_totals(const struct sl_diag *g, uint64_t *passes, int64_t *last_us,
		    int64_t *max_us, int64_t *sum_us)
{
	*passes = g ? g->total.passes : 0;
	*last_us = g ? g->total.last_us : 0;
	*max_us = g ? g->total.max_us : 0;
	*sum_us = g ? g->total.sum_us : 0;
}

static void add_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v));
}

static json_object *rpc_rows(const struct rpc_row *v, size_t n, const char *key)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_new_object();
		add_u64(r, key, v[i].key);
		if (v[i].name != NULL)
			json_object_object_add(r, "name", json_object_new_string(v[i].name));
		add_u64(r, "count", v[i].count);
		add_u64(r, "time", v[i].us);
		json_object_array_add(a, r);
	}
	return a;
}

void sl_diag_json(const struct sl_diag *g, const struct sl_sched_stats *st, size_t queue_len,
		  json_object *o)
{
	static const char *const jobs[SL_DIAG_NJOB] = {"submitted", "started", "completed",
						       "canceled", "failed"};
	const struct sl_sched_stats *b = &g->base;
	json_object *j = json_object_new_object(), *m = json_object_new_object(),
		    *f = json_object_new_object();

	json_object_object_add(o, "since", json_object_new_int64(g->since));
	for (int i = 0; i < SL_DIAG_NJOB; i++)
		add_u64(j, jobs[i], g->jobs[i]);
	json_object_object_add(o, "jobs", j);
	add_u64(m, "cycles", g->main.passes);
	add_u64(m, "last", (uint64_t)g->main.last_us);
	add_u64(m, "max", (uint64_t)g->main.max_us);
	add_u64(m, "sum", (uint64_t)g->main.sum_us);
	add_u64(m, "depth", st->tried - b->tried);
	add_u64(m, "queue_len", queue_len);
	json_object_object_add(o, "sched", m);
	add_u64(f, "backfilled", st->bf_admitted - b->bf_admitted);
	add_u64(f, "cycles", g->bf.passes);
	add_u64(f, "when", (uint64_t)g->bf_when);
	add_u64(f, "last", (uint64_t)g->bf.last_us);
	add_u64(f, "max", (uint64_t)g->bf.max_us);
	add_u64(f, "sum", (uint64_t)g->bf.sum_us);
	add_u64(f, "last_depth", g->bf.passes ? st->bf_last_depth : 0);
	add_u64(f, "depth_sum", st->bf_depth_sum - b->bf_depth_sum);
	add_u64(f, "queue_len", g->bf.passes ? st->bf_last_queue : 0);
	add_u64(f, "queue_sum", st->bf_queue_sum - b->bf_queue_sum);
	json_object_object_add(o, "backfill", f);
	json_object_object_add(o, "rpc_types", rpc_rows(g->types, g->ntypes, "type"));
	json_object_object_add(o, "rpc_users", rpc_rows(g->users, g->nusers, "uid"));
}
