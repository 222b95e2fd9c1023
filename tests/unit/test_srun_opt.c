/* test_srun_opt.c - srun's option table, the step layout inside an
 * allocation (Slurm's refusals), task variables, --export and
 * --multi-prog (compat/srun_*.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "srun_layout.h"
#include "srun_multiprog.h"
#include "srun_opt.h"
#include "xalloc.h"

static int parse(struct sl_srun_opts *o, char **env, int *status, struct sl_err *err, ...)
{
	static char *argv[32];
	int argc = 1;
	va_list ap;
	memset(argv, 0, sizeof(argv)); /* o.argv points in here after the call */
	argv[0] = "srun";
	va_start(ap, err);
	for (char *a; (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	va_end(ap);
	return sl_srun_opts_parse(argc, argv, env, o, status, err);
}

static void test_basic(void **state)
{
	struct sl_srun_opts o;
	struct sl_err err = SL_ERR_INIT;
	/* the job's node count is -N's variable; SLURM_NNODES (a step's) is not */
	char *env[] = {"SLURM_NTASKS=8", "SLURM_NNODES=3", "SLURM_JOB_NUM_NODES=1", NULL};
	int st;
	(void)state;
	assert_int_equal(parse(&o, env, &st, &err, "-l", "-n", "2", "-c2", "--overlap", "-K",
			       "hostname", "-x", NULL), 0);
	assert_int_equal(o.ntasks, 2);
	assert_int_equal(o.ntasks_opt, 1);
	assert_int_equal(o.cpus_per_task, 2);
	assert_int_equal(o.nodes, 1);
	assert_int_equal(o.nodes_opt, 0);
	assert_true(o.label && o.overlap);
	assert_int_equal(o.kill_on_bad_exit, 1);
	assert_int_equal(o.argc, 2);
	assert_string_equal(o.argv[1], "-x"); /* the command's own options */
	assert_null(o.alloc);
	sl_srun_opts_clear(&o);
	/* what sizes or places an allocation srun makes: sbatch's options */
	assert_int_equal(parse(&o, env, &st, &err, "-p", "gpu", "--mem=4G", "--exclusive", "true",
			       NULL), 0);
	assert_string_equal(o.alloc[0], "--partition=gpu");
	assert_string_equal(o.alloc[1], "--mem=4G");
	assert_string_equal(o.alloc[2], "--exclusive");
	assert_null(o.alloc[3]);
	sl_srun_opts_clear(&o);
	/* the environment's count when -n is not typed */
	assert_int_equal(parse(&o, env, &st, &err, "true", NULL), 0);
	assert_int_equal(o.ntasks, 8);
	assert_int_equal(o.ntasks_opt, 0);
	sl_srun_opts_clear(&o);
}

static void expect_err(const char *msg, int status, ...)
{
	char *argv[16] = {"srun"}, *env[] = {NULL};
	struct sl_srun_opts o;
	struct sl_err err = SL_ERR_INIT;
	int argc = 1, st = 0;
	va_list ap;
	va_start(ap, status);
	for (char *a; (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	va_end(ap);
	assert_int_not_equal(sl_srun_opts_parse(argc, argv, env, &o, &st, &err), 0);
	assert_string_equal(err.msg, msg);
	assert_int_equal(st, status);
	sl_srun_opts_clear(&o);
}

/* Slurm 22.05's words, captured on the reference cluster. */
static void test_errors(void **state)
{
	(void)state;
	expect_err("srun: error: Invalid numeric value \"x\" for --ntasks.", 1, "-n", "x", "true",
		   NULL);
	expect_err("srun: error: Invalid numeric value \"0\" for --cpus-per-task.", 1, "-c", "0",
		   "true", NULL);
	/* these three exit 255, the others 1 (the reference cluster, again) */
	expect_err("srun: error: \"x\" is not a valid node count", 255, "-N", "x", "true", NULL);
	expect_err("srun: error: Maximum node count 1 is less than minimum node count 3", 255, "-N",
		   "3-1", "true", NULL);
	expect_err("srun: error: Invalid --exclusive specification", 255, "--exclusive=bogus", "true",
		   NULL);
	expect_err("srun: error: Invalid numeric value \"abc\" for --kill-on-bad-exit.", 1,
		   "--kill-on-bad-exit=abc", "true", NULL);
	expect_err("srun: error: Invalid numeric value \"abc\" for --jobid.", 1, "--jobid=abc", "true",
		   NULL);
	expect_err("srun: error: Invalid --time specification", 255, "-t", "abc", "true", NULL);
	expect_err("srun: error: Invalid --mem specification", 255, "--mem=bogus", "true", NULL);
	expect_err("srun: error: Invalid numeric value \"x\" for --wait.", 1, "-W", "x", "true",
		   NULL);
	expect_err("srun: unrecognized option '--foo'\nTry \"srun --help\" for more information",
		   255, "--foo", "true", NULL);
	expect_err("srun: fatal: No command given to execute.", 1, NULL);
	expect_err("srun: error: Invalid MPI type 'foo', --mpi=list for acceptable types", 1,
		   "--mpi=foo", "true", NULL);
	/* refused by name, never ignored */
	expect_err("srun: error: --bcast is not supported by Sluice", 1, "--bcast", "true", NULL);
	expect_err("srun: error: --x11 is not supported by Sluice", 1, "--x11", "true", NULL);
	expect_err("srun: error: --mpi=cray_shasta is not supported by Sluice", 1,
		   "--mpi=cray_shasta", "true", NULL);
	expect_err("srun: error: Invalid MPI type 'pmix_v3', --mpi=list for acceptable types", 1,
		   "--mpi=pmix_v3", "true", NULL);
	/* the binding options: Slurm 22.05's words on a task/none cluster */
	expect_err("srun: cluster configuration lacks support for cpu binding\n"
		   "srun: error: unrecognized --cpu-bind argument \"bogus\"\n"
		   "srun: fatal: Failed to parse --cpu-bind= values.", 1, "--cpu-bind=v,bogus",
		   "true", NULL);
	expect_err("srun: cluster configuration lacks support for cpu binding\n"
		   "srun: error: Failed to validate number: bad, the offending character is b\n"
		   "srun: fatal: Failed to parse --cpu-bind= values.", 1, "--cpu-bind=map_cpu:0,bad",
		   "true", NULL);
	expect_err("srun: error: unrecognized --mem-bind argument \"bogus\"", 255,
		   "--mem-bind=bogus", "true", NULL);
	expect_err("srun: error: Invalid --gpu-bind argument: gpu:bogus", 255,
		   "--gpu-bind=bogus", "true", NULL);
	expect_err("srun: error: Invalid --distribution specification", 255, "-m", "foo", "true",
		   NULL);
	expect_err("srun: error: Invalid --open-mode specification", 255, "--open-mode=bogus",
		   "true", NULL);
	expect_err("srun: error: --distribution=plane=2 is not supported by Sluice", 1, "-m",
		   "plane=2", "true", NULL);
}

/* Step options Slurm accepts in a job (reference cluster): placement
 * hints kept, the step's own CPUs, memory, nodes and file mode. */
static void test_step_opts(void **state)
{
	struct sl_srun_opts o;
	struct sl_err err = SL_ERR_INIT;
	char *env[] = {NULL};
	int st = 0;
	(void)state;
	assert_int_equal(parse(&o, env, &st, &err, "--hint=nomultithread", "--threads-per-core=1",
			       "-m", "block:block", "--exclusive", "--mem-per-cpu=2G", "-w", "n1",
			       "--open-mode=append", "--quit-on-interrupt", "--gpus-per-task=0",
			       "-n", "1", "true", NULL), 0);
	assert_string_equal(o.hint, "--hint=nomultithread --threads-per-core=1 "
			    "--distribution=block");
	assert_int_equal(o.cpu_bind_warn, 0);
	assert_int_equal(o.cyclic, 0);
	assert_int_equal(o.step_exclusive, 1);
	assert_int_equal(o.mem_per_cpu_mib, 2048);
	assert_int_equal(o.mem_mib, -1);
	assert_string_equal(o.nodelist, "n1");
	assert_int_equal(o.open_append, 1);
	assert_int_equal(o.quit_on_interrupt, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, env, &st, &err, "--cpu-bind=verbose,cores",
			       "--mem-bind=local", "--gpu-bind=verbose,closest",
			       "--cpu-bind=mask_cpu:0x3,0xc*2", "true", NULL), 0);
	assert_string_equal(o.hint, "--cpu-bind=verbose,cores --mem-bind=local "
			    "--cpu-bind=mask_cpu:0x3,0xc*2");
	assert_string_equal(o.gpu_bind, "verbose,closest"); /* a binding, not a hint */
	assert_int_equal(o.cpu_bind_warn, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, env, &st, &err, "--cpu-bind=help", NULL), 0);
	assert_int_equal(o.bind_help, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, env, &st, &err, "--mem-bind=help", NULL), 0);
	assert_int_equal(o.bind_help, 2);
	sl_srun_opts_clear(&o);
	/* 22.05's input variables: the job's memory is the step's unless
	 * given; -c comes from SRUN_CPUS_PER_TASK, not SLURM_CPUS_PER_TASK */
	char *jenv[] = {"SLURM_MEM_PER_NODE=1024", "SLURM_CPUS_PER_TASK=2",
			"SLURM_OPEN_MODE=a", NULL};
	assert_int_equal(parse(&o, jenv, &st, &err, "true", NULL), 0);
	assert_int_equal(o.mem_mib, 1024);
	assert_int_equal(o.cpus_per_task, 0);
	assert_int_equal(o.open_append, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, jenv, &st, &err, "--mem-per-cpu=300", "true", NULL), 0);
	assert_int_equal(o.mem_mib, -1);
	assert_int_equal(o.mem_per_cpu_mib, 300);
	sl_srun_opts_clear(&o);
	/* --mpi=pmix, also from SLURM_MPI_TYPE; a later --mpi=none wins */
	char *menv[] = {"SLURM_MPI_TYPE=pmix", NULL};
	assert_int_equal(parse(&o, menv, &st, &err, "true", NULL), 0);
	assert_int_equal(o.mpi_pmix, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, menv, &st, &err, "--mpi=none", "true", NULL), 0);
	assert_int_equal(o.mpi_pmix, 0);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, env, &st, &err, "--mpi=pmix_v4", "true", NULL), 0);
	assert_int_equal(o.mpi_pmix, 1);
	sl_srun_opts_clear(&o);
	/* --mpi=pmi2, also from SLURM_MPI_TYPE; the last named wins */
	char *p2env[] = {"SLURM_MPI_TYPE=pmi2", NULL};
	assert_int_equal(parse(&o, p2env, &st, &err, "true", NULL), 0);
	assert_int_equal(o.mpi_pmi2, 1);
	assert_int_equal(o.mpi_given, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, p2env, &st, &err, "--mpi=pmix", "true", NULL), 0);
	assert_int_equal(o.mpi_pmi2, 0);
	assert_int_equal(o.mpi_pmix, 1);
	sl_srun_opts_clear(&o);
	assert_int_equal(parse(&o, menv, &st, &err, "--mpi=pmi2", "true", NULL), 0);
	assert_int_equal(o.mpi_pmi2, 1);
	assert_int_equal(o.mpi_pmix, 0);
	sl_srun_opts_clear(&o);
	/* -X; the allocation options srun and salloc pass to sbatch's parser */
	assert_int_equal(parse(&o, env, &st, &err, "-X", "--tmp=1G", "--use-min-nodes", "true",
			       NULL), 0);
	assert_int_equal(o.disable_status, 1);
	assert_string_equal(o.alloc[0], "--tmp=1G");
	assert_string_equal(o.alloc[1], "--use-min-nodes");
	sl_srun_opts_clear(&o);
	{
		char *sargv[] = {"salloc", "--contiguous", "-k", "--wckey=w", "--spread-job",
				 "--cpu-freq=low", "--thread-spec=1", "--bell", NULL};
		assert_int_equal(sl_salloc_opts_parse(7, sargv, env, &o, &st, &err), 0);
		assert_string_equal(o.alloc[0], "--contiguous");
		assert_string_equal(o.alloc[1], "--no-kill");
		assert_string_equal(o.alloc[2], "--wckey=w");
		assert_string_equal(o.alloc[3], "--spread-job");
		assert_string_equal(o.alloc[4], "--cpu-freq=low");
		assert_string_equal(o.cpu_freq, "Low");
		assert_int_equal(o.spec_warn, 2);
		sl_srun_opts_clear(&o);
		assert_int_not_equal(sl_salloc_opts_parse(8, sargv, env, &o, &st, &err), 0);
		assert_string_equal(err.msg, "salloc: error: --bell is not supported by Sluice");
		sl_srun_opts_clear(&o);
		err = (struct sl_err)SL_ERR_INIT;
	}
	{
		/* a step's --cpu-freq, also from SLURM_CPU_FREQ_REQ; --gpu-freq */
		char *fenv[] = {"SLURM_CPU_FREQ_REQ=perf", NULL};
		assert_int_equal(parse(&o, fenv, &st, &err, "--gpu-freq=low", "true", NULL), 0);
		assert_string_equal(o.cpu_freq, "Performance");
		assert_string_equal(o.gpu_freq, "low");
		sl_srun_opts_clear(&o);
		assert_int_not_equal(parse(&o, env, &st, &err, "--cpu-freq=foo", "true", NULL), 0);
		assert_int_equal(st, 255);
		assert_string_equal(err.msg, "srun: error: unrecognized --cpu-freq argument \"foo\"\n"
				    "srun: error: Invalid --cpu-freq argument");
		sl_srun_opts_clear(&o);
		err = (struct sl_err)SL_ERR_INIT;
		assert_int_equal(parse(&o, env, &st, &err, "-S", "1", "true", NULL), 0);
		assert_int_equal(o.spec_warn, 1);
		sl_srun_opts_clear(&o);
	}
	char *senv[] = {"SRUN_CPUS_PER_TASK=3", NULL};
	assert_int_equal(parse(&o, senv, &st, &err, "true", NULL), 0);
	assert_int_equal(o.cpus_per_task, 3);
	sl_srun_opts_clear(&o);
}

