/* migrate_queues.c - partitions -> ClusterQueues (quota from their nodes,
 * preemption from PriorityTier/PreemptType/PreemptMode, stopPolicy from
 * State) and LocalQueues (one per account that may use the partition);
 * partition defaults go to partitions.yaml. The PartitionName lines' notes are
 * written here, one per parameter. */
#include "migrate_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "slurm_time.h"
#include "xalloc.h"

struct quota {
	int64_t cpu, mem_mb, gpu;
};

/* Which partitions share a node: through each node's partitions, so the
 * cost follows the memberships, not partitions squared times nodes. */
static void overlaps(struct mig *m)
{
	size_t np = sl_slurm_parts_count(m->nodes), nn = sl_slurm_nodes_count(m->nodes);
	size_t *count = sl_xcalloc(nn + 1, sizeof(size_t)), **of = sl_xcalloc(nn + 1, sizeof(size_t *));
	m->overlap = sl_xcalloc(np * np + 1, 1);
	for (size_t p = 0; p < np; p++) {
		const struct sl_spart *sp = sl_slurm_part(m->nodes, p);
		for (size_t i = 0; i < sp->nnodes; i++) {
			size_t n = sp->nodes[i];
			of[n] = sl_xrealloc(of[n], (count[n] + 1) * sizeof(size_t));
			of[n][count[n]++] = p;
		}
	}
	for (size_t n = 0; n < nn; n++) {
		for (size_t a = 0; a < count[n]; a++)
			for (size_t b = 0; b < count[n]; b++)
				if (a != b)
					m->overlap[of[n][a] * np + of[n][b]] = 1;
		free(of[n]);
	}
	free(of);
	free(count);
}

static size_t part_index(const struct mig *m, const struct sl_spart *p)
{
	return (size_t)(p - sl_slurm_part(m->nodes, 0));
}

static int shares_nodes(const struct mig *m, const struct sl_spart *a, const struct sl_spart *b)
{
	size_t np = sl_slurm_parts_count(m->nodes);
	return m->overlap[part_index(m, a) * np + part_index(m, b)];
}

/* Does p share a node with another partition (then both are in the cohort)? */
static int in_cohort(const struct mig *m, const struct sl_spart *p)
{
	size_t np = sl_slurm_parts_count(m->nodes), i = part_index(m, p);
	for (size_t k = 0; k < np; k++)
		if (m->overlap[i * np + k])
			return 1;
	return 0;
}

static long tier(const struct mig *m, const struct sl_spart *p)
{
	const char *t = sl_spart_get(m->nodes, p, "PriorityTier");
	return t ? atol(t) : 1;
}

