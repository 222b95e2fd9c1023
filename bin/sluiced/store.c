/* store.c - SQLite persistence. The spec (immutable after submit) is one
 * JSON column; the record fields that change are plain columns so an update
 * rewrites a few bytes, not the script and environment. A full disk keeps
 * the records it refused in memory until a commit finds space (store.h). */
#include "store.h"
#include "buf.h"
#include "job_fields.h"
#include "log.h"
#include "store_int.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SCHEMA_VERSION 1
/* Rows that could not be read are logged once each, up to this many. */
#define BAD_ROWS_MAX 4096

/* The jobs table, one row per column. CREATE, the columns an older store
 * lacks, INSERT, UPDATE and SELECT are all written from it, and so are
 * binding and reading a row. The record's own members come from the field
 * lists (job_fields.h): a member added there gets its column, and stores
 * written before it get it at open, at the member's default. */
enum ctype {
	C_KEY,   /* the job id */
	C_UID,   /* uid_t, gid_t */
	C_INT,
	C_I64,
	C_FINAL, /* derived from the state, for the history index */
	C_STR,   /* text from here on */
	C_STATE, /* its name */
	C_SPEC,  /* the spec's JSON, written once */
};

static const char *const decl[] = {
	[C_KEY] = "INTEGER PRIMARY KEY", [C_UID] = "INTEGER NOT NULL",
	[C_INT] = "INTEGER NOT NULL DEFAULT", [C_I64] = "INTEGER NOT NULL DEFAULT",
	[C_STR] = "TEXT", [C_STATE] = "TEXT NOT NULL",
	[C_FINAL] = "INTEGER NOT NULL DEFAULT 0", [C_SPEC] = "TEXT NOT NULL",
};

struct col {
	const char *name;
	enum ctype type;
	size_t off; /* of the member in struct sl_job */
};

_Static_assert(sizeof(uid_t) == sizeof(gid_t), "uid and gid columns read alike");

#define COL_STR(f) {#f, C_STR, offsetof(struct sl_job, f)},
#define COL_INT(f) {#f, C_INT, offsetof(struct sl_job, f)},
#define COL_I64(f) {#f, C_I64, offsetof(struct sl_job, f)},
static const struct col cols[] = {
	{"id", C_KEY, offsetof(struct sl_job, id)},
	{"uid", C_UID, offsetof(struct sl_job, uid)},
	{"gid", C_UID, offsetof(struct sl_job, gid)},
	{"state", C_STATE, 0},
	{"final", C_FINAL, 0},
	JOB_STRINGS(COL_STR) JOB_INTS(COL_INT) JOB_INT64S(COL_I64)
	{"spec", C_SPEC, 0},
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

/* GROUP is an SQL keyword: the column has been grp since the first store. */
static const char *col_name(const struct col *c)
{
	return strcmp(c->name, "group") == 0 ? "grp" : c->name;
}

/* UPDATE rewrites every column but the key and the spec. */
static int col_mutable(const struct col *c)
{
	return c->type != C_KEY && c->type != C_SPEC;
}

/* The member of a C_KEY, C_UID, C_INT or C_I64 column. */
static int64_t num(const struct col *c, const struct sl_job *j)
{
	const char *p = (const char *)j + c->off;

	return c->type == C_UID ? *(const uid_t *)p : c->type == C_INT ? *(const int *)p
									: *(const int64_t *)p;
}

static void col_decl(struct sl_buf *b, const struct col *c)
{
	struct sl_job def;

	sl_job_defaults(&def);
	sl_buf_addf(b, "%s %s", col_name(c), decl[c->type]);
	if (c->type == C_INT || c->type == C_I64)
		sl_buf_addf(b, " %lld", (long long)num(c, &def));
}

enum stmt { S_CREATE, S_INSERT, S_UPDATE, S_SELECT };

/* Caller frees. */
static char *statement(enum stmt k)
{
	static const char *const head[] = {"CREATE TABLE IF NOT EXISTS jobs(",
					   "INSERT INTO jobs(", "UPDATE jobs SET ", "SELECT "};
	static const char *const tail[] = {")", ")", " WHERE id=?", " FROM jobs"};
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n = 0;
	char *sql;

	sl_buf_addstr(b, head[k]);
	for (size_t i = 0; i < NCOLS; i++) {
		if (k == S_UPDATE && !col_mutable(&cols[i]))
			continue;
		if (n++ > 0)
			sl_buf_addc(b, ',');
		if (k == S_CREATE)
			col_decl(b, &cols[i]);
		else
			sl_buf_addf(b, "%s%s", col_name(&cols[i]), k == S_UPDATE ? "=?" : "");
	}
	sl_buf_addstr(b, tail[k]);
	for (size_t i = 0; k == S_INSERT && i <= n; i++)
		sl_buf_addstr(b, i == 0 ? " VALUES(?" : i < n ? ",?" : ")");
	sql = sl_buf_steal(b);
	sl_buf_free(b);
	return sql;
}

static int dberr(struct sl_store *s, struct sl_err *err, const char *what)
{
	return sl_err_set(err, SL_EDB, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

int store_exec(struct sl_store *s, const char *sql, struct sl_err *err)
{
	char *msg = NULL;
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		/* Locking is exclusive: busy means another process holds it. */
		int r = sl_err_set(err, SL_EDB, "store: %s%s", msg ? msg : "exec failed",
				   rc == SQLITE_BUSY ? " (is another sluiced using this stateDir?)" : "");
		sqlite3_free(msg);
		return r;
	}
	return 0;
}

static int prepare(struct sl_store *s, const char *sql, sqlite3_stmt **st,
		   struct sl_err *err)
{
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) !=
	    SQLITE_OK)
		return dberr(s, err, "prepare");
	return 0;
}

