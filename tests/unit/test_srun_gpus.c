/* test_srun_gpus.c - a step's GPUs out of its job's (compat/srun_gpus.c):
 * the options and input variables, Slurm 22.05's refusals (each seen on a
 * live cluster with GPUs), and the tasks' GPU variables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "srun_gpus.h"
#include "srun_layout.h"
#include "srun_opt.h"
#include "xalloc.h"

/* The job's variables: two GPUs on n1 with 4 CPUs, asked for as kind says
 * ("gres": --gres=gpu:2, "gpn": --gpus-per-node=2, "gpus": --gpus=2, "gpt":
 * -n2 --gpus-per-task=1, "none": no GPUs). */
static char **job_env(const char *kind)
{
	static char *env[16];
	int n = 0;
	env[n++] = "SLURM_JOB_ID=7";
	env[n++] = "SLURM_JOB_NODELIST=n1";
	env[n++] = "SLURM_JOB_CPUS_PER_NODE=4";
	env[n++] = "SLURM_NTASKS=2";
	if (strcmp(kind, "none") != 0) {
		env[n++] = "SLURM_JOB_GPUS=0,1";
		env[n++] = "CUDA_VISIBLE_DEVICES=0,1";
	}
	if (strcmp(kind, "gpus") == 0)
		env[n++] = "SLURM_GPUS=2";
	if (strcmp(kind, "gpt") == 0)
		env[n++] = "SLURM_GPUS_PER_TASK=1";
	if (strcmp(kind, "gpn") == 0)
		env[n++] = "SLURM_GPUS_PER_NODE=2";
	env[n] = NULL;
	return env;
}

/* srun ARGS... true in a job of kind: 0 with l laid out, else err. */
static int step(const char *kind, struct sl_srun_layout *l, struct sl_err *err, ...)
{
	char *argv[16] = {"srun"}, **env = job_env(kind), *warn = NULL;
	struct sl_srun_alloc a;
	struct sl_srun_opts o;
	int argc = 1, st, r;
	va_list ap;
	va_start(ap, err);
	for (char *s; (s = va_arg(ap, char *)) != NULL;)
		argv[argc++] = s;
	va_end(ap);
	argv[argc++] = "true";
	*err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_srun_alloc_from_env(env, &a, err), 0);
	assert_int_equal(sl_srun_opts_parse(argc, argv, env, &o, &st, err), 0);
	r = sl_srun_layout_make(&o, &a, l, &warn, err);
	free(warn);
	if (r == 0) { /* keep the job's GPU names past a, --gpu-bind past o */
		l->gpus = sl_strv_dup(a.gpus);
		l->gpu_bind = o.gpu_bind ? sl_xstrdup(o.gpu_bind) : NULL;
	}
	sl_srun_opts_clear(&o);
	sl_srun_alloc_clear(&a);
	return r;
}

static void done(struct sl_srun_layout *l)
{
	sl_strv_free(l->gpus);
	l->gpus = NULL;
	free((char *)l->gpu_bind);
	l->gpu_bind = NULL;
	sl_srun_layout_clear(l);
}

