/* srun_gpu_bind.h - which of a step's GPUs on a node one task sees under
 * --gpu-bind (srun's, or the implied gpu:single:N of --ntasks-per-gpu and
 * gpu:per_task:N of --gpus-per-task), as Slurm 22.05's slurmstepd picks
 * them (gres.c _parse_tres_bind, _get_usable_gres) and the lines it
 * writes to the task's stderr on the way. Pure. */
#ifndef SL_SRUN_GPU_BIND_H
#define SL_SRUN_GPU_BIND_H

/* The binding of task `local` (SLURM_LOCALID) of node `host`, whose step
 * GPUs are the `on` devices idx[] (the node's device numbers, ascending).
 * bind is the --gpu-bind value without "gpu:". Fills use[i] (1: the task
 * sees GPU i) and returns 1, or returns 0 when the value names no binding
 * (none, or a word slurmstepd does not read): the task sees no GPU then.
 * *msg: slurmstepd's stderr lines for the task (caller frees), or NULL. */
int sl_srun_gpu_bind(const char *bind, const int *idx, int on, int local, const char *host,
		     int *use, char **msg);

#endif
