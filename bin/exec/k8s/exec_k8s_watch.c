/* exec_k8s_watch.c - a job's object in the cluster, from its create to its
 * end. A job becomes one object of its kind (k8s/kinds.h), rendered and
 * serialized once (k8s/render.h), created once under a deterministic name; a
 * create answered 409 means it is already there (a retry after a lost reply,
 * or a daemon restart): it is read back and adopted if its labels say it is
 * this job's of this cluster, so no attempt ever gets two objects.
 *
 * Then watches selected by this cluster's label, one per kind of object and
 * one for pods, never a poll. Every event updates the job's cached object or
 * pods and re-evaluates what they mean (k8s/status.h): starting, all pods
 * ready (RUNNING), or over (exec_k8s_logs.c finishes it). After each
 * (re)list the full set is reconciled: objects of live jobs are adopted,
 * objects of jobs that ended, were cancelled or are unknown are deleted, and
 * a live job whose object is missing after a restart gets it created.
 *
 * The gang rule (Kueue's waitForPodsReady): a timer from the admission of
 * the attempt (the job record's start time, so a restart of sluiced does not
 * restart it); if the pods are not all ready when it fires, the job is
 * evicted. Calls down only: exec_k8s_logs.c and the job table. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf.h"
#include "k8s/status.h"
#include "kueue.h"
#include "log.h"
#include "loop.h"
#include "xalloc.h"

/* ---- state ---- */

static void eval(struct kjob *kj);

/* Take obj (a reference) as the job's current object. */
static void set_obj(struct kjob *kj, json_object *obj)
{
	json_object_get(obj);
	json_object_put(kj->obj);
	kj->obj = obj;
}

/* Add or replace (by name) a pod of the job. */
static void put_pod(struct kjob *kj, json_object *pod)
{
	const char *name = sl_k8s_obj_meta(pod, "name");
	for (size_t i = 0; i < kj->npods; i++) {
		const char *n = sl_k8s_obj_meta(kj->pods[i], "name");
		if (name && n && strcmp(n, name) == 0) {
			json_object_put(kj->pods[i]);
			kj->pods[i] = json_object_get(pod);
			return;
		}
	}
	kj->pods = sl_xgrow(kj->pods, &kj->cappods, kj->npods + 1, sizeof(*kj->pods));
	kj->pods[kj->npods++] = json_object_get(pod);
}

static void report_ready(struct kjob *kj, const char *nodelist)
{
	kj->ready = 1;
	if (kj->ready_timer)
		sl_loop_del_timer(kj->x->loop, kj->ready_timer);
	kj->ready_timer = 0;
	sl_evq_ready(kj->x->evq, kj->id, nodelist);
}

static void on_child_job(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	kj->call = NULL;
	if (rc == 0 && sl_k8s_status_job_deadline(obj)) {
		kj->res.state = SL_JOB_TIMEOUT;
		kj->res.exit_code = 0;
		kj->res.exit_signal = 0;
		snprintf(kj->res.reason, sizeof(kj->res.reason), "TimeLimit");
	}
	sl_k8sexec_finish(kj);
}

static void finished(struct kjob *kj, const struct sl_k8s_status *st)
{
	struct sl_exec_result *r = &kj->res;
	memset(r, 0, sizeof(*r));
	r->state = st->state;
	r->exit_code = st->exit_code;
	r->exit_signal = st->exit_signal;
	r->start_time = kj->start;
	snprintf(r->reason, sizeof(r->reason), "%s", st->reason);
	snprintf(r->message, sizeof(r->message), "%s", st->message);
	kj->phase = KJ_FINISHING;
	sl_k8sexec_job_call(kj, NULL); /* a pod LIST the watch overtook: the end is known */
	if (st->failed_job != NULL) {
		/* Only the failed child Job tells a timeout from a failure: one read. */
		char *item = sl_xasprintf("/apis/batch/v1/namespaces/%s/jobs/%s", kj->ns,
					  st->failed_job);
		sl_k8sexec_job_call(kj, sl_k8s_get(kj->x->http, item, on_child_job, kj));
		free(item);
		return;
	}
	sl_k8sexec_finish(kj);
}

static void on_pods(int rc, json_object *list, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	json_object *items = NULL;
	kj->call = NULL;
	kj->pods_listed = 1;
	if (rc == 0 && json_object_object_get_ex(list, "items", &items))
		for (size_t i = 0; i < json_object_array_length(items); i++)
			put_pod(kj, json_object_array_get_idx(items, i));
	eval(kj);
}

/* The object says failed but no pod seen yet says how: the pod watch lags.
 * One LIST of the object's pods answers (a read, once per failed job). */
