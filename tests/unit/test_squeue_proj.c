/* test_squeue_proj.c - squeue's projection (compat/squeue_proj.c) leaves
 * nothing out that it prints, sorts, filters or folds by: every % code
 * squeue knows prints the same from a projected record (written with the
 * projection by job_text.c, read back by job_parse.c) as from the whole
 * listing; every -S key sorts the same; each filter list matches the same;
 * array tasks fold the same. A code or key added without its row in the
 * table fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_proj.h"
#include "job_testlib.h"
#include "squeue_fmt.h"
#include "squeue_proj.h"
#include "xalloc.h"

#define NOW 1795256642

/* Every member set away from its default (test_job_text's full_job), in
 * state st, with its strings suffixed by tag so records differ. */
static struct sl_job *full_job(enum sl_jobstate st, int tag)
{
	struct sl_job *j = sl_job_new();
	int k = tag;

	j->id = 4000 + (uint64_t)tag;
	j->uid = 1001 + (uid_t)tag;
	j->gid = 1002 + (gid_t)tag;
	j->state = st;
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
	j->array_dropped = 0; /* such a record never leaves sluiced */
	j->start_time = NOW - 500 - tag;
	j->end_time = st == SL_JOB_RUNNING ? 0 : NOW - 100;
	j->suspend_time = tag % 2 ? 0 : NOW - 50;
	j->spec.features = sl_xcalloc(3, sizeof(char *));
	j->spec.features[0] = sl_xstrdup("h100");
	j->spec.features[1] = sl_xasprintf("ib%d", tag);
	if (tag % 3 == 0) { /* a plain job, not an array's task */
		j->array_job_id = 0;
		j->array_task_id = 0;
	} else if (tag % 3 == 1) {
		j->array_tasks = sl_xstrdup("1-3%2");
	}
	if (st == SL_JOB_CANCELLED) /* never split off: its id is by sl_job_ran() */
		j->attempt = j->array_split = 0;
	if (st == SL_JOB_PENDING && tag % 2 == 0) { /* held: sl_prio_held() */
		j->priority = 0;
		free(j->reason);
		j->reason = sl_xstrdup("JobHeldUser");
	}
	return j;
}

/* A listing of j as sluiced writes it with p (NULL: whole), read back. */
static struct sl_job *through(const struct sl_job *j, const struct sl_jobproj *p)
{
	struct sl_buf *b = sl_buf_new(1 << 20);
	struct sl_err err = SL_ERR_INIT;
	struct sl_job **v, *out;
	size_t n;

	sl_buf_addstr(b, "{\"jobs\":[");
	assert_int_equal(sl_job_listing_append_proj(b, j, SL_VIEW_OWNER, p), 0);
	sl_buf_addstr(b, "]}");
	assert_int_equal(sl_job_list_parse(sl_buf_str(b), sl_buf_len(b), &v, &n, &err), 0);
	assert_int_equal(n, 1);
	out = v[0];
	free(v);
	sl_buf_free(b);
	return out;
}

/* The records under test: the golden files' and full ones. */
static struct sl_job **records(size_t *n)
{
	static const char *const files[] = {"squeue_jobs.jsonl", "squeue_sort.jsonl",
					    "squeue_long_fields.jsonl"};
	struct sl_job **all = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t k;
		struct sl_job **v = tl_output_jobs(files[f], &k);
		for (size_t i = 0; i < k; i++) {
			all = sl_xgrow(all, &cap, *n + 1, sizeof(*all));
			all[(*n)++] = v[i];
		}
		free(v);
	}
	for (int tag = 0; tag < 15; tag++) {
		/* CANCELLED: a task that ran is itself (%A), one that never did
		 * still the meta record's */
		static const enum sl_jobstate st[] = {SL_JOB_PENDING, SL_JOB_RUNNING,
						      SL_JOB_SUSPENDED, SL_JOB_COMPLETED,
						      SL_JOB_CANCELLED};
		all = sl_xgrow(all, &cap, *n + 1, sizeof(*all));
		all[(*n)++] = full_job(st[tag % 5], tag);
	}
	/* each number of the spec alone away from its default (and with two
	 * GPUs a node, which --cpus-per-gpu and the like count from): the
	 * shape's inputs, which the full records hide behind one another */
	for (int gpus = 0; gpus < 2; gpus++) {
#define ONE(f)                                                                  \
	all = sl_xgrow(all, &cap, *n + 1, sizeof(*all));                        \
	all[*n] = sl_job_new();                                                 \
	all[*n]->id = 5000 + *n;                                                \
	all[*n]->state = SL_JOB_PENDING;                                        \
	all[*n]->reason = sl_xstrdup("Priority");                               \
	all[*n]->spec.gpus_per_node = gpus ? 2 : all[*n]->spec.gpus_per_node;   \
	all[*n]->spec.f = 3;                                                    \
	(*n)++;
		SPEC_INTS(ONE)
		SPEC_INT64S(ONE)
#undef ONE
	}
	all[*n - 1]->spec.time_limit = -1; /* unlimited */
	free(all[*n - 2]->user);           /* %u without a name: the uid */
	all[*n - 2]->user = NULL;
	return all;
}

