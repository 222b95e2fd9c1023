/* test_slurm_conf.c - slurm.conf's reader (comments, continuations,
 * Include, quotes), its nodes and partitions (DEFAULT lines, topology,
 * Gres, NodeSets, ALL) and sacctmgr's three outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "sacctmgr.h"
#include "slurm_conf.h"
#include "xalloc.h"

#include "tmpdir_testlib.h"

static struct sl_slurm_conf *load(const char *text)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_conf *c = NULL;
	char *p = tmpdir_write("slurm.conf", text);
	if (sl_slurm_conf_load(p, &c, &err) != 0)
		fail_msg("%s", err.msg);
	free(p);
	return c;
}

static void test_lines(void **state)
{
	(void)state;
	struct sl_slurm_conf *c = load("# comment\n"
				       "ClusterName=test # trailing\n"
				       "\n"
				       "PartitionName=p Nodes=n[1-2] \\\n"
				       "   MaxTime=1:00:00\n"
				       "Comment=\"a b\\#c\"\n"
				       "clustername=again\n");
	assert_int_equal(sl_slurm_conf_nlines(c), 4);
	const struct sl_sconf_line *l = sl_slurm_conf_line(c, 1);
	assert_int_equal(l->line, 4); /* where the continued line starts */
	assert_int_equal(l->nkv, 3);
	assert_string_equal(l->kv[2].key, "MaxTime");
	assert_string_equal(sl_sconf_line_get(l, "maxtime"), "1:00:00");
	assert_string_equal(sl_slurm_conf_line(c, 2)->kv[0].value, "a b#c");
	/* the last one wins, keys in any case; entity lines are not settings */
	assert_string_equal(sl_slurm_conf_get(c, "ClusterName"), "again");
	assert_null(sl_slurm_conf_get(c, "Nodes"));
	sl_slurm_conf_free(c);
}

static void test_include(void **state)
{
	(void)state;
	free(tmpdir_write("nodes.conf", "NodeName=n1 CPUs=4\n"));
	struct sl_slurm_conf *c = load("ClusterName=x\nInclude nodes.conf\nPartitionName=p Nodes=n1\n");
	assert_int_equal(sl_slurm_conf_nlines(c), 4);
	assert_string_equal(sl_slurm_conf_line(c, 1)->kv[0].key, "Include");
	assert_string_equal(sl_slurm_conf_line(c, 2)->kv[0].value, "n1");
	assert_non_null(strstr(sl_slurm_conf_line(c, 2)->file, "nodes.conf"));
	sl_slurm_conf_free(c);
}

static void expect_load_error(const char *text, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_conf *c = NULL;
	char *p = tmpdir_write("bad.conf", text);
	assert_int_not_equal(sl_slurm_conf_load(p, &c, &err), 0);
	assert_null(c);
	if (!strstr(err.msg, msg))
		fail_msg("\"%s\" lacks \"%s\"", err.msg, msg);
	free(p);
}

static void test_load_errors(void **state)
{
	(void)state;
	expect_load_error("ClusterName=x\nJustAWord\n", "bad.conf:2: expected KEY=VALUE");
	expect_load_error("Comment=\"open\n", "unterminated quote");
	expect_load_error("Include nosuch.conf\n", "nosuch.conf");
	expect_load_error("Include bad.conf\n", "Include loop");
}

