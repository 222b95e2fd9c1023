/* stepd_server.c - `sluice-stepd --server JOBSDIR`: sluiced's fork server,
 * and the supervisors it keeps.
 *
 * Starting a supervisor used to cost sluiced a fork of its own large
 * process (its descriptor table grows with every running job's pidfd) and
 * the supervisor an exec, with glibc's start-up probing the CPU through
 * cpuid, which traps to the hypervisor on a VM. This process is exec'd
 * once, and forks itself for a job when none of its supervisors is free.
 * A supervisor it forked does not exit with its job: it reports back and
 * waits for the next one, which spares each short job a fork, an exit and
 * the page faults of a fresh copy (together a quarter of all the CPU a
 * drain of `true` jobs used).
 *
 * Protocol with sluiced, over the SOCK_SEQPACKET socket on fd 3
 * (stepd_spawner.h):
 *   request: the job directory, NUL-terminated, with its locked lock file
 *            attached (SCM_RIGHTS);
 *   reply:   struct sl_spawn_reply, with the supervisor's pidfd and the read
 *            end of the job's end pipe attached, as its flags say.
 * Only a sluiced that starts the server with --keep gets that: one from
 * before (still running when SIGHUP starts a new server from the program on
 * disk) gets the reply it knows, {err, pid} and the pidfd, and supervisors
 * that exit with their jobs.
 * With a kept supervisor (each has its own socket to us, fd 4 on its side):
 *   to it:   the job directory with the lock and the end pipe's write end;
 *   from it: one byte when it is free again.
 * A job's end, as the supervisor lives it: the result written, the lock
 * closed, a byte on the end pipe (sluiced collects the job), then it waits
 * until sluiced has closed the pipe's other end. Every signal sluiced sent
 * for that job was sent before that close, so the supervisor drops all that
 * are pending and only then reports free: a cancel meant for one job never
 * ends the next. Anything that leaves the process changed (a PAM session, a
 * process of the job it cannot reap) makes it exit instead, as every
 * supervisor once did.
 *
 * Limits: a free supervisor is let go after IDLE_MS, at most IDLE_MAX are
 * kept free (the one free longest goes first), and a supervisor exits after
 * KEPT_JOBS_MAX jobs. A test lowers them through the environment, read once
 * at start: SLUICE_STEPD_IDLE_MS, SLUICE_STEPD_IDLE_MAX and
 * SLUICE_STEPD_JOBS_MAX, each a whole number from 1 to its default (a bad
 * one is logged and the default used). Lower only: the free list is an array
 * of IDLE_MAX, and a longer wait or a longer life is not something a test
 * needs. sluiced passes its environment on to the server it starts.
 *
 * The kernel reaps the children (SIGCHLD ignored): with a thousand of them,
 * each waitpid(-1) would walk them all. On EOF (sluiced has gone) the server
 * exits and its free supervisors with it; the busy ones finish their jobs
 * and exit, since nobody is left to give them another. */
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <grp.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fdpass.h"
#include "log.h"
#include "proctree.h"
#include "exec/local/stepd_spawner.h"

#define CTL_FD SL_STEPD_LOCK_FD /* the server's socket; its children's lock */

struct title {
	char *start;              /* argv[0]: the area `ps` shows */
	size_t len;               /* up to the end of the last argument */
};

/* Show a child as the supervisor it has become: `sluice-stepd [-D] DIR`,
 * as when each was exec'd, so ps and pgrep -f find a job's supervisor by
 * its directory (a flag comes before DIR when given). Truncated if the
 * area is too small (ids over 8 digits). */
static size_t put(char *buf, size_t n, size_t cap, const char *s)
{
	size_t l = strlen(s) + 1;
	if (l > cap - n)
		l = cap - n;
	memcpy(buf + n, s, l);
	return n + l;
}

static void set_title(const struct title *t, int fg, const char *flag, const char *dir)
{
	char buf[4096];
	size_t n;
	if (t->len == 0 || t->len > sizeof(buf))
		return;
	n = put(buf, 0, t->len, t->start);
	if (fg)
		n = put(buf, n, t->len, "-D");
	if (flag != NULL)
		n = put(buf, n, t->len, flag);
	n = put(buf, n, t->len, dir);
	memset(buf + n, 0, t->len - n);
	buf[t->len - 1] = '\0';
	memcpy(t->start, buf, t->len);
}

