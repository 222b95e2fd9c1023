/* gates.h - the gates in front of the queue (DESIGN.md, section 2): a
 * pending job becomes a workload of the admission engine only when nothing
 * holds it back: a hold (-H, scontrol hold), a begin time still ahead
 * (--begin, a requeue's delay: reason BeginTime), or dependencies not met
 * (-d: Dependency, or DependencyNeverSatisfied, or cancelled with
 * --kill-on-invalid-dep). The rules of dependencies are libbatch/depend.c's;
 * this module looks the jobs up, keeps the waiting ones, and lets them
 * through. lifecycle.c calls it at each state change. */
#ifndef SL_GATES_H
#define SL_GATES_H

#include <stdint.h>
#include "sluiced.h"

struct sl_gates;

/* One per daemon, owned by the scheduler glue (schedule.c). */
struct sl_gates *sl_gates_new(struct sluiced *d);
void sl_gates_free(struct sl_gates *g);

/* A new job, before it is stored: its dependency (spec) checked against
 * the jobs it names, in Slurm's words ("Job dependency problem": a syntax
 * error or a job never known), and written to j->dependency as scontrol
 * prints it; its eligible time from --begin, or 0 (Slurm's "Unknown")
 * while a hold or a dependency keeps it back. */
int sl_gates_submit(struct sluiced *d, struct sl_job *j, struct sl_err *err);

/* j->dependency from text (scontrol update Dependency=; "" clears it), with
 * sl_gates_submit's checks. The caller then queues j again. */
int sl_gates_depend(struct sluiced *d, struct sl_job *j, const char *text, struct sl_err *err);

/* j, pending and out of the engine (new, released, requeued, updated,
 * recovered), may queue: into the engine now, or into the gates until they
 * open. A held job stays where it is. j may be cancelled here (an invalid
 * dependency with --kill-on-invalid-dep). */
int sl_gates_queue(struct sluiced *d, struct sl_job *j, struct sl_err *err);

/* j left the gates' care (held, cancelled, running): forget it. */
void sl_gates_forget(struct sluiced *d, uint64_t id);

/* j started, ended, was requeued or renamed: the jobs that wait on it are
 * looked at again in the coming turn. */
void sl_gates_touch(struct sluiced *d, const struct sl_job *j);

/* At the start of each loop turn (lifecycle.c): let through, or cancel,
 * what the touched jobs and the clock decided. */
void sl_gates_turn(struct sluiced *d);

/* scontrol requeue[hold]: remember that job id's coming end is a requeue,
 * not its end; sl_gates_requeued() takes the mark back (-1: none, else
 * the hold it asked for: 0 none, 1 requeuehold). */
void sl_gates_mark_requeue(struct sluiced *d, uint64_t id, int hold);
int sl_gates_requeued(struct sluiced *d, uint64_t id);

#endif
