/* pbs_alter.c - qalter's and qmove's arguments into update fields
 * (pbs_alter.h). Each qalter option is a row; the ones whose attribute the
 * job record cannot change have no handler and are refused by name. */
#include "pbs_alter.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "optable.h"
#include "pbs_attr.h"
#include "pbs_resource.h"
#include "xalloc.h"

/* qalter.c:74, print_usage() */
const char sl_qalter_usage[] =
	"usage: qalter [-a date_time] [-A account_string] [-c interval] [-e path]\n"
	"\t[-h hold_list] [-j y|n] [-k keep] [-l resource_list]\n"
	"\t[-m mail_options] [-M user_list] [-N jobname] [-o path] [-p priority]\n"
	"\t[-R o|e|oe] [-r y|n] [-S path] [-u user_list] [-W dependency_list]\n"
	"\t[-P project_name] job_identifier...\n"
	"       qalter --version\n";

/* qmove.c:81 */
const char sl_qmove_usage[] = "usage: qmove destination job_identifier...\n"
			      "       qmove --version\n";

struct actx {
	struct sl_qalter_req *q;
	struct sl_pbs_failure *f;
	const char *server;
};

#define A(c) ((struct actx *)(c))

/* qalter: illegal -X value, with the usage, exit 2 (qalter.c:161). */
static int illegal(void *c, char opt, struct sl_err *e)
{
	A(c)->f->status = 2;
	A(c)->f->usage = 1;
	return sl_err_set(e, SL_EINVAL, "illegal -%c value", opt);
}

static int refuse(void *c, const char *what, struct sl_err *e)
{
	A(c)->f->status = 1;
	return sl_err_set(e, SL_EUNSUPP, "%s is not supported by Sluice", what);
}

/* A field; str (when not NULL) is consumed. */
static void field(struct sl_qalter_req *q, const char *key, char *str, int64_t num)
{
	if (str != NULL) {
		q->owned = sl_xgrow(q->owned, &q->cap_owned, q->n_owned + 2, sizeof(*q->owned));
		q->owned[q->n_owned++] = str;
		q->owned[q->n_owned] = NULL;
	}
	q->f = sl_xrealloc(q->f, (q->n + 1) * sizeof(*q->f));
	q->f[q->n++] = (struct sl_update_field){key, str, num};
}

static int h_begin(void *c, const char *a, struct sl_err *e)
{
	int64_t t;

	if (sl_pbs_cvtdate(a, (int64_t)time(NULL), &t) != 0)
		return illegal(c, 'a', e);
	field(A(c)->q, "begin_time", NULL, t);
	return 0;
}

/* -h: u or o set that hold, n releases the user's; s and p are holds
 * Sluice has not. */
static int h_hold(void *c, const char *a, struct sl_err *e)
{
	struct sl_qalter_req *q = A(c)->q;
	int n = 0, other = 0;

	if (*a == '\0')
		return illegal(c, 'h', e);
	for (const char *p = a; *p; p++) {
		if (*p == 'u' || *p == 'o')
			other = 1;
		if (*p == 'o')
			q->operator_hold = 1;
		else if (*p == 'n')
			n = 1;
		else if (*p == 's' || *p == 'p')
			return refuse(c, *p == 's' ? "-h s (system holds)" : "-h p (password holds)", e);
		else if (*p != 'u')
			return illegal(c, 'h', e);
	}
	if (n && other)
		return illegal(c, 'h', e);
	q->hold = other;
	q->release = n;
	return 0;
}

/* -l select=CHUNKS (or Torque's nodes=): the queued job's new shape, as
 * qsub makes it (pbs_resource.c), sent as the fields it sets. */