/* ---- the server's state, which each supervisor forked from it shares ---- */

#define IDLE_MAX 256          /* free supervisors kept, at most */
#define IDLE_MS 60000         /* a supervisor free this long is let go */
#define KEPT_JOBS_MAX 1000    /* then it exits: whatever it leaks stays bounded */

struct kept {
	int fd;                   /* our end of its socket */
	pid_t pid;
	int pidfd;                /* -1: none */
	int64_t idle_since;       /* monotonic ms; 0: busy */
	int dropped;              /* let go; freed after the turn's events */
	struct kept *prev, *next; /* all of them, busy or free; or the dropped */
};

struct server {
	const struct title *t;
	int fg;
	int keep;                 /* --keep: supervisors kept, end pipes, replies
	                           * with flags; else the protocol from before */
	char *jobs_dir;
	long idle_ms;             /* IDLE_MS, or less (the environment's) */
	size_t idle_max;          /* IDLE_MAX, or less */
	long jobs_max;            /* KEPT_JOBS_MAX, or less */
	int ep;                   /* epoll: sluiced's socket and the supervisors' */
	struct kept *idle[IDLE_MAX]; /* free ones, the last freed on top */
	size_t nidle;
	struct kept *all;
	struct kept *dropped;     /* this turn's: an event still due may name one */
};

/* A limit from the environment: unset, or not a whole number from 1 to
 * `max` (logged), gives `max`. */
static long limit_env(const char *name, long max)
{
	const char *s = getenv(name);
	char *end;
	long v;
	if (s == NULL)
		return max;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 1 || v > max) {
		sl_err_log("server: %s=%.40s: not a whole number from 1 to %ld; %ld used", name, s,
			   max, max);
		return max;
	}
	return v;
}

/* ---- a kept supervisor ---- */

#define COLLECT_MS 60000     /* sluiced collects a job within this, or we exit */

/* fd onto want, close-on-exec; the source closed. Targets are free first
 * (see place_all). */
static int place(int fd, int want)
{
	if (fd == want)
		return fcntl(fd, F_SETFD, FD_CLOEXEC);
	int r = dup3(fd, want, O_CLOEXEC);
	close(fd);
	return r < 0 ? -1 : 0;
}

/* The lock, the server's socket and the end pipe onto fds 3, 4 and 5: moved
 * out of the way first, since any of them may sit on another's target. */
static int place_all(int lockfd, int poolfd, int endfd)
{
	int src[3] = {lockfd, poolfd, endfd}, hi[3];
	for (int i = 0; i < 3; i++) {
		hi[i] = src[i] < 0 ? -1 : fcntl(src[i], F_DUPFD_CLOEXEC, SL_STEPD_END_FD + 1);
		if (src[i] >= 0)
			close(src[i]);
		if (hi[i] < 0)
			return -1;
	}
	for (int i = 0; i < 3; i++)
		if (place(hi[i], SL_STEPD_LOCK_FD + i) != 0)
			return -1;
	return 0;
}

/* The job is over and its lock closed: tell sluiced, then wait until it
 * has collected the job (closed its end), drop the signals meant for it,
 * and report free. 0 when a next job may come. */
