/* test_diag.c - sdiag's statistics (bin/sluiced/diag.c): the job counters,
 * the passes' times, a pass that ran backfill counted as a backfill cycle
 * once, the engine's counters reported from the reset on, and the RPC rows
 * by type and by user. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"

static int64_t get(json_object *o, const char *a, const char *b)
{
	json_object *x, *y;
	assert_true(json_object_object_get_ex(o, a, &x));
	if (b == NULL)
		return json_object_get_int64(x);
	assert_true(json_object_object_get_ex(x, b, &y));
	return json_object_get_int64(y);
}

static void test_counts(void **state)
{
	(void)state;
	struct sl_diag *g = sl_diag_new(1000);
	struct sl_sched_stats st = {.cycles = 3, .tried = 7};
	json_object *o = json_object_new_object();

	sl_diag_job(g, SL_DIAG_SUBMITTED, 3);
	sl_diag_job(g, SL_DIAG_SUBMITTED, 1);
	sl_diag_job(g, SL_DIAG_CANCELED, 1);
	sl_diag_pass(g, 40, 1001, &st);
	sl_diag_pass(g, 10, 1002, &st);
	sl_diag_json(g, &st, 2, o);
	assert_int_equal(get(o, "since", NULL), 1000);
	assert_int_equal(get(o, "jobs", "submitted"), 4);
	assert_int_equal(get(o, "jobs", "canceled"), 1);
	assert_int_equal(get(o, "sched", "cycles"), 2);
	assert_int_equal(get(o, "sched", "last"), 10);
	assert_int_equal(get(o, "sched", "max"), 40);
	assert_int_equal(get(o, "sched", "sum"), 50);
	assert_int_equal(get(o, "sched", "depth"), 7);
	assert_int_equal(get(o, "sched", "queue_len"), 2);
	assert_int_equal(get(o, "backfill", "cycles"), 0);
	assert_int_equal(get(o, "backfill", "when"), 0);
	json_object_put(o);
	sl_diag_free(g);
}

static void test_backfill_and_reset(void **state)
{
	(void)state;
	struct sl_diag *g = sl_diag_new(1000);
	struct sl_sched_stats st = {0};
	json_object *o;
	uint64_t passes;
	int64_t last, max, sum;

	st.bf_passes = 2; /* two engine passes in one daemon pass: one cycle */
	st.bf_admitted = 3;
	st.bf_last_depth = 4;
	st.bf_depth_sum = 9;
	sl_diag_pass(g, 70, 1005, &st);
	sl_diag_pass(g, 20, 1006, &st); /* backfill did not run */
	o = json_object_new_object();
	sl_diag_json(g, &st, 2, o);
	assert_int_equal(get(o, "backfill", "cycles"), 1);
	assert_int_equal(get(o, "backfill", "when"), 1005);
	assert_int_equal(get(o, "backfill", "last"), 70);
	assert_int_equal(get(o, "backfill", "backfilled"), 3);
	assert_int_equal(get(o, "backfill", "last_depth"), 4);
	json_object_put(o);

	sl_diag_reset(g, 2000, &st);
	o = json_object_new_object();
	sl_diag_json(g, &st, 2, o);
	assert_int_equal(get(o, "since", NULL), 2000);
	assert_int_equal(get(o, "sched", "cycles"), 0);
	assert_int_equal(get(o, "backfill", "backfilled"), 0);
	assert_int_equal(get(o, "backfill", "depth_sum"), 0);
	assert_int_equal(get(o, "backfill", "last_depth"), 0);
	json_object_put(o);
	/* the totals outlive a reset (Prometheus counters) */
	sl_diag_totals(g, &passes, &last, &max, &sum);
	assert_int_equal(passes, 2);
	assert_int_equal(max, 70);
	assert_int_equal(sum, 90);
	sl_diag_free(g);
}

static void test_rpc(void **state)
{
	(void)state;
	struct sl_diag *g = sl_diag_new(0);
	struct sl_sched_stats st = {0};
	json_object *o = json_object_new_object(), *a, *r, *v;

	sl_diag_rpc(g, 2, "submit", 1001, 100);
	sl_diag_rpc(g, 3, "jobs", 1001, 5);
	sl_diag_rpc(g, 2, "submit", 0, 300);
	sl_diag_json(g, &st, 2, o);
	assert_true(json_object_object_get_ex(o, "rpc_types", &a));
	assert_int_equal(json_object_array_length(a), 2);
	r = json_object_array_get_idx(a, 0);
	assert_true(json_object_object_get_ex(r, "name", &v));
	assert_string_equal(json_object_get_string(v), "submit");
	assert_int_equal(get(r, "count", NULL), 2);
	assert_int_equal(get(r, "time", NULL), 400);
	assert_true(json_object_object_get_ex(o, "rpc_users", &a));
	assert_int_equal(json_object_array_length(a), 2);
	assert_int_equal(get(json_object_array_get_idx(a, 0), "uid", NULL), 1001);
	assert_int_equal(get(json_object_array_get_idx(a, 0), "time", NULL), 105);
	json_object_put(o);
	sl_diag_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_backfill_and_reset),
		cmocka_unit_test(test_rpc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