static int shape(void *c, const char *name, const char *v, struct sl_err *e)
{
	struct sl_pbs_res res;
	struct sl_jobspec s;
	char *one = sl_xasprintf("%s=%s", name, v);
	int st = 0, r;

	sl_pbs_res_init(&res);
	sl_jobspec_init(&s);
	if ((r = sl_pbs_res_parse(&res, one, &st, e)) == 0 &&
	    (r = sl_pbs_res_apply(&res, &s, &st, e)) == 0) {
		struct sl_qalter_req *q = A(c)->q;
		field(q, "nodes", NULL, s.nodes);
		field(q, "ntasks_per_node", NULL, s.ntasks_per_node);
		field(q, "cpus_per_task", NULL, s.cpus_per_task);
		field(q, "mem_per_node", NULL, s.mem_per_node);
		field(q, "gpus_per_node", NULL, s.gpus_per_node == SL_NO_VAL ? 0 : s.gpus_per_node);
		field(q, "omp_threads", NULL, s.omp_threads); /* -1: the new chunk has none */
	} else {
		A(c)->f->status = st ? st : 1;
		A(c)->f->usage = st == 2;
	}
	sl_jobspec_clear(&s);
	sl_pbs_res_clear(&res);
	free(one);
	return r;
}

/* -l: walltime (the time limit), ncpus (the job's CPUs) and select or
 * nodes (its shape), what the update can change of a job's resources; the
 * others are refused. */
static int one_resource(void *c, const char *name, const char *v, struct sl_err *e)
{
	int64_t secs;
	char what[96];

	if (strcmp(name, "select") == 0 || strcmp(name, "nodes") == 0)
		return shape(c, name, v, e);

	if (strcmp(name, "walltime") == 0) {
		if (sl_pbs_parse_time(v, &secs) != 0 || secs == 0)
			return illegal(c, 'l', e);
		/* to the second, as qsub's: the daemon derives Slurm's minutes */
		field(A(c)->q, "time_limit_secs", NULL, secs);
		return 0;
	}
	if (strcmp(name, "ncpus") == 0) {
		char *end;
		long n = strtol(v, &end, 10);
		if (*v == '\0' || *end != '\0' || n < 1 || n > 1000000)
			return illegal(c, 'l', e);
		field(A(c)->q, "cpus", NULL, n);
		return 0;
	}
	snprintf(what, sizeof(what), "-l %.64s", name);
	return refuse(c, what, e);
}

static int h_resources(void *c, const char *a, struct sl_err *e)
{
	char *copy = sl_xstrdup(a), *save = NULL, *tok;
	int r = 0;

	for (tok = strtok_r(copy, ",", &save); tok && r == 0; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		while (isspace((unsigned char)*tok))
			tok++;
		if (eq == NULL || eq == tok || eq[1] == '\0') {
			r = illegal(c, 'l', e);
			break;
		}
		*eq = '\0';
		r = one_resource(c, tok, eq + 1, e);
	}
	if (r == 0 && strchr(a, '=') == NULL)
		r = illegal(c, 'l', e);
	free(copy);
	return r;
}

static int h_name(void *c, const char *a, struct sl_err *e)
{
	if (!sl_pbs_name_ok(a))
		return illegal(c, 'N', e);
	field(A(c)->q, "name", sl_xstrdup(a), 0);
	return 0;
}

/* -p onto nice, the opposite way round, as qsub's (pbs_opt.c). */
static int h_priority(void *c, const char *a, struct sl_err *e)
{
	int v;

	if (sl_pbs_priority(a, &v) != 0)
		return illegal(c, 'p', e);
	field(A(c)->q, "nice", NULL, -v);
	return 0;
}

/* -W depend=LIST (an empty dependency_list is not PBS's); the other
 * attributes are refused by name. */
static int h_attr(void *c, const char *a, struct sl_err *e)
{
	char **names = NULL, **values = NULL, *dep = NULL, what[96];
	size_t n = 0;
	int r = 0;

	if (sl_pbs_attr_split(a, &names, &values, &n) != 0)
		return illegal(c, 'W', e);
	for (size_t i = 0; i < n && r == 0; i++) {
		if (strcmp(names[i], "depend") != 0) {
			snprintf(what, sizeof(what), "-W %.64s", names[i]);
			r = refuse(c, what, e);
		} else if ((r = sl_pbs_depend(values[i], A(c)->server, &dep, e)) == 0) {
			field(A(c)->q, "dependency", dep, 0);
		} else if (r == -SL_EINVAL) {
			r = illegal(c, 'W', e);
		} else {
			A(c)->f->status = 1;
		}
	}
	sl_strv_free(names);
	sl_strv_free(values);
	return r;
}

static int h_account(void *c, const char *a, struct sl_err *e)
{
	if (*a == '\0')
		return illegal(c, 'A', e);
	field(A(c)->q, "account", sl_xstrdup(a), 0);
	return 0;
}

