/* job_proj.h - a projection of the job record: the members a listing
 * asks for (the jobs request's "fields", PROTOCOL.md). squeue prints a few
 * columns of records ten times their size; with a projection sluiced
 * writes, and the command reads and frees, only those members. Without
 * one (NULL), the record is whole, as every other command asks for it.
 * The members are those of job_fields.h, named on the wire as the record
 * names them ("user"; a spec's member "spec.name"). */
#ifndef SL_JOB_PROJ_H
#define SL_JOB_PROJ_H

#include <json-c/json.h>

#include "buf.h"
#include "err.h"
#include "job.h"
#include "job_fields.h"

/* One index per member, in the writer's order. "id" is not one: every
 * record has it. */
enum sl_jobproj_field {
#define SL_JP_SPEC(f) SL_JP_SPEC_##f,
#define SL_JP_JOB(f) SL_JP_##f,
	SPEC_STRINGS(SL_JP_SPEC) SPEC_INTS(SL_JP_SPEC) SPEC_INT64S(SL_JP_SPEC)
	SL_JP_SPEC_open_mode, SL_JP_SPEC_umask,
	SPEC_LAUNCH_STRVS(SL_JP_SPEC) SPEC_STRVS(SL_JP_SPEC)
	SL_JP_uid, SL_JP_gid, SL_JP_state,
	JOB_STRINGS(SL_JP_JOB) JOB_INTS(SL_JP_JOB) JOB_INT64S(SL_JP_JOB)
	JOB_LIVE_INTS(SL_JP_JOB) JOB_LIVE_STRINGS(SL_JP_JOB)
#undef SL_JP_SPEC
#undef SL_JP_JOB
	SL_JP_COUNT
};

struct sl_jobproj;

/* An empty projection (records of "id" alone). Caller frees. */
struct sl_jobproj *sl_jobproj_new(void);
void sl_jobproj_free(struct sl_jobproj *p);

/* Add the member of this wire name: 0, or -SL_ENOENT for a name the record
 * does not have. */
int sl_jobproj_add(struct sl_jobproj *p, const char *name);
/* Every member: a listing's whole record, but with the members a listing
 * leaves out unless named (the script and environment) named. */
void sl_jobproj_add_all(struct sl_jobproj *p);
/* Take member f out of p (qstat -f: all but the script). */
void sl_jobproj_del(struct sl_jobproj *p, enum sl_jobproj_field f);
/* Is member f in p? NULL: the whole record, every member is. */
int sl_jobproj_has(const struct sl_jobproj *p, enum sl_jobproj_field f);
/* p's members as SL_JP_COUNT bytes, 1 for those in p (borrowed); NULL
 * for NULL. The writer tests one per member of every record, a byte
 * load rather than a call. */
const unsigned char *sl_jobproj_bytes(const struct sl_jobproj *p);
/* A record at its defaults (sl_job_defaults), made once with p, borrowed:
 * the writer compares each member with it, and making one per record was
 * two memsets of the record's size, 10 000 times a listing. */
const struct sl_job *sl_jobproj_defaults(const struct sl_jobproj *p);

/* The request's "fields": its names as a JSON array (caller puts it). */
json_object *sl_jobproj_to_obj(const struct sl_jobproj *p);
/* Back from the request: a NULL or absent a gives *out NULL (the whole
 * record). Names this version does not know are left out: a newer command
 * gets records without them, as from a daemon that never had them.
 * -SL_EPROTO when a is not an array of strings. Caller frees *out. */
int sl_jobproj_from_obj(json_object *a, struct sl_jobproj **out, struct sl_err *err);

/* A listing record (as sl_job_listing_append_view) with only p's members;
 * p NULL: whole. */
int sl_job_listing_append_proj(struct sl_buf *b, const struct sl_job *j, enum sl_job_view v,
			       const struct sl_jobproj *p);

#endif