static void cq_preemption(struct mig *m, const struct sl_spart *p, int cohort)
{
	const char *type = mig_global(m, "PreemptType"), *gmode = mig_global(m, "PreemptMode");
	const char *mode = sl_spart_get(m->nodes, p, "PreemptMode");
	long mine = tier(m, p), low = mine;
	if (!mode)
		mode = gmode ? gmode : "OFF";
	if (!type || strcasestr(type, "none") || strncasecmp(mode, "OFF", 3) == 0) {
		mig_note(m, MIG_CONF, p->line, MIG_MAPPED, "no preemption (PreemptType=%s, "
			 "PreemptMode=%s)", type ? type : "preempt/none", mode);
		if (sl_spart_get(m->nodes, p, "PriorityTier"))
			mig_note(m, MIG_CONF, p->line, MIG_APPROX, "PriorityTier=%ld: Slurm starts "
				 "higher tiers' jobs first on shared nodes; each ClusterQueue admits "
				 "from its own quota", mine);
		return;
	}
	const char *how = strcasestr(mode, "SUSPEND") || strcasestr(mode, "GANG")
			  ? "evicted and requeued (Kueue cannot suspend a job in place)"
			  : strcasestr(mode, "CANCEL") ? "evicted (Kueue's preemption)"
						       : "evicted and requeued";
	if (strcasestr(type, "qos")) {
		mig_out(m->kueue, "  preemption:\n    withinClusterQueue: LowerPriority\n"
				  "    reclaimWithinCohort: %s\n", cohort ? "LowerPriority" : "Never");
		mig_note(m, MIG_CONF, p->line, MIG_APPROX, "preempt/qos: a job preempts jobs of "
			 "lower WorkloadPriorityClasses (its QOS's Priority), which are %s; Slurm "
			 "follows each QOS's Preempt list", how);
		return;
	}
	for (size_t i = 0; i < sl_slurm_parts_count(m->nodes); i++) {
		const struct sl_spart *q = sl_slurm_part(m->nodes, i);
		if (shares_nodes(m, p, q) && tier(m, q) < low)
			low = tier(m, q);
	}
	if (mine > low) {
		mig_out(m->kueue, "  preemption:\n    withinClusterQueue: Never\n"
				  "    reclaimWithinCohort: Any\n");
		mig_note(m, MIG_CONF, p->line, MIG_APPROX, "PriorityTier=%ld over %ld: reclaims its "
			 "quota from lower partitions in the cohort (reclaimWithinCohort: Any), whose "
			 "jobs are %s; Slurm preempts any lower-tier job on the shared nodes",
			 mine, low, how);
	} else {
		mig_note(m, MIG_CONF, p->line, MIG_MAPPED, "PriorityTier=%ld, the lowest: "
			 "preempts nothing", mine);
	}
}

static void cq_quota(struct mig *m, const struct sl_spart *p)
{
	struct quota *q = sl_xcalloc(m->nflavors + 1, sizeof(*q));
	int *used = sl_xcalloc(m->nflavors + 1, sizeof(int));
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct sl_snode *n = sl_slurm_node(m->nodes, p->nodes[i]);
		size_t f = m->node_flavor[p->nodes[i]];
		used[f] = 1;
		if (n->future) /* the flavor is listed, at zero until the node exists */
			continue;
		q[f].cpu += n->cpus;
		q[f].mem_mb += n->mem_mb;
		for (size_t g = 0; g < n->ngres; g++)
			if (strcmp(n->gres[g].name, "gpu") == 0)
				q[f].gpu += n->gres[g].count;
	}
	if (p->nnodes == 0) {
		mig_out(m->kueue, "  resourceGroups: []\n");
		goto out;
	}
	mig_out(m->kueue, "  resourceGroups:\n  - coveredResources: [cpu%s%s]\n    flavors:\n",
		m->count_mem ? ", memory" : "", m->has_gpu ? ", nvidia.com/gpu" : "");
	for (size_t f = 0; f < m->nflavors; f++) {
		if (!used[f])
			continue;
		mig_out(m->kueue, "    - name: %s\n      resources:\n"
				  "      - {name: cpu, nominalQuota: %lld}\n",
			m->flavors[f].name, (long long)q[f].cpu);
		if (m->count_mem)
			mig_out(m->kueue, "      - {name: memory, nominalQuota: %lldMi}\n",
				(long long)q[f].mem_mb);
		if (m->has_gpu)
			mig_out(m->kueue, "      - {name: nvidia.com/gpu, nominalQuota: %lld}\n",
				(long long)q[f].gpu);
	}
out:
	free(q);
	free(used);
}

static void cq_state(struct mig *m, const struct sl_spart *p)
{
	const char *st = sl_spart_get(m->nodes, p, "State");
	if (!st || strcasecmp(st, "UP") == 0)
		return;
	if (strcasecmp(st, "DOWN") == 0) {
		mig_out(m->kueue, "  stopPolicy: Hold\n");
		mig_note(m, MIG_CONF, p->line, MIG_MAPPED, "State=DOWN: stopPolicy: Hold (jobs "
			 "queue, none start)");
	} else {
		mig_out(m->kueue, "  stopPolicy: Hold\n");
		mig_note(m, MIG_CONF, p->line, MIG_APPROX, "State=%s: stopPolicy: Hold (none "
			 "start; Slurm also refuses new jobs)", st);
	}
}

