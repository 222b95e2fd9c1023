/* store.c - SQLite persistence. The spec (immutable after submit) is one
 * JSON column; the record fields that change are plain columns so an update
 * rewrites a few bytes, not the script and environment. */
#include "store.h"
#include "buf.h"
#include "fsutil.h"
#include "xalloc.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCHEMA_VERSION 1

struct sl_store {
	sqlite3 *db;
	int in_txn;
	int wal_frames; /* in the WAL since the last checkpoint */
	uint64_t next_id;
	sqlite3_stmt *ins, *upd, *spec;
	sqlite3_stmt *begin, *commit; /* once per loop turn: not parsed each time */
};

static const char *schema =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS jobs("
	" id INTEGER PRIMARY KEY, uid INTEGER NOT NULL, gid INTEGER NOT NULL,"
	" user TEXT, grp TEXT, state TEXT NOT NULL, reason TEXT, reason_text TEXT,"
	" submit_time INTEGER, eligible_time INTEGER, start_time INTEGER,"
	" end_time INTEGER, priority INTEGER, exit_code INTEGER, exit_signal INTEGER,"
	" nodelist TEXT, alloc_cpus INTEGER, attempt INTEGER, cancelled_by INTEGER,"
	" cluster_queue TEXT, flavors TEXT, final INTEGER NOT NULL DEFAULT 0,"
	" spec TEXT NOT NULL, ready_evictions INTEGER NOT NULL DEFAULT 0,"
	" alloc_nodes INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX IF NOT EXISTS jobs_final_end ON jobs(final, end_time);"
	"INSERT OR IGNORE INTO meta VALUES('schema_version', 1);"
	"INSERT OR IGNORE INTO meta VALUES('next_job_id', 1);";

/* Record columns in bind order for both INSERT and UPDATE. */
#define REC_COLS "uid,gid,user,grp,state,reason,reason_text,submit_time," \
	"eligible_time,start_time,end_time,priority,exit_code,exit_signal,"     \
	"nodelist,alloc_cpus,attempt,cancelled_by,cluster_queue,flavors,final," \
	"ready_evictions,alloc_nodes"
#define NREC 23

static int dberr(struct sl_store *s, struct sl_err *err, const char *what)
{
	return sl_err_set(err, SL_EDB, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

static int exec(struct sl_store *s, const char *sql, struct sl_err *err)
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

/* Stores written before a column existed get it (value 0): a column added
 * with a default needs no schema version bump. */
static int add_column(struct sl_store *s, const char *col, struct sl_err *err)
{
	char *q = sl_xasprintf("SELECT %s FROM jobs LIMIT 0", col);
	sqlite3_stmt *st = NULL;
	int r = 0;

	if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
	} else {
		free(q);
		q = sl_xasprintf("ALTER TABLE jobs ADD COLUMN %s INTEGER NOT NULL DEFAULT 0;", col);
		r = exec(s, q, err);
	}
	free(q);
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

int sl_store_open(const char *dir, int fsync, struct sl_store **out, struct sl_err *err)
{
	struct sl_store *s = sl_xcalloc(1, sizeof(*s));
	char *path = sl_xasprintf("%s/sluice.db", dir);
	int r;

	*out = NULL;
	/* 0711: job users must reach their job's script under jobs/ (the
	 * executor's directories), but may not list the state. */
	if ((r = sl_mkdirs(dir, 0711, err)) != 0)
		goto out;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		r = sl_err_set(err, SL_EDB, "store: cannot open %s: %s", path,
			       s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(s->db, 5000);
	/* Only sluiced opens the database: exclusive locking spares the file
	 * locks and shared-memory index that every transaction would otherwise
	 * take, and keeps a second daemon off the same state. */
	if ((r = exec(s, "PRAGMA locking_mode=EXCLUSIVE;", err)))
		goto out;
	/* WAL: a committed transaction is in the log file before we reply, so
	 * kill -9 of sluiced loses nothing; FULL adds the fsync that a machine
	 * crash needs (durability: power). Readers never block the writer. */
	if ((r = exec(s, "PRAGMA journal_mode=WAL;", err)) ||
	    (r = exec(s, fsync ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;",
		      err)) ||
	    (r = exec(s, "BEGIN;", err)) || (r = exec(s, schema, err)) ||
	    (r = exec(s, "COMMIT;", err)) || (r = check_version(s, err)) ||
	    (r = add_column(s, "ready_evictions", err)) || (r = add_column(s, "alloc_nodes", err)))
		goto out;
	if ((r = load_next_id(s, err)) != 0)
		goto out;
	sqlite3_wal_hook(s->db, wal_hook, s);
	if ((r = prepare(s, "INSERT INTO jobs(id," REC_COLS ",spec) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &s->ins, err)) ||
	    (r = prepare(s, "UPDATE jobs SET (" REC_COLS ")=(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) WHERE id=?", &s->upd, err)) ||
	    (r = prepare(s, "SELECT spec FROM jobs WHERE id=?", &s->spec, err)) ||
	    (r = prepare(s, "BEGIN IMMEDIATE", &s->begin, err)) ||
	    (r = prepare(s, "COMMIT", &s->commit, err)))
		goto out;
	*out = s;
	s = NULL;
	r = 0;
out:
	if (s != NULL && r != 0)
		sl_err_prefix(err, "%s", path);
	sl_store_free(s);
	free(path);
	return r;
}

void sl_store_free(struct sl_store *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->ins);
	sqlite3_finalize(s->upd);
	sqlite3_finalize(s->spec);
	sqlite3_finalize(s->begin);
	sqlite3_finalize(s->commit);
	sqlite3_close(s->db);
	free(s);
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
	if ((r = run(s, s->begin, "BEGIN", err)) == 0)
		s->in_txn = 1;
	return r;
}

int sl_store_commit(struct sl_store *s, struct sl_err *err)
{
	int r;
	if (!s->in_txn)
		return 0;
	r = run(s, s->commit, "COMMIT", err);
	s->in_txn = 0;
	return r;
}

void sl_store_idle(struct sl_store *s)
{
	if (s->in_txn || s->wal_frames < SL_STORE_CHECKPOINT_FRAMES)
		return;
	/* PASSIVE never waits; a checkpoint that fails is retried next time. */
	if (sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) ==
	    SQLITE_OK)
		s->wal_frames = 0;
}

int sl_store_in_txn(const struct sl_store *s)
{
	return s->in_txn;
}

int sl_store_next_id(struct sl_store *s, uint64_t *id, struct sl_err *err)
{
	(void)err;
	*id = s->next_id++;
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v != NULL)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Bind the record columns starting at parameter `at`; returns the next. */
static int bind_rec(sqlite3_stmt *st, int at, const struct sl_job *j)
{
	sqlite3_bind_int64(st, at++, j->uid);
	sqlite3_bind_int64(st, at++, j->gid);
	bind_text(st, at++, j->user);
	bind_text(st, at++, j->group);
	bind_text(st, at++, sl_jobstate_name(j->state));
	bind_text(st, at++, j->reason);
	bind_text(st, at++, j->reason_text);
	sqlite3_bind_int64(st, at++, j->submit_time);
	sqlite3_bind_int64(st, at++, j->eligible_time);
	sqlite3_bind_int64(st, at++, j->start_time);
	sqlite3_bind_int64(st, at++, j->end_time);
	sqlite3_bind_int64(st, at++, j->priority);
	sqlite3_bind_int(st, at++, j->exit_code);
	sqlite3_bind_int(st, at++, j->exit_signal);
	bind_text(st, at++, j->nodelist);
	sqlite3_bind_int(st, at++, j->alloc_cpus);
	sqlite3_bind_int(st, at++, j->attempt);
	sqlite3_bind_int(st, at++, j->cancelled_by);
	bind_text(st, at++, j->cluster_queue);
	bind_text(st, at++, j->flavors);
	sqlite3_bind_int(st, at++, sl_jobstate_is_final(j->state));
	sqlite3_bind_int(st, at++, j->ready_evictions);
	sqlite3_bind_int(st, at++, j->alloc_nodes);
	return at;
}

/* No cap worth the name: a spec is whatever the request limit let in. */
#define SPEC_CAP ((size_t)1 << 40)

int sl_store_insert(struct sl_store *s, const struct sl_job *j, struct sl_err *err)
{
	struct sl_buf *b = sl_buf_new(SPEC_CAP);
	int r = 0, at;

	(void)sl_jobspec_text_append(b, &j->spec);
	sqlite3_reset(s->ins);
	sqlite3_bind_int64(s->ins, 1, (int64_t)j->id);
	at = bind_rec(s->ins, 2, j);
	sqlite3_bind_text(s->ins, at, sl_buf_steal(b), -1, free); /* SQLite frees it */
	sl_buf_free(b);
	if (sqlite3_step(s->ins) != SQLITE_DONE)
		r = dberr(s, err, "insert job");
	sqlite3_reset(s->ins);
	sqlite3_clear_bindings(s->ins);
	return r;
}

int sl_store_load_spec(struct sl_store *s, uint64_t id, struct sl_jobspec *out,
		       struct sl_err *err)
{
	const unsigned char *text;
	int r, rc;

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

int sl_store_update(struct sl_store *s, const struct sl_job *j, struct sl_err *err)
{
	int r = 0, at;
	sqlite3_reset(s->upd);
	at = bind_rec(s->upd, 1, j);
	sqlite3_bind_int64(s->upd, at, (int64_t)j->id);
	if (sqlite3_step(s->upd) != SQLITE_DONE)
		r = dberr(s, err, "update job");
	else if (sqlite3_changes(s->db) != 1)
		r = sl_err_set(err, SL_EDB, "store: update of unknown job %llu",
			       (unsigned long long)j->id);
	sqlite3_reset(s->upd);
	return r;
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? sl_xstrdup((const char *)t) : NULL;
}

static int row_to_job(sqlite3_stmt *st, struct sl_job **out, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	int c = 1, r, state;

	j->id = (uint64_t)sqlite3_column_int64(st, 0);
	j->uid = (uid_t)sqlite3_column_int64(st, c++);
	j->gid = (gid_t)sqlite3_column_int64(st, c++);
	j->user = col_str(st, c++);
	j->group = col_str(st, c++);
	state = sl_jobstate_parse((const char *)sqlite3_column_text(st, c++));
	j->state = state < 0 ? SL_JOB_FAILED : (enum sl_jobstate)state;
	j->reason = col_str(st, c++);
	j->reason_text = col_str(st, c++);
	j->submit_time = sqlite3_column_int64(st, c++);
	j->eligible_time = sqlite3_column_int64(st, c++);
	j->start_time = sqlite3_column_int64(st, c++);
	j->end_time = sqlite3_column_int64(st, c++);
	j->priority = sqlite3_column_int64(st, c++);
	j->exit_code = sqlite3_column_int(st, c++);
	j->exit_signal = sqlite3_column_int(st, c++);
	j->nodelist = col_str(st, c++);
	j->alloc_cpus = sqlite3_column_int(st, c++);
	j->attempt = sqlite3_column_int(st, c++);
	j->cancelled_by = sqlite3_column_int(st, c++);
	j->cluster_queue = col_str(st, c++);
	j->flavors = col_str(st, c++);
	c++; /* final */
	j->ready_evictions = sqlite3_column_int(st, c++);
	j->alloc_nodes = sqlite3_column_int(st, c++);
	if ((r = sl_jobspec_parse((const char *)sqlite3_column_text(st, c),
				  (size_t)sqlite3_column_bytes(st, c), &j->spec, err)) != 0) {
		sl_err_prefix(err, "store: job %llu", (unsigned long long)j->id);
		sl_job_free(j);
		j = NULL;
	}
	*out = j;
	return r;
}

static int query(struct sl_store *s, sqlite3_stmt *st, sl_store_job_cb cb, void *arg,
		 struct sl_err *err)
{
	int rc, r = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sl_job *j;
		if ((r = row_to_job(st, &j, err)) != 0)
			break;
		r = cb(j, arg);
		sl_job_free(j);
		if (r != 0)
			break;
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
	if ((r = prepare(s, "SELECT id," REC_COLS ",spec FROM jobs WHERE final=0 OR end_time>=? ORDER BY id", &st, err)))
		return r;
	sqlite3_bind_int64(st, 1, ended_since);
	if ((r = query(s, st, collect_cb, &c, err)) != 0) {
		sl_job_free_array(c.v, c.n);
		return r;
	}
	*v = c.v;
	*n = c.n;
	return 0;
}

int sl_store_history(struct sl_store *s, int64_t uid, int64_t ended_after,
		     int64_t started_before, sl_store_job_cb cb, void *arg,
		     struct sl_err *err)
{
	sqlite3_stmt *st;
	int r;
	if ((r = prepare(s, "SELECT id," REC_COLS ",spec FROM jobs WHERE final=1"
			 " AND (?1<0 OR uid=?1) AND (?2=0 OR end_time>=?2)"
			 " AND (?3=0 OR start_time<=?3) ORDER BY id", &st, err)))
		return r;
	sqlite3_bind_int64(st, 1, uid);
	sqlite3_bind_int64(st, 2, ended_after);
	sqlite3_bind_int64(st, 3, started_before);
	return query(s, st, cb, arg, err);
}
