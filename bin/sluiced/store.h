/* store.h - sluiced's durable state: SQLite (WAL) in the state directory.
 * Every accepted job and every state change is written here and committed
 * before the reply or event that reports it goes out. */
#ifndef SL_STORE_H
#define SL_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "job.h"
#include "jobfilter.h"

struct sl_store;

/* sl_store_open flags. */
#define SL_STORE_FSYNC 1 /* every commit reaches the disk before it returns */
#define SL_STORE_RESET 2 /* sluiced --reset-state: an empty or unreadable store may be replaced */

/* Open or create <dir>/sluice.db. The directory is made 0711 (job users
 * reach their job's files under jobs/, but list nothing) and the database
 * and its -wal/-shm files 0600, whatever the umask, repaired at every open;
 * a directory everyone may write to is refused. With SL_STORE_FSYNC every
 * commit survives a machine crash; without, a crash of sluiced (WAL).
 *
 * A store that is empty (0 bytes, or missing) or unreadable in a state
 * directory that has been used (<dir>/jobs exists: job ids were given out)
 * is refused with what to do, unless flags has SL_STORE_RESET: an unreadable
 * one is then set aside as sluice.db.broken-<unix time> (with its -wal and
 * -shm), and the new store's ids go on past the job directories in jobs/.
 * A readable store is never reset. */
int sl_store_open(const char *dir, unsigned flags, struct sl_store **out, struct sl_err *err);
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

/* A full disk (SQLITE_FULL) is not fatal. The transaction is rolled back,
 * and the records it wrote are kept in memory: sl_store_commit returns
 * -SL_EBUSY, and the next sl_store_begin writes them again, first, so the
 * next commit that finds space saves them. The records are read through
 * lookup (the daemon's live job, borrowed; NULL once forgotten) when the
 * commit fails, and copied. Without a lookup nothing can be kept. */
typedef const struct sl_job *(*sl_store_lookup_fn)(void *arg, uint64_t id);
void sl_store_set_lookup(struct sl_store *s, sl_store_lookup_fn lookup, void *arg);
/* How many job records wait for space (and, in *inserts, how many of
 * those are jobs not yet on disk at all: their ids must not be told). */
size_t sl_store_kept(const struct sl_store *s, size_t *inserts);
/* Writes the kept list cannot hold (steps, a stored spec) are numbered:
 * the number after the last one so far, and the highest number a full
 * disk's rollback lost (0: none). A request whose writes ended at or
 * below that was not saved. */
uint64_t sl_store_unkept_seq(const struct sl_store *s);
uint64_t sl_store_unkept_lost(const struct sl_store *s);
/* May a new job be accepted? 0, or -SL_EBUSY with the reason while records
 * are kept or while the state directory's file system has less than
 * SL_STORE_ROOM bytes free: a refusal there is clean, while a commit that
 * fails holds back every reply of its turn. Looked up once per commit. */
#define SL_STORE_ROOM ((uint64_t)4 << 20)
int sl_store_room(struct sl_store *s, struct sl_err *err);

/* Allocate the next job id (inside a transaction): one past the largest
 * stored at open, counted in memory since. */
int sl_store_next_id(struct sl_store *s, uint64_t *id, struct sl_err *err);
/* A new job, whole. -SL_EBUSY on a full disk (the job is not kept). */
int sl_store_insert(struct sl_store *s, const struct sl_job *j, struct sl_err *err);
/* The same with the spec's stored text given (sl_store_spec_text, caller
 * frees): an array's tasks share one spec, written once. */
char *sl_store_spec_text(const struct sl_jobspec *spec);
int sl_store_insert_spec(struct sl_store *s, const struct sl_job *j, const char *spec,
			 struct sl_err *err);
/* Write the mutable record fields (state, times, exit, nodes, reason...). */
int sl_store_update(struct sl_store *s, const struct sl_job *j, struct sl_err *err);
/* The spec of job id as submitted, whole (environment, arguments and
 * script, which the daemon does not keep in memory; see sl_job_shed). */
int sl_store_load_spec(struct sl_store *s, uint64_t id, struct sl_jobspec *out,
		       struct sl_err *err);
/* Job id's stored spec takes what changes after submission (scontrol
 * update's fields, a deadline's cut of the time limit) from `from`, the
 * spec in memory, which lacks the script and environment (sl_job_shed):
 * those stay as stored. Begins the turn's transaction if none is open.
 * Unlike the record, it is not kept through a full disk: -SL_EBUSY then,
 * and the change is refused. */
int sl_store_save_spec(struct sl_store *s, uint64_t id, const struct sl_jobspec *from,
		       struct sl_err *err);
/* The job that uid submitted with this submit_key (sbatch's idempotency
 * key), through an index: *id, or 0 when there is none. */
int sl_store_find_key(struct sl_store *s, uid_t uid, const char *key, uint64_t *id,
		      struct sl_err *err);

/* Reads skip a row that cannot be read (its spec is not JSON, ...): it is
 * logged the first time, and every other job still answers. */

/* Jobs not final, plus final ones that ended at or after `ended_since`.
 * Caller frees with sl_job_free_array(). */
int sl_store_load_live(struct sl_store *s, int64_t ended_since, struct sl_job ***v,
		       size_t *n, struct sl_err *err);

/* History for sacct: the final jobs that match f, and whose end is at or
 * after f->start_after (0: any) and whose start is at or before
 * f->end_before (0: any), calling cb for each (the job is borrowed for the
 * call; its spec without env, argv and script: sl_jobspec_parse_listing).
 * Records kept through a full disk are listed as they are now. */
typedef int (*sl_store_job_cb)(const struct sl_job *j, void *arg);
int sl_store_history(struct sl_store *s, const struct sl_jobfilter *f, sl_store_job_cb cb,
		     void *arg, struct sl_err *err);

/* Job id, whatever its state, to cb (borrowed for the call, its spec as
 * sl_store_history's); cb is not
 * called when there is no such job. Through the primary key: for the jobs
 * a dependency names that have left the daemon's memory. */
int sl_store_job(struct sl_store *s, uint64_t id, sl_store_job_cb cb, void *arg,
		 struct sl_err *err);


#endif
