/* srun_opt_int.h - what srun_opt.c's option tables share with the setters
 * split into srun_opt_place.c. Not an interface. */
#ifndef SL_SRUN_OPT_INT_H
#define SL_SRUN_OPT_INT_H

#include "srun_opt.h"

/* A count: Slurm's parse_int() words ("Invalid numeric value"). */
int sl_srun_count(const char *arg, const char *what, int zero_ok, int *out, struct sl_err *err);

/* Option setters (optable.h's signature), srun_opt_place.c. */
int sl_srun_set_hint(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_cpu_bind(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_mem_bind(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_gpu_bind(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_cpu_freq(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_gpu_freq(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_core_spec(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_thread_spec(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_tpcore(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_tpc(void *ctx, const char *arg, struct sl_err *err);
int sl_srun_set_distribution(void *ctx, const char *arg, struct sl_err *err);

#endif
