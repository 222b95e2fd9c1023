/* workload.c - job -> Kueue workload. */
#include "workload.h"

#include <string.h>

#define MIB_MILLI (1048576LL * 1000)

void sl_job_workload(const struct sl_job *j, struct sl_job_wl *b)
{
	struct sl_jobshape sh;
	size_t n = 0;

	sl_jobspec_shape(&j->spec, &sh);
	memset(b, 0, sizeof(*b));
	b->req[n++] = (struct sl_sched_req){"cpu", (int64_t)sh.cpus_per_node * 1000};
	if (sh.mem_per_node > 0)
		b->req[n++] = (struct sl_sched_req){"memory", sh.mem_per_node * MIB_MILLI};
	if (sh.gpus_per_node > 0)
		b->req[n++] = (struct sl_sched_req){"nvidia.com/gpu",
						    (int64_t)sh.gpus_per_node * 1000};
	b->ps = (struct sl_sched_podset){.name = "main", .count = sh.nodes, .nreq = n,
					 .req = b->req};
	b->wl = (struct sl_sched_wl){.id = j->id, .name = j->spec.name, .ns = j->spec.account,
				     .queue = j->spec.partition, .priority = (int32_t)j->priority,
				     .created = (int64_t)j->id, .npodsets = 1, .podsets = &b->ps};
}
