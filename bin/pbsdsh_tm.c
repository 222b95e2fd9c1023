/* pbsdsh_tm.c - pbsdsh's copies as a step's tasks (pbsdsh_tm.h).
 *
 * OpenPBS's pbsdsh sends every spawn to MOM, then polls one event at a
 * time (src/cmds/pbsdsh.c, wait_for_task()): a spawn's acknowledgement,
 * upon which it asks for the task's obit, or an obit, its exit status. A
 * signal interrupts the poll. Here a spawn is a fork (srun_task.c), so its
 * acknowledgement is there at once: the events are told in the same order
 * (every acknowledgement of the copies waited for, then the obits as the
 * tasks end), with the event numbers tm_spawn() and tm_obit() would draw
 * (tm_init() took 1). The tasks are pbsdsh's children: it relays their
 * output (MOM writes it to the job's files, which pbsdsh's stdout and
 * stderr are in a batch job) and reaps them; a signal from scancel N.S
 * reaches them as it reaches srun's. */
#include "pbsdsh_tm.h"
#include "srun_step.h"
#include "srun_step_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client_step.h"
#include "clock.h"
#include "slurm_env.h"
#include "srun_io.h"
#include "sigpipe.h"
#include "xalloc.h"

#define PBSE_SYSTEM 15010  /* MOM's error for a spawn it could not start */
#define DRAIN_MS 1000      /* output a task's leftovers hold open: srun's wait */

enum copy_state {
	C_NEW = 0,  /* not spawned yet */
	C_SPAWNED,  /* its acknowledgement not told yet */
	C_WATCHED,  /* acknowledged; its obit asked for */
	C_DONE,     /* its obit told (or not asked for: -o, a failed spawn) */
};

struct dsh {
	const struct pbsdsh_tm *in;
	struct run r;
	struct sl_srun_opts so;   /* what srun_task_start() reads: stdin from /dev/null */
	char *state;              /* enum copy_state, per copy */
	char *failed;             /* its fork failed */
	int *ended;               /* copies reaped, in order, their obits not told */
	int nended;
	int event;                /* the last tm event number drawn */
	int fired;                /* HUP, INT or TERM came: its number */
	int cancelled;            /* scancel N.S ended the step */
	int64_t take_ms;          /* in a pod: next ask for scancel's signals */
};



static void signals_catch(void)
{
	static const int caught[] = {SIGCHLD, SIGHUP, SIGINT, SIGTERM};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigpipe_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &sa, NULL);
	sigaction(SL_SRUN_SIG_STEP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a reader gone: the relay's write fails, no more */
}

/* MOM's obit value: the exit status, or 256 and the signal's number. */
static int obit_value(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 0x100 + WTERMSIG(status)
									      : 1;
}

static void kill_copies(struct dsh *m, int sig)
{
	for (int c = 0; c < m->r.l->ntasks; c++)
		if (m->r.pid[c] > 0 && kill(-m->r.pid[c], sig) != 0)
			(void)kill(m->r.pid[c], sig);
}

static void reap(struct dsh *m)
{
	int status;
	pid_t p;
	while ((p = waitpid(-1, &status, WNOHANG)) > 0)
		for (int c = 0; c < m->r.l->ntasks; c++)
			if (m->r.pid[c] == p) {
				m->r.pid[c] = 0;
				m->r.status[c] = status;
				m->r.running--;
				m->ended[m->nended++] = c;
			}
}

/* scancel N.S: 0 cancels the step (its tasks killed), else a signal for
 * every task, as srun passes it on. */
static void step_signal(struct dsh *m, int sig)
{
	if (sig == 0)
		m->cancelled = 1;
	kill_copies(m, sig == 0 ? SIGKILL : sig);
}

