/* conn.c - accept, read frames, dispatch, write replies. A malformed frame
 * closes that connection only; everyone else keeps being served. */
#include "conn.h"
#include "fsutil.h"
#include "idcache.h"
#include "buf.h"
#include "conf.h"
#include "dispatch.h"
#include "log.h"
#include "loop.h"
#include "proto.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 1024
/* A listing of thousands of jobs leaves tens of MiB free in malloc's arenas
 * that it would keep for good; hand them back once such a reply is gone. */
#define BIG_REPLY (1024 * 1024)
#define IN_CAP (SL_PROTO_HDR_LEN + SL_PROTO_MAX_BODY)
#define OUT_CAP (SL_PROTO_HDR_LEN + SL_PROTO_MAX_REPLY)

struct conn {
	struct sl_conns *owner;
	int fd;
	struct sl_peer peer;
	struct sl_buf *in, *out;
	int closing;               /* close once out is drained */
	int big;                   /* sent a reply of BIG_REPLY bytes or more */
	struct conn *next;
};

struct sl_conns {
	struct sluiced *d;
	int lfd;
	char *path;
	struct conn *list;
	size_t n;
};

static void conn_close(struct conn *c)
{
	struct sl_conns *cs = c->owner;
	struct conn **pp;
	for (pp = &cs->list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	sl_loop_del_fd(cs->d->loop, c->fd);
	close(c->fd);
	sl_buf_free(c->in);
	sl_buf_free(c->out);
	if (c->big)
		(void)malloc_trim(0);
	free(c);
	cs->n--;
}

static void peer_fill(struct sluiced *d, struct sl_peer *p)
{
	snprintf(p->user, sizeof(p->user), "%s", sl_idcache_user(d->ids, p->uid, time(NULL)));
	p->operator = p->uid == 0 || p->uid == d->self_uid ||
		      sl_conf_is_operator(d->conf, p->user, p->uid);
}

/* Handle every whole frame in the input buffer. */
static void conn_process(struct conn *c)
{
	struct sluiced *d = c->owner->d;
	for (;;) {
		struct sl_err err = SL_ERR_INIT;
		const char *body;
		size_t blen, used;
		uint16_t type;
		char *reply = NULL;
		int r = sl_proto_decode(sl_buf_data(c->in), sl_buf_len(c->in), SL_PROTO_MAX_BODY,
					&type, &body, &blen, &used, &err);
		if (r == 0)
			return;
		if (r < 0) {
			sl_warn("connection from uid %u (pid %d): %s; closing", (unsigned)c->peer.uid,
				(int)c->peer.pid, err.msg);
			c->closing = 1;
			sl_buf_reset(c->in);
			return;
		}
		r = sl_dispatch(d, &c->peer, type, body, blen, &reply);
		sl_buf_consume(c->in, used);
		if (r == -SL_EPROTO && reply == NULL) {
			sl_warn("uid %u sent unknown message type %u; closing", (unsigned)c->peer.uid,
				type);
			c->closing = 1;
			sl_buf_reset(c->in);
			return;
		}
		c->big |= strlen(reply) >= BIG_REPLY;
		if (sl_proto_encode(c->out, type | SL_MSG_REPLY, reply, strlen(reply)) != 0) {
			sl_err_log("reply of %zu bytes to uid %u is over the cap; closing",
				   strlen(reply), (unsigned)c->peer.uid);
			c->closing = 1;
		}
		free(reply);
	}
}

static void conn_write(struct conn *c)
{
	while (sl_buf_len(c->out) > 0) {
		ssize_t n = send(c->fd, sl_buf_data(c->out), sl_buf_len(c->out), MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			sl_loop_mod_fd(c->owner->d->loop, c->fd, SL_EV_READ | SL_EV_WRITE);
			return;
		}
		if (n <= 0) {
			conn_close(c);
			return;
		}
		sl_buf_consume(c->out, (size_t)n);
	}
	if (c->closing) {
		conn_close(c);
		return;
	}
	sl_loop_mod_fd(c->owner->d->loop, c->fd, SL_EV_READ);
}

static void on_conn(struct sl_loop *l, int fd, int events, void *arg)
{
	struct conn *c = arg;
	if (events & SL_EV_READ) {
		char chunk[65536];
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			conn_close(c);
			return;
		}
		if (n > 0) {
			if (sl_buf_add(c->in, chunk, (size_t)n) != 0) {
				sl_warn("uid %u: request over the size cap; closing",
					(unsigned)c->peer.uid);
				conn_close(c);
				return;
			}
			if (!c->closing)
				conn_process(c);
		}
	}
	/* Replies wait for sl_conns_flush() (after the commit); only a write
	 * that blocked earlier continues here. */
	if ((events & SL_EV_WRITE) && sl_buf_len(c->out) > 0)
		conn_write(c);
}

static void on_accept(struct sl_loop *l, int fd, int events, void *arg)
{
	struct sl_conns *cs = arg;
	for (;;) {
		struct ucred uc;
		socklen_t len = sizeof(uc);
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c;
		if (cfd < 0)
			return;
		if (cs->n >= MAX_CONNS ||
		    getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0) {
			sl_warn("refusing connection: %s", cs->n >= MAX_CONNS ?
				"too many connections" : strerror(errno));
			close(cfd);
			continue;
		}
		c = sl_xcalloc(1, sizeof(*c));
		c->owner = cs;
		c->fd = cfd;
		c->peer.uid = uc.uid;
		c->peer.gid = uc.gid;
		c->peer.pid = uc.pid;
		peer_fill(cs->d, &c->peer);
		c->in = sl_buf_new(IN_CAP);
		c->out = sl_buf_new(OUT_CAP);
		c->next = cs->list;
		cs->list = c;
		cs->n++;
		sl_loop_add_fd(l, cfd, SL_EV_READ, on_conn, c);
		/* A client sends its request right after connect: it is usually
		 * here already, and reading it now saves a poll and a wake-up. */
		on_conn(l, cfd, SL_EV_READ, c);
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

int sl_conns_listen(struct sluiced *d, const char *path, struct sl_conns **out,
		    struct sl_err *err)
{
	struct sockaddr_un sa;
	struct sl_conns *cs;
	int fd, r;

	*out = NULL;
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
	    chmod(path, 0666) != 0 || listen(fd, 512) != 0) {
		r = sl_err_set(err, SL_EIO, "cannot listen on %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	cs = sl_xcalloc(1, sizeof(*cs));
	cs->d = d;
	cs->lfd = fd;
	cs->path = sl_xstrdup(path);
	sl_loop_add_fd(d->loop, fd, SL_EV_READ, on_accept, cs);
	*out = cs;
	return 0;
}

void sl_conns_close_listener(struct sl_conns *cs)
{
	if (cs == NULL || cs->lfd < 0)
		return;
	sl_loop_del_fd(cs->d->loop, cs->lfd);
	close(cs->lfd);
	cs->lfd = -1;
	unlink(cs->path);
}

void sl_conns_flush(struct sl_conns *cs)
{
	struct conn *c = cs->list, *next;
	for (; c != NULL; c = next) {
		next = c->next;
		if (sl_buf_len(c->out) > 0 || c->closing)
			conn_write(c);
	}
}

void sl_conns_free(struct sl_conns *cs)
{
	if (cs == NULL)
		return;
	sl_conns_close_listener(cs);
	while (cs->list != NULL)
		conn_close(cs->list);
	free(cs->path);
	free(cs);
}
