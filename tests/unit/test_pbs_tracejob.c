/* test_pbs_tracejob.c - tracejob (compat/pbs_tracejob.c, pbs_tracejob_out.c,
 * and its options in pbs_qopt.c): the lines rebuilt for the records of
 * tests/data/pbs/jobs.jsonl, arrays.jsonl and tracejob.jsonl (a requeue, a
 * released hold, deletes, a job of two days) against their goldens
 * (tracejob_*.out; tests/data/pbs/README), then what the options leave of
 * them, the wrapping, the ids an operand finds and main()'s messages.
 * SL_GOLDEN_UPDATE=1 rewrites the golden files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "job_testlib.h"
#include "pbs_testlib.h"
#include "pbs_array.h"
#include "pbs_job.h"
#include "pbs_qopt.h"
#include "pbs_tracejob.h"
#include "xalloc.h"

#define NOW TL_PBS_NOW

static int names(int uid, char *buf, size_t len)
{
	if (uid != 0 && uid != 2002)
		return -1;
	snprintf(buf, len, "%s", uid ? "bob" : "root");
	return 0;
}

static struct sl_tracejob_view view(void)
{
	struct sl_tracejob_view v = {.server = "vm", .host = "vm", .accounting = 1, .now = NOW,
				     .user_name = names};
	return v;
}

/* The options of "tracejob ARGS... 1". */
static struct sl_tracejob_opts opts(const char *args)
{
	char *copy = sl_xstrdup(args), *save = NULL, *w;
	static char *argv[32];
	struct sl_tracejob_opts o;
	struct sl_pbs_failure f;
	struct sl_err err = SL_ERR_INIT;
	int argc = 0;
	static char *keep;

	free(keep);
	keep = copy;
	argv[argc++] = "tracejob";
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc++] = "1";
	argv[argc] = NULL;
	assert_int_equal(sl_tracejob_parse(argc, argv, &o, &f, &err), 0);
	return o;
}

/* tracejob's output for each entry of the listing of file's records. */
static char *trace_all(const char *file, const struct sl_tracejob_view *v, const char *args,
		       int width)
{
	size_t n;
	struct sl_job **jobs = tl_pbs_jobs(file, &n);
	struct sl_pbs_listing l;
	struct sl_tracejob_opts o = opts(args);
	struct sl_buf *b = sl_buf_new(1 << 20);

	sl_pbs_listing_make(jobs, n, 1, 0, &l);
	for (size_t i = 0; i < l.n; i++) {
		struct sl_tracejob *t = sl_tracejob_new(v, l.v[i]);
		char id[64];
		sl_pbs_idstr(l.v[i], v->server, id, sizeof(id));
		if (sl_tracejob_print(t, &o, width, NOW, b) == 0)
			sl_tracejob_unknown(b, id, v->server, o.days);
		sl_tracejob_free(t);
	}
	sl_pbs_listing_clear(&l);
	sl_job_free_array(jobs, n);
	return tl_take(b);
}

static void test_goldens(void **state)
{
	struct sl_tracejob_view v = view();
	(void)state;

	tl_pbs_golden("tracejob_jobs.out", trace_all("jobs.jsonl", &v, "", 0));
	tl_pbs_golden("tracejob_arrays.out", trace_all("arrays.jsonl", &v, "", 0));
	tl_pbs_golden("tracejob_more.out", trace_all("tracejob.jsonl", &v, "-n 2", 0));
}

/* One job's output: entry id of file. */
static char *trace(const char *file, uint64_t id, const struct sl_tracejob_view *v,
		   const char *args, int width)
{
	size_t n;
	struct sl_job **jobs = tl_pbs_jobs(file, &n);
	struct sl_tracejob_opts o = opts(args);
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_tracejob *t = NULL;

	for (size_t i = 0; i < n; i++)
		if (jobs[i]->id == id)
			t = sl_tracejob_new(v, jobs[i]);
	assert_non_null(t);
	sl_tracejob_print(t, &o, width, NOW, b);
	sl_tracejob_free(t);
	sl_job_free_array(jobs, n);
	return tl_take(b);
}

static int count(const char *s, const char *what)
{
	int k = 0;

	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		k++;
	return k;
}

/* -a -s -l -m leave a source out; -f an event type (never accounting);
 * a caller who cannot read the accounting log has no A lines; MOM's are of
 * this host's jobs; -n counts days back from today, 0 reading none. */
