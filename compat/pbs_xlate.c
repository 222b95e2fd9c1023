/* pbs_xlate.c - #PBS into sbatch options (pbs_xlate.h), a port of Slurm
 * 22.05's xlate.c: its option letters, its resource list walk (quirks
 * kept: an unknown resource is stepped over one character at a time), its
 * node spec ("2:ppn=4:gpus=1", "n1+n2") and its mail letters. The words of
 * each line come from the #SBATCH splitter (script.c), and each PBS option
 * is a row of one more option table (optable.h). */
#include "pbs_xlate.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "optable.h"
#include "script.h"
#include "xalloc.h"

struct pbs {
	struct sl_pbs_opt *v;
	size_t n, cap;
};

#define PBS(c) ((struct pbs *)(c))

static void emit(struct pbs *p, const char *name, const char *value)
{
	p->v = sl_xgrow(p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n].name = sl_xstrdup(name);
	p->v[p->n].value = value ? sl_xstrdup(value) : NULL;
	p->n++;
}

static void emitf(struct pbs *p, const char *name, int v)
{
	char num[24];

	snprintf(num, sizeof(num), "%d", v);
	emit(p, name, num);
}

/* ---- -l: the resource list ---- */

/* The value from rl[*i] up to sep (or the end); *i goes past sep. */
static char *value_to(const char *rl, size_t *i, char sep)
{
	size_t start = *i;

	while (rl[*i] && rl[*i] != sep)
		(*i)++;
	char *v = sl_xstrndup(rl + start, *i - start);
	if (rl[*i])
		(*i)++;
	return v;
}

static void skip_option(const char *rl, size_t *i)
{
	while (rl[*i] && rl[*i] != ',')
		(*i)++;
	if (rl[*i])
		(*i)++;
}

/* "4GB" -> "4G": Torque's sizes end in B, Slurm's do not. */
static void drop_b(char *v)
{
	size_t n = strlen(v);

	if (n > 0 && toupper((unsigned char)v[n - 1]) == 'B')
		v[n - 1] = '\0';
}

static size_t part_end(const char *s, size_t i)
{
	while (s[i] && s[i] != '+' && s[i] != ':')
		i++;
	return i;
}

/* A count of nodes=, ppn= or their product, held where a sum cannot
 * overflow: past it, sbatch's own check refuses the count. */
#define COUNT_CAP 100000000L

static long add_count(long sum, const char *s)
{
	long v = strtol(s, NULL, 10);

	if (v > COUNT_CAP)
		v = COUNT_CAP;
	if (v < -COUNT_CAP)
		v = -COUNT_CAP;
	sum += v;
	return sum > COUNT_CAP ? COUNT_CAP : sum < -COUNT_CAP ? -COUNT_CAP : sum;
}

/* nodes=: counts, ppn=, gpus= and host names joined by ':' and '+'. */
static void nodes_spec(struct pbs *p, const char *s)
{
	size_t i = 0;
	long ppn = 0, count = 0;
	char *hosts = NULL, *t;

	while (s[i]) {
		size_t e;

		if (strncmp(s + i, "gpus=", 5) == 0) {
			i += 5;
			e = part_end(s, i);
			t = sl_xstrndup(s + i, e - i);
			emit(p, "gpus-per-node", t);
			free(t);
			i = s[e] ? e + 1 : e;
		} else if (strncmp(s + i, "ppn=", 4) == 0) {
			i += 4;
			ppn = add_count(ppn, s + i);
			e = part_end(s, i);
			i = s[e] ? e + 1 : e;
		} else if (isdigit((unsigned char)s[i])) {
			count = add_count(count, s + i);
			e = part_end(s, i);
			i = s[e] ? e + 1 : e;
		} else if (isalpha((unsigned char)s[i])) {
			e = part_end(s, i);
			t = hosts ? sl_xasprintf("%s,%.*s", hosts, (int)(e - i), s + i)
				  : sl_xstrndup(s + i, e - i);
			free(hosts);
			hosts = t;
			i = s[e] ? e + 1 : e;
		} else {
			i++;
		}
	}
	if (count == 0)
		count = 1;
	else
		emitf(p, "nodes", (int)count);
	if (ppn) { /* both within COUNT_CAP: the product fits a long long */
		long long tasks = (long long)ppn * count;
		emitf(p, "ntasks", (int)(tasks > INT_MAX ? INT_MAX : tasks < INT_MIN ? INT_MIN
							: tasks));
	}
	if (hosts)
		emit(p, "nodelist", hosts);
	free(hosts);
}

