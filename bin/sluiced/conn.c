/* conn.c - client connections: who they are, caps, framing, dispatch,
 * replies. A malformed frame closes that connection only; everyone else
 * keeps being served.
 *
 * On the Unix socket the kernel says who the peer is (SO_PEERCRED). On TCP
 * only munge does: with `auth: munge` (always on TCP) each request follows
 * its credential (PROTOCOL.md). The credential is decoded as soon as it
 * arrives, off the loop (authq.c), so a peer with no valid credential
 * never gets to send a request body; it is matched against the request
 * once the request is whole. */
#include "conn.h"
#include "acts.h"
#include "auth.h"
#include "authq.h"
#include "buf.h"
#include "conf.h"
#include "dispatch.h"
#include "idcache.h"
#include "listen.h"
#include "log.h"
#include "loop.h"
#include "netaddr.h"
#include "proto.h"
#include "store.h"
#include "xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* One user must not deny service to others: a user holds at most
 * PER_UID_CONNS connections, and the last RESERVED_CONNS are kept for root
 * and operators. A TCP connection is nobody's until its first credential,
 * so those are capped per remote address. A connection with nothing to
 * read and nothing to send for IDLE_MS (Slurm's MessageTimeout is 10 s),
 * or whose reply the client does not read for STALL_MS, is closed. */
#define MAX_CONNS 1024
#define RESERVED_CONNS 64
#define PER_UID_CONNS 128
#define PER_ADDR_CONNS 128
#define IDLE_MS 10000
#define STALL_MS 60000
/* After a refusal the peer may still be sending its request: it is read
 * and dropped for up to LINGER_MS, so that closing does not reset the
 * connection under the refusal before the peer has read it. */
#define LINGER_MS 2000
#define SWEEP_MS 1000
/* Replies waiting for clients that do not read: past this a new reply is
 * refused (the client is told to retry), so slow readers cannot take the
 * daemon's memory. Each connection holds at most one reply. */
#define PENDING_OUT_CAP ((size_t)256 << 20)
#define IN_CAP (SL_PROTO_HDR_LEN + SL_PROTO_MAX_BODY)
#define OUT_CAP (SL_PROTO_HDR_LEN + SL_PROTO_MAX_REPLY)
/* A flood of bad credentials must not fill the log, nor use up log.c's
 * budget that other messages need: this many refusals a second, then a count. */
#define REFUSALS_LOGGED 20
/* A request's actions on running jobs (acts.h) wait until its client has
 * the reply: it closes, sends its next request, or ACT_GRACE_MS pass after
 * the last byte went out. Our commands close as they exit; the grace is
 * for a client that keeps its connection, and is what such a client waits
 * longest for its scancel to reach the job. */
#define ACT_GRACE_MS 1000

struct conn {
	struct sl_conns *owner;
	int fd;
	struct sl_peer peer;
	int tcp;                   /* from a TCP listener */
	int known;                 /* peer.uid is known: SO_PEERCRED or a first credential */
	char addr[64];             /* the remote address and port (TCP), for the log */
	size_t hostlen;            /* the address alone: addr's first hostlen bytes */
	struct sl_buf *in, *out;
	int closing;               /* close once out is drained */
	int changes;               /* out answers a request that changes state */
	uint16_t type;             /* ... of this type */
	uint64_t unkept;           /* its writes the kept list cannot hold ended at this
	                            * number (store.h); 0: none */
	int linger;                /* ... after reading what the peer still sends */
	int64_t active_ms;         /* last byte read or written */
	uint64_t resume;           /* timer: process input held back by a reply */
	uint64_t gate;             /* its last request's actions wait on this (acts.h); 0: none */
	uint64_t grace;            /* timer: the reply is out, release the gate */
	/* munge: the credential of the next request */
	struct sl_authq_req *decoding; /* in flight; the socket is not polled meanwhile */
	int cred_ok;               /* decoded, and of this peer */
	void *payload;             /* what it was made for (munge may give NULL for none) */
	size_t plen;
	char why[256];             /* refused: why (the next request is answered so) */
	int why_code;              /* SL_EAUTH, or SL_EBUSY (over a cap); 0: EAUTH */
	struct conn *next;
};

struct sl_conns {
	struct sluiced *d;
	struct sl_listen *listen;
	struct sl_authq *authq;    /* NULL: auth none, and no TCP */
	struct conn *list;
	size_t n;
	size_t pending_out;        /* bytes of replies not yet sent */
	uint64_t gates;            /* the last gate given (acts.h) */
	uint64_t sweep;            /* timer */
	int64_t refusal_sec;       /* rate limit of refusal lines */
	unsigned refusals, refusals_dropped;
};

static void conn_process(struct conn *c);

/* "uid 1000 (pid 42)" or "192.0.2.7:40312 (uid 1000)", for the log. */
static const char *who(const struct conn *c, char *buf, size_t size)
{
	if (!c->tcp)
		snprintf(buf, size, "uid %u (pid %d)", (unsigned)c->peer.uid, (int)c->peer.pid);
	else if (c->known)
		snprintf(buf, size, "%s (uid %u)", c->addr, (unsigned)c->peer.uid);
	else
		snprintf(buf, size, "%s", c->addr);
	return buf;
}

/* The client has its reply, or will never read it: the request's actions
 * on jobs are due. */
static void conn_release(struct conn *c)
{
	struct sluiced *d = c->owner->d;
	uint64_t gate = c->gate;

	if (c->grace != 0)
		sl_loop_del_timer(d->loop, c->grace);
	c->grace = 0;
	c->gate = 0;
	sl_acts_release(d, gate);
}

static void on_grace(struct sl_loop *l, uint64_t id, void *arg)
{
	struct conn *c = arg;
	c->grace = 0;
	conn_release(c);
}

static void conn_close(struct conn *c)
{
	struct sl_conns *cs = c->owner;
	struct conn **pp;

	conn_release(c); /* a client gone before its reply: done all the same */
	for (pp = &cs->list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	sl_loop_del_fd(cs->d->loop, c->fd);
	if (c->resume != 0)
		sl_loop_del_timer(cs->d->loop, c->resume);
	if (c->decoding != NULL)
		sl_authq_cancel(cs->authq, c->decoding);
	cs->pending_out -= sl_buf_len(c->out);
	close(c->fd);
	sl_buf_free(c->in);
	sl_buf_free(c->out);
	free(c->payload);
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
	char w[96];

	if (cs->pending_out + len > PENDING_OUT_CAP) {
		sl_warn("%s: reply of %zu bytes refused: %zu MiB of replies wait for clients",
			who(c, w, sizeof(w)), len, cs->pending_out >> 20);
		free(reply);
		reply = sl_xasprintf("{\"code\":\"%s\",\"error\":\"sluiced is busy sending "
				     "replies to other clients; try again\"}", sl_errname(SL_EBUSY));
		len = strlen(reply);
	}
	if (sl_proto_encode(c->out, type | SL_MSG_REPLY, reply, len) != 0) {
		sl_err_log("reply of %zu bytes to %s is over the cap; closing", len,
			   who(c, w, sizeof(w)));
		c->closing = 1;
	}
	cs->pending_out += sl_buf_len(c->out) - before;
	free(reply);
}

static void log_refusal(struct sl_conns *cs, const struct conn *c, uint16_t type, const char *why)
{
	int64_t sec = sl_loop_wall(cs->d->loop);
	char w[96];

	if (sec != cs->refusal_sec) {
		if (cs->refusals_dropped > 0)
			sl_warn("%u more refused requests not logged", cs->refusals_dropped);
		cs->refusal_sec = sec;
		cs->refusals = cs->refusals_dropped = 0;
	}
	if (++cs->refusals > REFUSALS_LOGGED) {
		cs->refusals_dropped++;
		return;
	}
	sl_warn("refused %s request from %s: %s", sl_proto_type_name(type), who(c, w, sizeof(w)),
		why);
}

/* Answer the request of this type with Slurm's "Protocol authentication
 * error" and why, then drop the rest of what the peer sends and close. */
static void refuse(struct conn *c, uint16_t type, int code, const char *why)
{
	json_object *o = json_object_new_object();
	char *msg = code == SL_EAUTH ? sl_xasprintf("%s: %s", sl_strerror(SL_EAUTH), why)
				     : sl_xstrdup(why);

	log_refusal(c->owner, c, type, why);
	json_object_object_add(o, "code", json_object_new_string(sl_errname(code)));
	json_object_object_add(o, "error", json_object_new_string(msg));
	conn_reply(c, type, sl_xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)));
	json_object_put(o);
	free(msg);
	c->closing = c->linger = 1;
	sl_buf_reset(c->in);
}

