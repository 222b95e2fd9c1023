/* srun_step.c - run one job step here (srun_step.h).
 *
 * The tasks are srun's children, so they run as the user who typed srun,
 * with nothing to authenticate: a user can only start tasks as themself.
 * Each task leads its own process group, so a signal for the step reaches
 * what a task started too; they stay in the batch script's session, which
 * sluice-stepd kills whole when the job ends (scancel, time limit, end of
 * the script). The cost of that choice: the supervisor does not start the
 * tasks, so what they use is what srun measures (srun_use.c) and tells
 * sluiced with the step's end.
 *
 * One poll loop: the tasks' output pipes, srun's stdin, a self-pipe for
 * signals (SIGCHLD, Ctrl-C, what srun passes on, and sluiced's
 * SL_SRUN_SIG_STEP for scancel N.S) and timers (-t, -W, the kill after
 * KillWait). Messages are Slurm 22.05's. */
#include "srun_step.h"
#include "srun_step_int.h"
#include "client_step.h"
#include "clock.h"

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

#include "sacct_fmt.h"
#include "slurm_pattern.h"
#include "srun_alloc.h"
#include "srun_files.h"
#include "srun_io.h"
#include "srun_pmi2.h"
#include "srun_pmix.h"
#include "srun_use.h"
#include "sigpipe.h"
#include "xalloc.h"

static uint64_t watched; /* srun_step_watch() */

void srun_step_watch(uint64_t job)
{
	watched = job;
}


static const int fwd_sigs[] = {SIGINT, SIGQUIT, SIGCONT, SIGTERM, SIGHUP, SIGALRM,
			       SIGUSR1, SIGUSR2, SIGCHLD};

static void signals_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigpipe_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fwd_sigs) / sizeof(fwd_sigs[0]); i++)
		sigaction(fwd_sigs[i], &sa, NULL);
	sigaction(SL_SRUN_SIG_STEP, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL); /* for --pty; harmless otherwise */
	signal(SIGPIPE, SIG_IGN);
}

static void timestamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* Every live task's process group (but the rank whose MPI_Abort is still
 * exiting with its code: SIGKILL finds it only after a grace). */
static void kill_tasks(struct run *r, int sig)
{
	for (int t = 0; t < r->l->ntasks; t++)
		if (sig == SIGKILL && t == r->spare - 1)
			continue;
		else if (r->pid[t] > 0 && kill(-r->pid[t], sig) != 0)
			(void)kill(r->pid[t], sig);
}

/* "0-2,5" for the tasks of node `node` for which pick() holds. */
static void task_ranges(const struct run *r, int node, int (*pick)(const struct run *, int, int),
			int arg, char *buf, size_t len, int *count)
{
	size_t used = 0;
	*count = 0;
	buf[0] = '\0';
	for (int t = 0; t < r->l->ntasks; t++) {
		if (r->l->task[t].node != node || !pick(r, t, arg))
			continue;
		int e = t;
		while (e + 1 < r->l->ntasks && r->l->task[e + 1].node == node && pick(r, e + 1, arg))
			e++;
		used += (size_t)snprintf(buf + used, len - used, used ? ",%d" : "%d", t);
		if (e > t)
			used += (size_t)snprintf(buf + used, len - used, "-%d", e);
		*count += e - t + 1;
		t = e;
		if (used >= len)
			break;
	}
}

static int is_running(const struct run *r, int t, int arg)
{
	(void)arg;
	return r->pid[t] > 0;
}

static int is_exited(const struct run *r, int t, int arg)
{
	(void)arg;
	return r->pid[t] == 0;
}

/* Ctrl-C's and -W's status lines: "srun: StepId=N.S tasks 0-1: running",
 * then "... task 2: exited". */
