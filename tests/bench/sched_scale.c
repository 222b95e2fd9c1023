/* sched_scale.c - the admission engine with 100 000 pending workloads across
 * 1 000 ClusterQueues (100 cohorts x 10 ClusterQueues): memory, time to add,
 * time per scheduling cycle and time to answer "why pending" for everyone.
 *
 * Each ClusterQueue has 4 cpu nominal quota and borrowingLimit 4, with the
 * baseline's preemption (reclaimWithinCohort Any, withinClusterQueue
 * LowerPriority), and 100 workloads of 1-3 cpu in three priorities, so only
 * about one in twenty can run and the rest stay pending. Phases:
 *   1. build the model, add every workload (timed, RSS before and after);
 *   2. fill: cycle from cold until a cycle changes nothing;
 *   3. steady state: N cycles, each after K random running workloads
 *      finish (the churn a busy site sees between two cycles);
 *   4. sl_sched_pending_info() for every workload, twice (the first pass
 *      may compute queue positions, the second should find them cached).
 * Preemption victims are requeued at once, as a daemon with no grace period
 * would. Options: --cqs N (multiple of 10), --per-cq N, --cycles N,
 * --finish K, --max-fill N (cap on the fill phase). */
#include <inttypes.h>
#include <sys/resource.h>
#include "xalloc.h"

#define BENCH_NAME "sched_scale"
#include "sched_bench.h"

#define CQ_PER_COHORT 10
#define NOMINAL_MILLI 4000
#define BORROW_MILLI 4000

static const int32_t prios[] = {50, 100, 200};

struct opts {
	int ncq, per_cq, cycles, finish, max_fill;
};

struct run {
	struct sl_sched *s;
	size_t nw;
	char (*cqname)[32];
	uint64_t *running;       /* ids of admitted workloads */
	size_t nrun;
	size_t *slot;            /* [id] index in running, or SIZE_MAX */
	uint64_t rng;
	long admissions, preemptions;
};

/* VmRSS and VmHWM in KiB from /proc/self/status, plus getrusage maxrss. */
static void print_mem(const char *when)
{
	long rss = -1, hwm = -1;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "VmRSS: %ld", &rss);
		sscanf(line, "VmHWM: %ld", &hwm);
	}
	if (f)
		fclose(f);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("memory %-15s VmRSS %.1f MiB, VmHWM %.1f MiB, ru_maxrss %.1f MiB\n", when,
	       (double)rss / 1024.0, (double)hwm / 1024.0, (double)ru.ru_maxrss / 1024.0);
}

static uint64_t rnd(struct run *r)
{
	r->rng ^= r->rng << 13;
	r->rng ^= r->rng >> 7;
	r->rng ^= r->rng << 17;
	return r->rng;
}

/* Round-robin over the ClusterQueues, so creation order interleaves them. */
static void add_all(struct run *r, const struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	for (int k = 0; k < o->per_cq; k++)
		for (int q = 0; q < o->ncq; q++) {
			uint64_t id = (uint64_t)k * (uint64_t)o->ncq + (uint64_t)q + 1;
			char name[64];
			snprintf(name, sizeof(name), "wl-%" PRIu64, id);
			struct sl_sched_req req = {"cpu", 1000 * (1 + (int64_t)(id % 3))};
			struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1,
						     .req = &req};
			struct sl_sched_wl wl = {.id = id, .name = name, .ns = r->cqname[q],
						 .queue = r->cqname[q],
						 .priority = prios[(id / 7) % 3],
						 .created = (int64_t)id, .npodsets = 1,
						 .podsets = &ps};
			if (sl_sched_add(r->s, &wl, &err) != 0)
				die("sl_sched_add: %s", err.msg);
		}
}

static void run_del(struct run *r, uint64_t id)
{
	size_t i = r->slot[id];
	if (i == SIZE_MAX)
		die("workload %" PRIu64 " is not running", id);
	r->running[i] = r->running[--r->nrun];
	r->slot[r->running[i]] = i;
	r->slot[id] = SIZE_MAX;
}

/* One cycle; returns its duration in seconds and what it changed. */
static double cycle(struct run *r, int64_t now, int *changed)
{
	struct sl_sched_decisions d = {0};
	double t0 = now_s();
	*changed = sl_sched_cycle(r->s, now, &d);
	double dt = now_s() - t0;
	for (size_t i = 0; i < d.nadmit; i++) {
		uint64_t id = d.admit[i].id;
		if (id == 0 || id > r->nw || r->slot[id] != SIZE_MAX)
			die("bad admission of workload %" PRIu64, id);
		r->slot[id] = r->nrun;
		r->running[r->nrun++] = id;
		r->admissions++;
	}
	for (size_t i = 0; i < d.npreempt; i++) {
		uint64_t id = d.preempt[i].victim;
		run_del(r, id);
		if (sl_sched_requeue(r->s, id) != 0)
			die("sl_sched_requeue(%" PRIu64 ") failed", id);
		r->preemptions++;
	}
	sl_sched_decisions_clear(&d);
	return dt;
}

/* Cycle from cold until nothing changes. A run that never gets there is
 * preemption flapping (or an engine bug): say so, and go on measuring. */
