/* test_job_text.c - the JSON text writers (job_text.c) give the contract
 * (job_testlib.h builds it with json-c from the same struct): the spec
 * whole and the record as a listing (minus env, argv and
 * script), for a record with every member set, for a record at its
 * defaults, and for strings that need escaping; and what they write reads
 * back (job_parse.c) to the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "job_testlib.h"
#include "xalloc.h"

/* The whole spec: its text is the tree, and reads back to the same text
 * (a spec without its script is refused). */
static void check_spec(const struct sl_job *j)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobspec back;
	char *t = tl_spec_text(&j->spec), *again;

	assert_true(tl_text_is(t, j, 1));
	if (j->spec.script == NULL) {
		assert_int_equal(sl_jobspec_parse(t, strlen(t), &back, &err), -SL_EPROTO);
		free(t);
		return;
	}
	assert_int_equal(sl_jobspec_parse(t, strlen(t), &back, &err), 0);
	again = tl_spec_text(&back);
	assert_string_equal(again, t);
	free(again);
	sl_jobspec_clear(&back);
	free(t);
}

/* The listing: the tree without env, argv and script, and the record it
 * reads back to lists the same. */
static void check_same(const struct sl_job *j)
{
	char *t = tl_listing(j), *again;
	struct sl_job *back;

	check_spec(j);
	assert_true(tl_text_is(t, j, 0));
	back = tl_job(t);
	assert_int_equal(back->id, j->id);
	assert_int_equal(back->state, j->state);
	again = tl_listing(back);
	assert_string_equal(again, t);
	free(again);
	sl_job_free(back);
	free(t);
}

/* Every scalar member set away from its default, via the X-macro lists:
 * a member added to them is covered here without touching this test. */
static struct sl_job *full_job(void)
{
	struct sl_job *j = sl_job_new();
	int k = 1;
	j->id = 4242;
	j->uid = 1001;
	j->gid = 1002;
	j->state = SL_JOB_RUNNING;
#define SET_SSTR(f) j->spec.f = sl_xasprintf("%s-%d", #f, k++);
#define SET_SNUM(f) j->spec.f = 100 + k++;
	SPEC_STRINGS(SET_SSTR)
	SPEC_INTS(SET_SNUM)
	SPEC_INT64S(SET_SNUM)
#define SET_JSTR(f) j->f = sl_xasprintf("%s-%d", #f, k++);
#define SET_JNUM(f) j->f = 200 + k++;
	JOB_STRINGS(SET_JSTR)
	JOB_INTS(SET_JNUM)
	JOB_INT64S(SET_JNUM)
	JOB_LIVE_INTS(SET_JNUM)
	j->spec.open_mode = SL_OPEN_APPEND;
	j->spec.umask = 077;
	j->spec.env = sl_xcalloc(3, sizeof(char *));
	j->spec.env[0] = sl_xstrdup("A=1");
	j->spec.env[1] = sl_xstrdup("B=2");
	j->spec.argv = sl_xcalloc(2, sizeof(char *));
	j->spec.argv[0] = sl_xstrdup("arg");
	j->spec.features = sl_xcalloc(3, sizeof(char *));
	j->spec.features[0] = sl_xstrdup("h100");
	j->spec.features[1] = sl_xstrdup("ib");
	return j;
}

static void test_full_record(void **state)
{
	struct sl_job *j = full_job();
	check_same(j);
	sl_job_free(j);
}

static void test_defaults(void **state)
{
	struct sl_job *j = sl_job_new();
	j->id = 1;
	check_same(j);
	struct sl_buf *b = sl_buf_new(1 << 20);
	sl_job_listing_append(b, j);
	assert_string_equal(sl_buf_str(b), "{\"id\":1,\"spec\":{},\"uid\":0,\"gid\":0,"
					    "\"state\":\"PENDING\"}");
	sl_buf_free(b);
	sl_job_free(j);
}

static void test_escaping(void **state)
{
	struct sl_job *j = sl_job_new();
	j->id = 7;
	j->spec.name = sl_xstrdup("q\"b\\s/\n\t\r\x01\x1f é");
	j->reason_text = sl_xstrdup("");
	check_same(j);
	struct sl_buf *b = sl_buf_new(1 << 20);
	sl_job_listing_append(b, j);
	assert_non_null(strstr(sl_buf_str(b),
			       "\"name\":\"q\\\"b\\\\s/\\n\\t\\r\\u0001\\u001f é\""));
	sl_buf_free(b);
	sl_job_free(j);
}

/* Over the cap: an error, and the buffer as it was (no half record). */
static void test_cap(void **state)
{
	struct sl_job *j = full_job();
	struct sl_buf *b = sl_buf_new(100);
	sl_buf_addstr(b, "[");
	assert_int_equal(sl_job_listing_append(b, j), -SL_ETOOBIG);
	assert_string_equal(sl_buf_str(b), "[");
	sl_buf_free(b);
	sl_job_free(j);
}

/* Others than the owner get the listing without the --export values
 * (issue 11, hole 8); the rest is the owner's listing, byte for byte. */
static void test_others_view(void **state)
{
	struct sl_job *j = full_job();
	struct sl_buf *own = sl_buf_new(1 << 20), *others = sl_buf_new(1 << 20);
	const char *members[] = {",\"export_spec\":\"ALL,TOKEN=s3cret\"",
				 ",\"submit_line\":\"sbatch --export=ALL,TOKEN=s3cret x.sh\""};
	char *want;

	free(j->spec.export_spec);
	j->spec.export_spec = sl_xstrdup("ALL,TOKEN=s3cret");
	free(j->spec.submit_line);
	j->spec.submit_line = sl_xstrdup("sbatch --export=ALL,TOKEN=s3cret x.sh");
	assert_int_equal(sl_job_listing_append_view(own, j, SL_VIEW_OWNER), 0);
	assert_int_equal(sl_job_listing_append_view(others, j, SL_VIEW_OTHERS), 0);
	assert_null(strstr(sl_buf_str(others), "s3cret"));
	/* others' = owner's with those two members cut out */
	want = sl_xstrdup(sl_buf_str(own));
	for (size_t i = 0; i < 2; i++) {
		char *at = strstr(want, members[i]), *cut;
		assert_non_null(at);
		cut = sl_xasprintf("%.*s%s", (int)(at - want), want, at + strlen(members[i]));
		free(want);
		want = cut;
	}
	assert_string_equal(sl_buf_str(others), want);
	sl_buf_truncate(own, 0);
	assert_int_equal(sl_job_listing_append(own, j), 0); /* the owner's, as before */
	assert_non_null(strstr(sl_buf_str(own), "s3cret"));
	free(want);
	sl_buf_free(own);
	sl_buf_free(others);
	sl_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_record),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_others_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
