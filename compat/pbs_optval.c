/* pbs_optval.c - qsub's script and the finished spec: the script read from
 * a file, standard input or "-- command args"; the job name; output paths
 * (NAME.oSEQ and NAME.eSEQ in the submit directory, -o/-e, -j, -k); the
 * working directory ($HOME, as PBS starts jobs, or Torque's -d/-w); the
 * environment (PBS_O_* as qsub's job_env_basic() sends them, -V, -v); the
 * shell for a script without "#!". Split from pbs_opt.c so that the table
 * file stays a table. */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buf.h"
#include "pbs_attr.h"
#include "pbs_env.h"
#include "pbs_job.h"
#include "pbs_opt_int.h"
#include "pbs_reslist.h"
#include "script.h"
#include "xalloc.h"


static int fail(struct sl_pbs_optctx *c, int status, struct sl_err *err, const char *fmt,
		const char *arg)
{
	c->status = status;
	return sl_err_set(err, SL_EINVAL, fmt, arg);
}

/* ---- the script ----------------------------------------------------------- */

/* "-- command args": a script that execs them, each word in single quotes. */
static char *command_script(char **words)
{
	size_t cap = 64;
	char *s = sl_xstrdup("#!/bin/sh\n# This script was created by qsub -- COMMAND.\nexec");

	for (; *words; words++) {
		size_t need = strlen(s) + 4 * strlen(*words) + 4;
		char *t = sl_xmalloc(need > cap ? need : cap), *o;
		strcpy(t, s);
		o = t + strlen(t);
		*o++ = ' ';
		*o++ = '\'';
		for (const char *p = *words; *p; p++) {
			if (*p == '\'') {
				memcpy(o, "'\\''", 4);
				o += 4;
			} else {
				*o++ = *p;
			}
		}
		*o++ = '\'';
		*o = '\0';
		free(s);
		s = t;
	}
	char *t = sl_xasprintf("%s\n", s);
	free(s);
	return t;
}

int sl_pbs_load_script(struct sl_pbs_optctx *c, int argc, char **argv, int optind,
		       size_t *len, struct sl_err *err)
{
	const char *path = optind < argc ? argv[optind] : NULL;
	struct stat st;
	int r;

	if (c->command) {
		c->spec->script = command_script(argv + optind);
		*len = strlen(c->spec->script);
		return 0;
	}
	if (c->fl->interactive && path == NULL) {
		/* -I reads no script from standard input: that is the shell's */
		c->spec->script = sl_xstrdup("#!/bin/sh\n");
		*len = strlen(c->spec->script);
		return 0;
	}
	if (path != NULL && strcmp(path, "-") == 0)
		path = NULL;
	if (path != NULL) {
		/* read_job_script(), src/cmds/qsub.c:1854 */
		if (stat(path, &st) != 0)
			return fail(c, 1, err, "script file:: %s", strerror(errno));
		if (!S_ISREG(st.st_mode))
			return fail(c, 1, err, "%s", "script not a file");
		c->script_name = sl_xstrdup(path);
	}
	if ((r = sl_script_read(path, path, &c->spec->script, len, err)) != 0)
		c->status = 1;
	return r;
}

/* The shell runs the script when it has no "#!" (the user's login shell,
 * as PBS's MOM runs it) and always with -S (the shell is given the script,
 * whose own "#!" line it reads as a comment). The line qsub adds shifts
 * the script's line numbers by one in the shell's messages. */
static void shell_line(struct sl_pbs_optctx *c)
{
	struct sl_jobspec *s = c->spec;
	const char *shell = c->shell;
	struct passwd *pw;

	if (shell == NULL && strncmp(s->script, "#!", 2) == 0)
		return;
	if (shell == NULL && (pw = getpwuid(getuid())) != NULL && pw->pw_shell &&
	    pw->pw_shell[0] == '/')
		shell = pw->pw_shell;
	if (shell == NULL)
		shell = "/bin/sh";
	char *t = sl_xasprintf("#!%s\n%s", shell, s->script);
	free(s->script);
	s->script = t;
}

/* ---- paths ---------------------------------------------------------------- */

/* Which array a job is, for its files' names. */
enum arr { ARR_NONE = 0, ARR_PBSPRO, ARR_TORQUE };

static enum arr array_kind(const struct sl_jobspec *s)
{
	return s->array == NULL ? ARR_NONE : s->torque_array ? ARR_TORQUE : ARR_PBSPRO;
}

