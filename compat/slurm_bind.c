/* slurm_bind.c - the binding options' values (slurm_bind.h), read as
 * Slurm 22.05's slurm_verify_cpu_bind and slurm_verify_mem_bind read them
 * (src/common/proc_args.c) and its --gpu-bind check, with their messages.
 * Checked against the reference cluster's srun value by value. */
#include "slurm_bind.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "xalloc.h"

const char sl_slurm_mem_bind_help[] =
	"Memory bind options:\n"
	"    --mem-bind=         Bind memory to locality domains (ldom)\n"
	"        nosort          avoid sorting pages at startup\n"
	"        sort            sort pages at startup\n"
	"        q[uiet]         quietly bind before task runs (default)\n"
	"        v[erbose]       verbosely report binding before task runs\n"
	"        no[ne]          don't bind tasks to memory (default)\n"
	"        rank            bind by task rank\n"
	"        local           bind to memory local to processor\n"
	"        map_mem:<list>  specify a memory binding for each task\n"
	"                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>\n"
	"        mask_mem:<list> specify a memory binding mask for each tasks\n"
	"                        where <list> is <mask1>,<mask2>,...<maskN>\n"
	"        help            show this help message\n";

static const char *const cpu_words[] = {"q", "quiet", "v", "verbose", "no", "none", "rank",
					"rank_ldom", "sockets", "socket", "cores", "core",
					"threads", "thread", "ldoms", "ldom", "one_thread", NULL};
static const char *const mem_words[] = {"nosort", "sort", "q", "quiet", "v", "verbose", "no",
					"none", "p", "prefer", "rank", "local", NULL};

/* A map or mask and the names Slurm also takes for it. */
struct list_kind {
	const char *name, *alias; /* "map_cpu", "mapcpu" */
	int hex;
};
static const struct list_kind cpu_lists[] = {
	{"map_cpu", "mapcpu", 0}, {"mask_cpu", "maskcpu", 1},
	{"map_ldom", "mapldom", 0}, {"mask_ldom", "maskldom", 1}, {NULL, NULL, 0}};
static const struct list_kind mem_lists[] = {
	{"map_mem", "mapmem", 0}, {"mask_mem", "maskmem", 1}, {NULL, NULL, 0}};

static int is_word(const char *const *words, const char *w)
{
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(words[i], w) == 0)
			return 1;
	return 0;
}

/* _isvalue(): what may follow a ',' inside a list (a number, or hex
 * digits up to the next ',' or the end). */
static int is_value(const char *a)
{
	if (isdigit((unsigned char)*a))
		return 1;
	while (isxdigit((unsigned char)*a))
		a++;
	return *a == ',' || *a == '\0';
}

/* A list's items: decimal (map) or hexadecimal (mask, a lower-case "0x"
 * dropped), each with an optional "*count" repeat. */
