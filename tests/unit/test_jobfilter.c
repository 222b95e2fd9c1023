/* test_jobfilter.c - the job filter: which jobs each list lets through,
 * its JSON form read back to the same filter, and the requests it
 * refuses, with their messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobfilter.h"
#include "xalloc.h"

static struct sl_job *mk(uint64_t id, uid_t uid, enum sl_jobstate st, const char *part,
			 const char *acct, const char *name)
{
	struct sl_job *j = sl_job_new();
	j->id = id;
	j->uid = uid;
	j->state = st;
	j->spec.partition = sl_xstrdup(part);
	j->spec.account = sl_xstrdup(acct);
	j->spec.name = sl_xstrdup(name);
	return j;
}

/* Empty lists pass everything; each list alone narrows; a job without the
 * member (no account) passes only when that list is empty. */
static void test_match(void **state)
{
	struct sl_job *a = mk(1, 1000, SL_JOB_PENDING, "cpu", "research", "a");
	struct sl_job *b = mk(2, 1001, SL_JOB_RUNNING, "gpu", NULL, "b");
	uint64_t ids[] = {2, 9};
	uid_t uids[] = {1000};
	int states[] = {SL_JOB_RUNNING, SL_JOB_COMPLETED};
	char *parts[] = {"gpu", NULL}, *accts[] = {"research", NULL}, *names[] = {"a", "b", NULL};
	struct sl_jobfilter f = {0};

	assert_true(sl_jobfilter_match(&f, a));
	assert_true(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.ids = ids, .n_ids = 2};
	assert_false(sl_jobfilter_match(&f, a));
	assert_true(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.uids = uids, .n_uids = 1};
	assert_true(sl_jobfilter_match(&f, a));
	assert_false(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.states = states, .n_states = 2};
	assert_false(sl_jobfilter_match(&f, a));
	assert_true(sl_jobfilter_match(&f, b));
	/* past its time limit it is being ended: COMPLETING, live; RUNNING in
	 * the history */
	b->start_time = (int64_t)time(NULL) - 120;
	b->spec.time_limit = 1;
	int cg[] = {SL_JOB_COMPLETING};
	assert_false(sl_jobfilter_match(&f, b));
	f.history = 1;
	assert_true(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.states = cg, .n_states = 1};
	assert_true(sl_jobfilter_match(&f, b));
	b->spec.time_limit = 0;
	f = (struct sl_jobfilter){.partitions = parts, .n_partitions = 1};
	assert_false(sl_jobfilter_match(&f, a));
	assert_true(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.accounts = accts, .n_accounts = 1};
	assert_true(sl_jobfilter_match(&f, a));
	assert_false(sl_jobfilter_match(&f, b));
	f = (struct sl_jobfilter){.names = names, .n_names = 2, .uids = uids, .n_uids = 1};
	assert_true(sl_jobfilter_match(&f, a));
	assert_false(sl_jobfilter_match(&f, b)); /* every list must pass */
	sl_job_free(a);
	sl_job_free(b);
}

/* Job ids in either form: an id selects its job, or every task of the
 * array it names; "N_I" selects array N's task I; the two lists are one. */
