/* pbs_fmt_queue.c - qstat -Q and -B, and the node pbsnodes prints (its
 * attributes; compat/pbs_node.c prints them). Layouts from OpenPBS:
 * display_statque() (src/cmds/qstat.c:1740, "%-16s %5s %5s %3s %3s %5s ..."),
 * display_statserver() (qstat.c:1927), state_count as the server writes
 * it (update_state_ct(), src/server/req_stat.c:890). Attribute names
 * and their order from src/lib/Libattr/master_{queue,svr,node}_attr_def.xml.
 *
 * A queue is a partition (LocalQueue): its resources_available is its
 * ClusterQueue's nominal quota, which PBS defines as the most its running
 * jobs may hold together (pbs_queue_attributes(7B)); resources_assigned is
 * what they hold now. Started is "False" while a stop policy or an
 * inactive ClusterQueue keeps it from admitting. */
#include "pbs_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbs_job.h"
#include "pbs_node.h"
#include "xalloc.h"

#define MILLI_MIB (1000LL * 1024 * 1024)

static void attr_num(struct sl_pbs_out *o, const char *name, const char *res, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	sl_pbs_out_attr(o, name, res, s);
}

static void state_count(struct sl_pbs_out *o, const struct sl_pbs_counts *c)
{
	char s[160];

	snprintf(s, sizeof(s), "Transit:0 Queued:%d Held:%d Waiting:%d Running:%d Exiting:%d "
		 "Begun:%d ", c->queued, c->held, c->waiting, c->running, c->exiting, c->begun);
	sl_pbs_out_attr(o, "state_count", NULL, s);
}

static int is_gpu(const char *res)
{
	size_t n = strlen(res);
	return strcmp(res, "gpu") == 0 || (n >= 4 && strcmp(res + n - 4, "/gpu") == 0);
}

/* Quota rows summed per PBS resource; a row counted once however many
 * partitions share its ClusterQueue (`seen` names the rows before it). */
struct quota {
	int64_t cpu, cpu_used, mem, mem_used, gpu, gpu_used;
};

static void quota_add(struct quota *t, const struct sl_quota_row *q)
{
	if (strcmp(q->resource, "cpu") == 0) {
		t->cpu += q->nominal;
		t->cpu_used += q->used;
	} else if (strcmp(q->resource, "memory") == 0) {
		t->mem += q->nominal;
		t->mem_used += q->used;
	} else if (is_gpu(q->resource)) {
		t->gpu += q->nominal;
		t->gpu_used += q->used;
	}
}

/* The quota as NAME.mem, NAME.ncpus and NAME.ngpus attributes, each
 * through put (qstat -Qf's writer or the node's record). */
typedef void (*attr_put)(void *ctx, const char *name, const char *res, const char *value);

static void quota_attrs(attr_put put, void *ctx, const char *what, int64_t cpu, int64_t mem,
			int64_t gpu, int always)
{
	char m[32];

	if (mem > 0 || always) {
		sl_pbs_fmt_mib(mem / MILLI_MIB, m, sizeof(m));
		put(ctx, what, "mem", mem > 0 ? m : "0kb");
	}
	snprintf(m, sizeof(m), "%lld", (long long)(cpu / 1000));
	put(ctx, what, "ncpus", m);
	if (gpu > 0) {
		snprintf(m, sizeof(m), "%lld", (long long)(gpu / 1000));
		put(ctx, what, "ngpus", m);
	}
}

static void put_out(void *o, const char *name, const char *res, const char *value)
{
	sl_pbs_out_attr(o, name, res, value);
}

/* The node's attributes. */
static void put_node(void *nd, const char *name, const char *res, const char *value)
{
	sl_pbs_node_add(nd, name, res, value);
}

/* PBS's enabled (takes jobs) and started (runs them), from an operator's
 * State= (DRAIN and INACTIVE take none; DOWN and INACTIVE run none) and
 * the queue's stop policy. */
static int enabled(const struct sl_partinfo *p)
{
	return p->admin != SL_PART_DRAIN && p->admin != SL_PART_INACTIVE;
}

static int started(const struct sl_partinfo *p)
{
	return p->avail == SL_PART_UP && p->admin != SL_PART_DOWN && p->admin != SL_PART_INACTIVE;
}

static void queue_full(struct sl_pbs_out *o, const struct sl_partinfo *p,
		       const struct sl_pbs_counts *c)
{
	struct quota t = {0};

	for (size_t i = 0; i < p->nquota; i++)
		quota_add(&t, &p->quota[i]);
	sl_pbs_out_begin(o, "Queue", p->name);
	sl_pbs_out_attr(o, "queue_type", NULL, "Execution");
	attr_num(o, "total_jobs", NULL, c->total);
	state_count(o, c);
	quota_attrs(put_out, o, "resources_available", t.cpu, t.mem, t.gpu, 0);
	quota_attrs(put_out, o, "resources_assigned", t.cpu_used, t.mem_used, t.gpu_used, 1);
	sl_pbs_out_attr(o, "enabled", NULL, enabled(p) ? "True" : "False");
	sl_pbs_out_attr(o, "started", NULL, started(p) ? "True" : "False");
	sl_pbs_out_end(o);
}

