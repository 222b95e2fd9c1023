/* test_stepd.c - sluice-stepd run for real on job directories (no daemon,
 * no fork server): output, exit codes, environment, time limit, cancel,
 * preemption, signal forwarding, launch failure, running as a user. The
 * fork server is test_stepd_server.c; the daemon's side test_exec_local.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jobdir.h"
#include "xalloc.h"
#include "decoy.h"
#include "stepd_testlib.h"

static void test_exit_code_env_args(void **state)
{
	char *dir = make_job("exit3", "#!/bin/bash\necho \"args=$1|$2|$#\"; echo FOO=$FOO;"
			     " echo id=$SLURM_JOB_ID; echo pid=$((SLURM_TASK_PID==$$)); pwd;"
			     " echo oops >&2; exit 3\n", 0, 1);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_int_equal(r.exit_code, 3);
	assert_int_equal(r.exit_signal, 0);
	assert_string_equal(r.reason, "NonZeroExitCode");
	assert_true(r.start_time > 0 && r.end_time >= r.start_time);
	char *out = output("exit3"), *want = sl_xasprintf("args=a|b c|2\nFOO=bar\nid=42\npid=1\n%s\noops\n", root);
	assert_string_equal(out, want);
	assert_true(exists(dir, SL_JOBDIR_STARTED) && exists(dir, SL_JOBDIR_PID));
	free(want);
	free(out);
	free(dir);
}

/* --acctg-freq task=0 (sample_secs -1): no sample while the job runs, so
 * no usage file; the default samples after a second. */
static void test_no_samples(void **state)
{
	char *dirs[2] = {make_job("nosample", "#!/bin/sh\nsleep 1.5\n", 0, 1),
			 make_job("sampled", "#!/bin/sh\nsleep 1.5\n", 0, 1)};
	char *text = NULL;
	struct sl_launch l;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_jobdir_read(dirs[0], SL_JOBDIR_SPEC, &text, &err), 0);
	assert_int_equal(sl_launch_from_json(text, &l, &err), 0);
	free(text);
	l.sample_secs = -1;
	text = sl_launch_to_json(&l);
	assert_int_equal(sl_jobdir_write(dirs[0], SL_JOBDIR_SPEC, text, strlen(text), 0600, 1, NULL),
			 0);
	free(text);
	sl_launch_clear(&l);
	for (int i = 0; i < 2; i++)
		assert_int_equal(wait_stepd(run_stepd(dirs[i])), 0);
	assert_false(exists(dirs[0], SL_JOBDIR_USAGE));
	assert_true(exists(dirs[1], SL_JOBDIR_USAGE));
	free(dirs[0]);
	free(dirs[1]);
}

/* A script its own signal ends: FAILED 0:9 with Reason=JobLaunchFailure,
 * as slurmctld's job_complete gives a signalled batch script. */
static void test_killed_by_signal(void **state)
{
	char *dir = make_job("sig9", "#!/bin/sh\nkill -9 $$\n", 0, 1);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(r.exit_signal, 9);
	assert_string_equal(r.reason, "JobLaunchFailure");
	assert_int_equal(r.launch_failed, 0); /* it ran: not sdiag's "Jobs failed" */
	free(dir);
}

static void test_completed_no_shebang(void **state)
{
	char *dir = make_job("plain", "echo plain $(basename $0)\n", 0, 1);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_COMPLETED);
	assert_int_equal(r.exit_code, 0);
	assert_string_equal(r.reason, "None");
	char *out = output("plain");
	assert_string_equal(out, "plain slurm_script\n"); /* slurmd's name */
	free(out);
	free(dir);
}

static void test_timeout(void **state)
{
	char *dir = make_job("timeout", "#!/bin/sh\necho before\nsleep 30\necho after\n", 1, 5);
	time_t t0 = time(NULL);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	assert_true(time(NULL) - t0 < 5);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_TIMEOUT);
	assert_string_equal(r.reason, "TimeLimit");
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(r.exit_signal, SIGTERM);
	char *out = output("timeout");
	assert_non_null(strstr(out, "before\nslurmstepd-vm: error: *** JOB 42 ON vm CANCELLED AT "));
	assert_non_null(strstr(out, " DUE TO TIME LIMIT ***\n"));
	assert_null(strstr(out, "after"));
	free(out);
	free(dir);
}

