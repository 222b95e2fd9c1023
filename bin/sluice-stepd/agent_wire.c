/* agent_wire.c - frames, the launch request and its MAC (agent_wire.h). */
#include "agent_wire.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "xalloc.h"

#define HMAC_BLOCK 64
#define MAC_CONTEXT "sluice-agent-1"
#define LAUNCH_STRS_MAX 65536 /* argv or env entries */

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -SL_EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n > 0) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -SL_EIO;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int agent_frame_write(int fd, int type, const void *p, size_t n)
{
	unsigned char h[5] = {(unsigned char)type, (unsigned char)(n >> 24),
			      (unsigned char)(n >> 16), (unsigned char)(n >> 8), (unsigned char)n};
	char small[5 + 4096];
	if (n > AGENT_FRAME_MAX)
		return -SL_ETOOBIG;
	if (n <= 4096) { /* one write: a frame is not split across segments */
		memcpy(small, h, 5);
		if (n)
			memcpy(small + 5, p, n);
		return write_all(fd, small, 5 + n);
	}
	if (write_all(fd, h, 5) != 0)
		return -SL_EIO;
	return write_all(fd, p, n);
}

int agent_frame_read(int fd, int *type, char **p, size_t *n)
{
	unsigned char h[5];
	size_t len;
	*p = NULL;
	if (read_all(fd, h, 5) != 0)
		return -SL_EIO;
	len = (size_t)h[1] << 24 | (size_t)h[2] << 16 | (size_t)h[3] << 8 | h[4];
	if (len > AGENT_FRAME_MAX)
		return -SL_EPROTO;
	*p = sl_xmalloc(len + 1);
	if (read_all(fd, *p, len) != 0) {
		free(*p);
		*p = NULL;
		return -SL_EIO;
	}
	(*p)[len] = '\0';
	*type = h[0];
	*n = len;
	return 0;
}

/* H((K ^ opad) || H((K ^ ipad) || m)). */
void agent_hmac(const char *secret, const void *msg, size_t n, uint8_t out[AGENT_MAC_LEN])
{
	uint8_t key[HMAC_BLOCK] = {0}, inner[SL_SHA256_LEN];
	size_t klen = strlen(secret);
	uint8_t *ibuf = sl_xmalloc(HMAC_BLOCK + n), obuf[HMAC_BLOCK + SL_SHA256_LEN];

	if (klen > HMAC_BLOCK)
		sl_sha256(secret, klen, key);
	else
		memcpy(key, secret, klen);
	for (int i = 0; i < HMAC_BLOCK; i++) {
		ibuf[i] = key[i] ^ 0x36;
		obuf[i] = key[i] ^ 0x5c;
	}
	if (n)
		memcpy(ibuf + HMAC_BLOCK, msg, n);
	sl_sha256(ibuf, HMAC_BLOCK + n, inner);
	memcpy(obuf + HMAC_BLOCK, inner, SL_SHA256_LEN);
	sl_sha256(obuf, sizeof(obuf), out);
	memset(key, 0, sizeof(key));
	memset(ibuf, 0, HMAC_BLOCK);
	memset(obuf, 0, HMAC_BLOCK);
	free(ibuf);
}

void agent_mac(const char *secret, const uint8_t nonce[AGENT_NONCE_LEN], const void *msg,
	       size_t n, uint8_t out[AGENT_MAC_LEN])
{
	size_t clen = strlen(MAC_CONTEXT);
	uint8_t *m = sl_xmalloc(clen + AGENT_NONCE_LEN + n);
	memcpy(m, MAC_CONTEXT, clen);
	memcpy(m + clen, nonce, AGENT_NONCE_LEN);
	if (n)
		memcpy(m + clen + AGENT_NONCE_LEN, msg, n);
	agent_hmac(secret, m, clen + AGENT_NONCE_LEN + n, out);
	free(m);
}

