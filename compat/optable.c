/* optable.c - getopt_long-compatible scanning over a struct sl_opt table, and
 * input environment variables mapped onto the same rows. The messages are
 * glibc's, since Slurm's commands let getopt print them. */
#include "optable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct scan {
	const struct sl_opt *table;
	int argc;
	char *const *argv;
	int i;                  /* current argv index */
	struct sl_optval *vals;
	size_t n, cap;
	int ddash;              /* "--" ended the options */
	struct sl_err *err;
};

static void push(struct scan *s, const struct sl_opt *o, const char *arg)
{
	s->vals = sl_xgrow(s->vals, &s->cap, s->n + 1, sizeof(*s->vals));
	s->vals[s->n].opt = o;
	s->vals[s->n].arg = arg;
	s->n++;
}

const struct sl_opt *sl_opt_find(const struct sl_opt *table, const char *name)
{
	for (; table->name || table->key; table++)
		if (table->name && strcmp(table->name, name) == 0)
			return table;
	return NULL;
}

const struct sl_opt *sl_opt_find_key(const struct sl_opt *table, int key)
{
	if (key <= 0)
		return NULL;
	for (; table->name || table->key; table++)
		if (table->key == key)
			return table;
	return NULL;
}

int sl_opt_apply_one(const struct sl_optval *v, void *ctx, struct sl_err *err)
{
	if ((v->opt->flags & SL_OPTF_UNSUPP) || v->opt->set == NULL)
		return sl_err_set(err, SL_EUNSUPP, "--%s is not supported by Sluice",
				  v->opt->name);
	return v->opt->set(ctx, v->arg, err);
}

/* Exact match, else the unique prefix match. Several prefix matches that
 * are the same option (aliases with one key and argument kind) are not
 * ambiguous, as in glibc. */
static int match_long(struct scan *s, const char *name, size_t len,
		      const struct sl_opt **out)
{
	const struct sl_opt *t, *first = NULL;
	int ambiguous = 0;
	char list[SL_ERR_MSG_MAX] = "";
	size_t used = 0;

	for (t = s->table; t->name || t->key; t++) {
		if (t->name == NULL || strncmp(t->name, name, len) != 0)
			continue;
		if (strlen(t->name) == len) {
			*out = t;
			return 0;
		}
		if (first == NULL)
			first = t;
		else if (first->key == 0 || t->key != first->key || t->arg != first->arg)
			ambiguous = 1;
	}
	if (first == NULL)
		return sl_err_set(s->err, SL_EINVAL, "unrecognized option '--%s'", name);
	if (!ambiguous) {
		*out = first;
		return 0;
	}
	for (t = s->table; t->name || t->key; t++) {
		if (t->name && strncmp(t->name, name, len) == 0 && used + 1 < sizeof(list)) {
			int w = snprintf(list + used, sizeof(list) - used, " '--%s'", t->name);
			if (w > 0)
				used += (size_t)w;
		}
	}
	return sl_err_set(s->err, SL_EINVAL, "option '--%.*s' is ambiguous; possibilities:%s",
			  (int)len, name, list);
}

/* argv[s->i] is "--name[=value]". */
static int scan_long(struct scan *s)
{
	const char *word = s->argv[s->i] + 2;
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	const struct sl_opt *o = NULL;
	int r;

	if ((r = match_long(s, word, len, &o)) != 0)
		return r;
	s->i++;
	if (o->arg == SL_OPT_NOARG) {
		if (eq)
			return sl_err_set(s->err, SL_EINVAL,
					  "option '--%s' doesn't allow an argument", o->name);
		push(s, o, NULL);
	} else if (eq) {
		push(s, o, eq + 1);
	} else if (o->arg == SL_OPT_OPTARG) {
		push(s, o, NULL);
	} else if (s->i < s->argc) {
		push(s, o, s->argv[s->i++]);
	} else {
		return sl_err_set(s->err, SL_EINVAL, "option '--%s' requires an argument",
				  o->name);
	}
	return 0;
}

/* argv[s->i] is a cluster of short options "-abN2". */
static int scan_short(struct scan *s)
{
	const char *p = s->argv[s->i] + 1;

	s->i++;
	for (; *p; p++) {
		const struct sl_opt *o = sl_opt_find_key(s->table, (unsigned char)*p);

		if (o == NULL || *p == '-' || *p == '=')
			return sl_err_set(s->err, SL_EINVAL, "invalid option -- '%c'", *p);
		if (o->arg == SL_OPT_NOARG) {
			push(s, o, NULL);
			continue;
		}
		if (p[1] != '\0') {
			push(s, o, p + 1);
		} else if (o->arg == SL_OPT_OPTARG) {
			push(s, o, NULL);
		} else if (s->i < s->argc) {
			push(s, o, s->argv[s->i++]);
		} else {
			return sl_err_set(s->err, SL_EINVAL,
					  "option requires an argument -- '%c'", *p);
		}
		break;
	}
	return 0;
}

/* Scan option words from s->i until an operand, "--" (passed over, and
 * s->ddash set) or an error. short_only: a table of getopt() without long
 * options, where "--x" is the option '-' (refused). */
static int scan_run(struct scan *s, int short_only)
{
	while (s->i < s->argc) {
		const char *w = s->argv[s->i];
		int r;

		if (w[0] != '-' || w[1] == '\0')
			return 0;
		if (strcmp(w, "--") == 0) {
			s->i++;
			s->ddash = 1;
			return 0;
		}
		if (w[1] == '-' && short_only)
			return sl_err_set(s->err, SL_EINVAL, "invalid option -- '-'");
		if ((r = (w[1] == '-') ? scan_long(s) : scan_short(s)) != 0)
			return r;
	}
	return 0;
}

