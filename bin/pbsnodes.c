/* pbsnodes.c - PBS's node list from what sinfo asks (sl_client_partitions):
 * the local executor's host, with its partitions' quota as its resources
 * (compat/pbs_fmt_queue.c), and the jobs running there (sl_client_query).
 * Options through compat/pbs_qopt; what is listed, compat/pbs_node: -a,
 * host names, -v vnode names, -H hosts' vnodes, -l (the nodes marked down
 * or offline), -S/-Sj/-L summaries, -F dsv|json and -D. Marking nodes is
 * an operator's: -o (offline: scontrol's DRAIN), -r (not offline), -c
 * (neither offline nor down), -C COMMENT (the drain's reason). As
 * OpenPBS's pbsnodes (src/cmds/pbsnodes.c:1100), no node at all (the
 * Kubernetes executor's are not watched yet) prints "pbsnodes: No nodes
 * found" and exits 0; a mark refused is "Error marking node H - WHY"
 * (marknode()), the exit status the PBS error's low byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "buf.h"
#include "client.h"
#include "err.h"
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "pbs_node.h"
#include "pbs_qopt.h"

#define OUT_CAP (64u << 20)

/* -o, -r, -c, -C on each host, as marknode() on each (-C alone passes
 * over an empty name). */
static int mark(const struct sl_pbsnodes_opts *o)
{
	static const char *const states[] = {
		[SL_PBSNODES_OFFLINE] = "DRAIN", [SL_PBSNODES_RESET] = "UNDRAIN",
		[SL_PBSNODES_CLEAR] = "CLEAR", [SL_PBSNODES_COMMENT] = NULL,
	};
	int rc = 0;

	for (int i = 0; i < o->n_hosts; i++) {
		const char *names[] = {o->hosts[i], NULL};
		struct sl_err err = SL_ERR_INIT;
		int r, e;
		if (o->oper == SL_PBSNODES_COMMENT && o->hosts[i][0] == '\0')
			continue;
		if ((r = sl_client_node_update(names, states[o->oper], o->comment, &err)) == 0)
			continue;
		e = r == -SL_EPERM ? SL_PBSE_PERM : r == -SL_ENOENT ? SL_PBSE_UNKNODE
			: r == -SL_ECONNECT ? SL_PBSE_SYSTEM : 0;
		fprintf(stderr, "Error marking node %s - %s\n", o->hosts[i],
			e ? sl_pbse_text(e) : err.msg);
		rc = e ? sl_pbse_status(e) : 1;
	}
	return rc;
}

/* The node as the server would list it: its quota, and its jobs (those
 * holding CPUs) unless -l, which shows neither. NULL in *nd: no node. */
static int node_of(const struct sl_pbsnodes_opts *o, const char *server,
		   struct sl_pbs_node **nd)
{
	static int live[] = {SL_JOB_RUNNING, SL_JOB_CONFIGURING, SL_JOB_COMPLETING,
			     SL_JOB_SUSPENDED};
	struct sl_jobfilter f = {.states = live, .n_states = sizeof(live) / sizeof(live[0])};
	struct sl_err err = SL_ERR_INIT;
	struct sl_clusterinfo *ci = NULL;
	struct sl_job **jobs = NULL;
	size_t n = 0;
	char *list = NULL;

	if (sl_client_partitions(&ci, &err) != 0)
		return -1;
	if (ci->node && o->oper != SL_PBSNODES_LISTMARKED) {
		if (sl_client_query(&f, &jobs, &n, &err) != 0) {
			sl_clusterinfo_free(ci);
			return -1;
		}
		list = sl_pbs_node_jobs(ci->node->name, jobs, n, server);
	}
	*nd = sl_pbs_node_of(ci, list);
	free(list);
	sl_job_free_array(jobs, n);
	sl_clusterinfo_free(ci);
	return 0;
}

int main(int argc, char **argv)
{
	struct sl_pbsnodes_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_pbs_node *nd = NULL;
	struct sl_buf *out, *errs;
	char *server;
	int rc;

	sl_pbs_version_exit(argc, argv);
	if (sl_pbsnodes_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "pbsnodes: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_pbsnodes_usage, stderr);
		return fail.status;
	}
	if (o.oper != SL_PBSNODES_LIST && o.oper != SL_PBSNODES_ALL &&
	    o.oper != SL_PBSNODES_LISTMARKED && o.oper != SL_PBSNODES_HOSTS)
		return mark(&o);
	server = sl_pbs_server_name();
	if (node_of(&o, server, &nd) != 0) {
		fprintf(stderr, "pbsnodes: cannot connect to server %s, error=%d\n", server,
			SL_PBSE_SYSTEM);
		free(server);
		return 1;
	}
	out = sl_buf_new(OUT_CAP);
	errs = sl_buf_new(1u << 20);
	rc = sl_pbsnodes_list(out, errs, &o, nd, server, (int64_t)time(NULL), PACKAGE_VERSION);
	fwrite(sl_buf_str(out), 1, sl_buf_len(out), stdout);
	fflush(stdout);
	fputs(sl_buf_str(errs), stderr);
	sl_buf_free(out);
	sl_buf_free(errs);
	sl_pbs_node_free(nd);
	free(server);
	return rc;
}
