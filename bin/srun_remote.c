/* srun_remote.c - the relay of one task started by a pod's step agent
 * (srun_remote.h). */
#include "srun_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "agent_wire.h"
#include "netaddr.h"
#include "xalloc.h"

#define HOSTS_LINE_MAX 1024
#define AGENT_WAIT_SECS 120
#define CONNECT_MS 5000      /* one attempt: a pod that drops SYNs */

static int sigp[2] = {-1, -1};
static const int relayed[] = {SIGINT, SIGQUIT, SIGCONT, SIGTERM, SIGHUP, SIGALRM,
			      SIGUSR1, SIGUSR2, SIGTSTP};

int srun_remote_detect(struct srun_remote *r)
{
	const char *port = getenv(AGENT_PORT_ENV);
	if (port == NULL || *port == '\0')
		return 0;
	r->port = agent_port();
	r->secret = getenv(AGENT_SECRET_ENV);
	r->hosts = getenv(AGENT_HOSTS_ENV);
	return 1;
}

static void on_sig(int sig)
{
	int e = errno;
	(void)!write(sigp[1], &sig, sizeof(sig));
	errno = e;
}

/* node's address: the tests' hosts file ("ADDR NAME..." lines), else DNS
 * (the pods' search path holds the JobSet's headless service). */
static char *address_of(const struct srun_remote *r, const char *node)
{
	char line[HOSTS_LINE_MAX], *found = NULL;
	FILE *f = r->hosts && *r->hosts ? fopen(r->hosts, "re") : NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *save, *addr = strtok_r(line, " \t\n", &save), *name;
		if (addr == NULL || *addr == '#')
			continue;
		while (!found && (name = strtok_r(NULL, " \t\n", &save)) != NULL)
			if (strcmp(name, node) == 0)
				found = sl_xstrdup(addr);
	}
	if (f)
		fclose(f);
	return found ? found : sl_xstrdup(node);
}

static int dial_once(const struct srun_remote *r, const char *node, int ms, char *why, size_t len)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
	char port[16], *addr = address_of(r, node);
	int fd = -1, e;
	snprintf(port, sizeof(port), "%d", r->port);
	if ((e = getaddrinfo(addr, port, &hints, &res)) != 0) {
		snprintf(why, len, "%s: %s", addr, gai_strerror(e));
		free(addr);
		return -1;
	}
	snprintf(why, len, "%s port %s: no address to connect to", addr, port);
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		if ((e = sl_tcp_connect(ai, ms, &fd)) != 0) {
			snprintf(why, len, "%s port %s: %s", addr, port, strerror(-e));
			fd = -1;
		}
	}
	freeaddrinfo(res);
	free(addr);
	return fd;
}

/* The pods of a JobSet start in any order: the script on index 0 may run
 * before another pod's agent listens, or before its name resolves. srun
 * retries for $SLUICE_AGENT_WAIT seconds (AGENT_WAIT_SECS), as Slurm's
 * step launch waits for its nodes to boot; then the task fails. */
static int dial(const struct srun_remote *r, const char *node, char *why, size_t len)
{
	const char *w = getenv("SLUICE_AGENT_WAIT");
	int64_t deadline = sl_mono_ms() + (w && *w ? atol(w) : AGENT_WAIT_SECS) * 1000, left;
	long step = 50;
	int fd = -1;
	snprintf(why, len, "%s: SLUICE_AGENT_WAIT leaves no time to connect", node);
	/* The budget counts the attempts too, not only the pauses between; an
	 * attempt gets what is left of it, a second at least. */
	while ((left = deadline - sl_mono_ms()) >= 0 &&
	       (fd = dial_once(r, node, left < 1000 ? 1000 : left < CONNECT_MS ? (int)left
							    : CONNECT_MS, why, len)) < 0 &&
	       (left = deadline - sl_mono_ms()) > 0) {
		long ms = step < left ? step : left;
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
		nanosleep(&ts, NULL);
		step = step < 1000 ? step * 2 : 1000;
	}
	return fd;
}

static void die(const char *node, const char *what) __attribute__((noreturn));
static void die(const char *node, const char *what)
{
	dprintf(2, "srun: error: Task launch failed on node %s: %s\n", node, what);
	_exit(1);
}

/* The task's end as the relay's own: its code, or its signal re-raised. */
static void end_as(int status) __attribute__((noreturn));
static void end_as(int status)
{
	if (WIFSIGNALED(status)) {
		struct rlimit none = {0, 0};
		sigset_t s;
		(void)setrlimit(RLIMIT_CORE, &none); /* the task dumped its core, if any */
		signal(WTERMSIG(status), SIG_DFL);
		sigemptyset(&s);
		sigaddset(&s, WTERMSIG(status));
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		raise(WTERMSIG(status));
		_exit(128 + WTERMSIG(status));
	}
	_exit(WEXITSTATUS(status));
}

