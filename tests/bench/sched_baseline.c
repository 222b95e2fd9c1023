/* sched_baseline.c - Kueue's scheduler performance "baseline" test
 * (test/performance/scheduler/configs/baseline/generator.yaml) replayed on
 * the admission engine alone, on simulated time.
 *
 * 5 cohorts x 6 ClusterQueues, 20 cpu nominal quota and borrowingLimit 100
 * each, reclaimWithinCohort Any, withinClusterQueue LowerPriority, one
 * LocalQueue per ClusterQueue. Per ClusterQueue three workload classes
 * (small/medium/large) arrive on fixed intervals: 15 000 workloads.
 *
 * Discrete-event simulation: at every instant where something happens
 * (arrivals, finishes) the engine is cycled until a cycle decides nothing.
 * Simulation choices (state them when quoting figures):
 * - the k-th workload of a class (k from 0) arrives at (k+1) * interval,
 *   like Kueue's generator, which sleeps one interval before each creation;
 * - a preempted victim stops at once (no grace period) and is requeued
 *   with its original creation time; when re-admitted it runs its full
 *   runtime again (Kueue's runner restarts the job as well);
 * - "time to admission" is reported both to the first admission and to the
 *   last one (Kueue's recorder keeps the last).
 * Invariants are checked after every cycle and the run aborts on a
 * violation: no ClusterQueue above nominal + borrowingLimit, no cohort above
 * the sum of its members' nominal quota, and the engine's usage rows agree
 * with the usage implied by its own decisions. */
#include <inttypes.h>
#include <sys/resource.h>
#include "xalloc.h"

#define BENCH_NAME "sched_baseline"
#include "sched_bench.h"

#define NCOHORTS 5
#define NCQ_PER_COHORT 6
#define NCQ (NCOHORTS * NCQ_PER_COHORT)
#define NOMINAL_MILLI 20000
#define BORROW_MILLI 100000
#define MAX_CYCLES_PER_INSTANT 100000

static const struct wclass {
	const char *name;
	int count;               /* per ClusterQueue */
	int64_t interval_ms, runtime_ms;
	int32_t priority;
	int64_t cpu_milli;
} classes[] = {
	{"small", 350, 100, 200, 50, 1000},
	{"medium", 100, 500, 500, 100, 5000},
	{"large", 50, 1200, 1000, 200, 20000},
};
#define NCLASS (sizeof(classes) / sizeof(classes[0]))

enum wstate { W_FUTURE, W_PENDING, W_RUNNING, W_DONE };

struct bwl {
	int cq, cls;
	int64_t arrive, first_admit, last_admit;
	uint32_t gen;            /* bumps on preemption: stale finish events */
	int evictions;
	enum wstate st;
	char name[48];
};

struct event {                   /* a finish event */
	int64_t t;
	uint32_t idx, gen;
};

struct sim {
	struct sl_sched *s;
	struct bwl *w;
	size_t nw;
	uint32_t *order;         /* arrival order */
	size_t next_arrival;
	struct event *heap;
	size_t nheap, capheap;
	int64_t now, last_t;
	int64_t used[NCQ];       /* cpu milli per CQ, from decisions */
	double used_ms[NCQ];     /* integral of used over time (milli x ms) */
	int64_t peak_cohort[NCOHORTS];
	long cycles, busy_cycles, admissions, preemptions, finished;
	double cycle_s, max_cycle_s;
	int check;
	char lq[NCQ][32];
	const char *ns[NCQ];
};

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int arrival_cmp(const void *a, const void *b, void *ctx)
{
	const struct bwl *w = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (w[x].arrive != w[y].arrive)
		return w[x].arrive < w[y].arrive ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void gen_workloads(struct sim *m)
{
	size_t per_cq = 0;
	for (size_t c = 0; c < NCLASS; c++)
		per_cq += (size_t)classes[c].count;
	m->nw = per_cq * NCQ;
	m->w = sl_xcalloc(m->nw, sizeof(*m->w));
	m->order = sl_xcalloc(m->nw, sizeof(*m->order));
	size_t i = 0;
	for (int q = 0; q < NCQ; q++) {
		snprintf(m->lq[q], sizeof(m->lq[q]), "cq-0-%d-cohort-%d", q % NCQ_PER_COHORT,
			 q / NCQ_PER_COHORT);
		m->ns[q] = m->lq[q];
		for (size_t c = 0; c < NCLASS; c++)
			for (int k = 0; k < classes[c].count; k++, i++) {
				struct bwl *w = &m->w[i];
				w->cq = q;
				w->cls = (int)c;
				w->arrive = (k + 1) * classes[c].interval_ms;
				w->first_admit = w->last_admit = -1;
				snprintf(w->name, sizeof(w->name), "%s-%d-%d-%s", classes[c].name,
					 (int)c, k, m->lq[q]);
				m->order[i] = (uint32_t)i;
			}
	}
	qsort_r(m->order, m->nw, sizeof(*m->order), arrival_cmp, m->w);
}

static void heap_push(struct sim *m, struct event e)
{
	m->heap = sl_xgrow(m->heap, &m->capheap, m->nheap + 1, sizeof(*m->heap));
	size_t i = m->nheap++;
	while (i > 0 && m->heap[(i - 1) / 2].t > e.t) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static struct event heap_pop(struct sim *m)
{
	struct event top = m->heap[0], last = m->heap[--m->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= m->nheap)
			break;
		if (c + 1 < m->nheap && m->heap[c + 1].t < m->heap[c].t)
			c++;
		if (m->heap[c].t >= last.t)
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (m->nheap > 0)
		m->heap[i] = last;
	return top;
}

/* Abort unless quota and the engine's books agree with the decisions. */
static void check_invariants(struct sim *m)
{
	int64_t cohort[NCOHORTS] = {0};
	for (int q = 0; q < NCQ; q++) {
		if (m->used[q] > NOMINAL_MILLI + BORROW_MILLI || m->used[q] < 0)
			die("invariant: ClusterQueue %s over nominal + borrowingLimit", m->lq[q]);
		cohort[q / NCQ_PER_COHORT] += m->used[q];
	}
	for (int c = 0; c < NCOHORTS; c++) {
		if (cohort[c] > (int64_t)NCQ_PER_COHORT * NOMINAL_MILLI)
			die("invariant: cohort usage over cohort capacity");
		if (cohort[c] > m->peak_cohort[c])
			m->peak_cohort[c] = cohort[c];
	}
	if (!m->check)
		return;
	const struct sl_sched_usage *rows;
	size_t n = sl_sched_usage(m->s, &rows);
	if (n != NCQ)
		die("invariant: expected one usage row per ClusterQueue");
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].cluster_queue, m->lq[i]) != 0 || rows[i].used != m->used[i])
			die("invariant: engine usage of %s disagrees with its decisions",
			    rows[i].cluster_queue);
}

