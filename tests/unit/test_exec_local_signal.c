/* test_exec_local_signal.c - exec_local_signal.c on the real loop and the
 * real sluice-stepd: cancel and signals, their scope (the script or its
 * group), a supervisor named by a pid that may have been reused, a cancel
 * before the supervisor is ready, and one whose launch answer was lost
 * (the signal kept until stepd.pid names the supervisor). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec_local.h"
#include "logincache.h"
#include "loop.h"
#include "jobdir.h"
#include "stepd_spawner.h"
#include "xalloc.h"
#include "stepd_testlib.h"

/* Job id started with script and running it: its script's process group
 * is there (job.pgid) and has had a moment to set its traps. The job's
 * directory into *dir (caller frees). */
static struct sl_job *start_running(struct sl_exec_local *x, uint64_t id, const char *script,
				    char **dir)
{
	struct sl_job *j = make_record(id, script, 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	*dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)id);
	wait_file(*dir, SL_JOBDIR_PGID);
	usleep(300000);
	return j;
}

static void test_exec_local_cancel_signal(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	char *dir;
	struct sl_job *j = start_running(x, 102, "#!/bin/bash\ntrap 'echo got HUP' HUP\necho up\n"
					 "while :; do sleep 0.1; done\n", &dir);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_signal(x, 102, SIGHUP, &err), 0);
	usleep(300000);
	assert_int_equal(sl_exec_local_cancel(x, 102, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_CANCELLED);
	char *p = sl_xasprintf("%s/rec-102-vm.out", root), *out = slurp(p);
	assert_non_null(out);
	assert_non_null(strstr(out, "up\ngot HUP\nslurmstepd-vm: error: *** JOB 102 ON vm CANCELLED AT "));
	sl_exec_local_forget(x, 102);
	free(out);
	free(p);
	free(dir);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

/* scancel -s USR1 -b reaches the batch script and not its children (the
 * script's background subshell); --full (SL_SIGNAL_GROUP) reaches both. */
static void test_exec_local_signal_scope(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	char *dir;
	struct sl_job *j = start_running(x, 104, "#!/bin/bash\ntrap 'echo shell got USR1' USR1\n"
					 "(trap 'echo child got USR1' USR1; while :; do sleep 0.1; done) &\n"
					 "echo up\nwhile :; do sleep 0.1; done\n", &dir);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_signal(x, 104, SIGUSR1, &err), 0);
	usleep(400000);
	char *p = sl_xasprintf("%s/rec-104-vm.out", root), *out = slurp(p);
	assert_non_null(out);
	assert_string_equal(out, "up\nshell got USR1\n");
	free(out);
	assert_int_equal(sl_exec_local_signal(x, 104, SIGUSR1 | SL_SIGNAL_GROUP, &err), 0);
	usleep(400000);
	out = slurp(p);
	assert_non_null(strstr(out, "child got USR1"));
	assert_int_equal(sl_exec_local_signal(x, 999, SIGUSR1, &err), -SL_ENOENT);
	assert_int_equal(sl_exec_local_cancel(x, 104, &err), 0);
	run_until_finished(loop);
	sl_exec_local_forget(x, 104);
	free(out);
	free(p);
	free(dir);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}


/* in_daemon's: adopt job *arg and cancel it. */
static int adopt_cancel(struct sl_exec_local *x, struct evlog *e, void *arg)
{
	uint64_t id = *(const uint64_t *)arg;
	struct sl_err err = SL_ERR_INIT;
	if (sl_exec_local_adopt(x, make_record(id, "#!/bin/sh\n", 1), &err) != 0)
		return 3;
	return sl_exec_local_cancel(x, id, &err) == 0 ? 0 : 4;
}

/* A daemon without pidfd_open adopts job id, whose lock we hold and whose
 * stepd.pid names pid with start time st, and cancels it: the child's exit
 * code (77: no seccomp here). */
static int adopt_cancel_no_pidfd(uint64_t id, pid_t pid, unsigned long long st)
{
	char *text = sl_xasprintf("%d %llu fwd-script\n", (int)pid, st);
	char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)id);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_PID, text, strlen(text), 0644, 0, NULL), 0);
	int rc = in_daemon(stepd_path, 1, adopt_cancel, &id);
	free(dir);
	free(text);
	return rc;
}

/* Adopted after a restart by a daemon without pidfd_open: the supervisor
 * that stepd.pid names has exited and its pid gone to another process (a
 * sleep of ours, one tick younger than stepd.pid says). A cancel signals
 * the pid only while the start time matches: it spares the sleep, and ends
 * it once stepd.pid gives its true start time. */
