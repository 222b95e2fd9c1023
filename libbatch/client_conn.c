/* client_conn.c - the connection to sluiced: find it (SLUICE_SERVER, the
 * config's controller or socket, SLUICE_SOCKET), connect over the Unix
 * socket or TCP with retries, and move one framed request and its reply,
 * with a munge credential when the target needs one. The typed requests
 * built on this are in client.c. */
#include "client.h"
#include "client_int.h"
#include "auth.h"
#include "conf.h"
#include "netaddr.h"
#include "proto.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define REPLY_TIMEOUT_S 60

struct sl_client {
	int fd;
	int tcp;             /* path is HOST:PORT */
	int timed_out;       /* the last read ran out of time (a reply held, not lost) */
	char *path;          /* the socket, or HOST:PORT */
	int munge;           /* a credential goes before each request */
	char *munge_socket;  /* NULL: munge's default */
};

/* Where sluiced is and how to prove who we are. */
struct target {
	char *where;         /* a socket path, or HOST:PORT when tcp */
	int tcp, munge;
	char *munge_socket;
};

static void target_clear(struct target *t)
{
	free(t->where);
	free(t->munge_socket);
}

/* As Slurm's commands find slurmctld: $SLUICE_SERVER (HOST:PORT) first;
 * else the config ($SLUICE_CONF, else $sysconfdir/sluice/sluice.yaml
 * unless $SLUICE_SOCKET names the socket): its `controller:` (TCP), else
 * its `socket`; else $SLUICE_SOCKET, else the default socket. TCP always
 * carries munge credentials; the config's `munge: {socket:}` says where
 * munged is, even when $SLUICE_SERVER names the daemon. */
static int find_target(struct target *t, struct sl_err *err)
{
	const char *conf = getenv("SLUICE_CONF"), *sock = getenv("SLUICE_SOCKET");
	const char *server = getenv("SLUICE_SERVER"), *path = NULL;
	struct sl_conf_peek pk = {0};
	int r;

	memset(t, 0, sizeof(*t));
	if (conf != NULL && *conf != '\0')
		path = conf;
	else if ((sock == NULL || *sock == '\0' || (server != NULL && *server != '\0')) &&
		 access(SYSCONFDIR "/sluice/sluice.yaml", R_OK) == 0)
		path = SYSCONFDIR "/sluice/sluice.yaml";
	if (path != NULL && (r = sl_conf_peek(path, &pk, err)) != 0)
		return r;
	if (server != NULL && *server != '\0') {
		t->where = sl_xstrdup(server);
		t->tcp = t->munge = 1;
	} else if (pk.controller != NULL) {
		t->where = pk.controller, pk.controller = NULL;
		t->tcp = t->munge = 1;
	} else if (path != NULL) {
		t->where = pk.socket, pk.socket = NULL;
		t->munge = pk.munge;
	} else {
		t->where = sl_xstrdup(sock && *sock ? sock : SL_CONF_DEFAULT_SOCKET);
	}
	t->munge_socket = pk.munge_socket, pk.munge_socket = NULL;
	sl_conf_peek_clear(&pk);
	return 0;
}

int sl_client_socket_path(char **out, struct sl_err *err)
{
	struct target t;
	int r = find_target(&t, err);

	*out = r == 0 ? t.where : NULL;
	if (r == 0)
		t.where = NULL;
	target_clear(&t);
	return r;
}

static int unix_connect(const char *path, int *fdp)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	*fdp = fd;
	return 0;
}

/* One address, within ms: a host that does not answer must not hang the
 * command for the kernel's two minutes of SYN retries; nor, once
 * connected, for ever when it goes away without a word (Slurm's commands
 * give up after MessageTimeout; a reply here may wait for a busy commit). */
static int tcp_connect_one(const struct addrinfo *a, int ms, int *fdp)
{
	struct timeval rcv = {REPLY_TIMEOUT_S, 0};
	int fd, r, one = 1;

	if ((r = sl_tcp_connect(a, ms, &fd)) != 0)
		return r;
	/* A request (and its auth message) is one write and nothing follows
	 * until the reply: Nagle would have nothing to coalesce, only an ACK
	 * to wait for. */
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof(rcv)) != 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*fdp = fd;
	return 0;
}

static int tcp_connect(const struct addrinfo *ai, int ms, int *fdp)
{
	int r = -ECONNREFUSED;

	for (const struct addrinfo *a = ai; a != NULL; a = a->ai_next)
		if ((r = tcp_connect_one(a, ms, fdp)) == 0)
			break;
	return r;
}

/* Like Slurm's commands, ride out a daemon restart: retry a refused or
 * missing socket for SLUICE_CONNECT_TIMEOUT seconds (default 5). */