static int prepare_stmt(struct sl_store *s, enum stmt k, sqlite3_stmt **st,
			struct sl_err *err)
{
	char *sql = statement(k);
	int r = prepare(s, sql, st, err);

	free(sql);
	return r;
}

static int check_version(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st;
	int v = -1, r;
	if ((r = prepare(s, "SELECT value FROM meta WHERE key='schema_version'", &st, err)))
		return r;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (v != SCHEMA_VERSION)
		return sl_err_set(err, SL_EDB,
				  "store: schema version %d, this sluiced knows %d", v,
				  SCHEMA_VERSION);
	return 0;
}

/* The schema: meta, then jobs (written from cols[]), its history index. */
static int create(struct sl_store *s, struct sl_err *err)
{
	char *jobs = statement(S_CREATE);
	int r;

	if ((r = store_exec(s, "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY,"
			    " value INTEGER NOT NULL);", err)) == 0 &&
	    (r = store_exec(s, jobs, err)) == 0)
		r = store_exec(s, "CREATE INDEX IF NOT EXISTS jobs_final_end ON jobs(final, end_time);"
			       "INSERT OR IGNORE INTO meta VALUES('schema_version', 1);"
			       "INSERT OR IGNORE INTO meta VALUES('next_job_id', 1);", err);
	free(jobs);
	return r;
}

/* Stores written before a column existed get it, at its default: a column
 * added with a default needs no schema version bump. Indexes on such
 * columns come after them. */
static int add_columns(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st = NULL;
	int r = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT * FROM jobs LIMIT 0", -1, &st, NULL) != SQLITE_OK)
		return dberr(s, err, "read the jobs columns");
	for (size_t i = 0; r == 0 && i < NCOLS; i++) {
		int k, n = sqlite3_column_count(st);
		for (k = 0; k < n && strcmp(sqlite3_column_name(st, k), col_name(&cols[i])) != 0; k++)
			;
		if (k == n) {
			struct sl_buf *b = sl_buf_new(1 << 12);
			sl_buf_addstr(b, "ALTER TABLE jobs ADD COLUMN ");
			col_decl(b, &cols[i]);
			r = store_exec(s, sl_buf_str(b), err);
			sl_buf_free(b);
		}
	}
	sqlite3_finalize(st);
	/* A retried submission is found by its key (sl_store_find_key); only
	 * jobs submitted with one are in the index. */
	if (r == 0)
		r = store_exec(s, "CREATE UNIQUE INDEX IF NOT EXISTS jobs_submit_key ON"
			       " jobs(uid, submit_key) WHERE submit_key IS NOT NULL;", err);
	return r;
}

/* The next id is one past the largest stored, so an id whose job was
 * never committed (never printed) is handed out again, and nothing is
 * written per submission but the job. meta.next_job_id stays a floor:
 * stores that counted there keep counting from it. */