/* A job that ignores SIGTERM is killed killWait seconds later. */
static void test_timeout_kill_wait(void **state)
{
	char *dir = make_job("stubborn", "#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.1; done\n", 1, 1);
	time_t t0 = time(NULL);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	assert_true(time(NULL) - t0 >= 2 && time(NULL) - t0 < 6);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_TIMEOUT);
	assert_int_equal(r.exit_signal, SIGKILL);
	free(dir);
}

/* job.pgid once written: the script's group, and *st the script's start
 * time (sluiced tells a reused number by it). */
static pid_t job_pgid(const char *dir, unsigned long long *st)
{
	char *mark = NULL;
	int pgid = 0;
	wait_file(dir, SL_JOBDIR_PGID);
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_PGID, &mark, NULL), 0);
	assert_int_equal(sscanf(mark, "%d %llu", &pgid, st), 2);
	free(mark);
	return (pid_t)pgid;
}

static void signal_job(const char *name, int sig, enum sl_jobstate want, const char *tail)
{
	char *dir = make_job(name, "#!/bin/bash\necho up\nsleep 30 & wait\n", 0, 5);
	pid_t pid = run_stepd(dir);
	unsigned long long st = 0, now = 0;
	pid_t pgid = job_pgid(dir, &st);
	usleep(200000);
	assert_int_equal(sl_proc_starttime(pgid, &now), 0);
	assert_true(st == now && getpgid(pgid) == pgid);
	kill(pid, sig);
	assert_int_equal(wait_stepd(pid), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, want);
	assert_int_equal(r.exit_signal, SIGTERM);
	char *out = output(name);
	assert_non_null(strstr(out, "up\nslurmstepd-vm: error: *** JOB 42 ON vm CANCELLED AT 20"));
	assert_non_null(strstr(out, tail));
	free(out);
	free(dir);
}

static void test_cancel(void **state)
{
	signal_job("cancel", SIGTERM, SL_JOB_CANCELLED, " ***\n");
	char *out = output("cancel");
	assert_null(strstr(out, "DUE TO"));
	free(out);
}

static void test_preempt(void **state)
{
	signal_job("preempt", SIGUSR2, SL_JOB_PREEMPTED, " DUE TO PREEMPTION ***\n");
}

static void test_signal_forward(void **state)
{
	char *dir = make_job("usr1", "#!/bin/bash\ntrap 'echo got USR1; exit 7' USR1\n"
			     "echo up\nwhile :; do sleep 0.1; done\n", 0, 5);
	pid_t pid = run_stepd(dir);
	wait_file(dir, SL_JOBDIR_PGID);
	usleep(300000);
	union sigval v = {.sival_int = SIGUSR1};
	assert_int_equal(sigqueue(pid, SL_STEPD_SIG_FORWARD, v), 0);
	assert_int_equal(wait_stepd(pid), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_int_equal(r.exit_code, 7);
	char *out = output("usr1");
	/* the whole process group gets it: bash reports its killed sleep too */
	assert_non_null(strstr(out, "got USR1\n"));
	assert_int_equal(strncmp(out, "up\n", 3), 0);
	free(out);
	free(dir);
}

/* Reaped, the script's number (its pid, group and session) is free once the
 * rest of its group and session is gone, while the supervisor lingers over
 * what the job left elsewhere (here, after a cancel, a sleep in a session
 * of its own). A decoy of ours takes the number and leads a group with it:
 * neither scancel -b (forwarded to the script), nor --full (to the job's
 * group), nor the SIGKILL for the leftovers at the end may reach it. */
static void test_script_pid_reused(void **state)
{
	char *dir = make_job("reaped", "#!/bin/sh\nsetsid sleep 4 </dev/null >/dev/null 2>&1 &\n"
			     "exec sleep 30\n", 0, 2);
	unsigned long long st = 0;
	pid_t pid = run_stepd(dir), d = -1, pgid = job_pgid(dir, &st);
	usleep(200000);
	assert_int_equal(kill(pid, SIGTERM), 0); /* the script ends, the sleep lingers */
	for (int i = 0; i < 500 && kill(pgid, 0) == 0; i++)
		usleep(2000);
	if ((d = decoy_start(pgid, 1)) < 0) {
		assert_int_equal(wait_stepd(pid), 0);
		free(dir);
		skip();
	}
	union sigval v = {.sival_int = SIGUSR1 | SL_STEPD_FWD_SCRIPT};
	assert_int_equal(sigqueue(pid, SL_STEPD_SIG_FORWARD, v), 0);
	v.sival_int = SIGUSR1;
	assert_int_equal(sigqueue(pid, SL_STEPD_SIG_FORWARD, v), 0);
	usleep(300000);
	assert_int_equal(waitpid(d, NULL, WNOHANG), 0);
	assert_int_equal(wait_stepd(pid), 0); /* past KillWait: the leftovers' SIGKILL */
	assert_int_equal(waitpid(d, NULL, WNOHANG), 0);
	kill(d, SIGKILL);
	assert_int_equal(waitpid(d, NULL, 0), d);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_CANCELLED);
	free(dir);
}

