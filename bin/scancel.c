/* scancel.c - cancel or signal jobs, with Slurm 22.05's messages and exit
 * codes: the exit status is Slurm's error number's low byte (210 for
 * another user's job, 228 for a signal to a pending job), 1 for an id
 * that names no active job when filters or a signal were given, 8 when
 * the controller cannot be reached. Options through compat/scancel_opt,
 * one sl_client_cancel() call (-i asks sl_client_query() first, for the
 * names its questions show). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "client_step.h"
#include "scancel_opt.h"
#include "slurm_clusters.h"
#include "slurm_state.h"
#include "xalloc.h"

#define EXIT_NOCONN 8
#define E_INVALID_JOB_ID 2017 /* Slurm's error numbers, for the exit status */
#define E_ACCESS_DENIED 2002
#define E_TRANSITION 2020
#define E_NOT_HET 2106

static int max(int a, int b)
{
	return a > b ? a : b;
}

/* -v's line for each job acted on. */
static void verbose_line(const struct sl_scancel_opts *o, const char *id)
{
	if (o->verbose <= 0)
		return;
	if (o->signal)
		fprintf(stderr, "scancel: Signal %d to %sjob %s\n", o->signal,
			sl_scancel_job_type(o), id);
	else
		fprintf(stderr, "scancel: Terminating %sjob %s\n", sl_scancel_job_type(o), id);
}

/* One job's outcome: Slurm's wording, and its error number (0: none). An
 * unknown or finished job is silent without filters or a signal (Slurm
 * kills by id and ignores those), and an error otherwise (its job list
 * has no such active job). */
/* Was array id named whole on the command line ("N", not "N_I")? */
static int given(const struct sl_scancel_opts *o, uint64_t id)
{
	for (size_t i = 0; i < o->sel.n_ids; i++)
		if (o->sel.ids[i] == id)
			return 1;
	return 0;
}

/* 1 when every task of array job aid among the n results had ended
 * already (-SL_ESTATE): Slurm's kill of the array then fails as a whole,
 * "Job/step already completing or completed" (said under -v). */
static int array_all_ended(const struct sl_jobresult *res, size_t n, uint64_t aid)
{
	for (size_t i = 0; i < n; i++)
		if (res[i].array_job_id == aid && res[i].rc != -SL_ESTATE)
			return 0;
	return 1;
}

/* -v on task "N_I" (not of an "N_[A-B]" word) that no result names: no
 * such task, or it was purged. Slurm tries it all the same and says so
 * under -v (plain kills are silent otherwise, exit 0). */
static void report_missing_tasks(const struct sl_scancel_opts *o,
				 const struct sl_jobresult *res, size_t n)
{
	char id[64];

	if (!sl_scancel_plain(o) || o->verbose <= 0)
		return;
	for (size_t i = 0; i < o->sel.n_tasks; i++) {
		const struct sl_taskid *t = &o->sel.tasks[i];
		size_t k = 0;
		while (k < n && !(res[k].array_job_id == t->job &&
				  res[k].array_task_id == (int)t->task))
			k++;
		if (k < n || sl_scancel_word_of(o, t->job, (int)t->task) != NULL)
			continue;
		snprintf(id, sizeof(id), "%llu_%u", (unsigned long long)t->job, t->task);
		verbose_line(o, id);
		fprintf(stderr, "scancel: error: Kill job error on job id %s: "
			"Invalid job id specified\n", id);
	}
}

