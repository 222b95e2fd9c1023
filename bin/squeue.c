/* squeue.c - list queued and running jobs, as Slurm 22.05's squeue does.
 * Parse options, one sl_client_jobs() call, filter/sort/print with
 * compat/squeue_fmt. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "slurm_state.h"
#include "squeue_fmt.h"
#include "xalloc.h"

#define OUT_CAP (512u << 20)

struct opts {
	int noheader, longfmt, start;
	const char *format, *sort;
	int users_given; /* -u given, even if no name resolved */
	struct sl_jobsel sel;
};

enum { OPT_START = 256, OPT_ME, OPT_HELP, OPT_USAGE };

static const struct option longopts[] = {
	{"account", required_argument, NULL, 'A'},
	{"all", no_argument, NULL, 'a'},
	{"array", no_argument, NULL, 'r'},
	{"noheader", no_argument, NULL, 'h'},
	{"jobs", required_argument, NULL, 'j'},
	{"long", no_argument, NULL, 'l'},
	{"name", required_argument, NULL, 'n'},
	{"format", required_argument, NULL, 'o'},
	{"Format", required_argument, NULL, 'O'},
	{"partition", required_argument, NULL, 'p'},
	{"sort", required_argument, NULL, 'S'},
	{"states", required_argument, NULL, 't'},
	{"user", required_argument, NULL, 'u'},
	{"verbose", no_argument, NULL, 'v'},
	{"version", no_argument, NULL, 'V'},
	{"start", no_argument, NULL, OPT_START},
	{"me", no_argument, NULL, OPT_ME},
	{"help", no_argument, NULL, OPT_HELP},
	{"usage", no_argument, NULL, OPT_USAGE},
	{NULL, 0, NULL, 0},
};

static void bad_option(char **argv)
{
	if (optopt && optopt < 256)
		fprintf(stderr, "squeue: invalid option -- '%c'\n", optopt);
	else
		fprintf(stderr, "squeue: unrecognized option '%s'\n", argv[optind - 1]);
	fprintf(stderr, "Try \"squeue --help\" for more information\n");
	exit(1);
}

static void add_ids(struct opts *o, const char *list)
{
	char **v = NULL;
	size_t n = 0;
	long task;

	sl_slurm_list_append(&v, &n, list);
	for (size_t i = 0; i < n; i++) {
		o->sel.ids = sl_xrealloc(o->sel.ids, (o->sel.n_ids + 1) * sizeof(*o->sel.ids));
		if (sl_slurm_jobid_parse(v[i], &o->sel.ids[o->sel.n_ids], &task) != 0) {
			fprintf(stderr, "squeue: error: Invalid job id: %s\n", v[i]);
			exit(1);
		}
		o->sel.n_ids++;
	}
	sl_strv_free(v);
}

/* Unknown users are reported and dropped; squeue goes on (exit 0). */
static void add_users(struct opts *o, const char *list)
{
	char **v = NULL;
	size_t n = 0;
	struct sl_err err = SL_ERR_INIT;

	o->users_given = 1;
	sl_slurm_list_append(&v, &n, list);
	for (size_t i = 0; i < n; i++) {
		sl_err_clear(&err);
		if (sl_slurm_users_parse(v[i], &o->sel.uids, &o->sel.n_uids, &err) != 0)
			fprintf(stderr, "squeue: error: Invalid user: %s\n\n", v[i]);
	}
	sl_strv_free(v);
}

static void set_states(struct opts *o, const char *list)
{
	struct sl_err err = SL_ERR_INIT;

	sl_statesel_clear(&o->sel.states);
	if (sl_slurm_states_parse(list, &o->sel.states, &err) != 0) {
		fprintf(stderr, "squeue: error: Invalid job state specified: %s\n", err.msg);
		fprintf(stderr, "squeue: error: Valid job states include: %s\n\n",
			sl_slurm_valid_states);
		exit(1);
	}
}

static void parse(int argc, char **argv, struct opts *o)
{
	char me[32];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "A:ahj:ln:o:O:p:rS:t:u:vV", longopts, NULL)) != -1) {
		switch (c) {
		case 'A': sl_slurm_list_append(&o->sel.accounts, &o->sel.n_accounts, optarg); break;
		case 'h': o->noheader = 1; break;
		case 'j': add_ids(o, optarg); break;
		case 'l': o->longfmt = 1; break;
		case 'n': sl_slurm_list_append(&o->sel.names, &o->sel.n_names, optarg); break;
		case 'o': o->format = optarg; break;
		case 'p': sl_slurm_list_append(&o->sel.parts, &o->sel.n_parts, optarg); break;
		case 'S': o->sort = optarg; break;
		case 't': set_states(o, optarg); break;
		case 'u': add_users(o, optarg); break;
		case OPT_ME:
			snprintf(me, sizeof(me), "%u", (unsigned)getuid());
			add_users(o, me);
			break;
		case OPT_START: o->start = 1; break;
		case 'a': case 'r': case 'v': break; /* no hidden partitions or arrays */
		case 'V': printf("slurm 22.05.8\n"); exit(0);
		case 'O':
			fprintf(stderr, "squeue: error: --Format is not supported by Sluice\n");
			exit(1);
		case OPT_HELP: case OPT_USAGE:
			printf("Usage: squeue [-A account] [-j jobs] [-n name] [-o format] [-p partitions]\n"
			       "              [-t states] [-u users] [-S sort] [-h] [-l] [--start] [--me]\n");
			exit(0);
		default: bad_option(argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "squeue: error: Unrecognized option: %s\n", argv[optind]);
		fprintf(stderr, "Try \"squeue --help\" for more information\n");
		exit(1);
	}
}