/* NAME.oSEQ in dir: the id is the daemon's to fill in (%j); a subjob's
 * is NAME.oSEQ.INDEX, SEQ the array's (start_exec.c:6687: ".index"
 * appended), which is Slurm's %A.%a. Torque's server names the array's
 * NAME.oSEQ (default_std(), svr_jobfunc.c: SEQ the id's number, "8[]"
 * adding no index) and job_clone() (job_func.c) appends "-INDEX" to
 * each subjob's Output_Path and Error_Path: NAME.oSEQ-INDEX, %A-%a. */
static char *default_file(const char *dir, const char *name, char kind, enum arr array)
{
	char *d = sl_pbs_path_pattern(dir), *out;
	size_t n = strlen(d);

	if (strchr(dir, '\\') != NULL) /* expansion would be off: no %j then */
		out = NULL;
	else
		out = sl_xasprintf("%s%s%s.%c%s", d, n && d[n - 1] == '/' ? "" : "/", name, kind,
				   array == ARR_TORQUE ? "%A-%a" : array ? "%A.%a" : "%j");
	free(d);
	return out;
}

/* A directory given to -o/-e keeps MOM's spool name for the file:
 * JOBID.OU or JOBID.ER (JOB_STDOUT_SUFFIX, stage_func.c), the job id as
 * qstat shows it (N.SERVER, N[I].SERVER for a subjob). */
static char *dir_file(const char *dir, const char *server, char kind, int array)
{
	char *d = sl_pbs_path_pattern(dir), *out;
	size_t n = strlen(d);

	if (strchr(dir, '\\') != NULL || strchr(server, '%') != NULL)
		out = NULL;
	else
		out = sl_xasprintf("%s%s%s.%s.%s", d, n && d[n - 1] == '/' ? "" : "/",
				   array ? "%A[%a]" : "%j", server, kind == 'o' ? "OU" : "ER");
	free(d);
	return out;
}

/* ---- Torque's variables in -o/-e ------------------------------------------ */

/* The job's own ids in an expanded path, which the daemon fills in: marks
 * the pattern turns into Slurm's (torque_pattern()). */
#define MARK_JOBID "\001j"
#define MARK_JOBNAME "\001n"
#define MARK_ARRAYID "\001a"

static char *home_dir(void);

/* What a Torque job's variable will hold (InitUserEnv(), Torque's
 * start_exec.c:1640-1720): its id, name and array index (marks), HOME,
 * LOGNAME and USER, PBS_QUEUE when -q named it, then what qsub sends
 * (PBS_O_*, -v's, -V's). NULL for the others. */
static const char *torque_var(const char *name, void *arg)
{
	struct sl_pbs_optctx *c = arg;
	const struct passwd *pw = getpwuid(getuid());

	if (strcmp(name, "PBS_JOBID") == 0)
		return MARK_JOBID;
	if (strcmp(name, "PBS_JOBNAME") == 0)
		return MARK_JOBNAME;
	if (strcmp(name, "PBS_ARRAYID") == 0)
		return c->spec->array ? MARK_ARRAYID : NULL;
	if (strcmp(name, "HOME") == 0) {
		if (c->home == NULL)
			c->home = home_dir();
		return c->home;
	}
	if ((strcmp(name, "LOGNAME") == 0 || strcmp(name, "USER") == 0) && pw != NULL)
		return pw->pw_name;
	if (strcmp(name, "PBS_QUEUE") == 0)
		return c->queue;
	return sl_pbs_env_get(c->spec->env, name);
}

/* '%' doubled, as sl_pbs_path_pattern() writes a literal. */
static char *pct_escape(const char *s)
{
	char *out = sl_xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == '%')
			*o++ = '%';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* A pattern's marks as the job's own: PBS_JOBID "N.SERVER" (a Torque
 * subjob's "N[I].SERVER"), PBS_JOBNAME its name (a Torque subjob's
 * NAME-I, as job_clone() names it), PBS_ARRAYID its index. NULL when a
 * backslash turned the pattern's expansion off. Consumes pat. */
