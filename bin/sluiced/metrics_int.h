/* metrics_int.h - the metrics' state, shared by the server (metrics.c) and
 * the renderer (metrics_text.c). Everything but mu and snap belongs to the
 * loop thread. */
#ifndef SL_METRICS_INT_H
#define SL_METRICS_INT_H

#include <pthread.h>
#include <stdint.h>
#include "metrics.h"

#define METRICS_NBUCKETS 14 /* kueue_admission_wait_time_seconds, +Inf apart */
#define METRICS_NREASONS 6  /* enum sl_sched_preempt_reason */
#define METRICS_NCYCLE 12   /* kueue_admission_attempt_duration_seconds, +Inf apart */

extern const double sl_metrics_wait_buckets[METRICS_NBUCKETS];
extern const double sl_metrics_cycle_buckets[METRICS_NCYCLE];

struct metrics_cq { /* counters of one ClusterQueue */
	char *name;
	uint64_t admitted;
	uint64_t wait_hist[METRICS_NBUCKETS + 1]; /* not cumulative; last: +Inf */
	double wait_sum;
	uint64_t evicted[METRICS_NREASONS];    /* its workloads, by preemption reason */
	uint64_t preempting[METRICS_NREASONS]; /* preemptions it caused */
};

struct sl_metrics {
	pthread_mutex_t mu;
	char *snap; /* under mu: what a scrape gets */
	struct MHD_Daemon *mhd;
	struct sluiced *d;
	uint64_t timer;
	size_t ncq, capcq;
	struct metrics_cq *cq;
	uint64_t attempts[2]; /* success, inadmissible */
	uint64_t cycle_hist[2][METRICS_NCYCLE + 1]; /* by result; not cumulative */
	double cycle_sum[2];
};

/* The counters of ClusterQueue name, created at zero. Borrowed until the
 * next call. */
struct metrics_cq *sl_metrics_cq(struct sl_metrics *m, const char *name);

#endif
