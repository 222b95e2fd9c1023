/* test_pbs_attr.c - the attribute values qsub and qalter share
 * (compat/pbs_attr.c: cvtdate(), parse_equal_string(), depend= lists) and
 * qalter's and qmove's arguments (compat/pbs_alter.c): the update fields
 * they make and PBS's texts and statuses for what they refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "pbs_alter.h"
#include "pbs_attr.h"
#include "xalloc.h"

/* Local time as mktime() reads it. */
static int64_t at(int y, int mon, int d, int h, int min, int s)
{
	struct tm tm = {.tm_year = y - 1900, .tm_mon = mon - 1, .tm_mday = d, .tm_hour = h,
			.tm_min = min, .tm_sec = s, .tm_isdst = -1};
	return (int64_t)mktime(&tm);
}

/* cvtdate()'s defaults, now being 2026-06-15 12:30:00 local time: what is
 * left out is the next one that puts the time after now (cvtdate.c:60-67). */
static void test_cvtdate(void **state)
{
	int64_t now = at(2026, 6, 15, 12, 30, 0), t;
	static const struct {
		const char *in;
		int y, mon, d, h, min, s;
	} ok[] = {
		{"1300", 2026, 6, 15, 13, 0, 0},        /* later today */
		{"1230", 2026, 6, 16, 12, 30, 0},       /* not after now: tomorrow */
		{"0800.30", 2026, 6, 16, 8, 0, 30},
		{"200900", 2026, 6, 20, 9, 0, 0},       /* DDhhmm this month */
		{"100900", 2026, 7, 10, 9, 0, 0},       /* a day gone: next month */
		{"07010000", 2026, 7, 1, 0, 0, 0},      /* MMDDhhmm */
		{"05010000", 2027, 5, 1, 0, 0, 0},      /* a month gone: next year */
		{"06010000", 2026, 6, 1, 0, 0, 0},      /* this month stays, even past */
		{"3001020304", 2030, 1, 2, 3, 4, 0},    /* YY below 69 is 20YY */
		{"203701021530.45", 2037, 1, 2, 15, 30, 45},
	};
	static const char *const bad[] = {"", "123", "12345", "2400", "1260", "1200.5",
					  "1200.60", "320000", "13010000", "12:00", "1200x"};
	(void)state;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (sl_pbs_cvtdate(ok[i].in, now, &t) != 0)
			fail_msg("%s refused", ok[i].in);
		if (t != at(ok[i].y, ok[i].mon, ok[i].d, ok[i].h, ok[i].min, ok[i].s))
			fail_msg("%s: %lld", ok[i].in, (long long)t);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (sl_pbs_cvtdate(bad[i], now, &t) == 0)
			fail_msg("%s accepted", bad[i]);
}

/* parse_equal_string(): a value runs to the last comma before the next
 * '='; quotes hold anything. */
static void test_attr_split(void **state)
{
	static const struct {
		const char *in, *want; /* "name|value;..." or NULL: malformed */
	} cases[] = {
		{"block=true", "block|true;"},
		{"depend=afterok:1,afterany:2,umask=022", "depend|afterok:1,afterany:2;umask|022;"},
		{" a = 1 , b=\"x,y=z\"", "a|1;b|x,y=z;"},
		{"=x", NULL}, {"a", NULL}, {"a=1,", NULL}, {"a='x", NULL}, {"", NULL},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char **names = NULL, **values = NULL, got[256] = "";
		size_t n = 0;
		int r = sl_pbs_attr_split(cases[i].in, &names, &values, &n);

		if (cases[i].want == NULL) {
			if (r == 0)
				fail_msg("\"%s\" accepted", cases[i].in);
			continue;
		}
		if (r != 0)
			fail_msg("\"%s\" refused", cases[i].in);
		for (size_t k = 0; k < n; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s|%s;", names[k],
				 values[k]);
		assert_string_equal(got, cases[i].want);
		sl_strv_free(names);
		sl_strv_free(values);
	}
}

static const char *vars(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "A") == 0 ? "1" : strcmp(name, "B_2") == 0 ? "two" : NULL;
}

