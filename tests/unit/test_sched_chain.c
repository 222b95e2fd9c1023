/* test_sched_chain.c - several of Kueue's cycles in one sl_sched_cycle call
 * (cycle.c, chain_ok) decide exactly what the cycles one by one decide: the
 * same admissions in the same order with the same flavors and counts, the
 * same preemptions, the same pending reasons. Each model runs a seeded
 * random history (arrivals, ends, requeued victims) twice, chaining on and
 * off, and the two decision logs must be equal line for line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "sched_testlib.h"
#include "xalloc.h"

#define NWL 400

struct log {
	char *text;
	size_t len, cap;
	long cycles;
};

static void logf_(struct log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct log *l, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	l->text = sl_xgrow(l->text, &l->cap, l->len + (size_t)n + 1, 1);
	memcpy(l->text + l->len, line, (size_t)n + 1);
	l->len += (size_t)n;
}

static uint64_t next(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return *r;
}

/* Cycle until nothing changes, logging every decision; victims are
 * requeued at once, as the daemon does when their pods are gone. */
static void settle(struct sl_sched *s, int64_t now, struct log *l, uint64_t *running, size_t *nrun)
{
	int changed, calls = 0;
	do {
		struct sl_sched_decisions d = {0};
		/* a model that flaps (preemption back and forth) proves nothing */
		if (++calls > 5000)
			fail_msg("no fixpoint at %lld", (long long)now);
		changed = sl_sched_cycle(s, now, &d);
		l->cycles++;
		for (size_t i = 0; i < d.nadmit; i++) {
			const struct sl_sched_admission *a = &d.admit[i];
			logf_(l, "%lld admit %llu %s", (long long)now, (unsigned long long)a->id,
			      a->cluster_queue);
			for (size_t f = 0; f < a->n; f++)
				logf_(l, " %s:%s=%s", a->flavors[f].podset, a->flavors[f].resource,
				      a->flavors[f].flavor);
			for (size_t k = 0; k < a->ncounts; k++)
				logf_(l, " n%d", a->counts[k]);
			logf_(l, "\n");
			running[(*nrun)++] = a->id;
		}
		for (size_t i = 0; i < d.npreempt; i++) {
			const struct sl_sched_preemption *p = &d.preempt[i];
			logf_(l, "%lld preempt %llu by %llu (%d)\n", (long long)now,
			      (unsigned long long)p->victim, (unsigned long long)p->preemptor,
			      (int)p->reason);
			for (size_t j = 0; j < *nrun; j++)
				if (running[j] == p->victim) {
					running[j] = running[--*nrun];
					break;
				}
			assert_int_equal(sl_sched_requeue(s, p->victim), 0);
		}
		sl_sched_decisions_clear(&d);
	} while (changed > 0);
}

static void add(struct sl_sched *s, uint64_t id, uint64_t *rng, int nq, int partial)
{
	static const char *const queues[] = {"q", "q2", "q3"};
	struct sl_sched_req req = {"cpu", 1000 * (int64_t)(1 + next(rng) % 3)};
	int32_t count = (int32_t)(1 + next(rng) % 3);
	struct sl_sched_podset ps = {.name = "main", .count = count, .nreq = 1, .req = &req};
	if (partial && count > 1 && next(rng) % 2)
		ps.min_count = 1;
	/* mostly the first queue, so that it is often alone with heads */
	uint64_t q = next(rng) % 10;
	struct sl_sched_wl w = {id, "w", "ns", queues[q < 7 || nq == 1 ? 0 : 1 + q % (uint64_t)(nq - 1)],
				(int32_t)(next(rng) % 3) * 100, (int64_t)id, 1, &ps};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_sched_add(s, &w, &err), 0);
}

