/* http.c - Kubernetes API transport over libcurl's multi socket interface,
 * driven by sl_loop (see http.h). Requests wait in one FIFO for a rate-limit
 * token, run as curl easy handles, and on 429/5xx/transport errors go back
 * into the FIFO after a jittered backoff. Everything that touches the multi
 * handle runs from loop callbacks (the "kick" timer, fd and timer events),
 * never from inside a curl callback, which libcurl forbids. While an exec
 * credential plugin runs and no usable credential exists, the FIFO simply
 * does not move: the plugin's end kicks it again, or fails what waited. */
#include "k8s/http.h"
#include "k8s/kauth.h"
#include "k8s/ratelimit.h"
#include "buf.h"
#include "loop.h"
#include "xalloc.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define RHDR_MAX 64
#define RHDR_BYTES 16384
#define RETRY_AFTER_CAP_MS 300000

enum rstate { R_WAIT, R_RUN, R_BACKOFF, R_DONE };

struct sl_k8s_req {
	struct sl_k8s_http *h;
	struct sl_k8s_req *prev, *next; /* h->all */
	struct sl_k8s_req *qnext;       /* h->qhead FIFO */
	uint64_t seq;                 /* enqueue order, see fail_waiting() */
	enum rstate state;
	int cancelled;
	char *method, *path, *query, *body, *ctype;
	size_t body_len;
	enum sl_k8s_retry retry;
	int64_t deadline_ms;          /* monotonic; 0: none */
	int64_t timeout_ms;
	sl_k8s_http_line_cb on_line;
	sl_k8s_http_cb cb;
	void *arg;
	CURL *easy;
	struct curl_slist *hdrs;
	struct sl_buf *resp, *line;
	char *rhdr[RHDR_MAX];
	size_t nrhdr, rhdr_bytes;
	uint64_t timer;
	int attempts, maybe_sent, auth_retried, stream_stopped, toobig;
};

struct sl_k8s_http {
	struct sl_loop *loop;
	CURLM *multi;
	const struct sl_kubeconfig *kc;
	struct sl_k8s_auth *auth;
	struct sl_ratelimit *rl;
	struct sl_k8s_http_opts o;
	char *base;                   /* URL prefix requests are appended to */
	struct curl_slist *connect_to;
	struct sl_k8s_req *all, *qhead, *qtail;
	uint64_t curl_timer, kick_timer, rl_timer, seq;
	int in_curl;
	struct sl_k8s_http_stats st;
	uint32_t rstate;
};

static void kick_soon(struct sl_k8s_http *h);
static void finish(struct sl_k8s_req *r, int rc, int status, struct sl_err *err);

/* xorshift32: jitter needs spread, not cryptographic quality. */
static uint32_t jitter_rand(struct sl_k8s_http *h)
{
	uint32_t x = h->rstate;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return h->rstate = x;
}

/* ---- request bookkeeping ---------------------------------------------- */

static void req_free(struct sl_k8s_req *r)
{
	struct sl_k8s_http *h = r->h;

	if (r->prev != NULL)
		r->prev->next = r->next;
	else
		h->all = r->next;
	if (r->next != NULL)
		r->next->prev = r->prev;
	if (r->timer != 0)
		sl_loop_del_timer(h->loop, r->timer);
	if (r->easy != NULL) {
		if (r->state == R_RUN)
			curl_multi_remove_handle(h->multi, r->easy);
		curl_easy_cleanup(r->easy);
	}
	curl_slist_free_all(r->hdrs);
	sl_buf_free(r->resp);
	sl_buf_free(r->line);
	for (size_t i = 0; i < r->nrhdr; i++)
		free(r->rhdr[i]);
	free(r->method);
	free(r->path);
	free(r->query);
	free(r->body);
	free(r->ctype);
	free(r);
}

static void enqueue(struct sl_k8s_req *r)
{
	struct sl_k8s_http *h = r->h;

	r->state = R_WAIT;
	r->qnext = NULL;
	r->seq = ++h->seq;
	if (h->qtail != NULL)
		h->qtail->qnext = r;
	else
		h->qhead = r;
	h->qtail = r;
	kick_soon(h);
}

