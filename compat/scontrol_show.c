/* scontrol_show.c - `scontrol show partition`, `show node` and `show config`
 * as Slurm 22.05 prints them, over what Sluice knows: a partition is a
 * LocalQueue name with the quota of its ClusterQueues (sinfo's view,
 * sinfo_view.c), the local executor's node is this host seen through that
 * quota. Slurm's keys Sluice has no counterpart for print Slurm's defaults
 * (AllowGroups=ALL, PreemptMode=OFF, ...). */
#include "scontrol_fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hostlist.h"
#include "slurm_time.h"
#include "xalloc.h"

/* MiB as Slurm prints memory in TRES: "250G" when whole GiB, else "800M". */
static void tres_mem(uint64_t mib, char *buf, size_t len)
{
	if (mib > 0 && mib % 1024 == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(mib / 1024));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)mib);
}

static void minutes(int64_t m, const char *unset, char *buf, size_t len)
{
	if (m == SL_SINFO_UNSET)
		snprintf(buf, len, "%s", unset);
	else if (m == SL_SINFO_INFINITE || m < 0)
		snprintf(buf, len, "UNLIMITED");
	else
		sl_slurm_time_fmt_limit_sacct(m, buf, len);
}

static void mem_limit(int64_t mib, char *buf, size_t len)
{
	if (mib < 0)
		snprintf(buf, len, "UNLIMITED");
	else
		snprintf(buf, len, "%lld", (long long)mib);
}

static void node_names(struct sl_buf *b, const struct sl_sinfo_part *p)
{
	char **v = sl_xcalloc(p->nnodes + 1, sizeof(char *));
	char *list;

	for (size_t i = 0; i < p->nnodes; i++)
		v[i] = (char *)p->nodes[i].name;
	list = sl_hostlist_compress(v, p->nnodes);
	sl_buf_addstr(b, p->nnodes ? list : "(null)");
	free(list);
	free(v);
}

static const char *avail_name(enum sl_part_avail a)
{
	return a == SL_PART_UP ? "UP" : a == SL_PART_DOWN ? "DOWN"
	       : a == SL_PART_DRAIN ? "DRAIN" : "INACTIVE";
}

int sl_scontrol_partition(struct sl_buf *b, const struct sl_sinfo_part *p, unsigned flags)
{
	const char *sep = (flags & SL_SCONTROL_ONELINE) ? " " : "\n   ";
	uint64_t cpus = 0, mem = 0;
	char t1[32], t2[32], m[32];
	size_t len = sl_buf_len(b);

	for (size_t i = 0; i < p->nnodes; i++) {
		cpus += p->nodes[i].cpus;
		mem += p->nodes[i].mem;
	}
	minutes(p->default_time, "NONE", t1, sizeof(t1));
	minutes(p->max_time, "UNLIMITED", t2, sizeof(t2));
	sl_buf_addf(b, "PartitionName=%s", p->name);
	sl_buf_addf(b, "%sAllowGroups=ALL AllowAccounts=ALL AllowQos=ALL", sep);
	sl_buf_addf(b, "%sAllocNodes=ALL Default=%s QoS=N/A", sep, p->is_default ? "YES" : "NO");
	sl_buf_addf(b, "%sDefaultTime=%s DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO",
		    sep, t1);
	if (p->max_nodes > 0)
		snprintf(t1, sizeof(t1), "%u", p->max_nodes);
	else
		snprintf(t1, sizeof(t1), "UNLIMITED");
	sl_buf_addf(b, "%sMaxNodes=%s MaxTime=%s MinNodes=%u LLN=NO MaxCPUsPerNode=UNLIMITED", sep,
		    t1, t2, p->min_nodes);
	sl_buf_addf(b, "%sNodes=", sep);
	node_names(b, p);
	sl_buf_addf(b, "%sPriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO",
		    sep);
	sl_buf_addf(b, "%sOverTimeLimit=NONE PreemptMode=OFF", sep);
	sl_buf_addf(b, "%sState=%s TotalCPUs=%llu TotalNodes=%zu SelectTypeParameters=NONE", sep,
		    avail_name(p->avail), (unsigned long long)cpus, p->nnodes);
	sl_buf_addf(b, "%sJobDefaults=(null)", sep);
	mem_limit(p->def_mem, t1, sizeof(t1));
	mem_limit(p->max_mem, t2, sizeof(t2));
	sl_buf_addf(b, "%sDefMemPer%s=%s MaxMemPer%s=%s", sep, p->def_mem_per_cpu ? "CPU" : "Node",
		    t1, p->max_mem_per_cpu ? "CPU" : "Node", t2);
	tres_mem(mem, m, sizeof(m));
	sl_buf_addf(b, "%sTRES=cpu=%llu,mem=%s,node=%zu,billing=%llu", sep, (unsigned long long)cpus,
		    m, p->nnodes, (unsigned long long)cpus);
	if (sl_buf_addstr(b, (flags & SL_SCONTROL_ONELINE) ? "\n" : "\n\n") != 0) {
		sl_buf_truncate(b, len);
		return -SL_ETOOBIG;
	}
	return 0;
}

