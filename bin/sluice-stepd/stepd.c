/* stepd.c - sluice-stepd: the supervisor of one batch job, like slurmstepd.
 *
 * It outlives sluiced (own session, own lock), so `kill -9` of the daemon
 * never touches a running job, and it leaves the job's end in <jobdir>/result
 * for whichever daemon comes next (layout in jobdir.h).
 *
 * Signals from sluiced: SIGTERM = scancel (state CANCELLED), SIGUSR2 =
 * preemption (PREEMPTED; queued with SL_STEPD_REQUEUE, scontrol requeue;
 * with SL_STEPD_NODE_FAIL, the node set DOWN: NODE_FAIL 0:0),
 * SL_STEPD_SIG_FORWARD queued with the signal number as its value = pass
 * that signal to the job's process group (scancel --signal -b; SIGSTOP and
 * SIGCONT are scontrol suspend and resume, and the time limit's clock
 * stops while the job is stopped), SL_STEPD_SIG_LIMIT queued with seconds =
 * a new time limit. The time limit gives TIMEOUT. Each end writes Slurm's
 * exact line to the job's stderr, "slurmstepd-<node>: error: *** JOB <id>
 * ON <node> CANCELLED AT <time>[ DUE TO TIME LIMIT| DUE TO PREEMPTION| DUE
 * TO JOB REQUEUE| DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS] ***" (a qsub job's: none, as PBS's MOM writes
 * nothing for a delete, but its "=>> PBS: job killed: walltime" line for
 * the time limit): we keep
 * the "slurmstepd-" prefix on purpose because users and scripts grep for it;
 * then SIGCONT+SIGTERM to the job's process group and SIGKILL killWait
 * seconds later. When the script exits, whatever it left in its process
 * group is killed, as Slurm's process tracking does. --signal's warning
 * goes warn_time seconds before the time limit: to the batch shell alone
 * with B:, else to the tasks of its srun steps, each its own process group
 * in the job's session, and not to the batch shell (Slurm's default). Slurm sends it within a minute of that; we at it
 * (suspended time not counted; a new time limit moves it). */
#include "stepd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "xalloc.h"

struct supervise {
	enum sl_jobstate end;     /* SL_JOB_RUNNING until something asks for an end */
	int64_t deadline_ms;      /* monotonic; 0: none */
	int64_t kill_ms;          /* monotonic time of the SIGKILL; 0: none */
	int64_t start_ms;         /* monotonic time of the launch */
	int64_t limit_ms;         /* the time limit; 0: none */
	int64_t stopped_ms;       /* suspended (SIGSTOP) since; 0: running */
	int64_t stopped_total_ms; /* time spent suspended before */
	int64_t warn_ms;          /* monotonic time of --signal's warning; 0: none (or sent) */
	int warned;               /* --signal's warning went (it goes once) */
	time_t ended;             /* when the end was asked for (the job's end
	                           * time, as slurmctld's: not when its
	                           * processes were gone); 0: none */
};

static void fmt_ts(time_t t, char *buf, size_t len)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

static void write_cancel_line(struct stepd *s, const char *why)
{
	char ts[32];
	fmt_ts(time(NULL), ts, sizeof(ts));
	if (s->err_fd >= 0)
		dprintf(s->err_fd, "slurmstepd-%s: error: *** JOB %llu ON %s CANCELLED AT %s%s ***\n",
			s->l.host, (unsigned long long)s->l.job_id, s->l.host, ts, why);
}

/* Start ending the job: message, SIGCONT+SIGTERM now, SIGKILL later. The
 * first reason wins; a later cancel of a timed-out job changes nothing. */
static void job_end(struct stepd *s, struct supervise *v, enum sl_jobstate st, int requeue)
{
	static const char *const why[SL_JOB_STATE_MAX] = {
		[SL_JOB_CANCELLED] = "", [SL_JOB_TIMEOUT] = " DUE TO TIME LIMIT",
		[SL_JOB_PREEMPTED] = " DUE TO PREEMPTION",
		[SL_JOB_NODE_FAIL] = " DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS",
	};
	if (v->end != SL_JOB_RUNNING)
		return;
	v->end = st;
	v->ended = time(NULL);
	sl_info("job %llu: %s", (unsigned long long)s->l.job_id, requeue ? "requeued" :
		sl_jobstate_name(st));
	/* a qsub job: MOM's words for a limit, and none for a delete or a
	 * rerun (mom_main.c writes "=>> PBS: job killed" for limits alone) */
	if (st == SL_JOB_TIMEOUT && s->l.nodefile != NULL && s->err_fd >= 0)
		dprintf(s->err_fd, "=>> PBS: job killed: walltime %lld exceeded limit %lld\n",
			(long long)((sl_mono_ms() - v->start_ms - v->stopped_total_ms) / 1000),
			(long long)(v->limit_ms / 1000));
	else if (s->l.nodefile == NULL)
		write_cancel_line(s, requeue ? " DUE TO JOB REQUEUE" : why[st]);
	stepd_job_kill(s, SIGCONT);
	stepd_job_kill(s, SIGTERM);
	v->kill_ms = sl_mono_ms() + (int64_t)(s->l.kill_wait > 0 ? s->l.kill_wait : 30) * 1000;
}

