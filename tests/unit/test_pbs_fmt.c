/* test_pbs_fmt.c - qstat's layouts (compat/pbs_fmt.c, pbs_fmt_queue.c)
 * for the job records of tests/data/pbs/jobs.jsonl, against the golden
 * files beside them (pbsnodes': test_pbs_node.c). tests/data/pbs/README
 * names the OpenPBS source lines each layout follows. SL_GOLDEN_UPDATE=1
 * rewrites the golden files (check the diff against those lines before
 * keeping it). */
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
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "xalloc.h"

#define NOW TL_PBS_NOW

TL_PBS_FIXTURE("jobs.jsonl")

static size_t n_live(void)
{
	size_t n = 0;
	for (size_t i = 0; i < njobs; i++)
		n += sl_pbs_state(jobs[i]) != 'F';
	return n;
}

/* The jobs a listing without -x shows, or all of them. */
static struct sl_job **pick(int history, size_t *n)
{
	struct sl_job **v = sl_xcalloc(njobs + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < njobs; i++)
		if (history || sl_pbs_state(jobs[i]) != 'F')
			v[(*n)++] = jobs[i];
	return v;
}

static struct sl_pbs_view view(void)
{
	struct sl_pbs_view v = {.server = "vm", .now = NOW};
	return v;
}

static void test_default(void **state)
{
	struct sl_pbs_view v = view();
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **live = pick(0, &n), **all;
	(void)state;

	assert_int_equal(sl_qstat_default(b, &v, live, n, 1), 0);
	tl_pbs_golden("qstat_default.out", tl_take(b));
	b = sl_buf_new(1 << 20);
	all = pick(1, &n);
	assert_int_equal(sl_qstat_default(b, &v, all, n, 1), 0);
	tl_pbs_golden("qstat_x.out", tl_take(b));
	/* -w alone: the same table, wide */
	b = sl_buf_new(1 << 20);
	v.wide = 1;
	assert_int_equal(sl_qstat_default(b, &v, live, n_live(), 1), 0);
	tl_pbs_golden("qstat_w.out", tl_take(b));
	v.wide = 0;
	/* no jobs, no header */
	b = sl_buf_new(1 << 20);
	assert_int_equal(sl_qstat_default(b, &v, all, 0, 1), 0);
	assert_int_equal(sl_buf_len(b), 0);
	sl_buf_free(b);
	/* a long server name: the id shown as far as its first label */
	b = sl_buf_new(1 << 20);
	v.server = "head1.example.org";
	assert_int_equal(sl_qstat_default(b, &v, live, 1, 0), 0);
	assert_string_equal(sl_buf_str(b), "101.head1         hello            alice                    0 R "
					   "batch           \n");
	sl_buf_free(b);
	free(live);
	free(all);
}

static void alt(const char *name, int nodes, int comments, int one_line, int wide)
{
	struct sl_pbs_view v = view();
	struct sl_buf *b = sl_buf_new(1 << 20);
	size_t n;
	struct sl_job **live = pick(0, &n);

	v.nodes = nodes;
	v.comments = comments;
	v.one_line = one_line;
	v.wide = wide;
	assert_int_equal(sl_qstat_alt(b, &v, live, n, 1), 0);
	tl_pbs_golden(name, tl_take(b));
	free(live);
}

static void test_alt(void **state)
{
	(void)state;
	alt("qstat_a.out", 0, 0, 0, 0);
	alt("qstat_ns.out", 1, 1, 0, 0);
	alt("qstat_n1.out", 1, 0, 1, 0);
	alt("qstat_aw.out", 0, 0, 0, 1);
}

