/* test_jobtab.c - ordered job table: lookup, out-of-order add, expiry. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "jobtab.h"

static struct sl_job *mk(uint64_t id, enum sl_jobstate st, int64_t end)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->state = st;
	j->end_time = end;
	return j;
}

static void test_jobtab(void **state)
{
	struct sl_jobtab *t = sl_jobtab_new();
	for (uint64_t i = 1; i <= 1000; i++)
		sl_jobtab_add(t, mk(i * 2, i % 3 ? SL_JOB_PENDING : SL_JOB_COMPLETED, (int64_t)i));
	sl_jobtab_add(t, mk(3, SL_JOB_RUNNING, 0)); /* out of order (load) */
	assert_int_equal(sl_jobtab_count(t), 1001);
	assert_int_equal(sl_jobtab_at(t, 1)->id, 3);
	assert_int_equal(sl_jobtab_get(t, 3)->state, SL_JOB_RUNNING);
	assert_null(sl_jobtab_get(t, 5));
	assert_int_equal(sl_jobtab_get(t, 2000)->id, 2000);
	assert_null(sl_jobtab_get(t, 2001));
	sl_jobtab_expire(t, 500); /* completed jobs with end < 500: i=3..498 step 3 */
	assert_int_equal(sl_jobtab_count(t), 1001 - 166);
	assert_null(sl_jobtab_get(t, 6));
	assert_non_null(sl_jobtab_get(t, 1002)); /* i=501 ended at 501: kept */
	sl_jobtab_free(t);
	sl_jobtab_free(NULL);
}

static struct sl_job *task(uint64_t id, uint64_t array, int index)
{
	struct sl_job *j = mk(id, SL_JOB_PENDING, 0);
	j->array_job_id = array;
	j->array_task_id = index;
	return j;
}

/* An array's run: tasks N+1..N+K-1, then the last task, which has N
 * (array.h); a PBS array's N has no record. Added in id order (a load),
 * the table still lists each run in task order. */
static void test_jobtab_array_runs(void **state)
{
	struct sl_jobtab *t = sl_jobtab_new();
	struct sl_job *v[] = {task(12, 10, 2), mk(1, SL_JOB_COMPLETED, 0), task(2, 2, 3),
			      task(3, 2, 1), task(4, 2, 2), mk(5, SL_JOB_RUNNING, 0),
			      task(11, 10, 1), task(20, 20, 7), mk(21, SL_JOB_PENDING, 0)};
	const uint64_t order[] = {1, 3, 4, 2, 5, 11, 12, 20, 21};
	size_t n = sizeof(v) / sizeof(v[0]);

	sl_jobtab_sort(v, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i]->id, order[i]);
	for (size_t i = n; i-- > 0;) /* any order of adds gives the same table */
		sl_jobtab_add(t, v[i]);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sl_jobtab_at(t, i)->id, order[i]);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sl_jobtab_get(t, order[i])->id, order[i]);
	assert_int_equal(sl_jobtab_get(t, 2)->array_task_id, 3); /* N: the last task */
	assert_null(sl_jobtab_get(t, 10)); /* a PBS array's N */
	assert_null(sl_jobtab_get(t, 6));
	assert_null(sl_jobtab_get(t, 13));
	assert_null(sl_jobtab_get(t, 22));
	assert_int_equal(sl_jobtab_lower(t, 2), 1); /* the run's first task */
	assert_int_equal(sl_jobtab_lower(t, 10), 5);
	assert_int_equal(sl_jobtab_lower(t, 20), 7);
	assert_int_equal(sl_jobtab_lower(t, 22), n);
	sl_jobtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_jobtab),
					   cmocka_unit_test(test_jobtab_array_runs)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
