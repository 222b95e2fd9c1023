/* test_stepd_server.c - sluice-stepd's fork server (stepd_server.c), driven
 * through sluiced's client of it (stepd_spawner.h): supervisors forked,
 * followed through their pidfds and end pipes, kept for the next job, and
 * renamed for ps; the protocol of a server without --keep; its limits (idle
 * time, free supervisors kept, jobs per supervisor); a reused pid in its
 * answer; a signal to a supervisor not ready for it yet. The supervisor
 * alone is test_stepd.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "jobdir.h"
#include "stepd_spawner.h"
#include "xalloc.h"
#include "stepd_testlib.h"


static int gone(pid_t pid)
{
	for (int i = 0; i < 500; i++) {
		char path[64], st = 'R';
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		FILE *f = fopen(path, "r");
		if (f == NULL)
			return 1;
		int n = fscanf(f, "%*d (%*[^)]) %c", &st);
		fclose(f);
		if (n == 1 && st == 'Z')
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Wait until /proc/pid/cmdline is `stepd_path [flag] dir`. */
static void want_title(pid_t pid, const char *flag, const char *dir)
{
	char *proc = sl_xasprintf("/proc/%d/cmdline", (int)pid), want[4096], got[4096];
	size_t wl, gl = 0;
	if (flag != NULL)
		wl = (size_t)snprintf(want, sizeof(want), "%s%c%s%c%s", stepd_path, '\0', flag, '\0',
				      dir) + 1;
	else
		wl = (size_t)snprintf(want, sizeof(want), "%s%c%s", stepd_path, '\0', dir) + 1;
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(proc, "r");
		assert_non_null(f);
		gl = fread(got, 1, sizeof(got), f);
		fclose(f);
		if (gl >= wl && memcmp(got, want, wl) == 0)
			break;
		usleep(10000);
	}
	assert_true(gl >= wl);
	assert_memory_equal(got, want, wl);
	free(proc);
}

/* fd readable within 20 s, and the job of dir COMPLETED with `want` in
 * <root>/<name>.out. */
static void completed(int fd, const char *dir, const char *name, const char *want)
{
	struct pollfd p = {fd, POLLIN, 0};
	assert_int_equal(poll(&p, 1, 20000), 1);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_COMPLETED);
	char *out = output(name);
	assert_string_equal(out, want);
	free(out);
}

/* Lock dir's lock and start its job through the server. */
static void spawn_locked(struct sl_spawner *sp, const char *dir, struct sl_spawned *sv)
{
	struct sl_err err = SL_ERR_INIT;
	char *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, sv, &err), 0);
	close(fd);
	free(lock);
}

/* A server started without --keep (by a sluiced from before it, after a
 * SIGHUP) answers as it used to, {err, pid} and the pidfd, and its
 * supervisor exits with its job. */
