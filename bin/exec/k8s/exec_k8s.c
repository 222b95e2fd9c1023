/* exec_k8s.c - the Kubernetes executor: an admitted job becomes one JobSet or
 * MPIJob (k8s/render.h), created once under a deterministic name. A create
 * answered 409 means the object is already there (a retry after a lost
 * reply, or a daemon restart): it is read back and adopted if its labels say
 * it is this job's of this cluster, so no attempt ever gets two objects.
 *
 * Events reach the daemon from a zero-delay timer, never from inside an ops
 * call or in the middle of a watch callback that still walks the job list. */
#include "exec_k8s.h"
#include "exec/executors.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf.h"
#include "conf_kube.h"
#include "k8s/status.h"
#include "kueue.h"
#include "log.h"
#include "loop.h"
#include "xalloc.h"

/* ---- the job table ---- */

struct kjob *sl_k8sexec_job_find(struct sl_exec_k8s *x, uint64_t id)
{
	for (struct kjob *k = x->jobs; k != NULL; k = k->next)
		if (k->id == id)
			return k;
	return NULL;
}

static struct kjob *kjob_new(struct sl_exec_k8s *x, const struct sl_job *job)
{
	struct kjob *kj = sl_xcalloc(1, sizeof(*kj));

	kj->x = x;
	kj->id = job->id;
	kj->attempt = job->attempt;
	kj->ns = sl_xstrdup(job->spec.account ? job->spec.account : "default");
	kj->name = sl_render_name(job->id, job->attempt);
	kj->job = sl_job_copy(job);
	kj->start = job->start_time > 0 ? job->start_time : (int64_t)time(NULL);
	kj->next = x->jobs;
	x->jobs = kj;
	return kj;
}

static void kjob_free(struct kjob *kj)
{
	sl_k8s_call_cancel(kj->call);
	sl_k8s_req_cancel(kj->logreq);
	if (kj->ready_timer)
		sl_loop_del_timer(kj->x->loop, kj->ready_timer);
	json_object_put(kj->obj);
	for (size_t i = 0; i < kj->npods; i++)
		json_object_put(kj->pods[i]);
	free(kj->pods);
	sl_job_free(kj->job);
	free(kj->ns);
	free(kj->name);
	free(kj->collection);
	free(kj->why);
	free(kj->log_pod);
	free(kj);
}

void sl_k8sexec_job_call(struct kjob *kj, struct sl_k8s_call *c)
{
	if (kj->call != c)
		sl_k8s_call_cancel(kj->call);
	kj->call = c;
}