static size_t conns_of(const struct sl_conns *cs, uid_t uid)
{
	size_t n = 0;
	for (const struct conn *c = cs->list; c != NULL; c = c->next)
		n += c->known && c->peer.uid == uid;
	return n;
}

static size_t unknown_from(const struct sl_conns *cs, const struct conn *from)
{
	size_t n = 0;
	for (const struct conn *c = cs->list; c != NULL; c = c->next)
		n += !c->known && c->hostlen == from->hostlen &&
		     memcmp(c->addr, from->addr, c->hostlen) == 0;
	return n;
}

/* Why a new connection (or, on TCP, its first user) is refused, or NULL.
 * Counts include c itself when it is already listed. */
static const char *over_limit(const struct sl_conns *cs, const struct conn *c, size_t self)
{
	if (cs->n >= MAX_CONNS + self)
		return "too many connections";
	if (c->known && c->peer.operator)
		return NULL;
	if (cs->n >= MAX_CONNS - RESERVED_CONNS + self)
		return "too many connections (the rest are kept for operators)";
	if (c->known && conns_of(cs, c->peer.uid) >= PER_UID_CONNS + self)
		return "too many connections from this user";
	if (!c->known && unknown_from(cs, c) >= PER_ADDR_CONNS + self)
		return "too many connections from this address not yet authenticated";
	return NULL;
}

