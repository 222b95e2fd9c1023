/* squeue_fmt.h - squeue's format codes (%i %P %j ...) and sort keys over
 * struct sl_job, printing exactly what Slurm 22.05's squeue prints. Pure
 * functions: jobs and `now` in, text out (the command writes it). */
#ifndef SL_SQUEUE_FMT_H
#define SL_SQUEUE_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "err.h"
#include "job.h"

#define SL_SQUEUE_FMT_DEFAULT "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"
#define SL_SQUEUE_FMT_LONG "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R"
#define SL_SQUEUE_FMT_START "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R"
#define SL_SQUEUE_SORT_DEFAULT "P,t,-p"

struct sl_squeue_fmt;

/* Parse a -o format against the code table. An unknown code fails with
 * SL_EINVAL and `Invalid job format specification: X`. Caller frees. */
int sl_squeue_fmt_new(const char *fmt, struct sl_squeue_fmt **out, struct sl_err *err);
/* The same, as squeue takes it: a letter it does not know gets Slurm's
 * line in warn ("squeue: error: Invalid job format specification: X") and
 * prints as written, and the listing goes on. */
int sl_squeue_fmt_new_warn(const char *fmt, struct sl_squeue_fmt **out, struct sl_buf *warn,
			   struct sl_err *err);
/* Parse an -O list ("jobid:.10,name:20|,state"): Slurm's names, any case;
 * 20 columns left-justified without a width. A name squeue does not know
 * does not fail, as in Slurm: it is left out and listed by
 * sl_squeue_fmt_skipped() for the command's error line. Caller frees. */
int sl_squeue_fmt_new_long(const char *fmt, struct sl_squeue_fmt **out, struct sl_err *err);
/* The i-th name -O left out (borrowed), NULL past the last; *known is 1
 * when Slurm knows it but Sluice has no value for it. */
const char *sl_squeue_fmt_skipped(const struct sl_squeue_fmt *f, size_t i, int *known);
void sl_squeue_fmt_free(struct sl_squeue_fmt *f);

/* --noconvert: MIN_MEMORY and MIN_TMP_DISK in MiB as asked ("2048M"),
 * not in the largest exact unit ("2G"). */
void sl_squeue_fmt_noconvert(struct sl_squeue_fmt *f);

/* Append the header line / one job's line (each ends in '\n'). */
int sl_squeue_fmt_header(const struct sl_squeue_fmt *f, struct sl_buf *b);
int sl_squeue_fmt_job(const struct sl_squeue_fmt *f, const struct sl_job *j, int64_t now,
		      struct sl_buf *b);

/* Order v as squeue -S spec does ("P,t,-p" when spec is NULL), the way
 * Slurm 22.05 gets there (squeue_sort.c): from ascending ids, by start
 * time newest first, then one stable pass per key, last key first; jobs
 * without a start time end each start pass last, in reverse. Unknown key:
 * SL_EINVAL with `Invalid sort specification: X`. */
int sl_squeue_sort(struct sl_job **v, size_t n, const char *spec, int64_t now,
		   struct sl_err *err);
/* The same from v's order as slurmctld gave it (sl_array_load_order), not
 * from ascending ids. */
int sl_squeue_sort_loaded(struct sl_job **v, size_t n, const char *spec, int64_t now,
			  struct sl_err *err);

/* Job arrays' pending tasks as squeue shows them without -r (and scontrol
 * show job): the pending tasks of one array with the same name and
 * partition become one record, Slurm's pending meta record, whose
 * array_tasks is their collapsed text ("2-3%2", array.h). It keeps the
 * place and the fields of the group's first task, and the reason of its
 * last, the one Slurm's meta record is. A lone pending task is collapsed
 * too when it is the array's last (Slurm's meta record holds it), else
 * shown as N_I. v is in id order (as the daemon lists); the records folded
 * in are freed, *n shrinks. A task split off the meta record (array_split,
 * a requeue) folds in only with SL_COLLAPSE_SQUEUE, as squeue merges it;
 * with SL_COLLAPSE_UNIQUE only tasks of the same reason fold together. */
enum sl_collapse {
	SL_COLLAPSE_SQUEUE, /* squeue: tasks split off fold back in */
	SL_COLLAPSE_UNIQUE, /* --array-unique: the meta's tasks of one reason */
	SL_COLLAPSE_META,   /* scontrol show job: the meta record's tasks alone */
};
void sl_squeue_collapse(struct sl_job **v, size_t *n, enum sl_collapse how);
/* squeue -r: Slurm prints a meta record's pending tasks one by one, in
 * task order, where the record sorts. v sorted: each run of pending tasks
 * of one array (name, partition) is put in task order. */
void sl_squeue_array_order(struct sl_job **v, size_t n);
/* squeue -r over a folded record (jobfilter.h's fold 2): one line per
 * task, in task order, each with its task and raw id (array.h), as
 * Slurm's squeue prints its meta record's tasks; other records: their
 * line. j is as it was after. -SL_ETOOBIG as sl_squeue_fmt_job. */
int sl_squeue_fmt_tasks(const struct sl_squeue_fmt *f, struct sl_job *j, int64_t now,
			struct sl_buf *b);
/* sacct: an array's folded pending record after its other tasks, as
 * slurmdbd lists them (the meta record is updated last). */
void sl_array_meta_last(struct sl_job **v, size_t n);
/* The records of one array as slurm_load_job(N) returns them (scontrol
 * show job N, squeue -j N): its pending meta record (the folded pending
 * tasks, or the last task, which has N) first, then the tasks split off
 * it, the last split first (slurmctld's array hash chain). v: one array's
 * records. */
void sl_array_load_order(struct sl_job **v, size_t n);

/* Seconds a job has run (squeue's job_time_used()). */
int64_t sl_squeue_time_used(const struct sl_job *j, int64_t now);

#endif
