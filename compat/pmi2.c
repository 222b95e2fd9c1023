/* pmi2.c - the PMI-1 and PMI-2 wire of Slurm's mpi/pmi2 plugin (pmi2.h):
 * framing, a table of commands per version, the key-value store and the
 * fence. Pure: the replies go to per-rank output buffers.
 *
 * What Slurm does not serve in a step, this does not either, and says so
 * where Slurm would leave the rank waiting for ever: spawn (PMI-2's and
 * PMI-1's mcmd) is answered "spawn failed", job-connect, job-disconnect
 * and ring rc=-1. Name publishing is srun's own list, as in Slurm: a name
 * published again takes the new port. */
#include "pmi2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define INIT_MAX 64          /* Slurm reads the init line in one 64-byte read */
#define LINE_MAX_PMI1 1024   /* PMIU_MAXLINE */
#define FRAME_MAX (1 << 16)  /* a PMI-2 command's length, capped */
#define KEY_MAX 64           /* MAXKEYLEN, PMI2_MAX_KEYLEN */
#define VAL_MAX 1024         /* MAXVALLEN, PMI2_MAX_VALLEN */
#define STORE_MAX (64 << 20) /* bytes the step's keys and values may hold */
#define ARGS_MAX 64          /* key=value pairs in a request */

struct kv {
	char *key, *val;
};

/* Entries in put order, found through an open-addressed index: every rank
 * reads every rank's keys, n^2 lookups a fence. */
struct kvs {
	struct kv *v;
	size_t n, cap;
	size_t *slot; /* 2 * cap of them: 1 + an entry's index, 0 free */
};

struct rank {
	char *in, *out;
	size_t nin, nout, capout;
	int inited, finalized;
	int in_fence;
	char *wait_attr; /* info-getnodeattr with wait=TRUE, not yet put */
};

struct sl_pmi2 {
	int ntasks, version, subversion; /* 0 until a rank's init */
	char *jobid, *map;
	struct rank *r;
	struct kvs kvs, pending, attrs, names;
	size_t stored;
	int fencing;    /* ranks in the fence */
	int abort_rank; /* 1 + the first aborting rank */
};

struct req {
	const char *cmd;
	int n;
	char *k[ARGS_MAX], *v[ARGS_MAX];
};

static const char *arg(const struct req *q, const char *key)
{
	for (int i = 0; i < q->n; i++)
		if (strcmp(q->k[i], key) == 0)
			return q->v[i];
	return NULL;
}

/* ---- the stores ---- */

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot key is in, or the free one it would take. */
static size_t *kvs_slot(const struct kvs *s, const char *key)
{
	size_t mask = 2 * s->cap - 1, i = hash(key) & mask;
	while (s->slot[i] != 0 && strcmp(s->v[s->slot[i] - 1].key, key) != 0)
		i = (i + 1) & mask;
	return &s->slot[i];
}

static void kvs_index(struct kvs *s)
{
	memset(s->slot, 0, 2 * s->cap * sizeof(*s->slot));
	for (size_t i = 0; i < s->n; i++)
		*kvs_slot(s, s->v[i].key) = i + 1;
}

static struct kv *kvs_find(const struct kvs *s, const char *key)
{
	size_t *at = s->cap ? kvs_slot(s, key) : NULL;
	return at && *at ? &s->v[*at - 1] : NULL;
}

/* The last put of a key wins. 0, or -SL_ETOOBIG past the step's cap. */
static int kvs_put(struct sl_pmi2 *p, struct kvs *s, const char *key, const char *val)
{
	struct kv *e = kvs_find(s, key);
	size_t add = strlen(key) + strlen(val) + 2;
	if (p->stored + add > STORE_MAX)
		return -SL_ETOOBIG;
	p->stored += add;
	if (e != NULL) {
		free(e->val);
		e->val = sl_xstrdup(val);
		return 0;
	}
	if (s->n == s->cap) { /* a power of two, the index at most half full */
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = sl_xrealloc(s->v, s->cap * sizeof(*s->v));
		s->slot = sl_xrealloc(s->slot, 2 * s->cap * sizeof(*s->slot));
		kvs_index(s);
	}
	*kvs_slot(s, key) = s->n + 1;
	s->v[s->n++] = (struct kv){sl_xstrdup(key), sl_xstrdup(val)};
	return 0;
}