static void launch(const struct srun_remote *r, int sock, const char *node, char **argv,
		   char **env, const char *cwd)
{
	struct agent_launch q = {argv, env, (char *)cwd, (char *)node};
	char *hello, *req;
	size_t n;
	int type;
	if (agent_frame_read(sock, &type, &hello, &n) != 0 || type != AF_HELLO ||
	    n != AGENT_NONCE_LEN)
		die(node, "the step agent did not greet");
	req = agent_launch_encode(&q, r->secret ? r->secret : "", (uint8_t *)hello, &n);
	if (agent_frame_write(sock, AF_LAUNCH, req, n) != 0)
		die(node, "the step agent closed the connection");
	free(req);
	free(hello);
}

/* A frame from the agent: 1 once it carried the task's end. */
static int from_agent(int sock, const char *node, int *status)
{
	char *p, msg[1100];
	size_t n;
	int type, done = 0;
	if (agent_frame_read(sock, &type, &p, &n) != 0)
		die(node, "the step agent closed the connection before the task ended");
	if (type == AF_STDOUT || type == AF_STDERR) {
		for (size_t off = 0; off < n;) {
			ssize_t w = write(type == AF_STDOUT ? 1 : 2, p + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += (size_t)w;
		}
	} else if (type == AF_EXIT && n == sizeof(int)) {
		memcpy(status, p, sizeof(int));
		done = 1;
	} else if (type == AF_REFUSE) {
		snprintf(msg, sizeof(msg), "the step agent refused it: %.1000s", p);
		die(node, msg);
	}
	free(p);
	return done;
}

static int writable(int sock)
{
	struct pollfd p = {sock, POLLOUT, 0};
	return poll(&p, 1, 0) == 1 && (p.revents & POLLOUT);
}

/* One read of the task's stdin, sent on: the fd, or -1 after EOF. */
static int stdin_to(int sock, int in, char *buf, size_t len)
{
	ssize_t k = read(in, buf, len);
	if (k > 0) {
		(void)agent_frame_write(sock, AF_STDIN, buf, (size_t)k);
		return in;
	}
	if (k < 0 && errno == EINTR)
		return in;
	(void)agent_frame_write(sock, AF_STDIN_EOF, NULL, 0);
	return -1;
}

void srun_remote_task(const struct srun_remote *r, const char *node, char **argv, char **env,
		      const char *cwd)
{
	char why[512], buf[16384];
	struct sigaction sa;
	int sock, status = 0, in = 0, out_full = 0;

	/* srun's other pipes (other tasks' stdin above all) must not stay open
	 * here: a task would never see its EOF */
	(void)close_range(3, ~0U, 0);
	if (pipe2(sigp, O_CLOEXEC | O_NONBLOCK) != 0)
		_exit(1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		sigaction(relayed[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if ((sock = dial(r, node, why, sizeof(why))) < 0)
		die(node, why);
	launch(r, sock, node, argv, env, cwd);
	for (;;) {
		/* stdin is read only while the socket takes more: the agent stops
		 * reading it when its task does not read, and then the task's
		 * output must still get through */
		struct pollfd p[3] = {{sigp[0], POLLIN, 0},
				      {sock, POLLIN | (out_full ? POLLOUT : 0), 0},
				      {out_full ? -1 : in, POLLIN, 0}};
		int sig;
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			_exit(1);
		while (p[0].revents && read(sigp[0], &sig, sizeof(sig)) == (ssize_t)sizeof(sig))
			(void)agent_frame_write(sock, AF_SIGNAL, &sig, sizeof(sig));
		if (p[1].revents & POLLOUT)
			out_full = 0;
		if (p[2].revents && !writable(sock))
			out_full = 1;
		else if (p[2].revents)
			in = stdin_to(sock, in, buf, sizeof(buf));
		if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) && from_agent(sock, node, &status))
			end_as(status);
	}
}

/* The counter is a file both commands lock: steps started at once in
 * pod 0 get ids of their own. */
uint32_t srun_remote_step_id(uint64_t job)
{
	const char *tmp = getenv("TMPDIR");
	char *path = sl_xasprintf("%s/.sluice-steps-%llu", tmp && *tmp ? tmp : "/tmp",
				  (unsigned long long)job);
	char buf[32] = "";
	uint32_t id = 0;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 && lockf(fd, F_LOCK, 0) == 0) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		id = n > 0 ? (uint32_t)strtoul(buf, NULL, 10) : 0;
		n = snprintf(buf, sizeof(buf), "%u\n", id + 1);
		(void)!pwrite(fd, buf, (size_t)n, 0);
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return id;
}
