/* sched_tas.c - Kueue's TAS scheduler performance test
 * (test/performance/scheduler/configs/tas/generator.yaml) on the admission
 * engine alone, on simulated time: 15 000 workloads on 640 nodes.
 *
 * The topology is 1 block x 10 racks x 64 hosts of 96 cpu; the flavor
 * tas-flavor has it. 5 cohorts x 6 ClusterQueues as in the baseline (cpu
 * nominal 20, borrowingLimit 100, reclaimWithinCohort Any,
 * withinClusterQueue LowerPriority). Per ClusterQueue nine classes: small
 * (2 pods x 500m), medium (4 x 1250m) and large (8 x 2500m), each required
 * rack, preferred rack, or "balanced" (Kueue's generator: slice-required
 * rack with slice size 1, 2, 4).
 * Simulation as sched_baseline.c: the k-th workload of a class arrives at
 * (k+1) x interval; at every instant with arrivals or finishes the engine
 * cycles until nothing changes; a victim stops at once and is requeued,
 * and runs its full runtime again.
 * After every instant it aborts unless every host holds at most its cpu
 * (the sum of the running workloads' topology assignments, read back with
 * sl_sched_topology) and every required pod set sits in one rack. */
#include <inttypes.h>
#include "xalloc.h"

#define BENCH_NAME "sched_tas"
#include "sched_bench.h"

#define NCQ 30
#define RACKS 10
#define HOSTS 64
#define NODES (RACKS * HOSTS)
#define NODE_CPU 96000
#define RACK_LABEL "cloud.provider.com/topology-rack"

static const struct tclass {
	const char *name;
	int count;
	int64_t interval_ms, runtime_ms;
	int32_t priority, pods;
	int64_t cpu_milli;       /* per pod */
	enum sl_sched_topo_mode mode;
	int32_t slice;           /* > 0: slice-required rack of that size */
} cls[] = {
	{"small-required-rack", 120, 100, 200, 50, 2, 500, SL_TOPO_REQUIRED, 0},
	{"small-preferred-rack", 120, 100, 200, 50, 2, 500, SL_TOPO_PREFERRED, 0},
	{"small-balanced-rack", 110, 100, 200, 50, 2, 500, SL_TOPO_NONE, 1},
	{"medium-required-rack", 34, 500, 500, 100, 4, 1250, SL_TOPO_REQUIRED, 0},
	{"medium-preferred-rack", 33, 500, 500, 100, 4, 1250, SL_TOPO_PREFERRED, 0},
	{"medium-balanced-rack", 33, 500, 500, 100, 4, 1250, SL_TOPO_NONE, 2},
	{"large-required-rack", 17, 1200, 1000, 200, 8, 2500, SL_TOPO_REQUIRED, 0},
	{"large-preferred-rack", 17, 1200, 1000, 200, 8, 2500, SL_TOPO_PREFERRED, 0},
	{"large-balanced-rack", 16, 1200, 1000, 200, 8, 2500, SL_TOPO_NONE, 4},
};
#define NCLS (sizeof(cls) / sizeof(cls[0]))

struct twl {
	int cq, c, running;
	int64_t arrive, admitted_at;
	uint32_t gen;
};

struct fin {
	int64_t t;
	uint32_t i, gen;
};

static struct twl *w;
static size_t nw;
static struct fin *heap;
static size_t nheap, capheap;
static char lq[NCQ][32];
static struct sl_sched_topo_req treq[NCLS];
static struct sl_sched_req creq[NCLS];
static long admissions, preemptions, cycles, instants;
static double cycle_s;
static double wait_ms[NCLS];
static long nadmit[NCLS];

static void push(struct fin f)
{
	heap = sl_xgrow(heap, &capheap, nheap + 1, sizeof(*heap));
	size_t i = nheap++;
	for (; i > 0 && heap[(i - 1) / 2].t > f.t; i = (i - 1) / 2)
		heap[i] = heap[(i - 1) / 2];
	heap[i] = f;
}

static struct fin pop(void)
{
	struct fin top = heap[0], last = heap[--nheap];
	size_t i = 0;
	for (;;) {
		size_t k = 2 * i + 1;
		if (k >= nheap)
			break;
		if (k + 1 < nheap && heap[k + 1].t < heap[k].t)
			k++;
		if (heap[k].t >= last.t)
			break;
		heap[i] = heap[k];
		i = k;
	}
	if (nheap)
		heap[i] = last;
	return top;
}

