/* workload.h - a Slurm job as a Kueue workload: one pod set "main" whose
 * count is the node count and whose per-pod requests are the job's per-node
 * shape. The daemon and `sluice render` map jobs the same way through here,
 * so what an admin renders is what sluiced admits. */
#ifndef SL_WORKLOAD_H
#define SL_WORKLOAD_H

#include "job.h"
#include "sched/sched.h"

/* Storage for one mapped workload; wl points into it (no allocation). */
struct sl_job_wl {
	struct sl_sched_req req[3];
	struct sl_sched_podset ps;
	struct sl_sched_wl wl;
};

/* Fill b from j. Strings are borrowed from j: keep j alive while b is used.
 * FIFO order is the job id, which a requeued job keeps (Kueue keeps the
 * original creation time). */
void sl_job_workload(const struct sl_job *j, struct sl_job_wl *b);

#endif
