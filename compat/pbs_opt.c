/* pbs_opt.c - qsub's option table and the parse that drives it.
 *
 * One row per qsub option of OpenPBS (GETOPT_ARGS in src/cmds/qsub_sup.c:89,
 * "a:A:c:C:e:fhIj:J:k:l:m:M:N:o:p:q:r:R:S:u:v:VW:XzP:") plus Torque's -d, -w
 * and -t. The command line and each #PBS directive go through the same
 * rows. Options Sluice does not implement stay in the table, flagged, so
 * they are refused ("qsub: -R is not supported by Sluice", exit 1) rather
 * than mistaken for typos or dropped. Handlers check values as OpenPBS's
 * process_opts() (src/cmds/qsub.c:1009) and its attribute verifiers
 * (src/lib/Libecl/ecl_verify_values.c) do, with their texts. */
#include "pbs_opt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "optable.h"
#include "pbs_attr.h"
#include "pbs_job.h"
#include "pbs_opt_int.h"
#include "script.h"
#include "xalloc.h"

#define OPTF_EARLY 0x100u  /* applied before the script is read (-C, -z) */
#define OPTF_OPTTIME 0x200u /* rejected by process_opts(): a bad directive says so */

const char sl_qsub_usage[] =
	"usage: qsub [-a date_time] [-A account_string] [-c interval]\n"
	"\t[-C directive_prefix] [-e path] [-f ] [-h ] [-I [-X]] [-j oe|eo] [-J X-Y[:Z]]\n"
	"\t[-k keep] [-l resource_list] [-m mail_options] [-M user_list]\n"
	"\t[-N jobname] [-o path] [-p priority] [-P project] [-q queue] [-r y|n]\n"
	"\t[-R o|e|oe] [-S path] [-u user_list] [-W otherattributes=value...]\n"
	"\t[-v variable_list] [-V ] [-z] [script | -- command [arg1 ...]]\n"
	"       qsub --version\n";

#define CTX(c) ((struct sl_pbs_optctx *)(c))

static void set_str(char **dst, const char *a)
{
	free(*dst);
	*dst = sl_xstrdup(a);
}

static const char *skip_blanks(const char *a)
{
	while (isspace((unsigned char)*a))
		a++;
	return a;
}

/* "qsub: illegal -X value", with the usage: exit 2 (handle_attribute_errors()
 * in src/cmds/qsub.c:2815). */
static int illegal(void *c, char opt, struct sl_err *e)
{
	CTX(c)->status = 2;
	CTX(c)->usage = 1;
	return sl_err_set(e, SL_EINVAL, "illegal -%c value", opt);
}

static int refuse(void *c, const char *what, struct sl_err *e)
{
	CTX(c)->status = 1;
	return sl_err_set(e, SL_EUNSUPP, "%s is not supported by Sluice", what);
}

/* ---- handlers ----------------------------------------------------------- */

static int h_account(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->account, a);
	return 0;
}

static int h_project(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->project, a);
	return 0;
}

/* -c n: no checkpoints, which is what Sluice takes. */
static int h_checkpoint(void *c, const char *a, struct sl_err *e)
{
	a = skip_blanks(a);
	if (strcmp(a, "u") == 0)
		return illegal(c, 'c', e);
	return strcmp(a, "n") == 0 ? 0 : refuse(c, "-c (checkpoints)", e);
}

static int h_prefix(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->prefix, a);
	return 0;
}

static int h_error(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->err_path, a);
	return 0;
}

static int h_output(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->out_path, a);
	return 0;
}

/* -f: qsub stays in the foreground, which Sluice's always does. */
static int h_foreground(void *c, const char *a, struct sl_err *e)
{
	return 0;
}

static int h_hold(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->hold = 1;
	return 0;
}

/* Join_Path: "oe", "eo" or "n" (verify_value_joinpath). */
static int h_join(void *c, const char *a, struct sl_err *e)
{
	if (strcmp(a, "oe") == 0)
		CTX(c)->join = 'o';
	else if (strcmp(a, "eo") == 0)
		CTX(c)->join = 'e';
	else if (strcmp(a, "n") == 0)
		CTX(c)->join = 'n';
	else
		return illegal(c, 'j', e);
	return 0;
}

