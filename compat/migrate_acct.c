/* migrate_acct.c - sacctmgr's accounts, users and QOS -> the `accounts:`
 * and `operators:` settings, fair-share weights of the accounts'
 * LocalQueues, WorkloadPriorityClasses, and the QOS and Account objects
 * with Slurm's limits (limits.yaml). Every sacctmgr line gets its notes. */
#include "migrate_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "slurm_time.h"
#include "xalloc.h"

enum lim_type { L_INT, L_TRES, L_TIME };
enum lim_of { OF_ACCOUNT, OF_QOS, OF_USER }; /* whose limits; a user's are not kept */

/* Slurm's limit names (sacctmgr dump's, then -P columns') -> the config's. */
static const struct lim {
	const char *names[3];
	const char *field;
	enum lim_type type;
	int qos, acct; /* where it means that */
} lims[] = {
	{{"MaxJobsPU", "MaxJobsPerUser", NULL}, "maxJobsPerUser", L_INT, 1, 0},
	{{"MaxJobs", NULL, NULL}, "maxJobsPerUser", L_INT, 0, 1},
	{{"MaxSubmitPU", "MaxSubmitJobsPerUser", NULL}, "maxSubmitJobsPerUser", L_INT, 1, 0},
	{{"MaxSubmit", "MaxSubmitJobs", NULL}, "maxSubmitJobsPerUser", L_INT, 0, 1},
	{{"MaxTRESPU", "MaxTRESPerUser", NULL}, "maxTRESPerUser", L_TRES, 1, 0},
	{{"MaxTRES", "MaxTRESPerJob", NULL}, "maxTRESPerJob", L_TRES, 1, 1},
	{{"MaxWall", "MaxWallDurationPerJob", NULL}, "maxWall", L_TIME, 1, 1},
	{{"GrpTRES", NULL, NULL}, "grpTRES", L_TRES, 1, 1},
	{{"GrpJobs", NULL, NULL}, "grpJobs", L_INT, 1, 1},
	{{"GrpSubmit", "GrpSubmitJobs", NULL}, "grpSubmitJobs", L_INT, 1, 1},
	{{"MinTRES", "MinTRESPerJob", NULL}, "minTRESPerJob", L_TRES, 1, 0},
};

/* Fields with a fixed fate, whatever the entry. */
static const struct {
	const char *name;
	enum mig_status st;
	const char *why;
	const char *dflt; /* Slurm's default: nothing to say */
} fates[] = {
	{"Description", MIG_DROPPED, "no counterpart", NULL},
	{"Organization", MIG_DROPPED, "no counterpart", NULL},
	{"Priority", MIG_DROPPED, "an association priority has no counterpart", NULL},
	{"GraceTime", MIG_DROPPED, "Kueue preempts at once; killWait is the grace", "00:00:00"},
	{"Flags", MIG_DROPPED, "QOS flags have no counterpart", NULL},
	{"UsageFactor", MIG_DROPPED, "Kueue's usage has no per-QOS factor", "1.000000"},
	{"UsageThres", MIG_DROPPED, "Kueue's usage has no per-QOS threshold", NULL},
	{"PreemptExemptTime", MIG_DROPPED, "Kueue has no minimum run time before preemption", NULL},
	{"GrpTRESMins", MIG_DROPPED, "not among the limits Sluice carries", NULL},
	{"GrpTRESRunMins", MIG_DROPPED, "not among the limits Sluice carries", NULL},
	{"GrpWall", MIG_DROPPED, "not among the limits Sluice carries", NULL},
	{"MaxTRESMins", MIG_DROPPED, "not among the limits Sluice carries", NULL},
	{"MaxTRESMinsPerJob", MIG_DROPPED, "not among the limits Sluice carries", NULL},
	{"MaxTRESPerNode", MIG_DROPPED, "Kueue quota is not per node", NULL},
	{"MaxTRESPA", MIG_DROPPED, "per-account QOS limits: not among the limits Sluice carries", NULL},
	{"MaxJobsPA", MIG_DROPPED, "per-account QOS limits: not among the limits Sluice carries", NULL},
	{"MaxSubmitPA", MIG_DROPPED, "per-account QOS limits: not among the limits Sluice carries", NULL},
};