/* wordexp()'s $NAME and ${NAME}; a '$' before anything else is itself. */
static void test_path_vars(void **state)
{
	static const struct {
		const char *in, *out, *err;
	} cases[] = {
		{"/x/$A.$B_2", "/x/1.two", NULL},
		{"/x/${A}b${B_2}", "/x/1btwo", NULL},
		{"/x/a$.b$-$/", "/x/a$.b$-$/", NULL},
		{"/x/$Ab", NULL, "-o with $Ab, which the job's environment does not hold, is not "
				 "supported by Sluice"},
		{"/x/${A", NULL, "-o with a malformed ${...} is not supported by Sluice"},
		{"/x/${}", NULL, "-o with a malformed ${...} is not supported by Sluice"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		char *out = NULL;
		int r = sl_pbs_path_vars(cases[i].in, 'o', vars, NULL, &out, &err);
		if (cases[i].out != NULL) {
			assert_int_equal(r, 0);
			assert_string_equal(out, cases[i].out);
		} else {
			assert_int_equal(r, -SL_EUNSUPP);
			assert_null(out);
			assert_string_equal(err.msg, cases[i].err);
		}
		free(out);
	}
}

static void test_depend(void **state)
{
	static const struct {
		const char *in, *out; /* out NULL: refused with rc and msg */
		int rc;
		const char *msg;
	} cases[] = {
		{"afterok:12", "afterok:12", 0, NULL},
		{"afterok:12.head1:13.head1.example.org, afternotok:14", "afterok:12:13,afternotok:14",
		 0, NULL},
		{"after:1,afterany:2", "after:1,afterany:2", 0, NULL},
		{"afterok:7.head1@head1.example.org:8@head1", "afterok:7:8", 0, NULL},
		{"afterok:7@", NULL, -SL_EINVAL, "illegal -W value"},
		{"afterok:7.head1@other", NULL, -SL_EUNSUPP,
		 "-W depend on 7.head1@other, a job of another server, is not supported by Sluice"},
		{"afterok", NULL, -SL_EINVAL, "illegal -W value"},
		{"afterok:1::2", NULL, -SL_EINVAL, "illegal -W value"},
		{"later:1", NULL, -SL_EINVAL, "illegal -W value"},
		/* arrays: "N[]" all its subjobs (Slurm's N), "N[I]" one (N_I) */
		{"afterok:1[]", "afterok:1", 0, NULL},
		{"afterany:4[2].head1:5[]@head1", "afterany:4_2:5", 0, NULL},
		{"afterok:1[1-3]", NULL, -SL_EINVAL, "illegal -W value"},
		{"afterok:1[x]", NULL, -SL_EINVAL, "illegal -W value"},
		{"", NULL, -SL_EINVAL, "illegal -W value"},
		{"before:1", NULL, -SL_EUNSUPP,
		 "-W depend=before is not supported by Sluice (only after, afterok, afternotok and "
		 "afterany)"},
		{"on:2", NULL, -SL_EUNSUPP,
		 "-W depend=on is not supported by Sluice (only after, afterok, afternotok and "
		 "afterany)"},
		{"afterok:1.elsewhere", NULL, -SL_EUNSUPP,
		 "-W depend on 1.elsewhere, a job of another server, is not supported by Sluice"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sl_err err = SL_ERR_INIT;
		char *out = NULL;
		int r = sl_pbs_depend(cases[i].in, "head1", &out, &err);

		if (cases[i].out) {
			if (r != 0)
				fail_msg("%s: %s", cases[i].in, err.msg);
			assert_string_equal(out, cases[i].out);
		} else {
			if (r != cases[i].rc)
				fail_msg("%s: %d", cases[i].in, r);
			assert_string_equal(err.msg, cases[i].msg);
			assert_null(out);
		}
		free(out);
	}
}

#define ARGV(...) (int)(sizeof((char *[]){"qalter", __VA_ARGS__}) / sizeof(char *)), \
		  (char *[]){"qalter", __VA_ARGS__, NULL}

/* The fields, "key=value;..." (a number when str is NULL). */
static void fields_are(const struct sl_qalter_req *q, const char *want)
{
	char got[512] = "";

	for (size_t i = 0; i < q->n; i++) {
		size_t u = strlen(got);
		if (q->f[i].str)
			snprintf(got + u, sizeof(got) - u, "%s=%s;", q->f[i].key, q->f[i].str);
		else
			snprintf(got + u, sizeof(got) - u, "%s=%lld;", q->f[i].key,
				 (long long)q->f[i].num);
	}
	assert_string_equal(got, want);
}

static void test_qalter(void **state)
{
	struct sl_qalter_req q;
	struct sl_pbs_failure f;
	struct sl_err err = SL_ERR_INIT;
	(void)state;

	assert_int_equal(sl_qalter_parse(ARGV("-l", "walltime=1:30:00,ncpus=4", "-N", "x", "-p",
					      "10", "-W", "depend=afterok:3.head1", "5", "6.head1"),
					 "head1", &q, &f, &err), 0);
	fields_are(&q, "time_limit_secs=5400;cpus=4;name=x;nice=-10;dependency=afterok:3;");
	/* a running job names the first attribute only a queued job changes */
	assert_string_equal(sl_qalter_running_attr(&q), "Resource_List.ncpus");
	assert_int_equal(q.n_ids, 2);
	assert_string_equal(q.ids[1], "6.head1");
	sl_qalter_req_clear(&q);
	assert_int_equal(sl_qalter_parse(ARGV("-h", "uo", "5"), "head1", &q, &f, &err), 0);
	assert_int_equal(q.hold, 1);
	assert_int_equal(q.operator_hold, 1);
	sl_qalter_req_clear(&q);
	assert_int_equal(sl_qalter_parse(ARGV("-h", "n", "5"), "head1", &q, &f, &err), 0);
	assert_int_equal(q.release, 1);
	sl_qalter_req_clear(&q);
	/* walltime to the second, as qsub's: a running job's alterable one */
	assert_int_equal(sl_qalter_parse(ARGV("-l", "walltime=00:00:45", "5"), "head1", &q, &f,
					 &err), 0);
	fields_are(&q, "time_limit_secs=45;");
	assert_string_equal(sl_qalter_running_attr(&q), "Resource_List.walltime");
	sl_qalter_req_clear(&q);
	assert_int_equal(sl_qalter_parse(ARGV("-a", "1200", "5"), "head1", &q, &f, &err), 0);
	assert_int_equal(q.n, 1);
	assert_string_equal(q.f[0].key, "begin_time");
	sl_qalter_req_clear(&q);
	/* account, mail, rerun, files; -m's letters as qsub's */
	assert_int_equal(sl_qalter_parse(ARGV("-A", "Proj1", "-m", "ae", "-M", "a@b.org", "-r", "n",
					      "-o", "/tmp/x%1.out", "-e", "localhost:/tmp/y",
					      "5"), "head1", &q, &f, &err), 0);
	fields_are(&q, "account=Proj1;mail_type=6;mail_user=a@b.org;requeue=0;"
		       "std_out=/tmp/x%%1.out;std_err=/tmp/y;");
	sl_qalter_req_clear(&q);
	assert_int_equal(sl_qalter_parse(ARGV("-P", "p2", "-m", "n", "5"), "head1", &q, &f, &err), 0);
	fields_are(&q, "wckey=p2;mail_type=0;"); /* a project is the wckey */
	assert_string_equal(sl_qalter_running_attr(&q), "project");
	sl_qalter_req_clear(&q);
	/* a new shape: select's chunk as qsub makes it */
	assert_int_equal(sl_qalter_parse(ARGV("-l", "select=2:ncpus=4:mpiprocs=2:mem=1gb:ngpus=1",
					      "5"), "head1", &q, &f, &err), 0);
	fields_are(&q, "nodes=2;ntasks_per_node=2;cpus_per_task=2;mem_per_node=1024;"
		       "gpus_per_node=1;omp_threads=-1;");
	sl_qalter_req_clear(&q);
	assert_int_equal(sl_qalter_parse(ARGV("-l", "nodes=3:ppn=4", "5"), "head1", &q, &f, &err), 0);
	fields_are(&q, "nodes=3;ntasks_per_node=4;cpus_per_task=1;mem_per_node=-1;gpus_per_node=0;"
		       "omp_threads=-1;");
	sl_qalter_req_clear(&q);
	/* CIME's chunk: ompthreads is the job's OMP_NUM_THREADS, ncpus its CPUs */
	assert_int_equal(sl_qalter_parse(ARGV("-l", "select=2:ncpus=8:mpiprocs=4:ompthreads=2",
					      "5"), "head1", &q, &f, &err), 0);
	fields_are(&q, "nodes=2;ntasks_per_node=4;cpus_per_task=2;mem_per_node=-1;gpus_per_node=0;"
		       "omp_threads=2;");
	assert_string_equal(sl_qalter_running_attr(&q), "Resource_List.select");
	sl_qalter_req_clear(&q);
	/* qalter.c:199's getopt() permutes: options after the ids count */
	assert_int_equal(sl_qalter_parse(ARGV("5", "-N", "x", "6", "-A", "Proj1"), "head1", &q, &f,
					 &err), 0);
	fields_are(&q, "name=x;account=Proj1;");
	assert_int_equal(q.n_ids, 2);
	assert_string_equal(q.ids[0], "5");
	assert_string_equal(q.ids[1], "6");
	sl_qalter_req_clear(&q);
}

static void test_qalter_refused(void **state)
{
	static const struct {
		const char *argv[5];
		int status, usage;
		const char *msg;
	} cases[] = {
		{{"-N", "bad name", "5"}, 2, 1, "illegal -N value"},
		{{"-p", "5000", "5"}, 2, 1, "illegal -p value"},
		{{"-a", "99", "5"}, 2, 1, "illegal -a value"},
		{{"-l", "walltime=x", "5"}, 2, 1, "illegal -l value"},
		{{"-l", "walltime", "5"}, 2, 1, "illegal -l value"},
		{{"-h", "un", "5"}, 2, 1, "illegal -h value"},
		{{"-W", "depend=soon:1", "5"}, 2, 1, "illegal -W value"},
		{{"-N", "x"}, 2, 1, ""},       /* no job */
		{{"5"}, 2, 1, ""},             /* nothing to alter */
		{{"--x", "5"}, 2, 1, "invalid option -- '-'"},
		{{"-j", "oe", "5"}, 1, 0, "-j (the job's output files cannot be changed) is not "
					  "supported by Sluice"},
		{{"-S", "/bin/sh", "5"}, 1, 0, "-S (the job's shell cannot be changed) is not "
					       "supported by Sluice"},
		{{"-o", "/", "5"}, 1, 0, "-o naming a directory (name the file) is not supported "
					 "by Sluice"},
		{{"-o", "elsewhere.example.org:/x", "5"}, 1, 0,
		 "-o HOST:PATH on another host is not supported by Sluice"},
		{{"-m", "xyz", "5"}, 2, 1, "illegal -m value"},
		{{"-r", "maybe", "5"}, 2, 1, "illegal -r value"},
		{{"-l", "select=1:ncpus=4+2:ncpus=2", "5"}, 1, 0,
		 "-l select=1:ncpus=4+2:ncpus=2 (chunks that differ: every chunk must ask for the same "
		 "resources) is not supported by Sluice"},
		{{"-l", "mem=1gb", "5"}, 1, 0, "-l mem is not supported by Sluice"},
		{{"-l", "procs=4", "5"}, 1, 0, "-l procs is not supported by Sluice"},
		{{"5", "-l", "procs=4"}, 1, 0, "-l procs is not supported by Sluice"},
		{{"-h", "s", "5"}, 1, 0, "-h s (system holds) is not supported by Sluice"},
		{{"-W", "depend=beforeany:1", "5"}, 1, 0,
		 "-W depend=beforeany is not supported by Sluice (only after, afterok, afternotok "
		 "and afterany)"},
		{{"-W", "group_list=g", "5"}, 1, 0, "-W group_list is not supported by Sluice"},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[7] = {"qalter"};
		int argc = 1;
		struct sl_qalter_req q;
		struct sl_pbs_failure f;
		struct sl_err err = SL_ERR_INIT;

		for (; cases[i].argv[argc - 1]; argc++)
			argv[argc] = (char *)cases[i].argv[argc - 1];
		if (sl_qalter_parse(argc, argv, "head1", &q, &f, &err) == 0)
			fail_msg("qalter %s accepted", argv[1]);
		if (strcmp(err.msg, cases[i].msg) != 0 || f.status != cases[i].status ||
		    f.usage != cases[i].usage)
			fail_msg("qalter %s: %d %d \"%s\"", argv[1], f.status, f.usage, err.msg);
		sl_qalter_req_clear(&q);
	}
}

static void test_qmove(void **state)
{
	struct sl_pbs_failure f;
	struct sl_err err = SL_ERR_INIT;
	char *queue = NULL, **ids = NULL;
	int n = 0;
	(void)state;

	assert_int_equal(sl_qmove_parse(3, (char *[]){"qmove", "debug@head1", "5", NULL}, "head1",
					&queue, &ids, &n, &f, &err), 0);
	assert_string_equal(queue, "debug");
	assert_int_equal(n, 1);
	free(queue);
	assert_int_not_equal(sl_qmove_parse(2, (char *[]){"qmove", "debug", NULL}, "head1", &queue,
					    &ids, &n, &f, &err), 0);
	assert_int_equal(f.status, 2);
	assert_int_equal(f.usage, 1);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(sl_qmove_parse(3, (char *[]){"qmove", "q@", "5", NULL}, "head1",
					    &queue, &ids, &n, &f, &err), 0);
	assert_string_equal(err.msg, "illegally formed destination: q@");
	assert_int_equal(f.status, 2);
	err = (struct sl_err)SL_ERR_INIT;
	assert_int_not_equal(sl_qmove_parse(3, (char *[]){"qmove", "q@other", "5", NULL}, "head1",
					    &queue, &ids, &n, &f, &err), 0);
	assert_string_equal(err.msg, "moving jobs to another server (other) is not supported by "
				     "Sluice");
	assert_int_equal(f.status, 1);
	assert_null(queue);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cvtdate),
		cmocka_unit_test(test_attr_split),
		cmocka_unit_test(test_depend),
		cmocka_unit_test(test_path_vars),
		cmocka_unit_test(test_qalter),
		cmocka_unit_test(test_qalter_refused),
		cmocka_unit_test(test_qmove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
