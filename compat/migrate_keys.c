/* migrate_keys.c - slurm.conf's global settings, one table row each: the
 * SluiceConfiguration key it becomes, or how it is approximated, or why it
 * is dropped. A key missing from the table is dropped as "no Sluice
 * equivalent"; the report shows it, so nothing is lost silently. */
#include "migrate_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define R_DAEMON "the controller's own setting; sluiced takes socket:, stateDir: and logs to stderr"
#define R_NODED "a slurmd setting; Sluice runs no per-node daemon (local jobs run under " \
		"sluice-stepd, Kubernetes jobs as pods)"
#define R_PLUGIN "a Slurm plugin choice; Sluice has one built-in way per concern"
#define R_ACCT "Slurm's accounting storage; sluiced keeps its own job store in stateDir and " \
	       "sacct reads it"
#define R_PRIO "Kueue orders a queue by priority class, then submission time; this " \
	       "multifactor term has no counterpart"
#define R_LIMIT "a controller capacity limit; Sluice has its own caps"
#define R_SCRIPT "Sluice runs no prolog or epilog scripts"
#define R_POWER "power saving; Sluice does not power nodes up or down"

struct mig_line {
	struct mig *m;
	size_t idx;
	const char *key, *value;
	int effective; /* the last occurrence of the key: the one slurmctld uses */
};

typedef void (*key_fn)(struct mig_line *l);

static void note(struct mig_line *l, enum mig_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct mig_line *l, enum mig_status st, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mig_note(l->m, MIG_CONF, l->idx, st, "%s", msg);
}

/* A plain value copied to a SluiceConfiguration key. */
static void to_key(struct mig_line *l, const char *ckey, int quote)
{
	char *q = quote ? mig_q(l->value) : NULL;
	mig_out(l->m->cfg, "%s: %s\n", ckey, q ? q : l->value);
	note(l, MIG_MAPPED, "%s: %s", ckey, l->value);
	free(q);
}

static int is_uint(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 10;
}

static void k_cluster(struct mig_line *l)
{
	mig_out(l->m->cfg, "clusterName: %s\n", l->m->cluster);
	if (strcmp(l->value, l->m->cluster) == 0)
		note(l, MIG_MAPPED, "clusterName: %s", l->m->cluster);
	else
		note(l, MIG_APPROX, "clusterName: %s (a Kubernetes name: lowercase, '_' and '.' as '-')",
		     l->m->cluster);
}

static void k_mail(struct mig_line *l)
{
	to_key(l, "mailProg", 1);
}

static void k_int(struct mig_line *l, const char *ckey, long max)
{
	if (!is_uint(l->value) || atol(l->value) > max) {
		note(l, MIG_DROPPED, "%s=%s is not a number Sluice takes for %s (0 to %ld)", l->key,
		     l->value, ckey, max);
		return;
	}
	to_key(l, ckey, 0);
}

static void k_killwait(struct mig_line *l)
{
	k_int(l, "killWait", 86400);
}

static void k_minjobage(struct mig_line *l)
{
	k_int(l, "minJobAge", 31536000);
}

static void k_depend(struct mig_line *l)
{
	if (strcasestr(l->value, "kill_invalid_depend")) {
		mig_out(l->m->cfg, "killInvalidDepend: yes\n");
		note(l, MIG_MAPPED, "killInvalidDepend: yes");
	}
	if (strchr(l->value, ',') || !strcasestr(l->value, "kill_invalid_depend"))
		note(l, MIG_DROPPED, "of DependencyParameters only kill_invalid_depend has a "
				     "counterpart (killInvalidDepend)");
}

static void k_mpi(struct mig_line *l)
{
	if (strcasecmp(l->value, "pmix") == 0 || strcasecmp(l->value, "pmix_v4") == 0) {
		mig_out(l->m->cfg, "mpiDefault: pmix\n");
		note(l, MIG_MAPPED, "mpiDefault: pmix");
	} else if (strncasecmp(l->value, "pmix_v", 6) == 0) { /* libpmix 4 serves older clients */
		mig_out(l->m->cfg, "mpiDefault: pmix\n");
		note(l, MIG_APPROX, "mpiDefault: pmix (Debian's libpmix 4, which serves %s clients)",
		     l->value);
	} else if (strcasecmp(l->value, "pmi2") == 0) {
		mig_out(l->m->cfg, "mpiDefault: pmi2\n");
		note(l, MIG_MAPPED, "mpiDefault: pmi2");
	} else if (strcasecmp(l->value, "none") == 0) {
		note(l, MIG_MAPPED, "mpiDefault: none (the default)");
	} else {
		note(l, MIG_DROPPED, "MpiDefault=%s: srun serves pmix and pmi2 only; "
		     "steps start with none", l->value);
	}
}

