/* test_replay.c - the replay driver: waits, FCFS against BestEffortFIFO,
 * limits cutting runs short, remapping to defaults, utilisation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "conf.h"
#include "replay.h"
#include "replay_int.h"
#include "xalloc.h"

static struct sl_conf *conf;

static int setup(void **state)
{
	(void)state;
	const char *top = getenv("top_srcdir");
	char *p = sl_xasprintf("%s/tests/data/replay/small.yaml", top && *top ? top : ".");
	struct sl_err err = SL_ERR_INIT;
	int rc = sl_conf_load(p, &conf, &err);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	free(p);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	sl_conf_free(conf);
	return 0;
}

static void add(struct sl_replay_trace *t, int64_t submit_s, int cpus, int64_t run_s, int64_t limit_s,
		const char *user, const char *part)
{
	struct sl_replay_job j = {.submit = submit_s * 1000, .runtime = run_s * 1000,
				  .limit = limit_s * 1000, .hist_start = submit_s * 1000,
				  .nodes = 1, .cpus = cpus};
	j.user = sl_replay_trace_name(t, user);
	j.account = sl_replay_trace_name(t, "general");
	j.partition = sl_replay_trace_name(t, part);
	sl_replay_trace_add(t, &j);
}

static struct sl_replay *run(struct sl_replay_trace *t, enum sl_replay_policy p)
{
	struct sl_replay *r = NULL;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(sl_replay_run(t, conf, p, "x", NULL, NULL, &r, &err), 0);
	return r;
}

/* A fills the queue; B (2 CPUs) waits for it; C (4 CPUs) behind B. */
static void test_waits(void **state)
{
	(void)state;
	struct sl_replay_trace *t = sl_replay_trace_new();
	add(t, 0, 4, 10, 0, "alice", "batch");
	add(t, 1, 2, 5, 0, "bob", "batch");
	add(t, 2, 4, 5, 0, "alice", "batch");
	add(t, 3, 2, 5, 0, "bob", "batch");
	struct sl_replay *k = run(t, SL_REPLAY_KUEUE), *f = run(t, SL_REPLAY_FCFS);
	assert_int_equal(k->wait[0], 0);
	assert_int_equal(k->wait[1], 9000);
	/* BestEffortFIFO: C does not fit at 10 s; D (2 CPUs) does, and passes. */
	assert_int_equal(k->wait[3], 7000);
	assert_int_equal(k->wait[2], 13000);
	/* FCFS: D waits behind C. */
	assert_int_equal(f->wait[1], 9000);
	assert_int_equal(f->wait[2], 13000);
	assert_int_equal(f->wait[3], 17000);
	assert_int_equal(k->started, 4);
	assert_int_equal(k->last_end - k->t0, 20000);
	assert_int_equal(f->last_end - f->t0, 25000);
	sl_replay_free(k);
	sl_replay_free(f);
	sl_replay_trace_free(t);
}

/* A limit ends a run early; an unknown partition falls back to the
 * default; a job larger than every queue never starts and blocks nobody. */
static void test_limits_and_mapping(void **state)
{
	(void)state;
	struct sl_replay_trace *t = sl_replay_trace_new();
	add(t, 0, 4, 100, 10, "alice", "gpu");
	add(t, 1, 1, 1, 0, "bob", "batch");
	add(t, 2, 64, 1, 0, "bob", "batch");
	add(t, 3, 1, 1, 0, "bob", "batch");
	struct sl_replay *k = run(t, SL_REPLAY_KUEUE), *f = run(t, SL_REPLAY_FCFS);
	assert_int_equal(k->wait[1], 9000);
	assert_int_equal(k->remapped, 1);
	assert_int_equal(k->unmapped, 1);
	assert_int_equal(k->wait[2], -1);
	assert_int_equal(f->wait[3], 7000);
	assert_int_equal(k->last_end - k->t0, 11000);
	sl_replay_free(k);
	sl_replay_free(f);
	sl_replay_trace_free(t);
}

/* Four CPUs busy for 10 s of a 20 s makespan: 50 %; history the same. */
static void test_utilisation(void **state)
{
	(void)state;
	struct sl_replay_trace *t = sl_replay_trace_new();
	add(t, 0, 4, 10, 0, "alice", "batch");
	add(t, 10, 2, 10, 0, "alice", "batch");
	struct sl_replay *k = run(t, SL_REPLAY_KUEUE), *h = sl_replay_history(t, conf, "h");
	for (size_t i = 0; i < k->nseries; i++)
		if (strcmp(k->series[i].name, "cpu") == 0)
			assert_true(rp_util(k, i) > 74.9 && rp_util(k, i) < 75.1);
	for (size_t i = 0; i < h->nseries; i++)
		if (strcmp(h->series[i].name, "cpu") == 0)
			assert_true(rp_util(h, i) > 74.9 && rp_util(h, i) < 75.1);
	char *text = sl_replay_report_text(t, (struct sl_replay *[]){h, k}, 2);
	assert_non_null(strstr(text, "utilisation cpu "));
	free(text);
	char *html = sl_replay_report_html(t, (struct sl_replay *[]){h, k}, 2);
	assert_non_null(strstr(html, "<svg class=\"chart\""));
	assert_null(strstr(html, "nan"));
	free(html);
	sl_replay_free(k);
	sl_replay_free(h);
	sl_replay_trace_free(t);
}

static void test_nothing_maps(void **state)
{
	(void)state;
	struct sl_replay_trace *t = sl_replay_trace_new();
	struct sl_replay *r = NULL;
	struct sl_err err = SL_ERR_INIT;
	add(t, 0, 64, 1, 0, "alice", "batch");
	assert_int_equal(sl_replay_run(t, conf, SL_REPLAY_KUEUE, "x", NULL, NULL, &r, &err), -SL_EINVAL);
	assert_non_null(strstr(err.msg, "no job of the trace maps"));
	sl_replay_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_limits_and_mapping),
		cmocka_unit_test(test_utilisation),
		cmocka_unit_test(test_nothing_maps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
