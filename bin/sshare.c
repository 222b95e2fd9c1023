/* sshare.c - accounts' and users' shares and usage, as Slurm 22.05's
 * sshare prints them. Options through compat's table, one
 * sl_client_shares() call, print through compat/sshare_fmt (which says
 * how the numbers are normalized; bin/sluiced/h_share.c where they come
 * from). */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "query_opt.h"
#include "slurm_state.h"
#include "sshare_fmt.h"
#include "xalloc.h"

#define OUT_CAP (64u << 20)

struct opts {
	struct sl_sshare_opts o;
	char **users, **accounts, *format;
	size_t n_users, n_accounts;
	int help, version, helpformat;
};

#define O(c) ((struct opts *)(c))
FLAG(set_all, o.all, 1)
FLAG(set_long, o.long_list, 1)
FLAG(set_parts, o.partitions, 1)
FLAG(set_noheader, o.noheader, 1)
FLAG(set_parsable, o.parsable, 1)
FLAG(set_parsable2, o.parsable, 2)
FLAG(set_users_only, o.users_only, 1)
FLAG(set_help, help, 1)
FLAG(set_version, version, 1)
FLAG(set_helpformat, helpformat, 1)
SET(set_accounts)
{
	(void)err;
	sl_slurm_list_append(&O(ctx)->accounts, &O(ctx)->n_accounts, arg);
	return 0;
}
/* Slurm's -o adds to the list, "-u -1" means all users. */
SET(set_format)
{
	char *f = O(ctx)->format;
	(void)err;
	O(ctx)->format = sl_xasprintf("%s%s%s", f ? f : "", f ? "," : "", arg);
	free(f);
	return 0;
}
SET(set_users)
{
	(void)err;
	if (strcmp(arg, "-1") == 0) {
		O(ctx)->o.all = 1;
		return 0;
	}
	O(ctx)->o.all = 0;
	sl_slurm_list_append(&O(ctx)->users, &O(ctx)->n_users, arg);
	return 0;
}

static const struct sl_opt table[] = {
	ROW("accounts", 'A', SL_OPT_REQ, set_accounts),
	ROW("all", 'a', SL_OPT_NOARG, set_all),
	ROW("helpformat", 'e', SL_OPT_NOARG, set_helpformat),
	ROW("noheader", 'h', SL_OPT_NOARG, set_noheader),
	ROW("long", 'l', SL_OPT_NOARG, set_long),
	ROW("partition", 'm', SL_OPT_NOARG, set_parts),
	ROW("noheader", 'n', SL_OPT_NOARG, set_noheader),
	ROW("format", 'o', SL_OPT_REQ, set_format),
	ROW("parsable", 'p', SL_OPT_NOARG, set_parsable),
	ROW("parsable2", 'P', SL_OPT_NOARG, set_parsable2),
	ROW("users", 'u', SL_OPT_REQ, set_users),
	ROW("Users", 'U', SL_OPT_NOARG, set_users_only),
	ROW("verbose", 'v', SL_OPT_NOARG, sl_query_set_nothing),
	ROW("version", 'V', SL_OPT_NOARG, set_version),
	ROW("help", 0, SL_OPT_NOARG, set_help),
	ROW("usage", 0, SL_OPT_NOARG, set_help),
	UNSUPP("cluster", 'M', SL_OPT_REQ),
	UNSUPP("clusters", 'M', SL_OPT_REQ),
	{NULL, 0, SL_OPT_NOARG, {NULL, NULL}, 0, NULL},
};

static const char help_text[] =
	"Usage:  sshare [OPTION]\n"
	"  Valid OPTIONs are:\n"
	"    -a or --all            list all users\n"
	"    -A or --accounts=      display specific accounts (comma separated list)\n"
	"    -e or --helpformat     Print a list of fields that can be specified\n"
	"                           with the '--format' option\n"
	"    -l or --long           include normalized usage in output\n"
	"    -m or --partition      print the partition part of the association\n"
	"    -n or --noheader       omit header from output\n"
	"    -o or --format=        Comma separated list of fields. (use\n"
	"                           (\"--helpformat\" for a list of available fields).\n"
	"    -p or --parsable       '|' delimited output with a trailing '|'\n"
	"    -P or --parsable2      '|' delimited output without a trailing '|'\n"
	"    -u or --users=         display specific users (comma separated list)\n"
	"    -U or --Users          display only user information\n"
	"    -v or --verbose        display more information\n"
	"    -V or --version        display tool version number\n"
	"          --help           display this usage description\n"
	"          --usage          display this usage description\n"
	"\nAccounts are the config's `accounts:`; see README, \"sshare\", for where\n"
	"shares and usage come from.\n";

static const char helpformat_text[] =
	"Account           Cluster           EffectvUsage      FairShare        \n"
	"GrpTRESMins       GrpTRESRaw        ID                LevelFS          \n"
	"NormShares        NormUsage         Partition         RawShares        \n"
	"RawUsage          TRESRunMins       User             ";

static void parse(int argc, char **argv, struct opts *o)
{
	struct sl_err err = SL_ERR_INIT;
	char **ops = NULL;
	size_t n_ops = 0;

	if (sl_query_opt_parse_cmd(table, "sshare", argc, argv, o, &ops, &n_ops, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		exit(1);
	}
	free(ops); /* sshare reads no operands */
	if (o->help || o->helpformat || o->version) {
		fputs(o->help ? help_text : o->helpformat ? helpformat_text : "slurm 22.05.8\n",
		      stdout);
		exit(0);
	}
	if (!o->o.all && o->n_users == 0) { /* without -u or -a: the caller */
		struct passwd *pw = getpwuid(getuid());
		if (pw)
			sl_slurm_list_append(&o->users, &o->n_users, pw->pw_name);
	}
	o->o.users = o->users;
	o->o.accounts = o->accounts;
	o->o.format = o->format;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct sl_err err = SL_ERR_INIT;
	struct sl_share_row *rows = NULL;
	struct sl_buf *b;
	size_t n = 0;
	int r;

	parse(argc, argv, &o);
	if ((r = sl_client_shares(&rows, &n, &err)) != 0) {
		/* slurm_perror()'s line, and exit(SLURM_ERROR) */
		fprintf(stderr, "Couldn't get shares from controller: %s\n",
			r == -SL_ECONNECT ? "Unable to contact slurm controller (connect failure)"
					  : err.msg);
		sl_strv_free(o.users), sl_strv_free(o.accounts), free(o.format);
		return 255;
	}
	b = sl_buf_new(OUT_CAP);
	r = sl_sshare_print(rows, n, &o.o, b, &err);
	fwrite(sl_buf_str(b), 1, sl_buf_len(b), stdout);
	if (r != 0)
		fprintf(stderr, "sshare: error: %s\n", err.msg);
	sl_buf_free(b);
	sl_share_rows_free(rows, n);
	sl_strv_free(o.users), sl_strv_free(o.accounts), free(o.format);
	return r != 0;
}
