/* sched_deep.c - one ClusterQueue with a deep queue (issue 16): how fast the
 * engine admits 50 000 pending workloads, and what one end costs when a
 * BestEffortFIFO queue holds tens of thousands of parked workloads.
 *
 * Phase 1, "drain": one ClusterQueue whose quota holds every workload
 * (1 cpu each); cycle from cold until nothing changes: admissions per CPU
 * second, and cycles used.
 * Phase 2, "deep": the same number of workloads of 1-8 cpu in three
 * priorities against 1 000 cpu; fill, then N times: one running workload
 * ends (sl_sched_remove), cycle until nothing changes. The time per end
 * is the cost of re-examining the parked workloads.
 * Options: --jobs N (50 000), --ends N (200), --strict (StrictFIFO),
 * --idle N (N more ClusterQueues without work, each cycle walks them). */
#include <inttypes.h>
#include "xalloc.h"

#define BENCH_NAME "sched_deep"
#include "sched_bench.h"

struct run {
	struct sl_sched *s;
	uint64_t *running;
	size_t nrun, nw;
	long admissions, cycles;
	uint64_t rng;
};

static int idle_cqs;

static struct sl_sched *engine(int64_t cpu, int strict)
{
	char *y = NULL;
	size_t len;
	FILE *f = open_memstream(&y, &len);
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *docs = NULL;
	struct sl_kueue *k = sl_kueue_new();
	if (!f)
		die("open_memstream");
	fprintf(f,
		 "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: rf}\n"
		 "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: deep}\n"
		 "spec:\n  namespaceSelector: {}\n  queueingStrategy: %s\n"
		 "  preemption: {withinClusterQueue: LowerPriority}\n"
		 "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
		 "    - name: rf\n      resources: [{name: cpu, nominalQuota: %" PRId64 "}]\n"
		 "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
		 "metadata: {name: q, namespace: ns}\nspec: {clusterQueue: deep}\n",
		 strict ? "StrictFIFO" : "BestEffortFIFO", cpu);
	for (int i = 0; i < idle_cqs; i++)
		fprintf(f, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
			   "metadata: {name: idle-%d}\nspec:\n  namespaceSelector: {}\n"
			   "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
			   "    - name: rf\n      resources: [{name: cpu, nominalQuota: 1}]\n"
			   "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
			   "metadata: {name: idle-%d, namespace: ns}\nspec: {clusterQueue: idle-%d}\n",
			i, i, i);
	fclose(f);
	if (sl_yaml_load_buf("deep.yaml", y, len, &docs, &err) != 0 ||
	    sl_kueue_add_docs(k, docs, &err) != 0)
		die("%s", err.msg);
	struct sl_sched *s = sl_sched_new(k);
	sl_kueue_free(k);
	sl_ydocs_free(docs);
	free(y);
	return s;
}

static void add(struct run *r, uint64_t id, int64_t milli, int32_t prio)
{
	struct sl_err err = SL_ERR_INIT;
	char name[32];
	snprintf(name, sizeof(name), "wl-%" PRIu64, id);
	struct sl_sched_req req = {"cpu", milli};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &req};
	struct sl_sched_wl wl = {.id = id, .name = name, .ns = "ns", .queue = "q",
				 .priority = prio, .created = (int64_t)id, .npodsets = 1,
				 .podsets = &ps};
	if (sl_sched_add(r->s, &wl, &err) != 0)
		die("sl_sched_add: %s", err.msg);
}

/* Cycle until nothing changes; returns CPU seconds in sl_sched_cycle. */
static double fixpoint(struct run *r, int64_t now)
{
	double t = 0;
	int changed;
	do {
		struct sl_sched_decisions d = {0};
		double t0 = now_s();
		changed = sl_sched_cycle(r->s, now, &d);
		t += now_s() - t0;
		r->cycles++;
		for (size_t i = 0; i < d.nadmit; i++) {
			r->running[r->nrun++] = d.admit[i].id;
			r->admissions++;
		}
		for (size_t i = 0; i < d.npreempt; i++) {
			uint64_t v = d.preempt[i].victim;
			for (size_t j = 0; j < r->nrun; j++)
				if (r->running[j] == v) {
					r->running[j] = r->running[--r->nrun];
					break;
				}
			if (sl_sched_requeue(r->s, v) != 0)
				die("sl_sched_requeue(%" PRIu64 ")", v);
		}
		sl_sched_decisions_clear(&d);
	} while (changed > 0);
	return t;
}

static void drain(int jobs, int strict)
{
	struct run r = {.s = engine(jobs, strict), .nw = (size_t)jobs};
	r.running = sl_xcalloc((size_t)jobs + 1, sizeof(uint64_t));
	for (int i = 1; i <= jobs; i++)
		add(&r, (uint64_t)i, 1000, 0);
	double t = fixpoint(&r, 0);
	if (r.admissions != jobs)
		die("drain admitted %ld of %d", r.admissions, jobs);
	printf("drain %-14s %d workloads, %d idle CQs: %.3f s in %ld calls, %.0f admissions/s\n",
	       strict ? "StrictFIFO" : "BestEffortFIFO", jobs, idle_cqs, t, r.cycles,
	       (double)r.admissions / t);
	sl_sched_free(r.s);
	free(r.running);
}

static void deep(int jobs, int ends, int strict)
{
	static const int32_t prios[] = {50, 100, 200};
	struct run r = {.s = engine(1000, strict), .nw = (size_t)jobs, .rng = 88172645463325252ULL};
	r.running = sl_xcalloc((size_t)jobs + 1, sizeof(uint64_t));
	for (int i = 1; i <= jobs; i++)
		add(&r, (uint64_t)i, 1000 * (1 + (i * 7919) % 8), prios[(i / 11) % 3]);
	double tf = fixpoint(&r, 0);
	long c0 = r.cycles, a0 = r.admissions;
	double te = 0;
	for (int e = 0; e < ends && r.nrun > 0; e++) {
		r.rng ^= r.rng << 13, r.rng ^= r.rng >> 7, r.rng ^= r.rng << 17;
		size_t i = r.rng % r.nrun;
		uint64_t id = r.running[i];
		r.running[i] = r.running[--r.nrun];
		double t0 = now_s();
		if (sl_sched_remove(r.s, id) != 0)
			die("sl_sched_remove(%" PRIu64 ")", id);
		te += now_s() - t0;
		te += fixpoint(&r, 1000 * (e + 1));
	}
	printf("deep %-15s %d workloads on 1 000 cpu: fill %.3f s (%ld admitted); "
	       "%d ends: %.3f ms per end, %.1f calls per end, %ld admitted\n",
	       strict ? "StrictFIFO" : "BestEffortFIFO", jobs, tf, a0, ends, te / ends * 1e3,
	       (double)(r.cycles - c0) / ends, r.admissions - a0);
	sl_sched_free(r.s);
	free(r.running);
}

int main(int argc, char **argv)
{
	int jobs = 50000, ends = 200, strict = 0;
	(void)build_engine; /* sched_bench.h's cohort model: not this one */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--ends") == 0 && i + 1 < argc)
			ends = atoi(argv[++i]);
		else if (strcmp(argv[i], "--idle") == 0 && i + 1 < argc)
			idle_cqs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--strict") == 0)
			strict = 1;
		else
			die("usage: sched_deep [--jobs N] [--ends N] [--idle N] [--strict]");
	}
	if (jobs < 1 || ends < 1)
		die("--jobs and --ends must be positive");
	drain(jobs, strict);
	deep(jobs, ends, strict);
	return 0;
}
