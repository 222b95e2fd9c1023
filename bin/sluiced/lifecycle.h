/* lifecycle.h - every change to a job's state, in one place: transitions are
 * checked, written to the store in the loop turn's transaction, and their
 * side effects (scheduler, executor) happen in the right order: nothing is
 * launched and no one is told before the commit. */
#ifndef SL_LIFECYCLE_H
#define SL_LIFECYCLE_H

#include "sluiced.h"

struct sl_exec_result;

/* Persist j's current record (opens the turn's transaction if needed). */
int sl_lifecycle_save(struct sluiced *d, struct sl_job *j, struct sl_err *err);
int sl_lifecycle_move(struct sluiced *d, struct sl_job *j, enum sl_jobstate to,
		      const char *reason, struct sl_err *err);

/* User and operator actions. */
int sl_lifecycle_cancel(struct sluiced *d, struct sl_job *j, uid_t by, struct sl_err *err);
/* The node went down under running job j (scontrol update State=DOWN): it
 * ends NODE_FAIL through the executor, which says so in its stderr. */
int sl_lifecycle_node_fail(struct sluiced *d, struct sl_job *j, struct sl_err *err);
int sl_lifecycle_signal(struct sluiced *d, struct sl_job *j, int sig, struct sl_err *err);
int sl_lifecycle_hold(struct sluiced *d, struct sl_job *j, int admin, struct sl_err *err);
int sl_lifecycle_release(struct sluiced *d, struct sl_job *j, struct sl_err *err);
/* scontrol requeue (hold 0) and requeuehold (hold 1): a running job is
 * stopped and comes back
 * pending when its end arrives; a finished one at once. Slurm's refusals:
 * pending, completing, --no-requeue. */
int sl_lifecycle_requeue(struct sluiced *d, struct sl_job *j, int hold, struct sl_err *err);
/* scontrol suspend / resume: the executor's suspend op (Kubernetes: the
 * object's spec.suspend), else SIGSTOP / SIGCONT to the job's processes
 * (local executor). The quota stays with
 * the job; the time it is suspended does not count against its limit. */
int sl_lifecycle_suspend(struct sluiced *d, struct sl_job *j, struct sl_err *err);
int sl_lifecycle_resume(struct sluiced *d, struct sl_job *j, struct sl_err *err);

/* Executor events. */
void sl_lifecycle_finished(struct sluiced *d, uint64_t id, const struct sl_exec_result *res);
/* All of the job's pods are ready: CONFIGURING -> RUNNING on nodelist. */
void sl_lifecycle_ready(struct sluiced *d, uint64_t id, const char *nodelist);

/* Load jobs at start: pending ones to the scheduler, running ones adopted
 * from their supervisors (or recorded as ended / requeued). */
int sl_lifecycle_recover(struct sluiced *d, struct sl_err *err);

/* The before-sleep hook: apply a scheduling cycle (preemptions first),
 * commit, launch, flush replies, forget finished jobs' directories. */
void sl_lifecycle_turn(struct sluiced *d);

#endif
