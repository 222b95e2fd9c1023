/* slurm_conf.c - reads slurm.conf into logical lines of KEY=VALUE pairs, as
 * slurmctld's parser sees them: '#' starts a comment unless escaped, a
 * trailing '\' joins the next line, "Include FILE" reads FILE in place. */
#include "slurm_conf.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

#define LINE_MAX_BYTES (1 << 20) /* one logical line, continuations joined */

struct sl_slurm_conf {
	size_t n, cap;
	struct sl_sconf_line *v;
	char *stack[SL_SCONF_INCLUDE_DEPTH + 1]; /* files being read, for loops */
	int depth;
};

static void line_free(struct sl_sconf_line *l)
{
	for (size_t i = 0; i < l->nkv; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	free(l->file);
	free(l->text);
}

void sl_slurm_conf_free(struct sl_slurm_conf *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++)
		line_free(&c->v[i]);
	free(c->v);
	free(c);
}

size_t sl_slurm_conf_nlines(const struct sl_slurm_conf *c)
{
	return c->n;
}

const struct sl_sconf_line *sl_slurm_conf_line(const struct sl_slurm_conf *c, size_t i)
{
	return i < c->n ? &c->v[i] : NULL;
}

const char *sl_sconf_line_get(const struct sl_sconf_line *l, const char *key)
{
	const char *v = NULL;
	for (size_t i = 0; l && i < l->nkv; i++)
		if (strcasecmp(l->kv[i].key, key) == 0)
			v = l->kv[i].value;
	return v;
}

static int is_entity(const char *key)
{
	static const char *const ents[] = {"NodeName", "PartitionName", "NodeSet", "DownNodes",
					   "FrontendName", "SwitchName", NULL};
	for (size_t i = 0; ents[i]; i++)
		if (strcasecmp(key, ents[i]) == 0)
			return 1;
	return 0;
}

const char *sl_slurm_conf_get(const struct sl_slurm_conf *c, const char *key)
{
	const char *v = NULL;
	for (size_t i = 0; i < c->n; i++) {
		const struct sl_sconf_line *l = &c->v[i];
		if (l->nkv == 0 || is_entity(l->kv[0].key))
			continue;
		const char *x = sl_sconf_line_get(l, key);
		if (x)
			v = x;
	}
	return v;
}

/* Split a logical line into KEY=VALUE tokens; "a b" quotes keep blanks. */
static int tokenize(struct sl_sconf_line *l, const char *s, struct sl_err *err)
{
	size_t cap = 0;
	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		const char *start = s, *eq = NULL;
		char *val = sl_xmalloc(strlen(s) + 1);
		size_t vl = 0;
		int q = 0;
		for (; *s && (q || !isspace((unsigned char)*s)); s++) {
			if (!eq && *s == '=') {
				eq = s;
				continue;
			}
			if (*s == '"' && eq) {
				q = !q;
				continue;
			}
			if (eq)
				val[vl++] = *s;
		}
		val[vl] = 0;
		if (q || !eq || eq == start) {
			free(val);
			return sl_err_set(err, SL_EINVAL, "%s:%d: %s \"%.*s\"", l->file, l->line,
					  q ? "unterminated quote in" : "expected KEY=VALUE, got",
					  (int)(s - start), start);
		}
		l->kv = sl_xgrow(l->kv, &cap, l->nkv + 1, sizeof(*l->kv));
		l->kv[l->nkv].key = sl_xstrndup(start, (size_t)(eq - start));
		l->kv[l->nkv++].value = val;
	}
	return 0;
}

/* Drop the comment: '#' not escaped as "\#" (which stands for '#'). */
static void strip_comment(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] == '#') {
			*w++ = '#';
			r++;
			continue;
		}
		if (*r == '#')
			break;
		*w++ = *r;
	}
	*w = 0;
	while (w > s && isspace((unsigned char)w[-1]))
		*--w = 0;
}

static int read_file(struct sl_slurm_conf *c, const char *path, struct sl_err *err);

