/* jobfilter.c - the job filter: matching a job, and its JSON form.
 *
 * The lists differ only in their element type and in the member of the
 * job they are matched against, so one table row per list drives matching,
 * writing, reading and freeing them. Lists added after the first six are
 * left out of the JSON when empty, so that a filter without them reads as
 * it did before. */
#include "jobfilter.h"
#include "xalloc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FILTER_MAX 100000 /* entries per list; the frame cap bounds the rest */

/* L_HOST: names matched against the job's hostlist ("n[1-4]"). */
/* L_TASK: array tasks, "N_I" on the wire. */
enum ltype { L_ID, L_UID, L_STATE, L_STR, L_HOST, L_TASK };

static const size_t elsize[] = {
	[L_ID] = sizeof(uint64_t), [L_UID] = sizeof(uid_t),
	[L_STATE] = sizeof(int), [L_STR] = sizeof(char *), [L_HOST] = sizeof(char *),
	[L_TASK] = sizeof(struct sl_taskid),
};

struct list {
	const char *key;
	enum ltype type;
	size_t vec, n; /* the array and its length in struct sl_jobfilter */
	size_t job;    /* what it is matched against in struct sl_job */
	int optional;  /* left out of the JSON when empty */
};

#define LIST(k, t, member, opt)                                                 \
	{#k, t, offsetof(struct sl_jobfilter, k), offsetof(struct sl_jobfilter, n_##k), \
	 offsetof(struct sl_job, member), opt}
static const struct list lists[] = {
	LIST(ids, L_ID, id, 0),
	LIST(uids, L_UID, uid, 0),
	LIST(states, L_STATE, state, 0),
	LIST(partitions, L_STR, spec.partition, 0),
	LIST(accounts, L_STR, spec.account, 0),
	LIST(names, L_STR, spec.name, 0),
	LIST(qos, L_STR, spec.qos, 1),
	LIST(nodes, L_HOST, nodelist, 1),
	LIST(wckeys, L_STR, spec.wckey, 1),
	LIST(tasks, L_TASK, array_job_id, 1),
};
#define NLISTS (sizeof(lists) / sizeof(lists[0]))

/* List l of f: its array (*n entries) to read, or its members to fill. */
static const void *items(const struct sl_jobfilter *f, const struct list *l, size_t *n)
{
	*n = *(const size_t *)((const char *)f + l->n);
	return *(void *const *)((const char *)f + l->vec);
}

static void **vec(struct sl_jobfilter *f, const struct list *l)
{
	return (void **)((char *)f + l->vec);
}

static size_t *len(struct sl_jobfilter *f, const struct list *l)
{
	return (size_t *)((char *)f + l->n);
}

/* Is the number at n..e (digits) in the bracket range list r ("1-3,07")?
 * A padded bound ("07") asks for that width, an unpadded one for none. */
static int in_ranges(const char *r, const char *n, size_t nlen)
{
	unsigned long long v = strtoull(n, NULL, 10), lo, hi;
	char *end;

	while (*r != '\0' && *r != ']') {
		size_t w = strspn(r, "0123456789");
		lo = hi = strtoull(r, &end, 10);
		if (*end == '-')
			hi = strtoull(end + 1, &end, 10);
		if (w == 0)
			return 0;
		if (v >= lo && v <= hi && (r[0] == '0' && w > 1 ? nlen == w : n[0] != '0' || nlen == 1))
			return 1;
		r = end + (*end == ',');
	}
	return 0;
}

/* Is `name` one of the hosts of hostlist `hl` ("n[1-3,7],login")? The
 * daemon applies the filter and libbatch sits below compat's hostlist.c,
 * so membership is tested here, one bracket per name (what Sluice's
 * executors write), without expanding the list. */
static int in_hostlist(const char *hl, const char *name)
{
	while (*hl != '\0') {
		size_t k = strcspn(hl, "[,"), nlen = strlen(name), d;
		if (hl[k] != '[') {
			if (k == nlen && strncmp(hl, name, k) == 0)
				return 1;
			hl += k + (hl[k] == ',');
			continue;
		}
		const char *close = strchr(hl + k, ']');
		if (close == NULL)
			return 0;
		size_t slen = strcspn(close + 1, ",");
		if (nlen > k + slen && strncmp(hl, name, k) == 0 &&
		    strncmp(name + nlen - slen, close + 1, slen) == 0 &&
		    (d = strspn(name + k, "0123456789")) == nlen - k - slen && d > 0 &&
		    in_ranges(hl + k + 1, name + k, d))
			return 1;
		hl = close + 1 + slen + (close[1 + slen] == ',');
	}
	return 0;
}

/* Is element i of v the job's value? A job without one matches nothing. */
static int same(const struct list *l, const void *v, size_t i, const struct sl_job *j)
{
	const char *p = (const char *)j + l->job;

	switch (l->type) {
	case L_UID: return ((const uid_t *)v)[i] == *(const uid_t *)p;
	case L_STR:
		return *(char *const *)p != NULL &&
		       strcmp(((char *const *)v)[i], *(char *const *)p) == 0;
	case L_HOST:
		return *(char *const *)p != NULL &&
		       in_hostlist(*(char *const *)p, ((char *const *)v)[i]);
	case L_ID: case L_TASK: case L_STATE: /* id_match(), state_in() */
		break;
	}
	return 0;
}