/* -P project: the job's wckey, as qsub keeps it. */
static int h_project(void *c, const char *a, struct sl_err *e)
{
	if (*a == '\0')
		return illegal(c, 'P', e);
	field(A(c)->q, "wckey", sl_xstrdup(a), 0);
	return 0;
}

static int h_mail_points(void *c, const char *a, struct sl_err *e)
{
	int bits = sl_pbs_mail_points(a);

	if (bits < 0)
		return illegal(c, 'm', e);
	field(A(c)->q, "mail_type", NULL, bits);
	return 0;
}

static int h_mail_users(void *c, const char *a, struct sl_err *e)
{
	if (*a == '\0')
		return illegal(c, 'M', e);
	field(A(c)->q, "mail_user", sl_xstrdup(a), 0);
	return 0;
}

static int h_rerun(void *c, const char *a, struct sl_err *e)
{
	if (strcmp(a, "y") != 0 && strcmp(a, "n") != 0)
		return illegal(c, 'r', e);
	field(A(c)->q, "requeue", NULL, a[0] == 'y');
	return 0;
}

/* -o/-e PATH: a file (qalter cannot name the default file in a directory,
 * which needs the job's name and id: Sluice refuses a directory). */
static int path(void *c, const char *a, char kind, const char *key, struct sl_err *e)
{
	char *abs = NULL, *cwd = getcwd(NULL, 0), what[64];
	struct stat st;
	int r = sl_pbs_path(a, cwd ? cwd : "/", kind, &abs, &A(c)->f->status, e);

	free(cwd);
	if (r != 0) {
		A(c)->f->usage = A(c)->f->status == 2;
		return r;
	}
	if (abs[strlen(abs) - 1] == '/' || (stat(abs, &st) == 0 && S_ISDIR(st.st_mode))) {
		free(abs);
		snprintf(what, sizeof(what), "-%c naming a directory (name the file)", kind);
		return refuse(c, what, e);
	}
	field(A(c)->q, key, sl_pbs_path_pattern(abs), 0);
	free(abs);
	return 0;
}

static int h_output(void *c, const char *a, struct sl_err *e)
{
	return path(c, a, 'o', "std_out", e);
}

static int h_error(void *c, const char *a, struct sl_err *e)
{
	return path(c, a, 'e', "std_err", e);
}

#define R SL_OPT_REQ
#define OK(k, fn) {NULL, k, R, {NULL, NULL}, 0, fn}
#define NO(k) {NULL, k, R, {NULL, NULL}, SL_OPTF_UNSUPP, NULL}

/* qalter.c:190 "a:A:c:e:h:j:k:l:m:M:N:o:p:r:R:S:u:W:P:" */
static const struct sl_opt qalter_opts[] = {
	OK('a', h_begin), OK('A', h_account), NO('c'), OK('e', h_error), OK('h', h_hold),
	NO('j'), NO('k'), OK('l', h_resources), OK('m', h_mail_points), OK('M', h_mail_users),
	OK('N', h_name), OK('o', h_output), OK('p', h_priority), OK('r', h_rerun), NO('R'),
	NO('S'), NO('u'), OK('W', h_attr), OK('P', h_project),
	{NULL, 0, R, {NULL, NULL}, 0, NULL},
};

/* Why the refused letters are: the job record cannot change them. */
static int refuse_row(void *c, int key, struct sl_err *e)
{
	char what[96];

	snprintf(what, sizeof(what), "-%c (the job's %s cannot be changed)", key,
		 strchr("jkR", key) ? "output files" : strchr("S", key) ? "shell"
				    : strchr("u", key) ? "user" : "attribute");
	return refuse(c, what, e);
}

int sl_qalter_parse(int argc, char **argv, const char *server, struct sl_qalter_req *q,
		    struct sl_pbs_failure *f, struct sl_err *err)
{
	struct actx c = {q, f, server};
	struct sl_optval *v = NULL;
	size_t n = 0;
	int optind = 1, ddash = 0, r;

