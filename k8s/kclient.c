/* kclient.c - create/get/delete/list over http.c, with the Kubernetes
 * Status object mapped into struct sl_err (see kclient.h). */
#include "k8s/kclient.h"
#include "buf.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_RESTARTS 3

struct sl_k8s_call {
	struct sl_k8s_http *h;
	struct sl_k8s_req *req;
	sl_k8s_obj_cb cb;
	void *arg;
	const char *method;
	/* list paging */
	char *collection, *base_query;
	int64_t limit;
	int all_pages, restarts;
	json_object *acc;   /* first page, items appended */
	int in_cb;
};

static const struct {
	int status;
	int code;
} status_map[] = {
	{400, SL_EINVAL}, {401, SL_EPERM}, {403, SL_EPERM}, {404, SL_ENOENT},
	{409, SL_EEXIST}, {410, SL_ESTATE}, {413, SL_ETOOBIG}, {422, SL_EINVAL},
	{429, SL_EBUSY},
};

static int code_for(int status)
{
	for (size_t i = 0; i < sizeof(status_map) / sizeof(status_map[0]); i++)
		if (status_map[i].status == status)
			return status_map[i].code;
	return status >= 500 ? SL_EBUSY : SL_EINTERNAL;
}

/* Status.message, plus details.causes the message does not already name. */
static void status_text(json_object *st, struct sl_buf *b)
{
	json_object *details, *causes;
	const char *msg = sl_k8s_str(st, "message");

	sl_buf_addstr(b, msg);
	if (!json_object_object_get_ex(st, "details", &details) ||
	    !json_object_object_get_ex(details, "causes", &causes) ||
	    !json_object_is_type(causes, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(causes); i++) {
		json_object *c = json_object_array_get_idx(causes, i);
		const char *f = sl_k8s_str(c, "field"), *m = sl_k8s_str(c, "message");
		if (m == NULL || strstr(msg, m) != NULL)
			continue;
		sl_buf_addf(b, "; %s%s%s", f ? f : "", f ? ": " : "", m);
	}
}

int sl_k8s_status_error(int status, const char *body, size_t len, const char *method,
			const char *path, struct sl_err *err)
{
	json_object *st = NULL;
	struct sl_buf *b;
	int code, r;

	if (status >= 200 && status < 300)
		return 0;
	code = code_for(status);
	b = sl_buf_new(SL_ERR_MSG_MAX);
	/* len, not a NUL: a body is bytes (json_tokener_parse would strlen). */
	if (body != NULL && len > 0 && len <= INT_MAX) {
		json_tokener *tok = json_tokener_new();
		st = json_tokener_parse_ex(tok, body, (int)len);
		json_tokener_free(tok);
	}
	if (st != NULL && sl_k8s_str(st, "message") != NULL && sl_k8s_str(st, "message")[0] != '\0') {
		status_text(st, b);
	} else {
		sl_buf_addf(b, "%s %s: HTTP %d", method, path, status);
		if (body != NULL && len > 0 && st == NULL)
			sl_buf_addf(b, ": %.*s", (int)(len < 200 ? len : 200), body);
	}
	r = sl_err_set(err, code, "%s", sl_buf_str(b));
	json_object_put(st);
	sl_buf_free(b);
	return r;
}

char *sl_k8s_escape(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = sl_xmalloc(strlen(s) * 3 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-_.~", *p) != NULL) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

static void call_free(struct sl_k8s_call *c)
{
	if (c == NULL)
		return;
	json_object_put(c->acc);
	free(c->collection);
	free(c->base_query);
	free(c);
}

void sl_k8s_call_cancel(struct sl_k8s_call *c)
{
	/* Inside its own callback the call is finishing anyway. */
	if (c == NULL || c->in_cb)
		return;
	sl_k8s_req_cancel(c->req);
	call_free(c);
}

/* Decode a finished response into (rc, obj, err) and deliver it. */
static void deliver(struct sl_k8s_call *c, const struct sl_k8s_resp *resp, json_object *obj_in)
{
	struct sl_err err = SL_ERR_INIT;
	json_object *obj = obj_in;
	int rc;

	if (resp->rc != 0) {
		err = resp->err;
		rc = resp->rc;
	} else if ((rc = sl_k8s_status_error(resp->status, resp->body, resp->len, resp->method,
					      resp->path, &err)) == 0 && obj == NULL) {
		obj = json_tokener_parse(resp->body);
		if (obj == NULL)
			rc = sl_err_set(&err, SL_EPROTO, "%s %s: undecodable response body",
					resp->method, resp->path);
	}
	c->in_cb = 1;
	c->cb(rc, rc == 0 ? obj : NULL, &err, c->arg);
	if (obj != obj_in)
		json_object_put(obj);
	call_free(c);
}

static void on_simple(const struct sl_k8s_resp *resp, void *arg)
{
	struct sl_k8s_call *c = arg;

	c->req = NULL;
	deliver(c, resp, NULL);
}

static struct sl_k8s_call *call_new(struct sl_k8s_http *h, sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_call *c = sl_xcalloc(1, sizeof(*c));

	c->h = h;
	c->cb = cb;
	c->arg = arg;
	return c;
}

/* A write of body as this client's field manager: POST or PATCH. */
static struct sl_k8s_call *write_call(struct sl_k8s_http *h, struct sl_k8s_req_spec *s,
				      const char *body, size_t len, sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_call *c = call_new(h, cb, arg);

	s->query = "fieldManager=sluice";
	s->body = body;
	s->body_len = len;
	c->req = sl_k8s_http_send(h, s, on_simple, c);
	return c;
}

struct sl_k8s_call *sl_k8s_create(struct sl_k8s_http *h, const char *collection,
				  const char *body, size_t len, sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_req_spec s = {.method = "POST", .path = collection,
				    .retry = SL_KRETRY_CREATE};
	return write_call(h, &s, body, len, cb, arg);
}

struct sl_k8s_call *sl_k8s_get(struct sl_k8s_http *h, const char *item, sl_k8s_obj_cb cb,
			       void *arg)
{
	struct sl_k8s_call *c = call_new(h, cb, arg);
	struct sl_k8s_req_spec s = {.method = "GET", .path = item};

	c->req = sl_k8s_http_send(h, &s, on_simple, c);
	return c;
}

struct sl_k8s_call *sl_k8s_patch(struct sl_k8s_http *h, const char *item,
				 const char *content_type, const char *body, size_t len,
				 sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_req_spec s = {.method = "PATCH", .path = item,
				    .content_type = content_type};
	return write_call(h, &s, body, len, cb, arg);
}

struct sl_k8s_call *sl_k8s_delete(struct sl_k8s_http *h, const char *item,
				  const struct sl_k8s_delete_opts *o, sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_call *c = call_new(h, cb, arg);
	json_object *opts = json_object_new_object();
	const char *body;
	struct sl_k8s_req_spec s = {.method = "DELETE", .path = item};

	json_object_object_add(opts, "kind", json_object_new_string("DeleteOptions"));
	json_object_object_add(opts, "apiVersion", json_object_new_string("v1"));
	if (o != NULL && o->propagation != NULL)
		json_object_object_add(opts, "propagationPolicy",
				       json_object_new_string(o->propagation));
	if (o != NULL && o->grace_seconds >= 0)
		json_object_object_add(opts, "gracePeriodSeconds",
				       json_object_new_int64(o->grace_seconds));
	if (o != NULL && o->precondition_uid != NULL) {
		json_object *pre = json_object_new_object();
		json_object_object_add(pre, "uid", json_object_new_string(o->precondition_uid));
		json_object_object_add(opts, "preconditions", pre);
	}
	body = json_object_to_json_string_ext(opts, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	s.body = body;
	s.body_len = strlen(body);
	c->req = sl_k8s_http_send(h, &s, on_simple, c);
	json_object_put(opts);
	return c;
}

/* ---- list with paging ------------------------------------------------- */

static void list_page(struct sl_k8s_call *c, const char *cont);

static void add_param(struct sl_buf *q, const char *key, const char *val)
{
	char *e;

	if (val == NULL)
		return;
	e = sl_k8s_escape(val);
	sl_buf_addf(q, "%s%s=%s", sl_buf_len(q) ? "&" : "", key, e);
	free(e);
}

/* Append page's items to the accumulated first page; takes page. */
static void merge_page(struct sl_k8s_call *c, json_object *page)
{
	json_object *items, *acc_items;

	if (c->acc == NULL) {
		c->acc = page;
		return;
	}
	if (json_object_object_get_ex(page, "items", &items) &&
	    json_object_object_get_ex(c->acc, "items", &acc_items) &&
	    json_object_is_type(items, json_type_array))
		for (size_t i = 0; i < json_object_array_length(items); i++)
			json_object_array_add(acc_items,
					      json_object_get(json_object_array_get_idx(items, i)));
	json_object_put(page);
}

static void on_list(const struct sl_k8s_resp *resp, void *arg)
{
	struct sl_k8s_call *c = arg;
	json_object *page, *meta;
	const char *cont;

	c->req = NULL;
	if (resp->rc == 0 && resp->status == 410 && c->acc != NULL && c->restarts < LIST_RESTARTS) {
		/* The continue token expired mid-list: start over. */
		c->restarts++;
		json_object_put(c->acc);
		c->acc = NULL;
		list_page(c, NULL);
		return;
	}
	if (resp->rc != 0 || resp->status < 200 || resp->status >= 300 || !c->all_pages ||
	    (page = json_tokener_parse(resp->body)) == NULL) {
		deliver(c, resp, NULL);
		return;
	}
	cont = json_object_object_get_ex(page, "metadata", &meta) ? sl_k8s_str(meta, "continue") : NULL;
	cont = cont != NULL && cont[0] != '\0' ? sl_xstrdup(cont) : NULL;
	merge_page(c, page);
	if (cont != NULL) {
		list_page(c, cont);
		free((char *)cont);
		return;
	}
	if (json_object_object_get_ex(c->acc, "metadata", &meta))
		json_object_object_del(meta, "continue");
	deliver(c, resp, c->acc);
}

static void list_page(struct sl_k8s_call *c, const char *cont)
{
	struct sl_buf *q = sl_buf_new(1 << 16);
	struct sl_k8s_req_spec s = {.method = "GET", .path = c->collection};

	sl_buf_addstr(q, c->base_query);
	add_param(q, "continue", cont);
	s.query = sl_buf_len(q) ? sl_buf_str(q) : NULL;
	c->req = sl_k8s_http_send(c->h, &s, on_list, c);
	sl_buf_free(q);
}

struct sl_k8s_call *sl_k8s_list(struct sl_k8s_http *h, const char *collection,
				const struct sl_k8s_list_opts *o, sl_k8s_obj_cb cb, void *arg)
{
	struct sl_k8s_call *c = call_new(h, cb, arg);
	struct sl_buf *q = sl_buf_new(1 << 16);
	static const struct sl_k8s_list_opts none;

	if (o == NULL)
		o = &none;
	add_param(q, "labelSelector", o->label_selector);
	add_param(q, "fieldSelector", o->field_selector);
	add_param(q, "resourceVersion", o->resource_version);
	if (o->limit > 0)
		sl_buf_addf(q, "%slimit=%lld", sl_buf_len(q) ? "&" : "", (long long)o->limit);
	c->collection = sl_xstrdup(collection);
	c->base_query = sl_buf_steal(q);
	c->all_pages = o->all_pages;
	sl_buf_free(q);
	list_page(c, o->continue_token);
	return c;
}
