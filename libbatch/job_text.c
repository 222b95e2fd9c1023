/* job_text.c - job specs and records written straight to JSON text: the
 * whole spec (a submission, the store) and the record as squeue, sacct and
 * scontrol receive it.
 *
 * The reply to `squeue` with 10 000 jobs is 10 000 records, and every
 * submission stores one; building them as json-c objects first (a hash
 * table per object, a malloc per value) cost most of the daemon's time on
 * those requests and tens of MiB at the peak. The keys come from the
 * field lists (job_fields.h); test_job_text checks the text against a
 * json-c tree built from the same struct. */
#include "job.h"
#include "job_fields.h"
#include "job_proj.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "err.h"

/* The buffer has a cap: an append past it fails and leaves the buffer as
 * it was, so every failure is remembered, and the record reported whole
 * or not at all. Bytes gather in `tmp` and reach the buffer a few KiB at a
 * time: an sl_buf_add() per key, value and quote was a third of the
 * daemon's time listing 10 000 jobs. */
struct w {
	struct sl_buf *b;
	int first;
	int failed;
	size_t n;
	char tmp[4096];
};

/* tmp is left as it is: zeroing 4 KiB per record would cost more than
 * the record. */
static void w_init(struct w *w, struct sl_buf *b)
{
	w->b = b;
	w->first = 1;
	w->failed = 0;
	w->n = 0;
}

static void flush(struct w *w)
{
	if (w->n > 0 && sl_buf_add(w->b, w->tmp, w->n) != 0)
		w->failed = 1;
	w->n = 0;
}

static inline void add(struct w *w, const void *p, size_t n)
{
	if (w->n + n > sizeof(w->tmp)) {
		flush(w);
		if (n > sizeof(w->tmp)) {
			if (sl_buf_add(w->b, p, n) != 0)
				w->failed = 1;
			return;
		}
	}
	memcpy(w->tmp + w->n, p, n);
	w->n += n;
}

static inline void addc(struct w *w, char c)
{
	if (w->n == sizeof(w->tmp))
		flush(w);
	w->tmp[w->n++] = c;
}

/* 1 for the bytes JSON escapes (controls, '"' and '\\'), 2 for NUL: one
 * table load per byte on the scan, which covers every environment string
 * of every submission and every listed record. */
static const unsigned char special[256] = {
	2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00-0x0f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10-0x1f */
	['"'] = 1, ['\\'] = 1,
};

static void put_raw_str(struct w *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	addc(b, '"');
	for (;; s++) {
		unsigned char c = (unsigned char)*s;
		if (special[c] == 0)
			continue;
		if (c == '\0')
			break;
		add(b, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"': add(b, "\\\"", 2); break;
		case '\\': add(b, "\\\\", 2); break;
		case '\n': add(b, "\\n", 2); break;
		case '\t': add(b, "\\t", 2); break;
		case '\r': add(b, "\\r", 2); break;
		default: {
			char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			add(b, u, sizeof(u));
		}
		}
	}
	add(b, run, (size_t)(s - run));
	addc(b, '"');
}

/* ,"key": with the comma unless first */
static inline void put_key(struct w *b, const char *k)
{
	if (!b->first)
		addc(b, ',');
	b->first = 0;
	addc(b, '"');
	add(b, k, strlen(k));
	add(b, "\":", 2);
}

static inline void put_str(struct w *b, const char *k, const char *v)
{
	if (v == NULL)
		return;
	put_key(b, k);
	put_raw_str(b, v);
}

static inline void put_i64(struct w *b, const char *k, int64_t v)
{
	char num[24], *e = num + sizeof(num), *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do /* not snprintf: a record has a dozen numbers */
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	put_key(b, k);
	add(b, p, (size_t)(e - p));
}

static void put_strv(struct w *b, const char *k, char *const *v)
{
	put_key(b, k);
	addc(b, '[');
	for (size_t i = 0; v[i] != NULL; i++) {
		if (i > 0)
			addc(b, ',');
		put_raw_str(b, v[i]);
	}
	addc(b, ']');
}

/* What of a spec is written: all of it (the store, a submission); a
 * listing's, without env, argv and script, which no listing prints and of
 * which the environment alone is two thirds of a record, unless the
 * projection names them (sacct -B/-E, scontrol write batch_script); and a
 * listing for others than the owner, never with those, nor the --export
 * values, in the option or in the submit line that typed them. */
enum part { PART_FULL, PART_LISTING, PART_OTHERS };

static int shown(enum part part, const char *field, int asked)
{
	if (part == PART_FULL)
		return 1;
	if (strcmp(field, "script") == 0)
		return part == PART_LISTING && asked;
	return part == PART_LISTING ||
	       (strcmp(field, "export_spec") != 0 && strcmp(field, "submit_line") != 0);
}

