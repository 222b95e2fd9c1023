/* test_pbs_array.c - PBS Pro's view of job arrays (compat/pbs_array.c): the
 * array job "N[]" made from its subjobs (Q, H, B, F), its subjobs "N[I]" (X
 * once ended), array_indices_remaining and array_state_count, and the
 * qstat layouts of tests/data/pbs/arrays.jsonl against their goldens
 * (qstat_t.out, qstat_J.out, qstat_f_array.out; tests/data/pbs/README).
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
#include "pbs_fmt.h"
#include "pbs_job.h"
#include "xalloc.h"

#define NOW TL_PBS_NOW

TL_PBS_FIXTURE("arrays.jsonl")

static void test_listing(void **state)
{
	struct sl_pbs_listing l;
	(void)state;

	/* without subjobs: the plain job and one line per array */
	sl_pbs_listing_make(jobs, njobs, 0, 0, &l);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.n_made, 3);
	assert_int_equal(l.v[0]->id, 150);
	assert_true(sl_pbs_is_array(l.v[1]) && l.v[1]->id == 200);
	assert_int_equal(sl_pbs_state(l.v[1]), 'B');
	assert_int_equal(sl_pbs_substate(l.v[1]), 70);
	assert_null(l.v[1]->nodelist);
	assert_int_equal(l.v[1]->start_time, 1795256520); /* its first subjob's start */
	assert_int_equal(sl_pbs_state(l.v[2]), 'F');
	assert_int_equal(sl_pbs_state(l.v[3]), 'H'); /* held, as its subjobs are */
	sl_pbs_listing_clear(&l);

	/* -t: subjobs after their array; -J: arrays only */
	sl_pbs_listing_make(jobs, njobs, 1, 1, &l);
	assert_int_equal(l.n, 3 + 5 + 2 + 2);
	assert_int_equal(l.v[0]->id, 200);
	assert_int_equal(l.v[1]->array_task_id, 1);
	assert_int_equal(sl_pbs_state(l.v[1]), 'X');
	assert_int_equal(sl_pbs_state(l.v[2]), 'R');
	assert_int_equal(sl_pbs_state(l.v[4]), 'Q');
	char c[256];
	sl_pbs_comment(l.v[4], c, sizeof(c)); /* behind -J's %2 */
	assert_string_equal(c, "Not Running: Number of concurrent running subjobs limit reached");
	sl_pbs_comment(l.v[0], c, sizeof(c));
	assert_string_equal(c, "Job Array Began at Sat Nov 21 at 10:22");
	sl_pbs_listing_clear(&l);

	/* the daemon's order need not be id order: the listing is the same,
	 * one line per array and subjobs by index */
	struct sl_job **rev = calloc(njobs, sizeof(*rev));
	struct sl_pbs_listing fwd;
	for (size_t i = 0; i < njobs; i++)
		rev[i] = jobs[njobs - 1 - i];
	sl_pbs_listing_make(jobs, njobs, 1, 0, &fwd);
	sl_pbs_listing_make(rev, njobs, 1, 0, &l);
	assert_int_equal(l.n, fwd.n);
	for (size_t i = 0; i < l.n; i++) {
		assert_int_equal(l.v[i]->id, fwd.v[i]->id);
		assert_int_equal(l.v[i]->array_task_id, fwd.v[i]->array_task_id);
	}
	sl_pbs_listing_clear(&l);
	sl_pbs_listing_clear(&fwd);
	free(rev);

	/* operands: "N[]" (with -t its subjobs), "N[A-B]", "N"; the top job
	 * says whether they finished */
	struct sl_job *v[16];
	const struct sl_job *top;
	struct sl_pbs_sel arr = {.id = 200, .type = SL_PBS_SEL_ARRAY};
	struct sl_pbs_sel range = {.id = 300, .type = SL_PBS_SEL_SUBJOBS, .lo = 1, .hi = 5};
	struct sl_pbs_sel plain = {.id = 200, .type = SL_PBS_SEL_JOB};
	sl_pbs_listing_make(jobs, njobs, 1, 0, &l);
	assert_int_equal(sl_pbs_listing_find(&l, &arr, 0, v, &top), 1);
	assert_true(v[0] == top && sl_pbs_is_array(top));
	assert_int_equal(sl_pbs_listing_find(&l, &arr, 1, v, &top), 6);
	assert_int_equal(v[5]->array_task_id, 9);
	assert_int_equal(sl_pbs_listing_find(&l, &range, 1, v, &top), 1);
	assert_int_equal(v[0]->array_task_id, 1);
	assert_int_equal(sl_pbs_state(top), 'F');
	assert_int_equal(sl_pbs_listing_find(&l, &plain, 1, v, &top), 0); /* "200" is no job */
	assert_null(top);
	sl_pbs_listing_clear(&l);
}

/* qselect: "N[]" for an array (its subjobs with -T), a Torque array's
 * (-t) subjobs alone, each in its own state, named NAME-I. */
static void test_select_lists(void **state)
{
	struct sl_pbs_listing l;
	char out[512] = "", id[64], name[64];
	(void)state;

	for (size_t i = 0; i < njobs; i++)
		if (jobs[i]->array_job_id == 200)
			jobs[i]->spec.torque_array = 1;
	sl_pbs_listing_make(jobs, njobs, 1, 0, &l);
	for (size_t i = 0; i < l.n; i++)
		if (sl_pbs_select_lists(l.v[i], 0)) {
			sl_pbs_idstr(l.v[i], "s", id, sizeof(id));
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s %c %s|", id,
				 sl_pbs_state(l.v[i]), sl_pbs_job_name(l.v[i], name, sizeof(name)));
		}
	assert_string_equal(out, "150.s R plain|200[1].s X sweep-1|200[3].s R sweep-3|"
				 "200[5].s R sweep-5|200[7].s Q sweep-7|200[9].s Q sweep-9|"
				 "300[].s F done|400[].s H tlist|");
	for (size_t i = 0; i < l.n; i++) /* -T: every subjob too; a -t array never N[] */
		assert_int_equal(sl_pbs_select_lists(l.v[i], 1), l.v[i]->id != 200);
	sl_pbs_listing_clear(&l);
	for (size_t i = 0; i < njobs; i++)
		jobs[i]->spec.torque_array = 0;
}

