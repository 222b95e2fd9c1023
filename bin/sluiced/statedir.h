/* statedir.h - the state directory around the store: who may see it, and
 * whether it has been used. The store (store.c) holds every job's script
 * and environment, which often carry secrets; job users must still reach
 * their own job's files under jobs/ (bin/exec/local, libbatch/jobdir.h). */
#ifndef SL_STATEDIR_H
#define SL_STATEDIR_H

#include <stdint.h>
#include "err.h"

/* The names that make up a store: the database and SQLite's companions. */
extern const char *const sl_statedir_store_files[];

/* Create dir (and its parents) if missing, and make it 0711 whatever it was
 * and whatever the umask (when it is not ours, it must at least be closed to
 * others). Refused when everyone may write to it (a shared directory such
 * as /tmp is no place for the store, and chmod would break it for everyone
 * else). */
int sl_statedir_prepare(const char *dir, struct sl_err *err);

/* What sl_statedir_prepare() refuses, looked at without changing anything
 * (sluiced --check-config): not a directory, or one everyone may write. A
 * stateDir not there yet is fine (it is made). */
int sl_statedir_check(const char *dir, struct sl_err *err);

/* Make dir/<db> and its companions that exist 0600 (regular files only;
 * never through a symbolic link); create dir/<db> empty, 0600, when it is
 * missing, and say so in *created. */
int sl_statedir_private(const char *dir, const char *db, int *created, struct sl_err *err);

/* 1 when dir has been used by a sluiced that gave out job ids (dir/jobs
 * exists: the local executor makes it at its first start, after the store),
 * else 0. *max_id: the largest job directory's id there (0: none). */
int sl_statedir_used(const char *dir, uint64_t *max_id);

/* Rename dir/<db> and its companions to <name>.broken-<now>; *aside (caller
 * frees) names the database's new path. */
int sl_statedir_set_aside(const char *dir, const char *db, char **aside, struct sl_err *err);

#endif