/* Keep_Files: "n", or letters of o, e, d (verify_value_keepfiles). With d
 * the files are written where they belong, as Sluice always writes them;
 * without it o and e leave them in the home directory. */
static int h_keep(void *c, const char *a, struct sl_err *e)
{
	int o = 0, er = 0, d = 0;

	if (strcmp(a, "n") == 0) {
		CTX(c)->keep_o = CTX(c)->keep_e = 0;
		return 0;
	}
	if (*a == '\0' || strlen(a) > 3)
		return illegal(c, 'k', e);
	for (const char *p = a; *p; p++) {
		int *f = *p == 'o' ? &o : *p == 'e' ? &er : *p == 'd' ? &d : NULL;
		if (f == NULL || *f)
			return illegal(c, 'k', e);
		*f = 1;
	}
	CTX(c)->keep_o = o && !d;
	CTX(c)->keep_e = er && !d;
	return 0;
}

static int h_resources(void *c, const char *a, struct sl_err *e)
{
	int st = 0, r = CTX(c)->in_directive ? sl_pbs_res_parse_directive(&CTX(c)->res, a, &st, e)
					     : sl_pbs_res_parse(&CTX(c)->res, a, &st, e);

	if (r != 0) {
		CTX(c)->status = st;
		CTX(c)->usage = st == 2;
	}
	return r;
}

/* Mail_Points onto sbatch's --mail-type: a (aborted) is FAIL, b BEGIN,
 * e END, n none; j (each subjob's mail) is ARRAY_TASKS, and needs an array,
 * which is checked once every option is in (qsub.c:1546, pbs_optval.c). */
static int h_mail_points(void *c, const char *a, struct sl_err *e)
{
	int bits = sl_pbs_mail_points(a);

	if (bits < 0)
		return illegal(c, 'm', e);
	CTX(c)->spec->mail_type = bits;
	return 0;
}

/* Mail_Users onto --mail-user: "user[@host][,...]" as given. */
static int h_mail_users(void *c, const char *a, struct sl_err *e)
{
	if (*skip_blanks(a) == '\0')
		return illegal(c, 'M', e);
	set_str(&CTX(c)->spec->mail_user, a);
	return 0;
}

/* Checked once the name is final (pbs_optval.c identity()), as PBS's
 * verifier checks the job's attribute, not each occurrence. */
static int h_name(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->name, a);
	return 0;
}

/* -p: -1024..1023, higher runs sooner; Sluice's nice is the opposite. */
static int h_priority(void *c, const char *a, struct sl_err *e)
{
	int v;

	if (sl_pbs_priority(a, &v) != 0)
		return illegal(c, 'p', e);
	CTX(c)->spec->nice = -v;
	return 0;
}

/* -q QUEUE[@SERVER]: a queue is a partition. */
static int h_queue(void *c, const char *a, struct sl_err *e)
{
	const char *at = strchr(a, '@');
	size_t n = at ? (size_t)(at - a) : strlen(a);

	if (at != NULL && (at[1] == '\0' ||
			   strncmp(at + 1, CTX(c)->server, strcspn(CTX(c)->server, ".")) != 0))
		return refuse(c, "-q naming another server", e);
	free(CTX(c)->queue);
	CTX(c)->queue = n ? sl_xstrndup(a, n) : NULL;
	return 0;
}

/* "qsub:  cannot submit non-rerunable Array Job" (sic, two blanks;
 * NO_RERUN_ARRAY, src/cmds/qsub.c:154), with the usage (errflg). */
static int no_rerun_array(void *c, struct sl_err *e)
{
	CTX(c)->status = 2;
	CTX(c)->usage = 1;
	return sl_err_set(e, SL_EINVAL, " cannot submit non-rerunable Array Job");
}

