/* gates.c - what keeps a pending job out of the admission engine, and what
 * lets it in (gates.h).
 *
 * The waiting jobs are an array sorted by id, each with its dependency list
 * parsed once (the record keeps the printed text, for listings and the
 * store). Two things make the gates look again: a job that started, ended,
 * was requeued or renamed (sl_gates_touch; only the jobs that name it, or
 * share its singleton name, are evaluated, in the next turn), and the clock
 * (a begin time, a "+MIN"). The clock is one loop timer for all, set to the
 * earliest time any waiting job needs: the loop's timers are a flat list,
 * so a timer per job would slow every turn; the cost moves to a scan of the
 * waiting jobs when the timer fires.
 *
 * An array's throttle (%N, ArrayTaskThrottle) is a gate too: a task of a
 * throttled array goes to the engine only while fewer than N of its tasks
 * are in the engine or running, so that one cycle cannot admit more than N;
 * the others wait here with Slurm's reason JobArrayTaskLimit, and a task of
 * the array that starts or ends (touched) lets the next one through. */
#include "gates.h"
#include "conf.h"
#include "depend.h"
#include "idsorted.h"
#include "jobtab.h"
#include "lifecycle.h"
#include "log.h"
#include "loop.h"
#include "schedule.h"
#include "store.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gate {
	uint64_t id;
	int64_t wake;           /* look again at this time (begin, +MIN); 0: no need */
	struct sl_deplist deps; /* what it still waits for */
};

struct mark {
	uint64_t id;
	int hold;
};

struct sl_gates {
	struct sluiced *d;
	struct gate *v;
	size_t n, cap;
	uint64_t *touched;      /* this turn's touched jobs */
	size_t ntouched, captouched;
	struct mark *requeue;   /* jobs whose coming end is a requeue */
	size_t nrequeue, caprequeue;
	uint64_t timer;
	int64_t timer_due;      /* wall seconds; 0: no timer */
	int clock;              /* the timer fired: look at the waking jobs */
	uint64_t thr_array;     /* this pass's throttled array counted last (0: none), */
	int thr_active;         /* and its tasks in the engine or running */
};

static struct sl_gates *gates(struct sluiced *d)
{
	return sl_schedctl_gates(d->sched);
}

struct sl_gates *sl_gates_new(struct sluiced *d)
{
	struct sl_gates *g = sl_xcalloc(1, sizeof(*g));
	g->d = d;
	return g;
}

void sl_gates_free(struct sl_gates *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->n; i++)
		sl_deplist_clear(&g->v[i].deps);
	free(g->v);
	free(g->touched);
	free(g->requeue);
	free(g);
}

/* ---- the waiting jobs ---- */

static size_t lower_bound(const struct sl_gates *g, uint64_t id)
{
	return sl_idsorted_lower(g->v, g->n, sizeof(*g->v), id);
}

static struct gate *find(struct sl_gates *g, uint64_t id)
{
	size_t i = lower_bound(g, id);
	return i < g->n && g->v[i].id == id ? &g->v[i] : NULL;
}

static struct gate *insert(struct sl_gates *g, uint64_t id)
{
	size_t i = lower_bound(g, id);
	if (i < g->n && g->v[i].id == id) {
		sl_deplist_clear(&g->v[i].deps);
	} else {
		g->v = sl_xgrow(g->v, &g->cap, g->n + 1, sizeof(*g->v));
		memmove(&g->v[i + 1], &g->v[i], (g->n - i) * sizeof(*g->v));
		g->n++;
	}
	memset(&g->v[i], 0, sizeof(g->v[i]));
	g->v[i].id = id;
	return &g->v[i];
}

static void drop(struct sl_gates *g, uint64_t id)
{
	struct gate *e = find(g, id);
	size_t i;
	if (e == NULL)
		return;
	i = (size_t)(e - g->v);
	sl_deplist_clear(&e->deps);
	memmove(&g->v[i], &g->v[i + 1], (g->n - i - 1) * sizeof(*g->v));
	g->n--;
}

/* ---- the clock ---- */

static void on_timer(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_gates *g = arg;
	g->timer = 0;
	g->timer_due = 0;
	g->clock = 1;
}

