/* store.c - SQLite persistence: the schema and the statements, transactions
 * and a full disk, and writing records. The spec (immutable after submit) is
 * one JSON column; the record fields that change are plain columns so an
 * update rewrites a few bytes, not the script and environment. A full disk
 * keeps the records it refused in memory until a commit finds space
 * (store.h). The column table and reading rows are store_rows.c's. */
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SCHEMA_VERSION 1

int store_dberr(struct sl_store *s, struct sl_err *err, const char *what)
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

int store_prepare(struct sl_store *s, const char *sql, sqlite3_stmt **st,
		  struct sl_err *err)
{
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) !=
	    SQLITE_OK)
		return store_dberr(s, err, "prepare");
	return 0;
}

static int prepare_stmt(struct sl_store *s, enum store_stmt k, sqlite3_stmt **st,
			struct sl_err *err)
{
	char *sql = store_statement(k);
	int r = store_prepare(s, sql, st, err);

	free(sql);
	return r;
}

static int check_version(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st;
	int v = -1, r;
	if ((r = store_prepare(s, "SELECT value FROM meta WHERE key='schema_version'", &st, err)))
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
	char *jobs = store_statement(S_CREATE);
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

/* The next id is one past the largest stored, so an id whose job was
 * never committed (never printed) is handed out again, and nothing is
 * written per submission but the job. meta.next_job_id stays a floor:
 * stores that counted there keep counting from it. */
static int load_next_id(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st;
	int r;

	if ((r = store_prepare(s, "SELECT max((SELECT ifnull(max(id), 0) + 1 FROM jobs),"
			 " (SELECT ifnull(max(value), 1) FROM meta WHERE key='next_job_id'))",
			 &st, err)))
		return r;
	if (sqlite3_step(st) == SQLITE_ROW)
		s->next_id = (uint64_t)sqlite3_column_int64(st, 0);
	else
		r = store_dberr(s, err, "next job id");
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
	    (r = store_add_columns(s, err)) || (r = load_next_id(s, err)))
		return r;
	sqlite3_wal_hook(s->db, wal_hook, s);
	s->select = store_statement(S_SELECT);
	if ((r = prepare_stmt(s, S_INSERT, &s->ins, err)) ||
	    (r = prepare_stmt(s, S_UPDATE, &s->upd, err)) ||
	    (r = store_prepare(s, "SELECT spec FROM jobs WHERE id=?", &s->spec, err)) ||
	    (r = store_prepare(s, "SELECT id FROM jobs WHERE uid=? AND submit_key=?", &s->key, err)) ||
	    (r = store_prepare(s, "BEGIN IMMEDIATE", &s->begin, err)) ||
	    (r = store_prepare(s, "COMMIT", &s->commit, err)) ||
	    (r = store_prepare(s, "ROLLBACK", &s->rollback, err)))
		return r;
	return 0;
}

/* ---- transactions, and a full disk ---- */

static void wlist_push(struct wlist *l, uint64_t id, int insert, char *spec)
{
	l->v = sl_xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct wrote){id, insert, spec, NULL};
}

struct wrote *store_kept_find(struct sl_store *s, uint64_t id)
{
	for (size_t i = 0; i < s->kept.n; i++)
		if (s->kept.v[i].id == id)
			return &s->kept.v[i];
	return NULL;
}

/* The freshest record of a kept job: the daemon's, else our copy. */
const struct sl_job *store_kept_rec(const struct sl_store *s, const struct wrote *w)
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
		struct wrote *t = &s->tx.v[i], *k = store_kept_find(s, t->id);
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
	s->steps_ready = 0; /* a steps table or column made in it is gone with it */
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
		if (put_row(s, k->insert, store_kept_rec(s, k), k->spec, &e) != 0 && !s->broken)
			sl_err_log("job %llu: %s", (unsigned long long)k->id, e.msg);
	}
}

static int run(struct sl_store *s, sqlite3_stmt *st, const char *what, struct sl_err *err)
{
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_DONE ? 0 : store_dberr(s, err, what);
	sqlite3_reset(st);
	return r;
}

void store_unkept_write(struct sl_store *s)
{
	s->unkept_seq++;
}

uint64_t sl_store_unkept_seq(const struct sl_store *s)
{
	return s->unkept_seq;
}