static const char *const SHARE[] = {"Fairshare", "Share", NULL};
static const char *const QOSF[] = {"QOS", NULL};
static const char *const DEFACCT[] = {"DefaultAccount", NULL};
static const char *const ADMIN[] = {"AdminLevel", "Admin", NULL};

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

char *mig_tres(const char *tres, char **dropped)
{
	struct sl_buf *b = sl_buf_new(1 << 16), *d = sl_buf_new(1 << 16);
	char *c = sl_xstrdup(tres), *sv = NULL;
	int n = 0;
	mig_out(b, "{");
	for (char *t = strtok_r(c, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
		char *eq = strchr(t, '=');
		const char *v = eq ? eq + 1 : "";
		if (eq)
			*eq = 0;
		if (strcmp(t, "cpu") == 0 && *v) {
			mig_out(b, "%scpu: \"%s\"", n++ ? ", " : "", v);
		} else if (strcmp(t, "mem") == 0 && *v) {
			/* sacctmgr's memory is MB unless it says M, G or T */
			size_t l = strlen(v);
			char u = (char)(l ? v[l - 1] : 0);
			if (u == 'M' || u == 'G' || u == 'T')
				mig_out(b, "%smemory: \"%.*s%ci\"", n++ ? ", " : "", (int)l - 1, v, u);
			else
				mig_out(b, "%smemory: \"%sMi\"", n++ ? ", " : "", v);
		} else if (strncmp(t, "gres/gpu", 8) == 0 && *v) {
			mig_out(b, "%snvidia.com/gpu: \"%s\"", n++ ? ", " : "", v);
			if (t[8] == ':')
				mig_out(d, "%s%s (counted as any GPU)", sl_buf_len(d) ? ", " : "", t);
		} else {
			mig_out(d, "%s%s", sl_buf_len(d) ? ", " : "", t);
		}
	}
	mig_out(b, "}");
	free(c);
	*dropped = sl_buf_len(d) ? sl_buf_steal(d) : NULL;
	sl_buf_free(d);
	char *r = sl_buf_steal(b);
	sl_buf_free(b);
	return r;
}

/* Write e's limits as spec fields (out) and note each field of e. */
static void limits(struct mig *m, size_t idx, const struct sl_acct_ent *e, struct sl_buf *out,
		   enum lim_of of, const char *const *handled)
{
	for (size_t k = 0; k < e->nkv; k++) {
		const char *key = e->kv[k].key, *v = e->kv[k].value;
		int done = strcasecmp(key, "Cluster") == 0;
		for (size_t h = 0; handled[h] && !done; h++)
			done = strcasecmp(handled[h], key) == 0;
		for (size_t i = 0; i < sizeof(lims) / sizeof(lims[0]) && !done; i++) {
			const struct lim *l = &lims[i];
			int match = 0;
			for (size_t a = 0; a < 3 && l->names[a] && !match; a++)
				match = strcasecmp(l->names[a], key) == 0;
			if (!match || !(of == OF_QOS ? l->qos : l->acct))
				continue;
			done = 1;
			char *val = NULL, *dropped = NULL, buf[64];
			int64_t x;
			if (l->type == L_TRES) {
				val = mig_tres(v, &dropped);
			} else if (l->type == L_TIME && sl_slurm_time_parse_limit(v, &x) == 0) {
				sl_slurm_time_fmt_limit_sacct(x, buf, sizeof(buf));
				val = sl_xasprintf("\"%s\"", buf);
			} else if (l->type == L_INT && strspn(v, "0123456789") == strlen(v)) {
				val = sl_xstrdup(v);
			}
			if (!val) {
				mig_note(m, MIG_ACCT, idx, MIG_DROPPED, "%s=%s: not a value Sluice reads",
					 key, v);
				break;
			}
			mig_out(out, "%s%s: %s", sl_buf_len(out) ? ", " : "", l->field, val);
			if (of == OF_USER)
				mig_note(m, MIG_ACCT, idx, MIG_DROPPED, "%s=%s: one user's own limit; "
					 "an Account's %s applies to each of its users alike", key, v,
					 l->field);
			else
				mig_note(m, MIG_ACCT, idx, MIG_APPROX, "%s=%s: limits.yaml %s.spec.%s "
					 "(the config does not carry limits yet)", key, v,
					 of == OF_QOS ? "QOS" : "Account", l->field);
			if (dropped)
				mig_note(m, MIG_ACCT, idx, MIG_DROPPED, "%s: %s: no Kueue resource", key,
					 dropped);
			free(val);
			free(dropped);
		}
		for (size_t i = 0; i < sizeof(fates) / sizeof(fates[0]) && !done; i++)
			if (strcasecmp(fates[i].name, key) == 0) {
				if (!fates[i].dflt || strcmp(fates[i].dflt, v) != 0)
					mig_note(m, MIG_ACCT, idx, fates[i].st, "%s=%s: %s", key, v,
						 fates[i].why);
				done = 1;
			}
		if (!done)
			mig_note(m, MIG_ACCT, idx, MIG_DROPPED, "%s=%s: no Sluice equivalent", key, v);
	}
}

static struct mig_account *account_get(struct mig *m, const char *name, size_t *cap)
{
	char *n = sl_xstrdup(name);
	lower(n);
	for (size_t i = 0; i < m->naccounts; i++)
		if (strcmp(m->accounts[i].name, n) == 0) {
			free(n);
			return &m->accounts[i];
		}
	m->accounts = sl_xgrow(m->accounts, cap, m->naccounts + 1, sizeof(*m->accounts));
	struct mig_account *a = &m->accounts[m->naccounts++];
	memset(a, 0, sizeof(*a));
	a->name = n;
	a->share = 1;
	a->ent = (size_t)-1;
	if (sl_conf_k8s_name(n, a->ns) != 0)
		a->ns[0] = 0;
	return a;
}

static struct mig_user *user_get(struct mig *m, const char *name, size_t *cap)
{
	for (size_t i = 0; i < m->nusers; i++)
		if (strcmp(m->users[i].name, name) == 0)
			return &m->users[i];
	m->users = sl_xgrow(m->users, cap, m->nusers + 1, sizeof(*m->users));
	struct mig_user *u = &m->users[m->nusers++];
	memset(u, 0, sizeof(*u));
	u->name = sl_xstrdup(name);
	u->accounts = sl_xcalloc(1, sizeof(char *));
	return u;
}

static void user_add_account(struct mig_user *u, const char *acct, int first)
{
	size_t n = sl_strv_len(u->accounts);
	char *a = sl_xstrdup(acct);
	lower(a);
	for (size_t i = 0; i < n; i++)
		if (strcmp(u->accounts[i], a) == 0) {
			if (first && i) { /* the default goes first */
				char *t = u->accounts[i];
				memmove(u->accounts + 1, u->accounts, i * sizeof(char *));
				u->accounts[0] = t;
			}
			free(a);
			return;
		}
	u->accounts = sl_xrealloc(u->accounts, (n + 2) * sizeof(char *));
	if (first) {
		memmove(u->accounts + 1, u->accounts, (n + 1) * sizeof(char *));
		u->accounts[0] = a;
	} else {
		u->accounts[n] = a;
		u->accounts[n + 1] = NULL;
	}
}

/* Each account's share of its parent's, down from root (weight 1).
 * Fairshare=parent (share -1): the account counts as its parent, as in
 * Slurm, and takes no part of its siblings' sum. */
static double weight_of(struct mig *m, struct mig_account *a, int depth)
{
	if (!a->parent || depth > 64)
		return 1.0;
	double sum = 0;
	struct mig_account *parent = NULL;
	for (size_t i = 0; i < m->naccounts; i++) {
		struct mig_account *s = &m->accounts[i];
		if (s->parent && strcmp(s->parent, a->parent) == 0 && s->share > 0)
			sum += (double)s->share;
		if (strcmp(s->name, a->parent) == 0)
			parent = s;
	}
	double up = parent ? weight_of(m, parent, depth + 1) : 1.0;
	if (a->share < 0)
		return up;
	return sum > 0 ? up * (double)a->share / sum : 0.0;
}

void mig_accounts(struct mig *m)
{
	size_t capa = 0, capu = 0;
	for (size_t i = 0; m->db && i < sl_acctdb_count(m->db); i++) {
		const struct sl_acct_ent *e = sl_acctdb_get(m->db, i);
		const char *s = sl_acct_ent_get(e, SHARE);
		if (e->kind == SL_ACCT_ACCOUNT) {
			struct mig_account *a = account_get(m, e->name, &capa);
			if (a->ent == (size_t)-1)
				a->ent = i;
			if (e->parent && !a->parent) {
				a->parent = sl_xstrdup(e->parent);
				lower(a->parent);
			}
			if (s)
				a->share = strcasecmp(s, "parent") == 0 ? -1 : atol(s);
		} else if (e->kind == SL_ACCT_USER && e->parent) {
			struct mig_user *u = user_get(m, e->name, &capu);
			const char *def = sl_acct_ent_get(e, DEFACCT), *adm = sl_acct_ent_get(e, ADMIN);
			account_get(m, e->parent, &capa)->has_users = 1;
			user_add_account(u, e->parent, 0);
			if (def)
				user_add_account(u, def, 1);
			if (adm && (strcasecmp(adm, "Administrator") == 0 || strcasecmp(adm, "Operator") == 0))
				u->admin = 1;
		}
	}
	for (size_t i = 0; i < m->naccounts; i++)
		m->accounts[i].weight = weight_of(m, &m->accounts[i], 0);
	const char *pt = mig_global(m, "PriorityType"), *w = mig_global(m, "PriorityWeightFairshare");
	m->fair = m->naccounts > 0 && pt && strcasestr(pt, "multifactor") && w && atol(w) > 0;
}

static int has_children(const struct mig *m, const struct mig_account *a)
{
	for (size_t k = 0; k < m->naccounts; k++)
		if (m->accounts[k].parent && strcmp(m->accounts[k].parent, a->name) == 0)
			return 1;
	return 0;
}

static void account_notes(struct mig *m, size_t i, const struct sl_acct_ent *e)
{
	static const char *const handled[] = {"Fairshare", "Share", "QOS", "Def QOS", "DefaultQOS", NULL};
	struct mig_account *a = NULL;
	for (size_t k = 0; k < m->naccounts && !a; k++)
		if (strcasecmp(m->accounts[k].name, e->name) == 0)
			a = &m->accounts[k];
	if (!a->ns[0]) {
		mig_note(m, MIG_ACCT, i, MIG_DROPPED, "account %s maps to no Kubernetes name", e->name);
		return;
	}
	if (a->ent != i)
		mig_note(m, MIG_ACCT, i, MIG_MAPPED, "account %s: as on %s:%d", a->name,
			 sl_acctdb_get(m->db, a->ent)->file, sl_acctdb_get(m->db, a->ent)->line);
	else if (a->has_users)
		mig_note(m, MIG_ACCT, i, MIG_MAPPED, "account %s: namespace %s, with a LocalQueue "
			 "per partition it may use", a->name, a->ns);
	else
		mig_note(m, MIG_ACCT, i, MIG_APPROX, "account %s: no user charges it directly, so no "
			 "LocalQueues; kept in limits.yaml as a parent", a->name);
	if (a->parent && a->ent == i)
		mig_note(m, MIG_ACCT, i, MIG_APPROX, "parent %s: limits.yaml Account.spec.parent "
			 "(Kueue's namespaces are flat)", a->parent);
	const char *s = sl_acct_ent_get(e, SHARE);
	if (s && m->fair && a->has_users)
		mig_note(m, MIG_ACCT, i, MIG_APPROX, "Fairshare=%s: fairSharing weight %.3f of its "
			 "LocalQueues (its share of its parent's, down from root)", s, a->weight);
	else if (s && m->fair && has_children(m, a))
		mig_note(m, MIG_ACCT, i, MIG_APPROX, "Fairshare=%s: no LocalQueue of its own; its "
			 "share passes down into its sub-accounts' weights", s);
	else if (s)
		mig_note(m, MIG_ACCT, i, MIG_DROPPED, "Fairshare=%s: %s", s,
			 m->fair ? "no LocalQueue to weigh" : "fair sharing is off (PriorityType "
			 "multifactor with PriorityWeightFairshare > 0 turns it on)");
	if (sl_acct_ent_get(e, QOSF))
		mig_note(m, MIG_ACCT, i, MIG_DROPPED, "QOS=%s: Sluice does not restrict QOS per "
			 "account", sl_acct_ent_get(e, QOSF));
	struct sl_buf *spec = sl_buf_new(1 << 16);
	limits(m, i, e, spec, OF_ACCOUNT, handled);
	if (a->ent == i) {
		mig_out(m->limits, "---\napiVersion: sluice.io/v1alpha1\nkind: Account\n"
				   "metadata: {name: %s}\nspec: {", a->name);
		int n = 0;
		if (a->parent)
			mig_out(m->limits, "parent: %s", a->parent), n++;
		struct sl_buf *users = sl_buf_new(1 << 20);
		for (size_t u = 0; u < m->nusers; u++)
			for (char **x = m->users[u].accounts; *x; x++)
				if (strcmp(*x, a->name) == 0)
					mig_out(users, "%s%s", sl_buf_len(users) ? ", " : "", m->users[u].name);
		if (sl_buf_len(users))
			mig_out(m->limits, "%susers: [%s]", n++ ? ", " : "", sl_buf_str(users));
		if (sl_buf_len(spec))
			mig_out(m->limits, "%s%s", n++ ? ", " : "", sl_buf_str(spec));
		mig_out(m->limits, "}\n");
		sl_buf_free(users);
	}
	sl_buf_free(spec);
}

static void user_notes(struct mig *m, size_t i, const struct sl_acct_ent *e)
{
	static const char *const handled[] = {"DefaultAccount", "AdminLevel", "Admin", "Fairshare",
					      "Share", "QOS", "Def QOS", "DefaultQOS", NULL};
	const char *adm = sl_acct_ent_get(e, ADMIN), *s = sl_acct_ent_get(e, SHARE);
	char acct[256];
	snprintf(acct, sizeof(acct), "%s", e->parent);
	lower(acct);
	mig_note(m, MIG_ACCT, i, MIG_MAPPED, "accounts: %s may charge %s", e->name, acct);
	if (sl_acct_ent_get(e, DEFACCT))
		mig_note(m, MIG_ACCT, i, MIG_MAPPED, "DefaultAccount=%s: first in accounts.%s",
			 sl_acct_ent_get(e, DEFACCT), e->name);
	if (adm && strcasecmp(adm, "None") != 0)
		mig_note(m, MIG_ACCT, i, MIG_MAPPED, "AdminLevel=%s: operators", adm);
	if (s)
		mig_note(m, MIG_ACCT, i, MIG_DROPPED, "Fairshare=%s: Kueue has no per-user shares; "
			 "the account's users share its LocalQueues", s);
	if (e->partition)
		mig_note(m, MIG_ACCT, i, MIG_APPROX, "Partition=%s: the user may charge the account "
			 "in every partition it may use", e->partition);
	if (sl_acct_ent_get(e, QOSF))
		mig_note(m, MIG_ACCT, i, MIG_DROPPED, "QOS=%s: Sluice does not restrict QOS per "
			 "user", sl_acct_ent_get(e, QOSF));
	struct sl_buf *spec = sl_buf_new(1 << 16);
	limits(m, i, e, spec, OF_USER, handled);
	sl_buf_free(spec);
}

void mig_accounts_map(struct mig *m)
{
	const char *enf = mig_global(m, "AccountingStorageEnforce");
	int star = !m->nusers || !enf || !strcasestr(enf, "associations");
	mig_out(m->cfg, "accounts:\n");
	if (star)
		mig_out(m->cfg, "  \"*\": [%s]\n", m->nusers ? "general" : "general");
	for (size_t i = 0; i < m->nusers; i++) {
		struct sl_buf *b = sl_buf_new(1 << 16);
		for (char **a = m->users[i].accounts; *a; a++)
			mig_out(b, "%s%s", a == m->users[i].accounts ? "" : ", ", *a);
		char *q = mig_q(m->users[i].name);
		mig_out(m->cfg, "  %s: [%s]\n", q, sl_buf_str(b));
		free(q);
		sl_buf_free(b);
	}
	int ops = 0;
	for (size_t i = 0; i < m->nusers; i++)
		if (m->users[i].admin && strcmp(m->users[i].name, "root") != 0) {
			char *q = mig_q(m->users[i].name);
			mig_out(m->cfg, "%s  - %s\n", ops++ ? "" : "operators:\n", q);
			free(q);
		}
	for (size_t i = 0; m->db && i < sl_acctdb_count(m->db); i++) {
		const struct sl_acct_ent *e = sl_acctdb_get(m->db, i);
		if (e->kind == SL_ACCT_ACCOUNT)
			account_notes(m, i, e);
		else if (e->kind == SL_ACCT_USER)
			user_notes(m, i, e);
		else if (e->kind == SL_ACCT_CLUSTER)
			mig_note(m, MIG_ACCT, i, MIG_DROPPED, "the cluster's own association: its "
				 "shares and QOS are the root of the tree, nothing to map on its own");
	}
}

void mig_qos(struct mig *m)
{
	static const char *const handled[] = {"Priority", "Preempt", "PreemptMode", NULL};
	static const char *const PRIO[] = {"Priority", NULL}, *const PRE[] = {"Preempt", NULL};
	for (size_t i = 0; m->db && i < sl_acctdb_count(m->db); i++) {
		const struct sl_acct_ent *e = sl_acctdb_get(m->db, i);
		char name[SL_K8S_NAME_MAX];
		if (e->kind != SL_ACCT_QOS)
			continue;
		if (sl_conf_k8s_name(e->name, name) != 0) {
			mig_note(m, MIG_ACCT, i, MIG_DROPPED, "QOS %s maps to no Kubernetes name", e->name);
			continue;
		}
		const char *p = sl_acct_ent_get(e, PRIO);
		long prio = p ? atol(p) : 0;
		mig_out(m->kueue, "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: WorkloadPriorityClass\n"
				  "metadata: {name: %s}\nvalue: %ld\ndescription: \"Slurm QOS %s\"\n",
			name, prio, e->name);
		mig_note(m, MIG_ACCT, i, MIG_MAPPED, "QOS %s: WorkloadPriorityClass %s, value %ld "
			 "(--qos=%s)", e->name, name, prio, e->name);
		if (sl_acct_ent_get(e, PRE))
			mig_note(m, MIG_ACCT, i, MIG_APPROX, "Preempt=%s: jobs preempt by priority "
				 "order, not by this list", sl_acct_ent_get(e, PRE));
		static const char *const PM[] = {"PreemptMode", NULL};
		const char *pm = sl_acct_ent_get(e, PM);
		if (pm && strcasecmp(pm, "cluster") == 0)
			mig_note(m, MIG_ACCT, i, MIG_MAPPED, "PreemptMode=cluster: the partitions' "
				 "preemption applies");
		else if (pm)
			mig_note(m, MIG_ACCT, i, MIG_APPROX, "PreemptMode=%s: the partitions' "
				 "preemption applies (Kueue has no per-priority-class mode)", pm);
		struct sl_buf *spec = sl_buf_new(1 << 16);
		limits(m, i, e, spec, OF_QOS, handled);
		mig_out(m->limits, "---\napiVersion: sluice.io/v1alpha1\nkind: QOS\nmetadata: {name: %s}\n"
				   "spec: {priorityClass: %s%s%s}\n", name, name,
			sl_buf_len(spec) ? ", " : "", sl_buf_str(spec));
		sl_buf_free(spec);
	}
}
