/* store_int.h - the store's state, shared by store.c (schema, transactions,
 * writes), store_rows.c (the column table, rows, reads) and store_open.c
 * (opening and closing). Nothing else includes it. */
#ifndef SL_STORE_INT_H
#define SL_STORE_INT_H

#include <sqlite3.h>
#include "store.h"

#define DB_NAME "sluice.db"

/* A job written in the open transaction, or kept after a full disk. */
struct wrote {
	uint64_t id;
	int insert;          /* a new row: written whole */
	char *spec;          /* an insert's spec text, owned (the live job has shed it) */
	struct sl_job *rec;  /* kept: the record as last known */
};

struct wlist {
	struct wrote *v;
	size_t n, cap;
};

struct sl_store {
	sqlite3 *db;
	char *path;
	int dirfd;          /* the state directory, for its free space */
	int in_txn;
	int broken;         /* the open transaction was rolled back by a full disk */
	int room;           /* free space looked up since the last commit: 1 room, -1 none */
	int wal_frames;     /* in the WAL since the last checkpoint */
	int steps_ready;    /* the steps table is made and has every column */
	uint64_t next_id;
	uint64_t id_mark;   /* every id given out is below it (the file idmark) */
	/* Writes a full disk's rollback loses rather than keeps (steps, a
	 * stored spec): counted, and the count at the last such loss. */
	uint64_t unkept_seq, unkept_txn_start, unkept_lost;
	char *select;       /* "SELECT <every column> FROM jobs" */
	sqlite3_stmt *ins, *upd, *spec, *key;
	sqlite3_stmt *begin, *commit, *rollback; /* once per loop turn: not parsed each time */
	struct wlist tx;    /* written in the open transaction */
	struct wlist kept;  /* refused by a full disk, written again at each begin */
	size_t kept_inserts;
	sl_store_lookup_fn lookup;
	void *lookup_arg;
	uint64_t *bad;      /* rows already logged as unreadable */
	size_t nbad, capbad;
};
int store_exec(struct sl_store *s, const char *sql, struct sl_err *err);
/* Schema and its upgrades, the next id (at least floor), the statements. */
int store_schema(struct sl_store *s, unsigned flags, uint64_t floor, struct sl_err *err);
void store_wlist_clear(struct wlist *l);
/* A write the kept list does not hold (store_steps.c, put_spec). */
void store_unkept_write(struct sl_store *s);
/* The id mark (store.c): ids go on past it when the store forgot some. */
void store_id_mark_load(struct sl_store *s);

/* store.c */
int store_dberr(struct sl_store *s, struct sl_err *err, const char *what);
int store_prepare(struct sl_store *s, const char *sql, sqlite3_stmt **st,
		  struct sl_err *err);
struct wrote *store_kept_find(struct sl_store *s, uint64_t id);
/* The freshest record of a kept job: the daemon's, else our copy. */
const struct sl_job *store_kept_rec(const struct sl_store *s, const struct wrote *w);

/* store_rows.c: the statements written from the column table. */
enum store_stmt { S_CREATE, S_INSERT, S_UPDATE, S_SELECT };
/* Caller frees. */
char *store_statement(enum store_stmt k);
/* The columns an older store lacks, added at their defaults. */
int store_add_columns(struct sl_store *s, struct sl_err *err);
/* Bind an INSERT's columns (every one) or an UPDATE's (the mutable ones,
 * then the key); spec is the spec column's text, borrowed until the step. */
void store_bind_row(sqlite3_stmt *st, int insert, const struct sl_job *j, const char *spec);

#endif