void sl_k8sexec_job_set_obj(struct kjob *kj, json_object *obj)
{
	json_object_get(obj);
	json_object_put(kj->obj);
	kj->obj = obj;
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

void sl_k8sexec_job_ready(struct kjob *kj, const char *nodelist)
{
	kj->ready = 1;
	if (kj->ready_timer)
		sl_loop_del_timer(kj->x->loop, kj->ready_timer);
	kj->ready_timer = 0;
	sl_evq_ready(kj->x->evq, kj->id, nodelist);
}

static void launch_failed(struct kjob *kj, const char *why)
{
	struct sl_exec_result res = {.state = SL_JOB_FAILED, .exit_signal = 53};
	snprintf(res.reason, sizeof(res.reason), "JobLaunchFailure");
	snprintf(res.message, sizeof(res.message), "%s", why);
	res.start_time = kj->start;
	sl_err_log("job %llu: %s: %s", (unsigned long long)kj->id, kj->name, why);
	sl_k8sexec_job_report(kj, &res);
}

/* ---- create / adopt ---- */

/* The object is ours if it carries this job's id and this cluster's label. */
static int ours(struct kjob *kj, json_object *obj)
{
	const char *id = sl_k8s_obj_label(obj, "sluice.io/job-id");
	const char *cl = sl_k8s_obj_label(obj, "sluice.io/cluster");
	char want[32];
	snprintf(want, sizeof(want), "%llu", (unsigned long long)kj->id);
	return id && cl && strcmp(id, want) == 0 && strcmp(cl, kj->x->cluster) == 0;
}

static void live(struct kjob *kj, json_object *obj)
{
	/* The watch may have shown a newer version before this reply came. */
	if (kj->obj == NULL)
		sl_k8sexec_job_set_obj(kj, obj);
	kj->phase = KJ_LIVE;
	if (kj->want_end) {
		sl_k8sexec_job_end(kj, kj->end_as, kj->why);
		return;
	}
	sl_k8sexec_ready_arm(kj);
	sl_k8sexec_job_eval(kj);
}

static void on_get(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	char why[300];
	kj->call = NULL;
	if (rc == -SL_ENOENT) { /* deleted between the 409 and now: try again */
		sl_k8sexec_job_create(kj);
		return;
	}
	if (rc != 0) {
		launch_failed(kj, err->msg);
		return;
	}
	if (!ours(kj, obj)) {
		snprintf(why, sizeof(why), "%s/%s exists and belongs to another job or cluster",
			 kj->ns, kj->name);
		launch_failed(kj, why);
		return;
	}
	sl_info("job %llu: adopted %s/%s", (unsigned long long)kj->id, kj->ns, kj->name);
	live(kj, obj);
}

static void on_create(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	char *item;
	kj->call = NULL;
	if (rc == -SL_EEXIST) {
		item = sl_xasprintf("%s/%s", kj->collection, kj->name);
		sl_k8sexec_job_call(kj, sl_k8s_get(kj->x->http, item, on_get, kj));
		free(item);
		return;
	}
	if (rc != 0) {
		if (kj->want_end) { /* nothing was created: the end is immediate */
			struct sl_exec_result res = {.state = kj->end_as};
			snprintf(res.reason, sizeof(res.reason), "None");
			sl_k8sexec_job_report(kj, &res);
			return;
		}
		launch_failed(kj, err->msg);
		return;
	}
	sl_debug("job %llu: created %s/%s", (unsigned long long)kj->id, kj->ns, kj->name);
	live(kj, obj);
}

/* job->flavors "cpu=default,memory=default" -> the renderer's records;
 * *buf keeps the resource names alive. */
static size_t flavors(const struct sl_kueue *k, const char *text, struct sl_render_flavor *fl,
		      size_t cap, char **buf)
{
	char *save = NULL, *tok;
	size_t n = 0;
	*buf = sl_xstrdup(text ? text : "");
	for (tok = strtok_r(*buf, ",", &save); tok && n < cap; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const struct sl_kq_flavor *f;
		if (eq == NULL)
			continue;
		*eq = '\0';
		if ((f = sl_kueue_find_flavor(k, eq + 1)) != NULL)
			fl[n++] = (struct sl_render_flavor){tok, f};
	}
	return n;
}

static int render(struct kjob *kj, json_object **out, struct sl_err *err)
{
	const struct sl_conf *conf = *kj->x->confp;
	struct sl_render_flavor fl[8];
	struct sl_render_in in;
	char *buf = NULL, *json = NULL;
	int r;

	memset(&in, 0, sizeof(in));
	in.job = kj->job;
	in.nflavors = flavors(sl_conf_kueue(conf), kj->job->flavors, fl, 8, &buf);
	in.flavors = fl;
	in.kube = sl_conf_kubernetes(conf);
	in.features = sl_conf_features(conf);
	in.cluster = kj->x->cluster;
	in.attempt = kj->attempt;
	in.kill_wait = kj->x->kill_wait;
	kj->kind = sl_render_kind(&in);
	if ((r = sl_render(&in, &json, err)) == 0 && (*out = json_tokener_parse(json)) == NULL)
		r = sl_err_set(err, SL_EINTERNAL, "rendered JSON does not parse");
	free(buf);
	free(json);
	return r;
}

void sl_k8sexec_job_create(struct kjob *kj)
{
	struct sl_err err = SL_ERR_INIT;
	json_object *obj = NULL;
	if (render(kj, &obj, &err) != 0) {
		launch_failed(kj, err.msg);
		return;
	}
	free(kj->collection);
	kj->collection = sl_k8sexec_collection(kj->kind, kj->ns);
	kj->phase = KJ_CREATING;
	sl_k8sexec_job_call(kj, sl_k8s_create(kj->x->http, kj->collection, obj, on_create, kj));
	json_object_put(obj);
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
		ho.qps = kc->qps > 0 ? (double)kc->qps : 50;
		ho.burst = kc->burst > 0 ? (int)kc->burst : 100;
	} else {
		ho.qps = 50;
		ho.burst = 100;
	}
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
	return x;
fail:
	ops_destroy(x);
	return NULL;
}

static int ops_start(void *p, const struct sl_job *job, struct sl_err *err)
{
	struct sl_exec_k8s *x = p;
	struct kjob *kj;
	json_object *obj = NULL;
	int r;

	if ((kj = sl_k8sexec_job_find(x, job->id)) != NULL && kj->phase != KJ_DONE)
		return sl_err_set(err, SL_EEXIST, "job %llu already runs",
				  (unsigned long long)job->id);
	kj = kjob_new(x, job);
	/* A job that cannot be rendered fails now, in the daemon's hands. */
	if ((r = render(kj, &obj, err)) != 0) {
		x->jobs = kj->next;
		kjob_free(kj);
		return r;
	}
	json_object_put(obj);
	sl_k8sexec_job_create(kj);
	return 0;
}

static int end_op(struct sl_exec_k8s *x, uint64_t id, enum sl_jobstate as, struct sl_err *err)
{
	struct kjob *kj = sl_k8sexec_job_find(x, id);
	if (kj == NULL || kj->phase == KJ_DONE)
		return sl_err_set(err, SL_ENOENT, "job %llu is not running here",
				  (unsigned long long)id);
	sl_k8sexec_job_end(kj, as, NULL);
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
	kj->ready = job->state == SL_JOB_RUNNING;
	/* The renderer decides the kind; the lists decide whether it exists. */
	{
		json_object *obj = NULL;
		struct sl_err e = SL_ERR_INIT;
		if (render(kj, &obj, &e) == 0)
			json_object_put(obj);
		kj->collection = sl_k8sexec_collection(kj->kind, kj->ns);
	}
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
};
