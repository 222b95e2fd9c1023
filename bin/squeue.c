/* squeue.c - list queued and running jobs, as Slurm 22.05's squeue does.
 * Options through compat/squeue_opt, one sl_client_query() call (per
 * --iterate round), then filter/sort/print with compat/squeue_fmt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "client_step.h"
#include "slurm_json.h"
#include "slurm_state.h"
#include "squeue_fmt.h"
#include "squeue_opt.h"
#include "squeue_proj.h"
#include "squeue_steps.h"
#include "slurm_clusters.h"
#include "xalloc.h"

#define OUT_CAP (512u << 20)

static const int live_states[] = {SL_JOB_PENDING, SL_JOB_RUNNING, SL_JOB_CONFIGURING,
				  SL_JOB_COMPLETING, SL_JOB_SUSPENDED};
static const int pending_states[] = {SL_JOB_PENDING};
static const struct sl_statesel live_sel = {(int *)live_states, 5, 0, 0};
static const struct sl_statesel pending_sel = {(int *)pending_states, 1, 0, 0};

/* -t as given, else what squeue shows by default (--start: pending only). */
static const struct sl_statesel *states_wanted(const struct sl_squeue_opts *o)
{
	if (o->sel.states.n || o->sel.states.all || o->sel.states.matches_none)
		return &o->sel.states;
	return o->start ? &pending_sel : &live_sel;
}

/* The jobs to show: -j -u -p -A -n -q -w, and the states of states_wanted()
 * (filtering states in the daemon keeps the finished jobs it holds for
 * minJobAge off the wire). States Sluice never has match nothing: that
 * part stays with sl_statesel_match(). */
static void selection(const struct sl_squeue_opts *o, struct sl_jobfilter *f)
{
	const struct sl_statesel *st = states_wanted(o);

	sl_jobsel_filter(&o->sel, f);
	if (!st->all && !st->matches_none)
		f->states = st->states, f->n_states = st->n;
	/* --array-unique: folded here, by reason; -r: whole, expanded here */
	f->fold = o->array_unique ? 0 : o->array ? 2 : 1;
}

/* The % format: -o, --start's, -l's or the default; NULL with -O. */
static const char *percent_format(const struct sl_squeue_opts *o)
{
	if (o->format)
		return o->format;
	if (o->start)
		return SL_SQUEUE_FMT_START;
	if (o->format_long)
		return NULL;
	return o->longfmt ? SL_SQUEUE_FMT_LONG : SL_SQUEUE_FMT_DEFAULT;
}

/* The output format: -O, or percent_format(). */
static struct sl_squeue_fmt *format(const struct sl_squeue_opts *o)
{
	const char *fmt = percent_format(o), *name;
	struct sl_squeue_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	int r, known;

	if (fmt == NULL) {
		r = sl_squeue_fmt_new_long(o->format_long, &f, &err);
		for (size_t i = 0; r == 0 && (name = sl_squeue_fmt_skipped(f, i, &known)); i++)
			fprintf(stderr, known ? "squeue: error: -O %s is not supported by Sluice\n"
					      : "squeue: error: Invalid job format specification: %s\n",
				name);
	} else {
		struct sl_buf *warn = sl_buf_new(1 << 16);
		r = sl_squeue_fmt_new_warn(fmt, &f, warn, &err);
		fputs(sl_buf_str(warn), stderr);
		sl_buf_free(warn);
	}
	if (r != 0) {
		fprintf(stderr, "squeue: error: %s\n", err.msg);
		exit(1);
	}
	if (o->noconvert)
		sl_squeue_fmt_noconvert(f);
	return f;
}

/* What of each record the listing reads (squeue_proj.c): a few of its
 * members for a % format; whole records for -O and -s, whose columns
 * have no rows there. */
static struct sl_jobproj *projection(const struct sl_squeue_opts *o,
				     const struct sl_jobfilter *want)
{
	const char *fmt = percent_format(o);

	if (fmt == NULL || o->steps)
		return NULL;
	return sl_squeue_proj(fmt, o->sort ? o->sort : o->start ? "S" : NULL, want);
}

