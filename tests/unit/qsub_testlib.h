/* qsub_testlib.h - qsub's parse run on an argument list in a scratch
 * working directory, for the unit tests of qsub's options (test_pbs_opt.c)
 * and of Torque's forms (test_pbs_torque.c). */
#ifndef SL_QSUB_TESTLIB_H
#define SL_QSUB_TESTLIB_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "err.h"
#include "job.h"
#include "pbs_opt.h"
#include "tmpdir_testlib.h"

static char *base_env[] = {"HOME=/home/alice", "PATH=/usr/bin:/bin", "LOGNAME=alice",
			   "SHELL=/bin/bash", "LANG=C.UTF-8", "FOO=foo value", "PBS_SERVER=head1",
			   NULL};

/* The scratch directory is the working directory (setup), so a script
 * written here is found by the relative name qsub is given. */
static inline void write_file(const char *name, const char *text)
{
	free(tmpdir_write(name, text));
}

struct res {
	int rc;
	struct sl_jobspec spec;
	struct sl_qsub_flags fl;
	struct sl_err err;
};

static inline void run(struct res *r, char **envp, int argc, char **argv)
{
	memset(r, 0, sizeof(*r));
	r->rc = sl_qsub_parse(argc, argv, envp, &r->spec, &r->fl, &r->err);
}

#define RUN(r, envp, ...)                                                       \
	run(r, envp, (int)(sizeof((char *[]){"qsub", __VA_ARGS__}) / sizeof(char *)), \
	    (char *[]){"qsub", __VA_ARGS__, NULL})

static inline void done(struct res *r)
{
	sl_jobspec_clear(&r->spec);
}

/* qsub resolves a script and a relative -o/-e against the working
 * directory, so the tests run in the scratch one; with PWD unset the
 * submit directory is getcwd()'s, not the caller's $PWD. */
static inline int qsub_setup(void **state)
{
	if (tmpdir_setup(state) != 0 || chdir(tmpdir_path) != 0)
		return -1;
	unsetenv("PWD");
	return 0;
}

/* Out of the scratch directory before it goes. */
static inline int qsub_teardown(void **state)
{
	if (chdir("/") != 0)
		return -1;
	return tmpdir_teardown(state) == 0 ? 0 : -1;
}

#endif