static void test_server_old_protocol(void **state)
{
	char *dir = make_job("old", "#!/bin/sh\necho old\n", 0, 1);
	char *jobs = sl_xstrdup(dir), *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	*strrchr(jobs, '/') = '\0';
	int sv[2], fds[2];
	size_t n = 0;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	pid_t server = fork();
	if (server == 0) {
		dup2(sv[1], SL_STEPD_LOCK_FD);
		execl(stepd_path, stepd_path, "--server", jobs, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	int fd0 = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	int fd = fcntl(fd0, F_DUPFD_CLOEXEC, SL_STEPD_LOCK_FD + 1);
	close(fd0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(sl_fd_send(sv[0], dir, strlen(dir) + 1, fd), 0);
	close(fd);
	int32_t reply[4];
	assert_int_equal(sl_fd_recvv(sv[0], reply, sizeof(reply), fds, 2, &n), 8);
	assert_int_equal(n, 1);
	assert_int_equal(reply[0], 0);
	assert_true(reply[1] > 0);
	completed(fds[0], dir, "old", "old\n"); /* the pidfd: it exits with the job */
	close(fds[0]);
	close(sv[0]); /* EOF: the server exits */
	assert_int_equal(waitpid(server, NULL, 0), server);
	free(lock);
	free(jobs);
	free(dir);
}

/* The fork server: the supervisor it forks is not ours, is followed through
 * the pidfd it hands over, and shows its job directory to ps as an exec'd
 * one did. Once the server is gone, spawning says so and nothing starts. */
static void test_server_spawn(void **state)
{
	char *dir = make_job("srv", "#!/bin/sh\nsleep 0.5\necho served\n", 0, 1);
	char *jobs = sl_xstrdup(dir), *lock = sl_xasprintf("%s/%s", dir, SL_JOBDIR_LOCK);
	*strrchr(jobs, '/') = '\0';
	struct sl_spawner *sp = sl_spawner_new(stepd_path, jobs, 0);
	struct sl_err err = SL_ERR_INIT;
	int fd0 = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	int fd = fcntl(fd0, F_DUPFD_CLOEXEC, SL_STEPD_LOCK_FD + 1); /* as exec_local.c does */
	struct sl_spawned sv;
	pid_t pid;
	close(fd0);
	assert_true(fd > SL_STEPD_LOCK_FD);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &sv, &err), 0);
	close(fd);
	pid = sv.pid;
	assert_true(pid > 0 && sv.pidfd >= 0 && sv.endfd >= 0);
	assert_true(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD);
	want_title(pid, NULL, dir); /* the child renames itself once it runs */
	/* The end pipe says the job is over, with the lock free; the
	 * supervisor itself lives on, kept for the next job. */
	completed(sv.endfd, dir, "srv", "served\n");
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	close(fd);
	assert_int_equal(kill(pid, 0), 0);

	/* Signals sent after the job's end and before its collection were
	 * meant for it: dropped, not taken by the next job. */
	union sigval v = {.sival_int = 1};
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(sigqueue(pid, SL_STEPD_SIG_LIMIT, v), 0);
	v.sival_int = SIGTERM;
	assert_int_equal(sigqueue(pid, SL_STEPD_SIG_FORWARD, v), 0);
	sl_spawned_close(&sv); /* collected: it may take another */

	/* Free again once it shows as such; the next job goes to it. */
	want_title(pid, "--free", jobs);
	char *dir1 = make_job("srv1", "#!/bin/sh\necho again\nsleep 30\n", 0, 1);
	spawn_locked(sp, dir1, &sv);
	assert_int_equal(sv.pid, pid);
	want_title(pid, NULL, dir1);
	char *out1 = NULL;
	for (int i = 0; i < 500 && (out1 == NULL || strcmp(out1, "again\n") != 0); i++) {
		free(out1);
		usleep(10000);
		out1 = output("srv1");
	}
	assert_string_equal(out1, "again\n");
	usleep(1500000); /* a time limit of 1 s taken from the last job would end it */
	assert_int_equal(kill(pid, SIGTERM), 0);
	struct pollfd p = {sv.endfd, POLLIN, 0};
	assert_int_equal(poll(&p, 1, 20000), 1);
	struct sl_exec_result r;
	read_result(dir1, &r);
	assert_int_equal(r.state, SL_JOB_CANCELLED);
	sl_spawned_close(&sv);
	free(out1);
	free(dir1);

	/* SIGHUP lets the server go (it exits at EOF); the next spawn starts a
	 * new one from the program on disk. */
	pid_t first = sl_spawner_pid(sp);
	sl_spawner_restart(sp);
	assert_int_equal(sl_spawner_pid(sp), 0);
	char *dir2 = make_job("srv2", "#!/bin/sh\nexit 0\n", 0, 1);
	spawn_locked(sp, dir2, &sv);
	sl_spawned_close(&sv);
	assert_true(sl_spawner_pid(sp) > 0 && sl_spawner_pid(sp) != first);
	assert_true(gone(first));
	free(dir2);

	assert_int_equal(kill(sl_spawner_pid(sp), SIGKILL), 0);
	usleep(100000);
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &sv, &err), -SL_EIO);
	assert_int_equal(sl_spawner_pid(sp), 0);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &sv, &err), -SL_EIO);
	assert_non_null(strstr(err.msg, "not running"));
	close(fd);
	sl_spawner_free(sp);
	free(lock);
	free(jobs);
	free(dir);
}

/* ---- the server's limits, lowered through its environment ---- */

/* <root>/<sub>: the jobs directory of one test's own server, so that only
 * its supervisors show `--free <root>/<sub>`. Caller frees. */
static char *jobs_sub(const char *sub)
{
	char *jobs = sl_xasprintf("%s/%s", root, sub);
	assert_int_equal(mkdir(jobs, 0777), 0);
	return jobs;
}

/* The limits the next server started reads; NULL unsets. */
static void limits_env(const char *idle_ms, const char *idle_max, const char *jobs_max)
{
	const char *name[3] = {"SLUICE_STEPD_IDLE_MS", "SLUICE_STEPD_IDLE_MAX",
			       "SLUICE_STEPD_JOBS_MAX"};
	const char *val[3] = {idle_ms, idle_max, jobs_max};
	for (int i = 0; i < 3; i++)
		if (val[i] != NULL)
			assert_int_equal(setenv(name[i], val[i], 1), 0);
		else
			assert_int_equal(unsetenv(name[i]), 0);
}

