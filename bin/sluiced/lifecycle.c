/* lifecycle.c - job state changes and their ordering. The rule: the store
 * is committed before anything leaves the daemon (a reply, a launch, the
 * removal of a finished job's directory). Launching after the commit is what
 * makes `kill -9` safe: a job the store does not call RUNNING never runs. */
#include "lifecycle.h"
#include "acts.h"
#include "conf.h"
#include "conn.h"
#include "diag.h"
#include "exec.h"
#include "gates.h"
#include "handlers.h"
#include "jobtab.h"
#include "kueue.h"
#include "log.h"
#include "loop.h"
#include "mail.h"
#include "nodeadmin.h"
#include "timed.h"
#include "schedule.h"
#include "store.h"
#include "store_steps.h"
#include "submit.h"
#include "xalloc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void set_reason(struct sl_job *j, const char *reason)
{
	if (reason == NULL)
		return;
	char *r = sl_xstrdup(reason); /* reason may be j->reason itself */
	free(j->reason);
	j->reason = r;
	free(j->reason_text);
	j->reason_text = NULL;
	sl_job_reason_seen(j);
}

static int is_active(enum sl_jobstate s)
{
	return s == SL_JOB_RUNNING || s == SL_JOB_CONFIGURING || s == SL_JOB_COMPLETING ||
	       s == SL_JOB_SUSPENDED;
}

int sl_lifecycle_save(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int r = sl_store_begin(d->store, err);
	if (r == 0)
		r = sl_store_update(d->store, j, err);
	return r;
}

int sl_lifecycle_move(struct sluiced *d, struct sl_job *j, enum sl_jobstate to,
		      const char *reason, struct sl_err *err)
{
	if (!sl_jobstate_can(j->state, to))
		return sl_err_set(err, SL_ESTATE, "job %llu: %s -> %s is not a legal transition",
				  (unsigned long long)j->id, sl_jobstate_name(j->state),
				  sl_jobstate_name(to));
	j->state = to;
	set_reason(j, reason);
	if (sl_jobstate_is_final(to) && j->end_time == 0)
		j->end_time = (int64_t)time(NULL);
	if (to != SL_JOB_PENDING)
		sl_gates_forget(d, j->id);
	sl_gates_touch(d, j); /* what waits on it looks again */
	if (sl_jobstate_is_final(to))
		sl_mail_end(d, j); /* sent after the commit */
	return sl_lifecycle_save(d, j, err);
}

static void push(uint64_t **v, size_t *n, size_t *cap, uint64_t id)
{
	*v = sl_xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = id;
}

/* The engine admitted a->id: it runs (CONFIGURING for an executor that
 * reports readiness) and is launched after the commit. */
static void admit(struct sluiced *d, const struct sl_sched_admission *a)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, a->id);
	struct sl_err err = SL_ERR_INIT;
	if (j == NULL) {
		sl_schedctl_remove(d->sched, a->id);
		return;
	}
	if (sl_timed_admit(d, j, (int64_t)time(NULL)))
		return; /* past what its deadline allows: never started */
	sl_schedctl_assign(j, a);
	j->start_time = (int64_t)time(NULL);
	j->end_time = 0;
	/* a requeued job showed its last run's exit code while it waited */
	j->exit_code = j->exit_signal = 0;
	/* slurmdbd keeps the last reason a job waited for before it started
	 * (state_reason_prev_db): sacct's Reason */
	sl_job_reason_seen(j);
	free(j->nodelist);
	/* An executor that reports readiness keeps the job CONFIGURING (CF)
	 * until its pods are all ready; the nodes are known only then. */
	j->nodelist = d->executor->reports_ready ? NULL : sl_xstrdup(d->hostname);
	if (sl_lifecycle_move(d, j, d->executor->reports_ready ? SL_JOB_CONFIGURING :
			      SL_JOB_RUNNING, "None", &err) != 0) {
		sl_err_log("job %llu: admission failed: %s", (unsigned long long)j->id, err.msg);
	} else {
		sl_diag_job(d->diag, SL_DIAG_STARTED, 1);
		sl_mail_job(d, j, SL_MAIL_BEGIN);
		push(&d->launch, &d->nlaunch, &d->caplaunch, j->id);
	}
}

