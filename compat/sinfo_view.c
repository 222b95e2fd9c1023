/* sinfo_view.c - Sluice's partitions as sinfo sees them, and --quota.
 *
 * A partition's node is this host (local executor) seen through the
 * partition's ClusterQueue quota: CPUs, memory and GPUs are the nominal
 * quota of its flavors (or what it uses, when it borrows more), so the
 * numbers match what can be admitted, not the machine's cores. Its state
 * follows Slurm's meaning: idle when nothing is admitted, allocated when
 * every CPU of the quota is in use, mixed in between; drained (or draining,
 * while jobs still run) when a stop policy holds the partition, whose
 * AVAIL is then down; down when its ClusterQueue is inactive.
 *
 * On Kubernetes the nodes are the cluster's (the daemon watches them): each
 * is in the partitions whose flavors place pods on it, with its own state
 * (knode_state()). */
#include "sinfo_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quantity.h"
#include "xalloc.h"

#define MIB (1000LL * 1024 * 1024) /* milli-units of one MiB */

struct sl_sinfo_built {
	struct sl_sinfo_view view;
	struct sl_sinfo_part *parts;
	struct sl_sinfo_node *nodes;   /* one per partition */
	struct sl_sinfo_node whole;    /* the node itself, for --json */
	struct sl_sinfo_node *knodes;  /* an executor's own nodes, once each */
	const char **partnames;
	char **owned;                  /* strings the view points to */
	size_t nowned, capowned;
};

/* A kind: Partition's settings (-1 not set, -2 UNLIMITED) as sinfo and
 * scontrol show them. */
static void part_settings(const struct sl_partinfo *p, struct sl_sinfo_part *sp)
{
	sp->max_time = p->max_time >= 0 ? p->max_time : SL_SINFO_INFINITE;
	sp->default_time = p->default_time >= 0 ? p->default_time
			   : p->default_time == -2 ? SL_SINFO_INFINITE : SL_SINFO_UNSET;
	sp->max_nodes = p->max_nodes > 0 ? (uint32_t)p->max_nodes : 0;
	sp->min_nodes = p->min_nodes > 0 ? (uint32_t)p->min_nodes : 0;
	sp->def_mem_per_cpu = p->def_mem_per_cpu >= 0;
	sp->def_mem = p->def_mem_per_cpu >= 0 ? p->def_mem_per_cpu
		      : p->def_mem_per_node >= 0 ? p->def_mem_per_node : -1;
	sp->max_mem_per_cpu = p->max_mem_per_cpu >= 0;
	sp->max_mem = p->max_mem_per_cpu >= 0 ? p->max_mem_per_cpu
		      : p->max_mem_per_node >= 0 ? p->max_mem_per_node : -1;
}

static const char *own(struct sl_sinfo_built *b, char *s)
{
	b->owned = sl_xgrow(b->owned, &b->capowned, b->nowned + 1, sizeof(*b->owned));
	b->owned[b->nowned++] = s;
	return s;
}

/* "a,b" from a NULL-terminated list; NULL when empty. */
static char *join(char *const *v)
{
	size_t len = 0;
	char *s;
	if (v == NULL || v[0] == NULL)
		return NULL;
	for (char *const *p = v; *p; p++)
		len += strlen(*p) + 1;
	s = sl_xcalloc(len + 1, 1);
	for (char *const *p = v; *p; p++) {
		if (p != v)
			strcat(s, ",");
		strcat(s, *p);
	}
	return s;
}

static int is_gpu(const char *res)
{
	size_t n = strlen(res);
	return strcmp(res, "gpu") == 0 || (n >= 4 && strcmp(res + n - 4, "/gpu") == 0);
}

/* Quota rows summed the way sinfo counts a node. */
struct totals {
	int64_t cpu, cpu_used, mem, mem_used, gpu, gpu_used;
	int has_cpu, any_quota, all_full, any_used;
};

static void add_row(struct totals *t, const struct sl_quota_row *q)
{
	if (strcmp(q->resource, "cpu") == 0) {
		t->has_cpu = 1;
		t->cpu += q->nominal;
		t->cpu_used += q->used;
	} else if (strcmp(q->resource, "memory") == 0) {
		t->mem += q->nominal;
		t->mem_used += q->used;
	} else if (is_gpu(q->resource)) {
		t->gpu += q->nominal;
		t->gpu_used += q->used;
	}
	if (q->nominal > 0) {
		t->all_full = (t->any_quota ? t->all_full : 1) && q->used >= q->nominal;
		t->any_quota = 1;
	}
	t->any_used |= q->used > 0;
}

static uint32_t whole_units(int64_t milli)
{
	return (uint32_t)((milli + 999) / 1000);
}

