/* replay.c - a trace on simulated time through the real engine: each
 * submission becomes the workload sluiced would make of it (sl_job_workload
 * under the config), the engine cycles at every submission and end, and an
 * admitted job ends after its recorded run time (never past its limit). A
 * preempted job goes back to the queue and later runs in full again, as a
 * requeued Slurm job does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_int.h"
#include "conf.h"
#include "job.h"
#include "kueue.h"
#include "sched/sched.h"
#include "submit.h"
#include "workload.h"
#include "xalloc.h"

#define RP_MIB_MILLI (1048576LL * 1000)

struct rp_end {          /* a running job's end, in a min-heap */
	int64_t at;
	uint32_t job, gen;
};

/* What one trace job is, mapped once. */
struct rp_map {
	int32_t cq;           /* index into the run's ClusterQueues; -1 unmapped */
	int32_t lq;           /* index into the model's LocalQueues */
	int32_t remapped;
	struct sl_sched_req req[3];  /* per pod, borrowed resource names */
	int32_t nreq, pods;
};

struct rp_run {
	const struct sl_replay_trace *t;
	const struct sl_conf *conf;
	struct sl_replay *r;
	struct rp_map *map;
	uint32_t *order;          /* jobs by submission */
	struct rp_end *heap;
	size_t nheap, capheap;
	uint32_t *gen;            /* per job: bumps when a run is void */
	int64_t *start;           /* per job: current run's start, -1 none */
	size_t **held;            /* per job: the series (index) it holds, by req */
	const char **cqs;
	size_t ncqs;
	int64_t *fcfs_free;       /* FCFS: per CQ x resource, what is free */
	int64_t *fcfs_cap;        /* ... and its nominal quota */
};

static int64_t run_time(const struct sl_replay_job *j)
{
	int64_t rt = j->runtime < 0 ? 0 : j->runtime;
	return j->limit > 0 && rt > j->limit ? j->limit : rt;
}

static void heap_push(struct rp_run *x, struct rp_end e)
{
	if (x->nheap == x->capheap) {
		x->capheap = x->capheap ? 2 * x->capheap : 1024;
		x->heap = sl_xrealloc(x->heap, x->capheap * sizeof(*x->heap));
	}
	size_t i = x->nheap++;
	while (i > 0 && x->heap[(i - 1) / 2].at > e.at) {
		x->heap[i] = x->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	x->heap[i] = e;
}

static struct rp_end heap_pop(struct rp_run *x)
{
	struct rp_end top = x->heap[0], last = x->heap[--x->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= x->nheap)
			break;
		if (c + 1 < x->nheap && x->heap[c + 1].at < x->heap[c].at)
			c++;
		if (x->heap[c].at >= last.at)
			break;
		x->heap[i] = x->heap[c];
		i = c;
	}
	if (x->nheap)
		x->heap[i] = last;
	return top;
}

