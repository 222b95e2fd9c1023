/* qsig.c - send a signal to PBS jobs: options through compat/pbs_qopt, one
 * sl_client_cancel() with the signal for every id. The signal reaches the
 * job's processes (the batch script's process group, scancel --full), as
 * PBS's MOM signals the job's session; SIGKILL ends the job.
 *
 * Messages and exit status as OpenPBS's qsig (src/cmds/qsig.c, prt_job_err()):
 * "qsig: Unknown Job Id ID" (153), "qsig: Unauthorized Request  ID" (159),
 * "qsig: Request invalid for state of job ID" (168) for a job not running,
 * "qsig: Job has finished" (35), "qsig: Unknown/illegal signal name ID"
 * (165); suspend and resume are refused (Sluice suspends nothing). */
#include <stdio.h>
#include <stdlib.h>

#include "pbs_job.h"
#include "pbs_jobcmd.h"

static int one(struct sl_client **c, const void *arg, uint64_t id, const char *shown,
	       const char *server)
{
	const struct sl_qctl_opts *o = arg;
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobresult *res = NULL;
	size_t nres = 0;
	int e = 0;

	if (o->signal < 0) {
		fprintf(stderr, "qsig: %s %s\n", sl_pbse_text(SL_PBSE_UNKSIG), shown);
		return SL_PBSE_UNKSIG;
	}
	if ((e = sl_qjob_connect("qsig", c, server)) != 0)
		return e;
	if (sl_client_cancel(*c, &f, o->signal, 2, &res, &nres, &err) != 0) {
		fprintf(stderr, "qsig: cannot connect to server %s (errno=%d)\n", server,
			SL_PBSE_SYSTEM);
		return SL_PBSE_SYSTEM;
	}
	/* pending: nothing to signal yet */
	for (size_t k = 0; k < nres && e == 0; k++)
		if (res[k].id == id && res[k].rc != 0)
			e = sl_qjob_report("qsig", *c, res[k].rc, res[k].msg, id, shown, -SL_EBUSY,
					   SL_PBSE_BADSTATE);
	free(res);
	return e;
}

int main(int argc, char **argv)
{
	return sl_qjob_main(SL_QSIG, "qsig", argc, argv, one);
}
