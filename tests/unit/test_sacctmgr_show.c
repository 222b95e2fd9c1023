/* test_sacctmgr_show.c - the read-only sacctmgr's words and listings.
 * Headers, widths and cells follow Slurm 22.05's sacctmgr field table
 * (src/sacctmgr/common.c) and print_fields (src/common/print_fields.c):
 * right-justified by default, a '-' width left-justifies, a longer string
 * is cut with '+', -p ends every cell with '|', -P all but the last. The
 * data: alice may charge physics (default) and general; "*" may charge
 * general and shared; bob, a "*" user, has a job; physics is under
 * science (an Account object with limits); QOS normal and high. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sacctmgr_show.h"
#include "xalloc.h"

#define NONE4 {SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE}
#define NO_LIMITS {SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, \
		   NONE4, NONE4, NONE4, NONE4}

static char *alice_accts[] = {"physics", "general", NULL};
static char *star_accts[] = {"general", "shared", NULL};
static char *ops[] = {"bob", NULL};
static struct sl_assoc_user users[] = {{"alice", alice_accts}, {"*", star_accts}};
static struct sl_share_row rows[] = {
	{"physics", NULL, 2, 0, 0, 0, 0}, {"physics", "alice", 1, 0, 0, 0, 0},
	{"general", NULL, 1, 0, 0, 0, 0}, {"general", "alice", 1, 0, 0, 0, 0},
	{"shared", NULL, 0, 0, 0, 0, 0},  {"general", "bob", 1, 0, 0, 0, 0},
};
static struct sl_assoc_obj accounts[] = {
	{"physics", "science", 0,
	 {10, SL_LIM_NONE, 50, SL_LIM_NONE, SL_LIM_NONE, NONE4, NONE4, NONE4, NONE4}},
	{"science", NULL, 0,
	 {SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, 1440, NONE4,
	  {SL_LIM_NONE, 16384, 2, SL_LIM_NONE}, NONE4, {256, SL_LIM_NONE, SL_LIM_NONE, 8}}},
};
static struct sl_assoc_obj qos[] = {
	{"normal", NULL, 0, NO_LIMITS},
	{"high", NULL, 100,
	 {4, 10, SL_LIM_NONE, SL_LIM_NONE, 2880, {16, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE},
	  NONE4, NONE4, NONE4}},
};
static struct sl_assoc_info info = {rows, 6, "sluice", "normal", "ctl", -1, ops, users,
				    accounts, qos, 2, 2, 2};

static int nobody(const char *name)
{
	(void)name;
	return 0;
}

/* Run "sacctmgr [flags] words..." on info: the output, or "rc: error". */
static char *run(const char *flags, const char *line)
{
	struct sl_sacctmgr_opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_sacctmgr_cmd *c = NULL;
	struct sl_buf *b = sl_buf_new(1u << 20);
	char *copy = sl_xstrdup(line), *w[32], *save = NULL, *s;
	size_t n = 0;
	int r;

	o.noheader = strchr(flags, 'n') != NULL;
	o.parsable = strchr(flags, 'P') ? 2 : strchr(flags, 'p') ? 1 : 0;
	o.with_assoc = strchr(flags, 's') != NULL;
	o.user_exists = strchr(flags, 'x') ? nobody : NULL;
	for (char *t = strtok_r(copy, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	r = sl_sacctmgr_parse(w, n, &o, &c, &err);
	if (r == 0 && sl_sacctmgr_cmd_act(c) == SL_SM_LIST)
		r = sl_sacctmgr_print(c, &o, &info, b, &err);
	s = r ? sl_xasprintf("%d: %s", r, err.msg) : sl_xstrdup(sl_buf_str(b));
	sl_sacctmgr_cmd_free(c);
	sl_buf_free(b);
	free(copy);
	return s;
}

#define CHECK(flags, line, want)                 \
	do {                                     \
		char *got_ = run(flags, line);   \
		assert_string_equal(got_, want); \
		free(got_);                      \
	} while (0)

/* Snakemake's check: one account a line, right-justified in 256 columns. */
static void test_snakemake(void **state)
{
	char want[2 * 258 + 1];
	(void)state;
	/* by account name, as slurmdbd lists them (the default is not first) */
	snprintf(want, sizeof(want), "%256s \n%256s \n", "general", "physics");
	CHECK("ns", "list user alice format=account%256", want);
	/* a "*" user named before any job, the name lowercased as Slurm's */
	snprintf(want, sizeof(want), "%256s \n%256s \n", "general", "shared");
	CHECK("ns", "list user Carol format=account%256", want);
	/* ... but only one the system knows */
	CHECK("nsx", "list user carol format=account%256", "");
}

static void test_list_user(void **state)
{
	(void)state;
	CHECK("", "list user",
	      "      User   Def Acct     Admin \n"
	      "---------- ---------- --------- \n"
	      "     alice    physics      None \n"
	      "       bob    general  Operator \n");
	CHECK("P", "show users where name=bob", "User|Def Acct|Admin\nbob|general|Operator\n");
	CHECK("p", "lis u root", "User|Def Acct|Admin|\nroot|general|Administrator|\n");
	CHECK("s", "list user alice",
	      "      User   Def Acct     Admin    Cluster    Account  Partition     Share   Priority Ma"
	      "xJobs MaxNodes  MaxCPUs MaxSubmit     MaxWall  MaxCPUMins                  QOS   Def QOS"
	      " \n"
	      "---------- ---------- --------- ---------- ---------- ---------- --------- ---------- --"
	      "----- -------- -------- --------- ----------- ----------- -------------------- ---------"
	      " \n"
	      "     alice    physics      None     sluice    general                    1              "
	      "                                                                   high,normal          "
	      " \n"
	      "     alice    physics      None     sluice    physics                    1              "
	      "   10        2                     1-00:00:00                      high,normal          "
	      " \n"
);
	/* conditions of the associations filter the lines, not the users */
	CHECK("Pn", "list user withassoc where account=shared format=user,account",
	      "alice|\nbob|shared\n");
	CHECK("Pn", "list user defaultaccount=general admin=o", "bob|general|Operator\n");
}

static void test_list_assoc(void **state)
{
	(void)state;
	CHECK("P", "list assoc format=account,user,parentname,share,grpjobs,grptres,maxjobs,maxwall,"
		   "maxtres",
	      "Account|User|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxWall|MaxTRES\n"
	      "root|||1|||||\n"
	      "general||root|1|||||\n"
	      "general|alice||1|||||\n"
	      "general|bob||1|||||\n"
	      "science||root|1||cpu=256,gres/gpu=8||1-00:00:00|mem=16G,node=2\n"
	      "physics||science|2|50||10|1-00:00:00|mem=16G,node=2\n"
	      "physics|alice||1|||10|1-00:00:00|mem=16G,node=2\n"
	      "shared||root|0|||||\n"
	      "shared|bob||1|||||\n");
	/* an association whose parent is not listed stands at the top: users first */
	CHECK("Pn", "list assoc users=bob,alice format=acc,user", "general|alice\nphysics|alice\n"
							  "general|bob\nshared|bob\n");
	CHECK("Pn", "list assoc onlydefaults format=acc,user", "physics|alice\ngeneral|bob\n");
	CHECK("Pn", "list assoc account=science withsubaccounts format=acc,user,parentn wopinfo",
	      "science||\nphysics||\nphysics|alice|\n");
	CHECK("Pn", "list assoc partition=gpu", "");
	CHECK("n", "list assoc format=cluster%-8,account%5,user%3 account=physics",
	      "sluice   phys+     \n"
	      "sluice   phys+ al+ \n");
}

static void test_list_account_qos_cluster(void **state)
{
	(void)state;
	CHECK("", "list account names=science,root",
	      "   Account                Descr                  Org \n"
	      "---------- -------------------- -------------------- \n"
	      "      root default root account                 root \n"
	      "   science              science              science \n");
	CHECK("Pn", "list acct format=acc,desc,org", "general|general|general\n"
						     "physics|physics|science\n"
						     "root|default root account|root\n"
						     "science|science|science\n"
						     "shared|shared|shared\n");
	CHECK("Pns", "list account physics user=alice format=acc,user,maxjobs,grpjobs",
	      "physics|alice|10|\n");
	CHECK("", "list qos",
	      "      Name   Priority  GraceTime    Preempt   PreemptExemptTime PreemptMode             "
	      "                       Flags UsageThres UsageFactor       GrpTRES   GrpTRESMins GrpTRESR"
	      "unMin GrpJobs GrpSubmit     GrpWall       MaxTRES MaxTRESPerNode   MaxTRESMins     MaxWa"
	      "ll     MaxTRESPU MaxJobsPU MaxSubmitPU     MaxTRESPA MaxJobsPA MaxSubmitPA       MinTRES"
	      " \n"
	      "---------- ---------- ---------- ---------- ------------------- ----------- ------------"
	      "---------------------------- ---------- ----------- ------------- ------------- --------"
	      "----- ------- --------- ----------- ------------- -------------- ------------- ---------"
	      "-- ------------- --------- ----------- ------------- --------- ----------- -------------"
	      " \n"
	      "    normal          0   00:00:00                                    cluster             "
	      "                                           1.000000                                     "
	      "                                                                                        "
	      "                                                                                        "
	      " \n"
	      "      high        100   00:00:00                                    cluster             "
	      "                                           1.000000                                     "
	      "                                                                                2-00:00:"
	      "00        cpu=16         4          10                                                  "
	      " \n"
);
	CHECK("P", "list qos high format=name,descr,maxtrespu,maxsubmitjobsperuser,maxjobsperacct",
	      "Name|Descr|MaxTRESPU|MaxSubmitPU|MaxJobsPA\nhigh|high|cpu=16|10|\n");
	CHECK("P", "list qos format=na,des", "Name|Descr\nnormal|Normal QOS default\nhigh|high\n");
	CHECK("P", "list qos format=n", "-3: Unknown field 'n'");
	CHECK("n", "list cluster",
	      "    sluice             ctl               9728         1                                 "
	      "                                                     high,normal           \n"
);
	CHECK("Pn", "list cluster other", "");
}

static void test_formats(void **state)
{
	(void)state;
	/* a name given twice takes its last place; several format= add up */
	CHECK("Pn", "list user bob format=user,account format=user", "|bob\n");
	CHECK("Pn", "list user bob format=user,account format=u", "bob||bob\n");
	CHECK("P", "list user bob format=defaulta%3,admin%-3", "Def Acct|Admin\ngeneral|Operator\n");
	CHECK("n", "list user bob format=defaulta%3,admin%-3,share%1", "ge+ Op+   \n");
	/* prefixes resolve in Slurm's table order */
	CHECK("Pn", "list qos high format=preempte,preemptm,preempt,gracet,usagef",
	      "|cluster||00:00:00|1.000000\n");
	CHECK("", "list user format=pree", "-3: Unknown field 'pree'");
	CHECK("", "list user format=Bogus%3", "-3: Unknown field 'bogus'");
	CHECK("", "list assoc format=id", "-13: ID is not supported by Sluice");
	CHECK("Pn", "list user user= format=user", "");
}

static void test_refusals(void **state)
{
	(void)state;
	CHECK("", "add user bob account=general", "-13: add is not supported by Sluice");
	CHECK("", "mod user bob set maxjobs=1", "-13: modify is not supported by Sluice");
	CHECK("", "delete account x", "-13: delete is not supported by Sluice");
	CHECK("", "dump sluice", "-13: dump is not supported by Sluice");
	CHECK("", "list runaway", "-13: list runawayjobs is not supported by Sluice");
	CHECK("", "show tres", "-13: list tres is not supported by Sluice");
	CHECK("", "list assoc tree", "-13: Tree is not supported by Sluice");
	CHECK("", "list assoc 12", "-13: association ids are not supported by Sluice");
	CHECK("", "list user wckeys=x", "-13: WCKeys= is not supported by Sluice");
	CHECK("", "", "-13: interactive mode is not supported by Sluice");
	CHECK("", "sh user", "-3: invalid keyword: sh");
	CHECK("", "list a", "-3: No valid entity in list command\n"
			     "Input line must include \"Account\", \"Association\", \"Cluster\", "
			     "\"Configuration\",\n\"Event\", \"Federation\", \"Problem\", \"QOS\", "
			     "\"Resource\", \"Reservation\",\n\"RunAwayJobs\", \"Stats\", "
			     "\"Transaction\", \"TRES\", \"User\", or \"WCKey\"");
	CHECK("", "list user color=blue",
	      "-3:  Unknown condition: color=blue\n Use keyword 'set' to modify value");
	CHECK("", "list assoc color=blue", "-3:  Unknown condition: color=blue");
	CHECK("", "list qos color=blue",
	      "-3:  Unknown condition: color=blue\n Use keyword 'set' to modify SLURM_PRINT_VALUE");
	CHECK("", "version now", "-3: too many arguments for version keyword");
	CHECK("", "help me", "-3: too many arguments for keyword:help");
	CHECK("", "quiet", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snakemake),
		cmocka_unit_test(test_list_user),
		cmocka_unit_test(test_list_assoc),
		cmocka_unit_test(test_list_account_qos_cluster),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
