/* h_share.c - the shares request (sshare, SL_MSG_SHARES): one row per
 * account and per user association, with its raw shares and raw usage.
 * The client normalizes and prints (compat/sshare_fmt.c); sacctmgr reads
 * the same reply, whose config half h_share_conf.c adds. Read-only.
 *
 * Where the numbers come from (README, "sshare"):
 *  - the associations: the config's `accounts:` (user -> accounts); users
 *    of the "*" entry appear once they have a job in sluiced's table;
 *  - an account's RawShares: the fairSharing weights of its namespace's
 *    LocalQueues (Kueue's admission fair sharing weight, 1 each by default),
 *    a user's: 1 (Kueue has no per-user weight);
 *  - RawUsage: CPU-seconds the association's running jobs have used so far
 *    (Sluice keeps no decayed usage history the way slurmdbd does);
 *  - TRESRunMins: CPUs, memory and nodes of its running jobs times the
 *    minutes left of their time limits. */
#include "conf.h"
#include "handlers.h"
#include "jobtab.h"
#include "kueue.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct assoc {
	char *account, *user; /* user NULL: the account's own row */
	int64_t shares, usage, cpu_run, mem_run, node_run;
};

struct rows {
	struct assoc *v;
	size_t n;
};

static struct assoc *find(struct rows *r, const char *account, const char *user)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].account, account) == 0 &&
		    (user ? r->v[i].user && strcmp(r->v[i].user, user) == 0 : !r->v[i].user))
			return &r->v[i];
	return NULL;
}

static struct assoc *get(struct rows *r, const char *account, const char *user)
{
	struct assoc *a = find(r, account, user);
	if (a)
		return a;
	r->v = sl_xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	a = &r->v[r->n++];
	*a = (struct assoc){sl_xstrdup(account), user ? sl_xstrdup(user) : NULL, 1, 0, 0, 0, 0};
	return a;
}

/* The associations of `accounts:`: the "*" entry's users have none until
 * they have a job. */
static void conf_accounts(const struct sl_conf *c, struct rows *r)
{
	const char *const *v, *user;

	for (size_t i = 0; (v = sl_conf_accounts_at(c, i, &user)) != NULL; i++)
		for (; *v; v++) {
			get(r, *v, NULL);
			if (strcmp(user, "*") != 0)
				get(r, *v, user);
		}
}

/* An account's shares: its namespace's LocalQueues' weights. */
static int64_t account_shares(const struct sl_kueue *k, const char *account)
{
	char ns[SL_K8S_NAME_MAX];
	int64_t milli = 0;

	if (sl_conf_k8s_name(account, ns) != 0)
		return 0;
	for (size_t i = 0; i < k->nlqs; i++)
		if (strcmp(k->lqs[i].ns, ns) == 0)
			milli += k->lqs[i].weight_milli;
	return (milli + 500) / 1000;
}

static void charge(struct assoc *a, const struct sl_job *j, int64_t now)
{
	int64_t ran = now - j->start_time, left = 0;
	int nodes = j->alloc_nodes > 0 ? j->alloc_nodes : 1;

	if (ran < 0)
		ran = 0;
	a->usage += (int64_t)j->alloc_cpus * ran;
	if (j->spec.time_limit > 0)
		left = j->spec.time_limit - ran / 60;
	if (left > 0) {
		a->cpu_run += (int64_t)j->alloc_cpus * left;
		a->node_run += (int64_t)nodes * left;
		if (j->spec.mem_per_node > 0)
			a->mem_run += j->spec.mem_per_node * nodes * left;
	}
}

static json_object *row(const struct assoc *a)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "account", json_object_new_string(a->account));
	if (a->user)
		json_object_object_add(o, "user", json_object_new_string(a->user));
	json_object_object_add(o, "shares", json_object_new_int64(a->shares));
	json_object_object_add(o, "usage", json_object_new_int64(a->usage));
	json_object_object_add(o, "cpu_run", json_object_new_int64(a->cpu_run));
	json_object_object_add(o, "mem_run", json_object_new_int64(a->mem_run));
	json_object_object_add(o, "node_run", json_object_new_int64(a->node_run));
	return o;
}

int sl_h_shares(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
		struct sl_err *err)
{
	const struct sl_kueue *k = sl_conf_kueue(d->conf);
	struct rows r = {0};
	int64_t now = (int64_t)time(NULL);
	json_object *arr = json_object_new_array();

	(void)p, (void)req, (void)err;
	conf_accounts(d->conf, &r);
	for (size_t i = 0; i < sl_jobtab_count(d->jobs); i++) {
		const struct sl_job *j = sl_jobtab_at(d->jobs, i);
		if (j->spec.account == NULL || j->user == NULL)
			continue;
		struct assoc *u = get(&r, j->spec.account, j->user);
		get(&r, j->spec.account, NULL);
		if (j->state == SL_JOB_RUNNING && j->start_time > 0)
			charge(u, j, now);
	}
	for (size_t i = 0; i < r.n; i++)
		if (r.v[i].user == NULL)
			r.v[i].shares = account_shares(k, r.v[i].account);
	for (size_t i = 0; i < r.n; i++) {
		json_object_array_add(arr, row(&r.v[i]));
		free(r.v[i].account), free(r.v[i].user);
	}
	free(r.v);
	json_object_object_add(rep, "now", json_object_new_int64(now));
	json_object_object_add(rep, "rows", arr);
	sl_h_shares_conf(d, rep);
	return 0;
}
