/* sacct_fmt.c - sacct's -o list and its rows: the list read as Slurm
 * reads it (prefixes, ALL, the removed GRES names), the header, a job's row,
 * its batch step's and its srun steps', each cell printed as print_fields.c
 * prints its kind. The fields themselves are in sacct_fields.c. */
#include "sacct_fmt.h"
#include "sacct_fmt_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "slurm_fmt.h"
#include "xalloc.h"

#define VAL_MAX 8192
#define LIST_MAX 65536

struct sl_sacct_fmt {
	struct sl_fmt *fmt;
	char *delim; /* --delimiter; NULL: '|' */
	int unit;
	const struct sl_step *steps; /* borrowed (sl_sacct_fmt_set_steps) */
	size_t nsteps;
	char *cluster;
	sl_sacct_step_filter filter;
	const void *filter_arg;
};


int sl_sacct_fields_help(struct sl_buf *b)
{
	const char *names[SL_SACCT_NFIELDS];

	/* options.c's _help_fields_msg() */
	for (size_t i = 0; i < SL_SACCT_NFIELDS; i++)
		names[i] = sl_sacct_table[i].name;
	return sl_fmt_names_help(b, names, SL_SACCT_NFIELDS);
}

/* The list as Slurm reads it: blanks before a name skipped; a name that
 * is a prefix of "ALL" is every field (with its %N); AllocGRES and ReqGRES
 * are gone. The rest is sl_fmt_parse_list()'s. */
static int expand(const char *fields, struct sl_buf *out, struct sl_err *err)
{
	char *copy = sl_xstrdup(fields), *save = NULL, *tok;
	int r = 0;

	for (tok = strtok_r(copy, ",", &save); r == 0 && tok; tok = strtok_r(NULL, ",", &save)) {
		const char *pct;
		size_t nlen;
		while (isspace((unsigned char)*tok))
			tok++;
		pct = strchr(tok, '%');
		nlen = pct ? (size_t)(pct - tok) : strlen(tok);
		if (nlen == 0 && pct == NULL)
			continue;
		if (strcasecmp(tok, "AllocGRES") == 0 || strcasecmp(tok, "ReqGRES") == 0) {
			r = sl_err_set(err, SL_EINVAL, "%s has been removed, please use %sTRES", tok,
				       tok[0] == 'A' || tok[0] == 'a' ? "Alloc" : "Req");
			break;
		}
		if (nlen > 0 && nlen <= 3 && strncasecmp("ALL", tok, nlen) == 0) {
			for (size_t i = 0; r == 0 && i < SL_SACCT_NFIELDS; i++)
				r = sl_buf_addf(out, "%s%s,", sl_sacct_table[i].name, pct ? pct : "");
		} else {
			r = sl_buf_addf(out, "%s,", tok);
		}
	}
	free(copy);
	if (r == -SL_ETOOBIG)
		sl_err_set(err, SL_ETOOBIG, "--format is too long");
	return r;
}

int sl_sacct_fmt_new(const char *fields, struct sl_sacct_fmt **out, struct sl_err *err)
{
	const char *names[SL_SACCT_NFIELDS];
	int widths[SL_SACCT_NFIELDS];
	struct sl_sacct_fmt *f = sl_xcalloc(1, sizeof(*f));
	struct sl_buf *list = sl_buf_new(LIST_MAX);
	int r;

	for (size_t i = 0; i < SL_SACCT_NFIELDS; i++) {
		names[i] = sl_sacct_table[i].name;
		widths[i] = sl_sacct_table[i].width;
	}
	*out = NULL;
	if ((r = expand(fields, list, err)) == 0)
		r = sl_fmt_parse_list(sl_buf_str(list), names, widths, SL_SACCT_NFIELDS, &f->fmt, err);
	if (r == 0 && sl_fmt_count(f->fmt) == 0)
		r = sl_err_set(err, SL_EINVAL, "Invalid field requested: \"\"");
	sl_buf_free(list);
	if (r != 0) {
		sl_sacct_fmt_free(f);
		return r;
	}
	*out = f;
	return 0;
}

void sl_sacct_fmt_set_delimiter(struct sl_sacct_fmt *f, const char *delim)
{
	free(f->delim);
	f->delim = delim ? sl_xstrdup(delim) : NULL;
}

