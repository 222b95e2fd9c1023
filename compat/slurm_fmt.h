/* slurm_fmt.h - the generic half of Slurm's output formats: squeue-style
 * "%.18i %-20j %5D" strings and sacct-style "JobID%20,State" lists parsed
 * into items, and cells padded or truncated exactly as Slurm prints them.
 * Which code or field name prints what lives in the per-command tables
 * (squeue_fmt.c, sacct_fmt.c); this file knows nothing about jobs. */
#ifndef SL_SLURM_FMT_H
#define SL_SLURM_FMT_H

#include <stddef.h>
#include "buf.h"
#include "err.h"

/* One field of a parsed format. */
struct sl_fmt_item {
	char code;      /* squeue: the % letter */
	int index;      /* sacct: row in the caller's name table */
	int width;      /* squeue: 0 = natural width; sacct: signed, <0 = left */
	int right;      /* squeue: '.' given: right-justify */
	int width_set;  /* a width was written in the format */
	char *suffix;   /* literal text after the field (squeue), may be "" */
	char *name;     /* squeue -O: the field's name as given; else NULL */
};

struct sl_fmt;

/* squeue -o: "%[.|-][width]<letter>" fields with literal text between
 * them. Unknown letters are not checked here (the caller's table does).
 * As Slurm's strtok on '%' reads it, "%%X" is "%X" and a '%' at the end is
 * nothing; a width at the end is an item with code '\0'. Caller frees with
 * sl_fmt_free(). */
int sl_fmt_parse_percent(const char *fmt, struct sl_fmt **out, struct sl_err *err);

/* squeue -O: comma-separated "name[:[.]width[suffix]]" (opts.c's
 * _parse_long_token): no ':' is 20 columns, left-justified; ":." is
 * right-justified; a missing width is 0 (the value as is), a negative one
 * the value and a space. Names are kept in the items, not checked. */
int sl_fmt_parse_colon(const char *list, struct sl_fmt **out, struct sl_err *err);

/* sacct -o: comma-separated names, each optionally "%N" (N may be
 * negative). Names match `names` case-insensitively by prefix, in table
 * order, as sacct does; widths not given come from `widths`. An unknown
 * name fails with SL_EINVAL and the text `Invalid field requested: "X"`. */
int sl_fmt_parse_list(const char *list, const char *const *names, const int *widths,
		      size_t n_names, struct sl_fmt **out, struct sl_err *err);

void sl_fmt_free(struct sl_fmt *f);
/* Item i becomes literal text, as Slurm prints a letter it does not know:
 * "%[.][width]X" and the item's suffix join the text before it. */
void sl_fmt_item_to_literal(struct sl_fmt *f, size_t i);
size_t sl_fmt_count(const struct sl_fmt *f);
const struct sl_fmt_item *sl_fmt_item(const struct sl_fmt *f, size_t i); /* borrowed */
const char *sl_fmt_prefix(const struct sl_fmt *f); /* text before the first field */

/* squeue's cell: width 0 prints the value as is (a negative width, from
 * -O, the value and a space); otherwise right- or left-justified in
 * `width` columns. Right-justified values are cut to `width` unless `cut`
 * is 0 (squeue never cuts node lists and times); left-justified ones are
 * always cut, since Slurm prints them with "%.*s". */
int sl_fmt_cell(struct sl_buf *b, const char *val, int width, int right, int cut);

/* sacct's cell, always followed by one space: |len| columns, right-justified
 * when len > 0, left when len < 0. A longer value keeps |len|-1 characters
 * and ends in '+' ("CANCELLED+"); a header is cut without the '+'. */
int sl_fmt_cell_acct(struct sl_buf *b, const char *val, int len, int header);

/* sacct -e, sstat -e: the names, four a line, each padded to 19. */
int sl_fmt_names_help(struct sl_buf *b, const char *const *names, size_t n);

#endif
