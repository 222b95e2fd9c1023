/* sacct_opt.h - sacct's command line as Slurm 22.05 reads it (options.c),
 * and the selection slurmdbd derives from it: the -S/-E window with its
 * defaults (slurmdb_job_cond_def_start_end) and which jobs it lets
 * through (as_mysql_jobacct_process.c's conditions), so that sacct lists
 * exactly the jobs Slurm would. */
#ifndef SL_SACCT_OPT_H
#define SL_SACCT_OPT_H

#include <stdint.h>
#include "err.h"
#include "job.h"
#include "sacct_cond.h"
#include "sacct_fmt.h"
#include "slurm_state.h"

/* One -j entry: job (or array) id, task (-1: none) and step: a number,
 * SL_SACCT_STEP_BATCH ("N.batch"), or SL_SACCT_STEP_ALL (no step part). */
#define SL_SACCT_STEP_ALL (-1000)
#define SL_SACCT_STEP_BATCH (-5) /* Slurm's SLURM_BATCH_SCRIPT */
#define SL_SACCT_STEP_EXTERN (-4)
struct sl_sacct_step {
	uint64_t id;
	long task;
	int step;
};

struct sl_sacct_opts {
	int noheader, allusers, no_steps, verbose;
	int help, usage, version, helpformat;
	int brief, longfmt;
	int duplicates;        /* -D: each run a requeue ended too (REQUEUED) */
	int truncate;          /* -T: start and end cut to the window (sl_sacct_truncate) */
	int script_out;        /* bits: 1 -B (the batch scripts), 2 --env-vars (environments) */
	int json;              /* --json 1, --yaml 2: Slurm's /jobs/ document (sacct_json.c) */
	enum sl_sacct_mode mode;
	char *delimiter;       /* --delimiter */
	int unit;              /* --units / --noconvert: sl_sacct_fmt_set_units() */
	char *fields;          /* -o lists, joined */
	char *clusters;        /* -M, as given */
	int64_t start, end;    /* -S / -E as given (0: not given) */
	int64_t now;           /* what -S and -E's relative times count from */
	struct sl_jobsel sel;  /* -j -u -A -r --name -q -N -s */
	struct sl_sacct_cond cond; /* -g -i -I -k -K --reason */
	struct sl_sacct_step *steps; /* -j's entries, with their step parts */
	size_t n_steps;
};

/* Slurm's step_list: a job an entry names without a step shows whole (its
 * row and every step); one named only with steps shows just those steps
 * (sl_sacct_step_wanted), not its own row. */
int sl_sacct_show_full(const struct sl_sacct_opts *o, const struct sl_job *j);
int sl_sacct_step_wanted(const struct sl_sacct_opts *o, const struct sl_job *j, int step);

/* Parse argv. On error, err->msg is the whole text sacct writes on stderr
 * (no final newline) and *syntax says "Try --help" follows (getopt's
 * errors); sacct exits 1. The caller clears o with sl_sacct_opts_clear(). */
int sl_sacct_opts_parse(int argc, char **argv, int64_t now, struct sl_sacct_opts *o,
			int *syntax, struct sl_err *err);
void sl_sacct_opts_clear(struct sl_sacct_opts *o);

/* The field list sacct prints: -o (and -b/-l's), else SACCT_FORMAT, else
 * the default. Borrowed from o or the environment. Caller frees. */
char *sl_sacct_fields(const struct sl_sacct_opts *o);

/* The -S/-E window after Slurm's defaults. [start, end] end exclusive. */
struct sl_sacct_window {
	int64_t start, end;
	int by_state; /* -s given: each state has its own condition */
};
/* Slurm's defaults: with -s, start is now (with -j: 0) and end is start;
 * without, start is midnight (with -j: 0); end is now; an end equal to the
 * start or to now is one second later. A start after the end fails with
 * sacct's message. */
int sl_sacct_window(const struct sl_sacct_opts *o, int64_t now, struct sl_sacct_window *w,
		    struct sl_err *err);
/* Whether slurmdbd would return record j for this window (and the -s
 * states and o's conditions): a job's or one of its REQUEUED runs'. */
int sl_sacct_window_match(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
			  const struct sl_job *j);
/* The records of v (every job's, its REQUEUED runs' too: sl_jobfilter's
 * duplicates) slurmdbd returns, in their order: those the window holds,
 * and without -D only each job's newest of them. The rest are freed and
 * *n is the count kept. */
void sl_sacct_select(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
		     struct sl_job **v, size_t *n);

/* -T (slurmdbd without JOBCOND_FLAG_NO_TRUNC): j's start and end cut to
 * the window, whose end is now at the latest (the returned time, which
 * stands for now in what the caller prints); a job never started starts
 * and ends there. Steps are cut only when the window has a start. */
int64_t sl_sacct_truncate(const struct sl_sacct_window *w, int64_t now, struct sl_job *j);
void sl_sacct_truncate_step(const struct sl_sacct_window *w, int64_t now, int64_t *start,
			    int64_t *end);

/* The jobs in sacct's order: submit time, then id. */
void sl_sacct_sort(struct sl_job **v, size_t n);

/* sacct --usage / --help. */
extern const char sl_sacct_usage[];

#endif