/* pid shows as a free supervisor of jobs: `PROGRAM [-D] --free jobs`, the
 * program sluice-stepd or its hooked build. */
static int titled_free(pid_t pid, const char *jobs)
{
	char path[64], got[4096];
	size_t n, at;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return 0;
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = '\0';
	at = strlen(got) + 1;
	if (at > n || (strcmp(got, stepd_path) != 0 && strcmp(got, hooked_path) != 0))
		return 0;
	if (at < n && strcmp(got + at, "-D") == 0)
		at += 3;
	if (at >= n || strcmp(got + at, "--free") != 0)
		return 0;
	at += 7;
	return at < n && strcmp(got + at, jobs) == 0;
}

/* How many processes show as free supervisors of jobs. */
static int count_free(const char *jobs)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			n += titled_free((pid_t)atoi(e->d_name), jobs);
	closedir(d);
	return n;
}

static void wait_free(pid_t pid, const char *jobs)
{
	for (int i = 0; i < 500 && !titled_free(pid, jobs); i++)
		usleep(10000);
	assert_true(titled_free(pid, jobs));
}

/* <jobs>/<name>'s job, echoing its name, started through sp. */
static char *spawn_echo(struct sl_spawner *sp, const char *sub, const char *name,
			struct sl_spawned *sv)
{
	char *path = sl_xasprintf("%s/%s", sub, name), *script = sl_xasprintf("echo %s\n", name);
	char *dir = make_job(path, script, 0, 1);
	spawn_locked(sp, dir, sv);
	free(script);
	free(path);
	return dir;
}

/* It ran to COMPLETED, said its name, and is collected. Frees dir. */
static void collect_echo(struct sl_spawned *sv, char *dir, const char *sub, const char *name)
{
	char *path = sl_xasprintf("%s/%s", sub, name), *want = sl_xasprintf("%s\n", name);
	completed(sv->endfd, dir, path, want);
	sl_spawned_close(sv);
	free(want);
	free(path);
	free(dir);
}

/* SLUICE_STEPD_IDLE_MS: a free supervisor is let go once free that long,
 * not before; the next job gets a new one, which runs it to its end. */
static void test_server_idle(void **state)
{
	char *jobs = jobs_sub("idle");
	struct sl_spawner *sp = sl_spawner_new(stepd_path, jobs, 0);
	struct sl_spawned sv;
	limits_env("1000", NULL, NULL);
	char *dir = spawn_echo(sp, "idle", "one", &sv);
	limits_env(NULL, NULL, NULL);
	pid_t pid = sv.pid;
	int64_t t0 = sl_mono_ms(); /* it cannot report free before it is collected */
	collect_echo(&sv, dir, "idle", "one");
	wait_free(pid, jobs);
	assert_true(gone(pid));
	assert_true(sl_mono_ms() - t0 >= 1000);
	dir = spawn_echo(sp, "idle", "two", &sv);
	assert_true(sv.pid > 0 && sv.pid != pid);
	collect_echo(&sv, dir, "idle", "two");
	sl_spawner_free(sp);
	free(jobs);
}

/* SLUICE_STEPD_IDLE_MAX: of four supervisors whose jobs end one after the
 * other, two stay free, the last two freed; the coldest went first. */
static void test_server_idle_max(void **state)
{
	char *jobs = jobs_sub("cap"), *dir[4];
	const char *name[4] = {"c0", "c1", "c2", "c3"};
	struct sl_spawner *sp = sl_spawner_new(stepd_path, jobs, 0);
	struct sl_spawned sv[4];
	pid_t pid[4];
	limits_env(NULL, "2", NULL);
	for (int i = 0; i < 4; i++) { /* none is collected yet: four supervisors */
		dir[i] = spawn_echo(sp, "cap", name[i], &sv[i]);
		pid[i] = sv[i].pid;
		for (int k = 0; k < i; k++)
			assert_int_not_equal(pid[k], pid[i]);
	}
	limits_env(NULL, NULL, NULL);
	for (int i = 0; i < 4; i++) {
		collect_echo(&sv[i], dir[i], "cap", name[i]);
		wait_free(pid[i], jobs); /* in this order: c0 is the coldest */
	}
	assert_true(gone(pid[0]));
	assert_true(gone(pid[1]));
	assert_true(titled_free(pid[2], jobs) && titled_free(pid[3], jobs));
	assert_int_equal(count_free(jobs), 2);
	char *d = spawn_echo(sp, "cap", "c4", &sv[0]);
	assert_int_equal(sv[0].pid, pid[3]); /* the last freed */
	collect_echo(&sv[0], d, "cap", "c4");
	sl_spawner_free(sp);
	free(jobs);
}