static int list_ok(const struct list_kind *k, const char *opt, const char *list,
		   struct sl_err *err)
{
	char *dup, *save = NULL;
	int r = 0;
	if (list == NULL || *list == '\0')
		return sl_err_set(err, SL_EINVAL, "missing list for \"--%s=%s:<list>\"", opt,
				  k->name);
	dup = sl_xstrdup(list);
	for (char *t = strtok_r(dup, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		char *star = strchr(t, '*');
		if (k->hex && strncmp(t, "0x", 2) == 0)
			t += 2;
		if (star != NULL) {
			*star = '\0';
			if (star[1] == '\0' || strspn(star + 1, "0123456789") != strlen(star + 1) ||
			    atol(star + 1) <= 0)
				r = sl_err_set(err, SL_EINVAL, "Invalid %s multiplier: %s", k->name,
					       star + 1);
		}
		for (const char *p = t; *p && r == 0; p++)
			if (k->hex ? !isxdigit((unsigned char)*p) : !isdigit((unsigned char)*p))
				r = sl_err_set(err, SL_EINVAL, "Failed to validate number: %s, the "
					       "offending character is %c", t, *p);
	}
	free(dup);
	return r;
}

/* name[:=]list, name being one of the kinds or its alias. 1: not a list. */
static int check_list(const struct list_kind *kinds, const char *opt, const char *tok,
		      struct sl_err *err)
{
	for (const struct list_kind *k = kinds; k->name; k++) {
		if (strncasecmp(tok, k->name, strlen(k->name)) != 0 &&
		    strncasecmp(tok, k->alias, strlen(k->alias)) != 0)
			continue;
		const char *sep = strpbrk(tok, ":="), *list = sep ? sep + 1 : NULL;
		char *cut = list ? sl_xstrndup(list, strcspn(list, ":=")) : NULL;
		int r = list_ok(k, opt, cut, err);
		free(cut);
		return r;
	}
	return 1;
}

/* The ',' that separate words, not list items, become ';'. */
static int check_words(enum sl_bind_kind kind, const char *arg, struct sl_err *err)
{
	const char *opt = kind == SL_BIND_CPU ? "cpu-bind" : "mem-bind";
	char *buf = sl_xstrdup(arg), *p = buf, *tok;
	int r = 0;

	for (char *c = buf; *c; c++)
		if (*c == ',' && !is_value(c + 1))
			*c = ';';
	while (r == 0 && (tok = strsep(&p, ";")) != NULL) {
		if (strcasecmp(tok, "help") == 0)
			r = 1;
		else if (is_word(kind == SL_BIND_CPU ? cpu_words : mem_words, tok))
			continue;
		else if ((r = check_list(kind == SL_BIND_CPU ? cpu_lists : mem_lists, opt, tok,
					 err)) == 1)
			r = sl_err_set(err, SL_EINVAL, "unrecognized --%s argument \"%s\"", opt, tok);
	}
	free(buf);
	return r;
}

/* [verbose,]closest|none|map_gpu:L|mask_gpu:L|per_task:N|single:N: Slurm
 * takes a word from its first letter and checks only the lists. */
static int check_gpu(const char *prog, const char *arg, struct sl_err *err)
{
	const char *v = arg;
	if (strncasecmp(v, "verbose,", 8) == 0)
		v += 8;
	if (strncasecmp(v, "map_gpu:", 8) == 0 || strncasecmp(v, "mask_gpu:", 9) == 0) {
		int hex = v[1] == 'a' && v[2] == 's';
		/* each entry on its own ("0x" off a mask), "*K" repeating it */
		for (const char *tok = strchr(v, ':') + 1; *tok; tok += *tok == ',') {
			size_t len = strcspn(tok, ",");
			if (hex && strncmp(tok, "0x", 2) == 0 && len >= 2) {
				tok += 2;
				len -= 2;
			}
			for (size_t i = 0; i < len; i++)
				if (tok[i] != '*' && !(hex ? isxdigit((unsigned char)tok[i])
							   : isdigit((unsigned char)tok[i])))
					return sl_err_set(err, SL_EINVAL, "Failed to validate %.*s, "
							  "offending character is %c\n%s: error: "
							  "Invalid --gpu-bind argument: gpu:%s",
							  (int)len, tok, tok[i], prog, arg);
			tok += len;
		}
		return 0;
	}
	if (strncasecmp(v, "per_task:", 9) == 0 || strncasecmp(v, "single:", 7) == 0 ||
	    *v == 'c' || *v == 'C' || *v == 'n' || *v == 'N')
		return 0;
	return sl_err_set(err, SL_EINVAL, "Invalid --gpu-bind argument: gpu:%s", arg);
}

int sl_slurm_bind_check(const char *prog, enum sl_bind_kind kind, const char *arg,
			struct sl_err *err)
{
	if (kind == SL_BIND_GPU)
		return check_gpu(prog, arg, err);
	return check_words(kind, arg, err);
}

/* A map or mask list as slurm_verify_cpu_bind keeps it: "0x" dropped from
 * a mask's items, "N*count" written out. */
static void list_expand(struct sl_buf *b, const char *list, int hex)
{
	char *dup = sl_xstrdup(list), *save = NULL;
	const char *sep = "";
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *star = strchr(t, '*');
		long times = star ? atol(star + 1) : 1;
		if (hex && strncmp(t, "0x", 2) == 0)
			t += 2;
		if (star)
			*star = '\0';
		for (long i = 0; i < times; i++, sep = ",")
			sl_buf_addf(b, "%s%s", sep, t);
	}
	free(dup);
}

