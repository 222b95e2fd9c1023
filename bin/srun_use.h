/* srun_use.h - what a local step's tasks use, measured by their srun, as
 * Slurm's slurmstepd measures a step's tasks (jobacct_gather/linux): each
 * task's process tree sampled from /proc for the peaks of its summed
 * resident and virtual size, and at its end wait4's rusage (CPU time, the
 * peak of its largest process, major faults) with its I/O read from the
 * zombie before it is reaped. The step's figures are then every task's,
 * one by one (usage.h's struct sl_usage_tasks), for its sacct row. */
#ifndef SRUN_USE_H
#define SRUN_USE_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "usage.h"

struct srun_use;

/* For a step of ntasks tasks; free with srun_use_free(). */
struct srun_use *srun_use_new(int ntasks);
void srun_use_free(struct srun_use *u);

/* Sample the live tasks (pid[t] > 0) when a sample is due at now_ms
 * (monotonic): the time the next one is due. The first comes a second
 * after the first call, then every 2 s, as the job's supervisor samples
 * the batch script. */
int64_t srun_use_sample(struct srun_use *u, const pid_t *pid, int64_t now_ms);
/* Task t's process has exited and is not yet reaped (waitid's WNOWAIT):
 * its I/O so far, which then includes what its reaped children did. */
void srun_use_exited(struct srun_use *u, int t, pid_t pid);
/* Task t has been reaped with this rusage. */
void srun_use_reaped(struct srun_use *u, int t, const struct rusage *ru);
/* The step's figures: CPU times summed, the tasks' figures one by one
 * (the reaped ones; none measured leaves *out zero). */
void srun_use_result(const struct srun_use *u, struct sl_usage *out);

#endif