static void alloc(struct sl_srun_alloc *a, const char *nodes, const char *cpus)
{
	char e1[64], e2[64], *env[] = {"SLURM_JOB_ID=230", e1, e2, "CUDA_VISIBLE_DEVICES=0,1,2,3",
				       NULL};
	struct sl_err err = SL_ERR_INIT;
	snprintf(e1, sizeof(e1), "SLURM_JOB_NODELIST=%s", nodes);
	snprintf(e2, sizeof(e2), "SLURM_JOB_CPUS_PER_NODE=%s", cpus);
	assert_int_equal(sl_srun_alloc_from_env(env, a, &err), 0);
}

/* srun's input variables for layout(); none when NULL */
static char **layout_env;

static int layout(const char *nodes, const char *cpus, struct sl_srun_layout *l, char **warn,
		  struct sl_err *err, ...)
{
	struct sl_srun_alloc a;
	struct sl_srun_opts o;
	char *argv[16] = {"srun"}, *none[] = {NULL}, **env = layout_env ? layout_env : none;
	int argc = 1, st, r;
	va_list ap;
	va_start(ap, err);
	for (char *s; (s = va_arg(ap, char *)) != NULL;)
		argv[argc++] = s;
	va_end(ap);
	argv[argc++] = "true";
	alloc(&a, nodes, cpus);
	assert_int_equal(sl_srun_opts_parse(argc, argv, env, &o, &st, err), 0);
	r = sl_srun_layout_make(&o, &a, l, warn, err);
	l->gpus = NULL; /* borrowed from a, which goes now */
	l->ngpus = 0;
	sl_srun_opts_clear(&o);
	sl_srun_alloc_clear(&a);
	return r;
}