static int cmp_submit(const void *a, const void *b, void *arg)
{
	const struct sl_replay_trace *t = arg;
	const struct sl_replay_job *x = &t->jobs[*(const uint32_t *)a], *y = &t->jobs[*(const uint32_t *)b];
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static size_t cq_index(struct rp_run *x, const char *cq)
{
	for (size_t i = 0; i < x->ncqs; i++)
		if (strcmp(x->cqs[i], cq) == 0)
			return i;
	return (size_t)-1;
}

/* The job's spec as sbatch would have sent it: N nodes, its CPUs, memory
 * and GPUs spread evenly over them. */
static void job_of(const struct sl_replay_trace *t, const struct sl_replay_job *tj, uint64_t id,
		   const char *account, const char *partition, struct sl_job *j)
{
	memset(j, 0, sizeof(*j));
	sl_jobspec_init(&j->spec);
	j->id = id;
	j->user = t->names[tj->user];
	j->spec.account = (char *)account;
	j->spec.partition = (char *)partition;
	j->spec.nodes = tj->nodes;
	int per = (tj->cpus + tj->nodes - 1) / tj->nodes;
	j->spec.ntasks_per_node = per > 0 ? per : 1;
	j->spec.cpus_per_task = 1;
	if (tj->mem_mib > 0)
		j->spec.mem_per_node = (tj->mem_mib + tj->nodes - 1) / tj->nodes;
	if (tj->gpus > 0)
		j->spec.gpus_per_node = (tj->gpus + tj->nodes - 1) / tj->nodes;
}

static int has_lq(const struct sl_conf *conf, const char *account, const char *partition)
{
	char ns[SL_K8S_NAME_MAX], q[SL_K8S_NAME_MAX];
	if (!account || !partition || sl_conf_k8s_name(account, ns) != 0 ||
	    sl_conf_k8s_name(partition, q) != 0)
		return 0;
	return sl_kueue_find_lq(sl_conf_kueue(conf), ns, q) != NULL;
}

/* Map each job to a workload once. A trace from another site names
 * accounts and partitions this config may not have: such a job falls back
 * to the user's default account, then to the default partition, and is
 * counted as remapped; a job that maps to no LocalQueue even so is left
 * out and counted. */
static void map_jobs(struct rp_run *x, struct sl_sched *s)
{
	const struct sl_replay_trace *t = x->t;
	x->map = sl_xcalloc(t->n ? t->n : 1, sizeof(*x->map));
	for (size_t i = 0; i < t->n; i++) {
		const struct sl_replay_job *tj = &t->jobs[i];
		struct rp_map *m = &x->map[i];
		const char *acct = t->names[tj->account], *part = t->names[tj->partition];
		m->cq = -1;
		if (!has_lq(x->conf, acct, part)) {
			const char *const *own = sl_conf_accounts(x->conf, t->names[tj->user]);
			const char *dp = sl_conf_default_partition(x->conf);
			if (own && own[0] && has_lq(x->conf, own[0], part))
				acct = own[0];
			else if (dp && has_lq(x->conf, acct, dp))
				part = dp;
			else if (own && own[0] && dp && has_lq(x->conf, own[0], dp))
				acct = own[0], part = dp;
			else
				continue;
			m->remapped = 1;
		}
		struct sl_job j;
		struct sl_job_wl b;
		struct sl_err e = SL_ERR_INIT;
		job_of(t, tj, i + 1, acct, part, &j);
		if (sl_submit_workload(x->conf, &j, &b, &e) != 0 ||
		    sl_sched_check(s, &b.wl, &e) != 0)
			continue;
		const struct sl_kueue *k = sl_conf_kueue(x->conf);
		const struct sl_kq_lq *lq = sl_kueue_find_lq(k, b.ns, b.queue);
		size_t ci = lq ? cq_index(x, lq->cq) : (size_t)-1;
		if (ci == (size_t)-1)
			continue;
		m->cq = (int32_t)ci;
		m->lq = (int32_t)(lq - k->lqs);
		m->pods = b.ps.count;
		m->nreq = (int32_t)(b.ps.nreq < 3 ? b.ps.nreq : 3);
		for (int q = 0; q < m->nreq; q++)
			m->req[q] = b.ps.req[q];
		if (m->remapped)
			x->r->remapped++;
	}
}

static size_t series_find(struct sl_replay *r, const char *name)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (strcmp(r->series[i].name, name) == 0)
			return i;
	return (size_t)-1;
}

/* One series per resource (all flavors) and, under Kueue, per resource and
 * flavor, sized by the nominal quota of every ClusterQueue. */
static void make_series(struct rp_run *x, const struct sl_sched *s, int per_flavor)
{
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	for (int pass = 0; pass < 1 + 2 * per_flavor; pass++)
		for (size_t i = 0; i < n; i++) {
			char name[256];
			if (pass == 0)
				snprintf(name, sizeof(name), "%s", rows[i].resource);
			else if (pass == 1)
				snprintf(name, sizeof(name), "%s@%s", rows[i].resource, rows[i].flavor);
			else
				snprintf(name, sizeof(name), "%s#%s", rows[i].resource,
					 rows[i].cluster_queue);
			size_t k = series_find(x->r, name);
			if (k == (size_t)-1)
				k = rp_series_add(x->r, name, 0);
			x->r->series[k].capacity += rows[i].nominal;
		}
	for (size_t i = 0; i < n; i++)
		if (cq_index(x, rows[i].cluster_queue) == (size_t)-1) {
			x->cqs = sl_xrealloc(x->cqs, (x->ncqs + 1) * sizeof(*x->cqs));
			x->cqs[x->ncqs++] = rows[i].cluster_queue;
		}
}

