/* sacctmgr_table.c - reads `sacctmgr -P show qos`, `sacctmgr -P show
 * assoc` and `sacctmgr -P show user`: a '|'-separated header names the
 * columns and says which it is (qos: Name and Priority; assoc: Account;
 * user: User and Def Acct). */
#include "sacctmgr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define COLS_MAX 64

static size_t split(char *s, char **f)
{
	size_t n = 0;
	f[n++] = s;
	for (char *p = s; *p && n < COLS_MAX; p++)
		if (*p == '|') {
			*p = 0;
			f[n++] = p + 1;
		}
	return n;
}

static ssize_t col(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(hdr[i], name) == 0)
			return (ssize_t)i;
	return -1;
}

static int row(struct sl_acctdb *db, const char *path, int lineno, const char *text, char **hdr,
	       size_t nh, char **f, size_t nf, int is_qos, struct sl_err *err)
{
	ssize_t cn = col(hdr, nh, "Name"), ca = col(hdr, nh, "Account"), cu = col(hdr, nh, "User"),
		cp = col(hdr, nh, "Partition"), ppar = col(hdr, nh, "Par Name");
	int user_form = !is_qos && ca < 0;
	if (user_form) /* show user: the user's default account stands for an association */
		ca = col(hdr, nh, "Def Acct");
	if (nf != nh)
		return sl_err_set(err, SL_EINVAL, "%s:%d: %zu fields, the header has %zu", path,
				  lineno, nf, nh);
	struct sl_acct_ent *e;
	if (is_qos) {
		e = sl_acctdb_add(db, SL_ACCT_QOS, f[cn], NULL, path, lineno, text, err);
	} else if (cu >= 0 && f[cu][0]) {
		e = sl_acctdb_add(db, SL_ACCT_USER, f[cu], f[ca], path, lineno, text, err);
	} else {
		/* an account row: its parent is in "Par Name" when shown, else root */
		const char *parent = ppar >= 0 && f[ppar][0] ? f[ppar]
				     : strcmp(f[ca], "root") == 0 ? NULL : "root";
		e = sl_acctdb_add(db, SL_ACCT_ACCOUNT, f[ca], parent, path, lineno, text, err);
	}
	if (!e)
		return -SL_ETOOBIG;
	if (cp >= 0 && f[cp][0])
		e->partition = sl_xstrdup(f[cp]);
	if (user_form)
		sl_acct_ent_set(e, "DefaultAccount", f[ca]);
	for (size_t i = 0; i < nh; i++)
		if ((ssize_t)i != cn && (ssize_t)i != ca && (ssize_t)i != cu && (ssize_t)i != cp &&
		    (ssize_t)i != ppar)
			sl_acct_ent_set(e, hdr[i], f[i]);
	return 0;
}

int sl_sacctmgr_table_parse(struct sl_acctdb *db, const char *path, char *const *lines,
			    size_t n, struct sl_err *err)
{
	char *hl = NULL, *hdr[COLS_MAX], *f[COLS_MAX];
	size_t nh = 0, i = 0;
	int r = 0, is_qos;
	while (i < n && (!lines[i][0] || lines[i][0] == '#'))
		i++;
	hl = sl_xstrdup(lines[i]);
	nh = split(hl, hdr);
	is_qos = col(hdr, nh, "Name") >= 0 && col(hdr, nh, "Priority") >= 0;
	if (!is_qos && col(hdr, nh, "Account") < 0 &&
	    (col(hdr, nh, "User") < 0 || col(hdr, nh, "Def Acct") < 0)) {
		r = sl_err_set(err, SL_EINVAL, "%s:%d: a -P table with neither Name and Priority "
			       "(show qos), Account (show assoc) nor User and Def Acct (show user) "
			       "columns", path, (int)i + 1);
		goto out;
	}
	for (i++; i < n && r == 0; i++) {
		if (!lines[i][0])
			continue;
		char *copy = sl_xstrdup(lines[i]);
		size_t nf = split(copy, f);
		r = row(db, path, (int)i + 1, lines[i], hdr, nh, f, nf, is_qos, err);
		free(copy);
	}
out:
	free(hl);
	return r;
}
