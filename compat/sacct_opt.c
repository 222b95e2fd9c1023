/* sacct_opt.c - sacct's options, one row each, and Slurm's job selection.
 *
 * Options Slurm has that need data Sluice does not keep (job scripts,
 * environments, wckeys, reservations, clusters, the completion log) say so
 * and fail instead of listing jobs as if they had matched. */
#include "sacct_opt.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "hostlist.h"
#include "query_opt.h"
#include "slurm_time.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_sacct_opts *)(ctx))
#define FIELDS_MAX 65536

#define BRIEF_FIELDS "jobid,state,exitcode"
#define DEFAULT_FIELDS "jobid,jobname,partition,account,alloccpus,state,exitcode"
#define LONG_FIELDS "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask," \
	"avevmsize,maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask," \
	"avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode," \
	"avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy," \
	"maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite," \
	"maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave," \
	"tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn," \
	"tresusageinmint,tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt," \
	"tresusageoutave,tresusageouttot"

const char sl_sacct_usage[] =
	"Usage: sacct [options]\n"
	"\tUse --help for help\n";

FLAG(set_allusers, allusers, 1)
FLAG(set_brief, brief, 1)
FLAG(set_helpformat, helpformat, 1)
FLAG(set_help, help, 1)
FLAG(set_truncate, truncate, 1)
FLAG(set_usage, usage, 1)
FLAG(set_version, version, 1)
FLAG(set_long, longfmt, 1)
FLAG(set_noheader, noheader, 1)
FLAG(set_parsable, mode, SL_SACCT_PARSABLE)
FLAG(set_parsable2, mode, SL_SACCT_PARSABLE2)
FLAG(set_no_steps, no_steps, 1)
FLAG(set_duplicates, duplicates, 1)
FLAG(set_noconvert, unit, '-')
SET(set_verbose) { (void)arg; (void)err; O(ctx)->verbose++; return 0; }

SET(set_delimiter)
{
	(void)err;
	free(O(ctx)->delimiter);
	O(ctx)->delimiter = sl_xstrdup(arg);
	return 0;
}

SET(set_units)
{
	if (arg[0] == '\0' || strchr("KMGTP", toupper((unsigned char)arg[0])) == NULL)
		return sl_err_set(err, SL_EINVAL,
				  "sacct: error: Invalid unit type '%c'. Possible options are "
				  "'KMGTP'\nsacct: fatal: Invalid unit type", arg[0]);
	O(ctx)->unit = toupper((unsigned char)arg[0]);
	return 0;
}

SET(set_fields)
{
	struct sl_sacct_opts *o = O(ctx);
	size_t len = o->fields ? strlen(o->fields) : 0;

	if (len + strlen(arg) + 2 > FIELDS_MAX)
		return sl_err_set(err, SL_ETOOBIG, "sacct: error: --format is too long");
	o->fields = sl_xrealloc(o->fields, len + strlen(arg) + 2);
	snprintf(o->fields + len, strlen(arg) + 2, "%s%s", len ? "," : "", arg);
	return 0;
}

LIST(set_accounts, sl_slurm_list_append, accounts)
LIST(set_partitions, sl_slurm_list_append, parts)
LIST(set_names, sl_slurm_list_append, names)
LIST(set_qos, sl_slurm_list_append, qos)
LIST(set_wckeys, sl_slurm_list_append, wckeys)

/* -N: the nodes jobs ran on; a second -N is refused as Slurm does. */
SET(set_nodes)
{
	struct sl_jobsel *s = &O(ctx)->sel;
	struct sl_err e = SL_ERR_INIT;

	if (s->nodes != NULL)
		return sl_err_set(err, SL_EINVAL, "sacct: error: Already asked for nodes");
	if (sl_hostlist_expand(arg, &s->nodes, &s->n_nodes, &e) != 0)
		return sl_err_set(err, SL_EINVAL, "sacct: error: %s", e.msg);
	return 0;
}

