/* sprio.c - the priority of each pending job and its parts, as Slurm
 * 22.05's sprio prints them (libbatch/prio.h: Sluice's parts on Slurm's
 * scale). Options through compat's table, one sl_client_query() for the
 * pending jobs, then sort and print with compat/sprio_fmt. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "client.h"
#include "query_opt.h"
#include "slurm_state.h"
#include "sprio_fmt.h"
#include "xalloc.h"

#define OUT_CAP (256u << 20)

struct opts {
	const char *format, *sort, *jobs;
	char **parts; size_t n_parts;
	uid_t *uids; size_t n_uids;
	int users, job_flag, long_list, normalized, weights, noheader, help, usage, version;
};

#define O(c) ((struct opts *)(c))
FLAG(set_noheader, noheader, 1)
FLAG(set_long, long_list, 1)
FLAG(set_norm, normalized, 1)
FLAG(set_weights, weights, 1)
FLAG(set_help, help, 1)
FLAG(set_usage, usage, 1)
FLAG(set_version, version, 1)
SET(set_format) { (void)err; O(ctx)->format = arg; return 0; }
SET(set_sort) { (void)err; O(ctx)->sort = arg; return 0; }
SET(set_jobs) { (void)err; O(ctx)->job_flag = 1; if (arg) O(ctx)->jobs = arg; return 0; }
SET(set_parts) { (void)err; sl_query_list_set(&O(ctx)->parts, &O(ctx)->n_parts, arg); return 0; }

/* Slurm's _build_user_list(): names or uids; an unknown one is an error
 * line, and the rest still count. */
SET(set_users)
{
	char *copy = sl_xstrdup(arg), *save = NULL;
	(void)err;
	O(ctx)->users = 1;
	O(ctx)->n_uids = 0;
	for (char *u = strtok_r(copy, ",", &save); u; u = strtok_r(NULL, ",", &save)) {
		struct passwd *pw = getpwnam(u);
		char *end;
		unsigned long id = strtoul(u, &end, 10);
		if (pw == NULL && (*end != '\0' || (pw = getpwuid((uid_t)id)) == NULL)) {
			fprintf(stderr, "sprio: error: Invalid user: %s\n\n", u);
			continue;
		}
		O(ctx)->uids = sl_xrealloc(O(ctx)->uids, (O(ctx)->n_uids + 1) * sizeof(uid_t));
		O(ctx)->uids[O(ctx)->n_uids++] = pw->pw_uid;
	}
	free(copy);
	return 0;
}

