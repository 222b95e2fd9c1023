/* watch.c - list+watch with resume and 410 relist (see watch.h). The state
 * is small: the last resourceVersion, the one request in flight (a LIST or a
 * WATCH), and a backoff timer between failed attempts. */
#include "k8s/watch.h"
#include "k8s/kclient.h"
#include "k8s/ratelimit.h"
#include "loop.h"
#include "buf.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sl_k8s_watch {
	struct sl_k8s_http *h;
	struct sl_k8s_watch_opts o;
	char *path, *label, *field;
	const struct sl_k8s_watch_ops *ops;
	void *arg;
	char *rv;
	struct sl_k8s_call *list;
	struct sl_k8s_req *stream;
	uint64_t timer;
	int failures;          /* consecutive, for backoff */
	int lines;             /* lines seen on the current stream */
	int64_t started_ms;    /* when the current stream was requested */
	int gone;              /* the current stream reported 410 */
	int errored;           /* ... or another ERROR event (a failure) */
	int in_cb, dead;
	uint32_t rstate;
	struct sl_k8s_watch_stats st;
};

/* The longest Retry-After taken at its word (a bad header is bounded). */
#define RETRY_AFTER_CAP_MS 60000

static void start_list(struct sl_k8s_watch *w);
static void start_watch(struct sl_k8s_watch *w);

static const struct {
	const char *name;
	enum sl_k8s_watch_type type;
} types[] = {
	{"ADDED", SL_KW_ADDED}, {"MODIFIED", SL_KW_MODIFIED}, {"DELETED", SL_KW_DELETED},
	{"BOOKMARK", SL_KW_BOOKMARK}, {"ERROR", SL_KW_ERROR},
};

static const char *obj_rv(json_object *obj)
{
	json_object *meta = NULL;

	json_object_object_get_ex(obj, "metadata", &meta);
	return sl_k8s_str(meta, "resourceVersion");
}

int sl_k8s_watch_parse_line(const char *line, size_t len, enum sl_k8s_watch_type *type,
			    json_object **obj, int *code, struct sl_err *err)
{
	json_tokener *tok = json_tokener_new();
	json_object *ev = json_tokener_parse_ex(tok, line, (int)len), *o;
	const char *t;
	size_t i, end = ev != NULL ? json_tokener_get_parse_end(tok) : 0;
	int r = -SL_EPROTO;

	*obj = NULL;
	*code = 0;
	while (end < len && strchr(" \t\r", line[end]) != NULL)
		end++;
	if (ev == NULL || json_tokener_get_error(tok) != json_tokener_success || end != len ||
	    !json_object_is_type(ev, json_type_object)) {
		/* len bytes, no NUL promised after them */
		r = sl_err_set(err, SL_EPROTO, "watch: undecodable event: %.*s",
			       (int)(len < 100 ? len : 100), line);
		goto out;
	}
	t = sl_k8s_str(ev, "type");
	for (i = 0; t != NULL && i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(t, types[i].name) == 0)
			break;
	if (t == NULL || i == sizeof(types) / sizeof(types[0])) {
		r = sl_err_set(err, SL_EPROTO, "watch: unknown event type \"%s\"", t ? t : "");
		goto out;
	}
	if (!json_object_object_get_ex(ev, "object", &o) || !json_object_is_type(o, json_type_object)) {
		r = sl_err_set(err, SL_EPROTO, "watch: %s event without an object", t);
		goto out;
	}
	*type = types[i].type;
	*obj = json_object_get(o);
	if (*type == SL_KW_ERROR && json_object_object_get_ex(o, "code", &o))
		*code = json_object_get_int(o);
	r = 0;
out:
	json_object_put(ev);
	json_tokener_free(tok);
	return r;
}

static void set_rv(struct sl_k8s_watch *w, const char *rv)
{
	if (rv == NULL || rv[0] == '\0')
		return;
	free(w->rv);
	w->rv = sl_xstrdup(rv);
}

static void really_free(struct sl_k8s_watch *w)
{
	free(w->path);
	free(w->label);
	free(w->field);
	free(w->rv);
	free(w);
}

/* Run after a user callback: 1 when the watch was freed inside it. */
static int cb_done(struct sl_k8s_watch *w)
{
	if (--w->in_cb == 0 && w->dead) {
		really_free(w);
		return 1;
	}
	return 0;
}

