/* srun_opt.h - srun's command line as Slurm 22.05 reads it: one option
 * table for the flags and their input variables (SLURM_NTASKS, ...), Slurm's
 * syntax errors, and Sluice's refusal of what it does not do. Pure. */
#ifndef SL_SRUN_OPT_H
#define SL_SRUN_OPT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

/* What Slurm's srun says of --cpu-bind on a cluster without task/affinity,
 * which is what Sluice's executors are. */
#define SL_SRUN_NO_CPU_BIND "cluster configuration lacks support for cpu binding"

#define SL_SRUN_NODES_ZERO (-1)
#define SL_SRUN_GPUS_BAD (-1) /* a GPU count the controller refuses (srun_gpus.c) */

struct sl_srun_opts {
	int ntasks, nodes;        /* 0: not given; SL_SRUN_NODES_ZERO: -N 0 */
	int nodes_opt;            /* -N on the command line (not SLURM_JOB_NUM_NODES) */
	int nodes_max;            /* -N's maximum (its count unless a range); 0: none */
	int ntasks_opt;           /* -n on the command line */
	int ntasks_per_node;      /* 0: not given */
	int cpus_per_task;        /* 0: not given */
	char *gpu_bind;           /* --gpu-bind as given (SLURM_GPU_BIND); NULL: none */
	int ntasks_per_gpu;       /* --ntasks-per-gpu (SLURM_NTASKS_PER_GPU); 0: none */
	int gpus_per_task;        /* 0: not given (SLURM_GPUS_PER_TASK, a job's, too) */
	int gpus;                 /* -G, --gpus, SLURM_GPUS "[type:]N": the step's in all;
	                           * 0: not given; SL_SRUN_GPUS_BAD: unreadable */
	int gpus_per_node;        /* --gpus-per-node (SLURM_GPUS_PER_NODE), --gres=gpu:N */
	int gres_none;            /* --gres=none: the step holds none of the job's GPUs */
	int label, unbuffered, multi_prog, overlap, exact, quiet, verbose;
	int pty;                  /* --pty: task 0 on a pseudo-terminal */
	int kill_on_bad_exit;     /* -K: 1; -K0: 0; -1 not given */
	int wait_secs;            /* -W; 0: none */
	int relative;             /* -r; -1: not given */
	int64_t time_limit;       /* -t minutes; -1: not given */
	uint64_t jobid;           /* --jobid: a step in that running job; 0: not given */
	int help, usage, version;
	int test_only;            /* srun --test-only: when would an allocation start? */
	int mpi_list;             /* --mpi=list */
	int mpi_pmix;             /* --mpi=pmix (or pmix_v4): srun serves PMIx to the ranks */
	int mpi_pmi2;             /* --mpi=pmi2: srun serves PMI-1/PMI-2 to the ranks (srun_pmi2.c) */
	int mpi_given;            /* --mpi or SLURM_MPI_TYPE named one (else mpiDefault) */
	int cpu_bind_warn;        /* --cpu-bind given: srun says SL_SRUN_NO_CPU_BIND */
	char *cpu_bind;           /* --cpu-bind (SLURM_CPU_BIND) as given, the last one:
	                           * the tasks' SLURM_CPU_BIND* (slurm_bind.h) */
	int bind_help;            /* 1: --cpu-bind=help, 2: --mem-bind=help (srun.c answers) */
	int fatal_value;          /* a bad -N, -t or --mem: Slurm exits 255 for these (1 for
	                           * -n, -c, -W) */
	int open_append;          /* --open-mode: 1 append, 0 truncate, -1 not given */
	int quit_on_interrupt;    /* --quit-on-interrupt: the first Ctrl-C ends the step */
	int disable_status;       /* -X: each Ctrl-C goes to the tasks, no status */
	int overcommit;           /* -O / SLURM_OVERCOMMIT: more tasks than CPUs */
	int cyclic;               /* -m cyclic: tasks go round the nodes (else block) */
	char *dist;               /* -m as Slurm spells it back ("*" filled in), for
	                           * SLURM_DISTRIBUTION; NULL: not given */
	int step_exclusive;       /* --exclusive without a value: in an allocation, the
	                           * step's own CPUs (--exact, Slurm 22.05) */
	int64_t mem_mib;          /* --mem (per node), MiB; -1 not given */
	int64_t mem_per_cpu_mib;  /* --mem-per-cpu, MiB; -1 not given */
	char *nodelist;           /* -w (or -F): in an allocation, the step's nodes; a
	                           * host file's names once parsed */
	int nodefile;             /* parsing: nodelist is -F's host file */
	char *exclude;            /* -x: in an allocation, the job's nodes the step
	                           * leaves out */
	char *hint;               /* --hint, --threads-per-core and -m's socket and core
	                           * levels: placement hints with no meaning on Sluice's
	                           * executors (README), kept for -v */
	char *cpu_freq;           /* --cpu-freq as SLURM_CPU_FREQ_REQ writes it (a hint) */
	char *gpu_freq;           /* --gpu-freq as given: SLURMD_TRES_FREQ=gpu:... */
	int spec_warn;            /* -S (1) or --thread-spec (2) given: Slurm's lines for
	                           * AllowSpecResourcesUsage=No (srun.c prints them) */
	char *name, *out, *err, *in, *export_env, *chdir;
	char *clusters;           /* -M: the one cluster Sluice is (slurm_clusters.h) */
	char **alloc;             /* "--partition=P", ...: for the allocation srun or salloc
	                           * makes (sbatch's options); NULL: none */
	char *warn;               /* lines of Slurm's option checks that do not stop
	                           * srun ("srun: error: ...\n"), for it to print first;
	                           * NULL: none */
	char **argv;              /* the command (borrowed from argv), NULL-terminated */
	int argc;
};

/* Parse argv with the input variables of envp. On error err->msg is the
 * whole text srun prints (e.g. "srun: unrecognized option '--foo'\nTry
 * \"srun --help\" for more information") and *status its exit status
 * (255 for syntax, as Slurm; 1 for a refusal). The caller clears o with
 * sl_srun_opts_clear() in every case. */
int sl_srun_opts_parse(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
		       int *status, struct sl_err *err);
void sl_srun_opts_clear(struct sl_srun_opts *o);

/* salloc's command line into the same struct (the sizes of the
 * allocation, -J, -t, -D; o->argv is the command, maybe none), with
 * salloc's name in the messages. */
int sl_salloc_opts_parse(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
			 int *status, struct sl_err *err);

extern const char sl_srun_usage[];
extern const char sl_salloc_usage[];

#endif
