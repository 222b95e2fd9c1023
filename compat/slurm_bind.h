/* slurm_bind.h - Slurm's --cpu-bind, --mem-bind and --gpu-bind values
 * (slurm_verify_cpu_bind, slurm_verify_mem_bind, the gpu-bind check), for
 * srun. Sluice binds nothing: its local steps share this host's CPUs with
 * other jobs (binding one job's task 0 to CPU 0 would make every job's
 * task 0 queue on it) and a pod's binding is the kubelet's. So a valid
 * value is a placement hint with no effect, as on a Slurm cluster built
 * with TaskPlugin=task/none, and a bad one is refused in Slurm's words. */
#ifndef SL_SLURM_BIND_H
#define SL_SLURM_BIND_H

#include "err.h"

enum sl_bind_kind { SL_BIND_CPU, SL_BIND_MEM, SL_BIND_GPU };

/* 0 when arg is a valid value of the option; 1 when it asks for help
 * (cpu, mem); -SL_EINVAL with err->msg Slurm's error otherwise, without
 * the "PROG: error: " the caller adds before its first line. */
int sl_slurm_bind_check(const char *prog, enum sl_bind_kind kind, const char *arg,
			struct sl_err *err);

/* The SLURM_CPU_BIND, _LIST, _TYPE and _VERBOSE a step's tasks get for a
 * valid --cpu-bind value (slurmd's setup_env over what
 * slurm_verify_cpu_bind leaves): NULL when the value sets no flag
 * ("quiet"), and then the tasks get none. Caller frees with
 * sl_strv_free(). */
char **sl_slurm_cpu_bind_env(const char *arg);

/* --mem-bind=help's text, as Slurm 22.05 prints it. */
extern const char sl_slurm_mem_bind_help[];

#endif