static int job_done(void)
{
	struct pollfd p = {SL_STEPD_END_FD, 0, 0};
	/* Nobody reading (EPIPE): the sluiced that launched the job has gone
	 * or let it go, and one that adopted it follows this process's exit. */
	if (write(SL_STEPD_END_FD, "", 1) != 1)
		return -1;
	/* POLLERR on a pipe's write end: no reader left */
	while (poll(&p, 1, COLLECT_MS) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLERR))
		return -1;
	close(SL_STEPD_END_FD);
	if (!stepd_settle())
		return -1;
	if (geteuid() == 0)
		(void)setgroups(0, NULL); /* the last user's groups, no longer needed */
	stepd_drain_signals();
	return send(SL_STEPD_POOL_FD, "", 1, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* The next job from the server into dir; -1 at EOF (the server has gone,
 * or let us go) or on a malformed message. */
static int next_job(char *dir, size_t cap)
{
	int fds[2];
	size_t n = 0;
	ssize_t got;
	while ((got = sl_fd_recvv(SL_STEPD_POOL_FD, dir, cap, fds, 2, &n)) < 0 && errno == EINTR)
		;
	if (got <= 0 || n != 2 || dir[got - 1] != '\0') {
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		return -1;
	}
	if (place(fds[0], SL_STEPD_LOCK_FD) != 0 || place(fds[1], SL_STEPD_END_FD) != 0)
		return -1;
	return 0;
}

/* In the child: become the supervisor of `dir`, as if exec'd, and of the
 * jobs the server hands over after it. Only returns through _exit. */
static void become_stepd(const struct server *sv, const char *first_dir, int lockfd, int poolfd,
			 int endfd)
{
	const struct title *t = sv->t;
	int fg = sv->fg;
	char dir[4096];
	int rc = 0;
	if (poolfd < 0) { /* not kept (no --keep): one job, as an exec'd one */
		if (dup2(lockfd, SL_STEPD_LOCK_FD) < 0) /* replaces the server's socket */
			_exit(1);
		close(lockfd);
		(void)signal(SIGPIPE, SIG_DFL);
		(void)signal(SIGCHLD, SIG_DFL);
		set_title(t, fg, NULL, first_dir);
		rc = stepd_run(fg, first_dir, 1);
		fflush(NULL);
		_exit(rc);
	}
	if (place_all(lockfd, poolfd, endfd) != 0) /* the lock replaces the server's socket */
		_exit(1);
	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGCHLD, SIG_DFL);
	snprintf(dir, sizeof(dir), "%s", first_dir);
	for (int jobs = 0;; jobs++) {
		int reusable = 0;
		set_title(t, fg, NULL, dir);
		rc = stepd_run_kept(fg, dir, jobs == 0, &reusable);
		close(SL_STEPD_LOCK_FD); /* the job is over: the lock goes first */
		if (rc != 0 || !reusable || jobs + 1 >= sv->jobs_max || job_done() != 0)
			break;
		/* between jobs: `sluice-stepd --free JOBSDIR` */
		set_title(t, fg, "--free", sv->jobs_dir);
		if (next_job(dir, sizeof(dir)) != 0)
			break;
	}
	/* _exit: the server's libraries (PAM, audit, cap-ng) registered
	 * destructors that each fault their pages into this copy only to run
	 * at exit; the supervisor has nothing buffered but stdio. The end pipe
	 * closes with us, after the lock. */
	fflush(NULL);
	_exit(rc);
}

/* ---- the server ---- */

static void kept_drop(struct server *sv, struct kept *k)
{
	for (size_t i = 0; i < sv->nidle; i++)
		if (sv->idle[i] == k) {
			memmove(&sv->idle[i], &sv->idle[i + 1], (sv->nidle - i - 1) * sizeof(k));
			sv->nidle--;
			break;
		}
	/* out of epoll first: a child forked a moment ago still holds a copy of
	 * the socket, and epoll would go on reporting it, with k freed */
	(void)epoll_ctl(sv->ep, EPOLL_CTL_DEL, k->fd, NULL);
	close(k->fd); /* a free one reads EOF and exits; a busy one, at its end */
	if (k->pidfd >= 0)
		close(k->pidfd);
	if (k->prev != NULL)
		k->prev->next = k->next;
	else
		sv->all = k->next;
	if (k->next != NULL)
		k->next->prev = k->prev;
	k->dropped = 1;
	k->prev = NULL;
	k->next = sv->dropped;
	sv->dropped = k;
}

static void free_dropped(struct server *sv)
{
	while (sv->dropped != NULL) {
		struct kept *k = sv->dropped;
		sv->dropped = k->next;
		free(k);
	}
}

/* A byte from a supervisor: it is free; EOF: it has exited. */
static void kept_event(struct server *sv, struct kept *k)
{
	char c;
	if (k->dropped) /* by an earlier event of the same turn */
		return;
	ssize_t n = recv(k->fd, &c, 1, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || k->idle_since != 0) {
		kept_drop(sv, k);
		return;
	}
	if (sv->nidle == sv->idle_max)
		kept_drop(sv, sv->idle[0]); /* the coldest goes */
	k->idle_since = sl_mono_ms();
	if (k->idle_since == 0)
		k->idle_since = 1;
	sv->idle[sv->nidle++] = k;
}

