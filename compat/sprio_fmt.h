/* sprio_fmt.h - sprio's format codes (%i %r %Y %y %S %Q ...) and sort keys
 * over a pending job's priority parts (libbatch/prio.h), printing what
 * Slurm 22.05's sprio prints. Pure: rows in, text out. */
#ifndef SL_SPRIO_FMT_H
#define SL_SPRIO_FMT_H

#include <stddef.h>
#include "buf.h"
#include "err.h"
#include "prio.h"

/* One pending job as sprio sees it (strings borrowed from its record). */
struct sl_sprio_row {
	uint64_t id;
	const char *partition;
	const char *user;
	struct sl_prio_parts p;
};

/* Sluice's weights (prio.h): only the site (1, as Slurm prints it) and the
 * QOS (1) are not 0. */
#define SL_SPRIO_WEIGHT_QOS 1

struct sl_sprio_fmt;

/* The format sprio uses without -o: Slurm's rule (a column per factor
 * whose weight is not 0) over Sluice's weights. Caller frees. */
char *sl_sprio_default_format(int normalized, int long_list, int users);
/* Parse a format. An unknown code is reported through `bad` (its letter;
 * the command prints Slurm's error) and left out, as Slurm does; the
 * result never fails. Caller frees. */
struct sl_sprio_fmt *sl_sprio_fmt_new(const char *fmt, void (*bad)(char code));
void sl_sprio_fmt_free(struct sl_sprio_fmt *f);

/* Append the header, the "Weights" line (-w) or one job's line. */
void sl_sprio_fmt_header(const struct sl_sprio_fmt *f, struct sl_buf *b);
void sl_sprio_fmt_weights(const struct sl_sprio_fmt *f, struct sl_buf *b);
void sl_sprio_fmt_row(const struct sl_sprio_fmt *f, const struct sl_sprio_row *r,
		      struct sl_buf *b);

/* Sort as sprio -S spec ("i" when NULL): one stable pass per key, last key
 * first, '-' descending. Unknown key: SL_EINVAL "Invalid sort
 * specification: X". */
int sl_sprio_sort(struct sl_sprio_row *v, size_t n, const char *spec, struct sl_err *err);

#endif
