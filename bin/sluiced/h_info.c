/* h_info.c - the partitions request (sinfo). A partition is a LocalQueue
 * name; it shows its ClusterQueues' quota rows as the engine counts them,
 * whether a stop policy holds it (Slurm's DOWN) or the engine finds its
 * ClusterQueue inactive (INACTIVE), its flavors' node labels, and how many
 * of its jobs wait in each ClusterQueue. The local executor's node is this
 * host, described as slurmd would describe it; an executor with nodes of its
 * own (Kubernetes) lists them, each in the partitions whose flavors place
 * pods on it (info_nodes.c). Read-only: nothing here changes the engine or
 * a job. */
#include "partdef.h"
#include "conf.h"
#include "exec.h"
#include "handlers.h"
#include "info_nodes.h"
#include "nodeadmin.h"
#include "partadmin.h"
#include "jobtab.h"
#include "kueue.h"
#include "schedule.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* One partition being built: its LocalQueues are those of this name. */
struct part {
	const char *name;
	const char **cqs; /* distinct, in LocalQueue order */
	size_t ncq;
	json_object *obj;
};

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static void add_i64(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* When sluiced started: /proc/self/stat's start time (clock ticks after
 * boot), field 22, counted from after the command name's ')'. */
int64_t sl_daemon_start_time(int64_t boot)
{
	char buf[1024], *p;
	unsigned long long ticks = 0;
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
			  "%*d %*d %llu", &ticks) != 1)
		return 0;
	return boot + (int64_t)(ticks / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/* This host as slurmd reports its node. */
static json_object *local_node(const struct sluiced *d, int64_t now)
{
	json_object *o = json_object_new_object();
	struct utsname u;
	struct sysinfo si;
	char os[3 * sizeof(u.release) + 3];
	int64_t boot = 0;

	add_str(o, "name", d->hostname);
	add_i64(o, "tmp_disk", sl_conf_tmp_disk(d->conf));
	sl_nodeadmin_describe(d, o);
	if (uname(&u) == 0) {
		snprintf(os, sizeof(os), "%s %s %s", u.sysname, u.release, u.version);
		add_str(o, "arch", u.machine);
		add_str(o, "os", os);
	}
	if (sysinfo(&si) == 0) {
		boot = now - (int64_t)si.uptime;
		add_i64(o, "boot_time", boot);
		add_i64(o, "cpu_load", (int64_t)(si.loads[0] * 100 / (1UL << SI_LOAD_SHIFT)));
		add_i64(o, "free_mem", (int64_t)((uint64_t)si.freeram * si.mem_unit >> 20));
		add_i64(o, "start_time", sl_daemon_start_time(boot));
	}
	return o;
}

static int has(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* Distinct LocalQueue names in config order, each with its ClusterQueues. */
static struct part *partitions(const struct sl_kueue *k, size_t *np)
{
	struct part *v = sl_xcalloc(k->nlqs + 1, sizeof(*v));
	size_t n = 0, i, j;

	for (i = 0; i < k->nlqs; i++) {
		for (j = 0; j < n && strcmp(v[j].name, k->lqs[i].name) != 0; j++)
			;
		if (j == n) {
			v[n].name = k->lqs[i].name;
			v[n++].cqs = sl_xcalloc(k->nlqs + 1, sizeof(char *));
		}
		if (!has(v[j].cqs, v[j].ncq, k->lqs[i].cq))
			v[j].cqs[v[j].ncq++] = k->lqs[i].cq;
	}
	*np = n;
	return v;
}

static const char *stop_name(enum sl_kq_stop s)
{
	return s == SL_KSTOP_HOLD ? "Hold" : "HoldAndDrain";
}

/* One LocalQueue: 0 up, 1 down (a stop policy on it or its ClusterQueue),
 * 2 inactive (the engine's message); why says which, short enough for
 * sinfo -R's 20 columns ("Hold: cq main", kubectl's short names). */
static int lq_state(const struct sl_kueue *k, const struct sl_kq_lq *lq,
		    const struct sl_sched_usage *rows, size_t nrows, char *why, size_t len)
{
	const struct sl_kq_cq *cq = sl_kueue_find_cq(k, lq->cq);
	const char *inactive = NULL;

	if (lq->stop != SL_KSTOP_NONE) {
		snprintf(why, len, "%s: lq %s/%s", stop_name(lq->stop), lq->ns, lq->name);
		return 1;
	}
	if (cq != NULL && cq->stop != SL_KSTOP_NONE) {
		snprintf(why, len, "%s: cq %s", stop_name(cq->stop), cq->name);
		return 1;
	}
	for (size_t r = 0; r < nrows && inactive == NULL; r++)
		if (strcmp(rows[r].cluster_queue, lq->cq) == 0)
			inactive = rows[r].inactive;
	if (cq != NULL && inactive == NULL)
		return 0;
	snprintf(why, len, "%s", inactive ? inactive : "ClusterQueue not found");
	return 2;
}

/* The least severe state of the partition's LocalQueues, and its reason. */
static void availability(const struct sluiced *d, const struct part *p,
			 const struct sl_sched_usage *rows, size_t nrows, json_object *o)
{
	static const char *const names[] = {"up", "down", "inactive"};
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	char why[512] = "", tmp[512];
	int best = 3;
	struct stat st;

	for (size_t i = 0; i < k->nlqs && best > 0; i++) {
		int s;
		if (strcmp(k->lqs[i].name, p->name) != 0)
			continue;
		if ((s = lq_state(k, &k->lqs[i], rows, nrows, tmp, sizeof(tmp))) < best) {
			best = s;
			memcpy(why, tmp, sizeof(why));
		}
	}
	add_str(o, "avail", names[best < 3 ? best : 0]);
	if (best == 0 || best == 3)
		return;
	add_str(o, "reason", why);
	add_str(o, "reason_user", d->self_user);
	add_i64(o, "reason_uid", (int64_t)d->self_uid);
	if (stat(sl_conf_path(d->conf), &st) == 0)
		add_i64(o, "reason_time", (int64_t)st.st_mtime);
}

static int in_array(json_object *v, const char *s)
{
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(v, i)), s) == 0)
			return 1;
	return 0;
}

