/* sim_clock.c - timed scenarios for `sluice simulate`: workloads with a
 * `timeLimit` or a `runtime` (seconds) turn the run into a clock. Each
 * workload arrives at its `created` time; at every arrival or end the
 * engine runs to its fixpoint at that time (backfill included); an
 * admitted workload ends after its runtime, or at its time limit when the
 * runtime is longer or missing (TIMEOUT; OverTimeLimit is 0), or never
 * when it has neither. Right after it arrives, each workload's start is
 * estimated (libbatch/sched/estimate.c); the report compares that first
 * estimate with the real start: how often and by how much jobs start
 * later than first estimated. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_int.h"
#include "buf.h"
#include "sched/sched.h"
#include "xalloc.h"
#include "yaml.h"

#define SIM_MAX_STEPS 1000000

static int64_t end_of(const struct sim_wl *w)
{
	int64_t run = w->runtime_ms >= 0 ? w->runtime_ms : w->limit_ms > 0 ? w->limit_ms : -1;
	if (w->limit_ms > 0 && (run < 0 || run > w->limit_ms))
		run = w->limit_ms;
	return run < 0 ? INT64_MAX : w->start_ms + run;
}

static int by_created(const void *pa, const void *pb, void *arg)
{
	const struct sl_sim *m = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int64_t ca = m->wl[a].w.created, cb = m->wl[b].w.created;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The running workloads, as indices: scanning all of them at every event
 * was 80 % of a 20 000-job run. Entries no longer running (preempted)
 * are dropped when met. */
struct runset {
	size_t *v;
	size_t n, cap;
	bool *in;                /* [nwl] */
};

static void run_add(struct runset *r, size_t i)
{
	if (r->in[i])
		return;
	r->v = sl_xgrow(r->v, &r->cap, r->n + 1, sizeof(*r->v));
	r->v[r->n++] = i;
	r->in[i] = true;
}

static void run_drop(struct runset *r, size_t k)
{
	r->in[r->v[k]] = false;
	r->v[k] = r->v[--r->n];
}

/* Ends due by t leave the engine. */
static void finish(struct sl_sim *m, struct runset *r, int64_t t)
{
	for (size_t k = 0; k < r->n;) {
		struct sim_wl *w = &m->wl[r->v[k]];
		if (!w->running) {
			run_drop(r, k);
		} else if (end_of(w) <= t) {
			sl_sched_remove(m->s, w->w.id);
			w->running = 0;
			w->end_ms = t;
			run_drop(r, k);
		} else {
			k++;
		}
	}
}

static int64_t next_event(struct sl_sim *m, const struct runset *r, const size_t *order,
			  size_t no, size_t ai)
{
	int64_t next = ai < no ? m->wl[order[ai]].w.created : INT64_MAX;
	for (size_t k = 0; k < r->n; k++) {
		const struct sim_wl *w = &m->wl[r->v[k]];
		if (w->running && end_of(w) < next)
			next = end_of(w);
	}
	return next;
}

/* The first estimates of the workloads that arrived at t (fresh[0..n)). */
static void first_estimates(struct sl_sim *m, const size_t *fresh, size_t n, int64_t t)
{
	bool planned = false;
	for (size_t k = 0; k < n; k++) {
		struct sim_wl *w = &m->wl[fresh[k]];
		if (w->running && w->start_ms == t) {
			w->first_est_ms = t;
			continue;
		}
		if (!planned)
			sl_sched_estimate(m->s, t);
		planned = true;
		int64_t e;
		if (sl_sched_start_estimate(m->s, w->w.id, &e) == 0)
			w->first_est_ms = e;
	}
}

