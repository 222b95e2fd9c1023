/* slurm_optval.c - Slurm's value syntaxes for sbatch options (node counts,
 * memory sizes, GPU requests) and the --export environment filter; split
 * from slurm_opt.c so that the table file stays a table. The --constraint
 * parser lives here too. */
#include "slurm_opt.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

/* ---- value parsers ---- */

/* Slurm's _str_to_nodes(): digits with optional k/m multipliers. A count
 * past an int is not a count (Slurm's wraps): *left is then s, which the
 * callers refuse as trailing text. */
static int str_to_nodes(const char *s, const char **left)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s) {
		*left = s;
		return -1;
	}
	if (*end == 'k' || *end == 'K') {
		v = v > INT_MAX / 1024 ? LONG_MAX : v * 1024;
		end++;
	}
	if (*end == 'm' || *end == 'M') {
		v = v > INT_MAX / (1024 * 1024) ? LONG_MAX : v * 1024 * 1024;
		end++;
	}
	if (errno == ERANGE || v > INT_MAX || v < 0) {
		*left = s;
		return -1;
	}
	*left = end;
	return (int)v;
}

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

int sl_slurm_parse_nodes(const char *s, int *min, int *max, struct sl_err *err)
{
	const char *dash = strchr(s, '-'), *left;
	int lo, hi;

	if (dash == NULL) {
		lo = hi = str_to_nodes(s, &left);
		if (!blank(left) || lo < 0)
			return sl_err_set(err, SL_EINVAL, "\"%s\" is not a valid node count", s);
	} else {
		char *lo_s = sl_xstrndup(s, (size_t)(dash - s));
		lo = str_to_nodes(lo_s, &left);
		if (!blank(left)) {
			sl_err_set(err, SL_EINVAL, "\"%s\" is not a valid node count", lo_s);
			free(lo_s);
			return -SL_EINVAL;
		}
		free(lo_s);
		hi = str_to_nodes(dash + 1, &left);
		if (!blank(left))
			return sl_err_set(err, SL_EINVAL, "\"%s\" is not a valid node count",
					  dash + 1);
	}
	if (hi != 0 && hi < lo)
		return sl_err_set(err, SL_EINVAL,
				  "Maximum node count %d is less than minimum node count %d", hi, lo);
	*min = lo;
	*max = hi;
	return 0;
}

int sl_slurm_parse_mem(const char *s, int64_t *mib)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno == ERANGE || v < 0)
		return -SL_EINVAL;
	switch (toupper((unsigned char)*end)) {
	case '\0':
	case 'M':
		break;
	case 'K': /* rounded up, without the v + 1023 that wraps */
		v = v / 1024 + (v % 1024 != 0);
		break;
	case 'G':
		v = v > LLONG_MAX / 1024 ? -1 : v * 1024;
		break;
	case 'T':
		v = v > LLONG_MAX / (1024 * 1024) ? -1 : v * 1024 * 1024;
		break;
	default:
		return -SL_EINVAL;
	}
	/* "4GB" works in Slurm (only the unit letter is looked at); accept a
	 * trailing B, but nothing else. */
	if (*end != '\0' && end[1] != '\0' && !((end[1] == 'B' || end[1] == 'b') && end[2] == '\0'))
		return -SL_EINVAL;
	if (v < 0)
		return -SL_EINVAL;
	*mib = v;
	return 0;
}

static int all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* "N" into *count, capped so it fits an int. */
static int small_count(const char *s, int *count)
{
	if (!all_digits(s) || strlen(s) > 9)
		return -1;
	*count = atoi(s);
	return 0;
}

int sl_slurm_parse_gres(const char *s, int *count, char **type, struct sl_err *err)
{
	const char *msg = "Invalid generic resource (gres) specification";
	const char *p = s, *c1, *c2;

	*type = NULL;
	if (strcasecmp(s, "none") == 0) {
		*count = -1;
		return 0;
	}
	if (strncmp(p, "gres:", 5) == 0)
		p += 5;
	/* Sluice schedules GPUs only, so a list ("gpu:1,foo:1") is refused. */
	if (strncmp(p, "gpu", 3) != 0 || (p[3] != '\0' && p[3] != ':') || strchr(p, ','))
		return sl_err_set(err, SL_EINVAL, "%s", msg);
	*count = 1;
	if (p[3] == '\0')
		return 0;
	c1 = p + 4;
	c2 = strchr(c1, ':');
	if (c2 == NULL) {
		if (small_count(c1, count) == 0)
			return 0;
		if (*c1 == '\0')
			return sl_err_set(err, SL_EINVAL, "%s", msg);
		*type = sl_xstrdup(c1); /* "gpu:tesla": one GPU of that type */
		return 0;
	}
	if (c2 == c1 || small_count(c2 + 1, count) != 0)
		return sl_err_set(err, SL_EINVAL, "%s", msg);
	*type = sl_xstrndup(c1, (size_t)(c2 - c1));
	return 0;
}

