/* srun_pmix.h - srun --mpi=pmix on this machine: a PMIx server in srun, so
 * that the ranks srun starts (OpenMPI and other PMIx clients) find each
 * other, as Slurm's mpi/pmix plugin does in slurmstepd. Every task of a
 * local step runs on this host, so one server holds them all: a fence is
 * complete when the local ranks have entered it. An MPI_Abort ends the
 * step and becomes srun's exit code, as in Slurm. */
#ifndef SRUN_PMIX_H
#define SRUN_PMIX_H

#include <stdint.h>

#include "err.h"

struct srun_pmix;

#ifdef SL_HAVE_PMIX
/* A server for step job.step of ntasks ranks (namespace
 * "slurm.pmix.JOB.STEP", Slurm's), its rendezvous files in a private
 * directory under tmpdir. An MPI_Abort writes {0, rank} (two ints) to
 * abort_fd. 0, or -SL_E* with err. */
int srun_pmix_start(struct srun_pmix **out, uint64_t job, uint32_t step, int ntasks,
		    const char *tmpdir, int abort_fd, struct sl_err *err);
/* Before task t's fork: registers it and adds its PMIX_* variables to *env
 * (an sl_strv). 0, or -SL_E* with err. */
int srun_pmix_task(struct srun_pmix *p, int t, char ***env, struct sl_err *err);
/* 1 with the status of the first MPI_Abort, or 0 when none came. */
int srun_pmix_aborted(const struct srun_pmix *p, int *status);
/* Stops the server and removes its directory; NULL is fine. */
void srun_pmix_free(struct srun_pmix *p);
#else
/* Built without libpmix: srun.c refuses --mpi=pmix before any step, so
 * these are never reached with a server to run. */
static inline int srun_pmix_start(struct srun_pmix **out, uint64_t job, uint32_t step,
				  int ntasks, const char *tmpdir, int abort_fd, struct sl_err *err)
{
	(void)job, (void)step, (void)ntasks, (void)tmpdir, (void)abort_fd;
	*out = NULL;
	return sl_err_set(err, SL_EUNSUPP, "srun: error: --mpi=pmix is not supported by Sluice");
}
static inline int srun_pmix_task(struct srun_pmix *p, int t, char ***env, struct sl_err *err)
{
	(void)p, (void)t, (void)env, (void)err;
	return 0;
}
static inline int srun_pmix_aborted(const struct srun_pmix *p, int *status)
{
	(void)p, (void)status;
	return 0;
}
static inline void srun_pmix_free(struct srun_pmix *p)
{
	(void)p;
}
#endif

#endif
