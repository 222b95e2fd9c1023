/* test_slurm_bind.c - the binding options' values, each case as the
 * reference Slurm 22.05's srun answered it (0: taken). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "slurm_bind.h"

struct bind_case {
	enum sl_bind_kind kind;
	const char *arg;
	int rc;          /* 0 taken, 1 help, -1 refused */
	const char *msg; /* when refused */
};

static const struct bind_case cases[] = {
	{SL_BIND_CPU, "cores", 0, NULL},
	{SL_BIND_CPU, "verbose,cores", 0, NULL},
	{SL_BIND_CPU, "map_cpu:0*2", 0, NULL},
	{SL_BIND_CPU, "map_cpu:0,1,verbose", 0, NULL},
	{SL_BIND_CPU, "mask_cpu:0x3,cores", 0, NULL},
	{SL_BIND_CPU, "mask_cpu:0x3,0xc*2", 0, NULL},
	{SL_BIND_CPU, "socket", 0, NULL},
	{SL_BIND_CPU, "one_thread", 0, NULL},
	{SL_BIND_CPU, "mapcpu:0", 0, NULL},
	{SL_BIND_CPU, "map_cpu=0,1", 0, NULL},
	{SL_BIND_CPU, "NONE", 0, NULL},
	{SL_BIND_CPU, "help", 1, NULL},
	{SL_BIND_CPU, "boards", -1, "unrecognized --cpu-bind argument \"boards\""},
	{SL_BIND_CPU, "", -1, "unrecognized --cpu-bind argument \"\""},
	{SL_BIND_CPU, "cores,", -1, "unrecognized --cpu-bind argument \"cores,\""},
	{SL_BIND_CPU, "v,bogus", -1, "unrecognized --cpu-bind argument \"bogus\""},
	{SL_BIND_CPU, "mask_cpu:0X3", -1,
	 "Failed to validate number: 0X3, the offending character is X"},
	{SL_BIND_CPU, "map_cpu:", -1, "missing list for \"--cpu-bind=map_cpu:<list>\""},
	{SL_BIND_CPU, "map_cpu:0,bad", -1,
	 "Failed to validate number: bad, the offending character is b"},
	{SL_BIND_CPU, "map_cpu:1*0", -1, "Invalid map_cpu multiplier: 0"},
	{SL_BIND_MEM, "local", 0, NULL},
	{SL_BIND_MEM, "prefer", 0, NULL},
	{SL_BIND_MEM, "p", 0, NULL},
	{SL_BIND_MEM, "map_mem:0,sort", 0, NULL},
	{SL_BIND_MEM, "mapmem:0", 0, NULL},
	{SL_BIND_MEM, "help", 1, NULL},
	{SL_BIND_MEM, "", -1, "unrecognized --mem-bind argument \"\""},
	{SL_BIND_MEM, "bogus", -1, "unrecognized --mem-bind argument \"bogus\""},
	{SL_BIND_GPU, "closest", 0, NULL},
	{SL_BIND_GPU, "VERBOSE,closest", 0, NULL},
	{SL_BIND_GPU, "cx", 0, NULL},
	{SL_BIND_GPU, "nope", 0, NULL},
	{SL_BIND_GPU, "single:0x1", 0, NULL},
	{SL_BIND_GPU, "map_gpu:", 0, NULL},
	{SL_BIND_GPU, "per_task:x", 0, NULL},
	{SL_BIND_GPU, "x", -1, "Invalid --gpu-bind argument: gpu:x"},
	{SL_BIND_GPU, "map_gpu:1*2,0", 0, NULL},
	{SL_BIND_GPU, "mask_gpu:0x1*2,0x2", 0, NULL},
	{SL_BIND_GPU, "map_gpu:1,0x1", -1, "Failed to validate 0x1, offending character is x\n"
	 "srun: error: Invalid --gpu-bind argument: gpu:map_gpu:1,0x1"},
	{SL_BIND_GPU, "mask_gpu:zz", -1, "Failed to validate zz, offending character is z\n"
	 "srun: error: Invalid --gpu-bind argument: gpu:mask_gpu:zz"},
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		int r = sl_slurm_bind_check("srun", cases[i].kind, cases[i].arg, &err);
		if (cases[i].rc < 0 ? r >= 0 : r != cases[i].rc)
			fail_msg("[%s]: %d (%s)", cases[i].arg, r, err.msg);
		if (cases[i].msg != NULL && strcmp(err.msg, cases[i].msg) != 0)
			fail_msg("[%s]: \"%s\", want \"%s\"", cases[i].arg, err.msg, cases[i].msg);
	}
}

