/* kclient.h - typed Kubernetes verbs over http.h: create, get, delete, list.
 * All asynchronous: the callback runs once from loop context (unless the
 * call is cancelled). A non-2xx answer becomes -SL_E* with the Kubernetes
 * Status message (and its causes) in err, ready for a job's reason. */
#ifndef SL_K8S_KCLIENT_H
#define SL_K8S_KCLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "k8s/http.h"

struct json_object;
struct sl_k8s_call;

/* rc: 0, or -SL_EEXIST (409), -SL_EINVAL (400/422), -SL_ENOENT (404),
 * -SL_EPERM (401/403), -SL_ESTATE (410 Gone/Expired), -SL_ETOOBIG (413, or
 * over the response cap), -SL_EBUSY (429/5xx left after the retry deadline),
 * -SL_EIO (transport), -SL_EPROTO (undecodable 2xx body), -SL_EINTERNAL
 * (other statuses). obj: the decoded 2xx body, NULL on error; borrowed for
 * the call (json_object_get() to keep it). err: set when rc != 0. */
typedef void (*sl_k8s_obj_cb)(int rc, struct json_object *obj, const struct sl_err *err,
			      void *arg);

/* POST body (len bytes, copied: the caller serialized the object once, to
 * check its size) to a collection path, with fieldManager=sluice. Retried
 * across API-server outages (SL_KRETRY_CREATE: names are deterministic, so a
 * create that did land surfaces as -SL_EEXIST and the caller adopts it). */
struct sl_k8s_call *sl_k8s_create(struct sl_k8s_http *h, const char *collection,
				  const char *body, size_t len, sl_k8s_obj_cb cb, void *arg);
struct sl_k8s_call *sl_k8s_get(struct sl_k8s_http *h, const char *item, sl_k8s_obj_cb cb,
			       void *arg);

/* PATCH item with body (len bytes, copied) of content_type, e.g.
 * "application/merge-patch+json" (JobSet/MPIJob suspend): CRDs take no
 * strategic merge. Idempotent, so retried across outages like a GET. */
struct sl_k8s_call *sl_k8s_patch(struct sl_k8s_http *h, const char *item,
				 const char *content_type, const char *body, size_t len,
				 sl_k8s_obj_cb cb, void *arg);

struct sl_k8s_delete_opts {
	const char *propagation;     /* Foreground/Background/Orphan; NULL: server default */
	int64_t grace_seconds;       /* < 0: server default */
	const char *precondition_uid;/* NULL: none */
};
/* 404 gives -SL_ENOENT: the object is gone, which callers usually treat as
 * success. obj is the returned object or Status. */
struct sl_k8s_call *sl_k8s_delete(struct sl_k8s_http *h, const char *item,
				  const struct sl_k8s_delete_opts *o, sl_k8s_obj_cb cb, void *arg);

struct sl_k8s_list_opts {
	const char *label_selector;   /* raw, escaped here */
	const char *field_selector;
	const char *resource_version; /* NULL: consistent read */
	int64_t limit;                /* 0: no limit */
	const char *continue_token;   /* one page from this token */
	int all_pages;                /* follow continue; items of all pages are
				       * merged into the first page's object; a
				       * 410 on a continue token restarts the list */
};
struct sl_k8s_call *sl_k8s_list(struct sl_k8s_http *h, const char *collection,
				const struct sl_k8s_list_opts *o, sl_k8s_obj_cb cb, void *arg);

/* No callback will run after this. Safe from any callback. */
void sl_k8s_call_cancel(struct sl_k8s_call *c);

/* Map an HTTP status (and a Status body, if any) to -SL_E* + message.
 * Returns 0 for 2xx. */
int sl_k8s_status_error(int status, const char *body, size_t len, const char *method,
			const char *path, struct sl_err *err);
/* Percent-encode for a query value. Caller frees. */
char *sl_k8s_escape(const char *s);

#endif