int sl_qstat_queues(struct sl_buf *b, struct sl_pbs_out *full, const struct sl_clusterinfo *ci,
		    const struct sl_pbs_counts *counts, int header)
{
	if (!full && header)
		sl_buf_addstr(b, "Queue              Max   Tot Ena Str   Que   Run   Hld   Wat   Trn   Ext Type\n"
				 "---------------- ----- ----- --- --- ----- ----- ----- ----- ----- ----- ----\n");
	for (size_t i = 0; i < ci->nparts; i++) {
		const struct sl_partinfo *p = &ci->parts[i];
		const struct sl_pbs_counts *c = &counts[i];
		char name[32];

		if (full) {
			queue_full(full, p, c);
			continue;
		}
		snprintf(name, sizeof(name), "%s", p->name);
		if (strlen(name) > 16) {
			name[15] = '*';
			name[16] = '\0';
		}
		if (sl_buf_addf(b, "%-16s %5s %5d %3s %3s %5d %5d %5d %5d %5s %5d %-4s\n", name,
				"0", c->total, enabled(p) ? "yes" : "no", started(p) ? "yes" : "no",
				c->queued, c->running, c->held, c->waiting, "0", c->exiting,
				"Exe*") != 0)
			return -SL_ETOOBIG;
	}
	return 0;
}

int sl_qstat_server(struct sl_buf *b, struct sl_pbs_out *full, const char *server,
		    const char *default_queue, const struct sl_pbs_counts *c, int header)
{
	char name[32];

	if (full) {
		sl_pbs_out_begin(full, "Server", server);
		sl_pbs_out_attr(full, "server_state", NULL, "Active");
		sl_pbs_out_attr(full, "server_host", NULL, server);
		sl_pbs_out_attr(full, "scheduling", NULL, "True");
		attr_num(full, "total_jobs", NULL, c->total);
		state_count(full, c);
		sl_pbs_out_attr(full, "default_queue", NULL, default_queue);
		sl_pbs_out_attr(full, "job_history_enable", NULL, "True");
		sl_pbs_out_end(full);
		return 0;
	}
	if (header)
		sl_buf_addstr(b, "Server             Max   Tot   Que   Run   Hld   Wat   Trn   Ext Status\n"
				 "---------------- ----- ----- ----- ----- ----- ----- ----- ----- -----------\n");
	snprintf(name, sizeof(name), "%s", server);
	if (strlen(name) > 16) {
		name[15] = '*';
		name[16] = '\0';
	}
	return sl_buf_addf(b, "%-16s %5s %5d %5d %5d %5d %5d %5s %5d %-10s\n", name, "0", c->total,
			   c->queued, c->running, c->held, c->waiting, "0", c->exiting, "Active");
}

/* A quota row already counted for an earlier partition (shared ClusterQueue). */
static int row_seen(const struct sl_clusterinfo *ci, size_t pi, size_t qi)
{
	const struct sl_quota_row *q = &ci->parts[pi].quota[qi];

	for (size_t i = 0; i <= pi; i++)
		for (size_t j = 0; j < (i == pi ? qi : ci->parts[i].nquota); j++) {
			const struct sl_quota_row *o = &ci->parts[i].quota[j];
			if (strcmp(o->cluster_queue, q->cluster_queue) == 0 &&
			    strcmp(o->flavor, q->flavor) == 0 && strcmp(o->resource, q->resource) == 0)
				return 1;
		}
	return 0;
}

struct sl_pbs_node *sl_pbs_node_of(const struct sl_clusterinfo *ci, const char *jobs)
{
	const struct sl_nodeinfo *n = ci->node;
	struct sl_pbs_node *nd;
	struct quota t = {0};
	char num[32];
	int down = ci->nparts > 0;

	if (n == NULL)
		return NULL;
	for (size_t i = 0; i < ci->nparts; i++) {
		down &= ci->parts[i].avail == SL_PART_INACTIVE;
		for (size_t q = 0; q < ci->parts[i].nquota; q++)
			if (!row_seen(ci, i, q))
				quota_add(&t, &ci->parts[i].quota[q]);
	}
	nd = sl_pbs_node_new(n->name);
	sl_pbs_node_add(nd, "Mom", NULL, n->name);
	sl_pbs_node_add(nd, "ntype", NULL, "PBS");
	/* an operator's DOWN is PBS's down, a DRAIN its offline */
	sl_pbs_node_add(nd, "state", NULL, down || n->down ? "down" : n->drain ? "offline"
				  : t.cpu > 0 && t.cpu_used >= t.cpu ? "job-busy" : "free");
	snprintf(num, sizeof(num), "%lld", (long long)(t.cpu / 1000));
	sl_pbs_node_add(nd, "pcpus", NULL, num);
	if (jobs)
		sl_pbs_node_add(nd, "jobs", NULL, jobs);
	sl_pbs_node_add(nd, "resources_available", "arch", "linux");
	sl_pbs_node_add(nd, "resources_available", "host", n->name);
	quota_attrs(put_node, nd, "resources_available", t.cpu, t.mem, t.gpu, 0);
	sl_pbs_node_add(nd, "resources_available", "vnode", n->name);
	quota_attrs(put_node, nd, "resources_assigned", t.cpu_used, t.mem_used, t.gpu_used, 1);
	if ((n->drain || n->down) && n->reason != NULL) /* pbsnodes -C's comment */
		sl_pbs_node_add(nd, "comment", NULL, n->reason);
	sl_pbs_node_add(nd, "resv_enable", NULL, "True");
	sl_pbs_node_add(nd, "sharing", NULL, "default_shared");
	/* the server sends epoch seconds, which pbsnodes prints with ctime() */
	snprintf(num, sizeof(num), "%lld", (long long)n->start_time);
	sl_pbs_node_add(nd, "last_state_change_time", NULL, num);
	return nd;
}
