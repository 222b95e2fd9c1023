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
#include <string.h>

#include "client.h"
#include "pbs_job.h"
#include "pbs_qopt.h"
#include "xalloc.h"

static int finished(struct sl_client *c, uint64_t id)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0;
	int r = sl_client_jobs(c, &f, &v, &n, &err) == 0 && n > 0;

	sl_job_free_array(v, n);
	return r;
}

static int report(struct sl_client *c, const struct sl_jobresult *res, const char *shown)
{
	int e = sl_pbse_of(res->rc);

	if (res->rc == -SL_ESTATE || (res->rc == -SL_ENOENT && finished(c, res->id))) {
		fprintf(stderr, "qsig: %s\n", sl_pbse_text(SL_PBSE_HISTJOBID));
		return SL_PBSE_HISTJOBID;
	}
	if (res->rc == -SL_EBUSY)
		e = SL_PBSE_BADSTATE; /* pending: nothing to signal yet */
	if (e == 0) {
		fprintf(stderr, "qsig: %s %s\n", res->msg[0] ? res->msg : sl_strerror(res->rc), shown);
		return 1;
	}
	fprintf(stderr, "qsig: %s %s\n", sl_pbse_text(e), shown);
	return e;
}

static int signal_one(struct sl_client **c, const struct sl_qctl_opts *o, uint64_t id,
		      const char *shown, const char *server)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobresult *res = NULL;
	size_t nres = 0;
	int e = 0;

	if (o->signal < 0) {
		fprintf(stderr, "qsig: %s %s\n", sl_pbse_text(SL_PBSE_UNKSIG), shown);
		return SL_PBSE_UNKSIG;
	}
	if ((*c == NULL && sl_client_connect(NULL, c, &err) != 0) ||
	    sl_client_cancel(*c, &f, o->signal, 2, &res, &nres, &err) != 0) {
		fprintf(stderr, "qsig: cannot connect to server %s (errno=%d)\n", server,
			SL_PBSE_SYSTEM);
		return SL_PBSE_SYSTEM;
	}
	for (size_t k = 0; k < nres && e == 0; k++)
		if (res[k].id == id && res[k].rc != 0)
			e = report(*c, &res[k], shown);
	free(res);
	return e;
}

int main(int argc, char **argv)
{
	struct sl_qctl_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_client *c = NULL;
	char *server;
	int failed = 0;

	if (sl_qctl_parse(SL_QSIG, argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "qsig: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_qctl_usage(SL_QSIG), stderr);
		return fail.status;
	}
	server = sl_pbs_server_name();
	for (int i = 0; i < o.n_ids; i++) {
		uint64_t id;
		char *shown;
		int k = sl_pbs_operand(o.ids[i], server, &id, &shown), e;

		if (k < 0) {
			fprintf(stderr, "qsig: illegally formed job identifier: %s\n", o.ids[i]);
			failed = 1;
		} else if (k > 0) {
			fprintf(stderr, "qsig: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID), shown);
			failed = SL_PBSE_UNKJOBID;
		} else if ((e = signal_one(&c, &o, id, shown, server)) != 0) {
			failed = e;
		}
		free(shown);
	}
	sl_client_free(c);
	free(server);
	return sl_pbse_status(failed);
}
