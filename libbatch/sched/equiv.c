/* equiv.c - scheduling equivalence (Kueue's SchedulingEquivalenceHashing,
 * on by default): in a BestEffortFIFO ClusterQueue, when a head fails with
 * NoFit or PreemptionNoCandidates, every pending workload of the same shape
 * (priority, pod sets' counts and minCounts, requests, node selectors,
 * tolerations) would fail the same way, even after the partial-admission
 * search, so all of them are parked, and arrivals of that shape too,
 * until the next requeue of the queue's inadmissible workloads.
 * Without it every parked workload was popped and re-parked one cycle at a
 * time after each requeue: 98 % of the baseline's cycles. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = mix(h, (unsigned char)*s);
	return mix(h, 0x100);
}

uint64_t sq_wl_hash(const struct sq_wl *w)
{
	uint64_t h = mix(1469598103934665603ull, (uint64_t)(uint32_t)w->prio);
	for (int i = 0; i < w->nps; i++) {
		const struct sq_ps *p = &w->ps[i];
		h = mix(mix(h, (uint64_t)(uint32_t)p->count), (uint64_t)(uint32_t)p->min_count);
		for (int j = 0; j < p->nreq; j++)
			h = mix(mix(h, (uint64_t)p->res[j]), (uint64_t)p->total[j]);
		for (int j = 0; j < p->nsel; j++)
			h = mix_str(mix_str(h, p->sel[j].key), p->sel[j].value);
		for (int j = 0; j < p->ntol; j++)
			h = mix_str(mix_str(mix_str(mix_str(h, p->tol[j].key), p->tol[j].op),
					    p->tol[j].value), p->tol[j].effect);
		if (p->tas)
			h = mix(h, sq_tas_ps_hash(p));
	}
	return h;
}

#define SHAPE_INTS 5
_Static_assert(offsetof(struct sq_ps, ntol) ==
		       offsetof(struct sq_ps, count) + (SHAPE_INTS - 1) * sizeof(int32_t),
	       "struct sq_ps: count, min_count, nreq, nsel, ntol must be adjacent");

static bool ps_equiv(const struct sq_ps *a, const struct sq_ps *b)
{
	/* count, min_count, nreq, nsel, ntol as one block: a compare more
	 * per parked head was 0.5 % of the baseline benchmark */
	if (memcmp(&a->count, &b->count, SHAPE_INTS * sizeof(int32_t)) != 0)
		return false;
	for (int j = 0; j < a->nreq; j++)
		if (a->res[j] != b->res[j] || a->total[j] != b->total[j])
			return false;
	for (int j = 0; j < a->nsel; j++)
		if (strcmp(a->sel[j].key, b->sel[j].key) || strcmp(a->sel[j].value, b->sel[j].value))
			return false;
	for (int j = 0; j < a->ntol; j++)
		if (strcmp(a->tol[j].key, b->tol[j].key) || strcmp(a->tol[j].op, b->tol[j].op) ||
		    strcmp(a->tol[j].value, b->tol[j].value) ||
		    strcmp(a->tol[j].effect, b->tol[j].effect))
			return false;
	return (!a->tas && !b->tas) || sq_tas_ps_equal(a, b);
}

/* Same shape: the hash first, then the fields, so a collision costs
 * nothing but time. */
bool sq_wl_equiv(const struct sq_wl *a, const struct sq_wl *b)
{
	if (a->hash != b->hash || a->prio != b->prio || a->nps != b->nps)
		return false;
	for (int i = 0; i < a->nps; i++)
		if (!ps_equiv(&a->ps[i], &b->ps[i]))
			return false;
	return true;
}

/* w has just been parked after failing: its shape is parked too. The
 * equivalents stay in the heap and are parked when they come up as heads
 * (sq_pop_head): moving them all at once cost a heap scan and a removal
 * each, only for most of them to be requeued by the next finish in the
 * cohort before they would have come up. */
void sq_park_shape(struct sq_cq *c, struct sq_wl *w)
{
	c->prep = sl_xgrow(c->prep, &c->capprep, c->nprep + 1, sizeof(*c->prep));
	c->prep[c->nprep++] = w;
	w->bulk_tried = false;
}

/* The parked workload whose shape w has, or NULL. */
struct sq_wl *sq_parked_rep(const struct sq_cq *c, const struct sq_wl *w)
{
	if (w == c->sticky)
		return NULL;
	for (size_t i = 0; i < c->nprep; i++)
		if (sq_wl_equiv(c->prep[i], w))
			return c->prep[i];
	return NULL;
}

/* Should an arriving w go straight to the inadmissible set? Then it
 * takes the status of the workload that failed. */
bool sq_parked_shape(const struct sq_cq *c, struct sq_wl *w)
{
	const struct sq_wl *rep = sq_parked_rep(c, w);
	if (rep)
		sq_status_copy(w, rep);
	return rep != NULL;
}

/* w leaves the inadmissible set other than by a requeue: it can no longer
 * represent its shape. */
void sq_forget_shape(struct sq_cq *c, const struct sq_wl *w)
{
	for (size_t i = 0; i < c->nprep; i++)
		if (c->prep[i] == w) {
			c->prep[i] = c->prep[--c->nprep];
			return;
		}
}
