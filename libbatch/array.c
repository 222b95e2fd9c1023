/* array.c - job arrays' index sets: a --array spec into its task ids, and
 * a set of ids back into Slurm's text. The parse follows slurmctld's token
 * by token (strtol, its stray-bracket stripping and its checks), so that
 * what Slurm refuses is refused here with the same words. */
#include "array.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sl_array {
	uint32_t *v;
	size_t n;
	uint32_t throttle;
};

#define INVALID "Invalid job array specification"

/* The ids one token names: first, first + step, ... up to last, which is
 * the last of them (not the bound written). */
struct span {
	uint32_t first, last, step;
};

/* One token ("A", "A-B", "A-B:S", a trailing "%N" allowed) into *sp;
 * 0 when Slurm would refuse it. Missing numbers read as 0, as strtol
 * leaves them in slurmctld: "0-" is task 0, "1-" is refused. */
static int parse_tok(const char *tok, uint32_t max, struct span *sp)
{
	char *end;
	long first, last, step = 1;

	if (tok[0] == '[')
		tok++;
	first = strtol(tok, &end, 10);
	if (*end == ']')
		end++;
	if (first < 0)
		return 0;
	if (*end == '-') {
		last = strtol(end + 1, &end, 10);
		if (*end == ']')
			end++;
		if (*end == ':') {
			step = strtol(end + 1, &end, 10);
			if (*end == ']')
				end++;
			if (step <= 0 || (unsigned long)step >= max)
				return 0;
		}
		if (*end != '\0' && *end != '%')
			return 0;
		if (last < first)
			return 0;
	} else if (*end != '\0' && *end != '%') {
		return 0;
	} else {
		last = first;
	}
	if ((unsigned long)last >= max)
		return 0;
	*sp = (struct span){(uint32_t)first, (uint32_t)(first + (last - first) / step * step),
			    (uint32_t)step};
	return 1;
}

static size_t span_count(const struct span *sp)
{
	return (sp->last - sp->first) / sp->step + 1;
}

/* Spans in ascending order that do not overlap ("7", "1-3,5": most of what
 * is written) are their ids as they come, at the cost of the ids' count.
 * Others are sorted and made distinct through a bitmap only as large as
 * their largest id: one as large as the limit (500 kB) was zeroed and
 * scanned for every "N_I" word scancel, squeue or sacct read, 15 us a word
 * and most of a 20 000-id scancel's time. */
static void spans_to_ids(const struct span *sp, size_t nsp, int sorted, uint32_t hi,
			 struct sl_array *a)
{
	uint8_t *bits;
	size_t n = 0;

	if (sorted) {
		for (size_t k = 0; k < nsp; k++)
			n += span_count(&sp[k]);
		a->v = sl_xcalloc(n, sizeof(*a->v));
		for (size_t k = 0; k < nsp; k++)
			for (uint64_t i = sp[k].first; i <= sp[k].last; i += sp[k].step)
				a->v[a->n++] = (uint32_t)i;
		return;
	}
	bits = sl_xcalloc((size_t)hi / 8 + 1, 1);
	for (size_t k = 0; k < nsp; k++)
		for (uint64_t i = sp[k].first; i <= sp[k].last; i += sp[k].step)
			bits[i >> 3] |= (uint8_t)(1u << (i & 7));
	for (uint64_t i = 0; i <= hi; i++)
		n += (bits[i >> 3] >> (i & 7)) & 1u;
	a->v = sl_xcalloc(n, sizeof(*a->v));
	for (uint64_t i = 0; i <= hi; i++)
		if (bits[i >> 3] & (1u << (i & 7)))
			a->v[a->n++] = (uint32_t)i;
	free(bits);
}

int sl_array_parse(const char *spec, uint32_t max_size, struct sl_array **out,
		   struct sl_err *err)
{
	struct span *sp = NULL;
	char *tmp = NULL, *tok, *save = NULL;
	struct sl_array *a = NULL;
	const char *pct;
	size_t nsp = 0, cap = 0;
	uint32_t hi = 0;
	int r = -SL_EINVAL, sorted = 1;

	*out = NULL;
	if (spec == NULL || spec[0] == '\0' || max_size == 0)
		goto bad;
	tmp = sl_xstrdup(spec);
	for (tok = strtok_r(tmp, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		sp = sl_xgrow(sp, &cap, nsp + 1, sizeof(*sp));
		if (!parse_tok(tok, max_size, &sp[nsp]))
			goto bad;
		if (nsp > 0 && sp[nsp].first <= sp[nsp - 1].last)
			sorted = 0;
		if (sp[nsp].last > hi)
			hi = sp[nsp].last;
		nsp++;
	}
	if (nsp == 0)
		goto bad;
	a = sl_xcalloc(1, sizeof(*a));
	spans_to_ids(sp, nsp, sorted, hi, a);
	/* slurmctld: atoi after the first '%'; 0 or less is no throttle */
	if ((pct = strchr(spec, '%')) != NULL && atoi(pct + 1) > 0)
		a->throttle = (uint32_t)atoi(pct + 1);
	*out = a;
	a = NULL;
	r = 0;
	goto out;
bad:
	r = sl_err_set(err, SL_EINVAL, INVALID);
out:
	sl_array_free(a);
	free(sp);
	free(tmp);
	return r;
}

void sl_array_free(struct sl_array *a)
{
	if (a == NULL)
		return;
	free(a->v);
	free(a);
}

size_t sl_array_count(const struct sl_array *a)
{
	return a->n;
}

uint32_t sl_array_task(const struct sl_array *a, size_t i)
{
	return a->v[i];
}

uint32_t sl_array_throttle(const struct sl_array *a)
{
	return a->throttle;
}

long sl_array_last(const char *spec)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *a = NULL;
	long last;

