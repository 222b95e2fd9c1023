/* client.c - the commands' side of the socket: find the daemon, send one
 * request, wait for its reply, turn the reply into structs or an error. */
#include "client.h"
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
#include <sys/random.h>
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
	socklen_t elen = sizeof(int);
	int fd, e = 0, one = 1;

	if ((fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) < 0)
		return -errno;
	if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && (e = errno) == EINPROGRESS) {
		struct pollfd pfd = {fd, POLLOUT, 0};
		e = ETIMEDOUT;
		if (poll(&pfd, 1, ms) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
			e = errno;
	}
	/* Blocking from here, like the Unix socket. A request (and its auth
	 * message) is one write and nothing follows until the reply: Nagle
	 * would have nothing to coalesce, only an ACK to wait for. */
	if (e == 0 && (fcntl(fd, F_SETFL, 0) != 0 ||
		       setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0 ||
		       setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof(rcv)) != 0))
		e = errno;
	if (e != 0) {
		close(fd);
		return -e;
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
static double connect_budget(void)
{
	const char *s = getenv("SLUICE_CONNECT_TIMEOUT");
	return s && *s ? atof(s) : 5.0;
}

static int connect_retry(const struct target *t, int *fdp, struct sl_err *err)
{
	struct addrinfo *ai = NULL;
	double waited = 0, budget = connect_budget();
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
static int read_frame(struct sl_client *c, uint16_t want, struct sl_buf **inp,
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

	if ((r = read_frame(c, want, &in, &body, &blen, err)) == 0) {
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

static int send_text(struct sl_client *c, uint16_t type, const char *text, size_t len,
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
static int send_req(struct sl_client *c, uint16_t type, json_object *req, struct sl_err *err)
{
	const char *text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	int r = send_text(c, type, text, strlen(text), err);

	json_object_put(req);
	return r;
}

/* The reply to a request of this type: an error reply becomes the return
 * code and err; otherwise *reply holds it (caller puts it). */
static int receive(struct sl_client *c, uint16_t type, json_object **reply, struct sl_err *err)
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

/* Send req (consumed), wait for the reply (see receive()). */
static int call(struct sl_client *c, uint16_t type, json_object *req,
		json_object **reply, struct sl_err *err)
{
	int r = send_req(c, type, req, err);

	*reply = NULL;
	return r != 0 ? r : receive(c, type, reply, err);
}

/* A key for one submission: sluiced gives a request that carries a key it
 * has seen (from the same user) that job's id instead of a new job, so a
 * submission whose reply was lost can be sent again. 16 bytes in hex: the
 * time in milliseconds (48 bits), then 80 random bits. Time first makes the
 * keys of a burst sort together, so the store's index of them grows at one
 * end rather than taking a random page per submission. Without randomness,
 * no key (and no safe retry). */
#define KEY_BYTES 16
#define KEY_TIME_BYTES 6
static int submit_key(char key[2 * KEY_BYTES + 1])
{
	unsigned char raw[KEY_BYTES];
	size_t got = KEY_TIME_BYTES;
	struct timespec now;
	uint64_t ms;

	clock_gettime(CLOCK_REALTIME, &now);
	ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
	for (int i = KEY_TIME_BYTES - 1; i >= 0; i--, ms >>= 8)
		raw[i] = (unsigned char)ms;
	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(key + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* The request text (job_text.c: no json-c tree per submission). */
static int submit_text(const struct sl_jobspec *spec, struct sl_buf **req, struct sl_err *err)
{
	char key[2 * KEY_BYTES + 1];

	*req = sl_buf_new(SL_PROTO_MAX_BODY);
	if (sl_buf_addstr(*req, "{\"spec\":") != 0 || sl_jobspec_text_append(*req, spec) != 0 ||
	    (submit_key(key) == 0 && sl_buf_addf(*req, ",\"submit_key\":\"%s\"", key) != 0) ||
	    sl_buf_addc(*req, '}') != 0)
		return sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
				  SL_PROTO_MAX_BODY);
	return 0;
}

/* *lost: the request may have reached sluiced but no reply came back (the
 * connection broke after the connect). */
static int submit_exchange(struct sl_client *c, const struct sl_buf *req, uint64_t *id,
			   int *lost, struct sl_err *err)
{
	json_object *rep = NULL, *v;
	int r;

	if ((r = send_text(c, SL_MSG_SUBMIT, sl_buf_str(req), sl_buf_len(req), err)) != 0 ||
	    (r = receive(c, SL_MSG_SUBMIT, &rep, err)) != 0) {
		*lost = r == -SL_ECONNECT;
		return r;
	}
	if (!json_object_object_get_ex(rep, "id", &v))
		r = sl_err_set(err, SL_EPROTO, "submit reply without an id");
	else
		*id = (uint64_t)json_object_get_int64(v);
	json_object_put(rep);
	return r;
}

int sl_client_submit(struct sl_client *c, const struct sl_jobspec *spec, uint64_t *id,
		     struct sl_err *err)
{
	struct sl_buf *req = NULL;
	int r, lost = 0;

	if ((r = submit_text(spec, &req, err)) == 0)
		r = submit_exchange(c, req, id, &lost, err);
	sl_buf_free(req);
	return r;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The request is written before connecting: sluiced, woken by the connect,
 * finds it already there and answers in the same turn. A reply lost to a
 * broken connection (sluiced restarting, killed) is asked for again, with
 * the same request and so the same key, for SLUICE_CONNECT_TIMEOUT seconds
 * after the first loss: the job is then submitted once, whether or not the
 * lost request had been taken. */
int sl_client_submit_once(const struct sl_jobspec *spec, uint64_t *id, struct sl_err *err)
{
	struct sl_buf *req = NULL;
	struct timespec lost_at = {0, 0};
	struct sl_err e = SL_ERR_INIT;
	int r, lost = 0;

	if ((r = submit_text(spec, &req, err)) != 0)
		goto out;
	for (int tries = 0;; tries++) {
		struct sl_client *c = NULL;
		lost = 0;
		sl_err_clear(&e);
		if ((r = sl_client_connect(NULL, &c, &e)) == 0)
			r = submit_exchange(c, req, id, &lost, &e);
		sl_client_free(c);
		if (r == 0 || !lost)
			break;
		if (tries == 0)
			clock_gettime(CLOCK_MONOTONIC, &lost_at);
		else if (since(&lost_at) >= connect_budget())
			break;
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (r != 0)
		sl_err_set(err, e.code, "%s", e.msg);
out:
	sl_buf_free(req);
	return r;
}

static char *reply_str(json_object *o, const char *key)
{
	json_object *v;

	return sl_xstrdup(json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "");
}

int sl_client_test_only(const struct sl_jobspec *spec, struct sl_willrun *out,
			struct sl_err *err)
{
	struct sl_buf *req = sl_buf_new(SL_PROTO_MAX_BODY);
	struct sl_client *c = NULL;
	json_object *rep = NULL, *v;
	int r;

	memset(out, 0, sizeof(*out));
	/* no submit key: nothing is made, so nothing is to be found again;
	 * the flag goes inside the spec, where an older daemon refuses it */
	if (sl_buf_addstr(req, "{\"spec\":") != 0 || sl_jobspec_text_append(req, spec) != 0 ||
	    sl_buf_len(req) < 2) {
		r = sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
			       SL_PROTO_MAX_BODY);
		goto out;
	}
	sl_buf_truncate(req, sl_buf_len(req) - 1); /* the spec's closing brace */
	if (sl_buf_addstr(req, ",\"test_only\":1}}") != 0) {
		r = sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
			       SL_PROTO_MAX_BODY);
		goto out;
	}
	if ((r = sl_client_connect(NULL, &c, err)) != 0 ||
	    (r = send_text(c, SL_MSG_SUBMIT, sl_buf_str(req), sl_buf_len(req), err)) != 0 ||
	    (r = receive(c, SL_MSG_SUBMIT, &rep, err)) != 0)
		goto out;
	if (!json_object_object_get_ex(rep, "start", &v)) {
		r = sl_err_set(err, SL_EPROTO, "test-only reply without a start");
		goto out;
	}
	out->start = json_object_get_int64(v);
	if (json_object_object_get_ex(rep, "id", &v))
		out->id = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(rep, "cpus", &v))
		out->cpus = json_object_get_int(v);
	out->nodes = reply_str(rep, "nodes");
	out->partition = reply_str(rep, "partition");
out:
	json_object_put(rep);
	sl_client_free(c);
	sl_buf_free(req);
	return r;
}

int sl_client_jobs(struct sl_client *c, const struct sl_jobfilter *f,
		   struct sl_job ***jobs, size_t *n, struct sl_err *err)
{
	json_object *req = json_object_new_object();
	struct sl_buf *in = NULL;
	const char *body;
	size_t blen;
	int r;

	*jobs = NULL;
	*n = 0;
	json_object_object_add(req, "filter", sl_jobfilter_to_obj(f));
	/* Thousands of records: read straight from the text (job_parse.c). */
	if ((r = send_req(c, SL_MSG_JOBS, req, err)) == 0 &&
	    (r = read_frame(c, SL_MSG_JOBS, &in, &body, &blen, err)) == 0)
		r = sl_job_list_parse(body, blen, jobs, n, err);
	sl_buf_free(in);
	return r;
}

int sl_client_query(const struct sl_jobfilter *f, struct sl_job ***jobs, size_t *n,
		    struct sl_err *err)
{
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);
	*jobs = NULL;
	*n = 0;
	if (r == 0)
		r = sl_client_jobs(c, f, jobs, n, err);
	sl_client_free(c);
	return r;
}

int sl_client_cancel(struct sl_client *c, const struct sl_jobfilter *f, int signal,
		     int batch_only, struct sl_jobresult **res, size_t *nres,
		     struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep, *arr;
	size_t len, i;
	int r;

	*res = NULL;
	*nres = 0;
	json_object_object_add(req, "filter", sl_jobfilter_to_obj(f));
	json_object_object_add(req, "signal", json_object_new_int(signal));
	json_object_object_add(req, "batch", json_object_new_boolean(batch_only == 1));
	if (batch_only == 2)
		json_object_object_add(req, "full", json_object_new_boolean(1));
	if ((r = call(c, SL_MSG_CANCEL, req, &rep, err)) != 0)
		return r;
	if (!json_object_object_get_ex(rep, "results", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		json_object_put(rep);
		return sl_err_set(err, SL_EPROTO, "cancel reply without results");
	}
	len = json_object_array_length(arr);
	*res = sl_xcalloc(len + 1, sizeof(**res));
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(arr, i), *v;
		struct sl_jobresult *x = &(*res)[i];
		if (json_object_object_get_ex(e, "id", &v))
			x->id = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(e, "code", &v))
			x->rc = -sl_errcode_from_name(json_object_get_string(v));
		if (json_object_object_get_ex(e, "error", &v))
			snprintf(x->msg, sizeof(x->msg), "%s", json_object_get_string(v));
	}
	*nres = len;
	json_object_put(rep);
	return 0;
}

int sl_client_control(struct sl_client *c, enum sl_control_op op, uint64_t id,
		      struct sl_err *err)
{
	static const char *ops[] = {[SL_CTL_HOLD] = "hold", [SL_CTL_RELEASE] = "release",
				    [SL_CTL_REQUEUE] = "requeue", [SL_CTL_UHOLD] = "uhold",
				    [SL_CTL_REQUEUE_HOLD] = "requeuehold", [SL_CTL_TOP] = "top",
				    [SL_CTL_SUSPEND] = "suspend", [SL_CTL_RESUME] = "resume"};
	json_object *req = json_object_new_object(), *rep;
	int r;

	json_object_object_add(req, "op", json_object_new_string(ops[op]));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	if ((r = call(c, SL_MSG_CONTROL, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}

int sl_client_hold(struct sl_client *c, int release, int operator, uint64_t id,
		   struct sl_err *err)
{
	json_object *req = json_object_new_object(), *rep;
	int r;

	json_object_object_add(req, "op", json_object_new_string(release ? "release" : "hold"));
	json_object_object_add(req, "kind", json_object_new_string(operator ? "operator" : "user"));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	if ((r = call(c, SL_MSG_HOLD, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}

/* ---- sinfo: the partitions request (PROTOCOL.md, type 8) ---- */

static char *get_str(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return sl_xstrdup(json_object_get_string(v));
}

static int64_t get_i64(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

/* The array at key (borrowed) and its length; NULL and 0 when absent. */
static json_object *get_arr(json_object *o, const char *key, size_t *n)
{
	json_object *v;
	*n = 0;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	*n = json_object_array_length(v);
	return v;
}

static void parse_quota(json_object *o, struct sl_quota_row *q)
{
	q->cluster_queue = get_str(o, "cluster_queue");
	q->flavor = get_str(o, "flavor");
	q->resource = get_str(o, "resource");
	q->nominal = get_i64(o, "nominal");
	q->borrowed = get_i64(o, "borrowed");
	q->lent = get_i64(o, "lent");
	q->used = get_i64(o, "used");
	q->pending = get_i64(o, "pending");
}

static void parse_part(json_object *o, struct sl_partinfo *p)
{
	json_object *a, *v;
	char *avail = get_str(o, "avail");
	size_t n;

	p->name = get_str(o, "name");
	p->is_default = json_object_object_get_ex(o, "default", &v) && json_object_get_boolean(v);
	p->avail = avail == NULL || strcmp(avail, "up") == 0 ? SL_PART_UP
		   : strcmp(avail, "down") == 0 ? SL_PART_DOWN : SL_PART_INACTIVE;
	free(avail);
	p->reason = get_str(o, "reason");
	p->reason_user = get_str(o, "reason_user");
	p->reason_uid = (uint32_t)get_i64(o, "reason_uid");
	p->reason_time = get_i64(o, "reason_time");
	p->admitted = get_i64(o, "admitted");
	a = get_arr(o, "features", &n);
	p->features = sl_xcalloc(n + 1, sizeof(*p->features));
	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(a, i);
		p->features[i] = sl_xstrdup(json_object_get_string(f));
	}
	a = get_arr(o, "quota", &n);
	p->quota = sl_xcalloc(n + 1, sizeof(*p->quota));
	p->nquota = n;
	for (size_t i = 0; i < n; i++)
		parse_quota(json_object_array_get_idx(a, i), &p->quota[i]);
}

static struct sl_nodeinfo *parse_node(json_object *o)
{
	struct sl_nodeinfo *nd = sl_xcalloc(1, sizeof(*nd));
	nd->name = get_str(o, "name");
	nd->arch = get_str(o, "arch");
	nd->os = get_str(o, "os");
	nd->boot_time = get_i64(o, "boot_time");
	nd->start_time = get_i64(o, "start_time");
	nd->cpu_load = get_i64(o, "cpu_load");
	nd->free_mem = get_i64(o, "free_mem");
	return nd;
}

int sl_client_partitions(struct sl_clusterinfo **out, struct sl_err *err)
{
	struct sl_client *c = NULL;
	struct sl_clusterinfo *ci;
	json_object *rep = NULL, *a, *v;
	size_t n;
	int r;

	*out = NULL;
	if ((r = sl_client_connect(NULL, &c, err)) != 0 ||
	    (r = call(c, SL_MSG_PARTITIONS, json_object_new_object(), &rep, err)) != 0)
		goto out;
	ci = sl_xcalloc(1, sizeof(*ci));
	ci->now = get_i64(rep, "now");
	if (json_object_object_get_ex(rep, "node", &v) && json_object_is_type(v, json_type_object))
		ci->node = parse_node(v);
	a = get_arr(rep, "partitions", &n);
	ci->parts = sl_xcalloc(n + 1, sizeof(*ci->parts));
	ci->nparts = n;
	for (size_t i = 0; i < n; i++)
		parse_part(json_object_array_get_idx(a, i), &ci->parts[i]);
	*out = ci;
out:
	json_object_put(rep);
	sl_client_free(c);
	return r;
}

void sl_clusterinfo_free(struct sl_clusterinfo *ci)
{
	if (ci == NULL)
		return;
	for (size_t i = 0; i < ci->nparts; i++) {
		struct sl_partinfo *p = &ci->parts[i];
		for (size_t j = 0; j < p->nquota; j++) {
			free(p->quota[j].cluster_queue);
			free(p->quota[j].flavor);
			free(p->quota[j].resource);
		}
		for (char **f = p->features; f && *f; f++)
			free(*f);
		free(p->features);
		free(p->quota);
		free(p->name);
		free(p->reason);
		free(p->reason_user);
	}
	free(ci->parts);
	if (ci->node) {
		free(ci->node->name);
		free(ci->node->arch);
		free(ci->node->os);
		free(ci->node);
	}
	free(ci);
}

/* ---- scontrol: update (type 9), ping (10), reconfigure (11), config (12) ---- */

int sl_client_update(struct sl_client *c, uint64_t id, const struct sl_update_field *f,
		     size_t n, struct sl_err *err)
{
	json_object *req = json_object_new_object(), *set = json_object_new_object(), *rep;
	int r;

	for (size_t i = 0; i < n; i++)
		json_object_object_add(set, f[i].key, f[i].str ? json_object_new_string(f[i].str)
							       : json_object_new_int64(f[i].num));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	json_object_object_add(req, "set", set);
	if ((r = call(c, SL_MSG_UPDATE, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}

/* Connect, send an empty request of this type, hand back the reply. */
static int ask(uint16_t type, json_object **rep, struct sl_err *err)
{
	struct sl_client *c = NULL;
	int r = sl_client_connect(NULL, &c, err);

	*rep = NULL;
	if (r == 0)
		r = call(c, type, json_object_new_object(), rep, err);
	sl_client_free(c);
	return r;
}

int sl_client_ping(char **host, struct sl_err *err)
{
	json_object *rep;
	int r = ask(SL_MSG_PING, &rep, err);

	*host = r == 0 ? get_str(rep, "host") : NULL;
	json_object_put(rep);
	return r;
}

int sl_client_reconfigure(struct sl_err *err)
{
	json_object *rep;
	int r = ask(SL_MSG_RECONFIGURE, &rep, err);

	json_object_put(rep);
	return r;
}

int sl_client_config(struct sl_daemonconf **out, struct sl_err *err)
{
	struct sl_daemonconf *dc;
	json_object *rep, *a;
	size_t n;
	int r = ask(SL_MSG_CONFIG, &rep, err);

	*out = NULL;
	if (r != 0)
		return r;
	dc = sl_xcalloc(1, sizeof(*dc));
	dc->now = get_i64(rep, "now");
	dc->start_time = get_i64(rep, "start_time");
	dc->uid = (uint32_t)get_i64(rep, "uid");
	dc->host = get_str(rep, "host");
	dc->user = get_str(rep, "user");
	dc->conf_path = get_str(rep, "conf_path");
	dc->executor = get_str(rep, "executor");
	a = get_arr(rep, "settings", &n);
	dc->keys = sl_xcalloc(n + 1, sizeof(char *));
	dc->values = sl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i);
		if (!json_object_is_type(row, json_type_array) || json_object_array_length(row) < 2)
			continue;
		dc->keys[dc->n] = sl_xstrdup(json_object_get_string(json_object_array_get_idx(row, 0)));
		dc->values[dc->n++] =
			sl_xstrdup(json_object_get_string(json_object_array_get_idx(row, 1)));
	}
	json_object_put(rep);
	*out = dc;
	return 0;
}

void sl_daemonconf_free(struct sl_daemonconf *dc)
{
	if (dc == NULL)
		return;
	sl_strv_free(dc->keys);
	sl_strv_free(dc->values);
	free(dc->host);
	free(dc->user);
	free(dc->conf_path);
	free(dc->executor);
	free(dc);
}
