/* agent_task.c - one connection of the step agent (agent.h): the
 * handshake, then one task started and relayed until it ends. It runs in
 * a process of its own, forked by the agent per connection, so a task's
 * streams never wait on another's. */
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "agent_wire.h"
#include "fsutil.h"
#include "xalloc.h"

#define HANDSHAKE_SECS 10 /* a peer that sends no request in time is dropped */
#define DRAIN_MS 1000     /* output still open after the task ended: what srun waits */
#define END_KILL_MS 2000  /* SIGTERM to SIGKILL when the agent ends */
/* stdin the task has not read yet: past this, srun's frames wait in the
 * socket (and srun's relay stops reading its stdin), as srun's own cap */
#define STDIN_BACKLOG_MAX (4u << 20)

static int sigp[2] = {-1, -1};

static void on_sig(int sig)
{
	int e = errno;
	(void)!write(sigp[1], &sig, sizeof(sig));
	errno = e;
}

static void task_child(struct agent_launch *q, int in, int out, int err)
{
	char *prog;
	const char *node = q->node ? q->node : "?";
	sl_signals_default_all();
	(void)setpgid(0, 0);
	/* a new string: srun's relay already wrote its own, shorter pid in the
	 * room it had, where this pod's pid may not fit */
	for (char **e = q->env; e && *e; e++)
		if (strncmp(*e, "SLURM_TASK_PID=", 15) == 0)
			*e = sl_xasprintf("SLURM_TASK_PID=%d", (int)getpid());
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(1);
	if (q->cwd && sl_task_chdir(node, q->cwd) != 0) /* slurmstepd's words and fallback */
		_exit(1);
	prog = sl_find_program(q->argv[0], q->env);
	execve(prog, q->argv, q->env ? q->env : (char *[]){NULL});
	int e = errno;
	dprintf(2, "slurmstepd-%s: error: execve(): %s: %s\n", node, q->argv[0], strerror(e));
	_exit(e ? e : 1);
}

/* The request, authenticated: 0, or -1 after a REFUSE. */
static int handshake(int sock, const char *secret, struct agent_launch *q)
{
	uint8_t nonce[AGENT_NONCE_LEN];
	struct timeval tv = {HANDSHAKE_SECS, 0};
	struct sl_err err = SL_ERR_INIT;
	char *p = NULL;
	size_t n;
	int type, r = -1;

	(void)setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce) ||
	    agent_frame_write(sock, AF_HELLO, nonce, sizeof(nonce)) != 0 ||
	    agent_frame_read(sock, &type, &p, &n) != 0)
		goto out;
	if (type != AF_LAUNCH)
		sl_err_set(&err, SL_EPROTO, "expected a launch request");
	else if (agent_launch_decode(p, n, secret, nonce, q, &err) == 0)
		r = 0;
	if (r != 0) {
		fprintf(stderr, "sluice-stepd: agent: refused a request: %s\n", err.msg);
		(void)agent_frame_write(sock, AF_REFUSE, err.msg, strlen(err.msg));
	}
out:
	tv.tv_sec = 0;
	(void)setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	free(p);
	return r;
}

struct relay {
	int sock, out, err, in; /* in: the task's stdin pipe, -1 once closed */
	char *pend;             /* stdin not yet written to it (non-blocking) */
	size_t npend;
	int in_eof;             /* close in once pend is written */
	pid_t pid;
	int status, done;
	int64_t drain_until, kill_at;
};

/* Write what the task's stdin pipe takes now; close it after EOF. A task
 * gone or not reading stdin drops it, as a closed pipe would. */
static void stdin_drain(struct relay *r)
{
	while (r->in >= 0 && r->npend > 0) {
		ssize_t w = write(r->in, r->pend, r->npend);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) {
			r->npend = 0;
			break;
		}
		memmove(r->pend, r->pend + w, r->npend - (size_t)w);
		r->npend -= (size_t)w;
	}
	if (r->in >= 0 && r->in_eof && r->npend == 0) {
		close(r->in);
		r->in = -1;
	}
}

/* A frame from srun; -1 when the connection is gone. */
static int from_srun(struct relay *r)
{
	char *p;
	size_t n;
	int type, sig;
	if (agent_frame_read(r->sock, &type, &p, &n) != 0)
		return -1;
	if (type == AF_STDIN && r->in >= 0 && n > 0) {
		r->pend = sl_xrealloc(r->pend, r->npend + n);
		memcpy(r->pend + r->npend, p, n);
		r->npend += n;
		stdin_drain(r);
	} else if (type == AF_STDIN_EOF) {
		r->in_eof = 1;
		stdin_drain(r);
	} else if (type == AF_SIGNAL && n == sizeof(int)) {
		memcpy(&sig, p, sizeof(sig));
		if (sig > 0 && sig < NSIG && !r->done && kill(-r->pid, sig) != 0)
			(void)kill(r->pid, sig);
	}
	free(p);
	return 0;
}

