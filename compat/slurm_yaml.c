/* slurm_yaml.c - the --yaml form of the --json documents: Slurm 22.05's
 * yaml serializer writes the same tree through libyaml's emitter with
 * every tag explicit ("!!str key: !!int 5"), a "%YAML 1.1" directive and
 * an explicit end ("..."). slurmctld's empty strings are NULL pointers,
 * which its JSON prints as "" and its YAML as null (squeue's document);
 * slurmdbd's are empty strings in both (sacct's). The same
 * emitter (libyaml's defaults: 2 spaces, 80 columns) makes the quoting and
 * the line breaks Slurm's. */
#include "slurm_json.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "err.h"

static int write_out(void *data, unsigned char *buf, size_t len)
{
	return sl_buf_add((struct sl_buf *)data, (const char *)buf, len) == 0;
}

static int scalar(yaml_emitter_t *e, const char *tag, const char *v)
{
	yaml_event_t ev;

	yaml_scalar_event_initialize(&ev, NULL, (yaml_char_t *)tag, (yaml_char_t *)v,
				     (int)strlen(v), 0, 0, YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(e, &ev);
}

static int node(yaml_emitter_t *e, json_object *o, int empty_null)
{
	yaml_event_t ev;
	char num[64];
	int ok = 1;

	switch (json_object_get_type(o)) {
	case json_type_null:
		return scalar(e, YAML_NULL_TAG, "null");
	case json_type_boolean:
		return scalar(e, YAML_BOOL_TAG, json_object_get_boolean(o) ? "true" : "false");
	case json_type_int:
		snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(o));
		return scalar(e, YAML_INT_TAG, num);
	case json_type_double:
		snprintf(num, sizeof(num), "%f", json_object_get_double(o));
		return scalar(e, YAML_FLOAT_TAG, num);
	case json_type_string:
		if (json_object_get_string_len(o) == 0 && empty_null)
			return scalar(e, YAML_NULL_TAG, "null");
		return scalar(e, YAML_STR_TAG, json_object_get_string(o));
	case json_type_array:
		yaml_sequence_start_event_initialize(&ev, NULL, (yaml_char_t *)YAML_SEQ_TAG, 0,
						     YAML_ANY_SEQUENCE_STYLE);
		ok = yaml_emitter_emit(e, &ev);
		for (size_t i = 0; ok && i < json_object_array_length(o); i++)
			ok = node(e, json_object_array_get_idx(o, i), empty_null);
		yaml_sequence_end_event_initialize(&ev);
		return ok && yaml_emitter_emit(e, &ev);
	case json_type_object:
		yaml_mapping_start_event_initialize(&ev, NULL, (yaml_char_t *)YAML_MAP_TAG, 0,
						    YAML_ANY_MAPPING_STYLE);
		ok = yaml_emitter_emit(e, &ev);
		json_object_object_foreach(o, k, v) {
			if (ok)
				ok = scalar(e, YAML_STR_TAG, k) && node(e, v, empty_null);
		}
		yaml_mapping_end_event_initialize(&ev);
		return ok && yaml_emitter_emit(e, &ev);
	}
	return 0;
}

int sl_yaml_emit(json_object *doc, int empty_null, struct sl_buf *out)
{
	yaml_version_directive_t v11 = {1, 1};
	yaml_emitter_t e;
	yaml_event_t ev;
	int ok;

	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, write_out, out);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, &v11, NULL, NULL, 0);
	ok = ok && yaml_emitter_emit(&e, &ev) && node(&e, doc, empty_null);
	yaml_document_end_event_initialize(&ev, 0);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_emitter_delete(&e);
	json_object_put(doc);
	return ok ? 0 : -SL_ETOOBIG;
}
