/* test_stepd.c - sluice-stepd run for real on job directories (no daemon):
 * output, exit codes, environment, time limit, cancel, preemption, signal
 * forwarding, launch failure; then the daemon side (exec_local) on the real
 * loop: start, events, forget, and adoption after a "daemon crash".
 * Finds the program through $SLUICE_STEPD or $top_builddir/bin/sluice-stepd. */
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
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec_local.h"
#include "loop.h"
#include "stepd_jobdir.h"
#include "stepd_spawner.h"
#include "xalloc.h"

static char stepd_path[4096];
static char root[] = "/tmp/test_stepd.XXXXXX";

static char *slurp(const char *path)
{
	char *text = NULL;
	char *dir = sl_xstrdup(path), *slash = strrchr(dir, '/');
	*slash = '\0';
	if (sl_jobdir_read(dir, slash + 1, &text, NULL) != 0)
		text = NULL;
	free(dir);
	return text;
}

/* A mark or result is there when its file has content: a recycled job
 * directory (dirpool.h) holds them emptied to a newline. */
static int exists(const char *dir, const char *name)
{
	char *text = NULL;
	int r = sl_jobdir_read(dir, name, &text, NULL) == 0 && !sl_jobdir_blank(text);
	free(text);
	return r;
}

/* A job dir <root>/<name> with a spec for `script`; output in <root>/<name>.out */
static char *make_job(const char *name, const char *script, int64_t limit, int kill_wait)
{
	char *dir = sl_xasprintf("%s/%s", root, name);
	assert_int_equal(mkdir(dir, 0711), 0);
	struct sl_launch l;
	memset(&l, 0, sizeof(l));
	char *argv[] = {"a", "b c", NULL};
	char *env[] = {"FOO=bar", "SLURM_JOB_ID=42", NULL};
	l.job_id = 42;
	l.uid = getuid();
	l.gid = getgid();
	l.user = sl_xstrdup("root");
	l.work_dir = sl_xstrdup(root);
	l.std_out = sl_xasprintf("%s/%s.out", root, name);
	l.umask = 022;
	l.time_limit = limit;
	l.kill_wait = kill_wait;
	l.host = sl_xstrdup("vm");
	l.script = sl_xstrdup(script);
	l.argv = sl_strv_dup(argv);
	l.env = sl_strv_dup(env);
	char *json = sl_launch_to_json(&l);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, json, strlen(json), 0600, 1, NULL), 0);
	free(json);
	sl_launch_clear(&l);
	return dir;
}

static pid_t run_stepd(const char *dir)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(stepd_path, stepd_path, dir, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int wait_stepd(pid_t pid)
{
	int st = -1;
	for (int i = 0; i < 300; i++) { /* 30 s at most */
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(100000);
	}
	kill(pid, SIGKILL);
	fail_msg("sluice-stepd did not finish");
	return -1;
}

static void wait_file(const char *dir, const char *name)
{
	for (int i = 0; i < 100 && !exists(dir, name); i++)
		usleep(50000);
	assert_true(exists(dir, name));
}

static void read_result(const char *dir, struct sl_exec_result *r)
{
	char *text = NULL;
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_RESULT, &text, NULL), 0);
	assert_int_equal(sl_exec_result_from_json(text, r, NULL), 0);
	free(text);
}

static char *output(const char *name)
{
	char *p = sl_xasprintf("%s/%s.out", root, name);
	char *t = slurp(p);
	free(p);
	assert_non_null(t);
	return t;
}

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
	assert_string_equal(out, "plain script\n");
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

