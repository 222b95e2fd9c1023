/* jobstate.h - job states (Slurm's names) and the legal transitions. */
#ifndef SL_JOBSTATE_H
#define SL_JOBSTATE_H

enum sl_jobstate {
	SL_JOB_PENDING = 0,
	SL_JOB_RUNNING,
	SL_JOB_CONFIGURING,  /* admitted, pods/processes not all ready yet */
	SL_JOB_COMPLETING,
	SL_JOB_COMPLETED,
	SL_JOB_FAILED,
	SL_JOB_CANCELLED,
	SL_JOB_TIMEOUT,
	SL_JOB_PREEMPTED,
	SL_JOB_NODE_FAIL,
	SL_JOB_OUT_OF_MEMORY,
	SL_JOB_BOOT_FAIL,
	SL_JOB_SUSPENDED,    /* scontrol suspend: stopped (SIGSTOP), its quota kept */
	SL_JOB_REQUEUED,     /* only in sacct -D: a run that ended in a requeue */
	SL_JOB_DEADLINE,     /* --deadline passed while pending (Slurm's DEADLINE) */
	SL_JOB_STATE_MAX
};

const char *sl_jobstate_name(enum sl_jobstate s);      /* "PENDING" */
const char *sl_jobstate_code(enum sl_jobstate s);      /* "PD" */
/* Accepts full names and short codes, case-insensitive; -1 if unknown. */
int sl_jobstate_parse(const char *s);
int sl_jobstate_is_final(enum sl_jobstate s);
/* Is from -> to a legal transition? (The daemon asserts it before commit.) */
int sl_jobstate_can(enum sl_jobstate from, enum sl_jobstate to);

#endif
