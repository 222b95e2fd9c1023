/* test_evq.c - executors' events: nothing is delivered from inside the
 * call that queues it, everything from the loop in order, events queued by
 * a handler wait for the next flush, a missing callback drops its kind, and
 * freeing the queue drops what was not delivered; node changes queued
 * while one waits are that one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "evq.h"
#include "loop.h"

struct seen {
	char log[256];
	struct sl_evq *q;
	struct sl_loop *loop;
	int requeue;
};

static void add(struct seen *s, const char *fmt, uint64_t id, const char *extra)
{
	size_t n = strlen(s->log);
	snprintf(s->log + n, sizeof(s->log) - n, fmt, (unsigned long long)id, extra);
}

static void on_started(void *arg, uint64_t id, int64_t start, const char *nodes)
{
	add(arg, "S%llu:%s ", id, nodes);
}

static void on_finished(void *arg, uint64_t id, const struct sl_exec_result *r)
{
	struct seen *s = arg;
	add(s, "F%llu:%s ", id, r->reason);
	if (s->requeue) {
		s->requeue = 0;
		sl_evq_ready(s->q, 99, "late");
	}
}

static void on_ready(void *arg, uint64_t id, const char *nodes)
{
	struct seen *s = arg;
	add(s, "R%llu:%s ", id, nodes);
	if (id == 99)
		sl_loop_stop(s->loop);
}

static void on_nodes(void *arg)
{
	struct seen *s = arg;
	add(s, "N%llu%s ", 0, "");
	if (s->requeue) {
		s->requeue = 0;
		sl_evq_nodes(s->q); /* after the flush: a new one */
	}
}

static void stop(struct sl_loop *l, uint64_t id, void *arg)
{
	sl_loop_stop(l);
}

static void test_order_and_later(void **state)
{
	static const struct sl_exec_events ev = {on_started, on_finished, on_ready, NULL};
	struct seen s = {0};
	struct sl_exec_result r;
	s.loop = sl_loop_new();
	s.q = sl_evq_new(s.loop, &ev, &s);
	memset(&r, 0, sizeof(r));
	snprintf(r.reason, sizeof(r.reason), "None");
	s.requeue = 1;

	sl_evq_started(s.q, 1, 100, "vm");
	sl_evq_finished(s.q, 1, &r);
	sl_evq_ready(s.q, 2, NULL);
	assert_string_equal(s.log, ""); /* not from inside the calls */
	sl_loop_add_timer(s.loop, 5000, stop, NULL);
	sl_loop_run(s.loop);
	assert_string_equal(s.log, "S1:vm F1:None R2: R99:late ");
	sl_evq_free(s.q);
	sl_loop_free(s.loop);
}

static void test_missing_callback_and_free(void **state)
{
	static const struct sl_exec_events ev = {NULL, on_finished, NULL, NULL};
	struct seen s = {0};
	struct sl_exec_result r;
	s.loop = sl_loop_new();
	s.q = sl_evq_new(s.loop, &ev, &s);
	memset(&r, 0, sizeof(r));
	snprintf(r.reason, sizeof(r.reason), "Preempted");
	sl_evq_started(s.q, 3, 0, "vm");
	sl_evq_finished(s.q, 3, &r);
	sl_loop_add_timer(s.loop, 50, stop, NULL);
	sl_loop_run(s.loop);
	assert_string_equal(s.log, "F3:Preempted ");
	sl_evq_finished(s.q, 4, &r); /* never delivered: freed first */
	sl_evq_free(s.q);
	sl_loop_add_timer(s.loop, 50, stop, NULL);
	sl_loop_run(s.loop);
	assert_string_equal(s.log, "F3:Preempted ");
	sl_loop_free(s.loop);
}

static void test_nodes_coalesced(void **state)
{
	static const struct sl_exec_events ev = {on_started, NULL, NULL, on_nodes};
	struct seen s = {0};
	s.loop = sl_loop_new();
	s.q = sl_evq_new(s.loop, &ev, &s);
	s.requeue = 1;
	sl_evq_nodes(s.q);
	sl_evq_started(s.q, 5, 0, "a");
	sl_evq_nodes(s.q);
	sl_evq_nodes(s.q);
	sl_loop_add_timer(s.loop, 50, stop, NULL);
	sl_loop_run(s.loop);
	assert_string_equal(s.log, "N0 S5:a N0 ");
	sl_evq_free(s.q);
	sl_loop_free(s.loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_later),
		cmocka_unit_test(test_missing_callback_and_free),
		cmocka_unit_test(test_nodes_coalesced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
