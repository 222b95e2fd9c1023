/* squeue_opt.c - squeue's options, one row each, and what they set.
 *
 * As in Slurm's opts.c, a list option given twice keeps the last list;
 * SQUEUE_* variables fill what the command line left unset. Options Slurm
 * has and Sluice cannot honour (licenses, clusters, --steps) say so and
 * fail instead of printing a plausible but wrong list. */
#include "squeue_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hostlist.h"
#include "query_opt.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_squeue_opts *)(ctx))

const char sl_squeue_usage[] =
	"Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]\n"
	"              [-n name] [-o format] [-p partitions] [--qos qos]\n"
	"              [--reservation reservation] [--sort fields] [--start]\n"
	"              [--step step_id] [-t states] [-u user_name] [--usage]\n"
	"              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]\n"
	"\t      [-ahjlrsv]\n";

static void replace(char **dst, const char *arg)
{
	free(*dst);
	*dst = sl_xstrdup(arg);
}

FLAG(set_noheader, noheader, 1)
FLAG(set_noconvert, noconvert, 1)
FLAG(set_reservation, reservation, 1)
FLAG(set_help, help, 1)
FLAG(set_usage, usage, 1)
FLAG(set_version, version, 1)
SET(set_verbose) { (void)arg; (void)err; O(ctx)->verbose++; return 0; }
SET(set_long) { (void)arg; (void)err; O(ctx)->longfmt = O(ctx)->override = 1; return 0; }
SET(set_array) { (void)arg; (void)err; O(ctx)->array = 1; return 0; }
SET(set_array_unique) { (void)arg; (void)err; O(ctx)->array_unique = 1; return 0; }
SET(set_start) { (void)arg; (void)err; O(ctx)->start = O(ctx)->override = 1; return 0; }
SET(set_sort) { (void)err; replace(&O(ctx)->sort, arg); return 0; }
SET(set_steps)
{
	(void)err;
	O(ctx)->steps = 1;
	if (arg)
		replace(&O(ctx)->step_list, arg);
	return 0;
}

LIST(set_accounts, sl_query_list_set, accounts)
LIST(set_names, sl_query_list_set, names)
LIST(set_partitions, sl_query_list_set, parts)
LIST(set_qos, sl_query_list_set, qos)

SET(set_iterate)
{
	if ((O(ctx)->iterate = atoi(arg)) <= 0)
		return sl_err_set(err, SL_EINVAL, "squeue: error: --iterate=%s\n", arg);
	return 0;
}

static int set_job_list(struct sl_squeue_opts *o, const char *list, struct sl_err *err)
{
	char **v = NULL;
	size_t n = 0;
	uint64_t id;
	long task;
	int r = 0;

	o->sel.n_ids = o->sel.n_tasks = 0;
	sl_slurm_list_append(&v, &n, list);
	o->jobs_none = n == 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		char *dot = strchr(v[i], '.');
		if (dot != NULL && dot != v[i]) /* "N.S" (and "N.") is job N, as Slurm's -j reads it */
			*dot = '\0';
		/* squeue's strtol: "N_I" is array N's task I, "5x" job 5; 0 is
		 * no job id */
		if (sl_slurm_jobid_read(v[i], SL_JOBID_STRTOL, &id, &task) == 0 && id != 0)
			sl_jobsel_add_id(&o->sel, id, task);
		else
			r = sl_err_set(err, SL_EINVAL, "squeue: error: Invalid job id: %s", v[i]);
	}
	sl_strv_free(v);
	return r;
}

/* -s's words are steps, as Slurm's _build_step_list reads them: one
 * without a step is "N.??", one whose job part is no job id is named. */
static int check_step_list(const char *list, struct sl_err *err)
{
	char *dup = list ? sl_xstrdup(list) : NULL, *save = NULL;
	uint64_t id;
	long task;
	int r = 0;
	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t && r == 0;
	     t = strtok_r(NULL, ",", &save)) {
		t += strspn(t, ".");
		char *dot = strchr(t, '.');
		if (dot == NULL || dot[1] == '\0') {
			r = sl_err_set(err, SL_EINVAL, "squeue: error: Invalid job_step id: %.*s.??",
				       (int)strcspn(t, "."), t);
			continue;
		}
		*dot = '\0';
		if (sl_slurm_jobid_parse(t, &id, &task) != 0) {
			*dot = '.';
			r = sl_err_set(err, SL_EINVAL, "squeue: error: Invalid job_step id: %s", t);
		}
	}
	free(dup);
	return r;
}

SET(set_jobs)
{
	O(ctx)->job_flag = 1;
	return arg ? set_job_list(O(ctx), arg, err) : 0;
}

