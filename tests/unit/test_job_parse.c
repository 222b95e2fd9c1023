/* test_job_parse.c - the jobs reply reader (job_parse.c): what it reads
 * from the daemon's own text is what json-c reads there, member for member
 * (job_testlib.h), it reads JSON escapes
 * (\u, surrogate pairs, \/), skips what it does not know, turns error
 * replies into their code, and refuses malformed text with a reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_testlib.h"
#include "xalloc.h"

static struct sl_job *full_job(uint64_t id)
{
	struct sl_job *j = sl_job_new();
	int k = 1;
	j->id = id;
	j->uid = 1001;
	j->gid = 1002;
	j->state = SL_JOB_TIMEOUT;
#define SET_SSTR(f) j->spec.f = sl_xasprintf("%s \"%d\" \\ /\n\t\x01", #f, k++);
#define SET_SNUM(f) j->spec.f = -100 - k++;
	SPEC_STRINGS(SET_SSTR)
	SPEC_INTS(SET_SNUM)
	SPEC_INT64S(SET_SNUM)
#define SET_JSTR(f) j->f = sl_xasprintf("%s-é-%d", #f, k++);
#define SET_JNUM(f) j->f = 200 + k++;
	JOB_STRINGS(SET_JSTR)
	JOB_INTS(SET_JNUM)
	JOB_INT64S(SET_JNUM)
	JOB_LIVE_INTS(SET_JNUM)
	j->submit_time = INT64_MIN;
	j->spec.open_mode = SL_OPEN_TRUNCATE;
	j->spec.umask = 027;
	j->spec.features = sl_xcalloc(3, sizeof(char *));
	j->spec.features[0] = sl_xstrdup("h100");
	j->spec.features[1] = sl_xstrdup("ib");
	return j;
}

static int parse(const char *text, struct sl_job ***v, size_t *n, struct sl_err *err)
{
	return sl_job_list_parse(text, strlen(text), v, n, err);
}

/* The reader and json-c agree on the daemon's own listings, field for
 * field, and the records read list as they were written. */
