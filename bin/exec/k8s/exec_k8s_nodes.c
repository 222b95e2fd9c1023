/* exec_k8s_nodes.c - the cluster's nodes for sinfo: core/v1 Nodes (labels,
 * allocatable cpu/memory/nvidia.com/gpu, taints, spec.unschedulable, the
 * Ready condition) and what the pods bound to them request, each followed
 * by one watch (k8s/watch.h: LIST, WATCH, re-LIST on 410 Gone), never a poll.
 *
 * The pod watch is every namespace's pods that have not ended (a field
 * selector on status.phase), not just Sluice's: a node shared with other
 * workloads is as busy as all its pods make it, as slurmctld counts every
 * job on a node. A pod keeps only what sinfo needs (node, requests), not its
 * object. Cost: one pods watch of the whole cluster; both tables sorted (a
 * relist is one sort, an event a binary search and a memmove); nodes() sums
 * the pods per node at each call (pods x log nodes).
 *
 * The same tables feed Kueue TAS its node inventory (bin/sluiced/
 * nodefeed.c): a change worth a look (any node event, a pod bound, gone,
 * or with other requests) queues one coalesced on_nodes event. A pod this
 * cluster's engine placed with a topology (labels sluice.io/cluster = ours
 * and sluice.io/tas, k8s/render_tas.c) is charged by the engine's own
 * assignment, so it is kept apart from the *_other sums.
 * Read-only: nothing here writes to the API. */
#include "exec_k8s.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/kauth.h"
#include "k8s/status.h"
#include "log.h"
#include "quantity.h"
#include "xalloc.h"

struct knode {
	json_object *obj;          /* holds the strings out points to */
	struct sl_exec_node out;
	struct sl_exec_kv *labels, *taints;
};

struct kpod {
	char *key;                 /* namespace/name */
	char *node;                /* spec.nodeName; NULL: not bound yet */
	int64_t cpu, mem, gpu;     /* milli-CPUs, bytes, GPUs */
	int charged;               /* the engine charges it (this cluster's TAS pod) */
};

struct knodes {
	struct sl_k8s_watch *w_nodes, *w_pods;
	struct knode *nodes;       /* sorted by name */
	size_t nnodes, capnodes;
	struct kpod *pods;
	size_t npods, cappods;
	struct sl_exec_node *view; /* nodes(): rebuilt each call */
	int warned;                /* a failing watch was logged: once until a list works */
};

/* ---- nodes ---- */