static void signal_job(const char *name, int sig, enum sl_jobstate want, const char *tail)
{
	char *dir = make_job(name, "#!/bin/bash\necho up\nsleep 30 & wait\n", 0, 5);
	pid_t pid = run_stepd(dir);
	wait_file(dir, SL_JOBDIR_PGID);
	usleep(200000);
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

static void test_launch_failure(void **state)
{
	char *dir = make_job("nodir", "#!/bin/sh\necho x\n", 0, 1);
	/* point stdout into a directory that does not exist */
	char *text = NULL;
	struct sl_launch l;
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_SPEC, &text, NULL), 0);
	assert_int_equal(sl_launch_from_json(text, &l, NULL), 0);
	free(text);
	free(l.std_out);
	l.std_out = sl_xstrdup("/nonexistent/dir/out.txt");
	text = sl_launch_to_json(&l);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, text, strlen(text), 0600, 1, NULL), 0);
	free(text);
	sl_launch_clear(&l);
	assert_int_equal(wait_stepd(run_stepd(dir)), 0);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_FAILED);
	assert_string_equal(r.reason, "JobLaunchFailure");
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(r.exit_signal, 53);
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
	free(dir);
}

/* Running as root, the job runs as the submitting user (nobody here). */
static void test_as_user(void **state)
{
	if (geteuid() != 0)
		skip();
	char *dir = make_job("nobody", "#!/bin/sh\nid -u; id -g\n", 0, 1);
	char *text = NULL;
	struct sl_launch l;
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_SPEC, &text, NULL), 0);
	assert_int_equal(sl_launch_from_json(text, &l, NULL), 0);
	free(text);
	l.uid = 65534;
	l.gid = 65534;
	free(l.user);
	l.user = sl_xstrdup("nobody");
	text = sl_launch_to_json(&l);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, text, strlen(text), 0600, 1, NULL), 0);
	free(text);
	sl_launch_clear(&l);
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

/* ---- the daemon side on the real loop ---- */

struct evlog {
	int started, finished;
	uint64_t id;
	char nodelist[64];
	struct sl_exec_result res;
	struct sl_loop *loop;
};

static void ev_started(void *arg, uint64_t id, int64_t start, const char *nodes)
{
	struct evlog *e = arg;
	e->started++;
	e->id = id;
	snprintf(e->nodelist, sizeof(e->nodelist), "%s", nodes);
}

static void ev_finished(void *arg, uint64_t id, const struct sl_exec_result *r)
{
	struct evlog *e = arg;
	e->finished++;
	e->id = id;
	e->res = *r;
	sl_loop_stop(e->loop);
}

static void on_deadline(struct sl_loop *l, uint64_t id, void *arg)
{
	sl_loop_stop(l);
}

static struct sl_job *make_record(uint64_t id, const char *script, int nodes)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->uid = getuid();
	j->gid = getgid();
	j->user = sl_xstrdup("root");
	j->spec.name = sl_xstrdup("rec");
	j->spec.partition = sl_xstrdup("batch");
	j->spec.account = sl_xstrdup("general");
	j->spec.work_dir = sl_xstrdup(root);
	j->spec.submit_dir = sl_xstrdup(root);
	j->spec.std_out = sl_xstrdup("rec-%j-%N.out");
	j->spec.script = sl_xstrdup(script);
	j->spec.nodes = nodes;
	return j;
}

static struct sl_exec_local *new_exec(struct sl_loop *loop, struct evlog *e)
{
	static const struct sl_exec_events ev = {ev_started, ev_finished, NULL};
	struct sl_exec_conf c = {.state_dir = root, .cluster = "sluice", .hostname = "vm",
				 .kill_wait = 2, .stepd_path = stepd_path};
	struct sl_err err = SL_ERR_INIT;
	e->loop = loop;
	struct sl_exec_local *x = sl_exec_local_new(loop, &c, &ev, e, &err);
	assert_non_null(x);
	return x;
}

static void run_until_finished(struct sl_loop *loop)
{
	uint64_t t = sl_loop_add_timer(loop, 20000, on_deadline, NULL);
	sl_loop_run(loop);
	sl_loop_del_timer(loop, t);
}

