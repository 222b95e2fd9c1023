/* hostlist.c - expanding and compressing Slurm host list expressions.
 * Names with several brackets expand to every combination; compressing
 * makes one bracket per name (the last number), as Slurm's does. */
#include "hostlist.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *a, char *s, struct sl_err *err)
{
	if (a->n >= SL_HOSTLIST_MAX) {
		free(s);
		return sl_err_set(err, SL_ETOOBIG, "host list expands to more than %d names",
				  SL_HOSTLIST_MAX);
	}
	a->v = sl_xgrow(a->v, &a->cap, a->n + 2, sizeof(char *));
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

/* "1-3,7" inside brackets, with prefix/suffix around each number. */
static int expand_ranges(const char *pre, size_t plen, const char *r, size_t rlen,
			 const char *suf, struct names *a, struct sl_err *err)
{
	char *spec = sl_xstrndup(r, rlen), *save = NULL, *tok;
	int rc = 0;

	if (strspn(spec, ",") == rlen) { /* "[]" or "[,]": no number at all */
		free(spec);
		return sl_err_set(err, SL_EINVAL, "empty range in host list");
	}
	for (tok = strtok_r(spec, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-'), *end1, *end2 = NULL;
		long lo = strtol(tok, &end1, 10), hi = lo, i;
		int width = (tok[0] == '0' && end1 - tok > 1) ? (int)(end1 - tok) : 0;

		if (dash)
			hi = strtol(dash + 1, &end2, 10);
		/* LONG_MAX (strtol's cap) as the end would make i++ wrap */
		if (hi == LONG_MAX || end1 == tok || !isdigit((unsigned char)tok[0]) ||
		    (dash ? (end1 != dash || end2 == dash + 1 || *end2 != '\0') : *end1 != '\0') ||
		    hi < lo || hi - lo >= SL_HOSTLIST_MAX) {
			rc = sl_err_set(err, SL_EINVAL, "invalid range \"%s\" in host list", tok);
			break;
		}
		for (i = lo; i <= hi && rc == 0; i++)
			rc = names_add(a, sl_xasprintf("%.*s%0*ld%s", (int)plen, pre, width, i, suf),
				       err);
	}
	free(spec);
	return rc;
}

/* One element "pre[ranges]rest" or a bare name; rest may hold more
 * brackets ("r[1-2]n[01-02]"), expanded for each of the first's numbers,
 * first bracket outermost, as Slurm's hostlist does. */
static int expand_one(const char *s, size_t len, struct names *a, struct sl_err *err)
{
	const char *lb = memchr(s, '[', len), *rb;
	struct names first = {NULL, 0, 0};
	int rc;

	if (lb == NULL) {
		if (memchr(s, ']', len))
			return sl_err_set(err, SL_EINVAL, "unbalanced ']' in host list");
		return names_add(a, sl_xstrndup(s, len), err);
	}
	rb = memchr(lb, ']', len - (size_t)(lb - s));
	/* a ']' before the '[' too: "a]b[1-2]" is as unbalanced as "a]" */
	if (rb == NULL || memchr(s, ']', (size_t)(lb - s)) ||
	    memchr(lb + 1, '[', (size_t)(rb - lb - 1)))
		return sl_err_set(err, SL_EINVAL, "unbalanced brackets in host list \"%.*s\"",
				  (int)len, s);
	rc = expand_ranges(s, (size_t)(lb - s), lb + 1, (size_t)(rb - lb - 1), "", &first, err);
	for (size_t i = 0; rc == 0 && i < first.n; i++) {
		char *name = sl_xasprintf("%s%.*s", first.v[i], (int)(len - (size_t)(rb + 1 - s)),
					  rb + 1);
		rc = expand_one(name, strlen(name), a, err);
		free(name);
	}
	sl_strv_free(first.v);
	return rc;
}

int sl_hostlist_expand(const char *s, char ***names, size_t *n, struct sl_err *err)
{
	struct names a = {NULL, 0, 0};
	const char *p = s;
	int rc = 0;

	while (*p && rc == 0) {
		const char *q = p;
		int depth = 0;

		for (; *q && (depth > 0 || *q != ','); q++)
			depth += (*q == '[') - (*q == ']');
		if (q > p)
			rc = expand_one(p, (size_t)(q - p), &a, err);
		p = *q ? q + 1 : q;
	}
	if (rc != 0) {
		sl_strv_free(a.v);
		return rc;
	}
	if (a.v == NULL)
		a.v = sl_xcalloc(1, sizeof(char *));
	*names = a.v;
	*n = a.n;
	return 0;
}

/* A name split into prefix and numeric suffix. */
struct host {
	const char *name;
	size_t plen;     /* prefix length */
	long num;        /* -1: no numeric suffix */
	int digits;      /* digits in the suffix */
	int padded;      /* suffix has a leading zero */
};

static void host_split(const char *name, struct host *h)
{
	size_t len = strlen(name), i = len;

	while (i > 0 && isdigit((unsigned char)name[i - 1]) && len - i < 9)
		i--;
	h->name = name;
	h->plen = i;
	h->digits = (int)(len - i);
	h->num = h->digits ? strtol(name + i, NULL, 10) : -1;
	h->padded = h->digits > 1 && name[i] == '0';
}

static int host_cmp(const void *a, const void *b)
{
	const struct host *x = a, *y = b;
	size_t m = x->plen < y->plen ? x->plen : y->plen;
	int c = memcmp(x->name, y->name, m);

	if (c != 0)
		return c;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Same bracket group: same prefix, both numbered, compatible padding. */
static int same_group(const struct host *g, const struct host *h, int width)
{
	if (g->num < 0 || h->num < 0 || g->plen != h->plen ||
	    memcmp(g->name, h->name, g->plen) != 0)
		return 0;
	if (width == 0)
		return !h->padded;
	return h->digits == width;
}

/* Emit hosts[i..j) (one group) into b. */
static void emit_group(struct sl_buf *b, const struct host *h, size_t i, size_t j, int width)
{
	size_t k;

	if (j - i == 1) {
		sl_buf_addf(b, "%s", h[i].name);
		return;
	}
	sl_buf_addf(b, "%.*s[", (int)h[i].plen, h[i].name);
	for (k = i; k < j;) {
		size_t e = k;
		while (e + 1 < j && h[e + 1].num == h[e].num + 1)
			e++;
		sl_buf_addf(b, "%s%0*ld", k > i ? "," : "", width, h[k].num);
		if (e > k)
			sl_buf_addf(b, "-%0*ld", width, h[e].num);
		k = e + 1;
	}
	sl_buf_addf(b, "]");
}

static char *compress(char *const *names, size_t n, int sorted)
{
	struct host *h = sl_xcalloc(n ? n : 1, sizeof(*h));
	struct sl_buf *b;
	size_t i, m = 0, cap = 1;
	char *out;

	/* The cap is what the names need: each its own bytes, a comma or a
	 * dash, and its share of a group's brackets. A fixed one (1 MiB) cut
	 * long lists short without a word. */
	for (i = 0; i < n; i++)
		cap += strlen(names[i]) + 3;
	b = sl_buf_new(cap);
	for (i = 0; i < n; i++)
		host_split(names[i], &h[i]);
	if (sorted)
		qsort(h, n, sizeof(*h), host_cmp);
	for (i = 0; i < n; i++) /* drop duplicates (next to each other once sorted) */
		if (!sorted || m == 0 || strcmp(h[m - 1].name, h[i].name) != 0)
			h[m++] = h[i];
	for (i = 0; i < m;) {
		int width = h[i].padded ? h[i].digits : 0;
		size_t j = i + 1;
		while (j < m && same_group(&h[i], &h[j], width))
			j++;
		if (i > 0)
			sl_buf_addf(b, ",");
		emit_group(b, h, i, j, width);
		i = j;
	}
	out = sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	free(h);
	return out;
}

char *sl_hostlist_compress(char *const *names, size_t n)
{
	return compress(names, n, 1);
}

char *sl_hostlist_compress_ordered(char *const *names, size_t n)
{
	return compress(names, n, 0);
}

void sl_hostlist_first(const char *list, char *buf, size_t len)
{
	const char *nl = list ? list : "";
	size_t k = strcspn(nl, "[,");

	if (nl[k] == '[')
		snprintf(buf, len, "%.*s%.*s", (int)k, nl, (int)strcspn(nl + k + 1, "-,]"),
			 nl + k + 1);
	else
		snprintf(buf, len, "%.*s", (int)k, nl);
}

/* One line's names (its comment cut) appended to *v. */
static int hostfile_line(char *line, const char *path, int num, struct names *a,
			 struct sl_err *err)
{
	int rc = 0;
	char *save = NULL;

	for (char *p = line; *p; p++) {
		if (*p != '#')
			continue;
		if (p > line && p[-1] == '\\') { /* an escaped '#' stays */
			memmove(p - 1, p, strlen(p) + 1);
			continue;
		}
		*p = '\0';
		break;
	}
	if (*line == '\0')
		return 0;
	if (!isalnum((unsigned char)*line))
		return sl_err_set(err, SL_EINVAL, "Invalid hostfile %s contents on line %d", path, num);
	for (char *name = strtok_r(line, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		char *star = strchr(name, '*');
		long times = star ? strtol(star + 1, NULL, 10) : 0;
		name[strcspn(name, " \t\r")] = '\0';
		if (star != NULL && times > 0)
			*star = '\0';
		else
			times = 1;
		if (a->n + (size_t)times > SL_HOSTLIST_MAX)
			return sl_err_set(err, SL_ETOOBIG, "Hostlist is too long for the allocate RPC!");
		for (long i = 0; i < times && *name && rc == 0; i++)
			rc = names_add(a, sl_xstrdup(name), err);
	}
	return rc;
}

int sl_hostfile_read(const char *path, char **out, struct sl_err *err)
{
	FILE *f = fopen(path, "r");
	struct names a = {NULL, 0, 0};
	char *line = NULL;
	size_t len = 0;
	int num = 0, r = 0;

	*out = NULL;
	if (f == NULL)
		return sl_err_set(err, SL_EINVAL, "slurm_allocate_resources error opening file %s, %s",
				  path, strerror(errno));
	while (r == 0 && getline(&line, &len, f) != -1) {
		line[strcspn(line, "\n")] = '\0';
		r = hostfile_line(line, path, ++num, &a, err);
	}
	fclose(f);
	free(line);
	if (r == 0 && a.n == 0)
		r = sl_err_set(err, SL_EINVAL, "Hostlist is empty!");
	if (r == 0)
		*out = sl_hostlist_compress(a.v, a.n);
	sl_strv_free(a.v);
	return r;
}
