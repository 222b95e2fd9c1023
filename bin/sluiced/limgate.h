/* limgate.h - QOS and association limits in front of the engine (Slurm's
 * accounting policy, libbatch/qos_limits.h): submit limits refuse a
 * submission; per-job limits keep a job pending for ever with their reason;
 * running limits let a user's or an account's jobs into the engine only as
 * far as the limits allow, counting those already started and those let in
 * (so that two cannot pass one place at once). The others wait out of the
 * engine with Slurm's reason code (QOSMaxJobsPerUserLimit, ...), and every
 * scheduling turn looks again. With no QOS or Account object in the config
 * it costs nothing. */
#ifndef SL_LIMGATE_H
#define SL_LIMGATE_H

#include "sluiced.h"

struct sl_limgate;
struct sl_schedctl;

struct sl_limgate *sl_limgate_new(void);
void sl_limgate_free(struct sl_limgate *g);

/* Submit limits against the jobs not yet finished: -SL_EPOLICY with
 * "REASON\nJob violates accounting/QOS policy (...)" as sbatch prints it. */
int sl_limgate_submit(struct sluiced *d, const struct sl_job *j, struct sl_err *err);

/* Before each engine cycle: who may be in the engine. */
void sl_limgate_pass(struct sluiced *d, struct sl_schedctl *s, struct sl_limgate *g);

/* j waits on a limit: its reason and sentence set, 1; else 0. */
int sl_limgate_explain(const struct sl_limgate *g, struct sl_job *j);

#endif
