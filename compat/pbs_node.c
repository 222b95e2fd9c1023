/* pbs_node.c - the node record pbsnodes prints (pbs_node.h), its jobs
 * attribute, and what pbsnodes' main() lists of it (src/cmds/pbsnodes.c:
 * 1089-1379): which operation stats which nodes, the json document around
 * them, and its complaints. The summaries are pbs_node_sum.c's. */
#include "pbs_node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "pbs_job.h"
#include "xalloc.h"

#define JOBS_CAP (16u << 20) /* the jobs attribute: a CPU is ~16 bytes */

struct attr {
	char *name, *res, *value;
};

struct sl_pbs_node {
	char *name;
	struct attr *a;
	size_t n, cap;
};

struct sl_pbs_node *sl_pbs_node_new(const char *name)
{
	struct sl_pbs_node *nd = sl_xcalloc(1, sizeof(*nd));

	nd->name = sl_xstrdup(name);
	return nd;
}

void sl_pbs_node_free(struct sl_pbs_node *nd)
{
	if (nd == NULL)
		return;
	for (size_t i = 0; i < nd->n; i++) {
		free(nd->a[i].name);
		free(nd->a[i].res);
		free(nd->a[i].value);
	}
	free(nd->a);
	free(nd->name);
	free(nd);
}

void sl_pbs_node_add(struct sl_pbs_node *nd, const char *name, const char *res,
		     const char *value)
{
	nd->a = sl_xgrow(nd->a, &nd->cap, nd->n + 1, sizeof(*nd->a));
	nd->a[nd->n].name = sl_xstrdup(name);
	nd->a[nd->n].res = sl_xstrdup(res);
	nd->a[nd->n].value = sl_xstrdup(value);
	nd->n++;
}

const char *sl_pbs_node_name(const struct sl_pbs_node *nd)
{
	return nd->name;
}

const char *sl_pbs_node_get(const struct sl_pbs_node *nd, const char *name, const char *res)
{
	for (size_t i = 0; i < nd->n; i++) {
		const struct attr *a = &nd->a[i];
		if (strcmp(a->name, name) == 0 &&
		    (res == NULL ? a->res == NULL : a->res != NULL && strcmp(a->res, res) == 0))
			return a->value;
	}
	return NULL;
}

/* Running, or suspended with its quota kept: what resources_assigned
 * counts. */
static int holds_cpus(const struct sl_job *j)
{
	return j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING ||
	       j->state == SL_JOB_COMPLETING || j->state == SL_JOB_SUSPENDED;
}

/* How many of j's CPUs are on node: its share per node (exec_host's
 * ncpus over nodect) each time its node list names node. */