static void print_status(const struct run *r)
{
	static const char *const what[] = {"running", "exited"};
	int (*const pick[])(const struct run *, int, int) = {is_running, is_exited};
	char tasks[1024];
	int n;
	for (int k = 0; k < 2; k++)
		for (int node = 0; node < r->l->nnodes; node++) {
			task_ranges(r, node, pick[k], 0, tasks, sizeof(tasks), &n);
			if (n > 0)
				fprintf(stderr, "srun: StepId=%llu.%u task%s %s: %s\n",
					(unsigned long long)r->l->job_id, r->l->step_id,
					n > 1 ? "s" : "", tasks, what[k]);
		}
}

/* The stepd's line, written where task 0's stderr goes (labelled with
 * -l), as slurmstepd writes it into the step's stream. */
static void stepd_line(struct run *r, const char *why)
{
	char ts[32], line[512];
	int n;
	timestamp(ts, sizeof(ts));
	n = snprintf(line, sizeof(line), "slurmstepd-%s: error: *** STEP %llu.%u ON %s CANCELLED "
		     "AT %s%s ***\n", r->l->nodes[0], (unsigned long long)r->l->job_id,
		     r->l->step_id, r->l->nodes[0], ts, why);
	srun_io_emit(&r->io, r->st[1].out, 0, line, (size_t)n);
}

/* End the step. scancel N.S aborts it: SIGKILL at once, as Slurm's step
 * cancel. A second Ctrl-C has sent SIGINT: the rest get a moment to die
 * of it (srun then exits 130, as Slurm's) before SIGKILL. -K, -t and -W
 * terminate it: SIGCONT and SIGTERM now, SIGKILL after KillWait. The
 * first reason stays. */
static int aborted(enum end_why why)
{
	return why == END_CANCEL || why == END_INTR || why == END_WAIT || why == END_FORCE ||
	       why == END_TERM;
}

static void terminating(const struct run *r)
{
	fprintf(stderr, "srun: launch/slurm: _step_signal: Terminating StepId=%llu.%u\n",
		(unsigned long long)r->l->job_id, r->l->step_id);
}

/* Why the job is ending when srun gets its TERM: slurmctld tells a step's
 * srun of the job's cancel, time limit or requeue (its "Job step aborted")
 * and the step's slurmstepd writes the STEP line; a TERM from anyone else
 * gets neither. NULL: no such end; "": a cancel; " DUE TO TIME LIMIT";
 * " DUE TO JOB REQUEUE". */
static const char *job_ending(const struct run *r)
{
	struct sl_job *j = srun_alloc_job(r->l->job_id);
	enum sl_jobstate st = j ? sl_sacct_job_state(j, (int64_t)time(NULL)) : SL_JOB_RUNNING;
	int cancelled = st == SL_JOB_CANCELLED && j->cancelled_by >= 0;
	int requeued = j != NULL && j->requeue_mark != 0;

	sl_job_free(j);
	return cancelled ? "" : st == SL_JOB_TIMEOUT ? " DUE TO TIME LIMIT"
	       : requeued ? " DUE TO JOB REQUEUE" : NULL;
}

static void step_end(struct run *r, enum end_why why)
{
	if (r->why != END_NONE)
		return;
	r->why = why;
	if (why == END_TERM) { /* _srun_signal_mgr: the tasks are killed */
		const char *ending = job_ending(r);
		if (ending != NULL)
			fprintf(stderr, "srun: Job step aborted: Waiting up to 32 seconds for job "
					"step to finish.\n");
		fprintf(stderr, "srun: forcing job termination\n");
		if (ending == NULL) {
			kill_tasks(r, SIGKILL);
			return;
		}
		/* The job is ending: the step's slurmstepd has given the tasks
		 * their SIGTERM (here the job's, which reached them with this
		 * one) and KillWait before SIGKILL, which srun's forwarded kill
		 * does not shorten: a task may still save its work. */
		stepd_line(r, ending);
		r->kill_ms = sl_mono_ms() + KILL_WAIT_MS;
		return;
	}
	if (why == END_INTR)
		fprintf(stderr, "srun: forcing job termination\n");
	if (why == END_WAIT)
		terminating(r);
	if (why == END_CANCEL || why == END_INTR || why == END_WAIT)
		fprintf(stderr, "srun: Job step aborted: Waiting up to 32 seconds for job step to "
				"finish.\n");
	if (why == END_FORCE)
		fprintf(stderr, "srun: Force Terminated StepId=%llu.%u\n",
			(unsigned long long)r->l->job_id, r->l->step_id);
	else
		stepd_line(r, why == END_TIME ? " DUE TO TIME LIMIT" : "");
	kill_tasks(r, SIGCONT);
	if (why == END_CANCEL || why == END_WAIT || why == END_FORCE) {
		kill_tasks(r, SIGKILL);
		return;
	}
	if (why != END_INTR)
		kill_tasks(r, SIGTERM);
	r->kill_ms = sl_mono_ms() + (why == END_INTR ? 2000 : KILL_WAIT_MS);
}

