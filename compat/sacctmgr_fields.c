/* sacctmgr_fields.c - sacctmgr's columns: Slurm 22.05's field table
 * (src/sacctmgr/common.c, _get_print_field) as data, and cells as its
 * print_fields prints them (sacctmgr_show_int.h). */
#include "sacctmgr_show_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurm_fmt.h"
#include "slurm_time.h"
#include "slurm_tres.h"
#include "xalloc.h"

struct field {
	const char *name; /* matched by prefix, at least `min` characters of it */
	int min;
	const char *header;
	int len;
	int cut; /* print_fields_str and the lists: cut with '+'; numbers, times: not */
	enum sm_key key;
};

/* In Slurm's order, which decides what a short name means: the first row
 * it matches wins ("Pree" is nothing, "Preempt" is Preempt, "PreemptE"
 * PreemptExemptTime). Several rows of one field are its aliases. Fields
 * of entities Sluice does not list (events,
 * transactions, resources, ...) are known, so that their names are not
 * "Unknown field", and print empty. */
static const struct field fields[] = {
	{"Account", 3, "Account", 10, 1, K_ACCT},
	{"Acct", 4, "Account", 10, 1, K_ACCT},
	{"ActionRaw", 7, "ActionRaw", 10, 0, K_NONE},
	{"Action", 4, "Action", 20, 1, K_NONE},
	{"Actor", 4, "Actor", 10, 1, K_NONE},
	{"AdminLevel", 2, "Admin", 9, 1, K_ADMIN},
	{"Allowed", 2, "% Allowed", 10, 0, K_NONE},
	{"Associations", 2, "Assocs", 10, 1, K_NONE},
	{"TRES", 2, "TRES", 20, 1, K_NONE},
	{"Classification", 3, "Class", 9, 1, K_NONE},
	{"ClusterNodes", 8, "Cluster Nodes", 20, 1, K_NONE},
	{"Clusters", 2, "Cluster", 10, 1, K_CLUSTER},
	{"Coordinators", 2, "Coord Accounts", 20, 1, K_NONE},
	{"ControlHost", 8, "ControlHost", 15, 1, K_CHOST},
	{"ControlPort", 8, "ControlPort", 12, 0, K_CPORT},
	{"Count", 3, "Count", 6, 0, K_NONE},
	{"CountAllowed", 6, "# Allowed", 10, 0, K_NONE},
	{"CountUsed", 6, "# Used", 10, 0, K_NONE},
	{"CPUCount", 2, "CPU Cnt", 7, 1, K_NONE},
	{"DefaultAccount", 8, "Def Acct", 10, 1, K_DACCT},
	{"DefaultQOS", 8, "Def QOS", 9, 1, K_DQOS},
	{"DefaultWCKey", 8, "Def WCKey", 10, 1, K_NONE},
	{"Description", 3, "Descr", 20, 1, K_DESC},
	{"Duration", 2, "Duration", 13, 0, K_NONE},
	{"EventRaw", 6, "EventRaw", 8, 0, K_NONE},
	{"Event", 2, "Event", 7, 1, K_NONE},
	{"Features", 3, "Features", 20, 1, K_NONE},
	{"Federation", 3, "Federation", 10, 1, K_NONE},
	{"FedState", 4, "FedState", 12, 1, K_NONE},
	{"FedStateRaw", 9, "FedStateRaw", 11, 0, K_NONE},
	{"Flags", 2, "Flags", 20, 1, K_NONE},
	{"GraceTime", 3, "GraceTime", 10, 0, K_GRACE},
	{"GrpCPUs", 6, "GrpCPUs", 8, 0, K_GRPC},
	{"GrpCPUMins", 7, "GrpCPUMins", 11, 0, K_NONE},
	{"GrpCPURunMins", 7, "GrpCPURunMins", 13, 0, K_NONE},
	{"GrpTRES", 7, "GrpTRES", 13, 1, K_GRPT},
	{"GrpTRESMins", 7, "GrpTRESMins", 13, 1, K_NONE},
	{"GrpTRESRunMins", 7, "GrpTRESRunMins", 13, 1, K_NONE},
	{"GrpJobs", 4, "GrpJobs", 7, 0, K_GRPJ},
	{"GrpJobsAccrue", 8, "GrpJobsAccrue", 13, 0, K_NONE},
	{"GrpMemory", 4, "GrpMem", 7, 0, K_GRPMEM},
	{"GrpNodes", 4, "GrpNodes", 8, 0, K_GRPN},
	{"GrpSubmitJobs", 4, "GrpSubmit", 9, 0, K_GRPS},
	{"GrpWall", 4, "GrpWall", 11, 0, K_NONE},
	{"ID", 2, "ID", 6, 0, K_UNSUPP},
	{"Info", 2, "Info", 20, 1, K_NONE},
	{"LFT", 1, "LFT", 6, 0, K_UNSUPP},
	{"servertype", 10, "ServerType", 10, 1, K_NONE},
	{"MaxCPUMinsPerJob", 7, "MaxCPUMins", 11, 0, K_NONE},
	{"MaxCPURunMinsPerUser", 7, "MaxCPURunMinsPU", 15, 0, K_NONE},
	{"MaxCPURunMinsPU", 7, "MaxCPURunMinsPU", 15, 0, K_NONE},
	{"MaxCPUsPerJob", 7, "MaxCPUs", 8, 0, K_MAXC},
	{"MaxCPUsPerUser", 11, "MaxCPUsPU", 9, 0, K_MAXCU},
	{"MaxCPUsPU", 9, "MaxCPUsPU", 9, 0, K_MAXCU},
	{"MaxTRES", 7, "MaxTRES", 13, 1, K_MAXT},
	{"MaxTRESPerJob", 11, "MaxTRES", 13, 1, K_MAXT},
	{"MaxTRESPerNode", 11, "MaxTRESPerNode", 14, 1, K_NONE},
	{"MaxTRESMinsPerJob", 8, "MaxTRESMins", 13, 1, K_NONE},
	{"MaxTRESRunMinsPerAccount", 18, "MaxTRESRunMinsPA", 15, 1, K_NONE},
	{"MaxTRESRunMinsPerAcct", 18, "MaxTRESRunMinsPA", 15, 1, K_NONE},
	{"MaxTRESRunMinsPA", 15, "MaxTRESRunMinsPA", 15, 1, K_NONE},
	{"MaxTRESRunMinsPerUser", 8, "MaxTRESRunMinsPU", 15, 1, K_NONE},
	{"MaxTRESRunMinsPU", 8, "MaxTRESRunMinsPU", 15, 1, K_NONE},
	{"MaxTRESPerAccount", 11, "MaxTRESPA", 13, 1, K_NONE},
	{"MaxTRESPerAcct", 11, "MaxTRESPA", 13, 1, K_NONE},
	{"MaxTRESPA", 9, "MaxTRESPA", 13, 1, K_NONE},
	{"MaxTRESPerUser", 11, "MaxTRESPU", 13, 1, K_MAXTU},
	{"MaxTRESPU", 9, "MaxTRESPU", 13, 1, K_MAXTU},
	{"MaxJobs", 4, "MaxJobs", 7, 0, K_MAXJ},
	{"MaxJobsAccrue", 4, "MaxJobsAccrue", 13, 0, K_NONE},
	{"MaxJobsAccruePerAccount", 17, "MaxJobsAccruePA", 15, 0, K_NONE},
	{"MaxJobsAccruePerAcct", 17, "MaxJobsAccruePA", 15, 0, K_NONE},
	{"MaxJobsAccruePA", 15, "MaxJobsAccruePA", 15, 0, K_NONE},
	{"MaxJobsAccruePerUser", 17, "MaxJobsAccruePU", 15, 0, K_NONE},
	{"MaxJobsAccruePU", 15, "MaxJobsAccruePU", 15, 0, K_NONE},
	{"MaxJobsPerAccount", 11, "MaxJobsPA", 9, 0, K_NONE},
	{"MaxJobsPerAcct", 11, "MaxJobsPA", 9, 0, K_NONE},
	{"MaxJobsPA", 9, "MaxJobsPA", 9, 0, K_NONE},
	{"MaxJobsPerUser", 11, "MaxJobsPU", 9, 0, K_MAXJ},
	{"MaxJobsPU", 9, "MaxJobsPU", 9, 0, K_MAXJ},
	{"MaxNodesPerJob", 4, "MaxNodes", 8, 0, K_MAXN},
	{"MaxNodesPerUser", 12, "MaxNodesPU", 10, 0, K_MAXNU},
	{"MaxNodesPU", 10, "MaxNodesPU", 10, 0, K_MAXNU},
	{"MinPrioThreshold", 4, "MinPrioThres", 12, 0, K_NONE},
	{"MaxSubmitJobs", 4, "MaxSubmit", 9, 0, K_MAXS},
	{"MaxSubmitJobsPerAccount", 17, "MaxSubmitPA", 11, 0, K_NONE},
	{"MaxSubmitJobsPerAcct", 17, "MaxSubmitPA", 11, 0, K_NONE},
	{"MaxSubmitJobsPA", 15, "MaxSubmitPA", 11, 0, K_NONE},
	{"MaxSubmitPA", 11, "MaxSubmitPA", 11, 0, K_NONE},
	{"MaxSubmitJobsPerUser", 10, "MaxSubmitPU", 11, 0, K_MAXS},
	{"MaxSubmitJobsPU", 10, "MaxSubmitPU", 11, 0, K_MAXS},
	{"MaxSubmitPU", 6, "MaxSubmitPU", 11, 0, K_MAXS},
	{"MaxWallDurationPerJob", 4, "MaxWall", 11, 0, K_MAXW},
	{"MinCPUsPerJob", 7, "MinCPUs", 8, 0, K_MINC},
	{"MinTRESPerJob", 7, "MinTRES", 13, 1, K_MINT},
	{"Name", 2, "Name", 10, 1, K_NAME},
	{"NodeCount", 5, "NodeCount", 9, 0, K_NONE},
	{"NodeInx", 5, "NodeInx", 9, 1, K_NONE},
	{"NodeNames", 5, "NodeName", -15, 1, K_NONE},
	{"Organization", 1, "Org", 20, 1, K_ORG},
	{"ParentID", 7, "ParentID", 8, 0, K_UNSUPP},
	{"ParentName", 7, "ParentName", 10, 1, K_PNAME},
	{"Partition", 4, "Partition", 10, 1, K_NONE},
	{"PluginIDSelect", 2, "PluginIDSelect", 14, 0, K_NONE},
	{"PreemptMode", 8, "PreemptMode", 11, 1, K_PREEM},
	{"Preempt", 7, "Preempt", 10, 1, K_NONE},
	{"PreemptExemptTime", 8, "PreemptExemptTime", 19, 0, K_NONE},
	{"Priority", 3, "Priority", 10, 0, K_PRIO},
	{"Problem", 1, "Problem", 40, 1, K_NONE},
	{"QOSLevel", 3, "QOS", 20, 1, K_QOS},
	{"QOSRAWLevel", 4, "QOS_RAW", 10, 1, K_UNSUPP},
	{"Reason", 1, "Reason", 30, 1, K_NONE},
	{"RGT", 1, "RGT", 6, 0, K_UNSUPP},
	{"RPC", 1, "RPC", 5, 0, K_RPC},
	{"Server", 3, "Server", 10, 1, K_NONE},
	{"Share", 1, "Share", 9, 0, K_SHARE},
	{"FairShare", 2, "Share", 9, 0, K_SHARE},
	{"StateRaw", 6, "StateRaw", 8, 0, K_NONE},
	{"State", 1, "State", 6, 1, K_NONE},
	{"TimeStamp", 2, "Time", 19, 0, K_NONE},
	{"TimeEligible", 6, "TimeEligible", 19, 0, K_NONE},
	{"Eligible", 2, "TimeEligible", 19, 0, K_NONE},
	{"TimeEnd", 6, "TimeEnd", 19, 0, K_NONE},
	{"End", 2, "TimeEnd", 19, 0, K_NONE},
	{"TimeStart", 7, "TimeStart", 19, 0, K_NONE},
	{"Start", 3, "TimeStart", 19, 0, K_NONE},
	{"TimeSubmit", 6, "TimeSubmit", 19, 0, K_NONE},
	{"Submit", 2, "TimeSubmit", 19, 0, K_NONE},
	{"Type", 2, "Type", 8, 1, K_NONE},
	{"UnusedWall", 2, "UnusedWall", 10, 0, K_NONE},
	{"UsageFactor", 6, "UsageFactor", 11, 0, K_UF},
	{"UsageThreshold", 6, "UsageThres", 10, 0, K_NONE},
	{"LimitFactor", 6, "LimitFactor", 11, 0, K_NONE},
	{"Allocated", 7, "% Allocated", 11, 0, K_NONE},
	{"User", 1, "User", 10, 1, K_USER},
	{"WCKeys", 2, "WCKeys", 20, 1, K_NONE},
	{"Where", 2, "Where", 20, 1, K_NONE},
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* Slurm's xstrncasecmp(name, s, MAX(strlen(s), min)): s is a prefix of
 * name at least min long (comparing past the end of either fails). */
static int matches(const char *name, int min, const char *s)
{
	size_t n = strlen(s);
	return strncasecmp(name, s, n > (size_t)min ? n : (size_t)min) == 0;
}

int sm_columns(char *const *items, size_t n, struct sm_col **cols, size_t *nc, struct sl_err *err)
{
	int r = 0;

	*cols = sl_xcalloc(n + 1, sizeof(**cols));
	*nc = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		char *name = sl_xstrdup(items[i]), *pct = strchr(name, '%');
		const struct field *f = NULL;
		int len = 0;

		if (pct)
			*pct = '\0', len = atoi(pct + 1);
		for (size_t k = 0; k < NFIELDS && !f; k++)
			if (matches(fields[k].name, fields[k].min, name))
				f = &fields[k];
		if (f == NULL)
			r = sl_err_set(err, SL_EINVAL, "Unknown field '%s'", name);
		else if (f->key == K_UNSUPP)
			r = sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice", f->header);
		else
			(*cols)[(*nc)++] = (struct sm_col){f->header, len ? len : f->len, f->cut, f->key};
		free(name);
	}
	return r;
}