/* The deadline of the limit, suspended time not counted, and --signal's
 * warning warn_time seconds before it (at once when that is past; no time
 * limit, no warning, as in Slurm). A new limit moves a warning not sent. */
static void set_deadline(struct stepd *s, struct supervise *v)
{
	v->deadline_ms = v->limit_ms > 0 ? v->start_ms + v->limit_ms + v->stopped_total_ms : 0;
	v->warn_ms = 0;
	if (v->deadline_ms && s->l.warn_signal > 0 && !v->warned) {
		int64_t at = v->deadline_ms - (int64_t)s->l.warn_time * 1000;
		v->warn_ms = at > v->start_ms ? at : v->start_ms;
		if (v->warn_ms == 0)
			v->warn_ms = 1;
	}
}

/* scontrol suspend and resume, through the forward: the clock of the
 * time limit stops with the job. */
static void stop_clock(struct stepd *s, struct supervise *v, int sig, int64_t now)
{
	if (sig == SIGSTOP && v->stopped_ms == 0) {
		v->stopped_ms = now;
	} else if (sig == SIGCONT && v->stopped_ms != 0) {
		v->stopped_total_ms += now - v->stopped_ms;
		v->stopped_ms = 0;
		set_deadline(s, v);
	}
}

static void on_signal(struct stepd *s, struct supervise *v, const siginfo_t *si)
{
	int sig = si->si_signo, queued = si->si_code == SI_QUEUE;
	if (sig == SIGTERM || sig == SIGINT)
		job_end(s, v, SL_JOB_CANCELLED, 0);
	else if (sig == SIGUSR2 && queued && si->si_value.sival_int == SL_STEPD_NODE_FAIL)
		job_end(s, v, SL_JOB_NODE_FAIL, 0);
	else if (sig == SIGUSR2)
		job_end(s, v, SL_JOB_PREEMPTED,
			queued && si->si_value.sival_int == SL_STEPD_REQUEUE);
	else if (sig == SL_STEPD_SIG_FORWARD) {
		int fwd = si->si_value.sival_int & ~SL_STEPD_FWD_SCRIPT;
		if (fwd <= 0 || fwd >= NSIG)
			return;
		/* scancel --signal=TERM or KILL: slurmstepd's line, once */
		if ((fwd == SIGTERM || fwd == SIGKILL) && !s->told_signal) {
			s->told_signal = 1;
			write_cancel_line(s, "");
		}
		if (si->si_value.sival_int & SL_STEPD_FWD_SCRIPT) {
			if (s->job_pid > 0 && !s->job_reaped) /* else its pid may be anyone's */
				(void)kill(s->job_pid, fwd);
		} else {
			stop_clock(s, v, fwd, sl_mono_ms());
			stepd_job_kill(s, fwd);
		}
	} else if (sig == SL_STEPD_SIG_LIMIT && si->si_value.sival_int >= 0) {
		v->limit_ms = (int64_t)si->si_value.sival_int * 1000;
		set_deadline(s, v);
		sl_info("job %llu: time limit now %d s", (unsigned long long)s->l.job_id,
			si->si_value.sival_int);
	}
}

static void warn(struct stepd *s)
{
	int sig = s->l.warn_signal;

	if (sig <= 0 || sig >= NSIG)
		return;
	sl_info("job %llu: --signal %d to the %s, %d s before its time limit",
		(unsigned long long)s->l.job_id, sig, s->l.warn_batch ? "batch shell" : "job's steps",
		s->l.warn_time);
	if (s->l.warn_batch)
		(void)kill(s->job_pid, sig);
	else
		stepd_steps_kill(s->job_pid, sig, 0);
}

