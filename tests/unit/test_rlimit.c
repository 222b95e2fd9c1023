/* test_rlimit.c - the submitter's limits as text, back, and applied. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "rlimit.h"

static void test_capture(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct rlimit rl = {0, 0};
	char *t = NULL;
	assert_int_equal(setrlimit(RLIMIT_CORE, &rl), 0);
	assert_int_equal(sl_rlimit_capture("core,NOFILE", &t, &err), 0);
	assert_non_null(strstr(t, "CORE=0,NOFILE="));
	free(t);
	assert_int_equal(sl_rlimit_capture("NONE", &t, &err), 0);
	assert_null(t);
	assert_int_equal(sl_rlimit_capture(NULL, &t, &err), 0);
	struct sl_rlimit_set s;
	assert_int_equal(sl_rlimit_parse(t, &s, &err), 0);
	assert_int_equal(s.n, SL_RLIMIT_MAX);
	free(t);
	assert_int_equal(sl_rlimit_capture("CORE,BOGUS", &t, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Bad rlimit name: BOGUS\n--propagate=CORE,BOGUS is not valid.");
}

static void test_parse_apply(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_rlimit_set s;
	struct rlimit rl;
	assert_int_equal(sl_rlimit_parse("STACK=1048576,CPU=inf", &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.resource[0], RLIMIT_STACK);
	assert_true(s.value[1] == RLIM_INFINITY);
	sl_rlimit_apply(&s);
	assert_int_equal(getrlimit(RLIMIT_STACK, &rl), 0);
	assert_true(rl.rlim_cur == 1048576 || rl.rlim_max < 1048576);
	static const char *const bad[] = {"STACK", "STACK=", "STACK=1x", "BOGUS=1", "=1", "STACK=1,"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]) - 1; i++) {
		sl_err_clear(&err);
		if (sl_rlimit_parse(bad[i], &s, &err) != -SL_EINVAL)
			fail_msg("\"%s\" parsed", bad[i]);
	}
	assert_int_equal(sl_rlimit_parse("", &s, &err), 0);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_parse_apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