	if (spec == NULL || sl_array_parse(spec, SL_ARRAY_MAX_LIMIT, &a, &e) != 0)
		return -1;
	last = (long)a->v[a->n - 1];
	sl_array_free(a);
	return last;
}

int sl_array_meta_bitmap(const char *spec, long task, size_t nmeta)
{
	return nmeta >= 2 || (nmeta == 1 && !sl_array_lone_task(spec, task));
}

int sl_array_lone_task(const char *spec, long task)
{
	struct sl_err e = SL_ERR_INIT;
	struct sl_array *a = NULL;
	int own;

	if (spec == NULL || sl_array_parse(spec, SL_ARRAY_MAX_LIMIT, &a, &e) != 0)
		return 1;
	own = a->n > 1 || task != (long)a->v[a->n - 1];
	sl_array_free(a);
	return own;
}

int sl_array_step(const char *spec)
{
	const char *c = spec != NULL ? strchr(spec, ':') : NULL;
	return c != NULL ? atoi(c + 1) : 1;
}

int sl_array_has(const struct sl_array *a, uint32_t id)
{
	size_t i = sl_array_index(a, id);
	return i < a->n && a->v[i] == id;
}

/* An even step over the set, as xlate_array_task_str looks for one: more
 * than 5 ids over more than 10, the second not next to the first. */
static uint32_t even_step(const uint32_t *v, size_t n)
{
	uint32_t step;

	if (n <= 5 || v[n - 1] - v[0] <= 10 || v[1] == v[0] + 1)
		return 0;
	step = v[1] - v[0];
	for (size_t i = 2; i < n; i++)
		if (v[i] - v[i - 1] != step)
			return 0;
	return step;
}

/* Slurm writes the ranges into a 64-byte buffer (bit_fmt, snprintf cut)
 * and marks a cut with "..." over the last three characters. */
#define FMT_BUF 64

/* The ranges of v, whole. */
static char *ranges(const uint32_t *v, size_t n)
{
	size_t len = 0, cap = 64;
	char *s = sl_xmalloc(cap);

	s[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k + 1 < n && v[k + 1] == v[k] + 1)
			k++;
		s = sl_xgrow(s, &cap, len + 32, 1);
		len += (size_t)(k == i ? sprintf(s + len, "%s%u", i ? "," : "", v[i])
				       : sprintf(s + len, "%s%u-%u", i ? "," : "", v[i], v[k]));
		i = k + 1;
	}
	return s;
}

static char *fmt(const uint32_t *v, size_t n, uint32_t throttle, int cut, int stepped)
{
	char *text, *out;
	uint32_t step;

	if (stepped && n > 0 && (step = even_step(v, n)) != 0) {
		text = sl_xasprintf("%u-%u:%u", v[0], v[n - 1], step);
	} else {
		text = ranges(v, n);
		if (cut && strlen(text) > FMT_BUF - 3) {
			text[FMT_BUF - 1] = '\0';
			memcpy(text + FMT_BUF - 4, "...", 3);
		}
	}
	if (throttle == 0)
		return text;
	out = sl_xasprintf("%s%%%u", text, throttle);
	free(text);
	return out;
}

char *sl_array_fmt(const uint32_t *v, size_t n, uint32_t throttle)
{
	return fmt(v, n, throttle, 1, 1);
}

char *sl_array_fmt_full(const uint32_t *v, size_t n, uint32_t throttle)
{
	return fmt(v, n, throttle, 0, 1);
}

char *sl_array_fmt_ranges(const uint32_t *v, size_t n)
{
	return fmt(v, n, 0, 1, 0);
}

size_t sl_array_index(const struct sl_array *a, uint32_t id)
{
	size_t lo = 0, hi = a->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->v[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int sl_array_jobid_parse(const char *s, uint64_t *job, struct sl_array **tasks,
			 struct sl_err *err)
{
	unsigned long long v;
	char *end;

	*tasks = NULL;
	*job = 0;
	if (s == NULL || *s < '0' || *s > '9')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || v == 0)
		goto bad;
	*job = (uint64_t)v;
	if (*end == '\0' || strcmp(end, "_*") == 0)
		return 0;
	if (*end != '_' || end[1] == '\0' || strchr(end + 1, '%') != NULL)
		goto bad;
	if (end[1] == '[' && end[strlen(end) - 1] != ']')
		goto bad;
	return sl_array_parse(end + 1, SL_ARRAY_MAX_LIMIT, tasks, err);
bad:
	return sl_err_set(err, SL_EINVAL, "Invalid job id: %s", s != NULL ? s : "");
}