/* Wait for the script to exit, honouring signals and the time limit. */
static int supervise(struct stepd *s, struct supervise *v, const sigset_t *set)
{
	int status = 0;
	for (;;) {
		pid_t w;
		int st;
		struct rusage ru;
		/* the script, or what it left behind and was reparented here */
		while ((w = wait4(-1, &st, WNOHANG, &ru)) > 0) {
			stepd_usage_reaped(s, &ru);
			if (w == s->job_pid) {
				s->job_reaped = 1;
				return st;
			}
		}
		if (w < 0 && errno != EINTR)
			return status;
		int64_t now = sl_mono_ms(), wake = stepd_usage_sample(s, now);
		/* a stopped job's clocks stand still: no warning, no timeout */
		if (v->warn_ms && now >= v->warn_ms && v->end == SL_JOB_RUNNING &&
		    v->stopped_ms == 0) {
			v->warn_ms = 0;
			v->warned = 1;
			warn(s);
		}
		if (v->deadline_ms && now >= v->deadline_ms && v->stopped_ms == 0) {
			v->deadline_ms = 0;
			job_end(s, v, SL_JOB_TIMEOUT, 0);
		}
		if (v->kill_ms && now >= v->kill_ms) {
			v->kill_ms = 0;
			stepd_job_kill(s, SIGKILL);
		}
		if (v->deadline_ms && v->stopped_ms == 0 && v->deadline_ms < wake)
			wake = v->deadline_ms;
		if (v->warn_ms && v->stopped_ms == 0 && v->warn_ms < wake)
			wake = v->warn_ms;
		if (v->kill_ms && v->kill_ms < wake)
			wake = v->kill_ms;
		int64_t ms = wake == INT64_MAX ? 3600 * 1000 : wake - now;
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
		siginfo_t si;
		if (sigtimedwait(set, &si, &ts) > 0)
			on_signal(s, v, &si);
	}
}

/* A job ended by a cancel or its time limit: what the script leaves
 * running (srun and its tasks) has until KillWait to end on its SIGTERM,
 * and srun to say so, as slurmstepd gives them; SIGKILL comes after.
 * Nothing left (the supervisor is their subreaper): no wait. */
static void linger(struct stepd *s, struct supervise *v, const sigset_t *set)
{
	while (v->end != SL_JOB_RUNNING && v->kill_ms > 0) {
		struct rusage ru;
		pid_t w = wait4(-1, NULL, WNOHANG, &ru);
		if (w > 0) {
			stepd_usage_reaped(s, &ru);
			continue;
		}
		int64_t ms = v->kill_ms - sl_mono_ms();
		if (w < 0 || ms <= 0)
			return;
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
		siginfo_t si;
		if (sigtimedwait(set, &si, &ts) > 0 && si.si_signo != SIGCHLD)
			on_signal(s, v, &si);
	}
}

static void result_from_status(struct sl_exec_result *r, const struct supervise *v, int status)
{
	enum sl_jobstate st = v->end;
	if (st == SL_JOB_RUNNING)
		st = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? SL_JOB_COMPLETED : SL_JOB_FAILED;
	sl_exec_result_init(r, st);
	if (st == SL_JOB_NODE_FAIL) {
		/* as slurmctld records it: 0:0, whatever the kill did */
		snprintf(r->reason, sizeof(r->reason), "NodeDown");
	} else if (WIFEXITED(status)) {
		r->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->exit_signal = WTERMSIG(status);
		/* slurmctld's job_complete: a batch script ended by a signal
		 * is FAILED with FAIL_LAUNCH */
		if (st == SL_JOB_FAILED)
			snprintf(r->reason, sizeof(r->reason), "JobLaunchFailure");
	}
}

/* The marks (pid, started, pgid) and the result. Without `durability:
 * power` each is written in place by one write(): a reader that catches a
 * mark empty takes it as absent, which is what it was an instant before (no
 * pid: the lock is probed instead; not started: nothing of the user runs
 * until the write has returned; no process group to kill), and sluiced reads
 * the result only once we are gone. durable adds the fsyncs and the rename
 * that an OS crash needs, for the started mark and the result; after a
 * reboot the pid and pgid name nothing. */
static int write_mark(const char *dir, const char *name, const char *text, int durable)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_jobdir_write(dir, name, text, strlen(text), 0644, durable, &err);
	if (r != 0)
		sl_err_log("%s", err.msg);
	return r;
}

