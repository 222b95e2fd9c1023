/* exec_k8s_job.c - the bottom of the Kubernetes executor: the job table and
 * what every layer above does to a job: its one call in flight, its report
 * to the daemon (sent from the event queue's zero-delay timer, never from
 * inside an ops call or a watch callback that still walks the table), and
 * its end by delete.
 *
 * A delete is the executor's one other write: DELETE with propagationPolicy
 * Background (the API server answers at once, the garbage collector removes
 * the pods) and gracePeriodSeconds = Slurm's KillWait, so scancel and
 * preemption give the job the same SIGTERM..SIGKILL window as on a Slurm
 * node. A 404 is success: the object is gone either way. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "loop.h"
#include "xalloc.h"

struct kjob *sl_k8sexec_job_find(struct sl_exec_k8s *x, uint64_t id)
{
	for (struct kjob *k = x->jobs; k != NULL; k = k->next)
		if (k->id == id)
			return k;
	return NULL;
}

void sl_k8sexec_job_call(struct kjob *kj, struct sl_k8s_call *c)
{
	if (kj->call != c)
		sl_k8s_call_cancel(kj->call);
	kj->call = c;
}

void sl_k8sexec_job_report(struct kjob *kj, const struct sl_exec_result *res)
{
	struct sl_exec_result r = *res;
	if (kj->phase == KJ_DONE)
		return; /* reported once; a late second path changes nothing */
	kj->phase = KJ_DONE;
	sl_k8sexec_job_call(kj, NULL);
	sl_k8s_req_cancel(kj->logreq);
	kj->logreq = NULL;
	if (kj->ready_timer)
		sl_loop_del_timer(kj->x->loop, kj->ready_timer);
	kj->ready_timer = 0;
	if (r.end_time == 0)
		r.end_time = (int64_t)time(NULL);
	sl_evq_finished(kj->x->evq, kj->id, &r);
}

/* ---- deletes ---- */

/* Kept on x->fires so that shutdown can cancel and free what is in flight
 * (the HTTP client drops its requests without callbacks). */
struct kfire {
	struct sl_exec_k8s *x;
	struct sl_k8s_call *call;
	char *item;
	struct kfire *next;
};

static void fire_free(struct kfire *f)
{
	for (struct kfire **pp = &f->x->fires; *pp != NULL; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	free(f->item);
	free(f);
}

static void on_fire(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kfire *f = arg;
	if (rc != 0 && rc != -SL_ENOENT)
		sl_warn("delete %s: %s (a later reconcile retries)", f->item, err->msg);
	fire_free(f);
}

void sl_k8sexec_delete(struct sl_exec_k8s *x, const char *item, int64_t grace)
{
	struct sl_k8s_delete_opts o = {.propagation = "Background", .grace_seconds = grace};
	struct kfire *f = sl_xcalloc(1, sizeof(*f));
	f->x = x;
	f->item = sl_xstrdup(item);
	f->next = x->fires;
	x->fires = f;
	f->call = sl_k8s_delete(x->http, f->item, &o, on_fire, f);
}

void sl_k8sexec_delete_drop(struct sl_exec_k8s *x)
{
	while (x->fires != NULL) {
		sl_k8s_call_cancel(x->fires->call);
		fire_free(x->fires);
	}
}

static void on_end(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	struct sl_exec_result res;

	kj->call = NULL;
	if (rc != 0 && rc != -SL_ENOENT)
		sl_warn("job %llu: delete %s/%s: %s", (unsigned long long)kj->id, kj->ns, kj->name,
			err->msg);
	memset(&res, 0, sizeof(res));
	res.state = kj->end_as;
	res.start_time = kj->start;
	res.exit_signal = kj->end_as == SL_JOB_CANCELLED ? 15 : 0;
	snprintf(res.reason, sizeof(res.reason), "%s",
		 kj->end_as == SL_JOB_PREEMPTED ? "Preempted" :
		 kj->end_as == SL_JOB_PENDING ? "PodsReadyTimeout" :
		 kj->end_as == SL_JOB_TIMEOUT ? "TimeLimit" : "None");
	if (kj->end_as == SL_JOB_PENDING) {
		res.evicted = 1;
		res.start_time = 0;
	}
	snprintf(res.message, sizeof(res.message), "%s", kj->why ? kj->why : "");
	sl_k8sexec_job_report(kj, &res);
}

void sl_k8sexec_end(struct kjob *kj, enum sl_jobstate as, const char *why)
{
	struct sl_k8s_delete_opts o = {.propagation = "Background",
				       .grace_seconds = kj->x->kill_wait};
	char *item;

	if (why != NULL) {
		free(kj->why);
		kj->why = sl_xstrdup(why);
	}
	kj->end_as = as;
	if (kj->phase == KJ_CREATING) { /* the create's answer decides */
		kj->want_end = 1;
		return;
	}
	if (kj->phase == KJ_ENDING || kj->phase == KJ_DONE)
		return;
	sl_k8s_req_cancel(kj->logreq);
	kj->logreq = NULL;
	kj->phase = KJ_ENDING;
	item = sl_k8s_kind_path(kj->kind, kj->ns, kj->name);
	sl_k8sexec_job_call(kj, sl_k8s_delete(kj->x->http, item, &o, on_end, kj));
	free(item);
}
