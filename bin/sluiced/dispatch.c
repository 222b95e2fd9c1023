/* dispatch.c - the request table. Rows carry the privilege they need, and
 * the check happens here, before any handler runs (cf. OpenSSH mon_table). */
#include "dispatch.h"
#include "buf.h"
#include "handlers.h"
#include "log.h"
#include "proto.h"
#include "xalloc.h"

#include <string.h>

enum priv { PRIV_ANY, PRIV_OPERATOR };

static const struct {
	uint16_t type;
	const char *name;
	enum priv priv;
	sl_handler_fn fn;
	sl_raw_handler_fn raw; /* instead of fn: writes the reply's text */
} table[] = {
	{SL_MSG_PING, "ping", PRIV_ANY, sl_h_ping, NULL},
	{SL_MSG_SUBMIT, "submit", PRIV_ANY, sl_h_submit, NULL},
	{SL_MSG_JOBS, "jobs", PRIV_ANY, NULL, sl_h_jobs},
	{SL_MSG_CANCEL, "cancel", PRIV_ANY, sl_h_cancel, NULL},   /* ownership per job */
	{SL_MSG_CONTROL, "control", PRIV_ANY, sl_h_control, NULL}, /* ownership per job */
	{SL_MSG_INFO, "info", PRIV_ANY, sl_h_info, NULL},
};

static char *error_reply(int code, const char *msg)
{
	json_object *o = json_object_new_object();
	char *t;
	json_object_object_add(o, "code", json_object_new_string(sl_errname(code)));
	json_object_object_add(o, "error", json_object_new_string(msg));
	t = sl_xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return t;
}

int sl_dispatch(struct sluiced *d, const struct sl_peer *peer, uint16_t type,
		const char *body, size_t len, char **reply)
{
	struct sl_err err = SL_ERR_INIT;
	json_object *req = NULL, *rep = NULL;
	struct json_tokener *tok;
	size_t i;
	int r;

	*reply = NULL;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].type == type)
			break;
	if (i == sizeof(table) / sizeof(table[0]))
		return -SL_EPROTO;
	if (table[i].priv == PRIV_OPERATOR && !peer->operator) {
		*reply = error_reply(SL_EPERM, "Access/permission denied");
		return 0;
	}
	tok = json_tokener_new_ex(64);
	req = json_tokener_parse_ex(tok, body, (int)len);
	if (req == NULL || json_tokener_get_parse_end(tok) != len ||
	    !json_object_is_type(req, json_type_object)) {
		json_tokener_free(tok);
		json_object_put(req);
		sl_warn("%s from uid %u: body is not a JSON object", table[i].name,
			(unsigned)peer->uid);
		*reply = error_reply(SL_EPROTO, "request body is not a JSON object");
		return 0;
	}
	json_tokener_free(tok);
	if (table[i].raw != NULL) {
		struct sl_buf *b = sl_buf_new(SL_PROTO_MAX_REPLY);
		if ((r = table[i].raw(d, peer, req, b, &err)) == 0)
			*reply = sl_buf_steal(b);
		sl_buf_free(b);
	} else {
		rep = json_object_new_object();
		if ((r = table[i].fn(d, peer, req, rep, &err)) == 0)
			*reply = sl_xstrdup(json_object_to_json_string_ext(rep,
									   JSON_C_TO_STRING_PLAIN));
	}
	if (r != 0) {
		if (err.code == 0)
			sl_err_set(&err, r, "%s", sl_strerror(r));
		*reply = error_reply(err.code, err.msg);
	}
	json_object_put(req);
	json_object_put(rep);
	return 0;
}
