/* listen.h - sluiced's listening sockets: the Unix socket, and the
 * config's `listen:` TCP addresses for login nodes. Accepted connections
 * go to one callback (conn.c), with where they came from. */
#ifndef SL_LISTEN_H
#define SL_LISTEN_H

#include <sys/socket.h>
#include "err.h"

struct sl_loop;
struct sl_listen;

/* fd: accepted, non-blocking, close-on-exec; sa: the peer (TCP only). */
typedef void (*sl_accept_fn)(void *arg, int fd, int tcp, const struct sockaddr *sa,
			     socklen_t salen);

/* Create the socket directory (0755) and the socket (0666) at path,
 * replacing a stale socket but refusing to steal one a live daemon answers
 * on; then bind every address of tcp (NULL-terminated HOST:PORT strings,
 * may be NULL). Caller frees with sl_listen_free(). */
int sl_listen_open(struct sl_loop *l, const char *path, const char *const *tcp,
		   sl_accept_fn fn, void *arg, struct sl_listen **out, struct sl_err *err);
/* Stop accepting (SIGTERM) and remove the socket file. */
void sl_listen_close(struct sl_listen *ls);
void sl_listen_free(struct sl_listen *ls);

#endif
