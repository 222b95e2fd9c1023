/* srun_pmi2.h - srun --mpi=pmi2 on this machine: the PMI server Slurm's
 * mpi/pmi2 plugin runs in slurmstepd, here in srun, for MPICH, MVAPICH2
 * and Intel MPI ranks (PMI-1 or PMI-2). Each task gets one end of a
 * socketpair as PMI_FD; the wire itself is compat/pmi2.c's, and srun's
 * poll loop moves the bytes. A rank's abort ends the step, as Slurm's
 * kill of the step does. */
#ifndef SRUN_PMI2_H
#define SRUN_PMI2_H

#include <poll.h>

#include "err.h"
#include "srun_layout.h"

struct srun_pmi2;

/* The server for l's step (PMI_JOBID "JOB.STEP"). 0, or -SL_E* with err. */
int srun_pmi2_start(struct srun_pmi2 **out, const struct sl_srun_layout *l, struct sl_err *err);
/* Before task t's fork: its socketpair, and PMI_FD, PMI_JOBID, PMI_RANK and
 * PMI_SIZE added to *env (an sl_strv). 0, or -SL_E* with err. */
int srun_pmi2_task(struct srun_pmi2 *p, int t, char ***env, struct sl_err *err);
/* In task t's child: its end of the pair survives the exec. */
void srun_pmi2_child(const struct srun_pmi2 *p, int t);
/* In srun once task t is forked (or failed to be): srun's copy of the
 * task's end closed, so that the task's exit reads as the end of its fd. */
void srun_pmi2_forked(struct srun_pmi2 *p, int t);
/* srun's poll loop: the server's ntasks entries (fd -1 for a rank gone). */
void srun_pmi2_poll(const struct srun_pmi2 *p, struct pollfd *pf);
/* The entries' events served. The rank that has just aborted the step,
 * once; -1 otherwise. */
int srun_pmi2_serve(struct srun_pmi2 *p, const struct pollfd *pf);
/* 1 once a rank aborted the step. */
int srun_pmi2_aborted(const struct srun_pmi2 *p);
/* Closes every fd; NULL is fine. */
void srun_pmi2_free(struct srun_pmi2 *p);

#endif
