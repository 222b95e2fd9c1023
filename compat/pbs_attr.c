/* pbs_attr.c - -a dates, -W lists and depend= lists (pbs_attr.h). */
#include "pbs_attr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "job.h"
#include "pbs_job.h"
#include "xalloc.h"

#define SL_PBS_DEPEND_MAX 65536 /* Slurm's text of one -W depend= list */

/* PBS job names: 1 to 230 of [A-Za-z0-9._+-] (check_job_name() in
 * src/lib/Libcmds/ck_job_name.c; a digit may lead since OpenPBS 19). */
int sl_pbs_name_ok(const char *n)
{
	size_t len = strlen(n);

	if (len == 0 || len > 230)
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && !strchr("-_+.", *n))
			return 0;
	return 1;
}

/* Priority: -1024..1023 (verify_value_priority()). */
int sl_pbs_priority(const char *a, int *out)
{
	char *end;
	long v;

	while (isspace((unsigned char)*a))
		a++;
	errno = 0;
	v = strtol(a, &end, 10);
	if (end == a || *end != '\0' || errno != 0 || v < -1024 || v > 1023)
		return -1;
	*out = (int)v;
	return 0;
}

static int two(const char *p)
{
	return (p[0] - '0') * 10 + (p[1] - '0');
}

/* cvtdate()'s fields, longest first, falling through as its switch does
 * (cvtdate.c:128-204). */
int sl_pbs_cvtdate(const char *s, int64_t now, int64_t *out)
{
	const char *dot = strchr(s, '.');
	size_t len = dot ? (size_t)(dot - s) : strlen(s);
	time_t clock = (time_t)now;
	struct tm lt, tm;
	int year = 0, month = -1, day = 0;

	memset(&tm, 0, sizeof(tm));
	if (dot != NULL) {
		if (strlen(dot + 1) != 2 || !isdigit((unsigned char)dot[1]) ||
		    !isdigit((unsigned char)dot[2]) || (tm.tm_sec = two(dot + 1)) > 59)
			return -1;
	}
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return -1;
	if (len != 4 && len != 6 && len != 8 && len != 10 && len != 12)
		return -1;
	localtime_r(&clock, &lt);
	tm.tm_year = lt.tm_year;
	tm.tm_mon = lt.tm_mon;
	tm.tm_mday = lt.tm_mday;
	if (len == 12) {
		year = two(s) * 100;
		s += 2;
		len -= 2;
	}
	if (len == 10) {
		int i = two(s);
		year = year ? year + i : i > 68 ? 1900 + i : 2000 + i;
		tm.tm_year = year - 1900;
		s += 2;
		len -= 2;
	}
	if (len == 8) {
		int i = two(s);
		if (i < 1 || i > 12)
			return -1;
		if (year == 0 && i <= lt.tm_mon)
			tm.tm_year++;
		month = tm.tm_mon = i - 1;
		s += 2;
		len -= 2;
	}
	if (len == 6) {
		day = two(s);
		if (day < 1 || day > 31)
			return -1;
		if (month == -1 && day < lt.tm_mday)
			tm.tm_mon++;
		tm.tm_mday = day;
		s += 2;
	}
	tm.tm_hour = two(s);
	tm.tm_min = two(s + 2);
	if (tm.tm_hour > 23 || tm.tm_min > 59)
		return -1;
	if (day == 0 && (tm.tm_hour < lt.tm_hour ||
			 (tm.tm_hour == lt.tm_hour && tm.tm_min <= lt.tm_min)))
		tm.tm_mday++;
	tm.tm_isdst = -1;
	*out = (int64_t)mktime(&tm);
	return *out < 0 ? -1 : 0;
}

static void push(char ***v, size_t *n, size_t *cap, char *s)
{
	*v = sl_xgrow(*v, cap, *n + 2, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* One name=value at *pp; *pp moves past it and its comma. */
static int equal_item(const char **pp, char **name, char **value)
{
	const char *p = *pp, *n0, *v0, *end, *next;
	int quote = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '=' || *p == ',')
		return -1;
	for (n0 = p; *p && !isspace((unsigned char)*p) && *p != '='; p++)
		;
	*name = sl_xstrndup(n0, (size_t)(p - n0));
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '=')
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '"' || *p == '\'')
		quote = *p++;
	v0 = p;
	if (quote) {
		if ((p = strchr(p, quote)) == NULL)
			return -1;
		*value = sl_xstrndup(v0, (size_t)(p - v0));
		p++;
	}
	for (next = p; *next && *next != '='; next++)
		;
	if (*next == '\0') {
		end = next;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		if (end > p && end[-1] == ',') /* a trailing comma */
			return -1;
		next = end;
	} else {
		while (next > p && *next != ',')
			next--;
		if (*next != ',')
			return -1;
		end = next++;
	}
	if (!quote) {
		while (end > v0 && isspace((unsigned char)end[-1]))
			end--;
		*value = sl_xstrndup(v0, (size_t)(end - v0));
	}
	*pp = next;
	return 0;
}

