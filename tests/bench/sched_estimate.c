/* sched_estimate.c - what start-time estimates (libbatch/sched/estimate.c)
 * and backfill (backfill.c) cost at 100 000 pending workloads (issue 16:
 * "cheap enough to keep current at 100,000 pending jobs").
 *
 * Three shapes, each with time limits drawn from a fixed seed:
 *   1. one ClusterQueue of 1 000 cpus, StrictFIFO, 1 000 running, 100 000
 *      pending of 1-8 cpus;
 *   2. the same under BestEffortFIFO (the plan looks ahead behind a
 *      blocked head);
 *   3. 100 ClusterQueues of 10 cpus in cohorts of 10, 1 000 pending each.
 * For each: a full plan from cold (sl_sched_estimate), a plan after one
 * workload finishes, and for shapes 1-2 a cycle with backfill on (the
 * cycle plus the plan and the backfill pass), then one more cycle with
 * nothing changed (the pass is skipped). Then a deep queue drains
 * (N / 5 pending, room for all), backfill off and on. It aborts unless
 * every estimate is at or after now and, under StrictFIFO, estimates
 * never decrease along the queue, and unless the drain admits them all.
 * Options: --pending N. */
#include <inttypes.h>
#include <stdbool.h>

#define BENCH_NAME "sched_estimate"
#include "sched_bench.h"

#define MIN 60000LL

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One ClusterQueue of cpus (StrictFIFO or not), else sched_bench.h's model. */
static struct sl_sched *engine(int ncq, int per_cohort, int cpus, bool strict)
{
	if (ncq == 1) {
		char y[1024];
		struct sl_err err = SL_ERR_INIT;
		struct sl_ydocs *docs = NULL;
		struct sl_kueue *k = sl_kueue_new();
		int n = snprintf(y, sizeof(y),
				 "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: rf}\n"
				 "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq0}\n"
				 "spec:\n  queueingStrategy: %s\n  namespaceSelector: {}\n  resourceGroups:\n"
				 "  - coveredResources: [cpu]\n    flavors:\n    - name: rf\n      resources:\n"
				 "      - {name: cpu, nominalQuota: %d}\n---\napiVersion: kueue.x-k8s.io/v1beta1\n"
				 "kind: LocalQueue\nmetadata: {name: cq0, namespace: cq0}\nspec: {clusterQueue: cq0}\n",
				 strict ? "StrictFIFO" : "BestEffortFIFO", cpus);
		if (sl_yaml_load_buf("bench.yaml", y, (size_t)n, &docs, &err) != 0 ||
		    sl_kueue_add_docs(k, docs, &err) != 0)
			die("%s", err.msg);
		struct sl_sched *s = sl_sched_new(k);
		sl_kueue_free(k);
		sl_ydocs_free(docs);
		return s;
	}
	char (*cq)[32] = calloc((size_t)ncq, 32);
	for (int i = 0; i < ncq; i++)
		snprintf(cq[i], 32, "cq%d", i);
	struct sl_sched *s = build_engine("bench.yaml", (const char (*)[32])cq, ncq, per_cohort,
					  cpus * 1000, 0);
	free(cq);
	return s;
}

static void add(struct sl_sched *s, uint64_t id, const char *q, int32_t cpus, int64_t created,
		int64_t lim)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_sched_req r = {"cpu", (int64_t)cpus * 1000};
	struct sl_sched_podset ps = {.name = "main", .count = 1, .nreq = 1, .req = &r};
	struct sl_sched_wl w = {.id = id, .name = "w", .ns = q, .queue = q, .created = created,
				.npodsets = 1, .podsets = &ps};
	if (sl_sched_add(s, &w, &err) != 0)
		die("add: %s", err.msg);
	sl_sched_set_time(s, id, lim, 0);
}

static double plan(struct sl_sched *s, int64_t now, size_t *placed)
{
	double t0 = now_s();
	*placed = sl_sched_estimate(s, now);
	return now_s() - t0;
}

