/* test_slurm_fmt.c - the generic format engine: %-spec parsing, sacct field
 * lists, and Slurm's exact padding and truncation rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "buf.h"
#include "err.h"
#include "slurm_fmt.h"

/* b's text, in a buffer valid until the next call; frees b. */
static const char *text_of(struct sl_buf *b)
{
	static char out[256];
	snprintf(out, sizeof(out), "%s", sl_buf_str(b));
	sl_buf_free(b);
	return out;
}

static const char *cell(int width, int right, int cut, const char *v)
{
	struct sl_buf *b = sl_buf_new(1024);
	assert_int_equal(sl_fmt_cell(b, v, width, right, cut), 0);
	return text_of(b);
}

static const char *acct(int len, int header, const char *v)
{
	struct sl_buf *b = sl_buf_new(1024);
	assert_int_equal(sl_fmt_cell_acct(b, v, len, header), 0);
	return text_of(b);
}

/* Item i of f: its letter, width, right-justification and the text after it. */
static void want_item(const struct sl_fmt *f, size_t i, char code, int width, int right,
		      const char *suffix)
{
	assert_int_equal(sl_fmt_item(f, i)->code, code);
	assert_int_equal(sl_fmt_item(f, i)->width, width);
	assert_int_equal(sl_fmt_item(f, i)->right, right);
	assert_string_equal(sl_fmt_item(f, i)->suffix, suffix);
}

static void test_parse_percent(void **state)
{
	struct sl_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_fmt_parse_percent(">%.18i %-20j|%5D%R<", &f, &err), 0);
	assert_string_equal(sl_fmt_prefix(f), ">");
	assert_int_equal(sl_fmt_count(f), 4);
	want_item(f, 0, 'i', 18, 1, " ");
	want_item(f, 1, 'j', 20, 0, "|");
	want_item(f, 2, 'D', 5, 0, "");
	want_item(f, 3, 'R', 0, 0, "<");
	assert_int_equal(sl_fmt_item(f, 3)->width_set, 0);
	sl_fmt_free(f);
	/* Slurm's strtok on '%': a width at the end is a field without a
	 * letter (the caller's to refuse or echo), a lone '%' at the end is
	 * nothing, "%%j" is "%j" */
	assert_int_equal(sl_fmt_parse_percent("%i %.5", &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 2);
	want_item(f, 1, '\0', 5, 1, "");
	sl_fmt_free(f);
	assert_int_equal(sl_fmt_parse_percent("%i %%j %", &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 2);
	want_item(f, 0, 'i', 0, 0, " ");
	want_item(f, 1, 'j', 0, 0, " ");
	/* an unknown letter made literal joins the text around it */
	sl_fmt_item_to_literal(f, 1);
	assert_int_equal(sl_fmt_count(f), 1);
	want_item(f, 0, 'i', 0, 0, " %j ");
	sl_fmt_free(f);
	assert_int_equal(sl_fmt_parse_percent("no fields", &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 0);
	assert_string_equal(sl_fmt_prefix(f), "no fields");
	sl_fmt_free(f);
	sl_fmt_free(NULL);
}

/* 257 fields once returned success with no format, and squeue crashed. */
static void test_many_fields(void **state)
{
	static const char *const names[] = {"JobID"};
	static const int widths[] = {-12};
	struct sl_buf *pct = sl_buf_new(1 << 20), *list = sl_buf_new(1 << 20);
	struct sl_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	for (int i = 0; i < 5000; i++) {
		sl_buf_addstr(pct, "%.5i ");
		sl_buf_addstr(list, i ? ",JobID" : "JobID");
	}
	assert_int_equal(sl_fmt_parse_percent(sl_buf_str(pct), &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 5000);
	sl_fmt_free(f);
	assert_int_equal(sl_fmt_parse_list(sl_buf_str(list), names, widths, 1, &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 5000);
	sl_fmt_free(f);
	sl_buf_free(pct);
	sl_buf_free(list);
}

static void test_parse_list(void **state)
{
	static const char *const names[] = {"JobID", "JobIDRaw", "JobName", "Start", "State"};
	static const int widths[] = {-12, -12, 10, 19, 10};
	struct sl_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_fmt_parse_list("jobid,JobIDRaw%20,state%-7,jobn", names, widths, 5, &f, &err), 0);
	assert_int_equal(sl_fmt_count(f), 4);
	assert_int_equal(sl_fmt_item(f, 0)->index, 0);
	assert_int_equal(sl_fmt_item(f, 0)->width, -12);
	assert_int_equal(sl_fmt_item(f, 1)->index, 1);
	assert_int_equal(sl_fmt_item(f, 1)->width, 20);
	assert_int_equal(sl_fmt_item(f, 2)->index, 4);
	assert_int_equal(sl_fmt_item(f, 2)->width, -7);
	assert_int_equal(sl_fmt_item(f, 3)->index, 2); /* prefix match */
	sl_fmt_free(f);
	assert_int_equal(sl_fmt_parse_list("JobID,Bogus", names, widths, 5, &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid field requested: \"Bogus\"");
	assert_null(f);
}

static void test_cell_squeue(void **state)
{
	(void)state;
	assert_string_equal(cell(8, 1, 1, "needres"), " needres");
	assert_string_equal(cell(8, 1, 1, "a_very_long_job_name"), "a_very_l");
	assert_string_equal(cell(8, 0, 1, "ab"), "ab      ");
	assert_string_equal(cell(4, 0, 1, "abcdef"), "abcd");
	assert_string_equal(cell(4, 1, 0, "n[1-40]"), "n[1-40]");
	/* left-justified: "%.4s" cuts node lists and times too ("%3M" 0:0) */
	assert_string_equal(cell(4, 0, 0, "n[1-40]"), "n[1-");
	assert_string_equal(cell(3, 0, 0, "0:00"), "0:0");
	assert_string_equal(cell(-1, 1, 0, "12"), "12 "); /* -O "jobid:-1" */
	assert_string_equal(cell(0, 1, 1, "whole value"), "whole value");
	assert_string_equal(cell(9, 1, 1, "TIME_LIMIT"), "TIME_LIMI");
	/* glibc prints NULL as "(null)" only with a precision of 6 or more */
	assert_string_equal(cell(3, 1, 1, NULL), "   ");
	assert_string_equal(cell(6, 1, 1, NULL), "(null)");
}

static void test_cell_sacct(void **state)
{
	(void)state;
	assert_string_equal(acct(10, 0, "COMPLETED"), " COMPLETED ");
	assert_string_equal(acct(10, 0, "CANCELLED by 2001"), "CANCELLED+ ");
	assert_string_equal(acct(-12, 0, "1.batch"), "1.batch      ");
	assert_string_equal(acct(-12, 1, "JobID"), "JobID        ");
	assert_string_equal(acct(5, 1, "AllocCPUS"), "Alloc ");
	assert_string_equal(acct(5, 0, "AllocCPUS"), "Allo+ ");
	assert_string_equal(acct(3, 0, NULL), "    ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_percent),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_many_fields),
		cmocka_unit_test(test_cell_squeue),
		cmocka_unit_test(test_cell_sacct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