int sim_clock_run(struct sl_sim *m)
{
	size_t *order = sl_xcalloc(m->nwl + 1, sizeof(*order)), no = 0, ai = 0;
	size_t *fresh = sl_xcalloc(m->nwl + 1, sizeof(*fresh));
	struct runset run = {.in = sl_xcalloc(m->nwl + 1, sizeof(bool))};
	for (size_t i = 0; i < m->nwl; i++)
		if (!m->wl[i].admit_cq)
			order[no++] = i;
		else if (m->wl[i].running)
			run_add(&run, i);
	qsort_r(order, no, sizeof(*order), by_created, m);
	int64_t t = 0;
	for (int step = 0; step < SIM_MAX_STEPS && t != INT64_MAX; step++) {
		struct sl_err err = SL_ERR_INIT;
		struct sl_sched_decisions d = {0};
		size_t nf = 0;
		finish(m, &run, t);
		for (; ai < no && m->wl[order[ai]].w.created <= t; ai++) {
			struct sim_wl *w = &m->wl[order[ai]];
			if (sl_sched_add(m->s, &w->w, &err) != 0)
				continue;        /* ids are unique: cannot happen */
			sl_sched_set_time(m->s, w->w.id, w->limit_ms > 0 ? w->limit_ms : 0, 0);
			fresh[nf++] = order[ai];
		}
		m->cycles += sl_sched_run_to_fixpoint(m->s, t, 100000, &d);
		sim_absorb(m, &d, t);
		for (size_t k = 0; k < d.nadmit; k++)
			if (d.admit[k].id >= 1 && d.admit[k].id <= m->nwl &&
			    m->wl[d.admit[k].id - 1].running)
				run_add(&run, d.admit[k].id - 1);
		sl_sched_decisions_clear(&d);
		first_estimates(m, fresh, nf, t);
		t = next_event(m, &run, order, no, ai);
	}
	free(order);
	free(fresh);
	free(run.v);
	free(run.in);
	return m->cycles;
}

/* How often and by how much jobs started later than first estimated. */
struct late {
	size_t started, late, early, unknown;
	int64_t sum, max;
	int64_t wait_sum, wait_max;  /* start - created */
};

static struct late lateness(const struct sl_sim *m)
{
	struct late l = {0};
	for (size_t i = 0; i < m->nwl; i++) {
		const struct sim_wl *w = &m->wl[i];
		if (w->start_ms < 0)
			continue;
		l.started++;
		int64_t wait = w->start_ms - (w->admit_cq ? 0 : w->w.created);
		l.wait_sum += wait > 0 ? wait : 0;
		l.wait_max = wait > l.wait_max ? wait : l.wait_max;
		if (w->first_est_ms == SL_SCHED_NEVER) {
			l.unknown++;
		} else if (w->start_ms > w->first_est_ms) {
			int64_t d = w->start_ms - w->first_est_ms;
			l.late++;
			l.sum += d;
			l.max = d > l.max ? d : l.max;
		} else if (w->start_ms < w->first_est_ms) {
			l.early++;
		}
	}
	return l;
}

static void fmt_s(struct sl_buf *b, int64_t ms)
{
	if (ms == SL_SCHED_NEVER || ms < 0)
		sl_buf_addstr(b, "N/A");
	else
		sl_buf_addf(b, "%llds", (long long)(ms / 1000));
}

void sim_clock_report_text(struct sl_sim *m, struct sl_buf *b)
{
	struct late l = lateness(m);
	sl_buf_addf(b, "\nstarted (%zu):\n", l.started);
	for (size_t i = 0; i < m->nwl; i++) {
		const struct sim_wl *w = &m->wl[i];
		if (w->start_ms < 0)
			continue;
		sl_buf_addf(b, "  %-24s at ", w->w.name);
		fmt_s(b, w->start_ms);
		sl_buf_addstr(b, ", first estimate ");
		fmt_s(b, w->first_est_ms);
		if (w->end_ms >= 0) {
			sl_buf_addstr(b, ", ended ");
			fmt_s(b, w->end_ms);
		}
		sl_buf_addc(b, '\n');
	}
	sl_buf_addf(b, "\nestimates: %zu started, %zu later than first estimated", l.started, l.late);
	if (l.late)
		sl_buf_addf(b, " (mean %.1f s, max %lld s)", (double)l.sum / 1000.0 / (double)l.late,
			    (long long)(l.max / 1000));
	sl_buf_addf(b, ", %zu earlier, %zu without an estimate\n", l.early, l.unknown);
	if (l.started)
		sl_buf_addf(b, "waits: mean %.1f s, max %lld s\n",
			    (double)l.wait_sum / 1000.0 / (double)l.started, (long long)(l.wait_max / 1000));
}

