/* slurm_env.h - the SLURM_* variables a batch script sees, valued as Slurm
 * 22.05 values them (reference.md section 1.9). Pure functions. */
#ifndef SL_SLURM_ENV_H
#define SL_SLURM_ENV_H

#include <stddef.h>
#include "job.h"

struct sl_slurm_env_in {
	const struct sl_job *job;        /* spec, ids, user, account, partition */
	const struct sl_jobshape *shape; /* nodes, tasks, cpus, gpus per node */
	const char *nodelist;            /* hostlist of the job's nodes: "vm", "vm-[0-1]" */
	const char *batch_host;          /* the node the script runs on */
	const char *cluster;             /* SLURM_CLUSTER_NAME; NULL: not set */
	int allocation;                  /* salloc's or srun's own allocation, not a
	                                  * batch script: no ENVIRONMENT, HOSTNAME */
	int pod;                         /* a Kubernetes pod: no HOSTNAME (its runtime
	                                  * sets the pod's own) */
};

/* The batch step's variables as "K=V", sorted by name, NULL-terminated.
 * Variables Slurm sets only for a given option (SLURM_NTASKS for -n,
 * SLURM_CPUS_PER_TASK for -c, SLURM_MEM_PER_NODE for --mem, ...) follow the
 * same rule. GPU jobs get SLURM_JOB_GPUS, CUDA_VISIBLE_DEVICES,
 * GPU_DEVICE_ORDINAL, ROCR_VISIBLE_DEVICES and ZE_AFFINITY_MASK numbered
 * from 0 (a container's view of its GPUs).
 * A batch script also gets ENVIRONMENT=BATCH and HOSTNAME, as slurmd's
 * setup_env() gives them. Left out on purpose: SLURM_TASK_PID (only the supervisor knows it),
 * SLURM_WORKING_CLUSTER (no slurmctld exists), SLURM_CONF (the executor
 * knows which file, if any, the job can read).
 * Caller frees with sl_strv_free(). */
char **sl_slurm_env_build(const struct sl_slurm_env_in *in);

/* Per-node counts in Slurm's compressed form: {2,2,1} -> "2(x2),1".
 * Writes at most len bytes including the NUL. */
void sl_slurm_env_fmt_counts(const int *v, size_t n, char *buf, size_t len);

/* `base` with every variable of `over` set: a same-named entry of base is
 * replaced in place, others are appended. Either may be NULL.
 * New array of copies; caller frees with sl_strv_free(). */
char **sl_slurm_env_merge(char *const *base, char *const *over);

#endif