static int load_next_id(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st;
	int r;

	if ((r = prepare(s, "SELECT max((SELECT ifnull(max(id), 0) + 1 FROM jobs),"
			 " (SELECT ifnull(max(value), 1) FROM meta WHERE key='next_job_id'))",
			 &st, err)))
		return r;
	if (sqlite3_step(st) == SQLITE_ROW)
		s->next_id = (uint64_t)sqlite3_column_int64(st, 0);
	else
		r = dberr(s, err, "next job id");
	sqlite3_finalize(st);
	return r;
}

/* Checkpoints run from sl_store_idle, after the replies are out, rather than
 * inside the COMMIT that crosses the threshold, where they would hold up a
 * client (and, with fsync, for a disk flush). */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((struct sl_store *)arg)->wal_frames = frames;
	return SQLITE_OK;
}

/* Schema, upgrades, the next id (at least floor), the statements. */
int store_schema(struct sl_store *s, unsigned flags, uint64_t floor, struct sl_err *err)
{
	char *sql = NULL;
	int r;

	/* WAL: a committed transaction is in the log file before we reply, so
	 * kill -9 of sluiced loses nothing; FULL adds the fsync that a machine
	 * crash needs (durability: power). Readers never block the writer. */
	if ((r = store_exec(s, "PRAGMA journal_mode=WAL;", err)) ||
	    (r = store_exec(s, (flags & SL_STORE_FSYNC) ? "PRAGMA synchronous=FULL;"
							: "PRAGMA synchronous=NORMAL;", err)) ||
	    (r = store_exec(s, "BEGIN;", err)) || (r = create(s, err)))
		return r;
	if (floor > 1) {
		sql = sl_xasprintf("UPDATE meta SET value=max(value, %llu) WHERE key='next_job_id';",
				   (unsigned long long)floor);
		r = store_exec(s, sql, err);
		free(sql);
	}
	if (r != 0 || (r = store_exec(s, "COMMIT;", err)) || (r = check_version(s, err)) ||
	    (r = add_columns(s, err)) || (r = load_next_id(s, err)))
		return r;
	sqlite3_wal_hook(s->db, wal_hook, s);
	s->select = statement(S_SELECT);
	if ((r = prepare_stmt(s, S_INSERT, &s->ins, err)) ||
	    (r = prepare_stmt(s, S_UPDATE, &s->upd, err)) ||
	    (r = prepare(s, "SELECT spec FROM jobs WHERE id=?", &s->spec, err)) ||
	    (r = prepare(s, "SELECT id FROM jobs WHERE uid=? AND submit_key=?", &s->key, err)) ||
	    (r = prepare(s, "BEGIN IMMEDIATE", &s->begin, err)) ||
	    (r = prepare(s, "COMMIT", &s->commit, err)) ||
	    (r = prepare(s, "ROLLBACK", &s->rollback, err)))
		return r;
	return 0;
}

/* ---- transactions, and a full disk ---- */

static void wlist_push(struct wlist *l, uint64_t id, int insert, char *spec)
{
	l->v = sl_xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct wrote){id, insert, spec, NULL};
}

static struct wrote *kept_find(struct sl_store *s, uint64_t id)
{
	for (size_t i = 0; i < s->kept.n; i++)
		if (s->kept.v[i].id == id)
			return &s->kept.v[i];
	return NULL;
}

/* The freshest record of a kept job: the daemon's, else our copy. */
static const struct sl_job *kept_rec(const struct sl_store *s, const struct wrote *w)
{
	const struct sl_job *j = s->lookup ? s->lookup(s->lookup_arg, w->id) : NULL;
	return j != NULL ? j : w->rec;
}

/* The transaction a full disk rolled back: what it wrote joins the kept
 * records, each copied as the daemon knows it now. A job the daemon no
 * longer has and that was never kept is gone (a submission refused after
 * its insert). */
static void keep_tx(struct sl_store *s)
{
	for (size_t i = 0; i < s->tx.n; i++) {
		struct wrote *t = &s->tx.v[i], *k = kept_find(s, t->id);
		const struct sl_job *j = s->lookup ? s->lookup(s->lookup_arg, t->id) : NULL;
		if (k == NULL && j == NULL) {
			free(t->spec);
			continue;
		}
		if (k == NULL) {
			wlist_push(&s->kept, t->id, 0, NULL);
			k = &s->kept.v[s->kept.n - 1];
		}
		if (j != NULL) {
			sl_job_free(k->rec);
			k->rec = sl_job_copy(j);
		}
		if (t->insert && !k->insert) {
			k->insert = 1;
			k->spec = t->spec;
			s->kept_inserts++;
		} else {
			free(t->spec);
		}
	}
	s->tx.n = 0;
}

