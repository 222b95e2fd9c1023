/* test_pmi2.c - the PMI wire srun serves under --mpi=pmi2 (compat/pmi2.c),
 * fed the bytes MPICH's simple PMI and Slurm's libpmi2 write, answered
 * with the bytes Slurm 22.05's mpi/pmi2 plugin writes back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmi2.h"

/* Feed rank's bytes; 0 or the error. */
static int feed(struct sl_pmi2 *p, int rank, const char *s)
{
	struct sl_err err = SL_ERR_INIT;
	return sl_pmi2_input(p, rank, s, strlen(s), &err);
}

/* A PMI-2 command framed as libpmi2 sends it. */
static int feed2(struct sl_pmi2 *p, int rank, const char *s)
{
	char buf[2048];
	snprintf(buf, sizeof(buf), "%-6d%s", (int)strlen(s), s);
	return feed(p, rank, buf);
}

/* Everything due to rank, taken. */
static char *take(struct sl_pmi2 *p, int rank)
{
	static char buf[4096];
	size_t n;
	const char *o = sl_pmi2_output(p, rank, &n);
	assert_true(n < sizeof(buf));
	memcpy(buf, o, n);
	buf[n] = '\0';
	sl_pmi2_consumed(p, rank, n);
	return buf;
}

static void test_pmi1(void **state)
{
	(void)state;
	struct sl_pmi2 *p = sl_pmi2_new(2, "12.0", "(vector,(0,1,2))");
	int rank;
	for (int r = 0; r < 2; r++) {
		assert_int_equal(feed(p, r, "cmd=init pmi_version=1 pmi_subversion=1\n"), 0);
		assert_string_equal(take(p, r),
				    "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n");
	}
	/* two requests in one read, the second split across reads */
	assert_int_equal(feed(p, 0, "cmd=get_maxes\ncmd=get_my_"), 0);
	assert_string_equal(take(p, 0),
			    "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024\n");
	assert_int_equal(feed(p, 0, "kvsname\n"), 0);
	assert_string_equal(take(p, 0), "cmd=my_kvsname rc=0 kvsname=12.0\n");
	feed(p, 0, "cmd=get_universe_size\n");
	assert_string_equal(take(p, 0), "cmd=universe_size rc=0 size=2\n");
	feed(p, 0, "cmd=get_appnum\n");
	assert_string_equal(take(p, 0), "cmd=appnum rc=0 appnum=-1\n");
	feed(p, 0, "cmd=put kvsname=12.0 key=bc-0 value=addr0\n");
	assert_string_equal(take(p, 0), "cmd=put_result rc=0\n");
	/* a value's second word is passed over; a put without a key fails */
	feed(p, 0, "cmd=put kvsname=12.0 key=bc-x value=two words\n");
	assert_string_equal(take(p, 0), "cmd=put_result rc=0\n");
	feed(p, 0, "cmd=put kvsname=12.0 value=v\n");
	assert_string_equal(take(p, 0), "cmd=put_result rc=1\n");
	/* a put is not readable before the barrier */
	feed(p, 1, "cmd=get kvsname=12.0 key=bc-0\n");
	assert_string_equal(take(p, 1), "cmd=get_result rc=1\n");
	feed(p, 0, "cmd=barrier_in\n");
	assert_string_equal(take(p, 0), "");
	feed(p, 1, "cmd=barrier_in\n");
	assert_string_equal(take(p, 0), "cmd=barrier_out rc=0\n");
	assert_string_equal(take(p, 1), "cmd=barrier_out rc=0\n");
	feed(p, 1, "cmd=get kvsname=12.0 key=bc-0\n");
	assert_string_equal(take(p, 1), "cmd=get_result rc=0 value=addr0\n");
	feed(p, 1, "cmd=get kvsname=12.0 key=bc-x\n");
	assert_string_equal(take(p, 1), "cmd=get_result rc=0 value=two\n");
	feed(p, 1, "cmd=get kvsname=12.0 key=PMI_process_mapping\n");
	assert_string_equal(take(p, 1), "cmd=get_result rc=0 value=(vector,(0,1,2))\n");
	feed(p, 1, "cmd=publish_name service=svc port=tcp://x:1\n");
	assert_string_equal(take(p, 1), "cmd=publish_result info=ok\n");
	feed(p, 0, "cmd=lookup_name service=svc\n");
	assert_string_equal(take(p, 0), "cmd=lookup_result info=ok port=tcp://x:1\n");
	feed(p, 0, "cmd=lookup_name service=nope\n");
	assert_string_equal(take(p, 0), "cmd=lookup_result info=fail\n");
	/* as srun's list: published again, the new port; unpublished, ok either way */
	feed(p, 0, "cmd=publish_name service=svc port=tcp://y:2\n");
	assert_string_equal(take(p, 0), "cmd=publish_result info=ok\n");
	feed(p, 1, "cmd=lookup_name service=svc\n");
	assert_string_equal(take(p, 1), "cmd=lookup_result info=ok port=tcp://y:2\n");
	for (int i = 0; i < 2; i++) {
		feed(p, 1, "cmd=unpublish_name service=svc\n");
		assert_string_equal(take(p, 1), "cmd=unpublish_result info=ok\n");
	}
	feed(p, 1, "cmd=lookup_name service=svc\n");
	assert_string_equal(take(p, 1), "cmd=lookup_result info=fail\n");
	feed(p, 0, "mcmd=spawn\nnprocs=1\nexecname=a.out\nendcmd\n");
	assert_string_equal(take(p, 0), "cmd=spawn_result rc=-1\n");
	assert_false(sl_pmi2_finalized(p, 0));
	feed(p, 0, "cmd=finalize\n");
	assert_string_equal(take(p, 0), "cmd=finalize_ack rc=0\n");
	assert_true(sl_pmi2_finalized(p, 0));
	assert_false(sl_pmi2_aborted(p, &rank));
	feed(p, 1, "cmd=abort exitcode=7\n");
	assert_string_equal(take(p, 1), "");
	assert_true(sl_pmi2_aborted(p, &rank));
	assert_int_equal(rank, 1);
	sl_pmi2_free(p);
}

