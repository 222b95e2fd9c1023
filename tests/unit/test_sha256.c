/* test_sha256.c - FIPS 180-4's examples and every padding boundary, checked
 * against the sha256sum of coreutils. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "sha256.h"

static void expect(const char *data, size_t len, const char *want)
{
	char got[2 * SL_SHA256_LEN + 1];
	sl_sha256_hex(data, len, got);
	assert_string_equal(got, want);
}

static void test_vectors(void **state)
{
	expect("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	expect("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	expect("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* Lengths around the block and padding edges (55, 56, 63, 64, 119, 120),
 * against sha256sum run on the same bytes. */
static void test_boundaries(void **state)
{
	static const size_t lens[] = {1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000};
	char *buf = malloc(1000), cmd[256], want[80];

	for (size_t i = 0; i < 1000; i++)
		buf[i] = (char)('a' + i % 26);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char path[] = "/tmp/sl-sha.XXXXXX";
		int fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, buf, lens[i]), (ssize_t)lens[i]);
		close(fd);
		snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
		FILE *f = popen(cmd, "r");
		assert_non_null(f);
		assert_non_null(fgets(want, sizeof(want), f));
		pclose(f);
		unlink(path);
		want[64] = '\0';
		expect(buf, lens[i], want);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_boundaries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
