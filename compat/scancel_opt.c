/* scancel_opt.c - scancel's options, one row each, and its job ids.
 *
 * As in Slurm's opt.c, each filter takes one value (-n a,b is the name
 * "a,b"), -A and -q are lowercased, --state takes one state. Job ids:
 * "N" (a job, or every task of array N), "N_*" (the same), "N_T" and
 * "N_[1-3,5]" (array N's tasks), "N.S" and "N+O" (answered by scancel.c:
 * no job has steps or is heterogeneous yet), several in one word with
 * commas. */
#include "scancel_opt.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "array.h"
#include "hostlist.h"
#include "query_opt.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_scancel_opts *)(ctx))

const char sl_scancel_usage[] =
	"Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n"
	"               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]\n"
	"               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]\n"
	"               [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]\n"
	"               [job_id[_array_id][.step_id]]\n";

/* proc_args.c's signals_mapping: the names sig_name2num() knows. */
static const struct {
	const char *name;
	int sig;
} signals[] = {
	{"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ABRT", SIGABRT},
	{"KILL", SIGKILL}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"USR1", SIGUSR1},
	{"USR2", SIGUSR2}, {"URG", SIGURG}, {"CONT", SIGCONT}, {"STOP", SIGSTOP},
	{"TSTP", SIGTSTP}, {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"XCPU", SIGXCPU},
};

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* sig_name2num(): a number, or a name with or without "SIG"; 0 unknown. */
static int signal_num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end != s)
		return blank(end) && v > 0 && v < NSIG ? (int)v : 0;
	while (isspace((unsigned char)*s))
		s++;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		size_t n = strlen(signals[i].name);
		if (strncasecmp(s, signals[i].name, n) == 0 && blank(s + n))
			return signals[i].sig;
	}
	return 0;
}