static void on_admit(struct sim *m, const struct sl_sched_admission *a)
{
	if (a->id == 0 || a->id > m->nw)
		die("admission of an unknown workload");
	struct bwl *w = &m->w[a->id - 1];
	if (w->st != W_PENDING)
		die("admission of %s, which is not pending", w->name);
	if (strcmp(a->cluster_queue, m->lq[w->cq]) != 0)
		die("%s admitted in ClusterQueue %s", w->name, a->cluster_queue);
	w->st = W_RUNNING;
	if (w->first_admit < 0)
		w->first_admit = m->now;
	w->last_admit = m->now;
	m->used[w->cq] += classes[w->cls].cpu_milli;
	m->admissions++;
	heap_push(m, (struct event){m->now + classes[w->cls].runtime_ms, (uint32_t)(a->id - 1),
				    w->gen});
}

static void on_preempt(struct sim *m, const struct sl_sched_preemption *p)
{
	if (p->victim == 0 || p->victim > m->nw)
		die("preemption of an unknown workload");
	struct bwl *w = &m->w[p->victim - 1];
	if (w->st != W_RUNNING)
		die("preemption of %s, which is not running", w->name);
	if (sl_sched_requeue(m->s, p->victim) != 0)
		die("sl_sched_requeue(%s) failed", w->name);
	w->st = W_PENDING;
	w->gen++;
	w->evictions++;
	m->used[w->cq] -= classes[w->cls].cpu_milli;
	m->preemptions++;
}

/* Cycle until a cycle decides nothing. */
static void settle(struct sim *m)
{
	for (int i = 0;; i++) {
		if (i == MAX_CYCLES_PER_INSTANT)
			die("no fixpoint after many cycles: livelock?");
		struct sl_sched_decisions d = {0};
		double t0 = now_s();
		int n = sl_sched_cycle(m->s, m->now, &d);
		double dt = now_s() - t0;
		m->cycle_s += dt;
		if (dt > m->max_cycle_s)
			m->max_cycle_s = dt;
		m->cycles++;
		if (d.nadmit + d.npreempt > 0)
			m->busy_cycles++;
		for (size_t j = 0; j < d.nadmit; j++)
			on_admit(m, &d.admit[j]);
		check_invariants(m);
		for (size_t j = 0; j < d.npreempt; j++)
			on_preempt(m, &d.preempt[j]);
		sl_sched_decisions_clear(&d);
		if (n <= 0)
			break;
	}
}

static void add_workload(struct sim *m, uint32_t i)
{
	struct bwl *w = &m->w[i];
	const struct wclass *c = &classes[w->cls];
	struct sl_sched_req req = {"cpu", c->cpu_milli};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &req};
	struct sl_sched_wl wl = {.id = i + 1, .name = w->name, .ns = m->ns[w->cq],
				 .queue = m->lq[w->cq], .priority = c->priority,
				 .created = w->arrive, .npodsets = 1, .podsets = &ps};
	struct sl_err err = SL_ERR_INIT;
	if (sl_sched_add(m->s, &wl, &err) != 0)
		die("sl_sched_add: %s", err.msg);
	w->st = W_PENDING;
}

