/* stepd_spawner.c - sluiced's side of the supervisors' fork server (the
 * protocol is in stepd_server.c). Requests are pipelined: a turn that
 * launches fifty jobs sends fifty requests, and the answers, which come in
 * the same order, are read afterwards (exec_local.c: at the next turn), so
 * the loop does not sleep once per launch while the server forks. Waiting
 * for an answer is bounded by REPLY_MS, as a launch used to be. */
#include "stepd_spawner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "log.h"
#include "jobdir.h"
#include "xalloc.h"

#define REPLY_MS 10000     /* a fork that takes longer means a wedged server */
#define RETRY_MS 30000     /* after a failure, exec supervisors this long */
#define OLD_MAX 8          /* servers let go by a reload, not yet reaped */

extern char **environ;

struct sl_spawner {
	char *stepd_path, *jobs_dir;
	int log_stderr;
	int fd;                   /* our end of the socket; -1: no server */
	pid_t pid;
	int64_t retry_at;         /* monotonic ms; no server before then */
	pid_t old[OLD_MAX];       /* let go at a reload; reaped once they exit */
	size_t inflight;          /* requests sent, not answered yet */
};

struct sl_spawner *sl_spawner_new(const char *stepd_path, const char *jobs_dir, int log_stderr)
{
	struct sl_spawner *sp = sl_xcalloc(1, sizeof(*sp));
	sp->stepd_path = sl_xstrdup(stepd_path);
	sp->jobs_dir = sl_xstrdup(jobs_dir);
	sp->log_stderr = log_stderr;
	sp->fd = -1;
	return sp;
}

/* Reap the servers a reload let go. They exit as soon as they read EOF;
 * when the slots are full the oldest, long gone by then, is waited for. */
static void reap_old(struct sl_spawner *sp, pid_t add)
{
	size_t free_slot = OLD_MAX;
	for (size_t i = 0; i < OLD_MAX; i++) {
		if (sp->old[i] > 0 && waitpid(sp->old[i], NULL, WNOHANG) != 0)
			sp->old[i] = 0;
		if (sp->old[i] == 0 && free_slot == OLD_MAX)
			free_slot = i;
	}
	if (add <= 0)
		return;
	if (free_slot == OLD_MAX) {
		(void)waitpid(sp->old[0], NULL, 0);
		free_slot = 0;
	}
	sp->old[free_slot] = add;
}

static void stop(struct sl_spawner *sp, int failed)
{
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = -1;
	if (sp->pid > 0 && failed) {
		(void)kill(sp->pid, SIGKILL);
		(void)waitpid(sp->pid, NULL, 0);
	} else if (sp->pid > 0) {
		reap_old(sp, sp->pid); /* it exits at EOF; never leave it a zombie */
	}
	sp->pid = 0;
	sp->inflight = 0; /* their answers are lost with the socket */
	if (failed)
		sp->retry_at = sl_mono_ms() + RETRY_MS;
}

static int start(struct sl_spawner *sp, struct sl_err *err)
{
	posix_spawn_file_actions_t fa;
	int sv[2], hi;
	char *argv[6];
	int n = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return sl_err_set(err, SL_EIO, "stepd server: socketpair: %s", strerror(errno));
	/* keep dup2(sv[1], 3) a real copy, which clears close-on-exec */
	if (sv[1] <= SL_STEPD_LOCK_FD && (hi = fcntl(sv[1], F_DUPFD_CLOEXEC, SL_STEPD_LOCK_FD + 1)) >= 0) {
		close(sv[1]);
		sv[1] = hi;
	}
	argv[n++] = sp->stepd_path;
	if (sp->log_stderr)
		argv[n++] = "-D";
	argv[n++] = "--server";
	argv[n++] = "--keep"; /* an older program refuses it: supervisors are exec'd */
	argv[n++] = sp->jobs_dir;
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], SL_STEPD_LOCK_FD);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	int e = posix_spawn(&sp->pid, sp->stepd_path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (e != 0) {
		close(sv[0]);
		sp->pid = 0;
		sp->retry_at = sl_mono_ms() + RETRY_MS;
		return sl_err_set(err, SL_EIO, "stepd server: %s: %s", sp->stepd_path, strerror(e));
	}
	sp->fd = sv[0];
	sl_info("stepd server started: pid %d", (int)sp->pid);
	return 0;
}

/* One answer: 0, 1 when !wait and none is there yet, -SL_EIO when the
 * server could not fork, -SL_EPROTO when it broke. */
