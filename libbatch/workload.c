/* workload.c - job -> Kueue workload. */
#include "workload.h"
#include "array.h"
#include "features.h"
#include "kueue.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define MIB_MILLI (1048576LL * 1000)

/* Add one feature's labels to out; what -C asks and what --gres asks land
 * in one map, so two features disagreeing on a key can never be met. */
static int merge(const char *what, const char *name, const struct sl_feature_label *l,
		 size_t nl, struct sl_sched_label *out, size_t cap, size_t *n,
		 struct sl_err *err)
{
	size_t i, k;

	for (i = 0; i < nl; i++) {
		for (k = 0; k < *n && strcmp(out[k].key, l[i].key) != 0; k++)
			;
		if (k < *n && strcmp(out[k].value, l[i].value) != 0)
			return sl_err_set(err, SL_EINVAL, "%s %s wants node label %s=%s, which "
					  "another feature of the job sets to %s\nInvalid "
					  "feature specification", what, name, l[i].key,
					  l[i].value, out[k].value);
		if (k < *n)
			continue;
		if (*n == cap)
			return sl_err_set(err, SL_EINVAL, "the job's features select more than "
					  "%zu node labels\nInvalid feature specification", cap);
		out[(*n)++] = (struct sl_sched_label){l[i].key, l[i].value};
	}
	return 0;
}

int sl_job_node_selector(const struct sl_jobspec *s, const struct sl_features *f,
			 struct sl_sched_label *out, size_t cap, size_t *n,
			 struct sl_err *err)
{
	const struct sl_feature_label *l;
	size_t nl, i;
	int r;

	*n = 0;
	for (i = 0; s->features != NULL && s->features[i] != NULL; i++) {
		/* Slurm's exact text: a user's typo is not the place to list the
		 * site's features. */
		if ((l = sl_features_get(f, s->features[i], &nl)) == NULL)
			return sl_err_set(err, SL_EINVAL, "Invalid feature specification");
		if ((r = merge("feature", s->features[i], l, nl, out, cap, n, err)) != 0)
			return r;
	}
	if (s->gpu_type == NULL)
		return 0;
	/* Kubernetes has no GPU types, only node labels: an unmapped type
	 * silently dropped would run the job on any GPU. */
	if ((l = sl_features_get(f, s->gpu_type, &nl)) == NULL)
		return sl_err_set(err, SL_EINVAL, "GPU type \"%s\" has no node labels: add "
				  "features.%s to the SluiceConfiguration\nInvalid generic "
				  "resource (gres) specification", s->gpu_type, s->gpu_type);
	return merge("GPU type", s->gpu_type, l, nl, out, cap, n, err);
}

/* -N MIN-MAX is Kueue's partial admission: count MAX, minCount MIN, as many
 * pods as the quota allows. A pod's requests must not depend on how many
 * there are, so totals spread over the nodes (-n, --gpus) cannot come with
 * a range. Returns the minCount, or 0 for all or nothing. */
static int node_range(const struct sl_jobspec *s, const struct sl_jobshape *sh, int *count,
		      struct sl_err *err)
{
	*count = sh->nodes;
	if (s->nodes_max == SL_NO_VAL || s->nodes_max <= sh->nodes || s->use_min_nodes)
		return 0;
	if ((s->ntasks != SL_NO_VAL && s->ntasks > 0 &&
	     (s->ntasks_per_node == SL_NO_VAL || s->ntasks_per_node <= 0)) ||
	    (s->gpus != SL_NO_VAL && s->gpus > 0))
		return sl_err_set(err, SL_EUNSUPP, "--nodes=%d-%d with a total of %s is not "
				  "supported by Sluice: a node's share would depend on how many "
				  "nodes are given; use --ntasks-per-node or --gpus-per-node, or "
				  "one node count", sh->nodes, s->nodes_max,
				  s->gpus > 0 && s->gpus != SL_NO_VAL ? "--gpus" : "--ntasks");
	*count = s->nodes_max;
	return sh->nodes;
}

/* Kueue's priorities are int32; the record's (a QOS's value less --nice)
 * can go past either end, which must not wrap round to the other. */
static int32_t wl_priority(int64_t p)
{
	return p > INT32_MAX ? INT32_MAX : p < INT32_MIN ? INT32_MIN : (int32_t)p;
}

/* The engine's FIFO order is the order of submission: ids, doubled, so
 * that an array's last task, which holds the array's own id N (array.h),
 * comes after the array's other tasks and before the next job. */
