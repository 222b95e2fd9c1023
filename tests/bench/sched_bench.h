/* sched_bench.h - what the admission-engine benchmarks share: CPU time, a
 * fatal error, and the engine over a model of ClusterQueues in cohorts,
 * built from Kueue's own YAML. Define BENCH_NAME (the program, for error
 * messages) before including it. */
#ifndef SCHED_BENCH_H
#define SCHED_BENCH_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "err.h"
#include "kueue.h"
#include "sched/sched.h"
#include "yaml.h"

/* CPU time, not wall time: the figures should not depend on what else
 * the host runs. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, BENCH_NAME ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* One ResourceFlavor rf; ClusterQueue cq[i] in cohort-<i / per_cohort>
 * with the baseline's preemption and the given cpu quota (milli), and a
 * LocalQueue of the same name in the namespace of that name. */
static char *model_yaml(const char (*cq)[32], int ncq, int per_cohort, int nominal_milli,
			int borrow_milli, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		die("open_memstream: %s", strerror(errno));
	fprintf(f, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\n"
		   "metadata:\n  name: rf\n");
	for (int q = 0; q < ncq; q++) {
		fprintf(f, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
			   "metadata:\n  name: %s\nspec:\n  cohort: cohort-%d\n"
			   "  namespaceSelector: {}\n"
			   "  preemption:\n    reclaimWithinCohort: Any\n"
			   "    withinClusterQueue: LowerPriority\n"
			   "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
			   "    - name: rf\n      resources:\n      - name: cpu\n"
			   "        nominalQuota: %dm\n        borrowingLimit: %dm\n",
			cq[q], q / per_cohort, nominal_milli, borrow_milli);
		fprintf(f, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\n"
			   "metadata:\n  namespace: %s\n  name: %s\nspec:\n  clusterQueue: %s\n",
			cq[q], cq[q], cq[q]);
	}
	fclose(f);
	return buf;
}

/* The engine over model_yaml()'s model; file names it in errors. */
static struct sl_sched *build_engine(const char *file, const char (*cq)[32], int ncq,
				     int per_cohort, int nominal_milli, int borrow_milli)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *docs = NULL;
	struct sl_kueue *k = sl_kueue_new();
	size_t len;
	char *y = model_yaml(cq, ncq, per_cohort, nominal_milli, borrow_milli, &len);
	if (sl_yaml_load_buf(file, y, len, &docs, &err) != 0)
		die("%s", err.msg);
	if (sl_kueue_add_docs(k, docs, &err) != 0)
		die("%s", err.msg);
	struct sl_sched *s = sl_sched_new(k);
	sl_kueue_free(k); /* before the documents it may borrow from */
	sl_ydocs_free(docs);
	free(y);
	return s;
}

#endif
