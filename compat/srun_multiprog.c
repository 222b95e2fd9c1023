/* srun_multiprog.c - srun --multi-prog's file, and %s in file patterns
 * (srun_multiprog.h). */
#include "srun_multiprog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define MP_LINE_MAX 4096

static void push(char ***v, size_t *n, char *s)
{
	*v = sl_xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* Words of a line: blanks split, '...' and "..." quote, '#' comments. */
static char **words(const char *line, size_t *n)
{
	char **v = NULL, w[MP_LINE_MAX];
	const char *p = line;
	*n = 0;
	for (;;) {
		size_t k = 0;
		int any = 0;
		while (*p && isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			break;
		while (*p && !isspace((unsigned char)*p) && k + 1 < sizeof(w)) {
			char q = *p;
			any = 1;
			if (q == '\'' || q == '"') {
				for (p++; *p && *p != q && k + 1 < sizeof(w); p++)
					w[k++] = *p;
				p += *p == q;
			} else {
				w[k++] = *p++;
			}
		}
		w[k] = '\0';
		if (any)
			push(&v, n, sl_xstrdup(w));
	}
	return v;
}

/* Is t in "0,2-4" or "*"? *off: its offset in the range that holds it. */
static int in_ranks(const char *spec, int t, int *off)
{
	const char *p = spec;
	if (strcmp(spec, "*") == 0) {
		*off = t;
		return 1;
	}
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (*end != ',' && *end != '\0')
			return -1;
		if (t >= lo && t <= hi) {
			*off = (int)(t - lo);
			return 1;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

static char *subst(const char *w, int t, int off)
{
	size_t cap = strlen(w) * 8 + 32, k = 0;
	char *s = sl_xcalloc(cap, 1);
	for (const char *p = w; *p && k + 12 < cap; p++) {
		if (p[0] == '%' && (p[1] == 't' || p[1] == 'o'))
			k += (size_t)snprintf(s + k, cap - k, "%d", *++p == 't' ? t : off);
		else
			s[k++] = *p;
	}
	return s;
}

int sl_srun_multiprog_argv(const char *text, const char *path, int ntasks, int t,
			   char ***argv, struct sl_err *err)
{
	const char *p = text;
	int lineno = 0;
	*argv = NULL;
	(void)ntasks;
	while (p && *p) {
		size_t len = strcspn(p, "\n"), nw = 0;
		char line[MP_LINE_MAX];
		int off = 0, in;
		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		char **w = words(line, &nw);
		if (nw == 0) {
			sl_strv_free(w);
			continue;
		}
		if (nw < 2 || (in = in_ranks(w[0], t, &off)) < 0) {
			sl_strv_free(w);
			return sl_err_set(err, SL_EINVAL, "srun: error: Line %d of configuration "
					  "file %s invalid", lineno, path);
		}
		if (in) {
			size_t n = 0;
			char **v = NULL;
			for (size_t i = 1; i < nw; i++)
				push(&v, &n, subst(w[i], t, off));
			sl_strv_free(w);
			*argv = v;
			return 0;
		}
		sl_strv_free(w);
	}
	return sl_err_set(err, SL_EINVAL, "srun: error: Configuration file %s invalid, no "
			  "record for task id %d", path, t);
}

int sl_srun_multiprog_check(const char *text, const char *path, int ntasks,
			    struct sl_err *err)
{
	for (int t = 0; t < ntasks; t++) {
		char **v = NULL;
		int r = sl_srun_multiprog_argv(text, path, ntasks, t, &v, err);
		sl_strv_free(v);
		if (r != 0)
			return r;
	}
	return 0;
}

char *sl_srun_pattern_step(const char *pat, unsigned long long job, unsigned step)
{
	size_t cap = strlen(pat) * 32 + 16, k = 0;
	char *s = sl_xcalloc(cap, 1);
	for (const char *p = pat; *p && k + 32 < cap; p++) {
		size_t d = p[0] == '%' ? strspn(p + 1, "0123456789") : 0;
		int w = d > 0 && d < 3 ? atoi(p + 1) : 0; /* "%4s": zero-padded, as %4j */
		if (w > 10)
			w = 10;
		if (p[0] == '%' && p[1] == '%') {
			s[k++] = *p++;
			s[k++] = *p;
		} else if (p[0] == '%' && d < 3 && p[1 + d] == 's') {
			k += (size_t)snprintf(s + k, cap - k, "%0*u", w, step);
			p += 1 + d;
		} else if (p[0] == '%' && d < 3 && p[1 + d] == 'J') { /* srun's %J: JOB.STEP */
			k += (size_t)snprintf(s + k, cap - k, "%0*llu.%u", w, job, step);
			p += 1 + d;
		} else {
			s[k++] = *p;
		}
	}
	return s;
}