static void test_adopt_pid_reused(void **state)
{
	for (int right = 0; right < 2; right++) {
		uint64_t id = 210 + (uint64_t)right;
		char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)id);
		char *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
		unsigned long long st = 0;
		int ws = 0;
		assert_int_equal(mkdir(dir, 0711), 0);
		int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0); /* "its supervisor runs" */
		pid_t sleeper = fork();
		if (sleeper == 0) {
			execl("/bin/sleep", "sleep", "30", (char *)NULL);
			_exit(127);
		}
		assert_int_equal(sl_proc_starttime(sleeper, &st), 0);
		int rc = adopt_cancel_no_pidfd(id, sleeper, right ? st : st - 1);
		if (rc == 77) {
			kill(sleeper, SIGKILL);
			waitpid(sleeper, NULL, 0);
			skip();
		}
		assert_int_equal(rc, 0);
		if (right) {
			assert_int_equal(waitpid(sleeper, &ws, 0), sleeper);
			assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM);
		} else {
			usleep(100000);
			assert_int_equal(waitpid(sleeper, &ws, WNOHANG), 0);
			kill(sleeper, SIGKILL);
			assert_int_equal(waitpid(sleeper, NULL, 0), sleeper);
		}
		close(fd);
		free(lock);
		free(dir);
	}
}

/* A process of ours, sleeping, that leads its own process group: as the
 * job's script would, or a stranger that took its number. */
static pid_t group_leader(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		(void)setpgid(0, 0);
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	assert_true(pid > 0);
	for (int i = 0; i < 500 && getpgid(pid) != pid; i++)
		usleep(10000);
	assert_int_equal(getpgid(pid), pid);
	return pid;
}

/* job.pgid names the group of `leader` with a start time: its own (right),
 * or one tick off, as when the number has gone to another process since.
 * The daemon signals the number only in the first case: SIGKILL to the
 * group for a supervisor that died mid-run (adopted: outcome), SIGTERM to
 * the script for scancel -b without a supervisor that forwards it. */
static void test_adopt_pgid_reused(void **state)
{
	for (int c = 0; c < 4; c++) {
		int right = c & 1, died = c >> 1;
		uint64_t id = 230 + (uint64_t)c;
		char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)id);
		char *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
		unsigned long long st = 0;
		int ws = 0, fd = -1;
		assert_int_equal(mkdir(dir, 0711), 0);
		pid_t leader = group_leader();
		assert_int_equal(sl_proc_starttime(leader, &st), 0);
		char *pgid = sl_xasprintf("%d %llu\n", (int)leader, right ? st : st - 1);
		assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_PGID, pgid, strlen(pgid), 0644, 0, NULL), 0);
		assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_STARTED, "1700000000\n", 11, 0644, 0, NULL), 0);
		if (!died) { /* "its supervisor runs", one from before it forwarded -b */
			fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
		}
		struct sl_loop *loop = sl_loop_new();
		struct evlog e = {0};
		struct sl_exec_local *x = new_exec(loop, &e);
		struct sl_job *j = make_record(id, "#!/bin/sh\n", 1);
		struct sl_err err = SL_ERR_INIT;
		assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
		if (died) {
			run_until_finished(loop);
			assert_int_equal(e.res.state, SL_JOB_NODE_FAIL);
		} else {
			assert_int_equal(sl_exec_local_signal(x, id, SIGTERM, &err), 0);
		}
		if (right) {
			assert_int_equal(waitpid(leader, &ws, 0), leader);
			assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == (died ? SIGKILL : SIGTERM));
		} else {
			usleep(100000);
			assert_int_equal(waitpid(leader, &ws, WNOHANG), 0);
			kill(leader, SIGKILL);
			assert_int_equal(waitpid(leader, NULL, 0), leader);
		}
		if (fd >= 0)
			close(fd);
		sl_exec_local_forget(x, id);
		sl_job_free(j);
		sl_exec_local_free(x);
		sl_loop_free(loop);
		free(pgid);
		free(lock);
		free(dir);
	}
}

enum launch_case {
	DECOY,     /* the decoy server: the pid it answers with is a decoy's */
	STARTED,   /* the real one: the job runs, stepd.pid written */
	UNWRITTEN, /* the same, stepd.pid emptied as before it is written */
};