static void arm_at(struct sl_gates *g, int64_t due)
{
	int64_t now = (int64_t)time(NULL);

	if (due == g->timer_due && (due == 0 || g->timer != 0))
		return;
	if (g->timer != 0)
		sl_loop_del_timer(g->d->loop, g->timer);
	g->timer = 0;
	g->timer_due = due;
	if (due > 0)
		g->timer = sl_loop_add_timer(g->d->loop, due > now ? (due - now) * 1000 : 0,
					     on_timer, g);
}

/* The timer at the earliest wake of any waiting job (a scan: once a turn). */
static void arm(struct sl_gates *g)
{
	int64_t due = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].wake > 0 && (due == 0 || g->v[i].wake < due))
			due = g->v[i].wake;
	arm_at(g, due);
}

/* ---- what a dependency names ---- */

/* A task dropped from its array's meta record (h_control.c) is, as in
 * Slurm, a job nobody knows: not found alone, no part of its array. */
static void of_job(const struct sl_job *j, struct sl_dep_job *out)
{
	if (j->array_dropped)
		return;
	out->found = 1;
	out->state = j->state;
	out->start_time = j->start_time;
	out->end_time = j->end_time;
}

/* An array's id names the array, not its last task, which has that id
 * too (array.h). */
static int holds_array_id(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->array_job_id == j->id;
}

static int stored_cb(const struct sl_job *j, void *arg)
{
	if (!holds_array_id(j))
		of_job(j, arg);
	return 0;
}

/* A whole array as one job (Slurm's test_job_array_*): pending while a
 * task is, running while one is not ended, else completed when all
 * completed, or the state of the first that did not; it started when its
 * last task did, ended when its last task did. */
static void add_task(struct sl_dep_job *a, const struct sl_job *t)
{
	int final = sl_jobstate_is_final(t->state);

	if (t->array_dropped)
		return;
	if (!a->found) {
		a->found = 1;
		a->state = SL_JOB_COMPLETED;
	}
	if (t->state == SL_JOB_PENDING || a->state == SL_JOB_PENDING)
		a->state = SL_JOB_PENDING;
	else if (!final || !sl_jobstate_is_final(a->state))
		a->state = SL_JOB_RUNNING;
	else if (a->state == SL_JOB_COMPLETED)
		a->state = t->state;
	if (t->start_time > a->start_time)
		a->start_time = t->start_time;
	if (t->end_time > a->end_time)
		a->end_time = t->end_time;
}

static int array_cb(const struct sl_job *j, void *arg)
{
	if (j->array_job_id != 0)
		add_task(arg, j);
	return 0;
}

/* Array id's tasks: in memory, and those past minJobAge in the store. */
static void lookup_array(struct sluiced *d, uint64_t id, struct sl_dep_job *out)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	size_t i = sl_jobtab_lower(d->jobs, id);
	const struct sl_job *t = sl_jobtab_at(d->jobs, i);

	/* memory has them all while it has the first task: N+1, or N alone */
	if (t == NULL || t->array_job_id != id || (t->id != id + 1 && t->id != id)) {
		if (sl_store_history(d->store, &f, array_cb, out, &err) != 0)
			sl_err_log("dependency on array %llu: %s", (unsigned long long)id, err.msg);
		return; /* the store has them all, memory's too */
	}
	for (; (t = sl_jobtab_at(d->jobs, i)) != NULL && t->array_job_id == id; i++)
		add_task(out, t);
}

/* In memory, else in the store (a finished job past minJobAge); an
 * array's id, its tasks as one. */
static int lookup(struct sluiced *d, uint64_t id, struct sl_dep_job *out)
{
	const struct sl_job *t = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;

	memset(out, 0, sizeof(*out));
	if (t != NULL && !holds_array_id(t)) {
		of_job(t, out);
		return 0;
	}
	if (t == NULL && sl_store_job(d->store, id, stored_cb, out, &err) != 0)
		sl_err_log("dependency on job %llu: %s", (unsigned long long)id, err.msg);
	if (!out->found)
		lookup_array(d, id, out);
	return 0;
}

static int task_cb(const struct sl_job *j, void *arg)
{
	of_job(j, arg);
	return 0;
}

/* Array id's task; for an id that is a job, not an array, that job
 * (aftercorr on it is afterok, as in Slurm). */