static void test_array_ids(void **state)
{
	struct sl_job *t = sl_job_new(), *plain = sl_job_new();
	uint64_t arr = 40, raw = 42, other = 7;
	struct sl_taskid task = {40, 3}, wrong = {40, 4};
	struct sl_jobfilter f = {.ids = &arr, .n_ids = 1};
	struct sl_err err = SL_ERR_INIT;
	json_object *o;
	(void)state;

	t->id = 42, t->array_job_id = 40, t->array_task_id = 3;
	plain->id = 7;
	assert_true(sl_jobfilter_match(&f, t));
	assert_false(sl_jobfilter_match(&f, plain));
	f = (struct sl_jobfilter){.ids = &raw, .n_ids = 1};
	assert_true(sl_jobfilter_match(&f, t));
	f = (struct sl_jobfilter){.tasks = &task, .n_tasks = 1};
	assert_true(sl_jobfilter_match(&f, t));
	f = (struct sl_jobfilter){.tasks = &wrong, .n_tasks = 1};
	assert_false(sl_jobfilter_match(&f, t));
	f = (struct sl_jobfilter){.ids = &other, .n_ids = 1, .tasks = &wrong, .n_tasks = 1};
	assert_true(sl_jobfilter_match(&f, plain)); /* either list */
	assert_false(sl_jobfilter_match(&f, t));
	f = (struct sl_jobfilter){.tasks = &task, .n_tasks = 1};
	o = sl_jobfilter_to_obj(&f);
	assert_non_null(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			       "\"tasks\":[\"40_3\"]"));
	assert_int_equal(sl_jobfilter_from_obj(o, &f, &err), 0);
	assert_int_equal(f.n_tasks, 1);
	assert_int_equal(f.tasks[0].job, 40);
	assert_int_equal(f.tasks[0].task, 3);
	sl_jobfilter_clear(&f);
	json_object_put(o);
	sl_job_free(t);
	sl_job_free(plain);
}

/* What a command sends is what the daemon reads: the same jobs pass. */
static void test_roundtrip(void **state)
{
	uint64_t ids[] = {5, 6};
	uid_t uids[] = {1000, 1001};
	int states[] = {SL_JOB_PENDING, SL_JOB_TIMEOUT};
	char *parts[] = {"cpu", NULL}, *accts[] = {"x", "y", NULL}, *names[] = {"n", NULL};
	char *wckeys[] = {"wk", NULL};
	struct sl_jobfilter f = {ids, 2, uids, 2, states, 2, parts, 1, accts, 2, names, 1,
				 1, 100, 200, 0, NULL, 0, NULL, 0, wckeys, 1, 0, NULL, 0, NULL};
	struct sl_jobfilter g;
	struct sl_err err = SL_ERR_INIT;
	json_object *o = sl_jobfilter_to_obj(&f), *back;

	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"ids\":[5,6],\"uids\":[1000,1001],\"states\":[\"PENDING\",\"TIMEOUT\"],"
			    "\"partitions\":[\"cpu\"],\"accounts\":[\"x\",\"y\"],\"names\":[\"n\"],"
			    "\"wckeys\":[\"wk\"],\"history\":true,\"start_after\":100,\"end_before\":200}");
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), 0);
	assert_string_equal(g.wckeys[0], "wk");
	assert_int_equal(g.n_ids, 2);
	assert_int_equal(g.ids[1], 6);
	assert_int_equal(g.uids[0], 1000);
	assert_int_equal(g.states[1], SL_JOB_TIMEOUT);
	assert_string_equal(g.partitions[0], "cpu");
	assert_null(g.partitions[1]);
	assert_string_equal(g.accounts[1], "y");
	assert_string_equal(g.names[0], "n");
	assert_int_equal(g.history, 1);
	assert_int_equal(g.start_after, 100);
	assert_int_equal(g.end_before, 200);
	assert_int_equal(g.duplicates, 0);
	back = sl_jobfilter_to_obj(&g);
	assert_true(json_object_equal(o, back));
	sl_jobfilter_clear(&g);
	json_object_put(back);
	/* sacct -D: the requeued runs too */
	f.duplicates = 1;
	json_object_put(o);
	o = sl_jobfilter_to_obj(&f);
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), 0);
	assert_int_equal(g.duplicates, 1);
	back = sl_jobfilter_to_obj(&g);
	assert_true(json_object_equal(o, back));
	sl_jobfilter_clear(&g);
	assert_int_equal(g.n_names, 0);
	assert_null(g.names);
	json_object_put(back);
	json_object_put(o);
	/* No filter, or empty lists: everything, nothing allocated. */
	assert_int_equal(sl_jobfilter_from_obj(NULL, &g, &err), 0);
	assert_int_equal(g.n_ids + g.n_states + g.history, 0);
	o = json_tokener_parse("{\"ids\":[],\"names\":[]}");
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), 0);
	assert_null(g.ids);
	assert_null(g.names);
	json_object_put(o);
}