static void kvs_clear(struct kvs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].val);
	}
	s->n = 0;
	if (s->cap)
		kvs_index(s);
}

static const char *kvs_get(const struct kvs *s, const char *key)
{
	const struct kv *e = key ? kvs_find(s, key) : NULL;
	return e ? e->val : NULL;
}

/* ---- replies ---- */

static void out_raw(struct rank *r, const char *s, size_t n)
{
	if (r->nout + n > r->capout) {
		r->capout = r->nout + n + 256;
		r->out = sl_xrealloc(r->out, r->capout);
	}
	memcpy(r->out + r->nout, s, n);
	r->nout += n;
}

/* One reply; PMI-2's framed by its "%-6d" length. */
static void vreply(struct sl_pmi2 *p, int rank, int framed, const char *fmt, va_list ap)
{
	char *s = NULL, head[16];
	int n = vasprintf(&s, fmt, ap);
	if (n < 0)
		abort(); /* out of memory: fatal, as sl_x* */
	if (framed) {
		snprintf(head, sizeof(head), "%-6d", n);
		out_raw(&p->r[rank], head, 6);
	}
	out_raw(&p->r[rank], s, (size_t)n);
	free(s);
}

static void reply(struct sl_pmi2 *p, int rank, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void reply(struct sl_pmi2 *p, int rank, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreply(p, rank, p->version == 2, fmt, ap);
	va_end(ap);
}

/* The answer to init is a line in either version. */
static void reply_line(struct sl_pmi2 *p, int rank, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void reply_line(struct sl_pmi2 *p, int rank, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreply(p, rank, 0, fmt, ap);
	va_end(ap);
}

/* ---- PMI-1 ---- */

static int h1_maxes(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=maxes rc=0 kvsname_max=256 keylen_max=%d vallen_max=%d\n", KEY_MAX,
	      VAL_MAX);
	return 0;
}

static int h1_univ(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=universe_size rc=0 size=%d\n", p->ntasks);
	return 0;
}

/* -1: Slurm has no way to know a --multi-prog line's number */
static int h1_appnum(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=appnum rc=0 appnum=-1\n");
	return 0;
}

static int h1_kvsname(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=my_kvsname rc=0 kvsname=%s\n", p->jobid);
	return 0;
}

static int h1_put(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *k = arg(q, "key"), *v = arg(q, "value");
	int rc = k && v && kvs_put(p, &p->pending, k, v) == 0 ? 0 : 1;
	reply(p, rank, "cmd=put_result rc=%d\n", rc);
	return 0;
}

static int h1_get(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *v = kvs_get(&p->kvs, arg(q, "key"));
	if (v != NULL)
		reply(p, rank, "cmd=get_result rc=0 value=%s\n", v);
	else
		reply(p, rank, "cmd=get_result rc=1\n");
	return 0;
}

static int fence_in(struct sl_pmi2 *p, int rank);

static int h1_barrier(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	return fence_in(p, rank);
}

static int finalize(struct sl_pmi2 *p, int rank)
{
	if (p->version == 1)
		reply(p, rank, "cmd=finalize_ack rc=0\n");
	else
		reply(p, rank, "cmd=finalize-response;rc=0;");
	p->r[rank].finalized = 1;
	return 0;
}

static int h_finalize(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	return finalize(p, rank);
}

/* no reply: the step is killed */
static int h1_abort(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	if (p->abort_rank == 0)
		p->abort_rank = rank + 1;
	return 0;
}

static int h1_publish(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *s = arg(q, "service"), *port = arg(q, "port");
	int ok = s && port && kvs_put(p, &p->names, s, port) == 0;
	reply(p, rank, "cmd=publish_result info=%s\n", ok ? "ok" : "fail");
	return 0;
}

/* A name not published is unpublished all the same, as srun's list has it. */
static void unpublish(struct sl_pmi2 *p, const char *name)
{
	struct kv *e = name ? kvs_find(&p->names, name) : NULL;
	if (e == NULL)
		return;
	free(e->key);
	free(e->val);
	*e = p->names.v[--p->names.n];
	kvs_index(&p->names); /* a hole would end a later probe early */
}

static int h1_unpublish(struct sl_pmi2 *p, int rank, const struct req *q)
{
	unpublish(p, arg(q, "service"));
	reply(p, rank, "cmd=unpublish_result info=ok\n");
	return 0;
}

static int h1_lookup(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *port = kvs_get(&p->names, arg(q, "service"));
	if (port != NULL)
		reply(p, rank, "cmd=lookup_result info=ok port=%s\n", port);
	else
		reply(p, rank, "cmd=lookup_result info=fail\n");
	return 0;
}

static int h1_spawn(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=spawn_result rc=-1\n");
	return 0;
}

/* ---- PMI-2 ---- */

static int h2_fullinit(struct sl_pmi2 *p, int rank, const struct req *q)
{
	int rc = arg(q, "pmijobid") && arg(q, "pmirank") && arg(q, "threaded") ? 0 : 3;
	reply(p, rank,
	      "cmd=fullinit-response;rc=%d;pmi-version=2;pmi-subversion=0;rank=%d;size=%d;"
	      "appnum=-1;debugged=FALSE;pmiverbose=FALSE;",
	      rc, rank, p->ntasks);
	return 0;
}

static int h2_abort(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *w = arg(q, "isworld");
	if (w != NULL && strcmp(w, "TRUE") == 0 && p->abort_rank == 0)
		p->abort_rank = rank + 1;
	return 0;
}

static int h2_getid(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=job-getid-response;rc=0;jobid=%s;", p->jobid);
	return 0;
}

static int h2_put(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *k = arg(q, "key"), *v = arg(q, "value");
	int rc = k && v ? kvs_put(p, &p->pending, k, v) : -SL_EPROTO;
	reply(p, rank, "cmd=kvs-put-response;rc=%d;", rc ? -1 : 0);
	return 0;
}

static int h2_fence(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	return fence_in(p, rank);
}

static void found(struct sl_pmi2 *p, int rank, const char *cmd, const char *v)
{
	if (v != NULL)
		reply(p, rank, "cmd=%s;rc=0;found=TRUE;value=%s;", cmd, v);
	else
		reply(p, rank, "cmd=%s;rc=0;found=FALSE;", cmd);
}

static int h2_get(struct sl_pmi2 *p, int rank, const struct req *q)
{
	found(p, rank, "kvs-get-response", kvs_get(&p->kvs, arg(q, "key")));
	return 0;
}

/* A node attribute asked for with wait=TRUE is answered when it is put. */
static int h2_getnode(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *k = arg(q, "key"), *w = arg(q, "wait"), *v = kvs_get(&p->attrs, k);
	if (v == NULL && k != NULL && w != NULL && strcmp(w, "TRUE") == 0) {
		free(p->r[rank].wait_attr);
		p->r[rank].wait_attr = sl_xstrdup(k);
		return 0;
	}
	found(p, rank, "info-getnodeattr-response", v);
	return 0;
}

static int h2_putnode(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *k = arg(q, "key"), *v = arg(q, "value");
	int rc = k && v ? kvs_put(p, &p->attrs, k, v) : -SL_EPROTO;
	reply(p, rank, "cmd=info-putnodeattr-response;rc=%d;", rc ? -1 : 0);
	for (int t = 0; rc == 0 && t < p->ntasks; t++)
		if (p->r[t].wait_attr != NULL && strcmp(p->r[t].wait_attr, k) == 0) {
			found(p, t, "info-getnodeattr-response", v);
			free(p->r[t].wait_attr);
			p->r[t].wait_attr = NULL;
		}
	return 0;
}

static int h2_getjob(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *k = arg(q, "key");
	char size[16];
	snprintf(size, sizeof(size), "%d", p->ntasks);
	found(p, rank, "info-getjobattr-response",
	      !k ? NULL : strcmp(k, "PMI_process_mapping") == 0 ? p->map
			  : strcmp(k, "universeSize") == 0	    ? size : NULL);
	return 0;
}

static int h2_publish(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *n = arg(q, "name"), *port = arg(q, "port");
	int ok = n && port && kvs_put(p, &p->names, n, port) == 0;
	reply(p, rank, "cmd=name-publish-response;rc=%d;", ok ? 0 : -1);
	return 0;
}

static int h2_unpublish(struct sl_pmi2 *p, int rank, const struct req *q)
{
	unpublish(p, arg(q, "name"));
	reply(p, rank, "cmd=name-unpublish-response;rc=0;");
	return 0;
}

static int h2_lookup(struct sl_pmi2 *p, int rank, const struct req *q)
{
	const char *port = kvs_get(&p->names, arg(q, "name"));
	if (port != NULL)
		reply(p, rank, "cmd=name-lookup-response;rc=0;value=%s;", port);
	else
		reply(p, rank, "cmd=name-lookup-response;rc=1;");
	return 0;
}

static int h2_spawn(struct sl_pmi2 *p, int rank, const struct req *q)
{
	(void)q;
	reply(p, rank, "cmd=spawn-response;rc=14;errmsg=spawn failed;");
	return 0;
}

static int h2_unserved(struct sl_pmi2 *p, int rank, const struct req *q)
{
	reply(p, rank, "cmd=%s-response;rc=-1;", q->cmd);
	return 0;
}

/* ---- dispatch ---- */

typedef int (*handler)(struct sl_pmi2 *p, int rank, const struct req *q);

static const struct cmd {
	int version;
	const char *name;
	handler fn;
} cmds[] = {
	{1, "get_maxes", h1_maxes},
	{1, "get_universe_size", h1_univ},
	{1, "get_appnum", h1_appnum},
	{1, "barrier_in", h1_barrier},
	{1, "finalize", h_finalize},
	{1, "abort", h1_abort},
	{1, "get_my_kvsname", h1_kvsname},
	{1, "put", h1_put},
	{1, "get", h1_get},
	{1, "publish_name", h1_publish},
	{1, "unpublish_name", h1_unpublish},
	{1, "lookup_name", h1_lookup},
	{1, "mcmd", h1_spawn},
	{2, "fullinit", h2_fullinit},
	{2, "finalize", h_finalize},
	{2, "abort", h2_abort},
	{2, "job-getid", h2_getid},
	{2, "job-connect", h2_unserved},
	{2, "job-disconnect", h2_unserved},
	{2, "ring", h2_unserved},
	{2, "kvs-put", h2_put},
	{2, "kvs-fence", h2_fence},
	{2, "kvs-get", h2_get},
	{2, "info-getnodeattr", h2_getnode},
	{2, "info-putnodeattr", h2_putnode},
	{2, "info-getjobattr", h2_getjob},
	{2, "name-publish", h2_publish},
	{2, "name-unpublish", h2_unpublish},
	{2, "name-lookup", h2_lookup},
	{2, "spawn", h2_spawn},
};

/* Every rank in: the puts become readable, and every rank is told. */
static int fence_in(struct sl_pmi2 *p, int rank)
{
	if (p->r[rank].in_fence)
		return 0;
	p->r[rank].in_fence = 1;
	if (++p->fencing < p->ntasks)
		return 0;
	for (size_t i = 0; i < p->pending.n; i++)
		if (kvs_put(p, &p->kvs, p->pending.v[i].key, p->pending.v[i].val) != 0)
			return -SL_ETOOBIG;
	kvs_clear(&p->pending);
	p->fencing = 0;
	for (int t = 0; t < p->ntasks; t++) {
		p->r[t].in_fence = 0;
		if (p->version == 1)
			reply(p, t, "cmd=barrier_out rc=0\n");
		else
			reply(p, t, "cmd=kvs-fence-response;rc=0;");
	}
	return 0;
}

/* "k=v k=v" (PMI-1, sep ' ') or "k=v;k=v;" (PMI-2, sep ';'), split in
 * place; the first pair is cmd=. A word without '=' (a PMI-1 value's
 * second word) and pairs past ARGS_MAX are passed over. */
static int parse(char *s, char sep, struct req *q, struct sl_err *err)
{
	q->n = 0;
	q->cmd = NULL;
	for (char *tok = s; *tok;) {
		char *end = strchr(tok, sep), *eq;
		if (end != NULL)
			*end = '\0';
		if ((eq = strchr(tok, '=')) != NULL && q->n < ARGS_MAX) {
			*eq = '\0';
			q->k[q->n] = tok;
			q->v[q->n++] = eq + 1;
		}
		if (end == NULL)
			break;
		tok = end + 1;
	}
	if (q->n == 0 || (strcmp(q->k[0], "cmd") != 0 && strcmp(q->k[0], "mcmd") != 0))
		return sl_err_set(err, SL_EPROTO, "mpi/pmi2: request without cmd=");
	q->cmd = strcmp(q->k[0], "mcmd") == 0 ? "mcmd" : q->v[0];
	return 0;
}

/* Unknown commands go unanswered, as Slurm logs and drops them. */
static int dispatch(struct sl_pmi2 *p, int rank, char *s, char sep, struct sl_err *err)
{
	struct req q;
	int r = parse(s, sep, &q, err);
	if (r != 0)
		return r;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].version == p->version && strcmp(cmds[i].name, q.cmd) == 0) {
			if ((r = cmds[i].fn(p, rank, &q)) != 0)
				return sl_err_set(err, -r,
						  "mpi/pmi2: the step's keys are over %d bytes",
						  STORE_MAX);
			return 0;
		}
	return 0;
}

