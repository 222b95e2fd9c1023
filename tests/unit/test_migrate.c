/* test_migrate.c - slurm.conf + sacctmgr -> Sluice config: what each input
 * becomes, that the config loads (sl_conf_load, as sluiced --check-config),
 * and that the report accounts for every line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "conf.h"
#include "err.h"
#include "migrate.h"
#include "sacctmgr.h"
#include "slurm_conf.h"
#include "xalloc.h"

#include "tmpdir_testlib.h"

/* Map conf (+ acct) and check that the config loads as sluiced would. */
static void migrate(const char *conf, const char *acct, struct sl_migrate_out *o)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_conf *c = NULL;
	struct sl_acctdb *db = acct ? sl_acctdb_new() : NULL;
	struct sl_conf *sc = NULL;
	char *p = tmpdir_write("slurm.conf", conf), *a = acct ? tmpdir_write("acct.txt", acct) : NULL;
	if (sl_slurm_conf_load(p, &c, &err) != 0 || (db && sl_acctdb_load(db, a, &err) != 0) ||
	    sl_migrate(c, db, o, &err) != 0)
		fail_msg("%s", err.msg);
	char *y = tmpdir_write("sluice.yaml", o->config);
	if (sl_conf_load(y, &sc, &err) != 0)
		fail_msg("the config does not load: %s\n%s", err.msg, o->config);
	sl_conf_free(sc);
	sl_slurm_conf_free(c);
	sl_acctdb_free(db);
	free(p);
	free(a);
	free(y);
}

static void has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("missing:\n%s\nin:\n%s", want, text);
}

static void test_basic(void **state)
{
	(void)state;
	struct sl_migrate_out o;
	migrate("ClusterName=Lab_1\nSelectTypeParameters=CR_Core_Memory\nMailProg=/usr/bin/mail\n"
		"FancyNewKey=1\n"
		"NodeName=n[1-4] CPUs=16 RealMemory=64000\n"
		"PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
		NULL, &o);
	has(o.config, "clusterName: lab-1\n");
	has(o.config, "mailProg: \"/usr/bin/mail\"\n");
	has(o.config, "defaultPartition: debug\n");
	has(o.config, "  \"*\": [general]\n");
	has(o.config, "metadata: {name: default}\n");
	has(o.config, "  - coveredResources: [cpu, memory]\n");
	has(o.config, "      - {name: cpu, nominalQuota: 64}\n      - {name: memory, nominalQuota: 256000Mi}\n");
	has(o.config, "metadata: {name: debug, namespace: general}\nspec:\n  clusterQueue: debug\n");
	has(o.report, "# sluice migrate: 6 lines: 4 mapped, 1 approximated, 1 dropped\n");
	has(o.report, "slurm.conf:1: ClusterName=Lab_1\n  approximated: clusterName: lab-1");
	has(o.report, "slurm.conf:4: FancyNewKey=1\n  dropped: FancyNewKey: no Sluice equivalent\n");
	has(o.partitions, "kind: Partition\nmetadata: {name: debug}\nspec:\n  maxTime: \"UNLIMITED\"\n");
	assert_null(o.limits);
	sl_migrate_out_clear(&o);
	/* MpiDefault=pmi2: srun serves it (srun_pmi2.c), and the config loads */
	migrate("MpiDefault=pmi2\nNodeName=n1 CPUs=4 RealMemory=4000\n", NULL, &o);
	has(o.config, "mpiDefault: pmi2\n");
	has(o.report, "slurm.conf:1: MpiDefault=pmi2\n  mapped: mpiDefault: pmi2\n");
	sl_migrate_out_clear(&o);
	migrate("MpiDefault=cray_shasta\nNodeName=n1 CPUs=4 RealMemory=4000\n", NULL, &o);
	has(o.report, "dropped: MpiDefault=cray_shasta: srun serves pmix and pmi2 only; steps "
		      "start with none\n");
	sl_migrate_out_clear(&o);
}

static void test_gpu_flavors(void **state)
{
	(void)state;
	struct sl_migrate_out o;
	migrate("SelectTypeParameters=CR_Core\n"
		"NodeName=c[1-2] CPUs=8 Features=ib\n"
		"NodeName=c3 CPUs=8 Features=ib State=FUTURE\n"
		"NodeName=g1 CPUs=8 Features=ib Gres=gpu:a100:4,mps:100\n"
		"PartitionName=cpu Nodes=c[1-3] Default=YES\n"
		"PartitionName=gpu Nodes=g1\n",
		NULL, &o);
	has(o.config, "features:\n  \"ib\": {slurm.sluice.io/ib: \"true\"}\n"
		      "  \"a100\": {nvidia.com/gpu.product: \"a100\"}\n");
	has(o.config, "metadata: {name: ib-a100}\nspec:\n  nodeLabels:\n"
		      "    slurm.sluice.io/ib: \"true\"\n    nvidia.com/gpu.product: \"a100\"\n");
	has(o.config, "  - coveredResources: [cpu, nvidia.com/gpu]\n");
	has(o.config, "    - name: ib\n      resources:\n      - {name: cpu, nominalQuota: 16}\n"
		      "      - {name: nvidia.com/gpu, nominalQuota: 0}\n");
	has(o.config, "      - {name: nvidia.com/gpu, nominalQuota: 4}\n");
	has(o.report, "  dropped: Gres mps: only GPUs have a Kueue resource here\n");
	has(o.report, "  approximated: State=FUTURE: not in service, so not counted in any quota");
	/* no shared nodes: no cohort */
	assert_null(strstr(o.config, "cohort:"));
	sl_migrate_out_clear(&o);
}