/* The free supervisors let go after idle_ms (the oldest are at the
 * bottom); the time until the next is due, for epoll_wait. */
static int expire(struct server *sv)
{
	int64_t now = sl_mono_ms();
	while (sv->nidle > 0 && now - sv->idle[0]->idle_since >= sv->idle_ms)
		kept_drop(sv, sv->idle[0]);
	if (sv->nidle == 0)
		return -1;
	return (int)(sv->idle[0]->idle_since + sv->idle_ms - now);
}

static void reply(const struct server *sv, int err, pid_t pid, int pidfd, int endfd)
{
	struct sl_spawn_reply r = {err, (int32_t)pid, 0};
	/* without --keep, a sluiced from before it asked: {err, pid} alone */
	size_t len = sv->keep ? sizeof(r) : offsetof(struct sl_spawn_reply, flags);
	int fds[2];
	size_t n = 0;
	if (pidfd >= 0) {
		r.flags |= SL_SPAWN_PIDFD;
		fds[n++] = pidfd;
	}
	if (endfd >= 0) {
		r.flags |= SL_SPAWN_ENDFD;
		fds[n++] = endfd;
	}
	if (sl_fd_sendv(CTL_FD, &r, len, fds, n) != 0)
		sl_err_log("server: reply: %s", strerror(errno));
}

/* Hand the job to a free supervisor: its pid and pidfd (ours, not to be
 * closed), or 0 when none could take it. */
static pid_t hand_over(struct server *sv, const char *dir, int lockfd, int endfd, int *pidfd)
{
	int fds[2] = {lockfd, endfd};
	while (sv->nidle > 0) {
		struct kept *k = sv->idle[--sv->nidle];
		if (sl_fd_sendv(k->fd, dir, strlen(dir) + 1, fds, 2) == 0) {
			k->idle_since = 0;
			*pidfd = k->pidfd;
			return k->pid;
		}
		kept_drop(sv, k); /* it died while free */
	}
	return 0;
}

/* A pidfd that names our child `pid`, or -1. The kernel reaps our children
 * (SIGCHLD ignored), so one that exits before the open has freed its pid,
 * and another process may have taken it: the pidfd would name that one, and
 * sluiced would signal it. Hence the check after the open that the pid's
 * parent is us: only a process we fork can be our child (we are no
 * subreaper), and we fork nothing meanwhile, so it is this child, alive at
 * the check and thus at the open. clone3(CLONE_PIDFD) would close the gap in
 * the kernel, but glibc 2.36 has no wrapper, a raw clone3 skips fork()'s
 * upkeep in a child that goes on to run PAM and fork the job (its cached
 * tid, robust-futex list, at-fork handlers), and a seccomp profile that
 * refuses clone3 (ENOSYS) would still need this check. Cost: one read of
 * /proc/<pid>/stat per fork, none per job handed over. Without a pidfd
 * (gone, an old kernel, no /proc) sluiced proves the pid itself. */
