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
#include <sys/random.h>
#include <time.h>

#include "conf.h"
#include "conf_kube.h"
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

static void on_secret(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kfire *f = arg;
	if (rc != 0 && rc != -SL_EEXIST)
		sl_warn("create %s: %s: srun cannot start tasks in the job's pods", f->item,
			err->msg);
	fire_free(f);
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

/* ---- the job's Secret (srun's step agent) ---- */

/* With kubernetes.agentImage, the pods' SLUICE_JOB_SECRET comes from a
 * Secret named as the JobSet (k8s/render_agent.c): made here once the
 * JobSet exists, owned by it (its uid from the create's answer) so the
 * garbage collector removes it with the job. 32 random bytes, hex: a user
 * who cannot read the job's namespace's Secrets cannot start tasks in it.
 * Pods wait for it (kubelet retries a missing secretKeyRef). Sent as a
 * fire-and-forget create: 409 (a retried or adopted create) keeps the
 * first secret, which the running pods already hold. */
void sl_k8sexec_secret(struct kjob *kj, json_object *obj)
{
	const struct sl_kubeconf *kc = sl_conf_kubernetes(*kj->x->confp);
	json_object *s, *meta, *owner, *owners, *data, *labels, *m, *uid;
	unsigned char rnd[32];
	char hex[65], *coll;
	const char *body;
	struct kfire *f;

	if (kc == NULL || kc->agent_image == NULL || strcmp(kj->kind->name, "JobSet") != 0 ||
	    !json_object_object_get_ex(obj, "metadata", &m) ||
	    !json_object_object_get_ex(m, "uid", &uid))
		return;
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		sl_warn("job %llu: no random bytes for its secret: srun cannot start tasks in its "
			"pods", (unsigned long long)kj->id);
		return;
	}
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(hex + 2 * i, 3, "%02x", rnd[i]);
	owner = json_object_new_object();
	json_object_object_add(owner, "apiVersion", json_object_new_string(kj->kind->api_version));
	json_object_object_add(owner, "kind", json_object_new_string(kj->kind->name));
	json_object_object_add(owner, "name", json_object_new_string(kj->name));
	json_object_object_add(owner, "uid", json_object_get(uid));
	json_object_object_add(owner, "controller", json_object_new_boolean(1));
	json_object_object_add(owner, "blockOwnerDeletion", json_object_new_boolean(1));
	owners = json_object_new_array();
	json_object_array_add(owners, owner);
	meta = json_object_new_object();
	json_object_object_add(meta, "name", json_object_new_string(kj->name));
	json_object_object_add(meta, "namespace", json_object_new_string(kj->ns));
	if (json_object_object_get_ex(m, "labels", &labels))
		json_object_object_add(meta, "labels", json_object_get(labels));
	json_object_object_add(meta, "ownerReferences", owners);
	data = json_object_new_object();
	json_object_object_add(data, SL_RENDER_SECRET_KEY, json_object_new_string(hex));
	s = json_object_new_object();
	json_object_object_add(s, "apiVersion", json_object_new_string("v1"));
	json_object_object_add(s, "kind", json_object_new_string("Secret"));
	json_object_object_add(s, "metadata", meta);
	json_object_object_add(s, "type", json_object_new_string("Opaque"));
	json_object_object_add(s, "stringData", data);
	body = json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN);
	coll = sl_xasprintf("/api/v1/namespaces/%s/secrets", kj->ns);
	f = sl_xcalloc(1, sizeof(*f));
	f->x = kj->x;
	f->item = sl_xasprintf("%s/%s", coll, kj->name);
	f->next = kj->x->fires;
	kj->x->fires = f;
	f->call = sl_k8s_create(kj->x->http, coll, body, strlen(body), on_secret, f);
	memset(hex, 0, sizeof(hex));
	json_object_put(s);
	free(coll);
}
