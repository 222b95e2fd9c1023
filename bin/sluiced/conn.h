/* conn.h - client connections: accepted on the Unix socket (SO_PEERCRED)
 * or on TCP (munge), framing, dispatch of whole frames, replies held until
 * the loop turn's commit. */
#ifndef SL_CONN_H
#define SL_CONN_H

#include "sluiced.h"

struct sl_conns;

/* Listen as d->conf says (listen.h: the socket, the `listen:` addresses)
 * and, with auth: munge, start the decoder (authq.h). These settings hold
 * until the daemon restarts. Caller frees with sl_conns_free(). */
int sl_conns_listen(struct sluiced *d, struct sl_conns **out, struct sl_err *err);
/* Stop accepting (SIGTERM); open connections still get their replies. */
void sl_conns_close_listener(struct sl_conns *c);
/* Send the replies the loop turn made (after the commit). With durable 0
 * (a full disk keeps state changes in memory) the replies to requests
 * that change state wait: what is acknowledged is on disk. */
void sl_conns_flush(struct sl_conns *c, int durable);
void sl_conns_free(struct sl_conns *c);

#endif
