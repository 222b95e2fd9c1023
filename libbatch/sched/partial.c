/* partial.c - partial admission (Kueue gate PartialAdmission, beta, on by
 * default): flavorassigner/podset_reducer.go as called by the scheduler's
 * getInitialAssignments. Only when a workload's full assignment neither
 * fits nor preempts with targets, and some pod set has minCount: one scale
 * factor i/T is applied to every pod set's delta (count - minCount, summed
 * to T), and a binary search over i in [0, T) (Go's sort.Search), then
 * i = T on its own, finds the smallest reduction whose assignment fits or
 * preempts with targets. The probes run against the same state as the
 * full attempt and keep the scan progress it started from. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

/* Two slots, so the last probe that succeeded survives a failing one
 * after it without a copy. */
struct sq_rscratch {
	struct sq_assign a[2];
	struct sq_targets t[2];
	struct sq_needbuf need;
	int32_t *delta, *cnt[2];
	size_t cap;
};

struct probe {
	struct sl_sched *s;
	struct sq_wl *w;
	int cq;
	struct sq_rscratch *r;
	int64_t total;
	int best;                    /* slot of the last success, -1 none */
};

void sq_rscratch_free(struct sq_rscratch *r)
{
	if (!r)
		return;
	for (int i = 0; i < 2; i++) {
		sq_assign_free(&r->a[i]);
		free(r->t[i].v);
		free(r->cnt[i]);
	}
	free(r->need.v);
	free(r->delta);
	free(r);
}

static struct sq_rscratch *scratch(struct sl_sched *s, int nps)
{
	struct sq_rscratch *r = s->rscr;
	if (!r) {
		r = s->rscr = sl_xcalloc(1, sizeof(*r));
		sq_assign_init(&r->a[0]);
		sq_assign_init(&r->a[1]);
	}
	if ((size_t)nps + 1 > r->cap) {
		r->cap = (size_t)nps + 1;
		r->delta = sl_xrealloc(r->delta, r->cap * sizeof(int32_t));
		r->cnt[0] = sl_xrealloc(r->cnt[0], r->cap * sizeof(int32_t));
		r->cnt[1] = sl_xrealloc(r->cnt[1], r->cap * sizeof(int32_t));
	}
	return r;
}

/* fillPodSetSizesForSearchIndex: count - delta * i / T, truncated. Go
 * computes it in int64; unsigned here so that out-of-range products wrap
 * as they do there instead of being undefined. */
static void counts_at(const struct probe *p, int64_t i, int32_t *out)
{
	for (int k = 0; k < p->w->nps; k++) {
		uint64_t cut = (uint64_t)p->r->delta[k] * (uint64_t)i / (uint64_t)p->total;
		out[k] = p->w->ps[k].count - (int32_t)cut;
	}
}

/* The reducer's fits(): Fit, or Preempt with targets. */
static bool probe_fits(struct probe *p, int64_t i)
{
	/* i = 0 is the full counts, which have just failed on this very
	 * state: Kueue probes them again, to the same end */
	if (i == 0)
		return false;
	struct sq_rscratch *r = p->r;
	int slot = p->best == 0 ? 1 : 0;
	counts_at(p, i, r->cnt[slot]);
	sq_assign_flavors(p->s, p->w, p->cq, r->cnt[slot], &r->a[slot]);
	sq_tas_nominate(p->s, p->w, p->cq, &r->a[slot], r->cnt[slot]);
	r->t[slot].n = 0;
	if (r->a[slot].rep == SQ_A_PREEMPT)
		sq_tas_targets(p->s, p->w, p->cq, &r->a[slot], &r->need, &r->t[slot]);
	bool ok = r->a[slot].rep == SQ_A_FIT || r->t[slot].n > 0;
	if (ok)
		p->best = slot;
	return ok;
}

bool sq_partial_search(struct sl_sched *s, struct sq_wl *w, int cq, struct sq_assign *a,
		       struct sq_targets *t, int32_t **cnt, size_t *capcnt)
{
	struct sq_rscratch *r = scratch(s, w->nps);
	struct probe p = {s, w, cq, r, 0, -1};
	for (int k = 0; k < w->nps; k++) {
		r->delta[k] = w->ps[k].count - w->ps[k].min_count;
		p.total += r->delta[k];
	}
	if (p.total == 0)
		return false;
	int64_t lo = 0, hi = p.total;
	while (lo < hi) {
		int64_t h = lo + (hi - lo) / 2;
		if (probe_fits(&p, h))
			hi = h;
		else
			lo = h + 1;
	}
	/* sort.Search covered [0, T): the full reduction is probed alone */
	if (lo == p.total && !probe_fits(&p, p.total))
		return false;
	struct sq_assign ta = *a;
	*a = r->a[p.best];
	r->a[p.best] = ta;
	struct sq_targets tt = *t;
	*t = r->t[p.best];
	r->t[p.best] = tt;
	*cnt = sl_xgrow(*cnt, capcnt, (size_t)w->nps + 1, sizeof(int32_t));
	memcpy(*cnt, r->cnt[p.best], (size_t)w->nps * sizeof(int32_t));
	a->counts = *cnt;   /* the slot is reused by the next head's search */
	return true;
}