static void on_sigpipe(struct dsh *m)
{
	int v[2];
	while (sigpipe_read(v)) {
		if (v[0] == SIGCHLD)
			reap(m);
		else if (v[0] == SL_SRUN_SIG_STEP && v[1] >= 0 && v[1] < NSIG)
			step_signal(m, v[1]);
		else if (v[0] == SIGHUP || v[0] == SIGINT || v[0] == SIGTERM)
			m->fired = v[0];
	}
}

/* In a pod sluiced cannot signal pbsdsh: scancel's signals are asked for
 * every second, as srun asks; a failed ask stops the asking. */
static void take_signals(struct dsh *m, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	int *sigs = NULL;
	size_t n = 0;

	m->take_ms = 0;
	if (m->r.running == 0 ||
	    sl_client_step_take(m->r.l->job_id, m->r.l->step_id, &sigs, &n, &err) != 0)
		return;
	m->take_ms = now + 1000;
	for (size_t i = 0; i < n; i++)
		if (sigs[i] >= 0 && sigs[i] < NSIG)
			step_signal(m, sigs[i]);
	free(sigs);
}

/* One wait for signals and the tasks' output, up to ms (-1: no limit). */
static void block(struct dsh *m, int ms)
{
	int n = 2 * m->r.l->ntasks;
	struct pollfd *p = sl_xcalloc((size_t)n + 1, sizeof(*p));
	int64_t now = sl_mono_ms();

	if (m->take_ms && (ms < 0 || m->take_ms - now < ms))
		ms = m->take_ms > now ? (int)(m->take_ms - now) : 0;
	p[0] = (struct pollfd){sigpipe_rfd(), POLLIN, 0};
	for (int i = 0; i < n; i++)
		p[1 + i] = (struct pollfd){m->r.st[i].fd, POLLIN, 0}; /* -1 is skipped */
	if (poll(p, (nfds_t)n + 1, ms) > 0) {
		if (p[0].revents)
			on_sigpipe(m);
		for (int i = 0; i < n; i++)
			if (p[1 + i].revents)
				(void)srun_io_read(&m->r.io, &m->r.st[i]);
	}
	if (m->take_ms && sl_mono_ms() >= m->take_ms)
		take_signals(m, sl_mono_ms());
	free(p);
}

/* Copy c spawned: the environment MOM gives it over pbsdsh's, the step's
 * variables over that (srun_task_start()). */
static void spawn(struct dsh *m, int c)
{
	const struct pbsdsh_tm *in = m->in;
	int vnode = in->vnode_of[c];
	char **own = sl_pbsdsh_task_env(c, vnode, in->node_of[vnode]);
	char **base = sl_slurm_env_merge(in->env, own);
	char **argv = sl_strv_dup(in->o->argv);

	m->event++;
	m->failed[c] = srun_task_start(&m->r, c, argv, base) != 0;
	m->state[c] = C_SPAWNED;
	if (in->o->verbose)
		printf("%s: spawned task 0x%08X on logical node %d event %d\n", in->id, c, vnode,
		       m->event);
	sl_strv_free(argv);
	sl_strv_free(base);
	sl_strv_free(own);
}

enum event { EV_NULL, EV_ACK, EV_OBIT };

/* The next event among copies [first, first + count): an acknowledgement
 * first, else an obit in the order the tasks ended, else a wait for one.
 * EV_NULL: a HUP, INT or TERM interrupted the wait. */
static enum event next_event(struct dsh *m, int first, int count, int *copy)
{
	for (;;) {
		for (int c = first; c < first + count; c++)
			if (m->state[c] == C_SPAWNED) {
				*copy = c;
				return EV_ACK;
			}
		for (int i = 0; i < m->nended; i++) {
			int c = m->ended[i];
			if (c < first || c >= first + count || m->state[c] != C_WATCHED)
				continue;
			memmove(m->ended + i, m->ended + i + 1,
				(size_t)(m->nended - i - 1) * sizeof(*m->ended));
			m->nended--;
			*copy = c;
			return EV_OBIT;
		}
		if (m->fired)
			return EV_NULL;
		block(m, -1);
		if (m->fired)
			return EV_NULL;
	}
}