static int h_rerun(void *c, const char *a, struct sl_err *e)
{
	if (strcmp(a, "y") == 0)
		CTX(c)->spec->requeue = 1;
	else if (strcmp(a, "n") == 0 && CTX(c)->spec->array != NULL)
		return no_rerun_array(c, e); /* qsub.c:1287 */
	else if (strcmp(a, "n") == 0)
		CTX(c)->spec->requeue = 0;
	else
		return illegal(c, 'r', e);
	return 0;
}

/* chk_Jrange() (src/lib/Libcmds/chk_Jrange.c:65): "X-Y" or "X-Y:Z", X < Y,
 * Z >= 1, digits only. */
static int j_range(const char *a)
{
	char *end;
	unsigned long x, y, z = 1;

	if (!isdigit((unsigned char)*a))
		return -1;
	x = strtoul(a, &end, 10);
	if (*end != '-' || !isdigit((unsigned char)end[1]))
		return -1;
	y = strtoul(end + 1, &end, 10);
	if (*end == ':') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		z = strtoul(end + 1, &end, 10);
	}
	return *end != '\0' || x >= y || z < 1 || y >= SL_ARRAY_MAX_LIMIT ? -1 : 0;
}

static void set_array(void *c, const char *range, unsigned long throttle)
{
	free(CTX(c)->spec->array);
	CTX(c)->spec->array = throttle ? sl_xasprintf("%s%%%lu", range, throttle)
				       : sl_xstrdup(range);
}

/* -J X-Y[:Z][%N] (PBS Pro, qsub.c:1154): the range is array_indices_submitted,
 * %N max_run_subjobs (a long, zero or positive: 0 is no limit). Slurm's
 * --array says the same in the same words. */
static int h_array(void *c, const char *a, struct sl_err *e)
{
	char *range = sl_xstrdup(a), *pct = strchr(range, '%'), *end = NULL;
	unsigned long n = 0;
	int bad;

	if (CTX(c)->spec->requeue == 0) {
		free(range);
		return no_rerun_array(c, e); /* qsub.c:1160 */
	}
	if (pct != NULL) {
		*pct++ = '\0';
		n = strtoul(pct, &end, 10);
	}
	bad = j_range(range) != 0 ||
	      (pct != NULL && (!isdigit((unsigned char)*pct) || *end != '\0' || n > INT32_MAX));
	if (!bad) {
		set_array(c, range, n);
		CTX(c)->spec->torque_array = 0; /* the last of -J and -t wins */
	}
	free(range);
	return bad ? illegal(c, 'J', e) : 0;
}

/* -t LIST[%N] (Torque's qsub -t): "1-10", "1,3,5-7", "0-15:4", then a
 * slot limit; the ids as Slurm's --array takes them (array.h). */
static int h_torque_array(void *c, const char *a, struct sl_err *e)
{
	struct sl_array *arr = NULL;
	struct sl_err ignored = SL_ERR_INIT;

	if (CTX(c)->spec->requeue == 0)
		return no_rerun_array(c, e);
	if (*a == '[' || sl_array_parse(a, SL_ARRAY_MAX_LIMIT, &arr, &ignored) != 0)
		return illegal(c, 't', e);
	sl_array_free(arr);
	set_array(c, a, 0);
	CTX(c)->spec->torque_array = 1;
	return 0;
}

/* -S PATH[@HOST][,PATH@HOST...]: the path for this server's hosts. */
static int h_shell(void *c, const char *a, struct sl_err *e)
{
	char *list = sl_xstrdup(a), *save = NULL, *tok, *pick = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *at = strchr(tok, '@');
		if (at == NULL && pick == NULL)
			pick = tok;
		else if (at != NULL) {
			*at = '\0';
			if (strncmp(at + 1, CTX(c)->server, strcspn(CTX(c)->server, ".")) == 0)
				pick = tok;
		}
	}
	if (pick == NULL || pick[0] != '/') {
		free(list);
		return illegal(c, 'S', e);
	}
	set_str(&CTX(c)->shell, pick);
	free(list);
	return 0;
}

