/* replay_report.c - a replay's figures side by side, as text: totals, then
 * wait-time percentiles per partition and per user. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_int.h"
#include "buf.h"
#include "xalloc.h"

void rp_fmt_dur(int64_t ms, char *buf, size_t len)
{
	if (ms < 0) {
		snprintf(buf, len, "-");
		return;
	}
	int64_t s = (ms + 500) / 1000;
	if (s >= 86400)
		snprintf(buf, len, "%lld-%02lld:%02lld:%02lld", (long long)(s / 86400),
			 (long long)(s / 3600 % 24), (long long)(s / 60 % 60), (long long)(s % 60));
	else
		snprintf(buf, len, "%02lld:%02lld:%02lld", (long long)(s / 3600),
			 (long long)(s / 60 % 60), (long long)(s % 60));
}

double rp_util(const struct sl_replay *r, size_t i)
{
	const struct rp_series *s = &r->series[i];
	double span = (double)(r->last_end - r->t0), area = 0;
	if (s->capacity <= 0 || span <= 0)
		return -1;
	for (size_t b = 0; b < r->nbuckets; b++)
		area += s->area[b];
	return 100.0 * area / ((double)s->capacity * span);
}

/* Waits of the jobs whose key (partition or user index; -1 = all) is k,
 * sorted. Caller frees. */
int64_t *rp_waits(const struct sl_replay_trace *t, const struct sl_replay *r, int by_user,
		  int64_t k, size_t *n)
{
	int64_t *v = sl_xmalloc((t->n ? t->n : 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t key = by_user ? t->jobs[i].user : t->jobs[i].partition;
		if (r->wait[i] >= 0 && (k < 0 || key == (uint32_t)k))
			v[(*n)++] = r->wait[i];
	}
	rp_sort(v, *n);
	return v;
}

static void row(struct sl_buf *b, const char *name, char cells[][48], size_t n)
{
	sl_buf_addf(b, "%-34s", name);
	for (size_t i = 0; i < n; i++)
		sl_buf_addf(b, " %26s", cells[i]);
	sl_buf_addf(b, "\n");
}

static void wait_rows(struct sl_buf *b, const struct sl_replay_trace *t,
		      struct sl_replay *const *r, size_t n, int by_user, int64_t k, const char *name)
{
	char c[8][48];
	for (size_t i = 0; i < n && i < 8; i++) {
		size_t m;
		int64_t *v = rp_waits(t, r[i], by_user, k, &m);
		char p50[16], p90[16], p99[16];
		rp_fmt_dur(rp_percentile(v, m, 50), p50, sizeof(p50));
		rp_fmt_dur(rp_percentile(v, m, 90), p90, sizeof(p90));
		rp_fmt_dur(rp_percentile(v, m, 99), p99, sizeof(p99));
		snprintf(c[i], sizeof(c[i]), "%s/%s/%s", p50, p90, p99);
		free(v);
	}
	row(b, name, c, n < 8 ? n : 8);
}

/* The names (partition or user) jobs use, each once, in first-seen order. */
size_t rp_keys(const struct sl_replay_trace *t, int by_user, uint32_t **out)
{
	unsigned char *seen = sl_xcalloc(t->nnames + 1, 1);
	uint32_t *v = sl_xmalloc((t->nnames + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t k = by_user ? t->jobs[i].user : t->jobs[i].partition;
		if (!seen[k]) {
			seen[k] = 1;
			v[n++] = k;
		}
	}
	free(seen);
	*out = v;
	return n;
}

char *sl_replay_report_text(const struct sl_replay_trace *t, struct sl_replay *const *r, size_t n)
{
	struct sl_buf *b = sl_buf_new(SIZE_MAX);
	char c[8][48];
	size_t nc = n < 8 ? n : 8;
	sl_buf_addf(b, "%zu jobs in the trace", t->n);
	if (t->skipped)
		sl_buf_addf(b, ", %zu rows left out (first: %s)", t->skipped, t->first_skip);
	sl_buf_addf(b, "\n\n");
	for (size_t i = 0; i < nc; i++)
		snprintf(c[i], sizeof(c[i]), "%s", r[i]->label);
	row(b, "", c, nc);
#define NUMROW(title, expr)                                                 \
	for (size_t i = 0; i < nc; i++)                                     \
		snprintf(c[i], sizeof(c[i]), "%zu", (size_t)(expr));        \
	row(b, title, c, nc)
	NUMROW("jobs started", r[i]->started);
	NUMROW("never started", r[i]->never);
	NUMROW("not in the config", r[i]->unmapped);
	NUMROW("moved to a default", r[i]->remapped);
	NUMROW("preemptions", r[i]->preemptions);
#undef NUMROW
	for (size_t i = 0; i < nc; i++)
		rp_fmt_dur(r[i]->last_end - r[i]->t0, c[i], sizeof(c[i]));
	row(b, "makespan", c, nc);
	for (size_t i = 0; i < nc; i++) {
		double h = (double)(r[i]->last_end - r[i]->t0) / 3600000.0;
		snprintf(c[i], sizeof(c[i]), "%.1f", h > 0 ? (double)r[i]->started / h : 0.0);
	}
	row(b, "completions per hour", c, nc);
	wait_rows(b, t, r, nc, 0, -1, "wait p50/p90/p99");
	for (size_t i = 0; i < nc; i++) {
		size_t m;
		int64_t *v = rp_waits(t, r[i], 0, -1, &m), sum = 0;
		for (size_t j = 0; j < m; j++)
			sum += v[j];
		rp_fmt_dur(m ? sum / (int64_t)m : -1, c[i], sizeof(c[i]));
		free(v);
	}
	row(b, "wait mean", c, nc);
	/* Utilisation: every series any result has, "-" where one has none. */
	for (size_t k = 0; k < n; k++)
		for (size_t s = 0; s < r[k]->nseries; s++) {
			const char *name = r[k]->series[s].name;
			int dup = 0;
			for (size_t j = 0; j < k && !dup; j++)
				for (size_t q = 0; q < r[j]->nseries && !dup; q++)
					dup = strcmp(r[j]->series[q].name, name) == 0;
			for (size_t q = 0; q < s && !dup; q++)
				dup = strcmp(r[k]->series[q].name, name) == 0;
			if (dup)
				continue;
			int any = 0;
			for (size_t i = 0; i < nc; i++) {
				double u = -1;
				for (size_t q = 0; q < r[i]->nseries; q++)
					if (strcmp(r[i]->series[q].name, name) == 0)
						u = rp_util(r[i], q);
				if (u < 0)
					snprintf(c[i], sizeof(c[i]), "-");
				else
					snprintf(c[i], sizeof(c[i]), "%.1f%%", u);
				any |= u >= 0;
			}
			if (!any)
				continue; /* a resource no queue has quota of */
			char title[128];
			snprintf(title, sizeof(title), "utilisation %s", name);
			row(b, title, c, nc);
		}
	for (int by_user = 0; by_user < 2; by_user++) {
		uint32_t *keys;
		size_t nk = rp_keys(t, by_user, &keys);
		sl_buf_addf(b, "\nwait p50/p90/p99 by %s\n", by_user ? "user" : "partition");
		for (size_t k = 0; k < nk; k++)
			wait_rows(b, t, r, nc, by_user, keys[k],
				  *t->names[keys[k]] ? t->names[keys[k]] : "(none)");
		free(keys);
	}
	char *text = sl_buf_steal(b);
	sl_buf_free(b);
	return text;
}
