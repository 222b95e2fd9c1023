/* test_replay_load.c - traces from sacct -P and SWF: columns in any order,
 * steps and never-started jobs left out, TRES and limits read, errors with
 * the file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "replay.h"
#include "replay_load.h"
#include "xalloc.h"

static char path[] = "/tmp/test_replay_load_XXXXXX";

static int load(const char *text, struct sl_replay_trace **t, struct sl_err *err)
{
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	int rc = sl_replay_load(path, t, err);
	unlink(path);
	strcpy(path + strlen(path) - 6, "XXXXXX");
	return rc;
}

static void test_sacct(void **state)
{
	(void)state;
	struct sl_replay_trace *t;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(load("State|JobID|User|Account|Partition|Submit|Start|End|Timelimit|ReqTRES\n"
			      "COMPLETED|12|alice|phys|cpu|2026-01-01T00:00:00|2026-01-01T00:00:10|"
			      "2026-01-01T00:01:10|01:00:00|billing=8,cpu=8,mem=16G,node=2,gres/gpu=4,gres/gpu:a100=4\n"
			      "COMPLETED|12.batch||phys||2026-01-01T00:00:00|2026-01-01T00:00:10|"
			      "2026-01-01T00:01:10|||\n"
			      "CANCELLED by 0|13|bob|phys|cpu|2026-01-01T00:00:05|Unknown|2026-01-01T00:00:06|"
			      "UNLIMITED|billing=1,cpu=1,node=1\n"
			      "COMPLETED|14_3|bob|bio|gpu|2026-01-01T00:00:06|2026-01-01T00:00:06|"
			      "2026-01-01T00:00:07|Partition_Limit|cpu=1,mem=512K,node=1\n",
			      &t, &err), 0);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->skipped, 1);
	const struct sl_replay_job *j = &t->jobs[0];
	assert_int_equal(j->runtime, 60000);
	assert_int_equal(j->hist_start - j->submit, 10000);
	assert_int_equal(j->limit, 3600000);
	assert_int_equal(j->cpus, 8);
	assert_int_equal(j->nodes, 2);
	assert_int_equal(j->mem_mib, 16384);
	assert_int_equal(j->gpus, 4);
	assert_string_equal(t->names[j->user], "alice");
	assert_string_equal(t->names[j->partition], "cpu");
	assert_int_equal(t->jobs[1].limit, 0);
	assert_int_equal(t->jobs[1].mem_mib, 1);
	assert_int_equal(t->jobs[1].user, t->jobs[1].user);
	assert_string_equal(t->names[t->jobs[1].account], "bio");
	sl_replay_trace_free(t);
}

static void test_swf(void **state)
{
	(void)state;
	struct sl_replay_trace *t;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(load("; Version: 2.2\n; Computer: test\n"
			      "1 0 5 100 4 -1 -1 4 3600 1024 1 7 1 -1 2 -1 -1 -1\n"
			      "2 10 -1 -1 4 -1 -1 4 3600 -1 5 7 1 -1 2 -1 -1 -1\n"
			      "3 20 0 50 -1 -1 -1 2 -1 -1 1 8 1 -1 1 -1 -1 -1\n",
			      &t, &err), 0);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->skipped, 1);
	assert_int_equal(t->jobs[0].hist_start, 5000);
	assert_int_equal(t->jobs[0].runtime, 100000);
	assert_int_equal(t->jobs[0].cpus, 4);
	assert_int_equal(t->jobs[0].limit, 3600000);
	assert_int_equal(t->jobs[0].mem_mib, 4);
	assert_string_equal(t->names[t->jobs[0].user], "u7");
	assert_string_equal(t->names[t->jobs[0].partition], "q2");
	assert_int_equal(t->jobs[1].limit, 0);
	sl_replay_trace_free(t);
}

static void test_errors(void **state)
{
	(void)state;
	struct sl_replay_trace *t = NULL;
	struct sl_err err = SL_ERR_INIT;
	assert_int_equal(load("JobID|User|Partition|Submit\n1|a|p|2026-01-01T00:00:00\n", &t, &err),
			 -SL_EINVAL);
	assert_non_null(strstr(err.msg, ":1: the header lacks \"Start\""));
	sl_err_clear(&err);
	assert_int_equal(load("JobID|Partition|Submit|Start|End|ReqTRES\n"
			      "1|p|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:00:01|cpu=x\n",
			      &t, &err), -SL_EINVAL);
	assert_non_null(strstr(err.msg, ":2: ReqTRES cpu \"x\""));
	sl_err_clear(&err);
	assert_int_equal(load("1 0 5\n", &t, &err), -SL_EINVAL);
	assert_non_null(strstr(err.msg, ":1: an SWF line needs 18 fields"));
	sl_err_clear(&err);
	assert_int_equal(sl_replay_load("/nonexistent/trace", &t, &err), -SL_EIO);
	sl_err_clear(&err);
	assert_int_equal(load("JobID|Partition|Submit|Start|End|NCPUS\n", &t, &err), -SL_EINVAL);
	assert_non_null(strstr(err.msg, "no job to replay"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sacct),
		cmocka_unit_test(test_swf),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