static void test_nodes(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_nodes *n = NULL;
	struct sl_slurm_conf *c = load(
		"NodeName=DEFAULT Sockets=2 CoresPerSocket=8 ThreadsPerCore=2 RealMemory=999\n"
		"NodeName=DEFAULT RealMemory=1000\n" /* adds to the one before */
		"NodeName=a[1-2] Features=x,y\n"
		"NodeName=g1 CPUs=8 Gres=gpu:a100:4,gpu:2,mps:1K(S:0,1)\n"
		"NodeSet=xs Feature=x\n"
		"PartitionName=DEFAULT MaxTime=10\n"
		"PartitionName=all Nodes=ALL Default=YES\n"
		"PartitionName=some Nodes=xs,g1 MaxTime=20\n");
	assert_int_equal(sl_slurm_nodes_resolve(c, &n, &err), 0);
	assert_int_equal(sl_slurm_nodes_count(n), 3);
	const struct sl_snode *a2 = sl_slurm_node(n, 1), *g1 = sl_slurm_node(n, 2);
	assert_string_equal(a2->name, "a2");
	assert_int_equal(a2->cpus, 32); /* 2 sockets x 8 cores x 2 threads */
	assert_int_equal(a2->mem_mb, 1000);
	assert_string_equal(a2->features[1], "y");
	assert_int_equal(g1->cpus, 8);
	assert_int_equal(g1->ngres, 3);
	assert_string_equal(g1->gres[0].type, "a100");
	assert_int_equal(g1->gres[0].count, 4);
	assert_null(g1->gres[1].type);
	assert_int_equal(g1->gres[1].count, 2);
	assert_int_equal(g1->gres[2].count, 1024);
	assert_int_equal(sl_slurm_parts_count(n), 2);
	const struct sl_spart *all = sl_slurm_part(n, 0), *some = sl_slurm_part(n, 1);
	assert_true(all->is_default);
	assert_int_equal(all->nnodes, 3);
	assert_int_equal(some->nnodes, 3); /* a1, a2 through the NodeSet, g1 */
	assert_string_equal(sl_spart_get(n, all, "MaxTime"), "10");
	assert_string_equal(sl_spart_get(n, some, "MaxTime"), "20");
	sl_slurm_nodes_free(n);
	sl_slurm_conf_free(c);
}

static void test_nodes_errors(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_nodes *n = NULL;
	struct sl_slurm_conf *c = load("NodeName=n1\nPartitionName=p Nodes=n[1-2]\n");
	assert_int_not_equal(sl_slurm_nodes_resolve(c, &n, &err), 0);
	assert_non_null(strstr(err.msg, "partition p: node n2 is not defined by any NodeName line"));
	sl_slurm_conf_free(c);
	sl_err_clear(&err);
	c = load("NodeName=n1 CPUs=lots\n");
	assert_int_not_equal(sl_slurm_nodes_resolve(c, &n, &err), 0);
	assert_non_null(strstr(err.msg, "CPUs=lots is not a number"));
	sl_slurm_conf_free(c);
}

static struct sl_acctdb *acct_load(const char *text)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_acctdb *db = sl_acctdb_new();
	char *p = tmpdir_write("acct.txt", text);
	if (sl_acctdb_load(db, p, &err) != 0)
		fail_msg("%s", err.msg);
	free(p);
	return db;
}

static void test_sacctmgr_dump(void **state)
{
	(void)state;
	static const char *const fs[] = {"Fairshare", NULL}, *const gt[] = {"GrpTRES", NULL},
			     *const desc[] = {"Description", NULL};
	struct sl_acctdb *db = acct_load("# header comment\n"
					 "Cluster - 'c':Fairshare=1:QOS='normal'\n"
					 "Parent - 'root'\n"
					 "Account - 'sci':Description='a:b':Fairshare=60:GrpTRES=cpu=256\n"
					 "Parent - 'sci'\n"
					 "User - 'alice':DefaultAccount='sci':Partition='gpu'\n");
	assert_int_equal(sl_acctdb_count(db), 3);
	const struct sl_acct_ent *a = sl_acctdb_get(db, 1), *u = sl_acctdb_get(db, 2);
	assert_int_equal(a->kind, SL_ACCT_ACCOUNT);
	assert_string_equal(a->parent, "root");
	assert_string_equal(sl_acct_ent_get(a, fs), "60");
	assert_string_equal(sl_acct_ent_get(a, gt), "cpu=256");
	assert_string_equal(sl_acct_ent_get(a, desc), "a:b");
	assert_int_equal(u->kind, SL_ACCT_USER);
	assert_string_equal(u->parent, "sci");
	assert_string_equal(u->partition, "gpu");
	assert_int_equal(u->line, 6);
	sl_acctdb_free(db);
}