static int list_pods(struct kjob *kj)
{
	struct sl_k8s_list_opts o = {0};
	char *sel, *coll;
	if (kj->pods_listed || kj->call != NULL)
		return kj->call != NULL;
	sel = sl_xasprintf("%s=%s", kj->kind->owner_label, kj->name);
	coll = sl_xasprintf("/api/v1/namespaces/%s/pods", kj->ns);
	o.label_selector = sel;
	sl_k8sexec_job_call(kj, sl_k8s_list(kj->x->http, coll, &o, on_pods, kj));
	free(sel);
	free(coll);
	return 1;
}

static void eval(struct kjob *kj)
{
	struct sl_k8s_status st;
	struct sl_err err = SL_ERR_INIT;

	if (kj->phase != KJ_LIVE || kj->obj == NULL)
		return;
	if (sl_k8s_kind_status(kj->obj, kj->pods, kj->npods, &st, &err) != 0) {
		sl_warn("job %llu: %s", (unsigned long long)kj->id, err.msg);
		return;
	}
	/* No pod seen says how it ended, or which pod holds the log. */
	if (st.phase == SL_KST_FINISHED && (!st.explained || st.log_pod == NULL) && list_pods(kj)) {
		sl_k8s_status_clear(&st);
		return;
	}
	if (st.phase == SL_KST_FINISHED) {
		/* keep the script's pod name for the log */
		free(kj->log_pod);
		kj->log_pod = st.log_pod ? sl_xstrdup(st.log_pod) : NULL;
		finished(kj, &st);
	} else if (st.phase == SL_KST_READY && !kj->ready) {
		report_ready(kj, st.nodelist);
	}
	sl_k8s_status_clear(&st);
}

/* ---- the pods-ready timeout ---- */

static void on_ready_timeout(struct sl_loop *l, uint64_t id, void *arg)
{
	struct kjob *kj = arg;
	char why[256];
	kj->ready_timer = 0;
	if (kj->ready || kj->phase != KJ_LIVE)
		return;
	/* After a restart the deadline may be past before the pods are even
	 * listed: only the list can say they are not ready. It re-arms. */
	if (!(kj->x->listed & KJ_LISTED_PODS))
		return;
	snprintf(why, sizeof(why), "Exceeded the PodsReady timeout %s/%s", kj->ns, kj->name);
	sl_info("job %llu: %s: evicted", (unsigned long long)kj->id, why);
	sl_k8sexec_end(kj, SL_JOB_PENDING, why);
}

/* Kueue counts the timeout from the workload's admission (its PodsReady=False
 * transition), not from when a controller last looked: the deadline is the
 * attempt's admission time (kj->start, persisted in the job record) plus the
 * timeout. Cost: the record keeps whole seconds, so the deadline can come up
 * to a second early, as Kueue's own (condition times are whole seconds). */
static void ready_arm(struct kjob *kj)
{
	const struct sl_kueue *k = sl_conf_kueue(*kj->x->confp);
	struct timespec now;
	int64_t ms, left;
	if (k == NULL || !k->config.wfpr_enable || kj->ready || kj->ready_timer)
		return;
	ms = k->config.wfpr_timeout_ms > 0 ? k->config.wfpr_timeout_ms : 300000;
	clock_gettime(CLOCK_REALTIME, &now);
	left = kj->start * 1000 + ms - ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
	if (left > ms)
		left = ms; /* a clock stepped back gives no more than one timeout */
	kj->ready_timer =
		sl_loop_add_timer(kj->x->loop, left > 0 ? left : 0, on_ready_timeout, kj);
}

/* ---- create / adopt ---- */

static void launch_failed(struct kjob *kj, const char *why)
{
	struct sl_exec_result res = {
		.state = SL_JOB_FAILED, .exit_signal = 53, .launch_failed = 1};
	snprintf(res.reason, sizeof(res.reason), "JobLaunchFailure");
	snprintf(res.message, sizeof(res.message), "%s", why);
	res.start_time = kj->start;
	sl_err_log("job %llu: %s: %s", (unsigned long long)kj->id, kj->name, why);
	sl_k8sexec_job_report(kj, &res);
}

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
	free(kj->body); /* it exists: no create will need the body again */
	kj->body = NULL;
	/* The watch may have shown a newer version before this reply came. */
	if (kj->obj == NULL)
		set_obj(kj, obj);
	kj->phase = KJ_LIVE;
	if (kj->want_end) {
		sl_k8sexec_end(kj, kj->end_as, kj->why);
		return;
	}
	ready_arm(kj);
	eval(kj);
}

