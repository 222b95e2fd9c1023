/* client_step.h - the job-step requests (PROTOCOL.md, types 24-27): srun
 * records its steps, sacct and squeue -s read them, scancel N.S signals
 * one. Each call connects, asks and disconnects. */
#ifndef SL_CLIENT_STEP_H
#define SL_CLIENT_STEP_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "step.h"

/* A new step of job s->job_id as the caller (its uid must be the job's,
 * and the job running): s->name, ntasks, nnodes, cpus, nodelist are
 * recorded with the start time and the caller's pid; *step_id is its id. */
int sl_client_step_create(const struct sl_step *s, uint32_t *step_id, struct sl_err *err);
/* Its end: s->state, exit_code, exit_signal (job_id and step_id name it). */
int sl_client_step_end(const struct sl_step *s, struct sl_err *err);
/* The steps of the listed jobs (n 0: every running step). Caller frees
 * with sl_step_free_array(). */
int sl_client_steps(const uint64_t *jobs, size_t n, int running_only, struct sl_step **out,
		    size_t *nout, struct sl_err *err);
/* sstat of a running step: its tasks' use now, and the node (caller frees
 * *node). Errors as sl_client_stat()'s, -SL_ESTATE for a step that is not
 * running. */
struct sl_usage;
int sl_client_step_stat(uint64_t job, uint32_t step, struct sl_usage *u, char **node,
			struct sl_err *err);
/* srun in a pod, which sluiced cannot signal: the signals scancel queued
 * for its step since it last asked (0: cancel), in order (caller frees
 * *sigs). */
int sl_client_step_take(uint64_t job, uint32_t step, int **sigs, size_t *n, struct sl_err *err);
/* Signal every task of step job.step (sig 0: cancel the step). */
int sl_client_step_signal(uint64_t job, uint32_t step, int sig, struct sl_err *err);

#endif
