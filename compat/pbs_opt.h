/* pbs_opt.h - qsub's options, the command line and #PBS directives from one
 * table (optable.c), turned into the neutral job spec.
 *
 * Precedence is PBS's: the command line over directives; within each, the
 * last occurrence wins (-l per resource). Errors carry qsub's texts (after
 * "qsub: ") and exit statuses: 2 with the usage for what OpenPBS rejects
 * while parsing, 1 for Sluice's refusals ("-X is not supported by Sluice")
 * and script problems, PBS's error number's low byte for rejected values. */
#ifndef SL_PBS_OPT_H
#define SL_PBS_OPT_H

#include "err.h"
#include "job.h"

struct sl_qsub_flags {
	int quiet;      /* -z: print no job id */
	int block;      /* -W block=true: wait for the job, exit with its status */
	int interactive; /* -I: a shell here once the job runs (qsub.c) */
	/* Set when sl_qsub_parse() fails: */
	int exit_code;
	int usage;      /* also print qsub's usage */
};

/* qsub's usage text (OpenPBS src/cmds/qsub_sup.c:94), both lines. */
extern const char sl_qsub_usage[];

/* Parse qsub's argv with envp as the environment (PBS_DPREFIX, -V, -v and
 * the PBS_O_* variables qsub hands the job). Reads the script (a file, or
 * standard input without one), or builds it from "-- command args".
 * On success fills *out (initialised here; free with sl_jobspec_clear()).
 * On failure returns -SL_E* with err->msg the text after "qsub: " (lines
 * separated by '\n') and flags->exit_code set. */
int sl_qsub_parse(int argc, char **argv, char **envp, struct sl_jobspec *out,
		  struct sl_qsub_flags *flags, struct sl_err *err);

/* Internal to pbs_opt.c and pbs_optval.c: what the table's handlers
 * gather before the spec is finished. */
struct sl_pbs_optctx;
int sl_pbs_finish(struct sl_pbs_optctx *c, char **envp, struct sl_err *err);

#endif
