/* job_parse.c - job lists (commands) and submissions (sluiced) read
 * straight from JSON text into struct sl_job / sl_jobspec, the counterpart
 * of job_text.c.
 *
 * squeue with 10 000 jobs spent 80 % of its time in json-c: a hash table per
 * object, a malloc per value, a lookup per member the record might have,
 * then freeing it all. This reads each member once and stores it where the
 * tables below say. It accepts any JSON (unknown members and values of any
 * kind are skipped, so an older client reads a newer daemon's records) and
 * checks the type and range of what it stores. */
#include "job.h"
#include "job_fields.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xalloc.h"

#define DEPTH_MAX 64
#define STRV_MAX 100000 /* a hostile peer gets an error, not an OOM */

/* hint: where the last key of a spec (0) or a record (1) was found in its
 * table. The writer emits keys in table order, so the next key is almost
 * always the next row: a lookup is one or two compares, not a scan. */
struct jp {
	const char *start, *p, *end;
	struct sl_err *err;
	size_t hint[2];
};

enum ftype { F_STR, F_INT, F_I64, F_STRV };

struct field {
	const char *key;
	size_t len; /* strlen(key) */
	enum ftype type;
	size_t off;
};

#define SF_STR(f) {#f, sizeof(#f) - 1, F_STR, offsetof(struct sl_jobspec, f)},
#define SF_INT(f) {#f, sizeof(#f) - 1, F_INT, offsetof(struct sl_jobspec, f)},
#define SF_I64(f) {#f, sizeof(#f) - 1, F_I64, offsetof(struct sl_jobspec, f)},
#define SF_STRV(f) {#f, sizeof(#f) - 1, F_STRV, offsetof(struct sl_jobspec, f)},
static const struct field spec_fields[] = {
	SPEC_STRINGS(SF_STR) SPEC_INTS(SF_INT) SPEC_INT64S(SF_I64)
	SPEC_LAUNCH_STRVS(SF_STRV) SPEC_STRVS(SF_STRV)
};

#define JF_STR(f) {#f, sizeof(#f) - 1, F_STR, offsetof(struct sl_job, f)},
#define JF_INT(f) {#f, sizeof(#f) - 1, F_INT, offsetof(struct sl_job, f)},
#define JF_I64(f) {#f, sizeof(#f) - 1, F_I64, offsetof(struct sl_job, f)},
static const struct field job_fields[] = {
	JOB_STRINGS(JF_STR) JOB_INTS(JF_INT) JOB_INT64S(JF_I64) JOB_LIVE_INTS(JF_INT)
	JOB_LIVE_STRINGS(JF_STR)
};

static int bad(struct jp *j, const char *what)
{
	return sl_err_set(j->err, SL_EPROTO, "bad JSON: %s at byte %td", what, j->p - j->start);
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

/* Consume c (after blanks): 1, or 0 and nothing consumed. */
static int eat(struct jp *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return 1;
	}
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int hex4(struct jp *j, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++) {
		int h = j->p < j->end ? hexval(*j->p) : -1;
		if (h < 0)
			return bad(j, "bad \\u escape");
		*u = *u << 4 | (unsigned)h;
		j->p++;
	}
	return 0;
}

static void put_utf8(char **o, unsigned u)
{
	char *q = *o;
	if (u < 0x80) {
		*q++ = (char)u;
	} else if (u < 0x800) {
		*q++ = (char)(0xc0 | u >> 6);
		*q++ = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*q++ = (char)(0xe0 | u >> 12);
		*q++ = (char)(0x80 | (u >> 6 & 0x3f));
		*q++ = (char)(0x80 | (u & 0x3f));
	} else {
		*q++ = (char)(0xf0 | u >> 18);
		*q++ = (char)(0x80 | (u >> 12 & 0x3f));
		*q++ = (char)(0x80 | (u >> 6 & 0x3f));
		*q++ = (char)(0x80 | (u & 0x3f));
	}
	*o = q;
}

