/* job.c - job spec and job record: defaults, shape, and JSON conversion.
 * JSON keys are the wire and store contract; PROTOCOL.md lists them. */
#include "job.h"
#include "buf.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

void sl_jobspec_init(struct sl_jobspec *s)
{
	memset(s, 0, sizeof(*s));
	s->nodes = s->nodes_max = s->ntasks = SL_NO_VAL;
	s->ntasks_per_node = s->cpus_per_task = SL_NO_VAL;
	s->mem_per_node = s->mem_per_cpu = SL_NO_VAL;
	s->gpus = s->gpus_per_node = SL_NO_VAL;
	s->time_limit = SL_TIME_UNSET;
	s->priority = SL_NO_VAL;
	s->umask = 022;
	s->requeue = 1;
}

#include "job_fields.h"

void sl_jobspec_clear(struct sl_jobspec *s)
{
#define FREE_STR(f) free(s->f);
	SPEC_STRINGS(FREE_STR)
#undef FREE_STR
	sl_strv_free(s->argv);
	sl_strv_free(s->env);
	sl_strv_free(s->features);
	sl_jobspec_init(s);
}

void sl_jobspec_copy(struct sl_jobspec *dst, const struct sl_jobspec *src)
{
	*dst = *src;
#define DUP_STR(f) dst->f = sl_xstrdup(src->f);
	SPEC_STRINGS(DUP_STR)
#undef DUP_STR
	dst->argv = src->argv ? sl_strv_dup(src->argv) : NULL;
	dst->env = src->env ? sl_strv_dup(src->env) : NULL;
	dst->features = src->features ? sl_strv_dup(src->features) : NULL;
}

static int or_default(int v, int def)
{
	return v == SL_NO_VAL || v <= 0 ? def : v;
}

void sl_job_shape(const struct sl_job *j, struct sl_jobshape *o)
{
	struct sl_jobspec s = j->spec; /* shallow: the shape reads numbers only */

	if (j->alloc_nodes > 0)
		s.nodes = j->alloc_nodes;
	sl_jobspec_shape(&s, o);
}

void sl_jobspec_shape(const struct sl_jobspec *s, struct sl_jobshape *o)
{
	memset(o, 0, sizeof(*o));
	o->nodes = or_default(s->nodes, 1);
	o->cpus_per_task = or_default(s->cpus_per_task, 1);
	if (s->ntasks != SL_NO_VAL && s->ntasks > 0) {
		o->ntasks = s->ntasks;
		/* Slurm never gives a node fewer than one task: -n 2 -N 4 is 4 nodes
		 * of which two idle, so ntasks >= nodes only when tasks were set. */
		o->tasks_per_node = (o->ntasks + o->nodes - 1) / o->nodes;
	} else if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > 0) {
		o->tasks_per_node = s->ntasks_per_node;
		o->ntasks = o->tasks_per_node * o->nodes;
	} else {
		o->tasks_per_node = 1;
		o->ntasks = o->nodes;
	}
	if (s->ntasks_per_node != SL_NO_VAL && s->ntasks_per_node > o->tasks_per_node)
		o->tasks_per_node = s->ntasks_per_node;
	o->cpus_per_node = o->tasks_per_node * o->cpus_per_task;
	if (s->mem_per_node != SL_NO_VAL && s->mem_per_node > 0)
		o->mem_per_node = s->mem_per_node;
	else if (s->mem_per_cpu != SL_NO_VAL && s->mem_per_cpu > 0)
		o->mem_per_node = s->mem_per_cpu * o->cpus_per_node;
	if (s->gpus_per_node != SL_NO_VAL && s->gpus_per_node > 0)
		o->gpus_per_node = s->gpus_per_node;
	else if (s->gpus != SL_NO_VAL && s->gpus > 0)
		o->gpus_per_node = (s->gpus + o->nodes - 1) / o->nodes;
}

void sl_job_defaults(struct sl_job *j)
{
	memset(j, 0, sizeof(*j));
	sl_jobspec_init(&j->spec);
	j->cancelled_by = -1;
}

struct sl_job *sl_job_new(void)
{
	struct sl_job *j = sl_xmalloc(sizeof(*j));
	sl_job_defaults(j);
	return j;
}


void sl_job_free(struct sl_job *j)
{
	if (j == NULL)
		return;
	sl_jobspec_clear(&j->spec);
#define FREE_STR(f) free(j->f);
	JOB_STRINGS(FREE_STR)
#undef FREE_STR
	free(j);
}

/* Only a launch reads these; the store keeps them for good. */
void sl_job_shed(struct sl_job *j)
{
	sl_strv_free(j->spec.env);
	j->spec.env = NULL;
	sl_strv_free(j->spec.argv);
	j->spec.argv = NULL;
	free(j->spec.script);
	j->spec.script = sl_xstrdup("");
}

void sl_job_refill(struct sl_job *j, struct sl_jobspec *from)
{
	sl_strv_free(j->spec.env);
	sl_strv_free(j->spec.argv);
	free(j->spec.script);
	j->spec.env = from->env;
	j->spec.argv = from->argv;
	j->spec.script = from->script;
	from->env = from->argv = NULL;
	from->script = NULL;
}

