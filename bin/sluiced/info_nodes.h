/* info_nodes.h - an executor's own nodes in the partitions reply
 * (PROTOCOL.md, PARTITION and NODE). */
#ifndef SL_INFO_NODES_H
#define SL_INFO_NODES_H

#include <json-c/json.h>
#include "sluiced.h"

/* The nodes d's executor reports (its nodes op must be set), each naming
 * the partitions of parts (LocalQueue names, NULL-terminated) it is in.
 * Caller owns the array. */
json_object *sl_info_nodes(const struct sluiced *d, const char *const *parts);

/* The whole CPUs of the largest of those nodes in partition part (its
 * nodes op must be set), as sinfo counts them: slurmctld's max_cpu_cnt of
 * the partition. 0: none of them is in it. */
int sl_info_nodes_max_cpus(const struct sluiced *d, const char *part);

#endif