/* -u: "-1" is everyone; an unknown name stops sacct. */
SET(set_users)
{
	struct sl_err e = SL_ERR_INIT;

	if (strcmp(arg, "-1") == 0) {
		O(ctx)->allusers = 1;
		return 0;
	}
	O(ctx)->allusers = 0;
	if (sl_slurm_users_parse(arg, &O(ctx)->sel.uids, &O(ctx)->sel.n_uids, &e) != 0)
		return sl_err_set(err, SL_EINVAL, "sacct: error: Invalid user id: %s", e.msg);
	return 0;
}

/* A step part: "batch", "extern" or a number; -1 when it is none of them. */
static int step_part(const char *s)
{
	char *end;
	long v;
	if (strcmp(s, "batch") == 0)
		return SL_SACCT_STEP_BATCH;
	if (strcmp(s, "extern") == 0)
		return SL_SACCT_STEP_EXTERN;
	v = strtol(s, &end, 10); /* slurmdb's strtol: "2.3" is step 2 */
	return end != s && v >= 0 && v < INT_MAX ? (int)v : -1;
}

/* "N_<what>" that sl_slurm_jobid_parse refused, as slurmdb's job list reads
 * it: a task that starts with a digit is taken (strtol: "5_1x" is 5_1),
 * anything else is "Bad job array element specified: N". */
static int array_element(const char *w, uint64_t *id, long *task, const char *arg,
			 struct sl_err *err)
{
	size_t jl = strspn(w, "0123456789");

	if (jl == 0 || w[jl] != '_')
		return sl_err_set(err, SL_EINVAL, "sacct: fatal: Bad job/step specified: %s", arg);
	if (!isdigit((unsigned char)w[jl + 1]))
		return sl_err_set(err, SL_EINVAL, "sacct: fatal: Bad job array element specified: "
				  "%.*s", (int)jl, w);
	return sl_slurm_jobid_read(w, SL_JOBID_STRTOL, id, task);
}

/* -j: "N", "N.batch", "N.0", "N_T": the job selects the records; the step
 * part which of their rows print (sl_sacct_show_full). */
SET(set_jobs)
{
	struct sl_sacct_opts *o = O(ctx);
	char **v = NULL, *dot;
	size_t n = 0;
	long task;
	int r = 0;

	sl_slurm_list_append(&v, &n, arg);
	for (size_t i = 0; r == 0 && i < n; i++) {
		uint64_t id;
		int step = SL_SACCT_STEP_ALL;
		if ((dot = strchr(v[i], '.')) != NULL && dot[1] != '\0') {
			*dot = '\0';
			step = step_part(dot + 1);
		}
		if (sl_slurm_jobid_parse(v[i], &id, &task) != 0 &&
		    (r = array_element(v[i], &id, &task, arg, err)) != 0)
			break;
		if (step == -1) {
			r = sl_err_set(err, SL_EINVAL, "sacct: fatal: Bad step specified: %s", v[i]);
			break;
		}
		sl_jobsel_add_id(&o->sel, id, task); /* "N_I": array N's task I */
		o->steps = sl_xrealloc(o->steps, (o->n_steps + 1) * sizeof(*o->steps));
		o->steps[o->n_steps++] = (struct sl_sacct_step){id, task, step};
	}
	sl_strv_free(v);
	return r;
}

static int names(const struct sl_sacct_step *s, const struct sl_job *j)
{
	if (s->id == j->id && s->task < 0)
		return 1;
	return j->array_job_id != 0 && s->id == j->array_job_id &&
	       (s->task < 0 || s->task == j->array_task_id);
}

int sl_sacct_show_full(const struct sl_sacct_opts *o, const struct sl_job *j)
{
	int named = 0;
	for (size_t i = 0; i < o->n_steps; i++) {
		if (!names(&o->steps[i], j))
			continue;
		if (o->steps[i].step == SL_SACCT_STEP_ALL)
			return 1;
		named = 1;
	}
	return !named;
}

