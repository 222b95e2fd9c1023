/* agent_wire.h - the step agent's wire, shared by `sluice-stepd --agent`
 * (agent.c, agent_task.c) and srun in a pod (bin/srun_remote.c).
 *
 * One TCP connection per task. Frames: a type byte, a 4-byte big-endian
 * length, the payload (at most AGENT_FRAME_MAX). The agent speaks first:
 * HELLO with a fresh 32-byte nonce. srun answers LAUNCH: the 32-byte
 * HMAC-SHA256, keyed with the job's secret, of "sluice-agent-1" + nonce +
 * the JSON request that follows it ({argv, env, cwd, node}). The agent
 * compares in constant time and answers REFUSE (a reason) or starts the
 * task; then STDOUT/STDERR bytes flow back, STDIN/STDIN_EOF/SIGNAL go in,
 * and EXIT carries the task's wait status, last. A connection that closes
 * before EXIT kills the task (SIGKILL to its process group).
 *
 * The nonce makes a recorded LAUNCH useless on another connection; the
 * MAC covers the request so it cannot be swapped under a valid MAC. The
 * stream itself is not encrypted: the pods' network is trusted not to be
 * read by other users (a cost named in the README). */
#ifndef SL_AGENT_WIRE_H
#define SL_AGENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define AGENT_PORT 6818              /* slurmd's: the agent plays its part */
#define AGENT_FRAME_MAX (1u << 20)
#define AGENT_NONCE_LEN 32
#define AGENT_MAC_LEN 32
#define AGENT_SECRET_ENV "SLUICE_JOB_SECRET"
#define AGENT_PORT_ENV "SLUICE_AGENT_PORT"
#define AGENT_ADDR_ENV "SLUICE_AGENT_ADDR"   /* address to listen on (tests) */
#define AGENT_HOSTS_ENV "SLUICE_AGENT_HOSTS" /* hosts file for pod names (tests) */

enum agent_frame {
	AF_HELLO = 'H', AF_LAUNCH = 'L', AF_REFUSE = 'R',
	AF_STDOUT = 'O', AF_STDERR = 'E', AF_STDIN = 'I', AF_STDIN_EOF = 'Z',
	AF_SIGNAL = 'S', AF_EXIT = 'X',
};

/* What a LAUNCH asks for. */
struct agent_launch {
	char **argv, **env;
	char *cwd;               /* NULL: the agent's */
	char *node;              /* the node name as srun knows it (messages) */
};

/* Write one whole frame (blocking). 0 or -SL_EIO. */
int agent_frame_write(int fd, int type, const void *p, size_t n);
/* Read one whole frame (blocking): *p is malloc'd (NUL-terminated past n),
 * caller frees. 0; -SL_EIO at EOF or error; -SL_EPROTO past the cap. */
int agent_frame_read(int fd, int *type, char **p, size_t *n);

/* HMAC-SHA256 (RFC 2104) keyed with the NUL-terminated secret. */
void agent_hmac(const char *secret, const void *msg, size_t n, uint8_t out[AGENT_MAC_LEN]);
/* agent_hmac(secret, "sluice-agent-1" || nonce || msg). */
void agent_mac(const char *secret, const uint8_t nonce[AGENT_NONCE_LEN], const void *msg,
	       size_t n, uint8_t out[AGENT_MAC_LEN]);
/* 1 when equal; the time taken does not depend on where they differ. */
int agent_mac_equal(const uint8_t *a, const uint8_t *b, size_t n);

/* The LAUNCH payload for q: MAC then JSON. Caller frees. */
char *agent_launch_encode(const struct agent_launch *q, const char *secret,
			  const uint8_t nonce[AGENT_NONCE_LEN], size_t *len);
/* Check the MAC of a LAUNCH payload, then decode it into q (clear with
 * agent_launch_clear()). -SL_EAUTH on a wrong secret, -SL_EPROTO. */
int agent_launch_decode(const char *p, size_t n, const char *secret,
			const uint8_t nonce[AGENT_NONCE_LEN], struct agent_launch *q,
			struct sl_err *err);
void agent_launch_clear(struct agent_launch *q);

/* The agent's port: $SLUICE_AGENT_PORT, else AGENT_PORT. */
int agent_port(void);

#endif
