/* scontrol_fmt.h - what Slurm 22.05's scontrol prints and parses, as pure
 * functions (records and `now` in, text out; words in, requests out), so
 * bin/scontrol.c only calls the daemon and writes: `show job` (-o, -d),
 * `show partition|node|config`, and `update job`'s KEY=VALUE words. Keys
 * Sluice has no counterpart for print Slurm's "unset" values so that
 * parsers of the output keep working. */
#ifndef SL_SCONTROL_FMT_H
#define SL_SCONTROL_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "client.h"
#include "err.h"
#include "job.h"
#include "sinfo_fmt.h"
#include "step.h"

#define SL_SCONTROL_ONELINE 1u /* -o: one line per record */
#define SL_SCONTROL_DETAIL 2u  /* -d (and -dd): DerivedExitCode, JOB_GRES */

/* One job record, as `scontrol show job` prints it. -SL_ETOOBIG when b is
 * full (b is then as it was). */
int sl_scontrol_job(struct sl_buf *b, const struct sl_job *j, int64_t now, unsigned flags);

/* One step (s, of job j) and a running batch job's batch step, as
 * `scontrol show step` prints them (scontrol_step.c). */
void sl_scontrol_step(struct sl_buf *b, const struct sl_job *j, const struct sl_step *s,
		      int oneline);
void sl_scontrol_batch_step(struct sl_buf *b, const struct sl_job *j, int oneline);

/* `show partition` and `show node` over sinfo's view of the daemon's
 * answer (sinfo_fmt.h): the record of p (its nodes summed), of n. */
int sl_scontrol_partition(struct sl_buf *b, const struct sl_sinfo_part *p, unsigned flags);
int sl_scontrol_node(struct sl_buf *b, const struct sl_sinfo_node *n, unsigned flags);

/* `show config`: Slurm's keys that have a meaning here, then the daemon's
 * own settings under "Sluice Configuration:", then the ping line. */
int sl_scontrol_config(struct sl_buf *b, const struct sl_daemonconf *dc);

/* `update` words (argv after "update"): JobId=N (or JobName=... is a
 * field) and KEY=VALUE, keys in any case, into the job list and the fields
 * in order (caller frees *f with free(); the strings point into argv).
 * Errors, with the text scontrol prints (one line per '\n') and *rc its
 * exit status: an unknown key ("Update of this parameter is not
 * supported: KEY=VALUE\nRequest aborted"), a bad value ("scontrol: error:
 * Invalid TimeLimit value"), no JobId ("No valid entity in update command
 * ..."). A value Slurm refuses with a message but exit 0 (NumNodes=abc)
 * gives *rc 0. Lines Slurm prints while it goes on (StartTime=garbage:
 * parse_time's) are appended to notes. *n may be 0 with success: a key
 * that changes nothing here. *jobs is JobId's value, a job list
 * (sl_scontrol_job_list) pointing into argv. ArrayTaskThrottle=M is the field array_throttle (M below 0 refused). */
int sl_scontrol_update_parse(int argc, char **argv, int64_t now, const char **jobs,
			     struct sl_update_field **f, size_t *n, int *rc, struct sl_buf *notes,
			     struct sl_err *err);

/* ---- scontrol_cmd.c: scontrol's words ---- */

enum sl_scontrol_kind {
	SL_SC_SHOW, SL_SC_CONTROL, SL_SC_UPDATE, SL_SC_PING, SL_SC_RECONFIGURE, SL_SC_VERSION,
	SL_SC_WRITE
};

struct sl_scontrol_verb {
	const char *name;
	size_t min;              /* the shortest abbreviation taken */
	enum sl_scontrol_kind kind;
	enum sl_control_op op;   /* SL_SC_CONTROL: what it asks the daemon */
	int suspend_api;         /* Slurm's second line "slurm_suspend error: ..." */
};

/* The verb word names (any case, abbreviated as Slurm allows), or NULL. */
const struct sl_scontrol_verb *sl_scontrol_verb(const char *word);

enum sl_scontrol_entity {
	SL_SC_NO_ENTITY, SL_SC_JOB, SL_SC_PARTITION, SL_SC_NODE, SL_SC_CONFIG,
	SL_SC_HOSTNAMES, SL_SC_HOSTLIST, SL_SC_HOSTLIST_SORTED, SL_SC_STEP
};
/* What `show WORD` shows ("jobs", "jobid", "part", "node", ...). */
enum sl_scontrol_entity sl_scontrol_entity(const char *word);

/* Why the daemon refused verb v on a job (rc, err), in Slurm's words as
 * scontrol prints them, "WHY for job N", and for hold, uhold and release
 * again in its last line "slurm_suspend error: WHY". */
void sl_scontrol_why(const struct sl_scontrol_verb *v, int rc, const struct sl_err *err,
		     char *why, size_t len);
/* The daemon's reason as scontrol prints it, into buf: its last line (the
 * others are hints), without the " for job N" that authz.c's refusals
 * carry (scontrol names the job, or the group's range its tasks). buf. */
const char *sl_scontrol_reason(const char *msg, char *buf, size_t len);

/* The job list of hold, release, requeue and update (JobId=), as 22.05's
 * scontrol reads it: ids separated by ',' or ' ' outside brackets, each
 * "N", "N_T" (T a task list, its brackets dropped) or "[A-B]..." for jobs
 * A to B. -1 for a list Slurm refuses whole ("Invalid job id specified
 * for job LIST"). Caller frees *out with sl_strv_free(). */
int sl_scontrol_job_list(const char *s, char ***out, size_t *n);

/* The answers res[0..n) of array id's tasks to one verb (or update), as
 * scontrol prints slurmctld's job_array_resp_msg: a line "ID_RANGES:
 * TEXT" per distinct answer ("No error" for success), in the order of
 * each group's lowest task, where want (nwant tasks, NULL: those that
 * answered) are the tasks asked for, one that did not answer being
 * "Invalid job id specified". Nothing when all succeeded. 1 when some
 * task failed (scontrol then exits 1). */
int sl_scontrol_task_report(struct sl_buf *b, uint64_t id, const uint32_t *want, size_t nwant,
			    const struct sl_jobresult *res, size_t n);
/* update on array N, whose tasks answered res (all of them, the daemon's
 * "each"): slurmctld answers per record, and its report is
 * sl_scontrol_task_report's ("N_1: Job is no longer pending execution",
 * "N_2-3: No error"; scontrol exits 1). 1 when some task refused (the
 * report is in b); 0 when all took it, or res is not array N's (nothing
 * to say). */
int sl_scontrol_array_report(struct sl_buf *b, uint64_t id, const struct sl_jobresult *res,
			     size_t n);
/* How many records slurm_load_job() would give for a job id whose jobs
 * (or an array's tasks, unfolded) are v[0..n): an array's pending tasks
 * still in its meta record (sl_job_task_split) are one, every other task
 * its own. scontrol refuses TimeLimit=+T and NumNodes= on an array id
 * that loads more than one. */
size_t sl_scontrol_records(struct sl_job *const *v, size_t n);

/* show hostnames (one name a line), hostlist (compressed, in the given
 * order), hostlistsorted: list expanded into out. -SL_EINVAL "host list is
 * empty" (Slurm prints it and exits 0), or the hostlist's error. */
int sl_scontrol_hosts(enum sl_scontrol_entity e, const char *list, struct sl_buf *out,
		      struct sl_err *err);

#endif
