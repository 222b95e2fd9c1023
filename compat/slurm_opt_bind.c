/* slurm_opt_bind.c - sbatch's --gpu-bind and --mem-bind: checked as Slurm
 * checks them (slurm_bind.h), kept on the job and passed to its steps
 * through the environment. Sluice binds nothing (slurm_bind.h says why). */
#include "slurm_opt_int.h"

#include <stdlib.h>

#include "slurm_bind.h"
#include "xalloc.h"

static int bind_opt(void *c, enum sl_bind_kind kind, const char *a, char **dst,
		    struct sl_err *e)
{
	int r = sl_slurm_bind_check("sbatch", kind, a, e);
	if (r == 1)
		return sl_err_set(e, SL_EUNSUPP, "--mem-bind=help is not supported by Sluice");
	if (r != 0)
		return r;
	(void)c;
	free(*dst);
	*dst = sl_xstrdup(a);
	return 0;
}

int sl_sbopt_gpu_bind(void *c, const char *a, struct sl_err *e)
{
	return bind_opt(c, SL_BIND_GPU, a, &CTX(c)->spec->gpu_bind, e);
}

int sl_sbopt_mem_bind(void *c, const char *a, struct sl_err *e)
{
	return bind_opt(c, SL_BIND_MEM, a, &CTX(c)->spec->mem_bind, e);
}