static const int live_states[] = {SL_JOB_PENDING, SL_JOB_RUNNING, SL_JOB_CONFIGURING,
				  SL_JOB_COMPLETING, SL_JOB_SUSPENDED};
static const int pending_states[] = {SL_JOB_PENDING};
static const struct sl_statesel live_sel = {(int *)live_states, 5, 0, 0};
static const struct sl_statesel pending_sel = {(int *)pending_states, 1, 0, 0};

/* -t as given, else what squeue shows by default (--start: pending only). */
static const struct sl_statesel *states_wanted(const struct opts *o)
{
	if (o->sel.states.n || o->sel.states.all || o->sel.states.matches_none)
		return &o->sel.states;
	return o->start ? &pending_sel : &live_sel;
}

/* The jobs to show: -j -u -p -A -n, and the states of states_wanted()
 * (filtering states in the daemon keeps the finished jobs it holds for
 * minJobAge off the wire). States Sluice never has match nothing: that
 * part stays with sl_statesel_match(). */
static void selection(const struct opts *o, struct sl_jobfilter *f)
{
	const struct sl_statesel *st = states_wanted(o);

	sl_jobsel_filter(&o->sel, f);
	if (!st->all && !st->matches_none)
		f->states = st->states, f->n_states = st->n;
}

static int fetch(const struct opts *o, const struct sl_jobfilter *want, struct sl_job ***jobs,
		 size_t *n)
{
	/* One id alone is looked up unfiltered, so that an unknown id can be
	 * told from a filtered-out one (Slurm's "Invalid job id specified");
	 * print() applies the rest. */
	struct sl_jobfilter one = {.ids = o->sel.ids, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	int r;

	r = sl_client_query(o->sel.n_ids == 1 ? &one : want, jobs, n, &err);
	if (r == -SL_ECONNECT)
		fprintf(stderr, "slurm_load_jobs error: Unable to contact slurm controller "
				"(connect failure)\n");
	else if (r != 0)
		fprintf(stderr, "slurm_load_jobs error: %s\n", err.msg);
	return r;
}

static void print(const struct opts *o, const struct sl_jobfilter *want, struct sl_job **v,
		  size_t n, int64_t now)
{
	const char *fmt = o->format ? o->format : getenv("SQUEUE_FORMAT");
	struct sl_squeue_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	time_t t = (time_t)now;
	char tbuf[64];

	if (fmt == NULL)
		fmt = o->start ? SL_SQUEUE_FMT_START
			       : o->longfmt ? SL_SQUEUE_FMT_LONG : SL_SQUEUE_FMT_DEFAULT;
	if (sl_squeue_fmt_new(fmt, &f, &err) != 0 ||
	    sl_squeue_sort(v, n, o->sort ? o->sort : o->start ? "S,i" : getenv("SQUEUE_SORT"),
			   now, &err) != 0) {
		fprintf(stderr, "squeue: error: %s\n", err.msg);
		exit(1);
	}
	if (o->longfmt)
		fputs(ctime_r(&t, tbuf), stdout);
	if (!o->noheader)
		sl_squeue_fmt_header(f, b);
	for (size_t i = 0; i < n; i++)
		if (sl_statesel_match(states_wanted(o), v[i]->state) &&
		    sl_jobfilter_match(want, v[i]) && sl_squeue_fmt_job(f, v[i], now, b) != 0)
			break; /* output cap: print what fits */
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	sl_squeue_fmt_free(f);
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct sl_jobfilter want = {0};
	struct sl_job **v = NULL;
	size_t n = 0;
	int64_t now = (int64_t)time(NULL);

	parse(argc, argv, &o);
	selection(&o, &want);
	/* -u with only unknown names selects nothing: header only */
	if (!(o.users_given && o.sel.n_uids == 0)) {
		if (fetch(&o, &want, &v, &n) != 0)
			return 1;
		if (o.sel.n_ids == 1 && n == 0) {
			fprintf(stderr, "slurm_load_jobs error: Invalid job id specified\n");
			return 1;
		}
	}
	print(&o, &want, v, n, now);
	sl_job_free_array(v, n);
	sl_jobsel_clear(&o.sel);
	return fflush(stdout) == 0 ? 0 : 1;
}
