/* test_proto.c - framing: whole frames, partial frames, bad frames. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "proto.h"

static void test_roundtrip_and_partial(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_err err = SL_ERR_INIT;
	const char *body;
	size_t blen, used;
	uint16_t type;

	assert_int_equal(sl_proto_encode(b, SL_MSG_SUBMIT, "{\"a\":1}", 7), 0);
	assert_int_equal(sl_proto_encode(b, SL_MSG_CONTROL, "{}", 2), 0);
	/* Every strict prefix of the first frame needs more. */
	for (size_t n = 0; n < SL_PROTO_HDR_LEN + 7; n++)
		assert_int_equal(sl_proto_decode(sl_buf_data(b), n, SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), 0);
	assert_int_equal(sl_proto_decode(sl_buf_data(b), sl_buf_len(b), SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), 1);
	assert_int_equal(type, SL_MSG_SUBMIT);
	assert_int_equal(blen, 7);
	assert_memory_equal(body, "{\"a\":1}", 7);
	sl_buf_consume(b, used);
	assert_int_equal(sl_proto_decode(sl_buf_data(b), sl_buf_len(b), SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), 1);
	assert_int_equal(type, SL_MSG_CONTROL);
	assert_int_equal(blen, 2);
	assert_memory_equal(body, "{}", 2);
	assert_int_equal(used, sl_buf_len(b));
	assert_string_equal(sl_proto_type_name(SL_MSG_CONTROL | SL_MSG_REPLY), "control");
	/* Retired codes (PROTOCOL.md) have no name, lest one be reused. */
	assert_string_equal(sl_proto_type_name(1), "unknown");
	assert_string_equal(sl_proto_type_name(6), "unknown");
	sl_buf_free(b);
}

static void test_bad(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	const char *body;
	size_t blen, used;
	uint16_t type;
	unsigned char h[SL_PROTO_HDR_LEN] = {'G', 'E', 'T', ' '};

	assert_int_equal(sl_proto_decode(h, 4, SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "bad magic: not a Sluice client");
	/* Right magic, wrong version. */
	unsigned char v[SL_PROTO_HDR_LEN] = {0x53, 0x4c, 0x55, 0x49, 0, 9, 0, 1, 0, 0, 0, 0};
	sl_err_clear(&err);
	assert_int_equal(sl_proto_decode(v, sizeof(v), SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), -SL_EPROTO);
	/* Length over the cap is refused before any body arrives. */
	unsigned char big[SL_PROTO_HDR_LEN] = {0x53, 0x4c, 0x55, 0x49, 0, SL_PROTO_VERSION, 0, 1, 0x7f, 0xff, 0xff, 0xff};
	sl_err_clear(&err);
	assert_int_equal(sl_proto_decode(big, sizeof(big), SL_PROTO_MAX_REPLY, &type, &body, &blen, &used, &err), -SL_ETOOBIG);
	/* 20 MiB: too big for a request, fine for a reply. */
	unsigned char mid[SL_PROTO_HDR_LEN] = {0x53, 0x4c, 0x55, 0x49, 0, SL_PROTO_VERSION, 0, 1, 0x01, 0x40, 0, 0};
	sl_err_clear(&err);
	assert_int_equal(sl_proto_decode(mid, sizeof(mid), SL_PROTO_MAX_BODY, &type, &body, &blen, &used, &err), -SL_ETOOBIG);
	assert_int_equal(sl_proto_decode(mid, sizeof(mid), SL_PROTO_MAX_REPLY, &type, &body, &blen, &used, &err), 0);
	struct sl_buf *b = sl_buf_new(64);
	assert_int_equal(sl_proto_encode(b, 1, "", (size_t)SL_PROTO_MAX_REPLY + 1), -SL_ETOOBIG);
	sl_buf_free(b);
}

/* The auth message: {"munge": CRED} as a frame of its own, and its header
 * readable before its body. */
static void test_auth_message(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_err err = SL_ERR_INIT;
	const char *body, *cred = "MUNGE:AwQFAAB+/xyz=:";
	size_t blen, used;
	uint16_t type;
	uint32_t n;
	char *got = NULL;

	assert_int_equal(sl_proto_auth_encode(b, cred), 0);
	assert_int_equal(sl_proto_peek(sl_buf_data(b), SL_PROTO_HDR_LEN - 1, &type, &n), 0);
	assert_int_equal(sl_proto_peek(sl_buf_data(b), SL_PROTO_HDR_LEN, &type, &n), 1);
	assert_int_equal(type, SL_MSG_AUTH);
	assert_int_equal(n, strlen("{\"munge\":\"\"}") + strlen(cred));
	assert_int_equal(sl_proto_decode(sl_buf_data(b), sl_buf_len(b), SL_PROTO_MAX_BODY, &type,
					 &body, &blen, &used, &err), 1);
	assert_int_equal(type, SL_MSG_AUTH);
	assert_int_equal(sl_proto_auth_decode(body, blen, &got, &err), 0);
	assert_string_equal(got, cred);
	free(got);
	assert_string_equal(sl_proto_type_name(SL_MSG_AUTH), "auth");
	/* Only munge's alphabet is written unescaped; anything else is refused. */
	assert_int_equal(sl_proto_auth_encode(b, "MUNGE:a\"b:"), -SL_EPROTO);
	assert_int_equal(sl_proto_auth_encode(b, "MUNGE:a\\b:"), -SL_EPROTO);
	sl_buf_free(b);

	static const char *bad[] = {"{\"munge\": 5}", "{\"cred\": \"x\"}", "[\"x\"]",
				    "{\"munge\": \"x\"} junk", "{\"munge\": \"x\"", ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sl_err_clear(&err);
		got = (char *)1;
		assert_int_equal(sl_proto_auth_decode(bad[i], strlen(bad[i]), &got, &err), -SL_EPROTO);
		assert_null(got);
		assert_string_equal(err.msg, "auth message is not {\"munge\": CREDENTIAL}");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_and_partial),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_auth_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