static void dequeue(struct sl_k8s_req *r)
{
	struct sl_k8s_http *h = r->h;
	struct sl_k8s_req **pp = &h->qhead, *prev = NULL;

	for (; *pp != NULL; prev = *pp, pp = &(*pp)->qnext)
		if (*pp == r) {
			*pp = r->qnext;
			if (h->qtail == r)
				h->qtail = prev;
			return;
		}
}

void sl_k8s_req_cancel(struct sl_k8s_req *r)
{
	if (r == NULL || r->cancelled)
		return;
	r->cancelled = 1;
	if (r->state == R_WAIT)
		dequeue(r);
	/* A running handle cannot leave the multi from inside a curl callback:
	 * the kick timer reaps it. R_DONE: finish() frees it after the cb. */
	if (r->state == R_RUN && r->h->in_curl)
		kick_soon(r->h);
	else if (r->state != R_DONE)
		req_free(r);
}

struct sl_k8s_req *sl_k8s_http_send(struct sl_k8s_http *h, const struct sl_k8s_req_spec *s,
				    sl_k8s_http_cb cb, void *arg)
{
	struct sl_k8s_req *r = sl_xcalloc(1, sizeof(*r));
	int64_t dl = s->retry_deadline_ms != 0 ? s->retry_deadline_ms : h->o.retry_deadline_ms;

	r->h = h;
	r->method = sl_xstrdup(s->method);
	r->path = sl_xstrdup(s->path);
	r->query = sl_xstrdup(s->query);
	if (s->body != NULL) {
		r->body = sl_xstrndup(s->body, s->body_len);
		r->body_len = s->body_len;
		r->ctype = sl_xstrdup(s->content_type ? s->content_type : "application/json");
	}
	r->retry = s->retry;
	if (r->retry == SL_KRETRY_IDEMPOTENT && strcmp(s->method, "POST") == 0)
		r->retry = SL_KRETRY_SAFE_POST;
	r->deadline_ms = dl > 0 ? sl_loop_now_ms(h->loop) + dl : 0;
	r->timeout_ms = s->timeout_ms != 0 ? s->timeout_ms : s->on_line ? 0 : h->o.timeout_ms;
	r->on_line = s->on_line;
	r->cb = cb;
	r->arg = arg;
	r->next = h->all;
	if (h->all != NULL)
		h->all->prev = r;
	h->all = r;
	h->st.requests++;
	enqueue(r);
	return r;
}

/* ---- curl callbacks --------------------------------------------------- */

static size_t on_header(char *p, size_t sz, size_t nm, void *ud)
{
	struct sl_k8s_req *r = ud;
	size_t n = sz * nm;

	if (n >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		/* A new response (after 100-continue or a retry): forget the old. */
		for (size_t i = 0; i < r->nrhdr; i++)
			free(r->rhdr[i]);
		r->nrhdr = r->rhdr_bytes = 0;
		return n;
	}
	while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r'))
		n--;
	if (n > 0 && memchr(p, ':', n) != NULL && r->nrhdr < RHDR_MAX &&
	    r->rhdr_bytes + n <= RHDR_BYTES) {
		r->rhdr[r->nrhdr++] = sl_xstrndup(p, n);
		r->rhdr_bytes += n;
	}
	return sz * nm;
}

/* Split the stream into lines; 0 to go on, -1 to abort the transfer. */
static int feed_lines(struct sl_k8s_req *r, const char *p, size_t n)
{
	const char *nl;

	while (n > 0) {
		size_t take = (nl = memchr(p, '\n', n)) ? (size_t)(nl - p) : n;
		if (sl_buf_add(r->line, p, take) != 0) {
			r->toobig = 1;
			return -1;
		}
		if (nl == NULL)
			return 0;
		p += take + 1;
		n -= take + 1;
		if (sl_buf_len(r->line) > 0 &&
		    r->on_line(sl_buf_str(r->line), sl_buf_len(r->line), r->arg) != 0) {
			r->stream_stopped = 1;
			return -1;
		}
		sl_buf_reset(r->line);
		if (r->cancelled)
			return -1;
	}
	return 0;
}

static size_t on_write(char *p, size_t sz, size_t nm, void *ud)
{
	struct sl_k8s_req *r = ud;
	size_t n = sz * nm;
	long code = 0;

	if (r->cancelled)
		return 0;
	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &code);
	if (r->on_line != NULL && code >= 200 && code < 300)
		return feed_lines(r, p, n) == 0 ? n : 0;
	if (sl_buf_add(r->resp, p, n) != 0) {
		r->toobig = 1;
		return 0;
	}
	return n;
}

