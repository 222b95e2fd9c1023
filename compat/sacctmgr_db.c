/* sacctmgr_db.c - the list of QOS, accounts and user associations that
 * sacctmgr's outputs fill, and the choice of reader for one file. */
#include "sacctmgr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define FILE_LINES_MAX (SL_ACCTDB_MAX + 16)

struct sl_acctdb {
	size_t n, cap;
	struct sl_acct_ent *v;
};

struct sl_acctdb *sl_acctdb_new(void)
{
	return sl_xcalloc(1, sizeof(struct sl_acctdb));
}

void sl_acctdb_free(struct sl_acctdb *db)
{
	if (db == NULL)
		return;
	for (size_t i = 0; i < db->n; i++) {
		struct sl_acct_ent *e = &db->v[i];
		for (size_t k = 0; k < e->nkv; k++) {
			free(e->kv[k].key);
			free(e->kv[k].value);
		}
		free(e->kv);
		free(e->name);
		free(e->parent);
		free(e->partition);
		free(e->file);
		free(e->text);
	}
	free(db->v);
	free(db);
}

size_t sl_acctdb_count(const struct sl_acctdb *db)
{
	return db->n;
}

const struct sl_acct_ent *sl_acctdb_get(const struct sl_acctdb *db, size_t i)
{
	return i < db->n ? &db->v[i] : NULL;
}

const char *sl_acct_ent_get(const struct sl_acct_ent *e, const char *const *names)
{
	for (size_t k = 0; k < e->nkv; k++)
		for (size_t j = 0; names[j]; j++)
			if (strcasecmp(e->kv[k].key, names[j]) == 0)
				return e->kv[k].value;
	return NULL;
}

struct sl_acct_ent *sl_acctdb_add(struct sl_acctdb *db, enum sl_acct_kind kind, const char *name,
				  const char *parent, const char *file, int line, const char *text,
				  struct sl_err *err)
{
	if (db->n >= SL_ACCTDB_MAX) {
		sl_err_set(err, SL_ETOOBIG, "%s:%d: more than %d entries", file, line, SL_ACCTDB_MAX);
		return NULL;
	}
	db->v = sl_xgrow(db->v, &db->cap, db->n + 1, sizeof(*db->v));
	struct sl_acct_ent *e = &db->v[db->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->name = sl_xstrdup(name);
	e->parent = sl_xstrdup(parent);
	e->file = sl_xstrdup(file);
	e->line = line;
	e->text = sl_xstrdup(text);
	return e;
}

void sl_acct_ent_set(struct sl_acct_ent *e, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	e->kv = sl_xrealloc(e->kv, (e->nkv + 1) * sizeof(*e->kv));
	e->kv[e->nkv].key = sl_xstrdup(key);
	e->kv[e->nkv++].value = sl_xstrdup(value);
}

static int read_lines(const char *path, char ***out, size_t *n, struct sl_err *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	*out = sl_xcalloc(1, sizeof(char *));
	*n = 0;
	if (!f)
		return sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	while ((len = getline(&buf, &cap, f)) >= 0) {
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = 0;
		if (*n >= FILE_LINES_MAX) {
			free(buf);
			fclose(f);
			return sl_err_set(err, SL_ETOOBIG, "%s: more than %d lines", path,
					  FILE_LINES_MAX);
		}
		*out = sl_xrealloc(*out, (*n + 2) * sizeof(char *));
		(*out)[(*n)++] = sl_xstrdup(buf);
		(*out)[*n] = NULL;
	}
	free(buf);
	fclose(f);
	return 0;
}

int sl_acctdb_load(struct sl_acctdb *db, const char *path, struct sl_err *err)
{
	char **lines = NULL;
	size_t n = 0, first = 0;
	int r;
	if ((r = read_lines(path, &lines, &n, err)) != 0)
		goto out;
	while (first < n && (lines[first][0] == '#' || !lines[first][0]))
		first++;
	if (first < n && strchr(lines[first], '|'))
		r = sl_sacctmgr_table_parse(db, path, lines, n, err);
	else if (first < n && strstr(lines[first], " - '"))
		r = sl_sacctmgr_dump_parse(db, path, lines, n, err);
	else
		r = sl_err_set(err, SL_EINVAL, "%s: neither `sacctmgr dump` output nor a "
			       "`sacctmgr -P show qos|assoc` table", path);
out:
	sl_strv_free(lines);
	return r;
}
