/* xalloc.c - OOM-fatal allocation. Aborting beats a half-handled ENOMEM path
 * in a daemon that must never lose a committed job: the store survives. */
#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr, "sluice: fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *sl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		oom(n);
	return p;
}

void *sl_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *sl_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL)
		oom(n);
	return q;
}

void *sl_xgrow(void *p, size_t *cap, size_t need, size_t elsize)
{
	size_t c = *cap;
	if (need <= c)
		return p;
	if (c < 8)
		c = 8;
	while (c < need) {
		if (c > SIZE_MAX / 2 / elsize)
			oom(SIZE_MAX);
		c *= 2;
	}
	p = sl_xrealloc(p, c * elsize);
	*cap = c;
	return p;
}

char *sl_xstrdup(const char *s)
{
	return s == NULL ? NULL : sl_xstrndup(s, strlen(s));
}

char *sl_xstrndup(const char *s, size_t n)
{
	char *p;
	if (s == NULL)
		return NULL;
	p = sl_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sl_xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	p = sl_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void sl_strv_free(char **v)
{
	if (v == NULL)
		return;
	for (char **p = v; *p != NULL; p++)
		free(*p);
	free(v);
}

size_t sl_strv_len(char *const *v)
{
	size_t n = 0;
	while (v != NULL && v[n] != NULL)
		n++;
	return n;
}

char **sl_strv_dup(char *const *v)
{
	size_t n = sl_strv_len(v);
	char **r = sl_xcalloc(n + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = sl_xstrdup(v[i]);
	return r;
}
