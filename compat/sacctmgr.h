/* sacctmgr.h - Slurm's accounting database as sacctmgr prints it: `sacctmgr
 * dump CLUSTER` (sacctmgr_dump.c) and `sacctmgr -P show qos` / `show assoc`
 * (sacctmgr_table.c), read into one list of QOS, accounts and user
 * associations for `sluice migrate`. */
#ifndef SL_SACCTMGR_H
#define SL_SACCTMGR_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

#define SL_ACCTDB_MAX 100000 /* entries: a site's associations */

enum sl_acct_kind { SL_ACCT_CLUSTER, SL_ACCT_ACCOUNT, SL_ACCT_USER, SL_ACCT_QOS };

struct sl_acct_kv {
	char *key;   /* Slurm's name as the input spelled it: "MaxJobsPU", "GrpTRES" */
	char *value; /* quotes removed; never empty (empty columns are skipped) */
};

struct sl_acct_ent {
	enum sl_acct_kind kind;
	char *name;      /* QOS, account or user name */
	char *parent;    /* an account's parent, a user's account; NULL for QOS */
	char *partition; /* a user association's partition, or NULL */
	char *file;      /* where it came from, for the report */
	int line;
	char *text;
	size_t nkv;
	struct sl_acct_kv *kv; /* every other field, in input order */
};

struct sl_acctdb;

struct sl_acctdb *sl_acctdb_new(void);
void sl_acctdb_free(struct sl_acctdb *db);

/* Read one file into db, whichever of the three forms it is (a dump, or a
 * -P table whose header says qos or assoc). May be called for several
 * files. Errors: unreadable, unknown form, a malformed line (file:line). */
int sl_acctdb_load(struct sl_acctdb *db, const char *path, struct sl_err *err);

size_t sl_acctdb_count(const struct sl_acctdb *db);
const struct sl_acct_ent *sl_acctdb_get(const struct sl_acctdb *db, size_t i);
/* A field by Slurm name, any of the aliases given (NULL-terminated), or NULL. */
const char *sl_acct_ent_get(const struct sl_acct_ent *e, const char *const *names);

/* For the readers: append an entry (strings copied). Returns it; borrowed. */
struct sl_acct_ent *sl_acctdb_add(struct sl_acctdb *db, enum sl_acct_kind kind, const char *name,
				  const char *parent, const char *file, int line, const char *text,
				  struct sl_err *err);
void sl_acct_ent_set(struct sl_acct_ent *e, const char *key, const char *value);

int sl_sacctmgr_dump_parse(struct sl_acctdb *db, const char *path, char *const *lines,
			   size_t n, struct sl_err *err);
int sl_sacctmgr_table_parse(struct sl_acctdb *db, const char *path, char *const *lines,
			    size_t n, struct sl_err *err);

#endif