/* "cmd=init pmi_version=V pmi_subversion=S": 1.1 or 2.0, the first
 * rank's the step's. A line Slurm cannot read is told rc=1 and 2.0. */
static int init(struct sl_pmi2 *p, int rank, const char *line, struct sl_err *err)
{
	int v = 2, s = 0, rc = 0;
	if (sscanf(line, "cmd=init pmi_version=%d pmi_subversion=%d", &v, &s) != 2) {
		rc = 1, v = 2, s = 0;
	} else if ((v != 1 || s != 1) && (v != 2 || s != 0)) {
		rc = -1;
	} else if (p->version != 0 && (p->version != v || p->subversion != s)) {
		rc = -1, v = p->version, s = p->subversion;
	} else {
		p->version = v, p->subversion = s;
	}
	p->r[rank].inited = 1;
	if (p->version == 0)
		return sl_err_set(err, SL_EPROTO, "mpi/pmi2: unsupported PMI version: %d.%d", v, s);
	reply_line(p, rank, "cmd=response_to_init rc=%d pmi_version=%d pmi_subversion=%d\n", rc,
		   v, s);
	return 0;
}

/* The next whole request in r->in: its length with framing (0: not yet
 * whole), *body and *blen the request itself. */
static size_t next_request(const struct sl_pmi2 *p, const struct rank *r, const char **body,
			   size_t *blen, struct sl_err *err, int *bad)
{
	const char *nl;
	*bad = 0;
	if (!r->inited || p->version == 1) {
		size_t cap = !r->inited ? INIT_MAX : LINE_MAX_PMI1;
		if (r->inited && r->nin >= 5 && memcmp(r->in, "mcmd=", 5) == 0) {
			/* PMI-1 spawn: its lines up to "endcmd" are one request */
			const char *end = memmem(r->in, r->nin, "endcmd\n", 7);
			*body = r->in;
			*blen = end ? (size_t)(end - r->in) : 0;
			if (end == NULL && r->nin > FRAME_MAX)
				*bad = sl_err_set(err, SL_ETOOBIG, "mpi/pmi2: spawn over %d bytes",
						  FRAME_MAX);
			return end ? *blen + 7 : 0;
		}
		if ((nl = memchr(r->in, '\n', r->nin)) == NULL) {
			if (r->nin >= cap)
				*bad = sl_err_set(err, SL_ETOOBIG,
						  "mpi/pmi2: a line over %zu bytes", cap);
			return 0;
		}
		*body = r->in;
		*blen = (size_t)(nl - r->in);
		return *blen + 1;
	}
	char head[7];
	long len;
	if (r->nin < 6)
		return 0;
	memcpy(head, r->in, 6);
	head[6] = '\0';
	len = strtol(head, NULL, 10);
	if (len < 0 || len > FRAME_MAX) {
		*bad = sl_err_set(err, SL_ETOOBIG, "mpi/pmi2: a request of %ld bytes", len);
		return 0;
	}
	if (r->nin < 6 + (size_t)len)
		return 0;
	*body = r->in + 6;
	*blen = (size_t)len;
	return 6 + (size_t)len;
}