/* qstat -f in each -F format (pbs_out.c): one golden per format. */
static void test_full(void **state)
{
	static const struct {
		enum sl_pbs_outfmt fmt;
		const char *delim, *file;
	} formats[] = {
		{SL_PBS_OUT_DEFAULT, NULL, "qstat_f.out"},
		{SL_PBS_OUT_DSV, NULL, "qstat_f_dsv.out"},
		{SL_PBS_OUT_DSV, ",", "qstat_f_dsv_comma.out"},
		{SL_PBS_OUT_JSON, NULL, "qstat_f_json.out"},
	};
	struct sl_pbs_view v = view();
	(void)state;

	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
		struct sl_buf *b = sl_buf_new(1 << 20);
		struct sl_pbs_out *o = sl_pbs_out_new(b, formats[k].fmt, formats[k].delim, NOW,
						      "22.05", "vm");
		for (size_t i = 0; i < njobs; i++)
			assert_int_equal(sl_qstat_full(o, &v, jobs[i]), 0);
		assert_int_equal(sl_pbs_out_finish(o), 0);
		sl_pbs_out_free(o);
		tl_pbs_golden(formats[k].file, tl_take(b));
	}
}

/* json with nothing listed: the prologue alone; values that parse as
 * numbers are numbers; escapes as cJSON writes them. */
static void test_json_values(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_JSON, NULL, NOW, "22.05", "vm");
	(void)state;

	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	assert_string_equal(sl_buf_str(b), "{\n\t\"timestamp\":\t1795256642,\n\t\"pbs_version\":\t"
					   "\"22.05\",\n\t\"pbs_server\":\t\"vm\"\n}\n");
	sl_buf_reset(b);
	o = sl_pbs_out_new(b, SL_PBS_OUT_JSON, NULL, 0, "v", "s");
	sl_buf_reset(b); /* the members alone */
	sl_pbs_out_begin(o, "Server", "s");
	sl_pbs_out_attr(o, "a", NULL, "077");
	sl_pbs_out_attr(o, "b", NULL, "1.5");
	sl_pbs_out_attr(o, "c", NULL, "3000000000");
	sl_pbs_out_attr(o, "d", NULL, "1:00:00");
	sl_pbs_out_attr(o, "e", NULL, "q\"\\\n\x01");
	sl_pbs_out_attr(o, "Job_Name", NULL, "12");
	sl_pbs_out_end(o);
	sl_pbs_out_free(o);
	assert_string_equal(sl_buf_str(b), ",\n\t\"Server\":\t{\n\t\t\"s\":\t{\n"
					   "\t\t\t\"a\":\t77,\n\t\t\t\"b\":\t1.5,\n"
					   "\t\t\t\"c\":\t3000000000,\n\t\t\t\"d\":\t\"1:00:00\",\n"
					   "\t\t\t\"e\":\t\"q\\\"\\\\\\n\\u0001\",\n"
					   "\t\t\t\"Job_Name\":\t\"12\"\n\t\t}");
	sl_buf_free(b);
}

/* dsv: the delimiter and a lone backslash escaped, feeds as \n. */
static void test_dsv_values(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DSV, "::", 0, "v", "s");
	(void)state;

	sl_pbs_out_begin(o, "Job Id", "1.s");
	sl_pbs_out_attr(o, "a", NULL, "x::y");
	sl_pbs_out_attr(o, "b", "r", "p\\q\\,\nz");
	sl_pbs_out_end(o);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	assert_string_equal(sl_buf_str(b), "Job Id: 1.s::a=x\\::y::b.r=p\\\\q\\,\\nz\n");
	sl_buf_free(b);
}

/* Variable_List in json: an object of its variables (qstat.c:471): split
 * at the commas not escaped, an escaped comma's backslash dropped (the
 * others kept), the value from the first '=' parsed as cJSON parses it. */
