/* test_srun_nodes.c - how srun and salloc pick nodes: -w, -F and -x (host
 * files among them), as Slurm 22.05's did on the reference cluster
 * (compat/srun_opt.c, compat/srun_layout.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hostlist.h"
#include "srun_layout.h"
#include "srun_opt.h"
#include "xalloc.h"

#include "tmpdir_testlib.h"

typedef int (*parse_fn)(int argc, char **argv, char *const *envp, struct sl_srun_opts *o,
			int *status, struct sl_err *err);

/* prog's command line (NULL-terminated arguments, then the command
 * "true") through its parser, with no input variables unless env. */
static int run_parse(parse_fn fn, char **env, struct sl_srun_opts *o, int *status,
		     struct sl_err *err, va_list ap)
{
	static char *argv[32];
	static char *none[] = {NULL};
	int argc = 1;
	memset(argv, 0, sizeof(argv)); /* o->argv points in here after the call */
	argv[0] = fn == sl_srun_opts_parse ? "srun" : "salloc";
	for (char *a; (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	argv[argc++] = "true";
	*err = (struct sl_err)SL_ERR_INIT;
	*status = 0;
	return fn(argc, argv, env ? env : none, o, status, err);
}

static int srun(struct sl_srun_opts *o, int *status, struct sl_err *err, ...)
{
	va_list ap;
	va_start(ap, err);
	int r = run_parse(sl_srun_opts_parse, NULL, o, status, err, ap);
	va_end(ap);
	return r;
}

/* The value of the allocation's option name ("--nodelist="), or NULL. */
static const char *alloc_opt(const struct sl_srun_opts *o, const char *name)
{
	size_t n = strlen(name);
	for (char **a = o->alloc; a && *a; a++)
		if (strncmp(*a, name, n) == 0)
			return *a + n;
	return NULL;
}

/* -x and -w naming a file ('/' in it) and -F: the file's names, read
 * once every option is in: -x's first, then the last of -w and -F (a
 * missing file an earlier one named is never opened). srun's lines and
 * exit codes on the reference cluster. */
static void test_host_files(void **state)
{
	char *hx = tmpdir_write("hx", "n1\n"), *hf = tmpdir_write("hf", "n2\nn3\n");
	char *missing = sl_xasprintf("%s/nope", tmpdir_path);
	char *missing2 = sl_xasprintf("%s/nope2", tmpdir_path);
	char *opening = sl_xasprintf("slurm_allocate_resources error opening file %s, No such "
				     "file or directory", missing);
	char *want = NULL;
	struct sl_srun_opts o;
	struct sl_err err;
	int st;
	(void)state;

	assert_int_equal(srun(&o, &st, &err, "-x", hx, "-w", hf, NULL), 0);
	assert_string_equal(o.exclude, "n1");
	assert_string_equal(o.nodelist, "n[2-3]");
	/* the allocation srun makes gets the names, not the files */
	assert_string_equal(alloc_opt(&o, "--exclude="), "n1");
	assert_string_equal(alloc_opt(&o, "--nodelist="), "n[2-3]");
	sl_srun_opts_clear(&o);
	/* the last of -w and -F counts */
	assert_int_equal(srun(&o, &st, &err, "-w", missing, "-w", "n1", NULL), 0);
	assert_string_equal(o.nodelist, "n1");
	sl_srun_opts_clear(&o);
	assert_int_equal(srun(&o, &st, &err, "-F", missing, "-w", "n2", NULL), 0);
	assert_string_equal(o.nodelist, "n2");
	sl_srun_opts_clear(&o);
	assert_int_equal(srun(&o, &st, &err, "-w", "n2", "-F", hf, NULL), 0);
	assert_string_equal(o.nodelist, "n[2-3]");
	sl_srun_opts_clear(&o);
	/* -x's file first, whatever the order given: error_exit (1) */
	want = sl_xasprintf("srun: error: %s", opening);
	assert_int_not_equal(srun(&o, &st, &err, "-w", missing2, "-x", missing, NULL), 0);
	assert_string_equal(err.msg, want);
	assert_int_equal(st, 1);
	sl_srun_opts_clear(&o);
	assert_int_not_equal(srun(&o, &st, &err, "-F", missing2, "-x", missing, NULL), 0);
	assert_string_equal(err.msg, want);
	assert_int_equal(st, 1);
	sl_srun_opts_clear(&o);
	/* -F's: its own line after the reader's, exit(-1) */
	free(want);
	want = sl_xasprintf("srun: error: %s\nsrun: error: Invalid --nodefile node file", opening);
	assert_int_not_equal(srun(&o, &st, &err, "-w", hf, "-F", missing, NULL), 0);
	assert_string_equal(err.msg, want);
	assert_int_equal(st, 255);
	sl_srun_opts_clear(&o);
	/* a file of no names */
	char *empty = tmpdir_write("empty", "");
	assert_int_not_equal(srun(&o, &st, &err, "-x", empty, NULL), 0);
	assert_string_equal(err.msg, "srun: error: Hostlist is empty!");
	assert_int_equal(st, 1);
	sl_srun_opts_clear(&o);
	free(empty);
	free(want);
	free(opening);
	free(missing);
	free(missing2);
	free(hx);
	free(hf);
}

/* A step in job 230 on nodes (one CPU each, SLURM_JOB_NUM_NODES their
 * count), srun's arguments after: its step's nodes, or its error's text;
 * *said, the lines srun prints before (the parse's, then the layout's). */
static char *step(const char *nodes, char **said, ...)
{
	char e1[64], e2[64], e3[64], *env[] = {"SLURM_JOB_ID=230", e1, e2, e3, NULL};
	struct sl_srun_alloc a;
	struct sl_srun_layout l;
	struct sl_srun_opts o;
	struct sl_err err;
	char *warn = NULL, *out;
	int st;
	va_list ap;

	char **names = NULL;
	size_t n = 0;

	err = (struct sl_err)SL_ERR_INIT;
	assert_int_equal(sl_hostlist_expand(nodes, &names, &n, &err), 0);
	sl_strv_free(names);
	snprintf(e1, sizeof(e1), "SLURM_JOB_NODELIST=%s", nodes);
	snprintf(e2, sizeof(e2), "SLURM_JOB_CPUS_PER_NODE=1(x%zu)", n);
	snprintf(e3, sizeof(e3), "SLURM_JOB_NUM_NODES=%zu", n);
	assert_int_equal(sl_srun_alloc_from_env(env, &a, &err), 0);
	va_start(ap, said);
	assert_int_equal(run_parse(sl_srun_opts_parse, env, &o, &st, &err, ap), 0);
	va_end(ap);
	out = sl_srun_layout_make(&o, &a, &l, &warn, &err) == 0 ? sl_xstrdup(l.nodelist)
								: sl_xstrdup(err.msg);
	*said = sl_xasprintf("%s%s", o.warn ? o.warn : "", warn ? warn : "");
	free(warn);
	sl_srun_layout_clear(&l);
	sl_srun_opts_clear(&o);
	sl_srun_alloc_clear(&a);
	return out;
}

#define ELIMINATING(n, max) \
	"srun: error: Required nodelist includes more nodes than permitted by max-node " \
	"count (" #n " > " #max "). Eliminating nodes from the nodelist.\n"
#define CANT_RUN(t, n) \
	"srun: Warning: can't run " #t " processes on " #n " nodes, setting nnodes to " #t "\n"

/* -w naming more nodes than -N's maximum (the job's SLURM_JOB_NUM_NODES
 * when not typed): Slurm's srun says so and drops the last names given,
 * then asks for them (and -N's minimum); in a -N3 job on the reference
 * cluster, each case. */
static void test_nodelist_past_max(void **state)
{
	static const struct {
		const char *args[8];
		const char *said, *nodes;
	} cases[] = {
		{{"-w", "n3,n1,n2", "-N", "2"}, ELIMINATING(3, 2), "n[1,3]"},
		{{"-w", "n[1-3]", "-N", "2", "-n", "1"}, ELIMINATING(3, 2) CANT_RUN(1, 2), "n1"},
		{{"-w", "n1,n1,n2", "-N", "2"}, ELIMINATING(3, 2), "n[1-2]"},
		{{"-w", "n1,n4", "-N", "1"}, ELIMINATING(2, 1), "n1"},
		{{"-w", "n4,n1", "-N", "1"}, ELIMINATING(2, 1), "srun: error: Unable to create step "
		 "for job 230: Requested node configuration is not available"},
		/* the dropped name is no longer also excluded */
		{{"-w", "n1,n2", "-N", "1", "-x", "n2"}, ELIMINATING(2, 1), "n1"},
		{{"-w", "n1,n2,n3,n4"}, ELIMINATING(4, 3), "n[1-3]"},
		{{"-N", "1-2", "-w", "n[1-3]", "-n", "1"}, ELIMINATING(3, 2) CANT_RUN(1, 2), "n1"},
		/* within the maximum: the names and the minimum's count */
		{{"-w", "n1,n2"}, "", "n[1-3]"},
		{{"-N", "1-3", "-w", "n[1-2]"}, "", "n[1-2]"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *a = cases[i].args;
		char *said = NULL, *nodes = step("n[1-3]", &said, a[0], a[1], a[2], a[3], a[4],
						 a[5], a[6], a[7], NULL);
		assert_string_equal(said, cases[i].said);
		assert_string_equal(nodes, cases[i].nodes);
		free(said);
		free(nodes);
	}
}

/* Outside a job, the allocation asks for the names left; salloc's list is
 * the controller's to refuse whole. */
static void test_nodelist_past_max_alloc(void **state)
{
	struct sl_srun_opts o;
	struct sl_err err;
	int st;
	(void)state;
	assert_int_equal(srun(&o, &st, &err, "-w", "n[1-3]", "-N", "2", NULL), 0);
	assert_string_equal(o.warn, ELIMINATING(3, 2));
	assert_string_equal(alloc_opt(&o, "--nodelist="), "n[1-2]");
	sl_srun_opts_clear(&o);
	/* no -N: no maximum */
	assert_int_equal(srun(&o, &st, &err, "-w", "n[1-3]", NULL), 0);
	assert_null(o.warn);
	assert_string_equal(alloc_opt(&o, "--nodelist="), "n[1-3]");
	sl_srun_opts_clear(&o);
	char *none[] = {NULL}, *argv[] = {"salloc", "-w", "n[1-3]", "-N", "2", NULL};
	assert_int_equal(sl_salloc_opts_parse(5, argv, none, &o, &st, &err), 0);
	assert_null(o.warn);
	assert_string_equal(alloc_opt(&o, "--nodelist="), "n[1-3]");
	sl_srun_opts_clear(&o);
}

/* -x naming a node outside the job: a node of the cluster changes
 * nothing, a name no node has is slurmctld's refusal (the reference
 * cluster's srun in a -N3 job: -x n4 ran on n[1-3], -x n9 was refused).
 * The local executor's nodes are its host's names: HOST, HOST-N. */
static void test_exclude_outside_job(void **state)
{
	static const struct {
		const char *job, *args[4];
		const char *nodes;
	} cases[] = {
		{"vm-[0-2]", {"-x", "vm-5"}, "vm-[0-2]"},
		{"vm-[0-2]", {"-x", "vm"}, "vm-[0-2]"},
		{"vm-[0-2]", {"-x", "vm-[1,7]", "-N", "2"}, "vm-[0,2]"},
		{"vm-[0-2]", {"-x", "vm-0,vm-5"}, "srun: error: Only allocated 2 nodes asked for 3\n"
		 "srun: error: Are required nodes explicitly excluded?"},
		{"vm-[0-2]", {"-x", "n9"}, "srun: error: Unable to create step for job 230: Invalid "
		 "node name specified"},
		{"vm-[0-2]", {"-x", "vm-5,vm-x"}, "srun: error: Unable to create step for job 230: "
		 "Invalid node name specified"},
		{"vm-[0-2]", {"-x", ""}, "vm-[0-2]"},
		{"vm-[0-2]", {"-x", "vm-1", "-x", "vm-5"}, "vm-[0-2]"}, /* the last one counts */
		{"vm", {"-x", "vm-1"}, "vm"},
		{"vm", {"-x", "n4"}, "srun: error: Unable to create step for job 230: Invalid node "
		 "name specified"},
		/* names of no executor's form: nothing is the cluster's but the job's */
		{"n[1-2]", {"-x", "n-1"}, "srun: error: Unable to create step for job 230: Invalid "
		 "node name specified"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *a = cases[i].args;
		char *said = NULL, *nodes = step(cases[i].job, &said, a[0], a[1], a[2], a[3], NULL);
		assert_string_equal(nodes, cases[i].nodes);
		assert_string_equal(said, "");
		free(said);
		free(nodes);
	}
}

/* The host a job's node names come from (sl_exec_local_nodelist's). */
static void test_alloc_host(void **state)
{
	static const struct {
		const char *nodes, *host;
	} cases[] = {
		{"vm", "vm"}, {"vm-[0-2]", "vm"}, {"my-host-[0-1]", "my-host"},
		{"node-3", "node-3"}, {"n[1-2]", NULL}, {"a-0,b-1", NULL}, {"vm-0,vm-x", NULL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char e1[64], *env[] = {"SLURM_JOB_ID=230", e1, NULL};
		struct sl_srun_alloc a;
		struct sl_err err = SL_ERR_INIT;
		snprintf(e1, sizeof(e1), "SLURM_JOB_NODELIST=%s", cases[i].nodes);
		assert_int_equal(sl_srun_alloc_from_env(env, &a, &err), 0);
		if (cases[i].host)
			assert_string_equal(a.host, cases[i].host);
		else
			assert_null(a.host);
		sl_srun_alloc_clear(&a);
	}
}

static int salloc(struct sl_srun_opts *o, int *status, struct sl_err *err, ...)
{
	va_list ap;
	va_start(ap, err);
	int r = run_parse(sl_salloc_opts_parse, NULL, o, status, err, ap);
	va_end(ap);
	return r;
}

/* salloc -x: the allocation's, as sbatch -x (its names, a host file's,
 * none for ""), with salloc's words for a file it cannot read. */
static void test_salloc_exclude(void **state)
{
	char *hx = tmpdir_write("hx", "n1\nn2\n"), *missing = sl_xasprintf("%s/nope", tmpdir_path);
	char *want = sl_xasprintf("salloc: error: slurm_allocate_resources error opening file %s, "
				  "No such file or directory", missing);
	struct sl_srun_opts o;
	struct sl_err err;
	int st;
	(void)state;
	assert_int_equal(salloc(&o, &st, &err, "-x", "n3", "-N", "1", NULL), 0);
	assert_string_equal(alloc_opt(&o, "--exclude="), "n3");
	sl_srun_opts_clear(&o);
	assert_int_equal(salloc(&o, &st, &err, "--exclude", hx, NULL), 0);
	assert_string_equal(alloc_opt(&o, "--exclude="), "n[1-2]");
	sl_srun_opts_clear(&o);
	assert_int_equal(salloc(&o, &st, &err, "-x", "n3", "-x", "", NULL), 0);
	assert_null(alloc_opt(&o, "--exclude="));
	sl_srun_opts_clear(&o);
	assert_int_not_equal(salloc(&o, &st, &err, "-x", missing, NULL), 0);
	assert_string_equal(err.msg, want);
	assert_int_equal(st, 1);
	sl_srun_opts_clear(&o);
	free(want);
	free(missing);
	free(hx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_files),
		cmocka_unit_test(test_nodelist_past_max),
		cmocka_unit_test(test_nodelist_past_max_alloc),
		cmocka_unit_test(test_exclude_outside_job),
		cmocka_unit_test(test_alloc_host),
		cmocka_unit_test(test_salloc_exclude),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