/* May account a charge partition p? AllowAccounts / DenyAccounts. */
static int allowed(const struct mig *m, const struct sl_spart *p, const char *acct)
{
	const char *allow = sl_spart_get(m->nodes, p, "AllowAccounts");
	const char *deny = sl_spart_get(m->nodes, p, "DenyAccounts");
	const char *list = allow && strcasecmp(allow, "ALL") != 0 ? allow : deny;
	int found = 0;
	if (!list)
		return 1;
	char *c = sl_xstrdup(list), *sv = NULL;
	for (char *t = strtok_r(c, ",", &sv); t && !found; t = strtok_r(NULL, ",", &sv))
		found = strcasecmp(t, acct) == 0;
	free(c);
	return list == allow ? found : !found;
}

static void local_queues(struct mig *m, const struct sl_spart *p, const char *name)
{
	char list[2048] = "";
	size_t n = 0;
	for (size_t i = 0; i < m->naccounts || (i == 0 && m->naccounts == 0); i++) {
		const struct mig_account *a = m->naccounts ? &m->accounts[i] : NULL;
		const char *ns = a ? a->ns : "general";
		if (a && (!a->has_users || !allowed(m, p, a->name)))
			continue;
		mig_out(m->kueue, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
				  "metadata: {name: %s, namespace: %s}\nspec:\n  clusterQueue: %s\n",
			name, ns, name);
		if (a && m->fair)
			mig_out(m->kueue, "  fairSharing: {weight: \"%.3f\"}\n", a->weight);
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", n++ ? ", " : "", ns);
	}
	if (!m->naccounts && (sl_spart_get(m->nodes, p, "AllowAccounts") ||
			      sl_spart_get(m->nodes, p, "DenyAccounts")))
		mig_note(m, MIG_CONF, p->line, MIG_APPROX, "Allow/DenyAccounts: no account data "
			 "(give --sacctmgr), so every user's account general may use it");
	if (n)
		mig_note(m, MIG_CONF, p->line, MIG_MAPPED, "LocalQueue %s in namespace%s %s", name,
			 n == 1 ? "" : "s", list);
	else
		mig_note(m, MIG_CONF, p->line, MIG_DROPPED, "no account may use it: no LocalQueue");
}

/* MaxTime, DefaultTime, memory defaults and node counts: partitions.yaml,
 * kind: Partition (libbatch/partdef.h). time: 1 a time, 2 a count, 0 MiB. */
static void part_defaults(struct mig *m, const struct sl_spart *p, const char *name)
{
	static const struct {
		const char *key, *field;
		int time;
	} defs[] = {{"MaxTime", "maxTime", 1}, {"DefaultTime", "defaultTime", 1},
		    {"DefMemPerCPU", "defMemPerCPU", 0}, {"DefMemPerNode", "defMemPerNode", 0},
		    {"MaxMemPerCPU", "maxMemPerCPU", 0}, {"MaxMemPerNode", "maxMemPerNode", 0},
		    {"MaxNodes", "maxNodes", 2}, {"MinNodes", "minNodes", 2}};
	int any = 0;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		const char *v = sl_spart_get(m->nodes, p, defs[i].key);
		int64_t min;
		char buf[64];
		if (!v && !defs[i].time)
			v = mig_global(m, defs[i].key); /* slurm.conf's, for every partition */
		if (!v)
			continue;
		if (defs[i].time == 2 && (strspn(v, "0123456789") == strlen(v) || !strcasecmp(v, "UNLIMITED")))
			snprintf(buf, sizeof(buf), "%s", v);
		else if (defs[i].time == 2)
			continue;
		else if (defs[i].time && sl_slurm_time_parse_limit(v, &min) == 0)
			sl_slurm_time_fmt_limit_sacct(min, buf, sizeof(buf));
		else if (!defs[i].time && strspn(v, "0123456789") == strlen(v) && *v)
			snprintf(buf, sizeof(buf), "%sMi", v);
		else
			continue;
		if (!any++)
			mig_out(m->parts, "---\napiVersion: sluice.io/v1alpha1\nkind: Partition\n"
					   "metadata: {name: %s}\nspec:\n", name);
		mig_out(m->parts, "  %s: \"%s\"\n", defs[i].field, buf);
	}
}

