/* client.c - the typed requests of the commands' side: build each request
 * (submit, jobs, cancel, control, hold, partitions, update, ping,
 * reconfigure, config), send it over a connection from client_conn.c and
 * turn the reply into structs or an error. */
#include "client.h"
#include "usage.h"
#include "client_int.h"
#include "job_proj.h"
#include "proto.h"
#include "xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* A key for one submission: sluiced gives a request that carries a key it
 * has seen (from the same user) that job's id instead of a new job, so a
 * submission whose reply was lost can be sent again. 16 bytes in hex: the
 * time in milliseconds (48 bits), then 80 random bits. Time first makes the
 * keys of a burst sort together, so the store's index of them grows at one
 * end rather than taking a random page per submission. Without randomness,
 * no key (and no safe retry). */
#define KEY_BYTES 16
#define KEY_TIME_BYTES 6
static int submit_key(char key[2 * KEY_BYTES + 1])
{
	unsigned char raw[KEY_BYTES];
	size_t got = KEY_TIME_BYTES;
	struct timespec now;
	uint64_t ms;

	clock_gettime(CLOCK_REALTIME, &now);
	ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
	for (int i = KEY_TIME_BYTES - 1; i >= 0; i--, ms >>= 8)
		raw[i] = (unsigned char)ms;
	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(key + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* The request text (job_text.c: no json-c tree per submission). */
static int submit_text(const struct sl_jobspec *spec, struct sl_buf **req, struct sl_err *err)
{
	char key[2 * KEY_BYTES + 1];

	*req = sl_buf_new(SL_PROTO_MAX_BODY);
	if (sl_buf_addstr(*req, "{\"spec\":") != 0 || sl_jobspec_text_append(*req, spec) != 0 ||
	    (submit_key(key) == 0 && sl_buf_addf(*req, ",\"submit_key\":\"%s\"", key) != 0) ||
	    sl_buf_addc(*req, '}') != 0)
		return sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
				  SL_PROTO_MAX_BODY);
	return 0;
}

/* *lost: the request may have reached sluiced but no reply came back (the
 * connection broke after the connect). */
static int submit_exchange(struct sl_client *c, const struct sl_buf *req, uint64_t *id,
			   int *lost, struct sl_err *err)
{
	json_object *rep = NULL, *v;
	int r;

	if ((r = sl_client_send_text(c, SL_MSG_SUBMIT, sl_buf_str(req), sl_buf_len(req), err)) != 0 ||
	    (r = sl_client_receive(c, SL_MSG_SUBMIT, &rep, err)) != 0) {
		*lost = r == -SL_ECONNECT;
		return r;
	}
	if (!json_object_object_get_ex(rep, "id", &v))
		r = sl_err_set(err, SL_EPROTO, "submit reply without an id");
	else
		*id = (uint64_t)json_object_get_int64(v);
	json_object_put(rep);
	return r;
}

int sl_client_submit(struct sl_client *c, const struct sl_jobspec *spec, uint64_t *id,
		     struct sl_err *err)
{
	struct sl_buf *req = NULL;
	int r, lost = 0;

	if ((r = submit_text(spec, &req, err)) == 0)
		r = submit_exchange(c, req, id, &lost, err);
	sl_buf_free(req);
	return r;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The request is written before connecting: sluiced, woken by the connect,
 * finds it already there and answers in the same turn. A reply lost to a
 * broken connection (sluiced restarting, killed) is asked for again, with
 * the same request and so the same key, for SLUICE_CONNECT_TIMEOUT seconds
 * after the first loss: the job is then submitted once, whether or not the
 * lost request had been taken. */
int sl_client_submit_once(const struct sl_jobspec *spec, uint64_t *id, struct sl_err *err)
{
	struct sl_buf *req = NULL;
	struct timespec lost_at = {0, 0};
	struct sl_err e = SL_ERR_INIT;
	int r, lost = 0;

	if ((r = submit_text(spec, &req, err)) != 0)
		goto out;
	for (int tries = 0;; tries++) {
		struct sl_client *c = NULL;
		lost = 0;
		sl_err_clear(&e);
		if ((r = sl_client_connect(NULL, &c, &e)) == 0)
			r = submit_exchange(c, req, id, &lost, &e);
		sl_client_free(c);
		if (r == 0 || !lost)
			break;
		if (tries == 0)
			clock_gettime(CLOCK_MONOTONIC, &lost_at);
		else if (since(&lost_at) >= sl_client_connect_budget())
			break;
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (r != 0)
		sl_err_set(err, e.code, "%s", e.msg);
out:
	sl_buf_free(req);
	return r;
}

static char *reply_str(json_object *o, const char *key)
{
	json_object *v;

	return sl_xstrdup(json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "");
}

int sl_client_test_only(const struct sl_jobspec *spec, struct sl_willrun *out,
			struct sl_err *err)
{
	struct sl_buf *req = sl_buf_new(SL_PROTO_MAX_BODY);
	struct sl_client *c = NULL;
	json_object *rep = NULL, *v;
	int r;

	memset(out, 0, sizeof(*out));
	/* no submit key: nothing is made, so nothing is to be found again;
	 * the flag goes inside the spec, where an older daemon refuses it */
	if (sl_buf_addstr(req, "{\"spec\":") != 0 || sl_jobspec_text_append(req, spec) != 0 ||
	    sl_buf_len(req) < 2) {
		r = sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
			       SL_PROTO_MAX_BODY);
		goto out;
	}
	sl_buf_truncate(req, sl_buf_len(req) - 1); /* the spec's closing brace */
	if (sl_buf_addstr(req, ",\"test_only\":1}}") != 0) {
		r = sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
			       SL_PROTO_MAX_BODY);
		goto out;
	}
	if ((r = sl_client_connect(NULL, &c, err)) != 0 ||
	    (r = sl_client_send_text(c, SL_MSG_SUBMIT, sl_buf_str(req), sl_buf_len(req), err)) != 0 ||
	    (r = sl_client_receive(c, SL_MSG_SUBMIT, &rep, err)) != 0)
		goto out;
	if (!json_object_object_get_ex(rep, "start", &v)) {
		r = sl_err_set(err, SL_EPROTO, "test-only reply without a start");
		goto out;
	}
	out->start = json_object_get_int64(v);
	if (json_object_object_get_ex(rep, "id", &v))
		out->id = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(rep, "cpus", &v))
		out->cpus = json_object_get_int(v);
	if (json_object_object_get_ex(rep, "shorter_time", &v))
		out->shorter_time = json_object_get_int64(v);
	if (json_object_object_get_ex(rep, "other_start", &v)) {
		out->other_start = json_object_get_int64(v);
		out->other_partition = reply_str(rep, "other_partition");
	}
	out->nodes = reply_str(rep, "nodes");
	out->partition = reply_str(rep, "partition");
out:
	json_object_put(rep);
	sl_client_free(c);
	sl_buf_free(req);
	return r;
}

