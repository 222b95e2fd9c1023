/* sacctmgr.c - Slurm's accounting manager, read-only: `show`/`list` of
 * users, accounts, associations, QOS and the cluster, from the config
 * sluiced serves with sshare's associations (one sl_client_assoc_info()
 * call). The words are parsed and the listing printed by
 * compat/sacctmgr_show (Slurm 22.05's keywords, fields and print_fields);
 * whatever would write (add, modify, delete, ...) is refused by name.
 * Snakemake's Slurm executor checks an account with
 * `sacctmgr -n -s list user "$USER" format=account%256`. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "client.h"
#include "query_opt.h"
#include "sacctmgr_show.h"
#include "xalloc.h"

#define OUT_CAP (64u << 20)

struct opts {
	struct sl_sacctmgr_opts o;
	int help, version;
};

#define O(c) ((struct opts *)(c))
FLAG(set_help, help, 1)
FLAG(set_version, version, 1)
FLAG(set_noheader, o.noheader, 1)
FLAG(set_parsable, o.parsable, 1)
FLAG(set_parsable2, o.parsable, 2)
FLAG(set_assoc, o.with_assoc, 1)

/* -i, -o, -Q, -r, -v change what sacctmgr says around changes, or its
 * prompt: nothing a listing shows. */
static const struct sl_opt table[] = {
	ROW("help", 'h', SL_OPT_NOARG, set_help),
	ROW("usage", 0, SL_OPT_NOARG, set_help),
	ROW("immediate", 'i', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("noheader", 'n', SL_OPT_NOARG, set_noheader),
	ROW("oneliner", 'o', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("parsable", 'p', SL_OPT_NOARG, set_parsable),
	ROW("parsable2", 'P', SL_OPT_NOARG, set_parsable2),
	ROW("quiet", 'Q', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("readonly", 'r', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("associations", 's', SL_OPT_NOARG, set_assoc),
	ROW("verbose", 'v', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

static const char help_text[] =
	"sacctmgr [<OPTION>] [<COMMAND>]\n"
	"    Valid <OPTION> values are:\n"
	"     -h or --help: equivalent to \"help\" command\n"
	"     -i or --immediate: commit changes immediately (nothing to commit here)\n"
	"     -n or --noheader: no header will be added to the beginning of output\n"
	"     -p or --parsable: output will be '|' delimited with a '|' at the end\n"
	"     -P or --parsable2: output will be '|' delimited without a '|' at the end\n"
	"     -Q or --quiet: equivalent to \"quiet\" command\n"
	"     -s or --associations: list users and accounts with their associations\n"
	"     -V or --version: equivalent to \"version\" command\n"
	"\n"
	"  Valid <COMMAND> values are:\n"
	"     help                     print this description of use.\n"
	"     list <ENTITY> [<SPECS>]  display info of identified entity, default\n"
	"                              is display all.\n"
	"     show                     same as list\n"
	"     version                  display tool version number.\n"
	"\n"
	"  <ENTITY> may be \"account\", \"association\", \"cluster\", \"qos\" or \"user\".\n"
	"\n"
	"  <SPECS> are different for each command entity pair.\n"
	"       list account       - Descriptions=, Format=, Names=, Organizations=,\n"
	"                            WithAssoc, and association specs\n"
	"       list associations  - Accounts=, Clusters=, Format=, OnlyDefaults,\n"
	"                            Parents=, QosLevel=, Users=, WithSubAccounts,\n"
	"                            WOPInfo, and WOPLimits\n"
	"       list cluster       - Format=, Names=, and WOLimits\n"
	"       list qos           - Descriptions=, Format=, and Names=\n"
	"       list user          - AdminLevel=, DefaultAccount=, Format=, Names=,\n"
	"                            WithAssoc, and association specs\n"
	"\n"
	"  One can get an number of characters by following the field option with\n"
	"  a %NUMBER option.  i.e. format=name%30 will print 30 chars of field name.\n"
	"\n"
	"Sluice lists the config's `accounts:`, Account and QOS objects (see README,\n"
	"\"sacctmgr\"); add, modify, delete and the other entities are not supported.\n";

static int user_exists(const char *name)
{
	return getpwnam(name) != NULL;
}

/* Options and command words; exits on errors, help and version. */
static struct sl_sacctmgr_cmd *parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_sacctmgr_cmd *c = NULL;
	char **ops = NULL;
	size_t n_ops = 0;
	int r;

	o->o.user_exists = user_exists;
	if (sl_query_opt_parse_cmd(table, "sacctmgr", argc, argv, o, &ops, &n_ops, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		exit(1);
	}
	if (!o->help && !o->version &&
	    (r = sl_sacctmgr_parse(ops, n_ops, &o->o, &c, &err)) != 0) {
		fprintf(stderr, "%s%s\n", r == -SL_EUNSUPP ? "sacctmgr: error: " : "", err.msg);
		free(ops);
		exit(1);
	}
	free(ops);
	if (o->help || (c && sl_sacctmgr_cmd_act(c) == SL_SM_HELP))
		fputs(help_text, stdout);
	else if (o->version || sl_sacctmgr_cmd_act(c) == SL_SM_VERSION)
		fputs("slurm 22.05.8\n", stdout);
	if (o->help || o->version || sl_sacctmgr_cmd_act(c) != SL_SM_LIST) {
		sl_sacctmgr_cmd_free(c);
		exit(0);
	}
	return c;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_sacctmgr_cmd *c = parse(argc, argv, &o);
	struct sl_assoc_info *ai = NULL;
	struct sl_buf *b = NULL;
	int r;

	if ((r = sl_client_assoc_info(&ai, &err)) != 0) {
		fprintf(stderr, "sacctmgr: error: Problem talking to the database: %s\n",
			r == -SL_ECONNECT ? "Unable to contact slurm controller (connect failure)"
					  : err.msg);
		goto out;
	}
	b = sl_buf_new(OUT_CAP);
	if ((r = sl_sacctmgr_print(c, &o.o, ai, b, &err)) != 0)
		fprintf(stderr, "sacctmgr: error: %s\n", err.msg);
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
out:
	sl_buf_free(b);
	sl_assoc_info_free(ai);
	sl_sacctmgr_cmd_free(c);
	return r != 0;
}
