/* exec_local_signal.c - signals from sluiced to a job's supervisor (and,
 * for scancel -b, its script): a pidfd when the launch gave one, else the
 * pid, proven to be the supervisor still before each kill; one not known
 * yet (its launch answer lost) gets the signal once stepd.pid names it. */
#include "exec_local_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec_local_dir.h"
#include "jobdir.h"
#include "log.h"
#include "xalloc.h"

/* A launch answered with the end pipe but no pidfd (the server could not
 * open one: an old kernel, or its child had exited first) names the
 * supervisor by pid alone, free for reuse once it exits: a pidfd opened by
 * that pid, or a kill, could reach another process. So, before each signal,
 * proof that the supervisor was alive after the open: the pid's start time
 * is stepd.pid's; or, while stepd.pid is not written, the end pipe is still
 * open at the far end (the supervisor writes it before it forks anything
 * that could hold the pipe too). 1: signal j->pidfd, else j->pid; 0: it is
 * gone or the job over (its end is on the way). Without pidfd_open, left
 * open: the instant between the proof and the kill. */
static int pin(struct xjob *j)
{
	struct pollfd p = {j->endfd, POLLIN, 0};
	unsigned long long want = 0, now = 0;
	pid_t named = 0;
	int fd = sl_pidfd_open(j->pid); /* first: what follows proves what it names */
	int open_end = poll(&p, 1, 0) == 0;
	if (sl_exec_local_pidfile(j->dir, &named, &want) != 0)
		named = 0;
	int alive = named == 0 ? open_end : named == j->pid &&
		    sl_proc_starttime(j->pid, &now) == 0 && now == want;
	if (!alive) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (fd >= 0)
		j->pidfd = fd; /* it names the supervisor for good */
	else if (named != 0)
		j->start = want; /* send_sig checks it before each kill */
	j->unproven = fd < 0 && named == 0;
	return 1;
}

static int send_sig(struct xjob *j, int sig, const siginfo_t *si)
{
	int r = -1;
	unsigned long long st = 0;
	if (j->unproven && !pin(j))
		return 0;
#ifdef SYS_pidfd_send_signal
	if (j->pidfd >= 0)
		r = (int)syscall(SYS_pidfd_send_signal, j->pidfd, sig, si, 0);
#endif
	/* Without the pidfd (or a kernel, or valgrind, that lacks its
	 * syscall): the pid. An adopted one's is free for reuse once it exits,
	 * up to a second before the lock probe sees it: only while its start is
	 * stepd.pid's (left open: the instant between that read and the kill). */
	if (r != 0 && (j->pidfd < 0 || errno == ENOSYS) && j->pid > 0) {
		if (j->start != 0 && (sl_proc_starttime(j->pid, &st) != 0 || st != j->start))
			return 0; /* it has exited: its end is on the way */
		r = si ? sigqueue(j->pid, sig, si->si_value) : kill(j->pid, sig);
	}
	if (r != 0 && errno == ESRCH)
		return 0; /* already over: its result is on the way */
	return r;
}


/* A supervisor whose launch answer was lost (or adopted before it wrote
 * stepd.pid) is known once stepd.pid names it, while the lock says it
 * still runs this job. No launch is in flight then (collect() read them
 * all), so it cannot have moved on to another job before the signal. */
static int learn_pid(struct xjob *j)
{
	pid_t pid = 0;
	unsigned long long st = 0;
	if (j->pidfd >= 0 || j->pid > 0)
		return 1;
	if (!sl_exec_local_lock_held(j->dir) || sl_exec_local_pidfile(j->dir, &pid, &st) != 0)
		return 0;
	j->pid = pid;
	j->start = st; /* send_sig checks it before each kill */
	return 1;
}

static int signal_now(struct xjob *j, int sig, int queued, int value)
{
	siginfo_t si;
	if (queued) {
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_QUEUE;
		si.si_pid = getpid();
		si.si_uid = getuid();
		si.si_value.sival_int = value;
	}
	return send_sig(j, sig, queued ? &si : NULL);
}

/* A signal kept for a supervisor not yet known: queued ones carry their
 * value (SL_STEPD_*), plain ones none. */
#define DEFER_QUEUED 0x10000
#define DEFER_MAX (int)(sizeof(((struct xjob *)0)->deferred) / sizeof(((struct xjob *)0)->deferred[0]))

void sl_xl_send_deferred(struct xjob *j)
{
	if (j->ndeferred == 0 || !learn_pid(j))
		return;
	for (int i = 0; i < j->ndeferred; i++) {
		int sig = j->deferred[i].sig & ~DEFER_QUEUED;
		if (signal_now(j, sig, (j->deferred[i].sig & DEFER_QUEUED) != 0,
			       j->deferred[i].value) != 0)
			sl_warn("job %llu: signal: %s", (unsigned long long)j->id, strerror(errno));
	}
	j->ndeferred = 0;
}

/* Kept in the order given (a requeue, then a new time limit, ...): a
 * repeat of the last is one; when the list is full, a cancel takes the
 * last place, since it ends the job whatever came before. */