/* -j N_I alone, where array N is there but has no task I: squeue loads
 * the array and filters the task out, so nothing is listed, without an
 * error. */
static int array_has_no_such_task(const struct sl_squeue_opts *o)
{
	struct sl_jobfilter a = {.ids = o->sel.n_tasks == 1 ? &o->sel.tasks[0].job : NULL,
				 .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	size_t n = 0;
	int r;

	if (o->sel.n_tasks != 1)
		return 0;
	r = sl_client_query(&a, &v, &n, &err) == 0 && n > 0;
	sl_job_free_array(v, n);
	return r;
}

static int fetch(const struct sl_squeue_opts *o, const struct sl_jobfilter *want,
		 const struct sl_jobproj *proj, struct sl_job ***jobs, size_t *n)
{
	/* One id alone is looked up unfiltered, so that an unknown id can be
	 * told from a filtered-out one (Slurm's "Invalid job id specified");
	 * print() applies the rest. */
	struct sl_jobfilter one = {.ids = o->sel.ids, .n_ids = o->sel.n_ids, .fold = o->array_unique ? 0 : o->array ? 2 : 1,
				   .tasks = o->sel.tasks, .n_tasks = o->sel.n_tasks};
	int alone = o->sel.n_ids + o->sel.n_tasks == 1;
	struct sl_err err = SL_ERR_INIT;
	int r;

	*jobs = NULL;
	*n = 0;
	/* -u with only unknown names, -R (no reservations), or -j "": nothing */
	if ((o->users_given && o->sel.n_uids == 0) || o->reservation || o->jobs_none)
		return 0;
	r = sl_client_query_proj(alone ? &one : want, proj, jobs, n, &err);
	if (r == -SL_ECONNECT)
		fprintf(stderr, "slurm_load_jobs error: Unable to contact slurm controller "
				"(connect failure)\n");
	else if (r != 0)
		fprintf(stderr, "slurm_load_jobs error: %s\n", err.msg);
	else if (alone && *n == 0 && !array_has_no_such_task(o))
		r = -SL_ENOENT, fprintf(stderr, "slurm_load_jobs error: Invalid job id specified\n");
	return r;
}

static int print(const struct sl_squeue_opts *o, const struct sl_squeue_fmt *f,
		 const struct sl_jobfilter *want, struct sl_job **v, size_t *pn, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b;
	size_t k = 0, n = *pn;
	int one;

	/* Filtered first, then an array's pending tasks folded (sluiced folds
	 * them; --array-unique: here, by reason), then sorted, as Slurm's
	 * squeue does; -r prints the folded records' tasks where they stand. */
	for (size_t i = 0; i < n; i++)
		if (sl_statesel_match(states_wanted(o), v[i]->state) && sl_jobfilter_match(want, v[i]))
			v[k++] = v[i];
		else
			sl_job_free(v[i]);
	*pn = n = k;
	if (!o->array)
		sl_squeue_collapse(v, &n, o->array_unique ? SL_COLLAPSE_UNIQUE : SL_COLLAPSE_SQUEUE);
	*pn = n;
	/* one -j entry: slurm_load_job(N)'s order, an array's meta record
	 * first, then its tasks, the last split first; else slurmctld's list */
	one = want->n_ids + want->n_tasks == 1;
	if (one)
		sl_array_load_order(v, n);
	if ((one ? sl_squeue_sort_loaded : sl_squeue_sort)(v, n, o->sort ? o->sort
					   : o->start ? "S" : NULL, now, &err) != 0) {
		/* Slurm's squeue reads the sort as it prints: its header is out */
		if (!o->noheader) {
			b = sl_buf_new(1 << 16);
			sl_squeue_fmt_header(f, b);
			fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
			fflush(stdout);
			sl_buf_free(b);
		}
		fprintf(stderr, "squeue: error: %s\n", err.msg);
		exit(1);
	}
	if (o->array && o->array_unique)
		sl_squeue_array_order(v, n);
	b = sl_buf_new(OUT_CAP);
	if (!o->noheader)
		sl_squeue_fmt_header(f, b);
	for (size_t i = 0; i < n; i++)
		if ((o->array ? sl_squeue_fmt_tasks(f, v[i], now, b) : sl_squeue_fmt_job(f, v[i], now, b))
		    != 0)
			break; /* output cap: print what fits */
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	return 0;
}

/* -s: the running steps of the jobs selected (sluiced's STEPS request). */
static int print_steps(const struct sl_squeue_opts *o, struct sl_job **v, size_t n, int64_t now)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_step *steps = NULL;
	uint64_t *ids = sl_xcalloc(n ? n : 1, sizeof(*ids));
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	size_t ns = 0;
	int r = 0;
	if (o->format_long) { /* the step fields of -O are not a table here yet */
		fprintf(stderr, "squeue: error: --steps with -O is not supported by Sluice\n");
		free(ids);
		sl_buf_free(b);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		ids[i] = v[i]->id;
	if (n > 0 && (r = sl_client_steps(ids, n, 1, &steps, &ns, &err)) != 0)
		fprintf(stderr, "slurm_load_job_steps error: %s\n", err.msg);
	if (r == 0) {
		r = sl_squeue_steps_fmt(v, n, steps, ns, o->step_list, o->format, o->noheader, now,
					b);
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	}
	sl_buf_free(b);
	sl_step_free_array(steps, ns);
	free(ids);
	return r;
}

/* print_date(): "Wed Nov 25 23:03:28 2026", the day zero-padded. */
static void print_date(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char s[64];

	strftime(s, sizeof(s), "%a %b %d %T %Y", localtime_r(&t, &tm));
	printf("%s\n", s);
}

static struct {
	struct sl_job **v;
	size_t n;
} kept;

/* One listing: 0, or 1 when the jobs could not be read. */
static int round_once(const struct sl_squeue_opts *o, const struct sl_squeue_fmt *f,
		      const char *cluster)
{
	struct sl_jobfilter want = {0};
	struct sl_jobproj *proj;
	struct sl_job **v = NULL;
	size_t n = 0;
	int64_t now = (int64_t)time(NULL);
	int r;

	if (cluster && !o->noheader) {
		printf("CLUSTER: %s\n", cluster);
		fflush(stdout); /* before any error about the jobs, as on a terminal */
	}
	if (!o->noheader && (o->iterate || o->verbose || o->longfmt))
		print_date();
	selection(o, &want);
	sl_jobfilter_index(&want);
	proj = projection(o, &want);
	if ((r = fetch(o, &want, proj, &v, &n)) == 0 && o->steps)
		r = print_steps(o, v, n, now);
	else if (r == 0)
		print(o, f, &want, v, &n, now);
	/* The last round's records are left to the exit, as freeing ten
	 * thousand of them cost squeue a tenth of its time; they stay reachable
	 * from here so that a leak checker does not count them. */
	sl_job_free_array(kept.v, kept.n);
	kept.v = v;
	kept.n = n;
	sl_jobproj_free(proj);
	sl_jobfilter_index_free(&want);
	return r != 0;
}

static int by_id(const void *a, const void *b)
{
	const struct sl_job *x = *(struct sl_job *const *)a, *y = *(struct sl_job *const *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* --json, --yaml: as 22.05's, every job slurmctld holds (it ignores -j,
 * -u, -t and the formats), by id; an array's pending tasks are its meta
 * record, and those split off are their own (fold 2, as -r before it
 * expands). */
static int print_json(enum sl_doc_form form)
{
	struct sl_jobfilter all = {.fold = 2};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	char *cluster = NULL;
	size_t n = 0;
	int r = sl_client_cluster_name(&cluster, &err);

	if (r == 0)
		r = sl_client_query(&all, &v, &n, &err);
	if (r != 0) {
		fprintf(stderr, "slurm_load_jobs error: %s\n",
			r == -SL_ECONNECT ? "Unable to contact slurm controller (connect failure)"
					  : err.msg);
	} else {
		qsort(v, n, sizeof(*v), by_id);
		(void)sl_squeue_json(v, n, cluster, (int64_t)time(NULL), form, b);
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	}
	sl_buf_free(b);
	sl_job_free_array(v, n);
	free(cluster);
	return r != 0 || fflush(stdout) != 0;
}

static void parse(int argc, char **argv, struct sl_squeue_opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	int syntax, usage;

	if (sl_squeue_opts_parse(argc, argv, o, &syntax, &usage, &err) != 0) {
		fprintf(stderr, syntax ? "squeue: %s\n" : "%s\n", err.msg);
		if (syntax)
			fprintf(stderr, "Try \"squeue --help\" for more information\n");
		if (usage)
			fputs(sl_squeue_usage, stdout);
		exit(1);
	}
	if (o->version) {
		printf("slurm 22.05.8\n");
		exit(0);
	}
	if (o->help || o->usage) {
		fputs(sl_squeue_usage, stdout);
		exit(0);
	}
	fputs(o->warn, stderr);
	if (o->start && !o->sel.states.n && !o->sel.states.all && !o->sel.states.matches_none)
		(void)sl_slurm_states_parse("PD", &o->sel.states, &err);
}

/* A -w name the executor has (22.05's _map_node_name): its node, a node
 * of a multi-node local allocation (NAME-K), a Kubernetes Node, or
 * "localhost" for this host's node. */
static int node_known(const struct sl_clusterinfo *ci, char **name)
{
	const char *local = ci->node ? ci->node->name : NULL;
	size_t l = local ? strlen(local) : 0;

	if (local && strcasecmp(*name, "localhost") == 0) {
		free(*name);
		*name = sl_xstrdup(local);
		return 1;
	}
	if (local && strcmp(*name, local) == 0)
		return 1;
	if (local && strncmp(*name, local, l) == 0 && (*name)[l] == '-' && (*name)[l + 1] &&
	    strspn(*name + l + 1, "0123456789") == strlen(*name + l + 1))
		return 1;
	for (size_t i = 0; i < ci->nknodes; i++)
		if (strcmp(*name, ci->knodes[i].name) == 0)
			return 1;
	return 0;
}

/* -w: every name must be a node, as 22.05 checks before it lists. */
static void check_nodes(struct sl_squeue_opts *o)
{
	struct sl_clusterinfo *ci = NULL;
	struct sl_err err = SL_ERR_INIT;

	if (o->sel.n_nodes == 0)
		return;
	int r = sl_client_partitions(&ci, &err);
	if (r != 0) {
		fprintf(stderr, "slurm_load_node error: %s\n", r == -SL_ECONNECT
			? "Unable to contact slurm controller (connect failure)" : err.msg);
		exit(1);
	}
	/* no nodes known yet (Kubernetes before its first Nodes list): no check */
	for (size_t i = 0; (ci->node || ci->nknodes) && i < o->sel.n_nodes; i++)
		if (!node_known(ci, &o->sel.nodes[i])) {
			fprintf(stderr, "squeue: error: Invalid node name %s\n", o->sel.nodes[i]);
			sl_clusterinfo_free(ci);
			exit(1);
		}
	sl_clusterinfo_free(ci);
}

int main(int argc, char **argv)
{
	struct sl_squeue_opts o = {0};
	struct sl_squeue_fmt *f;
	int rc = 0;
	char *cluster;

	parse(argc, argv, &o);
	if (o.json) {
		rc = print_json(o.json == 2 ? SL_DOC_YAML : SL_DOC_JSON);
		sl_squeue_opts_clear(&o);
		return rc;
	}
	cluster = sl_slurm_clusters_or_exit("squeue", o.clusters);
	check_nodes(&o);
	f = format(&o);
	for (;;) {
		rc |= round_once(&o, f, cluster);
		if (o.iterate <= 0)
			break;
		printf("\n");
		fflush(stdout);
		sleep((unsigned)o.iterate);
	}
	sl_squeue_fmt_free(f);
	sl_squeue_opts_clear(&o);
	free(cluster);
	return fflush(stdout) == 0 ? rc : 1;
}