/* SLUICE_STEPD_JOBS_MAX: a supervisor exits after its third job; the
 * fourth gets a new one, and every job runs to its end. */
static void test_server_jobs_max(void **state)
{
	char *jobs = jobs_sub("max");
	const char *name[4] = {"m0", "m1", "m2", "m3"};
	struct sl_spawner *sp = sl_spawner_new(stepd_path, jobs, 0);
	struct sl_spawned sv;
	pid_t first = 0;
	limits_env(NULL, NULL, "3");
	for (int i = 0; i < 4; i++) {
		char *dir = spawn_echo(sp, "max", name[i], &sv);
		limits_env(NULL, NULL, NULL);
		if (i == 0)
			first = sv.pid;
		if (i < 3)
			assert_int_equal(sv.pid, first);
		else
			assert_true(sv.pid > 0 && sv.pid != first);
		collect_echo(&sv, dir, "max", name[i]);
		if (i < 2)
			wait_free(first, jobs); /* else the next job would get a new one */
		else if (i == 2)
			assert_true(gone(first));
	}
	sl_spawner_free(sp);
	free(jobs);
}

/* A bad limit is logged and the default used: an idle time of 0 taken as
 * such would let the supervisor go as soon as it is free. */
static void test_server_bad_limits(void **state)
{
	char *jobs = jobs_sub("limits"), *log = sl_xasprintf("%s/limits.log", root);
	struct sl_spawner *sp = sl_spawner_new(stepd_path, jobs, 1); /* -D: it logs to stderr */
	struct sl_spawned sv;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), saved = dup(2);
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, 2), 2); /* the server's stderr, as sluiced's log */
	limits_env("0", "abc", "1001");
	char *dir = spawn_echo(sp, "limits", "b0", &sv);
	limits_env(NULL, NULL, NULL);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	pid_t pid = sv.pid;
	collect_echo(&sv, dir, "limits", "b0");
	wait_free(pid, jobs);
	usleep(300000);
	dir = spawn_echo(sp, "limits", "b1", &sv);
	assert_int_equal(sv.pid, pid);
	collect_echo(&sv, dir, "limits", "b1");
	char *text = slurp(log);
	assert_non_null(text);
	assert_non_null(strstr(text, "server: SLUICE_STEPD_IDLE_MS=0: not a whole number from 1 "
				     "to 60000; 60000 used\n"));
	assert_non_null(strstr(text, "server: SLUICE_STEPD_IDLE_MAX=abc: not a whole number "
				     "from 1 to 256; 256 used\n"));
	assert_non_null(strstr(text, "server: SLUICE_STEPD_JOBS_MAX=1001: not a whole number "
				     "from 1 to 1000; 1000 used\n"));
	free(text);
	sl_spawner_free(sp);
	free(log);
	free(jobs);
}

/* A child of the fork server that exits before the server has opened its
 * pidfd frees its pid at once (the kernel reaps the server's children), and
 * another process may take it: the decoy server arranges just that. The
 * reply names the pid with no pidfd, which would name the decoy: sluiced
 * has to prove that pid before it signals it (test_exec_local.c:
 * test_launch_pid_reused). */
static void test_server_pid_reused(void **state)
{
	if (access(hooked_path, X_OK) != 0)
		skip();
	char *dir = make_job("reused", "#!/bin/sh\nsleep 30\n", 0, 1);
	char *jobs = sl_xstrdup(dir), *mark = sl_xasprintf("%s/decoy-server", root);
	struct sl_spawned sv;
	*strrchr(jobs, '/') = '\0';
	struct sl_spawner *sp = sl_spawner_new(hooked_path, jobs, 0);
	setenv("SL_TEST_DECOY", mark, 1); /* the server started next takes it */
	spawn_locked(sp, dir, &sv);
	unsetenv("SL_TEST_DECOY");
	assert_int_equal(access(mark, F_OK), 0); /* else the decoy server never opened a pidfd */
	pid_t d = decoy_pid(mark);
	int pidfd = sv.pidfd, endfd = sv.endfd;
	pid_t pid = sv.pid;
	if (d > 0)
		(void)kill(d, SIGKILL);
	sl_spawned_close(&sv);
	sl_spawner_free(sp);
	free(mark);
	free(jobs);
	free(dir);
	if (d == 0)
		skip();
	assert_int_equal(pid, d);
	assert_true(endfd >= 0);
	assert_int_equal(pidfd, -1);
}

