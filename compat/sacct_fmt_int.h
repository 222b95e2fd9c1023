/* sacct_fmt_int.h - what sacct_fmt.c (the -o list and the rows) shares
 * with sacct_fields.c (the field table and its printers). Not a library
 * interface. */
#ifndef SL_SACCT_FMT_INT_H
#define SL_SACCT_FMT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "step.h"
#include "usage.h"

enum row { ROW_JOB = 0, ROW_BATCH };
enum kind { K_STR = 0, K_DATE, K_NUM };

/* What a printer knows besides the job: the time, and --units. */
struct pctx {
	int64_t now;
	int unit; /* sl_slurm_mem_fmt()'s: 0, '-' or K M G T P */
	const struct sl_step *step; /* an srun step's row, printed as a batch row but for
				     * its own id, name, state, tasks, CPUs and nodes */
	const char *derived;        /* the job row's DerivedExitCode */
	const char *cluster;        /* sl_sacct_fmt_set_cluster()'s */
	const struct sl_usage *use; /* the row's use (sacct_usage.c); NULL: none */
	struct sl_usage_tasks tasks; /* its figures task by task (sl_usage_per_task) */
};

typedef void (*field_fn)(const struct sl_job *j, enum row row, const struct pctx *c,
			 char *buf, size_t len);

struct field_row {
	const char *name;
	int width;
	enum kind kind;
	field_fn print;
};

/* Slurm 22.05's fields[], in its order (-o matches by prefix in order). */
#define SL_SACCT_NFIELDS 109
extern const struct field_row sl_sacct_table[];

#endif