static int write_pidfile(const char *dir)
{
	/* ours for life: a kept supervisor reads it once, not once per job */
	static unsigned long long st;
	if (st == 0)
		(void)sl_proc_starttime(getpid(), &st);
	/* "fwd-script": this supervisor takes SL_STEPD_FWD_SCRIPT (one from
	 * before it does not, and sluiced then signals the script itself) */
	char *t = sl_xasprintf("%d %llu fwd-script\n", (int)getpid(), st);
	int r = write_mark(dir, SL_JOBDIR_PID, t, 0);
	free(t);
	return r;
}

void sl_signals_default(void)
{
	/* All zero is SIG_DFL, no flags, an empty mask, whatever the order of
	 * the kernel's struct sigaction fields. */
	unsigned long ksa[8] = {0};

	for (int sig = 1; sig < NSIG; sig++)
		if (signal(sig, SIG_DFL) == SIG_ERR && sig != SIGKILL && sig != SIGSTOP)
			/* glibc's wrapper refuses its internal signals (32, 33),
			 * which its posix_spawn leaves ignored in the child. */
			(void)syscall(SYS_rt_sigaction, sig, ksa, NULL, (size_t)8);
}

/* Detach from sluiced: own session (a child of the fork server has left
 * sluiced's session with the server, and spares the kernel a session, and
 * its scheduler autogroup, per job), no inherited descriptors but the lock,
 * stdin/stdout on /dev/null, our own signal handling. */
static void detach(sigset_t *set, int new_session, int kept)
{
	int last = kept ? SL_STEPD_END_FD : SL_STEPD_LOCK_FD;
	for (int fd = SL_STEPD_LOCK_FD; fd <= last; fd++)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC); /* the job must not hold them */
	(void)close_range((unsigned)last + 1, ~0U, 0);
	if (new_session) {
		(void)setsid();
		sl_signals_default(); /* the server did so once for its children */
	}
	int fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		(void)dup2(fd, 0);
		(void)dup2(fd, 1);
		if (fcntl(2, F_GETFD) < 0)
			(void)dup2(fd, 2);
		if (fd > last)
			close(fd);
	}
	umask(022);
	(void)signal(SIGPIPE, SIG_IGN);
	(void)signal(SIGHUP, SIG_IGN);
	/* A write past a file size limit (the PAM session's, when the
	 * supervisor cannot raise it back) fails instead of killing us. */
	(void)signal(SIGXFSZ, SIG_IGN);
	(void)signal(SIGCHLD, SIG_DFL); /* never inherit auto-reaping */
	/* Already blocked by whoever started us (jobdir.h says why): only a
	 * supervisor run by hand gets them blocked here. */
	sl_stepd_sigset(set);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/* Takes the pending SIGUSR2 (the job will not run): its value says whether
 * it was the node going down. */
static int usr2_is_node_fail(void)
{
	sigset_t one;
	siginfo_t si;
	struct timespec now = {0, 0};

	sigemptyset(&one);
	sigaddset(&one, SIGUSR2);
	return sigtimedwait(&one, &si, &now) == SIGUSR2 && si.si_code == SI_QUEUE &&
	       si.si_value.sival_int == SL_STEPD_NODE_FAIL;
}

/* A cancel that arrived before the launch, or before we were ready for it
 * (we are born with it blocked, jobdir.h): the script never runs. */
int stepd_cancel_pending(struct sl_exec_result *r)
{
	sigset_t pend;
	sigpending(&pend);
	if (sigismember(&pend, SIGTERM) || sigismember(&pend, SIGINT))
		sl_exec_result_init(r, SL_JOB_CANCELLED);
	else if (sigismember(&pend, SIGUSR2))
		sl_exec_result_init(r, usr2_is_node_fail() ? SL_JOB_NODE_FAIL : SL_JOB_PREEMPTED);
	else
		return 0;
	return 1;
}

