/* test_auth.c - what a credential must be made for (the payload binds the
 * request's type and body), and which errors say "this credential is bad"
 * (SL_EAUTH) or "munged cannot be asked" (SL_EIO). The whole exchange with
 * real munged is tests/integration/login.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "sha256.h"

/* "sluice1:TYPE:SHA256(body)" and its NUL, as sl_auth_cred() asks munge to sign. */
static size_t payload(uint16_t type, const char *body, char *out, size_t size)
{
	char hex[2 * SL_SHA256_LEN + 1];

	sl_sha256_hex(body, strlen(body), hex);
	return (size_t)snprintf(out, size, "sluice1:%u:%s", (unsigned)type, hex) + 1;
}

static void test_match(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	char p[128];
	size_t n = payload(2, "{\"spec\":{}}", p, sizeof(p));

	assert_int_equal(sl_auth_match(p, n, 2, "{\"spec\":{}}", 11, &err), 0);
	assert_int_equal(err.code, 0);
	/* another body, another type, a shorter payload, none at all */
	assert_int_equal(sl_auth_match(p, n, 2, "{\"spec\":{ }}", 12, &err), -SL_EAUTH);
	assert_string_equal(err.msg, "Credential not made for this request");
	assert_int_equal(sl_auth_match(p, n, 3, "{\"spec\":{}}", 11, &err), -SL_EAUTH);
	assert_int_equal(sl_auth_match(p, n - 1, 2, "{\"spec\":{}}", 11, &err), -SL_EAUTH);
	assert_int_equal(sl_auth_match(NULL, 0, 2, "{\"spec\":{}}", 11, &err), -SL_EAUTH);
	p[8] = '9'; /* "sluice1:9:...": the type is part of what is signed */
	assert_int_equal(sl_auth_match(p, n, 2, "{\"spec\":{}}", 11, &err), -SL_EAUTH);
}

/* No munged behind the socket: no verdict on the credential (SL_EIO), and
 * no credential to send (SL_EAUTH, with munge's reason). */
static void test_no_munged(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	void *pl = (void *)1;
	size_t n = 1;
	uid_t uid;
	gid_t gid;
	char *cred = (char *)1;

	assert_int_equal(sl_auth_decode("/nonexistent/munge.sock", "MUNGE:x:", &uid, &gid, &pl,
					&n, &err), -SL_EIO);
	assert_null(pl);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.msg, "munged: "));
	assert_non_null(strstr(err.msg, "/nonexistent/munge.sock"));
	sl_err_clear(&err);
	assert_int_equal(sl_auth_check("/nonexistent/munge.sock", "MUNGE:x:", 2, "{}", 2, &uid,
				       &gid, &err), -SL_EIO);
	sl_err_clear(&err);
	assert_int_equal(sl_auth_cred("/nonexistent/munge.sock", 2, "{}", 2, &cred, &err),
			 -SL_EAUTH);
	assert_null(cred);
	assert_non_null(strstr(err.msg, "cannot make a munge credential: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_no_munged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
