/* test_slurm_time.c - Slurm time syntaxes: -t parsing, parse_time looking
 * back (sacct) and ahead (--begin), and the squeue/sacct duration and
 * timestamp formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "err.h"
#include "job.h"
#include "slurm_time.h"

static int64_t lim(const char *s)
{
	int64_t m = -999;
	assert_int_equal(sl_slurm_time_parse_limit(s, &m), 0);
	return m;
}

static void test_parse_limit(void **state)
{
	int64_t m;
	(void)state;
	assert_int_equal(lim("10"), 10);
	assert_int_equal(lim("0"), 0);
	assert_int_equal(lim("0:5"), 1);
	assert_int_equal(lim("00:00:05"), 1);
	assert_int_equal(lim("1:00"), 1);
	assert_int_equal(lim("1:01"), 2);
	assert_int_equal(lim("00:10:00"), 10);
	assert_int_equal(lim("2:30:00"), 150);
	assert_int_equal(lim("1-0"), 1440);
	assert_int_equal(lim("1-2"), 1560);
	assert_int_equal(lim("1-2:3"), 1563);
	assert_int_equal(lim("1-2:3:1"), 1564);
	assert_int_equal(lim("7-00:00:00"), 7 * 1440);
	assert_int_equal(lim("UNLIMITED"), SL_TIME_INFINITE);
	assert_int_equal(lim("infinite"), SL_TIME_INFINITE);
	assert_int_equal(lim("-1"), SL_TIME_INFINITE);
	assert_int_equal(lim("99999999"), 99999999);
	assert_int_equal(sl_slurm_time_parse_limit("abc", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1:2:3:4", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1-2-3", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1:2-3", &m), -SL_EINVAL);
	/* "1-" is a day (Slurm's sscanf leaves the rest 0); a trailing ':' and
	 * an empty field after the dash are refused, as there */
	assert_int_equal(sl_slurm_time_parse_limit("1-", &m), 0);
	assert_int_equal(m, 1440);
	assert_int_equal(sl_slurm_time_parse_limit("5:", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1-2:", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1-:5", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1--2", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("10m", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1::2", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("1:", &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit(NULL, &m), -SL_EINVAL);
	assert_int_equal(sl_slurm_time_parse_limit("99999999999999999999", &m), -SL_EINVAL);
}

static void test_fmt(void **state)
{
	typedef void fmt_fn(int64_t v, char *buf, size_t len);
	static const struct {
		fmt_fn *fn;
		int64_t v;
		const char *want;
	} cases[] = {
		{sl_slurm_time_fmt_limit, SL_TIME_INFINITE, "UNLIMITED"},
		{sl_slurm_time_fmt_limit, SL_TIME_UNSET, "UNLIMITED"},
		{sl_slurm_time_fmt_limit, 1, "1:00"},
		{sl_slurm_time_fmt_limit, 10, "10:00"},
		{sl_slurm_time_fmt_limit, 30, "30:00"},
		{sl_slurm_time_fmt_limit, 60, "1:00:00"},
		{sl_slurm_time_fmt_limit, 1440, "1-00:00:00"},
		{sl_slurm_time_fmt_limit, 7 * 1440 + 61, "7-01:01:00"},
		{sl_slurm_time_fmt_limit_sacct, SL_TIME_INFINITE, "UNLIMITED"},
		{sl_slurm_time_fmt_limit_sacct, SL_TIME_UNSET, "Partition_Limit"},
		{sl_slurm_time_fmt_limit_sacct, 1, "00:01:00"},
		{sl_slurm_time_fmt_limit_sacct, 600, "10:00:00"},
		{sl_slurm_time_fmt_limit_sacct, 1440, "1-00:00:00"},
		{sl_slurm_time_fmt_elapsed, 0, "0:00"},
		{sl_slurm_time_fmt_elapsed, 36, "0:36"},
		{sl_slurm_time_fmt_elapsed, 72, "1:12"},
		{sl_slurm_time_fmt_elapsed, 3600, "1:00:00"},
		{sl_slurm_time_fmt_elapsed, 2 * 86400 + 3 * 3600 + 4 * 60 + 5, "2-03:04:05"},
		{sl_slurm_time_fmt_elapsed, -5, "0:00"},
		{sl_slurm_time_fmt_elapsed_sacct, 0, "00:00:00"},
		{sl_slurm_time_fmt_elapsed_sacct, 1, "00:00:01"},
		{sl_slurm_time_fmt_elapsed_sacct, 86400, "1-00:00:00"},
		{sl_slurm_time_fmt_ts, 0, "Unknown"},
	};
	char b[64];
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cases[i].fn(cases[i].v, b, sizeof(b));
		assert_string_equal(b, cases[i].want);
	}
}