static void test_same_as_json_c(void **state)
{
	struct sl_job *in[3] = {full_job(7), sl_job_new(), full_job(9)};
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	size_t n;

	in[1]->id = 8;
	sl_buf_addstr(b, "{\"jobs\":[");
	for (int i = 0; i < 3; i++) {
		if (i)
			sl_buf_addc(b, ',');
		assert_int_equal(sl_job_listing_append(b, in[i]), 0);
	}
	sl_buf_addstr(b, "],\"now\":5}");
	assert_int_equal(parse(sl_buf_str(b), &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_null(v[3]);
	json_object *o = json_tokener_parse(sl_buf_str(b)), *arr;
	assert_true(json_object_object_get_ex(o, "jobs", &arr));
	for (size_t i = 0; i < n; i++) {
		json_object *want = tl_job_tree(v[i]);
		struct sl_buf *one = sl_buf_new(1 << 20), *orig = sl_buf_new(1 << 20);
		assert_true(json_object_equal(json_object_array_get_idx(arr, i), want));
		assert_int_equal(sl_job_listing_append(one, v[i]), 0);
		assert_int_equal(sl_job_listing_append(orig, in[i]), 0);
		assert_string_equal(sl_buf_str(one), sl_buf_str(orig));
		json_object_put(want);
		sl_buf_free(one);
		sl_buf_free(orig);
	}
	assert_int_equal(v[0]->submit_time, INT64_MIN);
	assert_string_equal(v[0]->spec.name, "name \"1\" \\ /\n\t\x01");
	assert_int_equal(v[0]->spec.umask, 027);
	json_object_put(o);
	sl_job_free_array(v, n);
	for (int i = 0; i < 3; i++)
		sl_job_free(in[i]);
	sl_buf_free(b);
}

static void test_escapes_and_unknown(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	size_t n;

	assert_int_equal(parse(" { \"future\" : {\"a\":[1,-2.5e3,true,false,null,{\"b\":\"\\\"\"}]},"
			       "\"jobs\" : [ {\"id\":1, \"spec\":{\"name\":\"a\\/b \\u00e9 \\ud83d\\ude00"
			       " \\u0041\\b\\f\\r\", \"x\":[[]], \"env\":null, \"script\":null},"
			       "\"state\":\"RUNNING\", \"nodelist\":null, \"later\":{}} ] ,"
			       "\"now\": 5 } \n", &v, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0]->id, 1);
	assert_int_equal(v[0]->state, SL_JOB_RUNNING);
	assert_string_equal(v[0]->spec.name, "a/b \xc3\xa9 \xf0\x9f\x98\x80 A\b\f\r");
	assert_int_equal(v[0]->spec.gpus_per_node_opt, 0); /* a record older than it */
	assert_null(v[0]->nodelist);
	sl_job_free_array(v, n);
	assert_int_equal(parse("{\"jobs\":[]}", &v, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_non_null(v);
	assert_null(v[0]);
	sl_job_free_array(v, n);
}

static void test_error_reply(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v = (void *)1;
	size_t n = 9;
	char *t = sl_xasprintf("{\"code\":\"%s\",\"error\":\"Access/permission denied\"}",
			       sl_errname(SL_EPERM));

	assert_int_equal(parse(t, &v, &n, &err), -SL_EPERM);
	assert_string_equal(err.msg, "Access/permission denied");
	assert_null(v);
	assert_int_equal(n, 0);
	free(t);
}

static void expect_bad(const char *text, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v;
	size_t n;

	assert_int_not_equal(parse(text, &v, &n, &err), 0);
	assert_null(v);
	if (strstr(err.msg, msg) == NULL)
		fail_msg("for %s: [%s] lacks [%s]", text, err.msg, msg);
}

static void test_malformed(void **state)
{
	char deep[400];
	size_t i;

	expect_bad("", "expected an object");
	expect_bad("{\"jobs\":[{\"id\":1,\"spec\":{}}", "expected ',' or ']'");
	expect_bad("{\"jobs\":[]} x", "trailing bytes at byte 12");
	expect_bad("{\"jobs\":[{\"id\":\"1\",\"spec\":{}}]}", "expected an integer");
	expect_bad("{\"jobs\":[{\"id\":1.5,\"spec\":{}}]}", "expected an integer");
	expect_bad("{\"jobs\":[{\"id\":1}]}", "spec is missing");
	expect_bad("{\"jobs\":[{\"attempt\":4294967296,\"spec\":{}}]}", "out of range");
	expect_bad("{\"jobs\":[{\"state\":\"NAPPING\",\"spec\":{}}]}", "not a job state");
	expect_bad("{\"jobs\":[{\"spec\":{\"open_mode\":7}}]}", "open_mode: 7 is not valid");
	expect_bad("{\"jobs\":[{\"spec\":{\"name\":\"a\\qb\"}}]}", "bad escape");
	expect_bad("{\"jobs\":[{\"spec\":{\"name\":\"\\u12\"}}]}", "bad \\u escape");
	expect_bad("{\"jobs\":[{\"spec\":{\"name\":\"abc", "unterminated string");
	expect_bad("{\"jobs\":[{\"spec\":{\"env\":[\"a\",1]}}]}", "expected a string");
	expect_bad("{\"jobs\":[{\"id\":99999999999999999999,\"spec\":{}}]}", "out of range");
	expect_bad("{\"now\":1}", "without a jobs array");
	strcpy(deep, "{\"x\":");
	for (i = strlen(deep); i < 300; i++)
		deep[i] = '[';
	deep[i] = '\0';
	expect_bad(deep, "nested too deep");
}

/* A submit request: what sbatch writes reads back as json-c reads it, env
 * and script included, and writes again to the same text; unknown members
 * outside the spec are skipped. */
static void test_request(void **state)
{
	struct sl_job *j = full_job(1);
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec got;
	json_object *want, *tree;
	char *t, *a;

	j->spec.env = sl_xcalloc(3, sizeof(char *));
	j->spec.env[0] = sl_xstrdup("PATH=/bin");
	j->spec.env[1] = sl_xstrdup("X=\"q\"\n");
	j->spec.argv = sl_xcalloc(2, sizeof(char *));
	j->spec.argv[0] = sl_xstrdup("a b");
	sl_buf_addstr(b, "{\"later\":[1,{}],\"spec\":");
	assert_int_equal(sl_jobspec_text_append(b, &j->spec), 0);
	sl_buf_addc(b, '}');
	assert_int_equal(sl_jobspec_parse_request(sl_buf_str(b), sl_buf_len(b), &got, &err), 0);
	t = tl_spec_text(&j->spec);
	want = json_tokener_parse(t);
	tree = tl_spec_tree(&got, 1);
	assert_true(json_object_equal(tree, want));
	a = tl_spec_text(&got);
	assert_string_equal(a, t);
	json_object_put(want);
	json_object_put(tree);
	free(a);
	free(t);
	sl_jobspec_clear(&got);
	assert_int_equal(sl_jobspec_parse_request("{}", 2, &got, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "submit: spec is missing");
	sl_err_clear(&err);
	assert_int_equal(sl_jobspec_parse_request("{\"spec\":{\"name\":\"x\"}}", 21, &got, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "job spec: script is missing");
	sl_err_clear(&err);
	assert_int_equal(sl_jobspec_parse_request("{\"spec\":{\"script\":5}}", 21, &got, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "bad JSON: expected a string at byte 18");
	/* A listing skips what it does not know; a submission refuses it. */
	sl_err_clear(&err);
	const char *newer = "{\"spec\":{\"script\":\"x\",\"frobnicate\":1}}";
	assert_int_equal(sl_jobspec_parse_request(newer, strlen(newer), &got, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "job spec: \"frobnicate\" is not known to this sluiced: "
				     "is it older than the command?");
	sl_buf_free(b);
	sl_job_free(j);
}

/* A submit request's key goes to the job; one that is empty, too long or
 * not plain is refused; the spec alone skips it. */
static void test_request_key(void **state)
{
	const char *req = "{\"spec\":{\"script\":\"x\",\"name\":\"n\"},\"submit_key\":\"0a1B_-\"}";
	struct sl_job *j = sl_job_new();
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec got;
	char long_key[SL_SUBMIT_KEY_MAX + 2], bad[256];

	assert_int_equal(sl_job_parse_request(req, strlen(req), j, &err), 0);
	assert_string_equal(j->submit_key, "0a1B_-");
	assert_string_equal(j->spec.name, "n");
	assert_string_equal(j->spec.script, "x");
	assert_int_equal(sl_jobspec_parse_request(req, strlen(req), &got, &err), 0);
	assert_string_equal(got.name, "n");
	sl_jobspec_clear(&got);
	sl_job_free(j);

	memset(long_key, 'a', sizeof(long_key) - 1);
	long_key[sizeof(long_key) - 1] = '\0';
	const char *keys[] = {"", "a b", "a\\\"b", long_key};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(bad, sizeof(bad), "{\"spec\":{\"script\":\"x\"},\"submit_key\":\"%s\"}", keys[i]);
		j = sl_job_new();
		sl_err_clear(&err);
		assert_int_equal(sl_job_parse_request(bad, strlen(bad), j, &err), -SL_EPROTO);
		assert_string_equal(err.msg, "submit: submit_key must be 1 to 64 letters, digits, "
					     "'_' or '-'");
		assert_null(j->submit_key);
		sl_job_free(j);
	}
	long_key[sizeof(long_key) - 2] = '\0'; /* SL_SUBMIT_KEY_MAX exactly */
	snprintf(bad, sizeof(bad), "{\"spec\":{\"script\":\"x\"},\"submit_key\":\"%s\"}", long_key);
	j = sl_job_new();
	assert_int_equal(sl_job_parse_request(bad, strlen(bad), j, &err), 0);
	assert_int_equal(strlen(j->submit_key), SL_SUBMIT_KEY_MAX);
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_json_c),
		cmocka_unit_test(test_escapes_and_unknown),
		cmocka_unit_test(test_error_reply),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_request_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
