/* qdel.c - delete PBS jobs: options through compat/pbs_qopt, one
 * sl_client_cancel() for every id, and for an id the daemon no longer
 * holds a look at the history to tell a finished job from an unknown one.
 *
 * Messages and exit status as OpenPBS's qdel (src/cmds/qdel.c
 * process_deljobstat(): "qdel: TEXT ID" per failed job, the exit status
 * the last failure's PBS error number's low byte): "qdel: Unknown Job Id
 * 99.server" (153), "qdel: Unauthorized Request  5.server" (159), "qdel:
 * Job has finished 5.server" (35). -W force is a plain delete here (no MOM
 * to wait for); -x deletes live jobs, but a finished job's history stays
 * (qstat -x and sacct read it), which qdel says. Arrays as PBS Pro's qdel
 * takes them: "N[]" the whole array, "N[I]" a subjob, "N[A-B]" a range of
 * subjobs; a failure is told once per operand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "client.h"
#include "pbs_job.h"
#include "pbs_jobcmd.h"
#include "pbs_qopt.h"
#include "xalloc.h"

/* One job's failure; the PBS error number, or 1 for Sluice's own. */
static int report(struct sl_client *c, const struct sl_qctl_opts *o,
		  const struct sl_jobresult *res, const char *shown)
{
	int e = sl_pbse_of(res->rc);

	if (res->rc == -SL_ESTATE || (res->rc == -SL_ENOENT && sl_qjob_finished(c, res->id))) {
		if (o->history) {
			fprintf(stderr, "qdel: -x on a finished job is not supported by Sluice (its "
					"history stays for qstat -x and sacct) %s\n", shown);
			return 1;
		}
		e = SL_PBSE_HISTJOBID;
	}
	if (e == 0) {
		fprintf(stderr, "qdel: %s %s\n", res->msg[0] ? res->msg : sl_strerror(res->rc), shown);
		return 1;
	}
	fprintf(stderr, "qdel: %s %s\n", sl_pbse_text(e), shown);
	return e;
}

/* Does result x belong to operand sel? */
static int answers(const struct sl_jobresult *x, const struct sl_pbs_sel *sel)
{
	if (sel->type == SL_PBS_SEL_JOB)
		return x->id == sel->id;
	if (sel->type == SL_PBS_SEL_ARRAY)
		return x->id == sel->id || x->array_job_id == sel->id;
	return x->array_job_id == sel->id && x->array_task_id >= 0 &&
	       (uint32_t)x->array_task_id >= sel->lo && (uint32_t)x->array_task_id <= sel->hi;
}

/* Did any result answer operand sel? */
static int answered(const struct sl_jobresult *res, size_t n, const struct sl_pbs_sel *sel)
{
	for (size_t k = 0; k < n; k++)
		if (answers(&res[k], sel))
			return 1;
	return 0;
}

/* The failure to tell for operand sel, NULL for none. Deleting several
 * subjobs ("N[]", "N[A-B]") passes over those that already ended, as PBS
 * deletes what is left of a begun array: only when every one had ended is
 * it told ("Job has finished"). */
static const struct sl_jobresult *failure(const struct sl_jobresult *res, size_t n,
					  const struct sl_pbs_sel *sel)
{
	const struct sl_jobresult *ended = NULL;
	int several = sel->type == SL_PBS_SEL_ARRAY ||
		      (sel->type == SL_PBS_SEL_SUBJOBS && sel->hi > sel->lo), done = 0;

	for (size_t k = 0; k < n; k++) {
		if (!answers(&res[k], sel))
			continue;
		if (res[k].rc == 0)
			done = 1;
		else if (several && res[k].rc == -SL_ESTATE)
			ended = ended ? ended : &res[k];
		else
			return &res[k];
	}
	return done ? NULL : ended;
}

/* The filter of the operands: job ids ("N", and "N[]", whose id selects its
 * subjobs) and subjobs ("N[I]", each of "N[A-B]"). */
static void add_sel(struct sl_jobfilter *f, const struct sl_pbs_sel *sel, size_t *cap_t)
{
	if (sel->type != SL_PBS_SEL_SUBJOBS) {
		f->ids[f->n_ids++] = sel->id;
		return;
	}
	for (uint64_t t = sel->lo; t <= sel->hi; t++) {
		f->tasks = sl_xgrow(f->tasks, cap_t, f->n_tasks + 1, sizeof(*f->tasks));
		f->tasks[f->n_tasks].job = sel->id;
		f->tasks[f->n_tasks++].task = (uint32_t)t;
	}
}

