/* store_nodes.h - an operator's state of a node (scontrol update NodeName)
 * in the store (table `nodes`, created on first use), written in the loop
 * turn's transaction like jobs, so that a drain outlives a restart. */
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

#endif
