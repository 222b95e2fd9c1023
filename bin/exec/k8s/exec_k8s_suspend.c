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
 * object stays as the outer bound. */
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

int sl_k8sexec_suspend(struct kjob *kj, int resume, struct sl_err *err)
{
	const char *fmt = kj->kind == &sl_k8s_kinds[SL_K8S_MPIJOB]
				  ? "{\"spec\":{\"runPolicy\":{\"suspend\":%s}}}"
				  : "{\"spec\":{\"suspend\":%s}}";
	int64_t now = (int64_t)time(NULL);
	char body[64], *item;

	if (kj->phase != KJ_LIVE)
		return sl_err_set(err, SL_ESTATE, "Job is not running");
	if (kj->suspended == !resume)
		return 0;
	snprintf(body, sizeof(body), fmt, resume ? "false" : "true");
	item = sl_k8s_kind_path(kj->kind, kj->ns, kj->name);
	sl_k8s_call_cancel(kj->patch); /* the last word wins: merge patches set, not toggle */
	kj->patch = sl_k8s_patch(kj->x->http, item, "application/merge-patch+json", body,
				 strlen(body), on_patch, kj);
	free(item);
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
