/* sacct_fmt.h - sacct's field table over struct sl_job: one row per job
 * plus its `N.batch` step row, with Slurm 22.05's names, default widths,
 * `+` truncation, and the -p/-P parsable forms. Pure: jobs in, text out. */
#ifndef SL_SACCT_FMT_H
#define SL_SACCT_FMT_H

#include <stdint.h>
#include "buf.h"
#include "err.h"
#include "job.h"
#include "step.h"

#define SL_SACCT_FIELDS_DEFAULT "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode"

enum sl_sacct_mode {
	SL_SACCT_TABLE = 0,  /* padded columns, each followed by a space */
	SL_SACCT_PARSABLE,   /* -p: "a|b|" */
	SL_SACCT_PARSABLE2,  /* -P: "a|b" */
};

struct sl_sacct_fmt;

/* Parse a -o list ("JobID,State%20"). Unknown field: SL_EINVAL with
 * `Invalid field requested: "X"`. Caller frees. */
int sl_sacct_fmt_new(const char *fields, struct sl_sacct_fmt **out, struct sl_err *err);
void sl_sacct_fmt_free(struct sl_sacct_fmt *f);
/* --delimiter: what -p/-P put between fields instead of '|' (copied). */
void sl_sacct_fmt_set_delimiter(struct sl_sacct_fmt *f, const char *delim);

/* --units=K|M|G|T|P (sizes in that unit), or '-' for --noconvert; 0 is
 * Slurm's default (the largest unit that keeps the number exact). */
void sl_sacct_fmt_set_units(struct sl_sacct_fmt *f, int unit);

/* The srun steps (N.0, N.1, ...) printed after each job's batch row:
 * borrowed until the last sl_sacct_fmt_job() call; sorted by job id,
 * then step id. */
void sl_sacct_fmt_set_steps(struct sl_sacct_fmt *f, const struct sl_step *steps, size_t n);

/* sacct -e: every field name, four a line, as Slurm lays them out. */
int sl_sacct_fields_help(struct sl_buf *b);

/* Whether sacct shows an N.batch row: the job started, and was not
 * cancelled before it got nodes (Slurm stamps such a job with a start
 * time, but it never ran a batch script). */
int sl_sacct_has_batch_step(const struct sl_job *j);

/* When the job became eligible, as slurmdbd has it: never (0) for a job
 * held (pending, or ended while held). */
int64_t sl_sacct_eligible(const struct sl_job *j);

/* Which of a job's srun steps get rows (-j N.S); NULL, the default: all.
 * DerivedExitCode is made of every step all the same. */
typedef int (*sl_sacct_step_filter)(const void *arg, const struct sl_job *j, int step);
void sl_sacct_fmt_set_filter(struct sl_sacct_fmt *f, sl_sacct_step_filter fn, const void *arg);
/* slurmctld's derived_ec of a job from its srun steps (those of `steps`,
 * sorted by job, those of j's run): the highest wait status, an exit
 * code over a signal; a cancelled step does not count (its srun never
 * reported an end). */
int sl_sacct_derived_status(const struct sl_step *steps, size_t n, const struct sl_job *j);
/* Step st is record j's: a requeued job's steps of earlier runs belong to
 * their REQUEUED records (sacct -D), as slurmdbd keeps each run's, so a
 * step is the record's when it started within the record's run (a job
 * never requeued: all of its steps; pending again: none). */
int sl_sacct_step_of_run(const struct sl_job *j, const struct sl_step *st);

struct sl_usage;
/* What record j's rows show of its use (compat/sacct_usage.c), given the
 * steps (any order; those of j's run count): *job the allocation's CPU
 * times, the whole job's, as slurmdbd sums its steps'; *batch the batch
 * step's own, the job's measured figures less what its srun steps measured
 * inside them (ntasks 0: no figures). Neither holds anything of its own to
 * free. */
void sl_sacct_usage_split(const struct sl_job *j, const struct sl_step *steps, size_t n,
			  struct sl_usage *job, struct sl_usage *batch);

/* The Cluster field's value (the config's clusterName); copied. */
void sl_sacct_fmt_set_cluster(struct sl_sacct_fmt *f, const char *name);

/* Whether the format prints field (case as in --helpformat, any case). */
int sl_sacct_fmt_uses(const struct sl_sacct_fmt *f, const char *field);
/* Whether the job's own row (-X) needs its steps: DerivedExitCode, and the
 * CPU times, which count the steps that ran outside the batch script (an
 * allocation of srun's or salloc's has only those). */
int sl_sacct_fmt_job_uses_steps(const struct sl_sacct_fmt *f);

/* Header line, plus the dash line in table mode. */
int sl_sacct_fmt_header(const struct sl_sacct_fmt *f, enum sl_sacct_mode mode,
			struct sl_buf *b);
/* The job's row and, when `rows` has SL_SACCT_ROWS_STEPS, its batch step
 * row (when it has one) and its srun steps' (those set); the NO_ bits leave
 * out its own row and its batch row (sacct -j N.S). */
#define SL_SACCT_ROWS_STEPS 0x1u
#define SL_SACCT_ROWS_NO_JOB 0x2u
#define SL_SACCT_ROWS_NO_BATCH 0x4u
int sl_sacct_fmt_job(const struct sl_sacct_fmt *f, const struct sl_job *j,
		     enum sl_sacct_mode mode, unsigned rows, int64_t now, struct sl_buf *b);

/* The batch step as sacct reports it: a signal makes it CANCELLED, a
 * non-zero exit FAILED. The job row of a cancelled or timed-out job keeps
 * ExitCode 0:0 (slurmdbd records it when the kill starts); the step
 * carries the signal (0:15). */
enum sl_jobstate sl_sacct_batch_state(const struct sl_job *j);
/* An srun step's, stored state: a running step of a suspended job is
 * SUSPENDED, as slurmdbd records its steps on scontrol suspend. */
enum sl_jobstate sl_sacct_step_state(const struct sl_job *j, enum sl_jobstate stored);
/* The job's state as slurmdbd holds it: CONFIGURING is a flag on
 * RUNNING; a cancel or a time limit being carried out is already its end
 * (CANCELLED, TIMEOUT) while the processes finish. */
enum sl_jobstate sl_sacct_job_state(const struct sl_job *j, int64_t now);

#endif