static int answer(struct sl_spawner *sp, int wait, struct sl_spawned *out, struct sl_err *err)
{
	struct sl_spawn_reply r;
	struct pollfd p = {sp->fd, POLLIN, 0};
	int64_t until = sl_mono_ms() + (wait ? REPLY_MS : 0);
	int n, fds[2];
	size_t nfd = 0, want;
	int64_t left;
	/* never negative: poll would take -1 as "wait for ever", in sluiced's loop */
	while ((left = until - sl_mono_ms(), n = poll(&p, 1, left > 0 ? (int)left : 0)) < 0 &&
	       errno == EINTR)
		if (sl_mono_ms() >= until)
			break;
	if (n == 0 && !wait)
		return 1;
	if (n <= 0)
		return sl_err_set(err, SL_EPROTO, "stepd server: no answer within %d s",
				  REPLY_MS / 1000);
	ssize_t got = sl_fd_recvv(sp->fd, &r, sizeof(r), fds, 2, &nfd);
	want = got == (ssize_t)sizeof(r) ? (size_t)((r.flags & SL_SPAWN_PIDFD) != 0) +
						   ((r.flags & SL_SPAWN_ENDFD) != 0) : 0;
	if (got != (ssize_t)sizeof(r) || (r.err == 0 && r.pid <= 0) || nfd != want) {
		for (size_t i = 0; i < nfd; i++)
			close(fds[i]);
		return sl_err_set(err, SL_EPROTO, "stepd server: %s",
				  got == 0 ? "it has exited" : "a malformed answer");
	}
	sp->inflight--;
	if (r.err != 0) {
		for (size_t i = 0; i < nfd; i++)
			close(fds[i]);
		return sl_err_set(err, SL_EIO, "stepd server: %s", strerror(r.err));
	}
	out->pid = (pid_t)r.pid;
	nfd = 0;
	if (r.flags & SL_SPAWN_PIDFD)
		out->pidfd = fds[nfd++];
	if (r.flags & SL_SPAWN_ENDFD)
		out->endfd = fds[nfd++];
	return 0;
}

void sl_spawned_close(struct sl_spawned *out)
{
	if (out->pidfd >= 0)
		close(out->pidfd);
	if (out->endfd >= 0)
		close(out->endfd);
	out->pidfd = out->endfd = -1;
}

int sl_spawner_send(struct sl_spawner *sp, const char *dir, int lockfd, struct sl_err *err)
{
	int r;
	reap_old(sp, 0);
	if (sp->fd < 0) {
		if (sp->retry_at != 0 && sl_mono_ms() < sp->retry_at)
			return sl_err_set(err, SL_EIO, "stepd server: not running");
		if ((r = start(sp, err)) != 0) {
			sl_warn("%s; supervisors are exec'd for %d s", err->msg, RETRY_MS / 1000);
			return r;
		}
	}
	if (sl_fd_send(sp->fd, dir, strlen(dir) + 1, lockfd) != 0) {
		r = sl_err_set(err, SL_EIO, "stepd server: send: %s", strerror(errno));
		sl_warn("%s; supervisors are exec'd for %d s", err->msg, RETRY_MS / 1000);
		stop(sp, 1);
		return r;
	}
	sp->inflight++;
	return 0;
}

int sl_spawner_recv(struct sl_spawner *sp, int wait, struct sl_spawned *out, struct sl_err *err)
{
	int r;
	out->pid = 0;
	out->pidfd = out->endfd = -1;
	if (sp->fd < 0 || sp->inflight == 0)
		return sl_err_set(err, SL_EPROTO, "stepd server: no answer is due");
	r = answer(sp, wait, out, err);
	if (r == -SL_EPROTO) {
		sl_warn("%s; supervisors are exec'd for %d s", err->msg, RETRY_MS / 1000);
		stop(sp, 1);
	}
	return r;
}

int sl_spawner_spawn(struct sl_spawner *sp, const char *dir, int lockfd, struct sl_spawned *out,
		     struct sl_err *err)
{
	int r;
	/* answers come in order: this one is the last due */
	while (sp->inflight > 0 && (r = sl_spawner_recv(sp, 1, out, err)) != -SL_EPROTO)
		if (r == 0)
			sl_spawned_close(out);
	if ((r = sl_spawner_send(sp, dir, lockfd, err)) != 0)
		return r;
	return sl_spawner_recv(sp, 1, out, err);
}

size_t sl_spawner_inflight(const struct sl_spawner *sp)
{
	return sp->inflight;
}

int sl_spawner_fd(const struct sl_spawner *sp)
{
	return sp->fd;
}

void sl_spawner_restart(struct sl_spawner *sp)
{
	if (sp->fd >= 0)
		sl_info("stepd server pid %d let go: the next job starts a new one", (int)sp->pid);
	stop(sp, 0);
	sp->retry_at = 0;
}

pid_t sl_spawner_pid(const struct sl_spawner *sp)
{
	return sp->pid;
}

void sl_spawner_free(struct sl_spawner *sp)
{
	if (sp == NULL)
		return;
	stop(sp, 0);
	free(sp->stepd_path);
	free(sp->jobs_dir);
	free(sp);
}
