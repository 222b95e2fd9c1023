/* fdpass.c - see fdpass.h. */
#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

union fdmsg {
	char buf[CMSG_SPACE(SL_FD_MAX * sizeof(int))];
	struct cmsghdr align;
};

int sl_fd_sendv(int sock, const void *data, size_t len, const int *fds, size_t n)
{
	union fdmsg u;
	struct iovec iov = {(void *)data, len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (n > SL_FD_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (n > 0) {
		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(n * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

ssize_t sl_fd_recvv(int sock, void *buf, size_t cap, int *fds, size_t max, size_t *n)
{
	union fdmsg u;
	struct iovec iov = {buf, cap};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	size_t got = 0;
	for (size_t i = 0; i < max; i++)
		fds[i] = -1;
	*n = 0;
	ssize_t len = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	if (len < 0)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int in[SL_FD_MAX];
	if (c != NULL && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len >= CMSG_LEN(0)) {
		got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (got > SL_FD_MAX)
			got = SL_FD_MAX;
		memcpy(in, CMSG_DATA(c), got * sizeof(int));
	}
	if ((m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || got > max) {
		/* MSG_CTRUNC: the kernel has closed what did not fit */
		for (size_t i = 0; i < got; i++)
			close(in[i]);
		errno = EMSGSIZE;
		return -1;
	}
	memcpy(fds, in, got * sizeof(int));
	*n = got;
	return len;
}

int sl_fd_send(int sock, const void *data, size_t len, int fd)
{
	return sl_fd_sendv(sock, data, len, &fd, fd >= 0 ? 1 : 0);
}

ssize_t sl_fd_recv(int sock, void *buf, size_t cap, int *fd)
{
	size_t n;
	return sl_fd_recvv(sock, buf, cap, fd, 1, &n);
}