int sl_client_jobs(struct sl_client *c, const struct sl_jobfilter *f,
		   struct sl_job ***jobs, size_t *n, struct sl_err *err)
{
	return sl_client_jobs_proj(c, f, NULL, jobs, n, err);
}

int sl_client_jobs_proj(struct sl_client *c, const struct sl_jobfilter *f,
			const struct sl_jobproj *p, struct sl_job ***jobs, size_t *n,
			struct sl_err *err)
{
	json_object *req = json_object_new_object();
	struct sl_buf *in = NULL;
	const char *body;
	size_t blen;
	int r;

	*jobs = NULL;
	*n = 0;
	json_object_object_add(req, "filter", sl_jobfilter_to_obj(f));
	if (p != NULL)
		json_object_object_add(req, "fields", sl_jobproj_to_obj(p));
	/* Thousands of records: read straight from the text (job_parse.c). */
	if ((r = sl_client_send_req(c, SL_MSG_JOBS, req, err)) == 0 &&
	    (r = sl_client_read_frame(c, SL_MSG_JOBS, &in, &body, &blen, err)) == 0)
		r = sl_job_list_parse(body, blen, jobs, n, err);
	sl_buf_free(in);
	return r;
}

int sl_client_query(const struct sl_jobfilter *f, struct sl_job ***jobs, size_t *n,
		    struct sl_err *err)
{
	return sl_client_query_proj(f, NULL, jobs, n, err);
}