void sl_sacct_fmt_set_units(struct sl_sacct_fmt *f, int unit)
{
	f->unit = unit;
}

void sl_sacct_fmt_free(struct sl_sacct_fmt *f)
{
	if (f == NULL)
		return;
	sl_fmt_free(f->fmt);
	free(f->delim);
	free(f->cluster);
	free(f);
}

/* A table cell of a number or duration: padded, never cut. */
static int cell_num(struct sl_buf *b, const char *val, int len)
{
	int w = len < 0 ? -len : len;
	return sl_buf_addf(b, len < 0 ? "%-*s " : "%*s ", w, val);
}

/* One cell in the chosen mode; `last` drops -P's final separator. Dates
 * are cut to the width in every mode (print_fields_date's buffer). */
static int cell(const struct sl_sacct_fmt *f, struct sl_buf *b, const char *val, int width,
		enum kind kind, enum sl_sacct_mode mode, int last, int header)
{
	size_t w = (size_t)(width < 0 ? -width : width);
	int r;

	if (mode == SL_SACCT_TABLE) {
		if (kind == K_STR || header)
			return sl_fmt_cell_acct(b, val, width, header);
		if (kind == K_NUM)
			return cell_num(b, val, width);
		return sl_buf_addf(b, width < 0 ? "%-*.*s " : "%*.*s ", (int)w, (int)w, val);
	}
	if (kind == K_DATE && !header)
		r = sl_buf_add(b, val, strlen(val) < w ? strlen(val) : w);
	else
		r = sl_buf_addstr(b, val);
	if (r == 0 && !(mode == SL_SACCT_PARSABLE2 && last))
		r = sl_buf_addstr(b, f->delim ? f->delim : "|");
	return r;
}

int sl_sacct_fmt_header(const struct sl_sacct_fmt *f, enum sl_sacct_mode mode,
			struct sl_buf *b)
{
	size_t n = sl_fmt_count(f->fmt);
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		r = cell(f, b, sl_sacct_table[it->index].name, it->width, K_STR, mode, i + 1 == n, 1);
	}
	if (r == 0)
		r = sl_buf_addc(b, '\n');
	if (mode != SL_SACCT_TABLE)
		return r;
	for (size_t i = 0; r == 0 && i < n; i++) {
		int w = sl_fmt_item(f->fmt, i)->width;
		for (int k = 0; r == 0 && k < (w < 0 ? -w : w); k++)
			r = sl_buf_addc(b, '-');
		if (r == 0)
			r = sl_buf_addc(b, ' ');
	}
	return r ? r : sl_buf_addc(b, '\n');
}

static int one_row(const struct sl_sacct_fmt *f, const struct sl_job *j, enum row row,
		   enum sl_sacct_mode mode, int64_t now, struct sl_buf *b, const struct sl_step *st,
		   const char *derived, const struct sl_usage *use)
{
	char val[VAL_MAX];
	size_t n = sl_fmt_count(f->fmt);
	struct pctx c = {now, f->unit, st, derived, f->cluster, use, {0}};
	int r = 0;

	if (use != NULL)
		sl_usage_per_task(use, &c.tasks);

	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct sl_fmt_item *it = sl_fmt_item(f->fmt, i);
		const struct field_row *fr = &sl_sacct_table[it->index];
		fr->print(j, row, &c, val, sizeof(val));
		r = cell(f, b, val, it->width, fr->kind, mode, i + 1 == n, 0);
	}
	return r ? r : sl_buf_addc(b, '\n');
}

void sl_sacct_fmt_set_filter(struct sl_sacct_fmt *f, sl_sacct_step_filter fn, const void *arg)
{
	f->filter = fn;
	f->filter_arg = arg;
}

int sl_sacct_step_of_run(const struct sl_job *j, const struct sl_step *st)
{
	if (st->job_id != j->id)
		return 0;
	if (j->runs == NULL && j->state != SL_JOB_REQUEUED) /* never requeued: all its steps */
		return 1;
	return j->start_time != 0 && st->start_time >= j->start_time &&
	       (j->end_time == 0 || st->start_time <= j->end_time);
}

