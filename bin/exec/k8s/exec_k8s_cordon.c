/* exec_k8s_cordon.c - scontrol update NodeName=... State=DRAIN, UNDRAIN or
 * RESUME on Kubernetes: the Node is cordoned (spec.unschedulable), as
 * kubectl cordon does it, by a JSON merge patch that also keeps the
 * operator's reason and name in annotations, which sinfo -R shows
 * (exec_k8s_nodes.c reads them back). The control plane adds the
 * unschedulable taint and the Node watch brings the change here. The
 * request is answered once the patch is sent: the API's refusal is logged,
 * as for a suspend's. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xalloc.h"

static void on_patch(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	(void)obj, (void)arg;
	if (rc != 0) /* the Status names the node */
		sl_warn("kubernetes: node cordon: %s", err->msg);
}

int sl_k8sexec_node_drain(struct sl_exec_k8s *x, const char *node, const char *reason,
			  const char *user, struct sl_err *err)
{
	json_object *p, *spec, *meta, *ann;
	const char *body;
	char *item;

	if (node == NULL || *node == '\0' || strchr(node, '/') != NULL)
		return sl_err_set(err, SL_ENOENT, "Invalid node name specified");
	p = json_object_new_object();
	spec = json_object_new_object();
	meta = json_object_new_object();
	ann = json_object_new_object();
	/* null removes a key in a merge patch: uncordon drops both */
	json_object_object_add(spec, "unschedulable", reason ? json_object_new_boolean(1) : NULL);
	json_object_object_add(ann, SL_K8S_ANN_DRAIN_REASON,
			       reason ? json_object_new_string(reason) : NULL);
	json_object_object_add(ann, SL_K8S_ANN_DRAIN_USER,
			       reason && user ? json_object_new_string(user) : NULL);
	json_object_object_add(meta, "annotations", ann);
	json_object_object_add(p, "metadata", meta);
	json_object_object_add(p, "spec", spec);
	body = json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN);
	item = sl_xasprintf("/api/v1/nodes/%s", node);
	(void)sl_k8s_patch(x->http, item, "application/merge-patch+json", body, strlen(body),
			   on_patch, NULL);
	sl_info("node %s: %s by %s%s%s", node, reason ? "cordoned" : "uncordoned",
		user ? user : "?", reason ? ": " : "", reason ? reason : "");
	free(item);
	json_object_put(p);
	return 0;
}
