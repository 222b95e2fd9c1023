/* client.c - the commands' side of the socket: find the daemon, send one
 * request, wait for its reply, turn the reply into structs or an error. */
#include "client.h"
#include "conf.h"
#include "proto.h"
#include "xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define DEFAULT_SOCKET "/run/sluice/sluiced.sock"

struct sl_client {
	int fd;
	char *path;
};

int sl_client_socket_path(char **out, struct sl_err *err)
{
	const char *conf = getenv("SLUICE_CONF");
	const char *sock = getenv("SLUICE_SOCKET");

	*out = NULL;
	if (conf != NULL && *conf != '\0')
		return sl_conf_peek_socket(conf, out, err);
	if (sock != NULL && *sock != '\0') {
		*out = sl_xstrdup(sock);
		return 0;
	}
	if (access(SYSCONFDIR "/sluice/sluice.yaml", R_OK) == 0)
		return sl_conf_peek_socket(SYSCONFDIR "/sluice/sluice.yaml", out, err);
	*out = sl_xstrdup(DEFAULT_SOCKET);
	return 0;
}

static int try_connect(const char *path, int *fdp)
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

/* Like Slurm's commands, ride out a daemon restart: retry a refused or
 * missing socket for SLUICE_CONNECT_TIMEOUT seconds (default 5). */
static double connect_budget(void)
{
	const char *s = getenv("SLUICE_CONNECT_TIMEOUT");
	return s && *s ? atof(s) : 5.0;
}

int sl_client_connect(const char *socket, struct sl_client **out, struct sl_err *err)
{
	char *path = NULL;
	int r, fd = -1;
	double waited = 0, budget = connect_budget();

	*out = NULL;
	if (socket != NULL)
		path = sl_xstrdup(socket);
	else if ((r = sl_client_socket_path(&path, err)) != 0)
		return r;
	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		r = sl_err_set(err, SL_ECONNECT, "socket path too long: %s", path);
		goto out;
	}
	for (;;) {
		r = try_connect(path, &fd);
		if (r == 0 || (r != -ECONNREFUSED && r != -ENOENT && r != -EAGAIN) ||
		    waited >= budget)
			break;
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
		waited += 0.2;
	}
	if (r != 0) {
		/* Two lines: commands print the first as a hint and the last as
		 * Slurm's exact reason. */
		r = sl_err_set(err, SL_ECONNECT,
			       "sluiced is not answering on %s: %s\n"
			       "Unable to contact slurm controller (connect failure)",
			       path, strerror(-r));
		goto out;
	}
	*out = sl_xcalloc(1, sizeof(**out));
	(*out)->fd = fd;
	(*out)->path = path;
	path = NULL;
out:
	free(path);
	return r;
}

void sl_client_free(struct sl_client *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
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

static int send_text(struct sl_client *c, uint16_t type, const char *text, size_t len,
		     struct sl_err *err)
{
	struct sl_buf *out = sl_buf_new(SL_PROTO_HDR_LEN + SL_PROTO_MAX_BODY);
	int r = 0;

	if (len > SL_PROTO_MAX_BODY || sl_proto_encode(out, type, text, len) != 0)
		r = sl_err_set(err, SL_ETOOBIG, "request of %zu bytes is over the %u-byte cap",
			       len, SL_PROTO_MAX_BODY);
	else if (write_all(c->fd, sl_buf_str(out), sl_buf_len(out)) != 0)
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

/* The request text (job_text.c: no json-c tree per submission). */
static int submit_text(const struct sl_jobspec *spec, struct sl_buf **req, struct sl_err *err)
{
	*req = sl_buf_new(SL_PROTO_MAX_BODY);
	if (sl_buf_addstr(*req, "{\"spec\":") != 0 || sl_jobspec_text_append(*req, spec) != 0 ||
	    sl_buf_addc(*req, '}') != 0)
		return sl_err_set(err, SL_ETOOBIG, "request of more than %u bytes is over the cap",
				  SL_PROTO_MAX_BODY);
	return 0;
}

static int submit_exchange(struct sl_client *c, const struct sl_buf *req, uint64_t *id,
			   struct sl_err *err)
{
	json_object *rep = NULL, *v;
	int r;

	if ((r = send_text(c, SL_MSG_SUBMIT, sl_buf_str(req), sl_buf_len(req), err)) != 0 ||
	    (r = receive(c, SL_MSG_SUBMIT, &rep, err)) != 0)
		return r;
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
	int r;

	if ((r = submit_text(spec, &req, err)) == 0)
		r = submit_exchange(c, req, id, err);
	sl_buf_free(req);
	return r;
}

/* The request is written before connecting: sluiced, woken by the connect,
 * finds it already there and answers in the same turn. */
int sl_client_submit_once(const struct sl_jobspec *spec, uint64_t *id, struct sl_err *err)
{
	struct sl_buf *req = NULL;
	struct sl_client *c = NULL;
	int r;

	if ((r = submit_text(spec, &req, err)) == 0 &&
	    (r = sl_client_connect(NULL, &c, err)) == 0)
		r = submit_exchange(c, req, id, err);
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
				    [SL_CTL_REQUEUE] = "requeue"};
	json_object *req = json_object_new_object(), *rep;
	int r;

	json_object_object_add(req, "op", json_object_new_string(ops[op]));
	json_object_object_add(req, "id", json_object_new_int64((int64_t)id));
	if ((r = call(c, SL_MSG_CONTROL, req, &rep, err)) == 0)
		json_object_put(rep);
	return r;
}