int sl_sacct_derived_status(const struct sl_step *steps, size_t n, const struct sl_job *j)
{
	int best = 0;
	for (size_t i = 0; i < n; i++) {
		int st = (steps[i].exit_code << 8) | (steps[i].exit_signal & 0x7f);
		/* a step killed by a cancel (the job's or its own: SIGTERM or
		 * SIGKILL) never told slurmctld its end: no part of the job's
		 * derived exit code; one that died of another signal did */
		int by_cancel = steps[i].state == SL_JOB_CANCELLED &&
				(steps[i].exit_signal == 0 || steps[i].exit_signal == SIGTERM ||
				 steps[i].exit_signal == SIGKILL);
		if (sl_sacct_step_of_run(j, &steps[i]) && !by_cancel && st > best)
			best = st;
	}
	return best;
}

void sl_sacct_fmt_set_cluster(struct sl_sacct_fmt *f, const char *name)
{
	free(f->cluster);
	f->cluster = name ? sl_xstrdup(name) : NULL;
}

void sl_sacct_fmt_set_steps(struct sl_sacct_fmt *f, const struct sl_step *steps, size_t n)
{
	f->steps = steps;
	f->nsteps = n;
}

/* An srun step's row: the job's, with the step's times and end. */
static int step_row(const struct sl_sacct_fmt *f, const struct sl_job *j, const struct sl_step *st,
		    enum sl_sacct_mode mode, int64_t now, struct sl_buf *b)
{
	struct sl_job tmp = *j; /* shallow: only read, never freed */
	tmp.start_time = st->start_time;
	tmp.end_time = st->end_time;
	tmp.state = st->state;
	tmp.exit_code = st->exit_code;
	tmp.exit_signal = st->exit_signal;
	return one_row(f, &tmp, ROW_BATCH, mode, now, b, st, NULL, &st->use);
}

int sl_sacct_fmt_uses(const struct sl_sacct_fmt *f, const char *field)
{
	for (size_t i = 0; i < sl_fmt_count(f->fmt); i++)
		if (strcasecmp(sl_sacct_table[sl_fmt_item(f->fmt, i)->index].name, field) == 0)
			return 1;
	return 0;
}

int sl_sacct_fmt_job_uses_steps(const struct sl_sacct_fmt *f)
{
	static const char *const fields[] = {"DerivedExitCode", "TotalCPU", "UserCPU",
					     "SystemCPU"};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (sl_sacct_fmt_uses(f, fields[i]))
			return 1;
	return 0;
}

int sl_sacct_fmt_job(const struct sl_sacct_fmt *f, const struct sl_job *j,
		     enum sl_sacct_mode mode, unsigned rows, int64_t now, struct sl_buf *b)
{
	int steps = (rows & SL_SACCT_ROWS_STEPS) != 0, best;
	struct sl_usage job_use, batch_use;
	char derived[32];
	size_t lo = 0, hi = f->nsteps, k = 0;
	while (lo < hi) { /* the job's first step: they are in job order */
		size_t mid = lo + (hi - lo) / 2;
		if (f->steps[mid].job_id < j->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + k < f->nsteps && f->steps[lo + k].job_id == j->id)
		k++;
	best = sl_sacct_derived_status(k > 0 ? f->steps + lo : NULL, k, j);
	snprintf(derived, sizeof(derived), "%d:%d", best >> 8, best & 0x7f);
	sl_sacct_usage_split(j, k > 0 ? f->steps + lo : NULL, k, &job_use, &batch_use);
	int r = rows & SL_SACCT_ROWS_NO_JOB
			? 0 : one_row(f, j, ROW_JOB, mode, now, b, NULL, derived, &job_use);
	if (r == 0 && steps && !(rows & SL_SACCT_ROWS_NO_BATCH) && sl_sacct_has_batch_step(j))
		r = one_row(f, j, ROW_BATCH, mode, now, b, NULL, NULL, &batch_use);
	for (size_t i = lo; r == 0 && steps && i < lo + k; i++)
		if (sl_sacct_step_of_run(j, &f->steps[i]) &&
		    (f->filter == NULL || f->filter(f->filter_arg, j, (int)f->steps[i].step_id)))
			r = step_row(f, j, &f->steps[i], mode, now, b);
	return r;
}
