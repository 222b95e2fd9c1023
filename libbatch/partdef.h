/* partdef.h - a partition's own settings, beyond its queues: Slurm's
 * MaxTime, DefaultTime, DefMemPerCPU/Node, MaxMemPerCPU/Node, MaxNodes and
 * MinNodes, as `kind: Partition` objects (sluice.io/v1alpha1) beside the
 * config (the form `sluice migrate` writes):
 *   metadata: {name: debug}   # the partition's name, as -p takes it
 *   spec: {maxTime: "00:30:00", defaultTime: "00:10:00", defMemPerCPU: 2000Mi,
 *          maxMemPerNode: 250Gi, maxNodes: 1, minNodes: 1}
 * The submit policy applies the defaults; a job beyond maxTime, maxNodes or
 * minNodes waits with PartitionTimeLimit or PartitionNodeLimit (Slurm's
 * EnforcePartLimits=NO, its default). */
#ifndef SL_PARTDEF_H
#define SL_PARTDEF_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

struct sl_ynode;

#define SL_PARTDEF_UNSET (-1)     /* not set */
#define SL_PARTDEF_UNLIMITED (-2) /* "UNLIMITED" */

struct sl_partdef {
	char *name;                  /* as given (Slurm's spelling) */
	char *queue;                 /* its LocalQueue name (sl_conf_k8s_name) */
	int64_t max_time, default_time;          /* minutes, or the two values above */
	int64_t def_mem_per_cpu, def_mem_per_node; /* MiB */
	int64_t max_mem_per_cpu, max_mem_per_node;
	int64_t max_nodes, min_nodes;
	char *file;
	int line;
};

struct sl_partdefs {
	struct sl_partdef *v;
	size_t n;
};

/* 1 when doc is a Partition object. */
int sl_partdef_is_doc(const struct sl_ynode *doc);
/* Parse one into ps. -SL_ECONFIG "FILE:LINE: Partition \"NAME\": ..." */
int sl_partdefs_add(struct sl_partdefs *ps, const char *file, const struct sl_ynode *doc,
		    struct sl_err *err);
void sl_partdefs_clear(struct sl_partdefs *ps);
/* The object of the partition whose LocalQueue is `queue`, or NULL. */
const struct sl_partdef *sl_partdefs_find(const struct sl_partdefs *ps, const char *queue);

#endif
