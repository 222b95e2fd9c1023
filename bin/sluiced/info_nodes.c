/* info_nodes.c - the nodes of an executor that has its own (Kubernetes'
 * Nodes), for the partitions request (sinfo, scontrol show node): each as
 * sinfo counts a node, and in the partitions whose ClusterQueues' flavors
 * would place pods on it, Kueue's way (the flavor's nodeLabels on the node,
 * its tolerations covering the node's NoSchedule/NoExecute taints). A
 * cordoned or NotReady node stays in its partitions: its state says so.
 * Read-only. */
#include "info_nodes.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "conf.h"
#include "exec.h"
#include "kueue.h"
#include "slurm_state.h"

/* An operator's uid, by the name a cordon's annotation keeps (squeue -u's
 * lookup, slurm_state.h). */
static int64_t uid_of(const char *user, uid_t dflt)
{
	struct sl_err err = SL_ERR_INIT;
	uid_t *v = NULL;
	size_t n = 0;
	int64_t uid = sl_slurm_users_parse(user, &v, &n, &err) == 0 && n == 1 ? v[0] : dflt;
	free(v);
	return uid;
}

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static void add_i64(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* Taints the control plane sets for a node's state, not its placement:
 * sinfo shows them as the node's state (down, drain), in its partitions. */
static int state_taint(const char *key)
{
	return strcmp(key, "node.kubernetes.io/unschedulable") == 0 ||
	       strcmp(key, "node.kubernetes.io/not-ready") == 0 ||
	       strcmp(key, "node.kubernetes.io/unreachable") == 0;
}

static int tolerated(const struct sl_kq_flavor *f, const struct sl_exec_kv *t)
{
	if (strcmp(t->effect, "PreferNoSchedule") == 0 || state_taint(t->key))
		return 1;
	for (size_t i = 0; i < f->ntols; i++) {
		const struct sl_kq_toleration *o = &f->tols[i];
		int exists = o->op != NULL && strcmp(o->op, "Exists") == 0;
		if ((o->key == NULL || *o->key == '\0') ? !exists : strcmp(o->key, t->key) != 0)
			continue;
		if (!exists && strcmp(o->value ? o->value : "", t->value ? t->value : "") != 0)
			continue;
		if (o->effect == NULL || *o->effect == '\0' || strcmp(o->effect, t->effect) == 0)
			return 1;
	}
	return 0;
}

/* Kueue's placement: the flavor's nodeLabels are on the node and its
 * tolerations cover the node's NoSchedule/NoExecute taints. */
static int flavor_fits(const struct sl_kq_flavor *f, const struct sl_exec_node *n)
{
	for (size_t i = 0; i < f->nlabels; i++) {
		size_t j = 0;
		while (j < n->nlabels && (strcmp(n->labels[j].key, f->labels[i].key) != 0 ||
					  strcmp(n->labels[j].value, f->labels[i].value) != 0))
			j++;
		if (j == n->nlabels)
			return 0;
	}
	for (size_t i = 0; i < n->ntaints; i++)
		if (!tolerated(f, &n->taints[i]))
			return 0;
	return 1;
}

/* Does a flavor of a ClusterQueue of partition part (its LocalQueues of
 * that name, in any namespace) place pods on n? */
static int node_in(const struct sl_kueue *k, const char *part, const struct sl_exec_node *n)
{
	for (size_t q = 0; q < k->nlqs; q++) {
		const struct sl_kq_cq *cq = strcmp(k->lqs[q].name, part) == 0
						    ? sl_kueue_find_cq(k, k->lqs[q].cq) : NULL;
		for (size_t g = 0; cq != NULL && g < cq->nrg; g++)
			for (size_t f = 0; f < cq->rg[g].nflavors; f++) {
				const struct sl_kq_flavor *fl =
					sl_kueue_find_flavor(k, cq->rg[g].flavors[f].flavor);
				if (fl != NULL && flavor_fits(fl, n))
					return 1;
			}
	}
	return 0;
}

/* Labels every node carries that restate its name, OS and architecture
 * (shown as NodeName, OS and Arch already): not features. */
static int restated(const char *key)
{
	static const char *const keys[] = {"kubernetes.io/hostname", "kubernetes.io/os",
					   "kubernetes.io/arch", "beta.kubernetes.io/os",
					   "beta.kubernetes.io/arch"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return 0;
}

static int64_t ceil_div(int64_t v, int64_t by)
{
	return v > 0 ? (v + by - 1) / by : 0;
}

/* One node as sinfo needs it: whole CPUs (allocatable rounds down, what
 * pods request rounds up), MiB, its labels as features (but those that
 * restate its name, OS or architecture), its partitions. */
static json_object *exec_node(const struct sluiced *d, const char *const *parts,
			      const struct sl_exec_node *n)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	json_object *o = json_object_new_object(), *pv = json_object_new_array();
	struct sl_buf *feat = sl_buf_new(1 << 16);

	add_str(o, "name", n->name);
	add_str(o, "arch", n->arch ? n->arch : "");
	add_str(o, "os", n->os ? n->os : "");
	add_str(o, "version", n->version ? n->version : "");
	add_i64(o, "boot_time", n->boot_time);
	add_i64(o, "cpus", n->cpu / 1000);
	add_i64(o, "cpus_alloc", ceil_div(n->cpu_used, 1000));
	add_i64(o, "mem", n->mem >> 20);
	add_i64(o, "mem_alloc", ceil_div(n->mem_used, 1 << 20));
	add_i64(o, "gpus", n->gpu);
	add_i64(o, "gpus_alloc", n->gpu_used);
	json_object_object_add(o, "ready", json_object_new_boolean(n->ready));
	json_object_object_add(o, "no_respond", json_object_new_boolean(n->no_respond));
	json_object_object_add(o, "unschedulable", json_object_new_boolean(n->unschedulable));
	if (n->reason != NULL) {
		add_str(o, "reason", n->reason);
		add_i64(o, "reason_time", n->reason_time);
		add_str(o, "reason_user", n->reason_user ? n->reason_user : d->self_user);
		add_i64(o, "reason_uid", n->reason_user ? uid_of(n->reason_user, d->self_uid)
							 : (int64_t)d->self_uid);
	}
	for (size_t i = 0; i < n->nlabels; i++)
		if (!restated(n->labels[i].key))
			sl_buf_addf(feat, "%s%s=%s", sl_buf_len(feat) ? "," : "",
				    n->labels[i].key, n->labels[i].value);
	add_str(o, "features", sl_buf_str(feat));
	sl_buf_free(feat);
	for (const char *const *p = parts; *p != NULL; p++)
		if (node_in(k, *p, n))
			json_object_array_add(pv, json_object_new_string(*p));
	json_object_object_add(o, "partitions", pv);
	return o;
}

int sl_info_nodes_max_cpus(const struct sluiced *d, const char *part)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	const struct sl_exec_node *v;
	size_t n = d->executor->nodes(d->exec, &v);
	char lq[SL_K8S_NAME_MAX]; /* the partition may be a Slurm spelling */
	int64_t best = 0;

	if (part == NULL || sl_conf_k8s_name(part, lq) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].cpu / 1000 > best && node_in(k, lq, &v[i]))
			best = v[i].cpu / 1000;
	return best < INT_MAX ? (int)best : INT_MAX;
}

json_object *sl_info_nodes(const struct sluiced *d, const char *const *parts)
{
	const struct sl_exec_node *v;
	size_t n = d->executor->nodes(d->exec, &v);
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, exec_node(d, parts, &v[i]));
	return arr;
}
