/* test_store.c - SQLite store: ids, insert/update, reload, history, and
 * that only committed work survives a "crash" (closing without commit);
 * a job's spec read back for its launch; the files' modes; an empty or
 * unreadable store where ids were given out; a row that cannot be read;
 * the submit key's lookup; a full disk (on a small tmpfs, as root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job_fields.h"
#include "store.h"
#include "store_steps.h"
#include "xalloc.h"

#include "tmpdir_testlib.h"

/* Each test's state directory: a fresh one in the program's scratch
 * directory (tmpdir_testlib.h), and its removal at the test's end. */
#define DIR_LEN 96

static void rm_rf(const char *d)
{
	assert_int_equal(tmpdir_rm(d), 0);
}

static char dir[DIR_LEN];

static struct sl_job *mk(uint64_t id, enum sl_jobstate st, int64_t end)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->uid = 1000 + (uid_t)(id % 2);
	j->state = st;
	j->end_time = end;
	j->start_time = end ? end - 10 : 0;
	j->user = sl_xstrdup("alice");
	j->reason = sl_xstrdup("None");
	j->spec.script = sl_xstrdup("#!/bin/sh\ntrue\n");
	j->spec.name = sl_xasprintf("job%llu", (unsigned long long)id);
	return j;
}

static int count_cb(const struct sl_job *j, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static void test_store(void **state)
{
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	size_t n;
	uint64_t id;
	int cnt = 0;

	tmpdir_sub(dir, sizeof(dir));
	assert_int_equal(sl_store_open(dir, 1, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(sl_store_next_id(s, &id, &err), 0);
		assert_int_equal(id, (uint64_t)i + 1);
		struct sl_job *j = mk(id, i < 2 ? SL_JOB_COMPLETED : SL_JOB_PENDING, i < 2 ? 1000 + i : 0);
		assert_int_equal(sl_store_insert(s, j, &err), 0);
		sl_job_free(j);
	}
	assert_int_equal(sl_store_commit(s, &err), 0);
	/* An uncommitted transaction is lost, as after kill -9. */
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	struct sl_job *lost = mk(id, SL_JOB_PENDING, 0);
	assert_int_equal(sl_store_insert(s, lost, &err), 0);
	sl_job_free(lost);
	sl_store_free(s);

	assert_int_equal(sl_store_open(dir, 1, &s, &err), 0);
	assert_int_equal(sl_store_load_live(s, 1001, &v, &n, &err), 0);
	assert_int_equal(n, 4); /* 3 pending + the one that ended at 1001 */
	assert_int_equal(v[0]->id, 2);
	assert_string_equal(v[0]->spec.name, "job2");
	assert_int_equal(v[1]->state, SL_JOB_PENDING);
	v[1]->state = SL_JOB_FAILED;
	v[1]->exit_code = 3;
	v[1]->end_time = 2000;
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_update(s, v[1], &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	assert_int_equal(id, 6); /* the lost id is handed out again: it was never printed */
	sl_job_free_array(v, n);
	struct sl_jobfilter all = {.history = 1}, since = {.history = 1, .start_after = 1500};
	uid_t u1001 = 1001, both[] = {1000, 1001};
	char *names[] = {"job2", "job3", NULL};
	struct sl_jobfilter of_1001 = {.uids = &u1001, .n_uids = 1, .history = 1};
	struct sl_jobfilter of_both = {.uids = both, .n_uids = 2, .names = names, .n_names = 2};
	assert_int_equal(sl_store_history(s, &all, count_cb, &cnt, &err), 0);
	assert_int_equal(cnt, 3);
	cnt = 0;
	assert_int_equal(sl_store_history(s, &since, count_cb, &cnt, &err), 0);
	assert_int_equal(cnt, 1);
	cnt = 0;
	assert_int_equal(sl_store_history(s, &of_1001, count_cb, &cnt, &err), 0);
	assert_int_equal(cnt, 2); /* jobs 1 and 3 have uid 1001 */
	cnt = 0;
	assert_int_equal(sl_store_history(s, &of_both, count_cb, &cnt, &err), 0);
	assert_int_equal(cnt, 2); /* of jobs 1, 2 and 3, the names pick 2 and 3 */
	struct sl_job *ghost = mk(99, SL_JOB_PENDING, 0);
	assert_int_equal(sl_store_update(s, ghost, &err), -SL_EDB);
	sl_job_free(ghost);
	/* The spec reads back whole, for a launch; an unknown id says so. */
	struct sl_jobspec sp;
	assert_int_equal(sl_store_load_spec(s, 3, &sp, &err), 0);
	assert_string_equal(sp.script, "#!/bin/sh\ntrue\n");
	assert_string_equal(sp.name, "job3");
	sl_jobspec_clear(&sp);
	assert_int_equal(sl_store_load_spec(s, 99, &sp, &err), -SL_ENOENT);
	assert_non_null(strstr(err.msg, "job 99"));
	sl_store_free(s);
	rm_rf(dir);
}

/* A changed spec saved from memory, where the script and environment were
 * shed: the fields that change after submission are taken, the rest stays
 * as submitted (a field outside the list, such as --signal's, too). */
static void test_save_spec(void **state)
{
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec sp;
	uint64_t id;
	char tmp[DIR_LEN];

	tmpdir_sub(tmp, sizeof(tmp));
	assert_int_equal(sl_store_open(tmp, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	struct sl_job *j = mk(id, SL_JOB_PENDING, 0);
	j->spec.env = sl_xcalloc(2, sizeof(char *));
	j->spec.env[0] = sl_xstrdup("HOME=/home/alice");
	j->spec.time_limit = 60;
	j->spec.deadline = 4000000000;
	j->spec.warn_signal = 10;
	assert_int_equal(sl_store_insert(s, j, &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);

	sl_job_shed(j); /* as the daemon keeps it */
	sl_jobspec_limit_set_secs(&j->spec, 405); /* qalter -l walltime=6:45 */
	j->spec.deadline = 4000000001; /* scontrol update Deadline= */
	j->spec.warn_signal = 1;       /* not a field that changes: not saved */
	free(j->spec.name);
	j->spec.name = sl_xstrdup("renamed");
	assert_int_equal(sl_store_save_spec(s, id, &j->spec, &err), 0);
	assert_true(sl_store_in_txn(s)); /* the write begins the turn's transaction */
	assert_int_equal(sl_store_commit(s, &err), 0);
	assert_int_equal(sl_store_load_spec(s, id, &sp, &err), 0);
	assert_string_equal(sp.script, "#!/bin/sh\ntrue\n");
	assert_non_null(sp.env);
	assert_string_equal(sp.env[0], "HOME=/home/alice");
	assert_string_equal(sp.name, "renamed");
	assert_int_equal(sp.time_limit, 7);
	assert_int_equal(sp.time_limit_secs, 405);
	assert_int_equal(sp.deadline, 4000000001);
	assert_int_equal(sp.warn_signal, 10);
	sl_jobspec_clear(&sp);
	assert_int_equal(sl_store_save_spec(s, 99, &j->spec, &err), -SL_ENOENT);
	sl_job_free(j);
	sl_store_free(s);
	rm_rf(tmp);
}

/* A store written before ready_evictions existed (schema 1 as first
 * shipped) gains the column on open, and the count then round-trips
 * through update and reload. */
static void test_ready_evictions(void **state)
{
	char d[DIR_LEN], path[128];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v, *j;
	sqlite3 *db;
	size_t n;
	uint64_t id;

	tmpdir_sub(d, sizeof(d));
	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
		"CREATE TABLE jobs(id INTEGER PRIMARY KEY, uid INTEGER NOT NULL,"
		" gid INTEGER NOT NULL, user TEXT, grp TEXT, state TEXT NOT NULL, reason TEXT,"
		" reason_text TEXT, submit_time INTEGER, eligible_time INTEGER,"
		" start_time INTEGER, end_time INTEGER, priority INTEGER, exit_code INTEGER,"
		" exit_signal INTEGER, nodelist TEXT, alloc_cpus INTEGER, attempt INTEGER,"
		" cancelled_by INTEGER, cluster_queue TEXT, flavors TEXT,"
		" final INTEGER NOT NULL DEFAULT 0, spec TEXT NOT NULL);"
		"INSERT INTO meta VALUES('schema_version', 1);"
		"INSERT INTO meta VALUES('next_job_id', 1);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	j = mk(id, SL_JOB_PENDING, 0);
	assert_int_equal(sl_store_insert(s, j, &err), 0);
	j->ready_evictions = 2;
	j->attempt = 3;
	assert_int_equal(sl_store_update(s, j, &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_job_free(j);
	sl_store_free(s);

	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_load_live(s, 0, &v, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0]->ready_evictions, 2);
	assert_int_equal(v[0]->attempt, 3);
	sl_job_free_array(v, n);
	sl_store_free(s);
	rm_rf(d);
}

/* Every member of the record is stored (job_fields.h: a member added there
 * is covered without touching this test), except those sluiced works out
 * when it lists a job; the spec comes back whole. */
static void test_every_member(void **state)
{
	char d[DIR_LEN];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v, *j = mk(1, SL_JOB_PENDING, 0);
	size_t n;
	int k = 1;

#define SET_STR(f) free(j->f), j->f = sl_xasprintf("%s-%d", #f, k++);
#define SET_NUM(f) j->f = 1000 + k++;
	JOB_STRINGS(SET_STR)
	JOB_INTS(SET_NUM)
	JOB_INT64S(SET_NUM)
	JOB_LIVE_INTS(SET_NUM)
	j->gid = 77;
	j->spec.env = sl_xcalloc(2, sizeof(char *));
	j->spec.env[0] = sl_xstrdup("A=1");
	tmpdir_sub(d, sizeof(d));
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_insert(s, j, &err), 0);
	j->state = SL_JOB_RUNNING;
	JOB_INTS(SET_NUM)
	assert_int_equal(sl_store_update(s, j, &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_store_free(s);
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_load_live(s, 0, &v, &n, &err), 0);
	assert_int_equal(n, 1);
#define SAME_STR(f) assert_string_equal(v[0]->f, j->f);
#define SAME_NUM(f) assert_int_equal(v[0]->f, j->f);
#define LIVE_NUM(f) assert_int_equal(v[0]->f, 0);
	JOB_STRINGS(SAME_STR)
	JOB_INTS(SAME_NUM)
	JOB_INT64S(SAME_NUM)
	JOB_LIVE_INTS(LIVE_NUM)
	assert_int_equal(v[0]->id, 1);
	assert_int_equal(v[0]->uid, j->uid);
	assert_int_equal(v[0]->gid, 77);
	assert_int_equal(v[0]->state, SL_JOB_RUNNING);
	assert_string_equal(v[0]->spec.name, "job1");
	assert_string_equal(v[0]->spec.env[0], "A=1");
	sl_job_free_array(v, n);
	sl_job_free(j);
	sl_store_free(s);
	rm_rf(d);
}

static off_t file_size(const char *d, const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Commits only append to the WAL; the copy back into the database waits for
 * sl_store_idle (after the replies), and then only past the threshold. */
static void test_checkpoint_when_idle(void **state)
{
	char d[DIR_LEN];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	off_t db0, db1;
	uint64_t id;
	int i;

	tmpdir_sub(d, sizeof(d));
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	db0 = file_size(d, "sluice.db");
	for (i = 0; file_size(d, "sluice.db-wal") < (off_t)SL_STORE_CHECKPOINT_FRAMES * 4200;
	     i++) {
		assert_true(i < 5 * SL_STORE_CHECKPOINT_FRAMES);
		assert_int_equal(sl_store_begin(s, &err), 0);
		assert_int_equal(sl_store_next_id(s, &id, &err), 0);
		assert_int_equal(id, (uint64_t)i + 1);
		struct sl_job *j = mk(id, SL_JOB_PENDING, 0);
		assert_int_equal(sl_store_insert(s, j, &err), 0);
		sl_job_free(j);
		assert_int_equal(sl_store_commit(s, &err), 0);
		assert_int_equal(file_size(d, "sluice.db"), db0);
	}
	assert_int_equal(sl_store_begin(s, &err), 0);
	sl_store_idle(s); /* never inside a transaction */
	assert_int_equal(file_size(d, "sluice.db"), db0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_store_idle(s);
	db1 = file_size(d, "sluice.db");
	assert_true(db1 > db0);

	/* The store is held exclusively: a second daemon on it is refused. */
	struct sl_store *other = NULL;
	struct sl_err e2 = SL_ERR_INIT;
	assert_int_equal(sl_store_open(d, 0, &other, &e2), -SL_EDB);
	assert_non_null(strstr(e2.msg, "another sluiced"));
	sl_store_free(s);

	/* Ids go on from the largest stored. */
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	assert_int_equal(id, (uint64_t)i + 1);
	sl_store_free(s);
	rm_rf(d);
}

/* A store that counted ids in meta (as sluiced did before) goes on from
 * that count even when the jobs above it are not there. */
static void test_next_id_floor(void **state)
{
	char d[DIR_LEN], path[128];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	sqlite3 *db;
	uint64_t id;

	tmpdir_sub(d, sizeof(d));
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	sl_store_free(s);
	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE meta SET value=50 WHERE key='next_job_id';",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	assert_int_equal(id, 50);
	sl_store_free(s);
	rm_rf(d);
}

static mode_t mode_of(const char *d, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s", d, *name ? "/" : "", name);
	return stat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

static void put_file(const char *d, const char *name, const char *text, mode_t mode)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	assert_true((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)) >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

/* One committed job: id 1, pending. */
static void one_job(struct sl_store *s)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j;
	uint64_t id;

	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	j = mk(id, SL_JOB_PENDING, 0);
	assert_int_equal(sl_store_insert(s, j, &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_job_free(j);
}

/* Scripts and environments are in the store: the directory is 0711 and
 * the files 0600 whatever the umask, and a store left readable by an older
 * sluiced is repaired at open. A directory everyone may write to is refused. */
static void test_modes(void **state)
{
	char d[DIR_LEN];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	mode_t old = umask(0);

	tmpdir_sub(d, sizeof(d));
	assert_int_equal(chmod(d, 0755), 0);
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	one_job(s);
	assert_int_equal(mode_of(d, ""), 0711);
	assert_int_equal(mode_of(d, "sluice.db"), 0600);
	assert_int_equal(mode_of(d, "sluice.db-wal"), 0600);
	sl_store_free(s);

	assert_int_equal(chmod(d, 0755), 0);
	put_file(d, "sluice.db-shm", "", 0644);
	char path[256];
	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(mode_of(d, ""), 0711);
	assert_int_equal(mode_of(d, "sluice.db"), 0600);
	assert_int_equal(mode_of(d, "sluice.db-shm"), 0600);
	sl_store_free(s);

	assert_int_equal(chmod(d, 01777), 0);
	assert_int_equal(sl_store_open(d, 0, &s, &err), -SL_ECONFIG);
	assert_non_null(strstr(err.msg, "may be written by everyone"));
	assert_int_equal(mode_of(d, ""), 01777); /* left as it is */
	umask(old);
	rm_rf(d);
}

static int has_aside(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp != NULL && (e = readdir(dp)) != NULL)
		n += strncmp(e->d_name, "sluice.db.broken-", 17) == 0 &&
		     strchr(e->d_name + 17, '-') == NULL;
	if (dp != NULL)
		closedir(dp);
	return n;
}

/* A 0-byte, missing or unreadable store where job ids were given out
 * (jobs/ exists) would give them again: refused, with the file and what to
 * do; --reset-state starts over past the job directories' ids, and sets an
 * unreadable store aside rather than deleting it. A fresh state directory
 * starts as before. */
static void test_empty_store(void **state)
{
	char d[DIR_LEN], path[256];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	uint64_t id;

	tmpdir_sub(d, sizeof(d));
	snprintf(path, sizeof(path), "%s/jobs", d);
	assert_int_equal(mkdir(path, 0711), 0);
	snprintf(path, sizeof(path), "%s/jobs/7", d);
	assert_int_equal(mkdir(path, 0711), 0);
	put_file(d, "sluice.db", "", 0600);

	assert_int_equal(sl_store_open(d, 0, &s, &err), -SL_EDB);
	assert_null(s);
	snprintf(path, sizeof(path), "%s/sluice.db: the store is empty", d);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "--reset-state"));
	assert_int_equal(mode_of(d, "sluice.db"), 0600); /* untouched */

	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(unlink(path), 0);
	sl_err_clear(&err);
	assert_int_equal(sl_store_open(d, 0, &s, &err), -SL_EDB);
	assert_non_null(strstr(err.msg, "the store is empty"));
	assert_int_equal(access(path, F_OK), -1); /* not left behind */

	sl_err_clear(&err);
	assert_int_equal(sl_store_open(d, SL_STORE_RESET, &s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	assert_int_equal(id, 8); /* past jobs/7 */
	sl_store_free(s);

	put_file(d, "sluice.db", "this is not a database, but some other file ....\n", 0600);
	sl_err_clear(&err);
	assert_int_equal(sl_store_open(d, 0, &s, &err), -SL_EDB);
	assert_non_null(strstr(err.msg, "sluice.db: the store cannot be read"));
	assert_non_null(strstr(err.msg, "--reset-state"));
	assert_int_equal(has_aside(d), 0);
	sl_err_clear(&err);
	assert_int_equal(sl_store_open(d, SL_STORE_RESET, &s, &err), 0);
	assert_int_equal(has_aside(d), 1);
	one_job(s);
	sl_store_free(s);

	/* A readable store is never reset. The second reset went on past the
	 * ids the first store gave out (idmark: 8 + 1000), not from jobs/7. */
	assert_int_equal(sl_store_open(d, SL_STORE_RESET, &s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	assert_int_equal(id, 1009);
	sl_store_free(s);
	rm_rf(d);
}

/* One row that cannot be read costs that job, not every listing. */
static void test_bad_row(void **state)
{
	char d[DIR_LEN], path[256];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	size_t n;
	sqlite3 *db;
	int cnt = 0;

	tmpdir_sub(d, sizeof(d));
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	for (uint64_t id = 1; id <= 4; id++) {
		struct sl_job *j = mk(id, id <= 2 ? SL_JOB_COMPLETED : SL_JOB_PENDING,
				      id <= 2 ? 1000 : 0);
		assert_int_equal(sl_store_insert(s, j, &err), 0);
		sl_job_free(j);
	}
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_store_free(s);
	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE jobs SET spec='{\"name\": ' WHERE id IN (2, 3);",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_load_live(s, 0, &v, &n, &err), 0);
	assert_int_equal(n, 2); /* 1 and 4; 2 and 3 cannot be read */
	assert_int_equal(v[0]->id, 1);
	assert_int_equal(v[1]->id, 4);
	sl_job_free_array(v, n);
	struct sl_jobfilter all = {.history = 1};
	for (int i = 0; i < 2; i++) { /* and again: still answered */
		cnt = 0;
		assert_int_equal(sl_store_history(s, &all, count_cb, &cnt, &err), 0);
		assert_int_equal(cnt, 1); /* job 1; job 2 cannot be read */
	}
	sl_store_free(s);
	rm_rf(d);
}

/* A retried submission is found by its key, for its own user only, also
 * after a restart, and through the index. */
static void test_submit_key(void **state)
{
	char d[DIR_LEN], path[256];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *j = mk(1, SL_JOB_PENDING, 0), *k = mk(2, SL_JOB_PENDING, 0);
	sqlite3 *db;
	sqlite3_stmt *st;
	uint64_t id = 99;
	int indexed = 0;

	tmpdir_sub(d, sizeof(d));
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	j->submit_key = sl_xstrdup("0123456789abcdef0123456789abcdef");
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_insert(s, j, &err), 0);
	assert_int_equal(sl_store_insert(s, k, &err), 0); /* no key */
	/* Found before the commit too: a retry in the same loop turn. */
	assert_int_equal(sl_store_find_key(s, j->uid, j->submit_key, &id, &err), 0);
	assert_int_equal(id, 1);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_store_free(s);

	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_find_key(s, j->uid, j->submit_key, &id, &err), 0);
	assert_int_equal(id, 1);
	assert_int_equal(sl_store_find_key(s, j->uid + 7, j->submit_key, &id, &err), 0);
	assert_int_equal(id, 0); /* another user's key is not this one's */
	assert_int_equal(sl_store_find_key(s, j->uid, "0123", &id, &err), 0);
	assert_int_equal(id, 0);
	sl_store_free(s);

	snprintf(path, sizeof(path), "%s/sluice.db", d);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "EXPLAIN QUERY PLAN SELECT id FROM jobs WHERE "
					    "uid=? AND submit_key=?", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		indexed |= strstr((const char *)sqlite3_column_text(st, 3), "jobs_submit_key") != NULL;
	sqlite3_finalize(st);
	sqlite3_close(db);
	assert_true(indexed);
	sl_job_free(j);
	sl_job_free(k);
	rm_rf(d);
}

/* ---- a full disk ---- */

static struct sl_job *live[8]; /* the daemon's jobs, as the lookup sees them */
static char mounted[DIR_LEN];  /* unmounted however the test ends */

static int unmount(void **state)
{
	(void)state;
	if (mounted[0] != '\0' && umount2(mounted, MNT_DETACH) == 0)
		rm_rf(mounted);
	mounted[0] = '\0';
	return 0;
}

static const struct sl_job *lookup(void *arg, uint64_t id)
{
	(void)arg;
	return id < 8 ? live[id] : NULL;
}

/* Fill the file system under d; the filler's name. */
static void fill(const char *d)
{
	char path[256], block[4096];
	int fd;

	memset(block, 'x', sizeof(block));
	snprintf(path, sizeof(path), "%s/filler", d);
	assert_true((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0);
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
}

/* The commit that meets a full disk keeps its records; new jobs are
 * refused while any is kept, and while less than SL_STORE_ROOM is free;
 * a kept record reads as it is (history, spec, key); the first commit
 * after space comes back saves them all. */
static void test_full_disk(void **state)
{
	char d[DIR_LEN], path[256];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobfilter all = {.history = 1};
	struct sl_jobspec sp;
	struct sl_job **v;
	size_t n, inserts;
	uint64_t id;
	int cnt = 0;

	tmpdir_sub(d, sizeof(d));
	if (mount("tmpfs", d, "tmpfs", 0, "size=8m,mode=0700") != 0) {
		rmdir(d);
		skip(); /* not root, or no mounts here */
	}
	snprintf(mounted, sizeof(mounted), "%s", d);
	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	sl_store_set_lookup(s, lookup, NULL);
	assert_int_equal(sl_store_room(s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	live[1] = mk(id, SL_JOB_RUNNING, 0);
	assert_int_equal(sl_store_insert(s, live[1], &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);

	fill(d);
	sl_store_idle(s);
	assert_int_equal(sl_store_room(s, &err), -SL_EBUSY);
	assert_non_null(strstr(err.msg, "No space left on device"));
	sl_err_clear(&err);
	/* A job ends and one is submitted in the same turn; the commit fails. */
	assert_int_equal(sl_store_begin(s, &err), 0);
	live[1]->state = SL_JOB_COMPLETED;
	live[1]->end_time = 2000;
	assert_int_equal(sl_store_update(s, live[1], &err), 0);
	assert_int_equal(sl_store_next_id(s, &id, &err), 0);
	live[2] = mk(id, SL_JOB_PENDING, 0);
	live[2]->submit_key = sl_xstrdup("k2");
	assert_int_equal(sl_store_insert(s, live[2], &err), 0);
	sl_job_shed(live[2]); /* as the daemon does */
	/* and a step: its row is not kept, and the store says it was lost */
	struct sl_step stp = {.job_id = live[1]->id, .state = SL_JOB_RUNNING, .cancelled_by = -1};
	assert_int_equal(sl_store_unkept_lost(s), 0);
	assert_int_equal(sl_store_step_insert(s, &stp, &err), 0);
	uint64_t step_seq = sl_store_unkept_seq(s);
	sl_err_clear(&err);
	assert_int_equal(sl_store_commit(s, &err), -SL_EBUSY);
	assert_non_null(strstr(err.msg, "disk full"));
	assert_int_equal(sl_store_unkept_lost(s), step_seq);
	assert_int_equal(sl_store_kept(s, &inserts), 2);
	assert_int_equal(inserts, 1);
	sl_store_idle(s);
	assert_int_equal(sl_store_room(s, &err), -SL_EBUSY);
	/* What is kept answers as it is now. */
	assert_int_equal(sl_store_find_key(s, live[2]->uid, "k2", &id, &err), 0);
	assert_int_equal(id, 2);
	assert_int_equal(sl_store_history(s, &all, count_cb, &cnt, &err), 0);
	assert_int_equal(cnt, 1); /* job 1, COMPLETED */
	assert_int_equal(sl_store_load_spec(s, 2, &sp, &err), 0);
	assert_string_equal(sp.script, "#!/bin/sh\ntrue\n");
	sl_jobspec_clear(&sp);
	/* Still full: a retry fails and keeps them; the job changed meanwhile. */
	live[2]->state = SL_JOB_CANCELLED;
	live[2]->end_time = 2001;
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_update(s, live[2], &err), 0);
	sl_err_clear(&err);
	assert_int_equal(sl_store_commit(s, &err), -SL_EBUSY);
	assert_int_equal(sl_store_kept(s, NULL), 2);
	free(live[1]->reason); /* and changes again, unwritten */
	live[1]->reason = sl_xstrdup("Done");

	snprintf(path, sizeof(path), "%s/filler", d);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sl_store_begin(s, &err), 0); /* writes the kept records */
	assert_int_equal(sl_store_commit(s, &err), 0);
	assert_int_equal(sl_store_kept(s, NULL), 0);
	sl_store_idle(s);
	assert_int_equal(sl_store_room(s, &err), 0);
	sl_store_free(s);

	assert_int_equal(sl_store_open(d, 0, &s, &err), 0);
	assert_int_equal(sl_store_load_live(s, 0, &v, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0]->state, SL_JOB_COMPLETED);
	assert_string_equal(v[0]->reason, "Done"); /* as the daemon had it at the write */
	assert_int_equal(v[1]->state, SL_JOB_CANCELLED);
	assert_string_equal(v[1]->submit_key, "k2");
	assert_string_equal(v[1]->spec.script, "#!/bin/sh\ntrue\n");
	sl_job_free_array(v, n);
	sl_store_free(s);
	for (int i = 0; i < 8; i++) {
		sl_job_free(live[i]);
		live[i] = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_store),
					   cmocka_unit_test(test_save_spec),
					   cmocka_unit_test(test_ready_evictions),
					   cmocka_unit_test(test_every_member),
					   cmocka_unit_test(test_checkpoint_when_idle),
					   cmocka_unit_test(test_next_id_floor),
					   cmocka_unit_test(test_modes),
					   cmocka_unit_test(test_empty_store),
					   cmocka_unit_test(test_bad_row),
					   cmocka_unit_test(test_submit_key),
					   cmocka_unit_test_teardown(test_full_disk, unmount)};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