static void test_sources(void **state)
{
	struct sl_tracejob_view v = view();
	char *all = trace("jobs.jsonl", 105, &v, "", 0), *s;
	(void)state;

	assert_int_equal(count(all, "  A    "), 3);
	assert_int_equal(count(all, "  M    "), 3);
	assert_int_equal(count(all, "  L    "), 2);
	assert_int_equal(count(all, "  S    "), 5);
	s = trace("jobs.jsonl", 105, &v, "-a -m", 0);
	assert_int_equal(count(s, "  A    ") + count(s, "  M    "), 0);
	assert_int_equal(count(s, "  S    ") + count(s, "  L    "), 7);
	free(s);
	s = trace("jobs.jsonl", 105, &v, "-s -l", 0);
	assert_int_equal(count(s, "  S    ") + count(s, "  L    "), 0);
	free(s);
	/* -f job and -f debug: the server's job and debug lines, MOM's too */
	s = trace("jobs.jsonl", 105, &v, "-f job -f debug", 0);
	assert_null(strstr(s, "Job Queued"));
	assert_null(strstr(s, "Obit received"));
	assert_null(strstr(s, "Considering job to run"));
	assert_non_null(strstr(s, "enqueuing into")); /* debug2 */
	assert_int_equal(count(s, "  A    "), 3);
	free(s);
	s = trace("jobs.jsonl", 105, &v, "-f 108", 0); /* hex: job | debug2 */
	assert_null(strstr(s, "enqueuing into"));
	assert_null(strstr(s, "Job Queued"));
	assert_non_null(strstr(s, "Obit received"));
	free(s);
	v.accounting = 0;
	v.host = "elsewhere";
	s = trace("jobs.jsonl", 105, &v, "", 0);
	assert_int_equal(count(s, "  A    ") + count(s, "  M    "), 0);
	assert_int_equal(count(s, "  S    ") + count(s, "  L    "), 7);
	free(s);
	v = view();
	s = trace("tracejob.jsonl", 125, &v, "", 0); /* today's alone */
	assert_null(strstr(s, "Job Queued"));
	assert_non_null(strstr(s, "11/21/2026 10:13:20  S    Job Run at request of"));
	free(s);
	s = trace("tracejob.jsonl", 125, &v, "-n 2", 0);
	assert_non_null(strstr(s, "11/20/2026 10:20:00  S    Job Queued at request of alice@vm,"));
	free(s);
	s = trace("tracejob.jsonl", 125, &v, "-n 0", 0);
	assert_string_equal(s, "");
	free(s);
	free(all);
}

/* filter_excess(): a message written -c times or more is printed once,
 * its latest; -z toggles the filter off. */
static void test_excess(void **state)
{
	struct sl_tracejob_view v = view();
	char *s;
	(void)state;

	s = trace("tracejob.jsonl", 120, &v, "", 0); /* two runs: twice each */
	assert_int_equal(count(s, "Considering job to run"), 2);
	free(s);
	s = trace("tracejob.jsonl", 120, &v, "-c 2", 0);
	assert_int_equal(count(s, "Considering job to run"), 1);
	assert_non_null(strstr(s, "11/21/2026 10:00:30  L    Considering job to run"));
	assert_null(strstr(s, "11/21/2026 09:56:50  L    Considering"));
	free(s);
	s = trace("tracejob.jsonl", 120, &v, "-c 2 -z", 0);
	assert_int_equal(count(s, "Considering job to run"), 2);
	free(s);
}

/* line_wrap(): at the last blank within the width less the 26 columns
 * of date and source, the rest indented by 26; a word longer than that
 * runs on to its end; 0 never wraps. */
