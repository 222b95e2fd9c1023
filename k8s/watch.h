/* watch.h - one Kubernetes watch stream per (collection path, selectors):
 * LIST, then WATCH from the list's resourceVersion with bookmarks; resume
 * from the last seen resourceVersion when a stream ends; on 410 Gone (HTTP or
 * an ERROR event) LIST again and hand the full current set to the caller to
 * reconcile, then watch again. No polling. */
#ifndef SL_K8S_WATCH_H
#define SL_K8S_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "k8s/http.h"

struct json_object;
struct sl_k8s_watch;

enum sl_k8s_watch_type { SL_KW_ADDED, SL_KW_MODIFIED, SL_KW_DELETED, SL_KW_BOOKMARK, SL_KW_ERROR };

struct sl_k8s_watch_ops {
	/* The complete current set (a JSON array of objects, borrowed) after
	 * the first LIST and after every relist: objects not in it are gone. */
	void (*relisted)(struct json_object *items, const char *rv, void *arg);
	/* ADDED/MODIFIED/DELETED; obj borrowed. Bookmarks are not delivered. */
	void (*event)(enum sl_k8s_watch_type type, struct json_object *obj, void *arg);
	/* Optional: a failure that is being retried (for logging). */
	void (*problem)(const struct sl_err *err, void *arg);
};

struct sl_k8s_watch_opts {
	const char *path;            /* collection, e.g. /apis/jobset.x-k8s.io/v1alpha2/jobsets */
	const char *label_selector;  /* raw; NULL: none */
	const char *field_selector;
	int timeout_s;               /* per watch request; 0: 300 */
	int64_t list_limit;          /* page size; 0: 500 */
	int64_t backoff_base_ms;     /* 0: 800 (client-go reflector) */
	int64_t backoff_cap_ms;      /* 0: 30000 */
};

/* Start at once (the LIST is queued). ops and arg must outlive the watch.
 * Callbacks may call sl_k8s_watch_free(). Caller frees with sl_k8s_watch_free(). */
struct sl_k8s_watch *sl_k8s_watch_new(struct sl_k8s_http *h, const struct sl_k8s_watch_opts *o,
				      const struct sl_k8s_watch_ops *ops, void *arg);
void sl_k8s_watch_free(struct sl_k8s_watch *w);

/* Last resourceVersion seen (borrowed; "" before the first list). */
const char *sl_k8s_watch_rv(const struct sl_k8s_watch *w);

struct sl_k8s_watch_stats {
	uint64_t lists, watches, events, bookmarks, gone;
};
void sl_k8s_watch_stats(const struct sl_k8s_watch *w, struct sl_k8s_watch_stats *out);

/* Parse one watch line. On success *obj is the event's object (caller puts
 * it). ERROR events carry the Status in *obj and its code in *code (else 0).
 * -SL_EPROTO with a message for anything else. */
int sl_k8s_watch_parse_line(const char *line, size_t len, enum sl_k8s_watch_type *type,
			    struct json_object **obj, int *code, struct sl_err *err);

#endif
