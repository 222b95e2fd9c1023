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

/* The program's words after the rank spec, as slurmstepd's multi_prog.c
 * reads them: blanks split; '...' keeps its text as it is (no %t in it);
 * '\\' takes the next character; %t is the task's rank, %o its offset in
 * its range, another %X nothing; double quotes are ordinary characters.
 * NULL for a quote left open. */
static char **args_of(const char *s, int t, int off, size_t *n)
{
	char **v = NULL, w[MP_LINE_MAX];

	*n = 0;
	for (;;) {
		size_t k = 0;
		while (*s && isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			return v;
		while (*s && !isspace((unsigned char)*s) && k + 16 < sizeof(w)) {
			if (*s == '%') {
				if (s[1] == 't' || s[1] == 'o')
					k += (size_t)snprintf(w + k, sizeof(w) - k, "%d",
							      s[1] == 't' ? t : off);
				s += s[1] ? 2 : 1;
			} else if (*s == '\\') {
				if (*++s)
					w[k++] = *s++;
			} else if (*s == '\'') {
				const char *e = strchr(s + 1, '\'');
				if (e == NULL) {
					sl_strv_free(v);
					*n = 0;
					return NULL;
				}
				for (s++; s < e && k + 16 < sizeof(w); s++)
					w[k++] = *s;
				s = e + 1;
			} else {
				w[k++] = *s++;
			}
		}
		w[k] = '\0';
		push(&v, n, sl_xstrdup(w));
	}
}

int sl_srun_multiprog_argv(const char *text, const char *path, int ntasks, int t,
			   char ***argv, struct sl_err *err)
{
	const char *p = text;
	int lineno = 0;
	*argv = NULL;
	(void)ntasks;
	while (p && *p) {
		size_t len = strcspn(p, "\n");
		char line[MP_LINE_MAX];
		int off = 0, in;
		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		char *q = line, *spec;
		while (*q && isspace((unsigned char)*q))
			q++;
		if (*q == '\0' || *q == '#') /* whole-line comments only */
			continue;
		spec = q;
		while (*q && !isspace((unsigned char)*q))
			q++;
		if (*q != '\0')
			*q++ = '\0';
		char **v = NULL;
		size_t n = 0;
		while (*q && isspace((unsigned char)*q))
			q++;
		if ((in = in_ranks(spec, t, &off)) == 1)
			v = args_of(q, t, off, &n);
		if (in < 0 || *q == '\0' || (in == 1 && n == 0)) {
			sl_strv_free(v);
			return sl_err_set(err, SL_EINVAL, "srun: error: Line %d of configuration "
					  "file %s invalid", lineno, path);
		}
		if (in == 1) {
			*argv = v;
			return 0;
		}
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
