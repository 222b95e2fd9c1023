/* test_pbs_torque.c - qsub's Torque forms (compat/pbs_opt.c): the options
 * only Torque has make a Torque job, which gets its MOM's variables and
 * path expansion, and -t's subjob file suffixes (the split of qsub's
 * tests: test_pbs_opt.c has the options both PBSes share). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "job.h"
#include "pbs_env.h"
#include "pbs_job.h"
#include "pbs_opt.h"
#include "pbs_resource.h"
#include "script.h"
#include "tmpdir_testlib.h"
#include "xalloc.h"

#include "qsub_testlib.h"

/* Torque's own forms make a Torque job (its MOM's variables, pbs_env.c);
 * -d sends PBS_O_INITDIR and -w PBS_O_WORKDIR, made absolute against
 * qsub's directory, as the job's directory is. */
static void test_torque_forms(void **state)
{
	struct {
		char *opt, *arg;
		int torque;
	} forms[] = {
		{"-l", "nodes=2:ppn=4", 1}, {"-l", "procs=4", 1}, {"-t", "1-3", 1},
		{"-d", "/tmp", 1}, {"-w", "/tmp", 1}, {"-W", "x=NACCESSPOLICY:SINGLEJOB", 1},
		{"-l", "select=2:ncpus=4", 0}, {"-J", "1-3", 0}, {"-l", "walltime=10:00", 0},
	};
	struct res r;
	char *want;
	(void)state;

	write_file("t.sh", "#!/bin/sh\ntrue\n");
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		RUN(&r, base_env, forms[i].opt, forms[i].arg, "t.sh");
		assert_int_equal(r.rc, 0);
		if (r.spec.torque != forms[i].torque)
			fail_msg("qsub %s %s: torque %d", forms[i].opt, forms[i].arg,
				 r.spec.torque);
		done(&r);
	}
	RUN(&r, base_env, "-n", "t.sh");
	assert_int_equal(r.spec.torque, 1);
	assert_null(sl_pbs_env_get(r.spec.env, "PBS_O_INITDIR"));
	done(&r);
	RUN(&r, base_env, "-d", "sub", "t.sh");
	want = sl_xasprintf("%s/sub", r.spec.submit_dir);
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_INITDIR"), want);
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_WORKDIR"), r.spec.submit_dir);
	free(want);
	done(&r);
	RUN(&r, base_env, "-w", "/tmp/w", "t.sh");
	assert_string_equal(sl_pbs_env_get(r.spec.env, "PBS_O_WORKDIR"), "/tmp/w");
	assert_string_equal(r.spec.work_dir, "/tmp/w");
	assert_null(sl_pbs_env_get(r.spec.env, "PBS_O_INITDIR"));
	done(&r);
}

/* Torque's MOM expands the job's variables in -o/-e: its own ids as the
 * patterns the daemon fills in, HOME (a leading one is no relative path),
 * USER, what qsub sends (PBS_O_*, -v); one it would not have is refused.
 * OpenPBS's MOM expands none: a select job's "$PBS_JOBID" is its name. */
