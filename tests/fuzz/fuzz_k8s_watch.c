/* fuzz_k8s_watch.c - what the Kubernetes API server sends back besides
 * objects: watch event lines (k8s/watch.c), error replies with a Status
 * body (k8s/kclient.c) and pod logs split at the job's boundary
 * (k8s/podlog.c). */
#include "fuzz.h"

#include <json-c/json.h>

#include "k8s/kclient.h"
#include "k8s/podlog.h"
#include "k8s/watch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int statuses[] = {200, 404, 409, 410, 422, 429, 500};
	const char *text = (const char *)data;
	struct sl_podlog_parts parts;
	enum sl_k8s_watch_type type;
	json_object *obj = NULL;
	int code = 0;

	if (size > FZ_MAX_INPUT)
		return 0;
	{
		struct sl_err err = SL_ERR_INIT;
		if (sl_k8s_watch_parse_line(text, size, &type, &obj, &code, &err) == 0)
			json_object_put(obj);
	}
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		(void)sl_k8s_status_error(statuses[i], text, size, "GET", "/api/v1/pods", &err);
	}
	if (sl_podlog_split(text, size, 7, 1, &parts) == 1 &&
	    (parts.err == NULL || parts.out_len > size || parts.err_len > size))
		abort();
	return 0;
}
