/* http.h - the Kubernetes API transport: libcurl's multi interface driven by
 * sluiced's event loop (never blocking it), with TLS and credentials from a
 * struct sl_kubeconfig, a client-side token bucket, and retries with jittered
 * backoff. Typed verbs live in kclient.h, watches in watch.h.
 *
 * Callbacks run from loop context, never from inside sl_k8s_http_send(). */
#ifndef SL_K8S_HTTP_H
#define SL_K8S_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "k8s/kubeconfig.h"

struct sl_loop;
struct sl_k8s_http;
struct sl_k8s_req;

struct sl_k8s_http_opts {
	double qps;                 /* 0: 5 (client-go); < 0: unlimited */
	int burst;                  /* with qps 0: 10 */
	size_t max_body;            /* response cap; 0: 16 MiB */
	int64_t retry_deadline_ms;  /* give up retrying after this; 0: never */
	int64_t backoff_base_ms;    /* 0: 500 */
	int64_t backoff_cap_ms;     /* 0: 30000 */
	int64_t timeout_ms;         /* per attempt, non-streaming; 0: 30000 */
	int64_t connect_timeout_ms; /* 0: 10000 */
	int64_t token_reload_ms;    /* tokenFile re-read period; 0: 60000 */
	int64_t exec_timeout_ms;    /* exec plugin run; 0: 10000 */
	const char *user_agent;     /* NULL: "sluice" */
};

/* What a completion callback sees; everything borrowed for the call only. */
struct sl_k8s_resp {
	int rc;              /* 0 when a response arrived (any status, also a
			      * 429/5xx left after the retry deadline); else
			      * -SL_EIO (transport), -SL_ETOOBIG (over the cap),
			      * -SL_ECONFIG (credentials could not be obtained) */
	int status;          /* HTTP status of the last attempt, 0 when none */
	const char *body;    /* NUL-terminated ("" for streams and no body) */
	size_t len;
	int64_t retry_after; /* Retry-After seconds, -1 when absent */
	int attempts;        /* 1 + retries */
	int maybe_sent;      /* an earlier attempt may have reached the server
			      * (so a 409 on a create may be our own object) */
	const char *method, *path;
	struct sl_err err;   /* transport reason when rc != 0 */
	const struct sl_k8s_req *req; /* for sl_k8s_resp_header() */
};

typedef void (*sl_k8s_http_cb)(const struct sl_k8s_resp *resp, void *arg);
/* Streaming: one complete line (no '\n', NUL-terminated) of a 2xx body.
 * Return nonzero to end the stream (the completion callback then runs with
 * the status and rc 0). May call sl_k8s_http_send() and sl_k8s_req_cancel(). */
typedef int (*sl_k8s_http_line_cb)(const char *line, size_t len, void *arg);

enum sl_k8s_retry {
	SL_KRETRY_IDEMPOTENT = 0, /* default for all but POST: 429, 5xx, any transport error */
	SL_KRETRY_CREATE,         /* POST with a deterministic name: like
				   * IDEMPOTENT; a duplicate surfaces as 409 */
	SL_KRETRY_SAFE_POST,      /* POST: only 429/5xx and errors before sending */
	SL_KRETRY_NONE,           /* caller retries (watches) */
};

struct sl_k8s_req_spec {
	const char *method;       /* GET POST PUT PATCH DELETE */
	const char *path;         /* /apis/..., already escaped */
	const char *query;        /* without '?', escaped; NULL: none */
	const char *body;         /* copied; NULL: none */
	size_t body_len;
	const char *content_type; /* NULL: application/json when body != NULL */
	enum sl_k8s_retry retry;     /* POST defaults to SL_KRETRY_SAFE_POST when 0 */
	int64_t retry_deadline_ms;/* 0: client default; < 0: never give up */
	int64_t timeout_ms;       /* per attempt; 0: client default (streams: none) */
	sl_k8s_http_line_cb on_line; /* non-NULL: streaming mode */
};

/* Build a client. kc is borrowed and must outlive the client. Reads the
 * token file and starts the exec plugin (asynchronously, through the loop;
 * requests wait for its credential), so that a plugin that cannot even be
 * started shows up here. Caller frees with sl_k8s_http_free(): in-flight requests are dropped
 * without callbacks. */
int sl_k8s_http_new(struct sl_loop *loop, const struct sl_kubeconfig *kc,
		    const struct sl_k8s_http_opts *opts, struct sl_k8s_http **out,
		    struct sl_err *err);
void sl_k8s_http_free(struct sl_k8s_http *h);  /* before the loop; not from a callback */

/* Queue a request; cb runs exactly once unless the request is cancelled.
 * Returns a handle valid until cb returns or sl_k8s_req_cancel(). */
struct sl_k8s_req *sl_k8s_http_send(struct sl_k8s_http *h, const struct sl_k8s_req_spec *spec,
				    sl_k8s_http_cb cb, void *arg);
/* Drop a request: no callback will run. Safe from any callback. */
void sl_k8s_req_cancel(struct sl_k8s_req *r);

/* Response header (last value, case-insensitive name) or NULL. */
const char *sl_k8s_resp_header(const struct sl_k8s_resp *resp, const char *name);

/* Counters for tests and the benchmark. */
struct sl_k8s_http_stats {
	uint64_t requests, attempts, retries, throttled, auth_refreshes;
	uint64_t writes; /* POST/PUT/PATCH/DELETE attempts */
};
void sl_k8s_http_stats(const struct sl_k8s_http *h, struct sl_k8s_http_stats *out);
struct sl_loop *sl_k8s_http_loop(const struct sl_k8s_http *h);

#endif
