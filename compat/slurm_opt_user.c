/* slurm_opt_user.c - sbatch's options on whom the job runs as: --uid and
 * --gid, root's alone in Slurm. */
#include "slurm_opt_int.h"

#include <unistd.h>

/* --uid/--gid: root's alone in Slurm (its words, exit 255, for anyone
 * else); submitting for another user is not Sluice's yet. */
static int root_only(void *c, const char *opt, struct sl_err *e)
{
	if (getuid() != 0)
		return sl_err_set(e, SL_EINVAL, "%s only permitted by root user", opt);
	CTX(c)->status = 1;
	return sl_err_set(e, SL_EUNSUPP, "%s is not supported by Sluice", opt);
}

int sl_sbopt_uid(void *c, const char *a, struct sl_err *e)
{
	(void)a;
	return root_only(c, "--uid", e);
}

int sl_sbopt_gid(void *c, const char *a, struct sl_err *e)
{
	(void)a;
	return root_only(c, "--gid", e);
}
