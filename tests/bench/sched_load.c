/* sched_load.c - how long a big queue model takes to load into the
 * admission engine, and how much memory it holds (issue 11, hole 14: "a
 * config with 5,000 ClusterQueues loads in under a second"). Four
 * configurations of N ClusterQueues (default 5 000), each with one
 * LocalQueue and quota for cpu and memory:
 *   1. one flavor shared by all, each ClusterQueue in its own cohort;
 *   2. 500 flavors (ClusterQueue i uses flavor i % 500), no cohorts;
 *   3. one flavor per ClusterQueue, no cohorts;
 *   4. one flavor per ClusterQueue, each in its own cohort.
 * Each runs in a child process of its own, so that the memory figures do
 * not mix: parse the YAML, build the struct sl_kueue, sl_sched_new(), add
 * a few workloads and run one cycle, timing each phase (CPU time) and
 * reading VmRSS/VmHWM. It aborts unless every workload is admitted in its
 * ClusterQueue on that queue's flavor.
 *
 * Options: --cqs N, --only K (1-4). `--emit NFLAVORS y|n` writes the Kueue
 * objects of one configuration to stdout instead; sched_load.sh puts a
 * SluiceConfiguration in front of them to time sluiced itself. */
#include <inttypes.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_NAME "sched_load"
#include "sched_bench.h"

#define NWL 8                    /* workloads added before the cycle */

struct conf {
	int nflavors;            /* 0: one per ClusterQueue */
	bool cohorts;
	const char *what;
};

static const struct conf confs[] = {
	{1, true, "1 flavor, each CQ in its own cohort"},
	{500, false, "500 flavors (CQ i uses i % 500), no cohorts"},
	{0, false, "1 flavor per CQ, no cohorts"},
	{0, true, "1 flavor per CQ, each CQ in its own cohort"},
};

static void emit(FILE *f, int ncq, int nfl, bool cohorts)
{
	for (int i = 0; i < nfl; i++)
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
			   "metadata: {name: f%d}\n---\n", i);
	for (int i = 0; i < ncq; i++) {
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
			   "metadata: {name: cq%d}\nspec:\n", i);
		if (cohorts)
			fprintf(f, "  cohort: co%d\n", i);
		fprintf(f, "  namespaceSelector: {}\n  resourceGroups:\n"
			   "  - coveredResources: [cpu, memory]\n    flavors:\n    - name: f%d\n"
			   "      resources:\n      - {name: cpu, nominalQuota: 8}\n"
			   "      - {name: memory, nominalQuota: 32Gi}\n---\n", i % nfl);
		fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
			   "metadata: {name: q%d, namespace: general}\nspec: {clusterQueue: cq%d}\n",
			i, i);
		if (i + 1 < ncq)
			fputs("---\n", f);
	}
}

/* VmRSS and VmHWM of this process, in MiB. */
static void mem(double *rss, double *hwm)
{
	char line[256];
	long r = -1, h = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "VmRSS: %ld", &r);
		sscanf(line, "VmHWM: %ld", &h);
	}
	if (f)
		fclose(f);
	*rss = (double)r / 1024.0;
	*hwm = (double)h / 1024.0;
}

/* The workloads go to ClusterQueues spread over the whole model. */
static int wl_cq(int k, int ncq)
{
	return (int)((int64_t)k * (ncq - 1) / (NWL - 1));
}

static void add_workloads(struct sl_sched *s, int ncq)
{
	static const struct sl_sched_req req[] = {{"cpu", 2000}, {"memory", 4LL << 30}};
	for (int k = 0; k < NWL; k++) {
		char q[32];
		snprintf(q, sizeof(q), "q%d", wl_cq(k, ncq));
		struct sl_sched_podset ps = {.name = "main", .count = 2, .nreq = 2, .req = req};
		struct sl_sched_wl w = {(uint64_t)k + 1, "w", "general", q, 0, k, 1, &ps};
		struct sl_err err = SL_ERR_INIT;
		if (sl_sched_add(s, &w, &err) != 0)
			die("add %s: %s", q, err.msg);
	}
}

