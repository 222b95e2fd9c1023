/* listen.c - the Unix socket and the TCP listeners, and accepting on them.
 * Out of descriptors, every listener pauses a moment (see accept_backoff). */
#include "listen.h"
#include "fsutil.h"
#include "log.h"
#include "loop.h"
#include "netaddr.h"
#include "xalloc.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* accept() out of descriptors: stop listening this long, keep serving. */
#define EMFILE_BACKOFF_MS 100
#define BACKLOG 512
#define MAX_LISTENERS 64 /* the Unix socket and the addresses `listen:` resolves to */

struct sl_listen {
	struct sl_loop *loop;
	sl_accept_fn fn;
	void *arg;
	char *path;                 /* the Unix socket, unlinked at close */
	int fds[MAX_LISTENERS], tcp[MAX_LISTENERS];
	size_t n;
	uint64_t backoff;           /* timer */
	int64_t emfile_logged_ms;
};

static void on_accept(struct sl_loop *l, int fd, int events, void *arg);
static void on_listen_again(struct sl_loop *l, uint64_t id, void *arg);

static void watch_all(struct sl_listen *ls, int on)
{
	for (size_t i = 0; i < ls->n; i++)
		if (on)
			sl_loop_add_fd(ls->loop, ls->fds[i], SL_EV_READ, on_accept, ls);
		else
			sl_loop_del_fd(ls->loop, ls->fds[i]);
}

/* Out of descriptors (or kernel memory): the pending connection stays
 * queued and the listener would poll ready forever; stop listening a
 * moment, and keep serving the connections we have. */
static void accept_backoff(struct sl_listen *ls, int e)
{
	int64_t now = sl_loop_now_ms(ls->loop);
	if (now - ls->emfile_logged_ms >= 10000) {
		sl_warn("accept: %s; not accepting for %d ms", strerror(e), EMFILE_BACKOFF_MS);
		ls->emfile_logged_ms = now;
	}
	watch_all(ls, 0);
	ls->backoff = sl_loop_add_timer(ls->loop, EMFILE_BACKOFF_MS, on_listen_again, ls);
}

static void on_listen_again(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_listen *ls = arg;
	ls->backoff = 0;
	watch_all(ls, 1);
}

static int is_tcp(const struct sl_listen *ls, int fd)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->fds[i] == fd)
			return ls->tcp[i];
	return 0;
}

static void on_accept(struct sl_loop *l, int fd, int events, void *arg)
{
	struct sl_listen *ls = arg;
	int tcp = is_tcp(ls, fd), one = 1;

	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int cfd = accept4(fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				accept_backoff(ls, errno);
			return;
		}
		/* A reply is one write: sent at once, not held for an ACK. */
		if (tcp)
			(void)setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		ls->fn(ls->arg, cfd, tcp, (struct sockaddr *)&ss, len);
	}
}

static int mkdir_parent(const char *path, struct sl_err *err)
{
	char *dir = sl_xstrdup(path), *slash = strrchr(dir, '/');
	int r = 0;
	if (slash != NULL && slash != dir) {
		*slash = '\0';
		r = sl_mkdirs(dir, 0755, err);
	}
	free(dir);
	return r;
}

/* A socket file that still answers belongs to a live daemon: do not steal it. */
static int socket_alive(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), alive;
	if (fd < 0)
		return 0;
	alive = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0;
	close(fd);
	return alive;
}

static void add(struct sl_listen *ls, int fd, int tcp)
{
	ls->fds[ls->n] = fd;
	ls->tcp[ls->n++] = tcp;
}

static int open_unix(struct sl_listen *ls, const char *path, struct sl_err *err)
{
	struct sockaddr_un sa;
	int fd, r;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return sl_err_set(err, SL_ECONFIG, "socket path too long (max %zu): %s",
				  sizeof(sa.sun_path) - 1, path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if ((r = mkdir_parent(path, err)) != 0)
		return r;
	if (socket_alive(&sa))
		return sl_err_set(err, SL_EEXIST, "another sluiced is answering on %s", path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    chmod(path, 0666) != 0 || listen(fd, BACKLOG) != 0) {
		r = sl_err_set(err, SL_EIO, "cannot listen on %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	ls->path = sl_xstrdup(path);
	add(ls, fd, 0);
	return 0;
}

/* Every address `where` resolves to ("localhost:6820": 127.0.0.1 and ::1).
 * IPv6 sockets are v6-only, so "[::]:P" and "0.0.0.0:P" can both be listed. */
static int open_tcp(struct sl_listen *ls, const char *where, struct sl_err *err)
{
	struct addrinfo *ai = NULL;
	char text[96];
	int r, one = 1;

	if ((r = sl_hostport_resolve(where, 1, &ai, err)) != 0) {
		sl_err_prefix(err, "listen");
		return r;
	}
	for (const struct addrinfo *a = ai; a != NULL && r == 0; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		sl_sockaddr_text(a->ai_addr, a->ai_addrlen, text, sizeof(text));
		if (ls->n == MAX_LISTENERS)
			r = sl_err_set(err, SL_ECONFIG, "listen: more than %d addresses",
				       MAX_LISTENERS - 1);
		else if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
			 (a->ai_family == AF_INET6 &&
			  setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
			 bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, BACKLOG) != 0)
			r = sl_err_set(err, SL_EIO, "cannot listen on %s (%s): %s", text, where,
				       strerror(errno));
		if (r != 0) {
			if (fd >= 0)
				close(fd);
			break;
		}
		add(ls, fd, 1);
		sl_info("listening on %s (TCP, munge)", text);
	}
	freeaddrinfo(ai);
	return r;
}

int sl_listen_open(struct sl_loop *l, const char *path, const char *const *tcp,
		   sl_accept_fn fn, void *arg, struct sl_listen **out, struct sl_err *err)
{
	struct sl_listen *ls = sl_xcalloc(1, sizeof(*ls));
	int r;

	*out = NULL;
	ls->loop = l;
	ls->fn = fn;
	ls->arg = arg;
	r = open_unix(ls, path, err);
	for (size_t i = 0; r == 0 && tcp != NULL && tcp[i] != NULL; i++)
		r = open_tcp(ls, tcp[i], err);
	if (r != 0) {
		sl_listen_free(ls);
		return r;
	}
	watch_all(ls, 1);
	*out = ls;
	return 0;
}

void sl_listen_close(struct sl_listen *ls)
{
	if (ls == NULL || ls->n == 0)
		return;
	if (ls->backoff != 0)
		sl_loop_del_timer(ls->loop, ls->backoff);
	ls->backoff = 0;
	for (size_t i = 0; i < ls->n; i++) {
		sl_loop_del_fd(ls->loop, ls->fds[i]);
		close(ls->fds[i]);
	}
	ls->n = 0;
	if (ls->path != NULL)
		unlink(ls->path);
}

void sl_listen_free(struct sl_listen *ls)
{
	if (ls == NULL)
		return;
	sl_listen_close(ls);
	free(ls->path);
	free(ls);
}
