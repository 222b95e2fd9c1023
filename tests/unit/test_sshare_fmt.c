/* test_sshare_fmt.c - sshare's tree and columns. With no usage the output
 * is Slurm 22.05's byte for byte (captured on the reference cluster, whose
 * associations are physics/bob and research/alice, research/bob: `sshare`,
 * `sshare -a`, `-P`, `-A physics -a`, `-o Account,User,RawShares,FairShare`
 * ; its root/root association left out); with usage, the numbers follow
 * the formulas sshare_fmt.h states. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sshare_fmt.h"
#include "xalloc.h"

static struct sl_share_row rows[] = {
	{"research", NULL, 1, 0, 0, 0, 0}, {"research", "bob", 1, 0, 0, 0, 0},
	{"physics", NULL, 1, 0, 0, 0, 0},  {"physics", "bob", 1, 0, 0, 0, 0},
	{"research", "alice", 1, 0, 0, 0, 0},
};

static char *users_alice[] = {"alice", NULL};
static char *acct_physics[] = {"physics", NULL};

static char *run(const struct sl_sshare_opts *o, size_t n, int *rc)
{
	struct sl_buf *b = sl_buf_new(1u << 20);
	struct sl_err err = SL_ERR_INIT;
	char *s;
	*rc = sl_sshare_print(rows, n, o, b, &err);
	s = *rc ? sl_xstrdup(err.msg) : sl_xstrdup(sl_buf_str(b));
	sl_buf_free(b);
	return s;
}

#define HDR "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n" \
	    "-------------------- ---------- ---------- ----------- ----------- ------------- ---------- \n"

static void test_default_and_all(void **state)
{
	struct sl_sshare_opts o = {.users = users_alice};
	int rc;
	char *s = run(&o, 5, &rc);
	(void)state;
	assert_string_equal(s, HDR
		"root                                          0.000000           0      1.000000            \n"
		" physics                                 1    0.500000           0      0.000000            \n"
		" research                                1    0.500000           0      0.000000            \n"
		"  research                alice          1    0.500000           0      0.000000   1.000000 \n");
	free(s);
	o.all = 1, o.parsable = 2;
	s = run(&o, 5, &rc);
	assert_string_equal(s, "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n"
			       "root|||0.000000|0|1.000000|\n"
			       " physics||1|0.500000|0|0.000000|\n"
			       "  physics|bob|1|1.000000|0|0.000000|1.000000\n"
			       " research||1|0.500000|0|0.000000|\n"
			       "  research|alice|1|0.500000|0|0.000000|1.000000\n"
			       "  research|bob|1|0.500000|0|0.000000|1.000000\n");
	free(s);
}

static void test_accounts_format_errors(void **state)
{
	struct sl_sshare_opts o = {.all = 1, .accounts = acct_physics};
	int rc;
	char *s = run(&o, 5, &rc);
	(void)state;
	assert_string_equal(s, HDR
		"physics                                  1    0.500000           0      0.000000            \n"
		" physics                    bob          1    1.000000           0      0.000000   1.000000 \n");
	free(s);
	o = (struct sl_sshare_opts){.users = users_alice, .noheader = 1,
				    .format = "Account,User,RawShares,FairShare"};
	s = run(&o, 5, &rc);
	assert_string_equal(s, "root                                                  \n"
			       " physics                                 1            \n"
			       " research                                1            \n"
			       "  research                alice          1   1.000000 \n");
	free(s);
	o.format = "acc,bogus";
	s = run(&o, 5, &rc);
	assert_int_equal(rc, -SL_EINVAL);
	assert_string_equal(s, "Invalid field requested: \"bogus\"");
	free(s);
	o.format = "GrpTRESRaw";
	s = run(&o, 5, &rc);
	assert_int_equal(rc, -SL_EUNSUPP);
	assert_string_equal(s, "GrpTRESRaw is not supported by Sluice");
	free(s);
}

/* -l without usage: the lines of Slurm's `sshare -l` (its accounts had a
 * third of the shares, here a half). */
static void test_long_no_usage(void **state)
{
	struct sl_sshare_opts o = {.users = users_alice, .long_list = 1, .accounts = acct_physics};
	int rc;
	char *s = run(&o, 5, &rc);
	(void)state;
	assert_string_equal(s,
		"Account                    User  RawShares  NormShares    RawUsage   NormUsage  "
		"EffectvUsage  FairShare    LevelFS                    GrpTRESMins                    "
		"TRESRunMins \n"
		"-------------------- ---------- ---------- ----------- ----------- ----------- "
		"------------- ---------- ---------- ------------------------------ "
		"------------------------------ \n"
		"physics                                  1    0.500000           0    0.000000      "
		"0.000000                   inf                                cpu=0,mem=0,energy=0,"
		"node=0,b+ \n");
	free(s);
}

/* Usage: alice 300 CPU-s, bob 100 in research; physics/bob none. */
static void test_usage(void **state)
{
	struct sl_share_row u[] = {
		{"research", NULL, 2, 0, 0, 0, 0},   {"research", "alice", 1, 300, 40, 4000, 1},
		{"research", "bob", 1, 100, 0, 0, 0}, {"physics", NULL, 2, 0, 0, 0, 0},
		{"physics", "bob", 1, 0, 0, 0, 0},
	};
	struct sl_sshare_opts o = {.all = 1, .long_list = 1, .parsable = 2};
	struct sl_buf *b = sl_buf_new(1u << 20);
	struct sl_err err = SL_ERR_INIT;
	(void)state;
	assert_int_equal(sl_sshare_print(u, 5, &o, b, &err), 0);
	/* research: 400 of 400 CPU-s on half the shares; alice's FairShare is
	 * 2^-(0.75 / (0.5 * 0.5)) = 0.125; LevelFS 0.5 / 0.75 */
	assert_string_equal(sl_buf_str(b),
		"Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|"
		"GrpTRESMins|TRESRunMins\n"
		"root|||0.000000|400||1.000000||||cpu=40,mem=4000,energy=0,node=1,billing=40,"
		"fs/disk=0,vmem=0,pages=0\n"
		" physics||2|0.500000|0|0.000000|0.000000||inf||cpu=0,mem=0,energy=0,node=0,"
		"billing=0,fs/disk=0,vmem=0,pages=0\n"
		"  physics|bob|1|1.000000|0|0.000000|0.000000|1.000000|inf||cpu=0,mem=0,energy=0,"
		"node=0,billing=0,fs/disk=0,vmem=0,pages=0\n"
		" research||2|0.500000|400|1.000000|1.000000||0.500000||cpu=40,mem=4000,energy=0,"
		"node=1,billing=40,fs/disk=0,vmem=0,pages=0\n"
		"  research|alice|1|0.500000|300|0.750000|0.750000|0.125000|0.666667||cpu=40,"
		"mem=4000,energy=0,node=1,billing=40,fs/disk=0,vmem=0,pages=0\n"
		"  research|bob|1|0.500000|100|0.250000|0.250000|0.500000|2.000000||cpu=0,mem=0,"
		"energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0\n");
	sl_buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_and_all),
		cmocka_unit_test(test_accounts_format_errors),
		cmocka_unit_test(test_long_no_usage),
		cmocka_unit_test(test_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