/* ---- munge ------------------------------------------------------------- */

static void on_conn(struct sl_loop *l, int fd, int events, void *arg);

/* Who the credential says, checked against what is known of the peer. */
static void on_decoded(void *arg, struct sl_authq_result *res)
{
	struct conn *c = arg;
	struct sluiced *d = c->owner->d;
	const char *why = NULL;

	c->decoding = NULL;
	sl_loop_add_fd(d->loop, c->fd, SL_EV_READ, on_conn, c);
	if (res->rc != 0) {
		snprintf(c->why, sizeof(c->why), "%.250s", res->msg);
	} else if (c->known && res->uid != c->peer.uid) {
		snprintf(c->why, sizeof(c->why), "Credential of uid %u on a connection of uid %u",
			 (unsigned)res->uid, (unsigned)c->peer.uid);
	} else {
		if (!c->known) { /* TCP: now we know who it is */
			c->peer.uid = res->uid;
			c->peer.gid = res->gid;
			peer_fill(d, &c->peer);
			c->known = 1;
			if ((why = over_limit(c->owner, c, 1)) != NULL) {
				c->known = 0;
				c->why_code = SL_EBUSY;
				snprintf(c->why, sizeof(c->why), "%s", why);
			}
		}
		if (why == NULL) {
			c->cred_ok = 1;
			c->payload = res->payload;
			c->plen = res->plen;
			res->payload = NULL;
		}
	}
	conn_process(c);
}

/* The auth message: decode its credential (without auth: munge, the
 * kernel's word is enough and it is ignored). */
