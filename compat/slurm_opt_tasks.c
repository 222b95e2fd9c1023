/* slurm_opt_tasks.c - sbatch's options on the job's tasks: -m/--distribution
 * (slurm_dist.h; exported as SLURM_DISTRIBUTION, which the job's srun
 * steps read), --ntasks-per-gpu, which Slurm turns into a task count from
 * the GPUs asked for, or a GPU count from the tasks, --no-kill, what a
 * node's failure does to them, and --acctg-freq, how often they are
 * measured. */
#include "slurm_opt_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_dist.h"
#include "slurm_time.h"
#include "xalloc.h"

int sl_sbopt_distribution(void *c, const char *a, struct sl_err *e)
{
	char text[64];
	int cyclic, r = sl_slurm_dist_parse(a, text, sizeof(text), &cyclic);

	if (r == -SL_EUNSUPP)
		return sl_err_set(e, SL_EUNSUPP, "--distribution=%s is not supported by Sluice", a);
	if (r != 0) /* exit 255, as the reference sbatch */
		return sl_err_set(e, SL_EINVAL, "Invalid --distribution specification");
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

/* --use-min-nodes: -N MIN-MAX takes MIN (no partial admission up to MAX). */
int sl_sbopt_use_min_nodes(void *c, const char *a, struct sl_err *e)
{
	(void)a, (void)e;
	CTX(c)->spec->use_min_nodes = 1;
	return 0;
}

/* --contiguous: a placement hint (the local executor's nodes are names on
 * one host; pods have no order), recorded for scontrol's Contiguous=. */
int sl_sbopt_contiguous(void *c, const char *a, struct sl_err *e)
{
	(void)a, (void)e;
	CTX(c)->spec->contiguous = 1;
	return 0;
}

/* --tmp=SIZE[KMGT] (MB without a unit): the node's TmpDisk it needs, which
 * the submit policy checks against the config's tmpDisk. */
int sl_sbopt_tmp(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_parse_mem(a, &CTX(c)->spec->tmp_mb) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --tmp specification");
	return 0;
}

/* --wait-all-nodes=0|1: whether the script waits for every node to be
 * ready. A local job's nodes are this host, ready when it starts, so both
 * hold there; Kubernetes refuses 1 at submit (submit.c). */
int sl_sbopt_wait_all_nodes(void *c, const char *a, struct sl_err *e)
{
	char *end = NULL;
	long v = strtol(a, &end, 10);
	if (end == a || *end != '\0') {
		CTX(c)->status = 1;
		return sl_err_set(e, SL_EINVAL, "Invalid numeric value \"%s\" for --wait-all-nodes.",
				  a);
	}
	if (v != 0 && v != 1)
		return sl_err_set(e, SL_EINVAL, "Invalid --wait-all-nodes specification");
	CTX(c)->spec->wait_all_nodes = (int)v + 1; /* 0: not given */
	return 0;
}

/* --delay-boot=TIME: how long a job may wait rather than have its nodes
 * rebooted for its features. Sluice never reboots a node, so it holds
 * whatever it is; recorded for scontrol's DelayBoot=. */
int sl_sbopt_delay_boot(void *c, const char *a, struct sl_err *e)
{
	int64_t min;
	if (sl_slurm_time_parse_limit(a, &min) != 0 || min < 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --delay-boot specification");
	CTX(c)->spec->delay_boot = min;
	return 0;
}

/* -O/--overcommit: the job's CPUs are one task's a node (Slurm's "as if
 * only one task per node"), its tasks as many as asked; srun steps take
 * SLURM_OVERCOMMIT and run them all. */
int sl_sbopt_overcommit(void *c, const char *a, struct sl_err *e)
{
	(void)a, (void)e;
	CTX(c)->spec->overcommit = 1;
	return 0;
}

/* --gres-flags=enforce-binding|disable-binding: which CPUs a GPU comes
 * with, a placement Sluice leaves to the kernel and the device plugin;
 * recorded for scontrol's GresEnforceBind=. */
int sl_sbopt_gres_flags(void *c, const char *a, struct sl_err *e)
{
	if (strcasecmp(a, "enforce-binding") == 0)
		CTX(c)->spec->gres_flags = 1;
	else if (strcasecmp(a, "disable-binding") == 0)
		CTX(c)->spec->gres_flags = 2;
	else
		return sl_err_set(e, SL_EINVAL, "Invalid --gres-flags specification");
	return 0;
}

/* --profile: Sluice gathers no HDF5 profile, so only "none" holds. */
int sl_sbopt_profile(void *c, const char *a, struct sl_err *e)
{
	static const char *const names[] = {"none", "all", "energy", "task", "lustre", "network",
					    NULL};
	char *dup = sl_xstrdup(a), *save = NULL;
	int r = 0, some = 0;
	(void)c;
	for (char *t = strtok_r(dup, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (names[i] && strcasecmp(names[i], t) != 0)
			i++;
		if (names[i] == NULL)
			r = sl_err_set(e, SL_EINVAL, "invalid --profile=%s option", a);
		some |= i > 0;
	}
	if (r == 0 && some)
		r = sl_err_set(e, SL_EUNSUPP, "--profile=%s is not supported by Sluice: it gathers "
			       "no HDF5 profiles (sstat and sacct have the job's use)", a);
	free(dup);
	return r;
}

/* --time-min: the least limit Slurm's backfill may lower --time to so that
 * the job starts sooner. Sluice's never lowers a limit (it plans with the
 * whole --time), which "may" allows; recorded for scontrol's TimeMin=. */
int sl_sbopt_time_min(void *c, const char *a, struct sl_err *e)
{
	int64_t min;
	if (sl_slurm_time_parse_limit(a, &min) != 0 || min < 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --time-min specification");
	CTX(c)->spec->time_min = min;
	return 0;
}

/* --acctg-freq [task=]N[,energy=N,network=N,filesystem=N] (Slurm's
 * validate_acctg_freq): task sets how often sluice-stepd samples the job's
 * processes (0: never, the end's totals alone); Sluice gathers no energy,
 * network or filesystem data, as a Slurm without those plugins, so their
 * frequencies are taken and have nothing to sample. */
static int freq_of(const char *s, long *v)
{
	char *end;
	*v = strtol(s, &end, 10);
	return end != s && *end == '\0' && *v >= 0 && *v < 1000000 ? 0 : -1;
}

int sl_sbopt_acctg_freq(void *c, const char *a, struct sl_err *e)
{
	static const char *const other[] = {"energy=", "network=", "filesystem="};
	char *dup = sl_xstrdup(a), *save = NULL;
	int r = 0;
	long v;

	for (char *t = strtok_r(dup, ",", &save); t != NULL && r == 0; t = strtok_r(NULL, ",", &save)) {
		int ok = freq_of(t, &v) == 0 || (strncasecmp(t, "task=", 5) == 0 &&
						 freq_of(t + 5, &v) == 0);
		if (ok) {
			CTX(c)->spec->acctg_task = (int)v + 1;
			continue;
		}
		for (size_t i = 0; i < sizeof(other) / sizeof(other[0]) && !ok; i++)
			ok = strncasecmp(t, other[i], strlen(other[i])) == 0 &&
			     freq_of(t + strlen(other[i]), &v) == 0;
		if (!ok) {
			CTX(c)->status = 1;
			r = sl_err_set(e, SL_EINVAL, "Invalid --acctg-freq specification: %s", t);
		}
	}
	free(dup);
	return r;
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
 * with -n, a GPU for every N tasks (-n a multiple of N), and with -N
 * alone one a node; with neither, its refusal.
 * slurmctld counts those GPUs itself: they are no --gpus of the job (no
 * SLURM_GPUS), sl_jobspec_shape works them out. */
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
	if (gpus > 0) {
		if (s->ntasks == SL_NO_VAL)
			s->ntasks = gpus * n > 1000000 ? 1000000 : (int)(gpus * n);
		return 0;
	}
	if (s->ntasks != SL_NO_VAL && s->ntasks % n != 0) {
		c->status = 1;
		return sl_err_set(err, SL_EINVAL, "Failed to validate job spec, -n/--ntasks has to "
				  "be a multiple of --ntasks-per-gpu.\nInvalid generic resource (gres) "
				  "specification");
	}
	if (s->ntasks == SL_NO_VAL && (s->nodes == SL_NO_VAL || s->nodes <= 0)) {
		c->status = 1;
		return sl_err_set(err, SL_EINVAL, "gres_job_state_validate: --ntasks-per-tres needs "
				  "either a GRES GPU specification or a node/ntask specification\n"
				  "Invalid generic resource (gres) specification");
	}
	return 0;
}

/* --mem-per-gpu needs GPUs asked for, those --ntasks-per-gpu implies
 * included (slurmctld's refusal, the memory in MB). */
int sl_sbopt_finish_mem_gpu(struct ctx *c, struct sl_err *err)
{
	const struct sl_jobspec *s = c->spec;

	if (s->mem_per_gpu <= 0 || (s->gpus != SL_NO_VAL && s->gpus > 0) ||
	    (s->gpus_per_node != SL_NO_VAL && s->gpus_per_node > 0) || s->gpus_per_task > 0 ||
	    s->ntasks_per_gpu > 0)
		return 0;
	c->status = 1;
	return sl_err_set(err, SL_EINVAL, "Requested mem_per_tres=gres:gpu:%lld but did not request "
			  "any GPU.\nInvalid generic resource (gres) specification",
			  (long long)s->mem_per_gpu);
}
