/* acts.c - a request's actions on running jobs, held until its client has
 * the reply (acts.h). A list in the order asked: an action is done
 * ACT_DELAY_MS after its gate is released, after the commit, and after
 * every earlier action on the same job. It is short (one entry per job a
 * request acted on, for the moment a client takes to read and exit), so it
 * is scanned, not indexed.
 *
 * Why a delay on top of the release: the release comes as the client
 * exits, and the shell that ran it still has to run its next line (`echo
 * rc=$?`, a Python handler's check of the status) before the signals come.
 * slurmctld's agent, which carries the kill to slurmstepd, gives it about
 * 10 ms on the reference machine; ACT_DELAY_MS gives a loaded host more,
 * and makes every scancel, requeue and suspend that much later. Resume
 * does not wait: no client runs inside a stopped job.
 *
 * The cost: the reply says "done" before the executor has tried. What an
 * executor can refuse then is a race with the job's own end (its end is on
 * its way and wins), so a late failure is logged, and a requeue's mark is
 * taken back as when the failure came at once.
 *
 * Tests only: SLUICED_TEST_ACT_DELAY_MS (0 to 60000) replaces ACT_DELAY_MS,
 * so that a kill -9 can land between a reply and its action on a loaded
 * host (tests/integration/kill9_acts.sh, k8s_kill9.sh). */
#include "acts.h"
#include "exec.h"
#include "gates.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "log.h"
#include "loop.h"
#include "store.h"
#include "xalloc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define ACT_DELAY_MS 100
#define ACT_DELAY_TEST_MAX 60000

struct act {
	uint64_t id;
	enum sl_act what;
	uint64_t gate;
	int64_t due_ms; /* its gate is released: done from then (loop.h's clock); 0: not yet */
};

struct sl_acts {
	struct act *v;
	size_t n, cap;
	uint64_t gate;  /* of the request being handled; 0: none */
	uint64_t timer; /* the next due_ms */
	int64_t delay_ms; /* ACT_DELAY_MS, or the tests' */
};

static int do_cancel(struct sluiced *d, uint64_t id, struct sl_err *err)
{
	return d->executor->cancel(d->exec, id, err);
}

static int do_requeue(struct sluiced *d, uint64_t id, struct sl_err *err)
{
	return d->executor->requeue ? d->executor->requeue(d->exec, id, err)
				    : d->executor->preempt(d->exec, id, err);
}

/* The executor's suspend op (Kubernetes: the object's spec.suspend), else
 * SIGSTOP / SIGCONT to the job's process group. */
static int do_suspend(struct sluiced *d, uint64_t id, struct sl_err *err)
{
	return d->executor->suspend ? d->executor->suspend(d->exec, id, 0, err)
				    : d->executor->signal(d->exec, id, SIGSTOP | SL_SIGNAL_GROUP, err);
}

static int do_resume(struct sluiced *d, uint64_t id, struct sl_err *err)
{
	return d->executor->suspend ? d->executor->suspend(d->exec, id, 1, err)
				    : d->executor->signal(d->exec, id, SIGCONT | SL_SIGNAL_GROUP, err);
}

/* The requeue did not reach the job: its end is its own again. */
static void undo_requeue(struct sluiced *d, uint64_t id)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	(void)sl_gates_requeued(d, id);
	if (j == NULL || j->requeue_mark == 0)
		return;
	j->requeue_mark = 0;
	(void)sl_lifecycle_save(d, j, NULL);
}

static const struct {
	const char *name;
	int (*fn)(struct sluiced *d, uint64_t id, struct sl_err *err);
	void (*undo)(struct sluiced *d, uint64_t id);
	int waits; /* for the reply; else done at once (after what waits on the job) */
} ops[] = {
	[SL_ACT_CANCEL] = {"cancel", do_cancel, NULL, 1},
	[SL_ACT_REQUEUE] = {"requeue", do_requeue, undo_requeue, 1},
	[SL_ACT_SUSPEND] = {"suspend", do_suspend, NULL, 1},
	[SL_ACT_RESUME] = {"resume", do_resume, NULL, 0},
};

static int run(struct sluiced *d, uint64_t id, enum sl_act what, struct sl_err *err)
{
	int r = ops[what].fn(d, id, err);
	if (r != 0 && ops[what].undo != NULL)
		ops[what].undo(d, id);
	return r;
}

/* An action that waited: its failure has no one to go to but the log. */
static void run_late(struct sluiced *d, struct act a)
{
	struct sl_err err = SL_ERR_INIT;
	if (run(d, a.id, a.what, &err) != 0)
		sl_warn("job %llu: %s after the reply: %s", (unsigned long long)a.id,
			ops[a.what].name, err.msg);
}

