/* schedule.h - glue between the daemon's jobs and the pure admission engine
 * (libbatch/sched): jobs become Kueue workloads; the engine's decisions go
 * back to the daemon, which applies them (lifecycle.c). */
#ifndef SL_SCHEDULE_H
#define SL_SCHEDULE_H

#include "sched/sched.h"
#include "sluiced.h"

struct sl_schedctl;

int sl_schedctl_new(struct sluiced *d, struct sl_schedctl **out, struct sl_err *err);
void sl_schedctl_free(struct sl_schedctl *s);
/* New config (SIGHUP): keep the workloads, swap the queue model. */
int sl_schedctl_reconfigure(struct sl_schedctl *s, struct sl_err *err);

/* The live engine, for the submit policy's "can it ever fit" (submit.h). */
const struct sl_sched *sl_schedctl_engine(const struct sl_schedctl *s);
/* The gates in front of the engine (gates.h). */
struct sl_gates *sl_schedctl_gates(const struct sl_schedctl *s);
/* j waits for admission (new, released, requeued). Held jobs are not added. */
int sl_schedctl_add(struct sl_schedctl *s, const struct sl_job *j, struct sl_err *err);
/* j already runs (daemon restart): account its quota. */
int sl_schedctl_add_running(struct sl_schedctl *s, const struct sl_job *j,
			    struct sl_err *err);
/* j finished, was cancelled, or was held: release its quota / queue slot. */
void sl_schedctl_remove(struct sl_schedctl *s, uint64_t id);
/* j was preempted and goes back to its queue with its original position. */
void sl_schedctl_requeue(struct sl_schedctl *s, uint64_t id);
/* Kueue TAS: the node inventory from the API (the Kubernetes executor's
 * Nodes watch): replaces the config's `nodes:`; copied. */
int sl_schedctl_set_nodes(struct sl_schedctl *s, const struct sl_sched_node *nodes, size_t n,
			  struct sl_err *err);

/* Run one cycle into dec: the daemon applies it, preemptions first, and
 * hands it to sl_schedctl_done (frees it; cycles again if it admitted). */
void sl_schedctl_run(struct sl_schedctl *s, struct sl_sched_decisions *dec);
void sl_schedctl_done(struct sl_schedctl *s, struct sl_sched_decisions *dec);
/* Record admission a in j: ClusterQueue, flavors, nodes and cpus. */
void sl_schedctl_assign(struct sl_job *j, const struct sl_sched_admission *a);

/* Refresh j's pending reason (Slurm code), full text and queue position. */
void sl_schedctl_explain(struct sl_schedctl *s, struct sl_job *j);

/* Pending j's estimated start (unix seconds), 0 when there is none: the
 * engine's plan (libbatch/sched/estimate.c), made again when the engine
 * changed since the last one or it is SL_SCHEDCTL_PLAN_MS old. */
#define SL_SCHEDCTL_PLAN_MS 5000
int64_t sl_schedctl_start_estimate(struct sl_schedctl *s, const struct sl_job *j);
/* sbatch --test-only for j (its id set, not in the engine). -SL_ENOFIT
 * "Requested node configuration is not available" when no start is known. */
struct sl_schedctl_trial {
	int64_t start;          /* unix seconds */
	int64_t shorter;        /* the longest --time (minutes) backfill starts now, 0: none */
	char other[64];         /* another partition of its account where it starts sooner */
	int64_t other_start;    /* ... then (unix seconds); 0: none */
};
int sl_schedctl_trial(struct sl_schedctl *s, const struct sl_job *j,
		      struct sl_schedctl_trial *out, struct sl_err *err);

#endif