static char *torque_pattern(struct sl_pbs_optctx *c, char *pat)
{
	int torque_array = array_kind(c->spec) == ARR_TORQUE;
	char *server = pct_escape(c->server), *name = pct_escape(c->spec->name);
	char *id = sl_xasprintf("%s.%s", c->spec->array ? "%A[%a]" : "%j", server);
	char *jobname = sl_xasprintf("%s%s", name, torque_array ? "-%a" : "");
	/* a cap, not an allocation: every byte of pat a mark at most */
	struct sl_buf *b = sl_buf_new(strlen(pat) * (strlen(id) + strlen(jobname) + 2) + 64);
	char *out = NULL;

	if (strchr(pat, '\001') != NULL && strchr(pat, '\\') != NULL)
		goto out; /* Slurm expands no pattern holding a backslash */
	for (const char *p = pat; *p; p++) {
		if (p[0] != '\001' || p[1] == '\0') {
			sl_buf_addc(b, *p);
			continue;
		}
		p++;
		sl_buf_addstr(b, *p == 'j' ? id : *p == 'n' ? jobname : "%a");
	}
	out = sl_buf_steal(b);
out:
	sl_buf_free(b);
	free(server);
	free(name);
	free(id);
	free(jobname);
	free(pat);
	return out;
}

/* -o/-e: [HOST:]PATH (pbs_attr.h); a directory (or a trailing '/') gets
 * MOM's spool name for the file. A Torque array's (-t) subjob writes
 * PATH-INDEX, and in a directory its default name, as job_clone()
 * suffixes the paths req_quejob() made (add_std_filename() for a
 * directory): the subjobs' files are not one file. */
static int out_path(struct sl_pbs_optctx *c, const char *given, char kind, char **pattern,
		    struct sl_err *err)
{
	char *abs = NULL, *expanded = NULL;
	struct stat st;
	int r = 0;

	/* a Torque job's $NAME and ${NAME}, as its MOM expands them (a
	 * leading $HOME is no relative path: prepare_path.c:243-245) */
	if (c->spec->torque && strchr(given, '\001') != NULL)
		return fail(c, 1, err, "%s: a path with a control character",
			    kind == 'o' ? "-o" : "-e");
	if (c->spec->torque &&
	    (r = sl_pbs_path_vars(given, kind, torque_var, c, &expanded, err)) != 0) {
		c->status = 1;
		return r;
	}
	r = sl_pbs_path(expanded ? expanded : given, c->cwd, kind, &abs, &c->status, err);
	free(expanded);
	if (r != 0) {
		c->usage = c->status == 2;
		return r;
	}
	enum arr array = array_kind(c->spec);
	int dir = abs[strlen(abs) - 1] == '/' || (stat(abs, &st) == 0 && S_ISDIR(st.st_mode));

	if (array == ARR_TORQUE && strchr(abs, '\\') != NULL) {
		free(abs);
		return fail(c, 1, err, "%s: a path with a backslash in its name, for a -t array",
			    kind == 'o' ? "-o" : "-e");
	}
	if (dir && array == ARR_TORQUE)
		*pattern = default_file(abs, c->spec->name, kind == 'o' ? 'o' : 'e', array);
	else if (dir)
		*pattern = dir_file(abs, c->server, kind == 'o' ? 'o' : 'e', array != ARR_NONE);
	else if (array == ARR_TORQUE) {
		char *p = sl_pbs_path_pattern(abs);
		*pattern = sl_xasprintf("%s-%%a", p);
		free(p);
	} else
		*pattern = sl_pbs_path_pattern(abs);
	free(abs);
	if (*pattern == NULL)
		return fail(c, 1, err, "%s: a directory with a backslash in its name",
			    kind == 'o' ? "-o" : "-e");
	if (c->spec->torque && (*pattern = torque_pattern(c, *pattern)) == NULL)
		return fail(c, 1, err, "%s: $PBS_JOBID, $PBS_JOBNAME or $PBS_ARRAYID in a path "
			    "with a backslash", kind == 'o' ? "-o" : "-e");
	return 0;
}

/* $HOME, else the passwd entry's: the job starts there, as PBS starts it
 * in the home directory. */
static char *home_dir(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if ((h == NULL || h[0] != '/') && (pw = getpwuid(getuid())) != NULL)
		h = pw->pw_dir;
	return h && h[0] == '/' ? sl_xstrdup(h) : NULL;
}

