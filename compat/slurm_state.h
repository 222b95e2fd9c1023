/* slurm_state.h - the job selectors Slurm users type: state lists (-t, -s),
 * job id lists (-j), user lists (-u), and the comma lists under them. Shared
 * by squeue, scancel and sacct so that all three accept the same spellings. */
#ifndef SL_SLURM_STATE_H
#define SL_SLURM_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"
#include "client.h"
#include "jobstate.h"

/* What squeue prints after "Valid job states include: ". */
extern const char sl_slurm_valid_states[];

/* A state list as squeue -t / sacct -s take it: names or compact codes,
 * any case, comma-separated; "all" selects everything. States Slurm knows
 * but Sluice never produces (SUSPENDED, REQUEUED, ...) are valid and match
 * nothing. Out (caller frees *states): the Sluice states named, deduped.
 * *matches_none is 1 when names were given but none is a Sluice state.
 * An unknown name fails with SL_EINVAL, err->msg = the bad name. */
struct sl_statesel {
	int *states;
	size_t n;
	int all;
	int matches_none;
};
int sl_slurm_states_parse(const char *list, struct sl_statesel *out, struct sl_err *err);
void sl_statesel_clear(struct sl_statesel *s);
/* Does state s pass? An empty selection (nothing given) passes everything. */
int sl_statesel_match(const struct sl_statesel *s, enum sl_jobstate st);

/* A job id: digits (not 0), optionally "_T", an array's task (*task: -1
 * when absent). -SL_EINVAL otherwise. */
int sl_slurm_jobid_parse(const char *s, uint64_t *id, long *task);
/* The same with what some of Slurm's commands let through, each as its
 * strtol reads the id (how: SL_JOBID_* bits, 0 for the strict reading):
 * BARE_TASK: "N_" is task 0 of N (scontrol show job).
 * STRTOL: the leading digits are the job, any number (0 too; past 2^64,
 *   the largest), and after a '_' strtol's number is the task (0 when it
 *   reads none or a negative one); the rest is ignored ("5x" is job 5).
 *   Only text that does not start with a digit is refused (squeue -j,
 *   sacct -j's array element after its own checks). */
#define SL_JOBID_BARE_TASK 1u
#define SL_JOBID_STRTOL 2u
int sl_slurm_jobid_read(const char *s, unsigned how, uint64_t *id, long *task);

/* Split a comma list into a NULL-terminated vector (empty items dropped).
 * Appends to *v (may be NULL) and *n. Free with sl_strv_free(). */
void sl_slurm_list_append(char ***v, size_t *n, const char *list);

/* A user list: names or numeric uids. Appends the uids to *uids and *n (caller
 * frees *uids). Unknown user: SL_ENOENT with err->msg = the name. */
int sl_slurm_users_parse(const char *list, uid_t **uids, size_t *n, struct sl_err *err);

/* The job selection that squeue, sacct and scancel share (-j -u -p -A -n
 * -q -w -t), owned by the command. */
struct sl_jobsel {
	uint64_t *ids;
	size_t n_ids;
	uid_t *uids;
	size_t n_uids;
	char **parts, **accounts, **names, **qos, **nodes, **wckeys;
	size_t n_parts, n_accounts, n_names, n_qos, n_nodes, n_wckeys;
	struct sl_statesel states;
	struct sl_taskid *tasks; /* array tasks "N_I" (jobfilter.h) */
	size_t n_tasks;
};

/* Job id (and task, -1: none, as sl_slurm_jobid_parse gives them) into
 * sel's ids or its tasks. */
void sl_jobsel_add_id(struct sl_jobsel *sel, uint64_t id, long task);

/* Point f's id, uid, partition, account, name, qos, node and wckey lists at sel's
 * (borrowed; f's other fields are left alone). */
void sl_jobsel_filter(const struct sl_jobsel *sel, struct sl_jobfilter *f);
void sl_jobsel_clear(struct sl_jobsel *sel);

#endif
