/* usage.c - struct sl_usage to and from JSON: one table of members, so
 * the result file, the usage file, the stat reply and a step's record
 * agree; and a step's figures gathered task by task. */
#include "usage.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "xalloc.h"

static const struct {
	const char *key;
	size_t off;
} members[] = {
	{"maxRss", offsetof(struct sl_usage, max_rss)},
	{"maxVmsize", offsetof(struct sl_usage, max_vmsize)},
	{"maxPages", offsetof(struct sl_usage, max_pages)},
	{"userUsec", offsetof(struct sl_usage, user_usec)},
	{"sysUsec", offsetof(struct sl_usage, sys_usec)},
	{"diskRead", offsetof(struct sl_usage, disk_read)},
	{"diskWrite", offsetof(struct sl_usage, disk_write)},
	{"sampled", offsetof(struct sl_usage, sampled)},
	{"reapedRss", offsetof(struct sl_usage, reaped_rss)},
};
#define NMEMBERS (sizeof(members) / sizeof(members[0]))

/* A step's tasks: "tasks": {"n": 2, "cpu": [max, min, tot, max task,
 * min task], "rss": [...], ...}, one array a figure in this order. */
static const char *const items[SL_USE_N] = {"cpu", "rss", "vmsize", "pages", "read", "write"};

static int64_t *member(struct sl_usage *u, size_t i)
{
	return (int64_t *)(void *)((char *)u + members[i].off);
}

static json_object *tasks_to_obj(const struct sl_usage_tasks *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "n", json_object_new_int(t->n));
	for (int k = 0; k < SL_USE_N; k++) {
		const struct sl_usage_agg *a = &t->a[k];
		json_object *v = json_object_new_array();
		json_object_array_add(v, json_object_new_int64(a->max));
		json_object_array_add(v, json_object_new_int64(a->min));
		json_object_array_add(v, json_object_new_int64(a->tot));
		json_object_array_add(v, json_object_new_int(a->max_task));
		json_object_array_add(v, json_object_new_int(a->min_task));
		json_object_object_add(o, items[k], v);
	}
	return o;
}

/* Read back; anything malformed leaves the tasks unmeasured (n 0). */
static void tasks_from_obj(json_object *o, struct sl_usage_tasks *t)
{
	json_object *v;
	memset(t, 0, sizeof(*t));
	if (!json_object_object_get_ex(o, "n", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int(v) <= 0)
		return;
	for (int k = 0; k < SL_USE_N; k++) {
		int64_t x[5];
		if (!json_object_object_get_ex(o, items[k], &v) ||
		    !json_object_is_type(v, json_type_array) || json_object_array_length(v) != 5) {
			memset(t, 0, sizeof(*t));
			return;
		}
		for (size_t i = 0; i < 5; i++)
			x[i] = json_object_get_int64(json_object_array_get_idx(v, i));
		t->a[k] = (struct sl_usage_agg){x[0], x[1], x[2], (int)x[3], (int)x[4]};
	}
	json_object_object_get_ex(o, "n", &v);
	t->n = json_object_get_int(v);
}

json_object *sl_usage_to_obj(const struct sl_usage *u)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < NMEMBERS; i++) {
		int64_t v = *member((struct sl_usage *)u, i);
		if (v != 0)
			json_object_object_add(o, members[i].key, json_object_new_int64(v));
	}
	if (u->ntasks)
		json_object_object_add(o, "ntasks", json_object_new_int(u->ntasks));
	if (u->pids[0])
		json_object_object_add(o, "pids", json_object_new_string(u->pids));
	if (u->tasks.n > 0)
		json_object_object_add(o, "tasks", tasks_to_obj(&u->tasks));
	return o;
}

void sl_usage_from_obj(json_object *o, struct sl_usage *u)
{
	json_object *v;
	memset(u, 0, sizeof(*u));
	if (o == NULL || !json_object_is_type(o, json_type_object))
		return;
	for (size_t i = 0; i < NMEMBERS; i++)
		if (json_object_object_get_ex(o, members[i].key, &v) &&
		    json_object_is_type(v, json_type_int))
			*member(u, i) = json_object_get_int64(v);
	if (json_object_object_get_ex(o, "ntasks", &v) && json_object_is_type(v, json_type_int))
		u->ntasks = json_object_get_int(v);
	if (json_object_object_get_ex(o, "pids", &v) && json_object_is_type(v, json_type_string))
		snprintf(u->pids, sizeof(u->pids), "%s", json_object_get_string(v));
	if (json_object_object_get_ex(o, "tasks", &v) && json_object_is_type(v, json_type_object))
		tasks_from_obj(v, &u->tasks);
}

char *sl_usage_to_json(const struct sl_usage *u)
{
	json_object *o = sl_usage_to_obj(u);
	char *s = sl_xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

int sl_usage_from_json(const char *text, struct sl_usage *u)
{
	json_object *o = json_tokener_parse(text);
	int r = o != NULL && json_object_is_type(o, json_type_object) ? 0 : -1;
	sl_usage_from_obj(r == 0 ? o : NULL, u);
	json_object_put(o);
	return r;
}

void sl_usage_to_job(const struct sl_usage *u, struct sl_job *j)
{
	j->max_rss = u->max_rss;
	j->max_vmsize = u->max_vmsize;
	j->max_pages = u->max_pages;
	j->user_usec = u->user_usec;
	j->sys_usec = u->sys_usec;
	j->disk_read = u->disk_read;
	j->disk_write = u->disk_write;
	j->reaped_rss = u->reaped_rss;
}

void sl_usage_from_job(const struct sl_job *j, struct sl_usage *u)
{
	memset(u, 0, sizeof(*u));
	u->max_rss = j->max_rss;
	u->max_vmsize = j->max_vmsize;
	u->max_pages = j->max_pages;
	u->user_usec = j->user_usec;
	u->sys_usec = j->sys_usec;
	u->disk_read = j->disk_read;
	u->disk_write = j->disk_write;
	u->reaped_rss = j->reaped_rss;
	u->ntasks = j->max_rss || j->reaped_rss || j->user_usec || j->sys_usec ? 1 : 0;
}

void sl_usage_tasks_add(struct sl_usage_tasks *t, int task, const int64_t v[SL_USE_N])
{
	for (int k = 0; k < SL_USE_N; k++) {
		struct sl_usage_agg *a = &t->a[k];
		if (t->n == 0) {
			*a = (struct sl_usage_agg){v[k], v[k], v[k], task, task};
			continue;
		}
		if (v[k] > a->max || (v[k] == a->max && task < a->max_task)) {
			a->max = v[k];
			a->max_task = task;
		}
		if (v[k] < a->min || (v[k] == a->min && task < a->min_task)) {
			a->min = v[k];
			a->min_task = task;
		}
		a->tot += v[k];
	}
	t->n++;
}

void sl_usage_per_task(const struct sl_usage *u, struct sl_usage_tasks *t)
{
	int64_t v[SL_USE_N] = {u->user_usec + u->sys_usec, u->max_rss, u->max_vmsize,
			       u->max_pages, u->disk_read, u->disk_write};
	if (u->tasks.n > 0) {
		*t = u->tasks;
		return;
	}
	memset(t, 0, sizeof(*t));
	if (u->ntasks > 0 || v[SL_USE_CPU] || v[SL_USE_RSS] || v[SL_USE_VMSIZE])
		sl_usage_tasks_add(t, 0, v);
}

int64_t sl_usage_ave(const struct sl_usage_tasks *t, enum sl_usage_item k)
{
	return t->n > 0 ? t->a[k].tot / t->n : 0;
}