uint64_t sl_store_unkept_lost(const struct sl_store *s)
{
	return s->unkept_lost;
}

int sl_store_begin(struct sl_store *s, struct sl_err *err)
{
	int r;
	if (s->in_txn)
		return 0;
	if ((r = run(s, s->begin, "BEGIN", err)) != 0)
		return r;
	s->in_txn = 1;
	s->unkept_txn_start = s->unkept_seq;
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
			s->steps_ready = 0;
			return sl_err_set(err, SL_EDB, "store: COMMIT: %s", sqlite3_errstr(rc));
		}
		(void)broke(s, NULL);
	}
	s->broken = 0;
	keep_tx(s);
	if (s->unkept_seq > s->unkept_txn_start) /* rolled back with the rest, not kept */
		s->unkept_lost = s->unkept_seq;
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

/* The ids given out, kept outside the database: a store that a damaged
 * file brings back short (or --reset-state empties) must not give them
 * again, and finished jobs' directories are recycled, so nothing else
 * tells. Written once every ID_MARK_STEP ids, by rename. */
#define ID_MARK_STEP 1000
#define ID_MARK_FILE "idmark"

static void write_id_mark(struct sl_store *s, uint64_t mark)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%llu\n", (unsigned long long)mark);
	int fd = openat(s->dirfd, ID_MARK_FILE ".new", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
			O_NOFOLLOW, 0600);
	int ok = fd >= 0 && write(fd, text, (size_t)n) == n;

	if (fd >= 0)
		close(fd);
	if (!ok || renameat(s->dirfd, ID_MARK_FILE ".new", s->dirfd, ID_MARK_FILE) != 0)
		sl_warn("%s: cannot write " ID_MARK_FILE " beside it: %s: the job ids given out "
			"are marked in the store alone", s->path, strerror(errno));
	s->id_mark = mark; /* tried again a step on, not at every id */
}