static int64_t qty(json_object *o, const char *key)
{
	const char *s = sl_k8s_str(o, key);
	int64_t m = 0;
	return s != NULL && sl_quantity_parse(s, &m) == 0 ? m : 0;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o != NULL && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* o[key] if it has that type (an object from the API is not trusted to). */
static json_object *get_as(json_object *o, const char *key, json_type type)
{
	json_object *v = get(o, key);
	return v != NULL && json_object_is_type(v, type) ? v : NULL;
}

static int64_t when(const char *ts)
{
	int64_t t = 0;
	return ts != NULL && sl_k8s_parse_time(ts, &t) == 0 ? t : 0;
}

/* The Ready condition (NULL when the kubelet never posted one). */
static json_object *ready_cond(json_object *status)
{
	json_object *conds = get_as(status, "conditions", json_type_array);
	for (size_t i = 0; conds && i < json_object_array_length(conds); i++) {
		json_object *c = json_object_array_get_idx(conds, i);
		const char *t = sl_k8s_str(c, "type");
		if (t != NULL && strcmp(t, "Ready") == 0)
			return c;
	}
	return NULL;
}

static void node_clear(struct knode *n)
{
	json_object_put(n->obj);
	free(n->labels);
	free(n->taints);
	memset(n, 0, sizeof(*n));
}

/* Why sinfo -R lists it: the kubelet's own words when not Ready (since the
 * condition changed), "Cordoned" since the unschedulable taint was added,
 * or the reason an operator gave scontrol for the cordon (exec_k8s_cordon.c). */
static void node_reason(struct knode *n, json_object *rc)
{
	struct sl_exec_node *o = &n->out;
	json_object *ann;
	if (!o->ready) {
		const char *m = sl_k8s_str(rc, "message"), *r = sl_k8s_str(rc, "reason");
		o->reason = m && *m ? m : r && *r ? r : "Kubelet never posted node status";
		o->reason_time = when(sl_k8s_str(rc, "lastTransitionTime"));
		return;
	}
	if (!o->unschedulable)
		return;
	ann = get_as(get(n->obj, "metadata"), "annotations", json_type_object);
	o->reason = sl_k8s_str(ann, SL_K8S_ANN_DRAIN_REASON);
	o->reason_user = o->reason ? sl_k8s_str(ann, SL_K8S_ANN_DRAIN_USER) : NULL;
	if (o->reason == NULL || *o->reason == '\0')
		o->reason = "Cordoned";
	for (size_t i = 0; i < o->ntaints; i++)
		if (strcmp(n->taints[i].key, "node.kubernetes.io/unschedulable") == 0) {
			json_object *t = json_object_array_get_idx(
				get_as(get(n->obj, "spec"), "taints", json_type_array), i);
			o->reason_time = when(sl_k8s_str(t, "timeAdded"));
		}
}

/* Fill n from obj (a reference is taken). */
static void node_set(struct knode *n, json_object *obj)
{
	json_object *meta = get(obj, "metadata"), *spec = get(obj, "spec");
	json_object *status = get(obj, "status"), *alloc = get(status, "allocatable");
	json_object *info = get(status, "nodeInfo"), *labels = get_as(meta, "labels", json_type_object);
	json_object *taints = get_as(spec, "taints", json_type_array), *rc, *u;
	json_object *keep = json_object_get(obj); /* before the old one goes */
	struct sl_exec_node *o = &n->out;
	size_t nt = taints ? json_object_array_length(taints) : 0;

	node_clear(n);
	n->obj = keep;
	o->name = sl_k8s_str(meta, "name");
	o->arch = sl_k8s_str(info, "architecture");
	o->os = sl_k8s_str(info, "osImage");
	o->version = sl_k8s_str(info, "kubeletVersion");
	o->boot_time = when(sl_k8s_str(meta, "creationTimestamp"));
	o->cpu = qty(alloc, "cpu");
	o->mem = qty(alloc, "memory") / 1000;
	o->gpu = qty(alloc, "nvidia.com/gpu") / 1000;
	o->pods = qty(alloc, "pods") / 1000;
	n->labels = sl_xcalloc(labels ? (size_t)json_object_object_length(labels) + 1 : 1,
			       sizeof(*n->labels));
	if (labels != NULL) {
		json_object_object_foreach(labels, k, v) {
			n->labels[o->nlabels].key = k;
			n->labels[o->nlabels++].value = v ? json_object_get_string(v) : "";
		}
	}
	n->taints = sl_xcalloc(nt + 1, sizeof(*n->taints));
	for (size_t i = 0; i < nt; i++) {
		json_object *t = json_object_array_get_idx(taints, i);
		n->taints[i].key = sl_k8s_str(t, "key") ? sl_k8s_str(t, "key") : "";
		n->taints[i].value = sl_k8s_str(t, "value");
		n->taints[i].effect = sl_k8s_str(t, "effect") ? sl_k8s_str(t, "effect") : "";
	}
	o->ntaints = nt;
	o->labels = n->labels;
	o->taints = n->taints;
	rc = ready_cond(status);
	o->ready = rc != NULL && sl_k8s_str(rc, "status") != NULL &&
		   strcmp(sl_k8s_str(rc, "status"), "True") == 0;
	o->no_respond = rc == NULL || sl_k8s_str(rc, "status") == NULL ||
			strcmp(sl_k8s_str(rc, "status"), "Unknown") == 0;
	o->unschedulable = (u = get(spec, "unschedulable")) != NULL && json_object_get_boolean(u);
	node_reason(n, rc);
}

/* Index of want in v (n sorted records of size bytes, each keyed by the
 * string pointer at offset off), or where it would go (*found 0). */
static size_t bsearch_at(const void *v, size_t n, size_t size, size_t off, const char *want,
			 int *found)
{
	size_t lo = 0, hi = n;
	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *key = *(const char *const *)((const char *)v + mid * size + off);
		int c = strcmp(key, want);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t node_find(const struct knodes *kn, const char *name, int *found)
{
	return bsearch_at(kn->nodes, kn->nnodes, sizeof(*kn->nodes),
			  offsetof(struct knode, out.name), name, found);
}

static void node_put(struct knodes *kn, json_object *obj, int deleted)
{
	const char *name = sl_k8s_obj_meta(obj, "name");
	int found;
	size_t i;

	if (name == NULL)
		return;
	i = node_find(kn, name, &found);
	if (deleted) {
		if (!found)
			return;
		node_clear(&kn->nodes[i]);
		memmove(&kn->nodes[i], &kn->nodes[i + 1], (kn->nnodes - i - 1) * sizeof(*kn->nodes));
		kn->nnodes--;
		return;
	}
	if (!found) {
		kn->nodes = sl_xgrow(kn->nodes, &kn->capnodes, kn->nnodes + 1, sizeof(*kn->nodes));
		memmove(&kn->nodes[i + 1], &kn->nodes[i], (kn->nnodes - i) * sizeof(*kn->nodes));
		memset(&kn->nodes[i], 0, sizeof(*kn->nodes));
		kn->nnodes++;
	}
	node_set(&kn->nodes[i], obj);
}

static void nodes_relisted(json_object *items, const char *rv, void *arg)
{
	struct sl_exec_k8s *x = arg;
	struct knodes *kn = x->knodes;
	for (size_t i = 0; i < kn->nnodes; i++)
		node_clear(&kn->nodes[i]);
	kn->nnodes = 0;
	for (size_t i = 0; i < json_object_array_length(items); i++)
		node_put(kn, json_object_array_get_idx(items, i), 0);
	kn->warned = 0;
	sl_debug("kubernetes: %zu nodes listed", kn->nnodes);
	sl_evq_nodes(x->evq);
}

static void node_event(enum sl_k8s_watch_type type, json_object *obj, void *arg)
{
	struct sl_exec_k8s *x = arg;
	if (type == SL_KW_ADDED || type == SL_KW_MODIFIED || type == SL_KW_DELETED) {
		node_put(x->knodes, obj, type == SL_KW_DELETED);
		sl_evq_nodes(x->evq); /* the feed drops what changed nothing it reads */
	}
}

/* ---- pods ---- */

static const char *const res_keys[] = {"cpu", "memory", "nvidia.com/gpu"};

/* A container's requests, or its limits where it requests nothing (the API
 * server defaults requests to limits): milli-CPUs, bytes, GPUs. */
static void container_req(json_object *c, int64_t out[3])
{
	json_object *res = get(c, "resources"), *req = get(res, "requests"),
		    *lim = get(res, "limits");
	for (size_t k = 0; k < 3; k++) {
		int64_t v = sl_k8s_str(req, res_keys[k]) ? qty(req, res_keys[k])
							  : qty(lim, res_keys[k]);
		out[k] = k == 0 ? v : v / 1000;
	}
}

/* What the scheduler reserves for a pod: the larger of its containers' sum
 * and its largest init container (they run before, one at a time), plus
 * the runtime class's overhead. */
static void pod_requests(json_object *spec, struct kpod *p)
{
	json_object *cs = get_as(spec, "containers", json_type_array);
	json_object *ics = get_as(spec, "initContainers", json_type_array);
	int64_t sum[3] = {0}, init[3] = {0}, one[3], *dst[] = {&p->cpu, &p->mem, &p->gpu};
	json_object *over = get(spec, "overhead");

	for (size_t c = 0; cs && c < json_object_array_length(cs); c++) {
		container_req(json_object_array_get_idx(cs, c), one);
		for (size_t k = 0; k < 3; k++)
			sum[k] += one[k];
	}
	for (size_t c = 0; ics && c < json_object_array_length(ics); c++) {
		container_req(json_object_array_get_idx(ics, c), one);
		for (size_t k = 0; k < 3; k++)
			init[k] = one[k] > init[k] ? one[k] : init[k];
	}
	for (size_t k = 0; k < 3; k++)
		*dst[k] = (sum[k] > init[k] ? sum[k] : init[k]) +
			  (k == 0 ? qty(over, res_keys[k]) : qty(over, res_keys[k]) / 1000);
}

static void pod_clear(struct kpod *p)
{
	free(p->key);
	free(p->node);
}

static int pod_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kpod *)a)->key, ((const struct kpod *)b)->key);
}

