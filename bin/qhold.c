/* qhold.c - set PBS holds: options through compat/pbs_qopt (-h u, o; s and
 * p refused), one sl_client_hold() per job (PROTOCOL.md, request 20).
 *
 * As OpenPBS's qhold (src/cmds/qhold.c, messages by prt_job_err() in
 * src/lib/Libcmds/err_handling.c): "qhold: Unknown Job Id ID" (153),
 * "qhold: Unauthorized Request  ID" (159) for another user's job or an
 * operator hold asked by a user, "qhold: Job has finished" (35, the id left
 * out as PBS's message has no place for it); the exit status is the last
 * failure's PBS error number's low byte. A running job is not held:
 * PBS would checkpoint it, Sluice cannot ("qhold: No support for
 * requested service ID", 181). */
#include <stdio.h>
#include <stdlib.h>

#include "pbs_job.h"
#include "pbs_jobcmd.h"

/* -h o first: a user asking for it is refused before anything changes. */
static int one(struct sl_client **c, const void *arg, uint64_t id, const char *shown,
	       const char *server)
{
	const struct sl_qctl_opts *o = arg;
	struct sl_err err = SL_ERR_INIT;
	int r = sl_qjob_connect("qhold", c, server);

	if (r != 0)
		return r;
	if (o->operator_hold)
		r = sl_client_hold(*c, 0, 1, id, &err);
	if (r == 0 && o->user_hold && !o->operator_hold)
		r = sl_client_hold(*c, 0, 0, id, &err);
	/* a running job: PBS would need a checkpoint */
	return r == 0 ? 0 : sl_qjob_report("qhold", *c, r, err.msg, id, shown, -SL_EUNSUPP,
					     SL_PBSE_NOSUP);
}

int main(int argc, char **argv)
{
	return sl_qjob_main(SL_QHOLD, "qhold", argc, argv, one);
}