SET(set_format)
{
	if (O(ctx)->format_long)
		return sl_err_set(err, SL_EINVAL,
				  "squeue: error: -o (--format) is incompatible with -O (--Format)");
	replace(&O(ctx)->format, arg);
	O(ctx)->override = 1;
	return 0;
}

SET(set_format_long)
{
	if (O(ctx)->format)
		return sl_err_set(err, SL_EINVAL,
				  "squeue: error: -O (--Format) is incompatible with -o (--format)");
	replace(&O(ctx)->format_long, arg);
	O(ctx)->override = 1;
	return 0;
}

/* "all" alone selects every state; inside a list it is a bad name. */
SET(set_states)
{
	struct sl_jobsel *s = &O(ctx)->sel;
	struct sl_err e = SL_ERR_INIT;
	char *copy = sl_xstrdup(arg), *save = NULL, *tok;
	int r = 0;

	sl_statesel_clear(&s->states);
	if (strcasecmp(arg, "all") == 0) {
		s->states.all = 1;
	} else {
		for (tok = strtok_r(copy, ",", &save); tok && r == 0; tok = strtok_r(NULL, ",", &save))
			if (strcasecmp(tok, "all") == 0)
				r = sl_err_set(&e, SL_EINVAL, "%s", tok);
		if (r == 0)
			r = sl_slurm_states_parse(arg, &s->states, &e);
	}
	free(copy);
	if (r != 0)
		return sl_err_set(err, SL_EINVAL,
				  "squeue: error: Invalid job state specified: %s\n"
				  "squeue: error: Valid job states include: %s\n", e.msg,
				  sl_slurm_valid_states);
	return 0;
}

/* Unknown users are reported and dropped; squeue goes on (exit 0). */
static void set_user_list(struct sl_squeue_opts *o, const char *list)
{
	char **v = NULL;
	size_t n = 0, used = strlen(o->warn);
	struct sl_err e = SL_ERR_INIT;

	o->users_given = 1;
	o->sel.n_uids = 0;
	sl_slurm_list_append(&v, &n, list);
	for (size_t i = 0; i < n; i++) {
		sl_err_clear(&e);
		if (sl_slurm_users_parse(v[i], &o->sel.uids, &o->sel.n_uids, &e) != 0 &&
		    used < sizeof(o->warn))
			used += (size_t)snprintf(o->warn + used, sizeof(o->warn) - used,
						 "squeue: error: Invalid user: %s\n\n", v[i]);
	}
	sl_strv_free(v);
}

SET(set_users) { (void)err; set_user_list(O(ctx), arg); return 0; }

SET(set_me)
{
	char me[32];
	(void)arg;
	(void)err;
	snprintf(me, sizeof(me), "%u", (unsigned)geteuid());
	set_user_list(O(ctx), me);
	return 0;
}