static size_t pod_find(const struct knodes *kn, const char *key, int *found)
{
	return bsearch_at(kn->pods, kn->npods, sizeof(*kn->pods), offsetof(struct kpod, key), key,
			  found);
}

/* What sinfo needs of a pod: its node and requests; NULL key when it is
 * not bound to a node yet (it counts nowhere). */
static struct kpod pod_of(const struct sl_exec_k8s *x, json_object *pod)
{
	const char *ns = sl_k8s_obj_meta(pod, "namespace"), *name = sl_k8s_obj_meta(pod, "name");
	json_object *spec = get(pod, "spec");
	const char *node = sl_k8s_str(spec, "nodeName"), *cl;
	struct kpod p = {0};

	if (name == NULL || node == NULL || *node == '\0')
		return p;
	p.key = sl_xasprintf("%s/%s", ns ? ns : "", name);
	p.node = sl_xstrdup(node);
	pod_requests(spec, &p);
	cl = sl_k8s_obj_label(pod, "sluice.io/cluster");
	p.charged = cl != NULL && strcmp(cl, x->cluster) == 0 &&
		    sl_k8s_obj_label(pod, "sluice.io/tas") != NULL;
	return p;
}

static int pod_same(const struct kpod *a, const struct kpod *b)
{
	return strcmp(a->node, b->node) == 0 && a->cpu == b->cpu && a->mem == b->mem &&
	       a->gpu == b->gpu && a->charged == b->charged;
}

