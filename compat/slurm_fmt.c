/* slurm_fmt.c - parse Slurm format strings and print padded/truncated cells.
 *
 * The rules are Slurm's, byte for byte: squeue's _print_str() (right via
 * "%*s" then cut, left via "%.*s" then pad) and sacct's print_fields_str()
 * (cut to |len|-1 plus '+'). Scripts parse these columns, so a one-space
 * difference is a bug. */
#include "slurm_fmt.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define FMT_MAX_WIDTH 4096

struct sl_fmt {
	struct sl_fmt_item *items;
	size_t n, cap;
	char *prefix;
};

static struct sl_fmt *fmt_new(void)
{
	struct sl_fmt *f = sl_xcalloc(1, sizeof(*f));
	f->prefix = sl_xstrdup("");
	return f;
}

void sl_fmt_free(struct sl_fmt *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->items[i].suffix);
		free(f->items[i].name);
	}
	free(f->items);
	free(f->prefix);
	free(f);
}

size_t sl_fmt_count(const struct sl_fmt *f)
{
	return f ? f->n : 0;
}

const struct sl_fmt_item *sl_fmt_item(const struct sl_fmt *f, size_t i)
{
	return i < f->n ? &f->items[i] : NULL;
}

const char *sl_fmt_prefix(const struct sl_fmt *f)
{
	return f->prefix;
}

static struct sl_fmt_item *fmt_add(struct sl_fmt *f)
{
	struct sl_fmt_item *it;
	f->items = sl_xgrow(f->items, &f->cap, f->n + 1, sizeof(*f->items));
	it = &f->items[f->n++];
	memset(it, 0, sizeof(*it));
	it->index = -1;
	it->suffix = sl_xstrdup("");
	return it;
}

/* Parse "[.|-]digits" at *p; leaves *p on the letter. */
static int parse_width(const char **pp, struct sl_fmt_item *it, struct sl_err *err)
{
	const char *p = *pp;
	long w = 0;

	if (*p == '.') {
		it->right = 1;
		p++;
	} else if (*p == '-') {
		p++; /* left is the default; accepted for printf habits */
	}
	while (isdigit((unsigned char)*p)) {
		w = w * 10 + (*p - '0');
		if (w > FMT_MAX_WIDTH)
			return sl_err_set(err, SL_EINVAL, "format width over %d", FMT_MAX_WIDTH);
		it->width_set = 1;
		p++;
	}
	it->width = (int)w;
	*pp = p;
	return 0;
}

void sl_fmt_item_to_literal(struct sl_fmt *f, size_t i)
{
	struct sl_fmt_item *it = &f->items[i];
	char w[16] = "";
	char **dst = i == 0 ? &f->prefix : &f->items[i - 1].suffix;

	if (it->width_set)
		snprintf(w, sizeof(w), "%d", it->width);
	char *t = sl_xasprintf("%s%%%s%s%.1s%s", *dst ? *dst : "", it->right ? "." : "", w,
			       &it->code, it->suffix ? it->suffix : "");
	free(*dst);
	*dst = t;
	free(it->suffix);
	free(it->name);
	memmove(it, it + 1, (f->n - i - 1) * sizeof(*it));
	f->n--;
}

int sl_fmt_parse_percent(const char *fmt, struct sl_fmt **out, struct sl_err *err)
{
	struct sl_fmt *f = fmt_new();
	const char *p = fmt, *lit;
	char **dst = &f->prefix;
	int r = -SL_EINVAL;

	*out = NULL;
	while (*p) {
		lit = strchr(p, '%');
		if (lit == NULL)
			lit = p + strlen(p);
		if (lit > p) { /* literal run: suffix of the previous field */
			size_t old = strlen(*dst), add = (size_t)(lit - p);
			*dst = sl_xrealloc(*dst, old + add + 1);
			memcpy(*dst + old, p, add);
			(*dst)[old + add] = '\0';
		}
		if (*lit == '\0')
			break;
		p = lit + 1;
		if (*p == '%') /* Slurm's strtok on '%': "%%j" is "%j" */
			p++;
		if (*p == '\0') /* a '%' at the end is nothing */
			break;
		struct sl_fmt_item *it = fmt_add(f);
		if ((r = parse_width(&p, it, err)) != 0)
			goto out;
		it->code = *p; /* '\0' after a width: no letter, the caller's to judge */
		if (*p != '\0')
			p++;
		dst = &it->suffix;
	}
	*out = f;
	f = NULL;
	r = 0;
out:
	sl_fmt_free(f);
	return r;
}

/* One "name[:[.]width[suffix]]" token of -O. */
static int parse_colon_token(struct sl_fmt *f, char *tok, struct sl_err *err)
{
	struct sl_fmt_item *it = fmt_add(f);
	char *colon = strchr(tok, ':'), *p, *end;
	long w;

	it->width = 20;
	if (colon != NULL) {
		*colon = '\0';
		p = colon + 1;
		if (*p == '.') {
			it->right = 1;
			p++;
		}
		w = strtol(p, &end, 10);
		if (w > FMT_MAX_WIDTH || w < -FMT_MAX_WIDTH)
			return sl_err_set(err, SL_EINVAL, "format width over %d", FMT_MAX_WIDTH);
		it->width = (int)w;
		it->width_set = end != p;
		free(it->suffix);
		it->suffix = sl_xstrdup(end);
	}
	it->name = sl_xstrdup(tok);
	return 0;
}

