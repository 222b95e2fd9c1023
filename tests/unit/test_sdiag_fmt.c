/* test_sdiag_fmt.c - sdiag's report (compat/sdiag_fmt.c): the layout of
 * Slurm 22.05's sdiag, byte for byte, from a DIAG reply; the RPC tables'
 * sort orders; the lines sdiag prints only with cycles behind them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "sdiag_fmt.h"

/* Fri Nov 27 11:49:40 2026 UTC, and 7 min 46 s before it */
static const char reply[] =
	"{\"now\":1795780180,\"since\":1795779714,\"threads\":3,\"dbd_queue\":0,"
	"\"pending\":1,\"running\":2,\"latency\":25,"
	"\"jobs\":{\"submitted\":34,\"started\":27,\"completed\":21,\"canceled\":11,\"failed\":0},"
	"\"sched\":{\"cycles\":46,\"last\":31,\"max\":15294,\"sum\":42780,\"depth\":12,"
	"\"queue_len\":0},"
	"\"backfill\":{\"backfilled\":2,\"cycles\":2,\"when\":1795779924,\"last\":833,"
	"\"max\":1396,\"sum\":2229,\"last_depth\":1,\"depth_sum\":2,\"queue_len\":1,"
	"\"queue_sum\":2},"
	"\"rpc_types\":[{\"type\":3,\"name\":\"jobs\",\"count\":22,\"time\":16895},"
	"{\"type\":2,\"name\":\"submit\",\"count\":29,\"time\":65845},"
	"{\"type\":4,\"name\":\"cancel\",\"count\":13,\"time\":29636}],"
	"\"rpc_users\":[{\"uid\":0,\"count\":66,\"time\":66959},"
	"{\"uid\":1001,\"count\":240,\"time\":205158}]}";

static const char *user(uint32_t uid, void *arg)
{
	(void)arg;
	return uid == 1001 ? "alice" : uid == 0 ? "root" : NULL;
}

static char *render(const char *json, enum sl_sdiag_sort sort)
{
	json_object *o = json_tokener_parse(json);
	char *t;
	assert_non_null(o);
	t = sl_sdiag_text(o, sort, user, NULL);
	json_object_put(o);
	return t;
}

static void test_layout(void **state)
{
	(void)state;
	char *t = render(reply, SL_SDIAG_BY_COUNT);
	assert_string_equal(t,
		"*******************************************************\n"
		"sdiag output at Fri Nov 27 11:49:40 2026 (1795780180)\n"
		"Data since      Fri Nov 27 11:41:54 2026 (1795779714)\n"
		"*******************************************************\n"
		"Server thread count:  3\n"
		"Agent queue size:     0\n"
		"Agent count:          0\n"
		"Agent thread count:   0\n"
		"DBD Agent queue size: 0\n"
		"\n"
		"Jobs submitted: 34\n"
		"Jobs started:   27\n"
		"Jobs completed: 21\n"
		"Jobs canceled:  11\n"
		"Jobs failed:    0\n"
		"\n"
		"Job states ts:  Fri Nov 27 11:49:40 2026 (1795780180)\n"
		"Jobs pending:   1\n"
		"Jobs running:   2\n"
		"\n"
		"Main schedule statistics (microseconds):\n"
		"\tLast cycle:   31\n"
		"\tMax cycle:    15294\n"
		"\tTotal cycles: 46\n"
		"\tMean cycle:   930\n"
		"\tMean depth cycle:  0\n"
		"\tCycles per minute: 6\n"
		"\tLast queue length: 0\n"
		"\n"
		"Backfilling stats\n"
		"\tTotal backfilled jobs (since last slurm start): 2\n"
		"\tTotal backfilled jobs (since last stats cycle start): 2\n"
		"\tTotal backfilled heterogeneous job components: 0\n"
		"\tTotal cycles: 2\n"
		"\tLast cycle when: Fri Nov 27 11:45:24 2026 (1795779924)\n"
		"\tLast cycle: 833\n"
		"\tMax cycle:  1396\n"
		"\tMean cycle: 1114\n"
		"\tLast depth cycle: 1\n"
		"\tLast depth cycle (try sched): 1\n"
		"\tDepth Mean: 1\n"
		"\tDepth Mean (try depth): 1\n"
		"\tLast queue length: 1\n"
		"\tQueue length mean: 1\n"
		"\tLast table size: 1\n"
		"\tMean table size: 1\n"
		"\n"
		"Latency for 1000 calls to gettimeofday(): 25 microseconds\n"
		"\n"
		"Remote Procedure Call statistics by message type\n"
		"\tREQUEST_SUBMIT                          (    2) count:29     ave_time:2270   "
		"total_time:65845\n"
		"\tREQUEST_JOBS                            (    3) count:22     ave_time:767    "
		"total_time:16895\n"
		"\tREQUEST_CANCEL                          (    4) count:13     ave_time:2279   "
		"total_time:29636\n"
		"\n"
		"Remote Procedure Call statistics by user\n"
		"\talice           (    1001) count:240    ave_time:854    total_time:205158\n"
		"\troot            (       0) count:66     ave_time:1014   total_time:66959\n"
		"\n"
		"Pending RPC statistics\n"
		"\tNo pending RPCs\n");
	free(t);
}

/* The first table's names in the order a sort gives */
static void order(enum sl_sdiag_sort sort, const char *a, const char *b, const char *c)
{
	char *t = render(reply, sort);
	const char *pa = strstr(t, a), *pb = strstr(t, b), *pc = strstr(t, c);
	assert_non_null(pa);
	assert_non_null(pb);
	assert_non_null(pc);
	assert_true(pa < pb && pb < pc);
	free(t);
}

static void test_sorts(void **state)
{
	(void)state;
	order(SL_SDIAG_BY_ID, "REQUEST_SUBMIT", "REQUEST_JOBS", "REQUEST_CANCEL");
	order(SL_SDIAG_BY_TIME, "REQUEST_SUBMIT", "REQUEST_CANCEL", "REQUEST_JOBS");
	order(SL_SDIAG_BY_AVE, "REQUEST_CANCEL", "REQUEST_SUBMIT", "REQUEST_JOBS");
	/* users: by id puts root first */
	order(SL_SDIAG_BY_ID, "\troot ", "\talice ", "Pending RPC");
}

/* Nothing run yet: no means, no per-minute rate, no backfill time. */
static void test_fresh(void **state)
{
	(void)state;
	char *t = render("{\"now\":100,\"since\":90,\"jobs\":{},\"sched\":{},\"backfill\":{},"
			 "\"rpc_types\":[],\"rpc_users\":[{\"uid\":4242,\"count\":1,\"time\":7}]}",
			 SL_SDIAG_BY_COUNT);
	assert_null(strstr(t, "Mean cycle"));
	assert_null(strstr(t, "Cycles per minute"));
	assert_null(strstr(t, "Depth Mean"));
	assert_non_null(strstr(t, "\tTotal cycles: 0\n\tLast cycle when: N/A\n"));
	assert_non_null(strstr(t, "\t4242            (    4242) count:1      ave_time:7      "
				  "total_time:7\n"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_sorts),
		cmocka_unit_test(test_fresh),
	};
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