/* --qos and -w: a job passes with its QOS, or with one of the node names
 * in its hostlist (padding as written); both travel only when set. */
static void test_qos_nodes(void **state)
{
	struct sl_job *a = mk(1, 1000, SL_JOB_RUNNING, "cpu", "x", "a");
	struct sl_job *b = mk(2, 1000, SL_JOB_PENDING, "cpu", "x", "b");
	char *qos[] = {"high", NULL}, *n3[] = {"n3", NULL}, *n9[] = {"n9", "login", NULL};
	char *g2[] = {"gpu02", NULL}, *g2bare[] = {"gpu2", NULL}, *vm[] = {"vm-1", NULL};
	struct sl_jobfilter f = {.qos = qos, .n_qos = 1}, g;
	struct sl_err err = SL_ERR_INIT;
	json_object *o;
	(void)state;

	a->spec.qos = sl_xstrdup("high");
	a->nodelist = sl_xstrdup("n[1-4],login");
	assert_true(sl_jobfilter_match(&f, a));
	assert_false(sl_jobfilter_match(&f, b)); /* no QOS */
	f = (struct sl_jobfilter){.nodes = n3, .n_nodes = 1};
	assert_true(sl_jobfilter_match(&f, a));
	assert_false(sl_jobfilter_match(&f, b)); /* pending: no nodes */
	f = (struct sl_jobfilter){.nodes = n9, .n_nodes = 2};
	assert_true(sl_jobfilter_match(&f, a)); /* login */
	f.n_nodes = 1;
	assert_false(sl_jobfilter_match(&f, a));
	free(a->nodelist);
	a->nodelist = sl_xstrdup("gpu[01-03]");
	f = (struct sl_jobfilter){.nodes = g2, .n_nodes = 1};
	assert_true(sl_jobfilter_match(&f, a));
	f = (struct sl_jobfilter){.nodes = g2bare, .n_nodes = 1};
	assert_false(sl_jobfilter_match(&f, a));
	free(a->nodelist);
	a->nodelist = sl_xstrdup("vm-[0-1]"); /* the local executor's -N 2 */
	f = (struct sl_jobfilter){.nodes = vm, .n_nodes = 1, .qos = qos, .n_qos = 1};
	assert_true(sl_jobfilter_match(&f, a));
	o = sl_jobfilter_to_obj(&f);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"ids\":[],\"uids\":[],\"states\":[],\"partitions\":[],"
			    "\"accounts\":[],\"names\":[],\"qos\":[\"high\"],\"nodes\":[\"vm-1\"],"
			    "\"history\":false,\"start_after\":0,\"end_before\":0}");
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), 0);
	assert_string_equal(g.qos[0], "high");
	assert_string_equal(g.nodes[0], "vm-1");
	assert_true(sl_jobfilter_match(&g, a));
	sl_jobfilter_clear(&g);
	assert_null(g.nodes);
	json_object_put(o);
	sl_job_free(a);
	sl_job_free(b);
}

/* A small fixed generator: the same jobs and lists on every run. */
static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Each of n jobs through f scanned (no index) and f indexed: the same
 * answer; *hits counts the jobs that matched. */
static void same_answers(struct sl_jobfilter *f, uint32_t seed, int n, int *hits)
{
	struct sl_job *j = sl_job_new();

	*hits = 0;
	for (int i = 0; i < n; i++) {
		int scanned, indexed;

		j->id = 1 + rnd(&seed) % 1200;
		j->array_job_id = rnd(&seed) % 3 ? 0 : rnd(&seed) % 1000;
		j->array_task_id = (int)(rnd(&seed) % 25) - 1;
		sl_jobfilter_index_free(f);
		scanned = sl_jobfilter_match(f, j);
		sl_jobfilter_index(f);
		indexed = sl_jobfilter_match(f, j);
		if (scanned != indexed)
			fail_msg("job %llu (array %llu task %d): scan %d, index %d",
				 (unsigned long long)j->id, (unsigned long long)j->array_job_id,
				 j->array_task_id, scanned, indexed);
		*hits += scanned;
	}
	sl_jobfilter_index_free(f);
	sl_job_free(j);
}

