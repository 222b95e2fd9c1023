/* test_pbsdsh.c - pbsdsh's dialect (compat/pbsdsh.c): its command line as
 * OpenPBS's getopt loop reads it (glibc's permutation and lines, the usage
 * and its conditions, -h looked up in turn), the job's vnodes, the vnode
 * of each copy, a spawned task's variables, the step's layout, and -h's
 * match of a node file's lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pbsdsh.h"
#include "xalloc.h"

#define MAX_WORDS 12

/* argv[0] "pbsdsh", then words up to NULL; copied: getopt permutes argv. */
static int argv_of(const char *const *words, char **argv)
{
	int argc = 1;

	argv[0] = "pbsdsh";
	for (; words[argc - 1]; argc++)
		argv[argc] = (char *)words[argc - 1];
	argv[argc] = NULL;
	return argc;
}

/* -h's look-up in the tests: n0 is vnode 0, n1 vnode 2 (two lines of n0). */
static int find_host(const char *host, void *ctx)
{
	int *calls = ctx;
	(*calls)++;
	return strcmp(host, "n0") == 0 ? 0 : strcmp(host, "n1") == 0 ? 2 : -1;
}

static char *joined(char **v, int n)
{
	size_t len = 1;
	char *s;
	for (int i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = sl_xcalloc(len, 1);
	for (int i = 0; i < n; i++) {
		strcat(s, v[i]);
		if (i + 1 < n)
			strcat(s, " ");
	}
	return s;
}

static void test_parse(void **state)
{
	static const struct {
		const char *argv[MAX_WORDS];
		int copies, node, sync, verbose, no_obit;
		const char *program; /* NULL: refused with the usage */
		const char *lines;   /* refused: getopt's lines before the usage */
	} cases[] = {
		{{"--", "bash", "-l", "-c", "hq worker start", NULL}, -1, -1, 0, 0, 0,
		 "bash -l -c hq worker start", NULL},
		{{"-c", "2", "--", "echo", "hi", NULL}, 2, -1, 0, 0, 0, "echo hi", NULL},
		{{"-n", "1", "-s", "-v", "-o", "--", "true", NULL}, -1, 1, 1, 1, 1, "true", NULL},
		{{"-svo", "-n3", "true", NULL}, -1, 3, 1, 1, 1, "true", NULL},
		/* getopt permutes: without `--` the program's -c is pbsdsh's */
		{{"bash", "-c", "echo hi", NULL}, 0, -1, 0, 0, 0, "bash", NULL},
		{{"hostname", "-v", NULL}, -1, -1, 0, 1, 0, "hostname", NULL},
		{{"-c", "abc", "--", "true", NULL}, 0, -1, 0, 0, 0, "true", NULL}, /* atoi */
		{{"-c", "0", "--", "true", NULL}, 0, -1, 0, 0, 0, "true", NULL},
		{{"-n", "7", "--", "true", NULL}, -1, 7, 0, 0, 0, "true", NULL},
		{{"-h", "n1", "--", "true", NULL}, -1, 2, 0, 0, 0, "true", NULL},
		{{"-h", "n1", "-n", "0", "--", "true", NULL}, -1, 0, 0, 0, 0, "true", NULL},
		{{"-n", "1", "-h", "n0", "--", "true", NULL}, -1, 0, 0, 0, 0, "true", NULL},
		{{"-c", "2", "-n", "1", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-h", "n0", "-c", "1", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-h", "nosuch", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-c", "-1", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-n", "-2", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-s", "-v", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-s", "--", NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{NULL}, 0, 0, 0, 0, 0, NULL, ""},
		{{"-x", "--", "true", NULL}, 0, 0, 0, 0, 0, NULL, "pbsdsh: invalid option -- 'x'\n"},
		{{"-c", NULL}, 0, 0, 0, 0, 0, NULL, "pbsdsh: option requires an argument -- 'c'\n"},
		{{"-:", "true", NULL}, 0, 0, 0, 0, 0, NULL, "pbsdsh: invalid option -- ':'\n"},
		/* no long options: glibc reads "--version x" letter by letter,
		 * its n taking x, and no program is left */
		{{"--version", "x", NULL}, 0, 0, 0, 0, 0, NULL,
		 "pbsdsh: invalid option -- '-'\npbsdsh: invalid option -- 'e'\n"
		 "pbsdsh: invalid option -- 'r'\npbsdsh: invalid option -- 'i'\n"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[MAX_WORDS + 1];
		int argc = argv_of(cases[i].argv, argv), calls = 0;
		struct sl_pbsdsh_opts o;
		struct sl_err err = SL_ERR_INIT;
		int r = sl_pbsdsh_parse(argc, argv, find_host, &calls, &o, &err);

		if (cases[i].program == NULL) {
			char *usage = sl_pbsdsh_usage("pbsdsh");
			char *want = sl_xasprintf("%s%s", cases[i].lines, usage);
			assert_int_equal(r, -SL_EINVAL);
			assert_non_null(o.text);
			assert_string_equal(o.text, want);
			free(want);
			free(usage);
			sl_pbsdsh_opts_clear(&o);
			continue;
		}
		assert_int_equal(r, 0);
		assert_null(o.text);
		assert_int_equal(o.copies, cases[i].copies);
		assert_int_equal(o.node, cases[i].node);
		assert_int_equal(o.sync, cases[i].sync);
		assert_int_equal(o.verbose, cases[i].verbose);
		assert_int_equal(o.no_obit, cases[i].no_obit);
		char *prog = joined(o.argv, o.argc);
		assert_string_equal(prog, cases[i].program);
		assert_null(o.argv[o.argc]);
		free(prog);
		sl_pbsdsh_opts_clear(&o);
	}
}

/* -h is looked up when getopt reaches it, once. */
static void test_parse_host_once(void **state)
{
	const char *words[] = {"-h", "n0", "-h", "n1", "--", "true", NULL};
	char *argv[MAX_WORDS + 1];
	int argc = argv_of(words, argv), calls = 0;
	struct sl_pbsdsh_opts o;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(sl_pbsdsh_parse(argc, argv, find_host, &calls, &o, &err), 0);
	assert_int_equal(calls, 2);
	assert_int_equal(o.node, 2);
	sl_pbsdsh_opts_clear(&o);
}

static void test_usage(void **state)
{
	char *u = sl_pbsdsh_usage("/usr/bin/pbsdsh");
	(void)state;
	/* OpenPBS's lines, the program's name as it was called */
	assert_string_equal(
		u, "Usage: /usr/bin/pbsdsh [-c copies][-s][-v][-o] -- program [args...]\n"
		   "       /usr/bin/pbsdsh [-n node_index][-s][-v][-o] -- program [args...]\n"
		   "       /usr/bin/pbsdsh --version\n"
		   "Where -c copies =  run a copy of \"program\" on the first \"copies\" nodes,\n"
		   "      -n node_index = run a copy of \"program\" on the \"node_index\"-th "
		   "node,\n"
		   "      -h hostname = run a copy of \"program\" on the node named by "
		   "hostname,\n"
		   "      -s = forces synchronous execution,\n"
		   "      -v = forces verbose output.\n"
		   "      -o = no obits are waited for.\n");
	free(u);
}

static void test_vnodes(void **state)
{
	static const struct {
		size_t nnodes;
		const char *tpn;
		int n;
		int node_of[8];
	} cases[] = {
		{2, "2(x2)", 4, {0, 0, 1, 1}},
		{3, "2,1(x2)", 4, {0, 0, 1, 2}},
		{2, NULL, 2, {0, 1}},
		{2, "", 2, {0, 1}},
		{2, "3", 4, {0, 0, 0, 1}},        /* a short list: 1 for the rest */
		{1, "1(x3)", 1, {0}},             /* a long one: the nodes it names */
		{2, "x", -SL_EINVAL, {0}},
		{2, "2(x", -SL_EINVAL, {0}},
		{2, "2;1", -SL_EINVAL, {0}},
		{1, "-1", -SL_EINVAL, {0}},
		{1, "70000", -SL_EINVAL, {0}},
		{2, "40000(x2)", -SL_EINVAL, {0}}, /* over SL_PBSDSH_MAX in all */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		int *node_of = NULL;
		int n = sl_pbsdsh_vnodes(cases[i].nnodes, cases[i].tpn, &node_of, &err);
		assert_int_equal(n, cases[i].n);
		if (n < 0) {
			assert_null(node_of);
			assert_non_null(strstr(err.msg, "SLURM_TASKS_PER_NODE="));
			continue;
		}
		for (int v = 0; v < n; v++)
			assert_int_equal(node_of[v], cases[i].node_of[v]);
		free(node_of);
	}
}

static void test_plan(void **state)
{
	static const struct {
		int copies, node, nvnodes, n;
		int vnode_of[8];
	} cases[] = {
		{-1, -1, 4, 4, {0, 1, 2, 3}}, /* one per vnode */
		{6, -1, 4, 6, {0, 1, 2, 3, 0, 1}},
		{2, -1, 4, 2, {0, 1}},
		{0, -1, 4, 0, {0}},
		{-1, 2, 4, 1, {2}},
		{-1, 5, 4, 1, {1}},           /* -n past the last vnode goes round */
		{70000, -1, 4, -SL_ETOOBIG, {0}},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_pbsdsh_opts o = {.copies = cases[i].copies, .node = cases[i].node};
		struct sl_err err = SL_ERR_INIT;
		int *vnode_of = NULL;
		int n = sl_pbsdsh_plan(&o, cases[i].nvnodes, &vnode_of, &err);
		assert_int_equal(n, cases[i].n);
		if (n <= 0)
			assert_null(vnode_of);
		for (int c = 0; c < n; c++)
			assert_int_equal(vnode_of[c], cases[i].vnode_of[c]);
		free(vnode_of);
	}
}

static void test_task_env(void **state)
{
	char **v = sl_pbsdsh_task_env(0, 1, 0);
	(void)state;

	assert_string_equal(v[0], "PBS_NODENUM=0");
	assert_string_equal(v[1], "PBS_TASKNUM=00000002"); /* MOM's first spawn, "%8.8X" */
	assert_string_equal(v[2], "PBS_VNODENUM=1");
	assert_null(v[3]);
	sl_strv_free(v);
	v = sl_pbsdsh_task_env(14, 3, 1);
	assert_string_equal(v[0], "PBS_NODENUM=1");
	assert_string_equal(v[1], "PBS_TASKNUM=00000010");
	assert_string_equal(v[2], "PBS_VNODENUM=3");
	sl_strv_free(v);
}

static const char *env_of(char **env, const char *name)
{
	size_t n = strlen(name);
	for (; *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* A job of two nodes of two MPI processes each: n-[0-1], vnodes 0,0,1,1. */
static void alloc_two(struct sl_srun_alloc *a)
{
	char *env[] = {"SLURM_JOB_ID=7", "SLURM_JOB_NODELIST=n-[0-1]",
		       "SLURM_JOB_CPUS_PER_NODE=2(x2)", NULL};
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_srun_alloc_from_env(env, a, &err), 0);
}

static void test_layout(void **state)
{
	static const int node_of[] = {0, 0, 1, 1};
	struct sl_srun_alloc a;
	struct sl_srun_layout l;
	char *base[] = {"PATH=/bin", NULL};
	(void)state;

	alloc_two(&a);
	/* -n 2: one copy on the second node alone */
	int one[] = {2};
	sl_pbsdsh_layout(&a, node_of, one, 1, &l);
	assert_int_equal(l.job_id, 7);
	assert_int_equal(l.ntasks, 1);
	assert_int_equal(l.nnodes, 1);
	assert_string_equal(l.nodes[0], "n-1");
	assert_string_equal(l.nodelist, "n-1");
	assert_string_equal(l.tasks_per_node, "1");
	assert_string_equal(l.distribution, "block");
	assert_int_equal(l.cpus_on[0], 2);
	assert_int_equal(l.task[0].node, 0);
	char **env = sl_srun_task_env(&l, 0, base);
	assert_string_equal(env_of(env, "SLURM_NODEID"), "0");
	assert_string_equal(env_of(env, "SLURMD_NODENAME"), "n-1");
	assert_string_equal(env_of(env, "SLURM_STEP_NODELIST"), "n-1");
	assert_string_equal(env_of(env, "SLURM_NODELIST"), "n-[0-1]"); /* the job's */
	assert_string_equal(env_of(env, "SLURM_NNODES"), "1");
	assert_null(env_of(env, "PBS_TASKNUM")); /* no spank_pbs: pbsdsh sets its own */
	sl_strv_free(env);
	sl_srun_layout_clear(&l);

	/* -c 6: round the four vnodes and half again */
	int six[] = {0, 1, 2, 3, 0, 1};
	static const int want_node[] = {0, 0, 1, 1, 0, 0}, want_local[] = {0, 1, 0, 1, 2, 3};
	sl_pbsdsh_layout(&a, node_of, six, 6, &l);
	assert_int_equal(l.ntasks, 6);
	assert_int_equal(l.nnodes, 2);
	assert_string_equal(l.nodelist, "n-[0-1]");
	assert_string_equal(l.tasks_per_node, "4,2");
	assert_string_equal(l.distribution, "arbitrary");
	for (int c = 0; c < 6; c++) {
		assert_int_equal(l.task[c].node, want_node[c]);
		assert_int_equal(l.task[c].local, want_local[c]);
	}
	env = sl_srun_task_env(&l, 5, base);
	assert_string_equal(env_of(env, "SLURM_PROCID"), "5");
	assert_string_equal(env_of(env, "SLURM_LOCALID"), "3");
	assert_string_equal(env_of(env, "SLURM_GTIDS"), "0,1,4,5");
	assert_string_equal(env_of(env, "SLURM_STEP_NUM_TASKS"), "6");
	assert_string_equal(env_of(env, "SLURM_DISTRIBUTION"), "arbitrary");
	sl_strv_free(env);
	sl_srun_layout_clear(&l);
	sl_srun_alloc_clear(&a);
}

static void test_host_line(void **state)
{
	char *lines[] = {"vm", "vm", "other"};
	char *local[] = {"localhost"};
	(void)state;

	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "vm", NULL), 0);
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "other", NULL), 2);
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "nosuch", NULL), -1);
	assert_int_equal(sl_pbsdsh_host_line(lines, 0, "vm", NULL), -1);
	/* a full name is a line with the domain after it */
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "other.example.org", "example.org"), 2);
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "other.example.org", "(none)"), -1);
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "other.example.org", ""), -1);
	assert_int_equal(sl_pbsdsh_host_line(lines, 3, "oth", "example.org"), -1);
	/* an address is compared with each line's addresses */
	assert_int_equal(sl_pbsdsh_host_line(local, 1, "127.0.0.1", NULL), 0);
	assert_int_equal(sl_pbsdsh_host_line(local, 1, "192.0.2.7", NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),  cmocka_unit_test(test_parse_host_once),
		cmocka_unit_test(test_usage),  cmocka_unit_test(test_vnodes),
		cmocka_unit_test(test_plan),   cmocka_unit_test(test_task_env),
		cmocka_unit_test(test_layout), cmocka_unit_test(test_host_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