static void k_pam(struct mig_line *l)
{
	if (strcmp(l->value, "1") == 0 || strcasecmp(l->value, "yes") == 0) {
		mig_out(l->m->cfg, "pam: {service: sluice}\n");
		note(l, MIG_APPROX, "pam: {service: sluice} (Sluice's PAM service; Slurm's was \"slurm\")");
	} else {
		note(l, MIG_MAPPED, "no PAM (the default)");
	}
}

static void k_auth(struct mig_line *l)
{
	note(l, MIG_APPROX, "auth: none on the local socket (the kernel's SO_PEERCRED); set "
			    "auth: munge with listen: to serve login nodes");
}

static void k_select(struct mig_line *l)
{
	note(l, MIG_APPROX, "Kueue counts quota per ClusterQueue (cpu%s%s); jobs are not placed "
			    "on particular nodes", l->m->count_mem ? ", memory" : "",
	     l->m->has_gpu ? ", nvidia.com/gpu" : "");
}

static void k_selectparams(struct mig_line *l)
{
	if (l->m->count_mem)
		note(l, MIG_MAPPED, "the ClusterQueues count cpu and memory");
	else
		note(l, MIG_APPROX, "the ClusterQueues count cpu, not memory (Slurm does not "
				    "allocate memory with %s)", l->value);
}

static void k_sched(struct mig_line *l)
{
	note(l, MIG_APPROX, "Kueue admission, BestEffortFIFO: a job that does not fit does not "
			    "block smaller ones behind it, but nothing reserves their start time "
			    "as backfill does");
}

static void k_prio_type(struct mig_line *l)
{
	if (strcasestr(l->value, "multifactor"))
		note(l, MIG_APPROX, "QOS Priority becomes WorkloadPriorityClasses%s; the other "
				    "factors have no counterpart",
		     l->m->fair ? ", account shares admission fair sharing" : "");
	else
		note(l, MIG_MAPPED, "first come first served within a priority class");
}

static void k_weight_qos(struct mig_line *l)
{
	note(l, MIG_MAPPED, "each QOS's Priority is its WorkloadPriorityClass value");
}

static void k_weight_fs(struct mig_line *l)
{
	if (l->m->fair)
		note(l, MIG_APPROX, "admission fair sharing: each account's LocalQueues weigh its "
				    "share (Kueue compares recent usage, not Slurm's fair-share factor)");
	else
		note(l, MIG_DROPPED, "no account shares to weigh (give --sacctmgr with the "
				     "accounts' Fairshare)");
}

static void k_halflife(struct mig_line *l)
{
	if (l->m->fair)
		note(l, MIG_MAPPED, "admissionFairSharing.usageHalfLifeTime");
	else
		note(l, MIG_DROPPED, "no fair sharing to decay");
}

static void k_preempt(struct mig_line *l)
{
	note(l, MIG_APPROX, "ClusterQueue preemption policies (see the PartitionName lines)");
}

static void k_defaults(struct mig_line *l)
{
	note(l, MIG_APPROX, "a partition default in partitions.yaml (kind: Partition): the config "
			    "does not carry partition defaults yet");
}