static const char *get(char **env, const char *k)
{
	size_t n = strlen(k);
	for (char **e = env; e && *e; e++)
		if (strncmp(*e, k, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static void test_counts(void **state)
{
	(void)state;
	assert_int_equal(sl_srun_gpu_count("2", 0), 2);
	assert_int_equal(sl_srun_gpu_count("a100:3", 0), 3);
	assert_int_equal(sl_srun_gpu_count("x", 0), SL_SRUN_GPUS_BAD);
	assert_int_equal(sl_srun_gpu_count("gpu:2", 1), 2);
	assert_int_equal(sl_srun_gpu_count("gpu:a100:4", 1), 4);
	assert_int_equal(sl_srun_gpu_count("gpu", 1), 1);
	assert_int_equal(sl_srun_gpu_count("gres:gpu:2", 1), 2);
	assert_int_equal(sl_srun_gpu_count("nvme:1", 1), 0);
	assert_int_equal(sl_srun_gpu_count("gpuish:1", 1), 0);
}

/* DeepSpeed's step in a --gpus=2 job: both GPUs, unbound */
static void test_step_gpus(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err;
	char *base[] = {"CUDA_VISIBLE_DEVICES=0,1", "SLURM_GPUS_ON_NODE=2", NULL}, **e;
	(void)state;
	assert_int_equal(step("gpus", &l, &err, "-n", "2", "--nodes", "1", "--gpus", "2", NULL), 0);
	e = sl_srun_task_env(&l, 1, base);
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "0,1");
	assert_string_equal(get(e, "SLURM_STEP_GPUS"), "0,1");
	assert_string_equal(get(e, "ROCR_VISIBLE_DEVICES"), "0,1");
	assert_string_equal(get(e, "ZE_AFFINITY_MASK"), "0,1");
	assert_string_equal(get(e, "GPU_DEVICE_ORDINAL"), "0,1");
	assert_string_equal(get(e, "SLURM_GPUS_ON_NODE"), "2");
	assert_null(get(e, "SLURMD_TRES_BIND"));
	sl_strv_free(e);
	done(&l);
	/* --gres=gpu:1 (mmdet): one of them; SLURM_GPUS=2 of the job gives way */
	assert_int_equal(step("gpus", &l, &err, "-n1", "--gres=gpu:1", NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(e, "SLURM_STEP_GPUS"), "0");
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "0");
	assert_string_equal(get(e, "SLURM_GPUS_ON_NODE"), "1");
	sl_strv_free(e);
	done(&l);
	/* none asked: all the job's */
	assert_int_equal(step("gres", &l, &err, "-n1", NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(e, "SLURM_STEP_GPUS"), "0,1");
	sl_strv_free(e);
	done(&l);
	/* --gres=none: no GPU variable at all */
	assert_int_equal(step("gres", &l, &err, "-n1", "--gres=none", NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_null(get(e, "CUDA_VISIBLE_DEVICES"));
	assert_null(get(e, "SLURM_GPUS_ON_NODE"));
	assert_null(get(e, "SLURM_STEP_GPUS"));
	sl_strv_free(e);
	done(&l);
}

/* --gpus-per-task binds each task of a node with more than one */
static void test_per_task(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err;
	char *base[] = {NULL}, **e;
	(void)state;
	assert_int_equal(step("gres", &l, &err, "-n2", "--gpus-per-task=1", NULL), 0);
	e = sl_srun_task_env(&l, 1, base);
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "1");
	assert_string_equal(get(e, "SLURM_STEP_GPUS"), "1");
	assert_string_equal(get(e, "SLURM_GPUS_ON_NODE"), "2");
	assert_string_equal(get(e, "SLURMD_TRES_BIND"), "gpu:per_task:1");
	sl_strv_free(e);
	done(&l);
	/* the job's --gpus-per-task (SLURM_GPUS_PER_TASK) is the step's too */
	assert_int_equal(step("gpt", &l, &err, NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "0");
	assert_string_equal(get(e, "SLURMD_TRES_BIND"), "gpu:per_task:1");
	sl_strv_free(e);
	done(&l);
	/* one task on the node: its GPU, and no binding (slurmstepd drops it) */
	assert_int_equal(step("gpt", &l, &err, "-n1", NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "0");
	assert_string_equal(get(e, "SLURM_GPUS_ON_NODE"), "1");
	assert_null(get(e, "SLURMD_TRES_BIND"));
	sl_strv_free(e);
	done(&l);
}

/* srun -n N --gpu-bind=BIND in a --gres=gpu:2 job: each task's
 * CUDA_VISIBLE_DEVICES ("-" unset) and slurmstepd's lines on its stderr,
 * joined with "|" ("" none) */
static void bound(const char *n, const char *bind, const char *want, const char *want_msg)
{
	struct sl_srun_layout l;
	struct sl_err err;
	char *base[] = {"CUDA_VISIBLE_DEVICES=0,1", "SLURM_STEP_GPUS=0,1", NULL}, **e, *m;
	char got[256] = "", msgs[2048] = "";
	char opt[128];
	snprintf(opt, sizeof(opt), "--gpu-bind=%s", bind);
	assert_int_equal(step("gres", &l, &err, "-n", n, opt, NULL), 0);
	for (int t = 0; t < l.ntasks; t++) {
		const char *c;
		e = sl_srun_task_env(&l, t, base);
		c = get(e, "CUDA_VISIBLE_DEVICES");
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", t ? "|" : "",
			 c ? c : "-");
		/* the same GPUs under every name; the binding in SLURMD_TRES_BIND */
		assert_string_equal(get(e, "SLURM_STEP_GPUS") ? get(e, "SLURM_STEP_GPUS") : "-",
				    c ? c : "-");
		assert_string_equal(get(e, "SLURM_GPUS_ON_NODE"), "2");
		if (l.ntasks > 1)
			assert_string_equal(get(e, "SLURMD_TRES_BIND") + 4, bind);
		if ((m = sl_srun_gpus_msg(&l, t)) != NULL)
			snprintf(msgs + strlen(msgs), sizeof(msgs) - strlen(msgs), "%s", m);
		free(m);
		sl_strv_free(e);
	}
	assert_string_equal(got, want);
	assert_string_equal(msgs, want_msg);
	done(&l);
}

/* --ntasks-per-gpu (and the job's SLURM_NTASKS_PER_GPU): gpu:single:N */
static void test_ntasks_per_gpu(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err;
	char *base[] = {NULL}, **e;
	(void)state;
	assert_int_equal(step("gres", &l, &err, "-n2", "--ntasks-per-gpu=1", NULL), 0);
	e = sl_srun_task_env(&l, 1, base);
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "1");
	assert_string_equal(get(e, "SLURMD_TRES_BIND"), "gpu:single:1");
	assert_string_equal(get(e, "SLURM_NTASKS_PER_TRES"), "1");
	sl_strv_free(e);
	done(&l);
}

/* --gpu-bind, each seen on Slurm 22.05 (salloc -n3 --gpus-per-node=2) */
static void test_gpu_bind(void **state)
{
	(void)state;
	bound("2", "single:1", "0|1", "");
	bound("3", "single:2", "0|0|1", "");
	bound("2", "map_gpu:1,0", "1|0", "");
	bound("3", "map_gpu:1*2,0", "1|1|0", "");
	bound("3", "map_gpu:1", "1|1|1", "");
	bound("2", "mask_gpu:0x1,0x2", "0|1", "");
	bound("2", "mask_gpu:0x3,0x2", "0,1|1", "");
	bound("2", "per_task:1", "0|1", "");
	bound("2", "closest", "0,1|0,1", "");
	bound("2", "none", "-|-", "");
	bound("2", "verbose,none", "-|-", "");
	/* one task on the node: slurmstepd drops the binding */
	bound("1", "map_gpu:1", "0,1", "");
	bound("2", "verbose,map_gpu:1,0", "1|0",
	      "gpu-bind: usable_gres=0x2; bit_alloc=0x3; local_inx=0; global_list=1; local_list=1\n"
	      "gpu-bind: usable_gres=0x1; bit_alloc=0x3; local_inx=0; global_list=0; local_list=0\n");
	bound("2", "verbose,closest", "0,1|0,1",
	      "gpu-bind: usable_gres=0x3; bit_alloc=0x3; local_inx=0; global_list=0,1; "
	      "local_list=0,1\n"
	      "gpu-bind: usable_gres=0x3; bit_alloc=0x3; local_inx=0; global_list=0,1; "
	      "local_list=0,1\n");
	bound("2", "mask_gpu:0x4", "0|0",
	      "slurmstepd-n1: error: Bind request gpu:mask_gpu:0x4 does not specify any devices "
	      "within the allocation for task 0. Binding to the first device in the allocation "
	      "instead.\n"
	      "slurmstepd-n1: error: Bind request gpu:mask_gpu:0x4 does not specify any devices "
	      "within the allocation for task 1. Binding to the first device in the allocation "
	      "instead.\n");
	bound("2", "single:0", "0|1",
	      "slurmstepd-n1: error: _parse_tres_bind: single:0 does not specify a valid number. "
	      "Defaulting to 1.\n"
	      "slurmstepd-n1: error: _parse_tres_bind: single:0 does not specify a valid number. "
	      "Defaulting to 1.\n");
}

#define INVALID "srun: error: Unable to create step for job 7: Invalid generic resource (gres) " \
		"specification"

static void refused(const char *kind, const char *msg, ...)
{
	struct sl_srun_layout l;
	struct sl_err err;
	char *argv[8];
	int n = 0;
	va_list ap;
	va_start(ap, msg);
	for (char *s; (s = va_arg(ap, char *)) != NULL;)
		argv[n++] = s;
	va_end(ap);
	argv[n] = NULL;
	assert_int_not_equal(step(kind, &l, &err, argv[0], argv[1], argv[2], NULL), 0);
	assert_string_equal(err.msg, msg);
	sl_srun_layout_clear(&l);
}

/* Slurm's words, job by job (a live 22.05 with 2-GPU jobs) */
static void test_refusals(void **state)
{
	(void)state;
	refused("gpus", "srun: error: Step requested gres=gpu:3 is more than the job's gres=gpu:2\n"
		INVALID, "-n1", "--gpus=3", NULL);
	refused("gpt", "srun: error: Step requested gres=gpu:3 is more than the job's gres=gpu:2\n"
		INVALID, "-n1", "--gpus=3", NULL);
	refused("gres", INVALID, "-n1", "--gpus=3", NULL);
	refused("gres", "srun: error: Step requested gres_per_node=gpu:3 is more than the job's "
		"gres_per_node=gpu:2\n" INVALID, "-n1", "--gres=gpu:3", NULL);
	refused("gres", "srun: error: Step requested gres_per_node=gpu:3 is more than the job's "
		"gres_per_node=gpu:2\n" INVALID, "-n1", "--gpus-per-node=3", NULL);
	refused("gpus", INVALID, "-n1", "--gres=gpu:3", NULL);
	refused("gpt", INVALID, "-n1", "--gres=gpu:3", NULL);
	refused("gres", INVALID, "-n1", "--gpus-per-task=3", NULL);
	refused("gpt", "srun: error: Step requested gres_per_task=gpu:3 is more than the job's "
		"gres_per_task=gpu:1\n" INVALID, "-n1", "--gpus-per-task=3", NULL);
	refused("gres", "srun: error: Unable to create step for job 7: More processors requested "
		"than permitted", "-n2", "--gpus-per-task=2", NULL);
	refused("none", "srun: error: Step requested GRES but job doesn't have GRES\n" INVALID,
		"-n1", "--gpus=1", NULL);
	refused("none", "srun: error: Step requested GRES but job doesn't have GRES\n" INVALID,
		"-n1", "--gpus=x", NULL);
	refused("gres", INVALID, "-n1", "--gpus=x", NULL);
	/* --gres=none beside a count per node, the job's (SLURM_GPUS_PER_NODE)
	 * or typed (the reference cluster's line); none alone is taken */
	refused("gpn", "srun: error: Unable to create step for job 7: Invalid Trackable RESource "
		"(TRES) specification", "-n1", "--gres=none", NULL);
	refused("gres", "srun: error: Unable to create step for job 7: Invalid Trackable RESource "
		"(TRES) specification", "-n1", "--gres=none", "--gpus-per-node=1", NULL);
	refused("none", "srun: error: Step requested GRES but job doesn't have GRES\n" INVALID,
		"-n2", "--ntasks-per-gpu=1", NULL);
	struct sl_srun_layout l;
	struct sl_err err;
	assert_int_equal(step("gpn", &l, &err, "-n1", NULL), 0);
	assert_int_equal(l.gpus_on[0], 2);
	done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts), cmocka_unit_test(test_step_gpus),
		cmocka_unit_test(test_per_task), cmocka_unit_test(test_gpu_bind),
		cmocka_unit_test(test_ntasks_per_gpu),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