/* The second query's answer takes the place of the arrays' subjobs. */
/* A job past its time limit is being ended: E (exiting), substate 50. */
static void test_ending(void **state)
{
	struct sl_job *j = sl_job_new();
	struct sl_pbs_listing l = {&j, 1, NULL, 0};
	(void)state;

	j->id = 9;
	j->state = SL_JOB_RUNNING;
	j->start_time = NOW - 600;
	j->spec.time_limit = 10;
	sl_pbs_listing_ending(&l, NOW - 1);
	assert_int_equal(sl_pbs_state(j), 'R');
	sl_pbs_listing_ending(&l, NOW);
	assert_int_equal(sl_pbs_state(j), 'E');
	assert_int_equal(sl_pbs_substate(j), 50);
	sl_job_free(j);
}

static void test_merge(void **state)
{
	struct sl_jobfilter f;
	struct sl_job **live = sl_xcalloc(4, sizeof(*live)), **more = sl_xcalloc(4, sizeof(*more));
	size_t n = 3;
	(void)state;

	live[0] = sl_job_copy(jobs[0]); /* 150 */
	live[1] = sl_job_copy(jobs[2]); /* 202: 200[3] */
	live[2] = sl_job_copy(jobs[8]); /* 401: 400[1] */
	assert_int_equal(sl_pbs_arrays_filter(live, n, &f), 1);
	assert_int_equal(f.n_ids, 2);
	assert_true(f.ids[0] == 200 && f.ids[1] == 400 && f.history);
	free(f.ids);
	more[0] = sl_job_copy(jobs[1]); /* 201, ended long ago */
	more[1] = sl_job_copy(jobs[2]);
	more[2] = sl_job_copy(jobs[3]);
	sl_pbs_arrays_merge(&live, &n, more, 3);
	assert_int_equal(n, 5);
	static const uint64_t want[] = {150, 201, 202, 203, 401};
	for (size_t i = 0; i < n; i++)
		assert_int_equal(live[i]->id, want[i]);
	sl_job_free_array(live, n);
	assert_int_equal(sl_pbs_arrays_filter(jobs, 1, &f), 0); /* no array */
	free(f.ids);
}

static void test_attributes(void **state)
{
	char *s;
	char id[64];
	(void)state;

	s = sl_pbs_array_remaining(jobs, njobs, 200);
	assert_string_equal(s, "7-9:2"); /* range_to_str(): the step kept */
	free(s);
	s = sl_pbs_array_remaining(jobs, njobs, 300);
	assert_string_equal(s, "-");
	free(s);
	s = sl_pbs_array_remaining(jobs, njobs, 400);
	assert_string_equal(s, "1,3");
	free(s);
	s = sl_pbs_array_counts(jobs, njobs, 200);
	assert_string_equal(s, "Queued:2 Running:2 Exiting:0 Expired:1");
	free(s);
	sl_pbs_idstr(jobs[2], "vm", id, sizeof(id));
	assert_string_equal(id, "200[3].vm");
	sl_pbs_idstr(jobs[0], "vm", id, sizeof(id));
	assert_string_equal(id, "150.vm");
}

static void test_layouts(void **state)
{
	struct sl_pbs_view v = {.server = "vm", .now = NOW};
	struct sl_pbs_listing l;
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_pbs_out *o;
	(void)state;

	sl_pbs_listing_make(jobs, njobs, 1, 0, &l);
	assert_int_equal(sl_qstat_default(b, &v, l.v, l.n, 1), 0);
	tl_pbs_golden("qstat_t.out", tl_take(b));
	b = sl_buf_new(1 << 20);
	v.percent = 1;
	assert_int_equal(sl_qstat_default(b, &v, l.v, l.n, 1), 0);
	tl_pbs_golden("qstat_tp.out", tl_take(b));
	v.percent = 0;
	sl_pbs_listing_clear(&l);

	b = sl_buf_new(1 << 20);
	sl_pbs_listing_make(jobs, njobs, 0, 1, &l);
	v.nodes = 1;
	v.comments = 1;
	assert_int_equal(sl_qstat_alt(b, &v, l.v, l.n, 1), 0);
	tl_pbs_golden("qstat_J_ns.out", tl_take(b));
	v.nodes = v.comments = 0;

	b = sl_buf_new(1 << 20);
	o = sl_pbs_out_new(b, SL_PBS_OUT_DEFAULT, NULL, NOW, "22.05", "vm");
	for (size_t i = 0; i < l.n; i++) {
		char *rem = sl_pbs_array_remaining(jobs, njobs, l.v[i]->id);
		v.arr_remaining = rem;
		assert_int_equal(sl_qstat_full(o, &v, l.v[i]), 0);
		free(rem);
	}
	v.arr_remaining = NULL;
	assert_int_equal(sl_qstat_full(o, &v, jobs[2]), 0); /* a subjob: array_id, array_index */
	assert_int_equal(sl_pbs_out_finish(o), 0);
	sl_pbs_out_free(o);
	tl_pbs_golden("qstat_f_array.out", tl_take(b));
	sl_pbs_listing_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_select_lists),
		cmocka_unit_test(test_ending),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_layouts),
	};
	return cmocka_run_group_tests(tests, pbs_setup, pbs_teardown);
}
