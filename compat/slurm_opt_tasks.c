/* slurm_opt_tasks.c - sbatch's task layout options: -m/--distribution
 * (slurm_dist.h; exported as SLURM_DISTRIBUTION, which the job's srun
 * steps read), --ntasks-per-gpu, which Slurm turns into a task count from
 * the GPUs asked for, or a GPU count from the tasks, and --no-kill, what
 * a node's failure does to them. */
#include "slurm_opt_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_dist.h"
#include "xalloc.h"

int sl_sbopt_distribution(void *c, const char *a, struct sl_err *e)
{
	char text[64];
	int cyclic, r = sl_slurm_dist_parse(a, text, sizeof(text), &cyclic);

	if (r == -SL_EUNSUPP)
		return sl_err_set(e, SL_EUNSUPP, "--distribution=%s is not supported by Sluice", a);
	if (r != 0) {
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid --distribution specification");
	}
	free(CTX(c)->spec->distribution);
	CTX(c)->spec->distribution = sl_xstrdup(text);
	return 0;
}

/* -k/--no-kill[=off]: Slurm's "off" (any case) turns it off again. */
int sl_sbopt_no_kill(void *c, const char *a, struct sl_err *e)
{
	(void)e;
	CTX(c)->spec->no_kill = a == NULL || strcasecmp(a, "off") != 0;
	return 0;
}

int sl_sbopt_ntasks_per_gpu(void *c, const char *a, struct sl_err *e)
{
	char *end;
	long v = strtol(a, &end, 10);

	if (*a == '\0' || *end != '\0' || v < 1 || v > 65535) {
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid --ntasks-per-gpu argument: %s.", a);
	}
	CTX(c)->spec->ntasks_per_gpu = (int)v;
	return 0;
}

/* Slurm's gres_job_state_validate for ntasks_per_tres: with GPUs asked for
 * (--gpus, or --gres/--gpus-per-node on each node), N tasks for each;
 * with -n alone, a GPU for every N tasks. */
int sl_sbopt_finish_tasks(struct ctx *c, struct sl_err *err)
{
	struct sl_jobspec *s = c->spec;
	int n = s->ntasks_per_gpu, nodes = s->nodes != SL_NO_VAL && s->nodes > 0 ? s->nodes : 1;
	long gpus = 0;

	if (n == SL_NO_VAL || n <= 0)
		return 0;
	if (s->gpus_per_task != SL_NO_VAL && s->gpus_per_task > 0) {
		c->status = 1;
		return sl_err_set(err, SL_EINVAL, "--gpus-per-task is mutually exclusive with "
				  "--ntasks-per-gpu\nInvalid generic resource (gres) specification");
	}
	if (s->gpus != SL_NO_VAL && s->gpus > 0)
		gpus = s->gpus;
	else if (s->gpus_per_node != SL_NO_VAL && s->gpus_per_node > 0)
		gpus = (long)s->gpus_per_node * nodes;
	if (s->ntasks == SL_NO_VAL && gpus > 0)
		s->ntasks = gpus * n > 1000000 ? 1000000 : (int)(gpus * n);
	else if (s->ntasks != SL_NO_VAL && gpus == 0)
		s->gpus = (s->ntasks + n - 1) / n;
	return 0;
}
