/* sbatch_testlib.h - sbatch's parse run on an argument list, for the unit
 * tests of sbatch's options (test_slurm_opt.c) and of its golden cases
 * (test_sbatch_golden.c). */
#ifndef SL_SBATCH_TESTLIB_H
#define SL_SBATCH_TESTLIB_H

#include <stdio.h>
#include <string.h>
#include "err.h"
#include "job.h"
#include "slurm_opt.h"

static char *base_env[] = {"HOME=/home/alice", "PATH=/usr/bin:/bin", "SLURM_CONF=/etc/x.conf",
			   NULL};

static inline void write_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

struct res {
	int rc;
	struct sl_jobspec spec;
	struct sl_sbatch_flags fl;
	struct sl_err err;
};

static inline void run(struct res *r, char **envp, int argc, char **argv)
{
	memset(r, 0, sizeof(*r));
	r->rc = sl_sbatch_parse(argc, argv, envp, &r->spec, &r->fl, &r->err);
}

static inline void done(struct res *r)
{
	sl_jobspec_clear(&r->spec);
	sl_sbatch_flags_clear(&r->fl);
}

#define RUN(r, envp, ...)                                                         \
	run(r, envp, (int)(sizeof((char *[]){"sbatch", __VA_ARGS__}) / sizeof(char *)), \
	    (char *[]){"sbatch", __VA_ARGS__, NULL})

#endif