/* The records through p (NULL: the whole listing). */
static struct sl_job **all_through(struct sl_job **v, size_t n, const struct sl_jobproj *p)
{
	struct sl_job **out = sl_xcalloc(n + 1, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = through(v[i], p);
	return out;
}

static char *line(const char *fmt, const struct sl_job *j)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_squeue_fmt *f;
	struct sl_buf *b = sl_buf_new(1 << 20);
	char *s;

	assert_int_equal(sl_squeue_fmt_new(fmt, &f, &err), 0);
	assert_int_equal(sl_squeue_fmt_job(f, j, NOW, b), 0);
	s = sl_buf_steal(b);
	sl_buf_free(b);
	sl_squeue_fmt_free(f);
	return s;
}

static void test_every_code(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	size_t n, codes = 0;
	struct sl_job **v = records(&n);

	(void)state;
	for (int c = 33; c < 127; c++) {
		char fmt[8];
		struct sl_squeue_fmt *f;
		struct sl_jobproj *p;

		snprintf(fmt, sizeof(fmt), "%%%c", c);
		if (c == '%' || sl_squeue_fmt_new(fmt, &f, &err) != 0)
			continue;
		sl_squeue_fmt_free(f);
		codes++;
		p = sl_squeue_proj(fmt, "", NULL);
		if (p == NULL)
			fail_msg("%%%c has no row in squeue_proj.c", c);
		for (size_t i = 0; i < n; i++) {
			struct sl_job *whole = through(v[i], NULL), *part = through(v[i], p);
			char *a = line(fmt, whole), *b = line(fmt, part);
			if (strcmp(a, b) != 0)
				fail_msg("%%%c of job %llu: whole \"%s\", projected \"%s\"", c,
					 (unsigned long long)v[i]->id, a, b);
			free(a);
			free(b);
			sl_job_free(whole);
			sl_job_free(part);
		}
		sl_jobproj_free(p);
	}
	assert_true(codes >= 50);
	sl_job_free_array(v, n);
}

static void test_every_sort_key(void **state)
{
	struct sl_err err = SL_ERR_INIT;
	size_t n, keys = 0;
	struct sl_job **v = records(&n);

	(void)state;
	for (int c = 33; c < 127; c++) {
		for (int rev = 0; rev < 2; rev++) {
			char spec[8];
			struct sl_job **w, **q;
			struct sl_jobproj *p;

			snprintf(spec, sizeof(spec), "%s%c", rev ? "-" : "", c);
			if (c == ',' || c == '+' || c == '-')
				continue;
			w = all_through(v, n, NULL);
			if (sl_squeue_sort(w, n, spec, NOW, &err) != 0) {
				sl_job_free_array(w, n);
				continue;
			}
			keys++;
			if ((p = sl_squeue_proj("%i", spec, NULL)) == NULL)
				fail_msg("-S %s has no row in squeue_proj.c", spec);
			q = all_through(v, n, p);
			assert_int_equal(sl_squeue_sort(q, n, spec, NOW, &err), 0);
			for (size_t i = 0; i < n; i++)
				if (w[i]->id != q[i]->id)
					fail_msg("-S %s: place %zu is %llu whole, %llu projected", spec,
						 i, (unsigned long long)w[i]->id,
						 (unsigned long long)q[i]->id);
			sl_jobproj_free(p);
			sl_job_free_array(w, n);
			sl_job_free_array(q, n);
		}
	}
	assert_true(keys >= 60);
	sl_job_free_array(v, n);
}

/* Each list squeue filters by again, set to the first record's value. */
/* A full record of records() (a task of an array, running). */
static const struct sl_job *a_full_record(struct sl_job **v)
{
	while ((*v)->id != 4001)
		v++;
	return *v;
}

