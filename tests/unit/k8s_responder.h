/* k8s_responder.h - start tests/data/k8s/responder.py (a scripted HTTP(S)
 * responder) from a cmocka test, and read back what the client sent. */
#ifndef SL_TEST_K8S_RESPONDER_H
#define SL_TEST_K8S_RESPONDER_H

#include <sys/types.h>

struct json_object;

struct responder {
	pid_t pid;
	int port;
	char dir[64];
	char log[96];
	char data[1024];  /* tests/data/k8s */
};

/* flags */
#define RESP_TLS 1
#define RESP_CLIENT_CA 2

/* Write script (JSON text) and start the responder; port 0: any free port.
 * Returns 0 or -1. */
int responder_start(struct responder *r, const char *script, int flags, int port);
void responder_stop(struct responder *r);
/* The request log as a JSON array (caller puts it). */
struct json_object *responder_log(const struct responder *r);
/* A port that nothing listens on (bound, then closed). */
int responder_free_port(void);
/* Path of a file under tests/data (static buffer). */
const char *test_data(const char *rel);

#endif