/* The words' flags: the last of each group wins, as _clear_then_set. The
 * list is the value as given (slurm_verify_cpu_bind writes over its own
 * argument), none after none or a rank, the expanded one of a map or
 * mask. */
struct cpu_bind {
	int verbose, one_thread;
	const char *to;  /* "cores", ...; NULL: none */
	char how[16];    /* "none", "rank", "map_cpu:", ...; "": none */
	char *list;      /* NULL: none */
};

static void cpu_bind_word(struct cpu_bind *c, const char *tok)
{
	static const char *const to[][2] = {{"socket", "sockets"}, {"core", "cores"},
					    {"thread", "threads"}, {"ldom", "ldoms"}};
	static const char *const how[][2] = {{"no", "none"}, {"none", "none"}, {"rank", "rank"},
					     {"rank_ldom", "rank_ldom"}};

	if (strcasecmp(tok, "q") == 0 || strcasecmp(tok, "quiet") == 0)
		c->verbose = 0;
	else if (strcasecmp(tok, "v") == 0 || strcasecmp(tok, "verbose") == 0)
		c->verbose = 1;
	else if (strcasecmp(tok, "one_thread") == 0)
		c->one_thread = 1;
	for (size_t i = 0; i < sizeof(to) / sizeof(to[0]); i++)
		if (strcasecmp(tok, to[i][0]) == 0 || strcasecmp(tok, to[i][1]) == 0)
			c->to = to[i][1];
	for (size_t i = 0; i < sizeof(how) / sizeof(how[0]); i++)
		if (strcasecmp(tok, how[i][0]) == 0) {
			snprintf(c->how, sizeof(c->how), "%s", how[i][1]);
			free(c->list);
			c->list = NULL;
		}
	for (const struct list_kind *k = cpu_lists; k->name; k++) {
		if (strncasecmp(tok, k->name, strlen(k->name)) != 0 &&
		    strncasecmp(tok, k->alias, strlen(k->alias)) != 0)
			continue;
		const char *sep = strpbrk(tok, ":="), *l = sep ? sep + 1 : "";
		char *cut = sl_xstrndup(l, strcspn(l, ":="));
		struct sl_buf *b = sl_buf_new(64);
		list_expand(b, cut, k->hex);
		free(c->list);
		c->list = sl_xstrdup(sl_buf_str(b));
		snprintf(c->how, sizeof(c->how), "%s:", k->name);
		sl_buf_free(b);
		free(cut);
		return;
	}
}

char **sl_slurm_cpu_bind_env(const char *arg)
{
	struct cpu_bind c = {.list = sl_xstrdup(arg)};
	char *buf = sl_xstrdup(arg), *p = buf, *tok, **v;
	const char *verbose;
	char type[64];

	for (char *x = buf; *x; x++)
		if (*x == ',' && !is_value(x + 1))
			*x = ';';
	while ((tok = strsep(&p, ";")) != NULL)
		cpu_bind_word(&c, tok);
	free(buf);
	if (!c.verbose && !c.one_thread && c.to == NULL && c.how[0] == '\0') {
		free(c.list);
		return NULL;
	}
	verbose = c.verbose ? "verbose" : "quiet";
	snprintf(type, sizeof(type), "%s%s%s", c.to ? c.to : "", c.to && c.how[0] ? "," : "",
		 c.how);
	v = sl_xcalloc(5, sizeof(*v));
	v[0] = *type ? sl_xasprintf("SLURM_CPU_BIND=%s,%s%s", verbose, type, c.list ? c.list : "")
		     : sl_xasprintf("SLURM_CPU_BIND=%s", verbose);
	v[1] = sl_xasprintf("SLURM_CPU_BIND_LIST=%s", c.list ? c.list : "");
	v[2] = sl_xasprintf("SLURM_CPU_BIND_TYPE=%s", type);
	v[3] = sl_xasprintf("SLURM_CPU_BIND_VERBOSE=%s", verbose);
	free(c.list);
	return v;
}
