/* sacctmgr_rows.c - what the read-only sacctmgr lists (sacctmgr_show.h),
 * built from the shares reply the way slurmdbd would hold it:
 *  - users: each entry of `accounts:` but "*"; the "*" entry's users that
 *    have a job (sshare's rows), or that the command names and the system
 *    knows; sorted by name, as slurmdbd's user table is;
 *  - a user's associations: one per account of their entry (else of the
 *    "*" entry), listed by account name; the entry's first is the default;
 *  - accounts: root, every account of `accounts:` and every Account object
 *    (parent: the object's, else root), sorted by name; Descr and Org as
 *    `sacctmgr add account` sets them (the name; the parent unless it is
 *    root, else the name), root's as slurmdbd creates it;
 *  - Share: sshare's RawShares for an account, 1 for a user; limits: the
 *    Account object's, its Max* ones inherited down the tree (and by its
 *    users' associations) as slurmdbd does unless WOPLimits, Grp* not;
 *  - QOS: every one jobs may ask for, on every association; no Def QOS
 *    (slurmdbd's is unset unless an admin sets one: jobs without --qos
 *    get the config's defaultQOS, as Slurm's get normal);
 *  - Admin: Administrator for root (slurmdbd's), Operator for the config's
 *    operators, else None. */
#include "sacctmgr_show_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define RPC_22_05 9728 /* SLURM_22_05_PROTOCOL_VERSION: (38 << 8) */

struct acct {
	char *name, *parent; /* parent NULL: root */
	int64_t shares;
	const struct sl_lim_set *own;
	struct sl_lim_set eff, user; /* its association's limits; its users' */
	int done;
};

struct user {
	char *name;
	const char *const *accounts;
};

struct model {
	const struct sl_sacctmgr_cmd *c;
	const struct sl_assoc_info *ai;
	struct acct *a;
	struct user *u;
	size_t na, nu;
	char *qos; /* every QOS, sorted, comma-separated */
};

static int in(char *const *list, const char *s)
{
	if (list == NULL)
		return 1;
	for (; *list; list++)
		if (s && strcasecmp(*list, s) == 0)
			return 1;
	return 0;
}

static char *lower(const char *s)
{
	char *t = sl_xstrdup(s);
	for (char *p = t; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	return t;
}

static struct acct *acct_find(const struct model *m, const char *name)
{
	for (size_t i = 0; name && i < m->na; i++)
		if (strcasecmp(m->a[i].name, name) == 0)
			return &m->a[i];
	return NULL;
}

static struct acct *acct_add(struct model *m, const char *name)
{
	struct acct *a = acct_find(m, name);
	if (a)
		return a;
	m->a = sl_xrealloc(m->a, (m->na + 1) * sizeof(*m->a));
	a = &m->a[m->na++];
	*a = (struct acct){.name = lower(name), .shares = 1};
	return a;
}

static struct user *user_find(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->nu; i++)
		if (strcasecmp(m->u[i].name, name) == 0)
			return &m->u[i];
	return NULL;
}

static void user_add(struct model *m, const char *name, const char *const *accounts)
{
	if (user_find(m, name) || accounts == NULL || accounts[0] == NULL)
		return; /* no association, no user */
	m->u = sl_xrealloc(m->u, (m->nu + 1) * sizeof(*m->u));
	m->u[m->nu++] = (struct user){sl_xstrdup(name), accounts};
}

/* Max* limits come down from the parent when the account sets none. */
static void inherit(struct model *m, struct acct *a, int depth)
{
	static const struct sl_lim_set none = {
		SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE,
		{SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE},
		{SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE},
		{SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE},
		{SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE, SL_LIM_NONE}};
	struct acct *p = acct_find(m, a->parent);
	const struct sl_lim_set *up = &none;

	if (a->done)
		return;
	a->done = 1;
	a->eff = a->own ? *a->own : none;
	if (p && !m->c->wop_limits && depth < (int)m->na) {
		inherit(m, p, depth + 1);
		up = &p->eff;
	}
#define DOWN(f) if (a->eff.f == SL_LIM_NONE) a->eff.f = up->f
	DOWN(max_jobs_pu);
	DOWN(max_submit_pu);
	DOWN(max_wall);
	for (int i = 0; i < SL_TRES_N; i++) {
		DOWN(max_tres_pj[i]);
		DOWN(max_tres_pu[i]);
	}
#undef DOWN
	a->user = none;
	a->user.max_jobs_pu = a->eff.max_jobs_pu;
	a->user.max_submit_pu = a->eff.max_submit_pu;
	a->user.max_wall = a->eff.max_wall;
	memcpy(a->user.max_tres_pj, a->eff.max_tres_pj, sizeof(a->user.max_tres_pj));
	memcpy(a->user.max_tres_pu, a->eff.max_tres_pu, sizeof(a->user.max_tres_pu));
}