static unsigned state_of(const struct totals *t, int64_t admitted, enum sl_part_avail avail)
{
	int full = t->has_cpu ? t->cpu_used > 0 && t->cpu_used >= t->cpu
			      : t->any_quota && t->all_full && t->any_used;
	unsigned s;
	if (avail == SL_PART_INACTIVE)
		return SL_NODE_DOWN;
	s = admitted == 0 && !t->any_used ? SL_NODE_IDLE : full ? SL_NODE_ALLOCATED : SL_NODE_MIXED;
	return s | (avail == SL_PART_DOWN ? SL_NODE_DRAIN : 0);
}

/* The node of one partition (or of all, for the whole node). */
static void fill_node(struct sl_sinfo_built *b, struct sl_sinfo_node *n, const struct totals *t,
		      int64_t admitted, enum sl_part_avail avail, const struct sl_partinfo *why,
		      const struct sl_nodeinfo *ni, int64_t now)
{
	int64_t cpu = t->cpu > t->cpu_used ? t->cpu : t->cpu_used;
	int64_t mem = t->mem > t->mem_used ? t->mem : t->mem_used;
	int64_t gpu = t->gpu > t->gpu_used ? t->gpu : t->gpu_used;

	n->name = ni->name;
	n->addr = ni->name;
	n->arch = ni->arch;
	n->os = ni->os;
	n->boot_time = ni->boot_time;
	n->start_time = ni->start_time;
	n->cpu_load = (uint32_t)ni->cpu_load;
	n->free_mem = (uint64_t)ni->free_mem;
	n->tmp_disk = ni->tmp_disk > 0 ? (uint64_t)ni->tmp_disk : 0;
	n->cpus = whole_units(cpu);
	n->cpus_alloc = whole_units(t->cpu_used);
	if (n->cpus_alloc > n->cpus)
		n->cpus_alloc = n->cpus;
	n->mem = (uint64_t)(mem / MIB);
	n->mem_alloc = (uint64_t)(t->mem_used / MIB);
	if (gpu > 0) {
		n->gres = own(b, sl_xasprintf("gpu:%u", whole_units(gpu)));
		n->gres_used = own(b, sl_xasprintf("gpu:%u", whole_units(t->gpu_used)));
	}
	n->state = state_of(t, admitted, avail);
	n->last_busy = (n->state & SL_NODE_BASE) == SL_NODE_IDLE ? ni->start_time : now;
	/* an operator's DOWN or DRAIN (scontrol update NodeName) over the
	 * partition's own: a down node keeps its drain flag, as slurmctld's */
	if (ni->down)
		n->state = (n->state & ~SL_NODE_BASE) | SL_NODE_DOWN;
	if (ni->drain)
		n->state |= SL_NODE_DRAIN;
	n->reason_uid = SL_SINFO_NO_VAL;
	if ((ni->down || ni->drain) && ni->reason != NULL) {
		n->reason = ni->reason;
		n->reason_user = ni->reason_user;
		n->reason_uid = ni->reason_uid;
		n->reason_time = ni->reason_time;
	} else if (avail != SL_PART_UP && why != NULL) {
		n->reason = why->reason;
		n->reason_user = why->reason_user;
		n->reason_uid = why->reason_uid;
		n->reason_time = why->reason_time;
	}
}

static int row_seen(const struct sl_clusterinfo *ci, size_t pi, size_t qi)
{
	const struct sl_quota_row *q = &ci->parts[pi].quota[qi];
	for (size_t i = 0; i <= pi; i++)
		for (size_t j = 0; j < (i == pi ? qi : ci->parts[i].nquota); j++) {
			const struct sl_quota_row *o = &ci->parts[i].quota[j];
			if (strcmp(o->cluster_queue, q->cluster_queue) == 0 &&
			    strcmp(o->flavor, q->flavor) == 0 &&
			    strcmp(o->resource, q->resource) == 0)
				return 1;
		}
	return 0;
}

/* The whole node: every ClusterQueue's quota once; drained only when every
 * partition is held, down only when every one is inactive. */
static void whole_node(struct sl_sinfo_built *b, const struct sl_clusterinfo *ci)
{
	struct totals t = {0};
	const struct sl_partinfo *why = NULL;
	enum sl_part_avail avail = SL_PART_INACTIVE;
	int64_t admitted = 0;
	char **feats = sl_xcalloc(1, sizeof(*feats));
	size_t nf = 0;

	for (size_t i = 0; i < ci->nparts; i++) {
		const struct sl_partinfo *p = &ci->parts[i];
		for (size_t j = 0; j < p->nquota; j++)
			if (!row_seen(ci, i, j))
				add_row(&t, &p->quota[j]);
		admitted += p->admitted;
		if (p->avail < avail)
			avail = p->avail;
		if (why == NULL && p->avail != SL_PART_UP)
			why = p;
		for (char **f = p->features; f && *f; f++) {
			size_t k = 0;
			while (k < nf && strcmp(feats[k], *f) != 0)
				k++;
			if (k == nf) {
				feats = sl_xrealloc(feats, (nf + 2) * sizeof(*feats));
				feats[nf++] = *f;
				feats[nf] = NULL;
			}
		}
	}
	if (ci->nparts == 0)
		avail = SL_PART_UP;
	fill_node(b, &b->whole, &t, admitted, avail, why, ci->node, ci->now);
	b->whole.features = nf ? own(b, join(feats)) : NULL;
	b->whole.partitions = b->partnames;
	free(feats);
}