static void test_layout(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err = SL_ERR_INIT;
	char *warn = NULL;
	(void)state;
	/* block: every node one task, then fill in node order */
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "3", NULL), 0);
	assert_string_equal(l.tasks_per_node, "2,1");
	assert_string_equal(l.nodelist, "n[1-2]");
	assert_int_equal(l.task[2].node, 1);
	assert_int_equal(l.task[1].local, 1);
	sl_srun_layout_clear(&l);
	/* Slurm's refusals (reference.md, live cluster) */
	assert_int_not_equal(layout("n1", "2", &l, &warn, &err, "-n", "999", NULL), 0);
	assert_string_equal(err.msg, "srun: error: Unable to create step for job 230: More "
			    "processors requested than permitted");
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	/* a --ntasks-per-node that does not divide -n over -N is dropped with
	 * srun's warning (the reference cluster's line) */
	assert_int_equal(layout("n1", "4", &l, &warn, &err, "-N", "1", "-n", "2",
				"--ntasks-per-node=1", NULL), 0);
	assert_string_equal(warn, "srun: Warning: can't honor --ntasks-per-node set to 1 which "
			    "doesn't match the requested tasks 2 with the number of requested "
			    "nodes 1. Ignoring --ntasks-per-node.\n");
	assert_string_equal(l.tasks_per_node, "2");
	free(warn);
	warn = NULL;
	sl_srun_layout_clear(&l);
	/* -O: past the CPUs, spread evenly over the nodes */
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-O", "-n", "5", NULL), 0);
	assert_string_equal(l.tasks_per_node, "3,2");
	sl_srun_layout_clear(&l);
	assert_int_not_equal(layout("n1", "8", &l, &warn, &err, "-n", "2", "-N", "9", NULL), 0);
	assert_string_equal(warn, "srun: Warning: can't run 2 processes on 9 nodes, setting "
			    "nnodes to 2\n");
	assert_string_equal(err.msg, "srun: error: Only allocated 1 nodes asked for 2");
	free(warn);
	warn = NULL;
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(layout("n1", "8", &l, &warn, &err, "-n", "8", "-N", "4", NULL), 0);
	assert_string_equal(err.msg, "srun: error: Only allocated 1 nodes asked for 4");
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(layout("n1", "2", &l, &warn, &err, "-c", "4", "-n", "2", NULL), 0);
	sl_srun_layout_clear(&l);
}