	memset(q, 0, sizeof(*q));
	memset(f, 0, sizeof(*f));
	/* qalter.c:199's plain getopt(), which glibc permutes: "qalter ID
	 * -l walltime=1:00" alters ID */
	if ((r = sl_opt_scan_permute(qalter_opts, argc, argv, SL_OPTSCAN_SHORT, &v, &n, &optind,
				     &ddash, err)) != 0) {
		f->status = 2;
		f->usage = 1;
		return r;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		f->status = 0;
		f->usage = 0;
		r = v[i].opt->flags & SL_OPTF_UNSUPP ? refuse_row(&c, v[i].opt->key, err)
						     : v[i].opt->set(&c, v[i].arg, err);
	}
	free(v);
	if (r == 0 && (optind >= argc || (q->n == 0 && !q->hold && !q->release))) {
		f->status = 2;
		f->usage = 1;
		r = sl_err_set(err, SL_EINVAL, "%s", "");
	}
	if (r == 0) {
		q->ids = argv + optind;
		q->n_ids = argc - optind;
	}
	return r;
}

void sl_qalter_req_clear(struct sl_qalter_req *q)
{
	free(q->f);
	sl_strv_free(q->owned);
	memset(q, 0, sizeof(*q));
}

/* parse_destination_id(): "queue[@server]" or "@server"; the server must
 * be this one (its first label, as job ids name it). */
int sl_qmove_parse(int argc, char **argv, const char *server, char **queue, char ***ids,
		   int *n_ids, struct sl_pbs_failure *f, struct sl_err *err)
{
	const char *dest, *at;
	size_t label = strcspn(server, ".");

	memset(f, 0, sizeof(*f));
	*queue = NULL;
	if (argc < 3) {
		f->status = 2;
		f->usage = 1;
		return sl_err_set(err, SL_EINVAL, "%s", "");
	}
	dest = argv[1];
	at = strchr(dest, '@');
	if (dest[0] == '\0' || (at && (at[1] == '\0' || strchr(at + 1, '@')))) {
		f->status = 2;
		return sl_err_set(err, SL_EINVAL, "illegally formed destination: %s", dest);
	}
	if (at && (strcspn(at + 1, ".") != label || strncmp(at + 1, server, label) != 0)) {
		f->status = 1;
		return sl_err_set(err, SL_EUNSUPP, "moving jobs to another server (%s) is not "
				  "supported by Sluice", at + 1);
	}
	if (at == dest) {
		f->status = 1;
		return sl_err_set(err, SL_EUNSUPP, "%s: moving to the server's default queue is not "
				  "supported by Sluice (name the queue)", dest);
	}
	*queue = at ? sl_xstrndup(dest, (size_t)(at - dest)) : sl_xstrdup(dest);
	*ids = argv + 2;
	*n_ids = argc - 2;
	return 0;
}

const char *sl_qalter_running_attr(const struct sl_qalter_req *q)
{
	/* the update fields qalter sends, their PBS attributes, and whether
	 * the daemon takes them only while the job waits */
	static const struct {
		const char *key, *attr;
		int queued_only;
	} attrs[] = {
		{"begin_time", "Execution_Time", 1},   {"nodes", "Resource_List.select", 1},
		{"ntasks_per_node", "Resource_List.select", 1},
		{"cpus_per_task", "Resource_List.select", 1},
		{"mem_per_node", "Resource_List.select", 1},
		{"gpus_per_node", "Resource_List.select", 1}, {"cpus", "Resource_List.ncpus", 1},
		{"omp_threads", "Resource_List.select", 1},
		{"dependency", "depend", 1},           {"account", "Account_Name", 1},
		{"wckey", "project", 1},               {"std_out", "Output_Path", 1},
		{"std_err", "Error_Path", 1},
		{"time_limit_secs", "Resource_List.walltime", 0},
		{"name", "Job_Name", 0},               {"nice", "Priority", 0},
		{"mail_type", "Mail_Points", 0},       {"mail_user", "Mail_Users", 0},
		{"requeue", "Rerunable", 0},
	};
	const char *first = NULL;

	for (size_t i = 0; i < q->n; i++)
		for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
			if (strcmp(q->f[i].key, attrs[k].key) != 0)
				continue;
			if (attrs[k].queued_only)
				return attrs[k].attr;
			if (first == NULL)
				first = attrs[k].attr;
		}
	return first ? first : "";
}