int sl_pbs_attr_split(const char *s, char ***names, char ***values, size_t *n)
{
	size_t cn = 0, cv = 0;
	const char *p = s;

	*names = *values = NULL;
	*n = 0;
	for (;;) {
		char *name = NULL, *value = NULL;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (equal_item(&p, &name, &value) != 0) {
			free(name);
			free(value);
			sl_strv_free(*names);
			sl_strv_free(*values);
			*names = *values = NULL;
			*n = 0;
			return -1;
		}
		push(names, n, &cn, name);
		(*n)--;
		push(values, n, &cv, value);
	}
	return *n > 0 ? 0 : -1;
}

/* ---- depend= -------------------------------------------------------------- */

/* parse_depend.c:48's types: Slurm's four, the rest refused by name. */
static const char *const pbs_types[] = {"on", "synccount", "after", "afterok", "afternotok",
					"afterany", "before", "beforeok", "beforenotok",
					"beforeany", "syncwith", "runone", NULL};

static int is_slurm_type(const char *t)
{
	return strcmp(t, "after") == 0 || strcmp(t, "afterok") == 0 ||
	       strcmp(t, "afternotok") == 0 || strcmp(t, "afterany") == 0;
}

/* One "TYPE:ID[:ID...]" appended to b. */
static int depend_item(char *item, const char *server, struct sl_buf *b, struct sl_err *err)
{
	char *save = NULL, *tok = strtok_r(item, ":", &save);
	size_t i;
	int ids = 0;

	for (i = 0; tok && pbs_types[i]; i++)
		if (strcmp(tok, pbs_types[i]) == 0)
			break;
	if (tok == NULL || pbs_types[i] == NULL)
		return sl_err_set(err, SL_EINVAL, "illegal -W value");
	if (!is_slurm_type(tok))
		return sl_err_set(err, SL_EUNSUPP, "-W depend=%s is not supported by Sluice "
				  "(only after, afterok, afternotok and afterany)", tok);
	sl_buf_addf(b, "%s%s", sl_buf_len(b) ? "," : "", tok);
	while ((tok = strtok_r(NULL, ":", &save)) != NULL) {
		char *at = strchr(tok, '@'), *shown = NULL; /* "ID@SERVER", as qstat -f shows it */
		struct sl_pbs_sel sel;
		int k;

		if (at != NULL) {
			size_t label = strcspn(server, ".");
			*at++ = '\0';
			if (*at == '\0')
				return sl_err_set(err, SL_EINVAL, "illegal -W value");
			if (strcspn(at, ".") != label || strncmp(at, server, label) != 0)
				return sl_err_set(err, SL_EUNSUPP, "-W depend on %s@%s, a job of "
						  "another server, is not supported by Sluice", tok, at);
		}
		/* "N[]" is the array, Slurm's N (all its tasks); "N[I]" a subjob, N_I */
		k = sl_pbs_operand_sel(tok, server, &sel, &shown);
		free(shown);
		if (k < 0 || (k == 0 && sel.type == SL_PBS_SEL_SUBJOBS && sel.lo != sel.hi))
			return sl_err_set(err, SL_EINVAL, "illegal -W value");
		if (k > 0)
			return sl_err_set(err, SL_EUNSUPP, "-W depend on %s, a job of another "
					  "server, is not supported by Sluice", tok);
		if (sl_buf_addf(b, ":%llu", (unsigned long long)sel.id) != 0 ||
		    (sel.type == SL_PBS_SEL_SUBJOBS && sl_buf_addf(b, "_%u", sel.lo) != 0))
			return sl_err_set(err, SL_EINVAL, "illegal -W value");
		ids++;
	}
	return ids ? 0 : sl_err_set(err, SL_EINVAL, "illegal -W value");
}

int sl_pbs_depend(const char *v, const char *server, char **out, struct sl_err *err)
{
	char *copy = sl_xstrdup(v), *p = copy;
	struct sl_buf *b = sl_buf_new(SL_PBS_DEPEND_MAX);
	int r = 0;

	*out = NULL;
	if (*v == '\0')
		r = sl_err_set(err, SL_EINVAL, "illegal -W value");
	while (r == 0 && p != NULL) {
		char *comma = strchr(p, ','), *s, *e;
		if (comma)
			*comma = '\0';
		for (s = p; isspace((unsigned char)*s); s++)
			;
		for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
			;
		*e = '\0';
		if (*s == '\0' || strstr(s, "::") != NULL || s[strlen(s) - 1] == ':')
			r = sl_err_set(err, SL_EINVAL, "illegal -W value");
		else
			r = depend_item(s, server, b, err);
		p = comma ? comma + 1 : NULL;
	}
	if (r == 0)
		*out = sl_buf_steal(b);
	sl_buf_free(b);
	free(copy);
	return r;
}

/* ---- output and error paths ---------------------------------------------- */