struct launch {
	uint64_t id;
	enum launch_case how;
	char *mark, *dir;         /* the decoy server's file; the job's directory */
};

/* in_daemon's: start job l->id and cancel it, at once after the launch's
 * answer for a DECOY, else once the job runs. 0 when the decoy lived
 * through the cancel, or the job ended CANCELLED; 77: no decoy here. */
static int launch_cancel(struct sl_exec_local *x, struct evlog *e, void *arg)
{
	const struct launch *l = arg;
	struct sl_err err = SL_ERR_INIT;
	pid_t d = 0;
	int rc = 0;
	if (sl_exec_local_start(x, make_record(l->id, "#!/bin/sh\nsleep 30\n", 1), &err) != 0)
		return 3;
	if (l->how != DECOY) {
		uint64_t t = sl_loop_add_timer(e->loop, 500, on_deadline, NULL);
		sl_loop_run(e->loop); /* the answer, and the job under way */
		sl_loop_del_timer(e->loop, t);
		if (!exists(l->dir, SL_JOBDIR_PID))
			return 8;
	}
	if (l->how == UNWRITTEN && sl_jobdir_write(l->dir, SL_JOBDIR_PID, "\n", 1, 0644, 0, NULL) != 0)
		return 9;
	if (sl_exec_local_cancel(x, l->id, &err) != 0)
		return 4;
	if (l->how == DECOY) {
		if ((d = decoy_pid(l->mark)) == 0)
			return 77;
		usleep(200000);
		rc = waitpid(d, NULL, WNOHANG) == 0 ? 0 : 5;
		(void)kill(d, SIGKILL);
		(void)waitpid(d, NULL, 0);
	}
	run_until_finished(e->loop);
	if (e->finished != 1)
		return 6;
	return rc != 0 || l->how == DECOY || e->res.state == SL_JOB_CANCELLED ? rc : 7;
}

/* A launch answered with the end pipe but no pidfd names its supervisor by
 * pid alone. The decoy server makes that pid a reused one: its child dies
 * and a decoy, not the server's child, takes its pid, before the answer. A
 * cancel at once spares the decoy, whether the daemon can open a pidfd by
 * that pid (it would name the decoy) or only kill it. A supervisor alive
 * still gets the cancel, proven by stepd.pid's start time or, before that
 * is written, by its end pipe, still open. */
static void test_launch_pid_reused(void **state)
{
	static const struct {
		enum launch_case how;
		int no_pidfd;
	} cases[] = {{DECOY, 0}, {DECOY, 1}, {STARTED, 1}, {UNWRITTEN, 1}};
	if (access(hooked_path, X_OK) != 0)
		skip();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct launch l = {220 + i, cases[i].how, NULL, NULL};
		l.mark = sl_xasprintf("%s/decoy-%llu", root, (unsigned long long)l.id);
		l.dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)l.id);
		if (l.how == DECOY)
			setenv("SL_TEST_DECOY", l.mark, 1); /* the server started next takes it */
		int rc = in_daemon(l.how == DECOY ? hooked_path : stepd_path, cases[i].no_pidfd,
				   launch_cancel, &l);
		unsetenv("SL_TEST_DECOY");
		free(l.mark);
		free(l.dir);
		if (rc == 77)
			skip();
		assert_int_equal(rc, 0);
	}
}

/* A new supervisor held before it takes over its signals (stepd_window.c),
 * forked by the server, or, with SL_TEST_NOFORK, exec'd by the daemon
 * because the server could not fork. */
struct unready {
	uint64_t id;
	int nofork;
	const char *hold;         /* $SL_TEST_WINDOW */
};

/* in_daemon's: start job u->id and cancel it at once. The server's answer
 * is still due, and the cancel reads it (and execs the supervisor if it
 * says the fork failed) before it signals the supervisor, which is not
 * ready: the signal must wait for it. 0 when the job ended CANCELLED and
 * its script never ran; 8 when the supervisor was never held unready; 10 +
 * the state it ended in otherwise. */
