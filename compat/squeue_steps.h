/* squeue_steps.h - squeue -s: the running steps of running jobs, in Slurm
 * 22.05's default step format ("%.15i %.8j %.9P %.8u %.9M %N"): each job's
 * srun steps, then its batch step. Pure: jobs and steps in, text out. */
#ifndef SL_SQUEUE_STEPS_H
#define SL_SQUEUE_STEPS_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "err.h"
#include "job.h"
#include "step.h"

#define SL_SQUEUE_STEP_FMT "%.15i %.8j %.9P %.8u %.9M %N"

/* jobs in any order; steps sorted by job then step (as sluiced sends
 * them). `only` ("N.S,N.batch", -s's list) keeps those; NULL: all. fmt:
 * -o's, with Slurm's step fields (%A %b %i %j %l %M %N %P %S %U %u; any
 * other is printed as written, as Slurm's); NULL: the default. -SL_EINVAL
 * for a format that does not parse. */
int sl_squeue_steps_fmt(struct sl_job **jobs, size_t n, const struct sl_step *steps, size_t ns,
			const char *only, const char *fmt, int noheader, int64_t now,
			struct sl_buf *b);


#endif