static int by_acct(const void *x, const void *y)
{
	return strcmp(((const struct acct *)x)->name, ((const struct acct *)y)->name);
}

static int by_user(const void *x, const void *y)
{
	return strcmp(((const struct user *)x)->name, ((const struct user *)y)->name);
}

static int by_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void build_accounts(struct model *m)
{
	const struct sl_assoc_info *ai = m->ai;

	acct_add(m, "root");
	for (size_t i = 0; i < ai->n_users; i++)
		for (char **v = ai->users[i].accounts; v && *v; v++)
			acct_add(m, *v);
	for (size_t i = 0; i < ai->n_accounts; i++) {
		struct acct *a = acct_add(m, ai->accounts[i].name);
		const char *p = ai->accounts[i].parent ? ai->accounts[i].parent : "root";
		free(a->parent);
		a->parent = lower(p);
		a->own = &ai->accounts[i].lim;
		acct_add(m, p); /* a parent nobody charges is an account still */
	}
	for (size_t i = 0; i < m->na; i++) {
		if (m->a[i].parent == NULL && strcmp(m->a[i].name, "root") != 0)
			m->a[i].parent = sl_xstrdup("root");
		for (size_t k = 0; k < ai->n_rows; k++)
			if (!ai->rows[k].user && ai->rows[k].account &&
			    strcasecmp(ai->rows[k].account, m->a[i].name) == 0)
				m->a[i].shares = ai->rows[k].shares;
	}
	qsort(m->a, m->na, sizeof(*m->a), by_acct);
	for (size_t i = 0; i < m->na; i++)
		inherit(m, &m->a[i], 0);
}

static void build_users(struct model *m, const struct sl_sacctmgr_opts *o)
{
	const struct sl_assoc_info *ai = m->ai;
	const char *const *star = NULL;
	/* the users a command names: `list user NAME`, and users= */
	char *const *named[2] = {m->c->ent == SM_USER ? m->c->names : NULL, m->c->users};

	for (size_t i = 0; i < ai->n_users; i++) {
		if (strcmp(ai->users[i].user, "*") == 0)
			star = (const char *const *)ai->users[i].accounts;
		else
			user_add(m, ai->users[i].user, (const char *const *)ai->users[i].accounts);
	}
	/* "*" users are in slurmdbd's tables once they have a job, or when
	 * named: Slurm would have them */
	for (size_t i = 0; star && i < ai->n_rows; i++)
		if (ai->rows[i].user)
			user_add(m, ai->rows[i].user, star);
	for (int k = 0; k < 2 && star; k++)
		for (char *const *v = named[k]; v && *v; v++)
			if (**v && !user_find(m, *v) && (!o->user_exists || o->user_exists(*v)))
				user_add(m, *v, star);
	qsort(m->u, m->nu, sizeof(*m->u), by_user);
}

static char *qos_names(const struct sl_assoc_info *ai)
{
	char **v = sl_xcalloc(ai->n_qos + 1, sizeof(*v)), *s = sl_xstrdup(""), *t;

	for (size_t i = 0; i < ai->n_qos; i++)
		v[i] = ai->qos[i].name;
	qsort(v, ai->n_qos, sizeof(*v), by_str);
	for (size_t i = 0; i < ai->n_qos; i++) {
		t = sl_xasprintf("%s%s%s", s, i ? "," : "", v[i]);
		free(s);
		s = t;
	}
	free(v);
	return s;
}

static void model_free(struct model *m)
{
	for (size_t i = 0; i < m->na; i++)
		free(m->a[i].name), free(m->a[i].parent);
	for (size_t i = 0; i < m->nu; i++)
		free(m->u[i].name);
	free(m->a), free(m->u), free(m->qos);
}

/* ---- records ---------------------------------------------------------- */

static const char *admin(const struct model *m, const char *user)
{
	if (strcmp(user, "root") == 0)
		return "Administrator";
	return in(m->ai->operators, user) ? "Operator" : "None";
}

/* An association: the account's own (user NULL) or a user's. */
static struct sm_rec assoc_rec(const struct model *m, const struct acct *a, const char *user)
{
	struct sm_rec r = {.cluster = m->ai->cluster, .account = a->name, .user = user,
			   .qos = m->qos, .prio = SM_UNSET,
			   .port = SM_UNSET, .rpc = SM_UNSET};
	r.parent = user || m->c->wop_info ? NULL : a->parent;
	r.share = user ? 1 : a->shares;
	r.lim = user ? &a->user : &a->eff;
	return r;
}

