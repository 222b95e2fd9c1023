/* dirpool.h - spare job directories, so that a launch creates and deletes
 * no inode of its own.
 *
 * ext4 without a journal (common on cloud VMs) checks, before it hands out
 * a new inode, whether each free one of the group was deleted in the last
 * few minutes (find_inode_bit, recently_deleted). A job used to create a
 * directory and seven files and delete them all at its end, so with
 * hundreds of jobs a second every create walked thousands of recently
 * deleted inodes: 78 % of sluiced's CPU in the baseline benchmark.
 *
 * A finished job's directory is therefore kept as <jobs>/.spare-N and the
 * next launch takes one: emptied in place (sl_jobdir_reset), then renamed to
 * its job's name. A directory is visible under a job's name only once it is
 * fit for that job, so a crash at any point leaves a spare or nothing. */
#ifndef SL_DIRPOOL_H
#define SL_DIRPOOL_H

#include <stddef.h>
#include "err.h"

/* Enough for the jobs that end in one burst; a job's spare is a few
 * kilobytes of inodes. */
#define SL_DIRPOOL_MAX 2048

struct sl_dirpool;

/* Spares left in jobs_dir by an earlier sluiced are taken up. Keeps at
 * most max. */
struct sl_dirpool *sl_dirpool_new(const char *jobs_dir, size_t max);
void sl_dirpool_free(struct sl_dirpool *p);

/* dir (in jobs_dir, not existing) ready for a launch: a spare emptied and
 * renamed there, else a new directory, mode 0711 either way. -SL_EEXIST
 * when dir exists already (the caller decides whether it is stale). */
int sl_dirpool_take(struct sl_dirpool *p, const char *dir, struct sl_err *err);

/* dir's job is over and no supervisor holds it: kept as a spare, or
 * removed once the pool is full. */
int sl_dirpool_give(struct sl_dirpool *p, const char *dir, struct sl_err *err);

size_t sl_dirpool_count(const struct sl_dirpool *p);

#endif
