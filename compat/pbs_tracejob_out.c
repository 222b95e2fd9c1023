/* pbs_tracejob_out.c - what tracejob prints of a job's lines, as OpenPBS's
 * src/tools/tracejob.c main() does: the logs of the last -n days (a file
 * per day, local time: a line of another day is not read), of the sources
 * -a -s -l -m leave in; filter_excess() (on unless -z) keeping one of a
 * message written -c times or more; sort_by_date(); then each line not of
 * an event type -f names, "%-20s %-5c" (date, source) and the message up
 * to its first ';' (parse_log()'s strtok()), non-printing characters shown
 * as ^X (show_nonprint_chars()) and wrapped by line_wrap() at the width,
 * the next lines indented 26 columns. Within a second, lines keep the
 * order they were written in (tracejob's qsort() gives none). */
#include "pbs_tracejob.h"
#include "pbs_tracejob_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pbs_out.h"
#include "xalloc.h"

#define SECONDS_IN_DAY 86400 /* tracejob.h */
#define INDENT 26            /* "%-20s %-5c": 20 + 1 + 5 */

struct pick {
	const struct sl_tracejob_line *l;
	size_t order;   /* written */
	size_t msg_len; /* up to its first ';' */
	int no_print;
};

static int ymd(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	localtime_r(&tt, &tm);
	return (tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

/* The days main() reads, today's and the days - 1 before it. */
static int read_day(const struct sl_tracejob_opts *o, int64_t now, int64_t t)
{
	int64_t first = now - (int64_t)(o->days - 1) * SECONDS_IN_DAY;
	int d = ymd(t);

	if (o->days <= 0)
		return 0;
	return d <= ymd(now) && d >= ymd(first > 0 ? first : 0);
}

static int read_source(const struct sl_tracejob_opts *o, char src)
{
	switch (src) {
	case 'A': return !o->no_acct;
	case 'S': return !o->no_svr;
	case 'M': return !o->no_mom;
	case 'L': return !o->no_sched;
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;

	if (x->l->t != y->l->t)
		return x->l->t < y->l->t ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int same_msg(const struct pick *x, const struct pick *y)
{
	return x->msg_len == y->msg_len && memcmp(x->l->msg, y->l->msg, x->msg_len) == 0;
}

/* filter_excess(): of a message read count times or more, one is printed:
 * the latest, as its manual says. v is in time order. */
static void filter_excess(struct pick *v, size_t n, int count)
{
	for (size_t i = 0; i < n; i++) {
		size_t seen = 0, last = i;
		if (v[i].no_print)
			continue;
		for (size_t k = i; k < n; k++)
			if (same_msg(&v[i], &v[k])) {
				seen++;
				last = k;
			}
		if ((int)seen < count)
			continue;
		for (size_t k = i; k < n; k++)
			if (k != last && same_msg(&v[i], &v[k]))
				v[k].no_print = 1;
	}
}

/* line_wrap(): the first piece as it is, the others after start blanks;
 * a piece ends at the last blank within end - start columns, or at the
 * next blank past them when there is none. */
static void line_wrap(struct sl_buf *out, const char *msg, size_t len, int start, int end)
{
	char *line = sl_xstrndup(msg, len), *sp = line, *cur;
	size_t total = len, at = end > start ? (size_t)(end - start) : 0, idx = 0;

	if (end == 0) {
		sl_pbs_out_shown(out, line);
		sl_buf_addc(out, '\n');
		free(line);
		return;
	}
	while (idx < total) {
		if (idx + at < total) {
			cur = sp + at;
			while (cur > sp && *cur != ' ')
				cur--;
			if (cur == sp) {
				cur = sp + at;
				while (*cur != ' ' && *cur != '\0')
					cur++;
			}
			*cur = '\0';
		} else {
			cur = line + total;
		}
		if (sp != line)
			sl_buf_addf(out, "%*s", start, " ");
		sl_pbs_out_shown(out, sp);
		sl_buf_addc(out, '\n');
		sp = cur + 1;
		idx = (size_t)(cur - line);
	}
	free(line);
}

static void print_line(struct sl_buf *out, const struct pick *p, int width)
{
	time_t tt = (time_t)p->l->t;
	struct tm tm;
	char date[32];

	localtime_r(&tt, &tm);
	strftime(date, sizeof(date), "%m/%d/%Y %H:%M:%S", &tm);
	sl_buf_addf(out, "%-20s %-5c", date, p->l->src);
	line_wrap(out, p->l->msg, p->msg_len, INDENT, width);
}

size_t sl_tracejob_print(const struct sl_tracejob *t, const struct sl_tracejob_opts *o, int width,
			 int64_t now, struct sl_buf *out)
{
	struct pick *v = sl_xcalloc(t->n + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct sl_tracejob_line *l = &t->v[i];
		if (!read_source(o, l->src) || !read_day(o, now, l->t))
			continue;
		v[n++] = (struct pick){l, i, strcspn(l->msg, ";"), 0};
	}
	if (n > 0) {
		qsort(v, n, sizeof(*v), by_time);
		if (o->filter_excess)
			filter_excess(v, n, o->excess_count);
		sl_buf_addf(out, "\nJob: %s\n\n", t->id);
		for (size_t i = 0; i < n; i++)
			if ((o->filter & v[i].l->event) == 0 && !v[i].no_print)
				print_line(out, &v[i], width);
	}
	free(v);
	return n;
}

void sl_tracejob_unknown(struct sl_buf *out, const char *operand, const char *server, int days)
{
	if (strchr(operand, '.') == NULL)
		sl_buf_addf(out, "\ntracejob: Couldn't find Job Id %s.%s in logs of past %d day%s\n\n",
			    operand, server, days, days == 1 ? "" : "s");
	else
		sl_buf_addf(out, "\ntracejob: Couldn't find Job Id %s in logs of past %d day%s\n\n",
			    operand, days, days == 1 ? "" : "s");
}
