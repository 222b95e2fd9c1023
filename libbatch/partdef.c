/* partdef.c - kind: Partition objects, parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "partdef.h"
#include "conf.h"
#include "qos_limits.h"
#include "quantity.h"
#include "xalloc.h"
#include "yaml.h"

static const char *scalar(const struct sl_ynode *map, const char *key)
{
	const struct sl_ynode *n = map && map->type == SL_Y_MAP ? sl_ymap_get(map, key) : NULL;
	return n && n->type == SL_Y_SCALAR ? n->scalar : NULL;
}

int sl_partdef_is_doc(const struct sl_ynode *doc)
{
	const char *api = scalar(doc, "apiVersion"), *kind = scalar(doc, "kind");
	return api && kind && strcmp(api, "sluice.io/v1alpha1") == 0 && strcmp(kind, "Partition") == 0;
}

struct field {
	const char *key;
	size_t off;
	enum { F_TIME, F_MEM, F_COUNT } type;
};

#define OFF(m) offsetof(struct sl_partdef, m)
static const struct field fields[] = {
	{"maxTime", OFF(max_time), F_TIME},          {"defaultTime", OFF(default_time), F_TIME},
	{"defMemPerCPU", OFF(def_mem_per_cpu), F_MEM}, {"defMemPerNode", OFF(def_mem_per_node), F_MEM},
	{"maxMemPerCPU", OFF(max_mem_per_cpu), F_MEM}, {"maxMemPerNode", OFF(max_mem_per_node), F_MEM},
	{"maxNodes", OFF(max_nodes), F_COUNT},         {"minNodes", OFF(min_nodes), F_COUNT},
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* One value: "UNLIMITED" for any; a Slurm time; a quantity of bytes
 * ("2000Mi") or Slurm's MiB count ("2000"); a whole number. */
static int value(const struct field *f, const char *v, int64_t *out)
{
	int64_t milli, n;
	char *end;
	if (strcasecmp(v, "UNLIMITED") == 0 || strcasecmp(v, "INFINITE") == 0) {
		*out = SL_PARTDEF_UNLIMITED;
		return 0;
	}
	switch (f->type) {
	case F_TIME:
		if (sl_limits_parse_time(v, out) != 0)
			return -1;
		if (*out < 0)
			*out = SL_PARTDEF_UNLIMITED;
		return 0;
	case F_MEM:
		if (strspn(v, "0123456789") == strlen(v) && *v) {
			*out = strtoll(v, NULL, 10);
			return 0;
		}
		if (sl_quantity_parse(v, &milli) != 0 || milli < 0)
			return -1;
		*out = (milli / 1000 + 1048575) / 1048576;
		return 0;
	case F_COUNT:
		n = strtoll(v, &end, 10);
		if (end == v || *end || n < 0)
			return -1;
		*out = n;
		return 0;
	}
	return -1;
}

int sl_partdefs_add(struct sl_partdefs *ps, const char *file, const struct sl_ynode *doc,
		    struct sl_err *err)
{
	const struct sl_ynode *meta = sl_ymap_get(doc, "metadata"), *spec = sl_ymap_get(doc, "spec");
	const char *name = scalar(meta, "name");
	struct sl_partdef d;
	char q[SL_K8S_NAME_MAX];

	if (!name || !*name)
		return sl_yerr(err, SL_ECONFIG, file, doc->line, "Partition", NULL, "metadata.name",
			       "required");
	if (sl_conf_k8s_name(name, q) != 0)
		return sl_yerr(err, SL_ECONFIG, file, doc->line, "Partition", name, "metadata.name",
			       "is not a partition name");
	if (sl_partdefs_find(ps, q))
		return sl_yerr(err, SL_ECONFIG, file, doc->line, "Partition", name, NULL,
			       "defined twice");
	if (spec && spec->type != SL_Y_MAP)
		return sl_yerr(err, SL_ECONFIG, file, spec->line, "Partition", name, "spec",
			       "must be a map");
	memset(&d, 0, sizeof(d));
	for (size_t i = 0; i < NFIELDS; i++)
		*(int64_t *)((char *)&d + fields[i].off) = SL_PARTDEF_UNSET;
	for (size_t k = 0; spec && k < spec->n; k++) {
		size_t i = 0;
		while (i < NFIELDS && strcmp(fields[i].key, spec->keys[k]) != 0)
			i++;
		if (i == NFIELDS)
			return sl_yerr(err, SL_ECONFIG, file, spec->key_lines[k], "Partition", name,
				       spec->keys[k], "unknown field");
		const char *v = spec->vals[k]->type == SL_Y_SCALAR ? spec->vals[k]->scalar : "";
		if (value(&fields[i], v, (int64_t *)((char *)&d + fields[i].off)) != 0)
			return sl_yerr(err, SL_ECONFIG, file, spec->vals[k]->line, "Partition", name,
				       spec->keys[k], "\"%s\" is not %s", v,
				       fields[i].type == F_TIME ? "a time ([D-]HH:MM:SS, minutes or UNLIMITED)"
				       : fields[i].type == F_MEM ? "a memory size (2000Mi, or MiB)"
				       : "a whole number or UNLIMITED");
	}
	d.name = sl_xstrdup(name);
	d.queue = sl_xstrdup(q);
	d.file = sl_xstrdup(file);
	d.line = doc->line;
	ps->v = sl_xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	ps->v[ps->n++] = d;
	return 0;
}

void sl_partdefs_clear(struct sl_partdefs *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->v[i].name);
		free(ps->v[i].queue);
		free(ps->v[i].file);
	}
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

const struct sl_partdef *sl_partdefs_find(const struct sl_partdefs *ps, const char *queue)
{
	for (size_t i = 0; ps && queue && i < ps->n; i++)
		if (strcmp(ps->v[i].queue, queue) == 0)
			return &ps->v[i];
	return NULL;
}
