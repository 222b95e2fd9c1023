/* test_pbs_env.c - the PBS variables every executor gives a batch job
 * (compat/pbs_env.c): identity variables for every job, NCPUS and
 * OMP_NUM_THREADS for qsub's, PBS_O_* that qsub sent winning, the order of
 * precedence of sl_pbs_env_job() (exported, then PBS's, then Slurm's), the
 * node file's lines and TMPDIR's name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "pbs_env.h"
#include "xalloc.h"

static struct sl_job *job(int pbs)
{
	char *rec = sl_xasprintf(
		"{\"id\": 42, \"uid\": 1000, \"gid\": 1000, \"user\": \"alice\", \"spec\": "
		"{\"name\": \"run\", \"account\": \"physics\", \"partition\": \"batch\", "
		"\"submit_host\": \"login1\", \"submit_dir\": \"/home/alice/w\", \"pbs\": %d, "
		"\"env\": [\"HOME=/home/alice\", \"PATH=/bin\", \"PBS_O_WORKDIR=/from/qsub\", "
		"\"PBS_JOBID=stale\", \"SLURM_JOB_ID=stale\", \"KEEP=1\"]}, "
		"\"state\": \"RUNNING\"}", pbs);
	struct sl_job *j = tl_job(rec);

	free(rec);
	return j;
}

static void test_build(void **state)
{
	/* cpus_per_node past the chunk's: --exclusive's whole node (place=excl) */
	struct sl_jobshape sh = {.nodes = 2, .ntasks = 8, .tasks_per_node = 4, .cpus_per_task = 2,
				 .cpus_per_node = 16};
	struct sl_job *j = job(1);
	struct sl_pbs_env_in in = {j, &sh, "head1"};
	char **e = sl_pbs_env_build(&in);
	(void)state;

	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBID"), "42.head1");
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBNAME"), "run");
	assert_string_equal(sl_pbs_env_get(e, "PBS_QUEUE"), "batch");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ACCOUNT"), "physics");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ENVIRONMENT"), "PBS_BATCH");
	assert_string_equal(sl_pbs_env_get(e, "PBS_O_HOST"), "login1");
	assert_string_equal(sl_pbs_env_get(e, "PBS_O_HOME"), "/home/alice");
	assert_null(sl_pbs_env_get(e, "PBS_O_WORKDIR")); /* qsub's stays: not set again */
	assert_string_equal(sl_pbs_env_get(e, "NCPUS"), "8");
	assert_string_equal(sl_pbs_env_get(e, "OMP_NUM_THREADS"), "8");
	for (size_t i = 1; e[i]; i++) /* sorted by name */
		assert_true(strcmp(e[i - 1], e[i]) < 0);
	sl_strv_free(e);
	sl_job_free(j);

	/* sbatch's job: spank_pbs's (as the reference cluster gave them): the
	 * Slurm id, PBS_O_* from the submission's variables, none of the
	 * job_submit/pbs plugin's or MOM's */
	j = job(0);
	j->array_job_id = 40;
	j->array_task_id = 7;
	in.job = j;
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBID"), "42");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ARRAY_ID"), "40");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ARRAY_INDEX"), "7");
	assert_string_equal(sl_pbs_env_get(e, "PBS_O_WORKDIR"), "/home/alice/w");
	assert_string_equal(sl_pbs_env_get(e, "PBS_O_PATH"), "/bin");
	assert_string_equal(sl_pbs_env_get(e, "PBS_TASKNUM"), "1");
	assert_null(sl_pbs_env_get(e, "PBS_O_QUEUE"));
	assert_null(sl_pbs_env_get(e, "PBS_O_HOST"));
	assert_null(sl_pbs_env_get(e, "PBS_QUEUE"));
	assert_null(sl_pbs_env_get(e, "PBS_ACCOUNT"));
	assert_null(sl_pbs_env_get(e, "PBS_ENVIRONMENT"));
	assert_null(sl_pbs_env_get(e, "PBS_ARRAYID"));
	assert_null(sl_pbs_env_get(e, "NCPUS"));
	assert_null(sl_pbs_env_get(e, "OMP_NUM_THREADS"));
	for (size_t i = 1; e[i]; i++)
		assert_true(strcmp(e[i - 1], e[i]) < 0);
	sl_strv_free(e);
	sl_job_free(j);

	/* a subjob: PBS Pro's PBS_ARRAY_INDEX and PBS_ARRAY_ID (start_exec.c:173),
	 * Torque's PBS_ARRAYID, and its id "N[I].server" */
	j = job(1);
	j->array_job_id = 40;
	j->array_task_id = 7;
	in.job = j;
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBID"), "40[7].head1");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ARRAY_ID"), "40[].head1");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ARRAY_INDEX"), "7");
	assert_string_equal(sl_pbs_env_get(e, "PBS_ARRAYID"), "7");
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBNAME"), "run");
	for (size_t i = 1; e[i]; i++)
		assert_true(strcmp(e[i - 1], e[i]) < 0);
	sl_strv_free(e);
	/* a Torque array's (-t): Job_Name "NAME-I", as job_clone() names it */
	j->spec.torque_array = 1;
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBNAME"), "run-7");
	sl_strv_free(e);
	sl_job_free(j);

	/* ompthreads: MOM's vn_threads, NCPUS and OMP_NUM_THREADS both
	 * (start_exec.c:3529), whatever the chunk's CPUs */
	j = job(1);
	j->spec.omp_threads = 2;
	in.job = j;
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "NCPUS"), "2");
	assert_string_equal(sl_pbs_env_get(e, "OMP_NUM_THREADS"), "2");
	sl_strv_free(e);
	sl_job_free(j);
}