static const struct sl_opt table[] = {
	ROW("noheader", 'h', SL_OPT_NOARG, set_noheader),
	ROW("jobs", 'j', SL_OPT_OPTARG, set_jobs),
	ROW("long", 'l', SL_OPT_NOARG, set_long),
	ROW("norm", 'n', SL_OPT_NOARG, set_norm),
	ROW("format", 'o', SL_OPT_REQ, set_format),
	ROW("sort", 'S', SL_OPT_REQ, set_sort),
	ROW("partition", 'p', SL_OPT_REQ, set_parts),
	ROW("user", 'u', SL_OPT_REQ, set_users),
	ROW("users", 'u', SL_OPT_REQ, set_users),
	ROW("verbose", 'v', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("weights", 'w', SL_OPT_NOARG, set_weights),
	ROW("local", 0, SL_OPT_NOARG, sl_query_set_nothing), /* one cluster: always local */
	ROW("help", 0, SL_OPT_NOARG, set_help),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	UNSUPP("cluster", 'M', SL_OPT_REQ),
	UNSUPP("clusters", 'M', SL_OPT_REQ),
	UNSUPP("federation", 0, SL_OPT_NOARG),
	UNSUPP("sib", 0, SL_OPT_NOARG),
	UNSUPP("sibling", 0, SL_OPT_NOARG),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

static const char usage_text[] =
	"Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
	"   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]\n";

static const char help_text[] =
	"Usage: sprio [OPTIONS]\n"
	"  -h, --noheader                  no headers on output\n"
	"  -j, --jobs                      comma separated list of jobs\n"
	"                                  to view, default is all\n"
	"      --local                     display jobs on local cluster only\n"
	"  -l, --long                      long report\n"
	"  -n, --norm                      display normalized values\n"
	"  -o, --format=format             format specification\n"
	"  -p, --partition=partition_name  comma separated list of partitions\n"
	"  -u, --user=user_name            comma separated list of users to view\n"
	"  -v, --verbose                   verbosity level\n"
	"  -V, --version                   output version information and exit\n"
	"  -w, --weights                   show the weights for each priority factor\n"
	"\nHelp options:\n"
	"  --help                          show this help message\n"
	"  --usage                         display a brief summary of sprio options\n"
	"\nSluice's parts are the site (a constant that lifts Kueue's priorities onto\n"
	"Slurm's scale), the QOS (WorkloadPriorityClass value) and the nice; see README.\n";

/* "1,2,3" into ids; Slurm's "Invalid job id" on anything else. */
static size_t job_ids(const char *s, uint64_t **ids)
{
	char *copy = sl_xstrdup(s), *save = NULL, *end;
	size_t n = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned long long v = strtoull(t, &end, 10);
		if (*end != '\0' || v == 0 || *t == '-') {
			fprintf(stderr, "sprio: error: Invalid job id: %s\n", t);
			exit(1);
		}
		*ids = sl_xrealloc(*ids, (n + 1) * sizeof(**ids));
		(*ids)[n++] = v;
	}
	free(copy);
	return n;
}

static void parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	char **ops = NULL;
	size_t n_ops = 0, k = 0;

	if (sl_query_opt_parse_cmd(table, "sprio", argc, argv, o, &ops, &n_ops, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		exit(1);
	}
	if (o->help || o->usage || o->version) {
		fputs(o->help ? help_text : o->usage ? usage_text : "slurm 22.05.8\n",
		      stdout);
		exit(0);
	}
	if (o->long_list && o->format) {
		fprintf(stderr, "sprio: fatal: Options -o(--format) and -l(--long) are mutually "
				"exclusive. Please remove one and retry.\n");
		exit(1);
	}
	if (!o->long_list && !o->format && getenv("SPRIO_FORMAT"))
		o->format = getenv("SPRIO_FORMAT");
	if (k < n_ops && o->job_flag)
		o->jobs = ops[k++];
	if (k < n_ops) {
		fprintf(stderr, "sprio: error: Unrecognized option: %s\n%s", ops[k], usage_text);
		exit(1);
	}
	free(ops);
}

static void bad_code(char c)
{
	fprintf(stderr, "sprio: error: Invalid job format specification: %c\n", c);
}

/* Slurm lists a pending job once it is eligible (not before --begin) and
 * not held (priority 0). */
static int listed(const struct sl_job *j)
{
	return j->state == SL_JOB_PENDING && !sl_prio_held(j) &&
	       !(j->reason && strcmp(j->reason, "BeginTime") == 0);
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct sl_jobfilter want = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = NULL;
	struct sl_sprio_row *rows;
	int states[] = {SL_JOB_PENDING};
	size_t n = 0, nr = 0;
	uint64_t *ids = NULL;
	char *fmt;
	int r;

	parse(argc, argv, &o);
	fmt = o.format ? sl_xstrdup(o.format)
		       : sl_sprio_default_format(o.normalized, o.long_list, o.users);
	struct sl_sprio_fmt *f = sl_sprio_fmt_new(fmt, bad_code);
	want.states = states, want.n_states = 1;
	if (o.jobs)
		want.n_ids = job_ids(o.jobs, &ids), want.ids = ids;
	want.uids = o.uids, want.n_uids = o.n_uids;
	want.partitions = o.parts, want.n_partitions = o.n_parts;
	if (o.users && o.n_uids == 0)
		r = 0; /* only unknown users: nobody's jobs */
	else if ((r = sl_client_query(&want, &v, &n, &err)) != 0) {
		/* slurm_perror()'s line, and exit(SLURM_ERROR) */
		fprintf(stderr, "Couldn't get priority factors from controller: %s\n",
			r == -SL_ECONNECT ? "Unable to contact slurm controller (connect failure)"
					  : err.msg);
		sl_sprio_fmt_free(f);
		free(ids), free(fmt), free(o.uids), sl_strv_free(o.parts);
		return 255;
	}
	rows = sl_xcalloc(n ? n : 1, sizeof(*rows));
	for (size_t i = 0; i < n; i++)
		if (listed(v[i])) {
			rows[nr] = (struct sl_sprio_row){v[i]->id, v[i]->spec.partition, v[i]->user, {0}};
			sl_prio_parts(v[i], &rows[nr++].p);
		}
	struct sl_buf *b = sl_buf_new(OUT_CAP);
	if (o.jobs && nr == 0) {
		sl_buf_addstr(b, "Unable to find jobs matching user/id(s) specified\n");
	} else {
		if (!o.noheader)
			sl_sprio_fmt_header(f, b);
		if (o.weights)
			sl_sprio_fmt_weights(f, b);
		else if ((r = sl_sprio_sort(rows, nr, o.sort, &err)) != 0)
			fprintf(stderr, "sprio: error: %s\n", err.msg); /* after the header */
		else
			for (size_t i = 0; i < nr; i++)
				sl_sprio_fmt_row(f, &rows[i], b);
	}
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	sl_buf_free(b);
	sl_sprio_fmt_free(f);
	sl_job_free_array(v, n);
	free(rows), free(ids), free(fmt), free(o.uids), sl_strv_free(o.parts);
	return r != 0;
}
