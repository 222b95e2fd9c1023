/* pbs_jobcmd.c - the operand loop and failure messages of qhold, qrls,
 * qsig, qalter and qmove (pbs_jobcmd.h). */
#include "pbs_jobcmd.h"
#include "pbs_job.h"

#include <stdio.h>
#include <stdlib.h>

int sl_qjob_finished(struct sl_client *c, uint64_t id)
{
	struct sl_jobfilter f = {.ids = &id, .n_ids = 1, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0;
	int r = sl_client_jobs(c, &f, &v, &n, &err) == 0 && n > 0;

	sl_job_free_array(v, n);
	return r;
}

int sl_qjob_report(const char *name, struct sl_client *c, int rc, const char *msg, uint64_t id,
		   const char *shown, int special, int special_pbse)
{
	int e = sl_pbse_of(rc);

	if (rc == -SL_ESTATE || (rc == -SL_ENOENT && sl_qjob_finished(c, id))) {
		fprintf(stderr, "%s: %s\n", name, sl_pbse_text(SL_PBSE_HISTJOBID));
		return SL_PBSE_HISTJOBID;
	}
	if (rc == special)
		e = special_pbse;
	if (e == 0) {
		fprintf(stderr, "%s: %s %s\n", name, msg && msg[0] ? msg : sl_strerror(rc), shown);
		return 1;
	}
	fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(e), shown);
	return e;
}

int sl_qjob_connect(const char *name, struct sl_client **c, const char *server)
{
	struct sl_err err = SL_ERR_INIT;

	if (*c != NULL || sl_client_connect(NULL, c, &err) == 0)
		return 0;
	fprintf(stderr, "%s: cannot connect to server %s (errno=%d)\n", name, server,
		SL_PBSE_SYSTEM);
	return SL_PBSE_SYSTEM;
}

int sl_qjob_parse_failed(const char *name, const struct sl_err *err,
			 const struct sl_pbs_failure *f, const char *usage)
{
	if (err->msg[0])
		fprintf(stderr, "%s: %s\n", name, err->msg);
	if (f->usage)
		fputs(usage, stderr);
	return f->status;
}

int sl_qjob_each(const char *name, char **ids, int n, sl_qjob_fn one, const void *arg)
{
	struct sl_client *c = NULL;
	char *server = sl_pbs_server_name();
	int failed = 0;

	for (int i = 0; i < n; i++) {
		uint64_t id;
		char *shown;
		int k = sl_pbs_operand(ids[i], server, &id, &shown), e;

		if (k < 0) {
			fprintf(stderr, "%s: illegally formed job identifier: %s\n", name, ids[i]);
			failed = 1;
		} else if (k > 0) {
			fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_UNKJOBID), shown);
			failed = SL_PBSE_UNKJOBID;
		} else if ((e = one(&c, arg, id, shown, server)) != 0) {
			failed = e;
		}
		free(shown);
	}
	sl_client_free(c);
	free(server);
	return sl_pbse_status(failed);
}

int sl_qjob_main(enum sl_qctl_cmd cmd, const char *name, int argc, char **argv, sl_qjob_fn one)
{
	struct sl_qctl_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;

	if (sl_qctl_parse(cmd, argc, argv, &o, &fail, &err) != 0)
		return sl_qjob_parse_failed(name, &err, &fail, sl_qctl_usage(cmd));
	return sl_qjob_each(name, o.ids, o.n_ids, one, &o);
}
