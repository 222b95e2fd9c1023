/* test_slurm_env.c - the batch step's SLURM_* variables, compared with what
 * Slurm 22.05 printed for the same jobs (reference.md Part 2). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "slurm_env.h"
#include "xalloc.h"

/* job.c may not be linked here: set the "unset" values by hand. */
static void job_init(struct sl_job *j, struct sl_jobshape *sh)
{
	memset(j, 0, sizeof(*j));
	memset(sh, 0, sizeof(*sh));
	struct sl_jobspec *s = &j->spec;
	s->nodes = s->nodes_max = s->ntasks = s->ntasks_per_node = SL_NO_VAL;
	s->cpus_per_task = s->gpus = s->gpus_per_node = SL_NO_VAL;
	s->mem_per_node = s->mem_per_cpu = SL_NO_VAL;
	s->name = "env.sh";
	s->partition = "cpu";
	s->account = "general";
	s->submit_dir = "/home/alice/ref";
	s->submit_host = "vm";
	j->id = 9;
	j->uid = 2001;
	j->gid = 2001;
	j->user = "alice";
	sh->nodes = 1;
	sh->ntasks = 1;
	sh->tasks_per_node = 1;
	sh->cpus_per_task = 1;
	sh->cpus_per_node = 1;
}

static void expect_env(char **got, const char *const *want)
{
	size_t i;
	for (i = 0; want[i] != NULL; i++) {
		assert_non_null(got[i]);
		assert_string_equal(got[i], want[i]);
	}
	assert_null(got[i]);
}

static void test_plain(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	job_init(&j, &sh);
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm", .cluster = "sluice"};
	static const char *const want[] = {
		"ENVIRONMENT=BATCH", "HOSTNAME=vm",
		"SLURMD_NODENAME=vm", "SLURM_CLUSTER_NAME=sluice", "SLURM_CPUS_ON_NODE=1",
		"SLURM_GTIDS=0", "SLURM_JOBID=9", "SLURM_JOB_ACCOUNT=general",
		"SLURM_JOB_CPUS_PER_NODE=1", "SLURM_JOB_GID=2001", "SLURM_JOB_ID=9",
		"SLURM_JOB_NAME=env.sh", "SLURM_JOB_NODELIST=vm", "SLURM_JOB_NUM_NODES=1",
		"SLURM_JOB_PARTITION=cpu", "SLURM_JOB_UID=2001", "SLURM_JOB_USER=alice",
		"SLURM_LOCALID=0", "SLURM_NNODES=1", "SLURM_NODEID=0", "SLURM_NODELIST=vm",
		"SLURM_NODE_ALIASES=(null)", "SLURM_PRIO_PROCESS=0", "SLURM_PROCID=0",
		"SLURM_SUBMIT_DIR=/home/alice/ref", "SLURM_SUBMIT_HOST=vm",
		"SLURM_TASKS_PER_NODE=1", "SLURM_TOPOLOGY_ADDR=vm",
		"SLURM_TOPOLOGY_ADDR_PATTERN=node", NULL,
	};
	char **env = sl_slurm_env_build(&in);
	expect_env(env, want);
	sl_strv_free(env);
}

/* many.sh: -N 2 -n 4 --ntasks-per-node=2 -c 2 --mem=1G --gres=gpu:2
 * --export=ALL,MYVAR=hello --qos=high */