static const char *get(char **env, const char *k);

/* -x in a -N2 --ntasks-per-node=2 job (n[1-2]), each case as the
 * reference cluster's srun answered it. */
static void test_layout_exclude(void **state)
{
	char *job[] = {"SLURM_JOB_NUM_NODES=2", "SLURM_NTASKS=4", "SLURM_NTASKS_PER_NODE=2", NULL};
	static const struct {
		const char *args[6];
		const char *nodelist; /* NULL: refused with msg */
		const char *warn, *msg;
	} cases[] = {
		{{"-x", "n1", "-n", "1"}, "n2", "srun: Warning: can't run 1 processes on 2 nodes, "
		 "setting nnodes to 1\n", NULL},
		{{"-x", "n1", "-w", "n2", "-n", "1"}, "n2", "srun: Warning: can't run 1 processes on 2 "
		 "nodes, setting nnodes to 1\n", NULL},
		{{"-x", "n1"}, NULL, NULL, "srun: error: Only allocated 1 nodes asked for 2\n"
		 "srun: error: Are required nodes explicitly excluded?"},
		{{"-x", "n1", "-w", "n1"}, NULL, NULL, "srun: error: Requested node n1 is also in the "
		 "excluded list.\nsrun: error: Job not submitted."},
		{{"-x", "n[1-2]", "-n", "1"}, NULL, "srun: Warning: can't run 1 processes on 2 nodes, "
		 "setting nnodes to 1\n", "srun: error: Hostlist is empty!  Can't run job."},
		{{"-x", "n9"}, NULL, NULL, "srun: error: Unable to create step for job 230: Invalid "
		 "node name specified"},
		{{"-x", "bogus["}, NULL, NULL, "srun: error: Unable to create step for job 230: "
		 "Invalid node name specified"},
		{{"-x", "n2,n9", "-n", "1"}, NULL, "srun: Warning: can't run 1 processes on 2 nodes, "
		 "setting nnodes to 1\n", "srun: error: Unable to create step for job 230: Invalid "
		 "node name specified"},
		{{"-x", "n1", "-r", "1"}, NULL, NULL, "srun: error: -r,--relative not allowed with "
		 "-w,--nodelist or -x,--exclude."},
	};
	(void)state;
	layout_env = job;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_srun_layout l;
		struct sl_err err = SL_ERR_INIT;
		char *warn = NULL;
		const char *const *a = cases[i].args;
		int r = layout("n[1-2]", "2(x2)", &l, &warn, &err, a[0], a[1], a[2], a[3], a[4],
			       a[5], NULL);
		if (cases[i].nodelist) {
			assert_int_equal(r, 0);
			assert_string_equal(l.nodelist, cases[i].nodelist);
		} else {
			assert_int_not_equal(r, 0);
			assert_string_equal(err.msg, cases[i].msg);
		}
		if (cases[i].warn)
			assert_string_equal(warn, cases[i].warn);
		else
			assert_null(warn);
		free(warn);
		sl_srun_layout_clear(&l);
	}
	layout_env = NULL;
}

