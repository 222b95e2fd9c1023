/* slurm_json.c - the openapi v0.0.38 envelope and member helpers shared by
 * the --json writers (sinfo_json.c, squeue_json.c, sacct_json.c). */
#include "slurm_json.h"

#include "err.h"

json_object *sl_json_doc(void)
{
	json_object *doc = json_object_new_object(), *meta = json_object_new_object();
	json_object *plugin = json_object_new_object(), *slurm = json_object_new_object();
	json_object *ver = json_object_new_object();

	sl_json_str(plugin, "type", "openapi/v0.0.38");
	sl_json_str(plugin, "name", "Slurm OpenAPI v0.0.38");
	json_object_object_add(meta, "plugin", plugin);
	sl_json_int(ver, "major", 22);
	sl_json_int(ver, "micro", 8);
	sl_json_int(ver, "minor", 5);
	json_object_object_add(slurm, "version", ver);
	sl_json_str(slurm, "release", "22.05.8");
	json_object_object_add(meta, "Slurm", slurm);
	json_object_object_add(doc, "meta", meta);
	json_object_object_add(doc, "errors", json_object_new_array());
	return doc;
}

int sl_json_emit(json_object *doc, struct sl_buf *out)
{
	int r = sl_buf_addstr(out, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_SPACED |
								   JSON_C_TO_STRING_PRETTY));
	json_object_put(doc);
	return r;
}

void sl_json_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v ? v : ""));
}

void sl_json_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

void sl_json_null(json_object *o, const char *key)
{
	json_object_object_add(o, key, NULL);
}

void sl_json_bool(json_object *o, const char *key, int v)
{
	json_object_object_add(o, key, json_object_new_boolean(v != 0));
}

void sl_json_double(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

void sl_json_int_or_null(json_object *o, const char *key, int set, int64_t v)
{
	json_object_object_add(o, key, set ? json_object_new_int64(v) : NULL);
}

void sl_json_strv(json_object *o, const char *key, const char *const *v)
{
	json_object *a = json_object_new_array();
	for (; v && *v; v++)
		json_object_array_add(a, json_object_new_string(*v));
	json_object_object_add(o, key, a);
}