static int report(const struct sl_scancel_opts *o, const struct sl_jobresult *r,
		  int all_ended, uint64_t *last_array, const struct sl_scancel_word **last_word)
{
	const char *why = r->msg[0] ? r->msg : sl_strerror(r->rc);
	int plain = sl_scancel_plain(o), gone = r->rc == -SL_ENOENT || r->rc == -SL_ESTATE;
	int code = 1;
	char id[256];

	const struct sl_scancel_word *w = r->array_job_id != 0
		? sl_scancel_word_of(o, r->array_job_id, r->array_task_id) : NULL;

	if (w != NULL) { /* "N_[1-3]": one request in Slurm, one line or error */
		if (*last_word == w)
			return 0;
		*last_word = w;
		snprintf(id, sizeof(id), "%s", w->word);
	} else if (r->array_job_id != 0 && given(o, r->array_job_id))
		snprintf(id, sizeof(id), "%llu", (unsigned long long)r->array_job_id);
	else if (r->array_job_id != 0)
		snprintf(id, sizeof(id), "%llu_%d", (unsigned long long)r->array_job_id,
			 r->array_task_id);
	else
		snprintf(id, sizeof(id), "%llu", (unsigned long long)r->id);
	/* Slurm acts on an array named whole once: one line, and its tasks
	 * that already ended are no error, unless all of them had (MATLAB's
	 * plugin cancels its arrays so, by "scancel -v 'N'"). */
	if (r->array_job_id != 0 && given(o, r->array_job_id)) {
		if ((r->rc == -SL_ESTATE && !all_ended) || *last_array == r->array_job_id)
			return r->rc == -SL_EBUSY ? E_TRANSITION : 0;
		*last_array = r->array_job_id;
	}
	if (plain || !gone)
		verbose_line(o, id);
	if (r->rc == 0)
		return 0;
	switch (-r->rc) {
	case SL_ENOENT: why = "Invalid job id specified"; code = plain ? 0 : 1; break;
	case SL_ESTATE:
		if (!plain)
			why = "Invalid job id specified";
		code = plain ? 0 : 1;
		break;
	case SL_EPERM: why = "Access/permission denied"; code = E_ACCESS_DENIED; break;
	case SL_EBUSY: code = E_TRANSITION; break;
	default: break;
	}
	if (gone ? (plain ? o->verbose > 0 : !o->quiet) : 1)
		fprintf(stderr, "scancel: error: Kill job error on job id %s: %s\n", id, why);
	return code;
}

/* A step "N.S": sluiced passes the signal (0: cancel) to its srun. */
static int signal_step(const struct sl_scancel_opts *o, const char *id)
{
	struct sl_err err = SL_ERR_INIT;
	char *dot;
	uint64_t job = strtoull(id, &dot, 10);
	uint32_t step = (uint32_t)strtoul(dot + 1, NULL, 10);
	int r = sl_client_step_signal(job, step, o->signal, &err);
	if (r == -SL_EPERM)
		fprintf(stderr, "scancel: error: Kill job error on job step id %s: "
			"Access/permission denied\n", id);
	return r == -SL_EPERM ? E_ACCESS_DENIED : r == 0 ? 0 : -1;
}

/* Ids Sluice answers itself: no job is heterogeneous; a step that is not
 * running. */
static int answer_steps_het(const struct sl_scancel_opts *o, const char *skip)
{
	int rc = 0;

	for (size_t i = 0; i < o->n_steps; i++) {
		int r;
		if (skip && skip[i]) /* its job is not active: said already */
			continue;
		if (o->verbose > 0 && !o->signal)
			fprintf(stderr, "scancel: Terminating step %s\n", o->steps[i]);
		if ((r = signal_step(o, o->steps[i])) >= 0) {
			rc = max(rc, r);
			continue;
		}
		if (o->signal)
			continue; /* Slurm signals a missing step silently */
		fprintf(stderr, "scancel: error: Kill job error on job step id %.*s: "
			"Invalid job id specified\n", (int)strcspn(o->steps[i], "."), o->steps[i]);
		rc = max(rc, E_INVALID_JOB_ID);
	}
	for (size_t i = 0; i < o->n_het; i++) {
		verbose_line(o, o->het[i]);
		fprintf(stderr, "scancel: error: Kill job error on job id %s: "
			"Job not heterogeneous job\n", o->het[i]);
		rc = max(rc, E_NOT_HET);
	}
	return rc;
}

/* -i: "Cancel job_id=N name=X partition=P [y/n]? " until y or n. Slurm
 * asks again at the end of its input forever; here that is a no. */
