/* test_netaddr.c - HOST:PORT as the config and $SLUICE_SERVER write it:
 * split, resolved, and addresses printed back for the log. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_resolve_and_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
