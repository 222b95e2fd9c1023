/* stepd_userenv.c - the user's login environment, read as slurmd reads it
 * for a job with SLURM_GET_USER_ENV=1 (--get-user-env, or an --export other
 * than ALL): `su - user -c ...` (the user's login shell and su's PAM
 * session) prints its environment, and the job's own is laid over it. A
 * supervisor that is not root starts the login shell itself.
 *
 * It runs in the home directory, under a clean environment, in a process
 * group of its own that is killed whole at the timeout. What the profile
 * scripts print is skipped: the environment follows a marker. */
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

#define USERENV_MAX (1 << 20) /* a profile that prints more is not read further */
#define USERENV_MARK "SLUICE-USER-ENV-FOLLOWS"
#define USERENV_END "SLUICE-USER-ENV-ENDS"
#define SU_PATH "/bin/su" /* slurmd's SUCMD */
/* what the shell runs: the environment between the marks */
#define CMD "printf '\\0%s\\0' " USERENV_MARK "; env -0; printf '%s\\0' " USERENV_END

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* In the child: become the user and exec the shell. Only returns by _exit. */
static void shell_child(const struct sl_launch *l, int out)
{
	const char *shell = l->shell && *l->shell ? l->shell : "/bin/sh";
	const char *base = strrchr(shell, '/') ? strrchr(shell, '/') + 1 : shell;
	char arg0[256], home[4096], user[300], logname[300], sh[4200];
	char *env[] = {home, user, logname, sh, "PATH=" SL_DEFAULT_PATH, NULL};
	int null = open("/dev/null", O_RDWR);
	sigset_t none;

	/* the supervisor blocks and ignores signals of its own (detach()) */
	sl_signals_default();
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(null, 2) < 0)
		_exit(126);
	/* nothing else of the supervisor's (the job's files, its server
	 * socket) for what a profile may leave running */
	closefrom(3);
	if (chdir(l->home ? l->home : "/") != 0 && chdir("/") != 0)
		_exit(126);
	/* As root, through su as slurmd does ("su - USER -c CMD", its PAM
	 * session's variables too: pam_env's /etc/environment and locale,
	 * pam_mail's MAIL), from an environment of ENVIRONMENT=BATCH alone */
	if (geteuid() == 0 && access(SU_PATH, X_OK) == 0) {
		char *su_env[] = {"ENVIRONMENT=BATCH", NULL};
		if (l->user_env_mode == 1)
			execle(SU_PATH, "su", l->user, "-c", CMD, (char *)NULL, su_env);
		else
			execle(SU_PATH, "su", "-", l->user, "-c", CMD, (char *)NULL, su_env);
		_exit(127);
	}
	/* A supervisor that is not root is the user already: the login shell
	 * itself, with what su would set */
	if (geteuid() == 0 && (setgid(l->gid) != 0 || setuid(l->uid) != 0))
		_exit(126);
	snprintf(arg0, sizeof(arg0), "%s%s", l->user_env_mode == 1 ? "" : "-", base);
	snprintf(home, sizeof(home), "HOME=%s", l->home ? l->home : "/");
	snprintf(user, sizeof(user), "USER=%s", l->user);
	snprintf(logname, sizeof(logname), "LOGNAME=%s", l->user);
	snprintf(sh, sizeof(sh), "SHELL=%s", shell);
	execle(shell, arg0, "-c", CMD, (char *)NULL, env);
	_exit(127);
}

/* The output up to its end mark (or EOF, or a full buffer) within the
 * deadline: its length, or -1 at the timeout. The mark, not EOF: something
 * the profile started may hold the pipe open. */
static ssize_t read_all(int fd, char *buf, size_t cap, int64_t deadline)
{
	static const char end[] = USERENV_END;
	size_t len = 0;

	for (;;) {
		int64_t left = deadline - now_ms();
		struct pollfd p = {fd, POLLIN, 0};
		if (left <= 0)
			return -1;
		int n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		ssize_t k = read(fd, buf + len, cap - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return (ssize_t)len;
		len += (size_t)k;
		if (len == cap || (len >= sizeof(end) && memcmp(buf + len - sizeof(end), end,
								sizeof(end)) == 0))
			return (ssize_t)len;
	}
}

/* "K=V" entries between the marks, the shell's own bookkeeping left out;
 * NULL unless both marks are there (the whole environment was printed). */
static char **parse(const char *buf, size_t len)
{
	static const char mark[] = "\0" USERENV_MARK "\0", stop[] = USERENV_END;
	const char *p = memmem(buf, len, mark, sizeof(mark) - 1), *end = buf + len;
	char **v = NULL;
	size_t n = 0, cap = 0;

	if (p == NULL || len < sizeof(stop) ||
	    memcmp(buf + len - sizeof(stop), stop, sizeof(stop)) != 0)
		return NULL;
	end -= sizeof(stop);
	for (p += sizeof(mark) - 1; p < end; p += strnlen(p, (size_t)(end - p)) + 1) {
		size_t k = strnlen(p, (size_t)(end - p));
		if (memchr(p, '=', k) == NULL || strncmp(p, "_=", 2) == 0 ||
		    strncmp(p, "PWD=", 4) == 0 || strncmp(p, "OLDPWD=", 7) == 0)
			continue;
		v = sl_xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = sl_xstrndup(p, k);
		v[n] = NULL;
	}
	return v ? v : sl_xcalloc(1, sizeof(*v));
}

char **stepd_user_env(const struct sl_launch *l, struct sl_err *err)
{
	char *buf = NULL, **v = NULL;
	ssize_t len = -1;
	int fds[2], st;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		sl_err_set(err, SL_EIO, "pipe: %s", strerror(errno));
		return NULL;
	}
	if ((pid = fork()) == 0)
		shell_child(l, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		sl_err_set(err, SL_EIO, "fork: %s", strerror(errno));
		close(fds[0]);
		return NULL;
	}
	buf = sl_xmalloc(USERENV_MAX);
	len = read_all(fds[0], buf, USERENV_MAX, now_ms() + (int64_t)l->user_env * 1000);
	close(fds[0]);
	/* the shell, and whatever its profile left running (its group is not
	 * the job's, so nothing else would end it) */
	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL); /* in case it had no group of its own yet */
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (len < 0)
		sl_err_set(err, SL_EIO, "the login shell gave no environment in %d s", l->user_env);
	else if ((v = parse(buf, (size_t)len)) == NULL)
		sl_err_set(err, SL_EIO, "the login shell %s printed no whole environment (%s %d)",
			   l->shell ? l->shell : "/bin/sh",
			   WIFEXITED(st) ? "exit status" : "signal",
			   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	free(buf);
	return v;
}