static long cpus_on(const struct sl_job *j, const char *node)
{
	struct sl_pbs_shape sh;
	char **names = NULL;
	size_t n = 0;
	long times = 0, per;

	if (j->nodelist == NULL || sl_hostlist_expand(j->nodelist, &names, &n, NULL) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		times += strcmp(names[i], node) == 0;
	sl_strv_free(names);
	if (times == 0)
		return 0;
	sl_pbs_shape_of(j, &sh);
	per = sh.nodect > 0 ? sh.ncpus / sh.nodect : sh.ncpus;
	return times * (per > 0 ? per : 1); /* a job without CPUs is still there */
}

char *sl_pbs_node_jobs(const char *node, struct sl_job *const *jobs, size_t n,
		       const char *server)
{
	struct sl_buf *b = sl_buf_new(JOBS_CAP);
	long cpu = 0;
	char *out = NULL;

	for (size_t i = 0; i < n; i++) {
		char id[128];
		long k = holds_cpus(jobs[i]) ? cpus_on(jobs[i], node) : 0;
		if (k == 0)
			continue;
		sl_pbs_idstr(jobs[i], server, id, sizeof(id));
		for (; k > 0; k--, cpu++)
			sl_buf_addf(b, "%s%s/%ld", cpu ? ", " : "", id, cpu);
	}
	if (cpu > 0)
		out = sl_buf_steal(b);
	sl_buf_free(b);
	return out;
}

void sl_pbsnodes_attrs(struct sl_pbs_out *o, const struct sl_pbs_node *nd)
{
	sl_pbs_out_begin(o, "Node", nd->name);
	for (size_t i = 0; i < nd->n; i++)
		sl_pbs_out_attr(o, nd->a[i].name, nd->a[i].res, nd->a[i].value);
	sl_pbs_out_end(o);
}

/* ---- what main() lists ---------------------------------------------------- */

struct listing {
	const struct sl_pbsnodes_opts *o;
	const struct sl_pbs_node *nd;
	struct sl_buf *out, *errs;
	struct sl_pbs_out *w;
	struct sl_pbsnodes_view v;
	int rc;
};

/* The host a node is on (pbs_stathost()'s: resources_available.host). */
static const char *host_of(const struct sl_pbs_node *nd)
{
	const char *h = sl_pbs_node_get(nd, "resources_available", "host");
	return h ? h : nd->name;
}

static void show(struct listing *l)
{
	if (l->o->summary)
		sl_pbsnodes_summary(l->out, l->w, &l->v, l->nd);
	else
		sl_pbsnodes_attrs(l->w, l->nd);
}

/* A name the server does not know: in json an object of its own saying
 * so (and no error status), else "Node: H,  Error: MSG" and exit 1. */
static void unknown(struct listing *l, const char *name)
{
	const char *msg = sl_pbse_text(SL_PBSE_UNKNODE);

	if (l->o->format == SL_PBS_OUT_JSON) {
		sl_pbs_out_begin(l->w, "Node", name);
		sl_pbs_out_str(l->w, name, msg);
		sl_pbs_out_end(l->w);
		return;
	}
	sl_buf_addf(l->errs, "Node: %s,  Error: %s\n", name, msg);
	l->rc = 1;
}

/* LISTSP: each name in turn, a vnode's (-v) or a host's (pbs_stathost()
 * matches without case). No node at all is no error (pbs_errno 0). */
static void list_named(struct listing *l)
{
	for (int i = 0; i < l->o->n_hosts; i++) {
		const char *h = l->o->hosts[i];
		if (l->nd == NULL)
			continue;
		if (l->o->vnodes ? strcmp(h, l->nd->name) == 0 : strcasecmp(h, host_of(l->nd)) == 0)
			show(l);
		else
			unknown(l, h);
	}
}

/* LISTSPNV (-H): the vnodes on the hosts named, once each, then the names
 * that are no host. */
static void list_hosts(struct listing *l)
{
	int found = 0;

	for (int i = 0; i < l->o->n_hosts && !found; i++)
		found = strcmp(l->o->hosts[i], host_of(l->nd)) == 0;
	if (found)
		show(l);
	for (int i = 0; i < l->o->n_hosts; i++)
		if (strcasecmp(l->o->hosts[i], host_of(l->nd)) != 0)
			unknown(l, l->o->hosts[i]);
}

/* LISTMRK: a node down or offline, its state and comment. */
static void list_marked(struct sl_buf *out, const struct sl_pbs_node *nd)
{
	const char *st = sl_pbs_node_get(nd, "state", NULL), *c;

	if (st == NULL || (strstr(st, "down") == NULL && strstr(st, "offline") == NULL))
		return;
	c = sl_pbs_node_get(nd, "comment", NULL);
	sl_buf_addf(out, "%-20s %s ", nd->name, st);
	sl_pbs_out_shown(out, c ? c : "");
	sl_buf_addc(out, '\n');
}

int sl_pbsnodes_list(struct sl_buf *out, struct sl_buf *errs, const struct sl_pbsnodes_opts *o,
		     const struct sl_pbs_node *nd, const char *server, int64_t now,
		     const char *version)
{
	struct listing l = {.o = o, .nd = nd, .out = out, .errs = errs};

	/* -a, -l, -H and -v ask for every node first (pbsnodes.c:1089) */
	if (nd == NULL && (o->oper != SL_PBSNODES_LIST || o->vnodes)) {
		sl_buf_addstr(errs, "pbsnodes: No nodes found\n");
		return 0;
	}
	if (o->oper == SL_PBSNODES_LISTMARKED) {
		list_marked(out, nd);
		return 0;
	}
	l.v.fmt = (enum sl_pbs_outfmt)o->format;
	l.v.delim = o->delim;
	l.v.jobs = o->jobs;
	l.v.wide = o->wide;
	l.v.server = server;
	l.w = sl_pbs_out_new(out, l.v.fmt, o->delim, now, version, server);
	sl_pbs_out_section(l.w, "Node"); /* the prologue's "nodes" (1135) */
	if (o->oper == SL_PBSNODES_ALL)
		show(&l);
	else if (o->oper == SL_PBSNODES_HOSTS)
		list_hosts(&l);
	else
		list_named(&l);
	if (sl_pbs_out_finish(l.w) != 0) {
		sl_buf_addstr(errs, "pbsnodes: out of memory\n");
		l.rc = 1;
	}
	sl_pbs_out_free(l.w);
	return l.rc;
}