static int escape(struct jp *j, char **o)
{
	unsigned u, lo;
	char c = *j->p++;

	switch (c) {
	case '"': case '\\': case '/': *(*o)++ = c; return 0;
	case 'b': *(*o)++ = '\b'; return 0;
	case 'f': *(*o)++ = '\f'; return 0;
	case 'n': *(*o)++ = '\n'; return 0;
	case 'r': *(*o)++ = '\r'; return 0;
	case 't': *(*o)++ = '\t'; return 0;
	case 'u': break;
	default: return bad(j, "bad escape");
	}
	if (hex4(j, &u) != 0)
		return -SL_EPROTO;
	if (u >= 0xd800 && u < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u') {
		j->p += 2;
		if (hex4(j, &lo) != 0)
			return -SL_EPROTO;
		if (lo >= 0xdc00 && lo < 0xe000)
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		else
			put_utf8(o, 0xfffd), u = lo;
	}
	put_utf8(o, u);
	return 0;
}

/* The end of a string's plain run: its closing '"', a '\\', or end. A
 * loop, not memchr: the strings of a record are a few bytes long, and two
 * library calls per string cost more than the scan. */
static const char *plain_end(const char *s, const char *end)
{
	while (s < end && *s != '"' && *s != '\\')
		s++;
	return s;
}

/* A string: *out malloc'd (NULL: skipped). The output never outgrows the
 * input (an escape of n bytes gives at most n), so one allocation does. */
static int string(struct jp *j, char **out)
{
	const char *s;
	char *buf, *o;

	if (!eat(j, '"'))
		return bad(j, "expected a string");
	s = j->p;
	j->p = plain_end(s, j->end);
	if (j->p < j->end && *j->p == '"') { /* no escapes: the common case */
		if (out != NULL)
			*out = sl_xstrndup(s, (size_t)(j->p - s));
		j->p++;
		return 0;
	}
	o = buf = sl_xmalloc((size_t)(j->end - s) + 1);
	memcpy(o, s, (size_t)(j->p - s));
	o += j->p - s;
	while (j->p < j->end && *j->p != '"') {
		if (*j->p != '\\') {
			*o++ = *j->p++;
			continue;
		}
		j->p++;
		if (j->p >= j->end || escape(j, &o) != 0) {
			free(buf);
			return j->err->code ? -j->err->code : bad(j, "unterminated string");
		}
	}
	if (j->p >= j->end) {
		free(buf);
		return bad(j, "unterminated string");
	}
	j->p++;
	*o = '\0';
	if (out != NULL)
		*out = buf;
	else
		free(buf);
	return 0;
}

/* A key or a short value: copied into buf (cap bytes with the NUL) when it
 * has no escapes and fits, which is every key a writer of ours sends; else
 * read by string() into *heap (the caller frees it). *out is the text. A
 * malloc per key was a third of the time squeue spent reading 10 000 jobs. */
static int short_string(struct jp *j, char *buf, size_t cap, char **heap, const char **out)
{
	const char *s, *q;

	*heap = NULL;
	ws(j);
	if (j->p < j->end && *j->p == '"') {
		s = j->p + 1;
		q = plain_end(s, j->end);
		if (q < j->end && *q == '"' && (size_t)(q - s) < cap) {
			memcpy(buf, s, (size_t)(q - s));
			buf[q - s] = '\0';
			j->p = q + 1;
			*out = buf;
			return 0;
		}
	}
	if (string(j, heap) != 0)
		return -SL_EPROTO;
	*out = *heap;
	return 0;
}