static int confirm(const struct sl_job *j)
{
	char line[128];

	for (;;) {
		printf("Cancel job_id=%llu name=%s partition=%s [y/n]? ",
		       (unsigned long long)j->id, j->spec.name ? j->spec.name : "(null)",
		       j->spec.partition ? j->spec.partition : "(null)");
		fflush(stdout);
		if (fgets(line, sizeof(line), stdin) == NULL)
			return 0;
		if (line[0] == 'y' || line[0] == 'Y')
			return 1;
		if (line[0] == 'n' || line[0] == 'N')
			return 0;
	}
}

/* -i: the active jobs the filter names, pending ones first, each asked
 * about; f's ids become the confirmed ones. Ids naming no active job are
 * Slurm's "Invalid job id specified". */
static int interactive(const struct sl_scancel_opts *o, struct sl_jobfilter *f, uint64_t **ids,
		       int *rc)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0, k = 0;
	int r;

	if ((r = sl_client_query(f, &v, &n, &err)) != 0)
		return r;
	*ids = sl_xcalloc(n + 1, sizeof(**ids));
	for (size_t i = 0; i < o->sel.n_ids; i++) {
		size_t m = 0;
		while (m < n && (v[m]->id != o->sel.ids[i] || sl_jobstate_is_final(v[m]->state)))
			m++;
		if (m == n && !o->quiet)
			fprintf(stderr, "scancel: error: Kill job error on job id %llu: "
				"Invalid job id specified\n", (unsigned long long)o->sel.ids[i]);
		*rc = max(*rc, m == n);
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (!sl_jobstate_is_final(v[i]->state) && v[i]->state != SL_JOB_COMPLETING &&
			    (v[i]->state == SL_JOB_PENDING) == (pass == 0) && confirm(v[i]))
				(*ids)[k++] = v[i]->id;
	sl_job_free_array(v, n);
	memset(f, 0, sizeof(*f));
	f->ids = *ids;
	f->n_ids = k;
	return 0;
}

/* 1 when job id (a job, or an array named whole) is among v's active jobs. */
static int active(struct sl_job **v, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if ((v[i]->id == id || v[i]->array_job_id == id) &&
		    !sl_jobstate_is_final(v[i]->state))
			return 1;
	return 0;
}

/* Slurm's _verify_job_ids, run when filters, a signal or a step come with
 * ids: an id naming no active job is an error before any filter applies
 * (its line unless -Q, exit 1), and is no longer asked for. *kept gets
 * the others (caller frees); a step of no active job is marked in
 * skip_step. 1 when the daemon could not answer (nothing verified). */
static int verify_ids(const struct sl_scancel_opts *o, uint64_t **kept, size_t *nkept,
		      char *skip_step, int *rc)
{
	size_t n = 0, nq = o->sel.n_ids + o->n_steps;
	uint64_t *q = sl_xcalloc(nq + 1, sizeof(*q));
	struct sl_jobfilter f = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;

	if (o->sel.n_ids > 0) /* ids may be NULL with steps alone */
		memcpy(q, o->sel.ids, o->sel.n_ids * sizeof(*q));
	for (size_t i = 0; i < o->n_steps; i++)
		q[o->sel.n_ids + i] = strtoull(o->steps[i], NULL, 10);
	f.ids = q;
	f.n_ids = nq;
	*kept = sl_xcalloc(o->sel.n_ids + 1, sizeof(**kept));
	*nkept = 0;
	if (sl_client_query(&f, &v, &n, &err) != 0) {
		free(q);
		return 1;
	}
	for (size_t i = 0; i < o->sel.n_ids; i++) {
		if (active(v, n, o->sel.ids[i])) {
			(*kept)[(*nkept)++] = o->sel.ids[i];
			continue;
		}
		if (!o->quiet)
			fprintf(stderr, "scancel: error: Kill job error on job id %llu: Invalid job id "
				"specified\n", (unsigned long long)o->sel.ids[i]);
		*rc = max(*rc, 1);
	}
	for (size_t i = 0; i < o->n_steps; i++) {
		if ((skip_step[i] = !active(v, n, q[o->sel.n_ids + i])) == 0)
			continue;
		if (!o->quiet)
			fprintf(stderr, "scancel: error: Kill job error on job step id %s: Invalid job "
				"id specified\n", o->steps[i]);
		*rc = max(*rc, 1);
	}
	sl_job_free_array(v, n);
	free(q);
	return 0;
}

