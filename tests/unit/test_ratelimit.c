/* test_ratelimit.c - token bucket math on an injected clock, backoff and
 * Retry-After jitter bounds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "k8s/ratelimit.h"

static void test_bucket_burst_then_qps(void **state)
{
	struct sl_ratelimit *r = sl_ratelimit_new(50, 100, 1000);

	for (int i = 0; i < 100; i++)
		assert_int_equal(sl_ratelimit_try(r, 1000), 0);
	/* Empty: the next token comes after 1/50 s. */
	assert_int_equal(sl_ratelimit_try(r, 1000), 20);
	assert_int_equal(sl_ratelimit_try(r, 1010), 10);
	assert_int_equal(sl_ratelimit_try(r, 1020), 0);
	assert_int_equal(sl_ratelimit_try(r, 1020), 20);
	/* 1 s later: 50 tokens, not more. */
	assert_int_equal((int)(sl_ratelimit_tokens(r, 2020) + 0.5), 50);
	for (int i = 0; i < 50; i++)
		assert_int_equal(sl_ratelimit_try(r, 2020), 0);
	assert_true(sl_ratelimit_try(r, 2020) > 0);
	/* Never above burst however long it idles. */
	assert_int_equal((int)(sl_ratelimit_tokens(r, 1000000) + 0.5), 100);
	sl_ratelimit_free(r);
}

static void test_bucket_defaults_and_unlimited(void **state)
{
	struct sl_ratelimit *r = sl_ratelimit_new(0, 0, 0);
	int ok = 0;

	while (sl_ratelimit_try(r, 0) == 0)
		ok++;
	assert_int_equal(ok, SL_RATELIMIT_DEFAULT_BURST);
	assert_int_equal(sl_ratelimit_try(r, 0), 200); /* 1/5 s */
	sl_ratelimit_free(r);

	r = sl_ratelimit_new(-1, 0, 0);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(sl_ratelimit_try(r, 0), 0);
	sl_ratelimit_free(r);
	sl_ratelimit_free(NULL);
}

static void test_bucket_fractional_qps(void **state)
{
	struct sl_ratelimit *r = sl_ratelimit_new(3, 1, 0);

	assert_int_equal(sl_ratelimit_try(r, 0), 0);
	assert_int_equal(sl_ratelimit_try(r, 0), 334); /* ceil(1000/3) */
	assert_true(sl_ratelimit_try(r, 333) > 0);
	assert_int_equal(sl_ratelimit_try(r, 334), 0);
	sl_ratelimit_free(r);
}

static void test_backoff_bounds(void **state)
{
	/* attempt n: d = min(base * 2^(n-1), cap), result in [d/2, d]. */
	assert_int_equal(sl_backoff_delay(1, 500, 30000, 0), 250);
	assert_int_equal(sl_backoff_delay(1, 500, 30000, 250), 500);
	assert_int_equal(sl_backoff_delay(1, 500, 30000, 251), 250);
	assert_int_equal(sl_backoff_delay(3, 500, 30000, 0), 1000);
	assert_int_equal(sl_backoff_delay(3, 500, 30000, 1000), 2000);
	assert_int_equal(sl_backoff_delay(20, 500, 30000, 0), 15000);
	assert_int_equal(sl_backoff_delay(200, 500, 30000, 15000), 30000);
	assert_int_equal(sl_backoff_delay(0, 800, 30000, 0), 400);
	for (uint32_t rnd = 0; rnd < 100000; rnd += 7919) {
		for (int a = 1; a < 12; a++) {
			int64_t d = sl_backoff_delay(a, 800, 30000, rnd * 2654435761u);
			int64_t top = 800LL << (a - 1);
			if (top > 30000)
				top = 30000;
			assert_true(d >= top / 2 && d <= top);
		}
	}
}

static void test_retry_after(void **state)
{
	assert_int_equal(sl_retry_after_delay(1, 300000, 0), 1000);
	assert_int_equal(sl_retry_after_delay(1, 300000, 100), 1100);
	assert_int_equal(sl_retry_after_delay(1, 300000, 101), 1000);
	assert_int_equal(sl_retry_after_delay(0, 300000, 12345), 0);
	assert_int_equal(sl_retry_after_delay(100000, 300000, 0), 300000);
	assert_int_equal(sl_retry_after_delay(-5, 300000, 3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_burst_then_qps),
		cmocka_unit_test(test_bucket_defaults_and_unlimited),
		cmocka_unit_test(test_bucket_fractional_qps),
		cmocka_unit_test(test_backoff_bounds),
		cmocka_unit_test(test_retry_after),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
