/* slurm_reason.h - the names of Slurm's job state reasons, as commands
 * that take one by name (sacct -R) read them: case aside, exactly. */
#ifndef SL_SLURM_REASON_H
#define SL_SLURM_REASON_H

/* s's name as Slurm spells it, or NULL when Slurm knows no such reason. */
const char *sl_slurm_reason_name(const char *s);

#endif