int sl_client_query_proj(const struct sl_jobfilter *f, const struct sl_jobproj *p,
			 struct sl_job ***jobs, size_t *n, struct sl_err *err)
{
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);
	*jobs = NULL;
	*n = 0;
	if (r == 0)
		r = sl_client_jobs_proj(c, f, p, jobs, n, err);
	sl_client_free(c);
	return r;
}

/* rep's "results" into *res (caller frees), as the daemon's cancel and
 * control answer per job. */
static int results_from(json_object *rep, struct sl_jobresult **res, size_t *nres,
			struct sl_err *err)
{
	json_object *arr;
	size_t len, i;

	if (!json_object_object_get_ex(rep, "results", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return sl_err_set(err, SL_EPROTO, "reply without results");
	len = json_object_array_length(arr);
	*res = sl_xcalloc(len + 1, sizeof(**res));
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(arr, i), *v;
		struct sl_jobresult *x = &(*res)[i];
		if (json_object_object_get_ex(e, "id", &v))
			x->id = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(e, "code", &v))
			x->rc = -sl_errcode_from_name(json_object_get_string(v));
		if (json_object_object_get_ex(e, "error", &v))
			snprintf(x->msg, sizeof(x->msg), "%s", json_object_get_string(v));
		if (json_object_object_get_ex(e, "array_job_id", &v))
			x->array_job_id = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(e, "array_task_id", &v))
			x->array_task_id = json_object_get_int(v);
		if (json_object_object_get_ex(e, "ended", &v))
			x->ended = json_object_get_boolean(v);
	}
	*nres = len;
	return 0;
}

int sl_client_cancel(struct sl_client *c, const struct sl_jobfilter *f, int signal,
		     int batch_only, struct sl_jobresult **res, size_t *nres,
		     struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep;
	int r;

	*res = NULL;
	*nres = 0;
	json_object_object_add(req, "filter", sl_jobfilter_to_obj(f));
	json_object_object_add(req, "signal", json_object_new_int(signal));
	json_object_object_add(req, "batch", json_object_new_boolean(batch_only == 1));
	if (batch_only == 2)
		json_object_object_add(req, "full", json_object_new_boolean(1));
	if ((r = sl_client_call(c, SL_MSG_CANCEL, req, &rep, err)) != 0)
		return r;
	r = results_from(rep, res, nres, err);
	json_object_put(rep);
	return r;
}

static json_object *control_req(enum sl_control_op op, uint64_t id)
{
	static const char *ops[] = {[SL_CTL_HOLD] = "hold", [SL_CTL_RELEASE] = "release",
				    [SL_CTL_REQUEUE] = "requeue", [SL_CTL_UHOLD] = "uhold",
				    [SL_CTL_REQUEUE_HOLD] = "requeuehold", [SL_CTL_TOP] = "top",
				    [SL_CTL_SUSPEND] = "suspend", [SL_CTL_RESUME] = "resume"};
	json_object *req = json_object_new_object();

	json_object_object_add(req, "op", json_object_new_string(ops[op]));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	return req;
}