static int integer(struct jp *j, int64_t *v)
{
	int neg = 0;
	uint64_t u = 0;

	ws(j);
	if (j->p < j->end && *j->p == '-')
		neg = 1, j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return bad(j, "expected an integer");
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		if (u > (UINT64_MAX - 9) / 10)
			return bad(j, "integer out of range");
		u = u * 10 + (uint64_t)(*j->p++ - '0');
	}
	if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
		return bad(j, "expected an integer");
	if (u > (uint64_t)INT64_MAX + neg)
		return bad(j, "integer out of range");
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int skip(struct jp *j, int depth);

static int skip_container(struct jp *j, char close, int depth)
{
	if (depth > DEPTH_MAX)
		return bad(j, "nested too deep");
	if (eat(j, close))
		return 0;
	do {
		if (close == '}' && (string(j, NULL) != 0 || !eat(j, ':')))
			return j->err->code ? -j->err->code : bad(j, "expected ':'");
		if (skip(j, depth + 1) != 0)
			return -SL_EPROTO;
	} while (eat(j, ','));
	return eat(j, close) ? 0 : bad(j, "expected ',' or the end of a container");
}

/* Any value, discarded. */
static int skip(struct jp *j, int depth)
{
	ws(j);
	if (j->p >= j->end)
		return bad(j, "expected a value");
	switch (*j->p) {
	case '"': return string(j, NULL);
	case '{': j->p++; return skip_container(j, '}', depth);
	case '[': j->p++; return skip_container(j, ']', depth);
	}
	const char *s = j->p;
	while (j->p < j->end && strchr("+-.0123456789eEtrufalsn", *j->p) != NULL)
		j->p++;
	return j->p > s ? 0 : bad(j, "expected a value");
}

static int is_null(struct jp *j)
{
	ws(j);
	if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
		j->p += 4;
		return 1;
	}
	return 0;
}

