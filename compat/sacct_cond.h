/* sacct_cond.h - sacct's conditions on a job's group, size and time limit
 * (-g, -i, -I, -k, -K) and its reason (--reason), as slurmdbd applies them
 * (as_mysql_jobacct_process.c): a group list, node and CPU counts an
 * allocation had (N or N-M), a time limit equal to -k, or between -k
 * and -K when both are given, and a list of reasons. */
#ifndef SL_SACCT_COND_H
#define SL_SACCT_COND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "err.h"
#include "job.h"

struct sl_sacct_cond {
	gid_t *gids;              /* -g; NULL: any */
	size_t n_gids;
	int nodes_set, cpus_set;  /* -i, -I given */
	int64_t nodes_lo, nodes_hi, cpus_lo, cpus_hi;
	int64_t tl_min, tl_max;   /* -k, -K in minutes; -1: not given */
	const char **reasons;     /* --reason, as Slurm spells them; NULL: any */
	size_t n_reasons;
};

void sl_sacct_cond_init(struct sl_sacct_cond *c);
void sl_sacct_cond_clear(struct sl_sacct_cond *c);
/* -g: names or ids; an unknown name is Slurm's "Invalid group id". */
int sl_sacct_cond_groups(struct sl_sacct_cond *c, const char *list, struct sl_err *err);
/* -i / -I: "N" or "N-M"; what is "node" or "cpu" for Slurm's message. */
int sl_sacct_cond_range(const char *arg, const char *what, int64_t *lo, int64_t *hi,
			struct sl_err *err);
/* -k / -K: a time limit as sbatch --time reads it. */
int sl_sacct_cond_time(const char *arg, int64_t *minutes, struct sl_err *err);
/* --reason: reason names, any case; one Slurm does not know is fatal, as in
 * Slurm. */
int sl_sacct_cond_reasons(struct sl_sacct_cond *c, const char *list, struct sl_err *err);
/* The reason slurmdbd keeps for j (state_reason_prev): why a job that ran
 * last waited (None when only for None, Priority or Resources), the reason
 * it has for one that never ran. What the Reason field shows and -R
 * selects by. */
const char *sl_sacct_cond_reason_of(const struct sl_job *j);
/* 1 when j passes every condition given. */
int sl_sacct_cond_match(const struct sl_sacct_cond *c, const struct sl_job *j);

#endif