static void preempt(struct sluiced *d, uint64_t id, const char *why)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;
	if (j == NULL || !is_active(j->state))
		return;
	sl_info("job %llu: preempted: %s", (unsigned long long)id, why ? why : "");
	if (d->executor->preempt(d->exec, id, &err) != 0)
		/* Usually a race, not a fault: the victim ended and its end is
		 * already on the way to this loop; it frees the quota all the same. */
		sl_debug("job %llu: preempt: %s", (unsigned long long)id, err.msg);
}

/* Shown as CG until the executor reports the end; ended now for its
 * times (slurmctld's end_time at the cancel: sacct's End, squeue's TIME
 * no longer counting). */
static int completing(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	if (j->state != SL_JOB_COMPLETING) {
		j->end_time = (int64_t)time(NULL);
		return sl_lifecycle_move(d, j, SL_JOB_COMPLETING, NULL, err);
	}
	return sl_lifecycle_save(d, j, err);
}

int sl_lifecycle_cancel(struct sluiced *d, struct sl_job *j, uid_t by, struct sl_err *err)
{
	int r;
	j->cancelled_by = (int)by;
	if (j->state == SL_JOB_PENDING) {
		/* the reason it waited for stays, as in Slurm (squeue -t all,
		 * sacct): Resources, Priority, a hold, a dependency */
		sl_schedctl_explain(d->sched, j);
		sl_schedctl_remove(d->sched, j->id);
		j->start_time = j->end_time = (int64_t)time(NULL);
		return sl_lifecycle_move(d, j, SL_JOB_CANCELLED, j->reason ? j->reason : "None",
					 err);
	}
	if ((r = sl_acts_do(d, j->id, SL_ACT_CANCEL, err)) != 0)
		return r;
	return completing(d, j, err);
}

int sl_lifecycle_node_fail(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int r;
	if (d->executor->node_fail == NULL)
		return sl_err_set(err, SL_EUNSUPP, "the %s executor cannot fail a node's jobs",
				  d->executor->name);
	if ((r = d->executor->node_fail(d->exec, j->id, err)) != 0)
		return r;
	return completing(d, j, err);
}

int sl_lifecycle_signal(struct sluiced *d, struct sl_job *j, int sig, struct sl_err *err)
{
	if (!is_active(j->state))
		return sl_err_set(err, SL_ESTATE, "Job is pending execution");
	return d->executor->signal(d->exec, j->id, sig, err);
}

int sl_lifecycle_hold(struct sluiced *d, struct sl_job *j, int admin, struct sl_err *err)
{
	/* A running job keeps running (and its quota): as in Slurm, the hold
	 * shows, and matters if it is requeued. */
	if (j->state == SL_JOB_PENDING) {
		sl_schedctl_remove(d->sched, j->id);
		sl_gates_forget(d, j->id);
		/* Slurm's EligibleTime=Unknown, the release's time after; a time
		 * still ahead (--begin, a requeue's delay, a backoff) stays */
		if (j->eligible_time <= (int64_t)time(NULL))
			j->eligible_time = 0;
	}
	j->spec.hold = 1;
	j->priority = 0;
	set_reason(j, admin ? "JobHeldAdmin" : "JobHeldUser");
	return sl_lifecycle_save(d, j, err);
}

int sl_lifecycle_release(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int r;
	j->spec.hold = 0;
	set_reason(j, "None");
	if ((r = sl_submit_priority(d->conf, j, err)) != 0 ||
	    (r = sl_gates_queue(d, j, err)) != 0)
		return r;
	return sl_lifecycle_save(d, j, err);
}

/* What an admission gave the job, taken back: it is pending again. */
static void drop_admission(struct sl_job *j)
{
	j->start_time = j->end_time = 0;
	j->alloc_nodes = 0;
	j->alloc_cpus = sl_jobspec_asked_cpus(&j->spec);
	free(j->nodelist);
	j->nodelist = NULL;
	free(j->cluster_queue);
	j->cluster_queue = NULL;
	free(j->flavors);
	j->flavors = NULL;
	free(j->topo_assign);
	j->topo_assign = NULL;
}

