/* update_int.h - what h_update.c shares with the tables of fields a job
 * may change (update_fields.c: its size, time, names and mail;
 * update_place.c: where it may run). */
#ifndef SL_UPDATE_INT_H
#define SL_UPDATE_INT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "job.h"

struct sluiced;
struct sl_peer;

struct upd {
	struct sluiced *d;
	const struct sl_peer *p;
	struct sl_job *old;  /* the job, borrowed */
	struct sl_job *n;    /* its copy, changed */
	int refit;           /* what it asks changed: can it still fit? */
	int requeue;         /* pending: through the gates again */
	int64_t limit;       /* a running job's new time limit in seconds (0: none),
	                      * or SL_TIME_UNSET */
	int renamed;
	int check;           /* node names changed: the executor's check() again */
};

struct sl_update_field {
	const char *key; /* PROTOCOL.md's UPDATE "set" member */
	json_type type;
	int (*apply)(struct upd *u, json_object *v, struct sl_err *err);
};

extern const struct sl_update_field sl_update_fields[];
extern const size_t sl_update_nfields;
extern const struct sl_update_field sl_update_place[];
extern const size_t sl_update_nplace;

/* 0 while the job is pending, else Slurm's ESLURM_JOB_NOT_PENDING. */
int sl_update_pending_only(const struct upd *u, struct sl_err *err);
/* *dst becomes v's string, NULL when empty. */
void sl_update_set_str(char **dst, json_object *v);

#endif
