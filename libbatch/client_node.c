/* client_node.c - the administrators' requests (PROTOCOL.md, types 13 to
 * 15): scontrol update NodeName=... State=... Reason=...
 * (bin/sluiced/nodeadmin.c), PartitionName=... State=... (partadmin.c),
 * and sdiag's statistics (diag.c). */
#include "client.h"
#include "client_int.h"
#include "proto.h"

#include <json-c/json.h>

/* The reply into *out when out is not NULL. */
static int call_for(uint16_t type, json_object *req, json_object **out, struct sl_err *err)
{
	struct sl_client *c = NULL;
	json_object *rep = NULL;
	int r;

	if ((r = sl_client_connect(NULL, &c, err)) == 0)
		r = sl_client_call(c, type, req, &rep, err);
	else
		json_object_put(req);
	if (r == 0 && out != NULL)
		*out = json_object_get(rep);
	json_object_put(rep);
	sl_client_free(c);
	return r;
}

static int call(uint16_t type, json_object *req, struct sl_err *err)
{
	return call_for(type, req, NULL, err);
}

int sl_client_diag(int reset, json_object **out, struct sl_err *err)
{
	json_object *req = json_object_new_object();

	if (out != NULL)
		*out = NULL;
	if (reset)
		json_object_object_add(req, "reset", json_object_new_boolean(1));
	return call_for(SL_MSG_DIAG, req, out, err);
}

int sl_client_part_update(const char *name, const char *state, struct sl_err *err)
{
	json_object *req = json_object_new_object();

	json_object_object_add(req, "name", json_object_new_string(name));
	json_object_object_add(req, "state", json_object_new_string(state));
	return call(SL_MSG_PART_UPDATE, req, err);
}

int sl_client_node_update(const char *const *names, const char *state, const char *reason,
			  struct sl_err *err)
{
	json_object *req = json_object_new_object(), *a = json_object_new_array();

	for (const char *const *p = names; p != NULL && *p != NULL; p++)
		json_object_array_add(a, json_object_new_string(*p));
	json_object_object_add(req, "names", a);
	if (state != NULL)
		json_object_object_add(req, "state", json_object_new_string(state));
	if (reason != NULL)
		json_object_object_add(req, "reason", json_object_new_string(reason));
	return call(SL_MSG_NODE_UPDATE, req, err);
}
