/* nodeadmin.h - an operator's state of the local executor's node, as
 * slurmctld's update_node keeps a node's (scontrol update NodeName=HOST
 * State=DRAIN|UNDRAIN|RESUME|DOWN|IDLE Reason=...): while it is drained or
 * down no job starts; DOWN also ends the jobs running on it, requeued when
 * they may be, else NODE_FAIL (kill_running_job_by_node_name). Kept in the
 * store, so that it outlives a restart. */
#ifndef SL_NODEADMIN_H
#define SL_NODEADMIN_H

#include <json-c/json.h>
#include <stdint.h>
#include "sluiced.h"

#define SL_NODEADMIN_DRAIN 1u
#define SL_NODEADMIN_DOWN 2u

struct sl_nodeadmin;

/* The state stored for d->hostname (none: available). */
int sl_nodeadmin_load(struct sluiced *d, struct sl_nodeadmin **out, struct sl_err *err);
void sl_nodeadmin_free(struct sl_nodeadmin *a);

/* No job may start: the local node is drained or down. */
int sl_nodeadmin_blocks(const struct sluiced *d);
/* The node's record (PROTOCOL.md, NODE): "drain", "down" and the reason. */
void sl_nodeadmin_describe(const struct sluiced *d, json_object *node);
/* A pending job's reason while no job may start, as slurmctld gives it
 * for a partition whose nodes are all drained or down: Slurm's text into
 * *reason, the operator's reason into *text (both allocated). 0: none. */
int sl_nodeadmin_explain(const struct sluiced *d, char **reason, char **text);

/* nodecordon.c: NODE_UPDATE on an executor that cordons its own nodes
 * (exec.h's node_drain): names (a JSON array), state and reason as the
 * request has them. */
int sl_nodecordon_update(struct sluiced *d, const struct sl_peer *p, json_object *names,
			 const char *state, const char *reason, struct sl_err *err);

/* NODE_UPDATE (PROTOCOL.md), operators only. */
int sl_h_node_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err);

#endif
