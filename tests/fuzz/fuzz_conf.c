/* fuzz_conf.c - the YAML configuration (libbatch/conf.c and what it hands
 * on: Kueue objects, the kubernetes and features sections), loaded from a
 * file as sluiced loads it, shown as `scontrol show config` shows it, and
 * peeked at for the socket as the commands do. */
#include "fuzz.h"

#include "conf.h"

static int show(const char *key, const char *value, const char *help, void *arg)
{
	*(size_t *)arg += strlen(key) + (value ? strlen(value) : 0) + strlen(help);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sl_conf *c = NULL;
	struct sl_err err = SL_ERR_INIT;
	const char *path;
	char *sock = NULL;
	size_t total = 0;

	if (size > FZ_MAX_INPUT)
		return 0;
	path = fz_file(data, size);
	if (sl_conf_load(path, &c, &err) == 0) {
		(void)sl_conf_show(c, show, &total);
		(void)sl_conf_accounts(c, "alice");
		(void)sl_conf_is_operator(c, "alice", 1000);
		sl_conf_free(c);
	}
	err = (struct sl_err)SL_ERR_INIT;
	if (sl_conf_peek_socket(path, &sock, &err) == 0)
		free(sock);
	return 0;
}
