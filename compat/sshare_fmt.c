/* sshare_fmt.c - sshare's tree and columns (sshare_fmt.h). */
#include "sshare_fmt.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

enum kind { F_ACCOUNT, F_CLUSTER, F_EUSED, F_FS, F_TRESMINS, F_TRESRAW, F_ID, F_LEVELFS,
	    F_NORMS, F_NORMU, F_PART, F_RAWS, F_RAWU, F_RUNMINS, F_USER };

struct field {
	int len; /* < 0: left-justified */
	const char *name;
	enum kind kind;
	int unsupported; /* Slurm has it, Sluice has no value for it */
};

/* sshare's table, in its order: a name matches its first prefix here. */
static const struct field fields[] = {
	{-20, "Account", F_ACCOUNT, 0}, {10, "Cluster", F_CLUSTER, 1},
	{13, "EffectvUsage", F_EUSED, 0}, {10, "FairShare", F_FS, 0},
	{30, "GrpTRESMins", F_TRESMINS, 0}, {30, "GrpTRESRaw", F_TRESRAW, 1},
	{6, "ID", F_ID, 1}, {10, "LevelFS", F_LEVELFS, 0}, {11, "NormShares", F_NORMS, 0},
	{11, "NormUsage", F_NORMU, 0}, {12, "Partition", F_PART, 0},
	{10, "RawShares", F_RAWS, 0}, {11, "RawUsage", F_RAWU, 0},
	{30, "TRESRunMins", F_RUNMINS, 0}, {10, "User", F_USER, 0}, {0, NULL, 0, 0},
};

/* One printed association. */
struct node {
	const char *account, *user; /* user NULL: an account (or root) */
	int depth, root;
	double shares_raw, norm, norm_down, usage, norm_usage, level_fs;
	int64_t cpu_run, mem_run, node_run;
};

struct col {
	const struct field *f;
	int len;
};

struct out {
	struct sl_buf *b;
	int parsable;
};

/* -o's list: names, any case, NAME%WIDTH. */
static int columns(const char *list, struct col **cols, size_t *n, struct sl_err *err)
{
	char *copy = sl_xstrdup(list), *save = NULL;
	int r = 0;

	*cols = NULL;
	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		char *pct = strchr(t, '%');
		int len = 0;
		const struct field *f;
		if (pct)
			*pct = '\0', len = atoi(pct + 1);
		for (char *c = t; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		for (f = fields; f->name && strncasecmp(f->name, t, strlen(t)) != 0; f++)
			;
		if (f->name == NULL)
			r = sl_err_set(err, SL_EINVAL, "Invalid field requested: \"%s\"", t);
		else if (f->unsupported)
			r = sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice", f->name);
		else {
			*cols = sl_xrealloc(*cols, (*n + 1) * sizeof(**cols));
			(*cols)[(*n)++] = (struct col){f, len ? len : f->len};
		}
	}
	free(copy);
	return r;
}

static void put_str(struct out *o, const struct col *c, const char *v, int last)
{
	int w = abs(c->len);
	if (o->parsable) {
		sl_buf_addstr(o->b, v ? v : "");
		if (!(o->parsable == 2 && last))
			sl_buf_addc(o->b, '|');
		return;
	}
	char *t = sl_xstrdup(v ? v : " ");
	if (v && (int)strlen(v) > w)
		t[w - 1] = '+', t[w] = '\0';
	sl_buf_addf(o->b, c->len > 0 ? "%*.*s " : "%-*.*s ", w, w, t);
	free(t);
}

static void put_double(struct out *o, const struct col *c, double v, int last)
{
	char s[64];
	int w = abs(c->len);
	if (o->parsable)
		snprintf(s, sizeof(s), "%f", v);
	else
		snprintf(s, sizeof(s), "%*f", w, v);
	if (!o->parsable && (int)strlen(s) > w)
		snprintf(s, sizeof(s), "%*.*e", w, w > 6 ? w - 6 : 1, v);
	if (o->parsable)
		return put_str(o, c, s, last);
	sl_buf_addf(o->b, c->len > 0 ? "%*s " : "%-*s ", w, s);
}