/* ---- starting an attempt ---------------------------------------------- */

static void set_method(struct sl_k8s_req *r, CURL *e)
{
	if (strcmp(r->method, "GET") == 0)
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	else
		curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r->method);
	if (r->body != NULL) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, r->body);
	} else if (strcmp(r->method, "POST") == 0) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
	}
}

static void setup_easy(struct sl_k8s_req *r)
{
	struct sl_k8s_http *h = r->h;
	CURL *e = r->easy;
	char *url = sl_xasprintf("%s%s%s%s", h->base, r->path, r->query ? "?" : "",
				 r->query ? r->query : "");

	curl_easy_reset(e);
	curl_easy_setopt(e, CURLOPT_URL, url);
	free(url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, r);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(e, CURLOPT_USERAGENT, h->o.user_agent);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)h->o.connect_timeout_ms);
	if (r->timeout_ms > 0)
		curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)r->timeout_ms);
	if (h->connect_to != NULL)
		curl_easy_setopt(e, CURLOPT_CONNECT_TO, h->connect_to);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	set_method(r, e);
	curl_slist_free_all(r->hdrs);
	r->hdrs = curl_slist_append(NULL, "Accept: application/json");
	r->hdrs = curl_slist_append(r->hdrs, "Expect:");
	if (r->ctype != NULL) {
		char *ct = sl_xasprintf("Content-Type: %s", r->ctype);
		r->hdrs = curl_slist_append(r->hdrs, ct);
		free(ct);
	}
	sl_k8s_auth_apply(h->auth, e, &r->hdrs);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, r->hdrs);
}

static void start(struct sl_k8s_req *r)
{
	struct sl_k8s_http *h = r->h;

	if (r->easy == NULL)
		r->easy = curl_easy_init();
	sl_buf_free(r->resp);
	sl_buf_free(r->line);
	r->resp = sl_buf_new(h->o.max_body);
	r->line = r->on_line ? sl_buf_new(h->o.max_body) : NULL;
	r->toobig = r->stream_stopped = 0;
	setup_easy(r);
	r->attempts++;
	h->st.attempts++;
	if (strcmp(r->method, "GET") != 0)
		h->st.writes++;
	r->state = R_RUN;
	curl_multi_add_handle(h->multi, r->easy);
}

/* ---- the kick: reap cancelled handles, start what the limiter allows -- */

/* No credential: fail what waits now, not what callbacks enqueue meanwhile
 * (they would otherwise be failed in a loop). */
static void fail_waiting(struct sl_k8s_http *h, const struct sl_err *err)
{
	uint64_t last = h->seq;
	struct sl_k8s_req *r;
	struct sl_err e;

	while ((r = h->qhead) != NULL && r->seq <= last) {
		dequeue(r);
		e = *err;
		finish(r, -SL_ECONFIG, 0, &e);
	}
}

static void on_auth_ready(int rc, const struct sl_err *err, void *arg)
{
	struct sl_k8s_http *h = arg;

	if (rc < 0)
		fail_waiting(h, err);
	else
		kick_soon(h);
}

static void on_kick(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_k8s_http *h = arg;
	struct sl_k8s_req *r, *nx;

	if (id == h->kick_timer)
		h->kick_timer = 0;
	if (id == h->rl_timer)
		h->rl_timer = 0;
	for (r = h->all; r != NULL; r = nx) {
		nx = r->next;
		if (r->cancelled && r->state == R_RUN)
			req_free(r);
	}
	if (h->qhead != NULL) {
		struct sl_err err = SL_ERR_INIT;
		int rc = sl_k8s_auth_refresh(h->auth, 0, &err);
		if (rc == SL_KAUTH_WAIT)
			return;
		if (rc < 0) {
			fail_waiting(h, &err);
			return;
		}
	}
	while ((r = h->qhead) != NULL) {
		int64_t wait = sl_ratelimit_try(h->rl, sl_loop_now_ms(l));
		if (wait > 0) {
			h->st.throttled++;
			if (h->rl_timer == 0)
				h->rl_timer = sl_loop_add_timer(l, wait, on_kick, h);
			return;
		}
		dequeue(r);
		start(r);
	}
}

