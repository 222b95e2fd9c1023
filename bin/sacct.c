/* sacct.c - job accounting as Slurm 22.05's sacct prints it, read from the
 * daemon's history: options through compat/sacct_opt, one
 * sl_client_query() (history = 1, every record), Slurm's order, window
 * and one record per job (sl_sacct_select), then compat/sacct_fmt's rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "client_step.h"
#include "job_proj.h"
#include "sacct_fmt.h"
#include "sacct_opt.h"
#include "slurm_json.h"
#include "squeue_fmt.h"
#include "slurm_state.h"
#include "xalloc.h"

#define OUT_CAP (512u << 20)

static void parse(int argc, char **argv, int64_t now, struct sl_sacct_opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;
	int syntax;

	if (sl_sacct_opts_parse(argc, argv, now, o, &syntax, &err) != 0) {
		fprintf(stderr, syntax ? "sacct: %s\n" : "%s\n", err.msg);
		exit(1);
	}
	if (o->version) {
		printf("slurm 22.05.8\n");
		exit(0);
	}
	if (o->help || o->usage) {
		fputs(sl_sacct_usage, stdout);
		exit(0);
	}
	if (o->helpformat) {
		b = sl_buf_new(1 << 16);
		sl_sacct_fields_help(b);
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
		sl_buf_free(b);
		exit(0);
	}
}

static struct sl_sacct_fmt *format(const struct sl_sacct_opts *o)
{
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	char *fields = sl_sacct_fields(o);

	if (sl_sacct_fmt_new(fields, &f, &err) != 0) {
		fprintf(stderr, strncmp(err.msg, "Invalid", 7) == 0 ? "sacct: error: %s\n"
								 : "sacct: fatal: %s\n", err.msg);
		exit(1);
	}
	free(fields);
	sl_sacct_fmt_set_delimiter(f, o->delimiter);
	sl_sacct_fmt_set_units(f, o->unit);
	return f;
}

/* The daemon sends a superset (the lists, the jobs that ended after the
 * window's start); Slurm's exact window is applied here. */
static int fetch(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
		 struct sl_job ***v, size_t *n)
{
	struct sl_jobfilter f = {0};
	struct sl_err err = SL_ERR_INIT;
	uid_t me = getuid();
	int r;

	f.history = 1;
	f.fold = 1; /* an array's pending tasks: one record, as Slurm's */
	/* every record, the runs requeues ended (REQUEUED) too: without -D the
	 * window still picks which of a job's records is shown (sl_sacct_select) */
	f.duplicates = 1;
	sl_jobsel_filter(&o->sel, &f);
	/* default: the caller's own jobs, unless root, -a, -j or -N */
	if (o->sel.n_uids == 0 && !o->allusers && me != 0 && o->sel.n_ids + o->sel.n_tasks == 0 &&
	    o->sel.n_nodes == 0)
		f.uids = &me, f.n_uids = 1;
	if (o->allusers)
		f.uids = NULL, f.n_uids = 0;
	f.start_after = w->start;
	if (o->script_out) { /* the members a listing leaves out unless named */
		struct sl_jobproj *p = sl_jobproj_new();
		sl_jobproj_add_all(p);
		r = sl_client_query_proj(&f, p, v, n, &err);
		sl_jobproj_free(p);
	} else {
		r = sl_client_query(&f, v, n, &err);
	}
	if (r == -SL_ECONNECT)
		fprintf(stderr, "sacct: error: Problem talking to the database: "
				"Unable to contact slurm controller (connect failure)\n");
	else if (r != 0)
		fprintf(stderr, "sacct: error: %s\n", err.msg);
	return r;
}

/* --json, --yaml: the records selected, as slurmdbd's /jobs/ document. */
static int print_json(const struct sl_sacct_opts *o, struct sl_job **v, size_t n,
		      const struct sl_step *steps, size_t ns, int64_t now, struct sl_buf *b)
{
	struct sl_err err = SL_ERR_INIT;
	char *cluster = NULL;

	if (sl_client_cluster_name(&cluster, &err) != 0) {
		fprintf(stderr, "sacct: error: %s\n", err.msg);
		return 1;
	}
	(void)sl_sacct_json(v, n, steps, ns, o->no_steps, cluster, now,
			    o->json == 2 ? SL_DOC_YAML : SL_DOC_JSON, b);
	free(cluster);
	return 0;
}

/* -B, --env-vars: sacct's _print_script and _print_env. The daemon sends
 * them to the job's owner and operators alone (NONE to others, as to a
 * Slurm without AccountingStoreFlags=job_script). */
static void print_scripts(const struct sl_sacct_opts *o, struct sl_job **v, size_t n)
{
	static const char dashes[] = "----------------------------------------"
				     "----------------------------------------";
	for (size_t i = 0; i < n; i++) {
		const struct sl_job *j = v[i];
		char id[64];
		sl_job_id_text(j, id, sizeof(id));
		if (o->script_out == 1) {
			const char *s = j->spec.script && *j->spec.script ? j->spec.script : NULL;
			printf("Batch Script for %s\n%s\n%s\n", id, dashes, s ? s : "NONE\n");
			continue;
		}
		printf("Environment used for %s (must be batch to display)\n%s\n", id, dashes);
		/* Slurm keeps a batch job's environment alone */
		if (j->spec.env == NULL || j->spec.env[0] == NULL || j->spec.interactive)
			fputs("NONE\n", stdout);
		for (char **e = j->spec.env; !j->spec.interactive && e && *e; e++)
			printf("%s\n", *e);
		putchar('\n');
	}
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The srun steps of the jobs fetched (none with -X), sorted as
 * sl_sacct_fmt_set_steps() wants them. A daemon without steps answers
 * none: the job rows still print. */
static void fetch_steps(const struct sl_sacct_opts *o, const struct sl_sacct_fmt *f,
			struct sl_job **v, size_t n, struct sl_step **steps, size_t *ns)
{
	struct sl_err err = SL_ERR_INIT;
	uint64_t *ids = sl_xcalloc(n ? n : 1, sizeof(*ids));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || ids[k - 1] != v[i]->id)
			ids[k++] = v[i]->id;
	qsort(ids, k, sizeof(*ids), cmp_id); /* jobs come in sacct's order */
	*steps = NULL;
	*ns = 0;
	/* -X prints no step, but the job's row may be made of them */
	if ((!o->no_steps || sl_sacct_fmt_job_uses_steps(f)) && k > 0)
		(void)sl_client_steps(ids, k, 0, steps, ns, &err);
	free(ids);
}