static int child_pidfd(pid_t pid)
{
	int fd = sl_pidfd_open(pid);
	if (fd >= 0 && sl_proc_parent(pid) != getpid()) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Fork a new supervisor for the job, kept once it is done. It is born with
 * its signals blocked (jobdir.h): sluiced may signal it as soon as it has
 * our reply, before it has set up (stepd.c: detach), and a SIGTERM taken
 * by its default action then would kill it before `started`, leaving a job
 * its user cancelled to be requeued. Pending, it finds the signal once
 * ready (stepd_cancel_pending). Cost: two sigprocmask calls per fork; none
 * per job handed to a kept supervisor, which has them blocked for life. */
static pid_t fork_one(struct server *sv, const char *dir, int lockfd, int endfd, int *pidfd,
		      int *kept, int *err)
{
	int sp[2] = {-1, -1};
	struct kept *k = NULL;
	sigset_t block, old;
	if (sv->keep && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		*err = errno;
		return 0;
	}
	sl_stepd_sigset(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t pid = fork();
	if (pid == 0) {
		if (sp[0] >= 0)
			close(sp[0]);
		become_stepd(sv, dir, lockfd, sp[1], endfd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (sp[1] >= 0)
		close(sp[1]);
	if (pid < 0) {
		*err = errno;
		if (sp[0] >= 0)
			close(sp[0]);
		return 0;
	}
	if (sp[0] >= 0)
		k = calloc(1, sizeof(*k));
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = k};
	if (k == NULL || epoll_ctl(sv->ep, EPOLL_CTL_ADD, sp[0], &ev) != 0) {
		if (sp[0] >= 0)
			close(sp[0]); /* it runs its job, then exits: not kept */
		free(k);
		k = NULL;
	} else {
		k->fd = sp[0];
		k->pid = pid;
		k->next = sv->all;
		if (sv->all != NULL)
			sv->all->prev = k;
		sv->all = k;
	}
	int fd = child_pidfd(pid);
	if (k != NULL)
		k->pidfd = fd;
	*pidfd = fd;
	*kept = k != NULL;
	return pid;
}

/* One request: 0 to go on, -1 when sluiced has gone. */
static int serve_one(struct server *sv)
{
	char dir[4096];
	int lockfd = -1, end[2] = {-1, -1}, pidfd = -1, e = 0;
	ssize_t n = sl_fd_recv(CTL_FD, dir, sizeof(dir), &lockfd);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN && errno != EMSGSIZE))
		return -1;
	if (n < 0 && errno != EMSGSIZE)
		return 0;
	size_t jl = strlen(sv->jobs_dir);
	/* Only sluiced holds the other end; still, start nothing outside our tree. */
	if (n <= 0 || lockfd < 0 || dir[n - 1] != '\0' || strncmp(dir, sv->jobs_dir, jl) != 0 ||
	    dir[jl] != '/' || strstr(dir + jl, "/..") != NULL) {
		if (lockfd >= 0)
			close(lockfd);
		reply(sv, EINVAL, 0, -1, -1);
		return 0;
	}
	if (sv->keep && pipe2(end, O_CLOEXEC) != 0) {
		e = errno;
		close(lockfd);
		reply(sv, e, 0, -1, -1);
		return 0;
	}
	int kept = 1;
	pid_t pid = sv->keep ? hand_over(sv, dir, lockfd, end[1], &pidfd) : 0;
	if (pid == 0)
		pid = fork_one(sv, dir, lockfd, end[1], &pidfd, &kept, &e);
	close(lockfd);
	if (end[1] >= 0)
		close(end[1]);
	reply(sv, e, pid, e == 0 ? pidfd : -1, e == 0 ? end[0] : -1);
	if (end[0] >= 0)
		close(end[0]);
	/* a kept one's pidfd is ours; one not kept was opened for this reply */
	if (!kept && pidfd >= 0)
		close(pidfd);
	return 0;
}
int stepd_server(int fg, int keep, const char *jobs_dir, char **argv, int argc)
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
	/* a copy: a child's title overwrites the argv area that holds it */
	struct server sv = {.t = &t, .fg = fg, .keep = keep, .jobs_dir = strdup(jobs_dir)};
	sv.idle_ms = limit_env("SLUICE_STEPD_IDLE_MS", IDLE_MS);
	sv.idle_max = (size_t)limit_env("SLUICE_STEPD_IDLE_MAX", IDLE_MAX);
	sv.jobs_max = limit_env("SLUICE_STEPD_JOBS_MAX", KEPT_JOBS_MAX);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL}, got[64];
	if (sv.jobs_dir == NULL || (sv.ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    epoll_ctl(sv.ep, EPOLL_CTL_ADD, CTL_FD, &ev) != 0) {
		sl_err_log("server: epoll: %s", strerror(errno));
		return 1;
	}
	for (;;) {
		int n = epoll_wait(sv.ep, got, 64, expire(&sv));
		if (n < 0 && errno != EINTR)
			break;
		int stop = 0;
		/* the supervisors first: one freed now takes this turn's jobs */
		for (int i = 0; i < n; i++)
			if (got[i].data.ptr != NULL)
				kept_event(&sv, got[i].data.ptr);
		for (int i = 0; i < n; i++)
			if (got[i].data.ptr == NULL && serve_one(&sv) != 0)
				stop = 1;
		free_dropped(&sv);
		if (stop)
			break;
	}
	/* Free supervisors read EOF and exit; busy ones exit after their jobs. */
	while (sv.all != NULL)
		kept_drop(&sv, sv.all);
	free_dropped(&sv);
	free(sv.jobs_dir);
	return 0;
}
