/* stepd_launch.c - start the batch script as the user: the PAM session
 * opened (stepd_pam.c), files opened with the user's identity, the script
 * written where the kernel can exec it (so its #! line is honoured, as
 * slurmstepd does), then fork and exec.
 *
 * The output files are opened here, in the supervisor, under setfsuid():
 * access is checked as the user, and the supervisor keeps the descriptors
 * to append Slurm's "CANCELLED AT" line later without ever reopening a
 * path the user controls (a symlink swapped in would otherwise be written
 * by root). */
#include "rlimit.h"
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "log.h"
#include "pbs_env.h"
#include "slurm_env.h"
#include "xalloc.h"


static int as_root(void)
{
	return geteuid() == 0;
}

static int open_out(const char *path, int append)
{
	return open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0666);
}

/* Open stdin/stdout/stderr with the user's file-system identity. */
static int open_stdio(struct stepd *s)
{
	const struct sl_launch *l = &s->l;
	/* a requeued run starts its files anew unless --open-mode=append, as
	 * slurmstepd's io_get_file_flags (checked on the reference cluster) */
	int append = l->append;
	mode_t old = umask(l->umask);
	if (as_root()) {
		(void)setfsgid(l->gid);
		(void)setfsuid(l->uid);
	}
	s->in_fd = open(l->std_in ? l->std_in : "/dev/null", O_RDONLY | O_CLOEXEC);
	if (s->in_fd >= 0)
		s->out_fd = open_out(l->std_out, append);
	if (s->out_fd >= 0) {
		if (l->std_err == NULL || strcmp(l->std_err, l->std_out) == 0)
			s->err_fd = fcntl(s->out_fd, F_DUPFD_CLOEXEC, 3);
		else
			s->err_fd = open_out(l->std_err, append);
	}
	int e = errno;
	if (as_root()) {
		(void)setfsuid(0);
		(void)setfsgid(0);
	}
	umask(old);
	errno = e;
	return s->in_fd >= 0 && s->out_fd >= 0 && s->err_fd >= 0 ? 0 : -1;
}

/* The script left by the directory's last job (dirpool.h) is rewritten in
 * place when it was this user's: a process of theirs that kept it open can
 * reach nothing but their own job. Anyone else's is replaced by a new file,
 * which spares a freed and a new inode per job in the common case. */
