/* store_steps.c - job steps in SQLite (store_steps.h). Steps are few next
 * to jobs (one per srun), so their statements are prepared per call rather
 * than kept in the store's struct, and the table is created on first use:
 * a store from before steps gains it without a schema version. */
#include "store_steps.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "xalloc.h"

/* A requeued job's earlier runs keep their steps at step_id + run x
 * RUN_STRIDE (sl_store_steps_archive), so that each run numbers its own
 * from 0, as slurmctld does; rows read back carry the run's own number. */
#define RUN_STRIDE (INT64_C(1) << 24)

#define STEP_COLS "job_id, step_id, name, state, exit_code, exit_signal, start_time, " \
	"end_time, ntasks, nnodes, cpus, nodelist, uid, pid, pid_start, cancelled_by, overlap, mem, " \
	"time_limit, dist, cpu_freq, srun_host, in_batch, usage"

/* Columns added after the table first was: a table from before gets them. */
static const struct {
	const char *name, *decl;
} later[] = {
	{"mem", "mem INTEGER NOT NULL DEFAULT 0"},
	{"time_limit", "time_limit INTEGER NOT NULL DEFAULT 0"},
	{"dist", "dist TEXT"},
	{"cpu_freq", "cpu_freq TEXT"},
	{"srun_host", "srun_host TEXT"},
	{"in_batch", "in_batch INTEGER NOT NULL DEFAULT 0"},
	{"usage", "usage TEXT"}, /* usage.h's JSON, told with the end; NULL: none */
};

/* Made on first use, with what later added. */
static int ensure(struct sl_store *s, struct sl_err *err)
{
	int r;
	if (s->steps_ready)
		return 0;
	r = store_exec(s, "CREATE TABLE IF NOT EXISTS steps(job_id INTEGER NOT NULL,"
		       " step_id INTEGER NOT NULL, name TEXT, state INTEGER NOT NULL,"
		       " exit_code INTEGER, exit_signal INTEGER, start_time INTEGER,"
		       " end_time INTEGER, ntasks INTEGER, nnodes INTEGER, cpus INTEGER,"
		       " nodelist TEXT, uid INTEGER, pid INTEGER, pid_start INTEGER,"
		       " cancelled_by INTEGER NOT NULL DEFAULT -1, overlap INTEGER NOT NULL DEFAULT 0,"
		       " PRIMARY KEY(job_id, step_id));", err);
	for (size_t i = 0; r == 0 && i < sizeof(later) / sizeof(later[0]); i++) {
		sqlite3_stmt *q = NULL;
		int has = 0;
		if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info('steps') WHERE name=?",
				       -1, &q, NULL) == SQLITE_OK) {
			sqlite3_bind_text(q, 1, later[i].name, -1, SQLITE_STATIC);
			has = sqlite3_step(q) == SQLITE_ROW;
		}
		sqlite3_finalize(q);
		if (!has) {
			char sql[160];
			snprintf(sql, sizeof(sql), "ALTER TABLE steps ADD COLUMN %s;", later[i].decl);
			r = store_exec(s, sql, err);
		}
	}
	if (r == 0)
		s->steps_ready = 1;
	return r;
}