static int full(struct sl_store *s, struct sl_err *err)
{
	return sl_err_set(err, SL_EBUSY, "No space left on device for the job store %s: "
			  "new jobs are refused until space is freed", s->path);
}

/* SQLITE_FULL inside a transaction may have rolled back the statement or
 * all of it: make it all, so that what is kept is the whole turn. */
static int broke(struct sl_store *s, struct sl_err *err)
{
	if (!sqlite3_get_autocommit(s->db)) {
		(void)sqlite3_step(s->rollback);
		sqlite3_reset(s->rollback);
	}
	s->broken = 1;
	return full(s, err);
}

static int put_row(struct sl_store *s, int insert, const struct sl_job *j, const char *spec,
		   struct sl_err *err);

/* Kept records first: later writes in the transaction update their rows. */
static void put_kept(struct sl_store *s)
{
	for (size_t i = 0; i < s->kept.n && !s->broken; i++) {
		struct wrote *k = &s->kept.v[i];
		struct sl_err e = SL_ERR_INIT;
		if (put_row(s, k->insert, kept_rec(s, k), k->spec, &e) != 0 && !s->broken)
			sl_err_log("job %llu: %s", (unsigned long long)k->id, e.msg);
	}
}

static int run(struct sl_store *s, sqlite3_stmt *st, const char *what, struct sl_err *err)
{
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_DONE ? 0 : dberr(s, err, what);
	sqlite3_reset(st);
	return r;
}

int sl_store_begin(struct sl_store *s, struct sl_err *err)
{
	int r;
	if (s->in_txn)
		return 0;
	if ((r = run(s, s->begin, "BEGIN", err)) != 0)
		return r;
	s->in_txn = 1;
	put_kept(s);
	return 0;
}

int sl_store_commit(struct sl_store *s, struct sl_err *err)
{
	int rc;
	if (!s->in_txn)
		return 0;
	s->in_txn = 0;
	s->room = 0;
	if (!s->broken) {
		rc = sqlite3_step(s->commit);
		sqlite3_reset(s->commit);
		if (rc == SQLITE_DONE) {
			store_wlist_clear(&s->tx);
			store_wlist_clear(&s->kept);
			s->kept_inserts = 0;
			return 0;
		}
		if (rc != SQLITE_FULL) {
			store_wlist_clear(&s->tx);
			return sl_err_set(err, SL_EDB, "store: COMMIT: %s", sqlite3_errstr(rc));
		}
		(void)broke(s, NULL);
	}
	s->broken = 0;
	keep_tx(s);
	return sl_err_set(err, SL_EBUSY, "store %s: disk full: %zu job records are kept in memory "
			  "until they can be written", s->path, s->kept.n);
}

int sl_store_in_txn(const struct sl_store *s)
{
	return s->in_txn;
}

void sl_store_idle(struct sl_store *s)
{
	s->room = 0; /* looked up again next turn */
	if (s->in_txn || s->wal_frames < SL_STORE_CHECKPOINT_FRAMES)
		return;
	/* PASSIVE never waits; a checkpoint that fails is retried next time. */
	if (sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) ==
	    SQLITE_OK)
		s->wal_frames = 0;
}

void sl_store_set_lookup(struct sl_store *s, sl_store_lookup_fn lookup, void *arg)
{
	s->lookup = lookup;
	s->lookup_arg = arg;
}

size_t sl_store_kept(const struct sl_store *s, size_t *inserts)
{
	if (inserts != NULL)
		*inserts = s->kept_inserts;
	return s->kept.n;
}

int sl_store_room(struct sl_store *s, struct sl_err *err)
{
	struct statvfs v;

	if (s->kept.n > 0 || s->broken)
		return full(s, err);
	if (s->room == 0) /* one look per turn: the first submission's */
		s->room = fstatvfs(s->dirfd, &v) != 0 ||
			  (uint64_t)v.f_bavail * v.f_frsize >= SL_STORE_ROOM ? 1 : -1;
	if (s->room > 0)
		return 0;
	return sl_err_set(err, SL_EBUSY, "No space left on device for the job store %s (less than "
			  "%llu MiB free): new jobs are refused until space is freed", s->path,
			  (unsigned long long)(SL_STORE_ROOM >> 20));
}