static int assoc_shown(const struct model *m, const struct acct *a, const char *user,
		       const struct user *u)
{
	const struct sl_sacctmgr_cmd *c = m->c;
	const struct acct *up = a;
	int acct_ok = in(c->accounts, a->name);

	/* WithSubAccounts: an account under a listed one is listed */
	for (int d = 0; !acct_ok && c->with_sub && up && d < (int)m->na; d++)
		up = acct_find(m, up->parent), acct_ok = up && in(c->accounts, up->name);
	if (!acct_ok || (c->users && !user) || !in(c->users, user) || !in(c->clusters, m->ai->cluster))
		return 0;
	if (c->parts || (c->parents && (user || !in(c->parents, a->parent))))
		return 0; /* no association has a partition */
	if (c->only_defs && (!user || !u || !u->accounts[0] ||
			     strcasecmp(u->accounts[0], a->name) != 0))
		return 0;
	if (c->def_qos) /* none has one */
		return 0;
	for (size_t i = 0; c->qos && i < m->ai->n_qos; i++)
		if (in(c->qos, m->ai->qos[i].name)) /* every QOS is on every association */
			return 1;
	return c->qos == NULL;
}

/* ---- the listings ----------------------------------------------------- */

struct out {
	const struct sl_sacctmgr_cmd *c;
	struct sl_buf *b;
	int parsable;
};

static void line(const struct out *o, const struct sm_rec *r)
{
	sm_print_line(o->b, o->c->cols, o->c->ncols, r, o->parsable);
}

/* list user: the user's line, or one per association with -s (a user
 * none of whose associations is shown still has the line, as slurmdbd
 * returns users apart from their associations). */
static void list_users(struct model *m, const struct out *o)
{
	const struct sl_sacctmgr_cmd *c = m->c;

	for (size_t i = 0; i < m->nu; i++) {
		const struct user *u = &m->u[i];
		struct sm_rec r = {.user = u->name, .def_acct = u->accounts[0],
				   .admin = admin(m, u->name), .prio = SM_UNSET, .share = SM_UNSET,
				   .port = SM_UNSET, .rpc = SM_UNSET};
		int shown = 0;

		if (!in(c->names, u->name) || !in(c->def_acct, r.def_acct) ||
		    (c->admin >= 0 && strcmp(r.admin, c->admin == 0 ? "None" : c->admin == 1
								? "Operator" : "Administrator") != 0))
			continue;
		/* by account name, as slurmdbd returns them */
		for (size_t k = 0; c->with_assoc && k < m->na; k++) {
			const struct acct *ac = &m->a[k];
			struct sm_rec ar;
			if (!in((char *const *)u->accounts, ac->name) ||
			    !assoc_shown(m, ac, u->name, u))
				continue;
			ar = assoc_rec(m, ac, u->name);
			ar.def_acct = r.def_acct, ar.admin = r.admin;
			line(o, &ar);
			shown = 1;
		}
		if (!shown)
			line(o, &r);
	}
}

static void acct_text(const struct acct *a, struct sm_rec *r)
{
	int root = a->parent == NULL;
	r->desc = root ? "default root account" : a->name;
	r->org = root ? "root" : strcmp(a->parent, "root") != 0 ? a->parent : a->name;
}

/* list account: the account's line, or with -s its association and its
 * users' (each has the account's Descr and Org). */
static void list_accounts(struct model *m, const struct out *o)
{
	const struct sl_sacctmgr_cmd *c = m->c;

	for (size_t i = 0; i < m->na; i++) {
		const struct acct *a = &m->a[i];
		struct sm_rec r = {.account = a->name, .prio = SM_UNSET, .share = SM_UNSET,
				   .port = SM_UNSET, .rpc = SM_UNSET};
		int shown = 0;

		acct_text(a, &r);
		if (!in(c->names, a->name) || !in(c->desc, r.desc) || !in(c->org, r.org))
			continue;
		if (c->with_assoc && assoc_shown(m, a, NULL, NULL)) {
			struct sm_rec ar = assoc_rec(m, a, NULL);
			acct_text(a, &ar);
			line(o, &ar), shown = 1;
		}
		for (size_t k = 0; c->with_assoc && k < m->nu; k++) {
			const struct user *u = &m->u[k];
			struct sm_rec ar;
			if (!in((char *const *)u->accounts, a->name) || !assoc_shown(m, a, u->name, u))
				continue;
			ar = assoc_rec(m, a, u->name);
			acct_text(a, &ar);
			line(o, &ar), shown = 1;
		}
		if (!shown)
			line(o, &r);
	}
}

/* list assoc: slurmdbd's association tree, as
 * slurmdb_sort_hierarchical_assoc_list() orders it: each association
 * followed by its children, users first, then sub-accounts, each by name;
 * one whose parent is not listed stands at the top. */