/* The sorted index answers as the scan of the lists does, for a few
 * hundred ids and tasks in no order, repeated, an id naming an array
 * (its tasks pass) or a raw task id, tasks of array 0 and task -1 (what
 * a plain job holds), ids alone, tasks alone and both. */
static void test_index(void **state)
{
	enum { K = 300 };
	uint64_t ids[K];
	struct sl_taskid tasks[K];
	struct sl_jobfilter f = {0}, g;
	struct sl_err err = SL_ERR_INIT;
	struct sl_job *t = sl_job_new();
	uint32_t seed = 12345;
	json_object *o;
	int hits;
	(void)state;

	for (int i = 0; i < K; i++) {
		ids[i] = 1 + rnd(&seed) % 1000;
		tasks[i] = (struct sl_taskid){rnd(&seed) % 1000, rnd(&seed) % 24};
	}
	tasks[0] = (struct sl_taskid){0, UINT32_MAX};
	f = (struct sl_jobfilter){.ids = ids, .n_ids = K};
	same_answers(&f, 1, 5000, &hits);
	assert_in_range(hits, 500, 4500);
	f = (struct sl_jobfilter){.tasks = tasks, .n_tasks = K};
	same_answers(&f, 2, 5000, &hits);
	assert_in_range(hits, 10, 4500);
	f = (struct sl_jobfilter){.ids = ids, .n_ids = K, .tasks = tasks, .n_tasks = K};
	same_answers(&f, 3, 5000, &hits);
	assert_in_range(hits, 500, 4500);
	/* the daemon's filter, read from the wire, is indexed */
	o = sl_jobfilter_to_obj(&f);
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), 0);
	assert_non_null(g.idx);
	t->id = 5000, t->array_job_id = tasks[7].job, t->array_task_id = (int)tasks[7].task;
	assert_true(sl_jobfilter_match(&g, t));
	t->array_task_id = 24; /* no task 24 in the list */
	assert_int_equal(sl_jobfilter_match(&g, t), sl_jobfilter_match(&f, t));
	sl_jobfilter_clear(&g);
	assert_null(g.idx);
	json_object_put(o);
	sl_job_free(t);
}

static void expect_bad(const char *text, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobfilter g;
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	assert_int_equal(sl_jobfilter_from_obj(o, &g, &err), -code);
	assert_string_equal(err.msg, msg);
	assert_null(g.ids); /* left empty */
	assert_null(g.names);
	json_object_put(o);
}

static void test_bad(void **state)
{
	char *big = sl_xmalloc(8 * 100002);
	size_t at;

	expect_bad("[]", SL_EPROTO, "filter: expected an object");
	expect_bad("{\"ids\":5}", SL_EPROTO, "filter.ids: expected an array");
	expect_bad("{\"ids\":[1,\"2\"]}", SL_EPROTO, "filter.ids[1]: expected an integer");
	expect_bad("{\"names\":[\"a\",3]}", SL_EPROTO, "filter.names[1]: expected a string");
	expect_bad("{\"ids\":[1],\"states\":[\"PD\",\"NAPPING\"]}", SL_EINVAL,
		   "Invalid job state specified: NAPPING");
	at = (size_t)sprintf(big, "{\"uids\":[");
	for (int i = 0; i <= 100000; i++)
		at += (size_t)sprintf(big + at, "%s1", i ? "," : "");
	strcpy(big + at, "]}");
	expect_bad(big, SL_ETOOBIG, "filter.uids: more than 100000 entries");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_array_ids),
		cmocka_unit_test(test_qos_nodes), cmocka_unit_test(test_index),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
