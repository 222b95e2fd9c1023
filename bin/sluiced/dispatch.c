/* dispatch.c - the request table. Rows carry the privilege they need, and
 * the check happens here, before any handler runs (cf. OpenSSH mon_table).
 * The rules themselves are authz.c's. */
#include "dispatch.h"
#include "authz.h"
#include "buf.h"
#include "diag.h"
#include "handlers.h"
#include "log.h"
#include "nodeadmin.h"
#include "partadmin.h"
#include "proto.h"
#include "xalloc.h"

#include <string.h>
#include <time.h>

static const struct {
	uint16_t type;
	const char *name;
	enum sl_priv priv;
	sl_handler_fn fn;
	sl_raw_handler_fn raw;   /* instead of fn: writes the reply's text */
	sl_text_handler_fn text; /* instead of both: reads the request's text too */
} table[] = {
	{SL_MSG_SUBMIT, "submit", SL_PRIV_RUNAS, NULL, NULL, sl_h_submit},
	{SL_MSG_JOBS, "jobs", SL_PRIV_ANY, NULL, sl_h_jobs, NULL},
	{SL_MSG_CANCEL, "cancel", SL_PRIV_OWNER, sl_h_cancel, NULL, NULL},
	{SL_MSG_CONTROL, "control", SL_PRIV_OWNER, sl_h_control, NULL, NULL},
	{SL_MSG_PARTITIONS, "partitions", SL_PRIV_ANY, sl_h_partitions, NULL, NULL},
	{SL_MSG_UPDATE, "update", SL_PRIV_OWNER, sl_h_update, NULL, NULL},
	{SL_MSG_PING, "ping", SL_PRIV_ANY, sl_h_ping, NULL, NULL},
	{SL_MSG_RECONFIGURE, "reconfigure", SL_PRIV_OPERATOR, sl_h_reconfigure, NULL, NULL},
	{SL_MSG_CONFIG, "config", SL_PRIV_ANY, sl_h_config, NULL, NULL},
	{SL_MSG_NODE_UPDATE, "node_update", SL_PRIV_OPERATOR, sl_h_node_update, NULL, NULL},
	{SL_MSG_PART_UPDATE, "part_update", SL_PRIV_OPERATOR, sl_h_part_update, NULL, NULL},
	{SL_MSG_HOLD, "hold", SL_PRIV_OWNER, sl_h_hold, NULL, NULL},
	{SL_MSG_STAT, "stat", SL_PRIV_OWNER, sl_h_stat, NULL, NULL},
	{SL_MSG_SHARES, "shares", SL_PRIV_ANY, sl_h_shares, NULL, NULL},
	/* steps: the job's user (or an operator) is checked per job in h_step.c */
	{SL_MSG_STEP_CREATE, "step_create", SL_PRIV_ANY, sl_h_step_create, NULL, NULL},
	{SL_MSG_STEP_END, "step_end", SL_PRIV_ANY, sl_h_step_end, NULL, NULL},
	{SL_MSG_STEPS, "steps", SL_PRIV_ANY, sl_h_steps, NULL, NULL},
	{SL_MSG_STEP_SIGNAL, "step_signal", SL_PRIV_OWNER, sl_h_step_signal, NULL, NULL},
	/* sdiag -r is for operators: checked in the handler */
	{SL_MSG_DIAG, "diag", SL_PRIV_ANY, sl_h_diag, NULL, NULL},
};

static int64_t mono_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

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

/* The request as json-c, or NULL after a warning: not a JSON object. */
static json_object *parse_req(const char *name, const struct sl_peer *peer, const char *body,
			      size_t len)
{
	struct json_tokener *tok = json_tokener_new_ex(64);
	json_object *req = json_tokener_parse_ex(tok, body, (int)len);

	if (req == NULL || json_tokener_get_parse_end(tok) != len ||
	    !json_object_is_type(req, json_type_object)) {
		json_object_put(req);
		req = NULL;
		sl_warn("%s from uid %u: body is not a JSON object", name, (unsigned)peer->uid);
	}
	json_tokener_free(tok);
	return req;
}

int sl_dispatch(struct sluiced *d, const struct sl_peer *peer, uint16_t type,
		const char *body, size_t len, char **reply)
{
	struct sl_err err = SL_ERR_INIT;
	json_object *req = NULL, *rep = NULL;
	struct sl_buf *b = NULL;
	int64_t t0 = mono_us();
	size_t i;
	int r;

	*reply = NULL;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].type == type)
			break;
	if (i == sizeof(table) / sizeof(table[0]))
		return -SL_EPROTO;
	if ((r = sl_authz_request(d->self_uid, d->self_user, peer, table[i].priv, &err)) != 0)
		goto out;
	if (table[i].text == NULL && (req = parse_req(table[i].name, peer, body, len)) == NULL) {
		r = sl_err_set(&err, SL_EPROTO, "request body is not a JSON object");
	} else if (table[i].text != NULL || table[i].raw != NULL) {
		b = sl_buf_new(SL_PROTO_MAX_REPLY);
		r = table[i].text ? table[i].text(d, peer, body, len, b, &err)
				  : table[i].raw(d, peer, req, b, &err);
		if (r == 0)
			*reply = sl_buf_steal(b);
	} else {
		rep = json_object_new_object();
		if ((r = table[i].fn(d, peer, req, rep, &err)) == 0)
			*reply = sl_xstrdup(json_object_to_json_string_ext(rep,
									   JSON_C_TO_STRING_PLAIN));
	}
out:
	if (r != 0) {
		if (err.code == 0)
			sl_err_set(&err, r, "%s", sl_strerror(r));
		*reply = error_reply(err.code, err.msg);
	}
	sl_buf_free(b);
	json_object_put(req);
	json_object_put(rep);
	sl_diag_rpc(d->diag, type, table[i].name, (uint32_t)peer->uid, mono_us() - t0);
	return 0;
}