static void kick_soon(struct sl_k8s_http *h)
{
	if (h->kick_timer == 0)
		h->kick_timer = sl_loop_add_timer(h->loop, 0, on_kick, h);
}

/* ---- completion ------------------------------------------------------- */

static int64_t parse_retry_after(const struct sl_k8s_req *r)
{
	struct sl_k8s_resp tmp = {.req = r};
	const char *v = sl_k8s_resp_header(&tmp, "Retry-After");
	char *end;
	long long n;

	if (v == NULL)
		return -1;
	n = strtoll(v, &end, 10);
	return end == v || n < 0 ? -1 : n;
}

static void finish(struct sl_k8s_req *r, int rc, int status, struct sl_err *err)
{
	struct sl_k8s_resp resp;

	memset(&resp, 0, sizeof(resp));
	resp.rc = rc;
	resp.status = status;
	resp.body = r->resp != NULL ? sl_buf_str(r->resp) : "";
	resp.len = r->resp != NULL ? sl_buf_len(r->resp) : 0;
	resp.retry_after = parse_retry_after(r);
	resp.attempts = r->attempts;
	resp.maybe_sent = r->maybe_sent;
	resp.method = r->method;
	resp.path = r->path;
	resp.req = r;
	if (err != NULL)
		resp.err = *err;
	r->state = R_DONE;
	if (!r->cancelled && r->cb != NULL)
		r->cb(&resp, r->arg);
	req_free(r);
}

static void on_backoff(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_k8s_req *r = arg;

	r->timer = 0;
	enqueue(r);
}

/* 0 when a retry is scheduled; -1 when the deadline forbids it. */
static int schedule_retry(struct sl_k8s_req *r, int64_t retry_after)
{
	struct sl_k8s_http *h = r->h;
	uint32_t rnd = jitter_rand(h);
	int64_t d = retry_after >= 0 ?
		    sl_retry_after_delay(retry_after, RETRY_AFTER_CAP_MS, rnd) :
		    sl_backoff_delay(r->attempts, h->o.backoff_base_ms, h->o.backoff_cap_ms, rnd);

	if (r->deadline_ms != 0 && sl_loop_now_ms(h->loop) + d > r->deadline_ms)
		return -1;
	h->st.retries++;
	r->state = R_BACKOFF;
	r->timer = sl_loop_add_timer(h->loop, d, on_backoff, r);
	return 0;
}

static int retryable_status(long code)
{
	return code == 429 || (code >= 500 && code <= 599 && code != 501 && code != 505);
}

/* The request certainly never reached the server. */
static int never_sent(CURLcode c)
{
	return c == CURLE_COULDNT_RESOLVE_HOST || c == CURLE_COULDNT_RESOLVE_PROXY ||
	       c == CURLE_COULDNT_CONNECT || c == CURLE_SSL_CONNECT_ERROR;
}

/* Retrying cannot help: a configuration problem, reported at once. */
static int fatal_curl(CURLcode c)
{
	return c == CURLE_PEER_FAILED_VERIFICATION || c == CURLE_SSL_CERTPROBLEM ||
	       c == CURLE_SSL_CACERT_BADFILE || c == CURLE_URL_MALFORMAT ||
	       c == CURLE_UNSUPPORTED_PROTOCOL || c == CURLE_BAD_FUNCTION_ARGUMENT ||
	       c == CURLE_SSL_CIPHER || c == CURLE_SSL_ENGINE_NOTFOUND;
}

static void on_transport_error(struct sl_k8s_req *r, CURLcode cc, long code, long reqsize)
{
	struct sl_err err = SL_ERR_INIT;
	int sent = reqsize > 0 && !never_sent(cc);
	int ok;

	if (sent)
		r->maybe_sent = 1;
	/* A stream that already delivered lines is the caller's to resume. */
	ok = r->retry != SL_KRETRY_NONE && !fatal_curl(cc) &&
	     !(r->retry == SL_KRETRY_SAFE_POST && sent) &&
	     !(r->on_line != NULL && code >= 200 && code < 300);
	if (ok && schedule_retry(r, -1) == 0)
		return;
	sl_err_set(&err, SL_EIO, "%s %s%s: %s%s", r->method, r->h->kc->server, r->path,
		   curl_easy_strerror(cc), r->attempts > 1 ? " (gave up retrying)" : "");
	finish(r, -SL_EIO, (int)code, &err);
}