/* In a -N2 -n2 job, srun -n1: the job's SLURM_JOB_NUM_NODES is -N as if
 * typed, and Slurm warns (the reference cluster's line); SLURM_NNODES is
 * not read, and then the step shrinks in silence. */
static void test_layout_env_nodes(void **state)
{
	char *job[] = {"SLURM_JOB_NUM_NODES=2", "SLURM_NNODES=2", "SLURM_NTASKS=2", NULL};
	char *step[] = {"SLURM_NNODES=2", "SLURM_NTASKS=2", NULL};
	struct sl_srun_layout l;
	struct sl_err err = SL_ERR_INIT;
	char *warn = NULL;
	(void)state;
	layout_env = job;
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-n", "1", NULL), 0);
	assert_string_equal(warn, "srun: Warning: can't run 1 processes on 2 nodes, setting "
			    "nnodes to 1\n");
	assert_int_equal(l.nnodes, 1);
	/* the tasks: the step's count beside the job's list, as Slurm's */
	char *base[] = {NULL}, **env = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(env, "SLURM_NODELIST"), "n[1-2]");
	assert_string_equal(get(env, "SLURM_NNODES"), "1");
	assert_string_equal(get(env, "SLURM_STEP_NODELIST"), "n1");
	assert_string_equal(get(env, "SLURM_STEP_NUM_NODES"), "1");
	assert_string_equal(get(env, "SLURM_TASKS_PER_NODE"), "1");
	sl_strv_free(env);
	free(warn);
	warn = NULL;
	sl_srun_layout_clear(&l);
	/* no warning without -n: SLURM_NTASKS's 2 tasks fill the 2 nodes */
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, NULL), 0);
	assert_null(warn);
	assert_int_equal(l.ntasks, 2);
	sl_srun_layout_clear(&l);
	/* with -w too (the count is the larger of its and -N's), and -r */
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-n", "1", "-w", "n2", NULL),
			 0);
	assert_string_equal(warn, "srun: Warning: can't run 1 processes on 2 nodes, setting "
			    "nnodes to 1\n");
	assert_string_equal(l.nodelist, "n2");
	free(warn);
	warn = NULL;
	sl_srun_layout_clear(&l);
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-n", "1", "-r", "1", NULL),
			 0);
	assert_string_equal(l.nodelist, "n2");
	assert_non_null(warn);
	free(warn);
	warn = NULL;
	sl_srun_layout_clear(&l);
	/* -r past what the count leaves: the words name where it came from */
	assert_int_not_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-r", "1", NULL), 0);
	assert_string_equal(err.msg, "srun: error: --relative and SLURM_JOB_NUM_NODES option "
			    "incompatible with count of allocated nodes (1+2>2)");
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-r", "1", "-N", "2",
				    "-n", "2", NULL), 0);
	assert_string_equal(err.msg, "srun: error: --relative and --nodes option incompatible "
			    "with count of allocated nodes (1+2>2)");
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	layout_env = step;
	assert_int_equal(layout("n[1-2]", "1(x2)", &l, &warn, &err, "-n", "1", NULL), 0);
	assert_null(warn);
	assert_int_equal(l.nnodes, 1);
	sl_srun_layout_clear(&l);
	layout_env = NULL;
}