static void test_filters(void **state)
{
	size_t n;
	struct sl_job **v = records(&n);
	const struct sl_job *j = a_full_record(v);
	char *acct[] = {j->spec.account}, *qos[] = {j->spec.qos}, *wck[] = {j->spec.wckey},
	     *node[] = {j->nodelist}, *name[] = {j->spec.name}, *part[] = {j->spec.partition};
	uid_t uid[] = {j->uid};
	struct sl_jobfilter fs[] = {
		{.accounts = acct, .n_accounts = 1}, {.qos = qos, .n_qos = 1},
		{.wckeys = wck, .n_wckeys = 1},      {.nodes = node, .n_nodes = 1},
		{.names = name, .n_names = 1},       {.partitions = part, .n_partitions = 1},
		{.uids = uid, .n_uids = 1},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
		struct sl_jobproj *p = sl_squeue_proj("%i", "", &fs[k]);
		size_t matched = 0;
		assert_non_null(p);
		for (size_t i = 0; i < n; i++) {
			struct sl_job *whole = through(v[i], NULL), *proj = through(v[i], p);
			int m = sl_jobfilter_match(&fs[k], whole);
			assert_int_equal(m, sl_jobfilter_match(&fs[k], proj));
			matched += (size_t)m;
			sl_job_free(whole);
			sl_job_free(proj);
		}
		assert_true(matched >= 1);
		sl_jobproj_free(p);
	}
	sl_job_free_array(v, n);
}

/* Array 100's pending tasks 1-4 (ids 101-104), one of another reason:
 * folded (and with --array-unique) the same from projected records. */
static void test_folding(void **state)
{
	(void)state;
	for (int unique = 0; unique < 2; unique++) {
		struct sl_job *v[4], **w, **q;
		struct sl_jobproj *p = sl_squeue_proj("%i", NULL, NULL);
		size_t nw = 4, nq = 4;
		char *a, *b;

		for (int i = 0; i < 4; i++) {
			v[i] = sl_job_new();
			v[i]->id = 101 + (uint64_t)i;
			v[i]->state = SL_JOB_PENDING;
			v[i]->spec.name = sl_xstrdup("arr");
			v[i]->spec.partition = sl_xstrdup("batch");
			v[i]->spec.array = sl_xstrdup("1-4%2");
			v[i]->array_job_id = 100;
			v[i]->array_task_id = i + 1;
			v[i]->array_throttle = 2;
			v[i]->reason = sl_xstrdup(i == 2 ? "JobHeldUser" : "Priority");
			v[i]->reason_text = sl_xstrdup("waits");
		}
		w = all_through(v, 4, NULL);
		q = all_through(v, 4, p);
		sl_squeue_collapse(w, &nw, unique);
		sl_squeue_collapse(q, &nq, unique);
		assert_int_equal(nw, nq);
		for (size_t i = 0; i < nw; i++) {
			a = line("%i %r %j %P %K", w[i]);
			b = line("%i %r %j %P %K", q[i]);
			assert_string_equal(a, b);
			free(a);
			free(b);
		}
		sl_job_free_array(w, nw);
		sl_job_free_array(q, nq);
		for (int i = 0; i < 4; i++)
			sl_job_free(v[i]);
		sl_jobproj_free(p);
	}
}

/* The default listing asks for a few strings: not the account, the QOS,
 * the work dir, ... unless a filter or a code reads them. */
static void test_default_is_small(void **state)
{
	char *acct[] = {"a"};
	struct sl_jobfilter f = {.accounts = acct, .n_accounts = 1};
	struct sl_jobproj *p = sl_squeue_proj(SL_SQUEUE_FMT_DEFAULT, NULL, NULL);

	(void)state;
	assert_non_null(p);
	assert_true(sl_jobproj_has(p, SL_JP_user));
	assert_true(sl_jobproj_has(p, SL_JP_SPEC_nodes));
	assert_false(sl_jobproj_has(p, SL_JP_SPEC_account));
	assert_false(sl_jobproj_has(p, SL_JP_SPEC_work_dir));
	assert_false(sl_jobproj_has(p, SL_JP_SPEC_rlimits));
	assert_false(sl_jobproj_has(p, SL_JP_group));
	assert_false(sl_jobproj_has(p, SL_JP_submit_time));
	sl_jobproj_free(p);
	p = sl_squeue_proj(SL_SQUEUE_FMT_DEFAULT, NULL, &f);
	assert_true(sl_jobproj_has(p, SL_JP_SPEC_account));
	sl_jobproj_free(p);
	/* -S with a letter squeue refuses: whole records (squeue says why) */
	assert_null(sl_squeue_proj("%i", "!", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code),
		cmocka_unit_test(test_every_sort_key),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_folding),
		cmocka_unit_test(test_default_is_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