static void cell(struct sl_buf *b, const struct sm_col *c, const char *v, int last, int parsable)
{
	int w = abs(c->len);

	if (parsable) {
		sl_buf_addstr(b, v ? v : "");
		if (!(parsable == 2 && last))
			sl_buf_addc(b, '|');
	} else if (v && c->cut) {
		sl_fmt_cell_acct(b, v, c->len, 0);
	} else { /* "%*u ", "%*s " of a time: never cut */
		sl_buf_addf(b, c->len < 0 ? "%-*s " : "%*s ", w, v ? v : "");
	}
}

void sm_print_header(struct sl_buf *b, const struct sm_col *c, size_t nc, int parsable)
{
	for (size_t i = 0; i < nc; i++) {
		if (parsable)
			cell(b, &c[i], c[i].header, i + 1 == nc, parsable);
		else
			sl_fmt_cell_acct(b, c[i].header, c[i].len, 1);
	}
	sl_buf_addc(b, '\n');
	if (parsable)
		return;
	for (size_t i = 0; i < nc; i++) {
		for (int k = 0; k < abs(c[i].len); k++)
			sl_buf_addc(b, '-');
		sl_buf_addc(b, ' ');
	}
	sl_buf_addc(b, '\n');
}

static const char *num(int64_t v, char *buf, size_t len)
{
	if (v == SM_UNSET || v == SL_LIM_NONE)
		return NULL;
	snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

/* slurmdb_make_tres_string_from_simple() with CONVERT_NUM_UNIT_EXACT: the
 * parts set, in TRES id order (cpu 1, mem 2, node 4, gres/gpu 1001). */
static const char *tres(const int64_t *t, char *buf, size_t len)
{
	static const char *const names[SL_TRES_N] = {"cpu", "mem", "node", "gres/gpu"};
	static const int order[SL_TRES_N] = {SL_TRES_CPU, SL_TRES_MEM, SL_TRES_NODE, SL_TRES_GPU};
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 0; k < SL_TRES_N && o < len; k++) {
		int i = order[k];
		char v[32];
		if (t[i] == SL_LIM_NONE)
			continue;
		if (i == SL_TRES_MEM)
			sl_slurm_mem_fmt(t[i], 0, v, sizeof(v));
		else
			snprintf(v, sizeof(v), "%lld", (long long)t[i]);
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", o ? "," : "", names[i], v);
	}
	return buf[0] ? buf : NULL;
}