static int strv(struct jp *j, char ***dst)
{
	size_t n = 0, cap = 8;
	char **v;

	if (!eat(j, '['))
		return bad(j, "expected an array");
	v = sl_xcalloc(cap + 1, sizeof(char *));
	sl_strv_free(*dst);
	*dst = v;
	if (eat(j, ']'))
		return 0;
	do {
		if (n == STRV_MAX)
			return sl_err_set(j->err, SL_ETOOBIG, "job: more than %d entries", STRV_MAX);
		if (n == cap) {
			v = *dst = sl_xrealloc(v, (2 * cap + 1) * sizeof(char *));
			memset(v + cap + 1, 0, cap * sizeof(char *));
			cap *= 2;
		}
		if (string(j, &v[n]) != 0)
			return -SL_EPROTO;
		n++;
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : bad(j, "expected ',' or ']'");
}

/* key's row of t (which: the hint to use), or NULL. */
static const struct field *find(struct jp *j, int which, const struct field *t, size_t n,
				const char *key)
{
	size_t len = strlen(key), i = j->hint[which];

	for (size_t k = 0; k < n; k++, i++) {
		if (i >= n)
			i = 0;
		if (t[i].len == len && t[i].key[0] == key[0] && memcmp(t[i].key, key, len) == 0) {
			j->hint[which] = i + 1;
			return &t[i];
		}
	}
	return NULL;
}

/* One member into base per its field; r != 0 on error. */
static int member(struct jp *j, const struct field *f, void *base)
{
	void *p = (char *)base + f->off;
	int64_t v;

	if (f->type != F_STRV && is_null(j))
		return 0;
	switch (f->type) {
	case F_STR:
		free(*(char **)p);
		*(char **)p = NULL;
		return string(j, (char **)p);
	case F_STRV:
		return is_null(j) ? 0 : strv(j, (char ***)p);
	case F_I64:
		if (integer(j, &v) != 0)
			return -SL_EPROTO;
		*(int64_t *)p = v;
		return 0;
	case F_INT:
		if (integer(j, &v) != 0)
			return -SL_EPROTO;
		if (v < -2147483647 - 1 || v > 2147483647)
			return sl_err_set(j->err, SL_EPROTO, "job: %s: %lld is out of range", f->key,
					  (long long)v);
		*(int *)p = (int)v;
		return 0;
	}
	return 0;
}

/* {"key": value, ...}: each key goes to cb. */
static int object(struct jp *j, int (*cb)(struct jp *, const char *, void *), void *arg)
{
	char kbuf[64], *heap = NULL;
	const char *key;
	int r = 0;

	if (!eat(j, '{'))
		return bad(j, "expected an object");
	if (eat(j, '}'))
		return 0;
	do {
		if ((r = short_string(j, kbuf, sizeof(kbuf), &heap, &key)) != 0 ||
		    (!eat(j, ':') && (r = bad(j, "expected ':'"))))
			break;
		r = cb(j, key, arg);
		free(heap);
		heap = NULL;
	} while (r == 0 && eat(j, ','));
	free(heap);
	if (r == 0 && !eat(j, '}'))
		r = bad(j, "expected ',' or '}'");
	return r;
}

/* The whole text is one object (blanks may follow it). */
static int document(const char *text, size_t len, struct sl_err *err,
		    int (*cb)(struct jp *, const char *, void *), void *arg)
{
	struct jp j = {text, text, text + len, err, {0, 0}};
	int r = object(&j, cb, arg);

	ws(&j);
	if (r == 0 && j.p != j.end)
		r = bad(&j, "trailing bytes");
	return r;
}

static int spec_member(struct jp *j, const char *key, void *arg)
{
	struct sl_jobspec *s = arg;
	const struct field *f =
		find(j, 0, spec_fields, sizeof(spec_fields) / sizeof(spec_fields[0]), key);
	int64_t v;

	if (f != NULL)
		return member(j, f, s);
	if (strcmp(key, "open_mode") == 0 || strcmp(key, "umask") == 0) {
		if (integer(j, &v) != 0)
			return -SL_EPROTO;
		if (key[0] == 'u') {
			s->umask = (mode_t)(v & 0777);
			return 0;
		}
		if (v < SL_OPEN_DEFAULT || v > SL_OPEN_APPEND)
			return sl_err_set(j->err, SL_EPROTO, "job: open_mode: %lld is not valid",
					  (long long)v);
		s->open_mode = (enum sl_open_mode)v;
		return 0;
	}
	return skip(j, 1);
}

struct jobctx {
	struct sl_job *job;
	int has_spec;
	int has_key; /* a request whose submit_key is read (else skipped) */
	unsigned *flags; /* a submit request's flags (SL_SUBMIT_*), or NULL */
};

static int job_member(struct jp *j, const char *key, void *arg)
{
	struct jobctx *c = arg;
	struct sl_job *job = c->job;
	const struct field *f;
	char sbuf[32], *heap = NULL;
	const char *state;
	size_t len = strlen(key);
	int64_t v;
	int st;

	/* the members outside the table first: they lead every record (the
	 * length first, so that the others cost no string compare) */
	if (len == 4 && memcmp(key, "spec", 4) == 0) {
		c->has_spec = 1;
		return object(j, spec_member, &job->spec);
	}
	if (len == 5 && memcmp(key, "state", 5) == 0) {
		if (short_string(j, sbuf, sizeof(sbuf), &heap, &state) != 0)
			return -SL_EPROTO;
		st = sl_jobstate_parse(state);
		if (st < 0)
			sl_err_set(j->err, SL_EPROTO, "job: state: \"%s\" is not a job state", state);
		free(heap);
		if (st < 0)
			return -SL_EPROTO;
		job->state = (enum sl_jobstate)st;
		return 0;
	}
	if ((len == 2 && memcmp(key, "id", 2) == 0) ||
	    (len == 3 && (memcmp(key, "uid", 3) == 0 || memcmp(key, "gid", 3) == 0))) {
		if (integer(j, &v) != 0)
			return -SL_EPROTO;
		if (key[0] == 'i')
			job->id = (uint64_t)v;
		else if (key[0] == 'u')
			job->uid = (uid_t)v;
		else
			job->gid = (gid_t)v;
		return 0;
	}
	if ((f = find(j, 1, job_fields, sizeof(job_fields) / sizeof(job_fields[0]), key)) != NULL)
		return member(j, f, job);
	return skip(j, 1);
}

struct listctx {
	struct sl_job **v;
	size_t n, cap;
	char *code, *error;
	int has_jobs;
};

static int one_job(struct jp *j, struct listctx *l)
{
	struct jobctx c = {sl_job_new(), 0, 0, NULL};
	int r;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = sl_xrealloc(l->v, (l->cap + 1) * sizeof(*l->v));
	}
	l->v[l->n++] = c.job;
	l->v[l->n] = NULL;
	if ((r = object(j, job_member, &c)) == 0 && !c.has_spec)
		r = sl_err_set(j->err, SL_EPROTO, "job: spec is missing");
	return r;
}

