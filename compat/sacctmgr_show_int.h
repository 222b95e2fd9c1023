/* sacctmgr_show_int.h - shared by the read-only sacctmgr's files:
 * sacctmgr_cmd.c (the words), sacctmgr_fields.c (the columns) and
 * sacctmgr_rows.c (what is listed). Internal to compat. */
#ifndef SL_SACCTMGR_SHOW_INT_H
#define SL_SACCTMGR_SHOW_INT_H

#include <stdint.h>
#include "qos_limits.h"
#include "sacctmgr_show.h"

enum sm_entity { SM_USER, SM_ACCOUNT, SM_ASSOC, SM_QOS, SM_CLUSTER };

/* What a column prints (Slurm's PRINT_* types Sluice has a value for);
 * K_NONE: a field Slurm knows and nothing here sets (printed empty);
 * K_UNSUPP: refused by name (association and QOS ids, lft/rgt). */
enum sm_key {
	K_NONE, K_UNSUPP, K_ACCT, K_ADMIN, K_CLUSTER, K_CHOST, K_CPORT, K_DACCT, K_DQOS, K_DESC,
	K_GRACE, K_GRPC, K_GRPT, K_GRPJ, K_GRPMEM, K_GRPN, K_GRPS, K_MAXC, K_MAXCU, K_MAXT,
	K_MAXTU, K_MAXJ, K_MAXN, K_MAXNU, K_MAXS, K_MAXW, K_MINC, K_MINT, K_NAME, K_ORG,
	K_PNAME, K_PREEM, K_PRIO, K_QOS, K_RPC, K_SHARE, K_UF, K_USER,
};

struct sm_col {
	const char *header;
	int len;    /* < 0: left-justified */
	int cut;    /* strings are cut to the width with a '+'; numbers and times are not */
	enum sm_key key;
};

#define SM_UNSET INT64_MIN

/* One line of output: what its cells print; NULL strings and SM_UNSET
 * numbers are empty cells. */
struct sm_rec {
	const char *cluster, *account, *user, *parent, *def_acct, *admin, *desc, *org, *name;
	const char *qos, *def_qos, *host;
	int64_t share, prio, port, rpc;
	const struct sl_lim_set *lim; /* NULL: no limits */
	int qos_obj;                  /* a QOS: GraceTime, PreemptMode, UsageFactor */
};

/* sacctmgr_fields.c: `format=` items ("name" or "name%WIDTH", already
 * lowercased) to columns, by Slurm's table. Errors: "Unknown field 'x'"
 * (-SL_EINVAL), "X is not supported by Sluice" (-SL_EUNSUPP). */
int sm_columns(char *const *items, size_t n, struct sm_col **cols, size_t *nc, struct sl_err *err);
void sm_print_header(struct sl_buf *b, const struct sm_col *c, size_t nc, int parsable);
void sm_print_line(struct sl_buf *b, const struct sm_col *c, size_t nc, const struct sm_rec *r,
		   int parsable);

/* sacctmgr_cmd.c's result. Lists are NULL-terminated, lowercased, or NULL
 * when not given. */
struct sl_sacctmgr_cmd {
	enum sl_sacctmgr_act act;
	enum sm_entity ent;
	struct sm_col *cols;
	size_t ncols;
	char **names, **users, **accounts, **clusters, **parts, **parents, **qos, **def_qos,
		**def_acct, **desc, **org;
	int admin;          /* -1: any, else 0 None, 1 Operator, 2 Administrator */
	int with_assoc;     /* -s or WithAssoc */
	int only_defs, with_sub, wop_info, wop_limits;
};

/* sacctmgr_rows.c */
int sm_list(const struct sl_sacctmgr_cmd *c, const struct sl_sacctmgr_opts *o,
	    const struct sl_assoc_info *ai, struct sl_buf *b, struct sl_err *err);

#endif