/* A HUP, INT or TERM: the copies waited for that are not known to have
 * ended get it, by their task ids; pbsdsh then exits 1 without waiting. */
static int killed(struct dsh *m, int first, int count)
{
	for (int c = first; c < first + count; c++) {
		if (m->state[c] != C_SPAWNED && m->state[c] != C_WATCHED)
			continue;
		printf("pbsdsh: killing task 0x%08X signal %d\n", SL_PBSDSH_FIRST_TASK + c, m->fired);
		if (m->r.pid[c] > 0 && kill(-m->r.pid[c], m->fired) != 0)
			(void)kill(m->r.pid[c], m->fired);
	}
	return 1;
}

/* wait_for_task(): until the copies [first, first + count) are
 * acknowledged and, unless -o, their obits told. 0, or 1 once killed(). */
static int wait_copies(struct dsh *m, int first, int count)
{
	const struct pbsdsh_tm *in = m->in;
	int spawned = count, obits = 0, c;

	while (spawned || obits) {
		if (in->o->verbose)
			printf("pbsdsh: waiting on %d spawned and %d obits\n", spawned, obits);
		if (m->fired)
			return killed(m, first, count);
		switch (next_event(m, first, count, &c)) {
		case EV_NULL:
			break;
		case EV_ACK:
			spawned--;
			m->state[c] = C_DONE;
			if (m->failed[c])
				fprintf(stderr, "error %d on spawn\n", PBSE_SYSTEM);
			else if (!in->o->no_obit) {
				m->event++; /* tm_obit()'s */
				m->state[c] = C_WATCHED;
				obits++;
			}
			break;
		case EV_OBIT: {
			int v = obit_value(m->r.status[c]);
			obits--;
			m->state[c] = C_DONE;
			if (in->o->verbose || v != 0)
				printf("%s: task 0x%08X exit status %d\n", in->id, c, v);
			break;
		}
		}
	}
	return 0;
}

/* After the last event pbsdsh tells: the tasks still running (-o) and
 * their output, until every stream is closed or, once all have ended,
 * DRAIN_MS pass (something a task left behind holds it open). A signal
 * now is passed on to them, silently: OpenPBS's pbsdsh has exited. */
static void drain(struct dsh *m)
{
	int64_t done = 0;
	for (;;) {
		int open = 0;
		for (int i = 0; i < 2 * m->r.l->ntasks; i++)
			open |= m->r.st[i].fd >= 0;
		if (m->r.running == 0 && done == 0)
			done = sl_mono_ms();
		if (m->r.running == 0 && (!open || sl_mono_ms() - done >= DRAIN_MS))
			return;
		if (m->fired) {
			kill_copies(m, m->fired);
			m->fired = 0;
		}
		int64_t left = done + DRAIN_MS - sl_mono_ms();
		block(m, m->r.running > 0 ? -1 : left > 0 ? (int)left : 0);
	}
}

/* The step's end from its tasks' statuses, as srun records its own. */
static void outcome(const struct dsh *m, struct sl_step *rec)
{
	int code = 0, sig = 0;
	for (int c = 0; c < m->r.l->ntasks; c++) {
		int s = m->r.status[c];
		if (m->failed[c])
			code = code > 1 ? code : 1;
		else if (WIFSIGNALED(s) && WTERMSIG(s) > sig)
			sig = WTERMSIG(s);
		else if (WIFEXITED(s) && WEXITSTATUS(s) > code)
			code = WEXITSTATUS(s);
	}
	rec->exit_code = sig ? 0 : code;
	rec->exit_signal = sig;
	rec->state = m->cancelled || sig ? SL_JOB_CANCELLED : code ? SL_JOB_FAILED : SL_JOB_COMPLETED;
}

/* MOM runs a program it cannot exec so: its name and why on the task's
 * stderr, exit status 254 (start_process()). */