static const struct {
	const char *key;
	enum mig_status st;
	const char *why; /* NULL: the parameter has its own note elsewhere */
} params[] = {
	{"Nodes", MIG_MAPPED, NULL}, {"Default", MIG_MAPPED, NULL}, {"State", MIG_MAPPED, NULL},
	{"PriorityTier", MIG_MAPPED, NULL}, {"PreemptMode", MIG_MAPPED, NULL},
	{"AllowAccounts", MIG_MAPPED, NULL}, {"DenyAccounts", MIG_MAPPED, NULL},
	{"MaxTime", MIG_MAPPED, "partitions.yaml Partition.spec.maxTime"},
	{"DefaultTime", MIG_MAPPED, "partitions.yaml Partition.spec.defaultTime"},
	{"DefMemPerCPU", MIG_MAPPED, "partitions.yaml Partition.spec.defMemPerCPU"},
	{"DefMemPerNode", MIG_MAPPED, "partitions.yaml Partition.spec.defMemPerNode"},
	{"MaxMemPerCPU", MIG_MAPPED, "partitions.yaml Partition.spec.maxMemPerCPU"},
	{"MaxMemPerNode", MIG_MAPPED, "partitions.yaml Partition.spec.maxMemPerNode"},
	{"MaxNodes", MIG_MAPPED, "partitions.yaml Partition.spec.maxNodes"},
	{"MinNodes", MIG_MAPPED, "partitions.yaml Partition.spec.minNodes"},
	{"MaxCPUsPerNode", MIG_DROPPED, "Kueue quota is not per node"},
	{"OverSubscribe", MIG_DROPPED, "Kueue counts quota, nodes are not shared or exclusive"},
	{"Shared", MIG_DROPPED, "Kueue counts quota, nodes are not shared or exclusive"},
	{"Hidden", MIG_DROPPED, "sinfo shows every partition"},
	{"AllowGroups", MIG_DROPPED, "Sluice checks accounts, not Unix groups"},
	{"AllowQos", MIG_DROPPED, "Sluice does not restrict QOS per partition"},
	{"DenyQos", MIG_DROPPED, "Sluice does not restrict QOS per partition"},
	{"QOS", MIG_DROPPED, "a partition QOS has no counterpart"},
	{"PriorityJobFactor", MIG_DROPPED, "Kueue orders by priority class, then submission time"},
	{"GraceTime", MIG_DROPPED, "Sluice's grace period is killWait"},
	{"ExclusiveUser", MIG_DROPPED, "Kueue counts quota, nodes are not exclusive"},
	{"LLN", MIG_DROPPED, "Kueue counts quota, jobs are not placed on nodes"},
	{"DisableRootJobs", MIG_DROPPED, "no counterpart"},
	{"RootOnly", MIG_DROPPED, "no counterpart"},
	{"ReqResv", MIG_DROPPED, "Sluice has no reservations"},
	{"Alternate", MIG_DROPPED, "no counterpart"},
	{"TRESBillingWeights", MIG_DROPPED, "no billing in Sluice"},
};

