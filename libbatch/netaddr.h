/* netaddr.h - "host:port" as the config's `listen:` and `controller:` and
 * $SLUICE_SERVER write it (IPv6 in brackets: "[::1]:6820"), resolved the
 * same way by sluiced (to bind) and by the commands (to connect). */
#ifndef SL_NETADDR_H
#define SL_NETADDR_H

#include <stddef.h>
#include <sys/socket.h>
#include "err.h"

struct addrinfo;

/* Split s into *host (brackets removed) and *port; both malloc'd, the
 * caller frees them. -SL_EINVAL with the reason when s is not
 * HOST:PORT with a port of 1-65535. host and port may be NULL to only check. */
int sl_hostport_split(const char *s, char **host, char **port, struct sl_err *err);

/* getaddrinfo() of s for a stream socket: `passive` for bind. Caller frees
 * *out with freeaddrinfo(). -SL_EINVAL (bad syntax) or -SL_ENOENT (the
 * resolver's reason) otherwise. */
int sl_hostport_resolve(const char *s, int passive, struct addrinfo **out, struct sl_err *err);

/* Connect a new stream socket to a, waiting at most ms for the handshake
 * (a host that drops SYNs would hold a blocking connect() for minutes).
 * The socket is blocking and close-on-exec on return, in *fdp. 0 or
 * -errno (-ETIMEDOUT when ms ran out). */
int sl_tcp_connect(const struct addrinfo *a, int ms, int *fdp);

/* "192.0.2.1:6820" or "[2001:db8::1]:6820"; "local" for a Unix socket. */
void sl_sockaddr_text(const struct sockaddr *sa, socklen_t len, char *out, size_t size);

/* 1 when s is a host name (RFC 1123: dot-separated labels of letters, digits
 * and inner '-', at most 253 characters), else 0. */
int sl_host_name_ok(const char *s);

#endif
