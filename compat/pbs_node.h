/* pbs_node.h - a PBS node as the server sends it (a batch_status: its name
 * and its attributes, in src/lib/Libattr/master_node_attr_def.xml's
 * order), and what pbsnodes prints of it, as OpenPBS's pbsnodes main()
 * (src/cmds/pbsnodes.c:1100-1379) does from its stat calls on: the
 * attribute lists (prt_node(): -a, -v, hosts, -H) and the one-line
 * summaries (prt_node_summary(): -S, -Sj, -L), in the default, dsv and
 * json formats (-F, -D), and -l's marked nodes.
 *
 * sluiced knows one node, the local executor's (compat/pbs_fmt_queue.c
 * makes it: sl_pbs_node_of()); the Kubernetes executor's are not listed
 * yet, which pbsnodes tells as a server with no node. */
#ifndef SL_PBS_NODE_H
#define SL_PBS_NODE_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "job.h"
#include "pbs_out.h"
#include "pbs_qopt.h"

struct sl_pbs_node;

/* A node named name without attributes. Caller frees with
 * sl_pbs_node_free(). */
struct sl_pbs_node *sl_pbs_node_new(const char *name);
void sl_pbs_node_free(struct sl_pbs_node *nd);
/* Appends attribute name (resource res, NULL for none) = value; copies. */
void sl_pbs_node_add(struct sl_pbs_node *nd, const char *name, const char *res,
		     const char *value);
/* Borrowed, valid while nd lives. get: NULL when nd has no such attribute. */
const char *sl_pbs_node_name(const struct sl_pbs_node *nd);
const char *sl_pbs_node_get(const struct sl_pbs_node *nd, const char *name, const char *res);

/* The node's jobs attribute (encode_jobs(), src/lib/Libattr/
 * attr_node_func.c:497): "ID/CPU" for each CPU a job of jobs[0..n) holds
 * on node, joined by ", ". A job holds CPUs while it runs (or is
 * suspended, its quota kept): its ncpus over its nodes, for each time
 * node is in its node list, numbered from 0 in the order of jobs. ID is
 * PBS's ("N.server", "N[I].server"). NULL when none does; caller frees. */
char *sl_pbs_node_jobs(const char *node, struct sl_job *const *jobs, size_t n,
		       const char *server);

/* prt_node(): nd's attributes through o (kind "Node", pbs_out.h). */
void sl_pbsnodes_attrs(struct sl_pbs_out *o, const struct sl_pbs_node *nd);

/* prt_node_summary() (pbsnodes.c:293-638), one node. */
struct sl_pbsnodes_view {
	enum sl_pbs_outfmt fmt;
	const char *delim;      /* dsv's (-D); "|" when NULL */
	int jobs;               /* -j: the jobs and free/total columns */
	int wide;               /* -L: columns not cut, the whole state */
	const char *server;     /* the default layout cuts ".server" off ids */
	int headed;             /* the default layout's header is out (it
	                           goes before the first node) */
};
/* The default and dsv lines into b, json through o (o's buffer may be b). */
void sl_pbsnodes_summary(struct sl_buf *b, struct sl_pbs_out *o, struct sl_pbsnodes_view *v,
			 const struct sl_pbs_node *nd);

/* What pbsnodes prints for o (a listing: -a, -l, hosts, -H, -v, with -S
 * -j -L -F -D) of the server's node nd (NULL: it has none), its standard
 * output into out and its complaints into errs ("pbsnodes: No nodes
 * found", "Node: H,  Error: Unknown node "); now and version for json's
 * prologue. Returns pbsnodes' exit status. */
int sl_pbsnodes_list(struct sl_buf *out, struct sl_buf *errs, const struct sl_pbsnodes_opts *o,
		     const struct sl_pbs_node *nd, const char *server, int64_t now,
		     const char *version);

#endif
