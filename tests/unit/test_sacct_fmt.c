/* test_sacct_fmt.c - sacct rows (job + batch step), widths, '+' truncation
 * and -p/-P, checked against real Slurm 22.05 output (golden files in
 * tests/data/output/, from reference.md Part 3 A2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "sacct_fmt.h"
#include "xalloc.h"

#define NOW 1795257000


/* only: NULL = every job, else a list of ids terminated by 0 */
static void golden(const char *fields, enum sl_sacct_mode mode, int header, int steps,
		   const uint64_t *only, const char *expect_file)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **v = tl_output_jobs("sacct_jobs.jsonl", &n);
	char *want = tl_output(expect_file);

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	if (header)
		assert_int_equal(sl_sacct_fmt_header(f, mode, b), 0);
	for (size_t i = 0; i < n; i++) {
		int keep = only == NULL;
		for (size_t k = 0; only && only[k]; k++)
			keep |= only[k] == v[i]->id;
		if (keep)
			assert_int_equal(sl_sacct_fmt_job(f, v[i], mode, steps, NOW, b), 0);
	}
	assert_string_equal(sl_buf_str(b), want);
	free(want);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
}

static void test_default(void **state)
{
	(void)state;
	golden(SL_SACCT_FIELDS_DEFAULT, SL_SACCT_TABLE, 1, 1, NULL, "sacct_default.out");
	golden("JobID,JobName,State,ExitCode,Elapsed", SL_SACCT_TABLE, 1, 1, NULL,
	       "sacct_elapsed.out");
}

static void test_variants(void **state)
{
	static const uint64_t five_six[] = {5, 6, 0};
	(void)state;
	golden("JobID,JobName,State,ExitCode,Elapsed,Timelimit", SL_SACCT_TABLE, 1, 1,
	       five_six, "sacct_timelimit.out");
	golden("JobID,JobName,State,ExitCode,Elapsed", SL_SACCT_PARSABLE2, 1, 0, NULL,
	       "sacct_parsable.out");
	golden("JobID,State", SL_SACCT_TABLE, 0, 0, NULL, "sacct_noheader.out");
	golden("JobID%20,JobName%30,State%20", SL_SACCT_TABLE, 1, 0, NULL, "sacct_widths.out");
}

static char *one(const char *fields, enum sl_sacct_mode mode, int steps, uint64_t id)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n;
	struct sl_job **v = tl_output_jobs("sacct_jobs.jsonl", &n);
	char *out;

	assert_int_equal(sl_sacct_fmt_new(fields, &f, &err), 0);
	for (size_t i = 0; i < n; i++)
		if (v[i]->id == id)
			assert_int_equal(sl_sacct_fmt_job(f, v[i], mode, steps, NOW, b), 0);
	out = sl_buf_steal(b);
	sl_buf_free(b);
	sl_sacct_fmt_free(f);
	sl_job_free_array(v, n);
	return out;
}

static void test_fields(void **state)
{
	char *s;
	(void)state;
	s = one("JobID,User,Partition,NNodes,NodeList,NTasks,ReqMem,Submit,Start,End",
		SL_SACCT_PARSABLE2, 1, 3);
	assert_string_equal(s, "3|alice|cpu|2|n[1-2]||0|2026-11-21T10:25:01|"
			    "2026-11-21T10:25:03|2026-11-21T10:25:04\n"
			    "3.batch|||1|n1|1||2026-11-21T10:25:01|"
			    "2026-11-21T10:25:03|2026-11-21T10:25:04\n");
	free(s);
	s = one("jobidraw,uid,gid,group,priority,elapsedraw,derived", SL_SACCT_PARSABLE, 1, 5);
	assert_string_equal(s, "5|2001|2001|alice|1012|87|0:0|\n5.batch|||||87||\n");
	free(s);
}

static void test_bad_field(void **state)
{
	struct sl_sacct_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_sacct_fmt_new("JobID,Bogus", &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid field requested: \"Bogus\"");
	assert_null(f);
}

/* Job 9, built by the test, and a sacct format. */
struct live {
	struct sl_job *j;
	struct sl_sacct_fmt *f;
	struct sl_buf *b;
};

static struct sl_job *live_new(struct live *l, const char *fields)
{
	struct sl_err err = SL_ERR_INIT;

	l->j = sl_job_new();
	l->j->id = 9;
	l->b = sl_buf_new(4096);
	assert_int_equal(sl_sacct_fmt_new(fields, &l->f, &err), 0);
	return l->j;
}

/* Appends the job's rows, with its batch step. */
static void live_rows(struct live *l, enum sl_sacct_mode mode)
{
	assert_int_equal(sl_sacct_fmt_job(l->f, l->j, mode, 1, NOW, l->b), 0);
}

static void live_free(struct live *l)
{
	sl_buf_free(l->b);
	sl_sacct_fmt_free(l->f);
	sl_job_free(l->j);
}

static void test_live_jobs(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,State,AllocCPUS,ExitCode,Start,End");
	(void)state;

	j->spec.name = sl_xstrdup("wrap");
	j->spec.partition = sl_xstrdup("cpu");
	j->state = SL_JOB_PENDING;
	j->alloc_cpus = 4;
	live_rows(&l, SL_SACCT_PARSABLE2);
	j->state = SL_JOB_RUNNING;
	j->start_time = NOW - 61;
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "9|PENDING|0|0:0|Unknown|Unknown\n"
			    "9|RUNNING|4|0:0|2026-11-21T10:28:59|Unknown\n"
			    "9.batch|RUNNING|4|0:0|2026-11-21T10:28:59|Unknown\n");
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_RUNNING);
	j->state = SL_JOB_FAILED;
	j->exit_code = 2;
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_FAILED);
	j->state = SL_JOB_OUT_OF_MEMORY;
	assert_int_equal(sl_sacct_batch_state(j), SL_JOB_OUT_OF_MEMORY);
	live_free(&l);
}

/* Comment: --comment on the job row only (sacct.c: 14 wide), empty on the
 * step rows and without one. */
static void test_comment(void **state)
{
	struct live l;
	struct sl_job *j = live_new(&l, "JobID,comment");
	(void)state;

	j->state = SL_JOB_COMPLETED;
	j->start_time = NOW - 5;
	j->end_time = NOW;
	assert_int_equal(sl_sacct_fmt_header(l.f, SL_SACCT_TABLE, l.b), 0);
	live_rows(&l, SL_SACCT_TABLE);
	j->spec.comment = sl_xstrdup("a comment");
	live_rows(&l, SL_SACCT_TABLE);
	live_rows(&l, SL_SACCT_PARSABLE2);
	assert_string_equal(sl_buf_str(l.b),
			    "JobID               Comment \n"
			    "------------ -------------- \n"
			    "9                           \n"
			    "9.batch                     \n"
			    "9                 a comment \n"
			    "9.batch                     \n"
			    "9|a comment\n"
			    "9.batch|\n");
	live_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_bad_field),
		cmocka_unit_test(test_live_jobs),
		cmocka_unit_test(test_comment),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