/* Back to the queue at its original position (Kueue keeps creation time). */
static int back_to_queue(struct sluiced *d, struct sl_job *j, int new_attempt,
			 struct sl_err *err)
{
	int r;
	sl_mail_job(d, j, SL_MAIL_REQUEUE);
	if (new_attempt)
		j->attempt++;
	drop_admission(j);
	if ((r = sl_lifecycle_move(d, j, SL_JOB_PENDING, "None", err)) != 0)
		return r;
	sl_schedctl_requeue(d->sched, j->id);
	return 0;
}

/* ---- scontrol requeue, requeuehold, suspend, resume ---- */

/* Slurm makes a requeued job wait until its credential has expired
 * (CredExpire, 120 s, + 1) before it may start again: its reason is
 * BeginTime meanwhile. A job that never ran (CONFIGURING: its pods were
 * never all ready) has nothing to wait out and queues at once. */
#define REQUEUE_DELAY 121
/* sacct -D lists this many of a job's runs before its requeues. */
#define RUNS_MAX 64

/* The run that ends now, appended to j->runs for sacct (REQUEUED), before
 * the requeue gives the job a new submit and eligible time: the run's
 * record keeps its own. */
static void record_run(struct sl_job *j, const struct sl_exec_result *res)
{
	const char *old = j->runs ? j->runs : "";
	/* without res: a finished job requeued, its run already recorded on it */
	int64_t end = res && res->end_time > 0 ? res->end_time
		      : !res && j->end_time > 0 ? j->end_time : (int64_t)time(NULL);
	size_t n = 1;
	char *run, *t;

	for (const char *p = old; *p; p++)
		n += *p == ';';
	if (*old != '\0' && n >= RUNS_MAX) /* the oldest goes */
		old = strchr(old, ';') + 1;
	run = sl_job_run_text(j, end, res ? res->exit_code : j->exit_code,
			      res ? res->exit_signal : j->exit_signal);
	t = sl_xasprintf("%s%s%s", old, *old ? ";" : "", run);
	free(run);
	free(j->runs);
	j->runs = t;
}

/* Back to pending as Slurm does it: a new attempt, a new submit time,
 * BeginTime for REQUEUE_DELAY seconds, held if asked (requeuehold: a hold
 * its owner may release, whoever set it). */
static int requeue_now(struct sluiced *d, struct sl_job *j, int hold,
		       const struct sl_exec_result *res, struct sl_err *err)
{
	int64_t now = (int64_t)time(NULL);
	int held = sl_job_ran(j); /* not a job cancelled while pending */
	/* one requeued before, cancelled while it waited, waits again as it
	 * did (Slurm's BeginTime for a job that has run) */
	int ran = (held && j->state != SL_JOB_CONFIGURING) || (!held && j->attempt > 0);
	int r;
	/* a job held, then cancelled while pending, keeps its hold (Slurm's),
	 * as does one held while it ran */
	char kept[16] = "";
	if (!hold && j->spec.hold && j->reason &&
	    (strcmp(j->reason, "JobHeldUser") == 0 || strcmp(j->reason, "JobHeldAdmin") == 0))
		snprintf(kept, sizeof(kept), "%s", j->reason);

	/* every check before anything changes */
	if (!sl_jobstate_can(j->state, SL_JOB_PENDING))
		return sl_err_set(err, SL_ESTATE, "Job is pending execution");
	if (!hold && !kept[0] && (r = sl_submit_priority(d->conf, j, err)) != 0)
		return r;
	/* the run's steps out of the way: the next run numbers its own from 0 */
	if (held && ((r = sl_store_begin(d->store, err)) != 0 ||
		     (r = sl_store_steps_archive(d->store, j->id, j->attempt + 1, err)) != 0))
		return r;
	sl_schedctl_remove(d->sched, j->id);
	sl_mail_job(d, j, SL_MAIL_REQUEUE); /* as back_to_queue and evict */
	if (held)
		record_run(j, res);
	j->attempt++;
	drop_admission(j);
	sl_usage_to_job(&(struct sl_usage){0}, j); /* the next run's, not this one's */
	j->suspend_time = j->pre_suspend = 0;
	free(j->start_reason); /* a new run: slurmctld's requeue clears it */
	j->start_reason = NULL;
	j->submit_time = now;
	/* --begin still holds a job that never started (Slurm keeps it) */
	j->eligible_time = ran ? now + REQUEUE_DELAY
			       : j->spec.begin_time > now ? j->spec.begin_time : now;
	if (hold || kept[0]) {
		j->spec.hold = 1;
		j->priority = 0;
	}
	if ((r = sl_lifecycle_move(d, j, SL_JOB_PENDING, hold ? "job requeued in held state" :
				   kept[0] ? kept : j->eligible_time > now ? "BeginTime" : "None",
				   err)) != 0)
		return r;
	sl_info("job %llu: requeued%s", (unsigned long long)j->id, hold ? " and held" : "");
	return sl_gates_queue(d, j, err);
}

