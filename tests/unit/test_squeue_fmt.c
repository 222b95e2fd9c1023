/* test_squeue_fmt.c - squeue format codes and sort order, checked against
 * the lines real Slurm 22.05 printed for the same jobs (golden files in
 * tests/data/output/, taken from reference.md Part 2 section 5). */
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
#include "squeue_fmt.h"
#include "slurm_state.h"
#include "xalloc.h"

#define NOW 1795256642 /* 2026-11-21T10:24:02Z, when the capture ran */


/* Render jobs (filtered by state list `states`, NULL = all) like squeue. */
static char *render(const char *fmt, const char *states, const char *jobs)
{
	struct sl_squeue_fmt *f;
	struct sl_statesel sel = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **v = tl_output_jobs(jobs, &n);
	char *out;

	if (states)
		assert_int_equal(sl_slurm_states_parse(states, &sel, &err), 0);
	assert_int_equal(sl_squeue_fmt_new(fmt, &f, &err), 0);
	assert_int_equal(sl_squeue_sort(v, n, NULL, NOW, &err), 0);
	assert_int_equal(sl_squeue_fmt_header(f, b), 0);
	for (size_t i = 0; i < n; i++)
		if (sl_statesel_match(&sel, v[i]->state))
			assert_int_equal(sl_squeue_fmt_job(f, v[i], NOW, b), 0);
	out = sl_buf_steal(b);
	sl_buf_free(b);
	sl_squeue_fmt_free(f);
	sl_statesel_clear(&sel);
	sl_job_free_array(v, n);
	return out;
}

static void golden_of(const char *jobs, const char *fmt, const char *states,
		      const char *expect_file)
{
	char *got = render(fmt, states, jobs);
	char *want = tl_output(expect_file);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void golden(const char *fmt, const char *states, const char *expect_file)
{
	char *got = render(fmt, states, "squeue_jobs.jsonl");
	char *want = tl_output(expect_file);
	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void test_default(void **state)
{
	(void)state;
	golden(SL_SQUEUE_FMT_DEFAULT, NULL, "squeue_default.out");
}

/* The default order, as the reference cluster printed it: pending before
 * running in a partition, priority descending; equal priorities by start
 * time, newest first, then ascending ids; pending jobs without a start
 * time in reverse (squeue_sort.c). The records come in shuffled. */
static void test_default_sort(void **state)
{
	(void)state;
	golden_of("squeue_sort.jsonl", SL_SQUEUE_FMT_DEFAULT, NULL, "squeue_sort.out");
}

static void test_long(void **state)
{
	(void)state;
	golden(SL_SQUEUE_FMT_LONG, NULL, "squeue_long.out");
}

static void test_custom(void **state)
{
	(void)state;
	golden("%.10i %.10j %.2t %r", "PD", "squeue_pd_reason.out");
	golden("%.6i %.8u %.30j %r", "pending", "squeue_users_pd.out");
}

/* One value per code for needres (43, pending) and filler (42, running):
 * reference Part 2 section 5's per-code table. */
static void code(const char *fmt, const char *expect)
{
	char *got = render(fmt, NULL, "squeue_jobs.jsonl"), *p = got, *line;
	char buf[4096] = "";
	size_t k = 0;

	/* keep the header and the lines of jobs 43 and 42 */
	for (line = strsep(&p, "\n"); line && *line; line = strsep(&p, "\n"), k++) {
		if (k > 0 && strncmp(line, "43#", 3) != 0 && strncmp(line, "42#", 3) != 0)
			continue;
		strcat(buf, k ? " / " : "");
		strcat(buf, line);
	}
	assert_string_equal(buf, expect);
	free(got);
}

static void test_codes(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	code("%i#|%a", "JOBID#|ACCOUNT / "
	     "43#|(null) / 42#|(null)");
	code("%i#|%b|%c|%C|%D", "JOBID#|TRES_PER_NODE|MIN_CPUS|CPUS|NODES / "
	     "43#|N/A|1|1|1 / 42#|N/A|1|256|4");
	code("%i#|%e|%S", "JOBID#|END_TIME|START_TIME / "
	     "43#|N/A|N/A / 42#|2026-11-21T10:33:26|2026-11-21T10:23:26");
	code("%i#|%l|%L|%M", "JOBID#|TIME_LIMIT|TIME_LEFT|TIME / "
	     "43#|UNLIMITED|UNLIMITED|0:00 / 42#|10:00|9:24|0:36");
	code("%i#|%N|%n|%p|%Q", "JOBID#|NODELIST|REQ_NODES|PRIORITY|PRIORITY / "
	     "43#|||0.00000023562461|1012 / 42#|n[1-4]||0.00000024447218|1050");
	code("%i#|%r|%R|%t|%T", "JOBID#|REASON|NODELIST(REASON)|ST|STATE / "
	     "43#|Priority|(Priority)|PD|PENDING / 42#|None|n[1-4]|R|RUNNING");
	code("%i#|%u|%U|%g|%G|%y|%Z", "JOBID#|USER|UID|GROUP|GROUP|NICE|WORK_DIR / "
	     "43#|alice|2001|alice|2001|0|/home/alice/ref / 42#|alice|2001|alice|2001|0|/home/alice/ref");
	code("%i#|%V|%B|%h|%k|%K|%F", "JOBID#|SUBMIT_TIME|EXEC_HOST|OVER_SUBSCRIBE|COMMENT|ARRAY_TASK_ID|ARRAY_JOB_ID / "
	     "43#|2026-11-21T10:23:27|n/a|OK|(null)|N/A|43 / 42#|2026-11-21T10:23:25|n1|OK|(null)|N/A|42");
	/* node-list and time values are never cut; reasons and headers are */
	code("%i#|%.3R|%.2M", "JOBID#|NODELIST(REASON)|TI / "
	     "43#|(Pr|0:00 / 42#|n[1-4]|0:36");
}

/* Job 7 printed with fmt (after the header if header), then again with
 * features and comment set, must read want. */
static void job7(const char *fmt, int header, char **features, const char *comment,
		 const char *want)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f = NULL;
	struct sl_job *j = sl_job_new();
	struct sl_buf *b = sl_buf_new(4096);

	j->id = 7;
	assert_int_equal(sl_squeue_fmt_new(fmt, &f, &err), 0);
	if (header)
		assert_int_equal(sl_squeue_fmt_header(f, b), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	j->spec.features = features ? sl_strv_dup(features) : NULL;
	j->spec.comment = comment ? sl_xstrdup(comment) : NULL;
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), want);
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free(j);
}

