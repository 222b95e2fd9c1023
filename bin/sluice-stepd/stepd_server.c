/* stepd_server.c - `sluice-stepd --server JOBSDIR`: sluiced's fork server.
 *
 * Starting a supervisor used to cost sluiced a fork of its own large
 * process (its descriptor table grows with every running job's pidfd) and
 * the supervisor an exec, with glibc's start-up probing the CPU through
 * cpuid, which traps to the hypervisor on a VM. Together that was about half
 * of the CPU a short job costs. This process is exec'd once; for each job it
 * forks itself, and the child becomes that job's supervisor without an exec.
 *
 * Protocol, over the SOCK_SEQPACKET socket on fd 3 (stepd_spawner.h):
 *   request: the job directory, NUL-terminated, with its locked lock file
 *            attached (SCM_RIGHTS);
 *   reply:   struct sl_spawn_reply, with a pidfd of the new supervisor
 *            attached when `err` is 0.
 * The kernel reaps the children (SIGCHLD ignored): with a thousand of them,
 * each waitpid(-1) would walk them all. The reply's pidfd is opened at once
 * after the fork; a child already gone by then (ESRCH) is answered without
 * one, and sluiced finds its end through the lock. On EOF (sluiced has
 * gone) the server exits; the supervisors it started run on. */
#include "stepd.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fdpass.h"
#include "log.h"
#include "exec/local/stepd_spawner.h"

#define CTL_FD SL_STEPD_LOCK_FD /* the server's socket; its children's lock */

struct title {
	char *start;              /* argv[0]: the area `ps` shows */
	size_t len;               /* up to the end of the last argument */
};

/* Show a child as the supervisor it has become: `sluice-stepd [-D] DIR`,
 * as when each was exec'd, so ps and pgrep -f find a job's supervisor by
 * its directory. Truncated if the area is too small (ids over 8 digits). */
static size_t put(char *buf, size_t n, size_t cap, const char *s)
{
	size_t l = strlen(s) + 1;
	if (l > cap - n)
		l = cap - n;
	memcpy(buf + n, s, l);
	return n + l;
}

static void set_title(const struct title *t, int fg, const char *dir)
{
	char buf[4096];
	size_t n;
	if (t->len == 0 || t->len > sizeof(buf))
		return;
	n = put(buf, 0, t->len, t->start);
	if (fg)
		n = put(buf, n, t->len, "-D");
	n = put(buf, n, t->len, dir);
	memset(buf + n, 0, t->len - n);
	buf[t->len - 1] = '\0';
	memcpy(t->start, buf, t->len);
}

static void reply(int err, pid_t pid, int pidfd)
{
	struct sl_spawn_reply r = {err, (int32_t)pid};
	if (sl_fd_send(CTL_FD, &r, sizeof(r), pidfd) != 0)
		sl_err_log("server: reply: %s", strerror(errno));
}

/* In the child: become the supervisor of `dir` on `lockfd`, as if exec'd. */
static void become_stepd(const struct title *t, int fg, const char *dir, int lockfd)
{
	if (dup2(lockfd, SL_STEPD_LOCK_FD) < 0) /* replaces the server's socket */
		_exit(1);
	close(lockfd);
	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGCHLD, SIG_DFL);
	set_title(t, fg, dir);
	int rc = stepd_run(fg, dir, 1);
	/* _exit: the server's libraries (PAM, audit, cap-ng) registered
	 * destructors that each fault their pages into this copy only to run
	 * at exit; the supervisor has nothing buffered but stdio. */
	fflush(NULL);
	_exit(rc);
}

/* One request: 0 to go on, -1 when sluiced has gone. */
static int serve_one(const struct title *t, int fg, const char *jobs_dir)
{
	char dir[4096];
	int lockfd = -1;
	ssize_t n = sl_fd_recv(CTL_FD, dir, sizeof(dir), &lockfd);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN && errno != EMSGSIZE))
		return -1;
	if (n < 0 && errno != EMSGSIZE)
		return 0;
	size_t jl = strlen(jobs_dir);
	/* Only sluiced holds the other end; still, start nothing outside our tree. */
	if (n <= 0 || lockfd < 0 || dir[n - 1] != '\0' ||
	    strncmp(dir, jobs_dir, jl) != 0 || dir[jl] != '/' || strstr(dir + jl, "/..") != NULL) {
		if (lockfd >= 0)
			close(lockfd);
		reply(EINVAL, 0, -1);
		return 0;
	}
	pid_t pid = fork();
	if (pid == 0)
		become_stepd(t, fg, dir, lockfd);
	int e = pid < 0 ? errno : 0;
	/* Opened at once, so it names exactly this child. A child already gone
	 * and reaped (ESRCH), or an old kernel, gets no pidfd: sluiced opens its
	 * own or follows the lock. */
	int pidfd = pid > 0 ? sl_pidfd_open(pid) : -1;
	close(lockfd);
	reply(e, pid, pidfd);
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

int stepd_server(int fg, const char *jobs_dir, char **argv, int argc)
{
	struct title t = {argv[0], 0};
	sigset_t none;
	t.len = (size_t)(argv[argc - 1] + strlen(argv[argc - 1]) + 1 - argv[0]);
	sl_log_open("sluice-stepd", fg, SL_LOG_INFO);
	(void)setsid(); /* leave sluiced's session once, for every supervisor */
	sl_signals_default();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	(void)signal(SIGPIPE, SIG_IGN);
	(void)signal(SIGCHLD, SIG_IGN);
	/* Done once here rather than in every child: the zone file read for
	 * the log's timestamps, and malloc's arena set-up. Without fastbins
	 * (tcache still takes small frees) a supervisor's first allocation of
	 * a kilobyte or more after parsing its spec does not consolidate them
	 * all: 3 % of a supervisor's CPU in the drain benchmark. */
	tzset();
	(void)mallopt(M_MXFAST, 0);
	free(malloc(1));
	while (serve_one(&t, fg, jobs_dir) == 0)
		;
	return 0;
}
