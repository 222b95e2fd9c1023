/* xalloc.h - allocation wrappers: running out of memory is fatal, so callers
 * never carry an ENOMEM path. Untrusted sizes must be capped before calling. */
#ifndef SL_XALLOC_H
#define SL_XALLOC_H

#include <stddef.h>

void *sl_xmalloc(size_t n);
void *sl_xcalloc(size_t nmemb, size_t size);
void *sl_xrealloc(void *p, size_t n);
/* Grow an array to hold at least `need` elements, doubling; updates *cap. */
void *sl_xgrow(void *p, size_t *cap, size_t need, size_t elsize);
char *sl_xstrdup(const char *s);          /* NULL in, NULL out */
char *sl_xstrndup(const char *s, size_t n);
char *sl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Free a NULL-terminated array of strings and the array itself. */
void sl_strv_free(char **v);
size_t sl_strv_len(char *const *v);
char **sl_strv_dup(char *const *v);

#endif