/* req (consumed), its reply read for its answer only. */
static int call_plain(struct sl_client *c, uint16_t type, json_object *req, struct sl_err *err)
{
	json_object *rep;
	int r;

	if ((r = sl_client_call(c, type, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}

/* req (returned) on array id's task, not on the job of id. */
static json_object *on_task(json_object *req, uint32_t task)
{
	json_object_object_add(req, "task", json_object_new_int64(task));
	return req;
}

int sl_client_control(struct sl_client *c, enum sl_control_op op, uint64_t id,
		      struct sl_err *err)
{
	return call_plain(c, SL_MSG_CONTROL, control_req(op, id), err);
}

int sl_client_control_task(struct sl_client *c, enum sl_control_op op, uint64_t id,
			   uint32_t task, struct sl_err *err)
{
	return call_plain(c, SL_MSG_CONTROL, on_task(control_req(op, id), task), err);
}

/* req (consumed) with "each": an array's tasks answer one by one into
 * *res; none for a plain job, which answers as without. */
static int call_each(struct sl_client *c, uint16_t type, json_object *req,
		     struct sl_jobresult **res, size_t *nres, struct sl_err *err)
{
	json_object *rep;
	int r;

	*res = NULL;
	*nres = 0;
	json_object_object_add(req, "each", json_object_new_boolean(1));
	if ((r = sl_client_call(c, type, req, &rep, err)) != 0)
		return r;
	if (json_object_object_get_ex(rep, "results", NULL))
		r = results_from(rep, res, nres, err);
	json_object_put(rep);
	return r;
}

int sl_client_control_each(struct sl_client *c, enum sl_control_op op, uint64_t id,
			   struct sl_jobresult **res, size_t *nres, struct sl_err *err)
{
	return call_each(c, SL_MSG_CONTROL, control_req(op, id), res, nres, err);
}

int sl_client_hold(struct sl_client *c, int release, int operator, uint64_t id,
		   struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep;
	int r;

	json_object_object_add(req, "op", json_object_new_string(release ? "release" : "hold"));
	json_object_object_add(req, "kind", json_object_new_string(operator ? "operator" : "user"));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	if ((r = sl_client_call(c, SL_MSG_HOLD, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}

/* ---- sinfo: the partitions request (PROTOCOL.md, type 8) ---- */

char *sl_client_str(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return sl_xstrdup(json_object_get_string(v));
}

int64_t sl_client_i64(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

json_object *sl_client_arr(json_object *o, const char *key, size_t *n)
{
	json_object *v;
	*n = 0;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	*n = json_object_array_length(v);
	return v;
}

static void parse_quota(json_object *o, struct sl_quota_row *q)
{
	q->cluster_queue = sl_client_str(o, "cluster_queue");
	q->flavor = sl_client_str(o, "flavor");
	q->resource = sl_client_str(o, "resource");
	q->nominal = sl_client_i64(o, "nominal");
	q->borrowed = sl_client_i64(o, "borrowed");
	q->lent = sl_client_i64(o, "lent");
	q->used = sl_client_i64(o, "used");
	q->pending = sl_client_i64(o, "pending");
}

static void parse_part(json_object *o, struct sl_partinfo *p)
{
	json_object *a, *v;
	char *avail = sl_client_str(o, "avail");
	size_t n;

	p->name = sl_client_str(o, "name");
	p->is_default = json_object_object_get_ex(o, "default", &v) && json_object_get_boolean(v);
	p->avail = avail == NULL || strcmp(avail, "up") == 0 ? SL_PART_UP
		   : strcmp(avail, "down") == 0 ? SL_PART_DOWN : SL_PART_INACTIVE;
	free(avail);
	avail = sl_client_str(o, "state");
	p->admin = avail == NULL ? SL_PART_UP : strcmp(avail, "DOWN") == 0 ? SL_PART_DOWN
		   : strcmp(avail, "DRAIN") == 0 ? SL_PART_DRAIN
		   : strcmp(avail, "INACTIVE") == 0 ? SL_PART_INACTIVE : SL_PART_UP;
	free(avail);
	p->reason = sl_client_str(o, "reason");
	p->reason_user = sl_client_str(o, "reason_user");
	p->reason_uid = (uint32_t)sl_client_i64(o, "reason_uid");
	p->reason_time = sl_client_i64(o, "reason_time");
	p->admitted = sl_client_i64(o, "admitted");
	static const char *const settings[] = {"max_time", "default_time", "max_nodes", "min_nodes",
					       "def_mem_per_cpu", "def_mem_per_node",
					       "max_mem_per_cpu", "max_mem_per_node"};
	int64_t *dst[] = {&p->max_time, &p->default_time, &p->max_nodes, &p->min_nodes,
			  &p->def_mem_per_cpu, &p->def_mem_per_node, &p->max_mem_per_cpu,
			  &p->max_mem_per_node};
	for (size_t k = 0; k < sizeof(settings) / sizeof(settings[0]); k++)
		*dst[k] = json_object_object_get_ex(o, settings[k], &v) ? json_object_get_int64(v) : -1;
	a = sl_client_arr(o, "features", &n);
	p->features = sl_xcalloc(n + 1, sizeof(*p->features));
	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(a, i);
		p->features[i] = sl_xstrdup(json_object_get_string(f));
	}
	a = sl_client_arr(o, "quota", &n);
	p->quota = sl_xcalloc(n + 1, sizeof(*p->quota));
	p->nquota = n;
	for (size_t i = 0; i < n; i++)
		parse_quota(json_object_array_get_idx(a, i), &p->quota[i]);
}

static int get_bool(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* A node's reason and who set it when (PROTOCOL.md, NODE). */
static void parse_reason(json_object *o, char **reason, char **user, uint32_t *uid,
			 int64_t *when)
{
	*reason = sl_client_str(o, "reason");
	*user = sl_client_str(o, "reason_user");
	*uid = (uint32_t)sl_client_i64(o, "reason_uid");
	*when = sl_client_i64(o, "reason_time");
}

static struct sl_nodeinfo *parse_node(json_object *o)
{
	struct sl_nodeinfo *nd = sl_xcalloc(1, sizeof(*nd));
	nd->name = sl_client_str(o, "name");
	nd->arch = sl_client_str(o, "arch");
	nd->os = sl_client_str(o, "os");
	nd->boot_time = sl_client_i64(o, "boot_time");
	nd->start_time = sl_client_i64(o, "start_time");
	nd->cpu_load = sl_client_i64(o, "cpu_load");
	nd->free_mem = sl_client_i64(o, "free_mem");
	nd->tmp_disk = sl_client_i64(o, "tmp_disk");
	nd->drain = get_bool(o, "drain");
	nd->down = get_bool(o, "down");
	parse_reason(o, &nd->reason, &nd->reason_user, &nd->reason_uid, &nd->reason_time);
	return nd;
}

static void parse_knode(json_object *o, struct sl_knodeinfo *nd)
{
	size_t n;
	json_object *a = sl_client_arr(o, "partitions", &n);

	nd->name = sl_client_str(o, "name");
	nd->arch = sl_client_str(o, "arch");
	nd->os = sl_client_str(o, "os");
	nd->version = sl_client_str(o, "version");
	nd->features = sl_client_str(o, "features");
	nd->cpus = sl_client_i64(o, "cpus");
	nd->cpus_alloc = sl_client_i64(o, "cpus_alloc");
	nd->mem = sl_client_i64(o, "mem");
	nd->mem_alloc = sl_client_i64(o, "mem_alloc");
	nd->gpus = sl_client_i64(o, "gpus");
	nd->gpus_alloc = sl_client_i64(o, "gpus_alloc");
	nd->ready = get_bool(o, "ready");
	nd->unschedulable = get_bool(o, "unschedulable");
	nd->no_respond = get_bool(o, "no_respond");
	parse_reason(o, &nd->reason, &nd->reason_user, &nd->reason_uid, &nd->reason_time);
	nd->boot_time = sl_client_i64(o, "boot_time");
	nd->partitions = sl_xcalloc(n + 1, sizeof(*nd->partitions));
	for (size_t i = 0; i < n; i++)
		nd->partitions[i] = sl_xstrdup(json_object_get_string(json_object_array_get_idx(a, i)));
}

static void knodes_free(struct sl_clusterinfo *ci)
{
	for (size_t i = 0; i < ci->nknodes; i++) {
		struct sl_knodeinfo *nd = &ci->knodes[i];
		free(nd->name);
		free(nd->arch);
		free(nd->os);
		free(nd->version);
		free(nd->features);
		free(nd->reason);
		free(nd->reason_user);
		for (char **p = nd->partitions; p && *p; p++)
			free(*p);
		free(nd->partitions);
	}
	free(ci->knodes);
}

int sl_client_partitions(struct sl_clusterinfo **out, struct sl_err *err)
{
	struct sl_client *c = NULL;
	struct sl_clusterinfo *ci;
	json_object *rep = NULL, *a, *v;
	size_t n;
	int r;

	*out = NULL;
	if ((r = sl_client_connect(NULL, &c, err)) != 0 ||
	    (r = sl_client_call(c, SL_MSG_PARTITIONS, json_object_new_object(), &rep, err)) != 0)
		goto out;
	ci = sl_xcalloc(1, sizeof(*ci));
	ci->now = sl_client_i64(rep, "now");
	if (json_object_object_get_ex(rep, "node", &v) && json_object_is_type(v, json_type_object))
		ci->node = parse_node(v);
	a = sl_client_arr(rep, "nodes", &n);
	ci->knodes = sl_xcalloc(n + 1, sizeof(*ci->knodes));
	ci->nknodes = n;
	for (size_t i = 0; i < n; i++)
		parse_knode(json_object_array_get_idx(a, i), &ci->knodes[i]);
	a = sl_client_arr(rep, "partitions", &n);
	ci->parts = sl_xcalloc(n + 1, sizeof(*ci->parts));
	ci->nparts = n;
	for (size_t i = 0; i < n; i++)
		parse_part(json_object_array_get_idx(a, i), &ci->parts[i]);
	*out = ci;
out:
	json_object_put(rep);
	sl_client_free(c);
	return r;
}

void sl_clusterinfo_free(struct sl_clusterinfo *ci)
{
	if (ci == NULL)
		return;
	for (size_t i = 0; i < ci->nparts; i++) {
		struct sl_partinfo *p = &ci->parts[i];
		for (size_t j = 0; j < p->nquota; j++) {
			free(p->quota[j].cluster_queue);
			free(p->quota[j].flavor);
			free(p->quota[j].resource);
		}
		for (char **f = p->features; f && *f; f++)
			free(*f);
		free(p->features);
		free(p->quota);
		free(p->name);
		free(p->reason);
		free(p->reason_user);
	}
	free(ci->parts);
	knodes_free(ci);
	if (ci->node) {
		free(ci->node->name);
		free(ci->node->arch);
		free(ci->node->os);
		free(ci->node->reason);
		free(ci->node->reason_user);
		free(ci->node);
	}
	free(ci);
}

/* ---- scontrol: update (type 9), ping (10), reconfigure (11), config (12) ---- */

static json_object *update_req(uint64_t id, const struct sl_update_field *f, size_t n)
{
	json_object *req = json_object_new_object(), *set = json_object_new_object();

	for (size_t i = 0; i < n; i++)
		json_object_object_add(set, f[i].key, f[i].str ? json_object_new_string(f[i].str)
							       : json_object_new_int64(f[i].num));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	json_object_object_add(req, "set", set);
	return req;
}

int sl_client_update(struct sl_client *c, uint64_t id, const struct sl_update_field *f,
		     size_t n, struct sl_err *err)
{
	return call_plain(c, SL_MSG_UPDATE, update_req(id, f, n), err);
}

int sl_client_update_task(struct sl_client *c, uint64_t id, uint32_t task,
			  const struct sl_update_field *f, size_t n, struct sl_err *err)
{
	return call_plain(c, SL_MSG_UPDATE, on_task(update_req(id, f, n), task), err);
}

int sl_client_update_each(struct sl_client *c, uint64_t id, const struct sl_update_field *f,
			  size_t n, struct sl_jobresult **res, size_t *nres, struct sl_err *err)
{
	return call_each(c, SL_MSG_UPDATE, update_req(id, f, n), res, nres, err);
}

int sl_client_ask(uint16_t type, json_object **rep, struct sl_err *err)
{
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);

	*rep = NULL;
	if (r == 0)
		r = sl_client_call(c, type, json_object_new_object(), rep, err);
	sl_client_free(c);
	return r;
}

int sl_client_ping(char **host, struct sl_err *err)
{
	json_object *rep;
	int r = sl_client_ask(SL_MSG_PING, &rep, err);

	*host = r == 0 ? sl_client_str(rep, "host") : NULL;
	json_object_put(rep);
	return r;
}

int sl_client_reconfigure(struct sl_err *err)
{
	json_object *rep;
	int r = sl_client_ask(SL_MSG_RECONFIGURE, &rep, err);

	json_object_put(rep);
	return r;
}

int sl_client_config(struct sl_daemonconf **out, struct sl_err *err)
{
	struct sl_daemonconf *dc;
	json_object *rep, *a;
	size_t n;
	int r = sl_client_ask(SL_MSG_CONFIG, &rep, err);

	*out = NULL;
	if (r != 0)
		return r;
	dc = sl_xcalloc(1, sizeof(*dc));
	dc->now = sl_client_i64(rep, "now");
	dc->start_time = sl_client_i64(rep, "start_time");
	dc->uid = (uint32_t)sl_client_i64(rep, "uid");
	dc->host = sl_client_str(rep, "host");
	dc->user = sl_client_str(rep, "user");
	dc->conf_path = sl_client_str(rep, "conf_path");
	dc->executor = sl_client_str(rep, "executor");
	a = sl_client_arr(rep, "settings", &n);
	dc->keys = sl_xcalloc(n + 1, sizeof(char *));
	dc->values = sl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i);
		if (!json_object_is_type(row, json_type_array) || json_object_array_length(row) < 2)
			continue;
		dc->keys[dc->n] = sl_xstrdup(json_object_get_string(json_object_array_get_idx(row, 0)));
		dc->values[dc->n++] =
			sl_xstrdup(json_object_get_string(json_object_array_get_idx(row, 1)));
	}
	json_object_put(rep);
	*out = dc;
	return 0;
}

const char *sl_daemonconf_get(const struct sl_daemonconf *dc, const char *key)
{
	for (size_t i = 0; dc != NULL && i < dc->n; i++)
		if (strcmp(dc->keys[i], key) == 0)
			return dc->values[i];
	return NULL;
}

int sl_client_cluster_name(char **out, struct sl_err *err)
{
	struct sl_daemonconf *dc = NULL;
	int r = sl_client_config(&dc, err);
	const char *name = r == 0 ? sl_daemonconf_get(dc, "clusterName") : NULL;

	*out = r == 0 ? sl_xstrdup(name ? name : "") : NULL;
	sl_daemonconf_free(dc);
	return r;
}

int sl_client_kubernetes(int *yes, struct sl_err *err)
{
	struct sl_daemonconf *dc = NULL;
	int r = sl_client_config(&dc, err);

	*yes = r == 0 && dc->executor != NULL && strcmp(dc->executor, "kubernetes") == 0;
	sl_daemonconf_free(dc);
	return r;
}

void sl_daemonconf_free(struct sl_daemonconf *dc)
{
	if (dc == NULL)
		return;
	sl_strv_free(dc->keys);
	sl_strv_free(dc->values);
	free(dc->host);
	free(dc->user);
	free(dc->conf_path);
	free(dc->executor);
	free(dc);
}