/* Sorted by key, so an event costs a binary search and a memmove. 1: what
 * the nodes carry changed (a status update of a running pod changes
 * nothing). */
static int pod_put(struct sl_exec_k8s *x, json_object *pod, int deleted)
{
	struct knodes *kn = x->knodes;
	const char *ns = sl_k8s_obj_meta(pod, "namespace"), *name = sl_k8s_obj_meta(pod, "name");
	struct kpod p = deleted ? (struct kpod){0} : pod_of(x, pod);
	char *key;
	size_t i;
	int found;

	if (name == NULL) {
		pod_clear(&p);
		return 0;
	}
	key = sl_xasprintf("%s/%s", ns ? ns : "", name);
	i = pod_find(kn, key, &found);
	free(key);
	if (found) {
		int same = p.key != NULL && pod_same(&kn->pods[i], &p);
		pod_clear(&kn->pods[i]);
		if (p.key != NULL) {
			kn->pods[i] = p;
			return !same;
		}
		memmove(&kn->pods[i], &kn->pods[i + 1], (kn->npods - i - 1) * sizeof(*kn->pods));
		kn->npods--;
		return 1;
	}
	if (p.key == NULL)
		return 0;
	kn->pods = sl_xgrow(kn->pods, &kn->cappods, kn->npods + 1, sizeof(*kn->pods));
	memmove(&kn->pods[i + 1], &kn->pods[i], (kn->npods - i) * sizeof(*kn->pods));
	kn->pods[i] = p;
	kn->npods++;
	return 1;
}

