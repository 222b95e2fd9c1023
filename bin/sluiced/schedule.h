/* schedule.h - glue between the daemon's jobs and the pure admission engine
 * (libbatch/sched): jobs become Kueue workloads, decisions become state
 * transitions and executor calls. */
#ifndef SL_SCHEDULE_H
#define SL_SCHEDULE_H

#include "sluiced.h"

struct sl_schedctl;

int sl_schedctl_new(struct sluiced *d, struct sl_schedctl **out, struct sl_err *err);
void sl_schedctl_free(struct sl_schedctl *s);
/* New config (SIGHUP): keep the workloads, swap the queue model. */
int sl_schedctl_reconfigure(struct sl_schedctl *s, struct sl_err *err);

/* Submit-time validation of a resolved job: the partition (LocalQueue) and
 * account (namespace) exist, the job can ever fit, the QOS (priority class)
 * exists; sets j->priority. Errors carry Slurm's text. */
int sl_schedctl_check(struct sl_schedctl *s, struct sl_job *j, struct sl_err *err);
/* Set j->priority from its QOS (WorkloadPriorityClass), --priority, --nice. */
int sl_schedctl_priority(struct sl_schedctl *s, struct sl_job *j, struct sl_err *err);
/* j waits for admission (new, released, requeued). Held jobs are not added. */
int sl_schedctl_add(struct sl_schedctl *s, const struct sl_job *j, struct sl_err *err);
/* j already runs (daemon restart): account its quota. */
int sl_schedctl_add_running(struct sl_schedctl *s, const struct sl_job *j,
			    struct sl_err *err);
/* j finished, was cancelled, or was held: release its quota / queue slot. */
void sl_schedctl_remove(struct sl_schedctl *s, uint64_t id);
/* j was preempted and goes back to its queue with its original position. */
void sl_schedctl_requeue(struct sl_schedctl *s, uint64_t id);

/* Run one cycle and apply it: admissions become RUNNING jobs queued for
 * launch (after the commit), preemptions go to the executor. */
int sl_schedctl_run(struct sl_schedctl *s);

/* Refresh j's pending reason (Slurm code), full text and queue position. */
void sl_schedctl_explain(struct sl_schedctl *s, struct sl_job *j);

#endif