#define RP_HELD 3 /* series one request counts in: resource, flavor, ClusterQueue */

static void hold(struct rp_run *x, uint32_t job, const char *resource, const char *flavor,
		 int64_t milli, int k)
{
	char name[256];
	size_t *h;
	if (!x->held[job])
		x->held[job] = sl_xcalloc(3 * RP_HELD, sizeof(size_t));
	h = &x->held[job][RP_HELD * k];
	h[0] = series_find(x->r, resource);
	h[1] = h[2] = (size_t)-1;
	if (flavor) {
		snprintf(name, sizeof(name), "%s@%s", resource, flavor);
		h[1] = series_find(x->r, name);
		snprintf(name, sizeof(name), "%s#%s", resource, x->cqs[x->map[job].cq]);
		h[2] = series_find(x->r, name);
	}
	for (int i = 0; i < RP_HELD; i++)
		if (h[i] != (size_t)-1)
			x->r->series[h[i]].level += milli;
}

static void release(struct rp_run *x, uint32_t job)
{
	const struct rp_map *m = &x->map[job];
	for (int k = 0; x->held[job] && k < m->nreq; k++) {
		int64_t milli = m->req[k].milli * m->pods;
		for (int h = 0; h < RP_HELD; h++) {
			size_t i = x->held[job][RP_HELD * k + h];
			if (i != (size_t)-1)
				x->r->series[i].level -= milli;
		}
	}
	free(x->held[job]);
	x->held[job] = NULL;
}

static void started(struct rp_run *x, uint32_t job, int64_t now)
{
	const struct sl_replay_job *tj = &x->t->jobs[job];
	x->start[job] = now;
	x->r->wait[job] = now - tj->submit;
	x->r->pending--;
	heap_push(x, (struct rp_end){now + run_time(tj), job, x->gen[job]});
}

static void admit(struct rp_run *x, const struct sl_sched_admission *a, int64_t now)
{
	uint32_t job = (uint32_t)(a->id - 1);
	struct rp_map *m = &x->map[job];
	if (a->ncounts > 0 && a->counts)
		m->pods = a->counts[0];
	for (int k = 0; k < m->nreq; k++) {
		const char *fl = NULL;
		for (size_t f = 0; f < a->n; f++)
			if (strcmp(a->flavors[f].resource, m->req[k].resource) == 0)
				fl = a->flavors[f].flavor;
		hold(x, job, m->req[k].resource, fl, m->req[k].milli * m->pods, k);
	}
	started(x, job, now);
}

static void submit(struct rp_run *x, struct sl_sched *s, uint32_t job)
{
	const struct sl_replay_job *tj = &x->t->jobs[job];
	const struct rp_map *m = &x->map[job];
	struct sl_err e = SL_ERR_INIT;
	struct sl_sched_podset ps = {.name = "main", .count = m->pods, .nreq = (size_t)m->nreq,
				     .req = m->req};
	const struct sl_kq_lq *lq = &sl_conf_kueue(x->conf)->lqs[m->lq];
	struct sl_sched_wl wl = {.id = job + 1, .name = "replay", .ns = lq->ns, .queue = lq->name,
				 .created = tj->submit, .npodsets = 1, .podsets = &ps};
	x->r->pending++;
	/* The limit lets the engine plan starts (backfill: true reads it). */
	if (sl_sched_add(s, &wl, &e) == 0)
		(void)sl_sched_set_time(s, wl.id, tj->limit > 0 ? tj->limit : 0, 0);
}