/* Task output to srun; -1 when srun is gone. */
static int to_srun(struct relay *r, int *fd, int type)
{
	char buf[16384];
	ssize_t n = read(*fd, buf, sizeof(buf));
	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	return agent_frame_write(r->sock, type, buf, (size_t)n) == 0 ? 0 : -1;
}

static void on_signals(struct relay *r)
{
	int sig;
	while (read(sigp[0], &sig, sizeof(sig)) == (ssize_t)sizeof(sig)) {
		if (sig == SIGTERM && !r->done) { /* the agent ends: end the task too */
			(void)kill(-r->pid, SIGCONT);
			(void)kill(-r->pid, SIGTERM);
			if (!r->kill_at)
				r->kill_at = sl_mono_ms() + END_KILL_MS;
		}
	}
	if (!r->done && waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
		r->done = 1;
		r->drain_until = sl_mono_ms() + DRAIN_MS;
	}
}

static int relay_finished(const struct relay *r, int64_t now)
{
	return r->done && ((r->out < 0 && r->err < 0) || now >= r->drain_until);
}

static void relay_loop(struct relay *r)
{
	int64_t now;
	while (!relay_finished(r, now = sl_mono_ms())) {
		struct pollfd p[5] = {{sigp[0], POLLIN, 0},
				      {r->npend < STDIN_BACKLOG_MAX ? r->sock : -1, POLLIN, 0},
				      {r->out, POLLIN, 0}, {r->err, POLLIN, 0},
				      {r->npend ? r->in : -1, POLLOUT, 0}};
		int64_t wake = r->done ? r->drain_until : r->kill_at ? r->kill_at : -1;
		if (poll(p, 5, wake < 0 ? -1 : (int)(wake > now ? wake - now : 0)) < 0 &&
		    errno != EINTR)
			break;
		if (p[0].revents)
			on_signals(r);
		if (p[4].revents)
			stdin_drain(r);
		if ((p[1].revents && from_srun(r) != 0) ||
		    (p[2].revents && to_srun(r, &r->out, AF_STDOUT) != 0) ||
		    (p[3].revents && to_srun(r, &r->err, AF_STDERR) != 0)) {
			if (!r->done) /* srun is gone: so is its task */
				(void)kill(-r->pid, SIGKILL);
			return;
		}
		if (r->kill_at && sl_mono_ms() >= r->kill_at && !r->done) {
			(void)kill(-r->pid, SIGKILL);
			r->kill_at = 0;
		}
	}
	if (r->done)
		(void)agent_frame_write(r->sock, AF_EXIT, &r->status, sizeof(r->status));
}

static int start(struct relay *r, struct agent_launch *q)
{
	int pi[2], po[2], pe[2];
	if (pipe2(pi, O_CLOEXEC) != 0 || pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0)
		return -1;
	r->pid = fork();
	if (r->pid == 0)
		task_child(q, pi[0], po[1], pe[1]);
	close(pi[0]);
	close(po[1]);
	close(pe[1]);
	r->in = pi[1];
	(void)fcntl(r->in, F_SETFL, O_NONBLOCK);
	r->out = po[0];
	r->err = pe[0];
	if (r->pid < 0)
		return -1;
	(void)setpgid(r->pid, r->pid);
	return 0;
}

int agent_task_serve(int sock, const char *secret)
{
	struct agent_launch q;
	struct relay r = {.sock = sock, .in = -1, .out = -1, .err = -1};
	struct sigaction sa;
	int rc = 1;

	if (pipe2(sigp, O_CLOEXEC | O_NONBLOCK) != 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* SO_RCVTIMEO bounds each read; this bounds the whole handshake (a
	 * peer sending a byte every few seconds would hold the session) */
	alarm(HANDSHAKE_SECS);
	if (handshake(sock, secret, &q) != 0)
		return 1;
	alarm(0);
	if (start(&r, &q) != 0) {
		char msg[256];
		snprintf(msg, sizeof(msg), "cannot start the task: %s", strerror(errno));
		(void)agent_frame_write(sock, AF_REFUSE, msg, strlen(msg));
		goto out;
	}
	relay_loop(&r);
	rc = 0;
out:
	if (r.in >= 0)
		close(r.in);
	free(r.pend);
	if (r.out >= 0)
		close(r.out);
	if (r.err >= 0)
		close(r.err);
	agent_launch_clear(&q);
	return rc;
}
