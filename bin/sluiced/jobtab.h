/* jobtab.h - the daemon's in-memory jobs: live ones plus finished ones for
 * minJobAge seconds (squeue -t all). Ids only grow, so an array sorted by id
 * gives O(1) append and O(log n) lookup without a hash table. */
#ifndef SL_JOBTAB_H
#define SL_JOBTAB_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

struct sl_jobtab;

struct sl_jobtab *sl_jobtab_new(void);
void sl_jobtab_free(struct sl_jobtab *t);          /* frees the jobs too */
/* Takes ownership of j. Ids must be added in increasing order, except at
 * load time where the caller sorts first. */
void sl_jobtab_add(struct sl_jobtab *t, struct sl_job *j);
struct sl_job *sl_jobtab_get(const struct sl_jobtab *t, uint64_t id); /* borrowed */
size_t sl_jobtab_count(const struct sl_jobtab *t);
/* The index of the first job whose id is id or more (count: none). */
size_t sl_jobtab_lower(const struct sl_jobtab *t, uint64_t id);
struct sl_job *sl_jobtab_at(const struct sl_jobtab *t, size_t i);     /* id order */
/* Drop final jobs that ended before `before` (after minJobAge). */
void sl_jobtab_expire(struct sl_jobtab *t, int64_t before);

#endif
