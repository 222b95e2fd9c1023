/* estimate_trial.c - sbatch --test-only on the engine: the workload is
 * added, planned with everything else, asked where backfill would take it,
 * and removed; the estimates are then recomputed without it so that the
 * trial leaves no trace. Costs two plans: a --test-only is rare. */
#include <stdint.h>
#include <string.h>
#include "sched_int.h"

int sl_sched_trial(struct sl_sched *s, const struct sl_sched_wl *wl, int64_t limit_ms,
		   int64_t now_ms, struct sl_sched_trial *out, struct sl_err *err)
{
	memset(out, 0, sizeof(*out));
	out->start = SL_SCHED_NEVER;
	int r = sl_sched_check(s, wl, err);
	if (r)
		return r;
	struct sl_sched_wl t = *wl;
	t.id = UINT64_MAX;       /* an id no job has: they count up from 1 */
	while (sq_wt_get(s, t.id))
		t.id--;
	if ((r = sl_sched_add(s, &t, err)) != 0)
		return r;
	struct sq_wl *w = sq_wt_get(s, t.id);
	w->limit_ms = limit_ms > 0 ? limit_ms : 0;
	sl_sched_estimate(s, now_ms);
	out->start = w->est_ms;
	out->cluster_queue = w->cq != SQ_NONE ? s->cq[w->cq].name : NULL;
	if (out->start > now_ms)
		out->backfill_limit = sq_backfill_window(s, w, now_ms);
	sl_sched_remove(s, t.id);
	sl_sched_estimate(s, now_ms);
	return 0;
}
