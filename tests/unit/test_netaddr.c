/* test_netaddr.c - HOST:PORT as the config and $SLUICE_SERVER write it:
 * split, resolved, and addresses printed back for the log. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netaddr.h"

static void split_ok(const char *s, const char *host, const char *port)
{
	struct sl_err err = SL_ERR_INIT;
	char *h = NULL, *p = NULL;

	assert_int_equal(sl_hostport_split(s, &h, &p, &err), 0);
	assert_string_equal(h, host);
	assert_string_equal(p, port);
	free(h);
	free(p);
}

static void split_bad(const char *s, const char *why)
{
	struct sl_err err = SL_ERR_INIT;
	char *h = (char *)1, *p = (char *)1;

	assert_int_equal(sl_hostport_split(s, &h, &p, &err), -SL_EINVAL);
	assert_ptr_equal(h, (char *)1); /* untouched on error */
	assert_string_equal(err.msg, why);
}

static void test_split(void **state)
{
	split_ok("head1:6820", "head1", "6820");
	split_ok("0.0.0.0:1", "0.0.0.0", "1");
	split_ok("[::]:65535", "::", "65535");
	split_ok("[fe80::1%eth0]:6820", "fe80::1%eth0", "6820");
	split_bad("head1", "\"head1\" is not HOST:PORT (an IPv6 address is written [ADDR]:PORT)");
	split_bad("::1:6820", "\"::1:6820\" is not HOST:PORT (an IPv6 address is written "
			      "[ADDR]:PORT)");
	split_bad("[::1]6820", "\"[::1]6820\" is not HOST:PORT (an IPv6 address is written "
			       "[ADDR]:PORT)");
	split_bad("[::1:6820", "\"[::1:6820\" is not HOST:PORT (an IPv6 address is written "
			       "[ADDR]:PORT)");
	split_bad(":6820", "\":6820\" is not HOST:PORT with a port of 1-65535");
	split_bad("[]:6820", "\"[]:6820\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:", "\"h:\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:0", "\"h:0\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:65536", "\"h:65536\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:+80", "\"h:+80\" is not HOST:PORT with a port of 1-65535");
	split_bad("h: 80", "\"h: 80\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:80x", "\"h:80x\" is not HOST:PORT with a port of 1-65535");
	split_bad("h:99999999999999999999", "\"h:99999999999999999999\" is not HOST:PORT with a "
					    "port of 1-65535");
	assert_int_equal(sl_hostport_split("h:80", NULL, NULL, NULL), 0);
}

static void test_resolve_and_text(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct addrinfo *ai = NULL;
	char text[96];

	assert_int_equal(sl_hostport_resolve("127.0.0.1:6820", 0, &ai, &err), 0);
	assert_non_null(ai);
	sl_sockaddr_text(ai->ai_addr, ai->ai_addrlen, text, sizeof(text));
	assert_string_equal(text, "127.0.0.1:6820");
	freeaddrinfo(ai);
	assert_int_equal(sl_hostport_resolve("[::1]:7", 1, &ai, &err), 0);
	sl_sockaddr_text(ai->ai_addr, ai->ai_addrlen, text, sizeof(text));
	assert_string_equal(text, "[::1]:7");
	freeaddrinfo(ai);
	/* (No test of an unknown name: a resolver without network may take
	 * its full timeout to say so.) */
	assert_int_equal(sl_hostport_resolve("x", 0, &ai, &err), -SL_EINVAL);
	assert_null(ai);
	struct sockaddr_un_like { sa_family_t f; char p[8]; } un = {AF_UNIX, "/x"};
	sl_sockaddr_text((struct sockaddr *)&un, sizeof(un), text, sizeof(text));
	assert_string_equal(text, "local");
}

/* A listening socket on loopback, its port in *port. */
static int listener(int backlog, int *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, backlog), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

static struct addrinfo *loopback(int port)
{
	struct addrinfo *ai = NULL;
	struct sl_err err = SL_ERR_INIT;
	char hp[32];
	snprintf(hp, sizeof(hp), "127.0.0.1:%d", port);
	assert_int_equal(sl_hostport_resolve(hp, 0, &ai, &err), 0);
	return ai;
}

static void test_tcp_connect(void **state)
{
	int port, fd = -1, lfd = listener(4, &port);
	struct addrinfo *ai = loopback(port);
	(void)state;

	assert_int_equal(sl_tcp_connect(ai, 1000, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0); /* blocking on return */
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	close(lfd);
	freeaddrinfo(ai);

	/* nobody listens there any more */
	ai = loopback(port);
	fd = -1;
	assert_int_equal(sl_tcp_connect(ai, 1000, &fd), -ECONNREFUSED);
	assert_int_equal(fd, -1);
	freeaddrinfo(ai);
}

/* A full accept queue drops the SYN, as a host behind a silent firewall
 * does: the handshake never ends and the bound is what returns. */
static void test_tcp_connect_timeout(void **state)
{
	int port, fd, held[4], n = 0, r = 0, lfd = listener(0, &port);
	struct addrinfo *ai = loopback(port);
	(void)state;

	while (n < 4 && (r = sl_tcp_connect(ai, 200, &fd)) == 0)
		held[n++] = fd;
	assert_int_equal(r, -ETIMEDOUT);
	assert_true(n >= 1);
	while (n > 0)
		close(held[--n]);
	close(lfd);
	freeaddrinfo(ai);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_resolve_and_text),
		cmocka_unit_test(test_tcp_connect),
		cmocka_unit_test(test_tcp_connect_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