/* An array task's step: its ids from the job's environment, both or none
 * (%A and %a of srun -o, as slurmstepd has them from the job). */
static void test_alloc_array(void **state)
{
	char *env[] = {"SLURM_JOB_ID=231", "SLURM_JOB_NODELIST=n1", "SLURM_JOB_CPUS_PER_NODE=1",
		       "SLURM_ARRAY_JOB_ID=228", "SLURM_ARRAY_TASK_ID=3", NULL};
	struct sl_srun_alloc a;
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_srun_alloc_from_env(env, &a, &err), 0);
	assert_int_equal(a.array_job_id, 228);
	assert_int_equal(a.array_task_id, 3);
	sl_srun_alloc_clear(&a);
	env[4] = NULL; /* the array's id without the task's: not an array's */
	assert_int_equal(sl_srun_alloc_from_env(env, &a, &err), 0);
	assert_int_equal(a.array_job_id, 0);
	sl_srun_alloc_clear(&a);
	env[4] = "SLURM_ARRAY_TASK_ID=x";
	assert_int_equal(sl_srun_alloc_from_env(env, &a, &err), 0);
	assert_int_equal(a.array_job_id, 0);
	sl_srun_alloc_clear(&a);
}

/* -m cyclic, -w, and Slurm's SLURM_DISTRIBUTION (checked on the reference
 * cluster: -N2 -n3 -m cyclic puts tasks 0 and 2 on the first node). */
static void test_layout_place(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err = SL_ERR_INIT;
	char *warn = NULL;
	char *job[] = {"SLURM_JOB_NUM_NODES=2", NULL};
	(void)state;
	/* --gpus-per-task with no -n: a task a node, as Slurm's step (its
	 * allocation's check is sbatch's, srun_alloc.c) */
	layout_env = job;
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "--gpus-per-task=1", NULL), 0);
	assert_int_equal(l.ntasks, 2);
	assert_string_equal(l.tasks_per_node, "1(x2)");
	sl_srun_layout_clear(&l);
	layout_env = NULL;
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "3", "-m", "cyclic",
				NULL), 0);
	assert_int_equal(l.task[0].node, 0);
	assert_int_equal(l.task[1].node, 1);
	assert_int_equal(l.task[2].node, 0);
	assert_int_equal(l.task[2].local, 1);
	assert_string_equal(l.tasks_per_node, "2,1");
	assert_string_equal(l.distribution, "cyclic");
	sl_srun_layout_clear(&l);
	/* the default: cyclic when no node has two tasks, else block */
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "3", NULL), 0);
	assert_string_equal(l.distribution, "block");
	sl_srun_layout_clear(&l);
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "1", NULL), 0);
	assert_string_equal(l.distribution, "cyclic");
	sl_srun_layout_clear(&l);
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "1", "-m", "*:*:*",
				NULL), 0);
	assert_string_equal(l.distribution, "block:cyclic:cyclic");
	sl_srun_layout_clear(&l);
	/* -w: the named nodes of the job */
	assert_int_equal(layout("n[1-3]", "2(x3)", &l, &warn, &err, "-n", "1", "-w", "n3", NULL),
			 0);
	assert_string_equal(l.nodelist, "n3");
	sl_srun_layout_clear(&l);
	assert_int_equal(layout("n[1-3]", "2(x3)", &l, &warn, &err, "-n", "4", "-w", "n[3,1]",
				NULL), 0);
	assert_string_equal(l.nodelist, "n[1,3]");
	sl_srun_layout_clear(&l);
	/* -N past the names: the job's first others, the step in job order */
	assert_int_equal(layout("n[1-4]", "2(x4)", &l, &warn, &err, "-n", "2", "-N", "2", "-w",
				"n3", NULL), 0);
	assert_string_equal(l.nodes[0], "n1");
	assert_string_equal(l.nodes[1], "n3");
	assert_int_equal(l.cpus_on[1], 2);
	sl_srun_layout_clear(&l);
	assert_int_not_equal(layout("n[1-3]", "2(x3)", &l, &warn, &err, "-r", "1", "-w", "n3",
				    NULL), 0);
	assert_string_equal(err.msg, "srun: error: -r,--relative not allowed with -w,--nodelist or "
			    "-x,--exclude.");
	sl_srun_layout_clear(&l);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(layout("n[1-3]", "2(x3)", &l, &warn, &err, "-n", "1", "-w", "n9",
				    NULL), 0);
	assert_string_equal(err.msg, "srun: error: Unable to create step for job 230: Requested "
			    "node configuration is not available");
	sl_srun_layout_clear(&l);
}