/* As slurmdbd reads the list: the steps named before the job's first
 * entry without a step (all of them when none is). */
int sl_sacct_step_wanted(const struct sl_sacct_opts *o, const struct sl_job *j, int step)
{
	int listed = 0;
	for (size_t i = 0; i < o->n_steps; i++) {
		if (!names(&o->steps[i], j))
			continue;
		if (o->steps[i].step == SL_SACCT_STEP_ALL)
			return !listed;
		if (o->steps[i].step == step)
			return 1;
		listed = 1;
	}
	return !listed;
}

/* States slurmdbd accounts that Sluice never enters: valid, match nothing. */
static const char *const accounted_foreign[][2] = {
	{"SUSPENDED", "S"}, {"DEADLINE", "DL"}, {"REQUEUED", "RQ"},
	{"RESIZING", "RS"}, {"REVOKED", "RV"},
};

static int accounted(const char *s)
{
	for (size_t i = 0; i < sizeof(accounted_foreign) / sizeof(accounted_foreign[0]); i++)
		if (strcasecmp(s, accounted_foreign[i][0]) == 0 ||
		    strcasecmp(s, accounted_foreign[i][1]) == 0)
			return 1;
	return 0;
}

/* -s: options.c's _addto_state_char_list(): each name must be a state and
 * one slurmdbd keeps (not CG or CF, which are flags there). */
static int add_state(struct sl_statesel *sel, const char *tok, struct sl_err *err)
{
	struct sl_statesel one = {0};
	struct sl_err e = SL_ERR_INIT;
	int st = sl_jobstate_parse(tok);

	if (st == SL_JOB_CONFIGURING || st == SL_JOB_COMPLETING ||
	    (st < 0 && !accounted(tok) && sl_slurm_states_parse(tok, &one, &e) == 0)) {
		sl_statesel_clear(&one);
		return sl_err_set(err, SL_EINVAL,
				  "sacct: fatal: job state %s is not supported / accounted", tok);
	}
	if (st < 0 && !accounted(tok))
		return sl_err_set(err, SL_EINVAL, "sacct: fatal: unrecognized job state value '%s'",
				  tok);
	if (st >= 0) {
		for (size_t i = 0; i < sel->n; i++)
			if (sel->states[i] == st)
				return 0;
		sel->states = sl_xrealloc(sel->states, (sel->n + 1) * sizeof(*sel->states));
		sel->states[sel->n++] = st;
	}
	sel->matches_none = sel->n == 0; /* only states Sluice never has, so far */
	return 0;
}

SET(set_states)
{
	char *copy = sl_xstrdup(arg), *save = NULL, *tok;
	int r = 0;

	for (tok = strtok_r(copy, ",", &save); r == 0 && tok; tok = strtok_r(NULL, ",", &save))
		r = add_state(&O(ctx)->sel.states, tok, err);
	free(copy);
	return r;
}

/* parse_time(arg, past = 1). Blank text is its 0 with no complaint: the
 * default window, as if the option were not given. */
static int set_time(struct sl_sacct_opts *o, const char *arg, int64_t *t, struct sl_err *err)
{
	int pos;

	if (sl_slurm_time_parse(arg, o->now, SL_TIME_PAST, t, &pos) == 0)
		return 0;
	*t = 0;
	if (pos == SL_TIME_NO_POS)
		return 0;
	return sl_err_set(err, SL_EINVAL, "Invalid time specification (pos=%d): %s", pos, arg);
}

