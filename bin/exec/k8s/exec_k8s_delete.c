/* exec_k8s_delete.c - the Kubernetes executor's one other write: DELETE with
 * propagationPolicy Background (the API server answers at once, the garbage
 * collector removes the pods) and gracePeriodSeconds = Slurm's KillWait, so
 * scancel and preemption give the job the same SIGTERM..SIGKILL window as on
 * a Slurm node. A 404 is success: the object is gone either way. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "xalloc.h"

char *sl_k8sexec_collection(enum sl_render_kind kind, const char *ns)
{
	if (kind == SL_RENDER_MPIJOB)
		return sl_xasprintf("/apis/kubeflow.org/v2beta1/namespaces/%s/mpijobs", ns);
	return sl_xasprintf("/apis/jobset.x-k8s.io/v1alpha2/namespaces/%s/jobsets", ns);
}

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

void sl_k8sexec_delete_obj(struct sl_exec_k8s *x, const char *collection, const char *name,
		       int64_t grace)
{
	struct sl_k8s_delete_opts o = {.propagation = "Background", .grace_seconds = grace};
	struct kfire *f = sl_xcalloc(1, sizeof(*f));
	f->x = x;
	f->item = sl_xasprintf("%s/%s", collection, name);
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
		 kj->end_as == SL_JOB_PENDING ? "PodsReadyTimeout" : "None");
	if (kj->end_as == SL_JOB_PENDING) {
		res.evicted = 1;
		res.start_time = 0;
	}
	snprintf(res.message, sizeof(res.message), "%s", kj->why ? kj->why : "");
	sl_k8sexec_job_report(kj, &res);
}

void sl_k8sexec_job_end(struct kjob *kj, enum sl_jobstate as, const char *why)
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
	if (kj->collection == NULL)
		kj->collection = sl_k8sexec_collection(kj->kind, kj->ns);
	item = sl_xasprintf("%s/%s", kj->collection, kj->name);
	sl_k8sexec_job_call(kj, sl_k8s_delete(kj->x->http, item, &o, on_end, kj));
	free(item);
}