static int local_host(const char *h)
{
	char me[256] = "";

	if (strcmp(h, "localhost") == 0 || strcmp(h, "localhost.localdomain") == 0)
		return 1;
	if (gethostname(me, sizeof(me) - 1) != 0)
		return 0;
	return strcmp(h, me) == 0 ||
	       (strcspn(me, ".") == strcspn(h, ".") && strncmp(me, h, strcspn(me, ".")) == 0);
}

#define ARRAY_INDEX "^array_index^"

/* A literal path as a Slurm output pattern (slurm_pattern.h): '%' doubled;
 * with a backslash expansion is off and backslashes double. PBS Pro's
 * "^array_index^" is the subjob's index (%a) when there is no backslash. */
char *sl_pbs_path_pattern(const char *p)
{
	int bs = strchr(p, '\\') != NULL;
	char *out = sl_xmalloc(2 * strlen(p) + 1), *o = out;

	for (; *p; p++) {
		if (!bs && strncmp(p, ARRAY_INDEX, sizeof(ARRAY_INDEX) - 1) == 0) {
			memcpy(o, "%a", 2);
			o += 2;
			p += sizeof(ARRAY_INDEX) - 2;
			continue;
		}
		if ((bs && *p == '\\') || (!bs && *p == '%'))
			*o++ = *p;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

#define PATH_VARS_MAX 65536 /* an expanded -o/-e longer than this is refused */

/* The value of the variable a '$' at *p names; *p moves past it. NULL
 * with err set when it has none. */
static const char *path_var(const char **p, char kind, sl_pbs_path_var_fn value, void *arg,
			    struct sl_err *err)
{
	static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789_";
	int braced = (*p)[1] == '{';
	const char *start = *p + 1 + braced, *v = NULL;
	size_t n = strspn(start, name_chars);
	char name[128];

	*p = start + n + (braced && start[n] == '}'); /* never past the end */
	if (braced && (start[n] != '}' || n == 0 || isdigit((unsigned char)*start))) {
		sl_err_set(err, SL_EUNSUPP,
			   "-%c with a malformed ${...} is not supported by Sluice", kind);
		return NULL;
	}
	if (n < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)n, start);
		v = value(name, arg);
	}
	if (v == NULL)
		sl_err_set(err, SL_EUNSUPP, "-%c with $%.*s, which the job's environment does not "
			   "hold, is not supported by Sluice", kind, (int)n, start);
	return v;
}

int sl_pbs_path_vars(const char *path, char kind, sl_pbs_path_var_fn value, void *arg,
		     char **out, struct sl_err *err)
{
	struct sl_buf *b = sl_buf_new(PATH_VARS_MAX);
	const char *p = path, *v;
	int r = 0;

	while (*p != '\0' && r == 0) {
		int added = 0;
		if (p[0] != '$' || (p[1] != '{' && p[1] != '_' && !isalpha((unsigned char)p[1])))
			added = sl_buf_addc(b, *p++); /* a '$' before anything else is itself */
		else if ((v = path_var(&p, kind, value, arg, err)) == NULL)
			r = -SL_EUNSUPP;
		else
			added = sl_buf_addstr(b, v);
		if (r == 0 && added != 0)
			r = sl_err_set(err, SL_ETOOBIG, "-%c: the path is too long", kind);
	}
	if (r == 0)
		*out = sl_buf_steal(b);
	sl_buf_free(b);
	return r;
}

/* prepare_path() (src/lib/Libcmds/prepare_path.c): HOST must be this one,
 * as files are written where the job runs. */
int sl_pbs_path(const char *given, const char *cwd, char kind, char **abs, int *status,
		struct sl_err *err)
{
	const char *p = given, *colon;

	while (isspace((unsigned char)*p))
		p++;
	colon = strchr(p, ':');
	if (colon && colon != p && strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789.-") == (size_t)(colon - p)) {
		char *h = sl_xstrndup(p, (size_t)(colon - p));
		int ok = local_host(h);
		free(h);
		if (!ok) {
			*status = 1;
			return sl_err_set(err, SL_EUNSUPP, "-%c HOST:PATH on another host is not "
					  "supported by Sluice", kind);
		}
		p = colon + 1;
	}
	if (*p == '\0') {
		*status = 2;
		return sl_err_set(err, SL_EINVAL, "illegal -%c value", kind);
	}
	*abs = p[0] == '/' ? sl_xstrdup(p) : sl_xasprintf("%s/%s", cwd, p);
	return 0;
}

int sl_pbs_mail_points(const char *a)
{
	int bits = 0;

	while (isspace((unsigned char)*a))
		a++;
	if (strcmp(a, "n") == 0)
		return 0;
	if (*a == '\0' || strspn(a, "abej") != strlen(a))
		return -1;
	bits |= strchr(a, 'a') ? SL_MAIL_FAIL : 0;
	bits |= strchr(a, 'b') ? SL_MAIL_BEGIN : 0;
	bits |= strchr(a, 'e') ? SL_MAIL_END : 0;
	bits |= strchr(a, 'j') ? SL_MAIL_ARRAY_TASKS : 0;
	return bits;
}
