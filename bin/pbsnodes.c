/* pbsnodes.c - PBS's node list from what sinfo asks (sl_client_partitions):
 * the local executor's host, with its partitions' quota as its resources
 * (compat/pbs_fmt_queue.c). Options through compat/pbs_qopt: -a, or host
 * names; marking nodes offline and the other listings are refused. As
 * OpenPBS's pbsnodes (src/cmds/pbsnodes.c:1107), no node at all (the
 * Kubernetes executor's are not watched yet) prints "pbsnodes: No nodes
 * found" and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "client.h"
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "pbs_qopt.h"

int main(int argc, char **argv)
{
	struct sl_pbsnodes_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_clusterinfo *ci = NULL;
	struct sl_buf *b;
	char *server;
	int rc = 0;

	if (sl_pbsnodes_parse(argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "pbsnodes: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_pbsnodes_usage, stderr);
		return fail.status;
	}
	server = sl_pbs_server_name();
	if (sl_client_partitions(&ci, &err) != 0) {
		fprintf(stderr, "pbsnodes: cannot connect to server %s, error=%d\n", server,
			SL_PBSE_SYSTEM);
		free(server);
		return 1;
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
