/* test_fdpass.c - one message with descriptors over a socketpair: a
 * descriptor arrives open and close-on-exec, a message without one reports
 * none, EOF is 0, a message too long for the buffer is refused, and so is
 * one with more descriptors than asked for, none of them left open. */
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

/* Open descriptors of this process, counted. */
static int open_fds(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

static void test_several(void **state)
{
	int sv[2], p[2], q[2], fds[3];
	size_t n = 9;
	char buf[16];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	int two[2] = {p[1], q[1]};
	assert_int_equal(sl_fd_sendv(sv[0], "two", 4, two, 2), 0);
	assert_int_equal(sl_fd_recvv(sv[1], buf, sizeof(buf), fds, 3, &n), 4);
	assert_int_equal(n, 2);
	assert_int_equal(fds[2], -1);
	assert_int_equal(write(fds[0], "p", 1), 1); /* in the order sent */
	assert_int_equal(write(fds[1], "q", 1), 1);
	assert_int_equal(read(p[0], buf, 1), 1);
	assert_int_equal(buf[0], 'p');
	assert_int_equal(read(q[0], buf, 1), 1);
	assert_int_equal(buf[0], 'q');
	close(fds[0]);
	close(fds[1]);

	/* more than the reader takes: refused, and nothing stays open */
	int before = open_fds(), fd = -2;
	assert_int_equal(sl_fd_sendv(sv[0], "two", 4, two, 2), 0);
	assert_int_equal(sl_fd_recv(sv[1], buf, sizeof(buf), &fd), -1);
	assert_int_equal(errno, EMSGSIZE);
	assert_int_equal(fd, -1);
	assert_int_equal(open_fds(), before);

	/* more than a message can carry */
	int many[SL_FD_MAX + 1];
	for (size_t i = 0; i <= SL_FD_MAX; i++)
		many[i] = p[1];
	assert_int_equal(sl_fd_sendv(sv[0], "x", 2, many, SL_FD_MAX + 1), -1);
	assert_int_equal(errno, EINVAL);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_several),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
