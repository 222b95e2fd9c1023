/* test_array.c - job arrays' index sets: the specs slurmctld 22.05 takes
 * and refuses (_valid_array_inx), the task ids they name, the collapsed
 * text squeue and scontrol show (xlate_array_task_str), and job ids as
 * users write them ("N", "N_I", "N_[1-3]"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "array.h"

/* The ids of spec as "a b c" and its throttle; NULL when refused. */
static char *ids(const char *spec, uint32_t max, uint32_t *throttle)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	char *out, *p;
	size_t n;

	if (sl_array_parse(spec, max, &a, &err) != 0) {
		assert_null(a);
		assert_string_equal(err.msg, "Invalid job array specification");
		return NULL;
	}
	n = sl_array_count(a);
	out = p = calloc(n * 12 + 1, 1);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%u", i ? " " : "", sl_array_task(a, i));
	*throttle = sl_array_throttle(a);
	sl_array_free(a);
	return out;
}

static void want(const char *spec, const char *list, uint32_t thr)
{
	uint32_t t = 99;
	char *got = ids(spec, 1001, &t);
	if (got == NULL)
		fail_msg("\"%s\" refused", spec);
	if (strcmp(got, list) != 0 || t != thr)
		fail_msg("\"%s\": got \"%s\" %%%u, want \"%s\" %%%u", spec, got, t, list, thr);
	free(got);
}

static void refused(const char *spec, uint32_t max)
{
	uint32_t t;
	char *got = ids(spec, max, &t);
	if (got != NULL)
		fail_msg("\"%s\" accepted: %s", spec, got);
}

static void test_parse(void **state)
{
	(void)state;
	want("1-10", "1 2 3 4 5 6 7 8 9 10", 0);
	want("1,3,5", "1 3 5", 0);
	want("0-15:4", "0 4 8 12", 0);
	want("0-3%2", "0 1 2 3", 2);
	want("5,1-3,2", "1 2 3 5", 0);      /* sorted, each once */
	want("[1-3]", "1 2 3", 0);          /* brackets, as slurmctld strips them */
	want("1-5:2,8%3", "1 3 5 8", 3);
	want("7", "7", 0);
	want("1-3%0", "1 2 3", 0);          /* %0: no throttle */
	want("1-3%", "1 2 3", 0);
	want("0-", "0", 0);                 /* strtol: a missing number is 0 */
}

/* Ranges in order are taken as they come, the others sorted and made
 * distinct: both ways give the same ids. */
static void test_parse_order(void **state)
{
	(void)state;
	want("1-10:4", "1 5 9", 0);
	want("1-10:4,10", "1 5 9 10", 0);    /* 10 is past the range's last, 9 */
	want("1-10:4,5", "1 5 9", 0);
	want("1-10:4,9", "1 5 9", 0);
	want("3,1", "1 3", 0);
	want("1-3,3", "1 2 3", 0);
	want("1-3,4-5", "1 2 3 4 5", 0);
	want("0-9:3,1-9:3", "0 1 3 4 6 7 9", 0);
	want("2,,4", "2 4", 0);              /* strtok: empty tokens skipped */
	want("[7,1-3]", "1 2 3 7", 0);
}

/* A small fixed generator: the same specs on every run. */
static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Random specs of 1 to 6 tokens, in order or not, overlapping or not,
 * against the ids their ranges name, counted in a bitmap here. */
