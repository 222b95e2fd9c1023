/* store_rows.c - the jobs table's rows: the column table every statement
 * is written from, a record bound into a row and read back out of one, and
 * the queries that read rows (the live jobs, one job, the history). The
 * schema, transactions and writes are store.c's (store_int.h). */
#include "store.h"
#include "buf.h"
#include "job_fields.h"
#include "log.h"
#include "store_int.h"
#include "xalloc.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* Caller frees. */
char *store_statement(enum store_stmt k)
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

/* Stores written before a column existed get it, at its default: a column
 * added with a default needs no schema version bump. Indexes on such
 * columns come after them. */
int store_add_columns(struct sl_store *s, struct sl_err *err)
{
	sqlite3_stmt *st = NULL;
	int r = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT * FROM jobs LIMIT 0", -1, &st, NULL) != SQLITE_OK)
		return store_dberr(s, err, "read the jobs columns");
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
	/* An array's tasks, found by its id (sl_store_history). */
	if (r == 0)
		r = store_exec(s, "CREATE INDEX IF NOT EXISTS jobs_array ON jobs(array_job_id);",
			       err);
	return r;
}

/* ---- a record into a row ---- */

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
 * ones, then the key). */
void store_bind_row(sqlite3_stmt *st, int insert, const struct sl_job *j, const char *spec)
{
	int at = 1;

	for (size_t i = 0; i < NCOLS; i++)
		if (insert || col_mutable(&cols[i]))
			bind_col(st, at++, &cols[i], j, spec);
	if (!insert)
		bind_col(st, at, &cols[0], j, NULL);
}

/* ---- reading ---- */

static int read_col(sqlite3_stmt *st, int i, const struct col *c, struct sl_job *j,
		    int listing, struct sl_err *err)
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
		return (listing ? sl_jobspec_parse_listing : sl_jobspec_parse)(
			text, (size_t)sqlite3_column_bytes(st, i), &j->spec, err);
	}
	return 0;
}

/* listing: for a listing, without what only a launch reads of the spec. */
static int row_to_job(sqlite3_stmt *st, struct sl_job **out, int listing, struct sl_err *err)
{
	struct sl_job *j = sl_job_new();
	int r = 0;

	for (size_t i = 0; r == 0 && i < NCOLS; i++)
		r = read_col(st, (int)i, &cols[i], j, listing, err);
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
	int r = store_prepare(s, sql, st, err);

	free(sql);
	return r;
}

/* cb for each readable row that matches f (NULL: every row), but for the
 * jobs whose newer record is kept in memory. */
static int query(struct sl_store *s, sqlite3_stmt *st, const struct sl_jobfilter *f,
		 int listing, sl_store_job_cb cb, void *arg, struct sl_err *err)
{
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sl_err why = SL_ERR_INIT;
		uint64_t id = (uint64_t)sqlite3_column_int64(st, 0);
		struct sl_job *j;
		if (s->kept.n > 0 && store_kept_find(s, id) != NULL)
			continue;
		if (row_to_job(st, &j, listing, &why) != 0) {
			unreadable(s, id, why.msg);
			continue;
		}
		if (f == NULL || sl_jobfilter_match(f, j))
			r = cb(j, arg);
		sl_job_free(j);
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = store_dberr(s, err, "query");
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
	if ((r = query(s, st, NULL, 0, collect_cb, &c, err)) != 0) {
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
	struct wrote *k = s->kept.n > 0 ? store_kept_find(s, id) : NULL;
	sqlite3_stmt *st;
	int r;

	if (k != NULL && store_kept_rec(s, k) != NULL)
		return cb(store_kept_rec(s, k), arg);
	if ((r = prepare_select(s, "id=?", &st, err)) != 0)
		return r;
	sqlite3_bind_int64(st, 1, (int64_t)id);
	return query(s, st, NULL, 1, cb, arg, err);
}

/* A few job ids (sacct -j) go to SQL too: the jobs, and the tasks of the
 * arrays they name (through the array_job_id index), so that a query for
 * one array reads its rows, not the whole history. */
#define IDS_IN_SQL 64

static char *ids_sql(const struct sl_jobfilter *f)
{
	struct sl_buf *b;
	char *sql;

	if (f->n_ids + f->n_tasks == 0 || f->n_ids + f->n_tasks > IDS_IN_SQL)
		return sl_xstrdup("");
	b = sl_buf_new(1 << 12);
	sl_buf_addstr(b, " AND (id IN (0");
	for (size_t i = 0; i < f->n_ids; i++)
		sl_buf_addf(b, ",%llu", (unsigned long long)f->ids[i]);
	sl_buf_addstr(b, ") OR array_job_id IN (0");
	for (size_t i = 0; i < f->n_ids; i++)
		sl_buf_addf(b, ",%llu", (unsigned long long)f->ids[i]);
	for (size_t i = 0; i < f->n_tasks; i++)
		sl_buf_addf(b, ",%llu", (unsigned long long)f->tasks[i].job);
	sl_buf_addstr(b, "))");
	sql = sl_buf_steal(b);
	sl_buf_free(b);
	return sql;
}

int sl_store_history(struct sl_store *s, const struct sl_jobfilter *f, sl_store_job_cb cb,
		     void *arg, struct sl_err *err)
{
	sqlite3_stmt *st;
	char *ids = ids_sql(f), *where;
	int r;

	where = sl_xasprintf("final=1 AND (?1<0 OR uid=?1) AND (?2=0 OR end_time>=?2)"
			     " AND (?3=0 OR start_time<=?3)%s ORDER BY id", ids);
	r = prepare_select(s, where, &st, err);
	free(where);
	free(ids);
	if (r != 0)
		return r;
	sqlite3_bind_int64(st, 1, f->n_uids == 1 ? (int64_t)f->uids[0] : -1);
	sqlite3_bind_int64(st, 2, f->start_after);
	sqlite3_bind_int64(st, 3, f->end_before);
	if ((r = query(s, st, f, 1, cb, arg, err)) != 0)
		return r;
	for (size_t i = 0; r == 0 && i < s->kept.n; i++) {
		const struct sl_job *j = store_kept_rec(s, &s->kept.v[i]);
		if (history_match(f, j))
			r = cb(j, arg);
	}
	return r;
}