/* scancel --signal=SIG for the step: to its tasks, with slurmstepd's
 * CANCELLED line once for TERM and KILL (its _handle_signal_container). */
static void signal_request(struct run *r, int sig)
{
	if ((sig == SIGTERM || sig == SIGKILL) && !r->told_signal && r->why == END_NONE) {
		r->told_signal = 1;
		stepd_line(r, "");
	}
	kill_tasks(r, sig);
}

static void on_interrupt(struct run *r)
{
	int64_t now = sl_mono_ms();
	/* -X: no status, the Ctrl-C forwarded at once; a second within 1 s
	 * still ends the step (Slurm's _handle_intr) */
	if (r->o->disable_status && !r->o->quit_on_interrupt &&
	    (r->intr_ms == 0 || now - r->intr_ms > 1000)) {
		fprintf(stderr, "srun: sending Ctrl-C to StepId=%llu.%u\n",
			(unsigned long long)r->l->job_id, r->l->step_id);
		kill_tasks(r, SIGINT);
		r->intr_ms = now;
		return;
	}
	if (!r->o->quit_on_interrupt && (r->intr_ms == 0 || now - r->intr_ms > 1000)) {
		fprintf(stderr, "srun: interrupt (one more within 1 sec to abort)\n");
		print_status(r);
		r->intr_ms = now;
		return;
	}
	fprintf(stderr, "srun: sending Ctrl-C to StepId=%llu.%u\n",
		(unsigned long long)r->l->job_id, r->l->step_id);
	kill_tasks(r, SIGINT);
	step_end(r, END_INTR);
}

static int bad(int status)
{
	return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

static void report(struct run *r);

static int task_of(const struct run *r, pid_t p)
{
	for (int t = 0; t < r->l->ntasks; t++)
		if (r->pid[t] == p)
			return t;
	return -1;
}

/* Task t has ended with status: the step's timers and reports. */
static void task_ended(struct run *r, int t, int status)
{
	r->pid[t] = 0;
	r->status[t] = status;
	r->late[t] = r->why != END_NONE;
	r->running--;
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	/* a moment for the tasks dying with it, told together as Slurm's
	 * stepd batches them */
	if (r->why == END_NONE && (sig == SIGKILL || sig == SIGTERM) && !r->force_ms)
		r->force_ms = sl_mono_ms() + 100;
	else if (r->o->kill_on_bad_exit > 0 && bad(status) && r->why == END_NONE && !r->bad_ms) {
		/* Slurm tells the bad exit, then signals the step through
		 * slurmstepd: tasks ending meanwhile are not killed, and
		 * with none left it has nothing to cancel. */
		report(r);
		terminating(r);
		r->bad_ms = sl_mono_ms() + 100;
	}
	if (r->o->wait_secs > 0 && r->wait_ms == 0)
		r->wait_ms = sl_mono_ms() + (int64_t)r->o->wait_secs * 1000;
}

/* Every child that has ended, reaped; a task's use measured on the way:
 * its I/O read while it is still a zombie (waitid's WNOWAIT), then its
 * rusage from wait4. */
static void reap(struct run *r)
{
	for (;;) {
		siginfo_t si;
		struct rusage ru;
		int status, t;
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid <= 0)
			break;
		t = task_of(r, si.si_pid);
		if (t >= 0 && r->use != NULL)
			srun_use_exited(r->use, t, si.si_pid);
		if (wait4(si.si_pid, &status, 0, &ru) != si.si_pid)
			break;
		if (t < 0)
			continue;
		if (r->use != NULL)
			srun_use_reaped(r->use, t, &ru);
		task_ended(r, t, status);
	}
	if (r->running == 0 && r->done_ms == 0)
		r->done_ms = sl_mono_ms();
}

