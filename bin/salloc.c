/* salloc.c - get a job allocation and run a command in it (the user's
 * shell when none is given), as Slurm 22.05's salloc: its lines while it
 * waits, the allocation's SLURM_* variables for the command, "Relinquishing
 * job allocation N" when the command ends, and the command's exit status.
 * A job ended by scancel or its time limit revokes the allocation: the
 * command is told (SIGHUP, then SIGKILL) and salloc says so. On the local
 * executor the command runs here, on the allocation's only machine. */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "jobdir.h"
#include "srun_alloc.h"
#include "srun_opt.h"
#include "xalloc.h"

extern char **environ;

/* The command, or the user's login shell. */
static char **command(const struct sl_srun_opts *o)
{
	static char *shell[2];
	struct passwd *pw;
	if (o->argc > 0)
		return o->argv;
	pw = getpwuid(getuid());
	shell[0] = pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh";
	return shell;
}

static pid_t start(const struct sl_srun_opts *o, char **argv, char **env)
{
	/* looked up first, as 22.05's _fork_command does: no command, no fork */
	const char *path = getenv("PATH") ? getenv("PATH") : SL_DEFAULT_PATH;
	char *found = strchr(argv[0], '/') ? NULL : sl_path_search(path, argv[0], X_OK);
	if (strchr(argv[0], '/') == NULL && found == NULL) {
		fprintf(stderr, "salloc: error: _fork_command: Unable to find command \"%s\"\n",
			argv[0]);
		return -1;
	}
	free(found);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (o->chdir && chdir(o->chdir) != 0) {
		fprintf(stderr, "salloc: error: chdir(%s): %s\n", o->chdir, strerror(errno));
		_exit(1);
	}
	environ = env;
	execvp(argv[0], argv);
	fprintf(stderr, "salloc: error: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Wait for the command, looking at the job once a second. */
static int wait_command(pid_t pid, uint64_t job)
{
	int pidfd = sl_pidfd_open(pid), status = 0, revoked = 0;
	for (;;) {
		struct pollfd p = {pidfd, POLLIN, 0};
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (pidfd >= 0)
			(void)poll(&p, 1, 1000);
		else
			sleep(1);
		if (!revoked && srun_alloc_gone(job)) {
			fprintf(stderr, "salloc: Job allocation %llu has been revoked.\n",
				(unsigned long long)job);
			(void)kill(pid, SIGHUP);
			revoked = 1;
		} else if (revoked && ++revoked > 3) {
			(void)kill(pid, SIGKILL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	if (!WIFSIGNALED(status))
		return WEXITSTATUS(status);
	/* 22.05's salloc: these four are a normal end (0), any other signal 1 */
	switch (WTERMSIG(status)) {
	case SIGHUP: case SIGINT: case SIGQUIT: case SIGKILL:
		return 0;
	default:
		return 1;
	}
}

int main(int argc, char **argv)
{
	struct sl_srun_opts o;
	struct sl_job *job;
	char **env;
	int rc;

	srun_cmd_parse("salloc", sl_salloc_opts_parse, sl_salloc_usage, argc, argv, &o);
	if (o.spec_warn) /* Slurm's line for AllowSpecResourcesUsage=No */
		fprintf(stderr, "salloc: error: Ignoring %s since it's not allowed by configuration "
				"(AllowSpecResourcesUsage = No)\n",
			o.spec_warn == 2 ? "--thread-spec" : "-S");
	struct srun_alloc_req q = {
		.prog = "salloc", .ntasks = o.ntasks, .nodes = o.nodes,
		.cpus_per_task = o.cpus_per_task, .ntasks_per_node = o.ntasks_per_node,
		.gpus_per_task = o.gpus_per_task, .time_limit = o.time_limit,
		.name = o.name ? o.name : "interactive", .salloc = 1, .extra = o.alloc,
	};
	if ((rc = srun_alloc_get(&q, &job)) != 0)
		return rc;
	env = srun_alloc_env(job, environ, 1);
	signal(SIGINT, SIG_IGN); /* Ctrl-C is the command's */
	signal(SIGQUIT, SIG_IGN);
	pid_t pid = start(&o, command(&o), env);
	rc = pid > 0 ? wait_command(pid, job->id) : 1;
	if (!srun_alloc_gone(job->id)) {
		fprintf(stderr, "salloc: Relinquishing job allocation %llu\n",
			(unsigned long long)job->id);
		srun_alloc_release(job->id, rc);
	}
	sl_strv_free(env);
	sl_job_free(job);
	sl_srun_opts_clear(&o);
	return rc;
}
