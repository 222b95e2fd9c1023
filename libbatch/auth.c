/* auth.c - a request's munge credential: made by the command, checked by
 * sluiced (see auth.h). */
#include "auth.h"
#include "sha256.h"
#include "xalloc.h"

#include <munge.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "sluice1:<type>:<sha256 of the body>": the version prefix keeps a
 * credential of another program (or a later Sluice) from matching. */
#define PAYLOAD_MAX 96

static void payload_text(uint16_t type, const void *body, size_t len, char out[PAYLOAD_MAX])
{
	char hex[2 * SL_SHA256_LEN + 1];
	sl_sha256_hex(body, len, hex);
	snprintf(out, PAYLOAD_MAX, "sluice1:%u:%s", (unsigned)type, hex);
}

static munge_ctx_t ctx_for(const char *socket)
{
	munge_ctx_t ctx = munge_ctx_create();
	if (ctx == NULL)
		abort(); /* out of memory: fatal, as in xalloc.c */
	if (socket != NULL && munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) {
		munge_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

int sl_auth_cred(const char *socket, uint16_t type, const void *body, size_t len, char **cred,
		 struct sl_err *err)
{
	char p[PAYLOAD_MAX];
	munge_ctx_t ctx = ctx_for(socket);
	munge_err_t e;
	int r = 0;

	*cred = NULL;
	if (ctx == NULL)
		return sl_err_set(err, SL_EAUTH, "munge: bad socket path %s", socket);
	payload_text(type, body, len, p);
	if ((e = munge_encode(cred, ctx, p, (int)strlen(p) + 1)) != EMUNGE_SUCCESS)
		r = sl_err_set(err, SL_EAUTH, "cannot make a munge credential: %s",
			       munge_ctx_strerror(ctx) ? munge_ctx_strerror(ctx) : munge_strerror(e));
	munge_ctx_destroy(ctx);
	return r;
}

int sl_auth_decode(const char *socket, const char *cred, uid_t *uid, gid_t *gid,
		   void **payload, size_t *plen, struct sl_err *err)
{
	munge_ctx_t ctx = ctx_for(socket);
	int glen = 0, r = 0;
	munge_err_t e;

	*payload = NULL;
	*plen = 0;
	if (ctx == NULL)
		return sl_err_set(err, SL_EAUTH, "munge: bad socket path %s", socket);
	e = munge_decode(cred, ctx, payload, &glen, uid, gid);
	if (e == EMUNGE_SUCCESS)
		*plen = glen > 0 ? (size_t)glen : 0;
	else if (e == EMUNGE_SOCKET) /* munged's trouble, not the credential's */
		r = sl_err_set(err, SL_EIO, "munged: %s",
			       munge_ctx_strerror(ctx) ? munge_ctx_strerror(ctx) : munge_strerror(e));
	else
		r = sl_err_set(err, SL_EAUTH, "%s", munge_strerror(e));
	if (r != 0) {
		free(*payload);
		*payload = NULL;
	}
	munge_ctx_destroy(ctx);
	return r;
}

int sl_auth_match(const void *payload, size_t plen, uint16_t type, const void *body,
		  size_t len, struct sl_err *err)
{
	char want[PAYLOAD_MAX];

	payload_text(type, body, len, want);
	if (payload == NULL || plen != strlen(want) + 1 || memcmp(payload, want, plen) != 0)
		return sl_err_set(err, SL_EAUTH, "Credential not made for this request");
	return 0;
}

int sl_auth_check(const char *socket, const char *cred, uint16_t type, const void *body,
		  size_t len, uid_t *uid, gid_t *gid, struct sl_err *err)
{
	void *got = NULL;
	size_t glen = 0;
	int r = sl_auth_decode(socket, cred, uid, gid, &got, &glen, err);

	if (r == 0)
		r = sl_auth_match(got, glen, type, body, len, err);
	free(got);
	return r;
}