/* ---- a signal before the supervisor is ready ---- */

/* Job <root>/window/<name>: its script would write <name>.out. */
static char *window_job(const char *name)
{
	char *path = sl_xasprintf("window/%s", name);
	char *dir = make_job(path, "#!/bin/sh\necho ran\n", 0, 1);
	free(path);
	return dir;
}

/* Its end, through the end pipe: `want`, and (unless may_run) the script
 * never ran. Frees dir and closes sv. */
static void window_end(struct sl_spawned *sv, char *dir, enum sl_jobstate want, int may_run)
{
	struct pollfd p = {sv->endfd, POLLIN, 0};
	struct sl_exec_result r;
	char *out = sl_xasprintf("%s.out", dir), *text;
	assert_int_equal(poll(&p, 1, 20000), 1);
	text = slurp(out); /* after the end: a script that ran has written */
	read_result(dir, &r); /* none if the signal killed the supervisor */
	assert_int_equal(r.state, want);
	assert_true(exists(dir, SL_JOBDIR_STARTED));
	if (!may_run)
		assert_null(text);
	free(text);
	sl_spawned_close(sv);
	free(out);
	free(dir);
}

/* A supervisor the server has just forked has not taken over its signals
 * yet; the hooked build holds that moment open (stepd_window.c). A cancel
 * or a preemption sent then waits for it: the job ends CANCELLED or
 * PREEMPTED and its script never runs. Killed by the signal instead, it
 * would leave no `started`, and sluiced would requeue a job its user had
 * cancelled. A kept supervisor handed its next job has them blocked from
 * its first: a cancel sent at once does the same. */
static void test_server_window(void **state)
{
	static const struct {
		const char *name;
		int sig;
		enum sl_jobstate want;
	} cases[] = {{"term", SIGTERM, SL_JOB_CANCELLED}, {"usr2", SIGUSR2, SL_JOB_PREEMPTED}};
	struct sl_spawned sv[2];
	if (access(hooked_path, X_OK) != 0)
		skip();
	char *jobs = jobs_sub("window"), *hold = sl_xasprintf("%s/hold", root), *dir[2];
	assert_int_equal(mkdir(hold, 0755), 0);
	setenv("SL_TEST_WINDOW", hold, 1); /* the server started next passes it on */
	struct sl_spawner *sp = sl_spawner_new(hooked_path, jobs, 0);
	for (int i = 0; i < 2; i++) {
		dir[i] = window_job(cases[i].name);
		spawn_locked(sp, dir[i], &sv[i]);
		assert_int_equal(window_held(hold, sv[i].pid), sv[i].pid);
		assert_int_equal(kill(sv[i].pid, cases[i].sig), 0);
		window_release(hold, sv[i].pid);
	}
	unsetenv("SL_TEST_WINDOW");
	pid_t kept[2] = {sv[0].pid, sv[1].pid};
	for (int i = 0; i < 2; i++)
		window_end(&sv[i], dir[i], cases[i].want, 0);
	for (int i = 0; i < 2; i++)
		wait_free(kept[i], jobs);
	/* a script that outlasts the signal: ended first, it would be COMPLETED */
	char *next = make_job("window/next", "#!/bin/sh\nsleep 30\n", 0, 1);
	spawn_locked(sp, next, &sv[0]);
	assert_true(sv[0].pid == kept[0] || sv[0].pid == kept[1]);
	assert_int_equal(kill(sv[0].pid, SIGTERM), 0);
	/* no hold here: the script may have started before the signal came,
	 * and the job still ends CANCELLED, not requeued */
	window_end(&sv[0], next, SL_JOB_CANCELLED, 1);
	sl_spawner_free(sp);
	free(hold);
	free(jobs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_spawn),
		cmocka_unit_test(test_server_old_protocol),
		cmocka_unit_test(test_server_idle),
		cmocka_unit_test(test_server_idle_max),
		cmocka_unit_test(test_server_jobs_max),
		cmocka_unit_test(test_server_bad_limits),
		cmocka_unit_test(test_server_pid_reused),
		cmocka_unit_test(test_server_window),
	};
	return cmocka_run_group_tests(tests, stepd_test_setup, stepd_test_teardown);
}