static void ended(struct rp_run *x, uint32_t job, int64_t now)
{
	release(x, job);
	x->start[job] = -1;
	if (now > x->r->last_end)
		x->r->last_end = now;
}

static void cycle(struct rp_run *x, struct sl_sched *s, int64_t now)
{
	struct sl_sched_decisions d = {0};
	for (int c = 0; c < 1000; c++) {
		int r = sl_sched_cycle(s, now, &d);
		for (size_t i = 0; i < d.nadmit; i++)
			admit(x, &d.admit[i], now);
		for (size_t i = 0; i < d.npreempt; i++) {
			uint32_t v = (uint32_t)(d.preempt[i].victim - 1);
			if (x->start[v] < 0)
				continue;
			/* Void the run: its heap entry no longer counts. */
			x->gen[v]++;
			release(x, v);
			x->start[v] = -1;
			x->r->wait[v] = -1;
			x->r->pending++;
			x->r->preemptions++;
			(void)sl_sched_requeue(s, d.preempt[i].victim);
		}
		sl_sched_decisions_clear(&d);
		if (r <= 0)
			break;
	}
}

/* FCFS: the head of the one queue starts when its partition's nominal
 * quota has room; nobody passes it. */
static int fcfs_fits(struct rp_run *x, uint32_t job, int take)
{
	const struct rp_map *m = &x->map[job];
	for (int pass = 0; pass < 1 + take; pass++)
		for (int k = 0; k < m->nreq; k++) {
			size_t ri = series_find(x->r, m->req[k].resource);
			int64_t *free_ = &x->fcfs_free[(size_t)m->cq * x->r->nseries + ri];
			int64_t need = m->req[k].milli * m->pods;
			if (pass == 0 && *free_ < need)
				return 0;
			if (pass == 1 && take)
				*free_ -= need;
		}
	return 1;
}

static int fcfs_beyond(struct rp_run *x, uint32_t job)
{
	const struct rp_map *m = &x->map[job];
	for (int k = 0; k < m->nreq; k++) {
		size_t ri = series_find(x->r, m->req[k].resource);
		if (x->fcfs_cap[(size_t)m->cq * x->r->nseries + ri] < m->req[k].milli * m->pods)
			return 1;
	}
	return 0;
}

static void fcfs_cycle(struct rp_run *x, size_t *head, size_t submitted, int64_t now)
{
	while (*head < submitted) {
		uint32_t job = x->order[*head];
		if (x->map[job].cq < 0) {
			(*head)++;
			continue;
		}
		if (!fcfs_fits(x, job, 0)) {
			/* Beyond its partition's whole quota it would block the
			 * queue for ever: it never starts, the rest go on. */
			if (fcfs_beyond(x, job)) {
				(*head)++;
				continue;
			}
			break;
		}
		(void)fcfs_fits(x, job, 1);
		const struct rp_map *m = &x->map[job];
		for (int k = 0; k < m->nreq; k++)
			hold(x, job, m->req[k].resource, NULL, m->req[k].milli * m->pods, k);
		started(x, job, now);
		(*head)++;
	}
}

static void fcfs_end(struct rp_run *x, uint32_t job)
{
	const struct rp_map *m = &x->map[job];
	for (int k = 0; k < m->nreq; k++) {
		size_t ri = series_find(x->r, m->req[k].resource);
		x->fcfs_free[(size_t)m->cq * x->r->nseries + ri] += m->req[k].milli * m->pods;
	}
}

static void fcfs_setup(struct rp_run *x, const struct sl_sched *s)
{
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(s, &rows);
	x->fcfs_free = sl_xcalloc(x->ncqs * x->r->nseries + 1, sizeof(*x->fcfs_free));
	for (size_t i = 0; i < n; i++) {
		size_t c = cq_index(x, rows[i].cluster_queue), ri = series_find(x->r, rows[i].resource);
		x->fcfs_free[c * x->r->nseries + ri] += rows[i].nominal;
	}
	x->fcfs_cap = sl_xmalloc((x->ncqs * x->r->nseries + 1) * sizeof(*x->fcfs_cap));
	memcpy(x->fcfs_cap, x->fcfs_free, (x->ncqs * x->r->nseries + 1) * sizeof(*x->fcfs_cap));
}