static void test_sacctmgr_tables(void **state)
{
	(void)state;
	static const char *const pr[] = {"Priority", NULL}, *const mj[] = {"MaxJobsPU", NULL},
			     *const sh[] = {"Share", NULL}, *const da[] = {"DefaultAccount", NULL},
			     *const ad[] = {"Admin", NULL};
	struct sl_acctdb *db = acct_load("Name|Priority|MaxJobsPU|MaxWall\n"
					 "normal|10||\n"
					 "high|100|4|1-00:00:00\n");
	assert_int_equal(sl_acctdb_count(db), 2);
	assert_int_equal(sl_acctdb_get(db, 1)->kind, SL_ACCT_QOS);
	assert_string_equal(sl_acct_ent_get(sl_acctdb_get(db, 1), pr), "100");
	assert_string_equal(sl_acct_ent_get(sl_acctdb_get(db, 1), mj), "4");
	assert_null(sl_acct_ent_get(sl_acctdb_get(db, 0), mj)); /* empty column: unset */
	sl_acctdb_free(db);
	db = acct_load("Cluster|Account|User|Partition|Share|Par Name\n"
		       "c|root||||\n"
		       "c|phys|||5|sci\n"
		       "c|phys|bob|gpu|1|\n");
	assert_int_equal(sl_acctdb_count(db), 3);
	assert_null(sl_acctdb_get(db, 0)->parent);
	assert_string_equal(sl_acctdb_get(db, 1)->parent, "sci");
	assert_string_equal(sl_acct_ent_get(sl_acctdb_get(db, 1), sh), "5");
	assert_int_equal(sl_acctdb_get(db, 2)->kind, SL_ACCT_USER);
	assert_string_equal(sl_acctdb_get(db, 2)->parent, "phys");
	assert_string_equal(sl_acctdb_get(db, 2)->partition, "gpu");
	sl_acctdb_free(db);
	db = acct_load("User|Def Acct|Admin\nroot|research|Administrator\n");
	assert_int_equal(sl_acctdb_get(db, 0)->kind, SL_ACCT_USER);
	assert_string_equal(sl_acctdb_get(db, 0)->parent, "research");
	assert_string_equal(sl_acct_ent_get(sl_acctdb_get(db, 0), da), "research");
	assert_string_equal(sl_acct_ent_get(sl_acctdb_get(db, 0), ad), "Administrator");
	sl_acctdb_free(db);
}

static void test_sacctmgr_errors(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_acctdb *db = sl_acctdb_new();
	char *p = tmpdir_write("e1.txt", "Name|Priority\nnormal|1|extra\n");
	assert_int_not_equal(sl_acctdb_load(db, p, &err), 0);
	assert_non_null(strstr(err.msg, "e1.txt:2: 3 fields, the header has 2"));
	free(p);
	sl_err_clear(&err);
	p = tmpdir_write("e2.txt", "hello world\n");
	assert_int_not_equal(sl_acctdb_load(db, p, &err), 0);
	assert_non_null(strstr(err.msg, "neither `sacctmgr dump` output"));
	free(p);
	sl_err_clear(&err);
	p = tmpdir_write("e3.txt", "Account - 'a':NoEquals\n");
	assert_int_not_equal(sl_acctdb_load(db, p, &err), 0);
	assert_non_null(strstr(err.msg, "\"NoEquals\" is not Key=Value"));
	free(p);
	sl_acctdb_free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_nodes_errors),
		cmocka_unit_test(test_sacctmgr_dump),
		cmocka_unit_test(test_sacctmgr_tables),
		cmocka_unit_test(test_sacctmgr_errors),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