static void put_u64(struct out *o, const struct col *c, int64_t v, int last)
{
	char s[32];
	snprintf(s, sizeof(s), "%lld", (long long)v);
	if (o->parsable)
		return put_str(o, c, s, last);
	sl_buf_addf(o->b, c->len > 0 ? "%*s " : "%-*s ", abs(c->len), s);
}

static void put_tres(struct out *o, const struct col *c, const struct node *n, int last)
{
	char s[256];
	long long cpu = (long long)n->cpu_run;
	snprintf(s, sizeof(s), "cpu=%lld,mem=%lld,energy=0,node=%lld,billing=%lld,fs/disk=0,"
			       "vmem=0,pages=0", cpu, (long long)n->mem_run, (long long)n->node_run, cpu);
	put_str(o, c, s, last);
}

static void cell(struct out *o, const struct col *c, const struct node *n, int last)
{
	char name[256];

	switch (c->f->kind) {
	case F_ACCOUNT:
		snprintf(name, sizeof(name), "%*s%s", n->depth, "", n->account);
		return put_str(o, c, name, last);
	case F_USER: return put_str(o, c, n->user, last);
	case F_RAWS:
		if (n->root)
			return put_str(o, c, NULL, last);
		return put_u64(o, c, (int64_t)n->shares_raw, last);
	case F_NORMS: return put_double(o, c, n->root ? 0.0 : n->norm, last);
	case F_RAWU: return put_u64(o, c, (int64_t)n->usage, last);
	case F_NORMU:
		if (n->root)
			return put_str(o, c, NULL, last);
		return put_double(o, c, n->norm_usage, last);
	case F_EUSED: return put_double(o, c, n->root ? 1.0 : n->norm_usage, last);
	case F_FS:
		if (n->user == NULL)
			return put_str(o, c, NULL, last);
		return put_double(o, c, n->norm_down > 0 ? pow(2.0, -n->norm_usage / n->norm_down) : 0.0,
				  last);
	case F_LEVELFS:
		if (n->root)
			return put_str(o, c, NULL, last);
		return put_double(o, c, n->level_fs, last);
	case F_RUNMINS: return put_tres(o, c, n, last);
	default: return put_str(o, c, NULL, last); /* GrpTRESMins: no limits; Partition: none */
	}
}

static void header(struct out *o, const struct col *c, size_t nc)
{
	for (size_t i = 0; i < nc; i++) {
		int w = abs(c[i].len);
		if (!o->parsable)
			sl_buf_addf(o->b, "%*.*s ", c[i].len, w, c[i].f->name);
		else if (o->parsable == 2 && i + 1 == nc)
			sl_buf_addstr(o->b, c[i].f->name);
		else
			sl_buf_addf(o->b, "%s|", c[i].f->name);
	}
	sl_buf_addc(o->b, '\n');
	if (o->parsable)
		return;
	for (size_t i = 0; i < nc; i++) {
		for (int k = 0; k < abs(c[i].len); k++)
			sl_buf_addc(o->b, '-');
		sl_buf_addc(o->b, ' ');
	}
	sl_buf_addc(o->b, '\n');
}

static int listed(char **v, const char *s)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcasecmp(v[i], s) == 0)
			return 1;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct sl_share_row *x = *(const struct sl_share_row *const *)a;
	const struct sl_share_row *y = *(const struct sl_share_row *const *)b;
	int c = strcmp(x->account, y->account);
	if (c || (!x->user && !y->user))
		return c;
	if (!x->user || !y->user)
		return x->user ? 1 : -1; /* the account before its users */
	return strcmp(x->user, y->user);
}

/* The tree, root first, each account followed by its users, by name. */
static struct node *tree(const struct sl_share_row *rows, size_t n, size_t *nn)
{
	const struct sl_share_row **v = sl_xcalloc(n + 1, sizeof(*v));
	struct node *t = sl_xcalloc(n + 1, sizeof(*t));
	double tot_shares = 0, tot_usage = 0;
	size_t k = 1;

