/* srun_task.c - starting a step's tasks (srun_step_int.h): each forked
 * with its own process group, its streams on pipes (or -o/-e's files, or
 * --pty's terminal), its environment and PMIx registration, and exec'd
 * here or relayed to its pod's step agent. */
#include "srun_step.h"
#include "srun_step_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_wire.h"
#include "fsutil.h"
#include "srun_files.h"
#include "srun_gpus.h"
#include "srun_multiprog.h"
#include "srun_pmi2.h"
#include "srun_pmix.h"
#include "srun_remote.h"
#include "xalloc.h"

static const struct srun_remote *remote; /* srun_step_remote() */

void srun_step_remote(const struct srun_remote *r)
{
	remote = r;
}

int srun_task_remote(void)
{
	return remote != NULL;
}

/* A task in a pod: this child relays it (srun_remote.h), in srun's
 * directory (or -D's) there, without the job's secret in its environment. */
static void remote_child(const struct run *r, int t, char **argv, char **env)
{
	char cwd[4096];
	const char *dir = r->o->chdir ? r->o->chdir : getcwd(cwd, sizeof(cwd));
	size_t k = 0, klen = strlen(AGENT_SECRET_ENV);
	for (size_t i = 0; env[i]; i++)
		if (strncmp(env[i], AGENT_SECRET_ENV, klen) != 0 || env[i][klen] != '=')
			env[k++] = env[i];
	env[k] = NULL;
	srun_remote_task(remote, r->l->nodes[r->l->task[t].node], argv, env, dir);
}

void srun_task_signals_default(void)
{
	struct sigaction sa;
	sigset_t none;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    (sa.sa_handler != SIG_IGN || sig == SIGPIPE))
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child(const struct run *r, int t, char **argv, char **env, int in, int out, int err)
{
	srun_task_signals_default();
	if (r->nofile.rlim_max)
		(void)setrlimit(RLIMIT_NOFILE, &r->nofile);
	if (r->o->pty && t == 0)
		srun_pty_child(in); /* its own session, the pty its terminal */
	else
		(void)setpgid(0, 0);
	for (char **e = env; *e; e++)
		if (strncmp(*e, "SLURM_TASK_PID=", 15) == 0)
			snprintf(*e, strlen(*e) + 1, "SLURM_TASK_PID=%d", (int)getpid());
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(1);
	if (r->pmi2 != NULL)
		srun_pmi2_child(r->pmi2, t);
	if (remote)
		remote_child(r, t, argv, env);
	if (r->o->chdir && sl_task_chdir(r->l->nodes[r->l->task[t].node], r->o->chdir) != 0)
		_exit(1);
	execve(r->path[t], argv, env);
	int e = errno;
	if (r->exec_failed != NULL)
		r->exec_failed(r, t, argv, e);
	/* slurmstepd names a relative path by the task's directory */
	char cwd[PATH_MAX];
	const char *dir = r->path[t][0] != '/' && strchr(r->path[t], '/') &&
				  getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	dprintf(2, "slurmstepd-%s: error: execve(): %s%s%s: %s\n", r->l->nodes[r->l->task[t].node],
		dir ? dir : "", dir ? "/" : "", dir ? r->path[t] : argv[0], strerrordesc_np(e));
	_exit(e ? e : 1);
}

/* Task t's environment: the step's, and its PMIx variables under
 * --mpi=pmix (the task is registered with the server before its fork) or
 * its PMI_* under --mpi=pmi2 (its socketpair made). */
