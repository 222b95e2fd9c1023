/* store.h - sluiced's durable state: SQLite (WAL) in the state directory.
 * Every accepted job and every state change is written here and committed
 * before the reply or event that reports it goes out. */
#ifndef SL_STORE_H
#define SL_STORE_H

#include <stdint.h>
#include "err.h"
#include "job.h"
#include "jobfilter.h"

struct sl_store;

/* Open or create <dir>/sluice.db (dir is created 0711 if missing). With
 * fsync, every commit reaches the disk before it returns (survives a machine
 * crash); without, a commit survives a crash of sluiced (WAL). */
int sl_store_open(const char *dir, int fsync, struct sl_store **out, struct sl_err *err);
void sl_store_free(struct sl_store *s);

/* Explicit transactions: the daemon opens one lazily per loop turn and
 * commits it in the before-sleep hook (group commit). begin is idempotent. */
int sl_store_begin(struct sl_store *s, struct sl_err *err);
int sl_store_commit(struct sl_store *s, struct sl_err *err);
int sl_store_in_txn(const struct sl_store *s);
/* Between loop turns, with every reply sent: copy the WAL back into the
 * database once it holds SL_STORE_CHECKPOINT_FRAMES pages (SQLite's own
 * default threshold). */
#define SL_STORE_CHECKPOINT_FRAMES 1000
void sl_store_idle(struct sl_store *s);

/* Allocate the next job id (inside a transaction): one past the largest
 * stored at open, counted in memory since. */
int sl_store_next_id(struct sl_store *s, uint64_t *id, struct sl_err *err);
int sl_store_insert(struct sl_store *s, const struct sl_job *j, struct sl_err *err);
/* Write the mutable record fields (state, times, exit, nodes, reason...). */
int sl_store_update(struct sl_store *s, const struct sl_job *j, struct sl_err *err);
/* The spec of job id as submitted, whole (environment, arguments and
 * script, which the daemon does not keep in memory; see sl_job_shed). */
int sl_store_load_spec(struct sl_store *s, uint64_t id, struct sl_jobspec *out,
		       struct sl_err *err);

/* Jobs not final, plus final ones that ended at or after `ended_since`.
 * Caller frees with sl_job_free_array(). */
int sl_store_load_live(struct sl_store *s, int64_t ended_since, struct sl_job ***v,
		       size_t *n, struct sl_err *err);

/* History for sacct: the final jobs that match f, and whose end is at or
 * after f->start_after (0: any) and whose start is at or before
 * f->end_before (0: any), calling cb for each (the job is borrowed for the
 * call). */
typedef int (*sl_store_job_cb)(const struct sl_job *j, void *arg);
int sl_store_history(struct sl_store *s, const struct sl_jobfilter *f, sl_store_job_cb cb,
		     void *arg, struct sl_err *err);

#endif