/* Advance the clock to t, integrating usage over the gap. */
static void advance(struct sim *m, int64_t t)
{
	for (int q = 0; q < NCQ; q++)
		m->used_ms[q] += (double)m->used[q] * (double)(t - m->last_t);
	m->now = m->last_t = t;
}

static void run(struct sim *m)
{
	while (m->next_arrival < m->nw || m->nheap > 0) {
		int64_t t = INT64_MAX;
		if (m->next_arrival < m->nw)
			t = m->w[m->order[m->next_arrival]].arrive;
		if (m->nheap > 0 && m->heap[0].t < t)
			t = m->heap[0].t;
		advance(m, t);
		while (m->nheap > 0 && m->heap[0].t == t) {
			struct event e = heap_pop(m);
			struct bwl *w = &m->w[e.idx];
			if (e.gen != w->gen)
				continue; /* preempted since */
			if (sl_sched_remove(m->s, e.idx + 1) != 0)
				die("sl_sched_remove(%s) failed", w->name);
			w->st = W_DONE;
			m->used[w->cq] -= classes[w->cls].cpu_milli;
			m->finished++;
		}
		while (m->next_arrival < m->nw && m->w[m->order[m->next_arrival]].arrive == t)
			add_workload(m, m->order[m->next_arrival++]);
		settle(m);
	}
}

static void report(const struct sim *m, double cpu, double wall)
{
	double makespan = (double)m->now / 1000.0;
	double sum = 0, bound = 0;
	for (int q = 0; q < NCQ; q++)
		sum += m->used_ms[q];
	for (size_t i = 0; i < m->nw; i++)
		bound += (double)classes[m->w[i].cls].cpu_milli *
			 (double)classes[m->w[i].cls].runtime_ms;
	bound /= (double)NCQ * NOMINAL_MILLI * 1000.0;
	printf("workloads             %zu (finished %ld)\n", m->nw, m->finished);
	printf("cpu seconds           %.3f (wall %.3f, in sl_sched_cycle %.3f)\n", cpu, wall,
	       m->cycle_s);
	printf("admissions            %ld (%.0f per cpu second)\n", m->admissions,
	       (double)m->admissions / cpu);
	printf("preemptions           %ld\n", m->preemptions);
	printf("cycles                %ld, %ld of them admitting or preempting "
	       "(mean %.1f us, max %.1f us)\n",
	       m->cycles, m->busy_cycles, m->cycle_s / (double)m->cycles * 1e6,
	       m->max_cycle_s * 1e6);
	printf("makespan              %.1f s simulated (quota bound %.1f s: %.2fx; Kueue 351 s)\n",
	       makespan, bound, makespan / bound);
	printf("mean CQ utilisation   %.1f %% (used cpu / 20 nominal, over the makespan)\n",
	       100.0 * sum / ((double)NCQ * NOMINAL_MILLI * (double)m->now));
	for (size_t c = 0; c < NCLASS; c++) {
		double first = 0, last = 0;
		long n = 0, ev = 0;
		for (size_t i = 0; i < m->nw; i++)
			if (m->w[i].cls == (int)c) {
				first += (double)(m->w[i].first_admit - m->w[i].arrive);
				last += (double)(m->w[i].last_admit - m->w[i].arrive);
				ev += m->w[i].evictions;
				n++;
			}
		printf("time to admission     %-6s mean %.2f s to first, %.2f s to last "
		       "admission; %ld evictions\n",
		       classes[c].name, first / (double)n / 1000.0, last / (double)n / 1000.0, ev);
	}
	int64_t peak = 0;
	for (int c = 0; c < NCOHORTS; c++)
		peak = m->peak_cohort[c] > peak ? m->peak_cohort[c] : peak;
	printf("peak cohort usage     %.0f cpu of %d\n", (double)peak / 1000.0,
	       NCQ_PER_COHORT * NOMINAL_MILLI / 1000);
}

int main(int argc, char **argv)
{
	struct sim m = {.check = 1};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-check") == 0) {
			m.check = 0;
		} else {
			fprintf(stderr, "usage: %s [--no-check]\n"
					"  --no-check  skip comparing the engine's usage rows after "
					"every cycle\n", argv[0]);
			return 2;
		}
	}
	struct timespec ws, we;
	clock_gettime(CLOCK_MONOTONIC, &ws);
	double c0 = cpu_s();
	gen_workloads(&m); /* names the ClusterQueues */
	m.s = build_engine("baseline.yaml", m.lq, NCQ, NCQ_PER_COHORT, NOMINAL_MILLI, BORROW_MILLI);
	run(&m);
	double cpu = cpu_s() - c0;
	clock_gettime(CLOCK_MONOTONIC, &we);
	double wall = (double)(we.tv_sec - ws.tv_sec) + (double)(we.tv_nsec - ws.tv_nsec) / 1e9;
	for (size_t i = 0; i < m.nw; i++)
		if (m.w[i].st != W_DONE)
			die("workload %s never finished", m.w[i].name);
	report(&m, cpu, wall);
	sl_sched_free(m.s);
	free(m.w);
	free(m.order);
	free(m.heap);
	return 0;
}