static int h_varlist(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->vlist, a);
	return 0;
}

static int h_export_all(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->export_all = 1;
	return 0;
}

static int h_quiet(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->quiet = 1;
	return 0;
}

/* -I: an interactive job (qsub.c runs it through the allocation path). */
static int h_interactive(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->fl->interactive = 1;
	return 0;
}

/* Torque's -n (node_exclusive, qsub_functions.c): the job's nodes are its
 * alone, as place=excl is: sbatch's --exclusive. psij's pbs_classic
 * template writes "#PBS -n" for exclusive node use. */
static int h_node_exclusive(void *c, const char *a, struct sl_err *e)
{
	CTX(c)->spec->shared = SL_SHARED_EXCLUSIVE;
	CTX(c)->torque_form = 1;
	return 0;
}

/* Torque's -d PATH: PBS_O_INITDIR, made absolute against qsub's directory
 * (process_opt_d(), qsub_functions.c:2580-2611); -w PATH: PBS_O_WORKDIR
 * (validate_pbs_o_workdir(), qsub_functions.c:790-818). The job starts in
 * the last one given. */
static int h_initdir(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->workdir, a);
	set_str(&CTX(c)->initdir, a);
	CTX(c)->torque_form = 1;
	return 0;
}

static int h_workdir(void *c, const char *a, struct sl_err *e)
{
	set_str(&CTX(c)->workdir, a);
	set_str(&CTX(c)->o_workdir, a);
	CTX(c)->torque_form = 1;
	return 0;
}

/* -a date_time: the job waits until then (cvtdate(); qsub.c:1058). */
static int h_begin(void *c, const char *a, struct sl_err *e)
{
	int64_t t;

	if (sl_pbs_cvtdate(skip_blanks(a), (int64_t)time(NULL), &t) != 0)
		return illegal(c, 'a', e);
	CTX(c)->spec->begin_time = t;
	return 0;
}

/* true or false, in any case (qsub.c:1430 for block, 1391 interactive). */
static int w_bool(void *c, const char *v, int *out, struct sl_err *e)
{
	if (strcasecmp(v, "true") == 0)
		*out = 1;
	else if (strcasecmp(v, "false") == 0)
		*out = 0;
	else
		return illegal(c, 'W', e);
	return 0;
}

/* -W depend=LIST onto the job's --dependency (pbs_attr.c). */
static int w_depend(void *c, const char *v, struct sl_err *e)
{
	char *dep = NULL;
	int r = sl_pbs_depend(v, CTX(c)->server, &dep, e);

	if (r == -SL_EINVAL)
		return illegal(c, 'W', e);
	if (r != 0) {
		CTX(c)->status = 1;
		return r;
	}
	free(CTX(c)->spec->dependency);
	CTX(c)->spec->dependency = dep;
	/* a dependency that can no longer be met deletes the job, as the
	 * server's depend_on_term() does (req_register.c) */
	CTX(c)->spec->kill_invalid_dep = 1;
	return 0;
}

/* Torque's -W x=EXT[;EXT...] hands Moab extensions to the scheduler
 * (qsub_functions.c joins repeated ones with ';'). NACCESSPOLICY:SINGLEJOB,
 * the node for this job alone, is -n's node_exclusive: BLAH's
 * pbs_submit.sh writes '#PBS -W x=NACCESSPOLICY:SINGLEJOB' for whole-node
 * jobs. Any other extension has no meaning here: -1, refused by name. */