SET(set_start) { return set_time(O(ctx), arg, &O(ctx)->start, err); }
SET(set_groups) { return sl_sacct_cond_groups(&O(ctx)->cond, arg, err); }
SET(set_batch_script) { (void)arg, (void)err; O(ctx)->script_out |= 1; return 0; }
SET(set_env_vars) { (void)arg, (void)err; O(ctx)->script_out |= 2; return 0; }
SET(set_nnodes)
{
	O(ctx)->cond.nodes_set = 1;
	return sl_sacct_cond_range(arg, "node", &O(ctx)->cond.nodes_lo, &O(ctx)->cond.nodes_hi,
				   err);
}
SET(set_ncpus)
{
	O(ctx)->cond.cpus_set = 1;
	return sl_sacct_cond_range(arg, "cpu", &O(ctx)->cond.cpus_lo, &O(ctx)->cond.cpus_hi, err);
}
SET(set_reasons) { return sl_sacct_cond_reasons(&O(ctx)->cond, arg, err); }
SET(set_tl_min) { return sl_sacct_cond_time(arg, &O(ctx)->cond.tl_min, err); }
SET(set_tl_max) { return sl_sacct_cond_time(arg, &O(ctx)->cond.tl_max, err); }
SET(set_end) { return set_time(O(ctx), arg, &O(ctx)->end, err); }

SET(set_clusters)
{
	(void)err;
	free(O(ctx)->clusters);
	O(ctx)->clusters = sl_xstrdup(arg);
	return 0;
}
FLAG(set_json, json, 1)
FLAG(set_yaml, json, 2)