static void k_gres(struct mig_line *l)
{
	char *c = sl_xstrdup(l->value), *sv = NULL;
	for (char *t = strtok_r(c, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
		if (strcmp(t, "gpu") == 0)
			note(l, MIG_MAPPED, "gres/gpu is the resource nvidia.com/gpu");
		else
			note(l, MIG_DROPPED, "gres/%s: only GPUs have a Kueue resource here", t);
	free(c);
}

static void k_enforce(struct mig_line *l)
{
	if (strcasestr(l->value, "associations") && l->m->db)
		note(l, MIG_MAPPED, "users without an association may not submit: accounts: has "
				    "no \"*\" entry");
	else if (strcasestr(l->value, "associations"))
		note(l, MIG_APPROX, "no association data (give --sacctmgr): every user charges "
				    "account general");
	if (strcasestr(l->value, "limits") || strcasestr(l->value, "qos"))
		note(l, MIG_APPROX, "QOS and association limits are in limits.yaml, for when the "
				    "config carries them");
}

static void k_include(struct mig_line *l)
{
	note(l, MIG_MAPPED, "read in place");
}

static const struct krow {
	const char *key;
	key_fn fn;       /* NULL: st and why say it all */
	enum mig_status st;
	const char *why;
} rows[] = {
	{"ClusterName", k_cluster, 0, NULL},
	{"MailProg", k_mail, 0, NULL},
	{"KillWait", k_killwait, 0, NULL},
	{"MinJobAge", k_minjobage, 0, NULL},
	{"DependencyParameters", k_depend, 0, NULL},
	{"UsePAM", k_pam, 0, NULL},
	{"AuthType", k_auth, 0, NULL},
	{"SelectType", k_select, 0, NULL},
	{"SelectTypeParameters", k_selectparams, 0, NULL},
	{"SchedulerType", k_sched, 0, NULL},
	{"PriorityType", k_prio_type, 0, NULL},
	{"PriorityWeightQOS", k_weight_qos, 0, NULL},
	{"PriorityWeightFairshare", k_weight_fs, 0, NULL},
	{"PriorityDecayHalfLife", k_halflife, 0, NULL},
	{"PreemptType", k_preempt, 0, NULL},
	{"PreemptMode", k_preempt, 0, NULL},
	{"DefMemPerCPU", k_defaults, 0, NULL},
	{"DefMemPerNode", k_defaults, 0, NULL},
	{"MaxMemPerCPU", k_defaults, 0, NULL},
	{"MaxMemPerNode", k_defaults, 0, NULL},
	{"GresTypes", k_gres, 0, NULL},
	{"AccountingStorageEnforce", k_enforce, 0, NULL},
	{"Include", k_include, 0, NULL},
	{"PriorityWeightAge", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityWeightJobSize", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityWeightPartition", NULL, MIG_DROPPED, R_PRIO " (PriorityTier is mapped)"},
	{"PriorityWeightAssoc", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityWeightTRES", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityMaxAge", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityFavorSmall", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityFlags", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityCalcPeriod", NULL, MIG_DROPPED, R_PRIO},
	{"PriorityUsageResetPeriod", NULL, MIG_DROPPED, R_PRIO},
	{"PreemptExemptTime", NULL, MIG_DROPPED, "Kueue has no minimum run time before preemption"},
	{"SchedulerParameters", NULL, MIG_DROPPED, "tunes Slurm's backfill, which Sluice does not have"},
	{"SlurmctldHost", NULL, MIG_DROPPED, "sluiced serves where it runs; login nodes name it "
					      "with controller: HOST:PORT"},
	{"ControlMachine", NULL, MIG_DROPPED, "sluiced serves where it runs; login nodes name it "
					       "with controller: HOST:PORT"},
	{"SlurmctldPort", NULL, MIG_DROPPED, "sluiced's TCP addresses are listen: HOST:PORT"},
	{"SlurmUser", NULL, MIG_DROPPED, "sluiced runs as root and starts each job as its user"},
	{"StateSaveLocation", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmctldPidFile", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmctldLogFile", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmctldDebug", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmctldTimeout", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmSchedLogFile", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmSchedLogLevel", NULL, MIG_DROPPED, R_DAEMON},
	{"DebugFlags", NULL, MIG_DROPPED, R_DAEMON},
	{"MessageTimeout", NULL, MIG_DROPPED, R_DAEMON},
	{"SlurmdPort", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdUser", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdSpoolDir", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdPidFile", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdLogFile", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdDebug", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdTimeout", NULL, MIG_DROPPED, R_NODED},
	{"SlurmdParameters", NULL, MIG_DROPPED, R_NODED},
	{"ReturnToService", NULL, MIG_DROPPED, R_NODED},
	{"InactiveLimit", NULL, MIG_DROPPED, R_NODED},
	{"Waittime", NULL, MIG_DROPPED, R_NODED},
	{"CredType", NULL, MIG_DROPPED, R_PLUGIN},
	{"ProctrackType", NULL, MIG_DROPPED, R_PLUGIN},
	{"TaskPlugin", NULL, MIG_DROPPED, R_PLUGIN},
	{"SwitchType", NULL, MIG_DROPPED, R_PLUGIN},
	{"MpiDefault", k_mpi, 0, NULL},
	{"LaunchType", NULL, MIG_DROPPED, R_PLUGIN},
	{"TopologyPlugin", NULL, MIG_DROPPED, R_PLUGIN},
	{"JobSubmitPlugins", NULL, MIG_DROPPED, R_PLUGIN},
	{"PlugStackConfig", NULL, MIG_DROPPED, R_PLUGIN},
	{"PluginDir", NULL, MIG_DROPPED, R_PLUGIN},
	{"AccountingStorageType", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStorageHost", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStoragePort", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStorageUser", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStoragePass", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStorageTRES", NULL, MIG_DROPPED, R_ACCT},
	{"AccountingStoreFlags", NULL, MIG_DROPPED, R_ACCT},
	{"JobAcctGatherType", NULL, MIG_DROPPED, R_ACCT},
	{"JobAcctGatherFrequency", NULL, MIG_DROPPED, R_ACCT},
	{"JobCompType", NULL, MIG_DROPPED, R_ACCT},
	{"JobCompLoc", NULL, MIG_DROPPED, R_ACCT},
	{"AcctGatherNodeFreq", NULL, MIG_DROPPED, R_ACCT},
	{"MaxJobCount", NULL, MIG_DROPPED, R_LIMIT},
	{"MaxArraySize", NULL, MIG_DROPPED, R_LIMIT},
	{"MaxStepCount", NULL, MIG_DROPPED, R_LIMIT},
	{"MaxTasksPerNode", NULL, MIG_DROPPED, R_LIMIT},
	{"FirstJobId", NULL, MIG_DROPPED, "sluiced numbers jobs from 1 in its own store"},
	{"MaxJobId", NULL, MIG_DROPPED, "sluiced numbers jobs from 1 in its own store"},
	{"Prolog", NULL, MIG_DROPPED, R_SCRIPT},
	{"Epilog", NULL, MIG_DROPPED, R_SCRIPT},
	{"PrologSlurmctld", NULL, MIG_DROPPED, R_SCRIPT},
	{"EpilogSlurmctld", NULL, MIG_DROPPED, R_SCRIPT},
	{"TaskProlog", NULL, MIG_DROPPED, R_SCRIPT},
	{"TaskEpilog", NULL, MIG_DROPPED, R_SCRIPT},
	{"SuspendProgram", NULL, MIG_DROPPED, R_POWER},
	{"ResumeProgram", NULL, MIG_DROPPED, R_POWER},
	{"SuspendTime", NULL, MIG_DROPPED, R_POWER},
	{"SuspendTimeout", NULL, MIG_DROPPED, R_POWER},
	{"ResumeTimeout", NULL, MIG_DROPPED, R_POWER},
};

static const struct krow *row_find(const char *key)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcasecmp(rows[i].key, key) == 0)
			return &rows[i];
	return NULL;
}

void mig_keys(struct mig *m)
{
	for (size_t i = 0; i < sl_slurm_conf_nlines(m->c); i++) {
		const struct sl_sconf_line *sl = sl_slurm_conf_line(m->c, i);
		if (sl->nkv == 0 || strcasecmp(sl->kv[0].key, "NodeName") == 0 ||
		    strcasecmp(sl->kv[0].key, "PartitionName") == 0 ||
		    strcasecmp(sl->kv[0].key, "NodeSet") == 0)
			continue; /* entities: migrate_queues.c */
		if (strcasecmp(sl->kv[0].key, "DownNodes") == 0) {
			mig_note(m, MIG_CONF, i, MIG_DROPPED, "node states are not configuration in "
							      "Sluice");
			continue;
		}
		for (size_t k = 0; k < sl->nkv; k++) {
			struct mig_line l = {m, i, sl->kv[k].key, sl->kv[k].value, 0};
			const struct krow *row = row_find(l.key);
			l.effective = mig_global(m, l.key) == l.value;
			if (!row)
				note(&l, MIG_DROPPED, "%s: no Sluice equivalent", l.key);
			else if (row->fn && !l.effective && strcasecmp(l.key, "Include") != 0)
				note(&l, MIG_DROPPED, "%s: a later line sets it again", l.key);
			else if (row->fn)
				row->fn(&l);
			else
				note(&l, row->st, "%s: %s", l.key, row->why);
		}
	}
}