static void test_exec_local_run(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(101, "#!/bin/sh\necho $SLURM_JOB_NODELIST $SLURMD_NODENAME $SLURM_CLUSTER_NAME\nexit 2\n", 2);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	assert_int_equal(e.started, 0); /* never from inside the call */
	assert_int_equal(sl_exec_local_start(x, j, &err), -SL_EEXIST);
	run_until_finished(loop);
	assert_int_equal(e.started, 1);
	assert_string_equal(e.nodelist, "vm-[0-1]");
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.id, 101);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 2);
	char *p = sl_xasprintf("%s/rec-101-vm.out", root), *out = slurp(p);
	assert_non_null(out);
	assert_string_equal(out, "vm-[0-1] vm-0 sluice\n");
	char *dir = sl_xasprintf("%s/jobs/101", root);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0711);
	sl_exec_local_forget(x, 101);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(sl_exec_local_cancel(x, 101, &err), -SL_ENOENT);
	free(dir);
	free(out);
	free(p);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void test_exec_local_cancel_signal(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(102, "#!/bin/bash\ntrap 'echo got HUP' HUP\necho up\n"
				       "while :; do sleep 0.1; done\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	char *dir = sl_xasprintf("%s/jobs/102", root);
	wait_file(dir, SL_JOBDIR_PGID);
	usleep(300000);
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

/* The daemon "dies" (its executor is dropped without a word), the job runs
 * on; a new daemon adopts it and records its end. */
static void test_adopt_running(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(103, "#!/bin/sh\nsleep 1\nexit 4\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	sl_exec_local_free(x);
	sl_loop_free(loop);

	char *dir = sl_xasprintf("%s/jobs/103", root);
	wait_file(dir, SL_JOBDIR_PID);
	loop = sl_loop_new();
	memset(&e, 0, sizeof(e));
	x = new_exec(loop, &e);
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	assert_int_equal(e.finished, 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 4);
	/* Adopting it again (a second restart before forget) gives the same end. */
	sl_exec_local_free(x);
	sl_loop_free(loop);
	loop = sl_loop_new();
	memset(&e, 0, sizeof(e));
	x = new_exec(loop, &e);
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_FAILED);
	assert_int_equal(e.res.exit_code, 4);
	sl_exec_local_forget(x, 103);
	assert_int_equal(access(dir, F_OK), -1);
	while (waitpid(-1, NULL, WNOHANG) > 0) /* the first daemon's child */
		;
	free(dir);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void adopt_expect(uint64_t id, enum sl_jobstate want, const char *reason)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	struct sl_job *j = make_record(id, "#!/bin/sh\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_adopt(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, want);
	assert_string_equal(e.res.reason, reason);
	sl_exec_local_forget(x, id);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void test_adopt_dead_or_never(void **state)
{
	/* never launched: no directory at all, or a spec without `started` */
	adopt_expect(201, SL_JOB_PENDING, "NotStarted");
	char *dir = sl_xasprintf("%s/jobs/202", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_SPEC, "{}", 2, 0600, 1, NULL), 0);
	adopt_expect(202, SL_JOB_PENDING, "NotStarted");
	free(dir);
	/* the supervisor died mid-run: started, no result, lock free */
	dir = sl_xasprintf("%s/jobs/203", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_STARTED, "1700000000\n", 11, 0644, 1, NULL), 0);
	adopt_expect(203, SL_JOB_NODE_FAIL, "NodeFail");
	free(dir);
	/* ended while the daemon was away */
	dir = sl_xasprintf("%s/jobs/204", root);
	assert_int_equal(mkdir(dir, 0711), 0);
	struct sl_exec_result r;
	sl_exec_result_init(&r, SL_JOB_TIMEOUT);
	r.exit_signal = 15;
	char *json = sl_exec_result_to_json(&r);
	assert_int_equal(sl_jobdir_write(dir, SL_JOBDIR_RESULT, json, strlen(json), 0644, 1, NULL), 0);
	adopt_expect(204, SL_JOB_TIMEOUT, "TimeLimit");
	free(json);
	free(dir);
}

/* 1 once pid has exited (a zombie counts), within 5 s. */
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
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600), pidfd = -1;
	pid_t pid = 0;
	assert_true(fd > SL_STEPD_LOCK_FD);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &pid, &pidfd, &err), 0);
	close(fd);
	assert_true(pid > 0 && pidfd >= 0);
	assert_true(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD);
	char *proc = sl_xasprintf("/proc/%d/cmdline", (int)pid), want[4096], got[4096];
	size_t wl = (size_t)snprintf(want, sizeof(want), "%s%c%s", stepd_path, '\0', dir) + 1;
	size_t gl = 0;
	for (int i = 0; i < 200; i++) { /* the child renames itself once it runs */
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
	struct pollfd p = {pidfd, POLLIN, 0};
	assert_int_equal(poll(&p, 1, 20000), 1);
	struct sl_exec_result r;
	read_result(dir, &r);
	assert_int_equal(r.state, SL_JOB_COMPLETED);
	char *out = output("srv");
	assert_string_equal(out, "served\n");
	close(pidfd);

	/* SIGHUP lets the server go (it exits at EOF); the next spawn starts a
	 * new one from the program on disk. */
	pid_t first = sl_spawner_pid(sp);
	sl_spawner_restart(sp);
	assert_int_equal(sl_spawner_pid(sp), 0);
	char *dir2 = make_job("srv2", "#!/bin/sh\nexit 0\n", 0, 1);
	char *lock2 = sl_xasprintf("%s/%s", dir2, SL_JOBDIR_LOCK);
	fd = open(lock2, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(sl_spawner_spawn(sp, dir2, fd, &pid, &pidfd, &err), 0);
	close(fd);
	close(pidfd);
	assert_true(sl_spawner_pid(sp) > 0 && sl_spawner_pid(sp) != first);
	assert_true(gone(first));
	free(lock2);
	free(dir2);

	assert_int_equal(kill(sl_spawner_pid(sp), SIGKILL), 0);
	usleep(100000);
	fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &pid, &pidfd, &err), -SL_EIO);
	assert_int_equal(sl_spawner_pid(sp), 0);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_spawner_spawn(sp, dir, fd, &pid, &pidfd, &err), -SL_EIO);
	assert_non_null(strstr(err.msg, "not running"));
	close(fd);
	sl_spawner_free(sp);
	free(out);
	free(proc);
	free(lock);
	free(jobs);
	free(dir);
}