int sl_lifecycle_requeue(struct sluiced *d, struct sl_job *j, int hold, struct sl_err *err)
{
	int r;

	if (j->state == SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is pending execution");
	/* srun's and salloc's: its holder would wait for a command never run
	 * (Slurm's ESLURM_BATCH_ONLY) */
	if (j->spec.interactive)
		return sl_err_set(err, SL_ESTATE, "Only batch jobs are accepted or processed");
	if (j->state == SL_JOB_COMPLETING)
		return sl_err_set(err, SL_ESTATE, "Job is no longer pending execution");
	if (!j->spec.requeue)
		return sl_err_set(err, SL_ESTATE, "Requested operation is presently disabled");
	if (sl_jobstate_is_final(j->state)) /* Slurm requeues finished batch jobs too */
		return requeue_now(d, j, hold, NULL, err);
	if (j->state == SL_JOB_SUSPENDED && hold == 0)
		hold = 1; /* Slurm: "If a suspended job is requeued, it will be placed in a held state" */
	sl_gates_mark_requeue(d, j->id, hold);
	j->requeue_mark = hold ? 2 : 1; /* on disk too: the end may come after a restart */
	if ((r = sl_lifecycle_save(d, j, err)) != 0) {
		(void)sl_gates_requeued(d, j->id);
		j->requeue_mark = 0;
		return r;
	}
	return sl_acts_do(d, j->id, SL_ACT_REQUEUE, err); /* its failure takes the mark back */
}

/* The seconds it ran since its start or its last resume. */
static int64_t ran_since(const struct sl_job *j, int64_t now)
{
	int64_t from = j->suspend_time ? j->suspend_time : j->start_time;
	return from > 0 && now > from ? now - from : 0;
}

int sl_lifecycle_suspend(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int64_t now = (int64_t)time(NULL);
	int r;

	if (j->state == SL_JOB_SUSPENDED)
		return 0; /* Slurm: silent */
	if (j->state == SL_JOB_PENDING)
		return sl_err_set(err, SL_ESTATE, "Job is pending execution");
	if (sl_jobstate_is_final(j->state))
		return sl_err_set(err, SL_ESTATE, "Job has already finished");
	if (j->state != SL_JOB_RUNNING)
		return sl_err_set(err, SL_ESTATE, "Job is not running");
	if ((r = sl_acts_do(d, j->id, SL_ACT_SUSPEND, err)) != 0)
		return r;
	j->pre_suspend += ran_since(j, now);
	j->suspend_time = now;
	j->priority = 0; /* as Slurm shows it */
	return sl_lifecycle_move(d, j, SL_JOB_SUSPENDED, NULL, err);
}

int sl_lifecycle_resume(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	int r;

	if (j->state != SL_JOB_SUSPENDED)
		return sl_err_set(err, SL_ESTATE, "Job is not suspended");
	if ((r = sl_acts_do(d, j->id, SL_ACT_RESUME, err)) != 0)
		return r;
	j->suspend_time = (int64_t)time(NULL);
	if (!j->spec.hold && (r = sl_submit_priority(d->conf, j, err)) != 0)
		return r;
	return sl_lifecycle_move(d, j, SL_JOB_RUNNING, NULL, err);
}

void sl_lifecycle_ready(struct sluiced *d, uint64_t id, const char *nodelist)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;
	if (j == NULL || j->state != SL_JOB_CONFIGURING)
		return;
	free(j->nodelist);
	j->nodelist = nodelist && *nodelist ? sl_xstrdup(nodelist) : NULL;
	if (sl_lifecycle_move(d, j, SL_JOB_RUNNING, NULL, &err) != 0)
		sl_err_log("job %llu: %s", (unsigned long long)id, err.msg);
}

