/* sinfo_json.c - sinfo --json as Slurm 22.05 prints it: the openapi
 * v0.0.38 plugin's /nodes/ document (src/plugins/openapi/v0.0.38/nodes.c)
 * through its json-c serializer (pretty, spaced): meta, errors, and every
 * node with the same keys in the same order. Strings slurmd would leave
 * unset print as "", as that serializer prints them. */
#include "sinfo_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_json.h"
#include "xalloc.h"

#define str sl_json_str
#define num sl_json_int

/* Memory in a TRES string: "250G" for 256000 MiB, "4000M". */
static void tres_mem(uint64_t mib, char *buf, size_t len)
{
	if (mib && mib % (1024 * 1024) == 0)
		snprintf(buf, len, "%lluT", (unsigned long long)(mib / (1024 * 1024)));
	else if (mib && mib % 1024 == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(mib / 1024));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)mib);
}

static const char *base_state(unsigned s)
{
	static const char *const n[] = {"unknown", "down", "idle", "allocated", "error",
					"mixed", "future"};
	return (s & SL_NODE_BASE) < SL_NODE_END ? n[s & SL_NODE_BASE] : "unknown";
}

static json_object *flags(unsigned s)
{
	json_object *a = json_object_new_array();
	if (s & SL_NODE_DRAIN)
		json_object_array_add(a, json_object_new_string("DRAIN"));
	if (s & SL_NODE_NO_RESPOND)
		json_object_array_add(a, json_object_new_string("NOT_RESPONDING"));
	return a;
}

static json_object *node(const struct sl_sinfo_node *n)
{
	json_object *o = json_object_new_object(), *parts = json_object_new_array();
	char mem[32], tres[96];

	str(o, "architecture", n->arch);
	str(o, "burstbuffer_network_address", NULL);
	num(o, "boards", 1);
	num(o, "boot_time", n->boot_time);
	str(o, "comment", NULL);
	num(o, "cores", 1);
	num(o, "cpu_binding", 0);
	num(o, "cpu_load", n->cpu_load);
	str(o, "extra", NULL);
	num(o, "free_memory", (int64_t)n->free_mem);
	num(o, "cpus", n->cpus);
	num(o, "last_busy", n->last_busy);
	str(o, "features", n->features);
	str(o, "active_features", n->features);
	str(o, "gres", n->gres);
	str(o, "gres_drained", "N/A");
	str(o, "gres_used", n->gres_used);
	str(o, "mcs_label", NULL);
	str(o, "name", n->name);
	str(o, "next_state_after_reboot", "invalid");
	str(o, "address", n->addr ? n->addr : n->name);
	str(o, "hostname", n->name);
	str(o, "state", base_state(n->state));
	json_object_object_add(o, "state_flags", flags(n->state));
	json_object_object_add(o, "next_state_after_reboot_flags", json_object_new_array());
	str(o, "operating_system", n->os);
	json_object_object_add(o, "owner", NULL);
	for (const char *const *p = n->partitions; p && *p; p++)
		json_object_array_add(parts, json_object_new_string(*p));
	json_object_object_add(o, "partitions", parts);
	num(o, "port", n->port);
	num(o, "real_memory", (int64_t)n->mem);
	str(o, "reason", n->reason);
	num(o, "reason_changed_at", n->reason_time);
	json_object_object_add(o, "reason_set_by_user",
			       n->reason_uid != SL_SINFO_NO_VAL && n->reason_user
				       ? json_object_new_string(n->reason_user) : NULL);
	num(o, "slurmd_start_time", n->start_time);
	num(o, "sockets", n->cpus);
	num(o, "threads", 1);
	num(o, "temporary_disk", (int64_t)n->tmp_disk);
	num(o, "weight", 1);
	tres_mem(n->mem, mem, sizeof(mem));
	snprintf(tres, sizeof(tres), "cpu=%u,mem=%s,billing=%u", n->cpus, mem, n->cpus);
	str(o, "tres", tres);
	str(o, "slurmd_version", n->version);
	num(o, "alloc_memory", (int64_t)n->mem_alloc);
	num(o, "alloc_cpus", n->cpus_alloc);
	num(o, "idle_cpus", (int64_t)n->cpus - n->cpus_alloc);
	if (n->cpus_alloc || n->mem_alloc) {
		tres_mem(n->mem_alloc, mem, sizeof(mem));
		if (n->mem_alloc)
			snprintf(tres, sizeof(tres), "cpu=%u,mem=%s", n->cpus_alloc, mem);
		else
			snprintf(tres, sizeof(tres), "cpu=%u", n->cpus_alloc);
		str(o, "tres_used", tres);
	} else {
		json_object_object_add(o, "tres_used", NULL);
	}
	json_object_object_add(o, "tres_weighted", json_object_new_double(n->cpus_alloc));
	return o;
}

static json_object *nodes_doc(const struct sl_sinfo_view *v)
{
	json_object *doc = sl_json_doc(), *nodes = json_object_new_array();

	for (size_t i = 0; i < v->nnodes; i++)
		json_object_array_add(nodes, node(&v->nodes[i]));
	json_object_object_add(doc, "nodes", nodes);
	return doc;
}

int sl_sinfo_json(const struct sl_sinfo_view *v, struct sl_buf *out)
{
	return sl_json_emit(nodes_doc(v), out);
}

/* slurmctld's unset strings are null in its YAML (slurm_yaml.c). */
int sl_sinfo_yaml(const struct sl_sinfo_view *v, struct sl_buf *out)
{
	return sl_yaml_emit(nodes_doc(v), 1, out);
}
