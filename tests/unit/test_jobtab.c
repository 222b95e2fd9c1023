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

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_jobtab)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
