/* array.h - Slurm job arrays' index sets: parsing a --array spec
 * ("1-10", "1,3,5", "0-15:4", "4-10%2"), the task ids it names, and the
 * text a set of ids collapses to ("4-10%2", "1,3,5-7", "0-20:4"), as
 * slurmctld and squeue write it. Pure: no I/O, no clock.
 *
 * Ids of an array (Sluice's scheme, PROTOCOL.md): an array of K tasks
 * takes K consecutive job ids at submit: N, the array job id (Slurm's
 * ArrayJobId, what sbatch prints), then N+1 .. N+K-1 for its tasks in
 * index order but the last, which has N itself. Slurm gives a task its own
 * id when it starts, and its meta record, N, becomes the last task it
 * starts; here the ids are fixed at submit, so that a task is the same
 * record from submit to sacct, and tasks start in index order, so N is
 * again the last task's. N alone still names the whole array, as in Slurm
 * (N_I names one task). A PBS array keeps N for its parent, with no record
 * of its own, and its subjobs take N+1 .. N+K. */
#ifndef SL_ARRAY_H
#define SL_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

/* Slurm's MaxArraySize default: task ids are below it. */
#define SL_ARRAY_MAX_DEFAULT 1001
/* The config's cap on maxArraySize (Slurm's own limit is 4000001). */
#define SL_ARRAY_MAX_LIMIT 4000001
/* "No task": what %a of a job that is not an array expands to (NO_VAL-1). */
#define SL_ARRAY_NO_TASK 4294967294u

struct sl_array;

/* Parse spec as slurmctld does: comma-separated "A", "A-B" or "A-B:S"
 * (optionally in brackets), then an optional "%N" throttle; every id
 * below max_size. -SL_EINVAL with Slurm's text "Invalid job array
 * specification" for anything else (an empty set too). Caller frees *out
 * with sl_array_free(). */
int sl_array_parse(const char *spec, uint32_t max_size, struct sl_array **out,
		   struct sl_err *err);
void sl_array_free(struct sl_array *a);
/* The ids, ascending and distinct: n of them, i < n. */
size_t sl_array_count(const struct sl_array *a);
uint32_t sl_array_task(const struct sl_array *a, size_t i);
/* The "%N" throttle (0: none). */
uint32_t sl_array_throttle(const struct sl_array *a);
/* The largest task id spec names (the task Slurm's pending meta record
 * holds last), -1 for no valid spec. */
long sl_array_last(const char *spec);
/* 1 when the one pending task left of an array is listed as itself, N_I:
 * a task split off alone, or the last of the meta record, which 22.05's
 * job_array_split makes a task of its own once the others have gone.
 * 0 only for an array of that one task, whose meta record stays: N_[I]. */
int sl_array_lone_task(const char *spec, long task);
/* Whether an array's pending meta record, holding nmeta tasks (task, of
 * spec, among them), still has its task bitmap: the one record squeue
 * folds an array's pending tasks into. Two tasks or more, or one when the
 * array is that one task; else each pending task is listed alone. */
int sl_array_meta_bitmap(const char *spec, long task, size_t nmeta);
/* SLURM_ARRAY_TASK_STEP as slurmctld sets it: the number after the spec's
 * first ':' (1 without one). */
int sl_array_step(const char *spec);
/* 1 when id is in the set. */
int sl_array_has(const struct sl_array *a, uint32_t id);
/* The position of id in the set (of the first larger one when it is not
 * there). */
size_t sl_array_index(const struct sl_array *a, uint32_t id);

/* The text of ascending distinct ids v[0..n), as Slurm shows a pending
 * array's tasks (xlate_array_task_str): "A-B:S" when they step evenly
 * (more than 5 of them over more than 10), else ranges "1-3,5" cut to 63
 * characters ending "..."; then "%T" when throttle > 0. Caller frees. */
char *sl_array_fmt(const uint32_t *v, size_t n, uint32_t throttle);
/* The same, never cut (what squeue -r expands a folded record from). */
char *sl_array_fmt_full(const uint32_t *v, size_t n, uint32_t throttle);
/* Ranges alone, never a step, cut as above: bit_fmt's text, which
 * slurmctld's answers per group of tasks carry (job_array_resp_msg). */
char *sl_array_fmt_ranges(const uint32_t *v, size_t n);

/* A job id as users write it: "N", "N_I", "N_[1-3,5]" or "N_*". *job gets
 * N; *tasks (caller frees) the set after '_' (any id up to
 * SL_ARRAY_MAX_LIMIT), NULL for "N" and "N_*". -SL_EINVAL otherwise. */
int sl_array_jobid_parse(const char *s, uint64_t *job, struct sl_array **tasks,
			 struct sl_err *err);

#endif
