/* afs.c - Admission Fair Sharing (Kueue pkg/util/admissionfairsharing):
 * per-LocalQueue usage decayed with a half-life, an entry penalty on each
 * admission, and the LocalQueue ordering it induces inside a ClusterQueue
 * heap (the key, sq_lq_afs_usage, is inline in sched_int.h). Usage is a
 * weighted sum in whole resource units (double: it is an ordering key,
 * never a quota). */
#include <math.h>
#include <stdlib.h>
#include "sched_int.h"

static double alpha(const struct sl_sched *s, int64_t dt_ms)
{
	if (s->afs_half_life_ms <= 0)
		return 1.0;
	return 1.0 - pow(0.5, (double)dt_ms / (double)s->afs_half_life_ms);
}

static double weighted_use(const struct sl_sched *s, const struct sq_wl *w)
{
	double u = 0;
	for (int i = 0; i < w->nuse; i++) {
		int r = s->fr_res[w->use_fr[i]];
		int64_t wm = r < s->nres && s->afs_weight_milli ? s->afs_weight_milli[r] : 1000;
		u += (double)w->use_q[i] / 1000.0 * (double)wm / 1000.0;
	}
	return u;
}

void sq_afs_on_admit(struct sl_sched *s, struct sq_wl *w)
{
	if (!s->afs_enable || w->lq == SQ_NONE || w->adm_cq == SQ_NONE || !s->cq[w->adm_cq].afs)
		return;
	s->lq[w->lq].afs_penalty += weighted_use(s, w) * alpha(s, s->afs_sampling_ms);
	struct sq_cq *c = &s->cq[w->adm_cq];
	sq_heap_fix_all(s, c);
	c->qgen++;
}

void sl_sched_afs_sample(struct sl_sched *s, int64_t elapsed_ms)
{
	if (!s->afs_enable)
		return;
	double a = alpha(s, elapsed_ms);
	double *cur = calloc((size_t)s->nlq + 1, sizeof(double));
	if (!cur)
		return;
	for (int c = 0; c < s->ncq; c++)
		for (size_t i = 0; i < s->cq[c].nadm; i++) {
			const struct sq_wl *w = s->cq[c].adm[i];
			if (w->lq != SQ_NONE)
				cur[w->lq] += weighted_use(s, w);
		}
	for (int l = 0; l < s->nlq; l++) {
		s->lq[l].afs_consumed = s->lq[l].afs_consumed * (1 - a) + cur[l] * a;
		s->lq[l].afs_penalty = 0;
	}
	free(cur);
	for (int c = 0; c < s->ncq; c++)
		if (sq_afs_on(s, &s->cq[c])) {
			sq_heap_fix_all(s, &s->cq[c]);
			s->cq[c].qgen++;
		}
}