static int lookup_task(struct sluiced *d, uint64_t id, long task, struct sl_dep_job *out)
{
	struct sl_taskid want = {id, (uint32_t)task};
	struct sl_jobfilter f = {.tasks = &want, .n_tasks = 1, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	const struct sl_job *j = sl_jobtab_get(d->jobs, id);
	size_t n = sl_jobtab_count(d->jobs);

	memset(out, 0, sizeof(*out));
	if (j != NULL && !holds_array_id(j))
		return lookup(d, id, out);
	for (size_t i = sl_jobtab_lower(d->jobs, id); i < n; i++) {
		const struct sl_job *t = sl_jobtab_at(d->jobs, i);
		if (t->array_job_id != id)
			break;
		if (t->array_task_id == task) {
			of_job(t, out);
			return 0;
		}
	}
	if (sl_store_history(d->store, &f, task_cb, out, &err) != 0)
		sl_err_log("dependency on task %llu_%ld: %s", (unsigned long long)id, task, err.msg);
	if (!out->found && sl_store_job(d->store, id, stored_cb, out, &err) != 0)
		sl_err_log("dependency on job %llu: %s", (unsigned long long)id, err.msg);
	return 0;
}

struct env_arg {
	struct sluiced *d;
	const struct sl_job *j;
};

static int env_lookup(void *arg, uint64_t id, struct sl_dep_job *out)
{
	return lookup(((struct env_arg *)arg)->d, id, out);
}

static int env_lookup_task(void *arg, uint64_t id, long task, struct sl_dep_job *out)
{
	return lookup_task(((struct env_arg *)arg)->d, id, task, out);
}

static int same_singleton(const struct sl_job *a, const struct sl_job *b)
{
	return a->uid == b->uid && a->spec.name && b->spec.name &&
	       strcmp(a->spec.name, b->spec.name) == 0;
}

/* Slurm's rule: another job of this name and user runs (or is suspended),
 * or waits with a lower id. */
static int env_singleton(void *arg)
{
	struct env_arg *e = arg;
	struct sl_jobtab *t = e->d->jobs;
	for (size_t i = 0; i < sl_jobtab_count(t); i++) {
		const struct sl_job *o = sl_jobtab_at(t, i);
		if (o == e->j || o->id == e->j->id || !same_singleton(o, e->j) ||
		    sl_jobstate_is_final(o->state))
			continue;
		if (o->state != SL_JOB_PENDING || o->id < e->j->id)
			return 1;
	}
	return 0;
}

/* ---- letting through ---- */

static void set_reason(struct sl_job *j, const char *reason)
{
	if (j->reason != NULL && strcmp(j->reason, reason) == 0)
		return;
	free(j->reason);
	j->reason = sl_xstrdup(reason);
	free(j->reason_text);
	j->reason_text = NULL;
	sl_job_reason_seen(j);
}

/* The reason and its sentence (scontrol's PendingReason=): what the first
 * term still in the way waits for, in plain words. */
static void say_why(struct sluiced *d, struct sl_job *j, const struct sl_deplist *l,
		    enum sl_dep_verdict v, int64_t wake, const char *then)
{
	enum sl_dep_state want = v == SL_DEP_NEVER ? SL_DEP_FAILED : SL_DEP_UNFULFILLED;
	struct sl_deplist one = {NULL, 1, 0};
	struct sl_dep_job t;
	char *term, ts[64];
	size_t i;

	for (i = 0; i < l->n && l->v[i].state != want; i++)
		;
	set_reason(j, v == SL_DEP_NEVER ? "DependencyNeverSatisfied" : "Dependency");
	free(j->reason_text);
	j->reason_text = NULL;
	if (i == l->n)
		return;
	one.v = &l->v[i];
	term = sl_dep_format(&one);
	term[strcspn(term, "(")] = '\0';
	if (l->v[i].type == SL_DEP_SINGLETON) {
		j->reason_text = sl_xasprintf("singleton: another job named %s of %s runs, or waits "
					      "with a lower id", j->spec.name ? j->spec.name : "",
					      j->user ? j->user : "this user");
	} else {
		time_t tw = (time_t)wake;
		struct tm tm;
		lookup(d, l->v[i].id, &t);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", localtime_r(&tw, &tm));
		if (v == SL_DEP_NEVER)
			j->reason_text = sl_xasprintf("%s: job %llu ended %s, so it can never hold%s",
						      term, (unsigned long long)l->v[i].id,
						      sl_jobstate_name(t.state), then ? then : "");
		else if (wake > 0 && (t.start_time != 0 || sl_jobstate_is_final(t.state)))
			j->reason_text = sl_xasprintf("%s: holds at %s", term, ts);
		else
			j->reason_text = sl_xasprintf("%s: job %llu is %s", term,
						      (unsigned long long)l->v[i].id,
						      sl_jobstate_name(t.state));
	}
	free(term);
}

static int kills(const struct sluiced *d, const struct sl_job *j)
{
	return j->spec.kill_invalid_dep == SL_NO_VAL ? sl_conf_kill_invalid_depend(d->conf)
						     : j->spec.kill_invalid_dep == 1;
}

/* Its dependencies at time now: 0 when none is left, 1 while they keep it
 * back (the reason says which), -1 when it was cancelled for them. */
static int depends(struct sl_gates *g, struct gate *e, struct sl_job *j, int64_t now)
{
	struct env_arg ea = {g->d, j};
	struct sl_dep_env env = {env_lookup, env_singleton, &ea, env_lookup_task,
				 j->array_job_id, j->array_task_id};
	struct sl_err err = SL_ERR_INIT;
	enum sl_dep_verdict v;
	int64_t wake = 0;

	if (e->deps.n == 0)
		return 0;
	v = sl_dep_eval(&e->deps, now, &env, &wake);
	free(j->dependency);
	j->dependency = sl_dep_format(&e->deps);
	e->wake = wake;
	if (v == SL_DEP_READY)
		return 0;
	if (v == SL_DEP_NEVER && kills(g->d, j)) {
		char *why;
		say_why(g->d, j, &e->deps, v, wake, "; cancelled (--kill-on-invalid-dep)");
		why = j->reason_text; /* the move below clears it */
		j->reason_text = NULL;
		drop(g, j->id);
		sl_info("job %llu: cancelled: its dependency can never be satisfied",
			(unsigned long long)j->id);
		j->start_time = j->end_time = now;
		if (sl_lifecycle_move(g->d, j, SL_JOB_CANCELLED, "DependencyNeverSatisfied",
				      &err) != 0)
			sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
		free(j->reason_text);
		j->reason_text = why;
		(void)sl_lifecycle_save(g->d, j, &err);
		return -1;
	}
	say_why(g->d, j, &e->deps, v, wake, NULL);
	return 1;
}

/* ---- array throttles ---- */

static int throttled(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->array_throttle > 0;
}

/* Tasks of j's array in the engine (pending, neither held nor waiting
 * here) or started and not ended, counted up to its throttle. The tasks'
 * ids follow the array's id (array.h), so they are one run of the table. */
static int array_active(struct sl_gates *g, const struct sl_job *j)
{
	struct sl_jobtab *t = g->d->jobs;
	size_t i = sl_jobtab_lower(t, j->array_job_id), n = sl_jobtab_count(t);
	int active = 0;

	if (g->thr_array == j->array_job_id)
		return g->thr_active;
	for (; i < n && active < j->array_throttle; i++) {
		const struct sl_job *o = sl_jobtab_at(t, i);
		if (o->array_job_id != j->array_job_id)
			break;
		if (o == j || sl_jobstate_is_final(o->state))
			continue;
		if (o->state != SL_JOB_PENDING || (!o->spec.hold && find(g, o->id) == NULL))
			active++;
	}
	g->thr_array = j->array_job_id;
	g->thr_active = active;
	return active;
}

/* Room for throttled task j under its array's throttle? 0: it waits. */
static int throttle_room(struct sl_gates *g, struct sl_job *j)
{
	if (!throttled(j))
		return 1;
	if (array_active(g, j) >= j->array_throttle) {
		set_reason(j, "JobArrayTaskLimit");
		return 0;
	}
	g->thr_active++; /* it goes in */
	return 1;
}

/* Look at waiting job j now: keep it (1), or it left (0: into the engine;
 * or cancelled). Its record is saved either way. */
static int check(struct sl_gates *g, struct sl_job *j, int64_t now, struct sl_err *err)
{
	struct gate *e = find(g, j->id);
	int r;

	if (e == NULL)
		return 0;
	if (j->state != SL_JOB_PENDING || j->spec.hold) {
		drop(g, j->id);
		return 0;
	}
	if ((r = depends(g, e, j, now)) < 0)
		return 0;
	if (r == 0 && j->eligible_time > now) { /* Slurm looks at dependencies first */
		e->wake = j->eligible_time;
		set_reason(j, "BeginTime");
		r = 1;
	}
	if (r == 0 && !throttle_room(g, j))
		r = 1;
	if (r == 1)
		return sl_lifecycle_save(g->d, j, err) == 0 ? 1 : -1;
	drop(g, j->id);
	if (j->eligible_time == 0)
		j->eligible_time = now;
	set_reason(j, "None");
	if ((r = sl_lifecycle_save(g->d, j, err)) != 0 ||
	    (r = sl_schedctl_add(g->d->sched, j, err)) != 0)
		return r;
	return 0;
}

int sl_gates_queue(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	struct sl_gates *g = gates(d);
	int64_t now = (int64_t)time(NULL);
	struct gate *e;
	int r;

	if (j->state != SL_JOB_PENDING || j->spec.hold)
		return 0;
	g->thr_array = 0; /* counted afresh: states changed since */
	if (j->dependency == NULL && j->eligible_time <= now && find(g, j->id) == NULL &&
	    !throttled(j)) {
		if (j->eligible_time == 0) /* the common case: straight in */
			j->eligible_time = now;
		return sl_schedctl_add(d->sched, j, err);
	}
	sl_schedctl_remove(d->sched, j->id); /* updated while it was a candidate */
	e = insert(g, j->id);
	if (j->dependency != NULL && sl_dep_parse(j->dependency, 1, &e->deps, err) != 0) {
		/* Only a record written by another version could do this. */
		sl_err_log("job %llu: dependency \"%s\" unreadable, dropped: %s",
			   (unsigned long long)j->id, j->dependency, err->msg);
		sl_err_clear(err);
		free(j->dependency);
		j->dependency = NULL;
	}
	r = check(g, j, now, err);
	/* Sooner than the timer: sooner timer (no scan per submission). */
	if (r == 1 && (e = find(g, j->id)) != NULL && e->wake > 0 &&
	    (g->timer_due == 0 || e->wake < g->timer_due))
		arm_at(g, e->wake);
	return r < 0 ? r : 0;
}

void sl_gates_forget(struct sluiced *d, uint64_t id)
{
	struct sl_gates *g = gates(d);
	if (g != NULL && g->n > 0)
		drop(g, id);
}

void sl_gates_touch(struct sluiced *d, const struct sl_job *j)
{
	struct sl_gates *g = gates(d);
	if (g == NULL || g->n == 0)
		return;
	for (size_t i = 0; i < g->ntouched; i++)
		if (g->touched[i] == j->id)
			return;
	g->touched = sl_xgrow(g->touched, &g->captouched, g->ntouched + 1, sizeof(*g->touched));
	g->touched[g->ntouched++] = j->id;
}

/* Does something touched this turn concern waiting job j? */
static int concerned(struct sl_gates *g, const struct gate *e, const struct sl_job *j)
{
	int single = sl_dep_has_singleton(&e->deps);
	for (size_t i = 0; i < g->ntouched; i++) {
		const struct sl_job *t;
		if (sl_dep_names(&e->deps, g->touched[i]))
			return 1;
		if ((t = sl_jobtab_get(g->d->jobs, g->touched[i])) != NULL && t->array_job_id != 0 &&
		    sl_dep_names(&e->deps, t->array_job_id))
			return 1;
		if (single && (t = sl_jobtab_get(g->d->jobs, g->touched[i])) != NULL &&
		    same_singleton(t, j))
			return 1;
		if (throttled(j) && (t = sl_jobtab_get(g->d->jobs, g->touched[i])) != NULL &&
		    t->array_job_id == j->array_job_id)
			return 1;
	}
	return 0;
}

/* One pass over the waiting jobs; what it changes may touch more jobs
 * (a cancelled job others wait on), hence the rounds of the caller. */
static void pass(struct sl_gates *g, int64_t now)
{
	uint64_t *ids = sl_xcalloc(g->n + 1, sizeof(*ids));
	struct sl_job **jobs = sl_xcalloc(g->n + 1, sizeof(*jobs));
	size_t n = 0, k = 0;

	for (size_t i = 0; i < g->n; i++) {
		struct sl_job *j = sl_jobtab_get(g->d->jobs, g->v[i].id);
		if (j == NULL)
			ids[n++] = g->v[i].id;
		else if ((g->clock && g->v[i].wake > 0 && g->v[i].wake <= now) ||
			 concerned(g, &g->v[i], j))
			jobs[k++] = j;
	}
	/* In the table's order, not by id: an array's tasks by index, so that
	 * a throttle lets them in as Slurm does (its last task holds the
	 * array's id, the lowest, array.h) */
	sl_jobtab_sort(jobs, k);
	for (size_t i = 0; i < k; i++)
		ids[n++] = jobs[i]->id;
	free(jobs);
	g->ntouched = 0;
	g->clock = 0;
	g->thr_array = 0;
	for (size_t i = 0; i < n; i++) {
		struct sl_job *j = sl_jobtab_get(g->d->jobs, ids[i]);
		struct sl_err err = SL_ERR_INIT;
		if (j == NULL) {
			drop(g, ids[i]); /* expired (cannot be pending) */
			continue;
		}
		if (check(g, j, now, &err) < 0)
			sl_err_log("job %llu: %s", (unsigned long long)j->id, err.msg);
	}
	free(ids);
}

void sl_gates_turn(struct sluiced *d)
{
	struct sl_gates *g = gates(d);
	int64_t now = (int64_t)time(NULL);
	int passes = 0;

	if (g == NULL)
		return;
	for (; passes < 16 && g->n > 0 && (g->ntouched > 0 || g->clock); passes++)
		pass(g, now);
	g->ntouched = 0;
	g->clock = 0;
	if (passes > 0) /* what waits, and till when, may have changed */
		arm(g);
}

/* ---- at submit ---- */

/* Is id a job, in memory or in the store, not an array's id? */
static int names_job(struct sluiced *d, uint64_t id)
{
	const struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_dep_job t = {0};
	struct sl_err err = SL_ERR_INIT;

	if (j != NULL)
		return !holds_array_id(j);
	(void)sl_store_job(d->store, id, stored_cb, &t, &err);
	return t.found;
}

int sl_gates_depend(struct sluiced *d, struct sl_job *j, const char *text, struct sl_err *err)
{
	struct sl_deplist l;
	struct sl_dep_job t;
	int r;

	if ((r = sl_dep_parse(text, 0, &l, err)) != 0)
		return r;
	size_t k = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (l.v[i].type == SL_DEP_SINGLETON) {
			l.v[k++] = l.v[i];
			continue;
		}
		/* A job cannot wait for itself. One Slurm does not know it takes
		 * for purged, and so done: the dependency is dropped at once
		 * (squeue's (null)), whether or not it ever existed. PBS's
		 * server refuses it (qsub's "Invalid Job Dependency"). */
		if (l.v[i].task >= 0)
			lookup_task(d, l.v[i].id, l.v[i].task, &t);
		else
			lookup(d, l.v[i].id, &t);
		if (l.v[i].id == j->id || (!t.found && j->spec.pbs)) {
			sl_deplist_clear(&l);
			return sl_err_set(err, SL_EDEPEND, "Job dependency problem");
		}
		if (!t.found)
			continue;
		if (l.v[i].task == -1 && !names_job(d, l.v[i].id))
			l.v[i].task = SL_DEP_ALL_TASKS; /* an array: "N_*", as Slurm shows it */
		l.v[k++] = l.v[i];
	}
	if (l.any && k < l.n) /* '?': a term already met meets them all */
		k = 0;
	l.n = k;
	free(j->dependency);
	j->dependency = k > 0 ? sl_dep_format(&l) : NULL;
	sl_deplist_clear(&l);
	return 0;
}