static int paths(struct sl_pbs_optctx *c, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	char *home = NULL, *o = NULL, *e = NULL;
	int r = 0;

	if (c->out_path)
		r = out_path(c, c->out_path, 'o', &o, err);
	if (r == 0 && c->err_path)
		r = out_path(c, c->err_path, 'e', &e, err);
	if (r == 0 && (c->keep_o || c->keep_e) && (home = home_dir()) == NULL)
		r = fail(c, 1, err, "%s", "-k: no home directory to keep the files in");
	if (r == 0 && o == NULL)
		o = default_file(c->keep_o ? home : c->cwd, s->name, 'o', array_kind(s));
	if (r == 0 && e == NULL)
		e = default_file(c->keep_e ? home : c->cwd, s->name, 'e', array_kind(s));
	if (r == 0 && (o == NULL || e == NULL))
		r = fail(c, 1, err, "%s", "the submit directory has a backslash in its name: give -o and -e");
	if (r == 0) {
		/* -j oe: both in the output file; -j eo: both in the error file */
		s->std_out = c->join == 'e' ? e : o;
		s->std_err = c->join == 'n' ? e : NULL;
		if (c->join == 'e')
			free(o);
		else if (c->join == 'o')
			free(e);
		o = e = NULL;
	}
	free(o);
	free(e);
	free(home);
	return r;
}

/* qsub's directory: $PWD when it names ".", as PBS prefers it. */
static char *submit_dir(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;

	if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return sl_xstrdup(pwd);
	return getcwd(NULL, 0);
}

/* ---- the environment ------------------------------------------------------ */

struct envv {
	char **v;
	size_t n, cap;
};

/* Set K=V, replacing an earlier K. */
static void env_put(struct envv *e, const char *k, size_t klen, const char *v)
{
	char *kv = sl_xasprintf("%.*s=%s", (int)klen, k, v);

	for (size_t i = 0; i < e->n; i++)
		if (strncmp(e->v[i], kv, klen + 1) == 0) {
			free(e->v[i]);
			e->v[i] = kv;
			return;
		}
	e->v = sl_xgrow(e->v, &e->cap, e->n + 2, sizeof(*e->v));
	e->v[e->n++] = kv;
	e->v[e->n] = NULL;
}

static int env_has(const struct envv *e, const char *k, size_t klen)
{
	for (size_t i = 0; i < e->n; i++)
		if (strncmp(e->v[i], k, klen) == 0 && e->v[i][klen] == '=')
			return 1;
	return 0;
}

/* -v NAME[=VALUE],...: values may be quoted to hold commas; a NAME alone
 * takes qsub's value (expand_varlist(), src/cmds/qsub.c:455). */
static int vlist(struct sl_pbs_optctx *c, struct envv *e, char **envp, struct sl_err *err)
{
	const char *p = c->vlist;

	while (p && *p) {
		char *item = sl_xmalloc(strlen(p) + 1), *o = item, q = 0;
		for (; *p && (q || *p != ','); p++) {
			if (q && *p == q)
				q = 0;
			else if (!q && (*p == '"' || *p == '\''))
				q = *p;
			else
				*o++ = *p;
		}
		*o = '\0';
		if (*p == ',')
			p++;
		char *eq = strchr(item, '=');
		const char *val = eq ? eq + 1 : sl_pbs_env_get(envp, item);
		size_t klen = eq ? (size_t)(eq - item) : strlen(item);
		if (klen == 0 || val == NULL) {
			free(item);
			return fail(c, 1, err, "%s", "cannot send environment with the job");
		}
		if (strncmp(item, "PBS_O_", 6) != 0) /* qsub sets those itself */
			env_put(e, item, klen, val);
		free(item);
	}
	return 0;
}

/* A path relative to qsub's directory, as Torque's -d makes it (and as
 * the job's directory is made of -d or -w). Caller frees. */
static char *in_cwd(const struct sl_pbs_optctx *c, const char *p)
{
	return p[0] == '/' ? sl_xstrdup(p) : sl_xasprintf("%s/%s", c->cwd, p);
}

static void basic_env(struct sl_pbs_optctx *c, struct envv *e, char **envp)
{
	static const char *const names[] = {"HOME", "LANG", "LOGNAME", "PATH", "MAIL",
					    "SHELL", "TZ", NULL};
	struct utsname u;

	for (size_t i = 0; names[i]; i++) {
		const char *v = sl_pbs_env_get(envp, names[i]);
		char k[32];
		if (v == NULL && i == 0)
			v = "/"; /* qsub.c:2012: PBS_O_HOME is always sent */
		if (v == NULL)
			continue;
		snprintf(k, sizeof(k), "PBS_O_%s", names[i]);
		env_put(e, k, strlen(k), v);
	}
	if (c->o_workdir != NULL) { /* Torque's -w */
		char *w = in_cwd(c, c->o_workdir);
		env_put(e, "PBS_O_WORKDIR", 13, w);
		free(w);
	} else {
		env_put(e, "PBS_O_WORKDIR", 13, c->cwd);
	}
	if (uname(&u) == 0)
		env_put(e, "PBS_O_SYSTEM", 12, u.sysname);
	if (c->initdir != NULL) { /* Torque's -d */
		char *d = in_cwd(c, c->initdir);
		env_put(e, "PBS_O_INITDIR", 13, d);
		free(d);
	}
}