/* A server that takes the request and dies without answering: a supervisor
 * may or may not run, so none is exec'd in its place (the job must never
 * run twice); the lock shows nobody holds it, and the job, never started,
 * goes back to the queue. */
static void test_exec_local_answer_lost(void **state)
{
	char saved[sizeof(stepd_path)], *fake = sl_xasprintf("%s/fake-stepd", root);
	FILE *f = fopen(fake, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexec dd bs=65536 count=1 <&3 >/dev/null 2>&1\n", f);
	fclose(f);
	assert_int_equal(chmod(fake, 0755), 0);
	memcpy(saved, stepd_path, sizeof(saved));
	snprintf(stepd_path, sizeof(stepd_path), "%s", fake);
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	memcpy(stepd_path, saved, sizeof(saved));
	struct sl_job *j = make_record(104, "#!/bin/sh\ntouch ran\n", 1);
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e.finished, 1);
	assert_int_equal(e.res.state, SL_JOB_PENDING);
	char *dir = sl_xasprintf("%s/jobs/104", root);
	assert_false(exists(dir, SL_JOBDIR_STARTED));
	char *ran = sl_xasprintf("%s/ran", root);
	assert_int_equal(access(ran, F_OK), -1);
	free(ran);
	sl_exec_local_forget(x, 104);
	while (waitpid(-1, NULL, WNOHANG) > 0) /* the fake server */
		;
	free(dir);
	free(fake);
	sl_job_free(j);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

/* Run one job to its end and forget it; returns its script's inode. */
static ino_t run_forget(struct sl_exec_local *x, struct sl_loop *loop, struct evlog *e,
			uint64_t id, const char *script, const char *want_out)
{
	struct sl_job *j = make_record(id, script, 1);
	struct sl_err err = SL_ERR_INIT;
	struct stat st;
	memset(e, 0, sizeof(*e));
	e->loop = loop;
	assert_int_equal(sl_exec_local_start(x, j, &err), 0);
	run_until_finished(loop);
	assert_int_equal(e->res.state, SL_JOB_COMPLETED);
	char *out = sl_xasprintf("%s/rec-%llu-vm.out", root, (unsigned long long)id);
	char *text = slurp(out);
	assert_non_null(text);
	assert_string_equal(text, want_out);
	char *sp = sl_xasprintf("%s/jobs/%llu/%s", root, (unsigned long long)id, SL_JOBDIR_SCRIPT);
	assert_int_equal(stat(sp, &st), 0);
	sl_exec_local_forget(x, id);
	free(sp);
	free(text);
	free(out);
	sl_job_free(j);
	return st.st_ino;
}

/* A finished job's directory serves the next job (dirpool.h): the same
 * user's script is rewritten in place, anyone else's is replaced. */
static void test_exec_local_recycles(void **state)
{
	struct sl_loop *loop = sl_loop_new();
	struct evlog e = {0};
	struct sl_exec_local *x = new_exec(loop, &e);
	char cmd[256];

	ino_t a = run_forget(x, loop, &e, 301, "#!/bin/sh\necho the first job\n", "the first job\n");
	ino_t b = run_forget(x, loop, &e, 302, "#!/bin/sh\necho 2\n", "2\n");
	assert_int_equal(a, b);
	/* Another owner's script, held open as a process of theirs could. */
	snprintf(cmd, sizeof(cmd), "chown 1:1 %s/jobs/.spare-*/script", root);
	assert_int_equal(system(cmd), 0);
	/* the pool hands out its newest spare first */
	snprintf(cmd, sizeof(cmd), "ls -a %s/jobs | sed -n 's/^\\.spare-//p' | sort -n | tail -1", root);
	FILE *ls = popen(cmd, "r");
	unsigned newest = 0;
	assert_int_equal(fscanf(ls, "%u", &newest), 1);
	pclose(ls);
	snprintf(cmd, sizeof(cmd), "%s/jobs/.spare-%u/script", root, newest);
	int fd = open(cmd, O_RDONLY);
	assert_true(fd >= 0);
	(void)run_forget(x, loop, &e, 303, "#!/bin/sh\necho 3\n", "3\n");
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_nlink, 0); /* replaced, not rewritten */
	close(fd);
	sl_exec_local_free(x);
	sl_loop_free(loop);
}