static int prep(struct sl_store *s, const char *sql, sqlite3_stmt **st, struct sl_err *err)
{
	int r = ensure(s, err);
	if (r == 0 && sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		r = store_dberr(s, err, "steps");
	return r;
}

static int done(struct sl_store *s, sqlite3_stmt *st, struct sl_err *err)
{
	int rc = sqlite3_step(st), r = 0;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		r = store_dberr(s, err, "steps");
	sqlite3_finalize(st);
	return r;
}

int sl_store_step_insert(struct sl_store *s, struct sl_step *st, struct sl_err *err)
{
	store_unkept_write(s);
	sqlite3_stmt *q = NULL;
	int r;
	if ((r = prep(s, "SELECT ifnull(max(step_id) + 1, 0) FROM steps WHERE job_id=? AND step_id<?",
		      &q, err)))
		return r;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)st->job_id);
	sqlite3_bind_int64(q, 2, RUN_STRIDE);
	st->step_id = sqlite3_step(q) == SQLITE_ROW ? (uint32_t)sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	if ((r = prep(s, "INSERT INTO steps(" STEP_COLS ") VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULL)",
		      &q, err)))
		return r;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)st->job_id);
	sqlite3_bind_int64(q, 2, st->step_id);
	sqlite3_bind_text(q, 3, st->name ? st->name : "", -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 4, (int)st->state);
	sqlite3_bind_int(q, 5, st->exit_code);
	sqlite3_bind_int(q, 6, st->exit_signal);
	sqlite3_bind_int64(q, 7, st->start_time);
	sqlite3_bind_int64(q, 8, st->end_time);
	sqlite3_bind_int(q, 9, st->ntasks);
	sqlite3_bind_int(q, 10, st->nnodes);
	sqlite3_bind_int(q, 11, st->cpus);
	sqlite3_bind_text(q, 12, st->nodelist ? st->nodelist : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 13, (sqlite3_int64)st->uid);
	sqlite3_bind_int64(q, 14, (sqlite3_int64)st->pid);
	sqlite3_bind_int64(q, 15, (sqlite3_int64)st->pid_start);
	sqlite3_bind_int64(q, 16, -1);
	sqlite3_bind_int(q, 17, st->overlap);
	sqlite3_bind_int64(q, 18, st->mem);
	sqlite3_bind_int64(q, 19, st->time_limit);
	sqlite3_bind_text(q, 20, st->dist, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 21, st->cpu_freq, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 22, st->srun_host, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 23, st->in_batch);
	return done(s, q, err);
}

int sl_store_step_cancelled(struct sl_store *s, uint64_t job, uint32_t step, uid_t by,
			    struct sl_err *err)
{
	store_unkept_write(s);
	sqlite3_stmt *q = NULL;
	int r;
	if ((r = prep(s, "UPDATE steps SET cancelled_by=? WHERE job_id=? AND step_id=?"
		      " AND cancelled_by<0", &q, err)))
		return r;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)by);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)job);
	sqlite3_bind_int64(q, 3, step);
	return done(s, q, err);
}

int sl_store_steps_archive(struct sl_store *s, uint64_t job, int run, struct sl_err *err)
{
	store_unkept_write(s);
	sqlite3_stmt *q = NULL;
	int r;
	if (run < 1)
		return 0;
	if ((r = prep(s, "UPDATE steps SET step_id=step_id+? WHERE job_id=? AND step_id<?", &q, err)))
		return r;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)run * RUN_STRIDE);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)job);
	sqlite3_bind_int64(q, 3, RUN_STRIDE);
	return done(s, q, err);
}

int sl_store_step_end(struct sl_store *s, const struct sl_step *st, struct sl_err *err)
{
	store_unkept_write(s);
	sqlite3_stmt *q = NULL;
	/* only a step whose srun measured something has figures to keep */
	int measured = st->use.tasks.n > 0 || st->use.user_usec || st->use.sys_usec;
	char *use = measured ? sl_usage_to_json(&st->use) : NULL;
	int r;
	if ((r = prep(s, "UPDATE steps SET state=?, exit_code=?, exit_signal=?, end_time=?,"
		      " usage=? WHERE job_id=? AND step_id=?", &q, err)))
		goto out;
	sqlite3_bind_int(q, 1, (int)st->state);
	sqlite3_bind_int(q, 2, st->exit_code);
	sqlite3_bind_int(q, 3, st->exit_signal);
	sqlite3_bind_int64(q, 4, st->end_time);
	sqlite3_bind_text(q, 5, use, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 6, (sqlite3_int64)st->job_id);
	sqlite3_bind_int64(q, 7, st->step_id);
	if ((r = done(s, q, err)) == 0 && sqlite3_changes(s->db) == 0)
		r = sl_err_set(err, SL_ENOENT, "Invalid job id specified");
out:
	free(use);
	return r;
}

