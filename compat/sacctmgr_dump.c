/* sacctmgr_dump.c - reads `sacctmgr dump CLUSTER`: "Cluster - 'c':...",
 * "Parent - 'p'" (the account the lines below belong to), "Account - 'a':
 * Key=Value:...", "User - 'u':...", and "QOS - 'q':..." where a dump has
 * them. Values may be quoted with '...' and hold ':' then. */
#include "sacctmgr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

/* Next ':'-separated field of s, quotes removed; NULL at the end. */
static char *next_field(const char **s)
{
	const char *p = *s;
	if (!*p)
		return NULL;
	char *out = sl_xmalloc(strlen(p) + 1);
	size_t n = 0;
	int q = 0;
	for (; *p && (q || *p != ':'); p++) {
		if (*p == '\'')
			q = !q;
		else
			out[n++] = *p;
	}
	out[n] = 0;
	*s = *p ? p + 1 : p;
	return out;
}

static const struct {
	const char *word;
	enum sl_acct_kind kind;
} kinds[] = {
	{"Cluster", SL_ACCT_CLUSTER}, {"Account", SL_ACCT_ACCOUNT},
	{"User", SL_ACCT_USER}, {"QOS", SL_ACCT_QOS},
};

static int dump_line(struct sl_acctdb *db, const char *path, int lineno, const char *line,
		     char **parent, struct sl_err *err)
{
	const char *dash = strstr(line, " - ");
	if (!dash)
		return sl_err_set(err, SL_EINVAL, "%s:%d: expected \"Kind - 'name':...\"", path, lineno);
	size_t wl = (size_t)(dash - line);
	const char *rest = dash + 3;
	char *name = next_field(&rest);
	int r = 0;
	if (!name || !*name) {
		free(name);
		return sl_err_set(err, SL_EINVAL, "%s:%d: no name", path, lineno);
	}
	if (wl == 6 && strncasecmp(line, "Parent", 6) == 0) {
		free(*parent);
		*parent = name;
		return 0;
	}
	size_t k = 0;
	while (k < sizeof(kinds) / sizeof(kinds[0]) &&
	       !(strlen(kinds[k].word) == wl && strncasecmp(line, kinds[k].word, wl) == 0))
		k++;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		r = sl_err_set(err, SL_EINVAL, "%s:%d: unknown line kind \"%.*s\"", path, lineno,
			       (int)wl, line);
		goto out;
	}
	const char *par = kinds[k].kind == SL_ACCT_USER || kinds[k].kind == SL_ACCT_ACCOUNT ? *parent
											      : NULL;
	struct sl_acct_ent *e = sl_acctdb_add(db, kinds[k].kind, name, par, path, lineno, line, err);
	if (!e) {
		r = -SL_ETOOBIG;
		goto out;
	}
	for (char *f; (f = next_field(&rest)) != NULL; free(f)) {
		char *eq = strchr(f, '=');
		if (!eq) {
			r = sl_err_set(err, SL_EINVAL, "%s:%d: \"%s\" is not Key=Value", path, lineno, f);
			free(f);
			goto out;
		}
		*eq = 0;
		if (strcasecmp(f, "Partition") == 0) {
			free(e->partition);
			e->partition = sl_xstrdup(eq + 1);
		} else {
			sl_acct_ent_set(e, f, eq + 1);
		}
	}
out:
	free(name);
	return r;
}

int sl_sacctmgr_dump_parse(struct sl_acctdb *db, const char *path, char *const *lines,
			   size_t n, struct sl_err *err)
{
	char *parent = sl_xstrdup("root");
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		const char *l = lines[i];
		if (strncmp(l, "sacctmgr: ", 10) == 0) /* pasted from a terminal */
			l += 10;
		l += strspn(l, " \t");
		if (!*l || *l == '#')
			continue;
		r = dump_line(db, path, (int)i + 1, l, &parent, err);
	}
	free(parent);
	return r;
}
