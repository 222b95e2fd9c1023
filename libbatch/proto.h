/* proto.h - the wire format between commands and sluiced (see PROTOCOL.md):
 * a 12-byte header (magic, version, type, body length; big-endian) and a
 * JSON body. One request, one reply, on a Unix or TCP stream socket; with
 * munge, an auth message (no reply) goes just before each request. */
#ifndef SL_PROTO_H
#define SL_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "err.h"

#define SL_PROTO_MAGIC 0x534c5549u /* "SLUI" */
/* 2: job specs carry `features` (-C, --gres TYPE). A daemon of version 1
 * would have dropped them without a word; from 2 on it refuses spec members
 * it does not know (job_parse.c), so adding one needs no new version.
 * 3: the auth message (munge credentials; TCP from login nodes). */
#define SL_PROTO_VERSION 3
#define SL_PROTO_HDR_LEN 12
/* Requests (untrusted, read by the daemon): Slurm's max_script_size is
 * 4 MiB; the rest is room for the environment. Replies (from the daemon the
 * command trusts) may list 100 000 jobs, so they get more room. */
#define SL_PROTO_MAX_BODY (16u << 20)
#define SL_PROTO_MAX_REPLY (512u << 20)
/* An auth body: a munge credential of a 100-byte payload is ~250 bytes. */
#define SL_PROTO_MAX_AUTH 4096u

/* Retired, never to be reused: 1 (ping) and 6 (info); the next request is 13. */
enum sl_msgtype {
	SL_MSG_SUBMIT = 2,
	SL_MSG_JOBS = 3,
	SL_MSG_CANCEL = 4,
	SL_MSG_CONTROL = 5,
	SL_MSG_AUTH = 7, /* {"munge": CRED} for the request that follows; no reply */
	SL_MSG_PARTITIONS = 8, /* sinfo: partitions, their quota, the node */
	SL_MSG_UPDATE = 9,      /* scontrol update job: {"id", "set": {FIELD: VALUE...}} */
	SL_MSG_PING = 10,       /* scontrol ping: {} -> {"host", "now"} */
	SL_MSG_RECONFIGURE = 11, /* scontrol reconfigure (operators): as SIGHUP */
	SL_MSG_CONFIG = 12,     /* scontrol show config: the settings and the daemon's facts */
	SL_MSG_NODE_UPDATE = 13, /* scontrol update NodeName (operators): the local node's state */
	SL_MSG_PART_UPDATE = 14, /* scontrol update PartitionName (operators): its State= */
	SL_MSG_DIAG = 15,        /* sdiag: the statistics; {"reset": true} (operators) */
	SL_MSG_HOLD = 20,      /* qhold/qrls: a user's or an operator's hold */
	SL_MSG_SHARES = 21,    /* sshare: {} -> {"now", "rows": [association...]} */
	SL_MSG_STAT = 23,      /* sstat: {"id"} -> a running job's use so far (h_stat.c) */
	/* Job steps (srun; 24-29 are theirs): */
	SL_MSG_STEP_CREATE = 24, /* srun, as the job's user: a step record -> {"step"} */
	SL_MSG_STEP_END = 25,    /* srun: the step's end, state and exit status */
	SL_MSG_STEPS = 26,       /* sacct, squeue -s: {"jobs": [ids], "running"} -> {"steps"} */
	SL_MSG_STEP_SIGNAL = 27, /* scancel N.S: {"job", "step", "signal"} (0: cancel) */
	SL_MSG_TYPE_MAX,
	SL_MSG_REPLY = 0x8000 /* or-ed into the request type */
};

/* Append a frame to out. -SL_ETOOBIG if the body is over SL_PROTO_MAX_REPLY
 * (requests are further held to SL_PROTO_MAX_BODY by the client). */
int sl_proto_encode(struct sl_buf *out, uint16_t type, const char *body, size_t len);

/* Look at the front of data. Returns 0 when more bytes are needed, 1 when a
 * whole frame is there (type, body, body_len and used are set; body points
 * into data), or -SL_EPROTO / -SL_ETOOBIG (body over `cap`) with err set. */
int sl_proto_decode(const void *data, size_t len, size_t cap, uint16_t *type,
		    const char **body, size_t *body_len, size_t *used,
		    struct sl_err *err);

/* 1 with *type and *body_len set once the header of the frame at the front
 * of data is there (its body may still be on its way), else 0. Checks
 * nothing: call sl_proto_decode() first. */
int sl_proto_peek(const void *data, size_t len, uint16_t *type, uint32_t *body_len);

/* The auth message's body {"munge": cred}, appended to out as a frame. */
int sl_proto_auth_encode(struct sl_buf *out, const char *cred);
/* Its credential out of body: malloc'd into *cred, the caller frees it.
 * -SL_EPROTO when body is not that object. */
int sl_proto_auth_decode(const char *body, size_t len, char **cred, struct sl_err *err);

const char *sl_proto_type_name(uint16_t type);

#endif
