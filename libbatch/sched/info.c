/* info.c - read-only views for the daemon: why a workload waits and where
 * (positions as Kueue's visibility API computes them: heap + inadmissible
 * set in heap order), the assignment of an admitted workload, usage rows
 * for sinfo (with what each queue lends), and the names of enums. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

/* Fenwick trees of removals over ranks 0..n-1 (struct sq_pos): t[1..n]. */
static void fen_add(size_t *t, size_t n, size_t rank)
{
	for (size_t i = rank + 1; i <= n; i += i & -i)
		t[i]++;
}

/* How many of ranks 0..rank-1 were removed. */
static size_t fen_sum(const size_t *t, size_t rank)
{
	size_t k = 0;
	for (size_t i = rank; i > 0; i -= i & -i)
		k += t[i];
	return k;
}

void sq_pos_free(struct sq_pos *p)
{
	free(p->by_cq);
	free(p->by_grp);
	memset(p, 0, sizeof(*p));
}

bool sq_pos_drop(struct sq_cq *c, const struct sq_wl *w)
{
	struct sq_pos *p = &c->pos;
	if (c->posgen != c->qgen || !c->posgen || w->pos_cq < 0 || (size_t)w->pos_cq >= p->n)
		return false;
	if (!p->by_cq) {
		p->by_cq = sl_xcalloc(p->n + 1, sizeof(*p->by_cq));
		p->by_grp = sl_xcalloc(p->n + 1, sizeof(*p->by_grp));
	}
	fen_add(p->by_cq, p->n, (size_t)w->pos_cq);
	if (w->pos_grp >= 0)
		fen_add(p->by_grp, p->n, (size_t)w->pos_grp);
	p->ngone++;
	return true;
}

/* Positions are recomputed lazily, once per queue change other than a
 * removal (sq_pos_drop). */
static void positions(struct sl_sched *s, struct sq_cq *c)
{
	if (c->posgen == c->qgen && c->posgen)
		return;
	struct sq_wl **v;
	size_t n = sq_cq_pending(s, c, &v);
	/* per LocalQueue: members counted, then where its group starts */
	int64_t *lqpos = sl_xcalloc((size_t)s->nlq + 1, sizeof(int64_t));
	int64_t *base = sl_xcalloc((size_t)s->nlq + 1, sizeof(int64_t));
	for (size_t i = 0; i < n; i++)
		if (v[i]->lq != SQ_NONE)
			lqpos[v[i]->lq]++;
	for (int l = 1; l < s->nlq; l++)
		base[l] = base[l - 1] + lqpos[l - 1];
	memset(lqpos, 0, ((size_t)s->nlq + 1) * sizeof(int64_t));
	for (size_t i = 0; i < n; i++) {
		struct sq_wl *w = v[i];
		w->pos_cq = (int64_t)i;
		w->pos_lq = w->lq != SQ_NONE ? lqpos[w->lq]++ : -1;
		w->pos_grp = w->lq != SQ_NONE ? base[w->lq] + w->pos_lq : -1;
	}
	free(base);
	free(lqpos);
	free(v);
	sq_pos_free(&c->pos);
	c->pos.n = n;
	if (!c->qgen)
		c->qgen++;
	c->posgen = c->qgen;
}

/* w's place now: its ranks less the removals ahead of it. */
static void position_of(const struct sq_cq *c, const struct sq_wl *w, int64_t *cq, int64_t *lq)
{
	const struct sq_pos *p = &c->pos;
	*cq = w->pos_cq;
	*lq = w->pos_lq;
	if (!p->ngone || w->pos_cq < 0 || (size_t)w->pos_cq >= p->n)
		return;
	*cq -= (int64_t)fen_sum(p->by_cq, (size_t)w->pos_cq);
	if (w->pos_grp >= 0)
		*lq -= (int64_t)(fen_sum(p->by_grp, (size_t)w->pos_grp) -
				 fen_sum(p->by_grp, (size_t)(w->pos_grp - w->pos_lq)));
}

int sl_sched_pending_info(struct sl_sched *s, uint64_t id, struct sl_sched_pending *out)
{
	struct sq_wl *w = sq_wt_get(s, id);
	memset(out, 0, sizeof(*out));
	out->pos_cq = out->pos_lq = -1;
	if (!w)
		return -SL_ENOENT;
	if (w->where == SQ_W_ADMITTED) {
		out->admitted = 1;
		out->evicting = w->evicting;
		out->cluster_queue = w->adm_cq != SQ_NONE ? s->cq[w->adm_cq].name : NULL;
		return 0;
	}
	struct sq_cq *c = w->cq != SQ_NONE ? &s->cq[w->cq] : NULL;
	const struct sq_wl *rep = NULL;
	if (c && w->where == SQ_W_HEAP && c->nprep && (rep = sq_parked_rep(c, w)) != NULL)
		sq_status_copy(w, rep);   /* parked as soon as it comes up */
	out->cls = w->cls;
	out->reason = w->reason;
	out->message = sq_status_message(s, w);
	if (!c)
		return 0;
	out->cluster_queue = c->name;
	positions(s, c);
	position_of(c, w, &out->pos_cq, &out->pos_lq);
	if (!w->tried && w->cls == SL_SCHED_NONE) {
		out->cls = out->pos_cq > 0 ? SL_SCHED_WAIT_PRIORITY : SL_SCHED_WAIT_QUOTA;
		out->reason = "Pending";
		out->message = "The workload has no reservation";
	} else if (w->cls == SL_SCHED_WAIT_QUOTA && out->pos_cq > 0) {
		/* Slurm's scheduler names the first job of a partition that does
		 * not fit Resources and every one after it Priority, whatever
		 * their priorities */
		out->cls = SL_SCHED_WAIT_PRIORITY;
	}
	return 0;
}