static int64_t mk(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = {0};
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* A text parse_time takes, and the local time it stands for. */
struct accepted {
	const char *in;
	int y, mo, d, h, mi, s;
};
/* A text it refuses, and the position its line gives. */
struct refused {
	const char *in;
	int pos;
};

static void expect_parsed(const struct accepted *ok, size_t n, int64_t now, int past)
{
	int64_t t = 0;
	int pos;

	for (size_t i = 0; i < n; i++) {
		if (sl_slurm_time_parse(ok[i].in, now, past, &t, &pos) != 0)
			fail_msg("%s refused at %d", ok[i].in, pos);
		if (t != mk(ok[i].y, ok[i].mo, ok[i].d, ok[i].h, ok[i].mi, ok[i].s))
			fail_msg("%s: got %lld", ok[i].in, (long long)t);
	}
}

static void expect_refused(const struct refused *bad, size_t n, int64_t now, int past)
{
	int64_t t = 0;
	int pos;

	for (size_t i = 0; i < n; i++) {
		if (sl_slurm_time_parse(bad[i].in, now, past, &t, &pos) != -SL_EINVAL)
			fail_msg("%s accepted", bad[i].in);
		if (pos != bad[i].pos)
			fail_msg("%s: pos %d, want %d", bad[i].in, pos, bad[i].pos);
	}
}

/* sacct -S/-E (parse_time with past set): each form as the real Slurm
 * 22.05.8's sacct read it at this `now` (2026-11-26T18:31, UTC), seen in
 * its "Start time (...) requested is after end time" line (-S X -E
 * 2000-01-01) or its "Invalid time specification (pos=N)" line. */
static void test_past(void **state)
{
	int64_t now, t = 0;
	int pos;
	char b[64];
	static const struct accepted ok[] = {
		{"now", 2026, 11, 26, 18, 31, 0},
		{"now-1days", 2026, 11, 25, 18, 31, 0},
		{"now-1hour", 2026, 11, 26, 17, 31, 0},
		{"now+1", 2026, 11, 26, 18, 31, 1},
		{"now + 1 hour", 2026, 11, 26, 19, 31, 0},
		{"now-1week", 2026, 11, 19, 18, 31, 0},
		{"now-30minutes", 2026, 11, 26, 18, 1, 0},
		{"now ", 2026, 11, 26, 18, 31, 0},
		{" now+10", 2026, 11, 26, 18, 31, 0}, /* Slurm's doubled position: a 0 delta */
		{" now", 2026, 11, 26, 18, 31, 0},    /* as Slurm's when a NUL follows the text */
		/* a time of day is today's, even one still to come */
		{"midnight", 2026, 11, 26, 0, 0, 0},
		{"noon", 2026, 11, 26, 12, 0, 0},
		{"NOON", 2026, 11, 26, 12, 0, 0},
		{"today", 2026, 11, 26, 0, 0, 0},
		{"tomorrow", 2026, 11, 27, 0, 0, 0},
		{"teatime", 2026, 11, 26, 16, 0, 0},
		{"fika", 2026, 11, 26, 15, 0, 0},
		{"4:30pm", 2026, 11, 26, 16, 30, 0},
		{"4:30 pm", 2026, 11, 26, 16, 30, 0},
		{"11:00am", 2026, 11, 26, 11, 0, 0},
		{"12:30am", 2026, 11, 26, 0, 30, 0},
		{"12:30pm", 2026, 11, 26, 12, 30, 0},
		{"16:00", 2026, 11, 26, 16, 0, 0},
		{"16:00:00", 2026, 11, 26, 16, 0, 0},
		{"9:05", 2026, 11, 26, 9, 5, 0},
		{"23:59", 2026, 11, 26, 23, 59, 0},
		{" 16:00", 2026, 11, 26, 16, 0, 0},
		{"16:00 ", 2026, 11, 26, 16, 0, 0},
		{"noon tomorrow", 2026, 11, 27, 12, 0, 0},
		{"tomorrow 16:00", 2026, 11, 27, 16, 0, 0},
		{"16:00 tomorrow", 2026, 11, 27, 16, 0, 0},
		{"today 16:00", 2026, 11, 26, 16, 0, 0},
		{"midnight tomorrow", 2026, 11, 27, 0, 0, 0},
		/* a date without a year: last year's only in a later month */
		{"11/26", 2026, 11, 26, 0, 0, 0},
		{"11/27", 2026, 11, 27, 0, 0, 0},
		{"12/31", 2025, 12, 31, 0, 0, 0},
		{"1220", 2025, 12, 20, 0, 0, 0},
		{"1/1", 2026, 1, 1, 0, 0, 0},
		{"10/1", 2026, 10, 1, 0, 0, 0},
		{"11/26/26", 2026, 11, 26, 0, 0, 0},
		{"11/26/25", 2025, 11, 26, 0, 0, 0},
		{"112626", 2026, 11, 26, 0, 0, 0},
		{"11.26.26", 2026, 11, 26, 0, 0, 0},
		{"11/20.25", 2025, 11, 20, 0, 0, 0},
		{"2026-11-26", 2026, 11, 26, 0, 0, 0},
		{"2026-11-26T10:00", 2026, 11, 26, 10, 0, 0},
		{"2026-11-26T10:00:00", 2026, 11, 26, 10, 0, 0},
		{"2026-11-26 10:00", 2026, 11, 26, 10, 0, 0},
		{"2025-12-31T23:59:59", 2025, 12, 31, 23, 59, 59},
		{"2027-01-01", 2027, 1, 1, 0, 0, 0},
	};
	static const struct refused bad[] = {
		{"now-1min", 4}, {"now-1x", 4}, {"now+", 3}, {"now5", 3}, {"now-hour", 3},
		{"elevenses", 0}, {"4pm", 1}, {"13:00pm", 5}, {"16:00:61", 6}, {"25:00", 0},
		{"16:60", 3}, {"13/01", 0}, {"00", 0}, {"0", -1}, {"1232", 2}, {"11/26x", 5},
		{"2026-11-26T10", 13}, {"2026-11-26T10:00:00Z", 19}, {"2026-1-1", 0},
		{"2026-13-01", 5}, {"2026-11-32", 8}, {"1969-12-31T23:59:59", 19},
		{"1764000000", 0}, {"uts12", 0}, {"garbage", 0}, {"Today", 1}, {"TOMORROW", 1},
		{"Teatime", 1}, {" now+1", 5}, {"today now5", 15}, {"tomorrow+1", 8},
		{"todayx", 5}, {"noonx", 4}, {"", SL_TIME_NO_POS}, {"  ", SL_TIME_NO_POS},
		{"T", SL_TIME_NO_POS}, {"-", SL_TIME_NO_POS},
	};
	(void)state;

	setenv("TZ", "UTC", 1); /* 1969-12-31T23:59:59 is mktime's -1 */
	tzset();
	now = mk(2026, 11, 26, 18, 31, 0);
	sl_slurm_time_fmt_ts(now, b, sizeof(b));
	assert_string_equal(b, "2026-11-26T18:31:00");
	expect_parsed(ok, sizeof(ok) / sizeof(ok[0]), now, SL_TIME_PAST);
	expect_refused(bad, sizeof(bad) / sizeof(bad[0]), now, SL_TIME_PAST);
	assert_int_equal(sl_slurm_time_parse("uts1764000000", now, SL_TIME_PAST, &t, &pos), 0);
	assert_int_equal(t, 1764000000);
	assert_int_equal(sl_slurm_time_parse(NULL, now, SL_TIME_PAST, &t, NULL), -SL_EINVAL);
	unsetenv("TZ");
	tzset();
}

/* SLURM_TIME_FORMAT: a strftime format, "relative", and what Slurm does
 * with one it cannot use (ISO; the line goes to stderr). A result longer
 * than the buffer is all '#', as slurm_strftime makes it. */
static void test_time_format(void **state)
{
	int64_t t = mk(2026, 11, 21, 10, 25, 3), now = (int64_t)time(NULL);
	char b[64], small[8], want[64];
	struct tm tm;
	time_t tt;
	(void)state;

	setenv("SLURM_TIME_FORMAT", "%d/%m %H:%M", 1);
	sl_slurm_time_format_reset();
	sl_slurm_time_fmt_ts(t, b, sizeof(b));
	assert_string_equal(b, "21/11 10:25");
	sl_slurm_time_fmt_ts(t, small, sizeof(small));
	assert_string_equal(small, "#######");
	setenv("SLURM_TIME_FORMAT", "relative", 1);
	sl_slurm_time_format_reset();
	tt = (time_t)now;
	localtime_r(&tt, &tm);
	strftime(want, sizeof(want), "%H:%M:%S", &tm);
	sl_slurm_time_fmt_ts(now, b, sizeof(b));
	assert_string_equal(b, want);
	sl_slurm_time_fmt_ts(mk(2020, 1, 5, 8, 0, 0), b, sizeof(b));
	assert_string_equal(b, "5 Jan 2020");
	setenv("SLURM_TIME_FORMAT", "nopercent", 1);
	sl_slurm_time_format_reset();
	sl_slurm_time_fmt_ts(t, b, sizeof(b));
	assert_string_equal(b, "2026-11-21T10:25:03");
	unsetenv("SLURM_TIME_FORMAT");
	sl_slurm_time_format_reset();
}

/* --begin: each form as the real Slurm 22.05.8 resolved it at this `now`
 * (sbatch -H --begin=FORM, then EligibleTime; 2026-11-25T23:08:26). */
static void test_begin(void **state)
{
	int64_t now = mk(2026, 11, 25, 23, 8, 26), t = 0;
	int pos;
	static const struct accepted ok[] = {
		{"16:00", 2026, 11, 26, 16, 0, 0},
		{"23:59", 2026, 11, 25, 23, 59, 0},
		{"23:59:30", 2026, 11, 25, 23, 59, 30},
		{"noon", 2026, 11, 26, 12, 0, 0},
		{"midnight", 2026, 11, 26, 0, 0, 0},
		{"teatime", 2026, 11, 26, 16, 0, 0},
		{"fika", 2026, 11, 26, 15, 0, 0},
		{"today", 2026, 11, 25, 0, 0, 0},
		{"tomorrow", 2026, 11, 26, 0, 0, 0},
		{"12/25", 2026, 12, 25, 0, 0, 0},
		{"12/25/27", 2027, 12, 25, 0, 0, 0},
		{"122527", 2027, 12, 25, 0, 0, 0},
		{"12.25.27", 2027, 12, 25, 0, 0, 0},
		{"1230", 2026, 12, 30, 0, 0, 0},
		{"2027-01-01", 2027, 1, 1, 0, 0, 0},
		{"2027-01-01T10:00", 2027, 1, 1, 10, 0, 0},
		{"2027-01-01T10:00:30", 2027, 1, 1, 10, 0, 30},
		{"4:30pm", 2026, 11, 26, 16, 30, 0},
		{"11:00AM", 2026, 11, 26, 11, 0, 0},
		{"Noon", 2026, 11, 26, 12, 0, 0},
		{"noon tomorrow", 2026, 11, 26, 12, 0, 0},
		{"16:00 12/25", 2026, 12, 25, 16, 0, 0},
		{"12:30pm", 2026, 11, 26, 12, 30, 0},
		{"12:30am", 2026, 11, 26, 0, 30, 0},
		{"11/20", 2027, 11, 20, 0, 0, 0}, /* past this year: next year's */
	};
	static const struct {
		const char *in;
		int64_t delta;
	} rel[] = {
		{"now+60", 60}, {"now+1hour", 3600}, {"now+2days", 172800},
		{"now+1week", 604800}, {"now+5minutes", 300}, {"now-5", -5},
		{"now + 1 hour", 3600}, {"NOW+1HOUR", 3600}, {"now", 0},
	};
	static const struct refused bad[] = {
		{"elevenses", 0}, {"garbage", 0}, {"4pm", 1}, {"2027-1-1", 0}, {"now+1h", 4},
		{"now+1min", 4}, {"now+1sec", 4}, {"25:00", 0}, {"2027-13-01", 5},
		{"tomorrow+1", 8}, {"13:00pm", 5}, {"now+", 3}, {"now5", 3}, {"uts12", 0},
		{"", SL_TIME_NO_POS}, {"  ", SL_TIME_NO_POS}, {"0", -1}, {"00", 0}, {"1232", 2},
		{"today now5", 15},
	};
	(void)state;

	expect_parsed(ok, sizeof(ok) / sizeof(ok[0]), now, SL_TIME_NEXT);
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		assert_int_equal(sl_slurm_time_parse(rel[i].in, now, SL_TIME_NEXT, &t, &pos), 0);
		assert_int_equal(t, now + rel[i].delta);
	}
	expect_refused(bad, sizeof(bad) / sizeof(bad[0]), now, SL_TIME_NEXT);
	assert_int_equal(sl_slurm_time_parse("uts1800000000", now, SL_TIME_NEXT, &t, &pos), 0);
	assert_int_equal(t, 1800000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_limit),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_past),
		cmocka_unit_test(test_begin),
		cmocka_unit_test(test_time_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