/* The aborting rank exits with its code, as under Slurm, where the cancel
 * reaches the step later (it has 3 s); the rest are killed now. */
static void on_abort(struct run *r, int rank)
{
	if (r->why != END_NONE || rank < 0 || rank >= r->l->ntasks)
		return;
	r->spare = rank + 1;
	step_end(r, END_CANCEL);
	r->spare = 0;
	r->kill_ms = sl_mono_ms() + 3000;
}

static void on_sigpipe(struct run *r)
{
	int m[2];
	while (sigpipe_read(m)) {
		if (m[0] == SIGCHLD)
			reap(r);
		else if (m[0] == SIGWINCH)
			srun_pty_winch(&r->pty);
		else if (m[0] == SIGINT)
			on_interrupt(r);
		else if (m[0] == SIGCONT) /* Slurm's srun says so and passes it on to no one */
			fprintf(stderr, "srun: got SIGCONT\n");
		else if (m[0] == SIGTERM || m[0] == SIGHUP || m[0] == SIGQUIT) {
			if (m[0] == SIGQUIT)
				fprintf(stderr, "srun: Quit\n");
			step_end(r, END_TERM); /* a job's cancel or time limit reaches srun so */
		}
		else if (m[0] == 0) /* MPI_Abort (srun_pmix.c): Slurm cancels the step */
			on_abort(r, m[1]);
		else if (m[0] == SL_SRUN_SIG_STEP && m[1] == 0)
			step_end(r, END_CANCEL);
		else if (m[0] == SL_SRUN_SIG_STEP && m[1] > 0 && m[1] < NSIG)
			signal_request(r, m[1]);
		else
			kill_tasks(r, m[0]);
	}
}

/* In a pod sluiced cannot reach srun: scancel N.S queues its signal and
 * srun asks for it every second (sluiced's sigqueue does this locally). A
 * failed ask stops the asking: sluiced is out of reach from this pod. */
static void take_signals(struct run *r, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	int *sigs = NULL;
	size_t n = 0;

	r->take_ms = 0;
	if (r->running == 0 || sl_client_step_take(r->l->job_id, r->l->step_id, &sigs, &n, &err) != 0)
		return;
	r->take_ms = now + 1000;
	for (size_t i = 0; i < n; i++) {
		if (sigs[i] == 0)
			step_end(r, END_CANCEL);
		else if (sigs[i] > 0 && sigs[i] < NSIG)
			signal_request(r, sigs[i]);
	}
	free(sigs);
}

/* -t, -W and the SIGKILL after KillWait. */
static void on_timers(struct run *r, int64_t now)
{
	if (r->limit_ms && now >= r->limit_ms && r->running > 0) {
		r->limit_ms = 0;
		step_end(r, END_TIME);
	}
	if (r->wait_ms && now >= r->wait_ms && r->running > 0) {
		r->wait_ms = 0;
		fprintf(stderr, "srun: First task exited %ds ago\n", r->o->wait_secs);
		print_status(r);
		step_end(r, END_WAIT);
	}
	if (r->bad_ms && now >= r->bad_ms) {
		r->bad_ms = 0;
		if (r->running > 0)
			step_end(r, END_BAD_EXIT);
	}
	if (r->force_ms && now >= r->force_ms) {
		r->force_ms = 0;
		if (r->running > 0 && r->why == END_NONE) {
			report(r); /* what ended so far; the rest is ended */
			step_end(r, END_FORCE);
		}
	}
	if (r->watch_ms && now >= r->watch_ms) {
		r->watch_ms = now + 1000;
		if (r->running > 0 && srun_alloc_gone(watched))
			step_end(r, END_CANCEL);
	}
	if (r->kill_ms && now >= r->kill_ms) {
		r->kill_ms = 0;
		kill_tasks(r, SIGKILL);
	}
	if (r->take_ms && now >= r->take_ms)
		take_signals(r, now);
	if (r->use_ms && now >= r->use_ms)
		r->use_ms = r->running > 0 ? srun_use_sample(r->use, r->pid, now) : 0;
}