static const char *minutes(int64_t min, char *buf, size_t len)
{
	if (min == SL_LIM_NONE)
		return NULL;
	sl_slurm_time_fmt_elapsed_sacct(min * 60, buf, len); /* mins2time_str() */
	return buf;
}

/* The cells of limits: NULL (empty) without them. */
static const char *limit(const struct sl_lim_set *l, enum sm_key k, char *buf, size_t len)
{
	switch (k) {
	case K_GRPC: return num(l->grp_tres[SL_TRES_CPU], buf, len);
	case K_GRPT: return tres(l->grp_tres, buf, len);
	case K_GRPJ: return num(l->grp_jobs, buf, len);
	case K_GRPMEM: return num(l->grp_tres[SL_TRES_MEM], buf, len);
	case K_GRPN: return num(l->grp_tres[SL_TRES_NODE], buf, len);
	case K_GRPS: return num(l->grp_submit, buf, len);
	case K_MAXC: return num(l->max_tres_pj[SL_TRES_CPU], buf, len);
	case K_MAXCU: return num(l->max_tres_pu[SL_TRES_CPU], buf, len);
	case K_MAXT: return tres(l->max_tres_pj, buf, len);
	case K_MAXTU: return tres(l->max_tres_pu, buf, len);
	case K_MAXJ: return num(l->max_jobs_pu, buf, len);
	case K_MAXN: return num(l->max_tres_pj[SL_TRES_NODE], buf, len);
	case K_MAXNU: return num(l->max_tres_pu[SL_TRES_NODE], buf, len);
	case K_MAXS: return num(l->max_submit_pu, buf, len);
	case K_MAXW: return minutes(l->max_wall, buf, len);
	case K_MINC: return num(l->min_tres_pj[SL_TRES_CPU], buf, len);
	case K_MINT: return tres(l->min_tres_pj, buf, len);
	default: return NULL;
	}
}

