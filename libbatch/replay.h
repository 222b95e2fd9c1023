/* replay.h - `sluice replay`: a job trace (what jobs asked for, when they
 * were submitted and how long they ran) replayed on simulated time through
 * the real engine (libbatch/sched) under a config, or under plain
 * first-come-first-served, with the figures an admin compares: wait-time
 * percentiles per partition and user, utilisation per flavor, preemptions,
 * makespan. The trace's own history (when Slurm started each job) is
 * summarised the same way, so the columns sit side by side. Pure: no clock,
 * no output; the caller prints. */
#ifndef SL_REPLAY_H
#define SL_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct sl_conf;

/* One job of a trace. Times in milliseconds from any origin. */
struct sl_replay_job {
	int64_t submit;
	int64_t runtime;     /* as it ran; a replayed job runs this long */
	int64_t limit;       /* time limit; 0 = none. A job never runs past it */
	int64_t hist_start;  /* when the trace's system started it; -1 = never */
	int32_t nodes;       /* >= 1 */
	int32_t cpus;        /* in all */
	int64_t mem_mib;     /* in all; 0 = none asked */
	int32_t gpus;        /* in all */
	uint32_t user, account, partition; /* indexes into the trace's names */
};

struct sl_replay_trace {
	struct sl_replay_job *jobs;
	size_t n, cap;
	char **names;        /* interned user, account and partition names */
	size_t nnames, capnames;
	uint32_t *hash;      /* open addressing over names: index + 1, 0 = empty */
	size_t hcap;
	size_t skipped;      /* rows left out (steps, never-run jobs without a runtime) */
	char *first_skip;    /* why the first one was left out, for the report */
};

struct sl_replay_trace *sl_replay_trace_new(void);
void sl_replay_trace_free(struct sl_replay_trace *t);
/* Index of name (interned once). */
uint32_t sl_replay_trace_name(struct sl_replay_trace *t, const char *name);
/* Append a job (copied). Submissions need not come in order. */
void sl_replay_trace_add(struct sl_replay_trace *t, const struct sl_replay_job *j);

enum sl_replay_policy {
	SL_REPLAY_KUEUE = 0, /* the config's ClusterQueues, cohorts, preemption */
	SL_REPLAY_FCFS,      /* one queue in submission order, each partition's
			      * nominal quota, no borrowing, no preemption */
};

struct sl_replay;

/* Run trace t under conf (its partitions, accounts and Kueue objects).
 * progress, if set, is called now and then with jobs submitted so far.
 * -SL_EINVAL when no job of the trace maps to a partition of the config. */
int sl_replay_run(const struct sl_replay_trace *t, const struct sl_conf *conf,
		  enum sl_replay_policy policy, const char *label,
		  void (*progress)(size_t done, size_t total, void *arg), void *arg,
		  struct sl_replay **out, struct sl_err *err);
/* The trace's own history as a result (jobs with a start time). */
struct sl_replay *sl_replay_history(const struct sl_replay_trace *t, const struct sl_conf *conf,
				    const char *label);
void sl_replay_free(struct sl_replay *r);

/* Side by side, results r[0..n): text for a terminal, or one
 * self-contained HTML page with SVG charts. Caller frees. */
char *sl_replay_report_text(const struct sl_replay_trace *t, struct sl_replay *const *r, size_t n);
char *sl_replay_report_html(const struct sl_replay_trace *t, struct sl_replay *const *r, size_t n);

#endif
