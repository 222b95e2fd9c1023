/* optable.h - a generic option table: one row per option serves the command
 * line, script directives (#SBATCH, #PBS) and input environment variables.
 *
 * sl_opt_scan() follows glibc getopt_long with a leading '+': options stop
 * at the first non-option word or at "--" (sbatch's script and its
 * arguments); sl_opt_scan_permute() follows it without one, options
 * anywhere (PBS's commands). Long options may be abbreviated to any
 * unique prefix; "-N2", "-N 2", "--nodes=2" and "--nodes 2" are equivalent.
 * Scanning only checks syntax; the caller applies the values in the order it
 * wants (directives, then environment, then command line). */
#ifndef SL_OPTABLE_H
#define SL_OPTABLE_H

#include <stddef.h>
#include "err.h"

enum sl_opt_arg { SL_OPT_NOARG = 0, SL_OPT_REQ, SL_OPT_OPTARG };

/* Row flags. Bits from 8 up are free for the table's owner. */
#define SL_OPTF_UNSUPP 0x1u /* a real option of the emulated command that
                              Sluice refuses rather than silently ignores */

struct sl_opt {
	const char *name;      /* long name without "--" */
	int key;               /* short option letter; 0 if none. Rows sharing
	                          a non-zero key are aliases. */
	enum sl_opt_arg arg;
	const char *env[2];    /* input environment variables, or NULL */
	unsigned flags;
	/* Apply one value (arg may be NULL for SL_OPT_NOARG/SL_OPT_OPTARG).
	 * ctx is the caller's; NULL for SL_OPTF_UNSUPP rows. */
	int (*set)(void *ctx, const char *arg, struct sl_err *err);
};
/* A table ends with a row whose name is NULL and key is 0. */

/* One option occurrence. arg is borrowed from argv (or NULL). */
struct sl_optval {
	const struct sl_opt *opt;
	const char *arg;
};

/* Scan argv[start..argc) (argv[0] is the program name and is skipped when
 * start is 1). On success *vals (caller frees with free()) holds the
 * occurrences in order and *optind the index of the first non-option word.
 * On a syntax error returns -SL_EINVAL with getopt's text in err, e.g.
 * "unrecognized option '--foo'" or "option requires an argument -- 'J'". */
int sl_opt_scan(const struct sl_opt *table, int argc, char *const *argv, int start,
		struct sl_optval **vals, size_t *n, int *optind, struct sl_err *err);

/* The same as getopt() or getopt_long() without a leading '+' scan
 * (glibc's default): options anywhere, operands moved after them in argv
 * (their order kept), "--" still ending the options. On success
 * argv[optind..argc) are the operands and *ddash says "--" ended the
 * options (it is argv[optind - 1] then). flags SL_OPTSCAN_SHORT: the
 * command's getopt() has no long options, so "--x" is the option '-',
 * "invalid option -- '-'". POSIXLY_CORRECT (glibc's stop at the first
 * operand) is not read: options after an operand are always taken. */
#define SL_OPTSCAN_SHORT 0x1u
int sl_opt_scan_permute(const struct sl_opt *table, int argc, char **argv, unsigned flags,
			struct sl_optval **vals, size_t *n, int *optind, int *ddash,
			struct sl_err *err);

/* The row for a long name (exact match only) or a short key; NULL if none. */
const struct sl_opt *sl_opt_find(const struct sl_opt *table, const char *name);
const struct sl_opt *sl_opt_find_key(const struct sl_opt *table, int key);

/* Occurrences built from input environment variables, in table order:
 * for every row with an env name set in envp, one value "VAL" (borrowed from
 * envp). Caller frees *vals with free(). */
void sl_opt_from_env(const struct sl_opt *table, char *const *envp,
		     struct sl_optval **vals, size_t *n);

/* Apply one occurrence: call its row's set(), or for an SL_OPTF_UNSUPP row
 * fail with SL_EUNSUPP "--NAME is not supported by Sluice". */
int sl_opt_apply_one(const struct sl_optval *v, void *ctx, struct sl_err *err);

/* Which of o's variables is set in envp (for messages), or NULL. */
const char *sl_opt_env_name(const struct sl_opt *o, char *const *envp);

/* For the commands that scan with getopt_long itself (scontrol, sbcast):
 * getopt's words for the option it refused (optopt as opt, or argv[ind - 1]
 * for a long one), then Slurm's "Try ... --help" line, on stderr. */
void sl_getopt_complain(const char *prog, char *const *argv, int ind, int opt);

#endif
