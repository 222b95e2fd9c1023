/* exec_k8s_suspend.c - scontrol suspend and resume on Kubernetes: the job's
 * object gets spec.suspend (JobSet) or spec.runPolicy.suspend (MPIJob) by a
 * JSON merge patch (custom resources take no strategic merge); its
 * controller deletes the pods and, on resume, creates them again. The
 * quota stays with the job, as Slurm keeps a suspended job's nodes.
 *
 * The time limit's clock stops while suspended, as on a Slurm node. The
 * child Jobs' activeDeadlineSeconds cannot say so: Kubernetes restarts a
 * resumed Job's clock from zero, so it would give the whole limit again. So
 * at each resume a timer holds what is left (the limit less the time run
 * before), and ends the job as TIMEOUT when it fires; the deadline in the
 * object stays as the outer bound.
 *
 * The PATCH follows scontrol's reply (sluiced's acts.c), and its answer
 * comes later still: a kill -9 in between leaves the object unlike the
 * record, which holds what was acknowledged. So after a restart the
 * object, once found, is patched to what the record says; one that agrees
 * costs no write. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "loop.h"
#include "xalloc.h"

static void on_patch(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	kj->patch = NULL;
	if (rc != 0)
		sl_warn("job %llu: %s %s/%s: %s", (unsigned long long)kj->id,
			kj->suspended ? "suspend" : "resume", kj->ns, kj->name, err->msg);
	else if (kj->obj == NULL)
		kj->obj = json_object_get(obj);
}

static void on_limit(struct sl_loop *l, uint64_t id, void *arg)
{
	struct kjob *kj = arg;
	kj->limit_timer = 0;
	if (kj->phase == KJ_ADOPTING) { /* after a restart, before the lists: ask again */
		kj->limit_timer = sl_loop_add_timer(l, 1000, on_limit, kj);
		return;
	}
	if (kj->phase != KJ_LIVE || kj->suspended)
		return;
	sl_info("job %llu: time limit reached (suspended time not counted)",
		(unsigned long long)kj->id);
	sl_k8sexec_end(kj, SL_JOB_TIMEOUT, NULL);
}

/* After a resume: a timer for the limit less what ran before. */
static void limit_arm(struct kjob *kj, int64_t now)
{
	int64_t limit = sl_jobspec_limit_secs(&kj->job->spec), left;
	if (kj->limit_timer)
		sl_loop_del_timer(kj->x->loop, kj->limit_timer);
	kj->limit_timer = 0;
	if (limit <= 0 || kj->ran <= 0)
		return; /* never suspended: the object's own deadline is exact */
	left = limit - kj->ran - (now - kj->run_from);
	kj->limit_timer = sl_loop_add_timer(kj->x->loop, left > 0 ? left * 1000 : 0, on_limit, kj);
}

/* The object's spec.suspend (MPIJob: spec.runPolicy.suspend) set to
 * !resume by a merge patch: the last word wins, as merge patches set, not
 * toggle. */
static void patch(struct kjob *kj, int resume)
{
	int mpi = kj->kind == &sl_k8s_kinds[SL_K8S_MPIJOB];
	char body[64], *item;

	snprintf(body, sizeof(body), mpi ? "{\"spec\":{\"runPolicy\":{\"suspend\":%s}}}"
					 : "{\"spec\":{\"suspend\":%s}}",
		 resume ? "false" : "true");
	item = sl_k8s_kind_path(kj->kind, kj->ns, kj->name);
	sl_k8s_call_cancel(kj->patch);
	kj->patch = sl_k8s_patch(kj->x->http, item, "application/merge-patch+json", body,
				 strlen(body), on_patch, kj);
	free(item);
}

int sl_k8sexec_suspend(struct kjob *kj, int resume, struct sl_err *err)
{
	int64_t now = (int64_t)time(NULL);

	if (kj->phase != KJ_LIVE)
		return sl_err_set(err, SL_ESTATE, "Job is not running");
	if (kj->suspended == !resume)
		return 0;
	patch(kj, resume);
	kj->suspended = !resume;
	if (resume) {
		kj->run_from = now;
		limit_arm(kj, now);
	} else {
		kj->ran += now > kj->run_from ? now - kj->run_from : 0;
		if (kj->limit_timer)
			sl_loop_del_timer(kj->x->loop, kj->limit_timer);
		kj->limit_timer = 0;
	}
	sl_info("job %llu: %s %s/%s", (unsigned long long)kj->id,
		resume ? "resuming" : "suspending", kj->ns, kj->name);
	return 0;
}

/* The record keeps the time run before the last resume (pre_suspend) and
 * when that was (suspend_time). */
void sl_k8sexec_suspend_adopt(struct kjob *kj, const struct sl_job *job)
{
	kj->suspended = job->state == SL_JOB_SUSPENDED;
	kj->ran = job->pre_suspend;
	if (job->suspend_time > 0 && !kj->suspended)
		kj->run_from = job->suspend_time;
	if (!kj->suspended)
		limit_arm(kj, (int64_t)time(NULL));
}

/* Whether obj says suspended: spec.suspend, an MPIJob's
 * spec.runPolicy.suspend; absent is false (the API's default). */
static int obj_suspended(const struct kjob *kj, json_object *obj)
{
	json_object *spec = NULL, *v = NULL;
	if (!json_object_object_get_ex(obj, "spec", &spec))
		return 0;
	if (kj->kind == &sl_k8s_kinds[SL_K8S_MPIJOB] &&
	    !json_object_object_get_ex(spec, "runPolicy", &spec))
		return 0;
	return json_object_object_get_ex(spec, "suspend", &v) && json_object_get_boolean(v);
}

void sl_k8sexec_suspend_found(struct kjob *kj)
{
	if (kj->obj == NULL || obj_suspended(kj, kj->obj) == kj->suspended)
		return;
	sl_info("job %llu: %s %s/%s, as its record says (after a restart)",
		(unsigned long long)kj->id, kj->suspended ? "suspending" : "resuming", kj->ns,
		kj->name);
	patch(kj, !kj->suspended);
}