/* Is member f asked for? has: sl_jobproj_bytes(), NULL for all. */
#define WANT(f) (has == NULL || has[f])

/* dp: a spec at its defaults. */
static void put_spec(struct w *b, const struct sl_jobspec *s, const struct sl_jobspec *dp,
		     enum part part, const unsigned char *has)
{
	int full = part == PART_FULL;

	b->first = 1;
	addc(b, '{');
#define ASKED(f) (has != NULL && has[f])
#define W_STR(f) if (WANT(SL_JP_SPEC_##f) && shown(part, #f, ASKED(SL_JP_SPEC_##f))) \
		put_str(b, #f, s->f);
/* the projection first: its bytes are hot, the record's members may not be */
#define W_INT(f) if (WANT(SL_JP_SPEC_##f) && s->f != dp->f) put_i64(b, #f, s->f);
#define W_LAUNCH(f) if ((full || (part == PART_LISTING && ASKED(SL_JP_SPEC_##f))) && \
			s->f != NULL) put_strv(b, #f, s->f);
#define W_STRV(f) if (WANT(SL_JP_SPEC_##f) && s->f != NULL && s->f[0] != NULL) put_strv(b, #f, s->f);
	SPEC_STRINGS(W_STR)
	SPEC_INTS(W_INT)
	SPEC_INT64S(W_INT)
	if (WANT(SL_JP_SPEC_open_mode) && s->open_mode != dp->open_mode)
		put_i64(b, "open_mode", s->open_mode);
	if (WANT(SL_JP_SPEC_umask) && s->umask != dp->umask)
		put_i64(b, "umask", (int64_t)s->umask);
	SPEC_LAUNCH_STRVS(W_LAUNCH)
	SPEC_STRVS(W_STRV)
	addc(b, '}');
	b->first = 0; /* the outer object goes on after "spec" */
}

static int done(struct w *w, size_t len)
{
	flush(w);
	if (!w->failed)
		return 0;
	sl_buf_truncate(w->b, len);
	return -SL_ETOOBIG;
}

int sl_jobspec_text_append(struct sl_buf *buf, const struct sl_jobspec *s)
{
	struct w w;
	size_t len = sl_buf_len(buf);

	struct sl_jobspec def;

	sl_jobspec_init(&def);
	w_init(&w, buf);
	put_spec(&w, s, &def, PART_FULL, NULL);
	return done(&w, len);
}

int sl_job_listing_append(struct sl_buf *buf, const struct sl_job *j)
{
	return sl_job_listing_append_view(buf, j, SL_VIEW_OWNER);
}

int sl_job_listing_append_view(struct sl_buf *buf, const struct sl_job *j, enum sl_job_view v)
{
	return sl_job_listing_append_proj(buf, j, v, NULL);
}

int sl_job_listing_append_proj(struct sl_buf *buf, const struct sl_job *j, enum sl_job_view v,
			       const struct sl_jobproj *p)
{
	struct w w, *b = &w;
	size_t len = sl_buf_len(buf);
	const unsigned char *has = sl_jobproj_bytes(p);
	struct sl_job own;
	const struct sl_job *dp = p ? sl_jobproj_defaults(p) : &own;

	if (p == NULL)
		sl_job_defaults(&own);
	w_init(&w, buf);
	addc(b, '{');
	put_i64(b, "id", (int64_t)j->id);
	put_key(b, "spec");
	put_spec(b, &j->spec, &dp->spec, v == SL_VIEW_OWNER ? PART_LISTING : PART_OTHERS, has);
	if (WANT(SL_JP_uid))
		put_i64(b, "uid", j->uid);
	if (WANT(SL_JP_gid))
		put_i64(b, "gid", j->gid);
	if (WANT(SL_JP_state))
		put_str(b, "state", sl_jobstate_name(j->state));
/* the submit key is sbatch's retry token: no listing shows it, and it
 * was a seventh of every record on the wire */
#define W_JSTR(f) if (strcmp(#f, "submit_key") != 0 && WANT(SL_JP_##f)) put_str(b, #f, j->f);
#define W_JINT(f) if (WANT(SL_JP_##f) && j->f != dp->f) put_i64(b, #f, j->f);
	JOB_STRINGS(W_JSTR)
	JOB_INTS(W_JINT)
	JOB_INT64S(W_JINT)
	JOB_LIVE_INTS(W_JINT)
	JOB_LIVE_STRINGS(W_JSTR)
	addc(b, '}');
	return done(&w, len);
}