static void test_wrap(void **state)
{
	struct sl_tracejob_view v = view();
	char *s = trace("jobs.jsonl", 107, &v, "-s -l", 50), *want;
	(void)state;

	want = "\nJob: 107.vm\n\n"
	       "11/21/2026 10:19:02  A    user=alice group=alice\n"
	       "                          account=\"general\"\n"
	       "                          project=_pbs_project_default\n"
	       "                          jobname=gone queue=batch\n"
	       "                          ctime=1795256342\n"
	       "                          qtime=1795256342\n"
	       "                          etime=1795256342\n"
	       "                          Resource_List.ncpus=1\n"
	       "                          Resource_List.nodect=1\n"
	       "                          Resource_List.place=free\n"
	       "                          Resource_List.select=1:ncpus=1\n"
	       "                          \n"
	       "11/21/2026 10:19:12  A    requestor=alice@vm\n";
	assert_string_equal(s, want);
	free(s);
	/* nothing read of the sources left in (it ran nowhere: no MOM
	 * lines): not found */
	s = trace("jobs.jsonl", 107, &v, "-s -l -a", 0);
	assert_string_equal(s, "");
	free(s);
	/* all read lines of an event type -f leaves out: the job alone */
	s = trace("jobs.jsonl", 107, &v, "-a -f job -f debug -f debug2", 0);
	assert_string_equal(s, "\nJob: 107.vm\n\n");
	free(s);
	/* narrower than the indent: a word a line */
	s = trace("jobs.jsonl", 107, &v, "-a -l -f debug2 -f debug", 10);
	assert_string_equal(s, "\nJob: 107.vm\n\n"
			       "11/21/2026 10:19:02  S    Job\n"
			       "                          Queued\n"
			       "                          at\n"
			       "                          request\n"
			       "                          of\n"
			       "                          alice@vm,\n"
			       "                          owner\n"
			       "                          =\n"
			       "                          alice@vm,\n"
			       "                          job\n"
			       "                          name\n"
			       "                          =\n"
			       "                          gone,\n"
			       "                          queue\n"
			       "                          =\n"
			       "                          batch\n"
			       "11/21/2026 10:19:12  S    Job\n"
			       "                          to\n"
			       "                          be\n"
			       "                          deleted\n"
			       "                          at\n"
			       "                          request\n"
			       "                          of\n"
			       "                          alice@vm\n");
	free(s);
}

/* parse_log()'s match: an operand without '.' is the id up to its first
 * '.'; with one, a prefix of the id. A plain N is not the array N[]. */
static void test_find(void **state)
{
	size_t n;
	struct sl_job **a = tl_pbs_jobs("arrays.jsonl", &n);
	struct sl_pbs_listing l;
	const struct sl_job *j;
	(void)state;

	sl_pbs_listing_make(a, n, 1, 0, &l);
	j = sl_tracejob_find(l.v, l.n, "vm", "150");
	assert_true(j && j->id == 150);
	j = sl_tracejob_find(l.v, l.n, "vm", "150.vm");
	assert_true(j && j->id == 150);
	j = sl_tracejob_find(l.v, l.n, "vm", "150.v");
	assert_true(j && j->id == 150);
	assert_null(sl_tracejob_find(l.v, l.n, "vm", "15"));
	assert_null(sl_tracejob_find(l.v, l.n, "vm", "150.vm.example.org"));
	assert_null(sl_tracejob_find(l.v, l.n, "vm", "150.other"));
	assert_null(sl_tracejob_find(l.v, l.n, "vm", "150@vm"));
	assert_null(sl_tracejob_find(l.v, l.n, "vm", "200"));
	j = sl_tracejob_find(l.v, l.n, "vm", "200[]");
	assert_true(j && sl_pbs_is_array(j) && j->id == 200);
	j = sl_tracejob_find(l.v, l.n, "vm", "200[3].vm");
	assert_true(j && j->id == 202);
	sl_pbs_listing_clear(&l);
	sl_job_free_array(a, n);
}

static void test_unknown(void **state)
{
	struct sl_buf *b = sl_buf_new(4096);
	struct sl_tracejob_view v = view();
	char *s;
	(void)state;

	sl_tracejob_unknown(b, "99", "vm", 1);
	sl_tracejob_unknown(b, "99.vm", "vm", 3);
	assert_string_equal(sl_buf_str(b),
			    "\ntracejob: Couldn't find Job Id 99.vm in logs of past 1 day\n\n"
			    "\ntracejob: Couldn't find Job Id 99.vm in logs of past 3 days\n\n");
	sl_buf_free(b);
	/* a subjob that never ran has no line: a subjob is made when it runs */
	s = trace("arrays.jsonl", 204, &v, "", 0);
	assert_string_equal(s, "");
	free(s);
}