/* The tasks' variables for each --cpu-bind value, as the reference
 * cluster's tasks had them: SLURM_CPU_BIND|_LIST|_TYPE|_VERBOSE; NULL:
 * none set. */
static const char *const env_cases[][2] = {
	{"none", "quiet,none||none|quiet"},
	{"no", "quiet,none||none|quiet"},
	{"quiet", NULL},
	{"q", NULL},
	{"verbose", "verbose|verbose||verbose"},
	{"cores", "quiet,corescores|cores|cores|quiet"},
	{"threads", "quiet,threadsthreads|threads|threads|quiet"},
	{"sockets", "quiet,socketssockets|sockets|sockets|quiet"},
	{"ldoms", "quiet,ldomsldoms|ldoms|ldoms|quiet"},
	{"rank", "quiet,rank||rank|quiet"},
	{"rank_ldom", "quiet,rank_ldom||rank_ldom|quiet"},
	{"map_cpu:0,1", "quiet,map_cpu:0,1|0,1|map_cpu:|quiet"},
	{"mask_cpu:0x1,0x2", "quiet,mask_cpu:1,2|1,2|mask_cpu:|quiet"},
	{"map_ldom:0", "quiet,map_ldom:0|0|map_ldom:|quiet"},
	{"mask_ldom:0x1", "quiet,mask_ldom:1|1|mask_ldom:|quiet"},
	{"verbose,none", "verbose,none||none|verbose"},
	{"none,verbose", "verbose,none||none|verbose"},
	{"v,cores", "verbose,coresv,cores|v,cores|cores|verbose"},
	{"quiet,rank", "quiet,rank||rank|quiet"},
	{"cores,verbose", "verbose,corescores,verbose|cores,verbose|cores|verbose"},
	{"verbose,map_cpu:0,1", "verbose,map_cpu:0,1|0,1|map_cpu:|verbose"},
	/* from slurm_verify_cpu_bind's reading (not run on the cluster) */
	{"cores,rank", "quiet,cores,rank||cores,rank|quiet"},
	{"map_cpu:0*2", "quiet,map_cpu:0,0|0,0|map_cpu:|quiet"},
};

static void test_cpu_bind_env(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(env_cases) / sizeof(env_cases[0]); i++) {
		char **v = sl_slurm_cpu_bind_env(env_cases[i][0]), got[256];
		if (env_cases[i][1] == NULL) {
			if (v != NULL)
				fail_msg("[%s]: %s, want none", env_cases[i][0], v[0]);
			continue;
		}
		assert_non_null(v);
		snprintf(got, sizeof(got), "%s|%s|%s|%s", strchr(v[0], '=') + 1,
			 strchr(v[1], '=') + 1, strchr(v[2], '=') + 1, strchr(v[3], '=') + 1);
		if (strcmp(got, env_cases[i][1]) != 0)
			fail_msg("[%s]: \"%s\", want \"%s\"", env_cases[i][0], got, env_cases[i][1]);
		assert_int_equal(strncmp(v[0], "SLURM_CPU_BIND=", 15), 0);
		assert_int_equal(strncmp(v[1], "SLURM_CPU_BIND_LIST=", 20), 0);
		assert_int_equal(strncmp(v[2], "SLURM_CPU_BIND_TYPE=", 20), 0);
		assert_int_equal(strncmp(v[3], "SLURM_CPU_BIND_VERBOSE=", 23), 0);
		assert_null(v[4]);
		for (char **e = v; *e; e++)
			free(*e);
		free(v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_cpu_bind_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
