/* qalter.c - change a PBS job's attributes: the options through
 * compat/pbs_alter.c into the daemon's UPDATE fields (what `scontrol
 * update` may change: -a begin time, -l walltime, ncpus and select, -A,
 * -m, -M, -N, -o, -e, -p, -r, -W depend) and hold requests (-h), one
 * sl_client_update() per job.
 * Attributes the job record cannot change are refused by name.
 *
 * Messages and exit status as OpenPBS's qalter (src/cmds/qalter.c:355,
 * prt_job_err()): "qalter: Unknown Job Id ID" (153), "qalter:
 * Unauthorized Request  ID" (159), "qalter: Cannot modify attribute while
 * job running  ATTR ID" (167) when what is asked needs a queued job, the
 * first such attribute named, "qalter: Request invalid for state of job ID"
 * (168) for a job in another state that refuses it, "qalter: Illegal
 * attribute or resource value ID" (174) for a value the server refuses;
 * the exit status the last failure's low byte. An array "N[]" is its
 * queued subjobs; a subjob is "qalter: Invalid request ID" (156). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbs_alter.h"
#include "pbs_job.h"
#include "pbs_jobcmd.h"

static int one(struct sl_client **c, const void *arg, uint64_t id, const char *shown,
	       const char *server)
{
	const struct sl_qalter_req *q = arg;
	struct sl_err err = SL_ERR_INIT;
	int r = sl_qjob_connect("qalter", c, server), special = -SL_EINVAL;

	if (r != 0)
		return r;
	if (q->n > 0)
		r = sl_client_update(*c, id, q->f, q->n, &err);
	if (r == 0 && (q->hold || q->release)) {
		r = sl_client_hold(*c, q->release, q->operator_hold, id, &err);
		special = -SL_EUNSUPP; /* a running job: PBS would need a checkpoint */
	}
	if (r == 0)
		return 0;
	if (sl_pbse_of(r) == SL_PBSE_BADDEPEND) {
		fprintf(stderr, "qalter: %s %s\n", sl_pbse_text(SL_PBSE_BADDEPEND), shown);
		return SL_PBSE_BADDEPEND;
	}
	/* "no longer pending": OpenPBS's reply_badattr, the attribute named */
	if (r == -SL_ESTATE && strstr(err.msg, "no longer pending") != NULL) {
		fprintf(stderr, "qalter: %s %s %s\n", sl_pbse_text(SL_PBSE_MODATRRUN),
			sl_qalter_running_attr(q), shown);
		return SL_PBSE_MODATRRUN;
	}
	if (r == -SL_ESTATE && strstr(err.msg, "finished") == NULL) {
		fprintf(stderr, "qalter: %s %s\n", sl_pbse_text(SL_PBSE_BADSTATE), shown);
		return SL_PBSE_BADSTATE;
	}
	return sl_qjob_report("qalter", *c, r, err.msg, id, shown, special,
			      special == -SL_EINVAL ? SL_PBSE_BADATVAL : SL_PBSE_NOSUP);
}

int main(int argc, char **argv)
{
	struct sl_qalter_req q;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	char *server;
	int rc;

	sl_pbs_version_exit(argc, argv);
	server = sl_pbs_server_name();
	if (sl_qalter_parse(argc, argv, server, &q, &fail, &err) != 0)
		rc = sl_qjob_parse_failed("qalter", &err, &fail, sl_qalter_usage);
	else
		rc = sl_qjob_each("qalter", q.ids, q.n_ids, one, &q, SL_QJOB_HOLD);
	sl_qalter_req_clear(&q);
	free(server);
	return rc;
}
