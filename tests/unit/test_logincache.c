/* test_logincache.c - the launch account cache: hits, expiry, the key
 * (uid, gid, groups wanted), failures not cached, clear; with a counting
 * lookup in place of NSS, and one real lookup of root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "logincache.h"
#include "xalloc.h"

static int calls;

static int fake(uid_t uid, gid_t gid, int want_groups, struct sl_login *out)
{
	calls++;
	if (uid == 4242)
		return ENOENT;
	out->user = sl_xasprintf("user%u", (unsigned)uid);
	out->home = sl_xasprintf("/home/user%u", (unsigned)uid);
	out->shell = sl_xstrdup("/bin/sh");
	if (want_groups) {
		out->groups = sl_xcalloc(2, sizeof(gid_t));
		out->groups[0] = gid;
		out->groups[1] = 100;
		out->ngroups = 2;
	}
	return 0;
}

static void test_hit_and_expiry(void **state)
{
	struct sl_logincache *c = sl_logincache_new(fake, 60);
	const struct sl_login *a;
	int e = 0;

	calls = 0;
	a = sl_logincache_get(c, 1000, 1000, 1, 100, &e);
	assert_non_null(a);
	assert_string_equal(a->user, "user1000");
	assert_string_equal(a->home, "/home/user1000");
	assert_int_equal(a->ngroups, 2);
	assert_int_equal(a->groups[1], 100);
	assert_non_null(sl_logincache_get(c, 1000, 1000, 1, 159, &e));
	assert_int_equal(calls, 1);
	assert_non_null(sl_logincache_get(c, 1000, 1000, 1, 160, &e)); /* expired */
	assert_int_equal(calls, 2);
	sl_logincache_free(c);
}

/* Another primary group, or groups now wanted, is another entry: the
 * supplementary list depends on both. */
static void test_key(void **state)
{
	struct sl_logincache *c = sl_logincache_new(fake, 60);
	const struct sl_login *a;
	int e = 0;

	calls = 0;
	a = sl_logincache_get(c, 1000, 1000, 0, 0, &e);
	assert_null(a->groups);
	a = sl_logincache_get(c, 1000, 1000, 1, 0, &e);
	assert_int_equal(a->ngroups, 2);
	a = sl_logincache_get(c, 1000, 2000, 1, 0, &e);
	assert_int_equal(a->groups[0], 2000);
	assert_int_equal(calls, 3);
	a = sl_logincache_get(c, 1064, 1064, 1, 0, &e); /* same slot, other uid */
	assert_string_equal(a->user, "user1064");
	assert_int_equal(calls, 4);
	sl_logincache_free(c);
}

static void test_failure_not_cached_and_clear(void **state)
{
	struct sl_logincache *c = sl_logincache_new(fake, 60);
	int e = 0;

	calls = 0;
	assert_null(sl_logincache_get(c, 4242, 1, 1, 0, &e));
	assert_int_equal(e, ENOENT);
	assert_null(sl_logincache_get(c, 4242, 1, 1, 0, &e));
	assert_int_equal(calls, 2);
	assert_non_null(sl_logincache_get(c, 7, 7, 1, 0, &e));
	sl_logincache_clear(c); /* SIGHUP */
	assert_non_null(sl_logincache_get(c, 7, 7, 1, 0, &e));
	assert_int_equal(calls, 4);
	sl_logincache_free(c);
}

static void test_system_lookup(void **state)
{
	struct sl_logincache *c = sl_logincache_new(NULL, 60);
	const struct sl_login *a;
	int e = 0;

	a = sl_logincache_get(c, 0, 0, 1, 0, &e);
	assert_non_null(a);
	assert_string_equal(a->user, "root");
	assert_true(a->ngroups >= 1);
	assert_int_equal(a->groups[0], 0);
	sl_logincache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_and_expiry),
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_failure_not_cached_and_clear),
		cmocka_unit_test(test_system_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
