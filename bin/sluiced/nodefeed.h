/* nodefeed.h - Kueue TAS's node inventory from the executor's nodes
 * (Kubernetes: the Nodes and Pods it watches) into the engine. */
#ifndef SL_NODEFEED_H
#define SL_NODEFEED_H

#include <stddef.h>
#include <stdint.h>
#include "exec.h"
#include "sched/sched.h"
#include "sluiced.h"

struct sl_nodefeed;

struct sl_nodefeed *sl_nodefeed_new(void);
void sl_nodefeed_free(struct sl_nodefeed *f);
/* The executor's nodes changed (on_nodes), or the config did (force 1,
 * after SIGHUP): feed the engine when a ResourceFlavor has a topologyName
 * and the config gives no `nodes:` (the config wins). An inventory equal
 * to the last one fed is not fed again. */
void sl_nodefeed_run(struct sl_nodefeed *f, struct sluiced *d, int force);

/* The conversion, for tests: v[n] as engine nodes into out (n entries;
 * strings borrowed from v, arrays from the view, valid until the next
 * call or sl_nodefeed_free). Returns its digest. */
uint64_t sl_nodefeed_view(struct sl_nodefeed *f, const struct sl_exec_node *v, size_t n,
			  const struct sl_sched_node **out);

#endif