static void auth_begin(struct conn *c, const char *body, size_t len)
{
	struct sl_err err = SL_ERR_INIT;
	char *cred = NULL;

	if (c->owner->authq == NULL)
		return;
	free(c->payload);
	c->payload = NULL;
	c->cred_ok = 0;
	c->why[0] = '\0';
	c->why_code = 0;
	if (sl_proto_auth_decode(body, len, &cred, &err) != 0) {
		snprintf(c->why, sizeof(c->why), "%.250s", err.msg);
		return;
	}
	/* Not polled until the verdict: nothing more is read from a peer
	 * whose credential may be worthless. */
	sl_loop_del_fd(c->owner->d->loop, c->fd);
	c->decoding = sl_authq_decode(c->owner->authq, cred, on_decoded, c);
}

/* 0 when the request may go on; the credential is used up either way. */
static int auth_end(struct conn *c, uint16_t type, const char *body, size_t len)
{
	struct sl_err err = SL_ERR_INIT;
	int r = sl_auth_match(c->payload, c->plen, type, body, len, &err);

	free(c->payload);
	c->payload = NULL;
	c->cred_ok = 0;
	if (r != 0)
		refuse(c, type, SL_EAUTH, err.msg);
	return r;
}

/* What can be told at a frame's header, before its body is read: an auth
 * message over its cap is bad (< 0); with munge, a request without a good
 * credential before it is refused now (closing). Otherwise r. */
static int gate(struct conn *c, int r, struct sl_err *err)
{
	uint16_t type;
	uint32_t blen;

	if (!sl_proto_peek(sl_buf_data(c->in), sl_buf_len(c->in), &type, &blen))
		return r;
	if (type == SL_MSG_AUTH && blen > SL_PROTO_MAX_AUTH)
		return sl_err_set(err, SL_ETOOBIG, "auth message of %u bytes is over the %u-byte cap",
				  (unsigned)blen, SL_PROTO_MAX_AUTH);
	if (c->owner->authq != NULL && type != SL_MSG_AUTH && !c->cred_ok)
		refuse(c, type, c->why_code ? c->why_code : SL_EAUTH,
		       c->why[0] ? c->why : "No credential");
	return r;
}

/* ---- frames ------------------------------------------------------------ */

/* Requests whose acknowledgment promises a change on disk. */
static int changes_state(uint16_t type)
{
	static const uint16_t t[] = {SL_MSG_SUBMIT, SL_MSG_CANCEL, SL_MSG_CONTROL, SL_MSG_UPDATE,
				     SL_MSG_HOLD, SL_MSG_STEP_CREATE, SL_MSG_STEP_END,
				     SL_MSG_STEP_SIGNAL};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (type == t[i])
			return 1;
	return 0;
}

/* Handle the whole frames in the input buffer, one reply at a time: a
 * client that sends requests without reading the replies is not read
 * further until it does (the kernel's socket buffers hold the rest). */