/* A resource whose value is an sbatch option's: {PBS name, sep, option}. */
static const struct {
	const char *key;
	char sep;
	const char *opt; /* NULL: skipped, as Slurm skips it */
	int nocase, strip_b, pro_bit;
} resources[] = {
	{"arch=", ',', NULL, 0, 0, 0},
	{"cput=", ',', "time", 0, 0, 0},
	{"file=", ',', "tmp", 0, 1, 0},
	{"host=", ',', NULL, 0, 0, 0},
	{"mem=", ',', "mem", 0, 1, 0},
	{"mpiprocs=", ':', "ntasks-per-node", 1, 0, 4},
	{"ncpus=", ':', "mincpus", 1, 0, 2},
	{"nice=", ',', "nice", 0, 0, 0},
	{"opsys=", ',', NULL, 0, 0, 0},
	{"other=", ',', NULL, 0, 0, 0},
	{"pcput=", ',', "time", 0, 0, 0},
	{"pmem=", ',', NULL, 0, 0, 0},
	{"proc=", ',', "constraint", 0, 0, 0},
	{"pvmem=", ',', NULL, 0, 0, 0},
	{"select=", ':', "nodes", 1, 0, 1},
	{"software=", ',', NULL, 0, 0, 0},
	{"vmem=", ',', NULL, 0, 0, 0},
	{"walltime=", ',', "time", 0, 0, 0},
};

struct res_state {
	int gpus, pro; /* PBS Pro: select 1, ncpus 2, mpiprocs 4 */
	long ncpus, mpiprocs;
};

/* One resource at rl[*i]: 1 when it was one of the table's. */
static int one_resource(struct pbs *p, const char *rl, size_t *i, struct res_state *st)
{
	for (size_t k = 0; k < sizeof(resources) / sizeof(resources[0]); k++) {
		size_t n = strlen(resources[k].key);
		char *v;

		if ((resources[k].nocase ? strncasecmp(rl + *i, resources[k].key, n)
					 : strncmp(rl + *i, resources[k].key, n)) != 0)
			continue;
		*i += n;
		if (resources[k].opt == NULL) {
			skip_option(rl, i);
			return 1;
		}
		v = value_to(rl, i, resources[k].sep);
		if (resources[k].strip_b)
			drop_b(v);
		st->pro |= resources[k].pro_bit;
		if (resources[k].pro_bit == 2)
			st->ncpus = strtol(v, NULL, 10);
		if (resources[k].pro_bit == 4)
			st->mpiprocs = strtol(v, NULL, 10);
		emit(p, resources[k].opt, v);
		free(v);
		if (strcmp(resources[k].key, "proc=") == 0)
			skip_option(rl, i); /* Slurm steps over the next one too */
		return 1;
	}
	return 0;
}

static void resource_list(struct pbs *p, const char *rl)
{
	struct res_state st = {0, 0, 0, 0};
	size_t i = 0;
	char *v;

	while (rl[i]) {
		if (strncasecmp(rl + i, "accelerator=", 12) == 0) {
			i += 12;
			if (strncasecmp(rl + i, "true", 4) == 0 && st.gpus < 1)
				st.gpus = 1;
		} else if (strncasecmp(rl + i, "naccelerators=", 14) == 0) {
			i += 14;
			v = value_to(rl, &i, ',');
			st.gpus = atoi(v);
			free(v);
		} else if (strncmp(rl + i, "nodes=", 6) == 0) {
			i += 6;
			v = value_to(rl, &i, ',');
			nodes_spec(p, v);
			free(v);
		} else if (!one_resource(p, rl, &i, &st)) {
			i++;
		}
	}
	/* select=N:ncpus=C:mpiprocs=M: C/M CPUs per task, when it divides */
	if (st.pro == 7 && st.mpiprocs > 0 && st.ncpus > st.mpiprocs)
		emitf(p, "cpus-per-task", (int)(st.ncpus / st.mpiprocs));
	if (st.gpus > 0) {
		char *g = sl_xasprintf("gpu:%d", st.gpus);
		emit(p, "gres", g);
		free(g);
	}
}

/* ---- the PBS options ---- */

static int x_begin(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "begin", a); return 0; }
static int x_account(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "account", a); return 0; }
static int x_error(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "error", a); return 0; }
static int x_output(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "output", a); return 0; }
static int x_hold(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "hold", NULL); return 0; }
static int x_array(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "array", a); return 0; }
static int x_mail_user(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "mail-user", a); return 0; }
static int x_name(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "job-name", a); return 0; }
static int x_nice(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "nice", a); return 0; }
static int x_queue(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "partition", a); return 0; }
static int x_vars(void *c, const char *a, struct sl_err *e) { emit(PBS(c), "+export", a); return 0; }
static int x_ignored(void *c, const char *a, struct sl_err *e) { return 0; }

static int x_resources(void *c, const char *a, struct sl_err *e)
{
	resource_list(PBS(c), a);
	return 0;
}

/* -m abe: b BEGIN, e END, a FAIL; n NONE overrides. Nothing known is
 * handed on empty, and --mail-type refuses it as Slurm does. */