static struct sl_sched *engine(void)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *docs = NULL;
	struct sl_kueue *k = sl_kueue_new();
	size_t len;
	for (int q = 0; q < NCQ; q++)
		snprintf(lq[q], sizeof(lq[q]), "cq-0-%d-cohort-%d", q % 6, q / 6);
	char *y = model_yaml((const char(*)[32])lq, NCQ, 6, 20000, 100000, &len);
	static const char topo[] =
		"apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: default-topology}\n"
		"spec:\n  levels:\n  - nodeLabel: cloud.provider.com/topology-block\n"
		"  - nodeLabel: " RACK_LABEL "\n  - nodeLabel: kubernetes.io/hostname\n";
	struct sl_ydocs *td = NULL;
	if (sl_yaml_load_buf("tas.yaml", y, len, &docs, &err) != 0 ||
	    sl_yaml_load_buf("topology.yaml", topo, strlen(topo), &td, &err) != 0 ||
	    sl_kueue_add_object(k, "topology.yaml", td->docs[0], &err) != 0 ||
	    sl_kueue_add_docs(k, docs, &err) != 0)
		die("%s", err.msg);
	/* model_yaml's one flavor "rf" becomes the TAS flavor */
	for (size_t i = 0; i < k->nflavors; i++)
		k->flavors[i].topology = sl_xstrdup("default-topology");
	struct sl_sched *s = sl_sched_new(k);
	sl_kueue_free(k);
	sl_ydocs_free(docs);
	sl_ydocs_free(td);
	free(y);

	static char names[NODES][16], racks[RACKS][8];
	static struct sl_sched_label labels[NODES][3];
	static struct sl_sched_node nodes[NODES];
	static const struct sl_sched_req alloc[] = {{"cpu", NODE_CPU}, {"memory", 256LL * 1024 * 1024 * 1024 * 1000},
						    {"pods", 110000}};
	for (int r = 0; r < RACKS; r++)
		snprintf(racks[r], sizeof(racks[r]), "r%d", r);
	for (int n = 0; n < NODES; n++) {
		snprintf(names[n], sizeof(names[n]), "node-%d", n);
		labels[n][0] = (struct sl_sched_label){"cloud.provider.com/topology-block", "b0"};
		labels[n][1] = (struct sl_sched_label){RACK_LABEL, racks[n / HOSTS]};
		labels[n][2] = (struct sl_sched_label){"kubernetes.io/hostname", names[n]};
		nodes[n] = (struct sl_sched_node){names[n], 3, labels[n], 0, NULL, 3, alloc, 0, NULL, 0};
	}
	if (sl_sched_set_nodes(s, nodes, NODES, &err) != 0)
		die("%s", err.msg);
	return s;
}

static void gen(struct sl_sched *s)
{
	struct sl_err err = SL_ERR_INIT;
	size_t per = 0;
	for (size_t c = 0; c < NCLS; c++) {
		per += (size_t)cls[c].count;
		treq[c] = (struct sl_sched_topo_req){cls[c].mode, cls[c].slice ? NULL : RACK_LABEL,
						     cls[c].slice ? RACK_LABEL : NULL, cls[c].slice, NULL, 0, NULL};
		creq[c] = (struct sl_sched_req){"cpu", cls[c].cpu_milli};
	}
	nw = per * NCQ;
	w = sl_xcalloc(nw, sizeof(*w));
	size_t i = 0;
	for (int q = 0; q < NCQ; q++)
		for (size_t c = 0; c < NCLS; c++)
			for (int k = 0; k < cls[c].count; k++, i++)
				w[i] = (struct twl){q, (int)c, 0, (k + 1) * cls[c].interval_ms, -1, 0};
	(void)s;
	(void)err;
}

static void add(struct sl_sched *s, size_t i)
{
	struct sl_err err = SL_ERR_INIT;
	const struct tclass *c = &cls[w[i].c];
	struct sl_sched_podset ps = {.name = "main", .count = c->pods, .nreq = 1,
				     .req = &creq[w[i].c], .topology = &treq[w[i].c]};
	struct sl_sched_wl wl = {i + 1, c->name, lq[w[i].cq], lq[w[i].cq], c->priority,
				 w[i].arrive, 1, &ps};
	if (sl_sched_add(s, &wl, &err) != 0)
		die("add: %s", err.msg);
}