struct sl_jobfilter_idx {
	uint64_t *ids;
	struct sl_taskid *tasks;
	size_t n_ids, n_tasks;
};

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_task(const void *a, const void *b)
{
	const struct sl_taskid *x = a, *y = b;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

static void *sorted_copy(const void *v, size_t n, size_t size,
			 int (*cmp)(const void *, const void *))
{
	void *c;

	if (n == 0)
		return NULL;
	c = sl_xcalloc(n, size);
	memcpy(c, v, n * size);
	qsort(c, n, size, cmp);
	return c;
}

void sl_jobfilter_index(struct sl_jobfilter *f)
{
	struct sl_jobfilter_idx *x;

	sl_jobfilter_index_free(f);
	if (f->n_ids + f->n_tasks == 0)
		return; /* every job passes: nothing to look up */
	x = sl_xcalloc(1, sizeof(*x));
	x->n_ids = f->n_ids;
	x->n_tasks = f->n_tasks;
	x->ids = sorted_copy(f->ids, f->n_ids, sizeof(*f->ids), cmp_id);
	x->tasks = sorted_copy(f->tasks, f->n_tasks, sizeof(*f->tasks), cmp_task);
	f->idx = x;
}

void sl_jobfilter_index_free(struct sl_jobfilter *f)
{
	if (f->idx == NULL)
		return;
	free(f->idx->ids);
	free(f->idx->tasks);
	free(f->idx);
	f->idx = NULL;
}

/* id_match through the index: the same three questions, each a bsearch. */
static int idx_match(const struct sl_jobfilter_idx *x, const struct sl_job *j)
{
	struct sl_taskid t = {j->array_job_id, (uint32_t)j->array_task_id};

	if (x->n_ids > 0 &&
	    (bsearch(&j->id, x->ids, x->n_ids, sizeof(*x->ids), cmp_id) != NULL ||
	     (j->array_job_id != 0 &&
	      bsearch(&j->array_job_id, x->ids, x->n_ids, sizeof(*x->ids), cmp_id) != NULL)))
		return 1;
	return x->n_tasks > 0 &&
	       bsearch(&t, x->tasks, x->n_tasks, sizeof(*x->tasks), cmp_task) != NULL;
}

/* Job ids, in either form: the job's own id, its array's id, or its task. */
static int id_match(const struct sl_jobfilter *f, const struct sl_job *j)
{
	if (f->n_ids == 0 && f->n_tasks == 0)
		return 1;
	if (f->idx != NULL)
		return idx_match(f->idx, j);
	for (size_t i = 0; i < f->n_ids; i++)
		if (f->ids[i] == j->id || (j->array_job_id != 0 && f->ids[i] == j->array_job_id))
			return 1;
	for (size_t i = 0; i < f->n_tasks; i++)
		if (j->array_job_id == f->tasks[i].job &&
		    f->tasks[i].task == (uint32_t)j->array_task_id)
			return 1;
	return 0;
}

/* The live state a state list tests is the one squeue shows
 * (sl_job_shown_state); the history's is the record's. */
static int state_in(const struct sl_jobfilter *f, const int *v, size_t n, const struct sl_job *j)
{
	int st = f->history ? (int)j->state : (int)sl_job_shown_state(j, (int64_t)time(NULL));
	for (size_t i = 0; i < n; i++)
		if (v[i] == st)
			return 1;
	return 0;
}

int sl_jobfilter_match(const struct sl_jobfilter *f, const struct sl_job *j)
{
	if (j->array_dropped || !id_match(f, j))
		return 0;
	for (size_t k = 0; k < NLISTS; k++) {
		size_t n, i = 0;
		const void *v = items(f, &lists[k], &n);

		if (lists[k].type == L_ID || lists[k].type == L_TASK)
			continue;
		if (lists[k].type == L_STATE) {
			if (n > 0 && !state_in(f, v, n, j))
				return 0;
			continue;
		}

		while (i < n && !same(&lists[k], v, i, j))
			i++;
		if (n > 0 && i == n)
			return 0;
	}
	return 1;
}

static json_object *elem_to_obj(const struct list *l, const void *v, size_t i)
{
	switch (l->type) {
	case L_ID: return json_object_new_int64((int64_t)((const uint64_t *)v)[i]);
	case L_UID: return json_object_new_int64(((const uid_t *)v)[i]);
	case L_STATE: return json_object_new_string(sl_jobstate_name(((const int *)v)[i]));
	case L_STR: case L_HOST: return json_object_new_string(((char *const *)v)[i]);
	case L_TASK: {
		char t[48];
		snprintf(t, sizeof(t), "%llu_%u",
			 (unsigned long long)((const struct sl_taskid *)v)[i].job,
			 ((const struct sl_taskid *)v)[i].task);
		return json_object_new_string(t);
	}
	}
	return NULL;
}

json_object *sl_jobfilter_to_obj(const struct sl_jobfilter *f)
{
	json_object *o = json_object_new_object();

	for (size_t k = 0; k < NLISTS; k++) {
		json_object *a = json_object_new_array();
		size_t n;
		const void *v = items(f, &lists[k], &n);

		if (n == 0 && lists[k].optional) {
			json_object_put(a);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			json_object_array_add(a, elem_to_obj(&lists[k], v, i));
		json_object_object_add(o, lists[k].key, a);
	}
	json_object_object_add(o, "history", json_object_new_boolean(f->history));
	if (f->duplicates)
		json_object_object_add(o, "duplicates", json_object_new_boolean(1));
	if (f->fold)
		json_object_object_add(o, "fold", json_object_new_int(f->fold));
	json_object_object_add(o, "start_after", json_object_new_int64(f->start_after));
	json_object_object_add(o, "end_before", json_object_new_int64(f->end_before));
	return o;
}

static int elem_from_obj(const struct list *l, json_object *e, void *v, size_t i,
			 struct sl_err *err)
{
	int text = l->type == L_STATE || l->type == L_STR || l->type == L_HOST ||
		   l->type == L_TASK, st;
	unsigned long long job;
	unsigned task;
	char c;

	if (!json_object_is_type(e, text ? json_type_string : json_type_int))
		return sl_err_set(err, SL_EPROTO, "filter.%s[%zu]: expected %s", l->key, i,
				  text ? "a string" : "an integer");
	switch (l->type) {
	case L_ID: ((uint64_t *)v)[i] = (uint64_t)json_object_get_int64(e); break;
	case L_UID: ((uid_t *)v)[i] = (uid_t)json_object_get_int64(e); break;
	case L_STR: case L_HOST: ((char **)v)[i] = sl_xstrdup(json_object_get_string(e)); break;
	case L_TASK:
		if (sscanf(json_object_get_string(e), "%llu_%u%c", &job, &task, &c) != 2)
			return sl_err_set(err, SL_EPROTO, "filter.%s[%zu]: expected \"N_I\"",
					  l->key, i);
		((struct sl_taskid *)v)[i] = (struct sl_taskid){job, task};
		break;
	case L_STATE:
		if ((st = sl_jobstate_parse(json_object_get_string(e))) < 0)
			return sl_err_set(err, SL_EINVAL, "Invalid job state specified: %s",
					  json_object_get_string(e));
		((int *)v)[i] = st;
		break;
	}
	return 0;
}

static int list_from_obj(json_object *o, const struct list *l, struct sl_jobfilter *f,
			 struct sl_err *err)
{
	json_object *a;
	size_t n;
	int r = 0;

	if (!json_object_object_get_ex(o, l->key, &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return sl_err_set(err, SL_EPROTO, "filter.%s: expected an array", l->key);
	if ((n = json_object_array_length(a)) > FILTER_MAX)
		return sl_err_set(err, SL_ETOOBIG, "filter.%s: more than %d entries", l->key,
				  FILTER_MAX);
	if (n == 0)
		return 0;
	/* One more, zeroed: string lists end with NULL (sl_strv_free). */
	*vec(f, l) = sl_xcalloc(n + 1, elsize[l->type]);
	*len(f, l) = n;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = elem_from_obj(l, json_object_array_get_idx(a, i), *vec(f, l), i, err);
	return r;
}

int sl_jobfilter_from_obj(json_object *o, struct sl_jobfilter *f, struct sl_err *err)
{
	json_object *v;
	int r = 0;

	memset(f, 0, sizeof(*f));
	if (o == NULL)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return sl_err_set(err, SL_EPROTO, "filter: expected an object");
	for (size_t k = 0; r == 0 && k < NLISTS; k++)
		r = list_from_obj(o, &lists[k], f, err);
	if (r != 0) {
		sl_jobfilter_clear(f);
		return r;
	}
	sl_jobfilter_index(f);
	if (json_object_object_get_ex(o, "history", &v))
		f->history = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "duplicates", &v))
		f->duplicates = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "fold", &v))
		f->fold = json_object_get_int(v) > 2 ? 3 : json_object_get_int(v) > 1 ? 2
										       : json_object_get_int(v) > 0;
	if (json_object_object_get_ex(o, "start_after", &v))
		f->start_after = json_object_get_int64(v);
	if (json_object_object_get_ex(o, "end_before", &v))
		f->end_before = json_object_get_int64(v);
	return 0;
}

void sl_jobfilter_clear(struct sl_jobfilter *f)
{
	sl_jobfilter_index_free(f);
	for (size_t k = 0; k < NLISTS; k++)
		if (lists[k].type == L_STR || lists[k].type == L_HOST)
			sl_strv_free(*vec(f, &lists[k]));
		else
			free(*vec(f, &lists[k]));
	memset(f, 0, sizeof(*f));
}