int sl_store_next_id(struct sl_store *s, uint64_t *id, struct sl_err *err)
{
	(void)err;
	*id = s->next_id++;
	return 0;
}

/* ---- writing ---- */

/* No cap worth the name: a spec is whatever the request limit let in. */
#define SPEC_CAP ((size_t)1 << 40)

static char *spec_text(const struct sl_jobspec *spec)
{
	struct sl_buf *b = sl_buf_new(SPEC_CAP);
	char *text;

	(void)sl_jobspec_text_append(b, spec);
	text = sl_buf_steal(b);
	sl_buf_free(b);
	return text;
}

/* spec: the C_SPEC column's text (borrowed). */
static void bind_col(sqlite3_stmt *st, int i, const struct col *c, const struct sl_job *j,
		     const char *spec)
{
	const char *text;

	switch (c->type) {
	case C_KEY: case C_UID: case C_INT: case C_I64:
		sqlite3_bind_int64(st, i, num(c, j));
		return;
	case C_FINAL: sqlite3_bind_int(st, i, sl_jobstate_is_final(j->state)); return;
	case C_STR:
	case C_STATE:
	case C_SPEC:
		text = c->type == C_STR ? *(char *const *)((const char *)j + c->off)
		     : c->type == C_STATE ? sl_jobstate_name(j->state) : spec;
		if (text == NULL)
			sqlite3_bind_null(st, i);
		else /* the spec's text is large, and lives until the commit */
			sqlite3_bind_text(st, i, text, -1,
					  c->type == C_SPEC ? SQLITE_STATIC : SQLITE_TRANSIENT);
		return;
	}
}

/* Bind the columns of an INSERT (every one) or an UPDATE (the mutable
 * ones, then the key), run it, and reset it. */
static int put_row(struct sl_store *s, int insert, const struct sl_job *j, const char *spec,
		   struct sl_err *err)
{
	sqlite3_stmt *st = insert ? s->ins : s->upd;
	int at = 1, r = 0, rc;

	for (size_t i = 0; i < NCOLS; i++)
		if (insert || col_mutable(&cols[i]))
			bind_col(st, at++, &cols[i], j, spec);
	if (!insert)
		bind_col(st, at, &cols[0], j, NULL);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_FULL)
		r = dberr(s, err, insert ? "insert job" : "update job");
	else if (rc == SQLITE_DONE && !insert && sqlite3_changes(s->db) != 1)
		r = sl_err_set(err, SL_EDB, "store: update of unknown job %llu",
			       (unsigned long long)j->id);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_FULL ? broke(s, err) : r;
}

/* The spec's text stays with the transaction until it commits: a full
 * disk keeps it, since the daemon sheds the job's script and environment. */
int sl_store_insert(struct sl_store *s, const struct sl_job *j, struct sl_err *err)
{
	char *spec;
	int r;

	if (s->broken)
		return full(s, err);
	spec = spec_text(&j->spec);
	if ((r = put_row(s, 1, j, spec, err)) == 0)
		wlist_push(&s->tx, j->id, 1, spec);
	else
		free(spec);
	return r;
}

/* Once a full disk has rolled the transaction back, an update is only
 * noted: the commit keeps the job's record as it is by then. */
int sl_store_update(struct sl_store *s, const struct sl_job *j, struct sl_err *err)
{
	int r = s->broken ? 0 : put_row(s, 0, j, NULL, err);

	if (r == 0 || s->broken)
		wlist_push(&s->tx, j->id, 0, NULL);
	return s->broken ? 0 : r;
}

/* A spec changed by scontrol update: its column rewritten. Not kept
 * through a full disk (store.h). */
int sl_store_update_spec(struct sl_store *s, uint64_t id, const struct sl_jobspec *spec,
			 struct sl_err *err)
{
	sqlite3_stmt *st;
	char *text;
	int r;

	if (s->broken || (s->kept.n > 0 && kept_find(s, id) != NULL))
		return sl_err_set(err, SL_EBUSY, "the disk of the state directory is full; "
				  "try again once there is room");
	if ((r = prepare(s, "UPDATE jobs SET spec=? WHERE id=?", &st, err)) != 0)
		return r;
	text = spec_text(spec);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (int64_t)id);
	if (sqlite3_step(st) != SQLITE_DONE)
		r = dberr(s, err, "update job spec");
	sqlite3_finalize(st);
	free(text);
	return r;
}

