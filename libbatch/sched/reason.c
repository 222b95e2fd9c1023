/* reason.c - Kueue's pending reasons (the QuotaReserved=False reasons of
 * Kueue's workload status) as Slurm's job reasons (squeue %r, scontrol's
 * Reason=). One table: the README's pending-reason table is its copy. */
#include <stddef.h>
#include <string.h>
#include "sched.h"

/* cls SL_SCHED_NONE matches any class: the rows are tried in order, so a
 * reason whose class decides comes first with its class. */
static const struct {
	const char *kueue;
	enum sl_sched_class cls;
	const char *slurm;
} rows[] = {
	/* behind higher-priority work of its queue (a head that waits) */
	{"WaitingForQuota", SL_SCHED_WAIT_PRIORITY, "Priority"},
	{"WaitingForQuota", SL_SCHED_NONE, "Resources"},
	{"WaitingForPreemptedWorkloads", SL_SCHED_NONE, "Resources"},
	{"Preempted", SL_SCHED_NONE, "Resources"},
	/* quota holds it, the nodes' free capacity does not yet */
	{"TopologyPlacementFailed", SL_SCHED_NONE, "Resources"},
	/* more than the queue could ever give: Slurm's job beyond its partition */
	{"ExceedsMaxQuota", SL_SCHED_NONE, "PartitionConfig"},
	{"NoMatchingFlavor", SL_SCHED_NONE, "PartitionConfig"},
	{"Misconfigured", SL_SCHED_NONE, "PartitionConfig"},
	/* a stop policy is the admin's hold: Slurm's partition State=DOWN */
	{"Suspended", SL_SCHED_QUEUE_STOPPED, "PartitionDown"},
	/* an inactive ClusterQueue (FlavorNotFound): State=INACTIVE */
	{"Suspended", SL_SCHED_NONE, "PartitionInactive"},
};

static const char *by_class(enum sl_sched_class c)
{
	switch (c) {
	case SL_SCHED_WAIT_QUOTA:
	case SL_SCHED_WAIT_PREEMPTION:
		return "Resources";
	case SL_SCHED_WAIT_PRIORITY:
		return "Priority";
	case SL_SCHED_NEVER_FITS:
	case SL_SCHED_INADMISSIBLE:
		return "PartitionConfig";
	case SL_SCHED_QUEUE_STOPPED:
		return "PartitionDown";
	default:
		return "None";
	}
}

const char *sl_sched_slurm_reason(enum sl_sched_class cls, const char *kueue_reason)
{
	if (cls == SL_SCHED_NONE || kueue_reason == NULL)
		return by_class(cls);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].kueue, kueue_reason) == 0 &&
		    (rows[i].cls == SL_SCHED_NONE || rows[i].cls == cls))
			return rows[i].slurm;
	return by_class(cls);
}