static struct act take(struct sl_acts *a, size_t i)
{
	struct act x = a->v[i];
	memmove(&a->v[i], &a->v[i + 1], (a->n - i - 1) * sizeof(a->v[0]));
	a->n--;
	return x;
}

/* The first action that may run: due by now (any, with now < 0), and no
 * earlier one on its job waits. n: none. Only of job id when id != 0. */
static size_t next(const struct sl_acts *a, uint64_t id, int64_t now)
{
	for (size_t i = 0; i < a->n; i++) {
		size_t k;
		if ((id != 0 && a->v[i].id != id) ||
		    (now >= 0 && (a->v[i].due_ms == 0 || a->v[i].due_ms > now)))
			continue;
		for (k = 0; k < i && a->v[k].id != a->v[i].id; k++)
			;
		if (k == i)
			return i;
	}
	return a->n;
}

struct sl_acts *sl_acts_new(void)
{
	struct sl_acts *a = sl_xcalloc(1, sizeof(struct sl_acts));
	const char *t = getenv("SLUICED_TEST_ACT_DELAY_MS");
	char *end = NULL;
	long v = t && *t ? strtol(t, &end, 10) : -1;

	a->delay_ms = end && *end == '\0' && v >= 0 && v <= ACT_DELAY_TEST_MAX ? v : ACT_DELAY_MS;
	return a;
}

void sl_acts_free(struct sl_acts *a)
{
	if (a == NULL)
		return;
	free(a->v);
	free(a);
}

static void on_due(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sluiced *d = arg;
	d->acts->timer = 0;
	sl_acts_pump(d);
}

/* A timer for the earliest released action still to come. */
static void arm(struct sluiced *d)
{
	struct sl_acts *a = d->acts;
	int64_t first = 0, now = sl_loop_now_ms(d->loop);

	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].due_ms != 0 && (first == 0 || a->v[i].due_ms < first))
			first = a->v[i].due_ms;
	if (first == 0 || a->timer != 0)
		return;
	a->timer = sl_loop_add_timer(d->loop, first > now ? first - now : 0, on_due, d);
}

void sl_acts_gate(struct sluiced *d, uint64_t gate)
{
	d->acts->gate = gate;
}

int sl_acts_waiting(const struct sluiced *d, uint64_t gate)
{
	for (size_t i = 0; gate != 0 && i < d->acts->n; i++)
		if (d->acts->v[i].gate == gate)
			return 1;
	return 0;
}

int sl_acts_do(struct sluiced *d, uint64_t id, enum sl_act what, struct sl_err *err)
{
	struct sl_acts *a = d->acts;
	size_t i;

	if (a->gate != 0 && ops[what].waits) {
		a->v = sl_xgrow(a->v, &a->cap, a->n + 1, sizeof(a->v[0]));
		a->v[a->n++] = (struct act){.id = id, .what = what, .gate = a->gate};
		return 0;
	}
	/* Asked outside a request (a node set DOWN, ...), or a resume: what
	 * waits on the job goes first, now. */
	while ((i = next(a, id, -1)) < a->n)
		run_late(d, take(a, i));
	return run(d, id, what, err);
}

void sl_acts_release(struct sluiced *d, uint64_t gate)
{
	int64_t due = sl_loop_now_ms(d->loop) + d->acts->delay_ms;
	for (size_t i = 0; gate != 0 && i < d->acts->n; i++)
		if (d->acts->v[i].gate == gate && d->acts->v[i].due_ms == 0)
			d->acts->v[i].due_ms = due;
	arm(d);
}

void sl_acts_pump(struct sluiced *d)
{
	struct sl_acts *a = d->acts;
	size_t i;

	/* What the request changed is on disk first (lifecycle.c's rule): a
	 * requeue's mark, the COMPLETING of a cancel, survive a kill -9. */
	if (sl_store_in_txn(d->store))
		return;
	/* One at a time, the list read again after each: an executor may
	 * report an end while it acts, and sl_acts_forget() change the list. */
	while ((i = next(a, 0, sl_loop_now_ms(d->loop))) < a->n)
		run_late(d, take(a, i));
	arm(d);
}

void sl_acts_finish(struct sluiced *d)
{
	struct sl_acts *a = d->acts;
	size_t i;

	if (a->timer != 0)
		sl_loop_del_timer(d->loop, a->timer);
	a->timer = 0;
	while ((i = next(a, 0, -1)) < a->n)
		run_late(d, take(a, i));
}

void sl_acts_forget(struct sluiced *d, uint64_t id)
{
	struct sl_acts *a = d->acts;
	for (size_t i = a->n; i-- > 0;)
		if (a->v[i].id == id)
			(void)take(a, i);
}
