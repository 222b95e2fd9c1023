/* sim.h - the scenario runner behind `sluice simulate`: load a scenario
 * file (Kueue objects + workloads + expected end state, format in
 * tests/scenarios/README.md), run the real engine (libbatch/sched) to its
 * fixpoint, render the end state and compare it with `expect`. Never
 * prints: results are returned as text the caller owns. */
#ifndef SL_SIM_H
#define SL_SIM_H

#include "err.h"

struct sl_sim;

/* Parse and validate a scenario. -SL_EINVAL/-SL_ECONFIG/-SL_EIO with
 * "FILE:LINE: ... path: reason" in err. Caller frees with sl_sim_free(). */
int sl_sim_load(const char *path, struct sl_sim **out, struct sl_err *err);
void sl_sim_free(struct sl_sim *sim);

/* Run the engine until nothing changes. Returns the number of cycles. */
int sl_sim_run(struct sl_sim *sim);

/* End state as text for admins (json=0) or as one JSON object (json=1).
 * Caller frees. */
char *sl_sim_report(struct sl_sim *sim, int json);

/* 0 when `expect` holds (or is absent), 1 otherwise with *diff set to a
 * readable difference (caller frees; NULL when 0). */
int sl_sim_verify(struct sl_sim *sim, char **diff);

#endif
