/* sched_testlib.h - build a struct sl_kueue / struct sl_sched from YAML
 * text in unit tests of libbatch/sched, and add workloads to it. Include
 * it after <cmocka.h>: the helpers assert. */
#ifndef SCHED_TESTLIB_H
#define SCHED_TESTLIB_H

#include <string.h>
#include "kueue.h"
#include "yaml.h"
#include "sched/sched.h"

static inline struct sl_kueue *tl_model(const char *text)
{
	struct sl_ydocs *d = NULL;
	struct sl_err err = SL_ERR_INIT;
	struct sl_kueue *k = sl_kueue_new();
	int r = sl_yaml_load_buf("t.yaml", text, strlen(text), &d, &err);
	for (size_t i = 0; !r && i < d->n; i++)
		r = sl_kueue_add_object(k, d->file, d->docs[i], &err);
	if (!r)
		r = sl_kueue_finalize(k, &err);
	sl_ydocs_free(d);
	if (r) {
		sl_kueue_free(k);
		return NULL;
	}
	return k;
}

/* The engine over the model in text, which must load. */
static inline struct sl_sched *tl_sched(const char *text)
{
	struct sl_kueue *k = tl_model(text);
	assert_non_null(k);
	struct sl_sched *s = sl_sched_new(k);
	sl_kueue_free(k);
	return s;
}

/* Workload id is pending in class cls with this reason and message;
 * its pending info is left in *p. */
static inline void tl_want_pending(struct sl_sched *s, uint64_t id, struct sl_sched_pending *p,
				   enum sl_sched_class cls, const char *reason,
				   const char *message)
{
	assert_int_equal(sl_sched_pending_info(s, id, p), 0);
	assert_int_equal(p->cls, cls);
	assert_string_equal(p->reason, reason);
	assert_string_equal(p->message, message);
}

/* The end of a test: frees the decisions and the engine. */
static inline void tl_free(struct sl_sched *s, struct sl_sched_decisions *d)
{
	sl_sched_decisions_clear(d);
	sl_sched_free(s);
}

/* Swap in the model in text, which must load and be taken. */
static inline void tl_reconfigure(struct sl_sched *s, const char *text)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_kueue *k = tl_model(text);
	assert_non_null(k);
	assert_int_equal(sl_sched_reconfigure(s, k, &err), 0);
	sl_kueue_free(k);
}

static const struct sl_sched_req tl_cpu1 = {"cpu", 1000};

/* Workload id, named "w", with pod sets ps; the engine must take it. */
static inline void tl_add_ps(struct sl_sched *s, uint64_t id, const char *ns, const char *q,
			     int32_t prio, int64_t created, size_t nps,
			     const struct sl_sched_podset *ps)
{
	struct sl_sched_wl w = {id, "w", ns, q, prio, created, nps, ps};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_add(s, &w, &err), 0);
}

/* One pod set "main" of count pods of 1 cpu, into LocalQueue ns/q. */
static inline void tl_add_to(struct sl_sched *s, uint64_t id, const char *ns, const char *q,
			     int32_t prio, int64_t created, int32_t count)
{
	struct sl_sched_podset ps = {.name = "main", .count = count, .nreq = 1, .req = &tl_cpu1};
	tl_add_ps(s, id, ns, q, prio, created, 1, &ps);
}

/* The same into ns/q, the LocalQueue of most models. */
static inline void tl_add(struct sl_sched *s, uint64_t id, int32_t prio, int64_t created,
			  int32_t count)
{
	tl_add_to(s, id, "ns", "q", prio, created, count);
}

/* tl_add_to with a time limit in ms (estimate.c, backfill.c). */
static inline void tl_add_timed(struct sl_sched *s, uint64_t id, const char *ns, const char *q,
				int32_t prio, int64_t created, int32_t count, int64_t limit_ms)
{
	tl_add_to(s, id, ns, q, prio, created, count);
	assert_int_equal(sl_sched_set_time(s, id, limit_ms, 0), 0);
}

#define TL_FLAVOR(n) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: " n "}\n---\n"
#define TL_LQ(ns, n, cq) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {name: " n \
	", namespace: " ns "}\nspec: {clusterQueue: " cq "}\n---\n"
/* CQ with one cpu flavor "default"; extra = more spec lines (2-space indent). */
#define TL_CQ(n, extra, quota) "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: " n \
	"}\nspec:\n  namespaceSelector: {}\n" extra "  resourceGroups:\n  - coveredResources: [cpu]\n" \
	"    flavors:\n    - name: default\n      resources:\n      - {name: cpu, " quota "}\n---\n"
/* The model of most tests: flavor "default", ClusterQueue cq, LocalQueue ns/q. */
#define TL_ONE_CQ(extra, quota) TL_FLAVOR("default") TL_CQ("cq", extra, quota) TL_LQ("ns", "q", "cq")

#endif
