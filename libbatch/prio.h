/* prio.h - a job's priority on Slurm's scale, and its parts, the one
 * mapping squeue (%Q, %p, -O Priority), scontrol (Priority=) and sprio print
 * through (README, "Priorities").
 *
 * Kueue orders workloads by a signed 32-bit priority: the QOS's
 * WorkloadPriorityClass value minus the nice (libbatch/submit.c), or an
 * operator's --priority/Priority= as given. Slurm prints an unsigned
 * priority, 0 for a held job, where multifactor's parts add up to thousands.
 * Here the parts are Slurm's sprio columns:
 *   SITE  SL_PRIO_SITE, the same for every job: it lifts Kueue's signed
 *         values onto Slurm's scale, so that class 0 is not printed as 0
 *         (which Slurm reserves for held jobs);
 *   QOS   the WorkloadPriorityClass value (weight 1: the value itself);
 *   NICE  the job's nice, subtracted.
 * PRIORITY = SITE + QOS - NICE, held to [1, 4294967294] as Slurm holds its
 * own. Kueue's fair sharing orders queues (cohorts, ClusterQueues and
 * LocalQueues: sshare), not the jobs inside one, and Sluice does not age
 * jobs: Slurm's AGE, FAIRSHARE, JOBSIZE, PARTITION, ASSOC and TRES parts
 * are 0 with weight 0. A --priority given by an operator is a direct
 * priority (Slurm's direct_prio): printed as SITE + value, its parts 0. */
#ifndef SL_PRIO_H
#define SL_PRIO_H

#include <stdint.h>
#include "job.h"

#define SL_PRIO_SITE 10000
#define SL_PRIO_MAX 4294967294LL /* Slurm's highest (0xfffffffe; TOP) */

struct sl_prio_parts {
	int64_t priority; /* Slurm's scale; 0 when held */
	int64_t site;     /* SL_PRIO_SITE; 0 for a direct priority */
	int64_t qos;      /* the WorkloadPriorityClass value; 0 for a direct priority */
	int64_t nice;     /* 0 for a direct priority */
	int direct;       /* an operator's --priority/Priority= */
	int held;
};

/* 1 when j is held (user, operator or PBS hold): its priority is 0. */
int sl_prio_held(const struct sl_job *j);
/* j's priority on Slurm's scale (0 when held). */
int64_t sl_prio_slurm(const struct sl_job *j);
/* The same, and its parts. */
void sl_prio_parts(const struct sl_job *j, struct sl_prio_parts *out);

#endif
