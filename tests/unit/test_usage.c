/* test_usage.c - libbatch/usage.c: a step's figures gathered task by task
 * (max and min with their tasks, ties to the lower rank, sums), a batch
 * step's one-task form, and the JSON of both (the result file, the stat
 * reply, a step's record), a malformed task list read as unmeasured. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "usage.h"

static void test_tasks_add(void **state)
{
	struct sl_usage_tasks t = {0};
	int64_t t2[SL_USE_N] = {300, 50, 90, 0, 7, 1};
	int64_t t0[SL_USE_N] = {100, 80, 90, 2, 7, 0};
	int64_t t1[SL_USE_N] = {200, 20, 95, 0, 9, 0};
	(void)state;

	/* in the order srun reaps them, not their ranks */
	sl_usage_tasks_add(&t, 2, t2);
	sl_usage_tasks_add(&t, 0, t0);
	sl_usage_tasks_add(&t, 1, t1);
	assert_int_equal(t.n, 3);
	assert_true(t.a[SL_USE_CPU].max == 300 && t.a[SL_USE_CPU].max_task == 2);
	assert_true(t.a[SL_USE_CPU].min == 100 && t.a[SL_USE_CPU].min_task == 0);
	assert_int_equal(t.a[SL_USE_CPU].tot, 600);
	assert_true(t.a[SL_USE_RSS].max == 80 && t.a[SL_USE_RSS].max_task == 0);
	assert_true(t.a[SL_USE_RSS].min == 20 && t.a[SL_USE_RSS].min_task == 1);
	/* a tie goes to the lower rank, whichever came first */
	assert_true(t.a[SL_USE_VMSIZE].max == 95 && t.a[SL_USE_VMSIZE].max_task == 1);
	assert_true(t.a[SL_USE_VMSIZE].min == 90 && t.a[SL_USE_VMSIZE].min_task == 0);
	assert_true(t.a[SL_USE_PAGES].min == 0 && t.a[SL_USE_PAGES].min_task == 1);
	assert_true(t.a[SL_USE_READ].min == 7 && t.a[SL_USE_READ].min_task == 0);
	assert_true(t.a[SL_USE_WRITE].max == 1 && t.a[SL_USE_WRITE].max_task == 2);
	assert_int_equal(sl_usage_ave(&t, SL_USE_CPU), 200);
	assert_int_equal(sl_usage_ave(&t, SL_USE_RSS), 50);
}

static void test_per_task(void **state)
{
	struct sl_usage u = {.max_rss = 4000, .max_vmsize = 9000, .max_pages = 3,
			     .user_usec = 70000, .sys_usec = 30000, .disk_read = 512,
			     .disk_write = 64, .ntasks = 1};
	struct sl_usage none = {0};
	struct sl_usage_tasks t;
	int64_t v[SL_USE_N] = {5, 6, 7, 8, 9, 10};
	(void)state;

	/* a batch step: one task, 0, every aggregate its figure */
	sl_usage_per_task(&u, &t);
	assert_int_equal(t.n, 1);
	assert_true(t.a[SL_USE_CPU].max == 100000 && t.a[SL_USE_CPU].min == 100000 &&
		    t.a[SL_USE_CPU].tot == 100000);
	assert_int_equal(t.a[SL_USE_RSS].tot, 4000);
	assert_int_equal(t.a[SL_USE_VMSIZE].max, 9000);
	assert_int_equal(t.a[SL_USE_PAGES].min, 3);
	assert_int_equal(t.a[SL_USE_READ].max, 512);
	assert_int_equal(t.a[SL_USE_WRITE].tot, 64);
	assert_int_equal(t.a[SL_USE_RSS].max_task + t.a[SL_USE_RSS].min_task, 0);
	/* nothing measured */
	sl_usage_per_task(&none, &t);
	assert_int_equal(t.n, 0);
	assert_int_equal(sl_usage_ave(&t, SL_USE_CPU), 0);
	/* an srun step: its own tasks, not its sums */
	sl_usage_tasks_add(&none.tasks, 3, v);
	none.user_usec = 99;
	sl_usage_per_task(&none, &t);
	assert_true(t.n == 1 && t.a[SL_USE_CPU].tot == 5 && t.a[SL_USE_CPU].max_task == 3);
}

static void test_json(void **state)
{
	struct sl_usage u = {.max_rss = 4000, .user_usec = 5, .reaped_rss = 6000}, back;
	int64_t a[SL_USE_N] = {1, 2, 3, 4, 5, 6}, b[SL_USE_N] = {10, 1, 30, 0, 50, 60};
	char *text;
	(void)state;

	sl_usage_tasks_add(&u.tasks, 0, a);
	sl_usage_tasks_add(&u.tasks, 1, b);
	text = sl_usage_to_json(&u);
	assert_non_null(strstr(text, "\"reapedRss\":6000"));
	assert_non_null(strstr(text, "\"tasks\":{\"n\":2,\"cpu\":[10,1,11,1,0]"));
	assert_int_equal(sl_usage_from_json(text, &back), 0);
	free(text);
	assert_int_equal(back.reaped_rss, 6000);
	assert_int_equal(back.max_rss, 4000);
	assert_int_equal(back.tasks.n, 2);
	assert_memory_equal(&back.tasks, &u.tasks, sizeof(u.tasks));
	/* none measured: no "tasks" member; a bad one reads as none */
	memset(&u, 0, sizeof(u));
	u.max_rss = 1;
	text = sl_usage_to_json(&u);
	assert_null(strstr(text, "tasks"));
	free(text);
	assert_int_equal(sl_usage_from_json("{\"tasks\":{\"n\":2,\"cpu\":[1,2]}}", &back), 0);
	assert_int_equal(back.tasks.n, 0);
	assert_int_equal(sl_usage_from_json("{\"tasks\":{\"n\":-1}}", &back), 0);
	assert_int_equal(back.tasks.n, 0);
	assert_int_equal(sl_usage_from_json("[]", &back), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tasks_add),
		cmocka_unit_test(test_per_task),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