static void pods_relisted(json_object *items, const char *rv, void *arg)
{
	struct sl_exec_k8s *x = arg;
	struct knodes *kn = x->knodes;
	size_t n = json_object_array_length(items);
	for (size_t i = 0; i < kn->npods; i++)
		pod_clear(&kn->pods[i]);
	kn->npods = 0;
	kn->pods = sl_xgrow(kn->pods, &kn->cappods, n + 1, sizeof(*kn->pods));
	for (size_t i = 0; i < n; i++) {
		struct kpod p = pod_of(x, json_object_array_get_idx(items, i));
		if (p.key != NULL)
			kn->pods[kn->npods++] = p;
	}
	qsort(kn->pods, kn->npods, sizeof(*kn->pods), pod_cmp);
	sl_evq_nodes(x->evq);
}

/* A pod that ends leaves the field selector: the watch says DELETED. */
static void pod_event(enum sl_k8s_watch_type type, json_object *obj, void *arg)
{
	struct sl_exec_k8s *x = arg;
	if ((type == SL_KW_ADDED || type == SL_KW_MODIFIED || type == SL_KW_DELETED) &&
	    pod_put(x, obj, type == SL_KW_DELETED))
		sl_evq_nodes(x->evq);
}

/* A cluster that refuses the lists (no right to list nodes or every
 * namespace's pods) leaves sinfo without nodes: say so once, not at each
 * retry. */
static void problem(const struct sl_err *err, void *arg)
{
	struct sl_exec_k8s *x = arg;
	if (x->knodes->warned++ == 0)
		sl_warn("kubernetes: sinfo's nodes: %s (retrying)", err->msg);
	else
		sl_debug("kubernetes: sinfo's nodes: %s (retrying)", err->msg);
}

static const struct sl_k8s_watch_ops node_ops = {nodes_relisted, node_event, problem};
static const struct sl_k8s_watch_ops pod_ops = {pods_relisted, pod_event, problem};

void sl_k8sexec_nodes_start(struct sl_exec_k8s *x)
{
	struct sl_k8s_watch_opts o = {.path = "/api/v1/nodes"};
	x->knodes = sl_xcalloc(1, sizeof(*x->knodes));
	x->knodes->w_nodes = sl_k8s_watch_new(x->http, &o, &node_ops, x);
	o.path = "/api/v1/pods";
	o.field_selector = "status.phase!=Succeeded,status.phase!=Failed";
	x->knodes->w_pods = sl_k8s_watch_new(x->http, &o, &pod_ops, x);
}

void sl_k8sexec_nodes_stop(struct sl_exec_k8s *x)
{
	struct knodes *kn = x->knodes;
	if (kn == NULL)
		return;
	sl_k8s_watch_free(kn->w_nodes);
	sl_k8s_watch_free(kn->w_pods);
	for (size_t i = 0; i < kn->nnodes; i++)
		node_clear(&kn->nodes[i]);
	for (size_t i = 0; i < kn->npods; i++)
		pod_clear(&kn->pods[i]);
	free(kn->nodes);
	free(kn->pods);
	free(kn->view);
	free(kn);
	x->knodes = NULL;
}

size_t sl_k8sexec_nodes(struct sl_exec_k8s *x, const struct sl_exec_node **out)
{
	struct knodes *kn = x->knodes;
	free(kn->view);
	kn->view = sl_xcalloc(kn->nnodes + 1, sizeof(*kn->view));
	for (size_t i = 0; i < kn->nnodes; i++)
		kn->view[i] = kn->nodes[i].out;
	for (size_t i = 0; i < kn->npods; i++) {
		int found;
		size_t n = node_find(kn, kn->pods[i].node, &found);
		if (!found)
			continue;
		kn->view[n].cpu_used += kn->pods[i].cpu;
		kn->view[n].mem_used += kn->pods[i].mem;
		kn->view[n].gpu_used += kn->pods[i].gpu;
		if (kn->pods[i].charged)
			continue;
		kn->view[n].cpu_other += kn->pods[i].cpu;
		kn->view[n].mem_other += kn->pods[i].mem;
		kn->view[n].gpu_other += kn->pods[i].gpu;
		kn->view[n].pods_other++;
	}
	*out = kn->view;
	return kn->nnodes;
}
