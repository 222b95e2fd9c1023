/* client_node.c - the node update request (PROTOCOL.md, type 13): scontrol
 * update NodeName=... State=... Reason=... (bin/sluiced/nodeadmin.c). */
#include "client.h"
#include "client_int.h"
#include "proto.h"

#include <json-c/json.h>

int sl_client_node_update(const char *const *names, const char *state, const char *reason,
			  struct sl_err *err)
{
	struct sl_client *c = NULL;
	json_object *req = json_object_new_object(), *a = json_object_new_array(), *rep = NULL;
	int r;

	for (const char *const *p = names; p != NULL && *p != NULL; p++)
		json_object_array_add(a, json_object_new_string(*p));
	json_object_object_add(req, "names", a);
	if (state != NULL)
		json_object_object_add(req, "state", json_object_new_string(state));
	if (reason != NULL)
		json_object_object_add(req, "reason", json_object_new_string(reason));
	if ((r = sl_client_connect(NULL, &c, err)) == 0)
		r = sl_client_call(c, SL_MSG_NODE_UPDATE, req, &rep, err);
	else
		json_object_put(req);
	json_object_put(rep);
	sl_client_free(c);
	return r;
}
