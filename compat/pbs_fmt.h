/* pbs_fmt.h - what qstat and pbsnodes print, laid out as OpenPBS's qstat.c
 * and pbsnodes.c print them: the default job table, the alternate one
 * (-a, -n, -s, -1), the attribute lists (-f), the queue table (-Q, -Q -f),
 * the server table (-B, -B -f) and the node pbsnodes lists. Each appends
 * to a capped buffer; 0 or -SL_ETOOBIG when it is full. */
#ifndef SL_PBS_FMT_H
#define SL_PBS_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "client.h"
#include "job.h"
#include "pbs_out.h"

/* What every layout needs besides the jobs. */
struct sl_pbs_view {
	const char *server;  /* the PBS server name */
	int64_t now;         /* the daemon's time of the listing */
	/* alternate layout */
	int nodes;           /* -n: the hosts under each job */
	int comments;        /* -s: the comment under each job */
	int one_line;        /* -1: on the job's own line */
	int wide;            /* -w */
	int percent;         /* -p: "% done" for Time Use */
	/* -f of an array job: its array_indices_remaining (pbs_array.h),
	 * NULL to leave it out */
	const char *arr_remaining;
};

/* The default table: its two header lines (header != 0) and one line per
 * job (qstat.c display_statjob()). */
int sl_qstat_default(struct sl_buf *b, const struct sl_pbs_view *v, struct sl_job *const *jobs,
		     size_t n, int header);
/* The alternate table (qstat.c altdsp_statjob()): "\nSERVER: " and its
 * header when header != 0, then the jobs. */
int sl_qstat_alt(struct sl_buf *b, const struct sl_pbs_view *v, struct sl_job *const *jobs,
		 size_t n, int header);
/* One job's attributes (qstat -f), in o's format (pbs_out.h). */
int sl_qstat_full(struct sl_pbs_out *o, const struct sl_pbs_view *v, const struct sl_job *j);

/* A job's PBS comment: why it waits, where it ran and how it ended.
 * Writes at most len bytes; "" when it has none. */
void sl_pbs_comment(const struct sl_job *j, char *buf, size_t len);

/* Jobs per PBS state, for a queue or the server. */
struct sl_pbs_counts {
	int total, queued, held, waiting, running, exiting, begun;
};
void sl_pbs_count(struct sl_pbs_counts *c, const struct sl_job *j);

/* qstat -Q: the table of queues into b (header != 0: with its header) or,
 * when full is not NULL, each queue's attributes through it: its type,
 * jobs, state counts and quota (resources_available: the ClusterQueue's
 * nominal quota; resources_assigned: what is in use). counts has one entry
 * per part. */
int sl_qstat_queues(struct sl_buf *b, struct sl_pbs_out *full, const struct sl_clusterinfo *ci,
		    const struct sl_pbs_counts *counts, int header);
/* qstat -B: the server's line into b, or its attributes through full. */
int sl_qstat_server(struct sl_buf *b, struct sl_pbs_out *full, const char *server,
		    const char *default_queue, const struct sl_pbs_counts *all, int header);
/* The node pbsnodes lists (compat/pbs_node.h): the local executor's host,
 * its partitions' quota as its resources, jobs its jobs attribute
 * (sl_pbs_node_jobs(); NULL: none). NULL when the daemon knows no node
 * (Kubernetes). Caller frees with sl_pbs_node_free(). */
struct sl_pbs_node;
struct sl_pbs_node *sl_pbs_node_of(const struct sl_clusterinfo *ci, const char *jobs);

#endif
