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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_files),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
