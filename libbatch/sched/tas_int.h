/* tas_int.h - topology-aware scheduling's internals, shared by tas.c
 * (the inventory, the trees, usage, the engine's calls) and tas_place.c
 * (Kueue's placement algorithm). Not used outside sched/. */
#ifndef SL_TAS_INT_H
#define SL_TAS_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "sched_int.h"

#define TAS_HOSTNAME "kubernetes.io/hostname"
#define TAS_MSG_CAP 4096      /* interned messages; the last slot is a generic one */

/* One topology domain; leaves are the lowest level. The counters are the
 * placement's scratch (Kueue's domainState), reset for each pod set. */
struct tas_dom {
	int parent;              /* -1 for a root */
	int level;
	int *kids;
	int nkids, capkids;
	char **values;           /* [level + 1], borrowed from the node copies */
	char *id;                /* values joined by "," (owned) */
	int leaf;                /* leaf index at the lowest level, else -1 */
	int32_t pod, slice, pod_l, slice_l, leader;
};

struct tas_leaf {
	int dom;
	int *nodes;              /* node indices (one when the leaf is a host) */
	int nnodes;
	int64_t *free;           /* [nres] allocatable - usage outside the engine */
	int64_t *used;           /* [nres] what admitted workloads take */
	int64_t *assumed;        /* [nres] earlier pod sets of the workload being placed */
};

/* One TAS flavor: its topology over the nodes that carry every level's
 * label and the flavor's nodeLabels. */
struct tas_topo {
	int flv;                 /* engine flavor index */
	char *name;              /* the Topology's name */
	bool missing;            /* no such Topology object */
	int nlevels;
	char **levels;
	bool host_leaf;          /* lowest level is kubernetes.io/hostname */
	int ndom, capdom;
	struct tas_dom *dom;
	int nleaf;
	struct tas_leaf *leaf;
	int **lvl;               /* [nlevels] domain indices per level */
	int *nlvl;
};

struct tas_node {                /* deep copy of one inventory node */
	char *name;
	int nlabels, ntaints;
	struct sl_kq_kv *labels;
	struct sl_kq_taint *taints;
	int64_t *free;           /* [nres] */
	bool unavailable;        /* not Ready or unschedulable: left out */
	int64_t *used;           /* [nres] TAS usage of every flavor whose leaves are hosts */
	int64_t *assumed;        /* [nres] the same for the workload being placed */
};

struct sq_tas {
	int nres;
	char **res;              /* resource names seen on nodes; 0 is "pods" */
	int nnode;
	struct tas_node *node;
	int ntopo;
	struct tas_topo *t;
	int *topo_of_flv;        /* [nflv] -> t index or -1 */
	int nflv;
	char **msg;              /* interned failure messages (SQ_R_TAS) */
	size_t nmsg, capmsg;
	uint64_t gen;            /* bumps when the trees are rebuilt */
	struct sl_sched_topo_domain *outd;   /* sl_sched_topology() result */
	struct sq_wl **resv;     /* placements reserved for this cycle (sq_tas_reserve) */
	size_t nresv, capresv;
	struct sq_wl *pre;       /* preemptor being searched for (sq_tas_targets) */
	int pre_cq;
	const struct sq_assign *pre_a;
	size_t capoutd;
};

/* A pod set's request and, once placed, its assignment (leaf ids kept
 * as text so a rebuilt tree finds them again). */
struct sq_tps {
	bool has_req;
	enum sl_sched_topo_mode mode;
	char *level, *slice_level, *group;
	int32_t slice_size;
	int nlayers;             /* inner slice layers */
	char **layer_level;
	int32_t *layer_size;
	int topo;                /* assignment: tas_topo index, -1 none */
	uint64_t gen;
	int ndom;
	int *leaf;               /* [ndom] leaf index (valid while gen matches) */
	char **leaf_id;          /* [ndom] */
	int32_t *cnt;            /* [ndom] pods */
};

/* A pod set to place (tas_place.c): per-pod requests by TAS resource. */
struct tas_req {
	const struct sq_ps *ps;
	const struct sq_tps *tp;
	int32_t count;
	int64_t *per;            /* [nres] per-pod request, pods = 1 */
	int64_t *lead;           /* [nres] the group's leader, or NULL */
	const struct sl_kq_flavor *flv;
	bool implied;            /* no request: the ClusterQueue is TAS-only */
};

struct tas_pick {                /* result: leaves and counts */
	int n;
	int *leaf;
	int32_t *cnt;
	int nlead;
	int *lleaf;              /* the leader's leaf (one), when a group */
	int32_t *lcnt;
};

/* Place w (workers) and an optional leader on topology t; assumed usage is
 * already added to the leaves. Returns NULL and fills *pick, or Kueue's
 * failure message (caller frees). simulate_empty: ignore TAS usage. */
char *tas_place(const struct sq_tas *x, struct tas_topo *t, const struct tas_req *w,
		const struct tas_req *leader, bool simulate_empty, struct tas_pick *pick);
void tas_pick_free(struct tas_pick *p);
int tas_res_index(const struct sq_tas *x, const char *name);

/* Usage of leaf l of t. Kueue's TASHandleOverlappingFlavors (beta, on):
 * flavors whose leaves are hosts share one usage per node, so two flavors
 * over the same nodes do not both fill them; other leaves are per flavor. */
static inline int64_t *tas_used(const struct sq_tas *x, const struct tas_topo *t,
				const struct tas_leaf *l)
{
	return t->host_leaf ? x->node[l->nodes[0]].used : l->used;
}

static inline int64_t *tas_assumed(const struct sq_tas *x, const struct tas_topo *t,
				   const struct tas_leaf *l)
{
	return t->host_leaf ? x->node[l->nodes[0]].assumed : l->assumed;
}
int tas_level_index(const struct tas_topo *t, const char *label);

#endif
