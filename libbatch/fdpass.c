/* fdpass.c - see fdpass.h. */
#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

union fdmsg {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

int sl_fd_send(int sock, const void *data, size_t len, int fd)
{
	union fdmsg u;
	struct iovec iov = {(void *)data, len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (fd >= 0) {
		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = sizeof(u.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

ssize_t sl_fd_recv(int sock, void *buf, size_t cap, int *fd)
{
	union fdmsg u;
	struct iovec iov = {buf, cap};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	*fd = -1;
	ssize_t n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (c != NULL && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		/* MSG_CTRUNC: the kernel has closed what did not fit */
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}
