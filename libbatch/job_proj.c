/* job_proj.c - the projection of a job record (job_proj.h): its members
 * by wire name, to and from the jobs request's "fields". */
#include "job_proj.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* A byte per member: see sl_jobproj_bytes(). */
struct sl_jobproj {
	unsigned char has[SL_JP_COUNT];
	struct sl_job def;
};

#define N_SPEC(f) [SL_JP_SPEC_##f] = "spec." #f,
#define N_JOB(f) [SL_JP_##f] = #f,
static const char *const names[SL_JP_COUNT] = {
	SPEC_STRINGS(N_SPEC) SPEC_INTS(N_SPEC) SPEC_INT64S(N_SPEC)
	[SL_JP_SPEC_open_mode] = "spec.open_mode", [SL_JP_SPEC_umask] = "spec.umask",
	SPEC_LAUNCH_STRVS(N_SPEC) SPEC_STRVS(N_SPEC)
	[SL_JP_uid] = "uid", [SL_JP_gid] = "gid", [SL_JP_state] = "state",
	JOB_STRINGS(N_JOB) JOB_INTS(N_JOB) JOB_INT64S(N_JOB)
	JOB_LIVE_INTS(N_JOB) JOB_LIVE_STRINGS(N_JOB)
};

struct sl_jobproj *sl_jobproj_new(void)
{
	struct sl_jobproj *p = sl_xcalloc(1, sizeof(*p));

	sl_job_defaults(&p->def);
	return p;
}

void sl_jobproj_free(struct sl_jobproj *p)
{
	free(p);
}

static int find(const char *name)
{
	for (int i = 0; i < SL_JP_COUNT; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

int sl_jobproj_add(struct sl_jobproj *p, const char *name)
{
	int i = find(name);

	if (i < 0)
		return -SL_ENOENT;
	p->has[i] = 1;
	return 0;
}

void sl_jobproj_add_all(struct sl_jobproj *p)
{
	memset(p->has, 1, sizeof(p->has));
}

void sl_jobproj_del(struct sl_jobproj *p, enum sl_jobproj_field f)
{
	p->has[f] = 0;
}

int sl_jobproj_has(const struct sl_jobproj *p, enum sl_jobproj_field f)
{
	return p == NULL || p->has[f];
}

const unsigned char *sl_jobproj_bytes(const struct sl_jobproj *p)
{
	return p ? p->has : NULL;
}

const struct sl_job *sl_jobproj_defaults(const struct sl_jobproj *p)
{
	return &p->def;
}

json_object *sl_jobproj_to_obj(const struct sl_jobproj *p)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < SL_JP_COUNT; i++)
		if (p->has[i])
			json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

int sl_jobproj_from_obj(json_object *a, struct sl_jobproj **out, struct sl_err *err)
{
	struct sl_jobproj *p;
	size_t n;

	*out = NULL;
	if (a == NULL)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return sl_err_set(err, SL_EPROTO, "jobs: \"fields\" is not an array of names");
	/* a name is looked up in a table of SL_JP_COUNT: a request of a
	 * million names would cost the daemon a second */
	if ((n = json_object_array_length(a)) > 4 * (size_t)SL_JP_COUNT)
		return sl_err_set(err, SL_EPROTO, "jobs: %zu \"fields\", more than the record's "
				  "%d members four times over", n, SL_JP_COUNT);
	p = sl_jobproj_new();
	for (size_t k = 0; k < n; k++) {
		json_object *v = json_object_array_get_idx(a, k);
		if (!json_object_is_type(v, json_type_string)) {
			sl_jobproj_free(p);
			return sl_err_set(err, SL_EPROTO, "jobs: \"fields\" is not an array of names");
		}
		(void)sl_jobproj_add(p, json_object_get_string(v));
	}
	*out = p;
	return 0;
}
