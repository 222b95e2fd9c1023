/* sprio_fmt.c - sprio's columns and sort keys (sprio_fmt.h), as Slurm
 * 22.05's src/sprio/print.c lays them out: every column is cut to its
 * width; '.' right-justifies; weighted values print as integers, normalized
 * ones as %.7f; PRIORITY normalized is priority / 0xffffffff. */
#include "sprio_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum what { W_STR, W_INT, W_NORM, W_PRIO_NORM, W_NONE };

struct col {
	char code;
	const char *header;
	int weight; /* -1: the Weights line leaves it blank */
};

/* Every code sprio knows. Factors Sluice does not have are 0 (prio.h). */
static const struct col cols[] = {
	{'a', "AGE", 0}, {'A', "AGE", 0}, {'b', "ASSOC", 0}, {'B', "ASSOC", 0},
	{'c', "CLUSTER", -1}, {'f', "FAIRSHARE", 0}, {'F', "FAIRSHARE", 0},
	{'i', "JOBID", -1}, {'j', "JOBSIZE", 0}, {'J', "JOBSIZE", 0},
	{'N', "NICE", -1}, {'p', "PARTITION", 0}, {'P', "PARTITION", 0},
	{'r', "PARTITION", -1}, {'S', "SITE", 1}, {'q', "QOS", SL_SPRIO_WEIGHT_QOS},
	{'Q', "QOS", SL_SPRIO_WEIGHT_QOS}, {'u', "USER", -1}, {'y', "PRIORITY", -1},
	{'Y', "PRIORITY", -1}, {'t', "TRES", -1}, {'T', "TRES", -1}, {0, NULL, 0},
};

struct item {
	const struct col *col; /* NULL: only the text (a prefix) */
	int width, right;
	char *text;            /* what follows the column */
};

struct sl_sprio_fmt {
	struct item *v;
	size_t n;
};

char *sl_sprio_default_format(int normalized, int long_list, int users)
{
	if (long_list)
		return sl_xstrdup(normalized ? "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t"
					     : "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J "
					       "%.10P %.10Q %.11N %.20T");
	/* Only the QOS has a weight besides the site's. */
	if (normalized)
		return sl_xstrdup(users ? "%.15i %9r %.8u %10y %10q" : "%.15i %9r %10y %10q");
	return sl_xstrdup(users ? "%.15i %9r %.8u %.10Y %.10S %.10Q" : "%.15i %9r %.10Y %.10S %.10Q");
}

static const struct col *find(char c)
{
	for (const struct col *k = cols; k->code; k++)
		if (k->code == c)
			return k;
	return NULL;
}

static void add(struct sl_sprio_fmt *f, const struct col *c, int width, int right, const char *t)
{
	f->v = sl_xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	f->v[f->n++] = (struct item){c, width, right, sl_xstrdup(t)};
}

struct sl_sprio_fmt *sl_sprio_fmt_new(const char *fmt, void (*bad)(char code))
{
	struct sl_sprio_fmt *f = sl_xcalloc(1, sizeof(*f));
	char *copy = sl_xstrdup(fmt), *save = NULL, *tok;
	const char *pct = strchr(fmt, '%');

	if (pct != fmt) { /* Slurm prints what comes before the first '%' */
		size_t len = pct ? (size_t)(pct - fmt) : strlen(fmt);
		char *pre = sl_xstrndup(fmt, len);
		add(f, NULL, 0, 0, pre);
		free(pre);
	}
	tok = strtok_r(copy, "%", &save);
	if (tok && fmt[0] != '%')
		tok = strtok_r(NULL, "%", &save);
	for (; tok; tok = strtok_r(NULL, "%", &save)) {
		int right = 0, width = 0, i = 0;
		if (tok[i] == '.')
			right = 1, i++;
		while (tok[i] >= '0' && tok[i] <= '9')
			width = width * 10 + (tok[i++] - '0');
		const struct col *c = find(tok[i]);
		if (c == NULL) {
			if (bad)
				bad(tok[i]);
			continue;
		}
		add(f, c, width, right, tok + i + 1);
	}
	free(copy);
	return f;
}

void sl_sprio_fmt_free(struct sl_sprio_fmt *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].text);
	free(f->v);
	free(f);
}

/* print.c's _print_str() with cut_output: cut to the width, then pad. */
static void put(struct sl_buf *b, const struct item *it, const char *s)
{
	int w = it->width;
	size_t len = strlen(s);

	if (w == 0) {
		sl_buf_addstr(b, s);
	} else if (it->right) {
		if ((int)len >= w)
			sl_buf_add(b, s, (size_t)w);
		else
			sl_buf_addf(b, "%*s", w, s);
	} else {
		sl_buf_addf(b, "%-*.*s", w, w, s);
	}
}

static void put_int(struct sl_buf *b, const struct item *it, long long v)
{
	char s[32];
	snprintf(s, sizeof(s), "%lld", v);
	put(b, it, s);
}

static void put_norm(struct sl_buf *b, const struct item *it, double v)
{
	char s[64];
	snprintf(s, sizeof(s), "%.7f", v);
	put(b, it, s);
}