/* 1 when the watch was freed by the callback. */
static int problem(struct sl_k8s_watch *w, const struct sl_err *err)
{
	if (w->ops->problem == NULL)
		return 0;
	w->in_cb++;
	w->ops->problem(err, w->arg);
	return cb_done(w);
}

static uint32_t wrand(struct sl_k8s_watch *w)
{
	w->rstate ^= w->rstate << 13;
	w->rstate ^= w->rstate >> 17;
	w->rstate ^= w->rstate << 5;
	return w->rstate;
}

static void on_retry(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_k8s_watch *w = arg;

	w->timer = 0;
	if (w->rv == NULL)
		start_list(w);
	else
		start_watch(w);
}

/* Try again after a jittered backoff, or after the server's Retry-After
 * (429 from API priority and fairness) when that is longer; relist when rv
 * was dropped. */
static void retry_later(struct sl_k8s_watch *w, int64_t retry_after_s)
{
	int64_t d = sl_backoff_delay(++w->failures, w->o.backoff_base_ms, w->o.backoff_cap_ms,
				     wrand(w));
	if (retry_after_s > 0) {
		int64_t ra = sl_retry_after_delay(retry_after_s, RETRY_AFTER_CAP_MS, wrand(w));
		d = ra > d ? ra : d;
	}

	w->timer = sl_loop_add_timer(sl_k8s_http_loop(w->h), d, on_retry, w);
}

/* ---- LIST ------------------------------------------------------------- */

static void on_list(int rc, json_object *list, const struct sl_err *err, void *arg)
{
	struct sl_k8s_watch *w = arg;
	json_object *items;
	const char *rv;

	w->list = NULL;
	if (rc != 0) {
		if (!problem(w, err))
			retry_later(w, 0);
		return;
	}
	rv = obj_rv(list);
	if (!json_object_object_get_ex(list, "items", &items) ||
	    !json_object_is_type(items, json_type_array)) {
		struct sl_err e2 = SL_ERR_INIT;
		sl_err_set(&e2, SL_EPROTO, "%s: list without items", w->path);
		if (!problem(w, &e2))
			retry_later(w, 0);
		return;
	}
	set_rv(w, rv);
	w->in_cb++;
	w->ops->relisted(items, w->rv ? w->rv : "", w->arg);
	if (cb_done(w))
		return;
	start_watch(w);
}

static void start_list(struct sl_k8s_watch *w)
{
	struct sl_k8s_list_opts lo = {
		.label_selector = w->label, .field_selector = w->field,
		.limit = w->o.list_limit, .all_pages = 1,
	};

	free(w->rv);
	w->rv = NULL;
	w->st.lists++;
	w->list = sl_k8s_list(w->h, w->path, &lo, on_list, w);
}

/* ---- WATCH ------------------------------------------------------------ */

/* One event line; nonzero ends the stream. */
static int on_line(const char *line, size_t len, void *arg)
{
	struct sl_k8s_watch *w = arg;
	struct sl_err err = SL_ERR_INIT;
	enum sl_k8s_watch_type type;
	json_object *obj;
	int code, stop = 0;

	w->lines++;
	if (sl_k8s_watch_parse_line(line, len, &type, &obj, &code, &err) != 0) {
		(void)problem(w, &err);
		return 1;
	}
	if (type == SL_KW_ERROR) {
		w->gone = code == 410;
		w->errored = !w->gone;
		if (!w->gone) {
			sl_k8s_status_error(code ? code : 500, json_object_to_json_string(obj),
					    strlen(json_object_to_json_string(obj)), "WATCH",
					    w->path, &err);
			(void)problem(w, &err);
		}
		stop = 1;
	} else {
		set_rv(w, obj_rv(obj));
		if (type == SL_KW_BOOKMARK) {
			w->st.bookmarks++;
		} else {
			w->st.events++;
			w->in_cb++;
			w->ops->event(type, obj, w->arg);
			stop = cb_done(w);
		}
	}
	json_object_put(obj);
	return stop;
}

