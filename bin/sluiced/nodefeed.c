/* nodefeed.c - Kueue TAS on Kubernetes: the nodes the executor watches
 * (exec.h nodes(), refreshed on its on_nodes event, never polled) become
 * the engine's node inventory (sl_schedctl_set_nodes).
 *
 * A node is labels, taints, allocatable cpu, memory, nvidia.com/gpu and
 * pods (the kubelet's 110 when the API does not say), and as usage what
 * the pods Sluice's engine did not place take (*_other): the engine charges
 * its own TAS-placed pods through their assignments, so counting their
 * pods too would charge them twice. Not Ready or cordoned: not placeable.
 * The config's `nodes:`, when given, stays the inventory (the tests' and
 * `sluice simulate`'s), and the cluster's are ignored.
 * Cost: a watch event costs one pass over the nodes (a digest); the engine
 * is fed, which recharges every admitted workload, only when the digest
 * changed. */
#include "nodefeed.h"

#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "kueue.h"
#include "log.h"
#include "schedule.h"
#include "xalloc.h"

#define KUBELET_MAX_PODS 110

struct sl_nodefeed {
	uint64_t digest;            /* of the inventory last fed; 0: none */
	size_t n, up;               /* its nodes, and how many are placeable */
	struct sl_sched_node *nodes;
	struct sl_sched_label *labels;
	struct sl_sched_taint *taints;
	struct sl_sched_req *reqs;
	size_t cap, caplabels, captaints, capreqs;
};

struct sl_nodefeed *sl_nodefeed_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_nodefeed));
}

void sl_nodefeed_free(struct sl_nodefeed *f)
{
	if (f == NULL)
		return;
	free(f->nodes);
	free(f->labels);
	free(f->taints);
	free(f->reqs);
	free(f);
}

static uint64_t mix_s(uint64_t h, const char *s)
{
	for (; s != NULL && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* "ab","c" is not "a","bc" */
}

static uint64_t mix_i(uint64_t h, int64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (uint64_t)(v & 0xff)) * 0x100000001b3ULL;
	return h;
}

/* A node's requests: allocatable first, then usage; returns how many. */
static size_t node_reqs(const struct sl_exec_node *e, struct sl_sched_req *r, size_t *nalloc)
{
	size_t n = 0;
	r[n++] = (struct sl_sched_req){"cpu", e->cpu};
	r[n++] = (struct sl_sched_req){"memory", e->mem * 1000};
	r[n++] = (struct sl_sched_req){"pods", (e->pods > 0 ? e->pods : KUBELET_MAX_PODS) * 1000};
	if (e->gpu > 0) /* as the kubelet: no GPU, no such resource */
		r[n++] = (struct sl_sched_req){"nvidia.com/gpu", e->gpu * 1000};
	*nalloc = n;
	r[n++] = (struct sl_sched_req){"cpu", e->cpu_other};
	r[n++] = (struct sl_sched_req){"memory", e->mem_other * 1000};
	r[n++] = (struct sl_sched_req){"pods", e->pods_other * 1000};
	if (e->gpu_other > 0)
		r[n++] = (struct sl_sched_req){"nvidia.com/gpu", e->gpu_other * 1000};
	return n;
}

uint64_t sl_nodefeed_view(struct sl_nodefeed *f, const struct sl_exec_node *v, size_t n,
			  const struct sl_sched_node **out)
{
	size_t nl = 0, nt = 0, nr = 0;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++) {
		nl += v[i].nlabels;
		nt += v[i].ntaints;
	}
	f->nodes = sl_xgrow(f->nodes, &f->cap, n + 1, sizeof(*f->nodes));
	f->labels = sl_xgrow(f->labels, &f->caplabels, nl + 1, sizeof(*f->labels));
	f->taints = sl_xgrow(f->taints, &f->captaints, nt + 1, sizeof(*f->taints));
	f->reqs = sl_xgrow(f->reqs, &f->capreqs, 8 * n + 1, sizeof(*f->reqs));
	nl = nt = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sl_exec_node *e = &v[i];
		struct sl_sched_node *o = &f->nodes[i];
		size_t na, k = node_reqs(e, f->reqs + nr, &na);

		*o = (struct sl_sched_node){.name = e->name, .nlabels = e->nlabels,
					    .labels = f->labels + nl, .ntaints = e->ntaints,
					    .taints = f->taints + nt, .nalloc = na,
					    .alloc = f->reqs + nr, .nusage = k - na,
					    .usage = f->reqs + nr + na,
					    .unavailable = !e->ready || e->unschedulable};
		h = mix_i(mix_s(h, e->name), o->unavailable);
		for (size_t j = 0; j < e->nlabels; j++) {
			f->labels[nl++] = (struct sl_sched_label){e->labels[j].key, e->labels[j].value};
			h = mix_s(mix_s(h, e->labels[j].key), e->labels[j].value);
		}
		for (size_t j = 0; j < e->ntaints; j++) {
			f->taints[nt++] = (struct sl_sched_taint){e->taints[j].key, e->taints[j].value,
								  e->taints[j].effect};
			h = mix_s(mix_s(mix_s(h, e->taints[j].key), e->taints[j].value),
				  e->taints[j].effect);
		}
		for (size_t j = 0; j < k; j++)
			h = mix_i(mix_s(h, f->reqs[nr + j].resource), f->reqs[nr + j].milli);
		h = mix_i(h, (int64_t)na);
		nr += k;
	}
	*out = f->nodes;
	return h != 0 ? h : 1;
}

/* Does the engine place pods on nodes at all, and on the cluster's? */
static int wanted(const struct sluiced *d)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	if (d->executor->nodes == NULL || k->has_nodes)
		return 0;
	for (size_t i = 0; i < k->nflavors; i++)
		if (k->flavors[i].topology != NULL)
			return 1;
	return 0;
}

void sl_nodefeed_run(struct sl_nodefeed *f, struct sluiced *d, int force)
{
	const struct sl_exec_node *v;
	const struct sl_sched_node *sn;
	struct sl_err err = SL_ERR_INIT;
	size_t n, up = 0;
	uint64_t h;

	if (!wanted(d)) {
		f->digest = 0; /* a topology configured later feeds at once */
		return;
	}
	n = d->executor->nodes(d->exec, &v);
	h = sl_nodefeed_view(f, v, n, &sn);
	if (h == f->digest && !force)
		return;
	if (sl_schedctl_set_nodes(d->sched, sn, n, &err) != 0) {
		sl_err_log("topology: nodes not taken: %s", err.msg);
		return;
	}
	for (size_t i = 0; i < n; i++)
		up += !sn[i].unavailable;
	/* said when the counts change: a cordon, a node lost or added */
	if (f->digest == 0 || n != f->n || up != f->up)
		sl_info("topology: %zu nodes from the cluster, %zu placeable", n, up);
	else
		sl_debug("topology: %zu nodes from the cluster, %zu placeable", n, up);
	f->digest = h;
	f->n = n;
	f->up = up;
}