/* The job's launch spec as make_job() wrote it, to be changed ... */
static void spec_read(const char *dir, struct sl_launch *l)
{
	char *text = NULL;
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_SPEC, &text, NULL), 0);
	assert_int_equal(sl_launch_from_json(text, l, NULL), 0);
	free(text);
}

/* ... and written back (l is cleared). */
static void spec_write(const char *dir, struct sl_launch *l)
{
	char *text = sl_launch_to_json(l);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, text, strlen(text), 0600, 1, NULL), 0);
	free(text);
	sl_launch_clear(l);
}

static void test_launch_failure(void **state)
{
	char *dir = make_job("nodir", "#!/bin/sh\necho x\n", 0, 1);
	/* point stdout into a directory that does not exist */
	struct sl_launch l;
	spec_read(dir, &l);
	free(l.std_out);
	l.std_out = sl_xstrdup("/nonexistent/dir/out.txt");
	spec_write(dir, &l);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_string_equal(r.reason, "JobLaunchFailure");
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(r.exit_signal, 53);
	/* the job's own file: sdiag counts it completed, not failed */
	assert_int_equal(r.launch_failed, 0);
	assert_false(exists(dir, SL_JOBDIR_PGID));
	free(dir);
}

static void test_bad_spec(void **state)
{
	char *dir = sl_xasprintf("%s/bad", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, "{\"version\":1}", 13, 0600, 1, NULL), 0);
	assert_int_equal(wait_stepd(run_stepd(dir)), 1);
	assert_false(exists(dir, SL_JOBDIR_STARTED));
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_string_equal(r.reason, "JobLaunchFailure");
	assert_int_equal(r.launch_failed, 1);
	free(dir);
}

/* Running as root, the job runs as the submitting user (nobody here). */
static void test_as_user(void **state)
{
	if (geteuid() != 0)
		skip();
	char *dir = make_job("nobody", "#!/bin/sh\nid -u; id -g\n", 0, 1);
	struct sl_launch l;
	spec_read(dir, &l);
	l.uid = 65534;
	l.gid = 65534;
	free(l.user);
	l.user = sl_xstrdup("nobody");
	spec_write(dir, &l);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_COMPLETED);
	char *out = output("nobody"), *p = sl_xasprintf("%s/nobody.out", root);
	assert_string_equal(out, "65534\n65534\n");
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_uid, 65534); /* created as the user */
	free(p);
	free(out);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_code_env_args),
		cmocka_unit_test(test_completed_no_shebang),
		cmocka_unit_test(test_killed_by_signal),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_timeout_kill_wait),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_signal_forward),
		cmocka_unit_test(test_script_pid_reused),
		cmocka_unit_test(test_launch_failure),
		cmocka_unit_test(test_bad_spec),
		cmocka_unit_test(test_as_user),
	};
	return cmocka_run_group_tests(tests, stepd_test_setup, stepd_test_teardown);
}
