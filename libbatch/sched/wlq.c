/* wlq.c - workloads and queues: the id table, one pending heap per
 * ClusterQueue (Kueue's queueOrderingFunc), the inadmissible set that
 * BestEffortFIFO parks failed heads in, and the moves between pending and
 * admitted that keep quota usage in step. */
#include <stdlib.h>
#include <string.h>
#include "sched_int.h"
#include "xalloc.h"

static struct sq_wl tomb_;
#define TOMB (&tomb_)

static size_t wt_hash(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

struct sq_wl *sq_wt_get(const struct sl_sched *s, uint64_t id)
{
	if (!s->wt.cap)
		return NULL;
	for (size_t i = wt_hash(id, s->wt.cap);; i = (i + 1) & (s->wt.cap - 1)) {
		struct sq_wl *w = s->wt.slot[i];
		if (!w)
			return NULL;
		if (w != TOMB && w->id == id)
			return w;
	}
}

static void wt_put(struct sl_sched *s, struct sq_wl *w)
{
	if ((s->wt.used + 1) * 2 > s->wt.cap) {
		struct sq_wtab old = s->wt;
		s->wt.cap = old.cap ? old.cap * 2 : 1024;
		while (s->wt.n * 4 > s->wt.cap)
			s->wt.cap *= 2;
		s->wt.slot = sl_xcalloc(s->wt.cap, sizeof(*s->wt.slot));
		s->wt.used = s->wt.n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.slot[i] && old.slot[i] != TOMB)
				wt_put(s, old.slot[i]);
		free(old.slot);
	}
	size_t i = wt_hash(w->id, s->wt.cap);
	while (s->wt.slot[i] && s->wt.slot[i] != TOMB)
		i = (i + 1) & (s->wt.cap - 1);
	if (!s->wt.slot[i])
		s->wt.used++;
	s->wt.slot[i] = w;
	s->wt.n++;
}

static void wt_del(struct sl_sched *s, uint64_t id)
{
	for (size_t i = wt_hash(id, s->wt.cap); s->wt.slot[i]; i = (i + 1) & (s->wt.cap - 1))
		if (s->wt.slot[i] != TOMB && s->wt.slot[i]->id == id) {
			s->wt.slot[i] = TOMB;
			s->wt.n--;
			return;
		}
}

static void sq_wl_free(struct sq_wl *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nps; i++) {
		struct sq_ps *p = &w->ps[i];
		free(p->name);
		free(p->res);
		free(p->total);
		free(p->flv);
		sq_kv_free(p->sel, (size_t)p->nsel);
		sq_tols_free(p->tol, (size_t)p->ntol);
		sq_tas_ps_free(p);
	}
	free(w->ps);
	free(w->name);
	free(w->ns);
	free(w->lqname);
	free(w->use_fr);
	free(w->use_q);
	free(w->last_tried);
	free(w->rv);
	free(w->msg);
	free(w);
}

static int seq_cmp(const void *a, const void *b)
{
	const struct sq_wl *x = *(struct sq_wl *const *)a, *y = *(struct sq_wl *const *)b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

size_t sq_wt_list(const struct sl_sched *s, struct sq_wl ***out)
{
	size_t n = 0;
	*out = sl_xcalloc(s->wt.n + 1, sizeof(**out));
	for (size_t i = 0; i < s->wt.cap; i++)
		if (s->wt.slot[i] && s->wt.slot[i] != TOMB)
			(*out)[n++] = s->wt.slot[i];
	qsort(*out, n, sizeof(**out), seq_cmp);
	return n;
}

void sq_wt_clear(struct sl_sched *s)
{
	for (size_t i = 0; i < s->wt.cap; i++)
		if (s->wt.slot[i] && s->wt.slot[i] != TOMB)
			sq_wl_free(s->wt.slot[i]);
	free(s->wt.slot);
	memset(&s->wt, 0, sizeof(s->wt));
}

/* queueOrderingFunc, inlined into the heap code (the hottest compare). */
static inline bool before(const struct sl_sched *s, const struct sq_cq *c,
			  const struct sq_wl *a, const struct sq_wl *b)
{
	if (c && s->afs_enable && c->afs && a->lq != b->lq) {
		double ua = sq_lq_afs_usage(s, a->lq), ub = sq_lq_afs_usage(s, b->lq);
		if (ua != ub)
			return ua < ub;
	}
	if (c && c->sticky && (a == c->sticky) != (b == c->sticky))
		return a == c->sticky;
	if (a->prio != b->prio)
		return a->prio > b->prio;
	if (a->created != b->created)
		return a->created < b->created;
	return a->seq < b->seq;
}

bool sq_wl_before(const struct sl_sched *s, const struct sq_cq *c,
		  const struct sq_wl *a, const struct sq_wl *b)
{
	return before(s, c, a, b);
}

static void heap_swap(struct sq_heap *h, size_t i, size_t j)
{
	struct sq_wl *t = h->v[i];
	h->v[i] = h->v[j];
	h->v[j] = t;
	h->v[i]->qidx = i;
	h->v[j]->qidx = j;
}

static void heap_up(struct sl_sched *s, struct sq_cq *c, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(s, c, c->heap.v[i], c->heap.v[p]))
			break;
		heap_swap(&c->heap, i, p);
		i = p;
	}
}