static void one_value(char **field, char ***list, size_t *n, const char *arg, int lower)
{
	free(*field);
	*field = sl_xstrdup(arg);
	for (char *p = *field; lower && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	sl_strv_free(*list);
	*list = sl_xcalloc(2, sizeof(**list));
	(*list)[0] = sl_xstrdup(*field);
	*n = 1;
}

FLAG(set_batch, batch, 1)
FLAG(set_full, full, 1)
FLAG(set_interactive, interactive, 1)
FLAG(set_quiet, quiet, 1)
FLAG(set_help, help, 1)
FLAG(set_usage, usage, 1)
FLAG(set_version, version, 1)
SET(set_verbose) { (void)arg; (void)err; O(ctx)->verbose++; return 0; }

SET(set_account)
{
	struct sl_scancel_opts *o = O(ctx);
	(void)err;
	one_value(&o->account, &o->sel.accounts, &o->sel.n_accounts, arg, 1);
	o->filters = 1;
	return 0;
}

SET(set_name)
{
	struct sl_scancel_opts *o = O(ctx);
	(void)err;
	one_value(&o->name, &o->sel.names, &o->sel.n_names, arg, 0);
	o->filters = 1;
	return 0;
}

SET(set_partition)
{
	struct sl_scancel_opts *o = O(ctx);
	(void)err;
	one_value(&o->partition, &o->sel.parts, &o->sel.n_parts, arg, 0);
	o->filters = 1;
	return 0;
}

SET(set_qos)
{
	struct sl_scancel_opts *o = O(ctx);
	(void)err;
	one_value(&o->qos, &o->sel.qos, &o->sel.n_qos, arg, 1);
	o->filters = 1;
	return 0;
}

/* -R: Sluice jobs have no reservation, so nothing matches. */
SET(set_reservation)
{
	(void)err;
	free(O(ctx)->reservation);
	O(ctx)->reservation = sl_xstrdup(arg);
	O(ctx)->filters = O(ctx)->none = 1;
	return 0;
}

SET(set_clusters)
{
	(void)err;
	free(O(ctx)->clusters);
	O(ctx)->clusters = sl_xstrdup(arg);
	return 0;
}

SET(set_wckey)
{
	struct sl_scancel_opts *o = O(ctx);
	(void)err;
	one_value(&o->wckey, &o->sel.wckeys, &o->sel.n_wckeys, arg, 0);
	o->filters = 1;
	return 0;
}

SET(set_nodes)
{
	struct sl_scancel_opts *o = O(ctx);
	struct sl_err e = SL_ERR_INIT;

	free(o->nodelist);
	o->nodelist = sl_xstrdup(arg);
	sl_strv_free(o->sel.nodes);
	o->sel.nodes = NULL;
	o->sel.n_nodes = 0;
	if (sl_hostlist_expand(arg, &o->sel.nodes, &o->sel.n_nodes, &e) != 0)
		return sl_err_set(err, SL_EINVAL, "scancel: error: %s", e.msg);
	o->filters = 1;
	return 0;
}

SET(set_user)
{
	struct sl_scancel_opts *o = O(ctx);
	struct sl_err e = SL_ERR_INIT;

	free(o->user);
	o->user = sl_xstrdup(arg);
	o->sel.n_uids = 0;
	if (sl_slurm_users_parse(arg, &o->sel.uids, &o->sel.n_uids, &e) != 0 || o->sel.n_uids != 1)
		return sl_err_set(err, SL_EINVAL, "scancel: error: Invalid user name: %s", arg);
	o->filters = 1;
	return 0;
}

SET(set_me)
{
	char me[32];
	snprintf(me, sizeof(me), "%u", (unsigned)getuid());
	(void)arg;
	return set_user(ctx, me, err);
}

SET(set_signal)
{
	if ((O(ctx)->signal = signal_num(arg)) == 0)
		return sl_err_set(err, SL_EINVAL, "Unknown job signal: %s", arg);
	return 0;
}

/* --state: one state; only PENDING and RUNNING can match (Slurm acts on
 * PD, R and S jobs, comparing base states: CF is a running job). */
SET(set_state)
{
	struct sl_scancel_opts *o = O(ctx);
	struct sl_statesel *sel = &o->sel.states, any = {0};
	struct sl_err e = SL_ERR_INIT;
	int st = sl_jobstate_parse(arg);

	sl_statesel_clear(sel);
	if (st < 0 && (strchr(arg, ',') || sl_slurm_states_parse(arg, &any, &e) != 0))
		return sl_err_set(err, SL_EINVAL, "Invalid job state specified: %s\n"
				  "Valid job states are PENDING, RUNNING, and SUSPENDED", arg);
	sl_statesel_clear(&any);
	snprintf(o->state, sizeof(o->state), "%s", st >= 0 ? sl_jobstate_name(st) : arg);
	for (char *p = o->state; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if (st == SL_JOB_PENDING || st == SL_JOB_RUNNING) {
		sel->states = sl_xcalloc(2, sizeof(*sel->states));
		sel->states[sel->n++] = st;
		if (st == SL_JOB_RUNNING)
			sel->states[sel->n++] = SL_JOB_CONFIGURING;
	} else {
		o->none = 1;
	}
	o->filters = 1;
	return 0;
}

static const struct sl_opt table[] = {
	ROW("account", 'A', SL_OPT_REQ, set_account),
	ROW("batch", 'b', SL_OPT_NOARG, set_batch),
	ROW("ctld", 0, SL_OPT_NOARG, sl_query_set_nothing),
	ROW("full", 'f', SL_OPT_NOARG, set_full),
	ROW("help", 0, SL_OPT_NOARG, set_help),
	ROW("hurry", 'H', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("interactive", 'i', SL_OPT_NOARG, set_interactive),
	ROW("clusters", 'M', SL_OPT_REQ, set_clusters),
	ROW("cluster", 'M', SL_OPT_REQ, set_clusters),
	ROW("jobname", 'n', SL_OPT_REQ, set_name),
	ROW("me", 0, SL_OPT_NOARG, set_me),
	ROW("name", 'n', SL_OPT_REQ, set_name),
	ROW("nodelist", 'w', SL_OPT_REQ, set_nodes),
	ROW("partition", 'p', SL_OPT_REQ, set_partition),
	ROW("qos", 'q', SL_OPT_REQ, set_qos),
	ROW("quiet", 'Q', SL_OPT_NOARG, set_quiet),
	ROW("reservation", 'R', SL_OPT_REQ, set_reservation),
	UNSUPP("sibling", 0, SL_OPT_REQ),
	ROW("signal", 's', SL_OPT_REQ, set_signal),
	ROW("state", 't', SL_OPT_REQ, set_state),
	ROW("usage", 0, SL_OPT_NOARG, set_usage),
	ROW("user", 'u', SL_OPT_REQ, set_user),
	ROW("verbose", 'v', SL_OPT_NOARG, set_verbose),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("wckey", 0, SL_OPT_REQ, set_wckey),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

static void push(char ***v, size_t *n, const char *s, size_t len)
{
	*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = sl_xstrndup(s, len);
	(*v)[*n] = NULL;
}

/* "N_I" or "N_[1-3,5]" at p (after '_'): array N's tasks; *pp moves past
 * them and their comma. A step of a task ("N_I.S") has no record here. */
static int array_tasks(struct sl_scancel_opts *o, uint64_t job, const char **pp, const char *p,
		       const char *word, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *a = NULL;
	size_t len = p[0] == '[' ? strcspn(p, "]") + 1 : strspn(p, "0123456789");
	char *set = sl_xstrndup(p, len);
	int r = 0;

	if (len == 0 || (p[0] == '[' && p[len - 1] != ']') ||
	    sl_array_parse(set, SL_ARRAY_MAX_LIMIT, &a, &e) != 0 || strchr(set, '%') != NULL)
		r = sl_err_set(err, SL_EINVAL, "scancel: error: Invalid job id %s", word);
	for (size_t i = 0; r == 0 && i < sl_array_count(a); i++)
		sl_jobsel_add_id(&o->sel, job, (long)sl_array_task(a, i));
	if (r == 0 && p[0] == '[') {
		o->words = sl_xrealloc(o->words, (o->n_words + 1) * sizeof(*o->words));
		o->words[o->n_words++] = (struct sl_scancel_word){
			sl_xasprintf("%llu_%s", (unsigned long long)job, set), job, a};
		a = NULL;
	}
	free(set);
	sl_array_free(a);
	p += len;
	if (r == 0 && *p == ',' && p[1] != '\0')
		p++;
	else if (r == 0 && *p != '\0')
		r = sl_err_set(err, SL_EINVAL, "scancel: error: Invalid job id %s", word);
	*pp = p;
	return r;
}

/* One id at *pp (opt.c's _xlate_job_step_ids); *pp moves past it and
 * its comma. */
static int one_id(struct sl_scancel_opts *o, const char **pp, const char *word,
		  struct sl_err *err)
{
	const char *p = *pp, *start = p;
	char *end;
	long long id = strtoll(p, &end, 10);

	if (id <= 0)
		return sl_err_set(err, SL_EINVAL, "scancel: error: Invalid job id %s", word);
	p = end;
	if (p[0] == '_' && p[1] != '*')
		return array_tasks(o, (uint64_t)id, pp, p + 1, word, err);
	if (p[0] == '_')
		p += 2; /* "N_*": every task of array N, as N */
	if (p[0] == '+' || p[0] == '.') {
		char kind = p[0];
		if (strtol(p + 1, &end, 10) < 0 || end == p + 1)
			return sl_err_set(err, SL_EINVAL, "scancel: error: Invalid job id %s", word);
		if (kind == '+')
			push(&o->het, &o->n_het, start, (size_t)(end - start));
		else
			push(&o->steps, &o->n_steps, start, (size_t)(end - start));
		p = end;
	} else {
		o->sel.ids = sl_xrealloc(o->sel.ids, (o->sel.n_ids + 1) * sizeof(*o->sel.ids));
		o->sel.ids[o->sel.n_ids++] = (uint64_t)id;
	}
	if (*p == ',' && p[1] != '\0')
		p++;
	else if (*p != '\0')
		return sl_err_set(err, SL_EINVAL, "scancel: error: Invalid job id %s", word);
	*pp = p;
	return 0;
}

int sl_scancel_opts_parse(int argc, char **argv, struct sl_scancel_opts *o, int *syntax,
			  struct sl_err *err)
{
	char **ops = NULL;
	size_t n_ops = 0;
	int r;

	r = sl_query_opt_parse(table, "scancel", argc, argv, o, &ops, &n_ops, syntax, err);
	for (size_t i = 0; r == 0 && i < n_ops; i++)
		for (const char *p = ops[i]; r == 0 && (p == ops[i] || *p != '\0');)
			r = one_id(o, &p, ops[i], err);
	if (r == 0 && !o->help && !o->usage && !o->version && o->sel.n_ids + o->sel.n_tasks == 0 &&
	    o->n_steps == 0 && o->n_het == 0 && !o->filters)
		r = sl_err_set(err, SL_EINVAL, "scancel: error: No job identification provided");
	free(ops);
	return r;
}

void sl_scancel_opts_clear(struct sl_scancel_opts *o)
{
	free(o->account);
	free(o->name);
	free(o->nodelist);
	free(o->partition);
	free(o->qos);
	free(o->reservation);
	free(o->user);
	free(o->wckey);
	free(o->clusters);
	sl_strv_free(o->steps);
	sl_strv_free(o->het);
	sl_jobsel_clear(&o->sel);
	for (size_t i = 0; i < o->n_words; i++) {
		free(o->words[i].word);
		sl_array_free(o->words[i].set);
	}
	free(o->words);
	memset(o, 0, sizeof(*o));
}

const struct sl_scancel_word *sl_scancel_word_of(const struct sl_scancel_opts *o, uint64_t job,
						 int task)
{
	for (size_t i = 0; i < o->n_words; i++)
		if (o->words[i].job == job && task >= 0 && sl_array_has(o->words[i].set, (uint32_t)task))
			return &o->words[i];
	return NULL;
}

int sl_scancel_plain(const struct sl_scancel_opts *o)
{
	return !o->filters && !o->batch && !o->interactive && o->signal == 0;
}

enum sl_scancel_scope sl_scancel_scope(const struct sl_scancel_opts *o)
{
	return o->full ? SL_SCANCEL_FULL : o->batch ? SL_SCANCEL_BATCH : SL_SCANCEL_STEPS;
}

const char *sl_scancel_job_type(const struct sl_scancel_opts *o)
{
	return o->full ? "full " : o->batch ? "batch " : "";
}

void sl_scancel_filters_text(const struct sl_scancel_opts *o, char *buf, size_t len)
{
	const struct {
		const char *key, *val;
	} f[] = {
		{"account", o->account}, {"job_name", o->name}, {"nodelist", o->nodelist},
		{"partition", o->partition}, {"qos", o->qos}, {"reservation", o->reservation},
		{"state", o->state[0] ? o->state : NULL}, {"user_name", o->user},
		{"wckey", o->wckey},
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]) && used < len; i++)
		if (f[i].val)
			used += (size_t)snprintf(buf + used, len - used, "%s=%s ", f[i].key, f[i].val);
}