static void defer(struct xjob *j, int sig, int queued, int value)
{
	int code = sig | (queued ? DEFER_QUEUED : 0), n = j->ndeferred;
	if (n > 0 && j->deferred[n - 1].sig == code && j->deferred[n - 1].value == value)
		return;
	if (n == DEFER_MAX && code != SIGTERM)
		return;
	if (n == DEFER_MAX)
		n--;
	j->deferred[n].sig = code;
	j->deferred[n].value = value;
	j->ndeferred = n + 1;
}

/* Signal job id's supervisor: plain, or queued with a value (queued). One
 * not known yet gets it when it is (defer, sl_xl_send_deferred). */
static int control(struct sl_exec_local *x, uint64_t id, int sig, int queued, int value,
		   struct sl_err *err)
{
	struct xjob *j = sl_xl_job_find(x, id);
	if (j == NULL)
		return sl_err_set(err, SL_ENOENT, "job %llu is not running here", (unsigned long long)id);
	if (j->awaiting || (j->pidfd < 0 && j->pid <= 0))
		sl_xl_collect(x, 1);
	if (!learn_pid(j)) {
		defer(j, sig, queued, value);
		sl_info("job %llu: signal %d kept until its supervisor is known",
			(unsigned long long)id, sig);
		return 0;
	}
	if (signal_now(j, sig, queued, value) != 0)
		return sl_err_set(err, SL_EIO, "job %llu: signal: %s", (unsigned long long)id,
				  strerror(errno));
	return 0;
}

int sl_exec_local_cancel(struct sl_exec_local *x, uint64_t id, struct sl_err *err)
{
	return control(x, id, SIGTERM, 0, 0, err);
}

int sl_exec_local_preempt(struct sl_exec_local *x, uint64_t id, struct sl_err *err)
{
	return control(x, id, SIGUSR2, 0, 0, err);
}

int sl_exec_local_requeue(struct sl_exec_local *x, uint64_t id, struct sl_err *err)
{
	return control(x, id, SIGUSR2, 1, SL_STEPD_REQUEUE, err);
}

int sl_exec_local_node_fail(struct sl_exec_local *x, uint64_t id, struct sl_err *err)
{
	return control(x, id, SIGUSR2, 1, SL_STEPD_NODE_FAIL, err);
}

int sl_exec_local_time_limit(struct sl_exec_local *x, uint64_t id, int64_t secs,
			     struct sl_err *err)
{
	if (secs < 0 || secs > INT_MAX)
		secs = 0; /* beyond 68 years: none */
	return control(x, id, SL_STEPD_SIG_LIMIT, 1, (int)secs, err);
}

/* scancel -b: the batch script alone, as slurmstepd's kill(job->pgid) of
 * the script, which leads its process group. Its children are left alone; --full (SL_SIGNAL_GROUP) reaches them through
 * the supervisor, which signals the whole group. */
static int signal_script(struct sl_exec_local *x, uint64_t id, int signo, struct sl_err *err)
{
	struct xjob *j = sl_xl_job_find(x, id);
	pid_t pgid;

	if (j == NULL)
		return sl_err_set(err, SL_ENOENT, "job %llu is not running here", (unsigned long long)id);
	if (sl_exec_local_pgid(j->dir) == 0)
		return sl_err_set(err, SL_ESTATE, "job %llu: its script has not started yet",
				  (unsigned long long)id);
	/* through the supervisor, which writes slurmstepd's line for TERM and
	 * KILL; straight to the script when it cannot be reached, or is one
	 * from before it took the flag (its stepd.pid does not say so) */
	char *text = NULL;
	int knows = sl_jobdir_read(j->dir, SL_JOBDIR_PID, &text, NULL) == 0 &&
		    strstr(text, " fwd-script") != NULL;
	free(text);
	if (knows && control(x, id, SL_STEPD_SIG_FORWARD, 1, signo | SL_STEPD_FWD_SCRIPT, err) == 0)
		return 0;
	sl_err_clear(err);
	/* checked again, just before the kill: control() may have waited */
	if ((pgid = sl_exec_local_pgid(j->dir)) <= 1)
		return 0; /* its number is another process's: the script is over */
	if (kill(pgid, signo) != 0 && errno != ESRCH)
		return sl_err_set(err, SL_EIO, "job %llu: signal: %s", (unsigned long long)id,
				  strerror(errno));
	return 0;
}

int sl_exec_local_signal(struct sl_exec_local *x, uint64_t id, int signo, struct sl_err *err)
{
	int group = (signo & SL_SIGNAL_GROUP) != 0;

	signo &= ~SL_SIGNAL_GROUP;
	if (signo <= 0 || signo >= NSIG)
		return sl_err_set(err, SL_EINVAL, "invalid signal %d", signo);
	return group ? control(x, id, SL_STEPD_SIG_FORWARD, 1, signo, err)
		     : signal_script(x, id, signo, err);
}