static void on_done(struct sl_k8s_req *r, CURLcode cc)
{
	struct sl_k8s_http *h = r->h;
	long code = 0, reqsize = 0;
	struct sl_err err = SL_ERR_INIT;

	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(r->easy, CURLINFO_REQUEST_SIZE, &reqsize);
	curl_multi_remove_handle(h->multi, r->easy);
	r->state = R_DONE;
	if (r->cancelled) {
		req_free(r);
	} else if (r->toobig) {
		sl_err_set(&err, SL_ETOOBIG, "%s %s: response larger than %zu bytes", r->method,
			   r->path, h->o.max_body);
		finish(r, -SL_ETOOBIG, (int)code, &err);
	} else if (r->stream_stopped) {
		finish(r, 0, (int)code, NULL);
	} else if (cc != CURLE_OK) {
		on_transport_error(r, cc, code, reqsize);
	} else if (code == 401 && !r->auth_retried && sl_k8s_auth_refreshable(h->auth)) {
		r->auth_retried = 1;
		h->st.auth_refreshes++;
		if (sl_k8s_auth_refresh(h->auth, 1, &err) < 0)
			finish(r, -SL_ECONFIG, (int)code, &err);
		else
			enqueue(r);
	} else if (!(retryable_status(code) && r->retry != SL_KRETRY_NONE &&
		     schedule_retry(r, parse_retry_after(r)) == 0)) {
		finish(r, 0, (int)code, NULL);
	}
}

static void process_done(struct sl_k8s_http *h)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(h->multi, &left)) != NULL) {
		struct sl_k8s_req *r = NULL;
		CURLcode cc = m->data.result;
		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&r);
		on_done(r, cc);
	}
}

/* ---- curl multi <-> sl_loop ------------------------------------------- */

static void socket_action(struct sl_k8s_http *h, curl_socket_t fd, int flags)
{
	int running;

	h->in_curl++;
	curl_multi_socket_action(h->multi, fd, flags, &running);
	process_done(h);
	h->in_curl--;
}

static void on_fd(struct sl_loop *l, int fd, int ev, void *arg)
{
	socket_action(arg, fd, ((ev & SL_EV_READ) ? CURL_CSELECT_IN : 0) |
			       ((ev & SL_EV_WRITE) ? CURL_CSELECT_OUT : 0));
}

static int on_socket(CURL *e, curl_socket_t s, int what, void *userp, void *sockp)
{
	struct sl_k8s_http *h = userp;
	int ev = (what == CURL_POLL_IN ? SL_EV_READ : what == CURL_POLL_OUT ? SL_EV_WRITE :
		  SL_EV_READ | SL_EV_WRITE);

	if (what == CURL_POLL_REMOVE)
		sl_loop_del_fd(h->loop, s);
	else
		sl_loop_add_fd(h->loop, s, ev, on_fd, h);
	return 0;
}

static void on_curl_timeout(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_k8s_http *h = arg;

	if (id == h->curl_timer)
		h->curl_timer = 0;
	socket_action(h, CURL_SOCKET_TIMEOUT, 0);
}

static int on_curl_timer(CURLM *m, long ms, void *userp)
{
	struct sl_k8s_http *h = userp;

	if (h->curl_timer != 0)
		sl_loop_del_timer(h->loop, h->curl_timer);
	h->curl_timer = ms >= 0 ? sl_loop_add_timer(h->loop, ms, on_curl_timeout, h) : 0;
	return 0;
}

/* ---- construction ----------------------------------------------------- */

/* With tls-server-name, requests name that host (SNI and certificate check)
 * while CONNECT_TO sends them to the real server address. */
