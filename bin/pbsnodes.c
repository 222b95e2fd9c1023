/* pbsnodes.c - PBS's node list from what sinfo asks (sl_client_partitions):
 * the local executor's host, with its partitions' quota as its resources
 * (compat/pbs_fmt_queue.c). Options through compat/pbs_qopt: -a, host
 * names, -l (the nodes marked down or offline), and marking them, an
 * operator's: -o (offline: scontrol's DRAIN), -r (not offline), -c
 * (neither offline nor down), -C COMMENT (the drain's reason). As
 * OpenPBS's pbsnodes (src/cmds/pbsnodes.c:1107), no node at all (the
 * Kubernetes executor's are not watched yet) prints "pbsnodes: No nodes
 * found" and exits 0; a mark refused is "Error marking node H - WHY"
 * (marknode()), the exit status the PBS error's low byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "client.h"
#include "err.h"
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "pbs_qopt.h"

/* -o, -r, -c, -C on each host, as marknode() on each. */
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
		int r = sl_client_node_update(names, states[o->oper], o->comment, &err), e;
		if (r == 0)
			continue;
		e = r == -SL_EPERM ? SL_PBSE_PERM : r == -SL_ENOENT ? SL_PBSE_UNKNODE
			: r == -SL_ECONNECT ? SL_PBSE_SYSTEM : 0;
		fprintf(stderr, "Error marking node %s - %s\n", o->hosts[i],
			e ? sl_pbse_text(e) : err.msg);
		rc = e ? sl_pbse_status(e) : 1;
	}
	return rc;
}

/* -l: each node marked down or offline, its state and comment. */
static void list_marked(const struct sl_clusterinfo *ci)
{
	const struct sl_nodeinfo *n = ci->node;
	if (n != NULL && (n->down || n->drain))
		printf("%-20s %s %s\n", n->name, n->down ? "down" : "offline",
		       n->reason ? n->reason : "");
}

int main(int argc, char **argv)
{
	struct sl_pbsnodes_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_clusterinfo *ci = NULL;
	struct sl_buf *b;
	char *server;
	int rc = 0;

	sl_pbs_version_exit(argc, argv);
	if (sl_pbsnodes_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "pbsnodes: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_pbsnodes_usage, stderr);
		return fail.status;
	}
	if (o.oper != SL_PBSNODES_LIST && o.oper != SL_PBSNODES_ALL &&
	    o.oper != SL_PBSNODES_LISTMARKED)
		return mark(&o);
	server = sl_pbs_server_name();
	if (sl_client_partitions(&ci, &err) != 0) {
		fprintf(stderr, "pbsnodes: cannot connect to server %s, error=%d\n", server,
			SL_PBSE_SYSTEM);
		free(server);
		return 1;
	}
	if (o.oper == SL_PBSNODES_LISTMARKED) {
		list_marked(ci);
		sl_clusterinfo_free(ci);
		free(server);
		return 0;
	}
	b = sl_buf_new(1u << 20);
	for (int i = 0; i < o.n_hosts; i++)
		if (ci->node == NULL || strcmp(o.hosts[i], ci->node->name) != 0) {
			fprintf(stderr, "pbsnodes: Unknown node  %s\n", o.hosts[i]);
			rc = 1;
		}
	if (rc == 0 && sl_pbsnodes_all(b, ci) == -SL_ENOENT)
		fputs("pbsnodes: No nodes found\n", stderr);
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	sl_clusterinfo_free(ci);
	free(server);
	return rc;
}
