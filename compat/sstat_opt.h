/* sstat_opt.h - sstat's options (Slurm 22.05's sstat/options.c) and its
 * job/step list. */
#ifndef SL_SSTAT_OPT_H
#define SL_SSTAT_OPT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "sstat_fmt.h"

struct sl_sstat_opts {
	int allsteps, helpformat, help, usage, version, noheader, noconvert, verbose, pidformat;
	enum sl_sstat_mode mode;
	char *fields; /* -o lists, joined; NULL: the default (or -i's) */
	char *jobs;   /* -j lists and operands, joined */
};

/* Parse argv. On error err->msg is the whole text sstat writes (no final
 * newline), *syntax set for getopt's; sstat exits 1. Caller clears. */
int sl_sstat_opts_parse(int argc, char **argv, struct sl_sstat_opts *o, int *syntax,
			struct sl_err *err);
void sl_sstat_opts_clear(struct sl_sstat_opts *o);
extern const char sl_sstat_usage[];
extern const char sl_sstat_help[];

/* One item of -j: a job, its array task (-1 none) and its step. */
enum { SL_SSTAT_STEP_NONE = -1, SL_SSTAT_STEP_BATCH = -2, SL_SSTAT_STEP_EXTERN = -3 };
struct sl_sstat_step {
	uint64_t id;
	long task;
	long step; /* SL_SSTAT_STEP_*, or a numbered step */
};
/* "241,241.batch,7.0": into *v (caller frees). err: Slurm's "Bad job/step
 * specified: X". */
int sl_sstat_steps_parse(const char *list, struct sl_sstat_step **v, size_t *n,
			 struct sl_err *err);

#endif