static void on_get(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct kjob *kj = arg;
	char why[300];
	kj->call = NULL;
	if (rc == -SL_ENOENT) { /* deleted between the 409 and now: try again */
		sl_k8sexec_create(kj);
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
		item = sl_k8s_kind_path(kj->kind, kj->ns, kj->name);
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
	sl_k8sexec_secret(kj, obj);
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

int sl_k8sexec_render(struct kjob *kj, struct sl_err *err)
{
	const struct sl_conf *conf = *kj->x->confp;
	struct sl_render_flavor fl[8];
	struct sl_render_in in = {
		.job = kj->job, .flavors = fl, .kube = sl_conf_kubernetes(conf),
		.features = sl_conf_features(conf), .cluster = kj->x->cluster,
		.pbs_server = sl_conf_pbs_server(conf),
		.attempt = kj->attempt, .kill_wait = kj->x->kill_wait,
	};
	char *buf = NULL;
	int r;

	in.nflavors = flavors(sl_conf_kueue(conf), kj->job->flavors, fl, 8, &buf);
	kj->kind = sl_render_kind(&in);
	free(kj->body);
	r = sl_render(&in, &kj->body, err);
	free(buf);
	return r;
}

void sl_k8sexec_create(struct kjob *kj)
{
	struct sl_err err = SL_ERR_INIT;
	char *coll;
	if (kj->body == NULL && sl_k8sexec_render(kj, &err) != 0) {
		launch_failed(kj, err.msg);
		return;
	}
	coll = sl_k8s_kind_path(kj->kind, kj->ns, NULL);
	kj->phase = KJ_CREATING;
	sl_k8sexec_job_call(kj, sl_k8s_create(kj->x->http, coll, kj->body, strlen(kj->body),
					      on_create, kj));
	free(coll);
}

/* ---- watches ---- */

static int parse_id(json_object *obj, uint64_t *id)
{
	const char *s = sl_k8s_obj_label(obj, "sluice.io/job-id");
	char *end;
	if (s == NULL || *s == '\0')
		return -1;
	*id = strtoull(s, &end, 10);
	return *end == '\0' ? 0 : -1;
}

static int is_deleting(json_object *obj)
{
	return sl_k8s_obj_meta(obj, "deletionTimestamp") != NULL;
}

/* ---- pods ---- */

static struct kjob *job_of(struct sl_exec_k8s *x, json_object *obj)
{
	uint64_t id;
	return parse_id(obj, &id) == 0 ? sl_k8sexec_job_find(x, id) : NULL;
}

static void pod_event(enum sl_k8s_watch_type type, json_object *pod, void *arg)
{
	struct kjob *kj = job_of(arg, pod);
	if (kj == NULL || type == SL_KW_BOOKMARK || type == SL_KW_ERROR)
		return;
	/* A deleted pod keeps its last state: its exit code may be the answer. */
	put_pod(kj, pod);
	eval(kj);
}

static void pods_relisted(json_object *items, const char *rv, void *arg)
{
	struct sl_exec_k8s *x = arg;
	size_t n = json_object_array_length(items);
	for (struct kjob *kj = x->jobs; kj != NULL; kj = kj->next) {
		for (size_t i = 0; i < kj->npods; i++)
			json_object_put(kj->pods[i]);
		kj->npods = 0;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *pod = json_object_array_get_idx(items, i);
		struct kjob *kj = job_of(x, pod);
		if (kj != NULL)
			put_pod(kj, pod);
	}
	x->listed |= KJ_LISTED_PODS;
	for (struct kjob *kj = x->jobs; kj != NULL; kj = kj->next) {
		eval(kj);
		if (kj->phase == KJ_LIVE)
			ready_arm(kj); /* a deadline that passed before this list */
	}
}

/* ---- objects ---- */

/* After a restart, the job's object found: followed again, and made to
 * say what the record says about suspension (exec_k8s_suspend.c). A
 * cancel or requeue the record holds never gets here: ops adopt sent its
 * DELETE at once. */
static void adopted(struct kjob *kj, json_object *obj)
{
	set_obj(kj, obj);
	kj->phase = KJ_LIVE;
	ready_arm(kj);
	sl_k8sexec_suspend_found(kj);
}

static int current_name(struct kjob *kj, json_object *obj)
{
	const char *name = sl_k8s_obj_meta(obj, "name"), *ns = sl_k8s_obj_meta(obj, "namespace");
	return name && ns && strcmp(name, kj->name) == 0 && strcmp(ns, kj->ns) == 0;
}

static void obj_event(enum sl_k8s_watch_type type, json_object *obj, void *arg)
{
	struct kwatch *kw = arg;
	struct kjob *kj = job_of(kw->x, obj);
	if (kj == NULL || !current_name(kj, obj))
		return;
	if (type == SL_KW_DELETED) {
		if (kj->phase == KJ_LIVE) { /* deleted behind our back */
			struct sl_exec_result res = {.state = SL_JOB_NODE_FAIL};
			snprintf(res.reason, sizeof(res.reason), "NodeFail");
			snprintf(res.message, sizeof(res.message), "%s/%s was deleted", kj->ns,
				 kj->name);
			res.start_time = kj->start;
			sl_k8sexec_job_report(kj, &res);
		}
		return;
	}
	if (type != SL_KW_ADDED && type != SL_KW_MODIFIED)
		return;
	if (kj->phase == KJ_ADOPTING)
		adopted(kj, obj);
	if (kj->phase == KJ_LIVE || kj->phase == KJ_CREATING) {
		set_obj(kj, obj);
		eval(kj);
	}
}

/* One object of a (re)list: adopt it, or delete it if no live job owns it. */
static void reconcile_one(struct kwatch *kw, json_object *obj)
{
	struct sl_exec_k8s *x = kw->x;
	struct kjob *kj = job_of(x, obj);
	const char *name = sl_k8s_obj_meta(obj, "name"), *ns = sl_k8s_obj_meta(obj, "namespace");
	char *item;

	if (name == NULL || ns == NULL)
		return;
	if (kj != NULL && current_name(kj, obj)) {
		if (kj->phase == KJ_ADOPTING) {
			sl_info("job %llu: adopted %s/%s", (unsigned long long)kj->id, ns, name);
			adopted(kj, obj);
		} else if (kj->phase == KJ_LIVE) {
			set_obj(kj, obj);
		}
		return; /* else the create or delete in flight decides */
	}
	if (is_deleting(obj))
		return;
	sl_info("reconcile: deleting %s/%s (its job is not running)", ns, name);
	item = sl_k8s_kind_path(kw->kind, ns, name);
	sl_k8sexec_delete(x, item, x->kill_wait);
	free(item);
}

static void objects_relisted(json_object *items, const char *rv, void *arg)
{
	struct kwatch *kw = arg;
	struct sl_exec_k8s *x = kw->x;
	size_t n = json_object_array_length(items);
	for (size_t i = 0; i < n; i++)
		reconcile_one(kw, json_object_array_get_idx(items, i));
	x->listed |= 1u << (kw - x->objs);
	if ((x->listed & (KJ_LISTED_PODS - 1)) != KJ_LISTED_PODS - 1)
		return;
	/* Every kind listed: a job still waiting for its object never got one. */
	for (struct kjob *kj = x->jobs; kj != NULL; kj = kj->next) {
		if (kj->phase == KJ_ADOPTING) {
			sl_info("job %llu: %s/%s missing: creating it", (unsigned long long)kj->id,
				kj->ns, kj->name);
			sl_k8sexec_create(kj);
		} else {
			eval(kj);
		}
	}
}

static void problem(const struct sl_err *err, void *arg)
{
	sl_debug("kubernetes watch: %s (retrying)", err->msg);
}

static const struct sl_k8s_watch_ops obj_ops = {objects_relisted, obj_event, problem};
static const struct sl_k8s_watch_ops pod_ops = {pods_relisted, pod_event, problem};

int sl_k8sexec_watch_start(struct sl_exec_k8s *x, struct sl_err *err)
{
	char *sel = sl_xasprintf("sluice.io/cluster=%s", x->cluster);
	struct sl_k8s_watch_opts o = {.label_selector = sel};

	for (size_t i = 0; i < SL_K8S_NKINDS; i++) {
		struct kwatch *kw = &x->objs[i];
		char *path = sl_k8s_kind_path(&sl_k8s_kinds[i], NULL, NULL);
		kw->x = x;
		kw->kind = &sl_k8s_kinds[i];
		o.path = path;
		kw->w = sl_k8s_watch_new(x->http, &o, &obj_ops, kw);
		free(path);
	}
	o.path = "/api/v1/pods";
	x->w_pods = sl_k8s_watch_new(x->http, &o, &pod_ops, x);
	free(sel);
	return 0;
}

void sl_k8sexec_watch_stop(struct sl_exec_k8s *x)
{
	for (size_t i = 0; i < SL_K8S_NKINDS; i++) {
		sl_k8s_watch_free(x->objs[i].w);
		x->objs[i].w = NULL;
	}
	sl_k8s_watch_free(x->w_pods);
	x->w_pods = NULL;
}
