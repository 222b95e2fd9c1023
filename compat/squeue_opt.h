/* squeue_opt.h - squeue's command line as Slurm 22.05 reads it (opts.c):
 * the option table, its SQUEUE_* variables, and Slurm's messages. */
#ifndef SL_SQUEUE_OPT_H
#define SL_SQUEUE_OPT_H

#include "err.h"
#include "slurm_state.h"

struct sl_squeue_opts {
	int noheader, longfmt, start, iterate, verbose;
	int noconvert;     /* --noconvert: sizes in MiB as given (2048M, not 2G) */
	int help, usage, version;
	int job_flag;      /* -j given, with or without a list */
	int jobs_none;     /* -j's list names no job (-j ""): nothing is listed */
	int users_given;   /* -u/--me given, even if no name resolved */
	int reservation;   /* -R: Sluice has none, so nothing matches */
	int array;         /* -r, SQUEUE_ARRAY: one line per array task */
	int array_unique;  /* --array-unique, SQUEUE_ARRAY_UNIQUE: pending tasks
			    * fold only with tasks of the same reason */
	int override;      /* -o -O -l --start: SQUEUE_FORMAT* are not read */
	int json;          /* --json 1, --yaml 2: every job as Slurm's /jobs/ document (squeue_json.c) */
	char *format;      /* -o or SQUEUE_FORMAT */
	char *format_long; /* -O or SQUEUE_FORMAT2 */
	char *sort;        /* -S or SQUEUE_SORT */
	char *clusters;    /* -M, as given (slurm_clusters.h checks it) */
	int steps;         /* -s: steps, not jobs */
	char *step_list;   /* -s's optional list ("N.S,..."); NULL: all */
	char warn[SL_ERR_MSG_MAX]; /* what squeue says and goes on (unknown users) */
	struct sl_jobsel sel;
};

/* Parse argv (and the environment). On error, err->msg is the whole text
 * squeue writes on stderr (lines, no final newline) and *syntax says
 * whether "Try \"squeue --help\"..." follows; *usage_too asks for the usage
 * text on stdout as well (an operand without -j). Exit code 1 either way.
 * The caller clears o with sl_squeue_opts_clear() in every case. */
int sl_squeue_opts_parse(int argc, char **argv, struct sl_squeue_opts *o, int *syntax,
			 int *usage_too, struct sl_err *err);
void sl_squeue_opts_clear(struct sl_squeue_opts *o);

/* squeue --usage. */
extern const char sl_squeue_usage[];

#endif
