/* squeue_steps.h - squeue -s: the running steps of running jobs, in Slurm
 * 22.05's default step format ("%.15i %.8j %.9P %.8u %.9M %N"): each job's
 * srun steps, then its batch step. Pure: jobs and steps in, text out. */
#ifndef SL_SQUEUE_STEPS_H
#define SL_SQUEUE_STEPS_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "job.h"
#include "step.h"

/* jobs in any order; steps sorted by job then step (as sluiced sends
 * them). `only` ("N.S,N.batch", -s's list) keeps those; NULL: all. */
int sl_squeue_steps_fmt(struct sl_job **jobs, size_t n, const struct sl_step *steps, size_t ns,
			const char *only, int noheader, int64_t now, struct sl_buf *b);

#endif
