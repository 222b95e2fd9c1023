/* netaddr.c - "host:port": split, resolve, print (see netaddr.h). */
#include "netaddr.h"
#include "clock.h"
#include "xalloc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sl_hostport_split(const char *s, char **host, char **port, struct sl_err *err)
{
	const char *h = s, *he, *p;
	char *end;
	long n;

	if (*s == '[') { /* [v6]:port: the port follows the bracket */
		h = s + 1;
		he = strchr(h, ']');
		if (he == NULL || he[1] != ':')
			return sl_err_set(err, SL_EINVAL, "\"%s\" is not HOST:PORT "
					  "(an IPv6 address is written [ADDR]:PORT)", s);
		p = he + 2;
	} else {
		he = strrchr(s, ':');
		if (he == NULL || memchr(s, ':', (size_t)(he - s)) != NULL)
			return sl_err_set(err, SL_EINVAL, "\"%s\" is not HOST:PORT "
					  "(an IPv6 address is written [ADDR]:PORT)", s);
		p = he + 1;
	}
	n = strtol(p, &end, 10);
	if (he == h || strspn(p, "0123456789") != strlen(p) || *p == '\0' || *end != '\0' ||
	    n < 1 || n > 65535)
		return sl_err_set(err, SL_EINVAL, "\"%s\" is not HOST:PORT with a port of 1-65535",
				  s);
	if (host != NULL)
		*host = sl_xstrndup(h, (size_t)(he - h));
	if (port != NULL)
		*port = sl_xstrdup(p);
	return 0;
}

int sl_hostport_resolve(const char *s, int passive, struct addrinfo **out, struct sl_err *err)
{
	struct addrinfo hints;
	char *host = NULL, *port = NULL;
	int r, g;

	*out = NULL;
	if ((r = sl_hostport_split(s, &host, &port, err)) != 0)
		return r;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	if ((g = getaddrinfo(host, port, &hints, out)) != 0)
		r = sl_err_set(err, SL_ENOENT, "%s: %s", s, gai_strerror(g));
	free(host);
	free(port);
	return r;
}

void sl_sockaddr_text(const struct sockaddr *sa, socklen_t len, char *out, size_t size)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		snprintf(out, size, "%s:%u", a, (unsigned)ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		snprintf(out, size, "[%s]:%u", a, (unsigned)ntohs(in6->sin6_port));
	} else {
		snprintf(out, size, "local");
	}
}

/* A host name (RFC 1123): dot-separated labels of letters, digits and '-'. */
int sl_host_name_ok(const char *s)
{
	size_t n = strlen(s), label = 0;

	if (n == 0 || n > 253 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == '.') {
			if (label == 0 || s[i - 1] == '-')
				return 0;
			label = 0;
		} else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || (ch == '-' && label > 0)) {
			if (++label > 63)
				return 0;
		} else {
			return 0;
		}
	}
	return s[n - 1] != '-';
}

int sl_tcp_connect(const struct addrinfo *a, int ms, int *fdp)
{
	socklen_t elen = sizeof(int);
	int fd, e = 0;

	if ((fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			 a->ai_protocol)) < 0)
		return -errno;
	if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && (e = errno) == EINPROGRESS) {
		struct pollfd pfd = {fd, POLLOUT, 0};
		int64_t end = sl_mono_ms() + ms, left = ms;
		int n;
		/* a signal does not start the wait over */
		while ((n = poll(&pfd, 1, (int)left)) < 0 && errno == EINTR &&
		       (left = end - sl_mono_ms()) > 0)
			;
		if (n < 0 && errno == EINTR)
			n = 0;
		e = n == 0 ? ETIMEDOUT : n < 0 ? errno : 0;
		if (n == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
			e = errno;
	}
	if (e == 0 && fcntl(fd, F_SETFL, 0) != 0)
		e = errno;
	if (e != 0) {
		close(fd);
		return -e;
	}
	*fdp = fd;
	return 0;
}
