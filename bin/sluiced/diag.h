/* diag.h - sdiag's statistics: what sluiced counted since it started or
 * since an operator's `sdiag -r` (slurmctld's statistics.c). Counters
 * only; the loop thread alone touches them. The engine counts its own
 * cycles (sl_sched_stats); this keeps the reset points and the times. */
#ifndef SL_DIAG_H
#define SL_DIAG_H

#include <json-c/json.h>
#include <stdint.h>

#include "sched/sched.h"

struct sl_diag;

/* Slurm's job counters: submitted counts each array task, started each
 * launch, completed each batch script that ended, canceled each job a
 * cancel request reached, failed each launch that failed. */
enum sl_diag_job {
	SL_DIAG_SUBMITTED,
	SL_DIAG_STARTED,
	SL_DIAG_COMPLETED,
	SL_DIAG_CANCELED,
	SL_DIAG_FAILED,
	SL_DIAG_NJOB
};

struct sl_diag *sl_diag_new(int64_t now);
void sl_diag_free(struct sl_diag *g);

void sl_diag_job(struct sl_diag *g, enum sl_diag_job e, uint32_t n);
/* A request of type (name: the dispatch table's, static) from uid took
 * us microseconds to serve. */
void sl_diag_rpc(struct sl_diag *g, uint16_t type, const char *name, uint32_t uid, int64_t us);
/* One scheduling pass took us microseconds; st is the engine's count
 * after it. A pass in which backfill ran counts as a backfill cycle too
 * (backfill runs inside the pass). */
void sl_diag_pass(struct sl_diag *g, int64_t us, int64_t now, const struct sl_sched_stats *st);
/* sdiag -r: every figure starts again from now (st: the engine's now). */
void sl_diag_reset(struct sl_diag *g, int64_t now, const struct sl_sched_stats *st);

/* Passes since start, never reset (Prometheus counters are monotonic). */
void sl_diag_totals(const struct sl_diag *g, uint64_t *passes, int64_t *last_us,
		    int64_t *max_us, int64_t *sum_us);

/* The figures since the last reset, into o (PROTOCOL.md: DIAG); st and
 * queue_len are the engine's now. */
void sl_diag_json(const struct sl_diag *g, const struct sl_sched_stats *st, size_t queue_len,
		  json_object *o);

#endif