static int list_member(struct jp *j, const char *key, void *arg)
{
	struct listctx *l = arg;

	if (strcmp(key, "jobs") == 0) {
		l->has_jobs = 1;
		if (!eat(j, '['))
			return bad(j, "jobs: expected an array");
		if (eat(j, ']'))
			return 0;
		do {
			if (one_job(j, l) != 0)
				return -SL_EPROTO;
		} while (eat(j, ','));
		return eat(j, ']') ? 0 : bad(j, "expected ',' or ']'");
	}
	/* A repeated member: the last one wins, as for the spec's. */
	if (strcmp(key, "code") == 0) {
		free(l->code);
		l->code = NULL;
		return string(j, &l->code);
	}
	if (strcmp(key, "error") == 0) {
		free(l->error);
		l->error = NULL;
		return string(j, &l->error);
	}
	return skip(j, 1);
}

int sl_job_list_parse(const char *text, size_t len, struct sl_job ***jobs, size_t *n,
		      struct sl_err *err)
{
	struct listctx l = {0};
	int r;

	*jobs = NULL;
	*n = 0;
	r = document(text, len, err, list_member, &l);
	if (r == 0 && l.error != NULL)
		r = sl_err_set(err, l.code ? sl_errcode_from_name(l.code) : SL_EINTERNAL, "%s",
			       l.error);
	else if (r == 0 && !l.has_jobs)
		r = sl_err_set(err, SL_EPROTO, "jobs reply without a jobs array");
	if (r != 0 && err->code == 0)
		sl_err_set(err, SL_EPROTO, "bad JSON in reply");
	free(l.code);
	free(l.error);
	if (r != 0) {
		sl_job_free_array(l.v, l.n);
		return -err->code;
	}
	*jobs = l.v ? l.v : sl_xcalloc(1, sizeof(*l.v));
	*n = l.n;
	return 0;
}

/* A spec to run needs its script; *s is cleared on error. */
static int spec_done(int r, struct sl_jobspec *s, struct sl_err *err)
{
	if (r == 0 && s->script == NULL)
		r = sl_err_set(err, SL_EPROTO, "job spec: script is missing");
	if (r == 0)
		return 0;
	sl_jobspec_clear(s);
	return err->code ? -err->code : r;
}

int sl_jobspec_parse(const char *text, size_t len, struct sl_jobspec *out, struct sl_err *err)
{
	sl_jobspec_init(out);
	return spec_done(document(text, len, err, spec_member, out), out, err);
}

/* What only a launch reads (the environment, arguments and script: most
 * of a stored spec) is skipped, not copied. */
static int listing_member(struct jp *j, const char *key, void *arg)
{
	if (strcmp(key, "env") == 0 || strcmp(key, "argv") == 0 || strcmp(key, "script") == 0)
		return skip(j, 1);
	return spec_member(j, key, arg);
}

int sl_jobspec_parse_listing(const char *text, size_t len, struct sl_jobspec *out,
			     struct sl_err *err)
{
	int r;

