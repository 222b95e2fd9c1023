/* srun_opt_place.c - srun's placement options: --hint, the binding options
 * (--cpu-bind, --mem-bind, --gpu-bind), --cpu-freq and --gpu-freq, -S and
 * --thread-spec, the per-core counts and -m. Slurm checks them while
 * parsing, with its words; Sluice's executors have no binding or
 * frequency control, so what they ask is kept as a hint (or put in the
 * tasks' environment) and has no effect. Split from srun_opt.c, whose
 * tables name these setters. */
#include "srun_opt_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "slurm_bind.h"
#include "slurm_dist.h"
#include "slurm_freq.h"
#include "slurm_opt.h"
#include "xalloc.h"

#define O(ctx) ((struct sl_srun_opts *)(ctx))

/* A placement hint with no meaning on Sluice's executors (README's table):
 * kept as given, with no effect. */
static void hint_add(struct sl_srun_opts *o, const char *name, const char *arg)
{
	char *h = sl_xasprintf("%s%s--%s=%s", o->hint ? o->hint : "", o->hint ? " " : "", name,
			       arg);
	free(o->hint);
	o->hint = h;
}

int sl_srun_set_hint(void *ctx, const char *arg, struct sl_err *err)
{
	struct sl_slurm_hint h;
	char *bad = NULL;
	if (sl_slurm_parse_hint(arg, &h, &bad) != 0) {
		sl_err_set(err, SL_EINVAL, "srun: error: unrecognized --hint argument \"%s\", see "
			   "--hint=help", bad);
		free(bad);
		return -SL_EINVAL;
	}
	if (h.help)
		return sl_err_set(err, SL_EUNSUPP, "srun: error: --hint=help is not supported by "
				  "Sluice");
	hint_add(O(ctx), "hint", arg);
	return 0;
}

/* A count that is only a placement hint: checked as Slurm does, kept. */
static int hint_count(void *ctx, const char *name, const char *arg, struct sl_err *err)
{
	char what[32];
	int v, r;
	snprintf(what, sizeof(what), "--%s", name);
	if ((r = sl_srun_count(arg, what, 0, &v, err)) == 0)
		hint_add(O(ctx), name, arg);
	return r;
}

/* The binding options (slurm_bind.h): placement hints Sluice has no
 * binding for, checked and kept; --cpu-bind also gets the line Slurm
 * prints on a cluster without task/affinity. */
int sl_srun_set_cpu_bind(void *ctx, const char *arg, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	int r = sl_slurm_bind_check("srun", SL_BIND_CPU, arg, &e);
	if (r == 1) {
		O(ctx)->bind_help = 1;
		return 0;
	}
	if (r != 0)
		return sl_err_set(err, SL_EINVAL, "srun: %s\nsrun: error: %s\nsrun: fatal: Failed to parse "
				  "--cpu-bind= values.", SL_SRUN_NO_CPU_BIND, e.msg);
	O(ctx)->cpu_bind_warn = 1;
	free(O(ctx)->cpu_bind);
	O(ctx)->cpu_bind = sl_xstrdup(arg);
	hint_add(O(ctx), "cpu-bind", arg);
	return 0;
}

int sl_srun_set_mem_bind(void *ctx, const char *arg, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	int r = sl_slurm_bind_check("srun", SL_BIND_MEM, arg, &e);
	if (r == 1) {
		O(ctx)->bind_help = 2;
		return 0;
	}
	if (r != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: %s", e.msg);
	}
	hint_add(O(ctx), "mem-bind", arg);
	return 0;
}

int sl_srun_set_gpu_bind(void *ctx, const char *arg, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	if (sl_slurm_bind_check("srun", SL_BIND_GPU, arg, &e) != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: %s", e.msg);
	}
	free(O(ctx)->gpu_bind); /* the tasks' binding: srun_gpu_bind.c */
	O(ctx)->gpu_bind = sl_xstrdup(arg);
	return 0;
}

/* --cpu-freq and --gpu-freq (slurm_freq.h): checked, and the tasks get
 * them in their environment; no frequency is set. */
int sl_srun_set_cpu_freq(void *ctx, const char *arg, struct sl_err *err)
{
	struct sl_err why = SL_ERR_INIT;
	struct sl_cpu_freq f;
	char text[128];
	if (sl_slurm_cpu_freq_parse(arg, &f, &why) != 0) {
		O(ctx)->fatal_value = 1;
		char *lines = sl_xstrdup(why.msg), *save = NULL;
		struct sl_buf *b = sl_buf_new(128);
		for (char *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			sl_buf_addf(b, "srun: error: %s\n", l);
		sl_err_set(err, SL_EINVAL, "%ssrun: error: Invalid --cpu-freq argument",
			   sl_buf_str(b));
		sl_buf_free(b);
		free(lines);
		return -SL_EINVAL;
	}
	sl_slurm_cpu_freq_cmdline(&f, text, sizeof(text));
	free(O(ctx)->cpu_freq);
	O(ctx)->cpu_freq = sl_xstrdup(text);
	return 0;
}

int sl_srun_set_gpu_freq(void *ctx, const char *arg, struct sl_err *err)
{
	if (sl_slurm_gpu_freq_check(arg) != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --gpu-freq argument: gpu:%s",
				  arg);
	}
	free(O(ctx)->gpu_freq);
	O(ctx)->gpu_freq = sl_xstrdup(arg);
	return 0;
}

/* -S and --thread-spec: Slurm's parse_int, then its lines (srun.c). */
static int spec_count(struct sl_srun_opts *o, const char *name, const char *arg, int positive,
		      int kind, struct sl_err *err)
{
	char *end = NULL;
	long v = strtol(arg, &end, 10);
	if (*end != '\0' || v < 0 || (positive && v == 0))
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid numeric value \"%s\" for %s.",
				  arg, name);
	o->spec_warn = kind;
	return 0;
}
int sl_srun_set_core_spec(void *ctx, const char *arg, struct sl_err *err)
{
	return spec_count(O(ctx), "--core-spec", arg, 0, 1, err);
}
int sl_srun_set_thread_spec(void *ctx, const char *arg, struct sl_err *err)
{
	return spec_count(O(ctx), "--thread-spec", arg, 1, 2, err);
}

int sl_srun_set_tpcore(void *ctx, const char *arg, struct sl_err *err)
{
	return hint_count(ctx, "ntasks-per-core", arg, err);
}
int sl_srun_set_tpc(void *ctx, const char *arg, struct sl_err *err)
{
	return hint_count(ctx, "threads-per-core", arg, err);
}

/* -m (slurm_dist.h): the node level is honoured (block, or cyclic: tasks
 * round the nodes); the socket and core levels are hints. */
int sl_srun_set_distribution(void *ctx, const char *arg, struct sl_err *err)
{
	char text[64];
	int cyclic, r = sl_slurm_dist_parse(arg, text, sizeof(text), &cyclic);
	if (r == -SL_EUNSUPP)
		return sl_err_set(err, SL_EUNSUPP, "srun: error: --distribution=%s is not supported "
				  "by Sluice", arg);
	if (r != 0) {
		O(ctx)->fatal_value = 1;
		return sl_err_set(err, SL_EINVAL, "srun: error: Invalid --distribution specification");
	}
	O(ctx)->cyclic = cyclic;
	free(O(ctx)->dist);
	O(ctx)->dist = sl_xstrdup(text);
	if (strchr(text, ':') != NULL)
		hint_add(O(ctx), "distribution", strchr(text, ':') + 1);
	return 0;
}
