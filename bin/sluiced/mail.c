/* mail.c - --mail-type's mails (mail.h), as slurmctld's agent.c writes
 * them: the subject is the whole message ("Slurm Job_id=12 Name=train
 * Ended, Run time 00:01:02, COMPLETED, ExitCode 0"), the recipient is the
 * job's mail user, the body is empty, and the program learns the rest from
 * SLURM_JOB_* variables.
 *
 * The loop never waits for a mail program: it is spawned with posix_spawn
 * (argv, never a shell: the subject holds the job's name, which a user
 * chose), and a timer reaps it. At most MAIL_KIDS run at once; the others
 * wait in the queue, which holds at most MAIL_QUEUE (past that, mails are
 * dropped and counted in the log), and a program still running after
 * MAIL_TIMEOUT_S is killed, as Slurm's MAIL_PROG_TIMEOUT does. */
#include "mail.h"
#include "clock.h"
#include "conf.h"
#include "jobtab.h"
#include "log.h"
#include "loop.h"
#include "slurm_time.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAIL_KIDS 8
#define MAIL_QUEUE 4096
#define MAIL_TIMEOUT_S 60
#define MAIL_REAP_MS 500

struct mail {
	char *subject;
	char *user;
	char **env;
};

struct kid {
	pid_t pid;
	int64_t started; /* monotonic ms */
};

struct sl_mailer {
	struct sluiced *d;
	struct mail *q;          /* queued, sent after the commit */
	size_t nq, capq;
	struct kid kids[MAIL_KIDS];
	size_t nkids;
	uint64_t timer;          /* reaping; 0 when none is armed */
	int missing_said;        /* "mailProg is missing" logged already */
	size_t dropped;
};

static void mail_clear(struct mail *m)
{
	free(m->subject);
	free(m->user);
	sl_strv_free(m->env);
}

void sl_mailer_free(struct sl_mailer *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->nq; i++)
		mail_clear(&m->q[i]);
	free(m->q);
	if (m->timer)
		sl_loop_del_timer(m->d->loop, m->timer);
	/* running mail programs finish on their own; init reaps them */
	free(m);
}

static struct sl_mailer *mailer(struct sluiced *d)
{
	if (d->mail == NULL) {
		d->mail = sl_xcalloc(1, sizeof(*d->mail));
		d->mail->d = d;
	}
	return d->mail;
}

/* ---- what a mail says ---- */

static const char *type_text(int type)
{
	switch (type) {
	case SL_MAIL_BEGIN: return "Began";
	case SL_MAIL_END: return "Ended";
	case SL_MAIL_FAIL: return "Failed";
	case SL_MAIL_REQUEUE: return "Requeued";
	case SL_MAIL_TIME100: return "Reached time limit";
	case SL_MAIL_TIME90: return "Reached 90% of time limit";
	case SL_MAIL_TIME80: return "Reached 80% of time limit";
	case SL_MAIL_TIME50: return "Reached 50% of time limit";
	default: return "unknown";
	}
}

struct envb {
	char **v;
	size_t n, cap;
};