int sl_store_load_spec(struct sl_store *s, uint64_t id, struct sl_jobspec *out,
		       struct sl_err *err)
{
	const unsigned char *text;
	struct wrote *k = s->kept_inserts > 0 ? kept_find(s, id) : NULL;
	int r, rc;

	if (k != NULL && k->insert) /* not on disk yet */
		return sl_jobspec_parse(k->spec, strlen(k->spec), out, err);
	sqlite3_bind_int64(s->spec, 1, (int64_t)id);
	rc = sqlite3_step(s->spec);
	if (rc == SQLITE_ROW && (text = sqlite3_column_text(s->spec, 0)) != NULL)
		r = sl_jobspec_parse((const char *)text, (size_t)sqlite3_column_bytes(s->spec, 0),
				     out, err);
	else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		r = sl_err_set(err, SL_ENOENT, "store: job %llu has no spec",
			       (unsigned long long)id);
	else
		r = dberr(s, err, "read job spec");
	sqlite3_reset(s->spec);
	return r;
}

int sl_store_find_key(struct sl_store *s, uid_t uid, const char *key, uint64_t *id,
		      struct sl_err *err)
{
	int rc, r = 0;

	*id = 0;
	/* A job kept through a full disk is not in the table yet. */
	for (size_t i = 0; i < s->kept.n; i++) {
		const struct sl_job *j = kept_rec(s, &s->kept.v[i]);
		if (s->kept.v[i].insert && j->uid == uid && j->submit_key != NULL &&
		    strcmp(j->submit_key, key) == 0) {
			*id = j->id;
			return 0;
		}
	}
	sqlite3_bind_int64(s->key, 1, (int64_t)uid);
	sqlite3_bind_text(s->key, 2, key, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s->key)) == SQLITE_ROW)
		*id = (uint64_t)sqlite3_column_int64(s->key, 0);
	else if (rc != SQLITE_DONE)
		r = dberr(s, err, "find a job by its submit key");
	sqlite3_reset(s->key);
	sqlite3_clear_bindings(s->key);
	return r;
}

/* ---- reading ---- */

static int read_col(sqlite3_stmt *st, int i, const struct col *c, struct sl_job *j,
		    struct sl_err *err)
{
	/* Text only for text columns: asking an integer for it formats one. */
	const char *text = c->type >= C_STR ? (const char *)sqlite3_column_text(st, i) : NULL;
	char *p = (char *)j + c->off;
	int state;

	switch (c->type) {
	case C_KEY: j->id = (uint64_t)sqlite3_column_int64(st, i); break;
	case C_UID: *(uid_t *)p = (uid_t)sqlite3_column_int64(st, i); break;
	case C_INT: *(int *)p = sqlite3_column_int(st, i); break;
	case C_I64: *(int64_t *)p = sqlite3_column_int64(st, i); break;
	case C_STR: *(char **)p = sl_xstrdup(text); break;
	case C_FINAL: break;
	case C_STATE:
		state = text ? sl_jobstate_parse(text) : -1;
		j->state = state < 0 ? SL_JOB_FAILED : (enum sl_jobstate)state;
		break;
	case C_SPEC:
		return sl_jobspec_parse(text, (size_t)sqlite3_column_bytes(st, i), &j->spec, err);
	}
	return 0;
}

static int row_to_job(sqlite3_stmt *st, struct sl_job **out, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	int r = 0;

	for (size_t i = 0; r == 0 && i < NCOLS; i++)
		r = read_col(st, (int)i, &cols[i], j, err);
	if (r != 0) {
		sl_job_free(j);
		j = NULL;
	}
	*out = j;
	return r;
}

/* A row that cannot be read is one job lost to every listing, not every
 * listing lost: it is skipped, and said once (a listing runs often). */
static void unreadable(struct sl_store *s, uint64_t id, const char *why)
{
	for (size_t i = 0; i < s->nbad; i++)
		if (s->bad[i] == id)
			return;
	if (s->nbad == BAD_ROWS_MAX)
		return;
	s->bad = sl_xgrow(s->bad, &s->capbad, s->nbad + 1, sizeof(*s->bad));
	s->bad[s->nbad++] = id;
	sl_err_log("store %s: job %llu cannot be read, and is left out of every listing: %s%s",
		   s->path, (unsigned long long)id, why,
		   s->nbad == BAD_ROWS_MAX ? " (no more such rows will be reported)" : "");
}