static void test_many_options(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	job_init(&j, &sh);
	j.id = 12;
	j.spec.name = "manyopts";
	j.spec.partition = "gpu";
	j.spec.account = NULL;
	j.spec.qos = "high";
	j.spec.nodes = 2;
	j.spec.ntasks = 4;
	j.spec.ntasks_per_node = 2;
	j.spec.cpus_per_task = 2;
	j.spec.mem_per_node = 1024;
	j.spec.gpus_per_node = 2;
	j.spec.export_spec = "ALL,MYVAR=hello";
	j.spec.open_mode = SL_OPEN_APPEND;
	j.spec.dependency = "afterany:302:303"; /* sbatch's -d, as given */
	sh = (struct sl_jobshape){2, 4, 2, 2, 4, 1024, 2};
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm-[0-1]", .batch_host = "vm-0", .cluster = NULL};
	static const char *const want[] = {
		"CUDA_VISIBLE_DEVICES=0,1", "ENVIRONMENT=BATCH", "GPU_DEVICE_ORDINAL=0,1",
		"HOSTNAME=vm-0", "ROCR_VISIBLE_DEVICES=0,1", "SLURMD_NODENAME=vm-0",
		"SLURM_CPUS_ON_NODE=4", "SLURM_CPUS_PER_TASK=2",
		"SLURM_EXPORT_ENV=ALL,MYVAR=hello", "SLURM_GET_USER_ENV=1",
		"SLURM_GPUS_ON_NODE=2", "SLURM_GTIDS=0", "SLURM_JOBID=12",
		"SLURM_JOB_CPUS_PER_NODE=4(x2)", "SLURM_JOB_DEPENDENCY=afterany:302:303",
		"SLURM_JOB_GID=2001", "SLURM_JOB_GPUS=0,1",
		"SLURM_JOB_ID=12",
		"SLURM_JOB_NAME=manyopts", "SLURM_JOB_NODELIST=vm-[0-1]",
		"SLURM_JOB_NUM_NODES=2", "SLURM_JOB_PARTITION=gpu", "SLURM_JOB_QOS=high",
		"SLURM_JOB_UID=2001", "SLURM_JOB_USER=alice", "SLURM_LOCALID=0",
		"SLURM_MEM_PER_NODE=1024", "SLURM_NNODES=2", "SLURM_NODEID=0",
		"SLURM_NODELIST=vm-[0-1]", "SLURM_NODE_ALIASES=(null)", "SLURM_NPROCS=4",
		"SLURM_NTASKS=4", "SLURM_NTASKS_PER_NODE=2", "SLURM_OPEN_MODE=a",
		"SLURM_PRIO_PROCESS=0",
		"SLURM_PROCID=0", "SLURM_SUBMIT_DIR=/home/alice/ref", "SLURM_SUBMIT_HOST=vm",
		"SLURM_TASKS_PER_NODE=2(x2)", "SLURM_TOPOLOGY_ADDR=vm-0",
		"SLURM_TOPOLOGY_ADDR_PATTERN=node", "ZE_AFFINITY_MASK=0,1", NULL,
	};
	char **env = sl_slurm_env_build(&in);
	expect_env(env, want);
	sl_strv_free(env);
}

static const char *find(char **env, const char *name)
{
	size_t n = strlen(name);
	for (; *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* SLURM_GPUS_PER_NODE: --gpus-per-node's count (the reference cluster's
 * batch step), not --gres=gpu:N's, whose count is stored in the same field */
static void test_gpus_per_node(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	(void)state;
	job_init(&j, &sh);
	j.spec.gpus_per_node = 2;
	sh.gpus_per_node = 2;
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm"};
	char **env = sl_slurm_env_build(&in);
	assert_null(find(env, "SLURM_GPUS_PER_NODE"));
	sl_strv_free(env);
	j.spec.gpus_per_node_opt = 1;
	env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_GPUS_PER_NODE"), "2");
	sl_strv_free(env);
}

static void test_export_none_gpus_mem_per_cpu(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	job_init(&j, &sh);
	j.spec.export_spec = "NONE";
	j.spec.gpus = 3;
	j.spec.mem_per_cpu = 4000;
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm", .cluster = NULL};
	char **env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_EXPORT_ENV"), "NONE");
	assert_string_equal(find(env, "SLURM_GET_USER_ENV"), "1");
	assert_string_equal(find(env, "SLURM_GPUS"), "3");
	assert_string_equal(find(env, "SLURM_MEM_PER_CPU"), "4000");
	assert_null(find(env, "SLURM_MEM_PER_NODE"));
	assert_null(find(env, "SLURM_NTASKS"));
	assert_null(find(env, "SLURM_CPUS_PER_TASK"));
	assert_null(find(env, "SLURM_GPUS_ON_NODE"));
	sl_strv_free(env);
	j.spec.export_spec = "all";
	env = sl_slurm_env_build(&in);
	assert_null(find(env, "SLURM_EXPORT_ENV"));
	assert_null(find(env, "SLURM_GET_USER_ENV"));
	sl_strv_free(env);
	/* submitted from a -c 2 job: its SLURM_CPUS_PER_TASK is this job's */
	char *inherited[] = {"HOME=/home/alice", "SLURM_CPUS_PER_TASK=2", NULL};
	j.spec.env = inherited;
	env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_CPUS_PER_TASK"), "1");
	sl_strv_free(env);
	j.spec.env = NULL;
	/* a requeued job's runs know their restart count, the first none */
	env = sl_slurm_env_build(&in);
	assert_null(find(env, "SLURM_RESTART_COUNT"));
	sl_strv_free(env);
	j.attempt = 2;
	env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_RESTART_COUNT"), "2");
	sl_strv_free(env);
}

/* -N 2 -n 3 -c 2: Slurm's block layout puts 2 tasks on the first node. */
static void test_uneven_tasks(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	job_init(&j, &sh);
	j.spec.ntasks = 3;
	j.spec.cpus_per_task = 2;
	sh = (struct sl_jobshape){2, 3, 2, 2, 4, 0, 0};
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm-[0-1]", .batch_host = "vm-0", .cluster = NULL};
	char **env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_TASKS_PER_NODE"), "2,1");
	assert_string_equal(find(env, "SLURM_JOB_CPUS_PER_NODE"), "4,2");
	assert_string_equal(find(env, "SLURM_CPUS_ON_NODE"), "4");
	assert_string_equal(find(env, "SLURM_NTASKS"), "3");
	sl_strv_free(env);
}

/* Without -n, a node's tasks are its CPUs over -c (the reference cluster:
 * --exclusive gives a whole node's, --mincpus=4 gives 4); the layout hints
 * sbatch exports; --gpus=0 is SLURM_GPUS=0. */
static void test_tasks_from_cpus(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	(void)state;
	job_init(&j, &sh);
	j.spec.mincpus = 4;
	j.spec.threads_per_core = 1;
	j.spec.ntasks_per_core = 1;
	j.spec.gpus = 0;
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm"};
	char **env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_TASKS_PER_NODE"), "4");
	assert_null(find(env, "SLURM_NTASKS"));
	assert_string_equal(find(env, "SLURM_THREADS_PER_CORE"), "1");
	assert_string_equal(find(env, "SLURM_NTASKS_PER_CORE"), "1");
	assert_string_equal(find(env, "SLURM_GPUS"), "0");
	sl_strv_free(env);
	j.spec.mincpus = 0;
	j.spec.node_cpus = 64; /* --exclusive */
	env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "SLURM_TASKS_PER_NODE"), "64");
	sl_strv_free(env);
}

