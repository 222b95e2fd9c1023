/* auth.h - munge credentials bound to one request, as Slurm's auth/munge
 * binds them to a message: the credential's payload is a hash of the
 * request's type and body, so a credential lifted off one request proves
 * nothing for another, and munged refuses to decode one twice. The uid and
 * gid are munged's, never the request's. */
#ifndef SL_AUTH_H
#define SL_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"

/* A credential for the request (type, body) from the munged at `socket`
 * (NULL: munge's default). *cred is malloc'd; the caller frees it. */
int sl_auth_cred(const char *socket, uint16_t type, const void *body, size_t len, char **cred,
		 struct sl_err *err);

/* sl_auth_check() in two steps, for a daemon that decodes the credential
 * as soon as it arrives, before the request's body: decode (munged marks
 * it used: a replay fails here), then match the payload (*payload, malloc'd,
 * *plen bytes; the caller frees it) against the request. Same errors, and
 * -SL_EIO when munged cannot be reached (no verdict on the credential). */
int sl_auth_decode(const char *socket, const char *cred, uid_t *uid, gid_t *gid,
		   void **payload, size_t *plen, struct sl_err *err);
int sl_auth_match(const void *payload, size_t plen, uint16_t type, const void *body,
		  size_t len, struct sl_err *err);

/* Decode cred with the munged at `socket` and check that it was made for
 * (type, body). On success *uid and *gid are who made it. -SL_EAUTH with
 * the reason otherwise (replayed, expired, rewound, invalid: another key,
 * or not made for this request). */
int sl_auth_check(const char *socket, const char *cred, uint16_t type, const void *body,
		  size_t len, uid_t *uid, gid_t *gid, struct sl_err *err);

#endif