static int build_base(struct sl_k8s_http *h, struct sl_err *err)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL, *url = NULL;
	int r = 0;

	if (curl_url_set(u, CURLUPART_URL, h->kc->server, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK) {
		r = sl_err_set(err, SL_ECONFIG, "%s: server \"%s\" is not a valid URL",
			       h->kc->origin, h->kc->server);
		goto out;
	}
	if (h->kc->tls_server_name != NULL) {
		char *ct = sl_xasprintf("%s:%s:%s:%s", h->kc->tls_server_name, port, host, port);
		h->connect_to = curl_slist_append(NULL, ct);
		free(ct);
		curl_url_set(u, CURLUPART_HOST, h->kc->tls_server_name, 0);
		curl_url_set(u, CURLUPART_PORT, port, 0);
	}
	curl_url_get(u, CURLUPART_URL, &url, 0);
	h->base = sl_xstrdup(url);
	while (strlen(h->base) > 0 && h->base[strlen(h->base) - 1] == '/')
		h->base[strlen(h->base) - 1] = '\0';
out:
	curl_free(host);
	curl_free(port);
	curl_free(url);
	curl_url_cleanup(u);
	return r;
}

static void set_defaults(struct sl_k8s_http_opts *o)
{
	if (o->max_body == 0)
		o->max_body = 16u << 20;
	if (o->backoff_base_ms == 0)
		o->backoff_base_ms = 500;
	if (o->backoff_cap_ms == 0)
		o->backoff_cap_ms = 30000;
	if (o->timeout_ms == 0)
		o->timeout_ms = 30000;
	if (o->connect_timeout_ms == 0)
		o->connect_timeout_ms = 10000;
	if (o->token_reload_ms == 0)
		o->token_reload_ms = 60000;
	if (o->exec_timeout_ms == 0)
		o->exec_timeout_ms = 10000;
	if (o->user_agent == NULL)
		o->user_agent = "sluice";
}

int sl_k8s_http_new(struct sl_loop *loop, const struct sl_kubeconfig *kc,
		    const struct sl_k8s_http_opts *opts, struct sl_k8s_http **out,
		    struct sl_err *err)
{
	static int curl_ready;
	struct sl_k8s_http *h = sl_xcalloc(1, sizeof(*h));
	struct timespec ts;
	int r;

	*out = NULL;
	if (!curl_ready && curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK)
		curl_ready = 1;
	h->loop = loop;
	h->kc = kc;
	if (opts != NULL)
		h->o = *opts;
	set_defaults(&h->o);
	clock_gettime(CLOCK_REALTIME, &ts);
	h->rstate = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec ^ 0x9e3779b9u;
	if ((r = build_base(h, err)) != 0 ||
	    (r = sl_k8s_auth_new(loop, kc, h->o.token_reload_ms, h->o.exec_timeout_ms,
				 on_auth_ready, h, &h->auth, err)) != 0) {
		sl_k8s_http_free(h);
		return r;
	}
	h->rl = sl_ratelimit_new(h->o.qps, h->o.burst, sl_loop_now_ms(loop));
	h->multi = curl_multi_init();
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETDATA, h);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERFUNCTION, on_curl_timer);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERDATA, h);
	*out = h;
	return 0;
}

void sl_k8s_http_free(struct sl_k8s_http *h)
{
	if (h == NULL)
		return;
	while (h->all != NULL)
		req_free(h->all);
	if (h->kick_timer != 0)
		sl_loop_del_timer(h->loop, h->kick_timer);
	if (h->rl_timer != 0)
		sl_loop_del_timer(h->loop, h->rl_timer);
	if (h->multi != NULL)
		curl_multi_cleanup(h->multi);
	if (h->curl_timer != 0)
		sl_loop_del_timer(h->loop, h->curl_timer);
	curl_slist_free_all(h->connect_to);
	sl_k8s_auth_free(h->auth);
	sl_ratelimit_free(h->rl);
	free(h->base);
	free(h);
}

const char *sl_k8s_resp_header(const struct sl_k8s_resp *resp, const char *name)
{
	const struct sl_k8s_req *r = resp->req;
	size_t n = strlen(name);

	for (size_t i = r != NULL ? r->nrhdr : 0; i-- > 0;)
		if (strncasecmp(r->rhdr[i], name, n) == 0 && r->rhdr[i][n] == ':') {
			const char *v = r->rhdr[i] + n + 1;
			return v + strspn(v, " \t");
		}
	return NULL;
}

void sl_k8s_http_stats(const struct sl_k8s_http *h, struct sl_k8s_http_stats *out)
{
	*out = h->st;
}

struct sl_loop *sl_k8s_http_loop(const struct sl_k8s_http *h)
{
	return h->loop;
}