static void test_job_env(void **state)
{
	struct sl_jobshape sh = {.nodes = 1, .ntasks = 1, .tasks_per_node = 1, .cpus_per_task = 1,
				 .cpus_per_node = 1};
	struct sl_job *j = job(1);
	struct sl_pbs_env_in in = {j, &sh, "head1"};
	char *slurm[] = {"SLURM_JOB_ID=42", "NCPUS=99", NULL};
	char **e = sl_pbs_env_job(&in, slurm);
	(void)state;

	assert_string_equal(sl_pbs_env_get(e, "KEEP"), "1");                /* exported */
	assert_string_equal(sl_pbs_env_get(e, "PBS_O_WORKDIR"), "/from/qsub");
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBID"), "42.head1");    /* PBS's over exported */
	assert_string_equal(sl_pbs_env_get(e, "SLURM_JOB_ID"), "42");       /* over's over both */
	assert_string_equal(sl_pbs_env_get(e, "NCPUS"), "99");
	sl_strv_free(e);
	sl_job_free(j);
}

/* spank_pbs's PBS_O_* of an environment: those it has, in its order. */
static void test_o_vars(void **state)
{
	char *env[] = {"PATH=/usr/bin:/bin", "HOME=/home/alice", "MAIL=/var/mail/alice",
		       "OTHER=x", NULL};
	char **o = sl_pbs_env_o(env);
	(void)state;
	assert_non_null(o);
	assert_string_equal(o[0], "PBS_O_HOME=/home/alice");
	assert_string_equal(o[1], "PBS_O_MAIL=/var/mail/alice");
	assert_string_equal(o[2], "PBS_O_PATH=/usr/bin:/bin");
	assert_null(o[3]);
	sl_strv_free(o);
	char *none[] = {"OTHER=x", NULL};
	assert_null(sl_pbs_env_o(none));
}

/* qstat -f's Variable_List: qsub's PBS_O_* in OpenPBS's qsub order
 * whatever the record's, then -v/-V's, then the server's queue and host;
 * quotes, commas and backslashes escaped (encode_arst_bs()). */
static void test_variable_list(void **state)
{
	struct sl_job *j = job(1);
	char *env[] = {"A=x,y", "PBS_O_SYSTEM=Linux", "Q='q\"\\", "PBS_O_WORKDIR=/w",
		       "PBS_O_HOME=/home/alice", "PBS_O_TZ=UTC", "PBS_O_PATH=/bin",
		       "PBS_O_INITDIR=/d", NULL};
	char *sb[] = {"PATH=/bin", "TZ=UTC", "HOME=/h", "KEEP=1", "SYSTEM=Linux", NULL};
	char **keep = j->spec.env, *v;
	(void)state;

	j->spec.env = env;
	v = sl_pbs_variable_list(j);
	/* Torque's -d: PBS_O_INITDIR after qsub's basic ones */
	assert_string_equal(v, "PBS_O_HOME=/home/alice,PBS_O_PATH=/bin,PBS_O_TZ=UTC,"
			       "PBS_O_WORKDIR=/w,PBS_O_SYSTEM=Linux,PBS_O_INITDIR=/d,A=x\\,y,"
			       "Q=\\'q\\\"\\\\,PBS_O_QUEUE=batch,PBS_O_HOST=login1");
	free(v);
	/* an sbatch job: spank_pbs's PBS_O_* (no TZ, none of its own variables) */
	j->spec.pbs = 0;
	j->spec.env = sb;
	v = sl_pbs_variable_list(j);
	assert_string_equal(v, "PBS_O_HOME=/h,PBS_O_PATH=/bin,PBS_O_WORKDIR=/home/alice/w,"
			       "PBS_O_SYSTEM=Linux,PBS_O_QUEUE=batch,PBS_O_HOST=login1");
	free(v);
	/* another user's job: its environment is not in the listing */
	j->spec.pbs = 1;
	j->spec.env = NULL;
	v = sl_pbs_variable_list(j);
	assert_string_equal(v, "PBS_O_WORKDIR=/home/alice/w,PBS_O_QUEUE=batch,PBS_O_HOST=login1");
	free(v);
	j->spec.env = keep;
	sl_job_free(j);
}

