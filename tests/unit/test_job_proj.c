/* test_job_proj.c - the jobs request's projection (job_proj.c): members
 * by wire name, to and from the request's "fields", and the listing
 * writer that leaves out what was not asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "job_proj.h"
#include "job_testlib.h"
#include "xalloc.h"

static void test_names(void **state)
{
	struct sl_jobproj *p = sl_jobproj_new();

	(void)state;
	assert_false(sl_jobproj_has(p, SL_JP_user));
	assert_true(sl_jobproj_has(NULL, SL_JP_user)); /* NULL: whole */
	assert_int_equal(sl_jobproj_add(p, "user"), 0);
	assert_int_equal(sl_jobproj_add(p, "spec.name"), 0);
	assert_int_equal(sl_jobproj_add(p, "name"), -SL_ENOENT); /* the spec's */
	assert_int_equal(sl_jobproj_add(p, "spec.user"), -SL_ENOENT);
	assert_true(sl_jobproj_has(p, SL_JP_user));
	assert_true(sl_jobproj_has(p, SL_JP_SPEC_name));
	assert_false(sl_jobproj_has(p, SL_JP_SPEC_partition));
	/* qstat -f's: every member but the script */
	sl_jobproj_add_all(p);
	sl_jobproj_del(p, SL_JP_SPEC_script);
	assert_false(sl_jobproj_has(p, SL_JP_SPEC_script));
	assert_true(sl_jobproj_has(p, SL_JP_SPEC_env));
	sl_jobproj_free(p);
	sl_jobproj_free(NULL);
}

static void test_wire(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobproj *p = sl_jobproj_new(), *back;
	json_object *a, *bad;

	(void)state;
	assert_int_equal(sl_jobproj_add(p, "reason"), 0);
	assert_int_equal(sl_jobproj_add(p, "spec.time_limit"), 0);
	a = sl_jobproj_to_obj(p);
	assert_string_equal(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
			    "[\"spec.time_limit\",\"reason\"]");
	/* a name this version does not know is left out, not refused */
	json_object_array_add(a, json_object_new_string("spec.from_the_future"));
	assert_int_equal(sl_jobproj_from_obj(a, &back, &err), 0);
	for (int f = 0; f < SL_JP_COUNT; f++)
		assert_int_equal(sl_jobproj_has(back, f), sl_jobproj_has(p, f));
	sl_jobproj_free(back);
	json_object_put(a);
	assert_int_equal(sl_jobproj_from_obj(NULL, &back, &err), 0);
	assert_null(back);
	bad = json_object_new_string("user");
	assert_int_equal(sl_jobproj_from_obj(bad, &back, &err), -SL_EPROTO);
	json_object_put(bad);
	bad = json_object_new_array();
	for (int i = 0; i < 4 * SL_JP_COUNT + 1; i++)
		json_object_array_add(bad, json_object_new_string("user"));
	assert_int_equal(sl_jobproj_from_obj(bad, &back, &err), -SL_EPROTO);
	assert_null(back);
	json_object_put(bad);
	bad = json_tokener_parse("[\"user\", 3]");
	assert_int_equal(sl_jobproj_from_obj(bad, &back, &err), -SL_EPROTO);
	assert_null(back);
	json_object_put(bad);
	sl_jobproj_free(p);
}

/* Only id, the members asked for, and an empty spec when none of its. */
static void test_listing(void **state)
{
	struct sl_jobproj *p = sl_jobproj_new();
	struct sl_job *j = tl_job("{\"id\":7,\"spec\":{\"name\":\"a\",\"partition\":\"b\","
				  "\"nodes\":2,\"hold\":1},\"uid\":5,\"gid\":6,\"state\":\"PENDING\","
				  "\"user\":\"u\",\"reason\":\"Priority\",\"submit_time\":9}");
	struct sl_buf *b = sl_buf_new(1 << 20);

	(void)state;
	assert_int_equal(sl_job_listing_append_proj(b, j, SL_VIEW_OWNER, p), 0);
	assert_string_equal(sl_buf_str(b), "{\"id\":7,\"spec\":{}}");
	sl_buf_reset(b);
	assert_int_equal(sl_jobproj_add(p, "user"), 0);
	assert_int_equal(sl_jobproj_add(p, "spec.nodes"), 0);
	assert_int_equal(sl_jobproj_add(p, "state"), 0);
	assert_int_equal(sl_jobproj_add(p, "uid"), 0);
	assert_int_equal(sl_job_listing_append_proj(b, j, SL_VIEW_OWNER, p), 0);
	assert_string_equal(sl_buf_str(b), "{\"id\":7,\"spec\":{\"nodes\":2},\"uid\":5,"
					   "\"state\":\"PENDING\",\"user\":\"u\"}");
	sl_buf_free(b);
	sl_job_free(j);
	sl_jobproj_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_listing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
