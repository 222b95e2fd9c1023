/* prio.c - a job's priority on Slurm's scale and its parts (prio.h has the
 * mapping; README, "Priorities", documents it). */
#include <string.h>
#include "prio.h"

int sl_prio_held(const struct sl_job *j)
{
	/* submit.c and the hold paths zero j->priority and set the hold (and
	 * a JobHeld* reason); a class of 0 with nice 0 is also 0, so the hold
	 * decides. A running or ended job keeps its hold's 0, as in Slurm. */
	return j->priority == 0 && (j->spec.hold || (j->state == SL_JOB_PENDING && j->reason != NULL &&
						       strncmp(j->reason, "JobHeld", 7) == 0));
}

static int64_t clamp(int64_t v)
{
	return v < 1 ? 1 : v > SL_PRIO_MAX ? SL_PRIO_MAX : v;
}

void sl_prio_parts(const struct sl_job *j, struct sl_prio_parts *out)
{
	memset(out, 0, sizeof(*out));
	out->direct = j->spec.priority != SL_NO_VAL;
	if ((out->held = sl_prio_held(j)) != 0)
		return;
	if (out->direct) {
		out->priority = clamp(SL_PRIO_SITE + j->priority);
		return;
	}
	out->site = SL_PRIO_SITE;
	out->nice = j->spec.nice;
	out->qos = j->priority + j->spec.nice; /* submit.c: class - nice */
	out->priority = clamp(out->site + out->qos - out->nice);
}

/* squeue sorts by it: 10 000 jobs make ~500 000 calls, so the parts are
 * not built and the reason is read only when the priority is 0. */
int64_t sl_prio_slurm(const struct sl_job *j)
{
	if (j->priority == 0 && sl_prio_held(j))
		return 0;
	if (j->spec.priority != SL_NO_VAL)
		return clamp(SL_PRIO_SITE + j->priority);
	return clamp(SL_PRIO_SITE + (j->priority + j->spec.nice) - j->spec.nice);
}
