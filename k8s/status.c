/* status.c - JobSet/MPIJob + pods -> Slurm state (see status.h). The rules
 * come from ../shared/k8s/targets.md: JobSet has no Running condition, so
 * readiness is counted on pods; exit codes live only in the pods'
 * terminated states; a JobSet's timeout shows only on its failed child Job.
 * What differs by kind comes from its row (kinds.h); the rows' pod counts
 * and pod orders are here. */
#include "k8s/status.h"
#include "k8s/kinds.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "xalloc.h"

#define MPI_ROLE "training.kubeflow.org/replica-type"
#define INDEX "batch.kubernetes.io/job-completion-index"
#define JOB_INDEX "jobset.sigs.k8s.io/job-index"

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;
	if (o == NULL || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

static const char *str(json_object *o, const char *k)
{
	json_object *v = get(o, k);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static int num(json_object *o, const char *k, int dflt)
{
	json_object *v = get(o, k);
	return v && json_object_is_type(v, json_type_int) ? json_object_get_int(v) : dflt;
}

const char *sl_k8s_obj_meta(json_object *obj, const char *field)
{
	return str(get(obj, "metadata"), field);
}

const char *sl_k8s_obj_label(json_object *obj, const char *key)
{
	return str(get(get(obj, "metadata"), "labels"), key);
}

/* conditions[type == t && status == "True"], or NULL. */
static json_object *condition(json_object *status, const char *t)
{
	json_object *c = get(status, "conditions");
	size_t n = c && json_object_is_type(c, json_type_array) ? json_object_array_length(c) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(c, i);
		const char *ty = str(e, "type"), *st = str(e, "status");
		if (ty && st && strcmp(ty, t) == 0 && strcmp(st, "True") == 0)
			return e;
	}
	return NULL;
}

static int pod_ready(json_object *pod)
{
	json_object *st = get(pod, "status");
	const char *phase = str(st, "phase");
	if (phase && (strcmp(phase, "Succeeded") == 0 || strcmp(phase, "Failed") == 0))
		return 1;
	return condition(st, "Ready") != NULL;
}

static json_object *terminated(json_object *pod)
{
	json_object *cs = get(get(pod, "status"), "containerStatuses");
	if (cs == NULL || !json_object_is_type(cs, json_type_array) ||
	    json_object_array_length(cs) == 0)
		return NULL;
	return get(get(json_object_array_get_idx(cs, 0), "state"), "terminated");
}

static int pod_evicted(json_object *pod)
{
	const char *r = str(get(pod, "status"), "reason");
	return (r && strcmp(r, "Evicted") == 0) || condition(get(pod, "status"), "DisruptionTarget");
}

static int pod_failed(json_object *pod)
{
	json_object *t = terminated(pod);
	const char *r = t ? str(t, "reason") : NULL;
	return t && (num(t, "exitCode", 0) != 0 || (r && strcmp(r, "OOMKilled") == 0));
}

/* JobSet pods: by Job index, then completion index. */
long sl_k8s_status_jobset_rank(json_object *pod)
{
	const char *v = sl_k8s_obj_label(pod, JOB_INDEX);
	long job = v ? atol(v) : 0;
	v = sl_k8s_obj_label(pod, INDEX);
	if (v == NULL)
		v = str(get(get(pod, "metadata"), "annotations"), INDEX);
	return job * 100000 + (v ? atol(v) : 1L << 16);
}

/* MPIJob pods: the launcher, then the workers by index. */
long sl_k8s_status_mpijob_rank(json_object *pod)
{
	const char *v = sl_k8s_obj_label(pod, MPI_ROLE);
	if (v && strcmp(v, "launcher") == 0)
		return -1;
	v = sl_k8s_obj_label(pod, "training.kubeflow.org/replica-index");
	return v ? atol(v) : 1L << 30;
}

struct podset {
	json_object **v;
	size_t n;
};

static int by_rank(const void *a, const void *b, void *kind)
{
	const struct sl_k8s_kind *k = kind;
	long x = k->rank(*(json_object *const *)a), y = k->rank(*(json_object *const *)b);
	if (x != y)
		return x < y ? -1 : 1;
	return strcmp(sl_k8s_obj_meta(*(json_object *const *)a, "name") ?: "",
		      sl_k8s_obj_meta(*(json_object *const *)b, "name") ?: "");
}

/* The object's own pods, in rank order. */
static void own_pods(const struct sl_k8s_kind *k, json_object *obj, json_object *const *pods,
		     size_t npods, struct podset *ps)
{
	const char *name = sl_k8s_obj_meta(obj, "name");
	ps->v = sl_xcalloc(npods + 1, sizeof(*ps->v));
	ps->n = 0;
	for (size_t i = 0; i < npods; i++) {
		const char *o = sl_k8s_obj_label(pods[i], k->owner_label);
		if (name && o && strcmp(o, name) == 0)
			ps->v[ps->n++] = pods[i];
	}
	qsort_r(ps->v, ps->n, sizeof(*ps->v), by_rank, (void *)k);
}

int sl_k8s_status_jobset_pods(json_object *obj)
{
	json_object *rjs = get(get(obj, "spec"), "replicatedJobs");
	size_t n = rjs && json_object_is_type(rjs, json_type_array) ? json_object_array_length(rjs) : 0;
	int64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *rj = json_object_array_get_idx(rjs, i);
		json_object *js = get(get(rj, "template"), "spec");
		int par = num(js, "parallelism", 1), comp = num(js, "completions", par);
		int64_t k = (int64_t)num(rj, "replicas", 1) * (par < comp ? par : comp);
		/* The API server's numbers: negative ones count nothing, and the
		 * sum stops at what an int holds rather than wrap. */
		total += k > 0 ? k : 0;
		if (total > INT_MAX)
			return INT_MAX;
	}
	return (int)total;
}

