/* test_buf.c - capped buffer and error carrier. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "err.h"
#include "xalloc.h"

static void test_add_and_cap(void **state)
{
	struct sl_buf *b = sl_buf_new(10);
	assert_int_equal(sl_buf_addstr(b, "hello"), 0);
	assert_int_equal(sl_buf_addf(b, "%d", 1234), 0);
	assert_string_equal(sl_buf_str(b), "hello1234");
	assert_int_equal(sl_buf_addstr(b, "xy"), -SL_ETOOBIG);
	assert_string_equal(sl_buf_str(b), "hello1234"); /* unchanged on failure */
	assert_int_equal(sl_buf_addc(b, '!'), 0);
	assert_int_equal(sl_buf_len(b), 10);
	sl_buf_consume(b, 5);
	assert_string_equal(sl_buf_str(b), "1234!");
	char *s = sl_buf_steal(b);
	assert_string_equal(s, "1234!");
	assert_int_equal(sl_buf_len(b), 0);
	free(s);
	sl_buf_free(b);
	sl_buf_free(NULL);
}

static void test_grow_large(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	char chunk[1000];
	memset(chunk, 'a', sizeof(chunk));
	for (int i = 0; i < 1000; i++)
		assert_int_equal(sl_buf_add(b, chunk, sizeof(chunk)), 0);
	assert_int_equal(sl_buf_len(b), 1000000);
	assert_int_equal(sl_buf_add(b, chunk, 100000), -SL_ETOOBIG);
	sl_buf_free(b);
}

static void test_err_first_wins(void **state)
{
	struct sl_err e = SL_ERR_INIT;
	assert_int_equal(sl_err_set(&e, SL_EINVAL, "first %d", 1), -SL_EINVAL);
	assert_int_equal(sl_err_set(&e, SL_EIO, "second"), -SL_EIO);
	assert_int_equal(e.code, SL_EINVAL);
	assert_string_equal(e.msg, "first 1");
	sl_err_prefix(&e, "file.yaml:%d", 3);
	assert_string_equal(e.msg, "file.yaml:3: first 1");
	assert_string_equal(sl_errname(-SL_EPERM), "EPERM");
	assert_int_equal(sl_errcode_from_name("ENOFIT"), SL_ENOFIT);
	assert_int_equal(sl_errcode_from_name("bogus"), SL_EINTERNAL);
	assert_string_equal(sl_strerror(-SL_EPERM), "Access/permission denied");
	assert_int_equal(sl_err_set(NULL, SL_EIO, "x"), -SL_EIO);
	/* every line that starts with the word, and only those */
	sl_err_clear(&e);
	sl_err_set(&e, SL_EINVAL, "srun: error: a\nsrun: error: b\nplain srun: c\nsrun");
	sl_err_reprefix(&e, "srun: ", "salloc: ");
	assert_string_equal(e.msg, "salloc: error: a\nsalloc: error: b\nplain srun: c\nsrun");
	assert_int_equal(e.code, SL_EINVAL);
}

/* Consumed bytes leave a gap at the front that later appends reclaim: the
 * contents and the cap hold through it. */
static void test_consume_then_add(void **state)
{
	struct sl_buf *b = sl_buf_new(16);
	char big[200];
	(void)state;

	assert_int_equal(sl_buf_addstr(b, "0123456789"), 0);
	sl_buf_consume(b, 4);
	assert_string_equal(sl_buf_str(b), "456789");
	assert_int_equal(sl_buf_len(b), 6);
	assert_int_equal(sl_buf_addstr(b, "abcdefghij"), 0); /* 16: at the cap */
	assert_string_equal(sl_buf_str(b), "456789abcdefghij");
	assert_int_equal(sl_buf_addc(b, 'x'), -SL_ETOOBIG);
	sl_buf_truncate(b, 3);
	assert_string_equal(sl_buf_str(b), "456");
	sl_buf_consume(b, 1);
	char *s = sl_buf_steal(b);
	assert_string_equal(s, "56");
	free(s);
	assert_int_equal(sl_buf_len(b), 0);
	sl_buf_free(b);

	b = sl_buf_new(1 << 20);
	memset(big, 'q', sizeof(big));
	for (int i = 0; i < 100; i++) {
		assert_int_equal(sl_buf_add(b, big, sizeof(big)), 0);
		sl_buf_consume(b, sizeof(big) - 1); /* one byte stays each time */
	}
	assert_int_equal(sl_buf_len(b), 100);
	assert_int_equal(strspn(sl_buf_str(b), "q"), 100);
	sl_buf_consume(b, 1000);
	assert_int_equal(sl_buf_len(b), 0);
	assert_string_equal(sl_buf_str(b), "");
	sl_buf_free(b);
}

static void test_strv(void **state)
{
	char *v[] = {"a", "bb", NULL};
	char **d = sl_strv_dup(v);
	assert_int_equal(sl_strv_len(d), 2);
	assert_string_equal(d[1], "bb");
	sl_strv_free(d);
	char *p = sl_xasprintf("%s-%03d", "x", 7);
	assert_string_equal(p, "x-007");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_cap),
		cmocka_unit_test(test_grow_large),
		cmocka_unit_test(test_err_first_wins),
		cmocka_unit_test(test_consume_then_add),
		cmocka_unit_test(test_strv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