static void test_torque_path_vars(void **state)
{
	struct res r;
	char *want;
	(void)state;

	write_file("v.sh", "#!/bin/sh\n#PBS -N run\n#PBS -l nodes=1\ntrue\n");
	RUN(&r, base_env, "-o", "$PBS_JOBID.out", "-e", "${HOME}/e.$PBS_JOBNAME-$USER", "v.sh");
	assert_int_equal(r.rc, 0);
	want = sl_xasprintf("%s/%%j.head1.out", r.spec.submit_dir);
	assert_string_equal(r.spec.std_out, want);
	free(want);
	/* qsub's own $HOME, as Torque's qsub puts it (prepare_path.c:318) */
	const char *home = getenv("HOME");
	if (home == NULL || home[0] != '/')
		home = getpwuid(getuid())->pw_dir;
	want = sl_xasprintf("%s/e.run-%s", home, getpwuid(getuid())->pw_name);
	assert_string_equal(r.spec.std_err, want);
	free(want);
	done(&r);
	/* -v's value is the job's: a '%' in it is no pattern */
	RUN(&r, base_env, "-v", "TAG=a%x", "-o", "$PBS_O_WORKDIR/$TAG.log", "v.sh");
	assert_int_equal(r.rc, 0);
	want = sl_xasprintf("%s/a%%%%x.log", r.spec.submit_dir);
	assert_string_equal(r.spec.std_out, want);
	free(want);
	done(&r);
	/* a -t subjob's id N[I].SERVER, its name NAME-I, its index */
	RUN(&r, base_env, "-t", "1-2", "-o", "/tmp/$PBS_JOBNAME.$PBS_JOBID.$PBS_ARRAYID", "v.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.std_out, "/tmp/run-%a.%A[%a].head1.%a-%a");
	done(&r);
	RUN(&r, base_env, "-o", "/tmp/$NOPE.out", "v.sh");
	assert_int_equal(r.rc, -SL_EUNSUPP);
	assert_int_equal(r.fl.exit_code, 1);
	assert_string_equal(r.err.msg, "-o with $NOPE, which the job's environment does not hold, "
				       "is not supported by Sluice");
	done(&r);
	RUN(&r, base_env, "-e", "/tmp/$PBS_ARRAYID", "v.sh"); /* no array, no index */
	assert_int_equal(r.rc, -SL_EUNSUPP);
	done(&r);
	/* an OpenPBS job: the path as written */
	write_file("p.sh", "#!/bin/sh\n#PBS -l select=1:ncpus=1\ntrue\n");
	RUN(&r, base_env, "-o", "/tmp/$PBS_JOBID.out", "p.sh");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.spec.std_out, "/tmp/$PBS_JOBID.out");
	done(&r);
}

/* Torque's -t: job_clone() suffixes each subjob's Output_Path and
 * Error_Path with "-INDEX" (a file FILE gives FILE-1, FILE-2, ...), the
 * default NAME.oSEQ (default_std(): no index for "SEQ[]") too, and a
 * directory's default name; PBS Pro's -J keeps its files as they were. */
static void test_torque_array_paths(void **state)
{
	struct res r;
	char *want;
	(void)state;

	mkdir("tdir", 0755);
	write_file("t.sh", "#!/bin/sh\n#PBS -N tor\ntrue\n");
	RUN(&r, base_env, "-t", "1-3", "-o", "/tmp/res%1", "-e", "/tmp/err", "t.sh");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.spec.torque_array, 1);
	assert_string_equal(r.spec.std_out, "/tmp/res%%1-%a");
	assert_string_equal(r.spec.std_err, "/tmp/err-%a");
	done(&r);
	RUN(&r, base_env, "-t", "1-3", "t.sh");
	want = sl_xasprintf("%s/tor.o%%A-%%a", r.spec.submit_dir);
	assert_string_equal(r.spec.std_out, want);
	free(want);
	want = sl_xasprintf("%s/tor.e%%A-%%a", r.spec.submit_dir);
	assert_string_equal(r.spec.std_err, want);
	free(want);
	done(&r);
	RUN(&r, base_env, "-t", "1-3", "-j", "oe", "-o", "tdir", "t.sh");
	want = sl_xasprintf("%s/tdir/tor.o%%A-%%a", r.spec.submit_dir);
	assert_string_equal(r.spec.std_out, want);
	assert_null(r.spec.std_err);
	free(want);
	done(&r);
	/* the last of -t and -J wins, the files with it */
	RUN(&r, base_env, "-t", "1-3", "-J", "1-3", "-o", "/tmp/res", "t.sh");
	assert_int_equal(r.spec.torque_array, 0);
	assert_string_equal(r.spec.std_out, "/tmp/res");
	done(&r);
	RUN(&r, base_env, "-J", "1-3", "-t", "1-3", "-o", "/tmp/res", "t.sh");
	assert_int_equal(r.spec.torque_array, 1);
	assert_string_equal(r.spec.std_out, "/tmp/res-%a");
	done(&r);
	/* no array: -o is the file */
	RUN(&r, base_env, "-o", "/tmp/res", "t.sh");
	assert_string_equal(r.spec.std_out, "/tmp/res");
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torque_forms),
		cmocka_unit_test(test_torque_path_vars),
		cmocka_unit_test(test_torque_array_paths),
	};
	setenv("PBS_SERVER", "head1", 1);
	return cmocka_run_group_tests(tests, qsub_setup, qsub_teardown);
}