static const char *get(char **env, const char *k)
{
	size_t n = strlen(k);
	for (char **e = env; *e; e++)
		if (strncmp(*e, k, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static void test_task_env(void **state)
{
	struct sl_srun_layout l;
	struct sl_err err = SL_ERR_INIT;
	char *warn = NULL, *base[] = {"HOME=/h", "SLURM_PROCID=0", NULL}, **e;
	char *gpus[] = {"0", "1", "2", "3", NULL};
	(void)state;
	assert_int_equal(layout("n[1-2]", "2(x2)", &l, &warn, &err, "-n", "3", "-l",
				"--gpus-per-task=2", NULL), 0);
	l.step_id = 3;
	l.gpus = gpus;
	l.ngpus = 4;
	e = sl_srun_task_env(&l, 1, base);
	assert_string_equal(get(e, "SLURM_PROCID"), "1");
	assert_string_equal(get(e, "SLURM_LOCALID"), "1");
	assert_string_equal(get(e, "SLURM_NODEID"), "0");
	assert_string_equal(get(e, "SLURM_STEP_ID"), "3");
	assert_string_equal(get(e, "SLURM_STEP_NUM_TASKS"), "3");
	assert_string_equal(get(e, "SLURM_TASKS_PER_NODE"), "2,1");
	assert_string_equal(get(e, "SLURM_STEP_NODELIST"), "n[1-2]");
	assert_string_equal(get(e, "SLURM_GTIDS"), "0,1");
	assert_string_equal(get(e, "CUDA_VISIBLE_DEVICES"), "2,3");
	assert_string_equal(get(e, "HOME"), "/h");
	/* slurmstepd's: the job's CPUs on the node without --exact, TMPDIR */
	assert_string_equal(get(e, "SLURM_CPUS_ON_NODE"), "2");
	assert_string_equal(get(e, "TMPDIR"), "/tmp");
	assert_null(get(e, "SLURM_JOB_USER")); /* no user filled in */
	assert_null(get(e, "SLURM_SRUN_COMM_PORT")); /* no port bound */
	sl_strv_free(e);
	snprintf(l.launch_addr, sizeof(l.launch_addr), "10.0.0.5");
	l.launch_port = 40001;
	e = sl_srun_task_env(&l, 1, base);
	assert_string_equal(get(e, "SLURM_LAUNCH_NODE_IPADDR"), "10.0.0.5");
	assert_string_equal(get(e, "SLURM_SRUN_COMM_HOST"), "10.0.0.5");
	assert_string_equal(get(e, "SLURM_SRUN_COMM_PORT"), "40001");
	assert_string_equal(get(e, "SLURM_STEP_LAUNCHER_PORT"), "40001");
	sl_strv_free(e);
	l.uid = 7;
	l.gid = 8;
	snprintf(l.user, sizeof(l.user), "u7");
	e = sl_srun_task_env(&l, 2, base);
	assert_string_equal(get(e, "SLURM_JOB_USER"), "u7");
	assert_string_equal(get(e, "SLURM_JOB_UID"), "7");
	assert_string_equal(get(e, "SLURM_JOB_GID"), "8");
	assert_null(get(e, "PBS_TASKNUM"));
	sl_strv_free(e);
	/* spank_pbs: from the task's own variables and directory */
	l.spank_pbs = 1;
	l.cwd = "/w";
	e = sl_srun_task_env(&l, 2, base);
	assert_string_equal(get(e, "PBS_TASKNUM"), "3");
	assert_string_equal(get(e, "PBS_NODENUM"), "1");
	assert_string_equal(get(e, "PBS_JOBDIR"), "/w");
	assert_string_equal(get(e, "PBS_O_HOME"), "/h");
	assert_null(get(e, "PBS_JOBID")); /* no SLURM_JOB_ID in base */
	sl_strv_free(e);
	l.gpus = NULL;
	sl_srun_layout_clear(&l);
	/* -c implies --exact (22.05): the step's own CPUs, not the job's */
	assert_int_equal(layout("n1", "4", &l, &warn, &err, "-n", "1", "-c", "1", NULL), 0);
	e = sl_srun_task_env(&l, 0, base);
	assert_string_equal(get(e, "SLURM_CPUS_ON_NODE"), "1");
	sl_strv_free(e);
	sl_srun_layout_clear(&l);
	assert_int_equal(sl_srun_label_width(10), 1);
	assert_int_equal(sl_srun_label_width(11), 2);
}

static void test_export(void **state)
{
	char *env[] = {"HOME=/h", "A=1", "SLURM_JOB_ID=5", NULL}, **e;
	(void)state;
	e = sl_srun_export("NONE", env);
	assert_null(get(e, "HOME"));
	assert_string_equal(get(e, "SLURM_JOB_ID"), "5");
	sl_strv_free(e);
	e = sl_srun_export("A,B=2", env);
	assert_string_equal(get(e, "A"), "1");
	assert_string_equal(get(e, "B"), "2");
	assert_null(get(e, "HOME"));
	sl_strv_free(e);
	e = sl_srun_export("ALL,B=2", env);
	assert_string_equal(get(e, "HOME"), "/h");
	assert_string_equal(get(e, "B"), "2");
	sl_strv_free(e);
}

static void test_multiprog(void **state)
{
	const char *text = "# comment\n0 echo zero %t\n1-2 echo other %t %o\n* echo 'rest of' it\n";
	struct sl_err err = SL_ERR_INIT;
	char **v = NULL, *p;
	(void)state;
	assert_int_equal(sl_srun_multiprog_argv(text, "mp.conf", 4, 2, &v, &err), 0);
	assert_string_equal(v[0], "echo");
	assert_string_equal(v[2], "2");
	assert_string_equal(v[3], "1");
	sl_strv_free(v);
	assert_int_equal(sl_srun_multiprog_argv(text, "mp.conf", 4, 3, &v, &err), 0);
	assert_string_equal(v[1], "rest of");
	sl_strv_free(v);
	/* slurmstepd's reading: '...' as is (no %t), double quotes ordinary,
	 * '\' takes the next character, %X other than t and o drops out */
	assert_int_equal(sl_srun_multiprog_argv("0 echo 'a b' \"c  d\" '%t' x\\ y %z%t #c\n",
						"mp.conf", 1, 0, &v, &err), 0);
	assert_int_equal(sl_strv_len(v), 8); /* "#c" too: whole-line comments only */
	assert_string_equal(v[1], "a b");
	assert_string_equal(v[2], "\"c");
	assert_string_equal(v[3], "d\"");
	assert_string_equal(v[4], "%t");
	assert_string_equal(v[5], "x y");
	assert_string_equal(v[6], "0");
	assert_string_equal(v[7], "#c");
	sl_strv_free(v);
	assert_int_not_equal(sl_srun_multiprog_argv("0 echo 'open\n", "mp.conf", 1, 0, &v, &err), 0);
	assert_int_not_equal(sl_srun_multiprog_check("0 true\n", "mp.conf", 2, &err), 0);
	p = sl_srun_pattern_step("out.%j.%s.%%s", 42, 4);
	assert_string_equal(p, "out.%j.4.%%s");
	free(p);
	p = sl_srun_pattern_step("f-%J-%%J", 42, 4);
	assert_string_equal(p, "f-42.4-%%J");
	free(p);
	p = sl_srun_pattern_step("o-%2s-%4J-%3t", 42, 7);
	assert_string_equal(p, "o-07-0042.7-%3t");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_layout_env_nodes),
		cmocka_unit_test(test_layout_exclude),
		cmocka_unit_test(test_alloc_array),
		cmocka_unit_test(test_layout_place),
		cmocka_unit_test(test_step_opts), cmocka_unit_test(test_task_env),
		cmocka_unit_test(test_export), cmocka_unit_test(test_multiprog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
