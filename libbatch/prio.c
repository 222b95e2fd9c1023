/* prio.c - a job's priority on Slurm's scale and its parts (prio.h has the
 * mapping; README, "Priorities", documents it). */
#include <string.h>
#include "prio.h"

int sl_prio_held(const struct sl_job *j)
{
	/* submit.c and the hold paths zero j->priority and set a JobHeld*
	 * reason; a class of 0 with nice 0 is also 0, so the reason decides. */
	return j->state == SL_JOB_PENDING && j->reason != NULL &&
	       strncmp(j->reason, "JobHeld", 7) == 0;
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

int64_t sl_prio_slurm(const struct sl_job *j)
{
	struct sl_prio_parts p;
	sl_prio_parts(j, &p);
	return p.priority;
}