struct backoff {
	struct sluiced *d;
	uint64_t id;
	int attempt;
};

static void on_backoff(struct sl_loop *l, uint64_t tid, void *arg)
{
	struct backoff *b = arg;
	struct sl_job *j = sl_jobtab_get(b->d->jobs, b->id);
	struct sl_err err = SL_ERR_INIT;
	if (j != NULL && j->state == SL_JOB_PENDING && !j->spec.hold && j->attempt == b->attempt &&
	    sl_schedctl_add(b->d->sched, j, &err) != 0)
		sl_err_log("job %llu: requeue: %s", (unsigned long long)b->id, err.msg);
	free(b);
}

/* Back to the queue only when its eligible time comes (Kueue's requeue
 * backoff after an eviction); meanwhile it holds no quota. */
static void arm_backoff(struct sluiced *d, struct sl_job *j)
{
	struct backoff *b = sl_xcalloc(1, sizeof(*b));
	int64_t ms = (j->eligible_time - (int64_t)time(NULL)) * 1000;
	*b = (struct backoff){d, j->id, j->attempt};
	sl_loop_add_timer(d->loop, ms > 0 ? ms : 0, on_backoff, b);
}

/* Kueue deactivates a workload whose re-queue count would pass
 * requeuingStrategy.backoffLimitCount (count+1 > limit); a deactivated
 * workload never runs again, which in Slurm terms is a FAILED end. The count
 * is j->ready_evictions (Kueue's status.requeueState.count): evictions by the
 * pods-ready timeout only, not preemptions or manual requeues. */
static int deactivate(struct sluiced *d, struct sl_job *j, const char *why,
		      struct sl_err *err)
{
	int r;

	j->exit_code = 1;
	j->exit_signal = 0;
	j->end_time = (int64_t)time(NULL);
	if ((r = sl_lifecycle_move(d, j, SL_JOB_FAILED, "RequeuingLimitExceeded", err)) != 0)
		return r;
	j->reason_text = sl_xasprintf("%s; exceeding the maximum number of re-queuing retries",
				      why);
	return sl_lifecycle_save(d, j, err);
}

/* The pods were not all ready in time (Kueue's waitForPodsReady): the
 * quota goes back now, the job waits base * 2^(n-1) seconds (capped; n its
 * pods-ready evictions so far), then queues again at its original position
 * as a new attempt. */
static int evict(struct sluiced *d, struct sl_job *j, const char *why, struct sl_err *err)
{
	const struct sl_kq_config *kc = &sl_conf_kueue(d->conf)->config;
	int64_t base = kc->backoff_base_s > 0 ? kc->backoff_base_s : 60;
	int64_t max = kc->backoff_max_s > 0 ? kc->backoff_max_s : 3600, delay = base;
	char when[32];
	time_t t;
	int r;

	sl_schedctl_remove(d->sched, j->id);
	if (kc->has_backoff_limit && (int64_t)j->ready_evictions + 1 > kc->backoff_limit)
		return deactivate(d, j, why, err);
	sl_mail_job(d, j, SL_MAIL_REQUEUE);
	j->ready_evictions++;
	j->attempt++;
	for (int i = 1; i < j->ready_evictions && delay < max; i++)
		delay *= 2;
	if (delay > max)
		delay = max;
	drop_admission(j);
	j->eligible_time = (int64_t)time(NULL) + delay;
	if ((r = sl_lifecycle_move(d, j, SL_JOB_PENDING, "BeginTime", err)) != 0)
		return r;
	t = (time_t)j->eligible_time;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&t));
	j->reason_text = sl_xasprintf("%s; requeued with backoff until %s", why, when);
	arm_backoff(d, j);
	return sl_lifecycle_save(d, j, err);
}

