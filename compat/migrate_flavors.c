/* migrate_flavors.c - nodes -> ResourceFlavors: nodes with the same
 * features and GPU type are one flavor, labelled so that -C FEATURE and
 * --gres=gpu:TYPE:N select it through the `features:` map. The NodeName
 * lines' report notes are written here. */
#include "migrate_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "features.h"
#include "xalloc.h"

#define FEATURE_LABEL_PREFIX "slurm.sluice.io/"
#define GPU_LABEL "nvidia.com/gpu.product"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A node feature can be a label when its name is a label name. */
static int feature_ok(const char *f)
{
	char key[128];
	snprintf(key, sizeof(key), FEATURE_LABEL_PREFIX "%s", f);
	return strlen(f) < 64 && sl_label_key_ok(key);
}

static const char *gpu_type(const struct sl_snode *n)
{
	for (size_t i = 0; i < n->ngres; i++)
		if (strcmp(n->gres[i].name, "gpu") == 0 && n->gres[i].type &&
		    sl_label_value_ok(n->gres[i].type))
			return n->gres[i].type;
	return NULL;
}

static int64_t gpus(const struct sl_snode *n)
{
	int64_t g = 0;
	for (size_t i = 0; i < n->ngres; i++)
		if (strcmp(n->gres[i].name, "gpu") == 0)
			g += n->gres[i].count;
	return g;
}

static char *signature(const struct sl_snode *n)
{
	size_t nf = sl_strv_len(n->features);
	char **f = sl_strv_dup(n->features);
	struct sl_buf *b = sl_buf_new(1 << 16);
	qsort(f, nf, sizeof(char *), cmp_str);
	for (size_t i = 0; i < nf; i++)
		if (feature_ok(f[i]))
			mig_out(b, "%s%s", i ? "," : "", f[i]);
	mig_out(b, "|%s", gpu_type(n) ? gpu_type(n) : "");
	sl_strv_free(f);
	char *s = sl_buf_steal(b);
	sl_buf_free(b);
	return s;
}

/* "h100,ib|h100" -> "h100-ib-h100" as a Kubernetes name; "|" -> "default". */
static void flavor_name(struct mig *m, struct mig_flavor *fl)
{
	char raw[512], k8s[SL_K8S_NAME_MAX];
	size_t j = 0;
	for (const char *s = fl->sig; *s && j + 1 < sizeof(raw); s++)
		raw[j++] = (*s == ',' || *s == '|') ? '-' : *s;
	while (j && raw[j - 1] == '-')
		j--;
	raw[j] = 0;
	if (!raw[0] || sl_conf_k8s_name(raw, k8s) != 0)
		snprintf(k8s, sizeof(k8s), "%s", raw[0] ? "nodes" : "default");
	char name[SL_K8S_NAME_MAX + 8];
	snprintf(name, sizeof(name), "%s", k8s);
	for (int n = 2;; n++) {
		size_t i = 0;
		while (i < m->nflavors && !(m->flavors[i].name && strcmp(m->flavors[i].name, name) == 0))
			i++;
		if (i == m->nflavors)
			break;
		snprintf(name, sizeof(name), "%.55s-%d", k8s, n);
	}
	fl->name = sl_xstrdup(name);
}

static size_t flavor_of(struct mig *m, const struct sl_snode *n, size_t *cap)
{
	char *sig = signature(n);
	for (size_t i = 0; i < m->nflavors; i++)
		if (strcmp(m->flavors[i].sig, sig) == 0) {
			free(sig);
			return i;
		}
	m->flavors = sl_xgrow(m->flavors, cap, m->nflavors + 1, sizeof(*m->flavors));
	struct mig_flavor *f = &m->flavors[m->nflavors];
	memset(f, 0, sizeof(*f));
	f->sig = sig;
	f->gpu_type = sl_xstrdup(gpu_type(n));
	f->features = n->features;
	return m->nflavors++;
}

