/* replay_result.c - a replay's figures: the result, its time series, and
 * the trace's own history summarised the same way. */
#include <stdlib.h>
#include <string.h>
#include "replay_int.h"
#include "conf.h"
#include "sched/sched.h"
#include "xalloc.h"

#define RP_BUCKETS 256

struct sl_replay *rp_result_new(const struct sl_replay_trace *t, const char *label)
{
	struct sl_replay *r = sl_xcalloc(1, sizeof(*r));
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	r->label = sl_xstrdup(label ? label : "");
	r->njobs = t->n;
	r->wait = sl_xmalloc((t->n ? t->n : 1) * sizeof(*r->wait));
	for (size_t i = 0; i < t->n; i++) {
		r->wait[i] = -1;
		if (t->jobs[i].submit < lo)
			lo = t->jobs[i].submit;
		if (t->jobs[i].submit + t->jobs[i].runtime > hi)
			hi = t->jobs[i].submit + t->jobs[i].runtime;
	}
	if (t->n == 0)
		lo = hi = 0;
	r->t0 = r->acc_t = r->last_end = lo;
	/* Sized on the trace's span; a replay that runs longer grows. */
	r->width = (hi - lo) / RP_BUCKETS + 1;
	return r;
}

size_t rp_series_add(struct sl_replay *r, const char *name, int64_t capacity)
{
	r->series = sl_xrealloc(r->series, (r->nseries + 1) * sizeof(*r->series));
	struct rp_series *s = &r->series[r->nseries];
	memset(s, 0, sizeof(*s));
	s->name = sl_xstrdup(name);
	s->capacity = capacity;
	s->area = r->capbuckets ? sl_xcalloc(r->capbuckets, sizeof(double)) : NULL;
	return r->nseries++;
}

static void grow(struct sl_replay *r, size_t need)
{
	if (need <= r->capbuckets)
		return;
	size_t cap = r->capbuckets ? r->capbuckets : RP_BUCKETS + 1;
	while (cap < need)
		cap *= 2;
	for (size_t i = 0; i < r->nseries; i++) {
		r->series[i].area = sl_xrealloc(r->series[i].area, cap * sizeof(double));
		memset(r->series[i].area + r->capbuckets, 0, (cap - r->capbuckets) * sizeof(double));
	}
	r->depth = sl_xrealloc(r->depth, cap * sizeof(double));
	memset(r->depth + r->capbuckets, 0, (cap - r->capbuckets) * sizeof(double));
	r->capbuckets = cap;
}

void rp_advance(struct sl_replay *r, int64_t to)
{
	if (to <= r->acc_t)
		return;
	size_t last = (size_t)((to - r->t0) / r->width);
	grow(r, last + 1);
	while (r->acc_t < to) {
		size_t b = (size_t)((r->acc_t - r->t0) / r->width);
		int64_t edge = r->t0 + (int64_t)(b + 1) * r->width, upto = edge < to ? edge : to;
		double dt = (double)(upto - r->acc_t);
		for (size_t i = 0; i < r->nseries; i++)
			r->series[i].area[b] += (double)r->series[i].level * dt;
		r->depth[b] += (double)r->pending * dt;
		r->acc_t = upto;
	}
	if (last + 1 > r->nbuckets)
		r->nbuckets = last + 1;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int64_t rp_percentile(const int64_t *v, size_t n, double p)
{
	if (n == 0)
		return -1;
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

void rp_sort(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
}

struct rp_hist_ev {
	int64_t at;
	int32_t job;     /* >= 0 start, < 0: ~job ends; submissions are -(n+job+1)... */
	int kind;        /* 0 submit, 1 end, 2 start (ends first at one instant) */
};

static int cmp_ev(const void *a, const void *b)
{
	const struct rp_hist_ev *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->kind - y->kind;
}

/* What the trace's own system did, in the same figures: each job's wait is
 * its recorded start minus its submission, and its usage its whole request
 * from start to start + run time. */
struct sl_replay *sl_replay_history(const struct sl_replay_trace *t, const struct sl_conf *conf,
				    const char *label)
{
	struct sl_replay *r = rp_result_new(t, label);
	const char *res[3] = {"cpu", "memory", "nvidia.com/gpu"};
	size_t ri[3];
	struct sl_sched *s = sl_sched_new(sl_conf_kueue(conf));
	const struct sl_sched_usage *rows;
	size_t nrows = sl_sched_usage(s, &rows);
	for (int k = 0; k < 3; k++) {
		int64_t cap = 0;
		for (size_t i = 0; i < nrows; i++)
			if (strcmp(rows[i].resource, res[k]) == 0)
				cap += rows[i].nominal;
		ri[k] = rp_series_add(r, res[k], cap);
	}
	sl_sched_free(s);
	struct rp_hist_ev *ev = sl_xmalloc((3 * t->n + 1) * sizeof(*ev));
	size_t nev = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct sl_replay_job *j = &t->jobs[i];
		ev[nev++] = (struct rp_hist_ev){j->submit, (int32_t)i, 0};
		if (j->hist_start < 0) {
			r->never++;
			continue;
		}
		r->wait[i] = j->hist_start - j->submit < 0 ? 0 : j->hist_start - j->submit;
		r->started++;
		ev[nev++] = (struct rp_hist_ev){j->hist_start, (int32_t)i, 2};
		ev[nev++] = (struct rp_hist_ev){j->hist_start + (j->runtime > 0 ? j->runtime : 0),
						(int32_t)i, 1};
	}
	qsort(ev, nev, sizeof(*ev), cmp_ev);
	for (size_t e = 0; e < nev; e++) {
		const struct sl_replay_job *j = &t->jobs[ev[e].job];
		int64_t amt[3] = {(int64_t)j->cpus * 1000, j->mem_mib * 1048576LL * 1000,
				  (int64_t)j->gpus * 1000};
		rp_advance(r, ev[e].at);
		if (ev[e].kind == 0) {
			r->pending++;
			continue;
		}
		int sign = ev[e].kind == 2 ? 1 : -1;
		if (sign > 0)
			r->pending--;
		else if (ev[e].at > r->last_end)
			r->last_end = ev[e].at;
		for (int k = 0; k < 3; k++)
			r->series[ri[k]].level += sign * amt[k];
	}
	free(ev);
	return r;
}

void sl_replay_free(struct sl_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nseries; i++) {
		free(r->series[i].name);
		free(r->series[i].area);
	}
	free(r->series);
	free(r->depth);
	free(r->wait);
	free(r->label);
	free(r);
}
