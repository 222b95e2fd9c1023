/* scancel_opt.h - scancel's command line as Slurm 22.05 reads it (opt.c):
 * the option table, the job id forms, and the filters' wording. */
#ifndef SL_SCANCEL_OPT_H
#define SL_SCANCEL_OPT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "slurm_state.h"

/* What a signal reaches: client.h's sl_client_cancel() `batch_only`. */
enum sl_scancel_scope { SL_SCANCEL_STEPS = 0, SL_SCANCEL_BATCH, SL_SCANCEL_FULL };

struct sl_array;

struct sl_scancel_opts {
	int verbose, quiet, batch, full, interactive;
	int help, usage, version;
	int signal;          /* -s; 0: none given (terminate) */
	int filters;         /* -A -n -w -p -q -R -t -u --wckey given */
	int none;            /* a filter no Sluice job can pass (-R, --wckey, a
	                        state never reached) */
	char *account, *name, *nodelist, *partition, *qos, *reservation, *user, *wckey;
	char *clusters;      /* -M, as given (slurm_clusters.h checks it) */
	char state[32];      /* --state as Slurm names it ("COMPLETED"), or "" */
	struct sl_jobsel sel;
	/* ids Sluice answers itself: "N.S" (no job has steps yet) and
	 * "N+O" (none is heterogeneous), as typed */
	char **steps, **het;
	size_t n_steps, n_het;
	/* "N_[1-3,5]" as typed, and the tasks it names: scancel speaks of
	 * the word once, as Slurm does (one request per word there) */
	struct sl_scancel_word {
		char *word;
		uint64_t job;
		struct sl_array *set;
	} *words;
	size_t n_words;
};

/* Parse argv (options and job ids, mixed). On error, err->msg is the
 * whole text scancel writes on stderr (no final newline); *syntax says
 * "Try \"scancel --help\"..." follows. scancel exits 1. The caller clears
 * o with sl_scancel_opts_clear() in every case. */
int sl_scancel_opts_parse(int argc, char **argv, struct sl_scancel_opts *o, int *syntax,
			  struct sl_err *err);
void sl_scancel_opts_clear(struct sl_scancel_opts *o);
/* The bracket word ("N_[1-3]") array job's task belongs to; NULL: none. */
const struct sl_scancel_word *sl_scancel_word_of(const struct sl_scancel_opts *o, uint64_t job,
						 int task);

/* Slurm's has_default_opt(): only job ids (and -v, -Q, -f): each id is
 * killed as given, unknown and finished ones silently. */
int sl_scancel_plain(const struct sl_scancel_opts *o);
enum sl_scancel_scope sl_scancel_scope(const struct sl_scancel_opts *o);

/* "account=a job_name=n ... " for -v's "No active jobs match ALL job
 * filters, including: " (Slurm's order, each followed by a space). */
void sl_scancel_filters_text(const struct sl_scancel_opts *o, char *buf, size_t len);

/* The job type word of -v's lines: "", "batch " or "full ". */
const char *sl_scancel_job_type(const struct sl_scancel_opts *o);

extern const char sl_scancel_usage[];

#endif
