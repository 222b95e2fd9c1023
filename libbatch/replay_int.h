/* replay_int.h - a replay's result, shared by replay.c (running),
 * replay_trace.c (the trace and history), replay_report.c (text) and
 * replay_html.c (the page). Internal to libbatch. */
#ifndef SL_REPLAY_INT_H
#define SL_REPLAY_INT_H

#include "replay.h"

/* Utilisation and queue depth are kept per time bucket of `width` ms from
 * `t0`: each bucket holds the integral of the level over its span, so a
 * bucket's mean is area / width. */
struct rp_series {
	char *name;          /* "cpu" (all flavors) or "cpu@flavor" */
	int64_t capacity;    /* milli-units, as the engine counts them */
	int64_t level;       /* in use now */
	double *area;        /* per bucket, milli-units x ms */
};

struct sl_replay {
	char *label;
	size_t njobs;            /* trace jobs */
	int64_t *wait;           /* per trace job, ms; -1 = never started */
	size_t started, never, unmapped, remapped, preemptions;
	int64_t t0, last_end;    /* first submission, last end */
	int64_t width;           /* bucket width, ms */
	size_t nbuckets, capbuckets;
	int64_t acc_t;           /* accounted up to */
	struct rp_series *series;
	size_t nseries;
	int64_t pending;         /* jobs waiting now */
	double *depth;           /* queue depth integral per bucket */
};

struct sl_replay *rp_result_new(const struct sl_replay_trace *t, const char *label);
/* Add a series; returns its index. */
size_t rp_series_add(struct sl_replay *r, const char *name, int64_t capacity);
/* Account levels from acc_t up to time `to`. */
void rp_advance(struct sl_replay *r, int64_t to);
/* Percentile p (0..100) of the sorted v[0..n), nearest rank. */
int64_t rp_percentile(const int64_t *v, size_t n, double p);
void rp_sort(int64_t *v, size_t n);
/* Shared by the text and HTML reports (replay_report.c). */
void rp_fmt_dur(int64_t ms, char *buf, size_t len);
double rp_util(const struct sl_replay *r, size_t series); /* %, -1 = no capacity */
int64_t *rp_waits(const struct sl_replay_trace *t, const struct sl_replay *r, int by_user,
		  int64_t key, size_t *n);
size_t rp_keys(const struct sl_replay_trace *t, int by_user, uint32_t **out);

#endif
