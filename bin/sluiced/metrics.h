/* metrics.h - Prometheus metrics at http://HOST:PORT/metrics (`metrics:
 * {listen: HOST:PORT}`): Kueue's metric names and labels, and Slurm-style
 * job counts and scheduler figures. libmicrohttpd serves them from its own
 * thread; the loop renders a snapshot once a second and hands it over. */
#ifndef SL_METRICS_H
#define SL_METRICS_H

#include <stdint.h>
#include "sched/sched.h"
#include "sluiced.h"

struct sl_metrics;

/* Start serving when the config has `metrics:`; else *out = NULL and 0.
 * Errors: a bad or busy address (SL_EIO, with the reason). Caller frees
 * with sl_metrics_free(), which stops the server thread. */
int sl_metrics_start(struct sluiced *d, struct sl_metrics **out, struct sl_err *err);
void sl_metrics_free(struct sl_metrics *m);

/* One scheduling cycle ran (schedule.c): dec is what it decided, before
 * the daemon applies it; us its duration. Counts admissions, their wait,
 * preemptions and the cycle. m may be NULL (no metrics). */
void sl_metrics_cycle(struct sl_metrics *m, struct sluiced *d,
		      const struct sl_sched_decisions *dec, int64_t us);

/* The text a scrape gets now (for tests and `sluice top`): the current
 * state rendered on the loop thread. Caller frees. */
char *sl_metrics_render(struct sl_metrics *m, struct sluiced *d);

#endif