static void heap_down(struct sl_sched *s, struct sq_cq *c, size_t i)
{
	struct sq_heap *h = &c->heap;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && before(s, c, h->v[l], h->v[m]))
			m = l;
		if (r < h->n && before(s, c, h->v[r], h->v[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

void sq_heap_fix_all(struct sl_sched *s, struct sq_cq *c)
{
	for (size_t i = c->heap.n / 2 + 1; i-- > 0;)
		if (i < c->heap.n)
			heap_down(s, c, i);
}

void sq_heap_push(struct sl_sched *s, struct sq_cq *c, struct sq_wl *w)
{
	struct sq_heap *h = &c->heap;
	h->v = sl_xgrow(h->v, &h->cap, h->n + 1, sizeof(*h->v));
	h->v[h->n] = w;
	w->qidx = h->n++;
	w->where = SQ_W_HEAP;
	c->qgen++;
	heap_up(s, c, w->qidx);
}

static void heap_remove(struct sl_sched *s, struct sq_cq *c, size_t i)
{
	struct sq_heap *h = &c->heap;
	h->v[i]->where = SQ_W_NONE;
	h->n--;
	if (i != h->n) {
		h->v[i] = h->v[h->n];
		h->v[i]->qidx = i;
		heap_down(s, c, i);
		heap_up(s, c, h->v[i]->qidx);
	}
	c->qgen++;
}

struct sq_wl *sq_heap_pop(struct sl_sched *s, struct sq_cq *c)
{
	if (!c->heap.n)
		return NULL;
	struct sq_wl *w = c->heap.v[0];
	heap_remove(s, c, 0);
	return w;
}

static void vec_del(struct sq_wl **v, size_t *n, size_t i)
{
	(*n)--;
	if (i != *n) {
		v[i] = v[*n];
		v[i]->qidx = i;
	}
}

/* Take w out of whatever pending structure holds it. */
static void sq_unqueue(struct sl_sched *s, struct sq_wl *w)
{
	if (w->cq == SQ_NONE) {
		w->where = SQ_W_NONE;
		return;
	}
	struct sq_cq *c = &s->cq[w->cq];
	bool kept = (w->where == SQ_W_HEAP || w->where == SQ_W_INADM) && sq_pos_drop(c, w);
	if (w->where == SQ_W_HEAP)
		heap_remove(s, c, w->qidx);
	else if (w->where == SQ_W_INADM) {
		vec_del(c->inadm, &c->ninadm, w->qidx);
		sq_forget_shape(c, w);
		c->qgen++;
	}
	if (kept)
		c->posgen = c->qgen;
	w->where = SQ_W_NONE;
}

void sq_park(struct sl_sched *s, struct sq_cq *c, struct sq_wl *w)
{
	c->inadm = sl_xgrow(c->inadm, &c->capinadm, c->ninadm + 1, sizeof(*c->inadm));
	w->qidx = c->ninadm;
	c->inadm[c->ninadm++] = w;
	w->where = SQ_W_INADM;
	c->qgen++;
	s->tree_parked[sq_root(s, c->node)] = true;
}

/* Park every heap workload equivalent to rep at once, when there are so
 * many that popping them one by one (log n each) would cost more than a
 * filter and a re-heapify (n). Asked once per parked shape: counting the
 * heap again for each equivalent that surfaced made a deep queue of many
 * small shapes cost n per pop, n squared per requeue. Either way the same
 * workloads end up parked with the same status. */
static void park_bulk(struct sl_sched *s, struct sq_cq *c, struct sq_wl *rep)
{
	struct sq_heap *h = &c->heap;
	size_t m = 0, lg = 1, keep = 0;
	if (rep->bulk_tried)
		return;
	rep->bulk_tried = true;
	for (size_t i = 0; i < h->n; i++)
		m += h->v[i]->hash == rep->hash;
	while (((size_t)1 << lg) < h->n)
		lg++;
	if (m * lg < h->n)
		return;
	for (size_t i = 0; i < h->n; i++) {
		struct sq_wl *x = h->v[i];
		if (x->hash == rep->hash && x != c->sticky && sq_wl_equiv(x, rep)) {
			sq_status_copy(x, rep);
			x->where = SQ_W_NONE;
			sq_park(s, c, x);
			continue;
		}
		h->v[keep] = x;
		x->qidx = keep++;
	}
	h->n = keep;
	sq_heap_fix_all(s, c);
}

/* The next head of c to nominate; workloads of a parked shape met on the
 * way are parked with the status of the one that failed. */
struct sq_wl *sq_pop_head(struct sl_sched *s, struct sq_cq *c)
{
	struct sq_wl *w;
	while ((w = sq_heap_pop(s, c)) != NULL) {
		struct sq_wl *rep = c->nprep ? sq_parked_rep(c, w) : NULL;
		if (!rep)
			return w;
		sq_status_copy(w, rep);
		sq_park(s, c, w);
		park_bulk(s, c, rep);
	}
	return NULL;
}

/* Back to the heap: pushed one by one when few, else appended and
 * re-heapified (the comparator is a total order, so the shape of the heap
 * never changes what pops first). */
static void unpark_all(struct sl_sched *s, struct sq_cq *c)
{
	c->nprep = 0;
	if (!c->ninadm)
		return;
	struct sq_heap *h = &c->heap;
	bool batch = c->ninadm * 8 > h->n;
	h->v = sl_xgrow(h->v, &h->cap, h->n + c->ninadm, sizeof(*h->v));
	while (c->ninadm) {
		struct sq_wl *w = c->inadm[--c->ninadm];
		if (!batch) {
			sq_heap_push(s, c, w);
			continue;
		}
		h->v[h->n] = w;
		w->qidx = h->n++;
		w->where = SQ_W_HEAP;
	}
	if (batch)
		sq_heap_fix_all(s, c);
	c->qgen++;
}

/* QueueAssociatedInadmissibleWorkloadsAfter: the whole cohort tree.
 * Idempotent: a tree where nothing was parked since the last requeue is
 * left alone, so many finishes in a row cost one walk. */
static void sq_requeue_tree(struct sl_sched *s, int cq)
{
	int root = sq_root(s, s->cq[cq].node);
	s->tree_gen[root]++;
	if (!s->tree_parked[root])
		return;
	s->tree_parked[root] = false;
	for (int i = s->tree_first[root]; i != SQ_NONE; i = s->cq[i].next_in_tree)
		if (s->cq[i].ninadm || s->cq[i].nprep)
			unpark_all(s, &s->cq[i]);
}

/* A CQ that covers "pods" counts one per pod of every pod set. */
static void add_pods_request(struct sl_sched *s, struct sq_wl *w)
{
	int pods = sq_res_index(s, "pods", true);
	for (int i = 0; i < w->nps; i++) {
		struct sq_ps *p = &w->ps[i];
		bool has = false;
		for (int j = 0; j < p->nreq; j++)
			has = has || p->res[j] == pods;
		if (has)
			continue;
		p->res = sl_xrealloc(p->res, (size_t)(p->nreq + 2) * sizeof(int));
		p->total = sl_xrealloc(p->total, (size_t)(p->nreq + 2) * sizeof(int64_t));
		p->flv = sl_xrealloc(p->flv, (size_t)(p->nreq + 2) * sizeof(int));
		p->res[p->nreq] = pods;
		p->total[p->nreq] = (int64_t)p->count * 1000;
		p->flv[p->nreq++] = SQ_NONE;
	}
}

/* Put a pending workload where it belongs: its CQ heap, or nowhere with a
 * reason when its queue is missing or stopped. */
void sq_enqueue(struct sl_sched *s, struct sq_wl *w)
{
	w->lq = sq_lq_find(s, w->ns, w->lqname);
	w->cq = SQ_NONE;
	if (w->lq == SQ_NONE) {
		sq_set_status(w, SL_SCHED_INADMISSIBLE, "Misconfigured",
			      "LocalQueue %s doesn't exist", w->lqname);
		return;
	}
	struct sq_lq *l = &s->lq[w->lq];
	if (l->cq == SQ_NONE) {
		sq_set_status(w, SL_SCHED_INADMISSIBLE, "Misconfigured",
			      "ClusterQueue %s doesn't exist", l->cqname);
		return;
	}
	if (l->stop != SL_KSTOP_NONE) {
		sq_set_status(w, SL_SCHED_QUEUE_STOPPED, "Suspended",
			      "LocalQueue %s is inactive", l->name);
		return;
	}
	w->cq = l->cq;
	struct sq_cq *c = &s->cq[w->cq];
	if (c->covers_pods)
		add_pods_request(s, w);
	if (c->stop != SL_KSTOP_NONE)
		sq_set_status(w, SL_SCHED_QUEUE_STOPPED, "Suspended",
			      "ClusterQueue %s is inactive", c->name);
	else if (c->inactive) /* the why is the queue's (sl_sched_usage.inactive) */
		sq_set_status(w, SL_SCHED_INADMISSIBLE, "Suspended",
			      "ClusterQueue %s is inactive", c->name);
	/* only active queues park: nothing would requeue a stopped one's */
	else if (!c->strict_fifo && c->nprep && sq_parked_shape(c, w))
		sq_park(s, c, w);
	if (w->where != SQ_W_INADM)
		sq_heap_push(s, c, w);
}

static void adm_add(struct sq_cq *c, struct sq_wl *w)
{
	c->adm = sl_xgrow(c->adm, &c->capadm, c->nadm + 1, sizeof(*c->adm));
	w->qidx = c->nadm;
	c->adm[c->nadm++] = w;
}

/* Usage of an admitted workload per FR, from its pod sets' flavors. */
static void build_use(struct sl_sched *s, struct sq_wl *w)
{
	w->nuse = 0;
	size_t tot = 0;
	for (int i = 0; i < w->nps; i++)
		tot += (size_t)w->ps[i].nreq;
	free(w->use_fr);
	free(w->use_q);
	w->use_fr = sl_xcalloc(tot + 1, sizeof(int));
	w->use_q = sl_xcalloc(tot + 1, sizeof(int64_t));
	for (int i = 0; i < w->nps; i++)
		for (int j = 0; j < w->ps[i].nreq; j++) {
			int fr = sq_fr(s, w->ps[i].flv[j], w->ps[i].res[j]);
			if (fr == SQ_NONE)
				continue;
			int k = 0;
			while (k < w->nuse && w->use_fr[k] != fr)
				k++;
			if (k == w->nuse) {
				w->use_fr[w->nuse] = fr;
				w->use_q[w->nuse++] = 0;
			}
			w->use_q[k] += sq_ps_total(&w->ps[i], j, w->ps[i].adm_count);
		}
}

/* Re-attach an admitted workload after a model rebuild (reconfigure). */
void sq_readmit(struct sl_sched *s, struct sq_wl *w, int cq)
{
	w->where = SQ_W_ADMITTED;
	w->adm_cq = cq;
	if (cq == SQ_NONE)
		return;
	build_use(s, w);
	adm_add(&s->cq[cq], w);
	sq_wl_charge(s, w, +1);
}

void sq_set_admitted(struct sl_sched *s, struct sq_wl *w, int cq)
{
	sq_unqueue(s, w);
	if (s->cq[cq].sticky == w)
		s->cq[cq].sticky = NULL;
	w->evicting = false;
	w->admit_seq = ++s->admit_seq;
	w->start_ms = s->now_ms;
	w->est_ms = s->now_ms;
	w->backfilled = false;
	sq_readmit(s, w, cq);
	s->tree_gen[sq_root(s, s->cq[cq].node)]++;
	w->has_last = false;
	sq_set_status(w, SL_SCHED_NONE, NULL, NULL);
}

/* Give back the quota of an admitted workload; it is then nowhere. */
static void sq_release(struct sl_sched *s, struct sq_wl *w)
{
	if (w->where != SQ_W_ADMITTED)
		return;
	w->where = SQ_W_NONE;
	w->evicting = false;
	if (w->adm_cq == SQ_NONE)
		return;
	struct sq_cq *c = &s->cq[w->adm_cq];
	sq_wl_charge(s, w, -1);
	vec_del(c->adm, &c->nadm, w->qidx);
	sq_requeue_tree(s, w->adm_cq);
	/* nodes are shared across cohort trees: freed TAS capacity may admit any */
	for (int i = 0; s->tas_on && sq_tas_holds(w) && i < s->ncq; i++)
		sq_requeue_tree(s, i);
	w->adm_cq = SQ_NONE;
}

void sq_ps_constraints(struct sq_ps *d, const struct sl_sched_podset *p)
{
	d->nsel = (int)p->nsel;
	d->sel = sl_xcalloc(p->nsel + 1, sizeof(*d->sel));
	for (size_t j = 0; j < p->nsel; j++) {
		d->sel[j].key = sl_xstrdup(p->node_selector[j].key);
		d->sel[j].value = sl_xstrdup(p->node_selector[j].value ? p->node_selector[j].value : "");
	}
	d->ntol = (int)p->ntol;
	d->tol = sl_xcalloc(p->ntol + 1, sizeof(*d->tol));
	for (size_t j = 0; j < p->ntol; j++) {
		const struct sl_sched_toleration *t = &p->tolerations[j];
		d->tol[j].key = sl_xstrdup(t->key ? t->key : "");
		d->tol[j].op = sl_xstrdup(t->op ? t->op : "Equal");
		d->tol[j].value = sl_xstrdup(t->value ? t->value : "");
		d->tol[j].effect = sl_xstrdup(t->effect ? t->effect : "");
	}
}

static void copy_ps(struct sl_sched *s, struct sq_ps *d, const struct sl_sched_podset *p)
{
	d->name = sl_xstrdup(p->name ? p->name : "main");
	d->count = p->count;
	/* 0 or >= count: all or nothing, as without minCount */
	d->min_count = p->min_count > 0 && p->min_count < p->count ? p->min_count : p->count;
	d->adm_count = p->count;
	d->nreq = (int)p->nreq;
	d->res = sl_xcalloc(p->nreq + 1, sizeof(int));
	d->total = sl_xcalloc(p->nreq + 1, sizeof(int64_t));
	d->flv = sl_xcalloc(p->nreq + 1, sizeof(int));
	for (size_t j = 0; j < p->nreq; j++) {
		d->res[j] = sq_res_index(s, p->req[j].resource, true);
		d->total[j] = p->req[j].milli * (int64_t)p->count;
		d->flv[j] = SQ_NONE;
	}
	sq_ps_constraints(d, p);
	sq_tas_ps_copy(d, p);
}

int sl_sched_add(struct sl_sched *s, const struct sl_sched_wl *in, struct sl_err *err)
{
	if (sq_wt_get(s, in->id))
		return sl_err_set(err, SL_EEXIST, "workload %llu already exists",
				  (unsigned long long)in->id);
	struct sq_wl *w = sl_xcalloc(1, sizeof(*w));
	w->id = in->id;
	w->name = sl_xstrdup(in->name ? in->name : "");
	w->ns = sl_xstrdup(in->ns ? in->ns : "default");
	w->lqname = sl_xstrdup(in->queue ? in->queue : "");
	w->prio = in->priority;
	w->created = in->created;
	w->seq = ++s->seq;
	w->adm_cq = SQ_NONE;
	w->nps = (int)in->npodsets;
	w->ps = sl_xcalloc(in->npodsets + 1, sizeof(*w->ps));
	for (size_t i = 0; i < in->npodsets; i++) {
		copy_ps(s, &w->ps[i], &in->podsets[i]);
		w->partial = w->partial || w->ps[i].min_count < w->ps[i].count;
	}
	w->hash = sq_wl_hash(w);
	w->pos_cq = w->pos_lq = w->pos_grp = -1;
	w->est_ms = SL_SCHED_NEVER;
	wt_put(s, w);
	sq_enqueue(s, w);
	return 0;
}

int sl_sched_remove(struct sl_sched *s, uint64_t id)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w)
		return -SL_ENOENT;
	if (w->where == SQ_W_ADMITTED)
		sq_release(s, w);
	else
		sq_unqueue(s, w);
	for (int i = 0; i < s->ncq; i++)
		if (s->cq[i].sticky == w)
			s->cq[i].sticky = NULL;
	wt_del(s, id);
	sq_wl_free(w);
	return 0;
}

int sl_sched_requeue(struct sl_sched *s, uint64_t id)
{
	struct sq_wl *w = sq_wt_get(s, id);
	if (!w)
		return -SL_ENOENT;
	if (w->where != SQ_W_ADMITTED)
		return 0;
	sq_release(s, w);
	sq_set_status(w, SL_SCHED_WAIT_QUOTA, "Preempted", "The workload was evicted");
	sq_enqueue(s, w);
	return 0;
}