void sl_sprio_fmt_header(const struct sl_sprio_fmt *f, struct sl_buf *b)
{
	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].col)
			put(b, &f->v[i], f->v[i].col->header);
		sl_buf_addstr(b, f->v[i].text);
	}
	sl_buf_addc(b, '\n');
}

void sl_sprio_fmt_weights(const struct sl_sprio_fmt *f, struct sl_buf *b)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct item *it = &f->v[i];
		if (it->col && it->col->code == 'i')
			put(b, it, "Weights");
		else if (it->col && it->col->weight >= 0)
			put_int(b, it, it->col->weight);
		else if (it->col && it->col->code != 'c')
			put(b, it, "");
		sl_buf_addstr(b, it->text);
	}
	sl_buf_addc(b, '\n');
}

/* One factor, weighted (upper case) or normalized (lower case). */
static void factor(struct sl_buf *b, const struct item *it, int64_t weighted, int weight)
{
	char c = it->col->code;
	if (c >= 'A' && c <= 'Z')
		put_int(b, it, (long long)weighted);
	else
		put_norm(b, it, weight ? (double)weighted / weight : 0.0);
}

static void cell(struct sl_buf *b, const struct item *it, const struct sl_sprio_row *r)
{
	char s[64];

	switch (it->col->code) {
	case 'i': snprintf(s, sizeof(s), "%llu", (unsigned long long)r->id); put(b, it, s); break;
	case 'r': put(b, it, r->partition ? r->partition : ""); break;
	case 'u': put(b, it, r->user ? r->user : ""); break;
	case 'c': put(b, it, ""); break;
	case 'Y': put_int(b, it, (long long)r->p.priority); break;
	case 'y':
		snprintf(s, sizeof(s), "%16.14f", (double)r->p.priority / (double)0xffffffffu);
		put(b, it, s);
		break;
	case 'S': put_int(b, it, (long long)r->p.site); break;
	case 'N': put_int(b, it, (long long)r->p.nice); break;
	case 'q': case 'Q': factor(b, it, r->p.qos, SL_SPRIO_WEIGHT_QOS); break;
	case 't': case 'T': put(b, it, ""); break;
	default: factor(b, it, 0, 0); break; /* age, assoc, fairshare, jobsize, partition */
	}
}

void sl_sprio_fmt_row(const struct sl_sprio_fmt *f, const struct sl_sprio_row *r,
		      struct sl_buf *b)
{
	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].col)
			cell(b, &f->v[i], r);
		sl_buf_addstr(b, f->v[i].text);
	}
	sl_buf_addc(b, '\n');
}

/* sort.c's keys; factors that are 0 for every job keep the order. */
static int cmp_key(char k, const struct sl_sprio_row *a, const struct sl_sprio_row *b)
{
	const char *x = NULL, *y = NULL;
	int64_t u = 0, v = 0;

	switch (k) {
	case 'i': u = (int64_t)a->id, v = (int64_t)b->id; break;
	case 'N': u = a->p.nice, v = b->p.nice; break;
	case 'r': x = a->partition, y = b->partition; break;
	case 'u': x = a->user, y = b->user; break;
	case 'q': case 'Q': u = a->p.qos, v = b->p.qos; break;
	case 'y': case 'Y': u = a->p.priority, v = b->p.priority; break;
	default: return 0; /* c, a/A, f/F, j/J, p/P, t/T */
	}
	if (x || y)
		return strcmp(x ? x : "", y ? y : "");
	return (u > v) - (u < v);
}

static int known_key(char k)
{
	return strchr("ciNruAaFfJjPpQqTtYy", k) != NULL;
}

/* Stable (equal keys keep their order, as in Slurm's list_sort). */
static void msort(struct sl_sprio_row *v, struct sl_sprio_row *tmp, size_t n, char k, int desc)
{
	size_t h = n / 2, a = 0, b = h, o = 0;

	if (n < 2)
		return;
	msort(v, tmp, h, k, desc);
	msort(v + h, tmp, n - h, k, desc);
	while (a < h && b < n) {
		int c = cmp_key(k, &v[b], &v[a]);
		tmp[o++] = (desc ? c > 0 : c < 0) ? v[b++] : v[a++];
	}
	while (a < h)
		tmp[o++] = v[a++];
	while (b < n)
		tmp[o++] = v[b++];
	memcpy(v, tmp, n * sizeof(*v));
}

int sl_sprio_sort(struct sl_sprio_row *v, size_t n, const char *spec, struct sl_err *err)
{
	const char *s = spec ? spec : "i";
	struct sl_sprio_row *tmp = sl_xcalloc(n ? n : 1, sizeof(*tmp));

	for (size_t i = strlen(s); i-- > 0;) {
		char k = s[i];
		if (k == ',' || k == '-' || k == '+')
			continue;
		if (!known_key(k)) {
			free(tmp);
			return sl_err_set(err, SL_EINVAL, "Invalid sort specification: %c", k);
		}
		msort(v, tmp, n, k, i > 0 && s[i - 1] == '-');
	}
	free(tmp);
	return 0;
}
