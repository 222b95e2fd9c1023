/* srun_alloc.h - a job allocation for srun outside a batch script and for
 * salloc, on the local executor: a job whose batch script only holds the
 * allocation (it sleeps until released), Slurm's waiting lines, the
 * allocation's SLURM_* variables for what runs in it, and its release with
 * the exit code of what ran (the job ends COMPLETED or FAILED with it);
 * and the two commands' common handling of their command line. */
#ifndef SRUN_ALLOC_H
#define SRUN_ALLOC_H

#include <stdint.h>
#include "err.h"
#include "job.h"

struct srun_alloc_req {
	const char *prog;         /* "srun" or "salloc": the prefix of its lines */
	int ntasks, nodes, cpus_per_task, ntasks_per_node, gpus_per_task; /* 0: not asked */
	int64_t time_limit;       /* minutes; -1: not asked */
	const char *name;         /* the job's name */
	char *const *extra;       /* more of sbatch's options ("--partition=P"); may be NULL */
	int salloc;               /* salloc's lines (Pending/Granted) */
	/* qsub -I: this spec (qsub's parse) holds the allocation instead of one
	 * built from the fields above (its script and output are replaced by
	 * the holder's), and PBS's lines are printed, the job named N.server. */
	struct sl_jobspec *spec;
	const char *pbs_server;
};

/* Submit the holder job and wait until it runs (Ctrl-C while it waits
 * revokes it). 0 with *job the running job (free with sl_job_free());
 * otherwise the exit status, Slurm's line printed. */
int srun_alloc_get(const struct srun_alloc_req *q, struct sl_job **job);

/* --test-only: when the allocation q asks for would start, printed as
 * Slurm's (slurm_willrun.h); nothing is submitted. The exit status. */
int srun_alloc_test(const struct srun_alloc_req *q, int quiet);

/* The variables of the allocation (as a batch script's, SLURM_JOB_NAME
 * included) over base; salloc's command gets only the job's, not those
 * of a task on a node (SLURM_PROCID, SLURMD_NODENAME, ...), as in Slurm.
 * Caller frees with sl_strv_free(). */
char **srun_alloc_env(const struct sl_job *j, char *const *base, int salloc);

/* Job id's record as sluiced has it now; NULL when it has none (or is not
 * reachable). Free with sl_job_free(). */
struct sl_job *srun_alloc_job(uint64_t id);

/* 1 once the job has ended (scancel, its time limit): it was revoked. */
int srun_alloc_gone(uint64_t id);

/* Release it: its script exits with rc, the job ends with it. */
void srun_alloc_release(uint64_t id, int rc);

/* srun's and salloc's (prog's) command line through parse
 * (compat/srun_opt.h): its error, --version, --help and a -M naming
 * another cluster end the program here. */
struct sl_srun_opts;
typedef int (*srun_parse_fn)(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
			     int *status, struct sl_err *err);
void srun_cmd_parse(const char *prog, srun_parse_fn parse, const char *usage, int argc,
		    char **argv, struct sl_srun_opts *o);

#endif