struct node {
	const struct acct *a;
	const char *user;
	int parent; /* index, or -1 */
	int shown, printed;
};

static int node_before(const struct node *x, const struct node *y)
{
	if (!x->user != !y->user)
		return x->user != NULL;
	return strcmp(x->user ? x->user : x->a->name, y->user ? y->user : y->a->name) < 0 ||
	       (x->user && strcmp(x->user, y->user) == 0 && strcmp(x->a->name, y->a->name) < 0);
}

static void print_tree(const struct model *m, const struct out *o, struct node *t, size_t n,
		       int parent, int depth)
{
	for (;;) { /* the children in order: the first not yet printed */
		int best = -1;
		for (size_t i = 0; i < n; i++) {
			int top = t[i].parent < 0 || !t[t[i].parent].shown;
			if (!t[i].shown || t[i].printed || (parent < 0 ? !top : t[i].parent != parent))
				continue;
			if (best < 0 || node_before(&t[i], &t[best]))
				best = (int)i;
		}
		if (best < 0 || depth > (int)n)
			return;
		t[best].printed = 1;
		struct sm_rec r = assoc_rec(m, t[best].a, t[best].user);
		line(o, &r);
		print_tree(m, o, t, n, best, depth + 1);
	}
}

static void list_assocs(struct model *m, const struct out *o)
{
	size_t n = m->na, k = 0;
	struct node *t;

	for (size_t i = 0; i < m->nu; i++)
		for (const char *const *a = m->u[i].accounts; *a; a++)
			n++;
	t = sl_xcalloc(n + 1, sizeof(*t));
	for (size_t i = 0; i < m->na; i++)
		t[k++] = (struct node){&m->a[i], NULL, -1, assoc_shown(m, &m->a[i], NULL, NULL), 0};
	for (size_t i = 0; i < m->nu; i++)
		for (const char *const *a = m->u[i].accounts; *a; a++) {
			const struct acct *ac = acct_find(m, *a);
			if (ac)
				t[k++] = (struct node){ac, m->u[i].name, (int)(ac - m->a),
						       assoc_shown(m, ac, m->u[i].name, &m->u[i]), 0};
		}
	for (size_t i = 0; i < m->na; i++) {
		const struct acct *p = acct_find(m, m->a[i].parent);
		t[i].parent = p ? (int)(p - m->a) : -1;
	}
	print_tree(m, o, t, k, -1, 0);
	free(t);
}

static void list_qos(struct model *m, const struct out *o)
{
	const struct sl_assoc_info *ai = m->ai;

	for (size_t i = 0; i < ai->n_qos; i++) {
		const struct sl_assoc_obj *q = &ai->qos[i];
		/* slurmdbd's own "normal"; `add qos` describes one by its name */
		int builtin = i == 0 && strcmp(q->name, ai->default_qos) == 0 &&
			      (ai->n_qos == 1 || strcasecmp(ai->qos[1].name, q->name) != 0);
		struct sm_rec r = {.name = q->name, .desc = builtin ? "Normal QOS default" : q->name,
				   .prio = q->priority, .share = SM_UNSET, .port = SM_UNSET,
				   .rpc = SM_UNSET, .lim = &q->lim, .qos_obj = 1};
		if (in(m->c->names, q->name) && in(m->c->desc, r.desc))
			line(o, &r);
	}
}

static void list_cluster(struct model *m, const struct out *o)
{
	const struct sl_assoc_info *ai = m->ai;
	struct sm_rec r = {.cluster = ai->cluster, .host = ai->host,
			   .port = ai->port >= 0 ? ai->port : SM_UNSET, .rpc = RPC_22_05, .share = 1,
			   .prio = SM_UNSET, .qos = m->qos};

	if (in(m->c->names, ai->cluster))
		line(o, &r);
}

int sm_list(const struct sl_sacctmgr_cmd *c, const struct sl_sacctmgr_opts *o,
	    const struct sl_assoc_info *ai, struct sl_buf *b, struct sl_err *err)
{
	static void (*const list[])(struct model *, const struct out *) = {
		[SM_USER] = list_users, [SM_ACCOUNT] = list_accounts, [SM_ASSOC] = list_assocs,
		[SM_QOS] = list_qos, [SM_CLUSTER] = list_cluster,
	};
	struct model m = {.c = c, .ai = ai};
	struct out out = {c, b, o->parsable};

	(void)err; /* nothing fails once the command is parsed */
	m.qos = qos_names(ai);
	build_accounts(&m);
	build_users(&m, o);
	list[c->ent](&m, &out);
	model_free(&m);
	return 0;
}
