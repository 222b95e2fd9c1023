/* test_sbatch_golden.c - sbatch's parse of real users' command lines and
 * scripts against golden job specs: tests/data/sbatch/NAME.args (+ NAME.env,
 * NAME.sh) gives NAME.json, or NAME.err for a refusal. SL_GOLDEN_UPDATE=1
 * rewrites them. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "buf.h"
#include "err.h"
#include "job.h"
#include "slurm_opt.h"
#include "xalloc.h"

#include "sbatch_testlib.h"

static char datadir[4096];

static char **read_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	char **v;
	size_t n = 0;

	if (f == NULL)
		return NULL;
	v = sl_xcalloc(1, sizeof(char *));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		v = sl_xrealloc(v, (n + 2) * sizeof(char *));
		v[n++] = sl_xstrdup(line);
		v[n] = NULL;
	}
	fclose(f);
	return v;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = sl_xmalloc((size_t)len + 1);
	buf[fread(buf, 1, (size_t)len, f)] = '\0';
	fclose(f);
	return buf;
}

/* Replace the machine-specific parts so that the file compares anywhere. */
static void normalize(struct sl_jobspec *s, const char *cwd)
{
	char **fields[] = {&s->work_dir, &s->submit_dir, &s->script_path, &s->command};
	size_t i, n = strlen(cwd);

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char *v = *fields[i];
		if (v && strncmp(v, cwd, n) == 0) {
			*fields[i] = sl_xasprintf("@CWD@%s", v + n);
			free(v);
		}
	}
	free(s->submit_host);
	s->submit_host = sl_xstrdup("@HOST@");
	s->submit_sid = 0; /* the session the test runs in */
	/* The limits of whatever shell runs the test: rlimit's own test and
	 * rlimits.sh look at them. */
	free(s->rlimits);
	s->rlimits = NULL;
}

static char *outcome(const char *name, const char *cwd)
{
	char *p = sl_xasprintf("%s.args", name), *pe = sl_xasprintf("%s.env", name), *out;
	char **args = read_lines(p), **env = read_lines(pe), **argv;
	size_t n = sl_strv_len(args), i;
	struct res r;

	argv = sl_xcalloc(n + 2, sizeof(char *));
	argv[0] = "sbatch";
	for (i = 0; i < n; i++)
		argv[i + 1] = args[i];
	run(&r, env ? env : base_env, (int)n + 1, argv);
	if (r.rc == 0) {
		struct sl_buf *b = sl_buf_new(1 << 24);
		json_object *o;
		normalize(&r.spec, cwd);
		assert_int_equal(sl_jobspec_text_append(b, &r.spec), 0);
		o = json_tokener_parse(sl_buf_str(b));
		out = sl_xasprintf("%s\n", json_object_to_json_string_ext(
						   o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(o);
		sl_buf_free(b);
	} else {
		out = sl_xasprintf("exit %d%s%s\n%s\n", r.fl.exit_code,
				   r.fl.usage_error ? " usage" : "", r.fl.fatal ? " fatal" : "",
				   r.err.msg);
	}
	done(&r);
	free(argv);
	sl_strv_free(args);
	sl_strv_free(env);
	free(p);
	free(pe);
	return out;
}

static int json_same(const char *a, const char *b)
{
	json_object *x = json_tokener_parse(a), *y = json_tokener_parse(b);
	int same = x && y && json_object_equal(x, y);
	json_object_put(x);
	json_object_put(y);
	return same;
}

static void check_case(const char *name, const char *cwd, int update)
{
	char *got = outcome(name, cwd);
	int is_err = strncmp(got, "exit ", 5) == 0;
	char *path = sl_xasprintf("%s.%s", name, is_err ? "err" : "json");
	char *want = slurp(path);

	if (update) {
		write_file(path, got);
	} else {
		if (want == NULL)
			fail_msg("%s: missing %s; got:\n%s", name, path, got);
		if (is_err ? strcmp(got, want) != 0 : !json_same(got, want))
			fail_msg("%s: got\n%s\nwant\n%s", name, got, want);
	}
	free(want);
	free(path);
	free(got);
}

static void test_golden(void **state)
{
	const char *top = getenv("top_srcdir");
	char cwd[4096];
	struct dirent **list = NULL;
	int n, i, cases = 0, update = getenv("SL_GOLDEN_UPDATE") != NULL;

	snprintf(datadir, sizeof(datadir), "%s/tests/data/sbatch", top ? top : ".");
	assert_int_equal(chdir(datadir), 0);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	umask(022);
	n = scandir(".", &list, NULL, alphasort);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		size_t len = strlen(list[i]->d_name);
		if (len > 5 && strcmp(list[i]->d_name + len - 5, ".args") == 0) {
			char *name = sl_xstrndup(list[i]->d_name, len - 5);
			check_case(name, cwd, update);
			free(name);
			cases++;
		}
		free(list[i]);
	}
	free(list);
	assert_true(cases >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