/* "Include PATH": relative to the including file's directory; globs. */
static int include(struct sl_slurm_conf *c, const char *from, const char *arg, int line,
		   struct sl_err *err)
{
	char *pat;
	const char *slash = strrchr(from, '/');
	glob_t g;
	int r = 0;
	if (arg[0] == '/' || !slash)
		pat = sl_xstrdup(arg);
	else
		pat = sl_xasprintf("%.*s/%s", (int)(slash - from), from, arg);
	if (glob(pat, GLOB_NOCHECK, NULL, &g) != 0) {
		free(pat);
		return sl_err_set(err, SL_EINVAL, "%s:%d: Include %s: no such file", from, line, arg);
	}
	for (size_t i = 0; i < g.gl_pathc && r == 0; i++)
		r = read_file(c, g.gl_pathv[i], err);
	globfree(&g);
	free(pat);
	return r;
}

static int add_line(struct sl_slurm_conf *c, const char *file, int lineno, char *text,
		    struct sl_err *err)
{
	if (c->n >= SL_SCONF_LINES_MAX)
		return sl_err_set(err, SL_ETOOBIG, "%s:%d: more than %d lines", file, lineno,
				  SL_SCONF_LINES_MAX);
	c->v = sl_xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
	struct sl_sconf_line *l = &c->v[c->n++];
	memset(l, 0, sizeof(*l));
	l->file = sl_xstrdup(file);
	l->line = lineno;
	l->text = sl_xstrdup(text);
	char *t = text;
	while (isspace((unsigned char)*t))
		t++;
	if (strncasecmp(t, "include", 7) == 0 && isspace((unsigned char)t[7])) {
		char *arg = t + 8;
		while (isspace((unsigned char)*arg))
			arg++;
		/* kept as one pair so the report can show it */
		l->kv = sl_xcalloc(1, sizeof(*l->kv));
		l->kv[0].key = sl_xstrdup("Include");
		l->kv[0].value = sl_xstrdup(arg);
		l->nkv = 1;
		return include(c, file, arg, lineno, err);
	}
	return tokenize(l, t, err);
}

static int read_file(struct sl_slurm_conf *c, const char *path, struct sl_err *err)
{
	FILE *f = NULL;
	char *buf = NULL, *logical = NULL;
	size_t cap = 0, ll = 0;
	int lineno = 0, start = 0, r = -SL_EINTERNAL;
	for (int i = 0; i < c->depth; i++)
		if (strcmp(c->stack[i], path) == 0)
			return sl_err_set(err, SL_EINVAL, "%s: Include loop", path);
	if (c->depth >= SL_SCONF_INCLUDE_DEPTH)
		return sl_err_set(err, SL_EINVAL, "%s: Includes nested deeper than %d", path,
				  SL_SCONF_INCLUDE_DEPTH);
	if ((f = fopen(path, "r")) == NULL)
		return sl_err_set(err, SL_EIO, "%s: %s", path, strerror(errno));
	c->stack[c->depth++] = (char *)path;
	logical = sl_xmalloc(LINE_MAX_BYTES);
	while (getline(&buf, &cap, f) >= 0) {
		size_t n = strlen(buf);
		lineno++;
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = 0;
		/* comments go first: a '\' before a comment still continues */
		strip_comment(buf);
		n = strlen(buf);
		int cont = n && buf[n - 1] == '\\' && (n < 2 || buf[n - 2] != '\\');
		if (cont)
			buf[--n] = 0;
		if (ll == 0)
			start = lineno;
		if (ll + n + 2 > LINE_MAX_BYTES) {
			r = sl_err_set(err, SL_ETOOBIG, "%s:%d: line longer than %d bytes", path,
				       lineno, LINE_MAX_BYTES);
			goto out;
		}
		memcpy(logical + ll, buf, n + 1);
		ll += n;
		if (cont) {
			logical[ll++] = ' ';
			logical[ll] = 0;
			continue;
		}
		if (logical[strspn(logical, " \t")] && (r = add_line(c, path, start, logical, err)) != 0)
			goto out;
		ll = 0;
	}
	if (ll) { /* a '\' on the last line joins nothing */
		if (logical[strspn(logical, " \t")] && (r = add_line(c, path, start, logical, err)) != 0)
			goto out;
	}
	r = 0;
out:
	c->depth--;
	free(logical);
	free(buf);
	fclose(f);
	return r;
}

int sl_slurm_conf_load(const char *path, struct sl_slurm_conf **out, struct sl_err *err)
{
	struct sl_slurm_conf *c = sl_xcalloc(1, sizeof(*c));
	int r = read_file(c, path, err);
	if (r != 0) {
		sl_slurm_conf_free(c);
		c = NULL;
	}
	*out = c;
	return r;
}
