/* exec_k8s.c - the Kubernetes executor: the ops table sluiced calls
 * (bin/exec/exec.h), on top of the layers exec_k8s.h lists. A job becomes
 * one object of its kind (k8s/kinds.h), created once and followed by
 * watches (exec_k8s_watch.c), deleted once (exec_k8s_job.c). The job table's
 * entries are made and freed only here. */
#include "exec_k8s.h"
#include "exec/executors.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <time.h>

#include "conf.h"
#include "conf_kube.h"
#include "log.h"
#include "loop.h"
#include "xalloc.h"

/* ---- job table entries (exec_k8s_job.c has the rest) ---- */

static struct kjob *kjob_new(struct sl_exec_k8s *x, const struct sl_job *job)
{
	struct kjob *kj = sl_xcalloc(1, sizeof(*kj));

	kj->x = x;
	kj->id = job->id;
	kj->attempt = job->attempt;
	char ns[SL_K8S_NAME_MAX];

	kj->ns = sl_xstrdup(job->spec.account == NULL ? "default"
			    : sl_conf_k8s_name(job->spec.account, ns) == 0 ? ns : job->spec.account);
	kj->name = sl_render_name(job->id, job->attempt);
	kj->job = sl_job_copy(job);
	kj->start = job->start_time > 0 ? job->start_time : (int64_t)time(NULL);
	kj->run_from = kj->start;
	kj->next = x->jobs;
	x->jobs = kj;
	return kj;
}

static void kjob_free(struct kjob *kj)
{
	sl_k8s_call_cancel(kj->call);
	sl_k8s_call_cancel(kj->patch);
	sl_k8s_req_cancel(kj->logreq);
	if (kj->ready_timer)
		sl_loop_del_timer(kj->x->loop, kj->ready_timer);
	if (kj->limit_timer)
		sl_loop_del_timer(kj->x->loop, kj->limit_timer);
	json_object_put(kj->obj);
	for (size_t i = 0; i < kj->npods; i++)
		json_object_put(kj->pods[i]);
	free(kj->pods);
	sl_job_free(kj->job);
	free(kj->ns);
	free(kj->name);
	free(kj->body);
	free(kj->why);
	free(kj->log_pod);
	free(kj);
}

/* ---- ops ---- */

static int connect_api(struct sl_exec_k8s *x, const struct sl_kubeconf *kc, struct sl_err *err)
{
	struct sl_kubeconfig_opts ko = {0};
	struct sl_k8s_http_opts ho = {0};
	const char *sa = getenv("SLUICE_K8S_SA_DIR"); /* tests: a fake service account */
	int r;

	if (kc != NULL) {
		ko.path = kc->kubeconfig;
		ko.context = kc->context;
		ko.in_cluster = kc->in_cluster;
	}
	ho.qps = kc != NULL && kc->qps > 0 ? (double)kc->qps : 50;
	ho.burst = kc != NULL && kc->burst > 0 ? (int)kc->burst : 100;
	ko.sa_dir = sa && *sa ? sa : NULL;
	ho.retry_deadline_ms = -1; /* an API server outage loses nothing */
	if ((r = sl_kubeconfig_load(&ko, &x->kc, err)) != 0 ||
	    (r = sl_k8s_http_new(x->loop, x->kc, &ho, &x->http, err)) != 0)
		return r;
	sl_info("kubernetes: %s (context %s, namespace default %s)", x->kc->server,
		x->kc->context ? x->kc->context : "-", x->kc->ns ? x->kc->ns : "default");
	return 0;
}

static void ops_destroy(void *p)
{
	struct sl_exec_k8s *x = p;
	if (x == NULL)
		return;
	sl_k8sexec_watch_stop(x);
	sl_k8sexec_nodes_stop(x);
	while (x->jobs != NULL) {
		struct kjob *kj = x->jobs;
		x->jobs = kj->next;
		kjob_free(kj);
	}
	sl_k8sexec_delete_drop(x);
	sl_evq_free(x->evq);
	sl_k8s_http_free(x->http);
	sl_kubeconfig_free(x->kc);
	free(x->cluster);
	free(x);
}

static void *ops_create(struct sl_loop *loop, const struct sl_exec_conf *conf,
			const struct sl_exec_events *ev, void *arg, struct sl_err *err)
{
	struct sl_exec_k8s *x = sl_xcalloc(1, sizeof(*x));
	x->loop = loop;
	x->confp = conf->confp;
	x->cluster = sl_xstrdup(conf->cluster && *conf->cluster ? conf->cluster : "sluice");
	x->kill_wait = conf->kill_wait > 0 ? conf->kill_wait : 30;
	x->evq = sl_evq_new(loop, ev, arg);
	if (x->confp == NULL) {
		sl_err_set(err, SL_EINTERNAL, "kubernetes executor: no configuration");
		goto fail;
	}
	if (connect_api(x, sl_conf_kubernetes(*x->confp), err) != 0 ||
	    sl_k8sexec_watch_start(x, err) != 0)
		goto fail;
	sl_k8sexec_nodes_start(x);
	return x;
fail:
	ops_destroy(x);
	return NULL;
}

