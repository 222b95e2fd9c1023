/* sacct.c - job accounting as Slurm 22.05's sacct prints it, read from the
 * daemon's history (sl_client_jobs with history = 1). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "sacct_fmt.h"
#include "slurm_state.h"
#include "slurm_time.h"
#include "xalloc.h"

#define OUT_CAP (512u << 20)
#define FIELDS_MAX 4096

struct opts {
	int noheader, allusers, steps, duplicates;
	enum sl_sacct_mode mode;
	char fields[FIELDS_MAX];
	const char *start, *end;
	struct sl_jobsel sel;
};

enum { OPT_NAME = 256, OPT_HELP, OPT_USAGE };

static const struct option longopts[] = {
	{"allusers", no_argument, NULL, 'a'},
	{"accounts", required_argument, NULL, 'A'},
	{"brief", no_argument, NULL, 'b'},
	{"duplicates", no_argument, NULL, 'D'},
	{"endtime", required_argument, NULL, 'E'},
	{"jobs", required_argument, NULL, 'j'},
	{"allclusters", no_argument, NULL, 'L'},
	{"noheader", no_argument, NULL, 'n'},
	{"format", required_argument, NULL, 'o'},
	{"parsable", no_argument, NULL, 'p'},
	{"parsable2", no_argument, NULL, 'P'},
	{"partition", required_argument, NULL, 'r'},
	{"state", required_argument, NULL, 's'},
	{"starttime", required_argument, NULL, 'S'},
	{"user", required_argument, NULL, 'u'},
	{"uid", required_argument, NULL, 'u'},
	{"verbose", no_argument, NULL, 'v'},
	{"version", no_argument, NULL, 'V'},
	{"allocations", no_argument, NULL, 'X'},
	{"name", required_argument, NULL, OPT_NAME},
	{"help", no_argument, NULL, OPT_HELP},
	{"usage", no_argument, NULL, OPT_USAGE},
	{NULL, 0, NULL, 0},
};

static void die(const char *kind, const char *fmt, const char *arg)
{
	fprintf(stderr, "sacct: %s: ", kind);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

/* -j: "N", "N_T", "N.batch", "N.0": the step part selects the job. */
static void add_ids(struct opts *o, const char *list)
{
	char **v = NULL, *dot;
	size_t n = 0;
	long task;

	sl_slurm_list_append(&v, &n, list);
	for (size_t i = 0; i < n; i++) {
		if ((dot = strchr(v[i], '.')) != NULL && dot[1] != '\0')
			*dot = '\0';
		o->sel.ids = sl_xrealloc(o->sel.ids, (o->sel.n_ids + 1) * sizeof(*o->sel.ids));
		if (sl_slurm_jobid_parse(v[i], &o->sel.ids[o->sel.n_ids], &task) != 0)
			die("fatal", "Bad job/step specified: %s", list);
		o->sel.n_ids++;
	}
	sl_strv_free(v);
}

static void add_fields(struct opts *o, const char *list)
{
	size_t len = strlen(o->fields);
	if (len + strlen(list) + 2 > sizeof(o->fields))
		die("error", "%s", "--format is too long");
	snprintf(o->fields + len, sizeof(o->fields) - len, "%s%s", len ? "," : "", list);
}