static void env_put(struct envb *e, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void env_put(struct envb *e, const char *name, const char *fmt, ...)
{
	char val[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	e->v = sl_xgrow(e->v, &e->cap, e->n + 2, sizeof(*e->v));
	e->v[e->n++] = sl_xasprintf("%s=%s", name, val);
	e->v[e->n] = NULL;
}

/* job_common_env_vars(), the parts Sluice has. */
static void job_env(struct sluiced *d, const struct sl_job *j, int type, struct envb *e)
{
	const struct sl_jobspec *s = &j->spec;
	int complete = type == SL_MAIL_END || type == SL_MAIL_FAIL;

	env_put(e, "PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
	env_put(e, "SLURM_JOB_ACCOUNT", "%s", s->account ? s->account : "");
	if (complete) {
		env_put(e, "SLURM_JOB_DERIVED_EC", "%d", j->exit_code);
		env_put(e, "SLURM_JOB_EXIT_CODE2", "%d:%d", j->exit_code, j->exit_signal);
		env_put(e, "SLURM_JOB_EXIT_CODE", "%d",
			j->exit_signal ? j->exit_signal : j->exit_code << 8);
	}
	env_put(e, "SLURM_CLUSTER_NAME", "%s", sl_conf_cluster_name(d->conf));
	if (s->comment)
		env_put(e, "SLURM_JOB_COMMENT", "%s", s->comment);
	env_put(e, "SLURM_JOB_GID", "%u", (unsigned)j->gid);
	env_put(e, "SLURM_JOB_GROUP", "%s", j->group ? j->group : "");
	env_put(e, "SLURM_JOBID", "%llu", (unsigned long long)j->id);
	env_put(e, "SLURM_JOB_ID", "%llu", (unsigned long long)j->id);
	env_put(e, "SLURM_JOB_NAME", "%s", s->name ? s->name : "");
	env_put(e, "SLURM_JOB_NODELIST", "%s", j->nodelist ? j->nodelist : "");
	env_put(e, "SLURM_JOB_PARTITION", "%s", s->partition ? s->partition : "");
	env_put(e, "SLURM_JOB_RESTART_COUNT", "%d", j->attempt);
	env_put(e, "SLURM_JOB_UID", "%u", (unsigned)j->uid);
	env_put(e, "SLURM_JOB_USER", "%s", j->user ? j->user : "");
	env_put(e, "SLURM_JOB_WORK_DIR", "%s", s->work_dir ? s->work_dir : "");
	env_put(e, "SLURM_JOB_STATE", "%s", sl_jobstate_name(j->state));
	env_put(e, "SLURM_JOB_MAIL_TYPE", "%s", type_text(type));
}

/* _set_job_time(): ", Queued time T" or ", Run time T". */
static void job_time(const struct sl_job *j, int type, int64_t now, char *buf, size_t len,
		     struct envb *e)
{
	int64_t from = 0, to = 0;
	const char *what = NULL, *var = NULL;
	char t[64];

	buf[0] = '\0';
	if (type == SL_MAIL_BEGIN && j->start_time && j->submit_time) {
		from = j->submit_time, to = j->start_time;
		what = "Queued", var = "SLURM_JOB_QUEUED_TIME";
	} else if ((type == SL_MAIL_END || type == SL_MAIL_FAIL || type == SL_MAIL_REQUEUE) &&
		   j->start_time) {
		from = j->start_time, to = j->end_time ? j->end_time : now;
		what = "Run", var = "SLURM_JOB_RUN_TIME";
	} else if ((type & (SL_MAIL_TIME100 | SL_MAIL_TIME90 | SL_MAIL_TIME80 | SL_MAIL_TIME50)) &&
		   j->start_time) {
		from = j->start_time, to = now;
		what = "Run", var = "SLURM_JOB_RUN_TIME";
	}
	if (what == NULL)
		return;
	sl_slurm_time_fmt_elapsed_sacct(to > from ? to - from : 0, t, sizeof(t));
	snprintf(buf, len, ", %s time %s", what, t);
	env_put(e, var, "%s", t);
}

/* _set_job_term_info(): ", STATE, ExitCode N" (", STATE" after a signal). */
static void term_info(const struct sl_job *j, int type, char *buf, size_t len, struct envb *e)
{
	buf[0] = '\0';
	if (type != SL_MAIL_END && type != SL_MAIL_FAIL)
		return;
	if (j->exit_signal == 0) {
		snprintf(buf, len, ", %s, ExitCode %d", sl_jobstate_name(j->state), j->exit_code);
		env_put(e, "SLURM_JOB_EXIT_CODE_MAX", "%d", j->exit_code);
	} else {
		snprintf(buf, len, ", %s", sl_jobstate_name(j->state));
		env_put(e, "SLURM_JOB_EXIT_CODE_MAX", "0");
	}
}

/* ---- arrays: one mail for the whole array (agent.c, job_mgr.c) ---- */

/* What slurmctld's array record keeps of its tasks (_job_array_comp()):
 * the lowest and highest wait status among ended tasks (an unsuccessful
 * end with status 0 counts as 9, a SIGKILL), whether one was requeued,
 * whether all have ended, and how many left PENDING. The tasks are the
 * table's run of ids whose array_job_id is the array's; tasks purged after
 * minJobAge have ended and count no more. */
struct arrsum {
	int min, max, any_ended, all_ended, requeued, started;
	const struct sl_job *last;  /* the highest task: slurmctld's meta record */
};

static int wait_status(const struct sl_job *t)
{
	int st = t->exit_signal ? t->exit_signal : (t->exit_code & 0xff) << 8;
	return st == 0 && t->state != SL_JOB_COMPLETED ? 9 : st;
}

static void array_sum(struct sluiced *d, const struct sl_job *j, struct arrsum *a)
{
	size_t n = sl_jobtab_count(d->jobs);

	memset(a, 0, sizeof(*a));
	a->all_ended = 1;
	for (size_t i = sl_jobtab_lower(d->jobs, j->array_job_id); i < n; i++) {
		const struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->array_job_id != j->array_job_id)
			break;
		a->last = t;
		a->requeued |= t->attempt > 0;
		if (t != j && t->state != SL_JOB_PENDING)
			a->started++;
		if (!sl_jobstate_is_final(t->state)) {
			a->all_ended = 0;
			continue;
		}
		int st = wait_status(t);
		a->min = a->any_ended && a->min < st ? a->min : st;
		a->max = a->any_ended && a->max > st ? a->max : st;
		a->any_ended = 1;
	}
}

/* _set_job_term_info() for an array: ", STATE, ExitCode [MIN-MAX]", with
 * Mixed for a mix of 0 and failures, or a signal's ", Mixed, MaxSignal". */
static void array_term(const struct arrsum *a, int type, char *buf, size_t len, struct envb *e)
{
	buf[0] = '\0';
	if (type != SL_MAIL_END && type != SL_MAIL_FAIL)
		return;
	if (WIFEXITED(a->min) && WIFEXITED(a->max)) {
		int lo = WEXITSTATUS(a->min), hi = WEXITSTATUS(a->max);
		snprintf(buf, len, ", %s, ExitCode [%d-%d]",
			 lo == 0 && hi > 0 ? "Mixed" : sl_jobstate_name(a->last->state), lo, hi);
		env_put(e, "SLURM_JOB_EXIT_CODE_MIN", "%d", lo);
		env_put(e, "SLURM_JOB_EXIT_CODE_MAX", "%d", hi);
	} else if (WIFSIGNALED(a->max)) {
		snprintf(buf, len, ", Mixed, MaxSignal [%d]", WTERMSIG(a->max));
		env_put(e, "SLURM_JOB_TERM_SIGNAL_MAX", "%d", WTERMSIG(a->max));
	} else {
		snprintf(buf, len, ", Mixed, MaxExitCode [%d]", WEXITSTATUS(a->max));
		env_put(e, "SLURM_JOB_EXIT_CODE_MAX", "%d", WEXITSTATUS(a->max));
	}
	if (a->requeued)
		strncat(buf, ", with requeued tasks", len - strlen(buf) - 1);
}

static void queue_mail(struct sluiced *d, const struct sl_job *j, char *subject,
		       struct envb *e);

static void array_mail_one(struct sluiced *d, const struct sl_job *j, const struct arrsum *a,
			   int type)
{
	struct envb e = {NULL, 0, 0};
	char term[160];

	job_env(d, j, type, &e);
	array_term(a, type, term, sizeof(term), &e);
	queue_mail(d, j, sl_xasprintf("Slurm Array Summary Job_id=%llu_* (%llu) Name=%s %s%s",
				      (unsigned long long)j->array_job_id,
				      (unsigned long long)j->array_job_id,
				      j->spec.name ? j->spec.name : "", type_text(type), term), &e);
}

/* A task's mail when its array mails as a whole: Began with the first task
 * to start, Ended or Failed (and Requeued, if any was) once every task has
 * ended, the time-limit marks as they come; all with the summary subject. */
static void array_mail(struct sluiced *d, const struct sl_job *j, int type)
{
	struct arrsum a;
	int ends = type & (SL_MAIL_END | SL_MAIL_FAIL | SL_MAIL_REQUEUE);

	if (!ends && !(j->spec.mail_type & type))
		return;
	array_sum(d, j, &a);
	if ((type == SL_MAIL_BEGIN && a.started > 0) || (ends && !a.all_ended))
		return;
	if (ends) { /* job_completion_logger(): requeue, then fail or end */
		int failed = WIFEXITED(a.max) && WEXITSTATUS(a.max) != 0;
		if (type == SL_MAIL_REQUEUE)
			return; /* said with the ends, once all have ended */
		if (a.requeued && (j->spec.mail_type & SL_MAIL_REQUEUE))
			array_mail_one(d, j, &a, SL_MAIL_REQUEUE);
		type = failed && (j->spec.mail_type & SL_MAIL_FAIL) ? SL_MAIL_FAIL
		       : (j->spec.mail_type & SL_MAIL_END) ? SL_MAIL_END : 0;
		if (type == 0)
			return;
	}
	array_mail_one(d, j, &a, type);
}

void sl_mail_job(struct sluiced *d, const struct sl_job *j, int type)
{
	struct envb e = {NULL, 0, 0};
	char when[128], term[128];

	if (j->array_job_id != 0 && !(j->spec.mail_type & SL_MAIL_ARRAY_TASKS)) {
		if ((j->spec.mail_type & (type | SL_MAIL_END | SL_MAIL_FAIL)) &&
		    !(j->mail_sent & type))
			array_mail(d, j, type);
		return;
	}
	if (!(j->spec.mail_type & type) || (j->mail_sent & type))
		return;
	job_env(d, j, type, &e);
	job_time(j, type, (int64_t)time(NULL), when, sizeof(when), &e);
	term_info(j, type, term, sizeof(term), &e);
	if (j->array_job_id != 0)
		queue_mail(d, j, sl_xasprintf("Slurm Array Task Job_id=%llu_%d (%llu) Name=%s "
						    "%s%s%s", (unsigned long long)j->array_job_id,
						    j->array_task_id, (unsigned long long)j->id,
						    j->spec.name ? j->spec.name : "", type_text(type),
						    when, term), &e);
	else
		queue_mail(d, j, sl_xasprintf("Slurm Job_id=%llu Name=%s %s%s%s",
						    (unsigned long long)j->id,
						    j->spec.name ? j->spec.name : "", type_text(type),
						    when, term), &e);
}

static void queue_mail(struct sluiced *d, const struct sl_job *j, char *subject,
		       struct envb *e)
{
	struct sl_mailer *m = mailer(d);
	struct mail *q;

	if (m->nq >= MAIL_QUEUE) {
		if (m->dropped++ == 0)
			sl_warn("mail: %d mails wait already: dropping more", MAIL_QUEUE);
		free(subject);
		sl_strv_free(e->v);
		return;
	}
	m->q = sl_xgrow(m->q, &m->capq, m->nq + 1, sizeof(*m->q));
	q = &m->q[m->nq++];
	q->subject = subject;
	q->user = sl_xstrdup(j->spec.mail_user ? j->spec.mail_user : j->user ? j->user : "");
	q->env = e->v;
	sl_debug("mail to %s: %s", q->user, q->subject);
}

void sl_mail_end(struct sluiced *d, const struct sl_job *j)
{
	switch (j->state) {
	case SL_JOB_COMPLETED:
	case SL_JOB_CANCELLED:
		sl_mail_job(d, j, SL_MAIL_END);
		break;
	case SL_JOB_FAILED:
	case SL_JOB_TIMEOUT:
	case SL_JOB_NODE_FAIL:
	case SL_JOB_PREEMPTED: /* ended, not requeued: a failure */
	case SL_JOB_BOOT_FAIL:
	case SL_JOB_DEADLINE:
	case SL_JOB_OUT_OF_MEMORY:
		sl_mail_job(d, j, SL_MAIL_FAIL);
		break;
	default:
		break;
	}
}

int sl_mail_time_limits(struct sluiced *d, struct sl_job *j, int64_t now)
{
	static const struct {
		int bit, pct; /* mailed when this much of the time limit has gone by */
	} marks[] = {{SL_MAIL_TIME100, 100}, {SL_MAIL_TIME90, 90}, {SL_MAIL_TIME80, 80},
		     {SL_MAIL_TIME50, 50}};
	int64_t limit = sl_jobspec_limit_secs(&j->spec), end = j->start_time + limit;
	int sent = 0;

	if (limit <= 0 || j->start_time == 0)
		return 0;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		int bit = marks[i].bit;
		if (!(j->spec.mail_type & bit) || (j->mail_sent & bit) ||
		    now + limit * (100 - marks[i].pct) / 100 < end)
			continue;
		sl_mail_job(d, j, bit);
		j->mail_sent |= bit;
		sent = 1;
	}
	return sent;
}

/* ---- sending ---- */

static void on_reap(struct sl_loop *l, uint64_t id, void *arg);

static void arm(struct sl_mailer *m)
{
	if (m->timer == 0 && m->nkids > 0)
		m->timer = sl_loop_add_timer(m->d->loop, MAIL_REAP_MS, on_reap, m);
}

static int spawn(struct sl_mailer *m, const struct mail *q, const char *prog)
{
	char *argv[] = {(char *)prog, "-s", q->subject, q->user, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	pid_t pid;
	int e;

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	e = posix_spawn(&pid, prog, &fa, &at, argv, q->env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (e != 0) {
		sl_warn("mail: %s: %s", prog, strerror(e));
		return -1;
	}
	m->kids[m->nkids++] = (struct kid){pid, sl_mono_ms()};
	return 0;
}

/* Start what the free slots allow, oldest first. */
static void start_queued(struct sl_mailer *m)
{
	const char *prog = sl_conf_mail_prog(m->d->conf);
	struct stat st;
	size_t done = 0;

	if (m->nq == 0)
		return;
	if (prog == NULL || stat(prog, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(prog, X_OK) != 0) {
		if (!m->missing_said)
			sl_warn("mail: mailProg %s is not an executable file: %zu mails dropped, "
				"and the next ones too, unsaid", prog ? prog : "(none)", m->nq);
		m->missing_said = 1;
		done = m->nq;
	} else {
		m->missing_said = 0;
		while (done < m->nq && m->nkids < MAIL_KIDS) {
			(void)spawn(m, &m->q[done], prog);
			done++;
		}
	}
	for (size_t i = 0; i < done; i++)
		mail_clear(&m->q[i]);
	memmove(m->q, m->q + done, (m->nq - done) * sizeof(*m->q));
	m->nq -= done;
	arm(m);
}

static void on_reap(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_mailer *m = arg;
	int64_t now = sl_mono_ms();
	size_t k = 0;

	m->timer = 0;
	for (size_t i = 0; i < m->nkids; i++) {
		int st = 0;
		pid_t w = waitpid(m->kids[i].pid, &st, WNOHANG);
		if (w == m->kids[i].pid || (w < 0 && errno == ECHILD)) {
			if (w > 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
				sl_warn("mail: mailProg ended with status %d", st);
			continue;
		}
		if (now - m->kids[i].started > MAIL_TIMEOUT_S * 1000)
			(void)kill(m->kids[i].pid, SIGKILL); /* reaped next time */
		m->kids[k++] = m->kids[i];
	}
	m->nkids = k;
	start_queued(m);
	arm(m);
}

void sl_mail_flush(struct sluiced *d)
{
	if (d->mail != NULL && d->mail->nq > 0)
		start_queued(d->mail);
}