/* The node labels of the flavors its quota rows name, "key=value", once. */
static json_object *features(const struct sl_kueue *k, json_object *quota)
{
	json_object *v = json_object_new_array();

	for (size_t i = 0; i < json_object_array_length(quota); i++) {
		json_object *fo = NULL;
		json_object_object_get_ex(json_object_array_get_idx(quota, i), "flavor", &fo);
		const struct sl_kq_flavor *f = sl_kueue_find_flavor(k, json_object_get_string(fo));
		for (size_t l = 0; f != NULL && l < f->nlabels; l++) {
			char *kv = sl_xasprintf("%s=%s", f->labels[l].key, f->labels[l].value);
			if (!in_array(v, kv))
				json_object_array_add(v, json_object_new_string(kv));
			free(kv);
		}
	}
	return v;
}

/* Jobs of partition p pending in ClusterQueue cq (their LocalQueue is
 * account/partition). */
static int64_t pending(const struct sluiced *d, const char *p, const char *cq)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	int64_t n = 0;

	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		const char *q;
		char ns[SL_K8S_NAME_MAX], lq[SL_K8S_NAME_MAX];
		/* a job names them in Slurm's spelling (conf.h) */
		if (j->state != SL_JOB_PENDING || j->spec.partition == NULL ||
		    sl_conf_k8s_name(j->spec.partition, lq) != 0 || strcmp(lq, p) != 0 ||
		    j->spec.account == NULL || sl_conf_k8s_name(j->spec.account, ns) != 0)
			continue;
		q = sl_kueue_lq_cluster_queue(k, ns, lq);
		n += q != NULL && strcmp(q, cq) == 0;
	}
	return n;
}

