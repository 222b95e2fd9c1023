/* authq.h - munge credentials decoded off the loop thread. A decode is a
 * round trip to munged; the loop only hands the credential over and hears
 * back, through an eventfd, in loop context. */
#ifndef SL_AUTHQ_H
#define SL_AUTHQ_H

#include <stddef.h>
#include <sys/types.h>
#include "err.h"

struct sl_loop;
struct sl_authq;
struct sl_authq_req;

struct sl_authq_result {
	int rc;            /* 0, or -SL_EAUTH (a refused credential), -SL_EIO (no munged) */
	const char *msg;   /* the reason when rc != 0 */
	uid_t uid;
	gid_t gid;
	void *payload;     /* the callback may take it (and set NULL); else freed after */
	size_t plen;
};

/* Runs in loop context, once per request that was not cancelled. */
typedef void (*sl_authq_fn)(void *arg, struct sl_authq_result *r);

/* Decode with the munged at `socket` (NULL: munge's default). Caller frees
 * with sl_authq_free(). */
int sl_authq_new(struct sl_loop *l, const char *socket, struct sl_authq **out,
		 struct sl_err *err);
/* Queue cred (consumed). The returned handle is valid until fn runs or
 * sl_authq_cancel(). */
struct sl_authq_req *sl_authq_decode(struct sl_authq *q, char *cred, sl_authq_fn fn, void *arg);
/* fn will not run for req (its connection is gone). */
void sl_authq_cancel(struct sl_authq *q, struct sl_authq_req *req);
/* Waits for the decodes under way (a few ms; 2.25 s when munged hangs). */
void sl_authq_free(struct sl_authq *q);

#endif