static void conn_process(struct conn *c)
{
	struct sluiced *d = c->owner->d;
	char w[96];

	while (sl_buf_len(c->out) == 0 && !c->closing && c->decoding == NULL) {
		struct sl_err err = SL_ERR_INIT;
		const char *body;
		size_t blen, used;
		uint16_t type;
		char *reply = NULL;
		int r = sl_proto_decode(sl_buf_data(c->in), sl_buf_len(c->in), SL_PROTO_MAX_BODY,
					&type, &body, &blen, &used, &err);
		if (r >= 0)
			r = gate(c, r, &err);
		if (r < 0) {
			sl_warn("connection from %s: %s; closing", who(c, w, sizeof(w)), err.msg);
			c->closing = 1;
			sl_buf_reset(c->in);
			return;
		}
		if (r == 0 || c->closing)
			return;
		if (type == SL_MSG_AUTH) {
			auth_begin(c, body, blen);
			sl_buf_consume(c->in, used);
			continue;
		}
		if (c->owner->authq != NULL && auth_end(c, type, body, blen) != 0)
			return;
		uint64_t seq = sl_store_unkept_seq(d->store);
		conn_release(c); /* a new request: the last reply was read */
		c->gate = ++c->owner->gates;
		sl_acts_gate(d, c->gate);
		r = sl_dispatch(d, &c->peer, type, body, blen, &reply);
		sl_acts_gate(d, 0);
		if (!sl_acts_waiting(d, c->gate))
			c->gate = 0;
		sl_buf_consume(c->in, used);
		c->type = type;
		c->unkept = sl_store_unkept_seq(d->store) != seq ? sl_store_unkept_seq(d->store) : 0;
		/* a refusal ({"code","error"}: dispatch.c) changed nothing */
		c->changes = changes_state(type) && reply != NULL && strncmp(reply, "{\"code\":", 8) != 0;
		if (r == -SL_EPROTO && reply == NULL) {
			sl_warn("%s sent unknown message type %u; closing", who(c, w, sizeof(w)),
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
	if (c->gate != 0 && c->grace == 0)
		c->grace = sl_loop_add_timer(c->owner->d->loop, ACT_GRACE_MS, on_grace, c);
	if (c->closing && !c->linger) {
		conn_close(c);
		return;
	}
	if (c->linger) { /* the refusal is sent: say so, then drain (on_conn) */
		shutdown(c->fd, SHUT_WR);
		c->active_ms = sl_loop_now_ms(c->owner->d->loop);
	}
	sl_loop_mod_fd(c->owner->d->loop, c->fd, SL_EV_READ);
	/* Requests held back behind this reply are handled from the loop, not
	 * here: their replies must wait for the next commit. */
	if (sl_buf_len(c->in) > 0 && c->resume == 0 && !c->closing)
		c->resume = sl_loop_add_timer(c->owner->d->loop, 0, on_resume, c);
}

static void on_conn(struct sl_loop *l, int fd, int events, void *arg)
{
	struct conn *c = arg;
	char w[96];

	if ((events & SL_EV_READ) && sl_buf_len(c->out) == 0) {
		char chunk[65536];
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			conn_close(c);
			return;
		}
		if (n > 0 && !c->linger) {
			c->active_ms = sl_loop_now_ms(l);
			if (sl_buf_add(c->in, chunk, (size_t)n) != 0) {
				sl_warn("%s: request over the size cap; closing", who(c, w, sizeof(w)));
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

/* listen.c hands over each accepted connection. */
static void on_accept(void *arg, int fd, int tcp, const struct sockaddr *sa, socklen_t salen)
{
	struct sl_conns *cs = arg;
	struct sl_loop *l = cs->d->loop;
	struct conn tmp, *c;
	const char *why;
	char w[96];

	memset(&tmp, 0, sizeof(tmp));
	tmp.tcp = tcp;
	tmp.peer.uid = (uid_t)-1;
	tmp.peer.gid = (gid_t)-1;
	if (tcp) {
		sl_sockaddr_text(sa, salen, tmp.addr, sizeof(tmp.addr));
		tmp.hostlen = strrchr(tmp.addr, ':') ? (size_t)(strrchr(tmp.addr, ':') - tmp.addr)
						     : strlen(tmp.addr);
	} else {
		struct ucred uc;
		socklen_t len = sizeof(uc);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0) {
			sl_warn("refusing connection: %s", strerror(errno));
			close(fd);
			return;
		}
		tmp.peer.uid = uc.uid;
		tmp.peer.gid = uc.gid;
		tmp.peer.pid = uc.pid;
		peer_fill(cs->d, &tmp.peer);
		tmp.known = 1;
		snprintf(tmp.addr, sizeof(tmp.addr), "local");
	}
	if ((why = over_limit(cs, &tmp, 0)) != NULL) {
		sl_warn("refusing connection from %s: %s", who(&tmp, w, sizeof(w)), why);
		close(fd);
		return;
	}
	c = sl_xcalloc(1, sizeof(*c));
	*c = tmp;
	c->owner = cs;
	c->fd = fd;
	c->active_ms = sl_loop_now_ms(l);
	c->in = sl_buf_new(IN_CAP);
	c->out = sl_buf_new(OUT_CAP);
	c->next = cs->list;
	cs->list = c;
	cs->n++;
	sl_loop_add_fd(l, fd, SL_EV_READ, on_conn, c);
	/* A client sends its request right after connect: it is usually
	 * here already, and reading it now saves a poll and a wake-up. */
	on_conn(l, fd, SL_EV_READ, c);
}

/* Close connections that sent nothing for IDLE_MS, did not take their
 * reply for STALL_MS, or linger after a refusal for LINGER_MS. */
static void on_sweep(struct sl_loop *l, uint64_t id, void *arg)
{
	struct sl_conns *cs = arg;
	int64_t now = sl_loop_now_ms(l);
	struct conn *c, *next;
	char w[96];

	for (c = cs->list; c != NULL; c = next) {
		int sending = sl_buf_len(c->out) > 0;
		next = c->next;
		if (now - c->active_ms < (sending ? STALL_MS : c->linger ? LINGER_MS : IDLE_MS))
			continue;
		if (!c->linger)
			sl_info("closing the connection of %s: %s", who(c, w, sizeof(w)),
				sending ? "its reply is not being read" : "idle");
		conn_close(c);
	}
	cs->sweep = sl_loop_add_timer(l, SWEEP_MS, on_sweep, cs);
}

int sl_conns_listen(struct sluiced *d, struct sl_conns **out, struct sl_err *err)
{
	struct sl_conns *cs = sl_xcalloc(1, sizeof(*cs));
	int r = 0;

	*out = NULL;
	cs->d = d;
	/* Fixed for the daemon's life (SIGHUP does not change them). */
	if (strcmp(sl_conf_auth(d->conf), "munge") == 0)
		r = sl_authq_new(d->loop, sl_conf_munge_socket(d->conf), &cs->authq, err);
	if (r == 0)
		r = sl_listen_open(d->loop, sl_conf_socket(d->conf), sl_conf_listen(d->conf),
				   on_accept, cs, &cs->listen, err);
	if (r != 0) {
		sl_conns_free(cs);
		return r;
	}
	cs->sweep = sl_loop_add_timer(d->loop, SWEEP_MS, on_sweep, cs);
	*out = cs;
	return 0;
}

void sl_conns_close_listener(struct sl_conns *cs)
{
	if (cs != NULL)
		sl_listen_close(cs->listen);
}

void sl_conns_flush(struct sl_conns *cs, int durable)
{
	struct conn *c = cs->list, *next;
	uint64_t lost = sl_store_unkept_lost(cs->d->store);
	for (; c != NULL; c = next) {
		next = c->next;
		if (!durable && c->changes && sl_buf_len(c->out) > 0)
			continue;
		if (c->unkept != 0 && c->unkept <= lost && sl_buf_len(c->out) > 0) {
			/* its writes went with a full disk's rollback: not done */
			cs->pending_out -= sl_buf_len(c->out);
			sl_buf_reset(c->out);
			conn_reply(c, c->type, sl_xasprintf("{\"code\":\"%s\",\"error\":\"No space "
							    "left on device for the job store: "
							    "not saved\"}", sl_errname(SL_EBUSY)));
		}
		c->unkept = 0;
		c->changes = 0;
		if (sl_buf_len(c->out) > 0 || (c->closing && !c->linger))
			conn_write(c);
	}
}

void sl_conns_free(struct sl_conns *cs)
{
	if (cs == NULL)
		return;
	sl_listen_free(cs->listen);
	if (cs->sweep != 0)
		sl_loop_del_timer(cs->d->loop, cs->sweep);
	while (cs->list != NULL)
		conn_close(cs->list);
	sl_authq_free(cs->authq);
	free(cs);
}