static const char *state_name(unsigned st)
{
	static const char *const names[] = {
		[SL_NODE_UNKNOWN] = "UNKNOWN", [SL_NODE_DOWN] = "DOWN", [SL_NODE_IDLE] = "IDLE",
		[SL_NODE_ALLOCATED] = "ALLOCATED", [SL_NODE_ERROR] = "ERROR",
		[SL_NODE_MIXED] = "MIXED", [SL_NODE_FUTURE] = "FUTURE",
	};
	unsigned base = st & SL_NODE_BASE;
	return base < sizeof(names) / sizeof(names[0]) && names[base] ? names[base] : "UNKNOWN";
}

static void ts(int64_t t, char *buf, size_t len)
{
	sl_slurm_time_fmt_ts(t, buf, len);
}

int sl_scontrol_node(struct sl_buf *b, const struct sl_sinfo_node *n, unsigned flags)
{
	const char *sep = (flags & SL_SCONTROL_ONELINE) ? " " : "\n   ";
	char t1[64], t2[64], m[32], m2[32];
	size_t len = sl_buf_len(b);

	sl_buf_addf(b, "NodeName=%s Arch=%s CoresPerSocket=1 ", n->name, n->arch ? n->arch : "(null)");
	sl_buf_addf(b, "%sCPUAlloc=%u CPUEfctv=%u CPUTot=%u CPULoad=%u.%02u", sep, n->cpus_alloc,
		    n->cpus, n->cpus, n->cpu_load / 100, n->cpu_load % 100);
	sl_buf_addf(b, "%sAvailableFeatures=%s", sep, n->features ? n->features : "(null)");
	sl_buf_addf(b, "%sActiveFeatures=%s", sep, n->features ? n->features : "(null)");
	sl_buf_addf(b, "%sGres=%s", sep, n->gres ? n->gres : "(null)");
	sl_buf_addf(b, "%sNodeAddr=%s NodeHostName=%s Port=%u Version=22.05.8", sep,
		    n->addr ? n->addr : n->name, n->name, n->port);
	sl_buf_addf(b, "%sOS=%s ", sep, n->os ? n->os : "(null)");
	sl_buf_addf(b, "%sRealMemory=%llu AllocMem=%llu FreeMem=%llu Sockets=%u Boards=1", sep,
		    (unsigned long long)n->mem, (unsigned long long)n->mem_alloc,
		    (unsigned long long)n->free_mem, n->cpus);
	sl_buf_addf(b, "%sState=%s%s%s ThreadsPerCore=1 TmpDisk=%llu Weight=1 Owner=N/A "
		    "MCS_label=N/A", sep, state_name(n->state),
		    (n->state & SL_NODE_DRAIN) ? "+DRAIN" : "",
		    (n->state & SL_NODE_NO_RESPOND) ? "+NOT_RESPONDING" : "",
		    (unsigned long long)n->tmp_disk);
	sl_buf_addf(b, "%sPartitions=", sep);
	for (const char *const *p = n->partitions; p && *p; p++)
		sl_buf_addf(b, "%s%s", p == n->partitions ? "" : ",", *p);
	sl_buf_addc(b, ' ');
	ts(n->boot_time, t1, sizeof(t1));
	ts(n->start_time, t2, sizeof(t2));
	sl_buf_addf(b, "%sBootTime=%s SlurmdStartTime=%s", sep, t1, t2);
	ts(n->last_busy, t1, sizeof(t1));
	sl_buf_addf(b, "%sLastBusyTime=%s", sep, n->last_busy ? t1 : "None");
	tres_mem(n->mem, m, sizeof(m));
	sl_buf_addf(b, "%sCfgTRES=cpu=%u,mem=%s,billing=%u", sep, n->cpus, m, n->cpus);
	sl_buf_addf(b, "%sAllocTRES=", sep);
	if (n->cpus_alloc > 0 || n->mem_alloc > 0) {
		tres_mem(n->mem_alloc, m2, sizeof(m2));
		sl_buf_addf(b, "cpu=%u", n->cpus_alloc);
		if (n->mem_alloc > 0)
			sl_buf_addf(b, ",mem=%s", m2);
	}
	if (n->reason != NULL) {
		ts(n->reason_time, t1, sizeof(t1));
		sl_buf_addf(b, "%sReason=%s [%s@%s]", sep, n->reason,
			    n->reason_user ? n->reason_user : "root", t1);
	}
	sl_buf_addf(b, "%sCapWatts=n/a", sep);
	sl_buf_addf(b, "%sCurrentWatts=0 AveWatts=0", sep);
	sl_buf_addf(b, "%sExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s", sep);
	if (sl_buf_addstr(b, (flags & SL_SCONTROL_ONELINE) ? "\n" : "\n\n") != 0) {
		sl_buf_truncate(b, len);
		return -SL_ETOOBIG;
	}
	return 0;
}