int agent_mac_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	volatile uint8_t d = 0;
	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static json_object *strv_json(char *const *v)
{
	json_object *a = json_object_new_array();
	for (; v && *v; v++)
		json_object_array_add(a, json_object_new_string(*v));
	return a;
}

char *agent_launch_encode(const struct agent_launch *q, const char *secret,
			  const uint8_t nonce[AGENT_NONCE_LEN], size_t *len)
{
	json_object *o = json_object_new_object();
	const char *js;
	size_t n;
	char *out;

	json_object_object_add(o, "argv", strv_json(q->argv));
	json_object_object_add(o, "env", strv_json(q->env));
	if (q->cwd)
		json_object_object_add(o, "cwd", json_object_new_string(q->cwd));
	if (q->node)
		json_object_object_add(o, "node", json_object_new_string(q->node));
	js = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	n = strlen(js);
	out = sl_xmalloc(AGENT_MAC_LEN + n);
	agent_mac(secret, nonce, js, n, (uint8_t *)out);
	memcpy(out + AGENT_MAC_LEN, js, n);
	json_object_put(o);
	*len = AGENT_MAC_LEN + n;
	return out;
}

static int json_strv(json_object *o, const char *key, int need, char ***out)
{
	json_object *a;
	size_t n;
	*out = NULL;
	if (!json_object_object_get_ex(o, key, &a))
		return need ? -SL_EPROTO : 0;
	if (!json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) > LAUNCH_STRS_MAX || (need && n == 0))
		return -SL_EPROTO;
	*out = sl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(a, i);
		if (!json_object_is_type(s, json_type_string))
			return -SL_EPROTO;
		(*out)[i] = sl_xstrdup(json_object_get_string(s));
	}
	return 0;
}

static char *json_str(json_object *o, const char *key)
{
	json_object *s;
	if (!json_object_object_get_ex(o, key, &s) || !json_object_is_type(s, json_type_string))
		return NULL;
	return sl_xstrdup(json_object_get_string(s));
}

int agent_launch_decode(const char *p, size_t n, const char *secret,
			const uint8_t nonce[AGENT_NONCE_LEN], struct agent_launch *q,
			struct sl_err *err)
{
	uint8_t mac[AGENT_MAC_LEN];
	json_object *o = NULL;
	int r = -SL_EPROTO;

	memset(q, 0, sizeof(*q));
	if (n < AGENT_MAC_LEN)
		return sl_err_set(err, SL_EPROTO, "launch request too short");
	agent_mac(secret, nonce, p + AGENT_MAC_LEN, n - AGENT_MAC_LEN, mac);
	if (!agent_mac_equal(mac, (const uint8_t *)p, AGENT_MAC_LEN))
		return sl_err_set(err, SL_EAUTH, "authentication failed: not this job's secret");
	/* by its length: a request need not end in a NUL */
	if (n - AGENT_MAC_LEN > INT32_MAX)
		return sl_err_set(err, SL_EPROTO, "launch request too long");
	json_tokener *tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, p + AGENT_MAC_LEN, (int)(n - AGENT_MAC_LEN));
	if (o != NULL && json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    json_strv(o, "argv", 1, &q->argv) != 0 || json_strv(o, "env", 0, &q->env) != 0) {
		sl_err_set(err, SL_EPROTO, "malformed launch request");
		goto out;
	}
	q->cwd = json_str(o, "cwd");
	q->node = json_str(o, "node");
	r = 0;
out:
	json_object_put(o);
	if (r != 0)
		agent_launch_clear(q);
	return r;
}

void agent_launch_clear(struct agent_launch *q)
{
	sl_strv_free(q->argv);
	sl_strv_free(q->env);
	free(q->cwd);
	free(q->node);
	memset(q, 0, sizeof(*q));
}

int agent_port(void)
{
	const char *s = getenv(AGENT_PORT_ENV);
	int p = s ? atoi(s) : 0;
	return p > 0 && p < 65536 ? p : AGENT_PORT;
}
