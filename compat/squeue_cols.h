/* squeue_cols.h - squeue's columns, internal to compat: the % codes'
 * table (squeue_fmt.c) and the -O names' table (squeue_long.c) both hand
 * out rows of this type, which the renderer prints the same way. */
#ifndef SL_SQUEUE_COLS_H
#define SL_SQUEUE_COLS_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

/* Writes the job's value; returns 1 when squeue would cut it to the
 * column's width (it never cuts node lists and most times). */
typedef int (*sl_squeue_print_fn)(const struct sl_job *j, int64_t now, char *buf, size_t len);

struct sl_squeue_col {
	char code;          /* the % letter; 0 for a column only -O names */
	const char *header;
	int header_cut;
	sl_squeue_print_fn print;
};

/* The row of a % letter, or NULL. */
const struct sl_squeue_col *sl_squeue_col_code(char c);

/* The row of an -O name (case-insensitive, as opts.c compares), or NULL;
 * *known is 1 when Slurm knows the name (Sluice has no value for a few:
 * the caller says so instead of Slurm's "Invalid job format"). */
const struct sl_squeue_col *sl_squeue_col_name(const char *name, int *known);

/* Shared printers' helpers: a time as squeue prints it ("N/A" for 0). */
void sl_squeue_time_fmt(int64_t t, char *buf, size_t len);

#endif