static void test_json_vlist(void **state)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_JSON, NULL, 0, "v", "s");
	(void)state;

	sl_buf_reset(b); /* the members alone */
	sl_pbs_out_begin(o, "Job Id", "1.s");
	sl_pbs_out_attr(o, "Variable_List", NULL,
			"PBS_O_HOME=/h,A=x\\,y=z,B=\\'q\\',N=0755,T=true,E=");
	sl_pbs_out_attr(o, "substate", NULL, "42");
	sl_pbs_out_end(o);
	sl_pbs_out_free(o);
	assert_string_equal(sl_buf_str(b), ",\n\t\"Jobs\":\t{\n\t\t\"1.s\":\t{\n"
					   "\t\t\t\"Variable_List\":\t{\n"
					   "\t\t\t\t\"PBS_O_HOME\":\t\"/h\",\n"
					   "\t\t\t\t\"A\":\t\"x,y=z\",\n"
					   "\t\t\t\t\"B\":\t\"\\\\'q\\\\'\",\n"
					   "\t\t\t\t\"N\":\t755,\n"
					   "\t\t\t\t\"T\":\ttrue,\n"
					   "\t\t\t\t\"E\":\t\"\"\n"
					   "\t\t\t},\n\t\t\t\"substate\":\t42\n\t\t}");
	sl_buf_free(b);
}

/* The default layout folds a long list at its commas past 78 columns;
 * -f -w (prt_attr()'s one_line) and Torque's -f -1 keep it on one line,
 * line feeds written \n (a -V job's exported shell function). */
static void test_unfolded(void **state)
{
	char v[200] = "";
	(void)state;

	for (int i = 0; i < 12; i++)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), "%sPBS_O_VAR%d=value", i ? "," : "", i);
	for (int k = 0; k < 2; k++) {
		struct sl_buf *b = sl_buf_new(1 << 16);
		struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, 0, "v", "s");
		char *want = sl_xasprintf("Job Id: 1.s\n    Variable_List = %s\n\n", v);
		if (k == 1)
			sl_pbs_out_unfolded(o);
		sl_pbs_out_begin(o, "Job Id", "1.s");
		sl_pbs_out_attr(o, "Variable_List", NULL, v);
		sl_pbs_out_end(o);
		assert_int_equal(sl_pbs_out_finish(o), 0);
		sl_pbs_out_free(o);
		if (k == 0)
			assert_non_null(strstr(sl_buf_str(b), ",\n\tPBS_O_VAR"));
		else
			assert_string_equal(sl_buf_str(b), want);
		free(want);
		sl_buf_free(b);
	}
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, 0, "v", "s");
	sl_pbs_out_unfolded(o);
	sl_pbs_out_attr(o, "Variable_List", NULL, "BASH_FUNC_f%%=() {  echo\n}\f,X=1");
	sl_pbs_out_free(o);
	assert_string_equal(sl_buf_str(b), "    Variable_List = BASH_FUNC_f%%=() {  echo\\n}\\f,X=1\n");
	sl_buf_free(b);
}

/* -Q -f (ci) or -B -f (all) in fmt. */
static char *full_of(enum sl_pbs_outfmt fmt, const struct sl_clusterinfo *ci,
		     const struct sl_pbs_counts *c, const struct sl_pbs_counts *all)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_pbs_out *o = sl_pbs_out_new(b, fmt, NULL, NOW, "22.05", "vm");

	if (ci)
		assert_int_equal(sl_qstat_queues(b, o, ci, c, 1), 0);
	else
		assert_int_equal(sl_qstat_server(b, o, "vm", "batch", all, 1), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	return tl_take(b);
}

static void test_queues_server(void **state)
{
	struct sl_clusterinfo *ci = tl_pbs_cluster();
	struct sl_pbs_counts c[2] = {{0}}, all = {0};
	struct sl_buf *b;
	(void)state;

	for (size_t i = 0; i < njobs; i++) {
		sl_pbs_count(&all, jobs[i]);
		sl_pbs_count(&c[strcmp(jobs[i]->spec.partition, "batch") == 0 ? 0 : 1], jobs[i]);
	}
	b = sl_buf_new(1 << 20);
	assert_int_equal(sl_qstat_queues(b, NULL, ci, c, 1), 0);
	tl_pbs_golden("qstat_Q.out", tl_take(b));
	tl_pbs_golden("qstat_Qf.out", full_of(SL_PBS_OUT_DEFAULT, ci, c, NULL));
	tl_pbs_golden("qstat_Qf_json.out", full_of(SL_PBS_OUT_JSON, ci, c, NULL));
	b = sl_buf_new(1 << 20);
	assert_int_equal(sl_qstat_server(b, NULL, "vm", "batch", &all, 1), 0);
	tl_pbs_golden("qstat_B.out", tl_take(b));
	tl_pbs_golden("qstat_Bf.out", full_of(SL_PBS_OUT_DEFAULT, NULL, NULL, &all));
	tl_pbs_golden("qstat_Bf_dsv.out", full_of(SL_PBS_OUT_DSV, NULL, NULL, &all));
	tl_pbs_golden("qstat_Bf_json.out", full_of(SL_PBS_OUT_JSON, NULL, NULL, &all));
}

