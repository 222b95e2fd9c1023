/* jobtab.h - the daemon's in-memory jobs: live ones plus finished ones for
 * minJobAge seconds (squeue -t all). Ids only grow, so an array sorted by id
 * gives O(1) append and O(log n) lookup without a hash table.
 *
 * The order is by id, but for one thing: a job array's tasks are one run
 * of ids, N..N+K-1, and the task with N itself (the last, as Slurm's meta
 * record becomes the task it starts last) closes the run. So a run lists
 * an array's tasks in index order, and N addresses the whole array. */
#ifndef SL_JOBTAB_H
#define SL_JOBTAB_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

struct sl_jobtab;

struct sl_jobtab *sl_jobtab_new(void);
void sl_jobtab_free(struct sl_jobtab *t);          /* frees the jobs too */
/* Takes ownership of j. Ids must be added in increasing order (an array's
 * task with N last), except at load time where the caller sorts first. */
void sl_jobtab_add(struct sl_jobtab *t, struct sl_job *j);
/* v in the table's order (ids, each array's last task after its run). */
void sl_jobtab_sort(struct sl_job **v, size_t n);
struct sl_job *sl_jobtab_get(const struct sl_jobtab *t, uint64_t id); /* borrowed */
size_t sl_jobtab_count(const struct sl_jobtab *t);
/* The index of the first job of the run of id or a later one (count:
 * none): for an array's id, its first task. */
size_t sl_jobtab_lower(const struct sl_jobtab *t, uint64_t id);
struct sl_job *sl_jobtab_at(const struct sl_jobtab *t, size_t i);     /* run order */
/* Drop final jobs that ended before `before` (after minJobAge). */
void sl_jobtab_expire(struct sl_jobtab *t, int64_t before);

#endif
