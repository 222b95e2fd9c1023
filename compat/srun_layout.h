/* srun_layout.h - a job step's shape inside its allocation, as Slurm 22.05
 * lays it out: which nodes (-w, -r), how many tasks on each (block or
 * cyclic distribution),
 * each task's ids, CPUs and GPUs, Slurm's refusals when a step asks for
 * more than the job holds, and the variables every task sees. Pure: the
 * allocation comes from the batch environment, the ids from the caller. */
#ifndef SL_SRUN_LAYOUT_H
#define SL_SRUN_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "srun_opt.h"

/* What the job holds, read from its SLURM_* variables. */
struct sl_srun_alloc {
	uint64_t job_id;
	uint64_t array_job_id;    /* SLURM_ARRAY_JOB_ID; 0: not an array's task */
	uint32_t array_task_id;   /* SLURM_ARRAY_TASK_ID, with array_job_id */
	char **nodes;             /* SLURM_JOB_NODELIST expanded */
	size_t nnodes;
	char *host;               /* the local executor's host whose names the job's are
	                           * (HOST alone, HOST-N each of several): the cluster's
	                           * nodes are HOST and any HOST-N; NULL: names of
	                           * another form (a caller in a pod clears it) */
	int *cpus;                /* per node, SLURM_JOB_CPUS_PER_NODE expanded */
	char **gpus;              /* the job's on each node, SLURM_JOB_GPUS (else
	                           * CUDA_VISIBLE_DEVICES); NULL: no GPUs */
	size_t ngpus;
	int job_gpus, job_gpn, job_gpt; /* how the job asked for them (srun_gpus.h) */
};

struct sl_srun_task {
	int node;                 /* index into the step's nodes (SLURM_NODEID) */
	int local;                /* SLURM_LOCALID */
};

struct sl_srun_layout {
	uint64_t job_id;
	uint64_t array_job_id;    /* the alloc's: %A and %a of -o, -e, -i */
	uint32_t array_task_id;
	uint32_t step_id;
	int ntasks, nnodes, cpus_per_task; /* cpus_per_task 0: not asked */
	int gpus_per_task;
	int label;
	int mpi_pmix;             /* SLURM_MPI_TYPE=pmix in the tasks' environment */
	int mpi_pmi2;             /* SLURM_MPI_TYPE=pmi2 */
	char **nodes;             /* the step's, nnodes of them */
	int *tasks_on;            /* per step node */
	int *cpus_on;             /* the job's CPUs on each step node */
	struct sl_srun_task *task;
	char *nodelist;           /* the step's, compressed */
	char *job_nodelist;       /* the job's, compressed: SLURM_NODELIST (Slurm's
	                           * tasks see the job's there, the step's in
	                           * SLURM_STEP_NODELIST) */
	char *tasks_per_node;     /* "2(x2),1" */
	char *distribution;       /* SLURM_DISTRIBUTION: -m's, else Slurm's default
	                           * (cyclic when no node has two tasks, else block) */
	char **gpus;              /* the job's, borrowed from the alloc */
	size_t ngpus;
	int *gpus_on;             /* per step node: the step's GPUs there, the first of
	                           * gpus (srun_gpus.c); NULL: none to name */
	int gpus_none;            /* --gres=none: the tasks see no GPU */
	const char *gpu_bind;     /* --gpu-bind (SLURM_GPU_BIND), borrowed; NULL: none */
	int ntasks_per_gpu;       /* --ntasks-per-gpu (SLURM_NTASKS_PER_GPU); 0: none */
	int umask;                /* srun's, for SLURM_UMASK; -1: not set */
	int spank_pbs;            /* Slurm's spank_pbs runs in each task: the job
	                           * has it (an sbatch job, not a qsub one) */
	const char *cwd;          /* the tasks' directory (PBS_JOBDIR), borrowed */
	const char *cpu_freq;     /* SLURM_CPU_FREQ_REQ, borrowed from the opts; NULL: none */
	const char *cpu_bind;     /* --cpu-bind, borrowed: SLURM_CPU_BIND*; NULL: none */
	const char *gpu_freq;     /* SLURMD_TRES_FREQ=gpu:..., borrowed; NULL: none */
	int exact;                /* the step has its own CPUs only (--exact, -c) */
	int npn;                  /* --ntasks-per-node as it holds (0: none or dropped) */
	int no_dist;              /* no SLURM_DISTRIBUTION (a distribution Slurm's
	                           * srun leaves unknown) */
	/* what slurmstepd sets in every step, salloc's too: the user (the
	 * caller's to fill; uid -1: left out) and srun's nice value */
	long uid, gid;
	char user[64];
	int prio;
	/* srun's address and port, for SLURM_LAUNCH_NODE_IPADDR,
	 * SLURM_SRUN_COMM_HOST/PORT and SLURM_STEP_LAUNCHER_PORT (port 0:
	 * none set) */
	char launch_addr[64];
	int launch_port;
};

/* The allocation from envp (SLURM_JOB_ID, SLURM_JOB_NODELIST,
 * SLURM_JOB_CPUS_PER_NODE, SLURM_JOB_GPUS, ...). -SL_ENOENT: not inside
 * an allocation (no SLURM_JOB_ID). Clear with sl_srun_alloc_clear(). */
int sl_srun_alloc_from_env(char *const *envp, struct sl_srun_alloc *a, struct sl_err *err);
void sl_srun_alloc_clear(struct sl_srun_alloc *a);

/* Lay the step out in a. On refusal err->msg is srun's whole line (or
 * lines) and the step must not start. A warning Slurm prints and goes on
 * after ("can't run 2 processes on 9 nodes...") is written to *warn (a
 * malloc'd line, or NULL). Clear with sl_srun_layout_clear(). */
int sl_srun_layout_make(const struct sl_srun_opts *o, const struct sl_srun_alloc *a,
			struct sl_srun_layout *l, char **warn, struct sl_err *err);
void sl_srun_layout_clear(struct sl_srun_layout *l);

/* Task t's environment: base plus the step's and the task's variables
 * (SLURM_PROCID, SLURM_STEP_ID, ..., the step's GPUs: srun_gpus.h), and slurmstepd's (SLURM_CPUS_ON_NODE, the step's
 * CPUs on the task's node; SLURM_JOB_USER/UID/GID; TMPDIR when base has
 * none), and with spank_pbs its PBS_* (sl_pbs_env_spank). SLURM_TASK_PID
 * is left with room for the child to write its pid in. Caller frees with
 * sl_strv_free(). */
char **sl_srun_task_env(const struct sl_srun_layout *l, int t, char *const *base);

/* --export: the variables a task starts from. ALL (or unset): envp;
 * NONE: only SLURM_*; "ALL,A=1,B" or "A,B=2": the named ones (with their
 * values) over all or over SLURM_* only. Caller frees with sl_strv_free(). */
char **sl_srun_export(const char *spec, char *const *envp);

/* The digits of the widest task id, for -l's "%*d: " labels. */
int sl_srun_label_width(int ntasks);

#endif