/* Every column of the jobs WHERE `where`. */
static int prepare_select(struct sl_store *s, const char *where, sqlite3_stmt **st,
			  struct sl_err *err)
{
	char *sql = sl_xasprintf("%s WHERE %s", s->select, where);
	int r = prepare(s, sql, st, err);

	free(sql);
	return r;
}

/* cb for each readable row that matches f (NULL: every row), but for the
 * jobs whose newer record is kept in memory. */
static int query(struct sl_store *s, sqlite3_stmt *st, const struct sl_jobfilter *f,
		 sl_store_job_cb cb, void *arg, struct sl_err *err)
{
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sl_err why = SL_ERR_INIT;
		uint64_t id = (uint64_t)sqlite3_column_int64(st, 0);
		struct sl_job *j;
		if (s->kept.n > 0 && kept_find(s, id) != NULL)
			continue;
		if (row_to_job(st, &j, &why) != 0) {
			unreadable(s, id, why.msg);
			continue;
		}
		if (f == NULL || sl_jobfilter_match(f, j))
			r = cb(j, arg);
		sl_job_free(j);
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = dberr(s, err, "query");
	sqlite3_finalize(st);
	return r;
}

struct collect {
	struct sl_job **v;
	size_t n, cap;
};

static int collect_cb(const struct sl_job *j, void *arg)
{
	struct collect *c = arg;

	c->v = sl_xgrow(c->v, &c->cap, c->n + 2, sizeof(*c->v));
	c->v[c->n++] = sl_job_copy(j);
	return 0;
}

int sl_store_load_live(struct sl_store *s, int64_t ended_since, struct sl_job ***v,
		       size_t *n, struct sl_err *err)
{
	struct collect c = {0};
	sqlite3_stmt *st;
	int r;

	*v = NULL;
	*n = 0;
	if ((r = prepare_select(s, "final=0 OR end_time>=? ORDER BY id", &st, err)))
		return r;
	sqlite3_bind_int64(st, 1, ended_since);
	if ((r = query(s, st, NULL, collect_cb, &c, err)) != 0) {
		sl_job_free_array(c.v, c.n);
		return r;
	}
	*v = c.v;
	*n = c.n;
	return 0;
}

/* The history's terms, for a record kept in memory as for a row. */
static int history_match(const struct sl_jobfilter *f, const struct sl_job *j)
{
	return sl_jobstate_is_final(j->state) && (f->start_after == 0 || j->end_time >= f->start_after) &&
	       (f->end_before == 0 || j->start_time <= f->end_before) && sl_jobfilter_match(f, j);
}

/* A single uid goes to SQL (the filter sacct sends by default); the rest
 * of f is matched in C. */
int sl_store_job(struct sl_store *s, uint64_t id, sl_store_job_cb cb, void *arg,
		 struct sl_err *err)
{
	struct wrote *k = s->kept.n > 0 ? kept_find(s, id) : NULL;
	sqlite3_stmt *st;
	int r;

	if (k != NULL && kept_rec(s, k) != NULL)
		return cb(kept_rec(s, k), arg);
	if ((r = prepare_select(s, "id=?", &st, err)) != 0)
		return r;
	sqlite3_bind_int64(st, 1, (int64_t)id);
	return query(s, st, NULL, cb, arg, err);
}

int sl_store_history(struct sl_store *s, const struct sl_jobfilter *f, sl_store_job_cb cb,
		     void *arg, struct sl_err *err)
{
	sqlite3_stmt *st;
	int r;
	if ((r = prepare_select(s, "final=1 AND (?1<0 OR uid=?1) AND (?2=0 OR end_time>=?2)"
				" AND (?3=0 OR start_time<=?3) ORDER BY id", &st, err)))
		return r;
	sqlite3_bind_int64(st, 1, f->n_uids == 1 ? (int64_t)f->uids[0] : -1);
	sqlite3_bind_int64(st, 2, f->start_after);
	sqlite3_bind_int64(st, 3, f->end_before);
	if ((r = query(s, st, f, cb, arg, err)) != 0)
		return r;
	for (size_t i = 0; r == 0 && i < s->kept.n; i++) {
		const struct sl_job *j = kept_rec(s, &s->kept.v[i]);
		if (history_match(f, j))
			r = cb(j, arg);
	}
	return r;
}
