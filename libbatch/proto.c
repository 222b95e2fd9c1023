/* proto.c - framing. Only whole, well-formed frames reach handlers. */
#include "proto.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int sl_proto_encode(struct sl_buf *out, uint16_t type, const char *body, size_t len)
{
	unsigned char h[SL_PROTO_HDR_LEN];
	int r;

	if (len > SL_PROTO_MAX_REPLY)
		return -SL_ETOOBIG;
	put32(h, SL_PROTO_MAGIC);
	h[4] = SL_PROTO_VERSION >> 8;
	h[5] = SL_PROTO_VERSION & 0xff;
	h[6] = (unsigned char)(type >> 8);
	h[7] = (unsigned char)type;
	put32(h + 8, (uint32_t)len);
	if ((r = sl_buf_add(out, h, sizeof(h))) != 0)
		return r;
	return sl_buf_add(out, body, len);
}

int sl_proto_decode(const void *data, size_t len, size_t cap, uint16_t *type,
		    const char **body, size_t *body_len, size_t *used,
		    struct sl_err *err)
{
	const unsigned char *p = data;
	uint32_t blen;
	unsigned version;

	/* Check the magic as soon as it is there, so garbage fails fast. */
	if (len >= 4 && get32(p) != SL_PROTO_MAGIC)
		return sl_err_set(err, SL_EPROTO, "bad magic: not a Sluice client");
	if (len < SL_PROTO_HDR_LEN)
		return 0;
	version = (unsigned)p[4] << 8 | p[5];
	if (version != SL_PROTO_VERSION)
		return sl_err_set(err, SL_EPROTO,
				  "protocol version %u is not %u: commands and sluiced differ in version",
				  version, SL_PROTO_VERSION);
	blen = get32(p + 8);
	if (blen > cap)
		return sl_err_set(err, SL_ETOOBIG, "message of %u bytes is over the %zu-byte cap",
				  blen, cap);
	if (len - SL_PROTO_HDR_LEN < blen)
		return 0;
	*type = (uint16_t)((unsigned)p[6] << 8 | p[7]);
	*body = (const char *)p + SL_PROTO_HDR_LEN;
	*body_len = blen;
	*used = SL_PROTO_HDR_LEN + (size_t)blen;
	return 1;
}

int sl_proto_peek(const void *data, size_t len, uint16_t *type, uint32_t *body_len)
{
	const unsigned char *p = data;

	if (len < SL_PROTO_HDR_LEN)
		return 0;
	*type = (uint16_t)((unsigned)p[6] << 8 | p[7]);
	*body_len = get32(p + 8);
	return 1;
}

/* A munge credential is "MUNGE:" and base64 then ":": nothing to escape,
 * so the body is written as text. Anything else is refused here rather
 * than sent and refused by the daemon. */
int sl_proto_auth_encode(struct sl_buf *out, const char *cred)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=:";
	size_t n = strlen(cred);
	char *body;
	int r;

	if (strspn(cred, ok) != n || n + 16 > SL_PROTO_MAX_AUTH)
		return -SL_EPROTO;
	body = sl_xasprintf("{\"munge\":\"%s\"}", cred);
	r = sl_proto_encode(out, SL_MSG_AUTH, body, strlen(body));
	free(body);
	return r;
}

int sl_proto_auth_decode(const char *body, size_t len, char **cred, struct sl_err *err)
{
	struct json_tokener *tok = json_tokener_new_ex(4);
	json_object *o = json_tokener_parse_ex(tok, body, (int)len), *v;
	int r = 0;

	*cred = NULL;
	if (o == NULL || json_tokener_get_parse_end(tok) != len ||
	    !json_object_object_get_ex(o, "munge", &v) || !json_object_is_type(v, json_type_string))
		r = sl_err_set(err, SL_EPROTO, "auth message is not {\"munge\": CREDENTIAL}");
	else
		*cred = sl_xstrdup(json_object_get_string(v));
	json_object_put(o);
	json_tokener_free(tok);
	return r;
}

const char *sl_proto_type_name(uint16_t type)
{
	static const char *names[SL_MSG_TYPE_MAX] = {
		[SL_MSG_SUBMIT] = "submit", [SL_MSG_JOBS] = "jobs",
		[SL_MSG_CANCEL] = "cancel", [SL_MSG_CONTROL] = "control",
		[SL_MSG_AUTH] = "auth",
		[SL_MSG_PARTITIONS] = "partitions", [SL_MSG_UPDATE] = "update",
		[SL_MSG_PING] = "ping", [SL_MSG_RECONFIGURE] = "reconfigure",
		[SL_MSG_CONFIG] = "config", [SL_MSG_HOLD] = "hold", [SL_MSG_SHARES] = "shares",
		[SL_MSG_STAT] = "stat", [SL_MSG_STEP_CREATE] = "step_create",
		[SL_MSG_STEP_END] = "step_end", [SL_MSG_STEPS] = "steps",
		[SL_MSG_STEP_SIGNAL] = "step_signal", [SL_MSG_NODE_UPDATE] = "node_update",
		[SL_MSG_PART_UPDATE] = "part_update", [SL_MSG_DIAG] = "diag",
	};
	type &= (uint16_t)~SL_MSG_REPLY;
	return type < SL_MSG_TYPE_MAX && names[type] ? names[type] : "unknown";
}