static void on_watch_end(const struct sl_k8s_resp *resp, void *arg)
{
	struct sl_k8s_watch *w = arg;
	struct sl_err err = SL_ERR_INIT;

	w->stream = NULL;
	if (w->gone || (resp->rc == 0 && resp->status == 410)) {
		/* History compacted past our RV: only a fresh LIST is correct. */
		w->st.gone++;
		w->failures = 0;
		start_list(w);
		return;
	}
	/* A stream that carried events or lasted a while was healthy: resume
	 * at once. One that ended empty and fast is failing, and so is one
	 * that ended on an ERROR event (a server that answers every watch with
	 * "internal error" must not be asked again in a tight loop): back off. */
	if (resp->rc == 0 && resp->status == 200 && !w->errored &&
	    (w->lines > 0 || sl_loop_now_ms(sl_k8s_http_loop(w->h)) - w->started_ms >= 5000)) {
		w->failures = 0;
		start_watch(w);
		return;
	}
	if (resp->rc != 0)
		err = resp->err;
	else if (resp->status != 200)
		sl_k8s_status_error(resp->status, resp->body, resp->len, "WATCH", w->path, &err);
	if (err.code != 0 && problem(w, &err))
		return;
	retry_later(w, resp->rc == 0 && resp->status == 429 ? resp->retry_after : 0);
}

static void start_watch(struct sl_k8s_watch *w)
{
	struct sl_buf *q = sl_buf_new(1 << 16);
	struct sl_k8s_req_spec s = {
		.method = "GET", .path = w->path, .retry = SL_KRETRY_NONE,
		.timeout_ms = ((int64_t)w->o.timeout_s + 60) * 1000, .on_line = on_line,
	};
	char *e = sl_k8s_escape(w->rv);

	sl_buf_addf(q, "watch=1&resourceVersion=%s&allowWatchBookmarks=true&timeoutSeconds=%d",
		    e, w->o.timeout_s);
	free(e);
	if (w->label != NULL) {
		e = sl_k8s_escape(w->label);
		sl_buf_addf(q, "&labelSelector=%s", e);
		free(e);
	}
	if (w->field != NULL) {
		e = sl_k8s_escape(w->field);
		sl_buf_addf(q, "&fieldSelector=%s", e);
		free(e);
	}
	s.query = sl_buf_str(q);
	w->lines = 0;
	w->gone = w->errored = 0;
	w->started_ms = sl_loop_now_ms(sl_k8s_http_loop(w->h));
	w->st.watches++;
	w->stream = sl_k8s_http_send(w->h, &s, on_watch_end, w);
	sl_buf_free(q);
}

struct sl_k8s_watch *sl_k8s_watch_new(struct sl_k8s_http *h, const struct sl_k8s_watch_opts *o,
				      const struct sl_k8s_watch_ops *ops, void *arg)
{
	struct sl_k8s_watch *w = sl_xcalloc(1, sizeof(*w));
	struct timespec ts;

	w->h = h;
	w->o = *o;
	w->path = sl_xstrdup(o->path);
	w->label = sl_xstrdup(o->label_selector);
	w->field = sl_xstrdup(o->field_selector);
	w->o.path = w->o.label_selector = w->o.field_selector = NULL;
	if (w->o.timeout_s <= 0)
		w->o.timeout_s = 300;
	if (w->o.list_limit <= 0)
		w->o.list_limit = 500;
	if (w->o.backoff_base_ms <= 0)
		w->o.backoff_base_ms = 800;
	if (w->o.backoff_cap_ms <= 0)
		w->o.backoff_cap_ms = 30000;
	w->ops = ops;
	w->arg = arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	w->rstate = (uint32_t)ts.tv_nsec | 1u;
	start_list(w);
	return w;
}

void sl_k8s_watch_free(struct sl_k8s_watch *w)
{
	if (w == NULL || w->dead)
		return;
	sl_k8s_call_cancel(w->list);
	sl_k8s_req_cancel(w->stream);
	w->list = NULL;
	w->stream = NULL;
	if (w->timer != 0)
		sl_loop_del_timer(sl_k8s_http_loop(w->h), w->timer);
	w->timer = 0;
	w->dead = 1;
	if (w->in_cb == 0)
		really_free(w);
}

const char *sl_k8s_watch_rv(const struct sl_k8s_watch *w)
{
	return w->rv != NULL ? w->rv : "";
}

void sl_k8s_watch_stats(const struct sl_k8s_watch *w, struct sl_k8s_watch_stats *out)
{
	*out = w->st;
}