void store_id_mark_load(struct sl_store *s)
{
	char text[32] = "";
	int fd = openat(s->dirfd, ID_MARK_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	uint64_t mark = n > 0 ? strtoull(text, NULL, 10) : 0;

	if (fd >= 0)
		close(fd);
	s->id_mark = mark;
	/* a store without a job (reset, or brought back empty) knows no id;
	 * one that has some may be up to a step behind the mark */
	sqlite3_stmt *q = NULL;
	int empty = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT NOT EXISTS (SELECT 1 FROM jobs)", -1, &q, NULL) ==
	    SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		empty = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	if (mark > s->next_id + ID_MARK_STEP || (empty && mark > s->next_id)) {
		sl_warn("%s: the store knows job ids below %llu only, but ids up to %llu were given "
			"out (%s): new jobs go on from %llu", s->path,
			(unsigned long long)s->next_id, (unsigned long long)mark, ID_MARK_FILE,
			(unsigned long long)mark);
		s->next_id = mark;
	}
}

int sl_store_next_id(struct sl_store *s, uint64_t *id, struct sl_err *err)
{
	(void)err;
	if (s->next_id >= s->id_mark && s->dirfd >= 0)
		write_id_mark(s, s->next_id + ID_MARK_STEP);
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

/* Bind the columns of an INSERT (every one) or an UPDATE (the mutable
 * ones, then the key), run it, and reset it. */
static int put_row(struct sl_store *s, int insert, const struct sl_job *j, const char *spec,
		   struct sl_err *err)
{
	sqlite3_stmt *st = insert ? s->ins : s->upd;
	int r = 0, rc;

	store_bind_row(st, insert, j, spec);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_FULL)
		r = store_dberr(s, err, insert ? "insert job" : "update job");
	else if (rc == SQLITE_DONE && !insert && sqlite3_changes(s->db) != 1)
		r = sl_err_set(err, SL_EDB, "store: update of unknown job %llu",
			       (unsigned long long)j->id);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_FULL ? broke(s, err) : r;
}

static int insert_text(struct sl_store *s, const struct sl_job *j, char *spec, struct sl_err *err);

/* The spec's text stays with the transaction until it commits: a full
 * disk keeps it, since the daemon sheds the job's script and environment. */
int sl_store_insert(struct sl_store *s, const struct sl_job *j, struct sl_err *err)
{
	return s->broken ? full(s, err) : insert_text(s, j, spec_text(&j->spec), err);
}

char *sl_store_spec_text(const struct sl_jobspec *spec)
{
	return spec_text(spec);
}

int sl_store_insert_spec(struct sl_store *s, const struct sl_job *j, const char *spec,
			 struct sl_err *err)
{
	return s->broken ? full(s, err) : insert_text(s, j, sl_xstrdup(spec), err);
}

/* Consumes spec. */
static int insert_text(struct sl_store *s, const struct sl_job *j, char *spec, struct sl_err *err)
{
	int r;

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

/* The spec's column rewritten. Not kept through a full disk (store.h). */
static int put_spec(struct sl_store *s, uint64_t id, const struct sl_jobspec *spec,
		    struct sl_err *err)
{
	sqlite3_stmt *st;
	char *text;
	int r;

	store_unkept_write(s);
	if (s->broken || (s->kept.n > 0 && store_kept_find(s, id) != NULL))
		return sl_err_set(err, SL_EBUSY, "the disk of the state directory is full; "
				  "try again once there is room");
	if ((r = store_prepare(s, "UPDATE jobs SET spec=? WHERE id=?", &st, err)) != 0)
		return r;
	text = spec_text(spec);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (int64_t)id);
	if (sqlite3_step(st) != SQLITE_DONE)
		r = store_dberr(s, err, "update job spec");
	sqlite3_finalize(st);
	free(text);
	return r;
}

/* Only the fields listed here change after submission; the rest of the
 * stored spec (the script and environment, which memory does not keep)
 * stays as submitted. A field scontrol update learns to change is added
 * here, or its change is lost at the next restart. */
int sl_store_save_spec(struct sl_store *s, uint64_t id, const struct sl_jobspec *from,
		       struct sl_err *err)
{
	struct sl_jobspec sp;
	int r;

	if ((r = sl_store_load_spec(s, id, &sp, err)) != 0)
		return r;
#define TAKE_STR(f) free(sp.f), sp.f = sl_xstrdup(from->f);
#define TAKE_STRV(f) sl_strv_free(sp.f), sp.f = from->f ? sl_strv_dup(from->f) : NULL;
#define TAKE(f) sp.f = from->f;
	TAKE_STR(name) TAKE_STR(partition) TAKE_STR(qos) TAKE_STR(comment)
	TAKE_STR(dependency) TAKE_STR(account) TAKE_STR(mail_user) TAKE_STR(work_dir)
	TAKE_STR(std_out) TAKE_STR(std_err) TAKE_STR(wckey) TAKE_STR(nodelist) TAKE_STR(exclude)
	TAKE_STRV(features)
	TAKE(contiguous) TAKE(switches) TAKE(wait4switch) TAKE(deadline) TAKE(delay_boot)
	TAKE(mail_type) TAKE(requeue) TAKE(mem_per_node) TAKE(mem_per_cpu) TAKE(mem_all)
	TAKE(node_cpus) TAKE(ntasks) TAKE(ntasks_per_node) TAKE(gpus_per_node) TAKE(gpus)
	TAKE(time_limit) TAKE(time_limit_secs) TAKE(time_min) TAKE(tmp_mb) TAKE(priority)
	TAKE(nice) TAKE(nodes) TAKE(nodes_max) TAKE(cpus_per_task) TAKE(mincpus) TAKE(begin_time)
	TAKE(omp_threads)
#undef TAKE_STR
#undef TAKE_STRV
#undef TAKE
	if ((r = sl_store_begin(s, err)) == 0)
		r = put_spec(s, id, &sp, err);
	sl_jobspec_clear(&sp);
	return r;
}

int sl_store_load_spec(struct sl_store *s, uint64_t id, struct sl_jobspec *out,
		       struct sl_err *err)
{
	const unsigned char *text;
	struct wrote *k = s->kept_inserts > 0 ? store_kept_find(s, id) : NULL;
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
		r = store_dberr(s, err, "read job spec");
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
		const struct sl_job *j = store_kept_rec(s, &s->kept.v[i]);
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
		r = store_dberr(s, err, "find a job by its submit key");
	sqlite3_reset(s->key);
	sqlite3_clear_bindings(s->key);
	return r;
}