int sl_opt_scan(const struct sl_opt *table, int argc, char *const *argv, int start,
		struct sl_optval **vals, size_t *n, int *optind, struct sl_err *err)
{
	struct scan s = {table, argc, argv, start, NULL, 0, 0, 0, err};
	int r = scan_run(&s, 0);

	if (r != 0) {
		free(s.vals);
		s.vals = NULL;
		s.n = 0;
	}
	*vals = s.vals;
	*n = s.n;
	*optind = s.i;
	return r;
}

/* glibc's permutation: the operands met on the way are moved after the
 * option words, keeping their order, the ones before "--" first; argv is
 * left as it was on an error. The option arguments are argv's strings,
 * so moving the pointers keeps them. */
int sl_opt_scan_permute(const struct sl_opt *table, int argc, char **argv, unsigned flags,
			struct sl_optval **vals, size_t *n, int *optind, int *ddash,
			struct sl_err *err)
{
	struct scan s = {table, argc, argv, 1, NULL, 0, 0, 0, err};
	char **words = sl_xcalloc((size_t)argc + 1, sizeof(*words));
	char **ops = sl_xcalloc((size_t)argc + 1, sizeof(*ops));
	int n_ops = 0, n_words = 0, r = 0;

	while (r == 0 && s.i < argc && !s.ddash) {
		int from = s.i;

		if ((r = scan_run(&s, (flags & SL_OPTSCAN_SHORT) != 0)) != 0)
			break;
		for (int k = from; k < s.i; k++) /* the option words, in order */
			words[n_words++] = argv[k];
		if (s.i < argc && !s.ddash)
			ops[n_ops++] = argv[s.i++];
	}
	if (r != 0) {
		free(s.vals);
		s.vals = NULL;
		s.n = 0;
	} else {
		while (s.i < argc) /* after "--": operands all */
			ops[n_ops++] = argv[s.i++];
		memcpy(argv + 1, words, (size_t)n_words * sizeof(*words));
		memcpy(argv + 1 + n_words, ops, (size_t)n_ops * sizeof(*ops));
	}
	free(words);
	free(ops);
	*vals = s.vals;
	*n = s.n;
	*optind = 1 + n_words;
	*ddash = s.ddash;
	return r;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

const char *sl_opt_env_name(const struct sl_opt *o, char *const *envp)
{
	int i;

	for (i = 0; i < 2; i++)
		if (o->env[i] && env_get(envp, o->env[i]))
			return o->env[i];
	return NULL;
}

/* Keep the environment entries that start like one of the table's
 * variables (up to the first '_': "SBATCH_", "SLURM_"), so the per-option
 * lookups scan a handful of entries, not the whole environment once per
 * table row. Caller frees the array (not the strings). */
#define PREFIX_MAX 8

static size_t table_prefixes(const struct sl_opt *table, const char **pre, size_t *len)
{
	size_t n = 0;
	for (const struct sl_opt *t = table; t->name || t->key; t++)
		for (int i = 0; i < 2; i++) {
			const char *e = t->env[i], *u = e ? strchr(e, '_') : NULL;
			size_t k = u ? (size_t)(u - e) + 1 : (e ? strlen(e) : 0), j;
			if (e == NULL)
				continue;
			for (j = 0; j < n && !(len[j] == k && strncmp(pre[j], e, k) == 0); j++)
				;
			if (j == n && n < PREFIX_MAX) {
				pre[n] = e;
				len[n++] = k;
			}
		}
	return n;
}

static char **env_candidates(const struct sl_opt *table, char *const *envp)
{
	const char *pre[PREFIX_MAX];
	size_t len[PREFIX_MAX], np = table_prefixes(table, pre, len), n = 0, cap = 0;
	char **v = sl_xcalloc(1, sizeof(*v));

	for (; envp && *envp; envp++)
		for (size_t j = 0; j < np; j++)
			if (strncmp(*envp, pre[j], len[j]) == 0) {
				v = sl_xgrow(v, &cap, n + 2, sizeof(*v));
				v[n++] = *envp;
				v[n] = NULL;
				break;
			}
	return v;
}

void sl_opt_from_env(const struct sl_opt *table, char *const *all_envp,
		     struct sl_optval **vals, size_t *n)
{
	struct scan s = {table, 0, NULL, 0, NULL, 0, 0, 0, NULL};
	char **envp = env_candidates(table, all_envp);
	const struct sl_opt *t;

	for (t = table; t->name || t->key; t++) {
		int i;
		/* The first listed variable wins (SBATCH_HINT over SLURM_HINT). */
		for (i = 0; i < 2; i++) {
			const char *v = t->env[i] ? env_get(envp, t->env[i]) : NULL;
			if (v) {
				push(&s, t, v);
				break;
			}
		}
	}
	free(envp);
	*vals = s.vals;
	*n = s.n;
}

void sl_getopt_complain(const char *prog, char *const *argv, int ind, int opt)
{
	if (opt && opt < 256)
		fprintf(stderr, "%s: invalid option -- '%c'\n", prog, opt);
	else
		fprintf(stderr, "%s: unrecognized option '%s'\n", prog, argv[ind - 1]);
	fprintf(stderr, "Try \"%s --help\" for more information\n", prog);
}
