/* test_fdpass.c - one message with one descriptor over a socketpair: the
 * descriptor arrives open and close-on-exec, a message without one reports
 * none, EOF is 0, and a message too long for the buffer is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fdpass.h"

static void test_roundtrip(void **state)
{
	int sv[2], p[2], fd = -2;
	char buf[16];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(sl_fd_send(sv[0], "dir", 4, p[1]), 0);
	assert_int_equal(sl_fd_recv(sv[1], buf, sizeof(buf), &fd), 4);
	assert_string_equal(buf, "dir");
	assert_true(fd >= 0 && fd != p[1]);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(write(fd, "x", 1), 1); /* the same pipe */
	assert_int_equal(read(p[0], buf, 1), 1);
	assert_int_equal(buf[0], 'x');
	close(fd);

	assert_int_equal(sl_fd_send(sv[0], "no fd", 6, -1), 0);
	assert_int_equal(sl_fd_recv(sv[1], buf, sizeof(buf), &fd), 6);
	assert_int_equal(fd, -1);

	assert_int_equal(sl_fd_send(sv[0], "far too long a message", 23, p[1]), 0);
	assert_int_equal(sl_fd_recv(sv[1], buf, 8, &fd), -1);
	assert_int_equal(errno, EMSGSIZE);
	assert_int_equal(fd, -1);

	close(sv[0]);
	assert_int_equal(sl_fd_recv(sv[1], buf, sizeof(buf), &fd), 0);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