int sl_slurm_parse_gpus(const char *s, int *count, char **type, struct sl_err *err)
{
	const char *colon = strchr(s, ':');
	const char *num = colon ? colon + 1 : s;

	*type = NULL;
	if ((colon && colon == s) || small_count(num, count) != 0)
		return sl_err_set(err, SL_EINVAL,
				  "Batch job submission failed: Invalid generic resource (gres) specification");
	if (colon)
		*type = sl_xstrndup(s, (size_t)(colon - s));
	return 0;
}

/* Sluice maps each feature to node labels that every node of the job must
 * carry, which is AND; OR, node-count and matching-set forms have no
 * nodeSelector counterpart and are refused rather than half honoured. */
int sl_slurm_parse_constraint(const char *s, char ***features, struct sl_err *err)
{
	char **v = NULL;
	const char *p = s, *amp;
	size_t n = 0, cap = 0;

	*features = NULL;
	if (*s == '\0')
		return 0;
	for (;;) {
		size_t k;

		amp = strchr(p, '&');
		k = amp ? (size_t)(amp - p) : strlen(p);
		if (k == 0 || k > 63 || strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789._-") < k) {
			sl_strv_free(v);
			return sl_err_set(err, SL_EINVAL, "--constraint=%s: only features joined "
					  "with & are supported by Sluice", s);
		}
		v = sl_xgrow(v, &cap, n + 2, sizeof(char *));
		v[n++] = sl_xstrndup(p, k);
		v[n] = NULL;
		if (amp == NULL)
			break;
		p = amp + 1;
	}
	*features = v;
	return 0;
}

/* ---- --export ---- */

struct envv {
	char **v;
	size_t n, cap;
};

/* Add "K=V", replacing an existing K (Slurm's env_array_merge). */
static void envv_put(struct envv *e, const char *kv)
{
	size_t klen = strcspn(kv, "="), i;

	for (i = 0; i < e->n; i++) {
		if (strncmp(e->v[i], kv, klen) == 0 && e->v[i][klen] == '=') {
			free(e->v[i]);
			e->v[i] = sl_xstrdup(kv);
			return;
		}
	}
	e->v = sl_xgrow(e->v, &e->cap, e->n + 2, sizeof(char *));
	e->v[e->n++] = sl_xstrdup(kv);
	e->v[e->n] = NULL;
}

/* ALL: the caller's environment as it is, duplicates included, as the job
 * would inherit it from a shell. Adding one by one through envv_put would
 * compare every pair (a tenth of sbatch's own work at 40 variables). */