/* Torque's MOM's variables, for a job of Torque's forms alone: the slots
 * (PBS_NP), nodes and ppn of its nodes spec (1 and 1 without one: procs=),
 * its walltime's seconds, the batch shell's PBS_VNODENUM; an OpenPBS
 * job's set stays without them. */
static void test_torque(void **state)
{
	struct sl_jobshape sh = {.nodes = 2, .ntasks = 8, .tasks_per_node = 4, .cpus_per_task = 1,
				 .cpus_per_node = 4};
	struct sl_job *j = job(1);
	struct sl_pbs_env_in in = {j, &sh, "head1"};
	char **e = sl_pbs_env_build(&in);
	static const char *const torque_only[] = {"PBS_NP", "PBS_NUM_NODES", "PBS_NUM_PPN",
						  "PBS_VNODENUM", "PBS_WALLTIME"};
	(void)state;

	for (size_t i = 0; i < sizeof(torque_only) / sizeof(torque_only[0]); i++)
		assert_null(sl_pbs_env_get(e, torque_only[i]));
	sl_strv_free(e);

	j->spec.torque = 1;
	j->spec.nodes = 2;
	j->spec.ntasks_per_node = 4;
	j->spec.cpus_per_task = 1;
	j->spec.pbs_resources = sl_xstrdup("nodes=2:ppn=4,place=scatter");
	sl_jobspec_limit_set_secs(&j->spec, 300);
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_NP"), "8");
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_NODES"), "2");
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_PPN"), "4");
	assert_string_equal(sl_pbs_env_get(e, "PBS_VNODENUM"), "0");
	assert_string_equal(sl_pbs_env_get(e, "PBS_WALLTIME"), "300");
	assert_string_equal(sl_pbs_env_get(e, "PBS_JOBID"), "42.head1"); /* OpenPBS's stay */
	assert_string_equal(sl_pbs_env_get(e, "NCPUS"), "4");
	sl_strv_free(e);

	/* parts joined by '+': their counts summed, the first ppn= */
	free(j->spec.pbs_resources);
	j->spec.pbs_resources = sl_xstrdup("nodes=1:ppn=2+3:ppn=2,place=scatter");
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_NODES"), "4");
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_PPN"), "2");
	sl_strv_free(e);

	/* procs=3: no nodes spec, 1 and 1; the slots are its tasks */
	free(j->spec.pbs_resources);
	j->spec.pbs_resources = NULL;
	j->spec.nodes = SL_NO_VAL;
	j->spec.ntasks_per_node = SL_NO_VAL;
	j->spec.ntasks = 3;
	j->spec.time_limit = SL_TIME_UNSET;
	j->spec.time_limit_secs = 0;
	e = sl_pbs_env_build(&in);
	assert_string_equal(sl_pbs_env_get(e, "PBS_NP"), "3");
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_NODES"), "1");
	assert_string_equal(sl_pbs_env_get(e, "PBS_NUM_PPN"), "1");
	assert_null(sl_pbs_env_get(e, "PBS_WALLTIME"));
	sl_strv_free(e);
	sl_job_free(j);
}

static void test_files(void **state)
{
	struct sl_jobshape sh = {.nodes = 2, .ntasks = 3};
	char *hosts[] = {"n1", "n2"};
	char *t;
	(void)state;

	t = sl_pbs_nodefile(&sh, hosts, 2); /* block distribution: 2 then 1 */
	assert_string_equal(t, "n1\nn1\nn2\n");
	free(t);
	t = sl_pbs_nodefile(&sh, hosts, 1); /* one host name for every node */
	assert_string_equal(t, "n1\nn1\nn1\n");
	free(t);
	struct sl_job j = {.id = 42};
	t = sl_pbs_tmpdir(&j, "head1", "/var/tmp");
	assert_string_equal(t, "/var/tmp/pbs.42.head1");
	free(t);
	j.id = 47; /* a subjob: its PBS id, not its record's */
	j.array_job_id = 40;
	j.array_task_id = 7;
	t = sl_pbs_tmpdir(&j, "head1", "/var/tmp");
	assert_string_equal(t, "/var/tmp/pbs.40[7].head1");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_job_env),
		cmocka_unit_test(test_o_vars),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_torque),
		cmocka_unit_test(test_variable_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
