/* store_steps.h - job steps in the store (table `steps`, created on first
 * use), written in the loop turn's transaction like jobs, so a step id srun
 * prints survives kill -9 of sluiced. */
#ifndef SL_STORE_STEPS_H
#define SL_STORE_STEPS_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "step.h"
#include "store.h"

/* A new step of st->job_id with the next id (one past the job's last);
 * every field of st is written, st->step_id set. In the open transaction
 * (sl_store_begin first). */
int sl_store_step_insert(struct sl_store *s, struct sl_step *st, struct sl_err *err);
/* Who cancelled it (scancel N.S): the first one stays. */
int sl_store_step_cancelled(struct sl_store *s, uint64_t job, uint32_t step, uid_t by,
			    struct sl_err *err);
/* A requeue ended run `run` (1 for the first) of job: its steps move out
 * of the way (still listed, with their numbers), and the next run numbers
 * its own from 0, as slurmctld's. In the open transaction. */
int sl_store_steps_archive(struct sl_store *s, uint64_t job, int run, struct sl_err *err);
/* Its end: state, exit status, end time and what its tasks used
 * (st->use). -SL_ENOENT: no such step. */
int sl_store_step_end(struct sl_store *s, const struct sl_step *st, struct sl_err *err);
/* One step (-SL_ENOENT when absent). Clear with sl_step_clear(). */
int sl_store_step_get(struct sl_store *s, uint64_t job, uint32_t step, struct sl_step *out,
		      struct sl_err *err);
/* The steps of the listed jobs (n 0: all), only running ones with
 * running_only, in (job, step) order. Free with sl_step_free_array(). */
int sl_store_steps(struct sl_store *s, const uint64_t *jobs, size_t n, int running_only,
		   struct sl_step **out, size_t *nout, struct sl_err *err);

#endif
