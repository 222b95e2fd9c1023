/* query_opt.c - getopt_long's default scan (permuted: operands anywhere)
 * over optable's scanner, which stops at the first operand as sbatch
 * needs. */
#include "query_opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_state.h"
#include "xalloc.h"

static int apply(const struct sl_optval *v, size_t n, const char *prog, void *ctx,
		 struct sl_err *err)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < n; i++) {
		if ((r = sl_opt_apply_one(&v[i], ctx, err)) == -SL_EUNSUPP &&
		    strncmp(err->msg, "--", 2) == 0) {
			char msg[SL_ERR_MSG_MAX + 64];
			snprintf(msg, sizeof(msg), "%.32s: error: %s", prog, err->msg);
			sl_err_clear(err);
			r = sl_err_set(err, SL_EUNSUPP, "%s", msg);
		}
	}
	return r;
}

int sl_query_opt_parse(const struct sl_opt *table, const char *prog, int argc, char **argv,
		       void *ctx, char ***ops, size_t *n_ops, int *syntax, struct sl_err *err)
{
	struct sl_optval *v = NULL;
	size_t n = 0;
	int at = 1, next = 1, r = 0;

	*ops = NULL;
	*n_ops = 0;
	*syntax = 0;
	while (r == 0 && at < argc) {
		if ((r = sl_opt_scan(table, argc, argv, at, &v, &n, &next, err)) != 0) {
			*syntax = 1;
			break;
		}
		r = apply(v, n, prog, ctx, err);
		free(v);
		v = NULL;
		/* "--" was the word before: the rest are operands */
		int rest = next > at && strcmp(argv[next - 1], "--") == 0;
		for (at = next; r == 0 && at < argc && (rest || at == next); at++) {
			*ops = sl_xrealloc(*ops, (*n_ops + 1) * sizeof(**ops));
			(*ops)[(*n_ops)++] = argv[at];
		}
	}
	if (r != 0) {
		free(*ops);
		*ops = NULL;
		*n_ops = 0;
	}
	return r;
}

int sl_query_opt_parse_cmd(const struct sl_opt *table, const char *prog, int argc, char **argv,
			   void *ctx, char ***ops, size_t *n_ops, struct sl_err *err)
{
	struct sl_err e = SL_ERR_INIT;
	int syntax = 0, r = sl_query_opt_parse(table, prog, argc, argv, ctx, ops, n_ops, &syntax, &e);

	if (r != 0 && syntax)
		sl_err_set(err, -r, "%s: %s\nTry \"%s --help\" for more information", prog, e.msg,
			   prog);
	else if (r != 0)
		sl_err_set(err, -r, "%s", e.msg);
	return r;
}

int sl_query_set_nothing(void *ctx, const char *arg, struct sl_err *err)
{
	(void)ctx;
	(void)arg;
	(void)err;
	return 0;
}

void sl_query_list_set(char ***v, size_t *n, const char *s)
{
	sl_strv_free(*v);
	*v = NULL;
	*n = 0;
	sl_slurm_list_append(v, n, s);
}