static void test_pmi2(void **state)
{
	(void)state;
	struct sl_pmi2 *p = sl_pmi2_new(3, "40.2", "(vector,(0,1,3))");
	int rank;
	for (int r = 0; r < 3; r++) {
		char req[128], want[256];
		feed(p, r, "cmd=init pmi_version=2 pmi_subversion=0\n");
		assert_string_equal(take(p, r),
				    "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n");
		snprintf(req, sizeof(req), "cmd=fullinit;pmijobid=40.2;pmirank=%d;threaded=FALSE;", r);
		feed2(p, r, req);
		snprintf(want, sizeof(want),
			 "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=%d;size=3;"
			 "appnum=-1;debugged=FALSE;pmiverbose=FALSE;", r);
		assert_string_equal(take(p, r) + 6, want);
	}
	feed2(p, 0, "cmd=job-getid;");
	assert_string_equal(take(p, 0), "39    cmd=job-getid-response;rc=0;jobid=40.2;");
	feed2(p, 1, "cmd=info-getjobattr;key=PMI_process_mapping;");
	assert_string_equal(take(p, 1), "68    cmd=info-getjobattr-response;rc=0;found=TRUE;"
					"value=(vector,(0,1,3));");
	feed2(p, 1, "cmd=info-getjobattr;key=universeSize;");
	assert_string_equal(take(p, 1) + 6, "cmd=info-getjobattr-response;rc=0;found=TRUE;value=3;");
	feed2(p, 1, "cmd=info-getjobattr;key=nope;");
	assert_string_equal(take(p, 1) + 6, "cmd=info-getjobattr-response;rc=0;found=FALSE;");
	/* a waiting getnodeattr is answered by the put */
	feed2(p, 2, "cmd=info-getnodeattr;key=shm;wait=TRUE;");
	assert_string_equal(take(p, 2), "");
	feed2(p, 0, "cmd=info-putnodeattr;key=shm;value=seg0;");
	assert_string_equal(take(p, 0) + 6, "cmd=info-putnodeattr-response;rc=0;");
	assert_string_equal(take(p, 2) + 6,
			    "cmd=info-getnodeattr-response;rc=0;found=TRUE;value=seg0;");
	feed2(p, 1, "cmd=info-getnodeattr;key=other;wait=FALSE;");
	assert_string_equal(take(p, 1) + 6, "cmd=info-getnodeattr-response;rc=0;found=FALSE;");
	feed2(p, 0, "cmd=kvs-put;key=P0-businesscard;value=port#1$;");
	assert_string_equal(take(p, 0), "26    cmd=kvs-put-response;rc=0;");
	for (int r = 0; r < 3; r++) {
		feed2(p, r, "cmd=kvs-fence;");
		assert_string_equal(take(p, r), r < 2 ? "" : "28    cmd=kvs-fence-response;rc=0;");
	}
	assert_string_equal(take(p, 0), "28    cmd=kvs-fence-response;rc=0;");
	feed2(p, 2, "cmd=kvs-get;jobid=40.2;srcid=-1;key=P0-businesscard;");
	assert_string_equal(take(p, 2) + 6,
			    "cmd=kvs-get-response;rc=0;found=TRUE;value=port#1$;");
	feed2(p, 2, "cmd=kvs-get;jobid=40.2;srcid=-1;key=P9-businesscard;");
	assert_string_equal(take(p, 2) + 6, "cmd=kvs-get-response;rc=0;found=FALSE;");
	feed2(p, 2, "cmd=name-lookup;name=svc;");
	assert_string_equal(take(p, 2) + 6, "cmd=name-lookup-response;rc=1;");
	feed2(p, 2, "cmd=spawn;ncmds=1;subcmd=a.out;maxprocs=1;argc=0;");
	assert_string_equal(take(p, 2) + 6, "cmd=spawn-response;rc=14;errmsg=spawn failed;");
	/* an unknown command goes unanswered, as in Slurm */
	assert_int_equal(feed2(p, 2, "cmd=no-such;"), 0);
	assert_string_equal(take(p, 2), "");
	/* abort without isworld ends nothing */
	feed2(p, 1, "cmd=abort;isworld=FALSE;msg=x;");
	assert_false(sl_pmi2_aborted(p, &rank));
	feed2(p, 2, "cmd=finalize;");
	assert_string_equal(take(p, 2), "27    cmd=finalize-response;rc=0;");
	assert_true(sl_pmi2_finalized(p, 2));
	feed2(p, 1, "cmd=abort;isworld=TRUE;msg=rank 1 gave up;");
	assert_true(sl_pmi2_aborted(p, &rank));
	assert_int_equal(rank, 1);
	sl_pmi2_free(p);
}