static int cancel(const struct sl_scancel_opts *o, uint64_t *kept, size_t nkept, int rc)
{
	struct sl_jobfilter f = {0};
	struct sl_client *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobresult *res = NULL;
	uint64_t *confirmed = NULL, last_array = 0;
	const struct sl_scancel_word *last_word = NULL;
	char text[512];
	size_t n = 0;
	int r = 0;

	sl_jobsel_filter(&o->sel, &f);
	f.states = o->sel.states.states, f.n_states = o->sel.states.n;
	if (kept != NULL) { /* verified: none left is nothing to do, not all jobs */
		f.ids = kept;
		f.n_ids = nkept;
		if (nkept + f.n_tasks == 0)
			return rc;
	}
	if (o->interactive)
		r = interactive(o, &f, &confirmed, &rc);
	if (r == 0 && (f.n_ids + f.n_tasks > 0 || !o->interactive) &&
	    (r = sl_client_connect(NULL, &c, &err)) == 0)
		r = sl_client_cancel(c, &f, o->signal, sl_scancel_scope(o), &res, &n, &err);
	sl_client_free(c);
	free(confirmed);
	if (r != 0) {
		const char *why = r == -SL_ECONNECT
			? "Unable to contact slurm controller (connect failure)" : err.msg;
		for (size_t i = 0; i < o->sel.n_ids; i++)
			fprintf(stderr, "scancel: error: Kill job error on job id %llu: %s\n",
				(unsigned long long)o->sel.ids[i], why);
		if (o->sel.n_ids == 0)
			fprintf(stderr, "scancel: error: %s\n", why);
		return r == -SL_ECONNECT ? EXIT_NOCONN : 1;
	}
	for (size_t i = 0; i < n; i++)
		rc = max(rc, report(o, &res[i],
				    res[i].array_job_id != 0 &&
				    array_all_ended(res, n, res[i].array_job_id),
				    &last_array, &last_word));
	report_missing_tasks(o, res, n);
	if (n == 0 && o->sel.n_ids == 0 && o->filters && o->verbose > 0) {
		sl_scancel_filters_text(o, text, sizeof(text));
		fprintf(stderr, "scancel: error: No active jobs match ALL job filters, including: "
			"%s\n", text);
	}
	free(res);
	return rc;
}

int main(int argc, char **argv)
{
	struct sl_scancel_opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	char text[512];
	int syntax, rc = 0;

	if (sl_scancel_opts_parse(argc, argv, &o, &syntax, &err) != 0) {
		fprintf(stderr, syntax ? "scancel: %s\n" : "%s\n", err.msg);
		if (syntax)
			fprintf(stderr, "Try \"scancel --help\" for more information\n");
		return 1;
	}
	if (o.version || o.help || o.usage) {
		if (o.version)
			printf("slurm 22.05.8\n");
		else
			fputs(sl_scancel_usage, stdout);
		return 0;
	}
	free(sl_slurm_clusters_or_exit("scancel", o.clusters));
	if (o.none) { /* a filter no Sluice job passes */
		if (o.sel.n_ids == 0 && o.verbose > 0) {
			sl_scancel_filters_text(&o, text, sizeof(text));
			fprintf(stderr, "scancel: error: No active jobs match ALL job filters, "
				"including: %s\n", text);
		}
		rc = max(rc, answer_steps_het(&o, NULL));
	} else {
		uint64_t *kept = NULL;
		size_t nkept = 0;
		char *skip = sl_xcalloc(o.n_steps + 1, 1);
		if (o.sel.n_ids + o.n_steps > 0 && !o.interactive &&
		    (!sl_scancel_plain(&o) || o.n_steps > 0) &&
		    verify_ids(&o, &kept, &nkept, skip, &rc) != 0) {
			free(kept);
			kept = NULL;
		}
		if (o.sel.n_ids + o.sel.n_tasks > 0 || o.filters)
			rc = cancel(&o, kept, nkept, rc);
		rc = max(rc, answer_steps_het(&o, skip));
		free(kept);
		free(skip);
	}
	sl_scancel_opts_clear(&o);
	return rc & 0xff;
}