static int cancel_unready(struct sl_exec_local *x, struct evlog *e, void *arg)
{
	const struct unready *u = arg;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = make_record(u->id, "#!/bin/sh\necho ran\n", 1);
	char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)u->id);
	char *out = sl_xasprintf("%s/rec-%llu-vm.out", root, (unsigned long long)u->id);
	pid_t held;
	int rc = 3;
	setenv("SL_TEST_WINDOW", u->hold, 1); /* for the server started next */
	if (u->nofork)
		setenv("SL_TEST_NOFORK", "1", 1);
	if (sl_exec_local_start(x, j, &err) != 0 || (rc = 4, sl_exec_local_cancel(x, u->id, &err)) != 0)
		goto out;
	rc = 5;
	if (exists(dir, SL_JOBDIR_PID))
		goto out; /* it was ready: this tells nothing */
	rc = 8; /* the supervisor never reached its hold: no window was tested */
	if ((held = window_held(u->hold, 0)) == 0)
		goto out;
	window_release(u->hold, held);
	run_until_finished(e->loop);
	rc = e->finished != 1 ? 6 : e->res.state != SL_JOB_CANCELLED ? 10 + (int)e->res.state
	     : access(out, F_OK) == 0 ? 7 : 0;
out:
	sl_job_free(j);
	free(out);
	free(dir);
	return rc;
}

/* sluiced cancels a job whose launch it has not heard back about: through
 * the fork server, and exec'd after the server could not fork. Neither
 * supervisor is ready for the SIGTERM; the job ends CANCELLED and never
 * runs (it used to be PENDING, NotStarted: requeued). */
static void test_cancel_unready(void **state)
{
	if (access(hooked_path, X_OK) != 0)
		skip();
	char *hold = sl_xasprintf("%s/hold", root);
	assert_int_equal(mkdir(hold, 0755), 0);
	for (int nofork = 0; nofork < 2; nofork++) {
		struct unready u = {240 + (uint64_t)nofork, nofork, hold};
		int rc = in_daemon(hooked_path, 0, cancel_unready, &u);
		if (rc != 0)
			print_error("%s: exit %d\n", nofork ? "exec'd" : "forked", rc);
		assert_int_equal(rc, 0);
	}
	free(hold);
}


/* in_daemon's: adopt job *arg, whose stepd.pid is not written yet (as
 * after a lost launch answer), cancel it, then let stepd.pid name the
 * supervisor (a sleep of ours) and run the loop past a lock probe. */
struct unknown {
	uint64_t id;
	pid_t pid;
	unsigned long long st;
};

static int cancel_unknown(struct sl_exec_local *x, struct evlog *e, void *arg)
{
	struct unknown *u = arg;
	struct sl_err err = SL_ERR_INIT;
	char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)u->id);
	char *text = sl_xasprintf("%d %llu\n", (int)u->pid, u->st);
	int rc = 0;
	if (sl_exec_local_adopt(x, make_record(u->id, "#!/bin/sh\n", 1), &err) != 0)
		rc = 3;
	else if (sl_exec_local_cancel(x, u->id, &err) != 0)
		rc = 4; /* was: "its supervisor cannot be reached yet" */
	else if (sl_jobdir_write(dir, SL_JOBDIR_PID, text, strlen(text), 0644, 0, NULL) != 0)
		rc = 5;
	if (rc == 0) {
		sl_loop_add_timer(e->loop, 2500, on_deadline, NULL);
		sl_loop_run(e->loop);
	}
	free(text);
	free(dir);
	return rc;
}

/* A supervisor not known yet (its launch answer lost: no pid, no pidfd, no
 * stepd.pid) takes a cancel all the same: it is kept, and sent once
 * stepd.pid names the supervisor while the lock says it runs the job. */
static void test_cancel_supervisor_unknown(void **state)
{
	struct unknown u = {260, 0, 0};
	char *dir = sl_xasprintf("%s/jobs/%llu", root, (unsigned long long)u.id);
	char *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	int ws = 0;
	assert_int_equal(mkdir(dir, 0711), 0);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0); /* "its supervisor runs" */
	u.pid = fork();
	if (u.pid == 0) {
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(sl_proc_starttime(u.pid, &u.st), 0);
	assert_int_equal(in_daemon(stepd_path, 0, cancel_unknown, &u), 0);
	assert_int_equal(waitpid(u.pid, &ws, 0), u.pid);
	assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGTERM);
	close(fd);
	free(lock);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_local_cancel_signal),
		cmocka_unit_test(test_exec_local_signal_scope),
		cmocka_unit_test(test_adopt_pid_reused),
		cmocka_unit_test(test_launch_pid_reused),
		cmocka_unit_test(test_adopt_pgid_reused),
		cmocka_unit_test(test_cancel_unready),
		cmocka_unit_test(test_cancel_supervisor_unknown),
	};
	return cmocka_run_group_tests(tests, stepd_test_setup, stepd_test_teardown);
}