void sl_lifecycle_finished(struct sluiced *d, uint64_t id, const struct sl_exec_result *res)
{
	struct sl_job *j = sl_jobtab_get(d->jobs, id);
	struct sl_err err = SL_ERR_INIT;
	struct sl_exec_result never;
	int r, hold;

	if (j == NULL || !is_active(j->state)) {
		d->executor->forget(d->exec, id);
		return;
	}
	sl_step_signals_forget(d, id);
	sl_acts_forget(d, id);
	/* slurmctld counts a batch script's end as completed whatever its
	 * state, and a launch that failed as failed and completed both (it
	 * still completes the batch script after slurmd's error) */
	if (res->launch_failed)
		sl_diag_job(d->diag, SL_DIAG_FAILED, 1);
	if (res->launch_failed || (res->state != SL_JOB_PENDING && res->start_time > 0))
		sl_diag_job(d->diag, SL_DIAG_COMPLETED, 1);
	hold = sl_gates_requeued(d, id);
	if (hold < 0 && j->requeue_mark > 0) /* asked before a restart */
		hold = j->requeue_mark - 1;
	j->requeue_mark = 0;
	/* Its cancel reached the executor (COMPLETING) and wins:
	 * - the job never started: CANCELLED. Back in the queue it would run
	 *   later, after its user had cancelled it. A supervisor takes a cancel
	 *   that comes before it is ready and records CANCELLED itself
	 *   (jobdir.h: sl_stepd_sigset); this is for one that died before it
	 *   could write `started` (killed, a full disk), and for any executor's
	 *   "never ran" (an eviction, in k8s);
	 * - a requeue or a requeueing preemption was on its way: Slurm's
	 *   scancel of a requeued job still completing ends it CANCELLED, its
	 *   run kept (times, nodes, the signal that ended it). A preempted job
	 *   that does not requeue stays PREEMPTED (Slurm's scancel finds it
	 *   done);
	 * - a scancel the job outran: it ended on its own (COMPLETED, FAILED,
	 *   TIMEOUT) between the reply and the signal (acts.c). slurmctld
	 *   marks a job CANCELLED at the cancel, and its end changes nothing
	 *   but the exit code. */
	if (j->state == SL_JOB_COMPLETING &&
	    (res->state == SL_JOB_PENDING || hold >= 0 ||
	     (res->state == SL_JOB_PREEMPTED && j->spec.requeue) ||
	     (j->cancelled_by >= 0 && res->state != SL_JOB_PREEMPTED))) {
		never = *res;
		never.state = SL_JOB_CANCELLED;
		never.evicted = 0;
		snprintf(never.reason, sizeof(never.reason), "None");
		never.message[0] = '\0';
		res = &never;
		hold = -1;
	}
	if (hold >= 0) {
		r = requeue_now(d, j, hold, res, &err);
	} else if (res->state == SL_JOB_PENDING && res->evicted) {
		r = evict(d, j, res->message[0] ? res->message : "evicted", &err);
	} else if (res->state == SL_JOB_PENDING ||
		   (res->state == SL_JOB_PREEMPTED && j->spec.requeue)) {
		r = back_to_queue(d, j, res->state == SL_JOB_PREEMPTED, &err);
	} else {
		sl_schedctl_remove(d->sched, id);
		j->exit_code = res->exit_code;
		j->exit_signal = res->exit_signal;
		sl_usage_to_job(&res->usage, j);
		if (res->start_time > 0)
			j->start_time = res->start_time;
		/* A cancel's end is its own moment (completing()), which squeue
		 * and sacct showed while it completed, as slurmctld's end_time;
		 * the executor's is when the signal came, after the reply
		 * (acts.c). A supervisor that started after it reports its own. */
		if (j->state != SL_JOB_COMPLETING || j->end_time < j->start_time)
			j->end_time = res->end_time > 0 ? res->end_time : (int64_t)time(NULL);
		r = sl_lifecycle_move(d, j, res->state, res->reason, &err);
		if (r == 0 && res->message[0] != '\0') {
			j->reason_text = sl_xstrdup(res->message);
			r = sl_lifecycle_save(d, j, &err);
		}
	}
	if (r != 0)
		sl_err_log("job %llu: recording its end failed: %s", (unsigned long long)id, err.msg);
	sl_info("job %llu: %s (%d:%d)", (unsigned long long)id, sl_jobstate_name(j->state),
		j->exit_code, j->exit_signal);
	push(&d->forget, &d->nforget, &d->capforget, id);
}

