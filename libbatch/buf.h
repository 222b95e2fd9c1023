/* buf.h - growable byte buffer with a hard cap (every buffer has one). */
#ifndef SL_BUF_H
#define SL_BUF_H

#include <stddef.h>
#include <stdarg.h>

struct sl_buf;

/* cap: the largest size the buffer may reach; appends past it fail. */
struct sl_buf *sl_buf_new(size_t cap);
void sl_buf_free(struct sl_buf *b);

/* 0, or -SL_ETOOBIG when the cap would be passed (buffer unchanged). */
int sl_buf_add(struct sl_buf *b, const void *p, size_t n);
int sl_buf_addstr(struct sl_buf *b, const char *s);
int sl_buf_addf(struct sl_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sl_buf_addc(struct sl_buf *b, char c);

/* Data stays NUL-terminated (the NUL is not counted in len). Borrowed. */
const char *sl_buf_str(const struct sl_buf *b);
void *sl_buf_data(struct sl_buf *b);
size_t sl_buf_len(const struct sl_buf *b);
/* Drop n bytes from the front (consumed input). */
void sl_buf_consume(struct sl_buf *b, size_t n);
void sl_buf_reset(struct sl_buf *b);
/* Keep the first len bytes (len <= length): undo appends. */
void sl_buf_truncate(struct sl_buf *b, size_t len);
/* Take ownership of the contents; the buffer is left empty. Caller frees. */
char *sl_buf_steal(struct sl_buf *b);

#endif