static int x_mail(void *c, const char *a, struct sl_err *e)
{
	char buf[32] = "";

	if (strpbrk(a, "bB"))
		strcat(buf, "BEGIN");
	if (strpbrk(a, "eE"))
		strcat(buf, *buf ? ",END" : "END");
	if (strpbrk(a, "aA"))
		strcat(buf, *buf ? ",FAIL" : "FAIL");
	if (strpbrk(a, "nN"))
		strcpy(buf, "NONE");
	emit(PBS(c), "mail-type", buf);
	return 0;
}

/* -W umask=NNN, -W depend=LIST; other attributes Slurm ignores too. */
static int x_attr(void *c, const char *a, struct sl_err *e)
{
	if (strncasecmp(a, "umask=", 6) == 0)
		emit(PBS(c), "umask", a + 6);
	else if (strncasecmp(a, "depend=", 7) == 0)
		emit(PBS(c), "dependency", a + 7);
	return 0;
}

#define R SL_OPT_REQ
#define N SL_OPT_NOARG
static const struct sl_opt pbs_opts[] = {
	{"start_time", 'a', R, {NULL, NULL}, 0, x_begin},
	{"account", 'A', R, {NULL, NULL}, 0, x_account},
	{"checkpoint", 'c', R, {NULL, NULL}, 0, x_ignored},
	{"working_dir", 'C', R, {NULL, NULL}, 0, x_ignored},
	{"error", 'e', R, {NULL, NULL}, 0, x_error},
	{"hold", 'h', N, {NULL, NULL}, 0, x_hold},
	{"interactive", 'I', N, {NULL, NULL}, 0, x_ignored},
	{"join", 'j', R, {NULL, NULL}, 0, x_ignored},
	{"job_array", 'J', R, {NULL, NULL}, 0, x_array},
	{"keep", 'k', R, {NULL, NULL}, 0, x_ignored},
	{"resource_list", 'l', R, {NULL, NULL}, 0, x_resources},
	{"mail_options", 'm', R, {NULL, NULL}, 0, x_mail},
	{"mail_user_list", 'M', R, {NULL, NULL}, 0, x_mail_user},
	{"job_name", 'N', R, {NULL, NULL}, 0, x_name},
	{"out", 'o', R, {NULL, NULL}, 0, x_output},
	{"priority", 'p', R, {NULL, NULL}, 0, x_nice},
	{"destination", 'q', R, {NULL, NULL}, 0, x_queue},
	{"rerunable", 'r', R, {NULL, NULL}, 0, x_ignored},
	{"script_path", 'S', R, {NULL, NULL}, 0, x_ignored},
	{"array", 't', R, {NULL, NULL}, 0, x_array},
	{"running_user", 'u', R, {NULL, NULL}, 0, x_ignored},
	{"variable_list", 'v', R, {NULL, NULL}, 0, x_vars},
	{"all_env", 'V', N, {NULL, NULL}, 0, x_ignored},
	{"attributes", 'W', R, {NULL, NULL}, 0, x_attr},
	{"no_std", 'z', N, {NULL, NULL}, 0, x_ignored},
	{NULL, 0, N, {NULL, NULL}, 0, NULL},
};
#undef R
#undef N

void sl_pbs_opts_free(struct sl_pbs_opt *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

int sl_pbs_xlate(const char *script, size_t len, struct sl_pbs_opt **out, size_t *n,
		 struct sl_err *err)
{
	struct pbs p = {NULL, 0, 0};
	struct sl_optval *v = NULL;
	size_t nv = 0;
	char **argv = NULL;
	int argc = 0, optind = 0, r;

	*out = NULL;
	*n = 0;
	if ((r = sl_script_pbs_directives(script, len, &argv, &argc, err)) != 0)
		goto out;
	if (argc <= 1)
		goto out;
	if ((r = sl_opt_scan(pbs_opts, argc, argv, 1, &v, &nv, &optind, err)) != 0) {
		char why[SL_ERR_MSG_MAX];

		snprintf(why, sizeof(why), "%s", err->msg);
		sl_err_clear(err);
		r = sl_err_set(err, SL_EINVAL, "#PBS: %s\nUnrecognized command line parameter ?",
			       why);
		goto out;
	}
	if (optind < argc) {
		r = sl_err_set(err, SL_EINVAL, "Invalid argument: %s", argv[optind]);
		goto out;
	}
	for (size_t i = 0; i < nv && r == 0; i++)
		r = sl_opt_apply_one(&v[i], &p, err);
out:
	free(v);
	sl_strv_free(argv);
	if (r != 0) {
		sl_pbs_opts_free(p.v, p.n);
		return r;
	}
	*out = p.v;
	*n = p.n;
	return 0;
}
