/* kinds.h - the kinds of Kubernetes object a job runs as, one row each with
 * all that differs between them: REST paths, the renderer, and how the
 * object and its pods read back as a Slurm state (status.h). sl_render(),
 * the executor's creates, deletes and watches, and `sluice render` all go
 * through a row, so a new kind (a Pod per srun step) is a row and its
 * functions, not `if`s to find. */
#ifndef SL_K8S_KINDS_H
#define SL_K8S_KINDS_H

#include <stddef.h>
#include "err.h"

struct json_object;
struct sl_k8s_status;
struct sl_render_ctx;

enum { SL_K8S_JOBSET, SL_K8S_MPIJOB, SL_K8S_NKINDS };

struct sl_k8s_kind {
	const char *name;        /* the object's "kind" */
	const char *api_version; /* its "apiVersion": REST paths are under /apis/<it> */
	const char *plural;      /* the resource: .../namespaces/NS/<plural>/NAME */
	/* Validate and add "spec" to obj (which has apiVersion, kind, metadata). */
	int (*render)(const struct sl_render_ctx *c, struct json_object *obj, struct sl_err *err);
	const char *owner_label; /* a pod's label naming its object */
	const char *succeeded;   /* the condition that means the job completed */
	int (*pods)(struct json_object *obj);  /* pods expected when all run */
	long (*rank)(struct json_object *pod); /* pod order: the script's pod first */
};

extern const struct sl_k8s_kind sl_k8s_kinds[SL_K8S_NKINDS];

/* /apis/<api_version>[/namespaces/NS]/<plural>[/NAME]: ns NULL for every
 * namespace (watches), name NULL for the collection. Caller frees. */
char *sl_k8s_kind_path(const struct sl_k8s_kind *k, const char *ns, const char *name);

/* sl_k8s_status_eval() by the row of obj's own "kind" (-SL_EINVAL for a
 * kind without one). Borrowed inputs; clear out with sl_k8s_status_clear(). */
int sl_k8s_kind_status(struct json_object *obj, struct json_object *const *pods, size_t npods,
		       struct sl_k8s_status *out, struct sl_err *err);

#endif