static void fill(struct run *r, const struct opts *o)
{
	double total = 0, max = 0;
	int n = 0, changed;
	do {
		double dt = cycle(r, 0, &changed);
		total += dt;
		max = dt > max ? dt : max;
	} while (changed > 0 && ++n < o->max_fill);
	printf("fill from cold         %d cycles, %.3f s (mean %.2f ms, max %.2f ms); "
	       "%zu running, %ld preemptions\n",
	       n, total, total / n * 1e3, max * 1e3, r->nrun, r->preemptions);
	if (changed > 0)
		printf("WARNING                no fixpoint after %d cycles: the engine keeps "
		       "changing its decisions (preemption flapping?)\n", n);
}

static void steady(struct run *r, const struct opts *o)
{
	double total = 0, max = 0, tfin = 0;
	long a0 = r->admissions, p0 = r->preemptions;
	for (int c = 0; c < o->cycles; c++) {
		double t0 = now_s();
		for (int k = 0; k < o->finish && r->nrun > 0; k++) {
			uint64_t id = r->running[rnd(r) % r->nrun];
			run_del(r, id);
			if (sl_sched_remove(r->s, id) != 0)
				die("sl_sched_remove(%" PRIu64 ") failed", id);
		}
		tfin += now_s() - t0;
		int changed;
		double dt = cycle(r, 1000 * (c + 1), &changed);
		total += dt;
		max = dt > max ? dt : max;
	}
	printf("steady cycles          %d, each after %d finish: mean %.2f ms, max %.2f ms; "
	       "%ld admitted, %ld preempted\n",
	       o->cycles, o->finish, total / o->cycles * 1e3, max * 1e3, r->admissions - a0,
	       r->preemptions - p0);
	printf("finishing              %.2f us per sl_sched_remove\n",
	       tfin / ((double)o->cycles * o->finish) * 1e6);
}

static void pending_info(struct run *r)
{
	for (int pass = 1; pass <= 2; pass++) {
		long pending = 0, waiting[8] = {0};
		double t0 = now_s();
		for (uint64_t id = 1; id <= r->nw; id++) {
			struct sl_sched_pending p;
			if (sl_sched_pending_info(r->s, id, &p) == 0 && !p.admitted) {
				pending++;
				waiting[(unsigned)p.cls & 7]++;
			}
		}
		double dt = now_s() - t0;
		printf("pending_info pass %d    %.3f s for %zu workloads (%.2f us each); "
		       "%ld pending: %ld quota, %ld priority, %ld other\n",
		       pass, dt, r->nw, dt / (double)r->nw * 1e6, pending,
		       waiting[SL_SCHED_WAIT_QUOTA], waiting[SL_SCHED_WAIT_PRIORITY],
		       pending - waiting[SL_SCHED_WAIT_QUOTA] - waiting[SL_SCHED_WAIT_PRIORITY]);
	}
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		int v = atoi(argv[i + 1]);
		if (strcmp(argv[i], "--cqs") == 0 && v >= CQ_PER_COHORT && v % CQ_PER_COHORT == 0)
			o->ncq = v;
		else if (strcmp(argv[i], "--per-cq") == 0 && v > 0)
			o->per_cq = v;
		else if (strcmp(argv[i], "--cycles") == 0 && v > 0)
			o->cycles = v;
		else if (strcmp(argv[i], "--finish") == 0 && v >= 0)
			o->finish = v;
		else if (strcmp(argv[i], "--max-fill") == 0 && v > 0)
			o->max_fill = v;
		else
			return -1;
	}
	return argc % 2 == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct opts o = {1000, 100, 50, 200, 1000};
	if (parse_opts(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: %s [--cqs N] [--per-cq N] [--cycles N] [--finish K] "
				"[--max-fill N]\n",
			argv[0]);
		return 2;
	}
	struct run r = {.rng = 88172645463325252ULL};
	r.nw = (size_t)o.ncq * (size_t)o.per_cq;
	r.cqname = sl_xcalloc((size_t)o.ncq, sizeof(*r.cqname));
	for (int q = 0; q < o.ncq; q++)
		snprintf(r.cqname[q], sizeof(r.cqname[q]), "cq-%d-cohort-%d", q % CQ_PER_COHORT,
			 q / CQ_PER_COHORT);
	r.running = sl_xcalloc(r.nw + 1, sizeof(*r.running));
	r.slot = sl_xcalloc(r.nw + 1, sizeof(*r.slot));
	memset(r.slot, 0xff, (r.nw + 1) * sizeof(*r.slot));
	printf("setup                  %d ClusterQueues in %d cohorts, %zu workloads\n", o.ncq,
	       o.ncq / CQ_PER_COHORT, r.nw);
	double t0 = now_s();
	r.s = build_engine("scale.yaml", r.cqname, o.ncq, CQ_PER_COHORT, NOMINAL_MILLI,
			   BORROW_MILLI);
	printf("build model            %.3f s\n", now_s() - t0);
	print_mem("after model");
	t0 = now_s();
	add_all(&r, &o);
	double dt = now_s() - t0;
	printf("add all                %.3f s (%.2f us per sl_sched_add)\n", dt,
	       dt / (double)r.nw * 1e6);
	print_mem("after add");
	fill(&r, &o);
	steady(&r, &o);
	pending_info(&r);
	print_mem("at end");
	t0 = now_s();
	sl_sched_free(r.s);
	printf("sl_sched_free          %.3f s\n", now_s() - t0);
	free(r.cqname);
	free(r.running);
	free(r.slot);
	return 0;
}