static json_object *quota_rows(const struct sluiced *d, const struct part *p,
			       const struct sl_sched_usage *rows, size_t nrows, int64_t *admitted)
{
	json_object *v = json_object_new_array();

	*admitted = 0;
	for (size_t c = 0; c < p->ncq; c++) {
		int64_t npend = -1;
		int counted = 0;
		for (size_t r = 0; r < nrows; r++) {
			const struct sl_sched_usage *u = &rows[r];
			json_object *o;
			if (strcmp(u->cluster_queue, p->cqs[c]) != 0)
				continue;
			if (!counted++)
				*admitted += u->admitted_wl;
			if (npend < 0)
				npend = pending(d, p->name, p->cqs[c]);
			o = json_object_new_object();
			add_str(o, "cluster_queue", u->cluster_queue);
			add_str(o, "flavor", u->flavor);
			add_str(o, "resource", u->resource);
			add_i64(o, "nominal", u->nominal);
			add_i64(o, "borrowed", u->borrowed);
			add_i64(o, "lent", u->lent);
			add_i64(o, "used", u->used);
			add_i64(o, "pending", npend);
			json_object_array_add(v, o);
		}
	}
	return v;
}

/* The partition's own settings (kind: Partition), when it has them:
 * minutes or MiB or counts, -2 for UNLIMITED. */
static void part_settings(const struct sluiced *d, const char *queue, json_object *o)
{
	const struct sl_partdef *p = sl_conf_partdef(d->conf, queue);
	const struct {
		const char *key;
		int64_t v;
	} kv[] = {
		{"max_time", p ? p->max_time : -1}, {"default_time", p ? p->default_time : -1},
		{"max_nodes", p ? p->max_nodes : -1}, {"min_nodes", p ? p->min_nodes : -1},
		{"def_mem_per_cpu", p ? p->def_mem_per_cpu : -1},
		{"def_mem_per_node", p ? p->def_mem_per_node : -1},
		{"max_mem_per_cpu", p ? p->max_mem_per_cpu : -1},
		{"max_mem_per_node", p ? p->max_mem_per_node : -1},
	};
	for (size_t k = 0; k < sizeof(kv) / sizeof(kv[0]); k++)
		if (kv[k].v != SL_PARTDEF_UNSET)
			add_i64(o, kv[k].key, kv[k].v);
}

int sl_h_partitions(struct sluiced *d, const struct sl_peer *peer, json_object *req,
		    json_object *rep, struct sl_err *err)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	const struct sl_sched_usage *rows;
	size_t nrows = sl_sched_usage(sl_schedctl_engine(d->sched), &rows), np;
	struct part *parts = partitions(k, &np);
	json_object *arr = json_object_new_array();
	int64_t now = (int64_t)time(NULL), admitted;

	(void)peer;
	(void)req;
	(void)err;
	add_i64(rep, "now", now);
	if (d->executor->nodes != NULL) {
		const char **names = sl_xcalloc(np + 1, sizeof(*names));
		for (size_t i = 0; i < np; i++)
			names[i] = parts[i].name;
		json_object_object_add(rep, "nodes", sl_info_nodes(d, names));
		free(names);
	} else if (strcmp(d->executor->name, "local") == 0) {
		json_object_object_add(rep, "node", local_node(d, now));
	}
	char defq[SL_K8S_NAME_MAX]; /* defaultPartition may be a Slurm spelling */
	if (sl_conf_k8s_name(sl_conf_default_partition(d->conf), defq) != 0)
		defq[0] = '\0';
	for (size_t i = 0; i < np; i++) {
		json_object *o = json_object_new_object(), *quota;
		add_str(o, "name", parts[i].name);
		json_object_object_add(o, "default", json_object_new_boolean(
			strcmp(parts[i].name, defq) == 0));
		availability(d, &parts[i], rows, nrows, o);
		const char *admin = sl_partadmin_state(d, parts[i].name); /* an operator's State= */
		if (admin != NULL)
			add_str(o, "state", admin);
		part_settings(d, parts[i].name, o);
		quota = quota_rows(d, &parts[i], rows, nrows, &admitted);
		add_i64(o, "admitted", admitted);
		json_object_object_add(o, "features", features(k, quota));
		json_object_object_add(o, "quota", quota);
		json_object_array_add(arr, o);
		free(parts[i].cqs);
	}
	free(parts);
	json_object_object_add(rep, "partitions", arr);
	return 0;
}