double sl_client_connect_budget(void)
{
	const char *s = getenv("SLUICE_CONNECT_TIMEOUT");
	return s && *s ? atof(s) : 5.0;
}

static int connect_retry(const struct target *t, int *fdp, struct sl_err *err)
{
	struct addrinfo *ai = NULL;
	double waited = 0, budget = sl_client_connect_budget();
	int r;

	if (!t->tcp && strlen(t->where) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return sl_err_set(err, SL_ECONNECT, "socket path too long: %s", t->where);
	if (t->tcp) {
		struct sl_err e = SL_ERR_INIT;
		if (sl_hostport_resolve(t->where, 0, &ai, &e) != 0)
			return sl_err_set(err, SL_ECONNECT, "cannot find sluiced: %s\n"
					  "Unable to contact slurm controller (connect failure)", e.msg);
	}
	for (;;) {
		r = t->tcp ? tcp_connect(ai, (int)(budget * 1000) + 1000, fdp)
			   : unix_connect(t->where, fdp);
		if (r == 0 || (r != -ECONNREFUSED && r != -ENOENT && r != -EAGAIN) ||
		    waited >= budget)
			break;
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
		waited += 0.2;
	}
	if (ai != NULL)
		freeaddrinfo(ai);
	/* Two lines: commands print the first as a hint and the last as
	 * Slurm's exact reason. */
	if (r != 0)
		r = sl_err_set(err, SL_ECONNECT,
			       "sluiced is not answering on %s: %s\n"
			       "Unable to contact slurm controller (connect failure)",
			       t->where, strerror(-r));
	return r;
}

int sl_client_connect(const char *socket, struct sl_client **out, struct sl_err *err)
{
	struct target t = {0};
	int r, fd = -1;

	*out = NULL;
	if (socket != NULL)
		t.where = sl_xstrdup(socket);
	else if ((r = find_target(&t, err)) != 0)
		goto out;
	if ((r = connect_retry(&t, &fd, err)) != 0)
		goto out;
	*out = sl_xcalloc(1, sizeof(**out));
	(*out)->fd = fd;
	(*out)->tcp = t.tcp;
	(*out)->path = t.where;
	(*out)->munge = t.munge;
	(*out)->munge_socket = t.munge_socket;
	t.where = t.munge_socket = NULL;
out:
	target_clear(&t);
	return r;
}

void sl_client_free(struct sl_client *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	free(c->munge_socket);
	free(c);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -SL_EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read one reply frame of type want into *in (caller frees); its body at
 * *body, *blen bytes. */
int sl_client_read_frame(struct sl_client *c, uint16_t want, struct sl_buf **inp,
			   const char **body, size_t *blen, struct sl_err *err)
{
	struct sl_buf *in = *inp = sl_buf_new(SL_PROTO_HDR_LEN + SL_PROTO_MAX_REPLY);
	char chunk[65536];
	size_t used;
	uint16_t type;
	int r;

	for (;;) {
		r = sl_proto_decode(sl_buf_data(in), sl_buf_len(in), SL_PROTO_MAX_REPLY, &type,
				    body, blen, &used, err);
		if (r != 0)
			break;
		ssize_t n = read(c->fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { /* SO_RCVTIMEO (TCP) */
			c->timed_out = 1;
			return sl_err_set(err, SL_ECONNECT, "Socket timed out on send/recv operation");
		}
		if (n <= 0)
			return sl_err_set(err, SL_ECONNECT,
					  "Unable to contact slurm controller (connection closed)");
		sl_buf_add(in, chunk, (size_t)n);
	}
	if (r < 0)
		return r;
	if (type != (want | SL_MSG_REPLY))
		return sl_err_set(err, SL_EPROTO, "unexpected reply type %u", type);
	return 0;
}

static int read_reply(struct sl_client *c, uint16_t want, json_object **reply,
		      struct sl_err *err)
{
	struct sl_buf *in = NULL;
	const char *body;
	size_t blen;
	int r;

	if ((r = sl_client_read_frame(c, want, &in, &body, &blen, err)) == 0) {
		struct json_tokener *tok = json_tokener_new_ex(64);
		*reply = json_tokener_parse_ex(tok, body, (int)blen);
		json_tokener_free(tok);
		r = *reply ? 0 : sl_err_set(err, SL_EPROTO, "bad JSON in reply");
	}
	sl_buf_free(in);
	return r;
}

/* The auth message for (type, text): a munge credential bound to them. */
static int auth_frame(struct sl_client *c, struct sl_buf *out, uint16_t type, const char *text,
		      size_t len, struct sl_err *err)
{
	char *cred = NULL;
	int r;

	if ((r = sl_auth_cred(c->munge_socket, type, text, len, &cred, err)) != 0)
		sl_err_prefix(err, "Protocol authentication error");
	else if ((r = sl_proto_auth_encode(out, cred)) != 0)
		r = sl_err_set(err, SL_EAUTH, "Protocol authentication error: "
			       "munge made a credential of an unexpected shape");
	free(cred);
	return r;
}

int sl_client_send_text(struct sl_client *c, uint16_t type, const char *text, size_t len,
			  struct sl_err *err)
{
	struct sl_buf *out;
	int r = 0;

	if (len > SL_PROTO_MAX_BODY)
		return sl_err_set(err, SL_ETOOBIG, "request of %zu bytes is over the %u-byte cap",
				  len, SL_PROTO_MAX_BODY);
	out = sl_buf_new(2 * SL_PROTO_HDR_LEN + SL_PROTO_MAX_AUTH + SL_PROTO_MAX_BODY);
	/* One write: the daemon finds the credential and its request together. */
	if (c->munge)
		r = auth_frame(c, out, type, text, len, err);
	if (r == 0)
		r = sl_proto_encode(out, type, text, len);
	if (r == 0 && write_all(c->fd, sl_buf_str(out), sl_buf_len(out)) != 0)
		r = sl_err_set(err, SL_ECONNECT,
			       "Unable to contact slurm controller (send failure)");
	sl_buf_free(out);
	return r;
}

/* Send req (consumed). */
int sl_client_send_req(struct sl_client *c, uint16_t type, json_object *req,
		       struct sl_err *err)
{
	const char *text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	int r = sl_client_send_text(c, type, text, strlen(text), err);

	json_object_put(req);
	return r;
}

/* The reply to a request of this type: an error reply becomes the return
 * code and err; otherwise *reply holds it (caller puts it). */
int sl_client_receive(struct sl_client *c, uint16_t type, json_object **reply,
		      struct sl_err *err)
{
	json_object *rep = NULL, *v;
	int r;

	*reply = NULL;
	if ((r = read_reply(c, type, &rep, err)) != 0)
		goto out;
	if (json_object_object_get_ex(rep, "error", &v)) {
		json_object *code;
		int ec = SL_EINTERNAL;
		if (json_object_object_get_ex(rep, "code", &code))
			ec = sl_errcode_from_name(json_object_get_string(code));
		r = sl_err_set(err, ec, "%s", json_object_get_string(v));
		goto out;
	}
	*reply = rep;
	rep = NULL;
out:
	json_object_put(rep);
	return r;
}

/* Requests that a daemon restart may cut short and that are sent again
 * harmlessly: the queries, and cancel, hold and update, whose second
 * sending changes nothing the first did not. (A submission has its own
 * key, sl_client_submit_once; requeue and steps are not asked twice, nor
 * is a signal, which the first may have delivered.) */
static int resendable(uint16_t type, json_object *req)
{
	static const uint16_t t[] = {SL_MSG_JOBS, SL_MSG_PARTITIONS, SL_MSG_CONFIG, SL_MSG_PING,
				     SL_MSG_SHARES, SL_MSG_STAT, SL_MSG_STEPS, SL_MSG_CANCEL,
				     SL_MSG_HOLD, SL_MSG_UPDATE};
	json_object *v;
	if (type == SL_MSG_CANCEL && json_object_object_get_ex(req, "signal", &v) &&
	    json_object_get_int(v) != 0)
		return 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (type == t[i])
			return 1;
	return 0;
}

static double mono_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A new connection to the same daemon, the broken one closed. */
static int reconnect(struct sl_client *c, struct sl_err *err)
{
	struct target t = {.where = c->path, .tcp = c->tcp};
	int fd = -1, r = connect_retry(&t, &fd, err);

	if (r == 0) {
		close(c->fd);
		c->fd = fd;
	}
	return r;
}

/* Send req (consumed), wait for the reply (see sl_client_receive()). A
 * connection broken before the reply (sluiced restarting) is made again
 * and a resendable request sent again, for the connect budget. */
int sl_client_call(struct sl_client *c, uint16_t type, json_object *req,
		   json_object **reply, struct sl_err *err)
{
	const char *text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	double budget = sl_client_connect_budget(), t0 = mono_now();
	int r;

	*reply = NULL;
	for (;;) {
		c->timed_out = 0;
		r = sl_client_send_text(c, type, text, strlen(text), err);
		if (r == 0)
			r = sl_client_receive(c, type, reply, err);
		/* a reply that took too long is held, not lost: not asked again */
		if (r != -SL_ECONNECT || c->timed_out || !resendable(type, req) ||
		    mono_now() - t0 >= budget)
			break;
		struct sl_err e = SL_ERR_INIT;
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
		if (reconnect(c, &e) != 0)
			break;
		sl_err_clear(err);
	}
	json_object_put(req);
	return r;
}
