/* test_idcache.c - the daemon's name cache: hits, expiry, unknown ids,
 * collisions and clear, with counting lookups in place of NSS. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "idcache.h"

static int user_calls, group_calls;

static int fake_user(uid_t uid, char *buf, size_t n)
{
	user_calls++;
	if (uid == 4242)
		return -1;
	snprintf(buf, n, "user%u", (unsigned)uid);
	return 0;
}

static int fake_group(gid_t gid, char *buf, size_t n)
{
	group_calls++;
	snprintf(buf, n, "grp%u", (unsigned)gid);
	return 0;
}

static const struct sl_idcache_ops ops = {fake_user, fake_group};

static void test_hit_and_expiry(void **state)
{
	struct sl_idcache *c = sl_idcache_new(&ops, 60);
	user_calls = 0;
	assert_string_equal(sl_idcache_user(c, 1000, 100), "user1000");
	assert_string_equal(sl_idcache_user(c, 1000, 159), "user1000");
	assert_int_equal(user_calls, 1);
	assert_string_equal(sl_idcache_user(c, 1000, 160), "user1000"); /* expired */
	assert_int_equal(user_calls, 2);
	sl_idcache_free(c);
}

static void test_unknown_is_numeric_and_cached(void **state)
{
	struct sl_idcache *c = sl_idcache_new(&ops, 60);
	user_calls = 0;
	assert_string_equal(sl_idcache_user(c, 4242, 0), "4242");
	assert_string_equal(sl_idcache_user(c, 4242, 1), "4242");
	assert_int_equal(user_calls, 1);
	sl_idcache_free(c);
}

static void test_users_and_groups_apart(void **state)
{
	struct sl_idcache *c = sl_idcache_new(&ops, 60);
	user_calls = group_calls = 0;
	assert_string_equal(sl_idcache_user(c, 7, 0), "user7");
	assert_string_equal(sl_idcache_group(c, 7, 0), "grp7");
	assert_string_equal(sl_idcache_user(c, 7, 1), "user7");
	assert_int_equal(user_calls, 1);
	assert_int_equal(group_calls, 1);
	sl_idcache_free(c);
}

static void test_collision_and_clear(void **state)
{
	struct sl_idcache *c = sl_idcache_new(&ops, 60);
	user_calls = 0;
	assert_string_equal(sl_idcache_user(c, 5, 0), "user5");
	assert_string_equal(sl_idcache_user(c, 5 + 256, 0), "user261"); /* same slot */
	assert_string_equal(sl_idcache_user(c, 5, 0), "user5");
	assert_int_equal(user_calls, 3);
	sl_idcache_clear(c);
	assert_string_equal(sl_idcache_user(c, 5, 0), "user5");
	assert_int_equal(user_calls, 4);
	sl_idcache_free(c);
	sl_idcache_free(NULL);
}

static void test_system_root(void **state)
{
	struct sl_idcache *c = sl_idcache_new(NULL, 0);
	assert_string_equal(sl_idcache_user(c, 0, 0), "root");
	assert_string_equal(sl_idcache_group(c, 0, 0), "root");
	sl_idcache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_and_expiry),
		cmocka_unit_test(test_unknown_is_numeric_and_cached),
		cmocka_unit_test(test_users_and_groups_apart),
		cmocka_unit_test(test_collision_and_clear),
		cmocka_unit_test(test_system_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