static int run(struct stepd *s, const sigset_t *set, struct sl_exec_result *r)
{
	struct supervise v = {.end = SL_JOB_RUNNING};
	unsigned long long job_st = 0;
	char buf[48];
	s->start_time = time(NULL);
	stepd_usage_begin(s);
	snprintf(buf, sizeof(buf), "%lld\n", (long long)s->start_time);
	/* `started` is on disk before anything of the user can run: a restarted
	 * daemon that finds it without a result knows the job may have run. */
	if (write_pidfile(s->dir) != 0 || write_mark(s->dir, SL_JOBDIR_STARTED, buf, s->l.durable) != 0)
		return -1;
	/* A child subreaper: the job's orphans are reparented here, so they stay
	 * in the walk that signals the job's process groups (step_track.c). */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (!stepd_cancel_pending(r) && stepd_launch(s, r) == 0) {
		/* with the script's start time: a sluiced that signals the group
		 * itself tells it from one whose number was reused (exec_local_dir.c) */
		(void)sl_proc_starttime(s->job_pid, &job_st);
		snprintf(buf, sizeof(buf), "%d %llu\n", (int)s->job_pid, job_st);
		(void)write_mark(s->dir, SL_JOBDIR_PGID, buf, 0);
		v.start_ms = sl_mono_ms();
		v.limit_ms = s->l.time_limit > 0 ? s->l.time_limit * 1000 : 0;
		set_deadline(s, &v); /* and --signal's warning */
		int status = supervise(s, &v, set);
		linger(s, &v, set);
		/* Leftovers of the process group and the steps. Every process the
		 * job left is our child or a child's descendant (we are its
		 * subreaper): with no child left there is nothing to walk. */
		siginfo_t any;
		if (waitid(P_ALL, 0, &any, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD)
			stepd_job_kill(s, SIGKILL);
		result_from_status(r, &v, status);
		stepd_usage_end(s, r);
	}
	r->start_time = s->start_time;
	r->end_time = v.ended ? v.ended : time(NULL);
	stepd_pbs_cleanup(s);
	/* Once, whatever ended the job or its launch (stepd_pam.c). */
	stepd_pam_close(s);
	return 0;
}

/* One job, on the lock at fd 3, to its result. *clean (when asked): the
 * process is as it was before the job and may take another; a PAM session
 * leaves its marks on it (limits, nice value, credentials), so never then. */
static int one_job(const char *dir, const sigset_t *set, int *clean)
{
	struct stepd s = {.in_fd = -1, .out_fd = -1, .err_fd = -1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_exec_result res;
	char *text = NULL;
	int rc = 1;
	s.dir = dir;
	if (sl_jobdir_read(s.dir, SL_JOBDIR_SPEC, &text, &err) != 0 ||
	    sl_launch_from_json(text, &s.l, &err) != 0) {
		/* A result, not silence: without one the daemon would requeue a
		 * job that can never start, forever. */
		sl_err_log("%s: %s", s.dir, err.msg[0] ? err.msg : "spec.json missing");
		sl_exec_result_init(&res, SL_JOB_FAILED);
		snprintf(res.reason, sizeof(res.reason), "JobLaunchFailure");
		res.exit_signal = 53;
		res.launch_failed = 1;
		res.start_time = res.end_time = time(NULL);
	} else if (run(&s, set, &res) != 0) {
		goto out;
	} else {
		rc = 0;
	}
	char *json = sl_exec_result_to_json(&res);
	if (write_mark(s.dir, SL_JOBDIR_RESULT, json, s.l.durable) != 0)
		rc = 1;
	free(json);
	sl_info("job %llu: %s %d:%d", (unsigned long long)s.l.job_id, sl_jobstate_name(res.state),
		res.exit_code, res.exit_signal);
out:
	if (clean != NULL)
		*clean = rc == 0 && s.l.pam_service == NULL;
	int fds[] = {s.in_fd, s.out_fd, s.err_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(text);
	sl_launch_clear(&s.l);
	return rc;
}

int stepd_run(int fg, const char *dir, int forked)
{
	sigset_t set;
	sl_log_open("sluice-stepd", fg, SL_LOG_INFO);
	detach(&set, !forked, 0);
	return one_job(dir, &set, NULL);
}

static sigset_t kept_set;

int stepd_run_kept(int fg, const char *dir, int first, int *reusable)
{
	if (first) {
		sl_log_open("sluice-stepd", fg, SL_LOG_INFO);
		detach(&kept_set, 0, 1);
	}
	return one_job(dir, &kept_set, reusable);
}

int stepd_settle(void)
{
	for (int i = 0; i < 50; i++) {
		pid_t w;
		while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (w < 0 && errno == ECHILD)
			return 1;
		struct timespec ts = {0, 10 * 1000000};
		siginfo_t si;
		(void)sigtimedwait(&kept_set, &si, &ts); /* a SIGCHLD, or 10 ms */
	}
	return 0;
}

void stepd_drain_signals(void)
{
	struct timespec zero = {0, 0};
	siginfo_t si;
	while (sigtimedwait(&kept_set, &si, &zero) > 0)
		;
}
