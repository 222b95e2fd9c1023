/* slurm_willrun.h - --test-only's answer (sbatch, srun, salloc), as Slurm's
 * slurm_job_will_run() prints it: when the engine's plan would start the
 * job, where, and Sluice's two hints beyond Slurm (a shorter --time that
 * backfill would start now, another partition that would start it sooner). */
#ifndef SL_SLURM_WILLRUN_H
#define SL_SLURM_WILLRUN_H

#include "job.h"

/* Ask sluiced about spec (nothing is submitted) and print the answer on
 * stderr, each line prefixed "PROG: " (the hints of a refusal "PROG:
 * error: ", then slurm_perror's "allocation failure: ...", except when no
 * node could ever hold the job: Slurm's line first, then Sluice's hint);
 * quiet keeps the answer to itself. 0, or 1 when the job could not run. */
int sl_willrun_report(const char *prog, const struct sl_jobspec *spec, int quiet);

/* A refusal msg of hint lines (the policy's) then Slurm's answer: each
 * hint line on stderr as "PROG: error: LINE"; the answer, its last line,
 * back (in msg) for the caller's own words. */
const char *sl_slurm_hint_lines(const char *prog, const char *msg);

#endif
