/* fuzz_k8s_status.c - Kubernetes API replies: a JobSet or MPIJob and its
 * pods mapped to the Slurm job's state (k8s/status.c). The input is a
 * tests/data/k8s-status case, {"object": OBJ, "pods": [POD...]}, or a bare
 * object (a batch/v1 Job too). */
#include "fuzz.h"

#include <json-c/json.h>

#include "k8s/kinds.h"
#include "k8s/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *doc, *obj = NULL, *pods = NULL;
	json_object *pv[64];
	struct sl_k8s_status st;
	struct sl_err err = SL_ERR_INIT;
	size_t n = 0;

	if (size > FZ_MAX_INPUT)
		return 0;
	{
		char *s = fz_str(data, size);
		doc = json_tokener_parse(s);
		free(s);
	}
	if (doc == NULL)
		return 0;
	if (!json_object_object_get_ex(doc, "object", &obj))
		obj = doc;
	if (json_object_object_get_ex(doc, "pods", &pods) &&
	    json_object_is_type(pods, json_type_array))
		for (size_t i = 0; i < json_object_array_length(pods) && n < 64; i++)
			pv[n++] = json_object_array_get_idx(pods, i);
	memset(&st, 0, sizeof(st));
	/* The kind comes from the object, as the executor's watch picks it. */
	if (sl_k8s_kind_status(obj, pv, n, &st, &err) == 0)
		sl_k8s_status_clear(&st);
	(void)sl_k8s_status_job_deadline(obj);
	(void)sl_k8s_obj_label(obj, "sluice.io/job-id");
	(void)sl_k8s_obj_meta(obj, "name");
	json_object_put(doc);
	return 0;
}