static int reuse_script(struct stepd *s, const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != s->l.uid || st.st_gid != s->l.gid || fchmod(fd, 0700) != 0 ||
	    sl_overwrite(fd, s->l.script, strlen(s->l.script)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int write_script(struct stepd *s)
{
	char *path = sl_xasprintf("%s/%s", s->dir, SL_JOBDIR_SCRIPT);
	int r = -1, fd = reuse_script(s, path);
	if (fd >= 0) {
		r = 0;
		goto out;
	}
	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0700);
	if (fd < 0 || sl_write_all(fd, s->l.script, strlen(s->l.script)) != 0)
		goto out;
	if (as_root() && fchown(fd, s->l.uid, s->l.gid) != 0)
		goto out;
	r = 0;
out:
	if (r != 0)
		sl_err_log("job %llu: %s: %s", (unsigned long long)s->l.job_id, path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
	return r;
}

/* The job's environment: the spec's, plus what only the supervisor knows,
 * over a login minimum (HOME, USER, LOGNAME, SHELL and PATH) when it is
 * to load the login environment (--export=NONE, --get-user-env). With SLURM_GET_USER_ENV=1 the user's login environment
 * comes over the minimum, as slurmd merges it (stepd_userenv.c); when it
 * cannot be read the job runs with what it was given, as slurmd's does,
 * and the reason goes to the log. The PAM session's variables (pam_env)
 * come next, and what the user exported or Slurm sets replaces them, since
 * the submission's environment already comes from a session of its own and
 * --export promises it to the job. */
/* base, which this takes, with over's variables over it; no copy when
 * over has none (a job without PAM or PBS files is most of them). */
static char **layer(char **base, char *const *over)
{
	if (over == NULL || over[0] == NULL)
		return base;
	char **out = sl_slurm_env_merge(base, over);
	sl_strv_free(base);
	return out;
}

static char **job_env(const struct stepd *s)
{
	const struct sl_launch *l = &s->l;
	/* TMPDIR as slurmstepd's _make_tmpdir(): /tmp unless the job has one */
	const char *names[] = {"HOME", "USER", "LOGNAME", "SHELL", "PATH", "TMPDIR"};
	const char *vals[] = {l->home ? l->home : "/", l->user, l->user,
			      l->shell ? l->shell : "/bin/sh", SL_DEFAULT_PATH, "/tmp"};
	char *dflt[sizeof(names) / sizeof(names[0]) + 1] = {0}, *over[2] = {0};
	size_t n = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t k = strlen(names[i]);
		int have = 0;
		/* the minimum stands in for a login environment only: a job
		 * that exports what it was given (ALL, --export-file) gets no
		 * HOME it did not have, as under slurmd */
		if (l->user_env == 0 && strcmp(names[i], "TMPDIR") != 0)
			continue;
		for (char **e = l->env; e && *e; e++)
			if (strncmp(*e, names[i], k) == 0 && (*e)[k] == '=')
				have = 1;
		if (!have)
			dflt[n++] = sl_xasprintf("%s=%s", names[i], vals[i]);
	}
	/* The job's pid is only known in the child: it writes the digits here. */
	over[0] = sl_xasprintf("SLURM_TASK_PID=%-20s", "");
	struct sl_err err = SL_ERR_INIT;
	char **login = l->user_env > 0 ? stepd_user_env(l, &err) : NULL;
	if (l->user_env > 0 && login == NULL)
		sl_err_log("job %llu: Unable to get user's local environment, running only with "
			   "passed environment: %s", (unsigned long long)l->job_id, err.msg);
	char **e = sl_slurm_env_merge(dflt, login);
	e = layer(e, s->pam.env);
	e = layer(e, l->env);
	/* a Slurm job's PBS_O_* as spank_pbs reads them: from this final
	 * environment, the login one's HOME, PATH, ... where it came in */
	if (login != NULL && l->nodefile == NULL && sl_pbs_env_get(e, "PBS_JOBID") != NULL) {
		char **o = sl_pbs_env_o(e);
		e = layer(e, o);
		sl_strv_free(o);
	}
	e = layer(e, s->pbs_env); /* a qsub job's files */
	e = layer(e, over);
	for (size_t i = 0; i < n; i++)
		free(dflt[i]);
	free(over[0]);
	sl_strv_free(login);
	return e;
}

static void child_fail(int fd, const char *host, const char *what, const char *arg)
{
	dprintf(fd, "slurmstepd-%s: error: %s: %s: %s\n", host, what, arg, strerror(errno));
}

/* The interpreter of path's "#!" line into buf (system calls only: the
 * child of vfork() calls it). 0 without one. */
static int interpreter(const char *path, char *buf, size_t len)
{
	char head[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, head, sizeof(head) - 1) : -1;
	size_t i = 2, k = 0;

	if (fd >= 0)
		close(fd);
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return 0;
	while (i < (size_t)n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	while (i < (size_t)n && k + 1 < len && head[i] != ' ' && head[i] != '\t' &&
	       head[i] != '\n' && head[i] != '\r')
		buf[k++] = head[i++];
	buf[k] = '\0';
	return k > 0;
}

struct child_args {
	const char *script;
	char **argv;              /* argv[0] is /bin/sh, for a script without #! */
	char **env;
	char *task_pid;           /* SLURM_TASK_PID=<room>, in env */
	struct sl_rlimit_set rl;  /* the submitter's soft limits */
};

/* In the child of vfork(): become the user, wire stdio, enter the working
 * directory, exec. It shares our memory until the exec, so it only makes
 * system calls and writes into buffers prepared for it. Only returns
 * through _exit. */
static void child_run(struct stepd *s, const struct child_args *a)
{
	const struct sl_launch *l = &s->l;
	sigset_t none;
	sigemptyset(&none);
	/* The only dispositions a supervisor changes (detach(), the server). */
	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGHUP, SIG_DFL);
	(void)signal(SIGXFSZ, SIG_DFL);
	(void)signal(SIGCHLD, SIG_DFL);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)setsid();
	snprintf(a->task_pid, strlen(a->task_pid) + 1, "SLURM_TASK_PID=%d", (int)getpid());
	/* After PAM (pam_limits), as slurmstepd sets them: the job's own. */
	sl_rlimit_apply(&a->rl);
	if (as_root() && (setgid(l->gid) != 0 || setuid(l->uid) != 0)) {
		child_fail(s->err_fd, l->host, "setuid", l->user);
		_exit(1);
	}
	if (dup2(s->in_fd, 0) < 0 || dup2(s->out_fd, 1) < 0 || dup2(s->err_fd, 2) < 0)
		_exit(1);
	umask(l->umask);
	if (sl_task_chdir(l->host, l->work_dir) != 0) /* slurmstepd's words and fallback */
		_exit(1);
	execve(a->script, a->argv + 1, a->env);
	if (errno == ENOEXEC) /* no #! line: the shell reads it, as Slurm's default */
		execve("/bin/sh", a->argv, a->env);
	/* slurmstepd's exec_task: a missing #! interpreter is named, and the
	 * exit status is the errno */
	int e = errno;
	char interp[256];
	if (e == ENOENT && interpreter(a->script, interp, sizeof(interp)))
		dprintf(2, "slurmstepd-%s: error: execve(): bad interpreter(%s): %s\n", l->host,
			interp, strerror(e));
	else
		child_fail(2, l->host, "execve()", a->script);
	_exit(e > 0 && e < 256 ? e : 127);
}