/* One whole request. A PMI-2 length of 0 is most likely a second init
 * (its unframed line): Slurm answers finalize, which fails the client's
 * init, and closes. */
static int serve(struct sl_pmi2 *p, int rank, char *s, size_t len, struct sl_err *err)
{
	struct rank *r = &p->r[rank];
	if (!r->inited)
		return init(p, rank, s, err);
	if (p->version == 2 && len == 0)
		return finalize(p, rank);
	if (p->version == 1 && strncmp(s, "mcmd=", 5) == 0)
		return h1_spawn(p, rank, NULL);
	return dispatch(p, rank, s, p->version == 1 ? ' ' : ';', err);
}

int sl_pmi2_input(struct sl_pmi2 *p, int rank, const char *buf, size_t len, struct sl_err *err)
{
	struct rank *r = &p->r[rank];
	int bad = 0, rc = 0;
	if (r->finalized)
		return 0; /* after finalize the rank has nothing to say */
	r->in = sl_xrealloc(r->in, r->nin + len + 1);
	memcpy(r->in + r->nin, buf, len);
	r->nin += len;
	for (;;) {
		const char *body;
		size_t blen, used = next_request(p, r, &body, &blen, err, &bad);
		if (bad)
			return bad;
		if (used == 0)
			return 0;
		char *s = sl_xstrndup(body, blen);
		rc = serve(p, rank, s, blen, err);
		free(s);
		memmove(r->in, r->in + used, r->nin - used);
		r->nin -= used;
		if (rc != 0 || r->finalized)
			return rc;
	}
}

