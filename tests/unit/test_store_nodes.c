/* test_store_nodes.c - an operator's node state in the store
 * (bin/sluiced/store_nodes.c): written in the transaction, read back after
 * a reopen, replaced, gone once neither drained nor down with no reason,
 * and lost when never committed (a "crash": closing without commit). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_nodes.h"
#include "tmpdir_testlib.h"

static struct sl_store *reopen(struct sl_store *s, const char *dir)
{
	struct sl_err err = SL_ERR_INIT;
	sl_store_free(s);
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);
	return s;
}

static void put(struct sl_store *s, unsigned flags, char *reason, int commit)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_store_node n = {"vm", flags, reason, "root", 0, 1700000000};
	assert_int_equal(sl_store_begin(s, &err), 0);
	assert_int_equal(sl_store_node_put(s, &n, &err), 0);
	if (commit)
		assert_int_equal(sl_store_commit(s, &err), 0);
}

static void test_nodes(void **state)
{
	char dir[96];
	struct sl_store *s;
	struct sl_store_node n;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	tmpdir_sub(dir, sizeof(dir));
	assert_int_equal(sl_store_open(dir, 0, &s, &err), 0);
	/* an old store has no table yet: nothing is stored, not an error */
	assert_int_equal(sl_store_node_get(s, "vm", &n, &err), -SL_ENOENT);
	put(s, 1, "disk swap", 1);
	s = reopen(s, dir);
	assert_int_equal(sl_store_node_get(s, "vm", &n, &err), 0);
	assert_int_equal(n.flags, 1);
	assert_string_equal(n.reason, "disk swap");
	assert_string_equal(n.user, "root");
	assert_int_equal(n.time, 1700000000);
	sl_store_node_clear(&n);
	assert_int_equal(sl_store_node_get(s, "other", &n, &err), -SL_ENOENT);
	/* replaced; then not committed: the committed row stays */
	put(s, 3, "psu", 1);
	put(s, 0, NULL, 0);
	s = reopen(s, dir);
	assert_int_equal(sl_store_node_get(s, "vm", &n, &err), 0);
	assert_int_equal(n.flags, 3);
	assert_string_equal(n.reason, "psu");
	sl_store_node_clear(&n);
	/* available with no reason: the row goes */
	put(s, 0, NULL, 1);
	s = reopen(s, dir);
	assert_int_equal(sl_store_node_get(s, "vm", &n, &err), -SL_ENOENT);
	sl_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