/* The rows of j that -j's step parts ask for (-X: its own row alone). */
static unsigned rows_of(const struct sl_sacct_opts *o, const struct sl_job *j)
{
	if (o->no_steps)
		return 0;
	return SL_SACCT_ROWS_STEPS | (sl_sacct_show_full(o, j) ? 0 : SL_SACCT_ROWS_NO_JOB) |
	       (sl_sacct_step_wanted(o, j, SL_SACCT_STEP_BATCH) ? 0 : SL_SACCT_ROWS_NO_BATCH);
}

/* -j's step parts: which srun steps get rows (sacct_fmt's filter). */
static int step_wanted(const void *arg, const struct sl_job *j, int step)
{
	return sl_sacct_step_wanted(arg, j, step);
}

/* The cluster's name for the Cluster field; 1 when -M names only other
 * clusters (their jobs: none, as Slurm's sacct has no rows of theirs). */
static int cluster(const struct sl_sacct_opts *o, struct sl_sacct_fmt *f)
{
	struct sl_err err = SL_ERR_INIT;
	char *name = NULL, *dup, *save = NULL;
	int ours = o->clusters == NULL;

	if (sl_client_cluster_name(&name, &err) != 0)
		return 0; /* the fetch says why */
	sl_sacct_fmt_set_cluster(f, name);
	dup = sl_xstrdup(o->clusters ? o->clusters : "");
	for (char *t = strtok_r(dup, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save))
		ours |= strcmp(t, "all") == 0 || strcasecmp(t, name) == 0;
	free(dup);
	free(name);
	return !ours;
}

/* -T: records and steps cut to the window (slurmdbd's truncation, for
 * either output); *now becomes the window's end when that is earlier. */
static void truncate_all(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
			 struct sl_job **v, size_t n, struct sl_step *steps, size_t ns,
			 int64_t *now)
{
	int64_t at = *now;

	if (!o->truncate)
		return;
	for (size_t i = 0; i < ns; i++)
		sl_sacct_truncate_step(w, *now, &steps[i].start_time, &steps[i].end_time);
	for (size_t i = 0; i < n; i++)
		at = sl_sacct_truncate(w, *now, v[i]);
	*now = at; /* what running jobs' times count to: the window's end */
}

int main(int argc, char **argv)
{
	struct sl_sacct_opts o = {0};
	struct sl_sacct_window w;
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	struct sl_buf *b;
	size_t n = 0;
	int64_t now = (int64_t)time(NULL);
	int rc = 0, other_cluster = 0;
	struct sl_step *steps = NULL;
	size_t ns = 0;

	parse(argc, argv, now, &o);
	f = format(&o);
	if (o.clusters || sl_sacct_fmt_uses(f, "Cluster"))
		other_cluster = cluster(&o, f);
	if (sl_sacct_window(&o, now, &w, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		sl_sacct_fmt_free(f);
		sl_sacct_opts_clear(&o);
		return 1;
	}
	b = sl_buf_new(OUT_CAP);
	if (o.json) {
		if (!o.sel.states.matches_none && fetch(&o, &w, &v, &n) != 0)
			rc = 1;
		sl_sacct_sort(v, n);
		sl_sacct_select(&o, &w, v, &n);
		fetch_steps(&o, f, v, n, &steps, &ns);
		truncate_all(&o, &w, v, n, steps, ns, &now);
		if (rc == 0 && (rc = print_json(&o, v, n, steps, ns, now, b)) == 0)
			fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
		goto out;
	}
	if (!o.noheader)
		sl_sacct_fmt_header(f, o.mode, b);
	if (!o.sel.states.matches_none && !other_cluster && fetch(&o, &w, &v, &n) != 0)
		rc = 1;
	sl_sacct_sort(v, n);
	sl_sacct_select(&o, &w, v, &n); /* slurmdbd's records: the window's, one per job */
	fetch_steps(&o, f, v, n, &steps, &ns);
	sl_sacct_fmt_set_steps(f, steps, ns);
	for (size_t i = 0; i < o.n_steps; i++)
		if (o.steps[i].step != SL_SACCT_STEP_ALL) /* -j N.S: some steps alone */
			sl_sacct_fmt_set_filter(f, step_wanted, &o);
	if (o.script_out) {
		print_scripts(&o, v, n);
		goto out;
	}
	sl_squeue_collapse(v, &n, SL_COLLAPSE_SQUEUE); /* an array's pending tasks: one row */
	sl_array_meta_last(v, n);
	truncate_all(&o, &w, v, n, steps, ns, &now);
	for (size_t i = 0; i < n; i++)
		if (sl_sacct_fmt_job(f, v[i], o.mode, rows_of(&o, v[i]), now, b) != 0)
			break; /* output cap: print what fits */
	if (rc == 0)
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
out:
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_step_free_array(steps, ns);
	sl_job_free_array(v, n);
	sl_sacct_opts_clear(&o);
	return rc ? rc : fflush(stdout) == 0 ? 0 : 1;
}