/* -w: a hostlist, expanded into names (a job passes holding any). */
SET(set_nodes)
{
	struct sl_jobsel *s = &O(ctx)->sel;
	struct sl_err e = SL_ERR_INIT;

	sl_strv_free(s->nodes);
	s->nodes = NULL;
	s->n_nodes = 0;
	if (sl_hostlist_expand(arg, &s->nodes, &s->n_nodes, &e) != 0)
		return sl_err_set(err, SL_EINVAL, "squeue: error: '%s' invalid entry for --nodelist",
				  arg);
	return 0;
}

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
	ROW("accounts", 'A', SL_OPT_REQ, set_accounts),
	ROW("account", 'A', SL_OPT_REQ, set_accounts),
	ROW("all", 'a', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("array", 'r', SL_OPT_NOARG, set_array),
	ROW("array-unique", 0, SL_OPT_NOARG, set_array_unique),
	ROW("Format", 'O', SL_OPT_REQ, set_format_long),
	ROW("format", 'o', SL_OPT_REQ, set_format),
	ROW("federation", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("help", 0, SL_OPT_NOARG, set_help),
	ROW("hide", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("iterate", 'i', SL_OPT_REQ, set_iterate),
	ROW("jobs", 'j', SL_OPT_OPTARG, set_jobs),
	ROW("local", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("long", 'l', SL_OPT_NOARG, set_long),
	UNSUPP("licenses", 'L', SL_OPT_REQ),
	ROW("clusters", 'M', SL_OPT_REQ, set_clusters),
	ROW("cluster", 'M', SL_OPT_REQ, set_clusters),
	ROW("me", 0, SL_OPT_NOARG, set_me),
	ROW("name", 'n', SL_OPT_REQ, set_names),
	ROW("noconvert", 0, SL_OPT_NOARG, set_noconvert),
	ROW("node", 'w', SL_OPT_REQ, set_nodes),
	ROW("nodes", 'w', SL_OPT_REQ, set_nodes),
	ROW("nodelist", 'w', SL_OPT_REQ, set_nodes),
	ROW("noheader", 'h', SL_OPT_NOARG, set_noheader),
	ROW("partitions", 'p', SL_OPT_REQ, set_partitions),
	ROW("partition", 'p', SL_OPT_REQ, set_partitions),
	ROW("priority", 'P', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("qos", 'q', SL_OPT_REQ, set_qos),
	ROW("reservation", 'R', SL_OPT_REQ, set_reservation),
	ROW("sib", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("sibling", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("sort", 'S', SL_OPT_REQ, set_sort),
	ROW("start", 0, SL_OPT_NOARG, set_start),
	ROW("steps", 's', SL_OPT_OPTARG, set_steps),
	ROW("states", 't', SL_OPT_REQ, set_states),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	ROW("user", 'u', SL_OPT_REQ, set_users),
	ROW("users", 'u', SL_OPT_REQ, set_users),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("json", 0, SL_OPT_NOARG, set_json),
	ROW("yaml", 0, SL_OPT_NOARG, set_yaml),
	{NULL, 'U', SL_OPT_REQ, {NULL, NULL}, 0, set_accounts}, /* Slurm's old -U */
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

/* SQUEUE_* for what the command line left unset, as opts.c reads them. */
static int from_env(struct sl_squeue_opts *o, struct sl_err *err)
{
	struct sl_jobsel *s = &o->sel;
	const char *v;
	int r = 0;

	if (getenv("SQUEUE_ARRAY") != NULL)
		o->array = 1;
	if (getenv("SQUEUE_ARRAY_UNIQUE") != NULL)
		o->array_unique = 1;
	if (o->sort == NULL && (v = getenv("SQUEUE_SORT")))
		o->sort = sl_xstrdup(v);
	if (!o->override && (v = getenv("SQUEUE_FORMAT")))
		o->format = sl_xstrdup(v);
	else if (!o->override && (v = getenv("SQUEUE_FORMAT2")))
		o->format_long = sl_xstrdup(v);
	if (s->accounts == NULL && (v = getenv("SQUEUE_ACCOUNT")))
		set_accounts(o, v, err);
	if (s->names == NULL && (v = getenv("SQUEUE_NAMES")))
		set_names(o, v, err);
	if (s->parts == NULL && getenv("SQUEUE_LICENSES"))
		return sl_err_set(err, SL_EUNSUPP,
				  "squeue: error: SQUEUE_LICENSES is not supported by Sluice");
	if (s->parts == NULL && (v = getenv("SQUEUE_PARTITION")))
		set_partitions(o, v, err);
	if (s->qos == NULL && (v = getenv("SQUEUE_QOS")))
		set_qos(o, v, err);
	if (!s->states.n && !s->states.all && !s->states.matches_none &&
	    (v = getenv("SQUEUE_STATES")))
		r = set_states(o, v, err);
	if (r == 0 && !o->users_given && (v = getenv("SQUEUE_USERS")))
		set_user_list(o, v);
	return r;
}

int sl_squeue_opts_parse(int argc, char **argv, struct sl_squeue_opts *o, int *syntax,
			 int *usage_too, struct sl_err *err)
{
	char **ops = NULL;
	size_t n_ops = 0;
	int r;

	*usage_too = 0;
	if ((r = sl_query_opt_parse(table, "squeue", argc, argv, o, &ops, &n_ops, syntax, err)))
		goto out;
	if (o->longfmt && o->format) {
		r = sl_err_set(err, SL_EINVAL, "squeue: fatal: Options -o(--format) and -l(--long) "
				   "are mutually exclusive. Please remove one and retry.");
		goto out;
	}
	if (n_ops > 0 && o->job_flag) {
		if ((r = set_job_list(o, ops[0], err)) != 0)
			goto out;
		memmove(ops, ops + 1, --n_ops * sizeof(*ops));
	} else if (n_ops > 0 && o->steps && o->step_list == NULL) { /* squeue -s 3.0 */
		replace(&o->step_list, ops[0]);
		memmove(ops, ops + 1, --n_ops * sizeof(*ops));
	}
	if ((r = check_step_list(o->step_list, err)) != 0)
		goto out;
	if (n_ops > 0) {
		*usage_too = 1;
		r = sl_err_set(err, SL_EINVAL, "squeue: error: Unrecognized option: %s", ops[0]);
		goto out;
	}
	r = from_env(o, err);
out:
	free(ops);
	return r;
}

void sl_squeue_opts_clear(struct sl_squeue_opts *o)
{
	free(o->format);
	free(o->format_long);
	free(o->sort);
	free(o->clusters);
	free(o->step_list);
	sl_jobsel_clear(&o->sel);
	memset(o, 0, sizeof(*o));
}