int sl_lifecycle_recover(struct sluiced *d, struct sl_err *err)
{
	int64_t since = (int64_t)time(NULL) - sl_conf_min_job_age(d->conf);
	struct sl_job **v;
	size_t n, i;
	int r;

	if ((r = sl_store_load_live(d->store, since, &v, &n, err)) != 0)
		return r;
	/* the table's order, so that an array's throttle meets its tasks
	 * in index order, as before a restart */
	sl_jobtab_sort(v, n);
	for (i = 0; i < n; i++) {
		struct sl_job *j = v[i];
		v[i] = NULL;
		sl_jobtab_add(d->jobs, j);
		if (j->state == SL_JOB_PENDING) {
			j->spec.hold = j->reason && (strcmp(j->reason, "JobHeldUser") == 0 ||
						     strcmp(j->reason, "JobHeldAdmin") == 0 ||
						     strcmp(j->reason, "job requeued in held state") == 0);
			if (!j->spec.hold && j->eligible_time > (int64_t)time(NULL) &&
			    j->reason && strcmp(j->reason, "BeginTime") == 0 && j->reason_text)
				arm_backoff(d, j); /* an eviction's backoff says why */
			else if (!j->spec.hold && (r = sl_gates_queue(d, j, err)) != 0)
				break;
		} else if (is_active(j->state)) {
			if ((r = sl_schedctl_add_running(d->sched, j, err)) != 0 ||
			    (r = d->executor->adopt(d->exec, j, err)) != 0)
				break;
		}
		sl_job_shed(j); /* as after a submission: see fill() */
	}
	sl_job_free_array(v, n);
	if (r == 0)
		sl_info("recovered %zu jobs from the store", sl_jobtab_count(d->jobs));
	if (r == 0)
		sl_timed_start(d); /* deadlines, time limit mails */
	return r;
}

/* Memory keeps what listings show; an executor is handed the whole spec,
 * read back from the store, and keeps its own copy of what it needs. */
static int fill(struct sluiced *d, struct sl_job *j, struct sl_err *err)
{
	struct sl_jobspec s;
	int r = sl_store_load_spec(d->store, j->id, &s, err);
	if (r == 0) {
		sl_job_refill(j, &s);
		sl_jobspec_clear(&s);
	}
	return r;
}

static void launch_all(struct sluiced *d)
{
	for (size_t i = 0; i < d->nlaunch; i++) {
		struct sl_job *j = sl_jobtab_get(d->jobs, d->launch[i]);
		struct sl_err err = SL_ERR_INIT;
		int r;
		if (j == NULL || (j->state != SL_JOB_RUNNING && j->state != SL_JOB_CONFIGURING))
			continue;
		if ((r = fill(d, j, &err)) == 0)
			r = d->executor->start(d->exec, j, &err);
		sl_job_shed(j);
		if (r != 0) {
			struct sl_exec_result res = {
				.state = SL_JOB_FAILED, .exit_signal = 53, .launch_failed = 1};
			sl_err_log("job %llu: launch failed: %s", (unsigned long long)j->id, err.msg);
			snprintf(res.reason, sizeof(res.reason), "JobLaunchFailure");
			res.start_time = j->start_time;
			sl_lifecycle_finished(d, j->id, &res);
		}
	}
	d->nlaunch = 0;
}

/* A full disk is survived: the store keeps what it could not write and
 * writes it at the next commit (store.h). Until one succeeds, launches and
 * the removal of ended jobs' directories wait (the store does not know
 * those jobs as running or ended), as do new admissions and new jobs. Any
 * other failure ends the daemon: nothing of this turn was announced, so
 * dying now loses nothing anyone was told about, while going on could. */