/* ---- an executor's own nodes (Kubernetes) ---- */

/* Slurm's state of a Kubernetes node: down when not Ready (down*, not
 * responding, when the kubelet stopped posting status), else idle when its pods request nothing, allocated
 * when they request every CPU, mixed in between; drained when cordoned. */
static unsigned knode_state(const struct sl_knodeinfo *k)
{
	unsigned s = !k->ready ? SL_NODE_DOWN
		     : k->cpus_alloc == 0 && k->mem_alloc == 0 && k->gpus_alloc == 0 ? SL_NODE_IDLE
		     : k->cpus_alloc >= k->cpus ? SL_NODE_ALLOCATED : SL_NODE_MIXED;
	return s | (k->unschedulable ? SL_NODE_DRAIN : 0) |
	       (!k->ready && k->no_respond ? SL_NODE_NO_RESPOND : 0);
}

/* Its FreeMem is the memory no pod requests (no metrics are read), its
 * load 0: Kubernetes reports neither. */
static void knode_fill(struct sl_sinfo_built *b, struct sl_sinfo_node *n,
		       const struct sl_knodeinfo *k, int64_t now)
{
	n->name = n->addr = k->name;
	n->arch = k->arch;
	n->os = k->os;
	n->version = k->version;
	n->boot_time = n->start_time = k->boot_time;
	n->cpus = (uint32_t)k->cpus;
	n->cpus_alloc = (uint32_t)(k->cpus_alloc < k->cpus ? k->cpus_alloc : k->cpus);
	n->mem = (uint64_t)k->mem;
	n->mem_alloc = (uint64_t)k->mem_alloc;
	n->free_mem = k->mem > k->mem_alloc ? (uint64_t)(k->mem - k->mem_alloc) : 0;
	n->features = k->features && *k->features ? k->features : NULL;
	if (k->gpus > 0) {
		n->gres = own(b, sl_xasprintf("gpu:%lld", (long long)k->gpus));
		n->gres_used = own(b, sl_xasprintf("gpu:%lld", (long long)k->gpus_alloc));
	}
	n->state = knode_state(k);
	n->last_busy = (n->state & SL_NODE_BASE) == SL_NODE_IDLE ? k->boot_time : now;
	n->reason_uid = SL_SINFO_NO_VAL;
	if (k->reason != NULL) {
		n->reason = k->reason;
		n->reason_user = k->reason_user;
		n->reason_uid = k->reason_uid;
		n->reason_time = k->reason_time;
	}
	n->partitions = (const char *const *)k->partitions;
}

static int in_part(const struct sl_knodeinfo *k, const char *part)
{
	for (char **p = k->partitions; p && *p; p++)
		if (strcmp(*p, part) == 0)
			return 1;
	return 0;
}

/* Each partition's nodes, in a run of b->nodes; every node once in
 * view.nodes (b->knodes) for --json. */
static void kube_nodes(struct sl_sinfo_built *b, const struct sl_clusterinfo *ci)
{
	size_t total = 0, at = 0;

	for (size_t i = 0; i < ci->nparts; i++)
		for (size_t k = 0; k < ci->nknodes; k++)
			total += in_part(&ci->knodes[k], ci->parts[i].name);
	free(b->nodes);
	b->nodes = sl_xcalloc(total + 1, sizeof(*b->nodes));
	for (size_t i = 0; i < ci->nparts; i++) {
		b->parts[i].nodes = &b->nodes[at];
		for (size_t k = 0; k < ci->nknodes; k++)
			if (in_part(&ci->knodes[k], ci->parts[i].name))
				knode_fill(b, &b->nodes[at++], &ci->knodes[k], ci->now);
		b->parts[i].nnodes = (size_t)(&b->nodes[at] - b->parts[i].nodes);
	}
	b->knodes = sl_xcalloc(ci->nknodes + 1, sizeof(*b->knodes));
	for (size_t k = 0; k < ci->nknodes; k++)
		knode_fill(b, &b->knodes[k], &ci->knodes[k], ci->now);
	b->view.nnodes = ci->nknodes;
	b->view.nodes = b->knodes;
}

struct sl_sinfo_built *sl_sinfo_build(const struct sl_clusterinfo *ci)
{
	struct sl_sinfo_built *b = sl_xcalloc(1, sizeof(*b));
	size_t n = ci->nparts;

