/* jobstate.c - state names and the transition table. */
#include "jobstate.h"

#include <strings.h>

static const struct {
	const char *name, *code;
	int final;
} st[SL_JOB_STATE_MAX] = {
	[SL_JOB_PENDING] = {"PENDING", "PD", 0},
	[SL_JOB_RUNNING] = {"RUNNING", "R", 0},
	[SL_JOB_CONFIGURING] = {"CONFIGURING", "CF", 0},
	[SL_JOB_COMPLETING] = {"COMPLETING", "CG", 0},
	[SL_JOB_COMPLETED] = {"COMPLETED", "CD", 1},
	[SL_JOB_FAILED] = {"FAILED", "F", 1},
	[SL_JOB_CANCELLED] = {"CANCELLED", "CA", 1},
	[SL_JOB_TIMEOUT] = {"TIMEOUT", "TO", 1},
	[SL_JOB_PREEMPTED] = {"PREEMPTED", "PR", 1},
	[SL_JOB_NODE_FAIL] = {"NODE_FAIL", "NF", 1},
	[SL_JOB_OUT_OF_MEMORY] = {"OUT_OF_MEMORY", "OOM", 1},
	[SL_JOB_BOOT_FAIL] = {"BOOT_FAIL", "BF", 1},
	[SL_JOB_SUSPENDED] = {"SUSPENDED", "S", 0},
	[SL_JOB_REQUEUED] = {"REQUEUED", "RQ", 1},
	[SL_JOB_DEADLINE] = {"DEADLINE", "DL", 1},
};

const char *sl_jobstate_name(enum sl_jobstate s)
{
	return (unsigned)s < SL_JOB_STATE_MAX ? st[s].name : "UNKNOWN";
}

const char *sl_jobstate_code(enum sl_jobstate s)
{
	return (unsigned)s < SL_JOB_STATE_MAX ? st[s].code : "??";
}

int sl_jobstate_parse(const char *s)
{
	for (int i = 0; i < SL_JOB_STATE_MAX; i++)
		if (strcasecmp(s, st[i].name) == 0 || strcasecmp(s, st[i].code) == 0)
			return i;
	return -1;
}

int sl_jobstate_is_final(enum sl_jobstate s)
{
	return (unsigned)s < SL_JOB_STATE_MAX && st[s].final;
}

int sl_jobstate_can(enum sl_jobstate from, enum sl_jobstate to)
{
	/* requeue after preemption or eviction; scontrol requeue of a finished
	 * batch job too, as Slurm's _job_requeue_op allows */
	if (to == SL_JOB_PENDING)
		return from != SL_JOB_PENDING;
	if (sl_jobstate_is_final(from))
		return 0;
	switch (to) {
	case SL_JOB_CONFIGURING:
		return from == SL_JOB_PENDING;
	case SL_JOB_RUNNING: /* admitted, ready, resumed */
		return from == SL_JOB_PENDING || from == SL_JOB_CONFIGURING ||
		       from == SL_JOB_SUSPENDED;
	case SL_JOB_SUSPENDED:
		return from == SL_JOB_RUNNING;
	case SL_JOB_REQUEUED: /* a history row, never a job's state */
		return 0;
	case SL_JOB_COMPLETING:
		return from == SL_JOB_RUNNING || from == SL_JOB_CONFIGURING ||
		       from == SL_JOB_SUSPENDED;
	case SL_JOB_CANCELLED:
		return 1; /* a pending job may be cancelled too */
	default:
		return from != SL_JOB_PENDING || to == SL_JOB_FAILED ||
		       to == SL_JOB_BOOT_FAIL || to == SL_JOB_DEADLINE;
	}
}
