/* srun_multiprog.h - srun --multi-prog's configuration file (Slurm 22.05's
 * multi_prog.c): one line per task range, "RANKS PROGRAM ARGS...", RANKS a
 * list of ids and ranges or "*"; in the words, %t is the task id and %o
 * its offset within the range. And the step id in -o/-e/-i patterns. Pure. */
#ifndef SL_SRUN_MULTIPROG_H
#define SL_SRUN_MULTIPROG_H

#include <stddef.h>
#include "err.h"

/* The argv of task t of ntasks from the file's text. Errors name the
 * file and line as srun does; a task no line covers is refused.
 * Caller frees *argv with sl_strv_free(). */
int sl_srun_multiprog_argv(const char *text, const char *path, int ntasks, int t,
			   char ***argv, struct sl_err *err);

/* Check that every task of ntasks has a line (srun refuses before any
 * task starts). */
int sl_srun_multiprog_check(const char *text, const char *path, int ntasks,
			    struct sl_err *err);

/* pat with every %s (the step id) and %J (JOB.STEP, as srun expands it)
 * replaced, %% kept for the pattern expander. Caller frees. */
char *sl_srun_pattern_step(const char *pat, unsigned long long job, unsigned step);

#endif