static void test_nodelist(void **state)
{
	char *b = NULL, *n = sl_exec_local_nodelist("vm", 1, &b);
	assert_string_equal(n, "vm");
	assert_string_equal(b, "vm");
	free(n);
	free(b);
	n = sl_exec_local_nodelist("node7", 3, &b);
	assert_string_equal(n, "node7-[0-2]");
	assert_string_equal(b, "node7-0");
	free(n);
	free(b);
}

static int setup(void **state)
{
	const char *p = getenv("SLUICE_STEPD"), *b = getenv("top_builddir");
	snprintf(stepd_path, sizeof(stepd_path), "%s", p && *p ? p : "");
	if (stepd_path[0] == '\0')
		snprintf(stepd_path, sizeof(stepd_path), "%s/bin/sluice-stepd", b ? b : ".");
	if (mkdtemp(root) == NULL || chmod(root, 0777 | S_ISVTX) != 0)
		return -1;
	return access(stepd_path, X_OK);
}

static int teardown(void **state)
{
	char *cmd = sl_xasprintf("rm -rf '%s'", root);
	int r = system(cmd);
	free(cmd);
	return r == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_code_env_args),
		cmocka_unit_test(test_completed_no_shebang),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_timeout_kill_wait),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_signal_forward),
		cmocka_unit_test(test_launch_failure),
		cmocka_unit_test(test_bad_spec),
		cmocka_unit_test(test_as_user),
		cmocka_unit_test(test_nodelist),
		cmocka_unit_test(test_exec_local_run),
		cmocka_unit_test(test_exec_local_cancel_signal),
		cmocka_unit_test(test_adopt_running),
		cmocka_unit_test(test_adopt_dead_or_never),
		cmocka_unit_test(test_server_spawn),
		cmocka_unit_test(test_exec_local_answer_lost),
		cmocka_unit_test(test_exec_local_recycles),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
