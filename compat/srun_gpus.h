/* srun_gpus.h - a job step's GPUs inside its allocation, as Slurm 22.05's
 * controller grants them out of the job's and slurmstepd's gres plugin
 * names them to each task: which of the job's GPUs the step holds on each
 * node, Slurm's refusals of a step asking more than the job holds, and
 * the tasks' GPU variables. Pure. */
#ifndef SL_SRUN_GPUS_H
#define SL_SRUN_GPUS_H

#include "err.h"
#include "srun_layout.h"
#include "srun_opt.h"

/* The count of a --gpus or --gpus-per-node value ("N", "type:N"), or with
 * gres set of a --gres value ("gpu", "gpu:N", "gpu:type:N"): 0 for a
 * --gres naming another resource, SL_SRUN_GPUS_BAD for what cannot be read. */
int sl_srun_gpu_count(const char *arg, int gres);

/* How the job asked for its GPUs, from its SLURM_GPUS, SLURM_GPUS_PER_TASK
 * and SLURM_NTASKS (a job with GPUs and none of these asked per node, with
 * --gres or --gpus-per-node), into a->job_gpus, job_gpn, job_gpt. */
void sl_srun_gpus_job(char *const *envp, struct sl_srun_alloc *a);

/* The step's GPUs on each of its nodes (l->gpus_on), once its tasks are
 * laid out; Slurm's refusal (err->msg, whole lines) when it asks for more
 * than the job holds. */
int sl_srun_gpus_place(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
		       struct sl_srun_layout *l, struct sl_err *err);

/* Task t's GPU variables ("K=V", NULL-terminated; NULL when the step has
 * no GPUs to name), its --gpu-bind's share of the step's. Caller frees
 * with sl_strv_free(). */
char **sl_srun_gpus_env(const struct sl_srun_layout *l, int t);

/* 1 when task t's binding names no GPU (--gpu-bind=none): slurmstepd
 * unsets the device variables the task would inherit. */
int sl_srun_gpus_unnamed(const struct sl_srun_layout *l, int t);

/* What slurmstepd writes to task t's stderr as it binds it (verbose lines,
 * its errors), or NULL. Caller frees. */
char *sl_srun_gpus_msg(const struct sl_srun_layout *l, int t);

/* env without the job's GPU variables, in place: all of them for
 * --gres=none (a step that holds no GPU), the device lists alone with
 * keep_count (a task bound to none keeps SLURM_GPUS_ON_NODE). */
void sl_srun_gpus_strip(char **env, int keep_count);

#endif