void sim_clock_report_json(struct sl_sim *m, struct sl_buf *b)
{
	struct late l = lateness(m);
	int first = 1;
	sl_buf_addstr(b, ",\"started\":{");
	for (size_t i = 0; i < m->nwl; i++) {
		const struct sim_wl *w = &m->wl[i];
		if (w->start_ms < 0)
			continue;
		sl_buf_addstr(b, first ? "" : ",");
		sim_json_str(b, w->w.name);
		sl_buf_addf(b, ":{\"start\":%lld,\"firstEstimate\":", (long long)(w->start_ms / 1000));
		if (w->first_est_ms == SL_SCHED_NEVER)
			sl_buf_addstr(b, "null}");
		else
			sl_buf_addf(b, "%lld}", (long long)(w->first_est_ms / 1000));
		first = 0;
	}
	sl_buf_addf(b, "},\"estimates\":{\"started\":%zu,\"late\":%zu,\"lateSecondsSum\":%lld,"
		       "\"lateSecondsMax\":%lld,\"early\":%zu,\"unknown\":%zu,"
		       "\"waitSecondsSum\":%lld,\"waitSecondsMax\":%lld}",
		    l.started, l.late, (long long)(l.sum / 1000), (long long)(l.max / 1000), l.early,
		    l.unknown, (long long)(l.wait_sum / 1000), (long long)(l.wait_max / 1000));
}

static const struct sim_wl *find(const struct sl_sim *m, const char *name)
{
	for (size_t i = 0; i < m->nwl; i++)
		if (strcmp(m->wl[i].w.name, name) == 0)
			return &m->wl[i];
	return NULL;
}

/* expect.KEY: {workload: seconds or N/A}; which: 0 started, 1 first estimate. */
static int verify_times(struct sl_sim *m, const struct sl_ynode *ex, int which, struct sl_buf *b)
{
	const char *label = which ? "estimated" : "started";
	int bad = 0;
	for (size_t i = 0; ex && ex->type == SL_Y_MAP && i < ex->n; i++) {
		const struct sim_wl *w = find(m, ex->keys[i]);
		const struct sl_ynode *v = ex->vals[i];
		int64_t want = SL_SCHED_NEVER, got;
		if (!w) {
			sl_buf_addf(b, "  - %s: %s is not a workload of this scenario\n", label, ex->keys[i]);
			bad = 1;
			continue;
		}
		if (v->type == SL_Y_SCALAR && strcmp(v->scalar, "N/A") != 0 &&
		    sl_yscalar_int64(v, &want) == 0)
			want *= 1000;
		got = which ? w->first_est_ms : w->start_ms < 0 ? SL_SCHED_NEVER : w->start_ms;
		if (got != want) {
			sl_buf_addf(b, "  ~ %s: %s: expected ", label, ex->keys[i]);
			fmt_s(b, want);
			sl_buf_addstr(b, ", got ");
			fmt_s(b, got);
			sl_buf_addc(b, '\n');
			bad = 1;
		}
	}
	return bad;
}

int sim_clock_verify(struct sl_sim *m, struct sl_buf *b)
{
	return verify_times(m, sl_ymap_get(m->expect, "started"), 0, b) |
	       verify_times(m, sl_ymap_get(m->expect, "estimated"), 1, b);
}
