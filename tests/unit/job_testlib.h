/* job_testlib.h - the JSON of job specs and records in unit tests: the
 * writer's text as a string, records read back from text, and a json-c
 * tree built from a struct without job_text.c, the reference the writer
 * and the reader are checked against. */
#ifndef JOB_TESTLIB_H
#define JOB_TESTLIB_H

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "job.h"
#include "job_fields.h"

#define TL_TEXT_CAP (1u << 30)

static inline char *tl_take(struct sl_buf *b)
{
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

/* The whole spec. Caller frees. */
static inline char *tl_spec_text(const struct sl_jobspec *s)
{
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	(void)sl_jobspec_text_append(b, s);
	return tl_take(b);
}

/* The listing of j, as sluiced writes it into a jobs reply. Caller frees. */
static inline char *tl_listing(const struct sl_job *j)
{
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	(void)sl_job_listing_append(b, j);
	return tl_take(b);
}

/* The records of `lines`, one JSON record per line (the data files), read
 * as a jobs reply: n of them and a NULL, caller frees with
 * sl_job_free_array(). Fails the test when they do not read. */
static inline struct sl_job **tl_jobs(const char *lines, size_t *n)
{
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t k, records = 0;

	sl_buf_addstr(b, "{\"jobs\":[");
	for (const char *p = lines; *p != '\0'; p += k + (p[k] == '\n')) {
		k = strcspn(p, "\n");
		if (k > 0 && records++ > 0)
			sl_buf_addc(b, ',');
		sl_buf_add(b, p, k);
	}
	sl_buf_addstr(b, "]}");
	if (sl_job_list_parse(sl_buf_str(b), sl_buf_len(b), &v, n, &err) != 0)
		fail_msg("%s", err.msg);
	sl_buf_free(b);
	return v;
}

/* The golden file tests/data/output/NAME (under $top_srcdir). Caller frees. */
static inline char *tl_output(const char *name)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	char chunk[65536];
	size_t k;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/output/%s", top ? top : ".", name);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot open", path);
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sl_buf_add(b, chunk, k);
	fclose(f);
	return tl_take(b);
}

/* The records of the JSON lines file tests/data/output/NAME. */
static inline struct sl_job **tl_output_jobs(const char *name, size_t *n)
{
	char *text = tl_output(name);
	struct sl_job **v = tl_jobs(text, n);

	free(text);
	return v;
}

/* One record's text read back. Caller frees. */
static inline struct sl_job *tl_job(const char *record)
{
	struct sl_job **v, *j;
	size_t n;

	v = tl_jobs(record, &n);
	assert_int_equal(n, 1);
	j = v[0];
	free(v);
	return j;
}

static inline void tl_put_strv(json_object *o, const char *k, char *const *v)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; v[i] != NULL; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	json_object_object_add(o, k, a);
}

/* The contract, spelled out: strings when set, numbers when not at their
 * default, argv/env/script only when `full`, features when not empty. */
static inline json_object *tl_spec_tree(const struct sl_jobspec *s, int full)
{
	json_object *o = json_object_new_object();
	struct sl_jobspec def;

	sl_jobspec_init(&def);
#define TL_STR(f)                                                                  \
	if (s->f != NULL && (full || strcmp(#f, "script") != 0))                   \
		json_object_object_add(o, #f, json_object_new_string(s->f));
#define TL_NUM(f)                                                                  \
	if (s->f != def.f)                                                         \
		json_object_object_add(o, #f, json_object_new_int64(s->f));
#define TL_LAUNCH(f) if (full && s->f != NULL) tl_put_strv(o, #f, s->f);
#define TL_STRV(f) if (s->f != NULL && s->f[0] != NULL) tl_put_strv(o, #f, s->f);
	SPEC_STRINGS(TL_STR)
	SPEC_INTS(TL_NUM)
	SPEC_INT64S(TL_NUM)
	TL_NUM(open_mode)
	TL_NUM(umask)
	SPEC_LAUNCH_STRVS(TL_LAUNCH)
	SPEC_STRVS(TL_STRV)
#undef TL_STR
#undef TL_NUM
	return o;
}

/* A record as listed: its spec without env, argv and script, and without
 * its submit key. */
static inline json_object *tl_job_tree(const struct sl_job *j)
{
	json_object *o = json_object_new_object();
	struct sl_job def;

	sl_job_defaults(&def);
	json_object_object_add(o, "id", json_object_new_int64((int64_t)j->id));
	json_object_object_add(o, "spec", tl_spec_tree(&j->spec, 0));
	json_object_object_add(o, "uid", json_object_new_int64(j->uid));
	json_object_object_add(o, "gid", json_object_new_int64(j->gid));
	json_object_object_add(o, "state", json_object_new_string(sl_jobstate_name(j->state)));
#define TL_STR(f)                                                                  \
	if (j->f != NULL && strcmp(#f, "submit_key") != 0)                         \
		json_object_object_add(o, #f, json_object_new_string(j->f));
#define TL_NUM(f)                                                                  \
	if (j->f != def.f)                                                         \
		json_object_object_add(o, #f, json_object_new_int64(j->f));
	JOB_STRINGS(TL_STR)
	JOB_INTS(TL_NUM)
	JOB_INT64S(TL_NUM)
	JOB_LIVE_INTS(TL_NUM)
#undef TL_STR
#undef TL_NUM
	return o;
}

/* Does `text` parse (json-c) to the tree of j (tl_job_tree, or
 * tl_spec_tree(&j->spec, 1) with spec)? Prints both when not. */
static inline int tl_text_is(const char *text, const struct sl_job *j, int spec)
{
	json_object *got = json_tokener_parse(text);
	json_object *want = spec ? tl_spec_tree(&j->spec, 1) : tl_job_tree(j);
	int same = got != NULL && json_object_equal(got, want);

	if (!same)
		print_error("got  %s\nwant %s\n", text,
			    json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN));
	json_object_put(got);
	json_object_put(want);
	return same;
}

#endif
