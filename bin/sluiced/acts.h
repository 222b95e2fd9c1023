/* acts.h - what a request does to a running job's processes (scancel,
 * scontrol requeue, requeuehold, suspend), done once the client that asked
 * has its reply. A client inside the job (`scontrol requeue $SLURM_JOB_ID`
 * from a SIGUSR1 handler: PyTorch Lightning, submitit) then exits with its
 * status before the signals reach it, as with slurmctld, which replies and
 * leaves the kill to its agent. */
#ifndef SL_ACTS_H
#define SL_ACTS_H

#include <stdint.h>
#include "sluiced.h"

enum sl_act { SL_ACT_CANCEL, SL_ACT_REQUEUE, SL_ACT_SUSPEND, SL_ACT_RESUME };

struct sl_acts;

/* One per daemon (d->acts). Caller frees with sl_acts_free(), after
 * sl_acts_finish(). */
struct sl_acts *sl_acts_new(void);
void sl_acts_free(struct sl_acts *a);
/* The daemon stops: do what still waits, while the executor is there. A
 * kill -9 cannot: what the actions were for is on disk (COMPLETING, a
 * requeue mark, SUSPENDED), and each executor's adopt asks again. */
void sl_acts_finish(struct sluiced *d);

/* conn.c, around the handling of one request: the actions it asks for wait
 * for sl_acts_release(d, gate). Gate 0 (no request): they are done at once. */
void sl_acts_gate(struct sluiced *d, uint64_t gate);
/* Whether actions of gate wait. */
int sl_acts_waiting(const struct sluiced *d, uint64_t gate);

/* Do act on job id through the executor: at once outside a request (and a
 * resume), with its error; within one, a while after the release of its
 * gate (returns 0: a failure then is logged, and a requeue's mark taken
 * back). Either way after the actions on id that still wait, so that a
 * resume never overtakes its suspend. */
int sl_acts_do(struct sluiced *d, uint64_t id, enum sl_act act, struct sl_err *err);

/* The client of gate has taken its reply, or is gone: its actions are due
 * in a moment (acts.c: ACT_DELAY_MS), and after the commit. */
void sl_acts_release(struct sluiced *d, uint64_t gate);
/* Do the due actions, unless a transaction is open (lifecycle.c calls it
 * again after the commit). */
void sl_acts_pump(struct sluiced *d);

/* Job id ended: what waits for it is moot (a later run under the same id
 * must not be hit by it). */
void sl_acts_forget(struct sluiced *d, uint64_t id);

#endif