	sl_jobspec_init(out);
	r = document(text, len, err, listing_member, out);
	if (r == 0 && out->script == NULL)
		out->script = sl_xstrdup("");
	return spec_done(r, out, err);
}

/* A submission is stricter than a listing: a member this daemon does not
 * know is an option a newer command asked for, and dropping it would run
 * the job without it. */
static int request_spec_member(struct jp *j, const char *key, void *arg)
{
	struct jobctx *c = arg;

	/* sbatch --test-only: a member of the spec, not of the request, so
	 * that a daemon that does not know it refuses the request (below)
	 * rather than submitting the job */
	if (strcmp(key, "test_only") == 0 && c->flags != NULL) {
		int64_t v;
		if (integer(j, &v) != 0)
			return -SL_EPROTO;
		if (v)
			*c->flags |= SL_SUBMIT_TEST_ONLY;
		return 0;
	}
	if (find(j, 0, spec_fields, sizeof(spec_fields) / sizeof(spec_fields[0]), key) == NULL &&
	    strcmp(key, "open_mode") != 0 && strcmp(key, "umask") != 0)
		return sl_err_set(j->err, SL_EPROTO,
				  "job spec: \"%s\" is not known to this sluiced: is it older than "
				  "the command?", key);
	return spec_member(j, key, &c->job->spec);
}

/* A key is the client's, and goes to an index: short, and plain. */
static int submit_key(struct jp *j, struct sl_job *job)
{
	char *k = NULL;
	size_t n;

	if (string(j, &k) != 0)
		return -SL_EPROTO;
	n = strlen(k);
	if (n == 0 || n > SL_SUBMIT_KEY_MAX || strspn(k, "0123456789abcdefghijklmnopqrstuvwxyz"
						     "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") != n) {
		free(k);
		return sl_err_set(j->err, SL_EPROTO, "submit: submit_key must be 1 to %d letters, "
				  "digits, '_' or '-'", SL_SUBMIT_KEY_MAX);
	}
	free(job->submit_key);
	job->submit_key = k;
	return 0;
}

static int request_member(struct jp *j, const char *key, void *arg)
{
	struct jobctx *c = arg;

	if (strcmp(key, "submit_key") == 0 && c->has_key)
		return submit_key(j, c->job);
	if (strcmp(key, "spec") != 0)
		return skip(j, 1);
	c->has_spec = 1;
	return object(j, request_spec_member, c);
}

/* Into job->spec (initialised) and, with has_key, job->submit_key. */
static int parse_request(const char *text, size_t len, struct sl_job *job, int has_key,
			 unsigned *flags, struct sl_err *err)
{
	struct jobctx c = {job, 0, has_key, flags};
	int r = document(text, len, err, request_member, &c);

	if (r == 0 && !c.has_spec)
		r = sl_err_set(err, SL_EPROTO, "submit: spec is missing");
	return spec_done(r, &job->spec, err);
}

int sl_jobspec_parse_request(const char *text, size_t len, struct sl_jobspec *out,
			     struct sl_err *err)
{
	struct sl_job job; /* only .spec is used: the member tables work on it */
	int r;

	sl_jobspec_init(&job.spec);
	if ((r = parse_request(text, len, &job, 0, NULL, err)) == 0)
		*out = job.spec;
	return r;
}

int sl_job_parse_request(const char *text, size_t len, struct sl_job *j, struct sl_err *err)
{
	return sl_job_parse_submit(text, len, j, NULL, err);
}

int sl_job_parse_submit(const char *text, size_t len, struct sl_job *j, unsigned *flags,
			struct sl_err *err)
{
	int r;

	if (flags != NULL)
		*flags = 0;
	sl_jobspec_clear(&j->spec);
	if ((r = parse_request(text, len, j, 1, flags, err)) != 0) {
		free(j->submit_key);
		j->submit_key = NULL;
	}
	return r;
}
