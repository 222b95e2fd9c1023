/* store_nodes.h - an operator's state of a node or a partition (scontrol
 * update NodeName, PartitionName) in the store (tables `nodes` and
 * `partitions`, created on first use), written in the loop turn's
 * transaction like jobs, so that a drain outlives a restart. */
#ifndef SL_STORE_NODES_H
#define SL_STORE_NODES_H

#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "store.h"

struct sl_store_node {
	char *name;
	unsigned flags;      /* nodeadmin.h's SL_NODEADMIN_* */
	char *reason, *user; /* NULL: none */
	uid_t uid;
	int64_t time;
};

/* Write n (replacing its row; no flags and no reason: the row goes), in
 * the open transaction (sl_store_begin first). */
int sl_store_node_put(struct sl_store *s, const struct sl_store_node *n, struct sl_err *err);
/* The row of name into *out (strings the caller frees with
 * sl_store_node_clear); -SL_ENOENT when there is none. */
int sl_store_node_get(struct sl_store *s, const char *name, struct sl_store_node *out,
		      struct sl_err *err);
void sl_store_node_clear(struct sl_store_node *n);

struct sl_store_part {
	char *name;          /* the partition (its LocalQueue name) */
	char *state;         /* DOWN, DRAIN or INACTIVE */
	char *user;
	uid_t uid;
	int64_t time;
};
/* Write p (state NULL or UP: its row goes), in the open transaction. */
int sl_store_part_put(struct sl_store *s, const struct sl_store_part *p, struct sl_err *err);
/* Every row, by name (caller frees with sl_store_part_free). */
int sl_store_parts(struct sl_store *s, struct sl_store_part **out, size_t *n,
		   struct sl_err *err);
void sl_store_part_free(struct sl_store_part *v, size_t n);

#endif
