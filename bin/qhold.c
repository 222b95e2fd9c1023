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
#include <string.h>

#include "client.h"
#include "pbs_job.h"
#include "pbs_qopt.h"

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

/* The failure of one job as PBS prints it; its PBS error number. */
static int report(struct sl_client *c, int rc, const struct sl_err *err, uint64_t id,
		  const char *shown)
{
	int e = sl_pbse_of(rc);

	if (rc == -SL_ESTATE || (rc == -SL_ENOENT && finished(c, id))) {
		fprintf(stderr, "qhold: %s\n", sl_pbse_text(SL_PBSE_HISTJOBID));
		return SL_PBSE_HISTJOBID;
	}
	if (rc == -SL_EUNSUPP)
		e = SL_PBSE_NOSUP; /* a running job: PBS would need a checkpoint */
	if (e == 0) {
		fprintf(stderr, "qhold: %s %s\n", err->msg[0] ? err->msg : sl_strerror(rc), shown);
		return 1;
	}
	fprintf(stderr, "qhold: %s %s\n", sl_pbse_text(e), shown);
	return e;
}

/* -h o first: a user asking for it is refused before anything changes. */
static int one(struct sl_client *c, const struct sl_qctl_opts *o, uint64_t id, const char *shown)
{
	struct sl_err err = SL_ERR_INIT;
	int r = 0;

	if (o->operator_hold)
		r = sl_client_hold(c, 0, 1, id, &err);
	if (r == 0 && o->user_hold && !o->operator_hold)
		r = sl_client_hold(c, 0, 0, id, &err);
	return r == 0 ? 0 : report(c, r, &err, id, shown);
}

int main(int argc, char **argv)
{
	struct sl_qctl_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_client *c = NULL;
	char *server;
	int failed = 0;

	if (sl_qctl_parse(SL_QHOLD, argc, argv, &o, &fail, &err) != 0) {
		if (err.msg[0])
			fprintf(stderr, "qhold: %s\n", err.msg);
		if (fail.usage)
			fputs(sl_qctl_usage(SL_QHOLD), stderr);
		return fail.status;
	}
	server = sl_pbs_server_name();
	for (int i = 0; i < o.n_ids; i++) {
		uint64_t id;
		char *shown;
		int k = sl_pbs_operand(o.ids[i], server, &id, &shown), e;

		if (k < 0) {
			fprintf(stderr, "qhold: illegally formed job identifier: %s\n", o.ids[i]);
			failed = 1;
		} else if (k > 0) {
			fprintf(stderr, "qhold: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID), shown);
			failed = SL_PBSE_UNKJOBID;
		} else if (c == NULL && sl_client_connect(NULL, &c, &err) != 0) {
			fprintf(stderr, "qhold: cannot connect to server %s (errno=%d)\n", server,
				SL_PBSE_SYSTEM);
			failed = SL_PBSE_SYSTEM;
		} else if ((e = one(c, &o, id, shown)) != 0) {
			failed = e;
		}
		free(shown);
	}
	sl_client_free(c);
	free(server);
	return sl_pbse_status(failed);
}
