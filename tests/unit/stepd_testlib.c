/* stepd_testlib.c - what the tests of sluice-stepd and of the local
 * executor share: a private root, the sluice-stepd under test and its
 * hooked build, job directories made by hand, reading what a job left, and
 * the executor on a loop with a log of its events. */
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
#include <dirent.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jobdir.h"
#include "xalloc.h"

#include "stepd_testlib.h"

char stepd_path[4096];
char hooked_path[4096];
char root[] = "/tmp/test_stepd.XXXXXX";

char *slurp(const char *path)
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
int exists(const char *dir, const char *name)
{
	char *text = NULL;
	int r = sl_jobdir_read(dir, name, &text, NULL) == 0 && !sl_jobdir_blank(text);
	free(text);
	return r;
}

/* A job dir <root>/<name> with a spec for `script`; output in <root>/<name>.out */
char *make_job(const char *name, const char *script, int64_t limit, int kill_wait)
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

pid_t run_stepd(const char *dir)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(stepd_path, stepd_path, dir, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int wait_stepd(pid_t pid)
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

void wait_file(const char *dir, const char *name)
{
	for (int i = 0; i < 100 && !exists(dir, name); i++)
		usleep(50000);
	assert_true(exists(dir, name));
}

void read_result(const char *dir, struct sl_exec_result *r)
{
	char *text = NULL;
	assert_int_equal(sl_jobdir_read(dir, SL_JOBDIR_RESULT, &text, NULL), 0);
	assert_int_equal(sl_exec_result_from_json(text, r, NULL), 0);
	free(text);
}

char *output(const char *name)
{
	char *p = sl_xasprintf("%s/%s.out", root, name);
	char *t = slurp(p);
	free(p);
	assert_non_null(t);
	return t;
}

pid_t decoy_pid(const char *mark)
{
	char *text = slurp(mark);
	long pid = 0;
	if (text == NULL || sscanf(text, "%ld", &pid) != 1)
		pid = 0;
	free(text);
	return (pid_t)pid;
}

pid_t window_held(const char *dir, pid_t pid)
{
	for (int i = 0; i < 500; i++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		pid_t got = 0;
		while (d != NULL && got == 0 && (e = readdir(d)) != NULL)
			if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
			    (pid == 0 || atoi(e->d_name) == (int)pid))
				got = (pid_t)atoi(e->d_name);
		if (d != NULL)
			closedir(d);
		if (got != 0)
			return got;
		usleep(10000);
	}
	return 0;
}

void window_release(const char *dir, pid_t pid)
{
	char *p = sl_xasprintf("%s/%d", dir, (int)pid);
	(void)unlink(p);
	free(p);
}

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

const struct sl_exec_events evlog_events = {ev_started, ev_finished, NULL, NULL};

void on_deadline(struct sl_loop *l, uint64_t id, void *arg)
{
	sl_loop_stop(l);
}

struct sl_job *make_record(uint64_t id, const char *script, int nodes)
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

struct sl_exec_conf exec_conf(const char *stepd)
{
	struct sl_exec_conf c = {.state_dir = root, .cluster = "sluice", .hostname = "vm",
				 .kill_wait = 2, .stepd_path = stepd};
	return c;
}

struct sl_exec_local *new_exec(struct sl_loop *loop, struct evlog *e)
{
	struct sl_exec_conf c = exec_conf(stepd_path);
	struct sl_err err = SL_ERR_INIT;
	e->loop = loop;
	struct sl_exec_local *x = sl_exec_local_new(loop, &c, &evlog_events, e, &err);
	assert_non_null(x);
	return x;
}

void run_until_finished(struct sl_loop *loop)
{
	uint64_t t = sl_loop_add_timer(loop, 20000, on_deadline, NULL);
	sl_loop_run(loop);
	sl_loop_del_timer(loop, t);
}

int stepd_test_setup(void **state)
{
	const char *p = getenv("SLUICE_STEPD"), *b = getenv("top_builddir");
	snprintf(stepd_path, sizeof(stepd_path), "%s", p && *p ? p : "");
	if (stepd_path[0] == '\0')
		snprintf(stepd_path, sizeof(stepd_path), "%s/bin/sluice-stepd/sluice-stepd", b ? b : ".");
	snprintf(hooked_path, sizeof(hooked_path), "%s/tests/unit/sluice-stepd-hooked", b ? b : ".");
	if (mkdtemp(root) == NULL || chmod(root, 0777 | S_ISVTX) != 0)
		return -1;
	return access(stepd_path, X_OK);
}

int stepd_test_teardown(void **state)
{
	char *cmd = sl_xasprintf("rm -rf '%s'", root);
	int r = system(cmd);
	free(cmd);
	return r == 0 ? 0 : -1;
}

/* From here on pidfd_open(2) fails with ENOSYS, as on a kernel before
 * 5.3 or under a seccomp profile without it; for a child to call. 0, or -1
 * when seccomp cannot be had. */
static int no_pidfd_open(void)
{
#ifdef SYS_pidfd_open
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		return -1;
	return sl_pidfd_open(getpid()) < 0 && errno == ENOSYS ? 0 : -1;
#else
	return -1;
#endif
}

/* A daemon of its own, in a child: the executor on `server`, the subreaper
 * of what its fork server leaves, and with no_pidfd, pidfd_open(2) failing
 * in it and in the server it starts. fn's return is the child's exit code,
 * which this returns (77: skip; also when seccomp cannot be had). No cmocka
 * in there: a failed assert would run the rest of the tests in the child. */
int in_daemon(const char *server, int no_pidfd,
	      int (*fn)(struct sl_exec_local *x, struct evlog *e, void *arg), void *arg)
{
	struct sl_exec_conf c = exec_conf(server);
	int ws = 0;
	pid_t c_pid = fork();
	if (c_pid == 0) {
		struct sl_err err = SL_ERR_INIT;
		struct evlog e = {.loop = sl_loop_new()};
		(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
		if (no_pidfd && no_pidfd_open() != 0)
			_exit(77);
		struct sl_exec_local *x = sl_exec_local_new(e.loop, &c, &evlog_events, &e, &err);
		_exit(x == NULL ? 3 : fn(x, &e, arg));
	}
	assert_int_equal(waitpid(c_pid, &ws, 0), c_pid);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
}