static int parse(const char *const *args, struct sl_tracejob_opts *o, struct sl_pbs_failure *f,
		 char *msg)
{
	char *argv[32];
	int argc = 0, r;
	struct sl_err err = SL_ERR_INIT;

	for (; args[argc]; argc++) {
		assert_true(argc < 31);
		argv[argc] = (char *)args[argc];
	}
	argv[argc] = NULL;
	r = sl_tracejob_parse(argc, argv, o, f, &err);
	strcpy(msg, err.msg);
	return r;
}

/* main()'s getopt: errors are its usage and 1; -p is refused. */
static void test_parse(void **state)
{
	struct sl_tracejob_opts o;
	struct sl_pbs_failure f;
	char msg[256];
	struct sl_buf *b = sl_buf_new(8192);
	(void)state;

	assert_int_equal(parse((const char *[]){"tracejob", "-v", "12", "-n", "3", "-w", "80",
						"-z", "-c", "4", "-f", "sched", "-f", "job",
						"-a", "-s", "-l", "-m", "13", NULL}, &o, &f, msg), 0);
	assert_true(o.verbose && o.no_acct && o.no_svr && o.no_sched && o.no_mom);
	assert_int_equal(o.days, 3);
	assert_int_equal(o.width, 80);
	assert_int_equal(o.filter_excess, 0);
	assert_int_equal(o.excess_count, 4);
	assert_int_equal(o.filter, 0x48);
	assert_int_equal(o.n_operands, 2);
	assert_string_equal(o.operands[0], "12");
	assert_string_equal(o.operands[1], "13");
	assert_int_equal(parse((const char *[]){"tracejob", "12", NULL}, &o, &f, msg), 0);
	assert_true(o.filter_excess && o.excess_count == 15 && o.width == -1 && o.days == 1);
	assert_int_equal(parse((const char *[]){"tracejob", "-f", "job", "-f", "1ff", "12", NULL},
			       &o, &f, msg), 0);
	assert_int_equal(o.filter, 0x1ff); /* a number replaces the names */
	/* errors: the usage and 1, getopt's words for its own */
	static const char *const bad[][6] = {
		{"tracejob", NULL},
		{"tracejob", "-n", "x", "12", NULL},
		{"tracejob", "-w", "80c", "12", NULL},
		{"tracejob", "-f", "jobs", "12", NULL},
		{"tracejob", "-f", "1fg", "12", NULL},
		{"tracejob", "--verbose", "12", NULL},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(parse(bad[i], &o, &f, msg), 0);
		assert_int_equal(f.status, 1);
		assert_int_equal(f.usage, 1);
		assert_string_equal(msg, "");
	}
	assert_int_not_equal(parse((const char *[]){"tracejob", "-x", "12", NULL}, &o, &f, msg), 0);
	assert_true(f.status == 1 && f.usage == 1);
	assert_string_equal(msg, "invalid option -- 'x'");
	assert_int_not_equal(parse((const char *[]){"tracejob", "12", "-n", NULL}, &o, &f, msg), 0);
	assert_string_equal(msg, "option requires an argument -- 'n'");
	assert_int_not_equal(parse((const char *[]){"tracejob", "-p", "/var/spool/pbs", "12", NULL},
				   &o, &f, msg), 0);
	assert_true(f.status == 1 && f.usage == 0);
	assert_string_equal(msg, "-p is not supported by Sluice");
	/* "" is strtol's 0 */
	assert_int_equal(parse((const char *[]){"tracejob", "-w", "", "12", NULL}, &o, &f, msg), 0);
	assert_int_equal(o.width, 0);
	sl_tracejob_usage(b, "tracejob");
	assert_true(strncmp(sl_buf_str(b),
			    "USAGE: tracejob [-a|s|l|m|v] [-w size] [-p path] [-n days] "
			    "[-f filter_type] job_identifier...\n   -p : path to PBS_HOME\n",
			    strlen("USAGE: tracejob [-a|s|l|m|v] [-w size] [-p path] [-n days] "
				   "[-f filter_type] job_identifier...\n   -p : path to PBS_HOME\n"))
		    == 0);
	assert_non_null(strstr(sl_buf_str(b), "\n       tracejob --version\n   --version : "
					      "display version only\n\n"));
	assert_non_null(strstr(sl_buf_str(b), "\nfilter_excessive: ON\n"));
	sl_buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens), cmocka_unit_test(test_sources),
		cmocka_unit_test(test_excess),  cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_find),    cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