/* Slurm's init answers, and the streams it cannot serve. */
static void test_versions(void **state)
{
	(void)state;
	struct sl_pmi2 *p = sl_pmi2_new(3, "5.0", "(vector,(0,1,3))");
	struct sl_err err = SL_ERR_INIT;
	feed(p, 0, "cmd=init pmi_version=2 pmi_subversion=0\n");
	take(p, 0);
	/* the step is PMI-2: a PMI-1 rank is told so */
	feed(p, 1, "cmd=init pmi_version=1 pmi_subversion=1\n");
	assert_string_equal(take(p, 1),
			    "cmd=response_to_init rc=-1 pmi_version=2 pmi_subversion=0\n");
	/* a second init from a PMI-2 rank: its line has no length */
	feed(p, 0, "cmd=init pmi_version=2 pmi_subversion=0\n");
	assert_string_equal(take(p, 0), "27    cmd=finalize-response;rc=0;");
	assert_true(sl_pmi2_finalized(p, 0));
	assert_int_equal(sl_pmi2_input(p, 2, "hello\n", 6, &err), 0);
	assert_string_equal(take(p, 2),
			    "cmd=response_to_init rc=1 pmi_version=2 pmi_subversion=0\n");
	/* a request without cmd= cannot be served: the rank is dropped */
	assert_int_equal(feed2(p, 2, "key=v;"), -SL_EPROTO);
	assert_int_equal(feed(p, 2, "999999"), -SL_ETOOBIG);
	sl_pmi2_free(p);

	p = sl_pmi2_new(1, "5.1", "(vector,(0,1,1))");
	assert_int_equal(sl_pmi2_input(p, 0, "cmd=init pmi_version=3 pmi_subversion=0\n", 41, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "mpi/pmi2: unsupported PMI version: 3.0");
	sl_pmi2_free(p);

	p = sl_pmi2_new(1, "5.2", "(vector,(0,1,1))");
	char line[1100];
	memset(line, 'x', sizeof(line));
	feed(p, 0, "cmd=init pmi_version=1 pmi_subversion=1\n");
	assert_int_equal(sl_pmi2_input(p, 0, line, sizeof(line), &err), -SL_ETOOBIG);
	sl_pmi2_free(p);
	sl_pmi2_free(NULL);
}

/* Many ranks and keys: each rank reads every rank's 40 keys after one
 * fence, the store growing past its first sizes; names published and
 * unpublished in between stay found. */
static void test_many(void **state)
{
	(void)state;
	enum { N = 64, K = 40 };
	struct sl_pmi2 *p = sl_pmi2_new(N, "9.0", "(vector,(0,1,64))");
	char req[128], want[128];
	for (int r = 0; r < N; r++) {
		feed(p, r, "cmd=init pmi_version=2 pmi_subversion=0\n");
		for (int k = 0; k < K; k++) {
			snprintf(req, sizeof(req), "cmd=kvs-put;key=r%d-k%d;value=%d;", r, k, r * K + k);
			assert_int_equal(feed2(p, r, req), 0);
		}
		take(p, r);
		feed2(p, r, "cmd=kvs-fence;");
	}
	for (int r = 0; r < N; r++)
		assert_string_equal(take(p, r), "28    cmd=kvs-fence-response;rc=0;");
	for (int i = 0; i < 10; i++) {
		snprintf(req, sizeof(req), "cmd=name-publish;name=s%d;port=p%d;", i, i);
		feed2(p, 0, req);
	}
	feed2(p, 0, "cmd=name-unpublish;name=s3;");
	take(p, 0);
	for (int r = 0; r < N; r += 7)
		for (int k = 0; k < K; k += 3) {
			int o = (r * 5 + k) % N;
			snprintf(req, sizeof(req), "cmd=kvs-get;jobid=9.0;srcid=-1;key=r%d-k%d;", o, k);
			feed2(p, r, req);
			snprintf(want, sizeof(want), "cmd=kvs-get-response;rc=0;found=TRUE;value=%d;",
				 o * K + k);
			assert_string_equal(take(p, r) + 6, want);
		}
	for (int i = 0; i < 10; i++) {
		snprintf(req, sizeof(req), "cmd=name-lookup;name=s%d;", i);
		feed2(p, 1, req);
		snprintf(want, sizeof(want), "cmd=name-lookup-response;rc=0;value=p%d;", i);
		assert_string_equal(take(p, 1) + 6, i == 3 ? "cmd=name-lookup-response;rc=1;" : want);
	}
	sl_pmi2_free(p);
}

static void map_is(int nnodes, int ntasks, const int *node, int cyclic, const char *want)
{
	char *m = sl_pmi2_proc_map(nnodes, ntasks, node, cyclic);
	assert_string_equal(m, want);
	free(m);
}

/* Slurm's pmi2 mapping for srun's layouts; the 3+1 ones are what the
 * reference Slurm 22.05 gave -N 2 -n 4 (block) and -m cyclic. */
static void test_proc_map(void **state)
{
	(void)state;
	int one[] = {0, 0, 0}, block[] = {0, 0, 1, 1}, cyclic[] = {0, 1, 0, 1},
	    uneven[] = {0, 0, 0, 1, 1}, ref_block[] = {0, 0, 0, 1}, ref_cyclic[] = {0, 1, 0, 0},
	    three[] = {0, 1, 2, 0, 1};
	map_is(1, 3, one, 0, "(vector,(0,1,3))");
	map_is(1, 3, one, 1, "(vector,(0,1,1),(0,1,1),(0,1,1))");
	map_is(2, 4, block, 0, "(vector,(0,2,2))");
	map_is(2, 4, cyclic, 1, "(vector,(0,2,1),(0,2,1))");
	map_is(2, 5, uneven, 0, "(vector,(0,1,3),(1,1,2))");
	map_is(2, 4, ref_block, 0, "(vector,(0,1,3),(1,1,1))");
	map_is(2, 4, ref_cyclic, 1, "(vector,(0,2,1),(0,1,1),(0,1,1))");
	map_is(3, 5, three, 1, "(vector,(0,3,1),(0,2,1))");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmi1),
		cmocka_unit_test(test_pmi2),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_proc_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