static const struct sl_opt table[] = {
	ROW("allusers", 'a', SL_OPT_NOARG, set_allusers),
	ROW("accounts", 'A', SL_OPT_REQ, set_accounts),
	ROW("allocations", 'X', SL_OPT_NOARG, set_no_steps),
	ROW("brief", 'b', SL_OPT_NOARG, set_brief),
	ROW("batch-script", 'B', SL_OPT_NOARG, set_batch_script),
	UNSUPP("completion", 'c', SL_OPT_NOARG),
	UNSUPP("constraints", 'C', SL_OPT_REQ),
	ROW("delimiter", 0, SL_OPT_REQ, set_delimiter),
	ROW("duplicates", 'D', SL_OPT_NOARG, set_duplicates),
	ROW("federation", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("helpformat", 'e', SL_OPT_NOARG, set_helpformat),
	ROW("help-fields", 'e', SL_OPT_NOARG, set_helpformat),
	ROW("endtime", 'E', SL_OPT_REQ, set_end),
	ROW("env-vars", 0, SL_OPT_NOARG, set_env_vars),
	UNSUPP("file", 'f', SL_OPT_REQ),
	UNSUPP("flags", 'F', SL_OPT_REQ),
	ROW("gid", 'g', SL_OPT_REQ, set_groups),
	ROW("group", 'g', SL_OPT_REQ, set_groups),
	ROW("help", 'h', SL_OPT_NOARG, set_help),
	ROW("local", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("name", 0, SL_OPT_REQ, set_names),
	ROW("nnodes", 'i', SL_OPT_REQ, set_nnodes),
	ROW("ncpus", 'I', SL_OPT_REQ, set_ncpus),
	ROW("jobs", 'j', SL_OPT_REQ, set_jobs),
	ROW("timelimit-min", 'k', SL_OPT_REQ, set_tl_min),
	ROW("timelimit-max", 'K', SL_OPT_REQ, set_tl_max),
	ROW("long", 'l', SL_OPT_NOARG, set_long),
	ROW("allclusters", 'L', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("clusters", 'M', SL_OPT_REQ, set_clusters),
	ROW("cluster", 'M', SL_OPT_REQ, set_clusters),
	ROW("nodelist", 'N', SL_OPT_REQ, set_nodes),
	ROW("noconvert", 0, SL_OPT_NOARG, set_noconvert),
	ROW("units", 0, SL_OPT_REQ, set_units),
	ROW("noheader", 'n', SL_OPT_NOARG, set_noheader),
	ROW("fields", 'o', SL_OPT_REQ, set_fields),
	ROW("format", 'o', SL_OPT_REQ, set_fields),
	ROW("parsable", 'p', SL_OPT_NOARG, set_parsable),
	ROW("parsable2", 'P', SL_OPT_NOARG, set_parsable2),
	ROW("qos", 'q', SL_OPT_REQ, set_qos),
	ROW("partition", 'r', SL_OPT_REQ, set_partitions),
	ROW("reason", 0, SL_OPT_REQ, set_reasons), /* no -R in 22.05's getopt string */
	ROW("state", 's', SL_OPT_REQ, set_states),
	ROW("starttime", 'S', SL_OPT_REQ, set_start),
	ROW("truncate", 'T', SL_OPT_NOARG, set_truncate),
	ROW("uid", 'u', SL_OPT_REQ, set_users),
	ROW("use-local-uid", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("usage", 'U', SL_OPT_NOARG, set_usage),
	ROW("user", 'u', SL_OPT_REQ, set_users),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("wckeys", 'W', SL_OPT_REQ, set_wckeys),
	ROW("whole-hetjob", 0, SL_OPT_OPTARG, sl_query_set_nothing),
	UNSUPP("associations", 'x', SL_OPT_REQ),
	ROW("json", 0, SL_OPT_NOARG, set_json),
	ROW("yaml", 0, SL_OPT_NOARG, set_yaml),
	{NULL, 't', SL_OPT_NOARG, {NULL, NULL}, 0, set_no_steps}, /* old -X */
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

int sl_sacct_opts_parse(int argc, char **argv, int64_t now, struct sl_sacct_opts *o,
			int *syntax, struct sl_err *err)
{
	char **ops = NULL;
	size_t n_ops = 0, used;
	char msg[SL_ERR_MSG_MAX];
	int r;

	o->now = now;
	sl_sacct_cond_init(&o->cond);
	if ((r = sl_query_opt_parse(table, "sacct", argc, argv, o, &ops, &n_ops, syntax, err)))
		goto out;
	/* scripts and environments only of jobs named, as Slurm's */
	if (o->script_out && o->sel.n_ids + o->sel.n_tasks == 0) {
		r = sl_err_set(err, SL_EINVAL, "sacct: fatal: When requesting %s you must also "
			       "request specific jobs with the '-j' option.",
			       o->script_out & 2 ? "job environment" : "job scripts");
		goto out;
	}
	if (o->script_out == 3) {
		r = sl_err_set(err, SL_EINVAL, "sacct: fatal: Options --batch-script and --env-vars "
			       "are mutually exclusive");
		goto out;
	}
	if (o->longfmt && o->fields) {
		r = sl_err_set(err, SL_EINVAL, "sacct: fatal: Options -o(--format) and -l(--long) "
				   "are mutually exclusive. Please remove one and retry.");
		goto out;
	}
	if (n_ops > 0) {
		used = (size_t)snprintf(msg, sizeof(msg), "sacct: error: Unknown arguments:");
		for (size_t i = 0; i < n_ops && used < sizeof(msg); i++)
			used += (size_t)snprintf(msg + used, sizeof(msg) - used,
						 "\nsacct: error:  %s", ops[i]);
		r = sl_err_set(err, SL_EINVAL, "%s", msg);
	}
out:
	free(ops);
	return r;
}

void sl_sacct_opts_clear(struct sl_sacct_opts *o)
{
	free(o->delimiter);
	free(o->fields);
	free(o->clusters);
	sl_jobsel_clear(&o->sel);
	free(o->steps);
	sl_sacct_cond_clear(&o->cond);
	memset(o, 0, sizeof(*o));
	sl_sacct_cond_init(&o->cond);
}

char *sl_sacct_fields(const struct sl_sacct_opts *o)
{
	const char *env = getenv("SACCT_FORMAT");
	char *out;

	if (o->fields == NULL && !o->brief && !o->longfmt)
		return sl_xstrdup(env ? env : DEFAULT_FIELDS);
	out = sl_xasprintf("%s%s%s%s%s", o->fields ? o->fields : "",
			   o->fields && o->brief ? "," : "", o->brief ? BRIEF_FIELDS : "",
			   (o->fields || o->brief) && o->longfmt ? "," : "",
			   o->longfmt ? LONG_FIELDS : "");
	return out;
}

static int64_t midnight(int64_t now)
{
	time_t t = (time_t)now;
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

int sl_sacct_window(const struct sl_sacct_opts *o, int64_t now, struct sl_sacct_window *w,
		    struct sl_err *err)
{
	const struct sl_statesel *st = &o->sel.states;
	char s1[64], s2[64];

	w->start = o->start;
	w->end = o->end;
	w->by_state = st->n > 0 || st->matches_none;
	if (w->by_state) {
		if (!w->start && (o->sel.n_ids + o->sel.n_tasks) == 0)
			w->start = now;
		if (w->start && !w->end)
			w->end = w->start;
	} else if ((o->sel.n_ids + o->sel.n_tasks) == 0 && !w->start) {
		w->start = midnight(now);
	}
	if (!w->end)
		w->end = now;
	if (w->end == w->start || w->end == now)
		w->end++;
	if (w->start > w->end) {
		sl_slurm_time_fmt_ts(w->start, s1, sizeof(s1));
		sl_slurm_time_fmt_ts(w->end, s2, sizeof(s2));
		return sl_err_set(err, SL_EINVAL, "sacct: error: Start time (%s) requested is after "
				  "end time (%s).", s1, s2);
	}
	return 0;
}

/* slurmdb's condition for one -s state over the window. */
static int state_in_window(int st, const struct sl_sacct_window *w, const struct sl_job *j)
{
	int64_t e = sl_sacct_eligible(j), s = j->start_time, end = j->end_time;
	int running = j->state == SL_JOB_RUNNING || j->state == SL_JOB_CONFIGURING ||
		      j->state == SL_JOB_COMPLETING;

	switch (st) {
	case SL_JOB_PENDING:
		return e && ((s && w->start < s) || (!s && end && w->start < end) ||
			     (!s && !end && j->state == SL_JOB_PENDING)) && w->end > e;
	case SL_JOB_RUNNING:
		return s && (w->start < end || (!end && running)) && w->end > s;
	default:
		return (int)j->state == st && end && end >= w->start && end <= w->end;
	}
}

int sl_sacct_window_match(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
			  const struct sl_job *j)
{
	const struct sl_statesel *st = &o->sel.states;
	int64_t e;

	if (!sl_sacct_cond_match(&o->cond, j))
		return 0;
	if (w->by_state) {
		for (size_t i = 0; i < st->n; i++)
			if (state_in_window(st->states[i], w, j))
				return 1;
		return 0;
	}
	/* an explicit list of jobs shows them even if never eligible */
	if (o->sel.n_ids + o->sel.n_tasks > 0)
		return j->submit_time < w->end && (j->end_time >= w->start || j->end_time == 0);
	e = sl_sacct_eligible(j);
	return e && e < w->end && (j->end_time >= w->start || j->end_time == 0);
}

/* A job's record and where it was in the list. */
struct rec {
	struct sl_job *j;
	size_t at;
};

/* A job's records, newest last (as the daemon lists them): by submit time,
 * the job's own record after its runs' (REQUEUED) in one second, then by
 * start. */
static int by_id_then_age(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int ra = a->j->state == SL_JOB_REQUEUED, rb = b->j->state == SL_JOB_REQUEUED;

	if (a->j->id != b->j->id)
		return a->j->id < b->j->id ? -1 : 1;
	if (a->j->submit_time != b->j->submit_time)
		return a->j->submit_time < b->j->submit_time ? -1 : 1;
	if (ra != rb)
		return ra ? -1 : 1;
	if (a->j->start_time != b->j->start_time)
		return a->j->start_time < b->j->start_time ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* Without -D: each job's newest record alone. slurmdbd orders a job's
 * records newest first (by submit time, which a requeue renews) and skips
 * every one after the first that its conditions let through; so the
 * window picks which record that is. */
static void newest_only(struct sl_job **v, size_t *n)
{
	struct rec *r = sl_xcalloc(*n ? *n : 1, sizeof(*r));
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		r[i] = (struct rec){v[i], i};
	qsort(r, *n, sizeof(*r), by_id_then_age);
	for (size_t i = 0; i + 1 < *n; i++)
		if (r[i].j->id == r[i + 1].j->id) {
			sl_job_free(v[r[i].at]);
			v[r[i].at] = NULL;
		}
	free(r);
	for (size_t i = 0; i < *n; i++)
		if (v[i] != NULL)
			v[k++] = v[i];
	*n = k;
}

void sl_sacct_select(const struct sl_sacct_opts *o, const struct sl_sacct_window *w,
		     struct sl_job **v, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		if (sl_sacct_window_match(o, w, v[i]))
			v[k++] = v[i];
		else
			sl_job_free(v[i]);
	*n = k;
	if (!o->duplicates)
		newest_only(v, n);
}

int64_t sl_sacct_truncate(const struct sl_sacct_window *w, int64_t now, struct sl_job *j)
{
	int64_t ue = w->end > now ? now : w->end;

	if (j->end_time != 0 && j->start_time > j->end_time)
		j->start_time = j->end_time;
	if (j->start_time != 0 && j->start_time < w->start)
		j->start_time = w->start;
	if (j->end_time == 0 || j->end_time > ue)
		j->end_time = ue;
	if (j->start_time == 0)
		j->start_time = j->end_time;
	if (j->suspend_time != 0 && j->suspend_time < j->start_time)
		j->suspend_time = j->start_time;
	return ue;
}

void sl_sacct_truncate_step(const struct sl_sacct_window *w, int64_t now, int64_t *start,
			    int64_t *end)
{
	int64_t ue = w->end > now ? now : w->end;

	if (w->start == 0)
		return;
	if (*start != 0 && *start < w->start)
		*start = w->start;
	if (*start == 0 && *end != 0)
		*start = *end;
	if (*end == 0 || *end > ue)
		*end = ue;
	if (*start != 0 && *end != 0 && *start > *end)
		*start = *end = 0;
}

/* Slurm's array fields of a record: a plain job is array 0, task NO_VAL. */
static uint64_t array_of(const struct sl_job *j)
{
	return j->array_job_id;
}

/* The meta record (a folded one: pending, or cancelled before its tasks
 * ran) has no task of its own either: NO_VAL, after its array's tasks. */
static uint32_t task_of(const struct sl_job *j)
{
	return j->array_job_id != 0 && j->array_tasks == NULL ? (uint32_t)j->array_task_id
							     : 0xfffffffeU;
}

/* sacct's _sort_desc_submit_time: submit time, then array id, task and job
 * id; so in one second a plain job comes before an array's tasks, and the
 * tasks in index order whatever their ids. */
static int by_submit(const void *pa, const void *pb)
{
	const struct sl_job *a = *(struct sl_job *const *)pa, *b = *(struct sl_job *const *)pb;
	if (a->submit_time != b->submit_time)
		return a->submit_time < b->submit_time ? -1 : 1;
	if (array_of(a) != array_of(b))
		return array_of(a) < array_of(b) ? -1 : 1;
	if (task_of(a) != task_of(b))
		return task_of(a) < task_of(b) ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	/* sacct -D: a job's requeued runs (same second) before the job, oldest first */
	if ((a->state == SL_JOB_REQUEUED) != (b->state == SL_JOB_REQUEUED))
		return a->state == SL_JOB_REQUEUED ? -1 : 1;
	return a->start_time < b->start_time ? -1 : a->start_time > b->start_time;
}

void sl_sacct_sort(struct sl_job **v, size_t n)
{
	if (n > 1) /* v may be NULL with no rows: qsort's is declared nonnull */
		qsort(v, n, sizeof(*v), by_submit);
}
