/* timed.h - what happens to jobs when a time comes, checked by one sweep
 * every SL_TIMED_MS: a pending job that can no longer end by its
 * --deadline ends (DEADLINE, reason DeadLine, as Slurm's deadline_ok()),
 * and a running job's --mail-type=TIME_LIMIT* mails go out. */
#ifndef SL_TIMED_H
#define SL_TIMED_H

#include "sluiced.h"

#define SL_TIMED_MS 5000

/* Arm the sweep (once, at start). */
void sl_timed_start(struct sluiced *d);
/* A pending job that cannot end by its --deadline from now ends DEADLINE
 * (reason DeadLine): 1 when it did, 0 when it may run. */
int sl_timed_deadline(struct sluiced *d, struct sl_job *j, int64_t now);
/* A job with a deadline starts with no more time than it leaves: its
 * limit (none: unlimited) cut to the whole minutes before the deadline, as
 * Slurm's scheduler cuts it; --time-min has been checked (above). The spec
 * in the store too. */
void sl_timed_deadline_limit(struct sluiced *d, struct sl_job *j, int64_t now);

#endif
