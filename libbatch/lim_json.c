/* lim_json.c - limits to and from JSON (lim_json.h). */
#include "lim_json.h"

#include <stddef.h>

static const struct {
	const char *key;
	size_t off;
	int tres; /* an array of SL_TRES_N, else one int64_t */
} keys[] = {
	{"max_jobs_pu", offsetof(struct sl_lim_set, max_jobs_pu), 0},
	{"max_submit_pu", offsetof(struct sl_lim_set, max_submit_pu), 0},
	{"grp_jobs", offsetof(struct sl_lim_set, grp_jobs), 0},
	{"grp_submit", offsetof(struct sl_lim_set, grp_submit), 0},
	{"max_wall", offsetof(struct sl_lim_set, max_wall), 0},
	{"max_tres_pu", offsetof(struct sl_lim_set, max_tres_pu), 1},
	{"max_tres_pj", offsetof(struct sl_lim_set, max_tres_pj), 1},
	{"min_tres_pj", offsetof(struct sl_lim_set, min_tres_pj), 1},
	{"grp_tres", offsetof(struct sl_lim_set, grp_tres), 1},
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

json_object *sl_lim_set_to_json(const struct sl_lim_set *s)
{
	json_object *o = json_object_new_object();

	for (size_t k = 0; k < NKEYS; k++) {
		const int64_t *v = (const int64_t *)((const char *)s + keys[k].off);
		size_t n = keys[k].tres ? SL_TRES_N : 1, set = 0;
		json_object *a;

		for (size_t i = 0; i < n; i++)
			set += v[i] != SL_LIM_NONE;
		if (set == 0)
			continue;
		if (!keys[k].tres) {
			json_object_object_add(o, keys[k].key, json_object_new_int64(v[0]));
			continue;
		}
		a = json_object_new_array();
		for (size_t i = 0; i < n; i++)
			json_object_array_add(a, json_object_new_int64(v[i]));
		json_object_object_add(o, keys[k].key, a);
	}
	return o;
}

void sl_lim_set_from_json(json_object *o, struct sl_lim_set *s)
{
	for (size_t k = 0; k < NKEYS; k++) {
		int64_t *v = (int64_t *)((char *)s + keys[k].off);
		size_t n = keys[k].tres ? SL_TRES_N : 1;
		json_object *x;
		int have = o && json_object_object_get_ex(o, keys[k].key, &x) &&
			   (!keys[k].tres || (json_object_is_type(x, json_type_array) &&
					      json_object_array_length(x) == SL_TRES_N));

		for (size_t i = 0; i < n; i++) {
			json_object *e = !have ? NULL : keys[k].tres ? json_object_array_get_idx(x, i) : x;
			v[i] = e ? json_object_get_int64(e) : SL_LIM_NONE;
		}
	}
}