static void test_preemption(void **state)
{
	(void)state;
	struct sl_migrate_out o;
	migrate("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\n"
		"NodeName=n[1-2] CPUs=4\n"
		"PartitionName=owners Nodes=n1 PriorityTier=10\n"
		"PartitionName=scav Nodes=ALL PriorityTier=1 Default=YES\n",
		NULL, &o);
	has(o.config, "metadata: {name: owners}\nspec:\n  namespaceSelector: {}\n  cohort: slurm\n"
		      "  preemption:\n    withinClusterQueue: Never\n    reclaimWithinCohort: Any\n");
	has(o.report, "  mapped: PriorityTier=1, the lowest: preempts nothing\n");
	sl_migrate_out_clear(&o);
	migrate("PreemptType=preempt/qos\nPreemptMode=SUSPEND,GANG\nNodeName=n1 CPUs=4\n"
		"PartitionName=p Nodes=n1 State=DOWN\n",
		"Name|Priority|Preempt\nlow|1|\nhigh|100|low\n", &o);
	has(o.config, "  stopPolicy: Hold\n  preemption:\n    withinClusterQueue: LowerPriority\n"
		      "    reclaimWithinCohort: Never\n");
	has(o.config, "kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 100\n");
	has(o.report, "evicted and requeued (Kueue cannot suspend a job in place)");
	has(o.report, "  approximated: Preempt=low: jobs preempt by priority order, not by this list\n");
	/* no Default=YES: the first partition, said so */
	has(o.report, "no Default=YES partition: Sluice needs one, the first (p) is defaultPartition");
	sl_migrate_out_clear(&o);
}

static void test_accounts(void **state)
{
	(void)state;
	struct sl_migrate_out o;
	migrate("PriorityType=priority/multifactor\nPriorityWeightFairshare=1000\n"
		"PriorityDecayHalfLife=1-0\nAccountingStorageEnforce=associations\n"
		"NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1 Default=YES DenyAccounts=guests\n",
		"Parent - 'root'\n"
		"Account - 'sci':Fairshare=2:GrpJobs=5\n"
		"Account - 'guests':Fairshare=1\n"
		"Parent - 'sci'\n"
		"Account - 'phys':Fairshare=1:MaxJobs=3:GrpTRES=cpu=8,mem=2G,gres/gpu=1,node=2\n"
		"Account - 'chem':Fairshare=3\n"
		"Account - 'lab':Fairshare=parent\n"
		"Parent - 'phys'\n"
		"User - 'alice':DefaultAccount='chem':AdminLevel='Operator'\n"
		"Parent - 'chem'\n"
		"User - 'alice':DefaultAccount='chem'\n"
		"Parent - 'guests'\n"
		"User - 'eve'\n"
		"Parent - 'lab'\n"
		"User - 'lee'\n",
		&o);
	/* default first; no "*" with associations enforced */
	has(o.config, "accounts:\n  \"alice\": [chem, phys]\n  \"eve\": [guests]\n  \"lee\": [lab]\n"
		      "operators:\n  - \"alice\"\n");
	assert_null(strstr(o.config, "\"*\""));
	has(o.config, "admissionFairSharing:\n  usageHalfLifeTime: 1440m\n");
	/* sci has 2/3 of root; phys 1/4 of that, chem 3/4 */
	has(o.config, "metadata: {name: p, namespace: phys}\nspec:\n  clusterQueue: p\n"
		      "  fairSharing: {weight: \"0.167\"}\n");
	has(o.config, "metadata: {name: p, namespace: chem}\nspec:\n  clusterQueue: p\n"
		      "  fairSharing: {weight: \"0.500\"}\n");
	/* Fairshare=parent: sci's weight, 2/3 */
	has(o.config, "metadata: {name: p, namespace: lab}\nspec:\n  clusterQueue: p\n"
		      "  fairSharing: {weight: \"0.667\"}\n");
	/* DenyAccounts: no LocalQueue for guests */
	assert_null(strstr(o.config, "namespace: guests"));
	has(o.limits, "kind: Account\nmetadata: {name: phys}\nspec: {parent: sci, users: [alice], "
		      "maxJobsPerUser: 3, grpTRES: {cpu: \"8\", memory: \"2Gi\", nvidia.com/gpu: \"1\"}}\n");
	has(o.report, "  dropped: GrpTRES: node: no Kueue resource\n");
	has(o.report, "  approximated: account sci: no user charges it directly");
	sl_migrate_out_clear(&o);
}

static void test_errors(void **state)
{
	(void)state;
	struct sl_err err = SL_ERR_INIT;
	struct sl_slurm_conf *c = NULL;
	struct sl_migrate_out o;
	char *p = tmpdir_write("bad.conf", "NodeName=n[1-\n");
	assert_int_equal(sl_slurm_conf_load(p, &c, &err), 0);
	assert_int_not_equal(sl_migrate(c, NULL, &o, &err), 0);
	assert_non_null(strstr(err.msg, "bad.conf:1: NodeName"));
	assert_null(o.config);
	sl_slurm_conf_free(c);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_gpu_flavors),
		cmocka_unit_test(test_preemption),
		cmocka_unit_test(test_accounts),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
