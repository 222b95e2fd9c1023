/* filter.c - decode the job filter of JOBS/CANCEL requests and match jobs. */
#include "handlers.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define FILTER_MAX 100000 /* entries per list; the frame cap bounds the rest */

static int get_arr(json_object *o, const char *k, json_object **a, size_t *n,
		   struct sl_err *err)
{
	*a = NULL;
	*n = 0;
	if (!json_object_object_get_ex(o, k, a))
		return 0;
	if (!json_object_is_type(*a, json_type_array))
		return sl_err_set(err, SL_EPROTO, "filter.%s: expected an array", k);
	*n = json_object_array_length(*a);
	if (*n > FILTER_MAX)
		return sl_err_set(err, SL_ETOOBIG, "filter.%s: more than %d entries", k,
				  FILTER_MAX);
	return 0;
}

static int get_strs(json_object *o, const char *k, char ***out, size_t *n,
		    struct sl_err *err)
{
	json_object *a;
	int r = get_arr(o, k, &a, n, err);
	if (r != 0 || *n == 0)
		return r;
	*out = sl_xcalloc(*n + 1, sizeof(char *));
	for (size_t i = 0; i < *n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string))
			return sl_err_set(err, SL_EPROTO, "filter.%s[%zu]: expected a string", k, i);
		(*out)[i] = sl_xstrdup(json_object_get_string(e));
	}
	return 0;
}

static int get_ints(json_object *o, const char *k, int64_t **out, size_t *n,
		    struct sl_err *err)
{
	json_object *a;
	int r = get_arr(o, k, &a, n, err);
	if (r != 0 || *n == 0)
		return r;
	*out = sl_xcalloc(*n, sizeof(int64_t));
	for (size_t i = 0; i < *n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int))
			return sl_err_set(err, SL_EPROTO, "filter.%s[%zu]: expected an integer", k, i);
		(*out)[i] = json_object_get_int64(e);
	}
	return 0;
}

int sl_dfilter_decode(json_object *o, struct sl_dfilter *f, struct sl_err *err)
{
	char **states = NULL;
	json_object *v;
	int r;

	memset(f, 0, sizeof(*f));
	if (o == NULL)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return sl_err_set(err, SL_EPROTO, "filter: expected an object");
	if ((r = get_ints(o, "ids", (int64_t **)&f->ids, &f->n_ids, err)) ||
	    (r = get_ints(o, "uids", &f->uids, &f->n_uids, err)) ||
	    (r = get_strs(o, "states", &states, &f->n_states, err)) ||
	    (r = get_strs(o, "partitions", &f->partitions, &f->n_partitions, err)) ||
	    (r = get_strs(o, "accounts", &f->accounts, &f->n_accounts, err)) ||
	    (r = get_strs(o, "names", &f->names, &f->n_names, err)))
		goto out;
	if (f->n_states > 0) {
		f->states = sl_xcalloc(f->n_states, sizeof(int));
		for (size_t i = 0; i < f->n_states; i++)
			if ((f->states[i] = sl_jobstate_parse(states[i])) < 0) {
				r = sl_err_set(err, SL_EINVAL, "Invalid job state specified: %s",
					       states[i]);
				goto out;
			}
	}
	if (json_object_object_get_ex(o, "history", &v))
		f->history = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "start_after", &v))
		f->start_after = json_object_get_int64(v);
	if (json_object_object_get_ex(o, "end_before", &v))
		f->end_before = json_object_get_int64(v);
out:
	sl_strv_free(states);
	if (r != 0)
		sl_dfilter_clear(f);
	return r;
}

void sl_dfilter_clear(struct sl_dfilter *f)
{
	free(f->ids);
	free(f->uids);
	free(f->states);
	sl_strv_free(f->partitions);
	sl_strv_free(f->accounts);
	sl_strv_free(f->names);
	memset(f, 0, sizeof(*f));
}

static int in_strs(char **v, size_t n, const char *s)
{
	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (s != NULL && strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

int sl_dfilter_match(const struct sl_dfilter *f, const struct sl_job *j)
{
	size_t i;
	if (f->n_ids > 0) {
		for (i = 0; i < f->n_ids && f->ids[i] != j->id; i++)
			;
		if (i == f->n_ids)
			return 0;
	}
	if (f->n_uids > 0) {
		for (i = 0; i < f->n_uids && f->uids[i] != (int64_t)j->uid; i++)
			;
		if (i == f->n_uids)
			return 0;
	}
	if (f->n_states > 0) {
		for (i = 0; i < f->n_states && f->states[i] != (int)j->state; i++)
			;
		if (i == f->n_states)
			return 0;
	}
	return in_strs(f->partitions, f->n_partitions, j->spec.partition) &&
	       in_strs(f->accounts, f->n_accounts, j->spec.account) &&
	       in_strs(f->names, f->n_names, j->spec.name);
}