	b->parts = sl_xcalloc(n + 1, sizeof(*b->parts));
	b->nodes = sl_xcalloc(n + 1, sizeof(*b->nodes));
	b->partnames = sl_xcalloc(n + 1, sizeof(*b->partnames));
	for (size_t i = 0; i < n; i++) {
		const struct sl_partinfo *p = &ci->parts[i];
		struct sl_sinfo_part *sp = &b->parts[i];
		struct totals t = {0};
		char *feats = join(p->features);
		b->partnames[i] = p->name;
		sp->name = p->name;
		sp->is_default = p->is_default;
		sp->avail = p->admin != SL_PART_UP ? p->admin : p->avail; /* an operator's first */
		part_settings(p, sp);
		sp->features = feats ? own(b, feats) : NULL;
		if (ci->node == NULL)
			continue;
		for (size_t j = 0; j < p->nquota; j++)
			add_row(&t, &p->quota[j]);
		fill_node(b, &b->nodes[i], &t, p->admitted, p->avail, p, ci->node, ci->now);
		b->nodes[i].features = sp->features;
		b->nodes[i].partitions = b->partnames;
		sp->nnodes = 1;
		sp->nodes = &b->nodes[i];
	}
	b->view.nparts = n;
	b->view.parts = b->parts;
	if (ci->node == NULL && ci->nknodes > 0)
		kube_nodes(b, ci);
	if (ci->node != NULL) {
		whole_node(b, ci);
		b->view.nnodes = 1;
		b->view.nodes = &b->whole;
	}
	return b;
}

const struct sl_sinfo_view *sl_sinfo_built_view(const struct sl_sinfo_built *b)
{
	return &b->view;
}

void sl_sinfo_built_free(struct sl_sinfo_built *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->nowned; i++)
		free(b->owned[i]);
	free(b->owned);
	free(b->parts);
	free(b->nodes);
	free(b->knodes);
	free(b->partnames);
	free(b);
}

/* ---- --quota ---- */

#define QCOLS 9

static int listed(char *const *parts, const char *name)
{
	if (parts == NULL)
		return 1;
	for (; *parts; parts++)
		if (strcmp(*parts, name) == 0)
			return 1;
	return 0;
}

static int put_row(struct sl_buf *out, char cells[][64], const size_t *w)
{
	int r = 0;
	for (int c = 0; r == 0 && c < QCOLS; c++) {
		size_t len = strlen(cells[c]);
		r = sl_buf_addstr(out, cells[c]);
		if (c + 1 < QCOLS)
			r = r ? r : sl_buf_addf(out, "%*s", (int)(w[c] - len + 3), "");
	}
	return r ? r : sl_buf_addc(out, '\n');
}

static void quota_cells(const struct sl_partinfo *p, const struct sl_quota_row *q,
			char cells[][64])
{
	snprintf(cells[0], 64, "%s", p->name);
	snprintf(cells[1], 64, "%s", q->cluster_queue);
	snprintf(cells[2], 64, "%s", q->flavor);
	snprintf(cells[3], 64, "%s", q->resource);
	sl_quantity_format(q->nominal, cells[4], 64);
	sl_quantity_format(q->borrowed, cells[5], 64);
	sl_quantity_format(q->lent, cells[6], 64);
	sl_quantity_format(q->used, cells[7], 64);
	snprintf(cells[8], 64, "%lld", (long long)q->pending);
}

int sl_sinfo_quota(const struct sl_clusterinfo *ci, char *const *parts, int no_header,
		   struct sl_buf *out)
{
	static const char *const head[QCOLS] = {"PARTITION", "CLUSTERQUEUE", "FLAVOR",
						 "RESOURCE", "NOMINAL", "BORROWED",
						 "LENT", "USED", "PENDING"};
	char cells[QCOLS][64];
	size_t w[QCOLS];
	int r = 0;

	for (int c = 0; c < QCOLS; c++)
		w[c] = no_header ? 0 : strlen(head[c]);
	for (int pass = 0; pass < 2 && r == 0; pass++) {
		if (pass == 1 && !no_header) {
			for (int c = 0; c < QCOLS; c++)
				snprintf(cells[c], 64, "%s", head[c]);
			r = put_row(out, cells, w);
		}
		for (size_t i = 0; r == 0 && i < ci->nparts; i++) {
			const struct sl_partinfo *p = &ci->parts[i];
			if (!listed(parts, p->name))
				continue;
			for (size_t j = 0; r == 0 && j < p->nquota; j++) {
				quota_cells(p, &p->quota[j], cells);
				for (int c = 0; pass == 0 && c < QCOLS; c++)
					if (strlen(cells[c]) > w[c])
						w[c] = strlen(cells[c]);
				if (pass == 1)
					r = put_row(out, cells, w);
			}
		}
	}
	return r;
}