static void test_parse_random(void **state)
{
	enum { MAX = 8000 }; /* above any id drawn: 2000 + 6 x 900 */
	static uint8_t in[MAX];
	uint32_t seed = 99;
	(void)state;

	for (int round = 0; round < 2000; round++) {
		char spec[256], *p = spec, *got, *q;
		int ntok = 1 + (int)(rnd(&seed) % 6);
		uint32_t base = rnd(&seed) % 2 ? 0 : rnd(&seed) % 2000, t = 0;

		memset(in, 0, sizeof(in));
		for (int k = 0; k < ntok; k++) {
			uint32_t a = base + rnd(&seed) % 500, b = a + rnd(&seed) % 400,
				 st = 1 + rnd(&seed) % 5;
			base = rnd(&seed) % 3 ? b + 1 : base; /* mostly in order */
			p += sprintf(p, "%s%u-%u:%u", k ? "," : "", a, b, st);
			for (uint32_t i = a; i <= b; i += st)
				in[i] = 1;
		}
		got = ids(spec, MAX, &t);
		assert_non_null(got);
		q = got;
		for (uint32_t i = 0; i < MAX; i++) {
			char *end;
			if (!in[i])
				continue;
			if (strtoul(q, &end, 10) != i || end == q)
				fail_msg("\"%s\": got \"%s\", missing or out of order at %u", spec,
					 got, i);
			q = end + (*end == ' ');
		}
		if (*q != '\0')
			fail_msg("\"%s\": got \"%s\", extra from \"%s\"", spec, got, q);
		free(got);
	}
}

static void test_parse_max(void **state)
{
	uint32_t t;
	char *got;
	(void)state;
	got = ids("0-1000", 1001, &t);
	assert_non_null(got);
	assert_int_equal(strlen(got) > 0, 1);
	free(got);
	refused("0-1001", 1001);             /* ids are below MaxArraySize */
	refused("1001", 1001);
	refused("1-5:1001", 1001);           /* a step of MaxArraySize or more */
	refused("0", 0);                     /* MaxArraySize=0: arrays disabled */
	/* what squeue reads back from the daemon has no limit but the type's:
	 * the ids near it cost no more than near 0 */
	got = ids("4294967290-4294967294:2", UINT32_MAX, &t);
	assert_string_equal(got, "4294967290 4294967292 4294967294");
	free(got);
	refused("4294967295", UINT32_MAX);
}

static void test_refused(void **state)
{
	(void)state;
	refused("abc", 1001);
	refused("", 1001);
	refused("5-1", 1001);
	refused("-1", 1001);
	refused("1-", 1001);
	refused("1-5:0", 1001);
	refused("1-5:-1", 1001);
	refused("1x", 1001);
	refused("1:2", 1001);
	refused(",", 1001);
}

static void fmt(const char *spec, uint32_t thr, const char *text)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	uint32_t *v;
	char *got;
	size_t n;

	assert_int_equal(sl_array_parse(spec, 100000, &a, &err), 0);
	n = sl_array_count(a);
	v = calloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = sl_array_task(a, i);
	got = sl_array_fmt(v, n, thr);
	if (strcmp(got, text) != 0)
		fail_msg("%s: got \"%s\", want \"%s\"", spec, got, text);
	free(got);
	free(v);
	sl_array_free(a);
}

static void test_fmt(void **state)
{
	(void)state;
	fmt("2-3", 2, "2-3%2");
	fmt("4-10", 2, "4-10%2");
	fmt("1,3,5-7", 0, "1,3,5-7");
	fmt("0-20:4", 0, "0-20:4");          /* 6 ids over 20: a step */
	fmt("0-16:4", 0, "0,4,8,12,16");     /* only 5 ids: ranges */
	fmt("1-5:2", 0, "1,3,5");            /* over less than 11 */
	fmt("1-12,14", 0, "1-12,14");
	fmt("5", 0, "5");
	/* 64-byte buffer: cut at 63 characters, "..." over the last three */
	fmt("0-100:3,200", 0, "0,3,6,9,12,15,18,21,24,27,30,33,36,39,42,45,48,51,54,57,60,6...");
}

static void jobid(const char *s, uint64_t job, const char *tasks)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	uint64_t j = 0;
	char buf[256] = "", *p = buf;

	if (sl_array_jobid_parse(s, &j, &a, &err) != 0)
		fail_msg("%s refused: %s", s, err.msg);
	assert_int_equal(j, job);
	for (size_t i = 0; a != NULL && i < sl_array_count(a); i++)
		p += sprintf(p, "%s%u", i ? " " : "", sl_array_task(a, i));
	assert_string_equal(buf, tasks);
	sl_array_free(a);
}