/* %f: the -C features joined with '&' as Slurm shows them, cut to the width
 * like any value; (null) without a constraint. */
static void test_features(void **state)
{
	(void)state;
	job7("%i|%f|%.4f", 0, (char *[]){"h100", "ib", NULL}, NULL,
	     "7|(null)|    \n7|h100&ib|h100\n");
}

/* %k: --comment as given, cut to the width like any value; (null) without
 * one (reference Part 2 section 5). */
static void test_comment(void **state)
{
	(void)state;
	job7("%i|%k|%.4k|%12k|", 1, NULL, "a comment",
	     "JOBID|COMMENT|COMM|COMMENT     |\n"
	     "7|(null)|    |(null)      |\n"
	     "7|a comment|a co|a comment   |\n");
}

/* %m: --mem=0 (all of a node's memory) is 0, as asked, though the job
 * holds the node's memory (mem_per_node resolved at submit); %n and %x. */
static void test_mem_all(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(256);
	struct sl_job *j = sl_job_new();
	(void)state;

	j->id = 7;
	j->spec.mem_per_node = 32768;
	assert_int_equal(sl_squeue_fmt_new("%m", &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	j->spec.mem_all = 1;
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "32G\n0\n");
	sl_squeue_fmt_free(f);
	/* --noconvert: MiB as given */
	sl_buf_reset(b);
	j->spec.mem_all = 0;
	j->spec.tmp_mb = 1024;
	assert_int_equal(sl_squeue_fmt_new("%m|%d", &f, &err), 0);
	sl_squeue_fmt_noconvert(f);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "32768M|1024M\n");
	sl_squeue_fmt_free(f);
	sl_buf_reset(b);
	/* %n and %x: -w and -x as given, not cut to a width */
	j->spec.nodelist = strdup("n[1-2]");
	j->spec.exclude = strdup("n3");
	assert_int_equal(sl_squeue_fmt_new("%.2n|%.1x|%n", &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "n[1-2]|n3|n[1-2]\n");
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free(j);
}

/* Job 7, running since start, reason None. */
static struct sl_job *running_since(int64_t start)
{
	struct sl_job *j = sl_job_new();

	j->id = 7;
	j->state = SL_JOB_RUNNING;
	j->reason = strdup("None");
	j->start_time = start;
	return j;
}

/* Past its time limit, while its processes are ended: CG, TIME stopped at
 * the limit, reason TimeLimit, as slurmctld shows it. */
static void test_past_limit(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(256);
	struct sl_job *j = running_since(NOW - 75);
	(void)state;

	j->spec.time_limit = 2;
	assert_int_equal(sl_squeue_fmt_new("%t|%M|%r", &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	j->spec.time_limit = 1;
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW + 20, b), 0);
	assert_string_equal(sl_buf_str(b), "R|1:15|None\nCG|1:00|TimeLimit\nCG|1:00|TimeLimit\n");
	assert_int_equal(sl_job_end_time(j, NOW), NOW - 15);
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free(j);
}

/* qsub -l walltime=45: Slurm's limit columns show the minute it rounds up
 * to (Slurm holds no less); what follows from the limit (time left, end,
 * CG once out of time) is the enforced seconds. */
static void test_limit_secs(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(256);
	struct sl_job *j = running_since(NOW - 30);
	(void)state;

	sl_jobspec_limit_set_secs(&j->spec, 45);
	assert_int_equal(sl_squeue_fmt_new("%l|%L|%t|%M", &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW + 20, b), 0);
	assert_string_equal(sl_buf_str(b), "1:00|0:15|R|0:30\n1:00|0:00|CG|0:45\n");
	assert_int_equal(sl_job_end_time(j, NOW + 20), NOW + 15);
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free(j);
}

static void test_bad_code_and_sort(void **state)
{
	struct sl_squeue_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	size_t n;
	struct sl_job **v = tl_output_jobs("squeue_jobs.jsonl", &n);
	(void)state;

	assert_int_equal(sl_squeue_fmt_new("%i %!", &f, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid job format specification: !");
	sl_err_clear(&err);
	/* as squeue takes it: Slurm's line, the field printed as written */
	struct sl_buf *warn = sl_buf_new(1024), *hdr = sl_buf_new(1024);
	assert_int_equal(sl_squeue_fmt_new_warn("%i %10! %.5j|", &f, warn, &err), 0);
	assert_string_equal(sl_buf_str(warn), "squeue: error: Invalid job format specification: !\n");
	assert_int_equal(sl_squeue_fmt_header(f, hdr), 0);
	assert_string_equal(sl_buf_str(hdr), "JOBID %10!  NAME|\n");
	sl_squeue_fmt_free(f);
	sl_buf_free(warn);
	sl_buf_free(hdr);
	assert_int_equal(sl_squeue_sort(v, n, "-i", NOW, &err), 0);
	assert_int_equal(v[0]->id, 55);
	assert_int_equal(v[n - 1]->id, 42);
	assert_int_equal(sl_squeue_sort(v, n, "u,j", NOW, &err), 0);
	assert_string_equal(v[0]->spec.name, "a_very_long_job_name_for_truncation");
	assert_string_equal(v[n - 1]->user, "bob");
	assert_int_equal(sl_squeue_sort(v, n, "P,q", NOW, &err), -SL_EINVAL);
	assert_string_equal(err.msg, "Invalid sort specification: q");
	sl_job_free_array(v, n);
}

/* -O with every name the reference cluster printed a value for, jobs 15
 * (running) and 16 (held, -N 2 -c 2 --mem=1G) rebuilt as Sluice records:
 * the header and both lines as squeue printed them ("name:0|": the value
 * as is, then '|'). */
static void test_long_fields(void **state)
{
	struct sl_squeue_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n;
	struct sl_job **v = tl_output_jobs("squeue_long_fields.jsonl", &n);
	char *fmt = tl_output("squeue_long_fields.fmt"), *want = tl_output("squeue_long_fields.out");
	const int64_t now = 1795647085; /* 2026-11-25T22:51:25Z */
	(void)state;

	fmt[strcspn(fmt, "\n")] = '\0';
	assert_int_equal(sl_squeue_fmt_new_long(fmt, &f, &err), 0);
	assert_int_equal(sl_squeue_sort(v, n, "i", now, &err), 0);
	assert_int_equal(sl_squeue_fmt_header(f, b), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sl_squeue_fmt_job(f, v[i], now, b), 0);
	assert_string_equal(sl_buf_str(b), want);
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free_array(v, n);
	free(fmt);
	free(want);
}

/* -O widths: 20 left without one, ":N" left (cut), ":.N" right, text after
 * the width kept; unknown names left out and listed, with the ones Slurm
 * knows told apart; "numtask..." matches on 7 letters as in opts.c. */
static void test_long_widths(void **state)
{
	struct sl_squeue_fmt *f;
	struct sl_err err = SL_ERR_INIT;
	struct sl_buf *b = sl_buf_new(4096);
	struct sl_job *j = sl_job_new();
	int known = -1;
	(void)state;

	j->id = 7;
	j->spec.name = sl_xstrdup("a_long_name");
	assert_int_equal(sl_squeue_fmt_new_long("JobID,bogus,NAME:4|,cluster,numtaskX:.3,jobid:", &f,
						&err), 0);
	assert_string_equal(sl_squeue_fmt_skipped(f, 0, &known), "bogus");
	assert_int_equal(known, 0);
	assert_string_equal(sl_squeue_fmt_skipped(f, 1, &known), "cluster");
	assert_int_equal(known, 1);
	assert_null(sl_squeue_fmt_skipped(f, 2, &known));
	assert_int_equal(sl_squeue_fmt_header(f, b), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "JOBID               NAME|TASJOBID\n"
					   "7                   a_lo|  17\n");
	sl_squeue_fmt_free(f);
	/* a name left out keeps its suffix, its width not (22.05's squeue):
	 * columns split on a separator stay in place */
	sl_buf_reset(b);
	assert_int_equal(sl_squeue_fmt_new_long("JobID:|,ExcNodes:7|,Name:|", &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_header(f, b), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "JOBID||NAME|\n7||a_long_name|\n");
	sl_squeue_fmt_free(f);
	sl_buf_free(b);
	sl_job_free(j);
}

/* Array 18 (ids 19-21 for tasks 0-2, and 18 for its last, 3: array.h):
 * its pending tasks 2-3 fold into Slurm's meta record; -r prints it task
 * by task again. */
static struct sl_job *task(uint64_t id, int t, enum sl_jobstate st)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->array_job_id = 18;
	j->array_task_id = t;
	j->array_throttle = 2;
	j->state = st;
	j->spec.name = strdup("arr");
	j->spec.partition = strdup("cpu");
	j->spec.array = strdup("0-3%2");
	j->reason = strdup(st == SL_JOB_PENDING ? "JobArrayTaskLimit" : "None");
	return j;
}

/* Tasks split off their meta record (updated on their own, or requeued)
 * fold back into it while it holds two tasks or more, its fields shown;
 * with one left every task is listed alone (22.05's job_array_split). */
static void test_arrays_split(void **state)
{
	struct sl_job **v = calloc(4, sizeof(*v));
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n = 4;
	(void)state;

	for (int t = 0; t < 4; t++) {
		v[t] = task(19 + t, t, SL_JOB_PENDING);
		v[t]->spec.time_limit = 10;
	}
	v[0]->array_split = 1, v[0]->spec.time_limit = 5;
	v[1]->attempt = 1;
	assert_int_equal(sl_squeue_fmt_new("%i %l", &f, &err), 0);
	sl_squeue_collapse(v, &n, 0);
	assert_int_equal(n, 1);
	assert_int_equal(sl_squeue_fmt_job(f, v[0], NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "18_[0-3] 10:00\n"); /* merged: no %N */
	sl_job_free_array(v, n);
	sl_buf_free(b);

	v = calloc(3, sizeof(*v));
	n = 3;
	for (int t = 0; t < 3; t++)
		v[t] = task(19 + t, t, SL_JOB_PENDING);
	v[0]->array_split = v[1]->array_split = 1;
	sl_squeue_collapse(v, &n, 0);
	assert_int_equal(n, 3);
	assert_null(v[2]->array_tasks);
	sl_job_free_array(v, n);
	sl_squeue_fmt_free(f);
}

static void test_arrays(void **state)
{
	struct sl_job **v = calloc(5, sizeof(*v));
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(1 << 16);
	size_t n = 4;
	(void)state;

	v[0] = task(19, 0, SL_JOB_RUNNING);
	v[1] = task(20, 1, SL_JOB_RUNNING);
	v[2] = task(21, 2, SL_JOB_PENDING);
	v[3] = task(18, 3, SL_JOB_PENDING);
	assert_int_equal(sl_squeue_fmt_new("%i %A %F %K %r", &f, &err), 0);
	sl_squeue_collapse(v, &n, 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sl_squeue_fmt_job(f, v[i], NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "18_0 19 18 0 None\n18_1 20 18 1 None\n"
					   "18_[2-3%2] 18 18 2-3%2 JobArrayTaskLimit\n");
	sl_buf_free(b);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_squeue_fmt_tasks(f, v[2], NOW, b), 0); /* -r */
	assert_string_equal(sl_buf_str(b), "18_2 18 18 2 JobArrayTaskLimit\n"
					   "18_3 18 18 3 JobArrayTaskLimit\n");
	assert_string_equal(v[2]->array_tasks, "2-3%2"); /* as it was */
	sl_buf_free(b);
	sl_squeue_fmt_free(f);
	/* a long set is cut in squeue's 32-byte JOBID */
	assert_int_equal(sl_squeue_fmt_new("%i", &f, &err), 0);
	free(v[2]->array_tasks);
	v[2]->array_tasks = strdup("1,3,5,7,9,11,13,15,17,19,21,23,25");
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_squeue_fmt_job(f, v[2], NOW, b), 0);
	assert_string_equal(sl_buf_str(b), "18_[1,3,5,7,9,11,13,15,17,19,21\n");
	sl_buf_free(b);
	sl_squeue_fmt_free(f);
	sl_job_free_array(v, n);
}

/* -S i is Slurm's _sort_job_by_id: an array's records by its id, then by
 * task, its meta record after them; so the last task, which has the
 * array's own id, sorts after the array's other tasks. */
static void test_sort_array_ids(void **state)
{
	struct sl_job *v[7];
	struct sl_err err = SL_ERR_INIT;
	const uint64_t want[] = {17, 19, 20, 21, 18, 18, 23};
	(void)state;

	v[0] = task(18, 3, SL_JOB_RUNNING);
	v[1] = task(21, 2, SL_JOB_RUNNING);
	v[2] = sl_job_new(), v[2]->id = 23;
	v[3] = task(19, 0, SL_JOB_RUNNING);
	v[4] = task(18, 4, SL_JOB_PENDING); /* the meta record of tasks 4-5 */
	v[4]->array_tasks = strdup("4-5");
	v[5] = sl_job_new(), v[5]->id = 17;
	v[6] = task(20, 1, SL_JOB_RUNNING);
	assert_int_equal(sl_squeue_sort(v, 7, "i", NOW, &err), 0);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(v[i]->id, want[i]);
	assert_non_null(v[5]->array_tasks);
	for (size_t i = 0; i < 7; i++)
		sl_job_free(v[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_array_ids),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_past_limit),
		cmocka_unit_test(test_limit_secs),
		cmocka_unit_test(test_default_sort),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_custom),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_bad_code_and_sort),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_comment),
		cmocka_unit_test(test_mem_all),
		cmocka_unit_test(test_long_fields),
		cmocka_unit_test(test_long_widths),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_arrays_split),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