static void check(const struct sl_sched_decisions *d, int ncq, int nfl)
{
	if (d->nadmit != NWL || d->npreempt != 0)
		die("%zu admissions, %zu preemptions; want %d and 0", d->nadmit, d->npreempt, NWL);
	for (size_t i = 0; i < d->nadmit; i++) {
		const struct sl_sched_admission *a = &d->admit[i];
		int cq = wl_cq((int)a->id - 1, ncq);
		char want_cq[32], want_fl[32];
		snprintf(want_cq, sizeof(want_cq), "cq%d", cq);
		snprintf(want_fl, sizeof(want_fl), "f%d", cq % nfl);
		if (strcmp(a->cluster_queue, want_cq) != 0 || a->n != 2)
			die("workload %" PRIu64 " admitted in %s with %zu flavors", a->id,
			    a->cluster_queue, a->n);
		for (size_t j = 0; j < a->n; j++)
			if (strcmp(a->flavors[j].flavor, want_fl) != 0)
				die("workload %" PRIu64 ": %s on %s, want %s", a->id,
				    a->flavors[j].resource, a->flavors[j].flavor, want_fl);
	}
}

static void run(const struct conf *c, int ncq)
{
	int nfl = c->nflavors ? c->nflavors : ncq;
	double rss0, rss1, rss2, rss3, hwm;
	size_t len;
	char *y = NULL;
	FILE *f = open_memstream(&y, &len);
	if (!f)
		die("open_memstream: %s", strerror(errno));
	emit(f, ncq, nfl, c->cohorts);
	fclose(f);
	mem(&rss0, &hwm);

	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *docs = NULL;
	double t0 = now_s();
	if (sl_yaml_load_buf("sched_load.yaml", y, len, &docs, &err) != 0)
		die("%s", err.msg);
	double t1 = now_s();
	struct sl_kueue *k = sl_kueue_new();
	if (sl_kueue_add_docs(k, docs, &err) != 0)
		die("%s", err.msg);
	double t2 = now_s();
	mem(&rss1, &hwm);
	struct sl_sched *s = sl_sched_new(k);
	double t3 = now_s();
	mem(&rss2, &hwm);
	add_workloads(s, ncq);
	struct sl_sched_decisions d = {0};
	double t4 = now_s();
	sl_sched_cycle(s, 0, &d);
	double t5 = now_s();
	check(&d, ncq, nfl);
	mem(&rss3, &hwm);

	printf("%d CQs, %s\n", ncq, c->what);
	printf("  yaml %.3f s, kueue model %.3f s, sl_sched_new %.3f s, one cycle %.4f s\n",
	       t1 - t0, t2 - t1, t3 - t2, t5 - t4);
	printf("  load total %.3f s; engine %.1f MiB (VmRSS %.1f -> %.1f), VmHWM %.1f MiB "
	       "(YAML text %.1f MiB)\n",
	       t3 - t0, rss2 - rss1, rss1, rss2, hwm, (double)len / 1048576.0);
	(void)rss0;
	(void)rss3;
	sl_sched_decisions_clear(&d);
	sl_sched_free(s);
	sl_kueue_free(k);
	sl_ydocs_free(docs);
	free(y);
}

int main(int argc, char **argv)
{
	int ncq = 5000, only = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cqs") == 0 && i + 1 < argc) {
			ncq = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			only = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--emit") == 0 && i + 2 < argc) {
			int nfl = atoi(argv[i + 1]);
			emit(stdout, ncq, nfl > 0 ? nfl : ncq, strcmp(argv[i + 2], "y") == 0);
			return 0;
		} else {
			die("usage: sched_load [--cqs N] [--only 1-4] | [--cqs N] --emit NFLAVORS y|n");
		}
	}
	(void)build_engine; /* sched_bench.h's model is not this one */
	if (ncq < NWL)
		die("--cqs must be at least %d", NWL);
	for (int i = 0; i < 4; i++) {
		if (only && only != i + 1)
			continue;
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			run(&confs[i], ncq);
			fflush(stdout);
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			die("configuration %d failed", i + 1);
	}
	return 0;
}
