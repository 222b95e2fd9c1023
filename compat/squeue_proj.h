/* squeue_proj.h - the members of the job record an squeue listing reads
 * (a projection, job_proj.h), from its -o format, -S keys and filter. */
#ifndef SL_SQUEUE_PROJ_H
#define SL_SQUEUE_PROJ_H

#include "job_proj.h"
#include "jobfilter.h"

/* What squeue needs of each record to print fmt (a % format) sorted by
 * sort ("" no key; NULL the default keys) and filtered by f (squeue
 * applies the filter again): the members fmt's codes, sort's keys, f's
 * lists, the start-time pass and array folding read. NULL (whole records)
 * when a code or key has no row in the table, so a printer added without
 * its row is slow, never wrong. Caller frees with sl_jobproj_free(). */
struct sl_jobproj *sl_squeue_proj(const char *fmt, const char *sort,
				  const struct sl_jobfilter *f);

#endif