static void test_values(void **state)
{
	char buf[64];
	struct sl_pbs_shape sh;
	(void)state;

	sl_pbs_fmt_duration(90061, buf, sizeof(buf));
	assert_string_equal(buf, "25:01:01");
	sl_pbs_fmt_mib(2048, buf, sizeof(buf));
	assert_string_equal(buf, "2gb");
	sl_pbs_fmt_mib(1500, buf, sizeof(buf));
	assert_string_equal(buf, "1500mb");
	sl_pbs_shape_of(jobs[1], &sh);
	assert_string_equal(sh.select, "2:ncpus=4:mem=2gb:mpiprocs=4");
	assert_int_equal(sh.ncpus, 8);
	assert_int_equal(sh.mpiprocs, 8); /* each chunk's 4, summed (set_chunk_sum) */
	assert_int_equal(sh.nodect, 2);
	sl_pbs_comment(jobs[0], buf, sizeof(buf));
	assert_string_equal(buf, "Job run at Sat Nov 21 at 10:23 on (vm:ncpus=2:mem=1048576kb)");
	assert_int_equal(sl_pbs_state(jobs[2]), 'H');
	assert_string_equal(sl_pbs_hold_types(jobs[2]), "u");
	assert_string_equal(sl_pbs_hold_types(jobs[3]), "o");
	assert_int_equal(sl_pbs_state(jobs[4]), 'F');
}

/* A job deleted while queued never ran: Slurm's StartTime is its end, but
 * OpenPBS has no stime for it (set by req_runjob.c alone). */
static void test_never_ran(void **state)
{
	struct sl_pbs_view v = view();
	struct sl_job *g = jobs[6];
	int64_t was = g->start_time;
	(void)state;

	assert_int_equal(g->id, 107);
	assert_int_equal(sl_pbs_state(g), 'F');
	g->start_time = g->end_time;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	assert_non_null(strstr(sl_buf_str(b), "obittime = "));
	assert_null(strstr(sl_buf_str(b), "stime = "));
	assert_null(strstr(sl_buf_str(b), "resources_used.walltime"));
	sl_buf_free(b);
	g->start_time = was;
}

/* A measured job: MOM's cpupercent, cput, mem and vmem around ncpus and
 * walltime, in the server's order (OOD's cpu_time reads cput). */
static void test_measured(void **state)
{
	struct sl_pbs_view v = view();
	struct sl_job *g = jobs[0]; /* 101, running for 42 s */
	(void)state;

	g->user_usec = 15000000;
	g->sys_usec = 6000000;
	g->max_rss = 2576;
	g->max_vmsize = 12996;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	char want[256];
	snprintf(want, sizeof(want), "    resources_used.cpupercent = 50\n"
		 "    resources_used.cput = 00:00:21\n    resources_used.mem = 2576kb\n"
		 "    resources_used.ncpus = 2\n    resources_used.vmem = 12996kb\n"
		 "    resources_used.walltime = 00:00:42\n");
	assert_non_null(strstr(sl_buf_str(b), want));
	sl_buf_free(b);
	g->user_usec = g->sys_usec = g->max_rss = g->max_vmsize = 0;
}

/* Torque's procs=N (qsub's tasks without nodes): Resource_List.procs, as
 * Torque's qstat -f shows it, beside the shape Sluice gave it. */