/* Every host at most its cpu; a required pod set within one rack. */
static void check(struct sl_sched *s)
{
	static int64_t used[NODES];
	memset(used, 0, sizeof(used));
	for (size_t i = 0; i < nw; i++) {
		struct sl_sched_topo t;
		if (!w[i].running)
			continue;
		if (sl_sched_topology(s, i + 1, 0, &t) != 0)
			die("workload %zu runs without a topology assignment", i + 1);
		int rack = -1, pods = 0;
		for (size_t d = 0; d < t.ndomains; d++) {
			int n = atoi(t.domains[d].values[t.nlevels - 1] + 5);
			used[n] += cls[w[i].c].cpu_milli * t.domains[d].count;
			pods += t.domains[d].count;
			if (cls[w[i].c].mode == SL_TOPO_REQUIRED && rack >= 0 && rack != n / HOSTS)
				die("workload %zu: required rack, spread over racks", i + 1);
			rack = n / HOSTS;
		}
		if (pods != cls[w[i].c].pods)
			die("workload %zu: %d pods placed, %d asked", i + 1, pods, cls[w[i].c].pods);
	}
	for (int n = 0; n < NODES; n++)
		if (used[n] > NODE_CPU)
			die("node-%d holds %" PRId64 "m cpu of %d", n, used[n], NODE_CPU);
}

static void settle(struct sl_sched *s, int64_t now)
{
	for (int k = 0; k < 100000; k++) {
		struct sl_sched_decisions d = {0};
		double t0 = now_s();
		int ch = sl_sched_cycle(s, now, &d);
		cycle_s += now_s() - t0;
		cycles++;
		for (size_t a = 0; a < d.nadmit; a++) {
			size_t i = d.admit[a].id - 1;
			w[i].running = 1;
			if (w[i].admitted_at < 0) {
				wait_ms[w[i].c] += (double)(now - w[i].arrive);
				nadmit[w[i].c]++;
			}
			w[i].admitted_at = now;
			push((struct fin){now + cls[w[i].c].runtime_ms, (uint32_t)i, w[i].gen});
			admissions++;
		}
		for (size_t p = 0; p < d.npreempt; p++) {
			size_t i = d.preempt[p].victim - 1;
			w[i].running = 0;
			w[i].gen++;
			sl_sched_requeue(s, i + 1);
			preemptions++;
		}
		sl_sched_decisions_clear(&d);
		if (ch == 0)
			return;
	}
	die("no fixpoint at %" PRId64 " ms", now);
}

int main(int argc, char **argv)
{
	int do_check = !(argc > 1 && strcmp(argv[1], "--no-check") == 0);
	double t0 = now_s();
	struct sl_sched *s = engine();
	gen(s);
	double t_model = now_s() - t0;
	size_t next = 0, done = 0;
	int64_t now = 0;
	/* arrivals sorted by time, ties in generation order */
	size_t *order = sl_xcalloc(nw, sizeof(*order));
	for (size_t i = 0; i < nw; i++)
		order[i] = i;
	for (size_t i = 1; i < nw; i++) /* insertion sort on a nearly sorted list */
		for (size_t j = i; j > 0 && w[order[j - 1]].arrive > w[order[j]].arrive; j--) {
			size_t x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	while (done < nw) {
		int64_t ta = next < nw ? w[order[next]].arrive : INT64_MAX;
		int64_t tf = nheap ? heap[0].t : INT64_MAX;
		now = ta < tf ? ta : tf;
		while (nheap && heap[0].t == now) {
			struct fin f = pop();
			if (f.gen != w[f.i].gen || !w[f.i].running)
				continue;
			w[f.i].running = 0;
			sl_sched_remove(s, f.i + 1);
			done++;
		}
		while (next < nw && w[order[next]].arrive == now)
			add(s, order[next++]);
		settle(s, now);
		instants++;
		if (do_check)
			check(s);
	}
	double total = now_s() - t0;
	printf("workloads             %zu on %d nodes (%d racks x %d hosts x 96 cpu)\n", nw, NODES,
	       RACKS, HOSTS);
	printf("cpu seconds           %.3f (model and nodes %.3f, in sl_sched_cycle %.3f%s)\n",
	       total, t_model, cycle_s, do_check ? ", checks included" : "");
	printf("admissions            %ld; preemptions %ld; cycles %ld over %ld instants\n",
	       admissions, preemptions, cycles, instants);
	printf("makespan              %.1f s simulated (Kueue's wall time 401 s)\n", (double)now / 1e3);
	for (size_t c = 0; c < NCLS; c++)
		printf("time to admission     %-22s mean %.2f s (Kueue %s)\n", cls[c].name,
		       nadmit[c] ? wait_ms[c] / (double)nadmit[c] / 1e3 : 0.0,
		       c < 3 ? "237-247 s" : c < 6 ? "106-107 s" : "38-40 s");
	free(order);
	free(w);
	free(heap);
	sl_sched_free(s);
	return 0;
}