static char **task_env(const struct run *r, int t, char *const *base)
{
	struct sl_err err = SL_ERR_INIT;
	char **env = sl_srun_task_env(r->l, t, base);
	if (r->pmix != NULL && srun_pmix_task(r->pmix, t, &env, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		sl_strv_free(env);
		return NULL;
	}
	if (r->pmi2 != NULL && srun_pmi2_task(r->pmi2, t, &env, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		sl_strv_free(env);
		return NULL;
	}
	return env;
}

/* Pipes for task t's stdout and stderr, unless -o/-e write them to files
 * srun relays to (labels are srun's, so files get them too). */
/* --pty: task 0's three streams are the pty; srun reads the master and
 * writes srun's stdin to it. */
static int start_pty_task(struct run *r, char **argv, char *const *base)
{
	char **env = task_env(r, 0, base);
	pid_t pid;
	if (env == NULL)
		return -1;
	if (srun_pty_open(&r->pty) != 0) {
		sl_strv_free(env);
		return -1;
	}
	r->st[0] = (struct srun_stream){.fd = r->pty.master, .out = 1, .task = 0};
	r->st[1] = (struct srun_stream){.fd = -1, .out = 2, .task = 0};
	r->in.fds[0] = fcntl(r->pty.master, F_DUPFD_CLOEXEC, 3);
	(void)fcntl(r->in.fds[0], F_SETFL, O_NONBLOCK);
	r->path[0] = sl_find_program(argv[0], env);
	if ((pid = fork()) == 0)
		child(r, 0, argv, env, r->pty.slave, r->pty.slave, r->pty.slave);
	if (r->pmi2 != NULL)
		srun_pmi2_forked(r->pmi2, 0);
	sl_strv_free(env);
	close(r->pty.slave);
	r->pty.slave = -1;
	r->pty.master = -1; /* the stream owns it now */
	if (pid < 0)
		return -1;
	r->pid[0] = pid;
	r->running++;
	return 0;
}

int srun_task_start(struct run *r, int t, char **argv, char *const *base)
{
	int po[2], pe[2], feed, in;
	char **env;
	if (r->o->pty && t == 0)
		return start_pty_task(r, argv, base);
	if ((env = task_env(r, t, base)) == NULL)
		return -1;
	if (r->o->pty) { /* only task 0 gets srun's stdin */
		in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		feed = -1;
	} else {
		in = srun_files_stdin(r->o, r->l, t, &feed);
	}
	if (in < 0 || pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
		sl_strv_free(env);
		return -1;
	}
	r->st[2 * t] = (struct srun_stream){.fd = po[0], .out = srun_files_sink(r->o, r->l, &r->io, t, 0),
					   .task = t};
	r->st[2 * t + 1] = (struct srun_stream){.fd = pe[0],
					       .out = srun_files_sink(r->o, r->l, &r->io, t, 1),
					       .task = t};
	r->in.fds[t] = feed;
	/* slurmstepd's lines as it binds the task's GPUs come first on its stderr */
	char *gmsg = sl_srun_gpus_msg(r->l, t);
	if (gmsg != NULL && write(pe[1], gmsg, strlen(gmsg)) < 0)
		fprintf(stderr, "srun: error: task %d: %s\n", t, strerror(errno));
	free(gmsg);
	/* in a pod, the agent finds the program where the task runs */
	r->path[t] = remote ? sl_xstrdup(argv[0]) : sl_find_program(argv[0], env);
	pid_t pid = fork();
	if (pid == 0)
		child(r, t, argv, env, in, po[1], pe[1]);
	if (r->pmi2 != NULL)
		srun_pmi2_forked(r->pmi2, t);
	sl_strv_free(env);
	close(in);
	close(po[1]);
	close(pe[1]);
	if (pid < 0)
		return -1;
	(void)setpgid(pid, pid); /* also here: no signal may find it in ours */
	r->pid[t] = pid;
	r->running++;
	return 0;
}

char **srun_task_argv(const struct run *r, int t, const char *mp_text)
{
	char **v = NULL;
	struct sl_err err = SL_ERR_INIT;
	if (!r->o->multi_prog)
		return sl_strv_dup(r->o->argv);
	(void)sl_srun_multiprog_argv(mp_text, r->o->argv[0], r->l->ntasks, t, &v, &err);
	return v;
}

void srun_task_user(struct sl_srun_layout *l)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	errno = 0;
	l->prio = getpriority(PRIO_PROCESS, 0);
	if (errno != 0)
		l->prio = 0;
	if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) != 0 || res == NULL)
		return;
	l->uid = (long)getuid();
	l->gid = (long)getgid();
	snprintf(l->user, sizeof(l->user), "%s", pw.pw_name);
}

/* The host's first IPv4 address; 127.0.0.1 when it has none to name. */
static void host_addr(char *out, size_t len)
{
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
	char host[256] = "";

	snprintf(out, len, "127.0.0.1");
	if (gethostname(host, sizeof(host) - 1) != 0 || getaddrinfo(host, NULL, &hints, &ai) != 0)
		return;
	inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, out, (socklen_t)len);
	freeaddrinfo(ai);
}

void srun_task_launcher(struct sl_srun_layout *l)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t sl = sizeof(sa);
	int fd;

	if (remote != NULL)
		host_addr(l->launch_addr, sizeof(l->launch_addr));
	else
		snprintf(l->launch_addr, sizeof(l->launch_addr), "127.0.0.1");
	inet_pton(AF_INET, l->launch_addr, &sa.sin_addr);
	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
		close(fd);
		return;
	}
	l->launch_port = ntohs(sa.sin_port); /* fd stays open: the port is srun's */
}