static void run_free(struct rp_run *x)
{
	for (size_t i = 0; x->held && i < x->t->n; i++)
		free(x->held[i]);
	free(x->held);
	free(x->map);
	free(x->order);
	free(x->heap);
	free(x->gen);
	free(x->start);
	free(x->cqs);
	free(x->fcfs_free);
	free(x->fcfs_cap);
}

int sl_replay_run(const struct sl_replay_trace *t, const struct sl_conf *conf,
		  enum sl_replay_policy policy, const char *label,
		  void (*progress)(size_t done, size_t total, void *arg), void *arg,
		  struct sl_replay **out, struct sl_err *err)
{
	struct rp_run x = {.t = t, .conf = conf};
	struct sl_sched *s = sl_sched_new(sl_conf_kueue(conf));
	size_t next = 0, head = 0, mapped = 0;
	int rc = 0;

	x.r = rp_result_new(t, label);
	make_series(&x, s, policy == SL_REPLAY_KUEUE);
	map_jobs(&x, s);
	x.order = sl_xmalloc((t->n ? t->n : 1) * sizeof(*x.order));
	x.gen = sl_xcalloc(t->n ? t->n : 1, sizeof(*x.gen));
	x.start = sl_xmalloc((t->n ? t->n : 1) * sizeof(*x.start));
	x.held = sl_xcalloc(t->n ? t->n : 1, sizeof(*x.held));
	for (size_t i = 0; i < t->n; i++) {
		x.order[i] = (uint32_t)i;
		x.start[i] = -1;
		mapped += x.map[i].cq >= 0;
	}
	if (t->n && mapped == 0) {
		rc = sl_err_set(err, SL_EINVAL,
				"no job of the trace maps to a partition of the config "
				"(first: partition %s, account %s)",
				t->names[t->jobs[0].partition], t->names[t->jobs[0].account]);
		goto out;
	}
	qsort_r(x.order, t->n, sizeof(*x.order), cmp_submit, (void *)t);
	if (policy == SL_REPLAY_FCFS)
		fcfs_setup(&x, s);

	while (next < t->n || x.nheap > 0) {
		int64_t now = next < t->n ? t->jobs[x.order[next]].submit : INT64_MAX;
		if (x.nheap > 0 && x.heap[0].at < now)
			now = x.heap[0].at;
		rp_advance(x.r, now);
		int changed = 0;
		while (x.nheap > 0 && x.heap[0].at <= now) {
			struct rp_end e = heap_pop(&x);
			if (e.gen != x.gen[e.job] || x.start[e.job] < 0)
				continue;
			if (policy == SL_REPLAY_FCFS)
				fcfs_end(&x, e.job);
			else
				(void)sl_sched_remove(s, e.job + 1);
			ended(&x, e.job, now);
			changed = 1;
		}
		while (next < t->n && t->jobs[x.order[next]].submit <= now) {
			uint32_t job = x.order[next++];
			if (x.map[job].cq < 0) {
				x.r->unmapped++;
				continue;
			}
			if (policy == SL_REPLAY_KUEUE)
				submit(&x, s, job);
			else
				x.r->pending++;
			changed = 1;
			if (progress && (next & 0x3fff) == 0)
				progress(next, t->n, arg);
		}
		if (!changed)
			continue;
		if (policy == SL_REPLAY_FCFS)
			fcfs_cycle(&x, &head, next, now);
		else
			cycle(&x, s, now);
	}
	if (progress)
		progress(t->n, t->n, arg);
	for (size_t i = 0; i < t->n; i++) {
		if (x.map[i].cq < 0)
			continue;
		if (x.r->wait[i] >= 0)
			x.r->started++;
		else
			x.r->never++;
	}
out:
	run_free(&x);
	sl_sched_free(s);
	if (rc) {
		sl_replay_free(x.r);
		return rc;
	}
	*out = x.r;
	return 0;
}
