/* slurm_opt_bind.c - sbatch's options for what happens on a node that
 * Sluice's executors leave to the kernel: --gpu-bind and --mem-bind
 * (slurm_bind.h says why nothing is bound), --cpu-freq and --gpu-freq
 * (slurm_freq.h: no frequency is set), checked as Slurm checks them, kept
 * on the job and passed to its steps through the environment; -S and
 * --thread-spec, which Slurm's default AllowSpecResourcesUsage=No answers
 * with a line and drops; --spread-job, recorded. */
#include "slurm_opt_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "slurm_bind.h"
#include "slurm_freq.h"
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

int sl_sbopt_cpu_freq(void *c, const char *a, struct sl_err *e)
{
	struct sl_err why = SL_ERR_INIT;
	struct sl_cpu_freq f;
	char text[128];

	if (sl_slurm_cpu_freq_parse(a, &f, &why) != 0)
		return sl_err_set(e, SL_EINVAL, "%s\nInvalid --cpu-freq argument", why.msg);
	sl_slurm_cpu_freq_cmdline(&f, text, sizeof(text));
	free(CTX(c)->spec->cpu_freq);
	CTX(c)->spec->cpu_freq = sl_xstrdup(text);
	return 0;
}

int sl_sbopt_gpu_freq(void *c, const char *a, struct sl_err *e)
{
	if (sl_slurm_gpu_freq_check(a) != 0)
		return sl_err_set(e, SL_EINVAL, "Invalid --gpu-freq argument: gpu:%s", a);
	free(CTX(c)->spec->gpu_freq);
	CTX(c)->spec->gpu_freq = sl_xstrdup(a);
	return 0;
}

/* Slurm's parse_int: a count, positive for --thread-spec. */
static int spec_count(void *c, const char *name, const char *a, int positive, int thread,
		      struct sl_err *e)
{
	char *end = NULL;
	long v = strtol(a, &end, 10);
	char msg[160];

	if (*end != '\0' || v < 0 || (positive && v == 0)) {
		snprintf(msg, sizeof(msg), "Invalid numeric value \"%s\" for %s.", a, name);
		return sl_sbopt_fail1(c, e, msg);
	}
	if (v == LONG_MAX) {
		snprintf(msg, sizeof(msg), "Numeric argument (%ld) to big for %s.", v, name);
		return sl_sbopt_fail1(c, e, msg);
	}
	if (thread)
		CTX(c)->thread_spec_src |= SRC_BIT(CTX(c)->src);
	else
		CTX(c)->core_spec_src |= SRC_BIT(CTX(c)->src);
	CTX(c)->spec_thread = thread;
	return 0;
}

int sl_sbopt_core_spec(void *c, const char *a, struct sl_err *e)
{
	return spec_count(c, "--core-spec", a, 0, 0, e);
}

int sl_sbopt_thread_spec(void *c, const char *a, struct sl_err *e)
{
	return spec_count(c, "--thread-spec", a, 1, 1, e);
}

int sl_sbopt_spread_job(void *c, const char *a, struct sl_err *e)
{
	(void)a;
	(void)e;
	CTX(c)->spec->spread_job = 1;
	return 0;
}

/* Slurm's _validate_spec_cores_options: both on the command line (or in
 * the script) is fatal, both in the environment too; otherwise the last
 * one given is named and dropped (AllowSpecResourcesUsage=No). */
int sl_sbopt_finish_spec(struct ctx *c, struct sl_err *err)
{
	unsigned cli = SRC_BIT(SRC_CLI) | SRC_BIT(SRC_SCRIPT), env = SRC_BIT(SRC_ENV);
	unsigned core = c->core_spec_src, thread = c->thread_spec_src;

	if (core == 0 && thread == 0)
		return 0;
	c->status = 1;
	if ((core & cli) && (thread & cli)) {
		c->fl->fatal = 1;
		return sl_err_set(err, SL_EINVAL,
				  "-S/--core-spec and --thred-spec options are mutually exclusive");
	}
	if ((core & env) && (thread & env) && !(core & cli) && !(thread & cli)) {
		c->fl->fatal = 1;
		return sl_err_set(err, SL_EINVAL, "Both --core-spec and --thread-spec set using "
				  "environment variables. Those options are mutually exclusive.");
	}
	c->status = 0;
	char *w = sl_xasprintf("%ssbatch: error: Ignoring %s since it's not allowed by "
			       "configuration (AllowSpecResourcesUsage = No)\n",
			       c->fl->warn ? c->fl->warn : "", c->spec_thread ? "--thread-spec" : "-S");
	free(c->fl->warn);
	c->fl->warn = w;
	return 0;
}