/* The whole history with chaining on or off; returns its log. */
static struct log history(const char *model, int chain, int nq, int partial)
{
	struct log l = {0};
	struct sl_sched *s = tl_sched(model);
	uint64_t rng = 0x9e3779b97f4a7c15ULL, running[NWL + 1];
	size_t nrun = 0;
	uint64_t id = 0;
	sl_sched_set_chaining(s, chain);
	for (int64_t t = 0; id < NWL; t++) {
		/* a burst of arrivals, then some ends */
		for (uint64_t k = next(&rng) % 40; k > 0 && id < NWL; k--)
			add(s, ++id, &rng, nq, partial);
		settle(s, t, &l, running, &nrun);
		for (uint64_t k = next(&rng) % 6; k > 0 && nrun > 0; k--) {
			size_t i = (size_t)(next(&rng) % nrun);
			logf_(&l, "%lld end %llu\n", (long long)t, (unsigned long long)running[i]);
			assert_int_equal(sl_sched_remove(s, running[i]), 0);
			running[i] = running[--nrun];
		}
		settle(s, t, &l, running, &nrun);
	}
	for (uint64_t i = 1; i <= id; i++) {
		struct sl_sched_pending p;
		if (sl_sched_pending_info(s, i, &p) == 0 && !p.admitted) /* else ended */
			logf_(&l, "pending %llu %s %s %lld\n", (unsigned long long)i,
			      p.reason ? p.reason : "-", p.message ? p.message : "-",
			      (long long)p.pos_cq);
	}
	sl_sched_free(s);
	return l;
}

static void same(const char *model, int nq, int partial)
{
	struct log on = history(model, 1, nq, partial), off = history(model, 0, nq, partial);
	assert_true(off.len > 1000);
	assert_string_equal(on.text, off.text);
	/* and chaining did run: fewer calls for the same decisions */
	print_message("%ld calls chained, %ld one by one, %zu bytes of log\n", on.cycles, off.cycles, on.len);
	assert_true(on.cycles < off.cycles);
	free(on.text);
	free(off.text);
}

static void test_one_cq_besteffort(void **state)
{
	(void)state;
	same(TL_ONE_CQ("  preemption: {withinClusterQueue: LowerPriority}\n", "nominalQuota: 40"),
	     1, 0);
}

/* Room for most arrivals: long runs of admissions in one call. */
static void test_one_cq_roomy(void **state)
{
	(void)state;
	same(TL_ONE_CQ("  preemption: {withinClusterQueue: LowerPriority}\n", "nominalQuota: 300"),
	     1, 0);
}

static void test_one_cq_strict_partial(void **state)
{
	(void)state;
	same(TL_ONE_CQ("  queueingStrategy: StrictFIFO\n"
		       "  preemption: {withinClusterQueue: LowerOrNewerEqualPriority}\n",
		       "nominalQuota: 30"),
	     1, 1);
}

/* Three queues in a cohort that borrow and reclaim: whenever one alone has
 * heads, its run is chained; the others' arrivals break the chain. */
#define COHORT_CQ(n) \
	TL_CQ(n, "  cohort: co\n  preemption: {reclaimWithinCohort: LowerPriority, " \
		 "withinClusterQueue: LowerPriority}\n", \
	      "nominalQuota: 16, borrowingLimit: 16")

static void test_cohort(void **state)
{
	(void)state;
	same(TL_FLAVOR("default") COHORT_CQ("cq") COHORT_CQ("cq2") COHORT_CQ("cq3")
		     TL_LQ("ns", "q", "cq") TL_LQ("ns", "q2", "cq2") TL_LQ("ns", "q3", "cq3"),
	     3, 0);
}

static void test_cohort_fair_sharing(void **state)
{
	(void)state;
	same("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
	     "fairSharing: {enable: true}\n---\n" TL_FLAVOR("default") COHORT_CQ("cq")
		     COHORT_CQ("cq2") COHORT_CQ("cq3") TL_LQ("ns", "q", "cq") TL_LQ("ns", "q2", "cq2")
			     TL_LQ("ns", "q3", "cq3"),
	     3, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cq_besteffort),
		cmocka_unit_test(test_one_cq_roomy),
		cmocka_unit_test(test_one_cq_strict_partial),
		cmocka_unit_test(test_cohort),
		cmocka_unit_test(test_cohort_fair_sharing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
