/* squeue_proj.h - the members of the job record an squeue listing reads
 * (a projection, job_proj.h), from its -o format and -S keys. */
#ifndef SL_SQUEUE_PROJ_H
#define SL_SQUEUE_PROJ_H

#include "job_proj.h"

/* What squeue needs of each record to print fmt (a % format) sorted by
 * sort (NULL: the default keys): every number, the strings its filters,
 * sorts and array folding read, and those fmt's codes and sort's keys
 * print. NULL (the whole record) when a code or key is not in the table,
 * so a printer added without its row here gets what it reads. Caller
 * frees with sl_jobproj_free(). */
struct sl_jobproj *sl_squeue_proj(const char *fmt, const char *sort);

#endif