static int w_extend(void *c, const char *v)
{
	const char *p = v;
	size_t n;

	if (*v == '\0')
		return -1;
	for (;;) {
		n = strcspn(p, ";");
		if (n != strlen("NACCESSPOLICY:SINGLEJOB") ||
		    strncasecmp(p, "NACCESSPOLICY:SINGLEJOB", n) != 0)
			return -1;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	CTX(c)->spec->shared = SL_SHARED_EXCLUSIVE;
	CTX(c)->torque_form = 1;
	return 0;
}

/* One "name=value" of -W: umask, depend and block are honoured, false
 * interactive and sandbox=HOME are what every job already is, x= as
 * w_extend() reads it; the rest (stagein/stageout, group_list, other x=
 * extensions, run_count, ...) is refused by name. */
static int w_attr(void *c, const char *name, const char *v, struct sl_err *e)
{
	char what[128];
	int on = 0, r;

	if (strcmp(name, "umask") == 0) {
		char *end;
		long m = strtol(v, &end, 8);
		if (*v == '\0' || *end != '\0' || m < 0 || m > 0777)
			return illegal(c, 'W', e);
		CTX(c)->spec->umask = (mode_t)m;
		CTX(c)->umask_set = 1;
		return 0;
	}
	if (strcmp(name, "depend") == 0)
		return w_depend(c, v, e);
	if (strcmp(name, "block") == 0) {
		if ((r = w_bool(c, v, &on, e)) == 0)
			CTX(c)->fl->block = on;
		return r;
	}
	if (strcmp(name, "interactive") == 0) {
		/* OpenPBS's other spelling of -I (qsub.c: Interact_opt) */
		if ((r = w_bool(c, v, &on, e)) == 0 && on)
			CTX(c)->fl->interactive = 1;
		return r;
	}
	if (strcmp(name, "sandbox") == 0 && strcmp(v, "HOME") == 0)
		return 0;
	if (strcmp(name, "x") == 0 && w_extend(c, v) == 0)
		return 0;
	snprintf(what, sizeof(what), "-W %s", name);
	return refuse(c, what, e);
}

/* -W name=value[,name=value...] (parse_equal_string(), pbs_attr.c). */
static int h_attr(void *c, const char *a, struct sl_err *e)
{
	char **names = NULL, **values = NULL;
	size_t n = 0;
	int r = 0;

	if (sl_pbs_attr_split(a, &names, &values, &n) != 0)
		return illegal(c, 'W', e);
	for (size_t i = 0; i < n && r == 0; i++)
		r = w_attr(c, names[i], values[i], e);
	sl_strv_free(names);
	sl_strv_free(values);
	return r;
}

/* -W interactive=true must be known before the script is read, as -I is:
 * an interactive job takes no script from standard input. Errors wait for
 * the late pass, which reports them in order. */
static void w_early(struct sl_pbs_optctx *c, const char *a)
{
	char **names = NULL, **values = NULL;
	size_t n = 0;

	if (sl_pbs_attr_split(a, &names, &values, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], "interactive") == 0 && strcasecmp(values[i], "true") == 0)
			c->fl->interactive = 1;
	sl_strv_free(names);
	sl_strv_free(values);
}

/* ---- the table ----------------------------------------------------------- */

#define R SL_OPT_REQ
#define N SL_OPT_NOARG
#define OK(k, a, fn) {NULL, k, a, {NULL, NULL}, 0, fn}
#define OKF(k, a, f, fn) {NULL, k, a, {NULL, NULL}, f, fn}
#define NO(k, a) {NULL, k, a, {NULL, NULL}, SL_OPTF_UNSUPP, NULL}

static const struct sl_opt qsub_opts[] = {
	OK('a', R, h_begin),
	OK('A', R, h_account),
	OKF('c', R, OPTF_OPTTIME, h_checkpoint),
	OKF('C', R, OPTF_EARLY, h_prefix),
	OK('d', R, h_initdir),           /* Torque */
	OK('e', R, h_error),
	OK('f', N, h_foreground),
	OK('h', N, h_hold),
	OKF('I', N, OPTF_EARLY, h_interactive),
	OK('j', R, h_join),
	OK('J', R, h_array),
	OK('k', R, h_keep),
	OKF('l', R, OPTF_OPTTIME, h_resources),
	OK('m', R, h_mail_points),
	OK('M', R, h_mail_users),
	OK('n', N, h_node_exclusive),    /* Torque */
	OK('N', R, h_name),
	OK('o', R, h_output),
	OK('p', R, h_priority),
	OK('P', R, h_project),
	OK('q', R, h_queue),
	OKF('r', R, OPTF_OPTTIME, h_rerun),
	NO('R', R),                      /* removing the output files */
	OK('S', R, h_shell),
	OK('t', R, h_torque_array),      /* Torque's arrays */
	NO('u', R),                      /* running as another user */
	OK('v', R, h_varlist),
	OK('V', N, h_export_all),
	OK('w', R, h_workdir),           /* Torque */
	OKF('W', R, OPTF_OPTTIME, h_attr),
	NO('X', N),                      /* X11 forwarding (interactive) */
	OKF('z', N, OPTF_EARLY, h_quiet),
	{NULL, 0, N, {NULL, NULL}, 0, NULL},
};