/* Each plain "N" that names an array is unknown, as PBS names it "N[]":
 * told, and dropped from sels (one query for all of them). */
static size_t drop_arrays(struct sl_client *c, struct sl_pbs_sel *sels, char **shown, size_t n,
			  int *failed)
{
	uint64_t *plain = sl_xcalloc(n + 1, sizeof(*plain));
	unsigned char *is_array = sl_xcalloc(n + 1, 1);
	size_t np = 0, m = 0;

	for (size_t i = 0; i < n; i++)
		if (sels[i].type == SL_PBS_SEL_JOB)
			plain[np++] = sels[i].id;
	sl_qjob_arrays_among(c, plain, np, is_array);
	np = 0;
	for (size_t i = 0; i < n; i++) {
		if (sels[i].type == SL_PBS_SEL_JOB && is_array[np++]) {
			fprintf(stderr, "qdel: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID), shown[i]);
			*failed = SL_PBSE_UNKJOBID;
			free(shown[i]);
			continue;
		}
		sels[m] = sels[i];
		shown[m++] = shown[i];
	}
	shown[m] = NULL;
	free(plain);
	free(is_array);
	return m;
}

int main(int argc, char **argv)
{
	struct sl_qctl_opts o;
	struct sl_pbs_failure fail;
	struct sl_err err = SL_ERR_INIT;
	struct sl_client *c = NULL;
	struct sl_jobresult *res = NULL;
	struct sl_jobfilter f = {0};
	struct sl_pbs_sel *sels;
	size_t nres = 0, n = 0, cap_t = 0;
	char **shown, *server;
	int failed = 0;

	sl_pbs_version_exit(argc, argv);
	if (sl_qctl_parse(SL_QDEL, argc, argv, &o, &fail, &err) != 0)
		return sl_qjob_parse_failed("qdel", &err, &fail, sl_qctl_usage(SL_QDEL));
	server = sl_pbs_server_name();
	f.ids = sl_xcalloc((size_t)o.n_ids, sizeof(*f.ids));
	sels = sl_xcalloc((size_t)o.n_ids, sizeof(*sels));
	shown = sl_xcalloc((size_t)o.n_ids + 1, sizeof(*shown));
	for (int i = 0; i < o.n_ids; i++) {
		char *s;
		int k = sl_pbs_operand_sel(o.ids[i], server, &sels[n], &s);
		if (k < 0 || (k == 0 && sels[n].type == SL_PBS_SEL_SUBJOBS &&
			      sels[n].hi - sels[n].lo >= SL_ARRAY_MAX_LIMIT)) {
			fprintf(stderr, "qdel: illegally formed job identifier: %s\n", o.ids[i]);
			failed = 1;
			free(s);
		} else if (k > 0) {
			fprintf(stderr, "qdel: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID), s);
			failed = SL_PBSE_UNKJOBID;
			free(s);
		} else {
			shown[n++] = s;
		}
	}
	if (n > 0 && sl_client_connect(NULL, &c, &err) != 0) {
		fprintf(stderr, "Couldn't connect to cluster: %s\n", server);
		failed = SL_PBSE_SYSTEM;
		n = 0;
	}
	n = n > 0 ? drop_arrays(c, sels, shown, n, &failed) : 0;
	for (size_t i = 0; i < n; i++)
		add_sel(&f, &sels[i], &cap_t);
	if (n > 0) {
		if (sl_client_cancel(c, &f, 0, 0, &res, &nres, &err) != 0) {
			fprintf(stderr, "Couldn't connect to cluster: %s\n", server);
			failed = SL_PBSE_SYSTEM;
		}
		/* in the order given, as the server answers a delete list */
		for (size_t i = 0; i < n; i++) {
			const struct sl_jobresult *x = failure(res, nres, &sels[i]);
			if (x != NULL) {
				failed = report(c, &o, x, shown[i]);
			} else if (!answered(res, nres, &sels[i])) {
				/* subjobs the array never had: the daemon matched none */
				fprintf(stderr, "qdel: %s %s\n", sl_pbse_text(SL_PBSE_UNKJOBID),
					shown[i]);
				failed = SL_PBSE_UNKJOBID;
			}
		}
	}
	sl_client_free(c);
	free(res);
	free(f.ids);
	free(f.tasks);
	free(sels);
	sl_strv_free(shown);
	free(server);
	return sl_pbse_status(failed);
}