int sl_gates_submit(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int r = sl_gates_depend(d, j, j->spec.dependency, err);

	if (r != 0)
		return r;
	if (j->spec.begin_time > j->submit_time)
		j->eligible_time = j->spec.begin_time;
	else if (j->spec.hold || j->dependency != NULL)
		j->eligible_time = 0; /* Slurm's EligibleTime=Unknown */
	return 0;
}

/* ---- requeues ---- */

void sl_gates_mark_requeue(struct sluiced *d, uint64_t id, int hold)
{
	struct sl_gates *g = gates(d);
	for (size_t i = 0; i < g->nrequeue; i++)
		if (g->requeue[i].id == id) {
			g->requeue[i].hold = hold;
			return;
		}
	g->requeue = sl_xgrow(g->requeue, &g->caprequeue, g->nrequeue + 1, sizeof(*g->requeue));
	g->requeue[g->nrequeue++] = (struct mark){id, hold};
}

int sl_gates_requeued(struct sluiced *d, uint64_t id)
{
	struct sl_gates *g = gates(d);
	for (size_t i = 0; g != NULL && i < g->nrequeue; i++)
		if (g->requeue[i].id == id) {
			int hold = g->requeue[i].hold;
			g->requeue[i] = g->requeue[--g->nrequeue];
			return hold;
		}
	return -1;
}
