/* kinds.c - the table of object kinds (kinds.h), and what goes through a
 * row: the renderer's entry point (render.h), REST paths, status. Nothing
 * below this file (render_<kind>.c, render.c, status.c) knows the table. */
#include "k8s/kinds.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/render.h"
#include "k8s/render_int.h"
#include "k8s/status.h"
#include "xalloc.h"

#define OBJECT_MAX 1572864 /* etcd's default request limit */

const struct sl_k8s_kind sl_k8s_kinds[SL_K8S_NKINDS] = {
	[SL_K8S_JOBSET] = {
		.name = "JobSet", .api_version = "jobset.x-k8s.io/v1alpha2", .plural = "jobsets",
		.render = sl_render_jobset,
		.owner_label = "jobset.sigs.k8s.io/jobset-name", .succeeded = "Completed",
		.pods = sl_k8s_status_jobset_pods, .rank = sl_k8s_status_jobset_rank,
	},
	[SL_K8S_MPIJOB] = {
		.name = "MPIJob", .api_version = "kubeflow.org/v2beta1", .plural = "mpijobs",
		.render = sl_render_mpijob,
		.owner_label = "training.kubeflow.org/job-name", .succeeded = "Succeeded",
		.pods = sl_k8s_status_mpijob_pods, .rank = sl_k8s_status_mpijob_rank,
	},
};

char *sl_k8s_kind_path(const struct sl_k8s_kind *k, const char *ns, const char *name)
{
	return sl_xasprintf("/apis/%s%s%s/%s%s%s", k->api_version, ns ? "/namespaces/" : "",
			    ns ? ns : "", k->plural, name ? "/" : "", name ? name : "");
}

int sl_k8s_kind_status(json_object *obj, json_object *const *pods, size_t npods,
		       struct sl_k8s_status *out, struct sl_err *err)
{
	json_object *v = NULL;
	const char *kind = json_object_object_get_ex(obj, "kind", &v) &&
			   json_object_is_type(v, json_type_string) ? json_object_get_string(v)
								    : "(none)";

	for (size_t i = 0; i < SL_K8S_NKINDS; i++)
		if (strcmp(sl_k8s_kinds[i].name, kind) == 0) {
			sl_k8s_status_eval(&sl_k8s_kinds[i], obj, pods, npods, out);
			return 0;
		}
	memset(out, 0, sizeof(*out));
	return sl_err_set(err, SL_EINVAL, "not a JobSet or MPIJob: kind %s", kind);
}

const struct sl_k8s_kind *sl_render_kind(const struct sl_render_in *in)
{
	return &sl_k8s_kinds[sl_render_mpi(in) ? SL_K8S_MPIJOB : SL_K8S_JOBSET];
}

int sl_render(const struct sl_render_in *in, char **json, struct sl_err *err)
{
	const struct sl_k8s_kind *k = sl_render_kind(in);
	struct sl_render_ctx c;
	json_object *obj = NULL;
	const char *text;
	int r;

	*json = NULL;
	if ((r = sl_render_check(in->kube, &in->job->spec, err)) != 0)
		return r; /* before the context: nothing to clean up */
	if ((r = sl_render_ctx_init(in, &c, err)) != 0)
		goto out;
	obj = json_object_new_object();
	json_object_object_add(obj, "apiVersion", json_object_new_string(k->api_version));
	json_object_object_add(obj, "kind", json_object_new_string(k->name));
	json_object_object_add(obj, "metadata", sl_render_metadata(&c));
	if ((r = k->render(&c, obj, err)) != 0)
		goto out;
	text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						   JSON_C_TO_STRING_SPACED |
						   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (strlen(text) > OBJECT_MAX) {
		r = sl_err_set(err, SL_ETOOBIG, "the rendered object is %zu bytes; the API "
			       "server takes at most %d (a large environment or script?)",
			       strlen(text), OBJECT_MAX);
		goto out;
	}
	*json = sl_xasprintf("%s\n", text);
	r = 0;
out:
	json_object_put(obj);
	free(c.name);
	return r;
}
