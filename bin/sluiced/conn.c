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

/* One user must not deny service to others: a user holds at most
 * PER_UID_CONNS connections, and the last RESERVED_CONNS are kept for root
 * and operators. A connection with nothing to read and nothing to send for
 * IDLE_MS (Slurm's MessageTimeout is 10 s), or whose reply the client does
 * not read for STALL_MS, is closed. */
#define MAX_CONNS 1024
#define RESERVED_CONNS 64
#define PER_UID_CONNS 128
#define IDLE_MS 10000
#define STALL_MS 60000
#define SWEEP_MS 1000
/* Replies waiting for clients that do not read: past this a new reply is
 * refused (the client is told to retry), so slow readers cannot take the
 * daemon's memory. Each connection holds at most one reply. */
#define PENDING_OUT_CAP ((size_t)256 << 20)
/* accept() out of descriptors: stop listening this long, keep serving. */
#define EMFILE_BACKOFF_MS 100
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
	int64_t active_ms;         /* last byte read or written */
	uint64_t resume;           /* timer: process input held back by a reply */
	struct conn *next;
};

struct sl_conns {
	struct sluiced *d;
	int lfd;
	char *path;
	struct conn *list;
	size_t n;
	size_t pending_out;        /* bytes of replies not yet sent */
	uint64_t sweep, backoff;   /* timers */
	int64_t emfile_logged_ms;
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
	if (c->resume != 0)
		sl_loop_del_timer(cs->d->loop, c->resume);
	cs->pending_out -= sl_buf_len(c->out);
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

/* The reply goes out; over the daemon's cap for unsent replies it is
 * replaced by a short error, so a reader that stalls costs nothing more. */
static void conn_reply(struct conn *c, uint16_t type, char *reply)
{
	struct sl_conns *cs = c->owner;
	size_t before = sl_buf_len(c->out), len = strlen(reply);

	if (cs->pending_out + len > PENDING_OUT_CAP) {
		sl_warn("uid %u: reply of %zu bytes refused: %zu MiB of replies wait for clients",
			(unsigned)c->peer.uid, len, cs->pending_out >> 20);
		free(reply);
		reply = sl_xasprintf("{\"code\":\"%s\",\"error\":\"sluiced is busy sending "
				     "replies to other clients; try again\"}", sl_errname(SL_EBUSY));
		len = strlen(reply);
	}
	c->big |= len >= BIG_REPLY;
	if (sl_proto_encode(c->out, type | SL_MSG_REPLY, reply, len) != 0) {
		sl_err_log("reply of %zu bytes to uid %u is over the cap; closing", len,
			   (unsigned)c->peer.uid);
		c->closing = 1;
	}
	cs->pending_out += sl_buf_len(c->out) - before;
	free(reply);
}

/* Handle the whole frames in the input buffer, one reply at a time: a
 * client that sends requests without reading the replies is not read
 * further until it does (the kernel's socket buffers hold the rest). */
static void conn_process(struct conn *c)
{
	struct sluiced *d = c->owner->d;
	while (sl_buf_len(c->out) == 0 && !c->closing) {
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
		conn_reply(c, type, reply);
	}
}

static void on_resume(struct sl_loop *l, uint64_t id, void *arg)
{
	struct conn *c = arg;
	c->resume = 0;
	conn_process(c);
}

static void conn_write(struct conn *c)
{
	while (sl_buf_len(c->out) > 0) {
		ssize_t n = send(c->fd, sl_buf_data(c->out), sl_buf_len(c->out), MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			/* Not READ too: its input is not read until this is sent. */
			sl_loop_mod_fd(c->owner->d->loop, c->fd, SL_EV_WRITE);
			return;
		}
		if (n <= 0) {
			conn_close(c);
			return;
		}
		sl_buf_consume(c->out, (size_t)n);
		c->owner->pending_out -= (size_t)n;
		c->active_ms = sl_loop_now_ms(c->owner->d->loop);
	}
	if (c->closing) {
		conn_close(c);
		return;
	}
	sl_loop_mod_fd(c->owner->d->loop, c->fd, SL_EV_READ);
	/* Requests held back behind this reply are handled from the loop, not
	 * here: their replies must wait for the next commit. */
	if (sl_buf_len(c->in) > 0 && c->resume == 0)
		c->resume = sl_loop_add_timer(c->owner->d->loop, 0, on_resume, c);
}

static void on_conn(struct sl_loop *l, int fd, int events, void *arg)
{
	struct conn *c = arg;
	if ((events & SL_EV_READ) && sl_buf_len(c->out) == 0) {
		char chunk[65536];
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			conn_close(c);
			return;
		}
		if (n > 0) {
			c->active_ms = sl_loop_now_ms(l);
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

static size_t conns_of(const struct sl_conns *cs, uid_t uid)
{
	size_t n = 0;
	for (const struct conn *c = cs->list; c != NULL; c = c->next)
		n += c->peer.uid == uid;
	return n;
}

/* Why a new connection of `p` is refused, or NULL. */
static const char *over_limit(const struct sl_conns *cs, const struct sl_peer *p)
{
	if (cs->n >= MAX_CONNS)
		return "too many connections";
	if (p->operator)
		return NULL;
	if (cs->n >= MAX_CONNS - RESERVED_CONNS)
		return "too many connections (the rest are kept for operators)";
	if (conns_of(cs, p->uid) >= PER_UID_CONNS)
		return "too many connections from this user";
	return NULL;
}

static void on_listen_again(struct sl_loop *l, uint64_t id, void *arg);

/* Out of descriptors (or kernel memory): the pending connection stays
 * queued and the listener would poll ready forever; stop listening a
 * moment, and keep serving the connections we have. */
static void accept_backoff(struct sl_conns *cs, int e)
{
	int64_t now = sl_loop_now_ms(cs->d->loop);
	if (now - cs->emfile_logged_ms >= 10000) {
		sl_warn("accept: %s; not accepting for %d ms", strerror(e), EMFILE_BACKOFF_MS);
		cs->emfile_logged_ms = now;
	}
	sl_loop_del_fd(cs->d->loop, cs->lfd);
	cs->backoff = sl_loop_add_timer(cs->d->loop, EMFILE_BACKOFF_MS, on_listen_again, cs);
}

static void on_accept(struct sl_loop *l, int fd, int events, void *arg)
{
	struct sl_conns *cs = arg;
	for (;;) {
		struct ucred uc;
		struct sl_peer peer;
		socklen_t len = sizeof(uc);
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		const char *why;
		struct conn *c;
		if (cfd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				accept_backoff(cs, errno);
			return;
		}
		if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0) {
			sl_warn("refusing connection: %s", strerror(errno));
			close(cfd);
			continue;
		}
		memset(&peer, 0, sizeof(peer));
		peer.uid = uc.uid;
		peer.gid = uc.gid;
		peer.pid = uc.pid;
		peer_fill(cs->d, &peer);
		if ((why = over_limit(cs, &peer)) != NULL) {
			sl_warn("refusing connection from uid %u (pid %d): %s", (unsigned)uc.uid,
				(int)uc.pid, why);
			close(cfd);
			continue;
		}
		c = sl_xcalloc(1, sizeof(*c));
		c->owner = cs;
		c->fd = cfd;
		c->peer = peer;
		c->active_ms = sl_loop_now_ms(l);
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

static void on_listen_again(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_conns *cs = arg;
	cs->backoff = 0;
	if (cs->lfd >= 0)
		sl_loop_add_fd(l, cs->lfd, SL_EV_READ, on_accept, cs);
}

/* Close connections that sent nothing for IDLE_MS, or did not take their
 * reply for STALL_MS. */
static void on_sweep(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_conns *cs = arg;
	int64_t now = sl_loop_now_ms(l);
	struct conn *c, *next;
	for (c = cs->list; c != NULL; c = next) {
		int sending = sl_buf_len(c->out) > 0;
		next = c->next;
		if (now - c->active_ms < (sending ? STALL_MS : IDLE_MS))
			continue;
		sl_info("closing the connection of uid %u (pid %d): %s", (unsigned)c->peer.uid,
			(int)c->peer.pid, sending ? "its reply is not being read" : "idle");
		conn_close(c);
	}
	cs->sweep = sl_loop_add_timer(l, SWEEP_MS, on_sweep, cs);
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
	cs->sweep = sl_loop_add_timer(d->loop, SWEEP_MS, on_sweep, cs);
	*out = cs;
	return 0;
}

void sl_conns_close_listener(struct sl_conns *cs)
{
	if (cs == NULL || cs->lfd < 0)
		return;
	if (cs->backoff != 0)
		sl_loop_del_timer(cs->d->loop, cs->backoff);
	cs->backoff = 0;
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
	if (cs->sweep != 0)
		sl_loop_del_timer(cs->d->loop, cs->sweep);
	while (cs->list != NULL)
		conn_close(cs->list);
	free(cs->path);
	free(cs);
}
