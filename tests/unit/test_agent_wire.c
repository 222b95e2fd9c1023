/* test_agent_wire.c - the step agent's wire (bin/sluice-stepd/agent_wire.h):
 * HMAC-SHA256 against RFC 4231's vectors, the launch request's round trip,
 * and its refusal with a wrong secret, another nonce, a tampered body or a
 * truncated frame; frames over a socketpair, and one past the cap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_wire.h"

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void test_hmac_rfc4231(void **state)
{
	uint8_t mac[AGENT_MAC_LEN], key[132];
	char h[2 * AGENT_MAC_LEN + 1];
	(void)state;
	agent_hmac("Jefe", "what do ya want for nothing?", 28, mac);
	hex(mac, sizeof(mac), h);
	assert_string_equal(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	/* test case 6: a 131-byte key (0xaa), hashed first */
	memset(key, 0xaa, 131);
	key[131] = '\0';
	agent_hmac((char *)key, "Test Using Larger Than Block-Size Key - Hash Key First", 54, mac);
	hex(mac, sizeof(mac), h);
	assert_string_equal(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void test_launch_roundtrip(void **state)
{
	uint8_t nonce[AGENT_NONCE_LEN], other[AGENT_NONCE_LEN];
	char *argv[] = {"hostname", "-s", NULL}, *env[] = {"A=1", "SLURM_PROCID=3", NULL};
	struct agent_launch q = {argv, env, "/tmp", "sl-1-node-0-2"}, d;
	struct sl_err err = SL_ERR_INIT;
	size_t n;
	char *p;
	(void)state;
	memset(nonce, 7, sizeof(nonce));
	memset(other, 8, sizeof(other));
	p = agent_launch_encode(&q, "secret", nonce, &n);
	assert_int_equal(agent_launch_decode(p, n, "secret", nonce, &d, &err), 0);
	assert_string_equal(d.argv[0], "hostname");
	assert_string_equal(d.argv[1], "-s");
	assert_null(d.argv[2]);
	assert_string_equal(d.env[1], "SLURM_PROCID=3");
	assert_string_equal(d.cwd, "/tmp");
	assert_string_equal(d.node, "sl-1-node-0-2");
	agent_launch_clear(&d);

	assert_int_equal(agent_launch_decode(p, n, "Secret", nonce, &d, &err), -SL_EAUTH);
	assert_string_equal(err.msg, "authentication failed: not this job's secret");
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(agent_launch_decode(p, n, "secret", other, &d, &err), -SL_EAUTH);
	err = (struct sl_err)SL_ERR_INIT;
	p[n - 3] ^= 1; /* the body, under the same MAC */
	assert_int_equal(agent_launch_decode(p, n, "secret", nonce, &d, &err), -SL_EAUTH);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(agent_launch_decode(p, 10, "secret", nonce, &d, &err), -SL_EPROTO);
	free(p);
}

static void test_frames(void **state)
{
	int sv[2], type;
	char *p;
	size_t n;
	static char big[AGENT_FRAME_MAX + 1];
	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(agent_frame_write(sv[0], AF_STDOUT, "hi\n", 3), 0);
	assert_int_equal(agent_frame_write(sv[0], AF_STDIN_EOF, NULL, 0), 0);
	assert_int_equal(agent_frame_read(sv[1], &type, &p, &n), 0);
	assert_int_equal(type, AF_STDOUT);
	assert_int_equal(n, 3);
	assert_memory_equal(p, "hi\n", 3);
	free(p);
	assert_int_equal(agent_frame_read(sv[1], &type, &p, &n), 0);
	assert_int_equal(type, AF_STDIN_EOF);
	assert_int_equal(n, 0);
	free(p);
	assert_int_equal(agent_frame_write(sv[0], AF_STDOUT, big, sizeof(big)), -SL_ETOOBIG);
	/* a header claiming more than the cap is refused before any allocation */
	assert_int_equal(write(sv[0], "O\x7f\xff\xff\xff", 5), 5);
	assert_int_equal(agent_frame_read(sv[1], &type, &p, &n), -SL_EPROTO);
	close(sv[0]);
	assert_int_equal(agent_frame_read(sv[1], &type, &p, &n), -SL_EIO);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_launch_roundtrip),
		cmocka_unit_test(test_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