static int environment(struct sl_pbs_optctx *c, char **envp, struct sl_err *err)
{
	struct envv e = {NULL, 0, 0};
	int r;

	/* -v's, then -V's, as set_job_env() lists them (Variable_List's
	 * order); a -v value wins over -V's */
	if ((r = vlist(c, &e, envp, err)) != 0) {
		sl_strv_free(e.v);
		return r;
	}
	if (c->export_all)
		for (char **p = envp; p && *p; p++) {
			const char *eq = strchr(*p, '=');
			if (eq && eq != *p && strncmp(*p, "PBS_O_", 6) != 0 &&
			    !env_has(&e, *p, (size_t)(eq - *p)))
				env_put(&e, *p, (size_t)(eq - *p), eq + 1);
		}
	basic_env(c, &e, envp);
	c->spec->env = e.v ? e.v : sl_xcalloc(1, sizeof(char *));
	/* As Slurm's --export would say it: all (NULL), a list, or none. */
	if (!c->export_all)
		c->spec->export_spec = sl_xstrdup(c->vlist ? c->vlist : "NONE");
	return 0;
}

/* ---- the spec ------------------------------------------------------------- */

static char *short_hostname(void)
{
	char h[256] = "";

	if (gethostname(h, sizeof(h) - 1) != 0 || h[0] == '\0')
		snprintf(h, sizeof(h), "localhost");
	h[strcspn(h, ".")] = '\0';
	return sl_xstrdup(h);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int identity(struct sl_pbs_optctx *c, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;

	s->name = sl_xstrdup(c->name ? c->name : c->script_name ? base_name(c->script_name)
								 : "STDIN");
	if (!sl_pbs_name_ok(s->name)) {
		c->status = 2;
		c->usage = 1;
		return sl_err_set(err, SL_EINVAL, "illegal -N value");
	}
	/* -P's project is free text, kept as the job's wckey, as Slurm's own
	 * qsub (contribs/torque/qsub.pl: 'P=s' => --wckey) does */
	s->account = sl_xstrdup(c->account);
	if (c->project) {
		free(s->wckey);
		s->wckey = sl_xstrdup(c->project);
	}
	s->partition = sl_xstrdup(c->queue);
	return 0;
}

int sl_pbs_finish(struct sl_pbs_optctx *c, char **envp, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	int st = 0, r;

	if ((s->mail_type & SL_MAIL_ARRAY_TASKS) && s->array == NULL)
		return fail(c, 1, err, "%s", "mail option 'j' can not be used without array job");
	if ((c->cwd = submit_dir()) == NULL)
		return fail(c, 1, err, "cannot get the current directory: %s", strerror(errno));
	if ((r = identity(c, err)) != 0)
		return r;
	if ((r = sl_pbs_res_apply(&c->res, s, &st, err)) != 0) {
		c->status = st;
		return r;
	}
	s->pbs_resources = sl_pbs_reslist_make(&c->res);
	/* Torque's own forms make it Torque's job: its MOM's variables, and
	 * theirs in -o/-e, which the environment gives */
	s->torque = c->torque_form || s->torque_array || c->res.from == 'n' || c->res.procs > 0;
	if ((r = environment(c, envp, err)) != 0 || (r = paths(c, err)) != 0)
		return r;
	s->submit_dir = sl_xstrdup(c->cwd);
	if (c->workdir)
		s->work_dir = in_cwd(c, c->workdir);
	else if ((s->work_dir = home_dir()) == NULL)
		s->work_dir = sl_xstrdup(c->cwd);
	s->submit_host = short_hostname();
	s->submit_sid = (int)getsid(0);
	if (c->script_name)
		s->script_path = c->script_name[0] == '/'
					 ? sl_xstrdup(c->script_name)
					 : sl_xasprintf("%s/%s", c->cwd, c->script_name);
	if (!c->umask_set)
		s->umask = 077; /* PBS's default umask (qsub(1B), -W umask) */
	shell_line(c);
	s->pbs = 1;
	return 0;
}