static int64_t next_wake(const struct run *r, int64_t now)
{
	int64_t w = INT64_MAX, t[] = {r->limit_ms, r->wait_ms, r->kill_ms, r->watch_ms, r->force_ms,
				      r->bad_ms, r->take_ms, r->done_ms ? r->done_ms + 1000 : 0,
				      r->use_ms};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] && t[i] < w)
			w = t[i];
	return w == INT64_MAX ? -1 : w > now ? w - now : 0;
}

/* Output still open once every task is gone belongs to something a task
 * left behind: after a second, srun stops waiting for it. */
static int finished(const struct run *r, int64_t now)
{
	if (r->running > 0)
		return 0;
	if (r->done_ms && now - r->done_ms >= 1000)
		return 1;
	for (int i = 0; i < 2 * r->l->ntasks; i++)
		if (r->st[i].fd >= 0)
			return 0;
	return 1;
}

static void loop(struct run *r)
{
	int n = 2 * r->l->ntasks;
	struct pollfd *p = sl_xcalloc((size_t)n + 2 * (size_t)r->l->ntasks + 2, sizeof(*p));
	int64_t now;
	while (!finished(r, now = sl_mono_ms())) {
		int k = 0, in_at, pmi_at, rank;
		p[k++] = (struct pollfd){sigpipe_rfd(), POLLIN, 0};
		for (int i = 0; i < n; i++)
			p[k++] = (struct pollfd){r->st[i].fd, POLLIN, 0}; /* -1 is skipped */
		in_at = k;
		for (int t = 0; t < r->in.ntasks; t++)
			p[k++] = (struct pollfd){r->in.npend[t] ? r->in.fds[t] : -1, POLLOUT, 0};
		pmi_at = k;
		if (r->pmi2 != NULL) {
			srun_pmi2_poll(r->pmi2, p + k);
			k += r->l->ntasks;
		}
		p[k++] = (struct pollfd){!srun_stdin_backlog(&r->in) ? r->in.src : -1, POLLIN, 0};
		if (poll(p, (nfds_t)k, (int)next_wake(r, now)) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			on_sigpipe(r);
		for (int i = 0; i < n; i++)
			if (p[1 + i].revents)
				(void)srun_io_read(&r->io, &r->st[i]);
		for (int t = 0; t < r->in.ntasks; t++)
			if (p[in_at + t].revents)
				srun_stdin_drain(&r->in, t);
		/* PMI-1's abort, PMI-2's with isworld: Slurm kills the step */
		if (r->pmi2 != NULL && (rank = srun_pmi2_serve(r->pmi2, p + pmi_at)) >= 0)
			on_abort(r, rank);
		if (p[k - 1].revents)
			srun_stdin_read(&r->in);
		on_timers(r, sl_mono_ms());
	}
	free(p);
}

/* ---- the end ---- */

static int exit_of(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int same_end(const struct run *r, int t, int status)
{
	return r->pid[t] == 0 && !r->reported[t] && bad(r->status[t]) && r->status[t] == status;
}

/* "srun: error: n1: tasks 0-1: Exited with exit code 2", per node and
 * outcome, in task order. */
static void report(struct run *r)
{
	char tasks[1024];
	int n;
	for (int t = 0; t < r->l->ntasks; t++) {
		int s = r->status[t], node = r->l->task[t].node;
		if (r->reported[t] || r->pid[t] != 0 || !bad(s))
			continue;
		task_ranges(r, node, same_end, s, tasks, sizeof(tasks), &n);
		for (int u = r->l->ntasks - 1; u >= t; u--)
			if (r->l->task[u].node == node && same_end(r, u, s))
				r->reported[u] = 1;
		if (WIFSIGNALED(s))
			fprintf(stderr, "srun: error: %s: task%s %s: %s\n", r->l->nodes[node],
				n > 1 ? "s" : "", tasks, strsignal(WTERMSIG(s)));
		else
			fprintf(stderr, "srun: error: %s: task%s %s: Exited with exit code %d\n",
				r->l->nodes[node], n > 1 ? "s" : "", tasks, WEXITSTATUS(s));
	}
}

/* The step's record and srun's status: the highest task status (a signal
 * counts 128 + its number), as Slurm's srun. */
static int outcome(const struct run *r, struct sl_step *rec)
{
	int rc = 0, code = 0, sig = 0, term = 0;
	for (int t = 0; t < r->l->ntasks; t++) {
		int s = r->status[t];
		rc = exit_of(s) > rc ? exit_of(s) : rc;
		/* -W's end is not the tasks': Slurm records the step by those that
		 * ended first (COMPLETED 0:0 when they all exited 0) */
		if (r->why == END_WAIT && r->late[t])
			continue;
		if (WIFSIGNALED(s) && (WTERMSIG(s) == SIGKILL || WTERMSIG(s) == SIGTERM))
			term = 1;
		if (WIFSIGNALED(s) && WTERMSIG(s) > sig)
			sig = WTERMSIG(s);
		else if (WIFEXITED(s) && WEXITSTATUS(s) > code)
			code = WEXITSTATUS(s);
	}
	rec->exit_code = sig ? 0 : code;
	rec->exit_signal = sig;
	/* The job's end (END_TERM) lets the tasks end as they will: the step
	 * is what they did, COMPLETED when all saved their work and exited 0 */
	if (r->why == END_TIME)
		rec->state = SL_JOB_TIMEOUT;
	else if ((r->why != END_NONE && r->why != END_WAIT && r->why != END_TERM) || sig)
		rec->state = SL_JOB_CANCELLED;
	else
		rec->state = code ? SL_JOB_FAILED : SL_JOB_COMPLETED;
	/* Slurm's srun says so when a task died of SIGTERM or SIGKILL that it
	 * did not send itself by aborting the step. */
	if (term && !aborted(r->why))
		fprintf(stderr, "srun: Force Terminated StepId=%llu.%u\n",
			(unsigned long long)r->l->job_id, r->l->step_id);
	return rc;
}

static void run_free(struct run *r)
{
	srun_pmix_free(r->pmix);
	r->pmix = NULL;
	srun_pmi2_free(r->pmi2);
	r->pmi2 = NULL;
	srun_use_free(r->use);
	r->use = NULL;
	for (int i = 0; r->st && i < 2 * r->l->ntasks; i++)
		if (r->st[i].fd >= 0)
			close(r->st[i].fd);
	srun_stdin_close(&r->in);
	srun_io_close(&r->io);
	free(r->st);
	free(r->pid);
	sl_strv_free(r->path);
	free(r->status);
	free(r->reported);
	free(r->late);
}

/* --mpi=pmix: the server, before any task. 1, or 0 said. */
static int pmix_start(struct run *r)
{
	struct sl_err err = SL_ERR_INIT;
	if (srun_pmix_start(&r->pmix, r->l->job_id, r->l->step_id, r->l->ntasks, getenv("TMPDIR"),
			    sigpipe_wfd(), &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 0;
	}
	return 1;
}

/* --mpi=pmi2: the server, before any task. 1, or 0 said. */
static int pmi2_start(struct run *r)
{
	struct sl_err err = SL_ERR_INIT;
	if (srun_pmi2_start(&r->pmi2, r->l, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 0;
	}
	return 1;
}

int srun_step_run(const struct sl_srun_opts *o, const struct sl_srun_layout *l,
		  char *const *env, const char *mp_text, struct sl_step *rec)
{
	struct run r = {.o = o, .l = l};
	int n = l->ntasks, rc = 1;
	if (sigpipe_open() != 0)
		return 1;
	r.pid = sl_xcalloc((size_t)n, sizeof(*r.pid));
	r.path = sl_xcalloc((size_t)n + 1, sizeof(*r.path));
	r.status = sl_xcalloc((size_t)n, sizeof(*r.status));
	r.reported = sl_xcalloc((size_t)n, 1);
	r.late = sl_xcalloc((size_t)n, 1);
	r.st = sl_xcalloc(2 * (size_t)n, sizeof(*r.st));
	for (int i = 0; i < 2 * n; i++)
		r.st[i].fd = -1;
	r.io.label_width = l->label && !o->pty ? sl_srun_label_width(n) : 0;
	r.io.unbuffered = o->unbuffered || o->pty; /* a terminal echoes a key at a time */
	r.io.append = o->open_append == 1;
	r.pty.master = r.pty.slave = -1;
	r.in = (struct srun_stdin){.src = 0, .ntasks = n};
	r.in.fds = sl_xcalloc((size_t)n, sizeof(int));
	r.in.pend = sl_xcalloc((size_t)n, sizeof(char *));
	r.in.npend = sl_xcalloc((size_t)n, sizeof(size_t));
	for (int t = 0; t < n; t++)
		r.in.fds[t] = -1;
	/* srun's stdin stays blocking: poll says when one read will not wait,
	 * and a terminal left non-blocking by a killed srun would break the
	 * user's shell. Three descriptors a task: room for thousands. */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &r.nofile) == 0 && r.nofile.rlim_cur < r.nofile.rlim_max) {
		nofile = r.nofile;
		nofile.rlim_cur = nofile.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &nofile);
	}
	signals_catch();
	if (o->time_limit > 0)
		r.limit_ms = sl_mono_ms() + o->time_limit * 60000;
	if (watched)
		r.watch_ms = sl_mono_ms() + 1000;
	if (srun_task_remote() && rec->job_id != 0) /* an unrecorded step has no signals to take */
		r.take_ms = sl_mono_ms() + 1000;
	/* a task in a pod is its agent's: this srun would measure its relay */
	if (!srun_task_remote()) {
		r.use = srun_use_new(n);
		r.use_ms = srun_use_sample(r.use, r.pid, sl_mono_ms());
	}
	if (srun_files_open(o, l, &r.io) != 0 || (o->mpi_pmix && !pmix_start(&r)) ||
	    (o->mpi_pmi2 && !pmi2_start(&r))) {
		rec->state = SL_JOB_FAILED;
		rec->exit_code = 1;
		run_free(&r);
		return 1;
	}
	for (int t = 0; t < n; t++) {
		char **argv = srun_task_argv(&r, t, mp_text);
		int e = argv ? srun_task_start(&r, t, argv, env) : -1;
		sl_strv_free(argv);
		if (e != 0) {
			fprintf(stderr, "srun: error: task %d launch failed: %s\n", t, strerror(errno));
			step_end(&r, END_CANCEL);
			break;
		}
	}
	if (o->pty)
		srun_pty_raw(&r.pty);
	loop(&r);
	srun_pty_restore(&r.pty);
	if (r.why != END_INTR && r.why != END_FORCE) /* the ends srun caused are not told */
		report(&r);
	rc = outcome(&r, rec);
	if (r.use != NULL)
		srun_use_result(r.use, &rec->use);
	int abort_status;
	if (srun_pmix_aborted(r.pmix, &abort_status)) { /* Slurm's srun exits with its code */
		rc = abort_status;
		rec->cancelled_by = (int64_t)getuid(); /* the user's srun cancelled it */
	}
	/* a PMI abort is the user's cancel too; srun's status stays its
	 * tasks' (137 for those killed), as Slurm's */
	if (srun_pmi2_aborted(r.pmi2))
		rec->cancelled_by = (int64_t)getuid();
	run_free(&r);
	return rc;
}