#undef R
#undef N

/* ---- the parse ----------------------------------------------------------- */

enum pass { PASS_EARLY, PASS_LATE, PASS_ALL };

static int apply_one(struct sl_pbs_optctx *c, const struct sl_optval *v, struct sl_err *err)
{
	if (v->opt->flags & SL_OPTF_UNSUPP) {
		char what[8];
		snprintf(what, sizeof(what), "-%c", v->opt->key);
		return refuse(c, what, err);
	}
	return v->opt->set(c, v->arg, err);
}

static int apply_vals(struct sl_pbs_optctx *c, const struct sl_optval *v, size_t n,
		      enum pass pass, struct sl_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int early = (v[i].opt->flags & OPTF_EARLY) != 0, r;

		if (pass == PASS_EARLY && v[i].opt->key == 'W')
			w_early(c, v[i].arg);
		if ((pass == PASS_EARLY && !early) || (pass == PASS_LATE && early))
			continue;
		c->status = 0;
		c->usage = 0;
		if ((r = apply_one(c, &v[i], err)) != 0)
			return r;
	}
	return 0;
}

/* "qsub: directive error: WORDS " (do_dir(), src/cmds/qsub.c:1753). */
static void directive_error(const struct sl_qsub_directive *d, struct sl_err *err)
{
	char msg[SL_ERR_MSG_MAX + 32];
	size_t used;

	snprintf(msg, sizeof(msg), "%s\ndirective error: ", err->msg);
	used = strlen(msg);
	for (int i = 1; i < d->argc && used + strlen(d->argv[i]) + 2 < sizeof(msg); i++) {
		snprintf(msg + used, sizeof(msg) - used, "%s ", d->argv[i]);
		used = strlen(msg);
	}
	msg[sizeof(err->msg) - 1] = '\0';
	memcpy(err->msg, msg, strlen(msg) + 1);
}

static int apply_directive(struct sl_pbs_optctx *c, const struct sl_qsub_directive *d,
			   struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int ind = 0, r, opttime = 1;

	r = sl_opt_scan(qsub_opts, d->argc, d->argv, 1, &v, &n, &ind, err);
	if (r == 0 && ind < d->argc)
		r = sl_err_set(err, SL_EINVAL, "%s", ""); /* an operand in a directive */
	if (r == 0) {
		for (size_t i = 0; i < n && r == 0; i++) {
			int key = v[i].opt->key;
			/* the command line's wins; -l merges per resource, -W per name */
			if (key > 0 && key < 128 && c->on_cli[key] && key != 'l' && key != 'W')
				continue;
			c->status = 0;
			c->usage = 0;
			c->in_directive = 1;
			r = apply_one(c, &v[i], err);
			c->in_directive = 0;
			opttime = (v[i].opt->flags & OPTF_OPTTIME) && c->status == 2;
		}
	}
	free(v);
	if (r == 0)
		return 0;
	if (opttime) { /* process_opts() failed: the directive is reported */
		if (err->msg[0] == '\0')
			snprintf(err->msg, sizeof(err->msg), "%s", "");
		directive_error(d, err);
		if (strncmp(err->msg, "\n", 1) == 0)
			memmove(err->msg, err->msg + 1, strlen(err->msg));
		c->status = 1;
		c->usage = 0;
	}
	return r;
}