/* ---- show config ---- */

static void key(struct sl_buf *b, const char *k, const char *v)
{
	sl_buf_addf(b, "%-23s = %s\n", k, v && *v ? v : "(null)");
}

static const char *setting(const struct sl_daemonconf *dc, const char *k)
{
	return sl_daemonconf_get(dc, k); /* a short name for the table below */
}

int sl_scontrol_config(struct sl_buf *b, const struct sl_daemonconf *dc)
{
	const char *auth = setting(dc, "auth"), *kid = setting(dc, "killInvalidDepend");
	char t[64], v[512];

	ts(dc->now, t, sizeof(t));
	sl_buf_addf(b, "Configuration data as of %s\n", t);
	key(b, "AccountingStorageType", "accounting_storage/sluice");
	snprintf(v, sizeof(v), "auth/%s", auth && strcmp(auth, "munge") == 0 ? "munge" : "none");
	key(b, "AuthType", v);
	ts(dc->start_time, t, sizeof(t));
	key(b, "BOOT_TIME", dc->start_time ? t : "Unknown");
	key(b, "ClusterName", setting(dc, "clusterName"));
	key(b, "DefMemPerNode", "UNLIMITED");
	key(b, "DependencyParameters", kid && strcmp(kid, "yes") == 0 ? "kill_invalid_depend" : NULL);
	key(b, "EnforcePartLimits", "ALL"); /* a job no flavor can ever hold is refused */
	key(b, "FirstJobId", "1");
	key(b, "InactiveLimit", "0 sec");
	key(b, "JobAcctGatherFrequency", "2"); /* sluice-stepd's samples */
	key(b, "JobAcctGatherType", "jobacct_gather/linux");
	key(b, "JobRequeue", "1");
	key(b, "KillOnBadExit", "0");
	snprintf(v, sizeof(v), "%s sec", setting(dc, "killWait") ? setting(dc, "killWait") : "30");
	key(b, "KillWait", v);
	key(b, "MaxArraySize", setting(dc, "maxArraySize") ? setting(dc, "maxArraySize") : "1001");
	snprintf(v, sizeof(v), "%s sec", setting(dc, "minJobAge") ? setting(dc, "minJobAge") : "300");
	key(b, "MinJobAge", v);
	key(b, "MpiDefault", setting(dc, "mpiDefault") ? setting(dc, "mpiDefault") : "none");
	key(b, "OverTimeLimit", "0 min");
	key(b, "PreemptType", "preempt/kueue");
	key(b, "PriorityType", "priority/kueue");
	key(b, "SchedulerType", "sched/kueue");
	key(b, "ProctrackType", "proctrack/pgid");
	key(b, "PropagateResourceLimits", "ALL");
	key(b, "SelectType", "select/cons_tres");
	key(b, "SelectTypeParameters", "CR_CPU_MEMORY");
	snprintf(v, sizeof(v), "%s(%u)", dc->user ? dc->user : "root", dc->uid);
	key(b, "SlurmUser", v);
	key(b, "SlurmctldHost[0]", dc->host);
	key(b, "SLURM_CONF", dc->conf_path);
	key(b, "SLURM_VERSION", "22.05.8");
	key(b, "StateSaveLocation", setting(dc, "stateDir"));
	key(b, "SwitchType", "switch/none");
	key(b, "TaskPlugin", "task/none");
	key(b, "TmpFS", "/tmp");
	key(b, "UsePam", setting(dc, "pam") ? "Yes" : "No");
	/* Sluice's own keys, less those shown above in Slurm's names: a
	 * `grep -i MinJobAge` finds one line, as in Slurm */
	static const char *const shown[] = {"clusterName", "killWait", "minJobAge", "maxArraySize",
					    "killInvalidDepend", "stateDir", "auth"};
	sl_buf_addstr(b, "\nSluice Configuration:\n");
	for (size_t i = 0; i < dc->n; i++) {
		size_t k = 0;
		while (k < sizeof(shown) / sizeof(shown[0]) && strcmp(shown[k], dc->keys[i]) != 0)
			k++;
		if (k == sizeof(shown) / sizeof(shown[0]))
			key(b, dc->keys[i], dc->values[i]);
	}
	return sl_buf_addf(b, "\nSlurmctld(primary) at %s is UP\n", dc->host ? dc->host : "localhost");
}
