/* dispatch.h - request table: type -> handler, with the privilege each row
 * needs checked before the handler runs. */
#ifndef SL_DISPATCH_H
#define SL_DISPATCH_H

#include <stddef.h>
#include <stdint.h>
#include "sluiced.h"

/* Handle one request body (JSON text of len bytes). Always produces a reply
 * body (malloc'd JSON text, caller frees): the result or {"code","error"}.
 * Returns -SL_EPROTO for an unknown type so the caller closes the conn. */
int sl_dispatch(struct sluiced *d, const struct sl_peer *peer, uint16_t type,
		const char *body, size_t len, char **reply);

#endif