static int64_t fifo_key(const struct sl_job *j)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *a = NULL;
	int64_t key = 2 * (int64_t)j->id;

	if (j->array_job_id != 0 && j->id == j->array_job_id && j->spec.array != NULL &&
	    sl_array_parse(j->spec.array, SL_ARRAY_MAX_LIMIT, &a, &e) == 0)
		key += 2 * ((int64_t)sl_array_count(a) - 1) + 1;
	sl_array_free(a);
	return key;
}

int sl_job_workload(const struct sl_job *j, const struct sl_features *f,
		    struct sl_job_wl *b, struct sl_err *err)
{
	struct sl_jobshape sh;
	size_t n = 0, nsel = 0;
	int r, count, min_count;

	memset(b, 0, sizeof(*b));
	/* Checked at submit; a record from before that check (or from the
	 * store, edited) is refused here rather than wrapped into a small or
	 * negative request that Kueue would admit. */
	if ((r = sl_jobspec_shape_check(&j->spec, &sh, err)) != 0)
		return r;
	if ((min_count = node_range(&j->spec, &sh, &count, err)) < 0)
		return min_count;
	b->req[n++] = (struct sl_sched_req){"cpu", (int64_t)sh.cpus_per_node * 1000};
	if (sh.mem_per_node > 0)
		b->req[n++] = (struct sl_sched_req){"memory", sh.mem_per_node * MIB_MILLI};
	if (sh.gpus_per_node > 0)
		b->req[n++] = (struct sl_sched_req){"nvidia.com/gpu",
						    (int64_t)sh.gpus_per_node * 1000};
	r = sl_job_node_selector(&j->spec, f, b->sel, SL_JOB_WL_LABELS, &nsel, err);
	if (r != 0)
		nsel = 0;
	b->ps = (struct sl_sched_podset){.name = "main", .count = count, .min_count = min_count,
					 .nreq = n,
					 .req = b->req, .nsel = nsel,
					 .node_selector = nsel ? b->sel : NULL};
	/* checked at submit: a record edited since is refused like a bad shape */
	int tr = sl_sched_topo_parse(j->spec.topology, j->spec.switches, j->spec.wait4switch,
				     &b->topo, b->topo_layers, 4, b->topo_buf, sizeof(b->topo_buf), err);
	if (tr < 0)
		return tr;
	if (tr == 0)
		b->ps.topology = &b->topo;
	if (j->spec.account == NULL || sl_conf_k8s_name(j->spec.account, b->ns) != 0)
		snprintf(b->ns, sizeof(b->ns), "%s", j->spec.account ? j->spec.account : "");
	if (j->spec.partition == NULL || sl_conf_k8s_name(j->spec.partition, b->queue) != 0)
		snprintf(b->queue, sizeof(b->queue), "%s", j->spec.partition ? j->spec.partition : "");
	b->wl = (struct sl_sched_wl){.id = j->id, .name = j->spec.name,
				     .ns = j->spec.account ? b->ns : NULL,
				     .queue = j->spec.partition ? b->queue : NULL,
				     .priority = wl_priority(j->priority),
				     .created = fifo_key(j), .npodsets = 1, .podsets = &b->ps};
	return r;
}

static int cq_labels_key(const struct sl_kueue *k, const struct sl_kq_cq *cq, const char *key)
{
	for (size_t g = 0; g < cq->nrg; g++)
		for (size_t i = 0; i < cq->rg[g].nflavors; i++) {
			const struct sl_kq_flavor *f = sl_kueue_find_flavor(k, cq->rg[g].flavors[i].flavor);
			for (size_t l = 0; f != NULL && l < f->nlabels; l++)
				if (strcmp(f->labels[l].key, key) == 0)
					return 1;
		}
	return 0;
}

int sl_job_selector_known(const struct sl_kueue *k, const struct sl_job_wl *b,
			  struct sl_err *err)
{
	const char *name = sl_kueue_lq_cluster_queue(k, b->wl.ns ? b->wl.ns : "default",
						     b->wl.queue ? b->wl.queue : "");
	const struct sl_kq_cq *cq = name ? sl_kueue_find_cq(k, name) : NULL;

	for (size_t i = 0; cq != NULL && i < b->ps.nsel; i++)
		if (!cq_labels_key(k, cq, b->ps.node_selector[i].key))
			return sl_err_set(err, SL_EINVAL, "no ResourceFlavor of ClusterQueue %s "
					  "labels %s, so %s=%s would select nothing\nInvalid "
					  "feature specification", cq->name,
					  b->ps.node_selector[i].key, b->ps.node_selector[i].key,
					  b->ps.node_selector[i].value);
	return 0;
}
