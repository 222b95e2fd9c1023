/* qrls.c - release PBS holds: options through compat/pbs_qopt (-h u, o; s and
 * p refused), one sl_client_hold() per job (PROTOCOL.md, request 20).
 *
 * As OpenPBS's qrls (src/cmds/qrls.c, messages by prt_job_err() in
 * src/lib/Libcmds/err_handling.c): "qrls: Unknown Job Id ID" (153),
 * "qrls: Unauthorized Request  ID" (159) for another user's job or an
 * operator hold asked by a user, "qrls: Job has finished" (35, the id left
 * out as PBS's message has no place for it); the exit status is the last
 * failure's PBS error number's low byte. Releasing a hold the job does not
 * have changes nothing and succeeds, as in PBS. */
#include <stdio.h>
#include <stdlib.h>

#include "pbs_job.h"
#include "pbs_jobcmd.h"

static int one(struct sl_client **c, const void *arg, uint64_t id, const char *shown,
	       const char *server)
{
	const struct sl_qctl_opts *o = arg;
	struct sl_err err = SL_ERR_INIT;
	int r = sl_qjob_connect("qrls", c, server);

	if (r != 0)
		return r;
	if (o->operator_hold)
		r = sl_client_hold(*c, 1, 1, id, &err);
	if (r == 0 && o->user_hold)
		r = sl_client_hold(*c, 1, 0, id, &err);
	return r == 0 ? 0 : sl_qjob_report("qrls", *c, r, err.msg, id, shown, -SL_EUNSUPP,
					     SL_PBSE_NOSUP);
}

int main(int argc, char **argv)
{
	return sl_qjob_main(SL_QRLS, "qrls", argc, argv, one);
}