int sl_k8s_status_mpijob_pods(json_object *obj)
{
	json_object *w = get(get(get(obj, "spec"), "mpiReplicaSpecs"), "Worker");
	int workers = num(w, "replicas", 0);
	return workers < INT_MAX ? workers + 1 : INT_MAX; /* and the launcher */
}

static void set_nodelist(struct sl_k8s_status *s, const struct podset *ps)
{
	char **names = sl_xcalloc(ps->n + 1, sizeof(*names));
	size_t k = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const char *node = str(get(ps->v[i], "spec"), "nodeName");
		if (node != NULL)
			names[k++] = (char *)node;
	}
	if (k > 0)
		s->nodelist = sl_hostlist_compress(names, k);
	free(names);
}

/* The exit of pod p: OOMKilled, evicted, exit code (> 128: a signal). */
static void pod_end(struct sl_k8s_status *s, json_object *p)
{
	json_object *t = terminated(p);
	const char *r = t ? str(t, "reason") : NULL;
	int code = t ? num(t, "exitCode", 0) : 0;

	if (pod_evicted(p)) {
		s->state = SL_JOB_NODE_FAIL;
		snprintf(s->reason, sizeof(s->reason), "NodeFail");
		snprintf(s->message, sizeof(s->message), "%s", str(get(p, "status"), "message") ?: "");
		return;
	}
	if (r && strcmp(r, "OOMKilled") == 0) {
		s->state = SL_JOB_OUT_OF_MEMORY;
		s->exit_code = 0;
		s->exit_signal = 9;
		snprintf(s->reason, sizeof(s->reason), "OutOfMemory");
		return;
	}
	s->state = SL_JOB_FAILED;
	if (code > 128 && code < 160) { /* a signal: FAIL_LAUNCH, as slurmctld */
		s->exit_signal = code - 128;
		s->exit_code = 0;
	} else {
		s->exit_code = code & 0xff;
	}
	snprintf(s->reason, sizeof(s->reason), "%s",
		 s->exit_signal ? "JobLaunchFailure" : "NonZeroExitCode");
}

/* Which pod explains a failure: an evicted one, else the script's pod if it
 * failed, else the first failed one. */
static json_object *culprit(const struct podset *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		if (pod_evicted(ps->v[i]))
			return ps->v[i];
	for (size_t i = 0; i < ps->n; i++)
		if (pod_failed(ps->v[i]))
			return ps->v[i];
	return NULL;
}

static void failed(struct sl_k8s_status *s, json_object *cond, const struct podset *ps)
{
	const char *reason = str(cond, "reason") ?: "", *msg = str(cond, "message") ?: "";
	json_object *p = culprit(ps);

	s->phase = SL_KST_FINISHED;
	snprintf(s->message, sizeof(s->message), "%s%s%s", reason, *msg ? ": " : "", msg);
	if (strcmp(reason, "MPIJobEvicted") == 0) {
		s->state = SL_JOB_NODE_FAIL;
		snprintf(s->reason, sizeof(s->reason), "NodeFail");
		return;
	}
	if (strncmp(reason, "DeadlineExceeded", 16) == 0) {
		s->state = SL_JOB_TIMEOUT;
		snprintf(s->reason, sizeof(s->reason), "TimeLimit");
		return;
	}
	/* "... (first failed job: NAME)": its Failed reason tells a timeout
	 * (pods killed at the deadline look like any other failure). */
	const char *f = strstr(msg, "first failed job: ");
	if (f != NULL) {
		f += strlen("first failed job: ");
		s->failed_job = sl_xstrndup(f, strcspn(f, ")"));
	}
	if (p != NULL) {
		s->explained = 1;
		pod_end(s, p);
		return;
	}
	s->state = SL_JOB_FAILED;
	s->exit_code = 1;
	snprintf(s->reason, sizeof(s->reason), "NonZeroExitCode");
}

void sl_k8s_status_eval(const struct sl_k8s_kind *k, json_object *obj, json_object *const *pods,
			size_t npods, struct sl_k8s_status *out)
{
	json_object *st = get(obj, "status"), *c;
	struct podset ps;

	memset(out, 0, sizeof(*out));
	own_pods(k, obj, pods, npods, &ps);
	out->nexpected = k->pods(obj);
	for (size_t i = 0; i < ps.n; i++)
		out->nready += pod_ready(ps.v[i]);
	if (ps.n > 0)
		out->log_pod = sl_xstrdup(sl_k8s_obj_meta(ps.v[0], "name") ?: "");
	snprintf(out->reason, sizeof(out->reason), "None");
	out->state = SL_JOB_CONFIGURING;
	if ((c = condition(st, k->succeeded)) != NULL) {
		out->phase = SL_KST_FINISHED;
		out->state = SL_JOB_COMPLETED;
		out->explained = 1;
	} else if ((c = condition(st, "Failed")) != NULL) {
		failed(out, c, &ps);
	} else if (out->nready >= out->nexpected && out->nexpected > 0) {
		out->phase = SL_KST_READY;
		out->state = SL_JOB_RUNNING;
	}
	if (out->phase != SL_KST_WAITING || out->nready >= out->nexpected)
		set_nodelist(out, &ps);
	free(ps.v);
}

void sl_k8s_status_clear(struct sl_k8s_status *s)
{
	if (s == NULL)
		return;
	free(s->nodelist);
	free(s->log_pod);
	free(s->failed_job);
	memset(s, 0, sizeof(*s));
}

int sl_k8s_status_job_deadline(json_object *job)
{
	json_object *c = condition(get(job, "status"), "Failed");
	const char *r = c ? str(c, "reason") : NULL;
	return r && strcmp(r, "DeadlineExceeded") == 0;
}
