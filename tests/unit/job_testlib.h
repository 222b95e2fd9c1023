/* job_testlib.h - the JSON of job specs and records in unit tests: the
 * writer's text as a string, and a json-c tree built from a struct without
 * job_text.c, the reference the writer and the reader are checked against. */
#ifndef JOB_TESTLIB_H
#define JOB_TESTLIB_H

#include <json-c/json.h>
#include "buf.h"
#include "job.h"
#include "job_fields.h"

#define TL_TEXT_CAP (1u << 30)

/* Caller frees. */
static inline char *tl_spec_text(const struct sl_jobspec *s)
{
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	(void)sl_jobspec_text_append(b, s);
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

static inline char *tl_job_text(const struct sl_job *j)
{
	struct sl_buf *b = sl_buf_new(TL_TEXT_CAP);
	(void)sl_job_text_append(b, j);
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
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

static inline json_object *tl_job_tree(const struct sl_job *j, int full)
{
	json_object *o = json_object_new_object();
	struct sl_job def;

	sl_job_defaults(&def);
	json_object_object_add(o, "id", json_object_new_int64((int64_t)j->id));
	json_object_object_add(o, "spec", tl_spec_tree(&j->spec, full));
	json_object_object_add(o, "uid", json_object_new_int64(j->uid));
	json_object_object_add(o, "gid", json_object_new_int64(j->gid));
	json_object_object_add(o, "state", json_object_new_string(sl_jobstate_name(j->state)));
#define TL_STR(f)                                                                  \
	if (j->f != NULL)                                                          \
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

/* Does `text` parse (json-c) to the tree of j? Prints both when not. */
static inline int tl_job_text_is(const char *text, const struct sl_job *j, int full)
{
	json_object *got = json_tokener_parse(text), *want = tl_job_tree(j, full);
	int same = got != NULL && json_object_equal(got, want);

	if (!same)
		print_error("got  %s\nwant %s\n", text,
			    json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN));
	json_object_put(got);
	json_object_put(want);
	return same;
}

#endif