static void check(struct sl_sched *s, uint64_t first, uint64_t last, int64_t now, bool mono)
{
	int64_t prev = now;
	for (uint64_t id = first; id <= last; id++) {
		int64_t t;
		if (sl_sched_start_estimate(s, id, &t) != 0)
			continue;            /* admitted by a backfill cycle and gone */
		if (t < now)
			die("workload %" PRIu64 ": estimate %" PRId64 " before now", id, t);
		if (mono && t < prev && t != now)
			die("workload %" PRIu64 ": estimate %" PRId64 " before the one ahead (%" PRId64 ")",
			    id, t, prev);
		prev = t;
	}
}

/* ncq queues; running fills each; npend pending spread over them. */
static void shape(const char *what, int ncq, int per_cohort, int cpus, bool strict, int npend,
		  bool backfill)
{
	struct sl_sched *s = engine(ncq, per_cohort, cpus, strict);
	struct sl_sched_decisions d = {0};
	char q[32];
	uint64_t id = 0;
	for (int i = 0; i < ncq; i++)
		for (int k = 0; k < cpus; k++) {
			snprintf(q, sizeof(q), "cq%d", i);
			id++;
			add(s, id, q, 1, (int64_t)id, (int64_t)(1 + rnd() % 60) * MIN);
		}
	sl_sched_run_to_fixpoint(s, 0, 1 << 20, &d);
	if (d.nadmit != id)
		die("%s: %zu of %" PRIu64 " running", what, d.nadmit, id);
	sl_sched_decisions_clear(&d);
	uint64_t first = id + 1;
	for (int k = 0; k < npend; k++) {
		snprintf(q, sizeof(q), "cq%d", k % ncq);
		id++;
		add(s, id, q, (int32_t)(1 + rnd() % 8), (int64_t)id, (int64_t)(1 + rnd() % 120) * MIN);
	}
	size_t placed;
	double cold = plan(s, MIN, &placed);
	if (ncq == 1)
		check(s, first, id, MIN, strict);
	sl_sched_remove(s, 1);
	size_t placed2;
	double warm = plan(s, MIN, &placed2);
	printf("%-44s plan %6.3f s (%zu of %d planned), again after a finish %6.3f s\n", what, cold,
	       placed, npend, warm);
	if (backfill) {
		sl_sched_set_backfill(s, 1);
		double t0 = now_s();
		sl_sched_cycle(s, 2 * MIN, &d);
		double c = now_s() - t0;
		sl_sched_decisions_clear(&d);
		t0 = now_s();
		sl_sched_cycle(s, 2 * MIN + 1, &d);
		sl_sched_cycle(s, 2 * MIN + 2, &d);
		double c2 = (now_s() - t0) / 2;
		printf("%-44s cycle with backfill %6.3f s: %zu admitted; the next (nothing changed) %6.4f s\n",
		       "", c, d.nadmit, c2);
		sl_sched_decisions_clear(&d);
	}
	sl_sched_free(s);
}

/* A deep queue drains: n pending, room for all, one admission a cycle.
 * With backfill on, no plan may be made per cycle while nothing is
 * blocked (backfill.c has_blocked): it must cost what it costs without. */
static void drain(int n, bool backfill)
{
	struct sl_sched *s = engine(1, 1, n, true);
	struct sl_sched_decisions d = {0};
	for (int k = 1; k <= n; k++)
		add(s, (uint64_t)k, "cq0", 1, k, 60 * MIN);
	sl_sched_set_backfill(s, backfill);
	double t0 = now_s();
	int cycles = sl_sched_run_to_fixpoint(s, 0, 4 * n, &d);
	double t = now_s() - t0;
	if (d.nadmit != (size_t)n)
		die("drain: %zu of %d admitted", d.nadmit, n);
	printf("drain %d, StrictFIFO, backfill %-3s     %d cycles, %6.3f s (%.0f admissions/s)\n", n,
	       backfill ? "on" : "off", cycles, t, n / t);
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
}

int main(int argc, char **argv)
{
	int npend = 100000;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--pending") == 0 && i + 1 < argc)
			npend = atoi(argv[++i]);
		else
			die("usage: sched_estimate [--pending N]");
	shape("1 CQ x 1000 cpus, StrictFIFO", 1, 1, 1000, true, npend, true);
	shape("1 CQ x 1000 cpus, BestEffortFIFO", 1, 1, 1000, false, npend, true);
	shape("100 CQs x 10 cpus, cohorts of 10", 100, 10, 10, false, npend, false);
	drain(npend / 5, false);
	drain(npend / 5, true);
	return 0;
}
