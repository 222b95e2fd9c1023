/* store_open.c - opening the store: its files made private, a store that
 * is empty or unreadable where job ids were given out refused (or, with
 * --reset-state, replaced), then the schema (store.c). */
#include "store_int.h"
#include "log.h"
#include "statedir.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the database holds our schema (1) or nothing yet (0), read
 * before anything is written to it; -SL_EDB when it cannot be read, with
 * SQLite's code in *rc. */
static int probe(struct sl_store *s, int *rc, struct sl_err *err)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	*rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master WHERE name='meta'",
				 -1, &st, NULL);
	if (*rc == SQLITE_OK && (*rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (*rc == SQLITE_OK)
		return n > 0;
	return sl_err_set(err, SL_EDB, "the store cannot be read: %s%s", sqlite3_errstr(*rc),
			  *rc == SQLITE_BUSY ? " (is another sluiced using this stateDir?)" : "");
}

static int open_db(struct sl_store *s, struct sl_err *err)
{
	if (sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		return sl_err_set(err, SL_EDB, "store: cannot open it: %s",
				  s->db ? sqlite3_errmsg(s->db) : "out of memory");
	sqlite3_busy_timeout(s->db, 5000);
	/* Only sluiced opens the database: exclusive locking spares the file
	 * locks and shared-memory index that every transaction would otherwise
	 * take, and keeps a second daemon off the same state. */
	return store_exec(s, "PRAGMA locking_mode=EXCLUSIVE;", err);
}

/* A store that is empty or cannot be read, where job ids were given out
 * before: starting over would give the same ids to new jobs, which files,
 * logs and users already know as other jobs. Only --reset-state says that
 * is wanted; an unreadable store is then kept aside, not deleted. *floor:
 * the first id a reset store may give. 1 to start, 0 to try again. */
static int check_empty(struct sl_store *s, const char *dir, unsigned flags, int created,
		       uint64_t *floor, struct sl_err *err)
{
	struct sl_err why = SL_ERR_INIT;
	uint64_t max_dir_id = 0;
	int rc, has = probe(s, &rc, &why), used = sl_statedir_used(dir, &max_dir_id);
	char *aside = NULL;

	*floor = 0;
	if (has > 0 || (has == 0 && !used))
		return 1;
	if (has < 0 && rc != SQLITE_NOTADB && rc != SQLITE_CORRUPT)
		return sl_err_set(err, why.code, "%s", why.msg); /* not its contents: no reset */
	if (!(flags & SL_STORE_RESET)) {
		if (created)
			(void)unlink(s->path);
		if (has < 0)
			return sl_err_set(err, SL_EDB, "%s. Restore it from a backup, or start sluiced "
					  "once with --reset-state to set it aside and begin an empty "
					  "store", why.msg);
		return sl_err_set(err, SL_EDB, "the store is empty, but this state directory has "
				  "given out job ids before (%s/jobs exists), which a new store would "
				  "give again from 1. Restore the store from a backup, or start "
				  "sluiced once with --reset-state to begin an empty one", dir);
	}
	*floor = max_dir_id + 1;
	if (has == 0) {
		sl_warn("%s: --reset-state: the store is empty; job ids go on from %llu", s->path,
			(unsigned long long)*floor);
		return 1;
	}
	sqlite3_close(s->db);
	s->db = NULL;
	if (sl_statedir_set_aside(dir, DB_NAME, &aside, err) != 0) {
		free(aside);
		return -SL_EIO;
	}
	sl_warn("%s: --reset-state: %s; set aside as %s, beginning an empty store", s->path,
		why.msg, aside);
	free(aside);
	return 0;
}

int sl_store_open(const char *dir, unsigned flags, struct sl_store **out, struct sl_err *err)
{
	struct sl_store *s = sl_xcalloc(1, sizeof(*s));
	uint64_t floor = 0;
	int r, created;

	*out = NULL;
	s->path = sl_xasprintf("%s/" DB_NAME, dir);
	s->dirfd = -1;
	if ((r = sl_statedir_prepare(dir, err)) != 0)
		goto out;
	do {
		if ((r = sl_statedir_private(dir, DB_NAME, &created, err)) != 0 ||
		    (r = open_db(s, err)) != 0 ||
		    (r = check_empty(s, dir, flags, created, &floor, err)) < 0)
			goto prefixed;
	} while (r == 0); /* set aside: again, with an empty store */
	if ((r = store_schema(s, flags, floor, err)) != 0)
		goto prefixed;
	if ((s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		r = sl_err_set(err, SL_EIO, "%s: %s", dir, strerror(errno));
		goto out;
	}
	store_id_mark_load(s);
	*out = s;
	s = NULL;
	r = 0;
	goto out;
prefixed:
	sl_err_prefix(err, "%s", s->path);
out:
	sl_store_free(s);
	return r;
}

void store_wlist_clear(struct wlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].spec);
		sl_job_free(l->v[i].rec);
	}
	l->n = 0;
}

void sl_store_free(struct sl_store *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->ins);
	sqlite3_finalize(s->upd);
	sqlite3_finalize(s->spec);
	sqlite3_finalize(s->key);
	sqlite3_finalize(s->begin);
	sqlite3_finalize(s->commit);
	sqlite3_finalize(s->rollback);
	sqlite3_close(s->db);
	if (s->dirfd >= 0)
		close(s->dirfd);
	store_wlist_clear(&s->tx);
	store_wlist_clear(&s->kept);
	free(s->tx.v);
	free(s->kept.v);
	free(s->bad);
	free(s->select);
	free(s->path);
	free(s);
}

