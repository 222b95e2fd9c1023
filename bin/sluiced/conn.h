/* conn.h - the listening socket and client connections: accept with
 * SO_PEERCRED, framing, dispatch of whole frames, replies held until the
 * loop turn's commit. */
#ifndef SL_CONN_H
#define SL_CONN_H

#include "sluiced.h"

struct sl_conns;

/* Create the socket directory (0755) and the socket (0666) at path, replacing
 * a stale socket but refusing to steal one a live daemon answers on. */
int sl_conns_listen(struct sluiced *d, const char *path, struct sl_conns **out,
		    struct sl_err *err);
/* Stop accepting (SIGTERM); open connections still get their replies. */
void sl_conns_close_listener(struct sl_conns *c);
/* Send every reply produced this turn. Called after the commit. */
void sl_conns_flush(struct sl_conns *c);
void sl_conns_free(struct sl_conns *c);

#endif
