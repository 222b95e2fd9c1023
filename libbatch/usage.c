/* usage.c - struct sl_usage to and from JSON: one table of members, so
 * the result file, the usage file and the stat reply agree. */
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
};
#define NMEMBERS (sizeof(members) / sizeof(members[0]))

static int64_t *member(struct sl_usage *u, size_t i)
{
	return (int64_t *)(void *)((char *)u + members[i].off);
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
	u->ntasks = j->max_rss || j->user_usec || j->sys_usec ? 1 : 0;
}
