/* agent.c - the step agent's main process (agent.h): the pod's command as
 * its child, the listening socket, one forked process per connection
 * (agent_task.c), and the end when the command ends. */
#include "agent.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_wire.h"
#include "clock.h"
#include "xalloc.h"

#define SESSIONS_MAX 4096 /* connections served at once; more wait in the backlog */
/* How long the sessions get to end their tasks (SIGTERM, then SIGKILL
 * after 2 s) and hand srun the last output; one whose srun stopped reading
 * is blocked in a write and is killed after it. */
#define FINISH_MS 5000

static int sigp[2] = {-1, -1};
static const int passed[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT};

static void on_sig(int sig)
{
	int e = errno;
	(void)!write(sigp[1], &sig, sizeof(sig));
	errno = e;
}

void sl_signals_default_all(void)
{
	sigset_t none;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int agent_install(const char *dest)
{
	struct stat st;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), out = -1, rc = 1;
	char *tmp = sl_xasprintf("%s.tmp", dest);
	off_t off = 0;
	if (in < 0 || fstat(in, &st) != 0 ||
	    (out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755)) < 0)
		goto out;
	while (off < st.st_size)
		if (sendfile(out, in, &off, (size_t)(st.st_size - off)) <= 0)
			goto out;
	if (fchmod(out, 0755) != 0 || close(out) != 0) {
		out = -1;
		goto out;
	}
	out = -1;
	rc = rename(tmp, dest) == 0 ? 0 : 1;
out:
	if (rc != 0)
		fprintf(stderr, "sluice-stepd: cannot install the agent to %s: %s\n", dest,
			strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	free(tmp);
	return rc;
}

/* The listening socket on $SLUICE_AGENT_ADDR (default all) and the port. */
static int listen_on(void)
{
	const char *addr = getenv(AGENT_ADDR_ENV);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)agent_port())};
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (addr && *addr && inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "sluice-stepd: agent: %s=%s is not an IPv4 address\n",
			AGENT_ADDR_ENV, addr);
		close(fd);
		return -1;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, 512) != 0) {
		fprintf(stderr, "sluice-stepd: agent: cannot listen on port %d: %s; srun "
			"cannot start tasks in this pod\n", agent_port(), strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

struct agent {
	pid_t cmd;
	int status, cmd_done;
	pid_t *sess;
	size_t nsess;
};

/* Every child that ended: the command, sessions, and, as the pod's PID 1,
 * any orphan the container's processes leave behind. */
static void reap(struct agent *a)
{
	int st;
	pid_t p;
	while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
		if (p == a->cmd) {
			a->status = st;
			a->cmd_done = 1;
			continue;
		}
		for (size_t i = 0; i < a->nsess; i++)
			if (a->sess[i] == p) {
				a->sess[i] = a->sess[--a->nsess];
				break;
			}
	}
}

static void on_accept(struct agent *a, int lfd, const char *secret)
{
	int s = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	pid_t p;
	if (s < 0)
		return;
	if (a->nsess >= SESSIONS_MAX || (p = fork()) < 0) {
		close(s);
		return;
	}
	if (p == 0) {
		close(lfd);
		sl_signals_default_all();
		_exit(agent_task_serve(s, secret));
	}
	close(s);
	a->sess[a->nsess++] = p;
}

static void on_signals(struct agent *a)
{
	int sig;
	while (read(sigp[0], &sig, sizeof(sig)) == (ssize_t)sizeof(sig))
		if (sig != SIGCHLD && !a->cmd_done && kill(-a->cmd, sig) != 0)
			(void)kill(a->cmd, sig);
	reap(a);
}

static pid_t run_command(char **argv)
{
	pid_t p = fork();
	if (p != 0) {
		if (p > 0)
			(void)setpgid(p, p);
		return p;
	}
	/* its own process group: the pod's SIGTERM reaches the script and the
	 * srun it runs, as Slurm signals a whole step */
	(void)setpgid(0, 0);
	sl_signals_default_all();
	execvp(argv[0], argv);
	fprintf(stderr, "sluice-stepd: agent: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The command ended: its tasks end too, then the agent. */
static void finish(struct agent *a)
{
	int64_t end = sl_mono_ms() + FINISH_MS, now;
	int killed = 0;
	for (size_t i = 0; i < a->nsess; i++)
		(void)kill(a->sess[i], SIGTERM);
	while (a->nsess > 0) {
		struct pollfd p = {sigp[0], POLLIN, 0};
		if ((now = sl_mono_ms()) >= end && !killed) {
			for (size_t i = 0; i < a->nsess; i++)
				(void)kill(a->sess[i], SIGKILL);
			killed = 1;
		}
		if (poll(&p, 1, killed ? 1000 : (int)(end - now)) < 0 && errno != EINTR)
			break;
		on_signals(a);
	}
}

int agent_main(int argc, char **argv)
{
	struct agent a = {0};
	const char *secret = getenv(AGENT_SECRET_ENV);
	struct sigaction sa;
	int lfd = -1;

	if (argc > 0 && strcmp(argv[0], "--") == 0)
		argc--, argv++;
	if (argc < 1) {
		fprintf(stderr, "usage: sluice-stepd --agent [--] COMMAND [ARG...]\n");
		return 2;
	}
	if (pipe2(sigp, O_CLOEXEC | O_NONBLOCK) != 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++)
		sigaction(passed[i], &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (secret == NULL || *secret == '\0')
		fprintf(stderr, "sluice-stepd: agent: $%s is not set: srun cannot start tasks "
			"in this pod\n", AGENT_SECRET_ENV);
	else
		lfd = listen_on();
	a.sess = sl_xcalloc(SESSIONS_MAX, sizeof(pid_t));
	if ((a.cmd = run_command(argv)) < 0) {
		fprintf(stderr, "sluice-stepd: agent: fork: %s\n", strerror(errno));
		return 1;
	}
	while (!a.cmd_done) {
		struct pollfd p[2] = {{sigp[0], POLLIN, 0}, {lfd, POLLIN, 0}};
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			on_signals(&a);
		if (p[1].revents && !a.cmd_done)
			on_accept(&a, lfd, secret);
	}
	if (lfd >= 0)
		close(lfd);
	finish(&a);
	free(a.sess);
	return WIFSIGNALED(a.status) ? 128 + WTERMSIG(a.status) : WEXITSTATUS(a.status);
}