int sl_fmt_parse_colon(const char *list, struct sl_fmt **out, struct sl_err *err)
{
	struct sl_fmt *f = fmt_new();
	char *copy = sl_xstrdup(list), *save = NULL, *tok;
	int r = 0;

	*out = NULL;
	for (tok = strtok_r(copy, ",", &save); r == 0 && tok; tok = strtok_r(NULL, ",", &save))
		r = parse_colon_token(f, tok, err);
	free(copy);
	if (r == 0)
		*out = f;
	else
		sl_fmt_free(f);
	return r;
}

static int match_name(const char *name, size_t len, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (len > 0 && strncasecmp(names[i], name, len) == 0)
			return (int)i;
	return -1;
}

/* One "Name[%N]" token. */
static int parse_token(struct sl_fmt *f, const char *tok, const char *const *names,
		       const int *widths, size_t n_names, struct sl_err *err)
{
	const char *pct = strchr(tok, '%');
	size_t len = pct ? (size_t)(pct - tok) : strlen(tok);
	int idx = match_name(tok, len, names, n_names);
	struct sl_fmt_item *it;
	char *end;
	long w;

	if (idx < 0)
		return sl_err_set(err, SL_EINVAL, "Invalid field requested: \"%.*s\"", (int)len, tok);
	it = fmt_add(f);
	it->index = idx;
	it->width = widths[idx];
	if (pct) {
		w = strtol(pct + 1, &end, 10);
		if (end == pct + 1 || *end != '\0' || w > FMT_MAX_WIDTH || w < -FMT_MAX_WIDTH)
			return sl_err_set(err, SL_EINVAL, "Invalid field requested: \"%s\"", tok);
		if (w != 0) { /* sacct keeps the default for %0 */
			it->width = (int)w;
			it->width_set = 1;
		}
	}
	return 0;
}

int sl_fmt_parse_list(const char *list, const char *const *names, const int *widths,
		      size_t n_names, struct sl_fmt **out, struct sl_err *err)
{
	struct sl_fmt *f = fmt_new();
	char *copy = sl_xstrdup(list), *save = NULL, *tok;
	int r = 0;

	*out = NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if ((r = parse_token(f, tok, names, widths, n_names, err)) != 0)
			break;
	}
	free(copy);
	if (r == 0)
		*out = f;
	else
		sl_fmt_free(f);
	return r;
}

/* In runs, not a call per blank: blanks are half of squeue's output. */
static int pad(struct sl_buf *b, size_t n)
{
	static const char blanks[64] = "                                "
				       "                                ";
	int r = 0;
	for (size_t k; n > 0 && r == 0; n -= k)
		r = sl_buf_add(b, blanks, k = n < sizeof(blanks) ? n : sizeof(blanks));
	return r;
}

int sl_fmt_cell(struct sl_buf *b, const char *val, int width, int right, int cut)
{
	size_t len, w = width > 0 ? (size_t)width : 0;
	int r;

	if (val == NULL)
		val = "(null)"; /* what glibc's printf("%s", NULL) gives Slurm */
	/* ... unless its precision (Slurm's "%.*s", the width) is under 6:
	 * then glibc prints nothing at all for NULL */
	if (w > 0 && w < 6 && strcmp(val, "(null)") == 0)
		val = "";
	len = strlen(val);
	if (width < 0)
		return (r = sl_buf_addstr(b, val)) != 0 ? r : sl_buf_addc(b, ' ');
	if (w == 0)
		return sl_buf_addstr(b, val);
	if (right) {
		/* "%*s" never cuts; the snprintf into width+1 keeps the left end */
		if (len < w && (r = pad(b, w - len)) != 0)
			return r;
		return sl_buf_add(b, val, cut && len > w ? w : len);
	}
	/* "%.*s": left-justified values are always cut, `cut` or not */
	if ((r = sl_buf_add(b, val, len > w ? w : len)) != 0)
		return r;
	return len < w ? pad(b, w - len) : 0;
}

int sl_fmt_cell_acct(struct sl_buf *b, const char *val, int len, int header)
{
	size_t w = (size_t)(len < 0 ? -len : len), n;
	int r;

	if (val == NULL)
		val = "";
	n = strlen(val);
	if (n > w) {
		if (header || w == 0) {
			r = sl_buf_add(b, val, w);
		} else {
			r = sl_buf_add(b, val, w - 1);
			if (r == 0)
				r = sl_buf_addc(b, '+');
		}
	} else if (len > 0) {
		r = pad(b, w - n);
		if (r == 0)
			r = sl_buf_add(b, val, n);
	} else {
		r = sl_buf_add(b, val, n);
		if (r == 0)
			r = pad(b, w - n);
	}
	return r ? r : sl_buf_addc(b, ' ');
}

int sl_fmt_names_help(struct sl_buf *b, const char *const *names, size_t n)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		if (i & 3)
			r = sl_buf_addc(b, ' ');
		else if (i)
			r = sl_buf_addc(b, '\n');
		if (r == 0)
			r = sl_buf_addf(b, "%-19s", names[i]);
	}
	return r ? r : sl_buf_addc(b, '\n');
}