void sl_job_free_array(struct sl_job **v, size_t n)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		sl_job_free(v[i]);
	free(v);
}

/* ---- JSON ---- */

static void put_str(json_object *o, const char *k, const char *v)
{
	if (v != NULL)
		json_object_object_add(o, k, json_object_new_string(v));
}

static void put_strv(json_object *o, const char *k, char *const *v)
{
	json_object *a;
	if (v == NULL)
		return;
	a = json_object_new_array();
	for (size_t i = 0; v[i] != NULL; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	json_object_object_add(o, k, a);
}

/* Numbers at their default are left out: readers start from the defaults
 * (sl_jobspec_init, sl_job_new), so nothing is lost, and a job list of
 * 10 000 records parses in half the time. */
static json_object *spec_to_obj(const struct sl_jobspec *s)
{
	json_object *o = json_object_new_object();
	struct sl_jobspec def;

	sl_jobspec_init(&def);
#define PUT_STR(f) put_str(o, #f, s->f);
#define PUT_INT(f) if (s->f != def.f) json_object_object_add(o, #f, json_object_new_int(s->f));
#define PUT_I64(f) if (s->f != def.f) json_object_object_add(o, #f, json_object_new_int64(s->f));
	SPEC_STRINGS(PUT_STR)
	SPEC_INTS(PUT_INT)
	SPEC_INT64S(PUT_I64)
	if (s->open_mode != def.open_mode)
		json_object_object_add(o, "open_mode", json_object_new_int(s->open_mode));
	if (s->umask != def.umask)
		json_object_object_add(o, "umask", json_object_new_int((int)s->umask));
	put_strv(o, "argv", s->argv);
	put_strv(o, "env", s->env);
	if (s->features != NULL && s->features[0] != NULL)
		put_strv(o, "features", s->features);
	return o;
}

/* No cap worth the name: a record is whatever the request limit let in. */
#define TEXT_CAP ((size_t)1 << 40)

char *sl_jobspec_to_json(const struct sl_jobspec *s)
{
	struct sl_buf *b = sl_buf_new(TEXT_CAP);
	(void)sl_jobspec_text_append(b, s);
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

/* Typed getters: a key of the wrong type is an error naming the key. */
static int get_str(json_object *o, const char *k, char **dst, struct sl_err *err)
{
	json_object *v;
	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return sl_err_set(err, SL_EPROTO, "job: %s: expected a string", k);
	free(*dst);
	*dst = sl_xstrdup(json_object_get_string(v));
	return 0;
}

static int get_i64(json_object *o, const char *k, int64_t *dst, struct sl_err *err)
{
	json_object *v;
	if (!json_object_object_get_ex(o, k, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return sl_err_set(err, SL_EPROTO, "job: %s: expected an integer", k);
	*dst = json_object_get_int64(v);
	return 0;
}

static int get_int(json_object *o, const char *k, int *dst, struct sl_err *err)
{
	int64_t v = *dst;
	int r = get_i64(o, k, &v, err);
	if (r == 0 && (v < -2147483647 - 1 || v > 2147483647))
		return sl_err_set(err, SL_EPROTO, "job: %s: %lld is out of range", k,
				  (long long)v);
	*dst = (int)v;
	return r;
}

/* Caps keep a hostile client from making the daemon allocate without bound
 * beyond the frame cap itself. */
#define STRV_MAX 100000

static int get_strv(json_object *o, const char *k, char ***dst, struct sl_err *err)
{
	json_object *v;
	size_t n;
	if (!json_object_object_get_ex(o, k, &v) || json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_array))
		return sl_err_set(err, SL_EPROTO, "job: %s: expected an array", k);
	n = json_object_array_length(v);
	if (n > STRV_MAX)
		return sl_err_set(err, SL_ETOOBIG, "job: %s: more than %d entries", k, STRV_MAX);
	sl_strv_free(*dst);
	*dst = sl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		if (!json_object_is_type(e, json_type_string))
			return sl_err_set(err, SL_EPROTO, "job: %s[%zu]: expected a string", k, i);
		(*dst)[i] = sl_xstrdup(json_object_get_string(e));
	}
	return 0;
}

static int spec_from_obj(json_object *o, struct sl_jobspec *s, struct sl_err *err)
{
	int r = 0, om = s->open_mode, um = (int)s->umask;
	if (!json_object_is_type(o, json_type_object))
		return sl_err_set(err, SL_EPROTO, "job spec: expected a JSON object");
#define GET_STR(f) if (r == 0) r = get_str(o, #f, &s->f, err);
#define GET_INT(f) if (r == 0) r = get_int(o, #f, &s->f, err);
#define GET_I64(f) if (r == 0) r = get_i64(o, #f, &s->f, err);
	SPEC_STRINGS(GET_STR)
	SPEC_INTS(GET_INT)
	SPEC_INT64S(GET_I64)
	if (r == 0)
		r = get_int(o, "open_mode", &om, err);
	if (r == 0)
		r = get_int(o, "umask", &um, err);
	if (r == 0)
		r = get_strv(o, "argv", &s->argv, err);
	if (r == 0)
		r = get_strv(o, "env", &s->env, err);
	if (r == 0)
		r = get_strv(o, "features", &s->features, err);
	if (r == 0 && (om < SL_OPEN_DEFAULT || om > SL_OPEN_APPEND))
		r = sl_err_set(err, SL_EPROTO, "job: open_mode: %d is not valid", om);
	s->open_mode = (enum sl_open_mode)om;
	s->umask = (mode_t)(um & 0777);
	return r;
}

/* A spec to run needs its script; listings (sl_job_listing_append) leave it out. */
static int need_script(const struct sl_jobspec *s, struct sl_err *err)
{
	return s->script ? 0 : sl_err_set(err, SL_EPROTO, "job spec: script is missing");
}

static json_object *parse_text(const char *text, struct sl_err *err)
{
	enum json_tokener_error jerr;
	json_object *o = json_tokener_parse_verbose(text, &jerr);
	if (o == NULL)
		sl_err_set(err, SL_EPROTO, "bad JSON: %s", json_tokener_error_desc(jerr));
	return o;
}

int sl_jobspec_from_json(const char *text, struct sl_jobspec *out, struct sl_err *err)
{
	json_object *o = parse_text(text, err);
	int r;
	if (o == NULL)
		return -SL_EPROTO;
	sl_jobspec_init(out);
	r = spec_from_obj(o, out, err);
	json_object_put(o);
	if (r == 0)
		r = need_script(out, err);
	if (r != 0)
		sl_jobspec_clear(out);
	return r;
}

void *sl_job_to_obj(const struct sl_job *j)
{
	json_object *o = json_object_new_object();
	struct sl_job def;

	sl_job_defaults(&def);
	json_object_object_add(o, "id", json_object_new_int64((int64_t)j->id));
	json_object_object_add(o, "spec", spec_to_obj(&j->spec));
	json_object_object_add(o, "uid", json_object_new_int64(j->uid));
	json_object_object_add(o, "gid", json_object_new_int64(j->gid));
	json_object_object_add(o, "state", json_object_new_string(sl_jobstate_name(j->state)));
#define PUT_JSTR(f) put_str(o, #f, j->f);
#define PUT_JINT(f) if (j->f != def.f) json_object_object_add(o, #f, json_object_new_int(j->f));
#define PUT_JI64(f) if (j->f != def.f) json_object_object_add(o, #f, json_object_new_int64(j->f));
	JOB_STRINGS(PUT_JSTR)
	JOB_INTS(PUT_JINT)
	JOB_INT64S(PUT_JI64)
	return o;
}

char *sl_job_to_json(const struct sl_job *j)
{
	struct sl_buf *b = sl_buf_new(TEXT_CAP);
	(void)sl_job_text_append(b, j);
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

int sl_job_from_obj(void *obj, struct sl_job **out, struct sl_err *err)
{
	json_object *o = obj, *spec;
	struct sl_job *j = sl_job_new();
	char *state = NULL;
	int64_t id = 0, uid = 0, gid = 0;
	int r = 0, st;

	if (!json_object_is_type(o, json_type_object)) {
		r = sl_err_set(err, SL_EPROTO, "job: expected a JSON object");
		goto out;
	}
	if (!json_object_object_get_ex(o, "spec", &spec)) {
		r = sl_err_set(err, SL_EPROTO, "job: spec is missing");
		goto out;
	}
	if ((r = spec_from_obj(spec, &j->spec, err)) != 0)
		goto out;
	r = get_i64(o, "id", &id, err);
	if (r == 0) r = get_i64(o, "uid", &uid, err);
	if (r == 0) r = get_i64(o, "gid", &gid, err);
	if (r == 0) r = get_str(o, "state", &state, err);
#define GET_JSTR(f) if (r == 0) r = get_str(o, #f, &j->f, err);
#define GET_JINT(f) if (r == 0) r = get_int(o, #f, &j->f, err);
#define GET_JI64(f) if (r == 0) r = get_i64(o, #f, &j->f, err);
	JOB_STRINGS(GET_JSTR)
	JOB_INTS(GET_JINT)
	JOB_INT64S(GET_JI64)
	if (r != 0)
		goto out;
	st = state ? sl_jobstate_parse(state) : SL_JOB_PENDING;
	if (st < 0) {
		r = sl_err_set(err, SL_EPROTO, "job: state: \"%s\" is not a job state", state);
		goto out;
	}
	j->id = (uint64_t)id;
	j->uid = (uid_t)uid;
	j->gid = (gid_t)gid;
	j->state = (enum sl_jobstate)st;
out:
	free(state);
	if (r != 0) {
		sl_job_free(j);
		j = NULL;
	}
	*out = j;
	return r;
}

int sl_job_from_json(const char *text, struct sl_job **out, struct sl_err *err)
{
	json_object *o = parse_text(text, err);
	int r;
	*out = NULL;
	if (o == NULL)
		return -SL_EPROTO;
	r = sl_job_from_obj(o, out, err);
	json_object_put(o);
	return r;
}
