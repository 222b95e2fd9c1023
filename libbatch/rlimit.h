/* rlimit.h - resource limits carried from the submitting shell to the job,
 * as Slurm's PropagateResourceLimits=ALL does by default: sbatch records its
 * soft limits, and the job starts with them (never above the node's hard
 * limits). Text form "STACK=8388608,CORE=0,NOFILE=1024,CPU=inf": Slurm's
 * names (AS, CORE, CPU, DATA, FSIZE, MEMLOCK, NOFILE, NPROC, RSS, STACK). */
#ifndef SL_RLIMIT_H
#define SL_RLIMIT_H

#include <stddef.h>
#include <sys/resource.h>
#include "err.h"

#define SL_RLIMIT_MAX 10

struct sl_rlimit_set {
	size_t n;
	int resource[SL_RLIMIT_MAX]; /* RLIMIT_* */
	rlim_t value[SL_RLIMIT_MAX]; /* the soft limit wanted; RLIM_INFINITY */
};

/* This process's soft limits named by `which` (--propagate's argument:
 * NULL or "ALL", "NONE", or a comma list of names) as text (caller frees);
 * NULL for NONE. -SL_EINVAL naming an unknown name. */
int sl_rlimit_capture(const char *which, char **out, struct sl_err *err);
/* Text back to a set. -SL_EINVAL on a malformed or unknown entry. */
int sl_rlimit_parse(const char *text, struct sl_rlimit_set *out, struct sl_err *err);
/* Set this process's soft limits to s's, each at most its hard limit. Only
 * system calls: safe in a vfork() child. */
void sl_rlimit_apply(const struct sl_rlimit_set *s);

#endif