const char *sl_pmi2_output(const struct sl_pmi2 *p, int rank, size_t *len)
{
	*len = p->r[rank].nout;
	return p->r[rank].out;
}

void sl_pmi2_consumed(struct sl_pmi2 *p, int rank, size_t n)
{
	struct rank *r = &p->r[rank];
	n = n > r->nout ? r->nout : n;
	memmove(r->out, r->out + n, r->nout - n);
	r->nout -= n;
}

int sl_pmi2_finalized(const struct sl_pmi2 *p, int rank)
{
	return p->r[rank].finalized;
}

int sl_pmi2_aborted(const struct sl_pmi2 *p, int *rank)
{
	if (p->abort_rank == 0)
		return 0;
	*rank = p->abort_rank - 1;
	return 1;
}

struct sl_pmi2 *sl_pmi2_new(int ntasks, const char *jobid, const char *map)
{
	struct sl_pmi2 *p = sl_xcalloc(1, sizeof(*p));
	p->ntasks = ntasks;
	p->jobid = sl_xstrdup(jobid);
	p->map = sl_xstrdup(map);
	p->r = sl_xcalloc((size_t)ntasks, sizeof(*p->r));
	/* PMI-1 clients read the mapping as a key (MPICH's simple PMI) */
	(void)kvs_put(p, &p->kvs, "PMI_process_mapping", map);
	return p;
}

void sl_pmi2_free(struct sl_pmi2 *p)
{
	if (p == NULL)
		return;
	for (int t = 0; t < p->ntasks; t++) {
		free(p->r[t].in);
		free(p->r[t].out);
		free(p->r[t].wait_attr);
	}
	struct kvs *all[] = {&p->kvs, &p->pending, &p->attrs, &p->names};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		kvs_clear(all[i]);
		free(all[i]->v);
		free(all[i]->slot);
	}
	free(p->r);
	free(p->jobid);
	free(p->map);
	free(p);
}