/* salloc's allocation has no batch script; a pod's runtime names it. */
static void test_allocation_and_pod(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	(void)state;
	job_init(&j, &sh);
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm",
				     .allocation = 1};
	char **env = sl_slurm_env_build(&in);
	assert_null(find(env, "ENVIRONMENT"));
	assert_null(find(env, "HOSTNAME"));
	sl_strv_free(env);
	in.allocation = 0;
	in.pod = 1;
	env = sl_slurm_env_build(&in);
	assert_string_equal(find(env, "ENVIRONMENT"), "BATCH");
	assert_null(find(env, "HOSTNAME"));
	sl_strv_free(env);
}

static void test_fmt_counts(void **state)
{
	char buf[64];
	int a[] = {7, 1};
	sl_slurm_env_fmt_counts(a, 2, buf, sizeof(buf));
	assert_string_equal(buf, "7,1");
	int b[] = {2, 2, 2, 1, 3, 3};
	sl_slurm_env_fmt_counts(b, 6, buf, sizeof(buf));
	assert_string_equal(buf, "2(x3),1,3(x2)");
	sl_slurm_env_fmt_counts(b, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void test_merge(void **state)
{
	char *base[] = {"PATH=/bin", "SLURM_JOB_ID=1", "HOME=/h", NULL};
	char *over[] = {"SLURM_JOB_ID=7", "SLURM_JOB_IDX=8", NULL};
	char **m = sl_slurm_env_merge(base, over);
	static const char *const want[] = {"PATH=/bin", "SLURM_JOB_ID=7", "HOME=/h",
					   "SLURM_JOB_IDX=8", NULL};
	expect_env(m, want);
	sl_strv_free(m);
	m = sl_slurm_env_merge(NULL, over);
	assert_int_equal(sl_strv_len(m), 2);
	sl_strv_free(m);
}

/* The merge as it was written first, a scan per variable: the table
 * must give the same list, order and duplicates included. */
static char **merge_by_scan(char *const *base, char *const *over)
{
	size_t nb = sl_strv_len(base), no = sl_strv_len(over), n = nb;
	char **out = sl_xcalloc(nb + no + 1, sizeof(char *));
	for (size_t i = 0; i < nb; i++)
		out[i] = sl_xstrdup(base[i]);
	for (size_t j = 0; j < no; j++) {
		const char *eq = strchr(over[j], '=');
		size_t k = eq ? (size_t)(eq - over[j]) : strlen(over[j]), i;
		for (i = 0; i < n; i++)
			if (strncmp(out[i], over[j], k) == 0 && (out[i][k] == '=' || out[i][k] == '\0'))
				break;
		if (i < n)
			free(out[i]);
		else
			n++;
		out[i] = sl_xstrdup(over[j]);
	}
	return out;
}

static void test_merge_table(void **state)
{
	/* prefixes of each other, a name without '=', a name base repeats,
	 * a name over repeats, and enough names to collide in the table */
	char *fixed[] = {"A=1", "AB=2", "A_B=3", "A", "AB=dup", "EMPTY=", NULL};
	char *ofixed[] = {"AB=9", "A=", "NEW=1", "NEW=2", "A_B", "EMPTY=x", NULL};
	char *base[300], *over[300];
	size_t nb = 0, no = 0;
	for (size_t i = 0; fixed[i]; i++)
		base[nb++] = fixed[i];
	for (size_t i = 0; ofixed[i]; i++)
		over[no++] = ofixed[i];
	for (int i = 0; i < 250; i++)
		base[nb++] = sl_xasprintf("V%d=%d", i * 7 % 251, i);
	for (int i = 0; i < 200; i++)
		over[no++] = sl_xasprintf("V%d=o%d", i * 3, i);
	base[nb] = over[no] = NULL;
	char **got = sl_slurm_env_merge(base, over), **want = merge_by_scan(base, over);
	assert_int_equal(sl_strv_len(got), sl_strv_len(want));
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(got[i], want[i]);
	sl_strv_free(got);
	sl_strv_free(want);
	for (size_t i = 6; i < nb; i++)
		free(base[i]);
	for (size_t i = 6; i < no; i++)
		free(over[i]);
}

/* An array task (reference.md section 3: arr-18_1.out): the array's
 * variables before the others; SLURM_JOB_ID is the task's own id. */
static void test_array_task(void **state)
{
	struct sl_job j;
	struct sl_jobshape sh;
	(void)state;
	job_init(&j, &sh);
	j.id = 20;
	j.array_job_id = 18;
	j.array_task_id = 1;
	j.spec.array = "0-3%2";
	struct sl_slurm_env_in in = {.job = &j, .shape = &sh, .nodelist = "vm", .batch_host = "vm", .cluster = "sluice"};
	char **env = sl_slurm_env_build(&in);
	assert_string_equal(env[0], "ENVIRONMENT=BATCH");
	assert_string_equal(env[1], "HOSTNAME=vm");
	assert_string_equal(env[2], "SLURMD_NODENAME=vm");
	assert_string_equal(env[3], "SLURM_ARRAY_JOB_ID=18");
	assert_string_equal(env[4], "SLURM_ARRAY_TASK_COUNT=4");
	assert_string_equal(env[5], "SLURM_ARRAY_TASK_ID=1");
	assert_string_equal(env[6], "SLURM_ARRAY_TASK_MAX=3");
	assert_string_equal(env[7], "SLURM_ARRAY_TASK_MIN=0");
	assert_string_equal(env[8], "SLURM_ARRAY_TASK_STEP=1");
	for (size_t k = 0; env[k] != NULL; k++)
		if (strncmp(env[k], "SLURM_JOB_ID=", 13) == 0)
			assert_string_equal(env[k], "SLURM_JOB_ID=20");
	sl_strv_free(env);
	j.spec.array = "1-7:3";
	j.array_task_id = 4;
	env = sl_slurm_env_build(&in);
	assert_string_equal(env[4], "SLURM_ARRAY_TASK_COUNT=3");
	assert_string_equal(env[6], "SLURM_ARRAY_TASK_MAX=7");
	assert_string_equal(env[7], "SLURM_ARRAY_TASK_MIN=1");
	assert_string_equal(env[8], "SLURM_ARRAY_TASK_STEP=3");
	sl_strv_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_many_options), cmocka_unit_test(test_array_task),
		cmocka_unit_test(test_export_none_gpus_mem_per_cpu),
		cmocka_unit_test(test_gpus_per_node),
		cmocka_unit_test(test_uneven_tasks),
		cmocka_unit_test(test_tasks_from_cpus),
		cmocka_unit_test(test_allocation_and_pod),
		cmocka_unit_test(test_fmt_counts),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
