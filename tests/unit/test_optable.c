/* test_optable.c - getopt_long-compatible scanning over an option table,
 * environment mapping and refusal of unsupported rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "optable.h"

static char log_buf[512];

static int rec(void *ctx, const char *arg, struct sl_err *err)
{
	const char *name = ctx;
	size_t n = strlen(log_buf);
	snprintf(log_buf + n, sizeof(log_buf) - n, "%s%s=%s", n ? " " : "", name,
		 arg ? arg : "-");
	return 0;
}

static const struct sl_opt table[] = {
	{"nodes", 'N', SL_OPT_REQ, {NULL, NULL}, 0, rec},
	{"ntasks", 'n', SL_OPT_REQ, {NULL, NULL}, 0, rec},
	{"no-requeue", 0, SL_OPT_NOARG, {"T_NO_REQUEUE", NULL}, 0, rec},
	{"hold", 'H', SL_OPT_NOARG, {NULL, NULL}, 0, rec},
	{"quiet", 'Q', SL_OPT_NOARG, {NULL, NULL}, 0, rec},
	{"nice", 0, SL_OPT_OPTARG, {NULL, NULL}, 0, rec},
	{"job-name", 'J', SL_OPT_REQ, {"T_JOB_NAME", NULL}, 0, rec},
	{"tasks", 'n', SL_OPT_REQ, {NULL, NULL}, 0, rec}, /* alias of ntasks */
	{"hint", 0, SL_OPT_REQ, {"T_HINT", "T_HINT2"}, 0, rec},
	{"array", 'a', SL_OPT_REQ, {"T_ARRAY", NULL}, SL_OPTF_UNSUPP, NULL},
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

/* Scan, apply every value with its row name as ctx, return the log. */
static const char *scan(int argc, char **argv, int *optind, int *rc, char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_optval *v = NULL;
	size_t n = 0, i;

	log_buf[0] = '\0';
	*rc = sl_opt_scan(table, argc, argv, 1, &v, &n, optind, &err);
	strcpy(msg, err.msg);
	for (i = 0; i < n; i++)
		if (v[i].opt->set)
			v[i].opt->set((void *)v[i].opt->name, v[i].arg, NULL);
		else
			rec((void *)v[i].opt->name, v[i].arg, NULL);
	free(v);
	return log_buf;
}

#define ARGV(...) ((char *[]){"prog", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){"prog", __VA_ARGS__}) / sizeof(char *)))
#define SCAN_OK(want, wantind, ...)                                          \
	do {                                                                 \
		int ind_, rc_;                                               \
		char m_[SL_ERR_MSG_MAX];                                     \
		const char *g_ = scan(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &ind_, &rc_, m_); \
		assert_int_equal(rc_, 0);                                    \
		assert_string_equal(g_, want);                               \
		assert_int_equal(ind_, wantind);                             \
	} while (0)
#define SCAN_ERR(wantmsg, ...)                                               \
	do {                                                                 \
		int ind_, rc_;                                               \
		char m_[SL_ERR_MSG_MAX];                                     \
		scan(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &ind_, &rc_, m_); \
		assert_int_equal(rc_, -SL_EINVAL);                           \
		assert_string_equal(m_, wantmsg);                            \
	} while (0)

static void test_forms(void **state)
{
	(void)state;
	SCAN_OK("nodes=2", 2, "-N2");
	SCAN_OK("nodes=2", 3, "-N", "2");
	SCAN_OK("nodes=2", 2, "--nodes=2");
	SCAN_OK("nodes=2", 3, "--nodes", "2");
	SCAN_OK("nodes=", 2, "--nodes=");
	SCAN_OK("hold=- quiet=- job-name=x", 2, "-HQJx");
	SCAN_OK("hold=- job-name=x", 3, "-HJ", "x");
	SCAN_OK("nice=-", 2, "--nice");
	SCAN_OK("nice=5", 2, "--nice=5");
	SCAN_OK("nice=-", 2, "--nice", "5"); /* optional args must be attached */
	SCAN_OK("nodes=-1", 3, "-N", "-1");
	SCAN_OK("tasks=4", 3, "--tasks", "4");
}

static void test_stop(void **state)
{
	(void)state;
	SCAN_OK("hold=-", 2, "-H", "job.sh", "-N", "2");
	SCAN_OK("hold=-", 3, "-H", "--", "-N");
	SCAN_OK("", 1, "-", "x");
	SCAN_OK("", 1, "job.sh");
}

/* Permuted: the options taken wherever they are, argv reordered as
 * glibc's getopt() reorders it (operands after the options, in order;
 * those before "--" first), argv untouched on an error. */
static void permute(char **argv, int argc, unsigned flags, const char *want_log,
		    const char *want_argv, int want_ind, int want_ddash, const char *want_err)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_optval *v = NULL;
	char before[512] = "", after[512] = "";
	size_t n = 0;
	int ind = -1, ddash = -1, rc;

	for (int i = 0; i < argc; i++)
		snprintf(before + strlen(before), sizeof(before) - strlen(before), "%s ", argv[i]);
	log_buf[0] = '\0';
	rc = sl_opt_scan_permute(table, argc, argv, flags, &v, &n, &ind, &ddash, &err);
	for (size_t i = 0; i < n; i++)
		rec((void *)v[i].opt->name, v[i].arg, NULL);
	free(v);
	for (int i = 0; i < argc; i++)
		snprintf(after + strlen(after), sizeof(after) - strlen(after), "%s ", argv[i]);
	if (want_err) {
		assert_int_equal(rc, -SL_EINVAL);
		assert_string_equal(err.msg, want_err);
		assert_int_equal(n, 0);
		assert_string_equal(after, before);
		return;
	}
	assert_int_equal(rc, 0);
	assert_string_equal(log_buf, want_log);
	assert_string_equal(after, want_argv);
	assert_int_equal(ind, want_ind);
	assert_int_equal(ddash, want_ddash);
}
#define PERM(flags, log, av, ind, dd, e, ...) \
	permute(ARGV(__VA_ARGS__), ARGC(__VA_ARGS__), flags, log, av, ind, dd, e)