static void child_args_init(struct stepd *s, struct child_args *a)
{
	size_t na = sl_strv_len(s->l.argv);
	a->script = sl_xasprintf("%s/%s", s->dir, SL_JOBDIR_SCRIPT);
	a->argv = sl_xcalloc(na + 3, sizeof(char *));
	a->argv[0] = "/bin/sh";
	a->argv[1] = (char *)a->script;
	for (size_t i = 0; i < na; i++)
		a->argv[i + 2] = s->l.argv[i];
	a->env = job_env(s);
	a->task_pid = NULL;
	struct sl_err err = SL_ERR_INIT;
	if (sl_rlimit_parse(s->l.rlimits, &a->rl, &err) != 0) {
		sl_warn("job %llu: %s: the node's limits apply", (unsigned long long)s->l.job_id,
			err.msg);
		a->rl.n = 0;
	}
	for (char **e = a->env; *e != NULL; e++)
		if (strncmp(*e, "SLURM_TASK_PID=", 15) == 0)
			a->task_pid = *e;
}

static void child_args_clear(struct child_args *a)
{
	free((char *)a->script);
	free(a->argv);
	sl_strv_free(a->env);
}

static void launch_result(struct sl_exec_result *r)
{
	sl_exec_result_init(r, SL_JOB_FAILED);
	snprintf(r->reason, sizeof(r->reason), "JobLaunchFailure");
	r->exit_code = 0;
	r->exit_signal = 53; /* what Slurm 22.05 records: ExitCode=0:53 */
	r->launch_failed = 1;
}

static void launch_failed(struct stepd *s, struct sl_exec_result *r, const char *what)
{
	sl_err_log("job %llu: launch failed: %s: %s", (unsigned long long)s->l.job_id, what,
		   strerror(errno));
	launch_result(r);
}

int stepd_launch(struct stepd *s, struct sl_exec_result *r)
{
	const struct sl_launch *l = &s->l;
	if (!as_root() && l->uid != geteuid())
		sl_warn("job %llu: not root: running as uid %d, not %d", (unsigned long long)l->job_id,
			(int)geteuid(), (int)l->uid);
	/* No groups listed (the daemon could not resolve any): the primary one. */
	if (as_root() && (l->ngroups > 0 ? setgroups(l->ngroups, l->groups)
					 : setgroups(1, &l->gid)) != 0) {
		launch_failed(s, r, "setgroups");
		return -1;
	}
	/* After setgroups, which would drop the groups a module adds
	 * (pam_group); before the files, in a home a module may create
	 * (pam_mkhomedir). stepd_pam_open() logs why it failed. */
	if (stepd_pam_open(s) != 0) {
		launch_result(r);
		return -1;
	}
	if (open_stdio(s) != 0) {
		launch_failed(s, r, l->std_out);
		/* slurmstepd reports a file it cannot open as the job's failure,
		 * not its own: slurmd answers success, and sdiag counts the job
		 * completed, not failed (22.05) */
		r->launch_failed = 0;
		return -1;
	}
	if (write_script(s) != 0) {
		launch_failed(s, r, "script");
		return -1;
	}
	if (stepd_pbs_prepare(s) != 0) {
		launch_result(r);
		return -1;
	}
	/* vfork: no copy of our address space to make and tear down again at
	 * the exec, which was a good part of what a short job costs. */
	struct child_args a;
	child_args_init(s, &a);
	/* reading a login environment takes up to its timeout: a cancel that
	 * came meanwhile keeps the script from starting, as one before it did */
	if (l->user_env > 0 && stepd_cancel_pending(r)) {
		child_args_clear(&a);
		return -1;
	}
	pid_t pid = vfork();
	if (pid == 0)
		child_run(s, &a);
	stepd_pam_restore(s); /* the job has its own copy of the session's limits */
	child_args_clear(&a);
	if (pid < 0) {
		launch_failed(s, r, "fork");
		return -1;
	}
	s->job_pid = pid;
	close(s->in_fd);
	s->in_fd = -1;
	return 0;
}

void stepd_job_kill(struct stepd *s, int sig)
{
	if (s->job_pid <= 0)
		return;
	/* The script's number is its pid, group and session. Unreaped, the
	 * script holds it; reaped, the number is free once the rest of its group
	 * and session is gone (what lingers may be elsewhere, in a session of
	 * its own), and another process may take it and lead a group with it.
	 * From then on the group is signalled only when the walk finds one of
	 * the job's processes in it. Left open: the instant between the walk's
	 * read and the kill, should that process exit and be reaped by its
	 * parent meanwhile. */
	if (!s->job_reaped && kill(-s->job_pid, sig) != 0 && errno == ESRCH)
		(void)kill(s->job_pid, sig);
	stepd_steps_kill(s->job_pid, sig, s->job_reaped);
}