static int ops_start(void *p, const struct sl_job *job, struct sl_err *err)
{
	struct sl_exec_k8s *x = p;
	struct kjob *kj;
	int r;

	if ((kj = sl_k8sexec_job_find(x, job->id)) != NULL && kj->phase != KJ_DONE)
		return sl_err_set(err, SL_EEXIST, "job %llu already runs",
				  (unsigned long long)job->id);
	kj = kjob_new(x, job);
	/* A job that cannot be rendered fails now, in the daemon's hands. */
	if ((r = sl_k8sexec_render(kj, err)) != 0) {
		x->jobs = kj->next;
		kjob_free(kj);
		return r;
	}
	sl_k8sexec_create(kj);
	return 0;
}

static int end_op(struct sl_exec_k8s *x, uint64_t id, enum sl_jobstate as, struct sl_err *err)
{
	struct kjob *kj = sl_k8sexec_job_find(x, id);
	if (kj == NULL || kj->phase == KJ_DONE)
		return sl_err_set(err, SL_ENOENT, "job %llu is not running here",
				  (unsigned long long)id);
	sl_k8sexec_end(kj, as, NULL);
	return 0;
}

static int ops_cancel(void *p, uint64_t id, struct sl_err *err)
{
	return end_op(p, id, SL_JOB_CANCELLED, err);
}

static int ops_preempt(void *p, uint64_t id, struct sl_err *err)
{
	return end_op(p, id, SL_JOB_PREEMPTED, err);
}

static int ops_signal(void *p, uint64_t id, int signo, struct sl_err *err)
{
	return sl_err_set(err, SL_EUNSUPP, "signals are not supported by the kubernetes executor");
}

static int ops_adopt(void *p, const struct sl_job *job, struct sl_err *err)
{
	struct sl_exec_k8s *x = p;
	struct kjob *kj = sl_k8sexec_job_find(x, job->id);
	if (kj != NULL)
		return sl_err_set(err, SL_EEXIST, "job %llu already followed",
				  (unsigned long long)job->id);
	kj = kjob_new(x, job);
	kj->phase = KJ_ADOPTING;
	/* RUNNING means its pods were all ready once: the gang timeout is over
	 * for this attempt (Kueue's PodsReady stays True). */
	kj->ready = job->state == SL_JOB_RUNNING || job->state == SL_JOB_SUSPENDED;
	/* The kind, not the object: the lists decide whether it exists. */
	kj->kind = sl_render_kind(&(struct sl_render_in){.job = kj->job,
							 .kube = sl_conf_kubernetes(*x->confp)});
	sl_k8sexec_suspend_adopt(kj, job);
	/* A cancel or requeue the last daemon acknowledged may never have sent
	 * its DELETE (it follows the reply: sluiced's acts.c), or never had
	 * its answer: the record says so (COMPLETING, the requeue mark). The
	 * DELETE goes now, without waiting for the lists: an object already
	 * gone answers 404, which ends the job all the same, where the lists
	 * would find it missing and create it again. A cancel wins over a
	 * requeue, as in sl_lifecycle_finished(). */
	if (job->state == SL_JOB_COMPLETING)
		sl_k8sexec_end(kj, SL_JOB_CANCELLED, NULL);
	else if (job->requeue_mark > 0)
		sl_k8sexec_end(kj, SL_JOB_PREEMPTED, NULL); /* the requeue op: preempt */
	return 0;
}

/* The daemon committed an end it was told about, so the reported (DONE)
 * entry goes first: a new attempt started under the same id before the old
 * entry was forgotten must not be the one freed. */
static void ops_forget(void *p, uint64_t id)
{
	struct sl_exec_k8s *x = p;
	struct kjob **hit = NULL;
	for (struct kjob **pp = &x->jobs; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->id != id)
			continue;
		if (hit == NULL || (*pp)->phase == KJ_DONE)
			hit = pp;
		if ((*pp)->phase == KJ_DONE)
			break;
	}
	if (hit != NULL) {
		struct kjob *kj = *hit;
		*hit = kj->next;
		kjob_free(kj);
	}
}

static int ops_suspend(void *p, uint64_t id, int resume, struct sl_err *err)
{
	struct kjob *kj = sl_k8sexec_job_find(p, id);
	if (kj == NULL || kj->phase == KJ_DONE)
		return sl_err_set(err, SL_ENOENT, "job %llu is not running here",
				  (unsigned long long)id);
	return sl_k8sexec_suspend(kj, resume, err);
}

static size_t ops_nodes(void *p, const struct sl_exec_node **out)
{
	return sl_k8sexec_nodes(p, out);
}

static int ops_node_drain(void *p, const char *node, const char *reason, const char *user,
			  struct sl_err *err)
{
	return sl_k8sexec_node_drain(p, node, reason, user, err);
}

/* What the renderer cannot express is refused at submit (k8s/render.c). */
static int ops_check(const struct sl_conf *conf, const struct sl_jobspec *spec,
		     struct sl_err *err)
{
	return sl_render_check(sl_conf_kubernetes(conf), spec, err);
}

const struct sl_executor sl_executor_k8s = {
	.name = "kubernetes", .reports_ready = 1, .check = ops_check, .create = ops_create,
	.destroy = ops_destroy, .start = ops_start, .cancel = ops_cancel, .preempt = ops_preempt,
	.signal = ops_signal, .adopt = ops_adopt, .forget = ops_forget,
	.suspend = ops_suspend, .nodes = ops_nodes, .node_drain = ops_node_drain,
};
