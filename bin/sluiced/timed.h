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
/* The engine admitted j (lifecycle.c), checked here too so that no job
 * starts between sweeps past its deadline: 1 when it cannot end by its
 * --deadline from now and ended DEADLINE (reason DeadLine); else 0, and
 * a job with a deadline starts with no more time than it leaves: its
 * limit (none: unlimited) cut to the whole minutes before the deadline,
 * as Slurm's scheduler cuts it, in the store too (--time-min has been
 * checked: the job ended if even that does not fit). */
int sl_timed_admit(struct sluiced *d, struct sl_job *j, int64_t now);

#endif
