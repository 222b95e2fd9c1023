/* test_quantity.c - Kubernetes quantities: grammar, exact milli-units,
 * rounding, overflow, canonical text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "quantity.h"

#define KI 1024LL
#define MI (KI * KI)
#define GI (MI * KI)

static const struct {
	const char *text;
	int64_t milli;
} good[] = {
	{"0", 0}, {"1", 1000}, {"8", 8000}, {"+3", 3000}, {"0.5", 500}, {".5", 500},
	{"1.", 1000}, {"1.25", 1250}, {"500m", 500}, {"1500m", 1500}, {"0m", 0},
	{"007", 7000}, {"000.0010", 1},
	/* fractions of a milli round up (away from zero) */
	{"0.0001", 1}, {"0.0011", 2}, {"1.0001", 1001}, {"1n", 1}, {"1u", 1},
	{"1000000n", 1}, {"1000001n", 2}, {"999999u", 1000}, {"0.1m", 1},
	{"1k", 1000000}, {"2M", 2000000000LL}, {"1G", 1000000000000LL},
	{"1T", 1000000000000000LL}, {"1P", 1000000000000000000LL},
	{"1Ki", 1024000}, {"1Mi", MI * 1000}, {"32Gi", 32 * GI * 1000},
	{"1.5Gi", 1536 * MI * 1000}, {"0.5Ki", 512000}, {"1Ti", GI * KI * 1000},
	{"1Pi", GI * MI * 1000}, {"0.001Ki", 1024}, {"0.0001Ki", 103},
	{"1e3", 1000000}, {"1E3", 1000000}, {"1e+3", 1000000}, {"1e-3", 1},
	{"15e-1", 1500}, {"1e-4", 1}, {"2.5e2", 250000}, {"0e9", 0}, {"1e0", 1000},
	{"-1", -1000}, {"-0.5", -500}, {"-1e-4", -1}, {"-0", 0},
	{"9223372036854775807m", INT64_MAX}, {"9223372036854775.807", INT64_MAX},
	{"9223372036854775806.1m", INT64_MAX}, {"-9223372036854775807m", -INT64_MAX},
	{"0.000000000000000000000000000000000000000000001", 1},
	{"0.0000000000000000000000000000000000000000001Ei", 1},
	{"1e-100000", 1}, {"0e100000", 0}, {"1000000000000000000000e-21", 1000},
};

static const char *const bad[] = {
	"", "+", "-", ".", "m", "Ki", "1 ", " 1", "1 Gi", "1g", "1ki", "1KI", "1Kib",
	"1mi", "1.5.5", "1..", "1e", "1e+", "1e1.5", "1ee3", "1Ee3", "e3", "0x10",
	"1,5", "--1", "+-1", "1m1", "abc",
	/* overflow of int64 milli-units */
	"8Ei", "9223372036854775808m", "9223372036854776", "10E", "1e19", "1e100000",
	"100000000000000000000000000000", "18446744073709551616m",
	"123456789012345678901234567890123456789012345678901234567890123",
};

static void test_parse_good(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int64_t v = 12345;
		int r = sl_quantity_parse(good[i].text, &v);

		if (r != 0 || v != good[i].milli)
			fail_msg("\"%s\": r=%d got %lld want %lld", good[i].text, r,
				 (long long)v, (long long)good[i].milli);
	}
}

static void test_parse_bad(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v = 12345;

		if (sl_quantity_parse(bad[i], &v) != -SL_EINVAL)
			fail_msg("\"%s\" accepted as %lld", bad[i], (long long)v);
		assert_true(v == 12345);
	}
	assert_int_equal(sl_quantity_parse(NULL, &(int64_t){0}), -SL_EINVAL);
}

static void test_largest(void **state)
{
	int64_t v;

	/* 7Ei bytes = 8070450532247928832 units: * 1000 does not fit */
	assert_int_equal(sl_quantity_parse("7Ei", &v), -SL_EINVAL);
	/* 8191Ti = 9006099743113216 bytes -> * 1000 = 9.006e18 fits */
	assert_int_equal(sl_quantity_parse("8191Ti", &v), 0);
	assert_true(v == 8191LL * GI * KI * 1000);
	assert_int_equal(sl_quantity_parse("8192Ti", &v), 0);
	assert_int_equal(sl_quantity_parse("8389Ti", &v), -SL_EINVAL);
	assert_int_equal(sl_quantity_parse("9P", &v), 0);
	assert_true(v == 9000000000000000000LL);
	assert_int_equal(sl_quantity_parse("10P", &v), -SL_EINVAL);
}

static void test_format(void **state)
{
	static const struct {
		int64_t milli;
		const char *text;
	} cases[] = {
		{0, "0"}, {1000, "1"}, {8000, "8"}, {500, "500m"}, {1500, "1500m"},
		{1, "1m"}, {-1000, "-1"}, {-500, "-500m"}, {1024000, "1024"},
		{2048000, "2048"}, {MI * 1000, "1Mi"}, {32 * GI * 1000, "32Gi"},
		{1536 * MI * 1000, "1536Mi"}, {(MI + KI) * 1000, "1049600"},
		{GI * KI * 1000, "1Ti"}, {1000000000000LL, "1000000000"},
		{-32 * GI * 1000, "-32Gi"}, {INT64_MAX, "9223372036854775807m"},
		{INT64_MIN, "-9223372036854775808m"}, {8 * GI * MI * 1000, "8Pi"},
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sl_quantity_format(cases[i].milli, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
	sl_quantity_format(32 * GI * 1000, buf, 3);
	assert_string_equal(buf, "32");
	buf[0] = 'x';
	sl_quantity_format(1000, buf, 0);
	assert_int_equal(buf[0], 'x');
}

/* What format prints, parse reads back to the same value. */
static void test_round_trip(void **state)
{
	static const char *const texts[] = {
		"0", "1", "0.5", "250m", "32Gi", "1.5Gi", "1e3", "1k", "4096Mi", "-2",
		"1Ki", "0.001", "8191Ti",
	};
	char buf[64];
	int64_t a, b;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(sl_quantity_parse(texts[i], &a), 0);
		sl_quantity_format(a, buf, sizeof(buf));
		assert_int_equal(sl_quantity_parse(buf, &b), 0);
		assert_true(a == b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_largest),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