int sl_sched_assignment(struct sl_sched *s, uint64_t id, struct sl_sched_assignment *out)
{
	const struct sq_wl *w = sq_wt_get(s, id);
	memset(out, 0, sizeof(*out));
	if (!w || w->where != SQ_W_ADMITTED)
		return -SL_ENOENT;
	size_t n = 0;
	for (int i = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++) {
			if (w->ps[i].flv[j] == SQ_NONE)
				continue;
			s->abuf = sl_xgrow(s->abuf, &s->capabuf, n + 1, sizeof(*s->abuf));
			s->abuf[n++] = (struct sl_sched_flavor){w->ps[i].name, s->res[w->ps[i].res[j]],
							    s->flv[w->ps[i].flv[j]].name};
		}
	out->cluster_queue = w->adm_cq != SQ_NONE ? s->cq[w->adm_cq].name : NULL;
	out->n = n;
	out->flavors = s->abuf;
	return 0;
}

/* What node puts into its parent's pool on fr (its quota past the part its
 * lending limit keeps back) minus what it takes out (its usage past that
 * part): positive, unused quota others may borrow; negative, borrowed. */
static int64_t pool_balance(const struct sl_sched *s, int node, int fr)
{
	const struct sq_cell *c = sq_cell(s, node, fr);
	int64_t local = sq_cell_local_quota(c);
	int64_t stored = c->usage - local;

	return (c->subtree - local) - (stored > 0 ? stored : 0);
}

/* The part of CQ node's unused quota on fr that its cohort uses now. The
 * cohort's own quota is lent first (it exists to be lent); what it does not
 * cover comes from the children's unused quota, split in proportion to what
 * each leaves unused, the rounding remainder going to the first ones. */
static int64_t lent_of(const struct sl_sched *s, int node, int fr)
{
	const struct sq_node *n = &s->node[node];
	if (n->parent == SQ_NONE || n->broken || s->node[n->parent].broken)
		return 0;
	const struct sq_node *p = &s->node[n->parent];
	int64_t unused = 0, borrowed = 0, mine = 0, given = 0, share = 0;
	size_t before = 0; /* lenders ahead of node */

	for (size_t k = 0; k < p->nkids; k++) {
		int64_t b = pool_balance(s, p->kids[k], fr);
		if (p->kids[k] == node)
			mine = b;
		else if (b > 0 && mine <= 0)
			before++;
		if (b > 0)
			unused += b;
		else
			borrowed -= b;
	}
	const struct sq_quota *pq = &sq_cell(s, n->parent, fr)->q;
	int64_t pool = borrowed - (pq->defined ? pq->nominal : 0);
	if (mine <= 0 || pool <= 0)
		return 0;
	if (pool >= unused)
		return mine;
	for (size_t k = 0; k < p->nkids; k++) {
		int64_t b = pool_balance(s, p->kids[k], fr);
		if (b <= 0)
			continue;
		int64_t v = (int64_t)((__int128)pool * b / unused);
		given += v;
		if (p->kids[k] == node)
			share = v;
	}
	/* one milli-unit of the remainder to each of the first lenders */
	return share + ((int64_t)before < pool - given ? 1 : 0);
}

size_t sl_sched_usage(const struct sl_sched *cs, const struct sl_sched_usage **rows)
{
	/* The rows are a cache: filling it changes nothing the engine decides by. */
	struct sl_sched *s = (struct sl_sched *)cs;
	s->nrows = 0;
	for (int c = 0; c < s->ncq; c++) {
		const struct sq_cq *q = &s->cq[c];
		const struct sq_node *n = &s->node[q->node];
		for (int g = 0; g < q->nrg; g++)
			for (int f = 0; f < q->rg[g].nfl; f++)
				for (int r = 0; r < q->rg[g].ncov; r++) {
					int fr = sq_fr(s, q->rg[g].fl[f], q->rg[g].cov[r]);
					if (fr == SQ_NONE)
						continue;
					s->rows = sl_xgrow(s->rows, &s->caprows, s->nrows + 1,
							   sizeof(*s->rows));
					struct sl_sched_usage *u = &s->rows[s->nrows++];
					u->cluster_queue = q->name;
					u->cohort = n->parent != SQ_NONE ? s->node[n->parent].name : NULL;
					u->flavor = s->flv[q->rg[g].fl[f]].name;
					u->resource = s->res[q->rg[g].cov[r]];
					const struct sq_cell *cell = sq_cell(s, q->node, fr);
					u->nominal = cell->q.nominal;
					u->borrowing_limit = cell->q.has_bl ? cell->q.bl : -1;
					u->lending_limit = cell->q.has_ll ? cell->q.ll : -1;
					u->used = cell->usage;
					u->borrowed = u->used > u->nominal ? u->used - u->nominal : 0;
					u->lent = lent_of(s, q->node, fr);
					u->pending_wl = (int64_t)(q->heap.n + q->ninadm);
					u->admitted_wl = (int64_t)q->nadm;
					u->inactive = q->inactive;
				}
	}
	*rows = s->rows;
	return s->nrows;
}

const char *sl_sched_preempt_reason_name(enum sl_sched_preempt_reason r)
{
	static const char *names[] = {"InClusterQueue", "InCohortReclamation", "InCohortFairSharing",
				      "InCohortReclaimWhileBorrowing", "ClusterQueueStopped",
				      "LocalQueueStopped"};
	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "Unknown";
}

const char *sl_sched_class_name(enum sl_sched_class c)
{
	static const char *names[] = {"None", "WaitingForQuota", "WaitingForPriority",
				      "WaitingForPreemption", "NeverFits", "QueueStopped",
				      "Inadmissible"};
	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "Unknown";
}
