/* client_step.c - the job-step requests (client_step.h). */
#include "client_step.h"

#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "client_int.h"
#include "proto.h"
#include "usage.h"
#include "xalloc.h"

/* Connect, one request, its reply; consumes req. */
static int call(uint16_t type, json_object *req, json_object **rep, struct sl_err *err)
{
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);
	*rep = NULL;
	if (r == 0)
		r = sl_client_call(c, type, req, rep, err);
	else
		json_object_put(req);
	sl_client_free(c);
	return r;
}

int sl_client_step_create(const struct sl_step *s, uint32_t *step_id, struct sl_err *err)
{
	json_object *rep, *v;
	int r = call(SL_MSG_STEP_CREATE, sl_step_to_json(s), &rep, err);
	if (r != 0)
		return r;
	if (!json_object_object_get_ex(rep, "step", &v))
		r = sl_err_set(err, SL_EPROTO, "step create: no step id in the reply");
	else
		*step_id = (uint32_t)json_object_get_int64(v);
	json_object_put(rep);
	return r;
}

int sl_client_step_end(const struct sl_step *s, struct sl_err *err)
{
	json_object *rep;
	int r = call(SL_MSG_STEP_END, sl_step_to_json(s), &rep, err);
	json_object_put(rep);
	return r;
}

int sl_client_steps(const uint64_t *jobs, size_t n, int running_only, struct sl_step **out,
		    size_t *nout, struct sl_err *err)
{
	json_object *req = json_object_new_object(), *ids = json_object_new_array(), *rep, *arr;
	size_t len;
	int r;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n; i++)
		json_object_array_add(ids, json_object_new_int64((int64_t)jobs[i]));
	json_object_object_add(req, "jobs", ids);
	json_object_object_add(req, "running", json_object_new_boolean(running_only));
	if ((r = call(SL_MSG_STEPS, req, &rep, err)) != 0)
		return r;
	if (!json_object_object_get_ex(rep, "steps", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		json_object_put(rep);
		return sl_err_set(err, SL_EPROTO, "steps: no list in the reply");
	}
	len = json_object_array_length(arr);
	*out = sl_xcalloc(len ? len : 1, sizeof(**out));
	for (size_t i = 0; i < len && r == 0; i++)
		r = sl_step_from_json(json_object_array_get_idx(arr, i), &(*out)[i], err);
	*nout = len;
	json_object_put(rep);
	if (r != 0) {
		sl_step_free_array(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	return r;
}

int sl_client_step_signal(uint64_t job, uint32_t step, int sig, struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep;
	int r;
	json_object_object_add(req, "job", json_object_new_int64((int64_t)job));
	json_object_object_add(req, "step", json_object_new_int64(step));
	json_object_object_add(req, "signal", json_object_new_int(sig));
	r = call(SL_MSG_STEP_SIGNAL, req, &rep, err);
	json_object_put(rep);
	return r;
}

/* A job's usage (step < 0: its batch step's) and the node it runs on. */
static int stat_call(uint64_t job, int64_t step, struct sl_usage *u, char **node,
		     struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep = NULL, *v;
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);

	memset(u, 0, sizeof(*u));
	*node = NULL;
	json_object_object_add(req, "id", json_object_new_int64((int64_t)job));
	if (step >= 0)
		json_object_object_add(req, "step", json_object_new_int64(step));
	if (r == 0)
		r = sl_client_call(c, SL_MSG_STAT, req, &rep, err);
	else
		json_object_put(req);
	if (r == 0) {
		if (json_object_object_get_ex(rep, "usage", &v))
			sl_usage_from_obj(v, u);
		if (json_object_object_get_ex(rep, "node", &v) && json_object_is_type(v, json_type_string))
			*node = sl_xstrdup(json_object_get_string(v));
	}
	json_object_put(rep);
	sl_client_free(c);
	return r;
}

int sl_client_stat(uint64_t id, struct sl_usage *u, char **node, struct sl_err *err)
{
	return stat_call(id, -1, u, node, err);
}

int sl_client_step_stat(uint64_t job, uint32_t step, struct sl_usage *u, char **node,
			struct sl_err *err)
{
	return stat_call(job, (int64_t)step, u, node, err);
}

int sl_client_step_take(uint64_t job, uint32_t step, int **sigs, size_t *n, struct sl_err *err)
{
	json_object *req = json_object_new_object(), *ids = json_object_new_array(), *rep, *arr;
	int r;

	*sigs = NULL;
	*n = 0;
	json_object_array_add(ids, json_object_new_int64((int64_t)job));
	json_object_object_add(req, "jobs", ids);
	json_object_object_add(req, "running", json_object_new_boolean(1));
	json_object_object_add(req, "take", json_object_new_int64((int64_t)step));
	if ((r = call(SL_MSG_STEPS, req, &rep, err)) != 0)
		return r;
	if (json_object_object_get_ex(rep, "signals", &arr) &&
	    json_object_is_type(arr, json_type_array)) {
		size_t len = json_object_array_length(arr);
		*sigs = sl_xcalloc(len ? len : 1, sizeof(**sigs));
		for (size_t i = 0; i < len; i++)
			(*sigs)[i] = json_object_get_int(json_object_array_get_idx(arr, i));
		*n = len;
	}
	json_object_put(rep);
	return 0;
}
