/* test_store_steps.c - job steps in the store (bin/sluiced/store_steps.c):
 * ids one past the job's last, ends, who cancelled, the running ones, one
 * job's or several, that only committed steps survive a "crash"
 * (closing without commit), and a step's use and whether it ran in the
 * batch script kept with it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "step.h"
#include "store.h"
#include "store_steps.h"
#include "tmpdir_testlib.h"
#include "xalloc.h"

static struct sl_step mk(uint64_t job, const char *name, int cpus)
{
	struct sl_step st = {0};
	st.job_id = job;
	st.name = sl_xstrdup(name);
	st.state = SL_JOB_RUNNING;
	st.start_time = 1000;
	st.ntasks = 2;
	st.nnodes = 1;
	st.cpus = cpus;
	st.nodelist = sl_xstrdup("vm");
	st.uid = 1000;
	st.pid = getpid();
	st.cancelled_by = -1;
	return st;
}

static void insert(struct sl_store *s, uint64_t job, const char *name, uint32_t want)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_step st = mk(job, name, 4);
	assert_int_equal(sl_store_step_insert(s, &st, &err), 0);
	assert_int_equal(st.step_id, want);
	sl_step_clear(&st);
}

static void test_steps(void **state)
{
	char dir[96];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_step *v, end = {0}, one;
	uint64_t jobs[] = {7, 9};
	size_t n;
	(void)state;

	tmpdir_sub(dir, sizeof(dir));
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	insert(s, 7, "a", 0);
	insert(s, 7, "b", 1);
	insert(s, 9, "c", 0);
	insert(s, 8, "d", 0);
	end.job_id = 7;
	end.step_id = 0;
	end.state = SL_JOB_FAILED;
	end.exit_code = 3;
	end.end_time = 2000;
	assert_int_equal(sl_store_step_end(s, &end, &err), 0);
	assert_int_equal(sl_store_step_cancelled(s, 7, 1, 1001, &err), 0);
	assert_int_equal(sl_store_step_cancelled(s, 7, 1, 0, &err), 0); /* the first stays */
	end.step_id = 5;
	assert_int_equal(sl_store_step_end(s, &end, &err), -SL_ENOENT);
	assert_int_equal(sl_store_commit(s, &err), 0);

	/* uncommitted: lost with the "crash" */
	assert_int_equal(sl_store_begin(s, &err), 0);
	insert(s, 9, "lost", 1);
	sl_store_free(s);
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);

	assert_int_equal(sl_store_steps(s, jobs, 2, 0, &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].name, "a");
	assert_int_equal(v[0].state, SL_JOB_FAILED);
	assert_int_equal(v[0].exit_code, 3);
	assert_int_equal(v[0].end_time, 2000);
	assert_int_equal(v[1].cancelled_by, 1001);
	assert_int_equal(v[1].cpus, 4);
	assert_int_equal(v[2].job_id, 9);
	sl_step_free_array(v, n);
	/* every running step, in (job, step) order */
	assert_int_equal(sl_store_steps(s, NULL, 0, 1, &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0].job_id, 7);
	assert_int_equal(v[0].step_id, 1);
	assert_int_equal(v[1].job_id, 8);
	assert_int_equal(v[2].job_id, 9);
	assert_int_equal(v[2].pid, getpid());
	sl_step_free_array(v, n);
	assert_int_equal(sl_store_step_get(s, 9, 0, &one, &err), 0);
	assert_string_equal(one.nodelist, "vm");
	sl_step_clear(&one);
	assert_int_equal(sl_store_step_get(s, 9, 1, &one, &err), -SL_ENOENT);
	/* a requeue archives the run's steps: the next run numbers from 0, and
	 * the old ones are listed still, with their own numbers */
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_steps_archive(s, 7, 1, &err), 0);
	insert(s, 7, "again", 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	assert_int_equal(sl_store_steps(s, jobs, 1, 0, &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].name, "again");
	assert_int_equal(v[0].step_id, 0);
	assert_string_equal(v[1].name, "a");
	assert_int_equal(v[1].step_id, 0);
	assert_int_equal(v[2].step_id, 1);
	sl_step_free_array(v, n);
	assert_int_equal(sl_store_step_get(s, 7, 0, &one, &err), 0);
	assert_string_equal(one.name, "again");
	sl_step_clear(&one);
	sl_store_free(s);
	assert_int_equal(tmpdir_rm(dir), 0);
}

/* What srun told with the end, and in_batch as sluiced found it at the
 * start, read back; a step ended without figures has none. */
static void test_step_use(void **state)
{
	char dir[96];
	struct sl_store *s;
	struct sl_err err = SL_ERR_INIT;
	struct sl_step st = mk(5, "burn", 1), end = {0}, one;
	int64_t t0[SL_USE_N] = {900000, 4000, 9000, 1, 100, 2};
	int64_t t1[SL_USE_N] = {100000, 8000, 9000, 0, 300, 2};
	(void)state;

	tmpdir_sub(dir, sizeof(dir));
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);
	assert_int_equal(sl_store_begin(s, &err), 0);
	st.in_batch = 1;
	assert_int_equal(sl_store_step_insert(s, &st, &err), 0);
	sl_step_clear(&st);
	st = mk(5, "plain", 1);
	assert_int_equal(sl_store_step_insert(s, &st, &err), 0);
	sl_step_clear(&st);
	end.job_id = 5;
	end.state = SL_JOB_COMPLETED;
	end.end_time = 2000;
	end.use.user_usec = 700000;
	end.use.sys_usec = 300000;
	sl_usage_tasks_add(&end.use.tasks, 0, t0);
	sl_usage_tasks_add(&end.use.tasks, 1, t1);
	assert_int_equal(sl_store_step_end(s, &end, &err), 0);
	end.step_id = 1;
	memset(&end.use, 0, sizeof(end.use));
	assert_int_equal(sl_store_step_end(s, &end, &err), 0);
	assert_int_equal(sl_store_commit(s, &err), 0);
	sl_store_free(s);
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);
	assert_int_equal(sl_store_step_get(s, 5, 0, &one, &err), 0);
	assert_int_equal(one.in_batch, 1);
	assert_int_equal(one.use.user_usec, 700000);
	assert_int_equal(one.use.sys_usec, 300000);
	assert_int_equal(one.use.tasks.n, 2);
	assert_int_equal(one.use.tasks.a[SL_USE_RSS].max, 8000);
	assert_int_equal(one.use.tasks.a[SL_USE_RSS].max_task, 1);
	assert_int_equal(one.use.tasks.a[SL_USE_CPU].tot, 1000000);
	sl_step_clear(&one);
	assert_int_equal(sl_store_step_get(s, 5, 1, &one, &err), 0);
	assert_int_equal(one.in_batch, 0);
	assert_int_equal(one.use.tasks.n, 0);
	assert_int_equal(one.use.user_usec, 0);
	sl_step_clear(&one);
	sl_store_free(s);
	assert_int_equal(tmpdir_rm(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_steps),
					   cmocka_unit_test(test_step_use)};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
