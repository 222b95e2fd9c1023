/* test_sprio_fmt.c - the priority mapping (libbatch/prio.h) and sprio's
 * layouts: the header lines are Slurm 22.05's own (captured on the
 * reference cluster: `sprio -l`, `-n -w`, `-o "%i %Y %N %u"`, cut widths
 * with `-o "%5i %3r %.3Y %y"`), the values Sluice's parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "prio.h"
#include "sprio_fmt.h"
#include "xalloc.h"

static void test_mapping(void **state)
{
	struct sl_job *j = sl_job_new();
	struct sl_prio_parts p;
	(void)state;
	j->state = SL_JOB_PENDING;
	j->reason = sl_xstrdup("Resources");
	j->spec.nice = 50;
	j->priority = 100 - 50; /* class 100, nice 50 (submit.c) */
	sl_prio_parts(j, &p);
	assert_int_equal(p.priority, 10050);
	assert_int_equal(p.site, SL_PRIO_SITE);
	assert_int_equal(p.qos, 100);
	assert_int_equal(p.nice, 50);
	assert_int_equal(sl_prio_slurm(j), 10050);
	/* class 0: not 0, which Slurm keeps for held jobs */
	j->spec.nice = 0, j->priority = 0;
	assert_int_equal(sl_prio_slurm(j), SL_PRIO_SITE);
	/* held: 0 */
	free(j->reason);
	j->reason = sl_xstrdup("JobHeldAdmin");
	assert_int_equal(sl_prio_slurm(j), 0);
	assert_true(sl_prio_held(j));
	/* very negative classes stay above 0; TOP stays in Slurm's range */
	free(j->reason);
	j->reason = sl_xstrdup("Priority");
	j->priority = -2000000000;
	assert_int_equal(sl_prio_slurm(j), 1);
	j->spec.priority = 2147483647, j->priority = 2147483647;
	sl_prio_parts(j, &p);
	assert_true(p.direct);
	assert_int_equal(p.priority, 2147483647LL + SL_PRIO_SITE);
	assert_int_equal(p.site + p.qos + p.nice, 0);
	sl_job_free(j);
}

static char *render(const char *fmt, int weights, const struct sl_sprio_row *r, size_t n)
{
	struct sl_sprio_fmt *f = sl_sprio_fmt_new(fmt, NULL);
	struct sl_buf *b = sl_buf_new(1u << 20);
	char *s;

	sl_sprio_fmt_header(f, b);
	if (weights)
		sl_sprio_fmt_weights(f, b);
	for (size_t i = 0; i < n; i++)
		sl_sprio_fmt_row(f, &r[i], b);
	s = sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	sl_sprio_fmt_free(f);
	return s;
}

static const struct sl_sprio_row rows[] = {
	{232, "cpu", "alice", {10000, 10000, 0, 0, 0, 0}},
	{233, "cpu", "alice", {10050, 10000, 100, 50, 0, 0}},
	{234, "cpu", "bob", {10000, 10000, 0, 0, 0, 0}},
};

static void test_layouts(void **state)
{
	char *fmt, *s;
	(void)state;
	fmt = sl_sprio_default_format(0, 1, 0);
	s = render(fmt, 0, rows, 1);
	assert_string_equal(s,
		"          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  "
		"FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES\n"
		"            232 cpu          alice      10000      10000          0          0  "
		"        0          0          0          0           0                     \n");
	free(s), free(fmt);
	fmt = sl_sprio_default_format(0, 0, 0);
	s = render(fmt, 1, rows, 0);
	assert_string_equal(s, "          JOBID PARTITION   PRIORITY       SITE        QOS\n"
			       "        Weights                               1          1\n");
	free(s), free(fmt);
	fmt = sl_sprio_default_format(1, 0, 1);
	s = render(fmt, 0, rows + 1, 1);
	assert_string_equal(s, "          JOBID PARTITION     USER PRIORITY   QOS       \n"
			       "            233 cpu          alice 0.00000233 100.000000\n");
	free(s), free(fmt);
	s = render("%i %Y %N %u", 0, rows + 1, 1);
	assert_string_equal(s, "JOBID PRIORITY NICE USER\n233 10050 50 alice\n");
	free(s);
	/* cut to the width, right or left; a prefix and a suffix */
	s = render("abc%5i %3r %.3Y|x%N", 0, rows + 1, 1);
	assert_string_equal(s, "abcJOBID PAR PRI|xNICE\nabc233   cpu 100|x50\n");
	free(s);
}

static int bad_seen;
static void bad(char c)
{
	bad_seen = c;
}

static void test_bad_code_and_sort(void **state)
{
	struct sl_sprio_row v[3];
	struct sl_err err = SL_ERR_INIT;
	struct sl_sprio_fmt *f = sl_sprio_fmt_new("%z %i", bad);
	(void)state;
	assert_int_equal(bad_seen, 'z');
	sl_sprio_fmt_free(f);
	memcpy(v, rows, sizeof(v));
	assert_int_equal(sl_sprio_sort(v, 3, "-y", &err), 0);
	assert_int_equal(v[0].id, 233); /* then 232, 234: equal keys keep their order */
	assert_int_equal(v[1].id, 232);
	assert_int_equal(v[2].id, 234);
	assert_int_equal(sl_sprio_sort(v, 3, NULL, &err), 0);
	assert_int_equal(v[0].id, 232);
	assert_int_equal(sl_sprio_sort(v, 3, "-u,i", &err), 0);
	assert_int_equal(v[0].id, 234);
	assert_int_equal(sl_sprio_sort(v, 3, "z", &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid sort specification: z");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_bad_code_and_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
