/* query_opt.h - the command lines of squeue, sacct and scancel: option
 * tables (optable.h) scanned the way their getopt_long does, options and
 * operands mixed. The tables and what their rows set live in
 * squeue_opt.c, sacct_opt.c and scancel_opt.c. */
#ifndef SL_QUERY_OPT_H
#define SL_QUERY_OPT_H

#include <stddef.h>
#include "err.h"
#include "optable.h"

/* Apply argv[1..argc)'s options through table's setters (ctx is theirs),
 * in order, and collect the operands (borrowed from argv) in *ops (caller
 * frees the array). "--" ends the options. Errors: getopt's syntax text
 * with *syntax = 1 (the command adds its "Try --help" line); a row marked
 * SL_OPTF_UNSUPP: "<prog>: error: --NAME is not supported by Sluice";
 * otherwise the setter's message, which is the whole text Slurm writes. */
int sl_query_opt_parse(const struct sl_opt *table, const char *prog, int argc, char **argv,
		       void *ctx, char ***ops, size_t *n_ops, int *syntax, struct sl_err *err);

/* The same for a command's main(), which prints err's message and exits 1
 * on an error: a syntax error's text is getopt's as the command writes it,
 * "<prog>: <text>\nTry \"<prog> --help\" for more information". */
int sl_query_opt_parse_cmd(const struct sl_opt *table, const char *prog, int argc, char **argv,
			   void *ctx, char ***ops, size_t *n_ops, struct sl_err *err);

/* The parsers' rows and setters. Each file defines O(ctx) as a cast to
 * its own options struct before using FLAG or LIST. */
#define SET(name) static int name(void *ctx, const char *arg, struct sl_err *err)
#define FLAG(name, field, value) SET(name) { (void)arg; (void)err; O(ctx)->field = value; return 0; }
/* A selector list sel.F/sel.n_F filled by add (sl_slurm_list_append or
 * sl_query_list_set) from the comma list. */
#define LIST(name, add, F) SET(name) { (void)err; add(&O(ctx)->sel.F, &O(ctx)->sel.n_##F, arg); return 0; }
#define UNSUPP(name, key, arg) {name, key, arg, {NULL, NULL}, SL_OPTF_UNSUPP, NULL}
#define ROW(name, key, arg, fn) {name, key, arg, {NULL, NULL}, 0, fn}

/* A setter for options accepted and ignored (Slurm's federation and
 * display-only flags Sluice has no use for). */
int sl_query_set_nothing(void *ctx, const char *arg, struct sl_err *err);

/* Replace a list option's values with the comma list s (Slurm's commands
 * keep the last -p, not all of them); empty items are dropped. */
void sl_query_list_set(char ***v, size_t *n, const char *s);

#endif