static void param_notes(struct mig *m, const struct sl_spart *p)
{
	const struct sl_sconf_line *l = sl_slurm_conf_line(m->c, p->line);
	for (size_t k = 1; k < l->nkv; k++) {
		size_t i = 0;
		while (i < sizeof(params) / sizeof(params[0]) && strcasecmp(params[i].key, l->kv[k].key))
			i++;
		if (i == sizeof(params) / sizeof(params[0]))
			mig_note(m, MIG_CONF, p->line, MIG_DROPPED, "%s: no Sluice equivalent",
				 l->kv[k].key);
		else if (params[i].why)
			mig_note(m, MIG_CONF, p->line, params[i].st, "%s=%s: %s", l->kv[k].key,
				 l->kv[k].value, params[i].why);
	}
}

static void partition(struct mig *m, const struct sl_spart *p)
{
	char name[SL_K8S_NAME_MAX];
	if (sl_conf_k8s_name(p->name, name) != 0) {
		mig_note(m, MIG_CONF, p->line, MIG_DROPPED, "\"%s\" maps to no Kubernetes name",
			 p->name);
		return;
	}
	int cohort = in_cohort(m, p);
	mig_out(m->kueue, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
			  "metadata: {name: %s}\nspec:\n  namespaceSelector: {}\n", name);
	if (cohort)
		mig_out(m->kueue, "  cohort: %s\n", m->cluster);
	if (m->fair)
		mig_out(m->kueue, "  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n");
	cq_state(m, p);
	cq_preemption(m, p, cohort);
	cq_quota(m, p);
	mig_note(m, MIG_CONF, p->line, p->nnodes ? MIG_MAPPED : MIG_APPROX,
		 "ClusterQueue %s: quota of its %zu node%s", name, p->nnodes,
		 p->nnodes == 1 ? "" : "s");
	if (cohort)
		mig_note(m, MIG_CONF, p->line, MIG_APPROX, "shares nodes with other partitions: in "
			 "cohort %s, each ClusterQueue counts the shared nodes in full, so together "
			 "they may admit more than the nodes hold", m->cluster);
	local_queues(m, p, name);
	part_defaults(m, p, name);
	param_notes(m, p);
}

static void default_partition(struct mig *m)
{
	const struct sl_spart *d = NULL;
	for (size_t i = 0; i < sl_slurm_parts_count(m->nodes); i++)
		if (sl_slurm_part(m->nodes, i)->is_default)
			d = sl_slurm_part(m->nodes, i);
	if (d) {
		mig_out(m->cfg, "defaultPartition: %s\n", d->name);
		mig_note(m, MIG_CONF, d->line, MIG_MAPPED, "Default=YES: defaultPartition: %s", d->name);
	} else if (sl_slurm_parts_count(m->nodes)) {
		d = sl_slurm_part(m->nodes, 0);
		mig_out(m->cfg, "defaultPartition: %s\n", d->name);
		mig_note(m, MIG_CONF, d->line, MIG_APPROX, "no Default=YES partition: Sluice needs "
			 "one, the first (%s) is defaultPartition", d->name);
	}
}

void mig_queues(struct mig *m)
{
	default_partition(m);
	mig_flavor_docs(m);
	overlaps(m);
	if (m->fair) {
		const char *hl = mig_global(m, "PriorityDecayHalfLife");
		int64_t min = 7 * 24 * 60;
		if (hl && sl_slurm_time_parse_limit(hl, &min) != 0)
			min = 7 * 24 * 60;
		mig_out(m->kueue, "---\napiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
				  "admissionFairSharing:\n  usageHalfLifeTime: %lldm\n"
				  "  usageSamplingInterval: 5m\n", (long long)min);
	}
	for (size_t i = 0; i < sl_slurm_conf_nlines(m->c); i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(m->c, i);
		if (l->nkv && strcasecmp(l->kv[0].key, "PartitionName") == 0 &&
		    strcasecmp(l->kv[0].value, "DEFAULT") == 0)
			mig_note(m, MIG_CONF, i, MIG_MAPPED, "defaults of the PartitionName lines after it");
	}
	for (size_t i = 0; i < sl_slurm_parts_count(m->nodes); i++)
		partition(m, sl_slurm_part(m->nodes, i));
}
