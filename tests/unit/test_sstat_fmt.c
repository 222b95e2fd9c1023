/* test_sstat_fmt.c - sstat's rows and layouts (compat/sstat_fmt.c) against
 * what real Slurm 22.05's sstat printed for a running batch step
 * (tests/data/output/sstat_*.out, job 241: one task on n1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "sstat_fmt.h"
#include "sstat_opt.h"
#include "xalloc.h"

/* What jobacct_gather/linux had for job 241's batch step. */
static const struct sl_usage u241 = {.max_rss = 40484, .max_vmsize = 47268, .max_pages = 1,
				     .disk_read = 48346, .disk_write = 1, .ntasks = 1};

static char *render(const char *fields, enum sl_sstat_mode mode, int header)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_sstat_fmt *f;
	char *out;

	assert_int_equal(sl_sstat_fmt_new(fields, mode, 0, &f, &err), 0);
	if (header)
		assert_int_equal(sl_sstat_fmt_header(f, b), 0);
	assert_int_equal(sl_sstat_fmt_step(f, "241.batch", &u241, "n1", b), 0);
	out = sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	sl_sstat_fmt_free(f);
	return out;
}

static void golden(const char *fields, enum sl_sstat_mode mode, int header, const char *file)
{
	char *got = render(fields, mode, header), *want = tl_output(file);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void test_default_table(void **state)
{
	(void)state;
	golden(SL_SSTAT_FIELDS_DEFAULT, SL_SSTAT_TABLE, 1, "sstat_default.out");
}

static void test_parsable2(void **state)
{
	(void)state;
	golden(SL_SSTAT_FIELDS_DEFAULT, SL_SSTAT_PARSABLE2, 1, "sstat_aP.out");
}

static void test_parsable_noheader(void **state)
{
	(void)state;
	golden("JobID,MaxRSS", SL_SSTAT_PARSABLE, 0, "sstat_pn.out");
}

static void test_fields(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_sstat_fmt *f = NULL;
	struct sl_buf *b = sl_buf_new(1 << 16);
	char *got, *want = tl_output("sstat_e.out");

	(void)state;
	assert_int_equal(sl_sstat_fields_help(b), 0);
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
	assert_int_not_equal(sl_sstat_fmt_new("JobID,foo", SL_SSTAT_TABLE, 0, &f, &err), 0);
	assert_string_equal(err.msg, "Invalid field requested: \"foo\"");
	/* widths and '+', as sstat -o JobID%20,MaxRSS%5 printed them */
	got = render("JobID%20,MaxRSS%5", SL_SSTAT_TABLE, 1);
	assert_string_equal(got, "               JobID MaxRS \n-------------------- ----- \n"
				 "           241.batch 4048+ \n");
	free(got);
	/* prefix matching in the table's order: "maxrssn" is MaxRSSNode */
	got = render("maxrssn,pid", SL_SSTAT_PARSABLE2, 1);
	assert_string_equal(got, "MaxRSSNode|Pids\nn1|\n");
	free(got);
}

static void test_steps(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_sstat_step *v;
	size_t n;

	(void)state;
	assert_int_equal(sl_sstat_steps_parse("241,241.batch,7.0,8.extern,9_2", &v, &n, &err), 0);
	assert_int_equal(n, 5);
	assert_int_equal(v[0].id, 241);
	assert_int_equal(v[0].step, SL_SSTAT_STEP_NONE);
	assert_int_equal(v[1].step, SL_SSTAT_STEP_BATCH);
	assert_int_equal(v[2].step, 0);
	assert_int_equal(v[3].step, SL_SSTAT_STEP_EXTERN);
	assert_int_equal(v[4].task, 2);
	free(v);
	assert_int_not_equal(sl_sstat_steps_parse("241,abc", &v, &n, &err), 0);
	assert_string_equal(err.msg, "Bad job/step specified: abc");
	free(v);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(sl_sstat_steps_parse("5.x", &v, &n, &err), 0);
	free(v);
}

/* A running srun step of two tasks (sluiced's sample, task by task): Max
 * the larger task's and its rank, Ave the mean, Min the smaller CPU; the
 * task cells as the reference cluster's sstat printed them for such a
 * step (its 1246.0: "cpu=00:00:00,fs/disk=0,mem=1,pages=0,vmem=1"). */
static void test_two_tasks(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_sstat_fmt *f;
	struct sl_usage u = {.ntasks = 2};
	int64_t t0[SL_USE_N] = {2000000, 56044, 59092, 0, 8705, 1};
	int64_t t1[SL_USE_N] = {3000000, 107184, 110292, 0, 8705, 1};
	(void)state;

	sl_usage_tasks_add(&u.tasks, 0, t0);
	sl_usage_tasks_add(&u.tasks, 1, t1);
	assert_int_equal(sl_sstat_fmt_new("JobID,NTasks,MaxRSS,MaxRSSTask,AveRSS,AveCPU,MinCPU,"
					  "MinCPUTask,TRESUsageInMaxTask",
					  SL_SSTAT_PARSABLE2, 0, &f, &err), 0);
	assert_int_equal(sl_sstat_fmt_step(f, "7.0", &u, "n1", b), 0);
	assert_string_equal(sl_buf_str(b), "7.0|2|107184K|1|81614K|00:00:02|00:00:02|0|"
					   "cpu=00:00:00,fs/disk=0,mem=1,pages=0,vmem=1\n");
	sl_buf_free(b);
	sl_sstat_fmt_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_table),
		cmocka_unit_test(test_parsable2),
		cmocka_unit_test(test_parsable_noheader),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_two_tasks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