static void test_permute(void **state)
{
	(void)state;
	/* HyperQueue's "qstat -f ID1 -f ID2 -F json -x" shape */
	PERM(0, "hold=- hold=- job-name=json quiet=-", "prog -H -H -J json -Q 1 2 ", 6, 0, NULL,
	     "-H", "1", "-H", "2", "-J", "json", "-Q");
	PERM(0, "nodes=2", "prog -N 2 job.sh ", 3, 0, NULL, "job.sh", "-N", "2");
	/* "--" ends the options; the operands before it come first */
	PERM(0, "hold=-", "prog -H -- a -N b ", 3, 1, NULL, "a", "-H", "--", "-N", "b");
	PERM(0, "", "prog -- ", 2, 1, NULL, "--");
	/* an option's argument "--" is not the end */
	PERM(0, "job-name=-- hold=-", "prog -J -- -H x ", 4, 0, NULL, "x", "-J", "--", "-H");
	PERM(0, "", "prog - x ", 1, 0, NULL, "-", "x");
	PERM(0, "nodes=3", "prog --nod=3 x ", 2, 0, NULL, "x", "--nod=3");
	/* errors anywhere, argv as it was */
	PERM(0, NULL, NULL, 0, 0, "invalid option -- 'Z'", "a", "-H", "b", "-Z");
	PERM(0, NULL, NULL, 0, 0, "option requires an argument -- 'J'", "a", "-J");
	/* getopt() without long options: "--x" is the option '-' */
	PERM(SL_OPTSCAN_SHORT, NULL, NULL, 0, 0, "invalid option -- '-'", "a", "--nodes=3");
	PERM(SL_OPTSCAN_SHORT, "", "prog -- --x ", 2, 1, NULL, "--", "--x");
}

static void test_abbrev(void **state)
{
	(void)state;
	SCAN_OK("nodes=3", 2, "--nod=3");
	SCAN_OK("job-name=a", 3, "--job", "a");
	SCAN_OK("no-requeue=-", 2, "--no-");
	SCAN_OK("ntasks=4", 2, "--ntasks=4");
	/* "--nt" matches ntasks only; "--ta" the alias */
	SCAN_OK("ntasks=4", 2, "--nt=4");
	SCAN_OK("tasks=4", 2, "--ta=4");
	SCAN_ERR("option '--no' is ambiguous; possibilities: '--nodes' '--no-requeue'", "--no");
	SCAN_ERR("option '--n' is ambiguous; possibilities: '--nodes' '--ntasks' '--no-requeue' '--nice'",
		 "--n=1");
}

static void test_errors(void **state)
{
	(void)state;
	SCAN_ERR("unrecognized option '--foo'", "--foo");
	SCAN_ERR("unrecognized option '--foo=bar'", "-H", "--foo=bar");
	SCAN_ERR("invalid option -- 'Z'", "-Z");
	SCAN_ERR("invalid option -- 'Z'", "-HZ");
	SCAN_ERR("option requires an argument -- 'J'", "-J");
	SCAN_ERR("option '--job-name' requires an argument", "--job-name");
	SCAN_ERR("option '--hold' doesn't allow an argument", "--hold=1");
}

static void test_env(void **state)
{
	char *envp[] = {"T_JOB_NAME=fromenv", "PATH=/bin", "T_HINT2=two", "T_NO_REQUEUE=",
			"T_HINT=one", NULL};
	char *envp2[] = {"T_HINT2=two", NULL};
	struct sl_optval *v = NULL;
	size_t n = 0;
	(void)state;

	sl_opt_from_env(table, envp, &v, &n);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].opt->name, "no-requeue");
	assert_string_equal(v[0].arg, "");
	assert_string_equal(v[1].opt->name, "job-name");
	assert_string_equal(v[1].arg, "fromenv");
	assert_string_equal(v[2].opt->name, "hint");
	assert_string_equal(v[2].arg, "one");
	assert_string_equal(sl_opt_env_name(v[2].opt, envp), "T_HINT");
	free(v);
	sl_opt_from_env(table, envp2, &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].arg, "two");
	assert_string_equal(sl_opt_env_name(v[0].opt, envp2), "T_HINT2");
	free(v);
	sl_opt_from_env(table, NULL, &v, &n);
	assert_int_equal(n, 0);
	free(v);
}

static void test_apply(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_optval v = {sl_opt_find(table, "array"), "0-3"};
	(void)state;

	assert_non_null(v.opt);
	assert_int_equal(sl_opt_apply_one(&v, NULL, &err), -SL_EUNSUPP);
	assert_string_equal(err.msg, "--array is not supported by Sluice");
	log_buf[0] = '\0';
	v.opt = sl_opt_find_key(table, 'N');
	v.arg = "7";
	assert_int_equal(sl_opt_apply_one(&v, "nodes", NULL), 0);
	assert_string_equal(log_buf, "nodes=7");
	assert_null(sl_opt_find(table, "nod"));
	assert_null(sl_opt_find_key(table, 'z'));
	assert_null(sl_opt_find_key(table, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),  cmocka_unit_test(test_stop),
		cmocka_unit_test(test_abbrev), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_env),    cmocka_unit_test(test_apply),
		cmocka_unit_test(test_permute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