static void exec_failed(const struct run *r, int t, char **argv, int e)
{
	(void)r;
	(void)t;
	dprintf(2, "%s: %s\n", argv[0], strerror(e));
	_exit(254);
}

static void tm_init_run(struct dsh *m, const struct pbsdsh_tm *in)
{
	int n = in->l->ntasks;
	struct rlimit nofile;

	m->in = in;
	m->so.in = "none"; /* MOM's tasks read /dev/null */
	m->r.o = &m->so;
	m->r.l = in->l;
	m->r.exec_failed = exec_failed;
	m->r.pid = sl_xcalloc((size_t)n, sizeof(*m->r.pid));
	m->r.path = sl_xcalloc((size_t)n + 1, sizeof(*m->r.path));
	m->r.status = sl_xcalloc((size_t)n, sizeof(*m->r.status));
	m->r.st = sl_xcalloc(2 * (size_t)n, sizeof(*m->r.st));
	for (int i = 0; i < 2 * n; i++)
		m->r.st[i].fd = -1;
	m->r.pty.master = m->r.pty.slave = -1;
	m->r.in = (struct srun_stdin){.src = -1, .ntasks = n};
	m->r.in.fds = sl_xcalloc((size_t)n, sizeof(int));
	m->r.in.pend = sl_xcalloc((size_t)n, sizeof(char *));
	m->r.in.npend = sl_xcalloc((size_t)n, sizeof(size_t));
	for (int c = 0; c < n; c++)
		m->r.in.fds[c] = -1;
	m->state = sl_xcalloc((size_t)n, 1);
	m->failed = sl_xcalloc((size_t)n, 1);
	m->ended = sl_xcalloc((size_t)n, sizeof(*m->ended));
	m->event = 1; /* tm_init()'s */
	/* two pipes a copy: the tasks get pbsdsh's own limit back */
	if (getrlimit(RLIMIT_NOFILE, &m->r.nofile) == 0 && m->r.nofile.rlim_cur < m->r.nofile.rlim_max) {
		nofile = m->r.nofile;
		nofile.rlim_cur = nofile.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

static void tm_free(struct dsh *m)
{
	for (int i = 0; m->r.st && i < 2 * m->r.l->ntasks; i++)
		if (m->r.st[i].fd >= 0)
			close(m->r.st[i].fd);
	srun_stdin_close(&m->r.in);
	srun_io_close(&m->r.io);
	free(m->r.st);
	free(m->r.pid);
	sl_strv_free(m->r.path);
	free(m->r.status);
	free(m->state);
	free(m->failed);
	free(m->ended);
}

int pbsdsh_tm_run(const struct pbsdsh_tm *in, struct sl_step *rec)
{
	struct dsh m = {0};
	int n = in->l->ntasks, rc = 0;

	if (sigpipe_open() != 0) {
		fprintf(stderr, "%s: %s\n", in->id, strerror(errno));
		rec->state = SL_JOB_FAILED;
		rec->exit_code = 1;
		return 1;
	}
	tm_init_run(&m, in);
	signals_catch();
	if (srun_task_remote() && rec->job_id != 0) /* an unrecorded step has no signals */
		m.take_ms = sl_mono_ms() + 1000;
	for (int c = 0; c < n && rc == 0; c++) {
		spawn(&m, c);
		if (in->o->sync) /* one at a time */
			rc = wait_copies(&m, c, 1);
	}
	if (rc == 0 && !in->o->sync)
		rc = wait_copies(&m, 0, n);
	fflush(stdout);
	if (rc != 0) {
		rec->state = SL_JOB_CANCELLED;
		rec->exit_signal = m.fired;
		tm_free(&m);
		return rc;
	}
	if (in->ready_fd >= 0) { /* -o: pbsdsh is done; this process relays and reaps */
		(void)!write(in->ready_fd, "", 1);
		close(in->ready_fd);
	}
	drain(&m);
	outcome(&m, rec);
	tm_free(&m);
	return 0;
}
