/* pbs_jobcmd.c - the operand loop and failure messages of qhold, qrls,
 * qsig, qalter and qmove (pbs_jobcmd.h). */
#include "pbs_jobcmd.h"
#include "pbs_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbs_array.h"
#include "xalloc.h"

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

void sl_qjob_arrays_among(struct sl_client *c, uint64_t *ids, size_t n, unsigned char *is_array)
{
	struct sl_jobfilter f = {.ids = ids, .n_ids = n, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t nv = 0;

	memset(is_array, 0, n);
	if (n == 0 || sl_client_jobs(c, &f, &v, &nv, &err) != 0)
		return;
	for (size_t i = 0; i < nv; i++)
		for (size_t k = 0; k < n && v[i]->array_job_id != 0; k++)
			is_array[k] |= v[i]->array_job_id == ids[k] && v[i]->id != ids[k];
	sl_job_free_array(v, nv);
}

int sl_qjob_is_array(struct sl_client *c, uint64_t id)
{
	unsigned char r = 0;

	sl_qjob_arrays_among(c, &id, 1, &r);
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

/* The subjobs of array operand sel: with SL_QJOB_SIGNAL the array's
 * running ones, or those in the range that have not ended; else the
 * array's pending ones. *running: how many of them run. 0, or 1 when sel
 * names no subjob, 2 when every one it names ended, -1 when the daemon
 * did not answer. */
static int subjobs_of(struct sl_client *c, const struct sl_pbs_sel *sel,
		      enum sl_qjob_arrays policy, uint64_t **out, size_t *n, size_t *running)
{
	struct sl_jobfilter f = {.ids = (uint64_t *)&sel->id, .n_ids = 1, .history = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t nv = 0, found = 0, ended = 0;

	*n = *running = 0;
	if (sl_client_jobs(c, &f, &v, &nv, &err) != 0)
		return -1;
	*out = sl_xcalloc(nv + 1, sizeof(**out));
	for (size_t i = 0; i < nv; i++) {
		const struct sl_job *j = v[i];
		uint32_t t = (uint32_t)j->array_task_id;
		if (j->array_job_id != sel->id)
			continue;
		if (sel->type == SL_PBS_SEL_SUBJOBS && (t < sel->lo || t > sel->hi))
			continue;
		found++;
		ended += sl_jobstate_is_final(j->state);
		*running += !sl_jobstate_is_final(j->state) && j->state != SL_JOB_PENDING;
		if (sl_jobstate_is_final(j->state) ||
		    (sel->type == SL_PBS_SEL_ARRAY && policy != SL_QJOB_SIGNAL &&
		     j->state != SL_JOB_PENDING) ||
		    (sel->type == SL_PBS_SEL_ARRAY && policy == SL_QJOB_SIGNAL &&
		     j->state == SL_JOB_PENDING))
			continue;
		(*out)[(*n)++] = j->id;
	}
	sl_job_free_array(v, nv);
	return found == 0 ? 1 : ended == found ? 2 : 0;
}

/* An array operand ("N[]", "N[I]", "N[A-B]") under the command's policy:
 * PBS Pro holds, releases, alters and moves arrays, not subjobs
 * (src/server/req_holdjob.c:277, req_modify.c:208, req_movejob.c:123:
 * PBSE_IVALREQ), moves an array only while no subjob runs
 * (req_movejob.c:143), and signals both. */
static int one_array(const char *name, struct sl_client **c, const struct sl_pbs_sel *sel,
		     const char *shown, const char *server, enum sl_qjob_arrays policy,
		     sl_qjob_fn one, const void *arg)
{
	uint64_t *ids = NULL;
	size_t n = 0, running = 0;
	int e = 0, k;

	if (policy != SL_QJOB_SIGNAL && sel->type == SL_PBS_SEL_SUBJOBS) {
		fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_IVALREQ), shown);
		return SL_PBSE_IVALREQ;
	}
	if ((e = sl_qjob_connect(name, c, server)) != 0)
		return e;
	if ((k = subjobs_of(*c, sel, policy, &ids, &n, &running)) < 0) {
		fprintf(stderr, "%s: cannot connect to server %s (errno=%d)\n", name, server,
			SL_PBSE_SYSTEM);
		return SL_PBSE_SYSTEM;
	}
	if (k == 1) {
		fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_UNKJOBID), shown);
		e = SL_PBSE_UNKJOBID;
	} else if (k == 2) { /* in the history: as sl_qjob_report() tells it */
		fprintf(stderr, "%s: %s\n", name, sl_pbse_text(SL_PBSE_HISTJOBID));
		e = SL_PBSE_HISTJOBID;
	} else if (n == 0 && policy == SL_QJOB_SIGNAL) { /* nothing running */
		fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_BADSTATE), shown);
		e = SL_PBSE_BADSTATE;
	} else if (running > 0 && policy == SL_QJOB_MOVE) {
		fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_IVALREQ), shown);
		e = SL_PBSE_IVALREQ;
		n = 0;
	}
	/* the first failure is the array's: told once, as PBS answers once */
	for (size_t i = 0; i < n && e == 0; i++)
		e = one(c, arg, ids[i], shown, server);
	free(ids);
	return e;
}

int sl_qjob_each(const char *name, char **ids, int n, sl_qjob_fn one, const void *arg,
		 enum sl_qjob_arrays policy)
{
	struct sl_client *c = NULL;
	char *server = sl_pbs_server_name();
	int failed = 0;

	for (int i = 0; i < n; i++) {
		struct sl_pbs_sel sel;
		char *shown;
		int k = sl_pbs_operand_sel(ids[i], server, &sel, &shown), e;

		if (k < 0) {
			fprintf(stderr, "%s: illegally formed job identifier: %s\n", name, ids[i]);
			failed = 1;
		} else if (k > 0) {
			fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_UNKJOBID), shown);
			failed = SL_PBSE_UNKJOBID;
		} else if (sel.type != SL_PBS_SEL_JOB) {
			if ((e = one_array(name, &c, &sel, shown, server, policy, one, arg)) != 0)
				failed = e;
		} else if ((e = sl_qjob_connect(name, &c, server)) != 0) {
			failed = e;
		} else if (sl_qjob_is_array(c, sel.id)) { /* "N" is not "N[]" in PBS */
			fprintf(stderr, "%s: %s %s\n", name, sl_pbse_text(SL_PBSE_UNKJOBID), shown);
			failed = SL_PBSE_UNKJOBID;
		} else if ((e = one(&c, arg, sel.id, shown, server)) != 0) {
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

	sl_pbs_version_exit(argc, argv);
	if (sl_qctl_parse(cmd, argc, argv, &o, &fail, &err) != 0)
		return sl_qjob_parse_failed(name, &err, &fail, sl_qctl_usage(cmd));
	return sl_qjob_each(name, o.ids, o.n_ids, one, &o,
			    cmd == SL_QSIG ? SL_QJOB_SIGNAL : SL_QJOB_HOLD);
}