	for (size_t i = 0; i < n; i++)
		v[i] = &rows[i];
	qsort(v, n, sizeof(*v), by_name);
	t[0] = (struct node){.account = "root", .root = 1};
	for (size_t i = 0; i < n; i++) {
		struct node *x = &t[k++];
		*x = (struct node){.account = v[i]->account, .user = v[i]->user, .depth = 1,
				   .shares_raw = (double)v[i]->shares,
				   .usage = (double)v[i]->usage, .cpu_run = v[i]->cpu_run,
				   .mem_run = v[i]->mem_run, .node_run = v[i]->node_run};
	}
	/* an account's usage and running TRES are its users' */
	for (size_t a = 1; a < k; a++) {
		if (t[a].user)
			continue;
		for (size_t u = a + 1; u < k && t[u].user; u++) {
			t[u].depth = 2;
			t[a].usage += t[u].usage, t[a].cpu_run += t[u].cpu_run;
			t[a].mem_run += t[u].mem_run, t[a].node_run += t[u].node_run;
		}
		tot_shares += t[a].shares_raw, tot_usage += t[a].usage;
		t[0].cpu_run += t[a].cpu_run, t[0].mem_run += t[a].mem_run;
		t[0].node_run += t[a].node_run;
	}
	t[0].usage = tot_usage;
	for (size_t a = 1; a < k; a++) {
		if (t[a].user)
			continue;
		double us = 0, ush = 0;
		size_t u;
		for (u = a + 1; u < k && t[u].user; u++)
			us += t[u].usage, ush += t[u].shares_raw;
		t[a].norm = tot_shares > 0 ? t[a].shares_raw / tot_shares : 0;
		t[a].norm_down = t[a].norm;
		t[a].norm_usage = tot_usage > 0 ? t[a].usage / tot_usage : 0;
		t[a].level_fs = t[a].usage > 0 ? t[a].norm / t[a].norm_usage : INFINITY;
		for (u = a + 1; u < k && t[u].user; u++) {
			t[u].norm = ush > 0 ? t[u].shares_raw / ush : 0;
			t[u].norm_down = t[u].norm * t[a].norm;
			t[u].norm_usage = tot_usage > 0 ? t[u].usage / tot_usage : 0;
			t[u].level_fs = t[u].usage > 0 ? t[u].norm / (t[u].usage / us) : INFINITY;
		}
	}
	free(v);
	*nn = k;
	return t;
}

static int shown(const struct sl_sshare_opts *o, const struct node *x)
{
	if (x->root)
		return o->accounts == NULL && !o->users_only;
	if (o->accounts && !listed(o->accounts, x->account))
		return 0;
	if (x->user == NULL)
		return !o->users_only;
	return o->all || listed(o->users, x->user);
}

int sl_sshare_print(const struct sl_share_row *rows, size_t n, const struct sl_sshare_opts *o,
		    struct sl_buf *b, struct sl_err *err)
{
	const char *def = o->long_list ? (o->partitions ? "A,User,P,RawShares,NormShares,RawUsage,"
							   "NormUsage,Eff,Fairshare,LevelFS,"
							   "GrpTRESMins,TRESRunMins"
							 : "A,User,RawShares,NormShares,RawUsage,NormUsage,"
							   "Eff,Fairshare,LevelFS,GrpTRESMins,TRESRunMins")
				       : o->partitions ? "A,User,P,RawShares,NormShares,RawUsage,Eff,Fairshare"
						       : "A,User,RawShares,NormShares,RawUsage,Eff,Fairshare";
	struct out out = {b, o->parsable};
	struct col *c = NULL;
	struct node *t = NULL;
	size_t nc = 0, nn = 0;
	int r;

	if ((r = columns(o->format ? o->format : def, &c, &nc, err)) != 0)
		goto out;
	if (!o->noheader)
		header(&out, c, nc);
	t = tree(rows, n, &nn);
	for (size_t i = 0; i < nn; i++) {
		struct node x = t[i];
		if (!shown(o, &x))
			continue;
		/* Slurm indents by the parents it printed: none above -A's or -U's rows */
		if (o->users_only)
			x.depth = 0;
		else if (o->accounts)
			x.depth = x.depth > 0 ? x.depth - 1 : 0;
		for (size_t k = 0; k < nc; k++)
			cell(&out, &c[k], &x, k + 1 == nc);
		sl_buf_addc(b, '\n');
	}
out:
	free(c);
	free(t);
	return r;
}