static void envv_put_all(struct envv *e, char *const *envp)
{
	size_t n = 0;

	if (e->n > 0) { /* after list items: ALL's values replace theirs */
		for (; envp && *envp; envp++)
			envv_put(e, *envp);
		return;
	}
	while (envp && envp[n])
		n++;
	e->v = sl_xgrow(e->v, &e->cap, e->n + n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		e->v[e->n++] = sl_xstrdup(envp[i]);
	e->v[e->n] = NULL;
}

/* One item of an --export list; commas inside quotes do not split. */
static const char *next_item(const char *p, char **item)
{
	const char *q = p;
	char quote = 0;

	for (; *q && (quote || *q != ','); q++) {
		if (quote && *q == quote)
			quote = 0;
		else if (!quote && (*q == '"' || *q == '\''))
			quote = *q;
	}
	*item = sl_xstrndup(p, (size_t)(q - p));
	return *q ? q + 1 : q;
}

static void export_item(struct envv *e, const char *item, char *const *envp)
{
	size_t len = strlen(item);
	char *const *p;

	if (strcasecmp(item, "ALL") == 0) {
		envv_put_all(e, envp);
	} else if (strchr(item, '=') != NULL) {
		envv_put(e, item);
	} else {
		for (p = envp; p && *p; p++) {
			if (strncmp(*p, item, len) == 0 && (*p)[len] == '=') {
				envv_put(e, *p);
				break;
			}
		}
	}
}

char **sl_slurm_export_env(const char *spec, char *const *envp)
{
	struct envv e = {NULL, 0, 0};
	char *const *p;

	if (spec == NULL || strcasecmp(spec, "ALL") == 0) {
		envv_put_all(&e, envp);
	} else if (strcasecmp(spec, "NONE") != 0) {
		const char *q = spec;
		while (*q) {
			char *item;
			q = next_item(q, &item);
			if (*item)
				export_item(&e, item, envp);
			free(item);
		}
	}
	/* Slurm always passes the caller's SLURM_* variables on. */
	if (spec != NULL && strcasecmp(spec, "ALL") != 0)
		for (p = envp; p && *p; p++)
			if (strncmp(*p, "SLURM_", 6) == 0)
				envv_put(&e, *p);
	if (e.v == NULL)
		e.v = sl_xcalloc(1, sizeof(char *));
	return e.v;
}


/* ---- values of the options added for real users' scripts (issue 12) ---- */

int sl_slurm_parse_mail_type(const char *s)
{
	static const struct {
		const char *name;
		int bits;
	} types[] = {
		{"ARRAY_TASKS", SL_MAIL_ARRAY_TASKS}, {"BEGIN", SL_MAIL_BEGIN},
		{"END", SL_MAIL_END}, {"FAIL", SL_MAIL_FAIL},
		{"INVALID_DEPEND", SL_MAIL_INVALID_DEPEND}, {"REQUEUE", SL_MAIL_REQUEUE},
		{"ALL", SL_MAIL_INVALID_DEPEND | SL_MAIL_BEGIN | SL_MAIL_END | SL_MAIL_FAIL |
				SL_MAIL_REQUEUE | SL_MAIL_STAGE_OUT},
		{"STAGE_OUT", SL_MAIL_STAGE_OUT}, {"TIME_LIMIT", SL_MAIL_TIME100},
		{"TIME_LIMIT_90", SL_MAIL_TIME90}, {"TIME_LIMIT_80", SL_MAIL_TIME80},
		{"TIME_LIMIT_50", SL_MAIL_TIME50},
	};
	char *buf, *tok, *save = NULL;
	int bits = 0, none = 0;

	if (s == NULL)
		return -1;
	buf = sl_xstrdup(s);
	/* Slurm's parse_mail_type: NONE ends the list; unknown words count
	 * for nothing, and a list of nothing known is invalid. */
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcasecmp(tok, "NONE") == 0) {
			bits = 0;
			none = 1;
			break;
		}
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (strcasecmp(tok, types[i].name) == 0)
				bits |= types[i].bits;
	}
	free(buf);
	return bits == 0 && !none ? -1 : bits;
}

int sl_slurm_parse_exclusive(const char *s)
{
	static const char *const words[] = {
		[SL_EXCL_EXCLUSIVE] = "exclusive", [SL_EXCL_OVERSUBSCRIBE] = "oversubscribe",
		[SL_EXCL_USER] = "user", [SL_EXCL_MCS] = "mcs",
	};

	if (s == NULL)
		return SL_EXCL_EXCLUSIVE;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return (int)i;
	return -1;
}

char *sl_slurm_mail_type_text(int bits)
{
	static const struct {
		int bit;
		const char *name;
	} order[] = { /* print_mail_type's order */
		{SL_MAIL_ARRAY_TASKS, "ARRAY_TASKS"}, {SL_MAIL_INVALID_DEPEND, "INVALID_DEPEND"},
		{SL_MAIL_BEGIN, "BEGIN"}, {SL_MAIL_END, "END"}, {SL_MAIL_FAIL, "FAIL"},
		{SL_MAIL_REQUEUE, "REQUEUE"}, {SL_MAIL_STAGE_OUT, "STAGE_OUT"},
		{SL_MAIL_TIME50, "TIME_LIMIT_50"}, {SL_MAIL_TIME80, "TIME_LIMIT_80"},
		{SL_MAIL_TIME90, "TIME_LIMIT_90"}, {SL_MAIL_TIME100, "TIME_LIMIT"},
	};
	char *out = sl_xstrdup(""), *t;

	if (bits == 0)
		return sl_xstrdup("NONE");
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(bits & order[i].bit))
			continue;
		t = sl_xasprintf("%s%s%s", out, *out ? "," : "", order[i].name);
		free(out);
		out = t;
	}
	return out;
}

/* Slurm's signals_mapping: the names sbatch --signal and scancel know. */
static const struct {
	const char *name;
	int num;
} sig_names[] = {
	{"HUP", 1}, {"INT", 2}, {"QUIT", 3}, {"ABRT", 6}, {"KILL", 9}, {"ALRM", 14},
	{"TERM", 15}, {"USR1", 10}, {"USR2", 12}, {"URG", 23}, {"CONT", 18}, {"STOP", 19},
	{"TSTP", 20}, {"TTIN", 21}, {"TTOU", 22}, {"XCPU", 24},
};

