/* store_nodes.c - an operator's node and partition states in SQLite
 * (store_nodes.h). A few rows at most, changed by hand: the statements are
 * prepared per call, and the tables are made on first use, so that a store
 * from before them gains them without a schema version. */
#include "store_nodes.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "xalloc.h"

static int prep(struct sl_store *s, const char *sql, sqlite3_stmt **st, struct sl_err *err)
{
	int r = store_exec(s, "CREATE TABLE IF NOT EXISTS nodes(name TEXT PRIMARY KEY,"
			   " flags INTEGER NOT NULL, reason TEXT, user TEXT, uid INTEGER,"
			   " time INTEGER);"
			   "CREATE TABLE IF NOT EXISTS partitions(name TEXT PRIMARY KEY,"
			   " state TEXT NOT NULL, user TEXT, uid INTEGER, time INTEGER);", err);
	if (r == 0 && sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		r = store_dberr(s, err, "nodes");
	return r;
}

int sl_store_node_put(struct sl_store *s, const struct sl_store_node *n, struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	int r, keep = n->flags != 0 || n->reason != NULL;

	store_unkept_write(s);
	if ((r = prep(s, keep ? "INSERT OR REPLACE INTO nodes(name, flags, reason, user, uid, time)"
				" VALUES(?,?,?,?,?,?)"
			      : "DELETE FROM nodes WHERE name=?", &q, err)))
		return r;
	sqlite3_bind_text(q, 1, n->name, -1, SQLITE_STATIC);
	if (keep) {
		sqlite3_bind_int64(q, 2, n->flags);
		sqlite3_bind_text(q, 3, n->reason, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, n->user, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 5, (sqlite3_int64)n->uid);
		sqlite3_bind_int64(q, 6, n->time);
	}
	if (sqlite3_step(q) != SQLITE_DONE)
		r = store_dberr(s, err, "nodes");
	sqlite3_finalize(q);
	return r;
}

static char *col_text(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	return t ? sl_xstrdup((const char *)t) : NULL;
}

int sl_store_node_get(struct sl_store *s, const char *name, struct sl_store_node *out,
		      struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	int r, rc;

	memset(out, 0, sizeof(*out));
	if ((r = prep(s, "SELECT flags, reason, user, uid, time FROM nodes WHERE name=?", &q, err)))
		return r;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		out->name = sl_xstrdup(name);
		out->flags = (unsigned)sqlite3_column_int64(q, 0);
		out->reason = col_text(q, 1);
		out->user = col_text(q, 2);
		out->uid = (uid_t)sqlite3_column_int64(q, 3);
		out->time = sqlite3_column_int64(q, 4);
	} else if (rc == SQLITE_DONE) {
		r = -SL_ENOENT;
	} else {
		r = store_dberr(s, err, "nodes");
	}
	sqlite3_finalize(q);
	return r;
}

void sl_store_node_clear(struct sl_store_node *n)
{
	free(n->name);
	free(n->reason);
	free(n->user);
	memset(n, 0, sizeof(*n));
}

int sl_store_part_put(struct sl_store *s, const struct sl_store_part *p, struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	int r, keep = p->state != NULL && strcmp(p->state, "UP") != 0;

	store_unkept_write(s);
	if ((r = prep(s, keep ? "INSERT OR REPLACE INTO partitions(name, state, user, uid, time)"
				" VALUES(?,?,?,?,?)"
			      : "DELETE FROM partitions WHERE name=?", &q, err)))
		return r;
	sqlite3_bind_text(q, 1, p->name, -1, SQLITE_STATIC);
	if (keep) {
		sqlite3_bind_text(q, 2, p->state, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, p->user, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 4, (sqlite3_int64)p->uid);
		sqlite3_bind_int64(q, 5, p->time);
	}
	if (sqlite3_step(q) != SQLITE_DONE)
		r = store_dberr(s, err, "partitions");
	sqlite3_finalize(q);
	return r;
}

int sl_store_parts(struct sl_store *s, struct sl_store_part **out, size_t *n,
		   struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	int r, rc;

	*out = NULL;
	*n = 0;
	if ((r = prep(s, "SELECT name, state, user, uid, time FROM partitions ORDER BY name",
		      &q, err)))
		return r;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_store_part *p;
		*out = sl_xgrow(*out, &cap, *n + 1, sizeof(**out));
		p = &(*out)[(*n)++];
		p->name = col_text(q, 0);
		p->state = col_text(q, 1);
		p->user = col_text(q, 2);
		p->uid = (uid_t)sqlite3_column_int64(q, 3);
		p->time = sqlite3_column_int64(q, 4);
	}
	if (rc != SQLITE_DONE)
		r = store_dberr(s, err, "partitions");
	sqlite3_finalize(q);
	return r;
}

void sl_store_part_free(struct sl_store_part *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].state);
		free(v[i].user);
	}
	free(v);
}