/* One NodeName line's notes: what its nodes became, and what of it did not. */
static void node_notes(struct mig *m, size_t first)
{
	const struct sl_snode *n = sl_slurm_node(m->nodes, first);
	const struct sl_sconf_line *l = sl_slurm_conf_line(m->c, n->line);
	size_t count = 0;
	for (size_t i = first; i < sl_slurm_nodes_count(m->nodes); i++)
		count += sl_slurm_node(m->nodes, i)->line == n->line;
	const struct mig_flavor *f = &m->flavors[m->node_flavor[first]];
	char mem[64] = "", gpu[64] = "";
	if (m->count_mem)
		snprintf(mem, sizeof(mem), ", memory %lldMi", (long long)n->mem_mb);
	if (m->has_gpu)
		snprintf(gpu, sizeof(gpu), ", nvidia.com/gpu %lld", (long long)gpus(n));
	mig_note(m, MIG_CONF, n->line, MIG_MAPPED, "%zu node%s of ResourceFlavor %s: cpu %lld%s%s "
		 "each, counted in the quota of their partitions' ClusterQueues", count,
		 count == 1 ? "" : "s", f->name, (long long)n->cpus, mem, gpu);
	for (char **ft = n->features; *ft; ft++)
		if (feature_ok(*ft))
			mig_note(m, MIG_CONF, n->line, MIG_MAPPED, "feature %s: features.%s selects "
				 "label " FEATURE_LABEL_PREFIX "%s=true", *ft, *ft, *ft);
		else
			mig_note(m, MIG_CONF, n->line, MIG_DROPPED, "feature %s: not a Kubernetes "
				 "label name", *ft);
	int typed = 0;
	for (size_t i = 0; i < n->ngres; i++) {
		const struct sl_sgres *g = &n->gres[i];
		if (strcmp(g->name, "gpu") != 0)
			mig_note(m, MIG_CONF, n->line, MIG_DROPPED, "Gres %s: only GPUs have a "
				 "Kueue resource here", g->name);
		else if (g->type && typed++ == 0 && f->gpu_type && strcmp(g->type, f->gpu_type) == 0)
			mig_note(m, MIG_CONF, n->line, MIG_MAPPED, "GPU type %s: features.%s selects "
				 "label " GPU_LABEL "=%s", g->type, g->type, g->type);
		else if (g->type)
			mig_note(m, MIG_CONF, n->line, MIG_APPROX, "GPU type %s: a flavor has one "
				 "GPU type; these GPUs count as %s", g->type,
				 f->gpu_type ? f->gpu_type : "untyped");
	}
	if (n->future)
		mig_note(m, MIG_CONF, n->line, MIG_APPROX, "State=FUTURE: not in service, so not "
			 "counted in any quota; raise the quotas when the nodes arrive");
	static const char *const placement[] = {"NodeHostname", "NodeAddr", "Port", "State",
		"Weight", "TmpDisk", "Reason", "MemSpecLimit", "CoreSpecCount", "CpuSpecList",
		"Sockets", "SocketsPerBoard", "CoresPerSocket", "ThreadsPerCore", "Boards", NULL};
	char dropped[512] = "";
	for (size_t k = 1; k < l->nkv; k++)
		for (size_t j = 0; placement[j]; j++)
			if (strcasecmp(l->kv[k].key, placement[j]) == 0)
				snprintf(dropped + strlen(dropped), sizeof(dropped) - strlen(dropped),
					 "%s%s", dropped[0] ? ", " : "", l->kv[k].key);
	if (dropped[0])
		mig_note(m, MIG_CONF, n->line, MIG_DROPPED, "%s: Kueue counts quota, it does not "
			 "address nodes (CPUs follow from the topology when CPUs= is not given)",
			 dropped);
}

void mig_flavors(struct mig *m)
{
	size_t cap = 0, nn = sl_slurm_nodes_count(m->nodes);
	m->node_flavor = sl_xcalloc(nn + 1, sizeof(*m->node_flavor));
	for (size_t i = 0; i < nn; i++) {
		const struct sl_snode *n = sl_slurm_node(m->nodes, i);
		m->node_flavor[i] = flavor_of(m, n, &cap);
		m->has_gpu |= gpus(n) > 0;
	}
	for (size_t i = 0; i < m->nflavors; i++)
		flavor_name(m, &m->flavors[i]);
	for (size_t i = 0; i < nn; i++)
		if (i == 0 || sl_slurm_node(m->nodes, i)->line != sl_slurm_node(m->nodes, i - 1)->line)
			node_notes(m, i);
	for (size_t i = 0; i < sl_slurm_conf_nlines(m->c); i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(m->c, i);
		if (l->nkv && strcasecmp(l->kv[0].key, "NodeName") == 0 &&
		    strcasecmp(l->kv[0].value, "DEFAULT") == 0)
			mig_note(m, MIG_CONF, i, MIG_MAPPED, "defaults of the NodeName lines after it");
		else if (l->nkv && strcasecmp(l->kv[0].key, "NodeSet") == 0)
			mig_note(m, MIG_CONF, i, MIG_MAPPED, "resolves the partitions that name it");
	}
}

/* The `features:` map (SluiceConfiguration) and the flavor objects. */
void mig_flavor_docs(struct mig *m)
{
	int any = 0;
	char **seen = sl_xcalloc(1, sizeof(char *));
	size_t nseen = 0;
	for (size_t i = 0; i < m->nflavors; i++) {
		const struct mig_flavor *f = &m->flavors[i];
		for (char **ft = f->features; ft && *ft; ft++) {
			int dup = !feature_ok(*ft);
			for (size_t k = 0; k < nseen && !dup; k++)
				dup = strcmp(seen[k], *ft) == 0;
			if (dup)
				continue;
			if (!any++)
				mig_out(m->cfg, "features:\n");
			mig_out(m->cfg, "  \"%s\": {" FEATURE_LABEL_PREFIX "%s: \"true\"}\n", *ft, *ft);
			seen = sl_xrealloc(seen, (nseen + 2) * sizeof(char *));
			seen[nseen++] = *ft;
		}
		int dup = !f->gpu_type;
		for (size_t k = 0; k < nseen && !dup; k++)
			dup = strcmp(seen[k], f->gpu_type) == 0;
		if (!dup) {
			if (!any++)
				mig_out(m->cfg, "features:\n");
			mig_out(m->cfg, "  \"%s\": {" GPU_LABEL ": \"%s\"}\n", f->gpu_type, f->gpu_type);
			seen = sl_xrealloc(seen, (nseen + 2) * sizeof(char *));
			seen[nseen++] = f->gpu_type;
		}
	}
	free(seen);
	for (size_t i = 0; i < m->nflavors; i++) {
		const struct mig_flavor *f = &m->flavors[i];
		mig_out(m->kueue, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
				  "metadata: {name: %s}\n", f->name);
		int labels = 0;
		for (char **ft = f->features; ft && *ft; ft++)
			if (feature_ok(*ft))
				mig_out(m->kueue, "%s    " FEATURE_LABEL_PREFIX "%s: \"true\"\n",
					labels++ ? "" : "spec:\n  nodeLabels:\n", *ft);
		if (f->gpu_type)
			mig_out(m->kueue, "%s    " GPU_LABEL ": \"%s\"\n",
				labels++ ? "" : "spec:\n  nodeLabels:\n", f->gpu_type);
	}
}