static const char *value(const struct sm_rec *r, enum sm_key k, char *buf, size_t len)
{
	switch (k) {
	case K_ACCT: return r->account;
	case K_ADMIN: return r->admin;
	case K_CLUSTER: return r->cluster;
	case K_CHOST: return r->host;
	case K_CPORT: return num(r->port, buf, len);
	case K_DACCT: return r->def_acct;
	case K_DQOS: return r->def_qos;
	case K_DESC: return r->desc;
	case K_NAME: return r->name;
	case K_ORG: return r->org;
	case K_PNAME: return r->parent;
	case K_PRIO: return num(r->prio, buf, len);
	case K_QOS: return r->qos;
	case K_RPC: return num(r->rpc, buf, len);
	case K_SHARE: return num(r->share, buf, len);
	case K_USER: return r->user;
	/* a QOS's constants: no grace time, preemption as the cluster's, usage at face value */
	case K_GRACE: return r->qos_obj ? "00:00:00" : NULL;
	case K_PREEM: return r->qos_obj ? "cluster" : NULL;
	case K_UF: return r->qos_obj ? "1.000000" : NULL;
	default: return r->lim ? limit(r->lim, k, buf, len) : NULL;
	}
}

void sm_print_line(struct sl_buf *b, const struct sm_col *c, size_t nc, const struct sm_rec *r,
		   int parsable)
{
	char buf[256];

	for (size_t i = 0; i < nc; i++)
		cell(b, &c[i], value(r, c[i].key, buf, sizeof(buf)), i + 1 == nc, parsable);
	sl_buf_addc(b, '\n');
}