static void test_jobid(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	uint64_t j;
	(void)state;
	jobid("18", 18, "");
	jobid("18_*", 18, "");
	jobid("18_3", 18, "3");
	jobid("18_[1-3,7]", 18, "1 2 3 7");
	jobid("18_[7,1-3]", 18, "1 2 3 7");
	jobid("18_4000000", 18, "4000000");
	assert_int_equal(sl_array_jobid_parse("abc", &j, &a, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid job id: abc");
	sl_err_clear(&err);
	assert_int_equal(sl_array_jobid_parse("18_", &j, &a, &err), -SL_EINVAL);
	sl_err_clear(&err);
	assert_int_equal(sl_array_jobid_parse("18_[1-3", &j, &a, &err), -SL_EINVAL);
	sl_err_clear(&err);
	assert_int_equal(sl_array_jobid_parse("18_x", &j, &a, &err), -SL_EINVAL);
	assert_null(a);
}

static void test_step(void **state)
{
	(void)state;
	assert_int_equal(sl_array_step("0-15:4"), 4);
	assert_int_equal(sl_array_step("1-10"), 1);
	assert_int_equal(sl_array_step("1,3,5"), 1);
	assert_int_equal(sl_array_step("1-9:2%3"), 2);
}

/* The one pending task left: N_I, but N_[I] for an array of that task. */
static void test_lone_task(void **state)
{
	(void)state;
	assert_true(sl_array_lone_task("0-2%2", 2));  /* the others started */
	assert_true(sl_array_lone_task("0-2%2", 1));  /* split off */
	assert_false(sl_array_lone_task("7", 7));
	assert_false(sl_array_lone_task("7-7%1", 7));
	assert_true(sl_array_lone_task("1,3", 3));
	/* the meta record keeps its bitmap with two tasks, or one of its own */
	assert_true(sl_array_meta_bitmap("0-2", 2, 2));
	assert_false(sl_array_meta_bitmap("0-2", 2, 1));
	assert_false(sl_array_meta_bitmap("0-2", 2, 0));
	assert_true(sl_array_meta_bitmap("7", 7, 1));
}

static void test_last_index_full(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	uint32_t v[40];
	char *t;
	(void)state;
	assert_int_equal(sl_array_last("0-15:4%2"), 12);
	assert_int_equal(sl_array_last("abc"), -1);
	assert_int_equal(sl_array_last(NULL), -1);
	assert_int_equal(sl_array_parse("1,3,5-7", 1001, &a, &err), 0);
	assert_int_equal(sl_array_index(a, 1), 0);
	assert_int_equal(sl_array_index(a, 5), 2); /* raw id N+1+2 */
	assert_int_equal(sl_array_index(a, 7), 4);
	sl_array_free(a);
	for (uint32_t i = 0; i < 40; i++)
		v[i] = i * 3 + (i % 2); /* no even step: long ranges text */
	t = sl_array_fmt_full(v, 40, 4);
	assert_true(strlen(t) > 63);
	assert_null(strstr(t, "..."));
	assert_string_equal(t + strlen(t) - 2, "%4");
	free(t);
}

static void test_has(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_array *a = NULL;
	(void)state;
	assert_int_equal(sl_array_parse("1,3,5-7", 1001, &a, &err), 0);
	assert_true(sl_array_has(a, 1));
	assert_false(sl_array_has(a, 2));
	assert_true(sl_array_has(a, 6));
	assert_false(sl_array_has(a, 8));
	sl_array_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse), cmocka_unit_test(test_parse_max),
		cmocka_unit_test(test_parse_order), cmocka_unit_test(test_parse_random),
		cmocka_unit_test(test_lone_task),
		cmocka_unit_test(test_refused), cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_jobid), cmocka_unit_test(test_step),
		cmocka_unit_test(test_has), cmocka_unit_test(test_last_index_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