static char *col_str(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	return sl_xstrdup(t ? (const char *)t : "");
}

static char *col_opt(sqlite3_stmt *q, int i)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	return t ? sl_xstrdup((const char *)t) : NULL;
}

static void row(sqlite3_stmt *q, struct sl_step *st)
{
	memset(st, 0, sizeof(*st));
	st->job_id = (uint64_t)sqlite3_column_int64(q, 0);
	st->step_id = (uint32_t)(sqlite3_column_int64(q, 1) % RUN_STRIDE);
	st->name = col_str(q, 2);
	st->state = (enum sl_jobstate)sqlite3_column_int(q, 3);
	st->exit_code = sqlite3_column_int(q, 4);
	st->exit_signal = sqlite3_column_int(q, 5);
	st->start_time = sqlite3_column_int64(q, 6);
	st->end_time = sqlite3_column_int64(q, 7);
	st->ntasks = sqlite3_column_int(q, 8);
	st->nnodes = sqlite3_column_int(q, 9);
	st->cpus = sqlite3_column_int(q, 10);
	st->nodelist = col_str(q, 11);
	st->uid = (uid_t)sqlite3_column_int64(q, 12);
	st->pid = (pid_t)sqlite3_column_int64(q, 13);
	st->pid_start = (unsigned long long)sqlite3_column_int64(q, 14);
	st->cancelled_by = sqlite3_column_int64(q, 15);
	st->overlap = sqlite3_column_int(q, 16);
	st->mem = sqlite3_column_int64(q, 17);
	st->time_limit = sqlite3_column_int64(q, 18);
	st->dist = col_opt(q, 19);
	st->cpu_freq = col_opt(q, 20);
	st->srun_host = col_opt(q, 21);
	st->in_batch = sqlite3_column_int(q, 22);
	const unsigned char *use = sqlite3_column_text(q, 23);
	if (use != NULL)
		(void)sl_usage_from_json((const char *)use, &st->use);
}

int sl_store_step_get(struct sl_store *s, uint64_t job, uint32_t step, struct sl_step *out,
		      struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	int r;
	memset(out, 0, sizeof(*out));
	if ((r = prep(s, "SELECT " STEP_COLS " FROM steps WHERE job_id=? AND step_id=?", &q, err)))
		return r;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)job);
	sqlite3_bind_int64(q, 2, step);
	if (sqlite3_step(q) == SQLITE_ROW)
		row(q, out);
	else
		r = sl_err_set(err, SL_ENOENT, "Invalid job id specified");
	sqlite3_finalize(q);
	return r;
}

static void collect(sqlite3_stmt *q, struct sl_step **out, size_t *nout, size_t *cap)
{
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (*nout == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*out = sl_xrealloc(*out, *cap * sizeof(**out));
		}
		row(q, &(*out)[(*nout)++]);
	}
}

int sl_store_steps(struct sl_store *s, const uint64_t *jobs, size_t n, int running_only,
		   struct sl_step **out, size_t *nout, struct sl_err *err)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	int r;
	*out = NULL;
	*nout = 0;
	if (n == 0) {
		/* every step (squeue -s: only the running ones) */
		if ((r = prep(s, running_only ? "SELECT " STEP_COLS " FROM steps WHERE end_time=0"
						 " ORDER BY job_id, step_id"
					       : "SELECT " STEP_COLS " FROM steps ORDER BY job_id, step_id",
			      &q, err)))
			return r;
		collect(q, out, nout, &cap);
		sqlite3_finalize(q);
		return 0;
	}
	/* per job through the primary key: sacct's jobs, not the whole table */
	if ((r = prep(s, "SELECT " STEP_COLS " FROM steps WHERE job_id=? AND (?=0 OR end_time=0)"
		      " ORDER BY step_id", &q, err)))
		return r;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)jobs[i]);
		sqlite3_bind_int(q, 2, running_only);
		collect(q, out, nout, &cap);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return 0;
}