static void test_procs(void **state)
{
	struct sl_pbs_view v = view();
	struct sl_job *g = jobs[3]; /* 104: qsub's, one chunk */
	struct sl_jobspec was = g->spec;
	(void)state;

	assert_int_equal(g->id, 104);
	g->spec.nodes = SL_NO_VAL;
	g->spec.ntasks_per_node = SL_NO_VAL;
	g->spec.ntasks = 4;
	g->spec.cpus_per_task = 1;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	assert_non_null(strstr(sl_buf_str(b), "    Resource_List.mpiprocs = 4\n"
					      "    Resource_List.ncpus = 4\n"
					      "    Resource_List.nodect = 1\n"
					      "    Resource_List.place = free\n"
					      "    Resource_List.procs = 4\n"
					      "    Resource_List.select = 1:ncpus=4:mpiprocs=4\n"));
	sl_buf_free(b);
	g->spec = was;
	/* with nodes, no procs */
	b = sl_buf_new(1 << 16);
	o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	sl_pbs_out_free(o);
	assert_null(strstr(sl_buf_str(b), "procs"));
	sl_buf_free(b);
}

/* qsub's walltime to the second: PBS's views show the seconds (qstat -a's
 * Req'd Time cut to hh:mm, as OpenPBS's %5.5s cuts its value), where
 * Slurm's show the minute it is rounded up to. */
static void test_walltime_secs(void **state)
{
	struct sl_pbs_view v = view();
	struct sl_job *g = jobs[0]; /* 101: qsub's, running, 00:05:00 */
	struct sl_jobspec was = g->spec;
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	(void)state;

	assert_int_equal(g->id, 101);
	sl_jobspec_limit_set_secs(&g->spec, 90);
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	assert_non_null(strstr(sl_buf_str(b), "    Resource_List.walltime = 00:01:30\n"));
	sl_buf_free(b);
	b = sl_buf_new(1 << 16);
	assert_int_equal(sl_qstat_alt(b, &v, &g, 1, 0), 0);
	assert_non_null(strstr(sl_buf_str(b), " 00:01 R "));
	sl_buf_free(b);
	g->spec = was;
}

/* qstat -f's Resource_List of job 104 (one chunk of one CPU) with
 * ompthreads=2: listed when qsub had it job-wide (-l ompthreads=2, kept in
 * Resource_List), not when it came in the select's chunk (no RASSN sum). */
static char *full_with_threads(struct sl_job *g, int job_wide)
{
	struct sl_pbs_view v = view();
	struct sl_buf *b = sl_buf_new(1 << 16);
	struct sl_pbs_out *o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	struct sl_jobspec was = g->spec;
	char *text;

	g->spec.omp_threads = 2;
	g->spec.omp_threads_job = job_wide;
	assert_int_equal(sl_qstat_full(o, &v, g), 0);
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	text = sl_buf_steal(b);
	g->spec = was;
	sl_buf_free(b);
	return text;
}

static void test_ompthreads(void **state)
{
	char *s;
	(void)state;

	assert_int_equal(jobs[3]->id, 104);
	s = full_with_threads(jobs[3], 1);
	assert_non_null(strstr(s, "    Resource_List.nodect = 1\n"
				  "    Resource_List.ompthreads = 2\n"
				  "    Resource_List.place = free\n"
				  "    Resource_List.select = 1:ncpus=1:ompthreads=2\n"));
	free(s);
	s = full_with_threads(jobs[3], 0);
	assert_null(strstr(s, "Resource_List.ompthreads"));
	assert_non_null(strstr(s, "    Resource_List.select = 1:ncpus=1:ompthreads=2\n"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_alt),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_dsv_values),
		cmocka_unit_test(test_json_vlist),
		cmocka_unit_test(test_unfolded),
		cmocka_unit_test(test_queues_server),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_never_ran),
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_walltime_secs),
		cmocka_unit_test(test_ompthreads),
	};
	return cmocka_run_group_tests(tests, pbs_setup, pbs_teardown);
}