static int commit(struct sluiced *d)
{
	struct sl_err err = SL_ERR_INIT;
	size_t kept = sl_store_kept(d->store, NULL);
	int r = sl_store_commit(d->store, &err);

	if (r == 0 && sl_store_kept(d->store, NULL) > 0)
		return -SL_EBUSY; /* no transaction could even begin */
	if (r == 0 && kept > 0) {
		sl_info("store: written again: the %zu job records a full disk held back are saved",
			kept);
		d->need_schedule = 1;
	} else if (r == -SL_EBUSY && kept == 0) {
		sl_err_log("%s; new jobs are refused until space is freed", err.msg);
	} else if (r != 0 && r != -SL_EBUSY) {
		sl_err_log("store commit failed, exiting: %s", err.msg);
		exit(1);
	}
	return r;
}

static void on_store_retry(struct sl_loop *l, uint64_t id, void *arg)
{
	((struct sluiced *)arg)->store_retry = 0; /* the turn after it tries again */
}

/* While the disk is full, a turn comes every STORE_RETRY_MS even when
 * nothing else happens, so that the records are saved, and jobs scheduled,
 * soon after space comes back. */
#define STORE_RETRY_MS 1000
static void arm_store_retry(struct sluiced *d)
{
	if (d->store_retry == 0 && !d->stopping &&
	    (sl_store_kept(d->store, NULL) > 0 || d->need_schedule))
		d->store_retry = sl_loop_add_timer(d->loop, STORE_RETRY_MS, on_store_retry, d);
}

/* One cycle's decisions, in the engine's order: preemptions first. */
static void schedule(struct sluiced *d)
{
	struct sl_sched_decisions dec;

	if (sl_nodeadmin_blocks(d))
		return; /* drained or down: nothing starts, nothing is preempted for it */
	sl_schedctl_run(d->sched, &dec);
	for (size_t i = 0; i < dec.npreempt; i++)
		preempt(d, dec.preempt[i].victim, dec.preempt[i].message);
	for (size_t i = 0; i < dec.nadmit; i++)
		admit(d, &dec.admit[i]);
	sl_schedctl_done(d->sched, &dec);
}

/* A printed id is on disk: while a job that a reply names is not, every
 * reply waits (replies go out together). An acknowledged change is on disk
 * too: while the disk keeps some in memory, the replies to requests that
 * change state wait. */
static void flush_replies(struct sluiced *d)
{
	size_t unsaved_jobs;
	size_t kept = sl_store_kept(d->store, &unsaved_jobs);
	if (kept == 0 || unsaved_jobs == 0)
		sl_conns_flush(d->conns, kept == 0);
}

void sl_lifecycle_turn(struct sluiced *d)
{
	struct sl_err err = SL_ERR_INIT;

	sl_gates_turn(d); /* dependencies and begin times, before the cycle */
	/* A launch failure is itself a state change: loop until quiet. */
	for (int rounds = 0; rounds < 8; rounds++) {
		/* No admission the store could not record (sl_store_room). */
		if (d->need_schedule && !d->stopping && sl_store_room(d->store, &err) == 0) {
			d->need_schedule = 0;
			schedule(d);
		}
		if (sl_store_kept(d->store, NULL) > 0)
			(void)sl_store_begin(d->store, &err); /* writes the kept records */
		if (!sl_store_in_txn(d->store) && d->nlaunch == 0)
			break;
		if (commit(d) != 0)
			break;
		/* What the replies acknowledge is on disk: the clients go on (a
		 * submitter with its next job) while the admitted jobs launch. */
		flush_replies(d);
		sl_acts_pump(d); /* the actions of the requests answered before */
		for (size_t i = 0; i < d->nforget; i++)
			d->executor->forget(d->exec, d->forget[i]);
		d->nforget = 0;
		launch_all(d);
		sl_mail_flush(d); /* what they say is on disk now */
	}
	flush_replies(d);
	sl_acts_pump(d);
	sl_store_idle(d->store);
	arm_store_retry(d);
}
