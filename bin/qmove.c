/* qmove.c - move queued PBS jobs to another queue: a queue is a
 * partition, so one sl_client_update() of the partition per job; the
 * daemon checks the job still fits the new queue's LocalQueue and
 * ClusterQueue. Messages and exit status as OpenPBS's qmove
 * (src/cmds/qmove.c:80-140, prt_job_err()): the usage and exit 2 without
 * two operands, "qmove: illegally formed destination: D" (2), "qmove:
 * Unknown queue ID" (170), "qmove: Request invalid for state of job ID"
 * (168) for a job no longer queued, "qmove: Unknown Job Id ID" (153). An
 * array "N[]" moves while none of its subjobs runs; a subjob, or an array
 * with one running, is "qmove: Invalid request ID" (156). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbs_alter.h"
#include "pbs_job.h"
#include "pbs_jobcmd.h"

static int one(struct sl_client **c, const void *arg, uint64_t id, const char *shown,
	       const char *server)
{
	struct sl_update_field f = {"partition", arg, 0};
	struct sl_err err = SL_ERR_INIT;
	int r = sl_qjob_connect("qmove", c, server);

	if (r != 0 || (r = sl_client_update(*c, id, &f, 1, &err)) == 0)
		return r;
	if (r == -SL_ESTATE && strstr(err.msg, "finished") == NULL) {
		fprintf(stderr, "qmove: %s %s\n", sl_pbse_text(SL_PBSE_BADSTATE), shown);
		return SL_PBSE_BADSTATE;
	}
	return sl_qjob_report("qmove", *c, r, err.msg, id, shown, 0, 0);
}

int main(int argc, char **argv)
{
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	char *server, *queue = NULL, **ids = NULL;
	int n = 0, rc;

	sl_pbs_version_exit(argc, argv);
	server = sl_pbs_server_name();
	if (sl_qmove_parse(argc, argv, server, &queue, &ids, &n, &fail, &err) != 0)
		rc = sl_qjob_parse_failed("qmove", &err, &fail, sl_qmove_usage);
	else
		rc = sl_qjob_each("qmove", ids, n, one, queue, SL_QJOB_MOVE);
	free(queue);
	free(server);
	return rc;
}