static int apply_directives(struct sl_pbs_optctx *c, const char *prefix, size_t len,
			    struct sl_err *err)
{
	struct sl_qsub_directive *d = NULL;
	size_t n = 0;
	int crlf = 0, r;

	if ((r = sl_script_qsub_directives(c->spec->script, len, prefix, "qsub", &d, &n, &crlf,
					  err)) != 0) {
		c->status = 1;
		return r;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		if (crlf && d[i].line > crlf)
			break;
		r = apply_directive(c, &d[i], err);
	}
	if (r == 0 && crlf) {
		c->status = 1;
		r = sl_err_set(err, SL_EINVAL, "script contains cr, lf");
	}
	sl_qsub_directives_free(d, n);
	return r;
}

/* The prefix: -C (an empty one turns directives off), else $PBS_DPREFIX,
 * else "#PBS" (set_dir_prefix(), src/cmds/qsub.c:1833). */
static const char *dir_prefix(const struct sl_pbs_optctx *c, char **envp)
{
	if (c->prefix != NULL)
		return c->prefix;
	for (char **e = envp; e && *e; e++)
		if (strncmp(*e, "PBS_DPREFIX=", 12) == 0)
			return *e + 12;
	return "#PBS";
}

/* process_opts()'s plain getopt(), which glibc permutes: "qsub job.sh -N
 * x" names the job, and operands before a "--" join the command after it
 * (qsub.c:1561 backs optind onto the "--"). The script comes last. */
static int cli_scan(struct sl_pbs_optctx *c, int argc, char **argv, struct sl_optval **v,
		    size_t *n, int *optind, struct sl_err *err)
{
	int ddash = 0, r;

	if ((r = sl_opt_scan_permute(qsub_opts, argc, argv, SL_OPTSCAN_SHORT, v, n, optind,
				     &ddash, err)) != 0) {
		c->status = 2;
		c->usage = 1;
		return r;
	}
	if (ddash && *optind < argc) {
		c->command = 1;
	} else if (ddash || *optind < argc - 1) {
		c->status = 2;
		c->usage = 1;
		return sl_err_set(err, SL_EINVAL, "%s", "");
	}
	return 0;
}

int sl_qsub_parse(int argc, char **argv, char **envp, struct sl_jobspec *out,
		  struct sl_qsub_flags *flags, struct sl_err *err)
{
	struct sl_pbs_optctx c = {.spec = out, .fl = flags, .join = 'n'};
	struct sl_optval *v = NULL;
	size_t n = 0, len = 0;
	int optind = 1, r;

	memset(flags, 0, sizeof(*flags));
	sl_jobspec_init(out);
	sl_pbs_res_init(&c.res);
	c.server = sl_pbs_server_name();
	if ((r = cli_scan(&c, argc, argv, &v, &n, &optind, err)) == 0)
		for (size_t i = 0; i < n; i++)
			if (v[i].opt->key > 0 && v[i].opt->key < 128)
				c.on_cli[v[i].opt->key] = 1;
	if (r != 0 ||
	    (r = apply_vals(&c, v, n, PASS_EARLY, err)) != 0 ||
	    (r = sl_pbs_load_script(&c, argc, argv, optind, &len, err)) != 0)
		goto out;
	if (!c.command && (r = apply_directives(&c, dir_prefix(&c, envp), len, err)) != 0)
		goto out;
	if ((r = apply_vals(&c, v, n, PASS_LATE, err)) != 0)
		goto out;
	r = sl_pbs_finish(&c, envp, err);
out:
	if (r != 0) {
		flags->exit_code = c.status ? c.status : 2;
		flags->usage = c.usage;
	}
	free(v);
	free(c.out_path);
	free(c.err_path);
	free(c.vlist);
	free(c.shell);
	free(c.prefix);
	free(c.workdir);
	free(c.initdir);
	free(c.o_workdir);
	free(c.home);
	free(c.account);
	free(c.project);
	free(c.queue);
	free(c.name);
	free(c.server);
	free(c.cwd);
	free(c.script_name);
	sl_pbs_res_clear(&c.res);
	return r;
}