static void parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "aA:bDE:j:Lno:pPr:s:S:u:vVX", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': o->allusers = 1; break;
		case 'A': sl_slurm_list_append(&o->sel.accounts, &o->sel.n_accounts, optarg); break;
		case 'b': add_fields(o, "JobID,State,ExitCode"); break;
		case 'E': o->end = optarg; break;
		case 'j': add_ids(o, optarg); break;
		case 'n': o->noheader = 1; break;
		case 'o': add_fields(o, optarg); break;
		case 'p': o->mode = SL_SACCT_PARSABLE; break;
		case 'P': o->mode = SL_SACCT_PARSABLE2; break;
		case 'r': sl_slurm_list_append(&o->sel.parts, &o->sel.n_parts, optarg); break;
		case 's':
			if (sl_slurm_states_parse(optarg, &o->sel.states, &err) != 0)
				die("error", "Invalid state: %s", err.msg);
			break;
		case 'S': o->start = optarg; break;
		case 'u':
			if (sl_slurm_users_parse(optarg, &o->sel.uids, &o->sel.n_uids, &err) != 0)
				die("error", "Invalid user id: %s", err.msg);
			break;
		case 'X': o->steps = 0; break;
		case OPT_NAME: sl_slurm_list_append(&o->sel.names, &o->sel.n_names, optarg); break;
		case 'D': o->duplicates = 1; break;
		case 'L': case 'v': break;
		case 'V': printf("slurm 22.05.8\n"); exit(0);
		case OPT_HELP: case OPT_USAGE:
			printf("Usage: sacct [-a] [-j jobs] [-u users] [-S start] [-E end] [-s states]\n"
			       "             [-o fields] [-X] [-n] [-p|-P] [-b]\n");
			exit(0);
		default:
			if (optopt && optopt < 256)
				fprintf(stderr, "sacct: invalid option -- '%c'\n", optopt);
			else
				fprintf(stderr, "sacct: unrecognized option '%s'\n", argv[optind - 1]);
			exit(1);
		}
	}
}

static int64_t parse_when(const char *s, int64_t now)
{
	int64_t t;
	if (sl_slurm_time_parse_ts(s, now, &t) != 0) {
		fprintf(stderr, "Invalid time specification (pos=0): %s\n", s);
		exit(1);
	}
	return t;
}

/* sacct's window: -S defaults to midnight today, to "now" with -s (jobs in
 * that state now), and to the epoch with -j. */
static void window(const struct opts *o, int64_t now, struct sl_jobfilter *f)
{
	time_t t = (time_t)now;
	struct tm tm;

	if (o->start)
		f->start_after = parse_when(o->start, now);
	else if (o->sel.n_ids)
		f->start_after = 0;
	else if (o->sel.states.n || o->sel.states.matches_none)
		f->start_after = now;
	else {
		localtime_r(&t, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		f->start_after = (int64_t)mktime(&tm);
	}
	if (o->end)
		f->end_before = parse_when(o->end, now);
	else if (o->sel.states.n && !o->start)
		f->end_before = now;
}

static int fetch(const struct opts *o, int64_t now, struct sl_job ***v, size_t *n)
{
	struct sl_jobfilter f = {0};
	struct sl_err err = SL_ERR_INIT;
	uid_t me = getuid();
	int r;

	f.history = 1;
	f.duplicates = o->duplicates;
	sl_jobsel_filter(&o->sel, &f);
	if (o->sel.n_uids == 0 && !o->allusers && me != 0 && o->sel.n_ids == 0)
		f.uids = &me, f.n_uids = 1; /* default: the caller's own jobs */
	f.states = o->sel.states.states, f.n_states = o->sel.states.n;
	window(o, now, &f);
	r = sl_client_query(&f, v, n, &err);
	if (r == -SL_ECONNECT)
		fprintf(stderr, "sacct: error: Problem talking to the database: "
				"Unable to contact slurm controller (connect failure)\n");
	else if (r != 0)
		fprintf(stderr, "sacct: error: %s\n", err.msg);
	return r;
}

int main(int argc, char **argv)
{
	struct opts o = {.steps = 1};
	struct sl_sacct_fmt *f = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	size_t n = 0;
	int64_t now = (int64_t)time(NULL);
	int rc = 0;

	parse(argc, argv, &o);
	if (sl_sacct_fmt_new(o.fields[0] ? o.fields : SL_SACCT_FIELDS_DEFAULT, &f, &err) != 0)
		die("error", "%s", err.msg);
	if (!o.noheader)
		sl_sacct_fmt_header(f, o.mode, b);
	if (!o.sel.states.matches_none && fetch(&o, now, &v, &n) != 0)
		rc = 1;
	for (size_t i = 0; i < n; i++)
		if (sl_statesel_match(&o.sel.states, v[i]->state) &&
		    sl_sacct_fmt_job(f, v[i], o.mode, o.steps, now, b) != 0)
			break; /* output cap: print what fits */
	if (rc == 0)
		fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
	sl_jobsel_clear(&o.sel);
	return rc ? rc : fflush(stdout) == 0 ? 0 : 1;
}
