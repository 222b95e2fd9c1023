/* sacctmgr_show.h - a read-only sacctmgr: the command words of Slurm
 * 22.05's `sacctmgr [OPTIONS] show|list ENTITY [where] [SPECS]` parsed as
 * its src/sacctmgr parses them (keywords by their shortest unambiguous
 * prefixes, conditions, `format=` with `NAME%WIDTH`), and users, accounts,
 * associations, QOS and the cluster printed as its print_fields does,
 * from the shares reply (client.h's sl_assoc_info: the config's
 * `accounts:`, Account and QOS objects, the users that have jobs).
 * Everything that would write (add, modify, delete, ...) and the entities
 * Sluice has no data for are refused by name. Pure: no I/O. */
#ifndef SL_SACCTMGR_SHOW_H
#define SL_SACCTMGR_SHOW_H

#include <stddef.h>
#include "buf.h"
#include "client.h"
#include "err.h"

struct sl_sacctmgr_opts {
	int noheader;   /* -n */
	int parsable;   /* 1: -p ('|' after every field), 2: -P (not after the last) */
	int with_assoc; /* -s: users and accounts with their associations */
	/* A user named in the command who has no entry of their own gets the
	 * "*" entry's associations only when this says the system knows them
	 * (getpwnam); NULL: every name does. */
	int (*user_exists)(const char *name);
};

enum sl_sacctmgr_act {
	SL_SM_LIST,    /* print with sl_sacctmgr_print() */
	SL_SM_HELP,    /* print the usage */
	SL_SM_VERSION, /* print the version */
	SL_SM_NOTHING, /* a keyword that only sets a mode (quiet, oneliner, ...) */
};

struct sl_sacctmgr_cmd;

/* Parse the words after the options. Errors: -SL_EUNSUPP with "X is not
 * supported by Sluice"; -SL_EINVAL with the whole text Slurm's sacctmgr
 * writes to stderr ("Unknown field 'x'", " Unknown condition: x\n Use
 * keyword 'set' to modify value", "No valid entity in list command\n...",
 * "invalid keyword: x"). Caller frees with sl_sacctmgr_cmd_free(). */
int sl_sacctmgr_parse(char *const *words, size_t n, const struct sl_sacctmgr_opts *o,
		      struct sl_sacctmgr_cmd **out, struct sl_err *err);
enum sl_sacctmgr_act sl_sacctmgr_cmd_act(const struct sl_sacctmgr_cmd *c);
void sl_sacctmgr_cmd_free(struct sl_sacctmgr_cmd *c);

/* Append the listing of a SL_SM_LIST command to b. */
int sl_sacctmgr_print(const struct sl_sacctmgr_cmd *c, const struct sl_sacctmgr_opts *o,
		      const struct sl_assoc_info *ai, struct sl_buf *b, struct sl_err *err);

#endif