/* Slurm's sig_name2num: a number, or a name with or without "SIG"; 0 if not. */
static long sig_name2num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end != s)
		return blank(end) ? v : 0;
	while (isspace((unsigned char)*s))
		s++;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < sizeof(sig_names) / sizeof(sig_names[0]); i++) {
		size_t n = strlen(sig_names[i].name);
		if (strncasecmp(s, sig_names[i].name, n) == 0 && blank(s + n))
			return sig_names[i].num;
	}
	return 0;
}

const char *sl_slurm_sig_name(int sig)
{
	for (size_t i = 0; i < sizeof(sig_names) / sizeof(sig_names[0]); i++)
		if (sig_names[i].num == sig)
			return sig_names[i].name;
	return NULL;
}

/* get_signal_opts() as sbatch runs it, quirks kept: a leading R or B is a
 * flag even when it starts the signal's name ("BUS" is B + "US"). */
int sl_slurm_parse_signal(const char *s, int *sig, int *secs, int *flags)
{
	char *copy, *p, *at, *end;
	long num;
	int r = -1;

	if (s == NULL)
		return -1;
	copy = p = sl_xstrdup(s);
	*flags = 0;
	if (strncasecmp(p, "R", 1) == 0) {
		*flags |= SL_WARN_RESV;
		p++;
	}
	if (strncasecmp(p, "B", 1) == 0) {
		*flags |= SL_WARN_BATCH;
		p++;
	}
	if (strncasecmp(p, "R", 1) == 0) {
		*flags |= SL_WARN_RESV;
		p++;
	}
	if (*p == ':')
		p++;
	if ((at = strchr(p, '@')) != NULL)
		*at = '\0';
	/* (uint16_t) as Slurm casts it: 65537 is 1 */
	num = (long)(uint16_t)sig_name2num(p);
	if (num < 1)
		goto out;
	*sig = (int)num;
	*secs = 60;
	if (at != NULL) {
		errno = 0;
		num = strtol(at + 1, &end, 10);
		if (num < 0 || num > 0xffff || *end != '\0' || errno != 0)
			goto out;
		*secs = (int)num;
	}
	r = 0;
out:
	free(copy);
	return r;
}

/* One part of -B S[:C[:T]]: "*" (any), N or N-M (the minimum counts). */
static int node_info_part(const char *p, size_t n, int *out)
{
	char *s = sl_xstrndup(p, n), *end;
	long v;
	int r = 0;

	if (strcmp(s, "*") == 0) {
		*out = 0;
	} else {
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || v < 1 || v > INT_MAX || errno != 0 ||
		    (*end != '\0' && (*end != '-' || end[1] == '\0')))
			r = -1;
		else
			*out = (int)v;
	}
	free(s);
	return r;
}

int sl_slurm_parse_extra_node_info(const char *s, int v[3], char **bad, const char **what)
{
	static const char *const part[3] = {"first arg of -B", "second arg of -B",
					     "third arg of -B"};
	const char *p = s;

	*bad = NULL;
	for (int i = 0; i < 3; i++)
		v[i] = 0;
	/* S[:C[:T]]; what follows a third ':' is not looked at, as in Slurm */
	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(p, ":");
		if (node_info_part(p, n, &v[i]) != 0) {
			*bad = sl_xstrndup(p, n);
			*what = part[i];
			return -1;
		}
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	return 0;
}

/* verify_hint(): each word sets what it implies. */
int sl_slurm_parse_hint(const char *s, struct sl_slurm_hint *h, char **bad)
{
	char *buf = sl_xstrdup(s), *p, *tok;

	memset(h, 0, sizeof(*h));
	*bad = NULL;
	/* ',' not followed by a digit separates words (Slurm keeps masks) */
	for (p = buf; *p; p++)
		if (*p == ',' && !isdigit((unsigned char)p[1]))
			*p = ';';
	p = buf;
	while ((tok = strsep(&p, ";")) != NULL) {
		if (strcasecmp(tok, "help") == 0) {
			h->help = 1;
		} else if (strcasecmp(tok, "compute_bound") == 0) {
			h->sockets = h->cores = 0;
			h->threads = 1;
			h->set |= SL_HINT_SOCKETS | SL_HINT_CORES | SL_HINT_THREADS;
		} else if (strcasecmp(tok, "memory_bound") == 0) {
			h->cores = 1;
			h->threads = 1;
			h->set |= SL_HINT_CORES | SL_HINT_THREADS;
		} else if (strcasecmp(tok, "multithread") == 0) {
			h->threads = 0;
			h->set |= SL_HINT_THREADS;
		} else if (strcasecmp(tok, "nomultithread") == 0) {
			h->threads = 1;
			h->set |= SL_HINT_THREADS;
		} else {
			*bad = sl_xstrdup(tok);
			free(buf);
			return -1;
		}
		if (h->help)
			break;
	}
	free(buf);
	return 0;
}
