/* buf.c - capped growable buffer. */
#include "buf.h"
#include "err.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The live bytes are data[off, off + len): consuming from the front moves
 * off, and the bytes are moved down only when the space is needed, so that
 * sending a megabyte in socket-sized pieces does not move the rest each
 * time. */
struct sl_buf {
	char *data;
	size_t off, len, alloc, cap;
};

struct sl_buf *sl_buf_new(size_t cap)
{
	struct sl_buf *b = sl_xcalloc(1, sizeof(*b));
	b->cap = cap;
	b->alloc = 64;
	b->data = sl_xmalloc(b->alloc);
	b->data[0] = '\0';
	return b;
}

void sl_buf_free(struct sl_buf *b)
{
	if (b == NULL)
		return;
	free(b->data);
	free(b);
}

static int reserve(struct sl_buf *b, size_t n)
{
	if (n > b->cap || b->len + n > b->cap)
		return -SL_ETOOBIG;
	if (b->off > 0 && b->off + b->len + n + 1 > b->alloc) {
		memmove(b->data, b->data + b->off, b->len + 1);
		b->off = 0;
	}
	if (b->len + n + 1 > b->alloc) {
		size_t a = b->alloc;
		while (a < b->len + n + 1)
			a *= 2;
		b->data = sl_xrealloc(b->data, a);
		b->alloc = a;
	}
	return 0;
}

int sl_buf_add(struct sl_buf *b, const void *p, size_t n)
{
	int r = reserve(b, n);
	if (r != 0)
		return r;
	memcpy(b->data + b->off + b->len, p, n);
	b->len += n;
	b->data[b->off + b->len] = '\0';
	return 0;
}

int sl_buf_addstr(struct sl_buf *b, const char *s)
{
	return sl_buf_add(b, s, strlen(s));
}

int sl_buf_addc(struct sl_buf *b, char c)
{
	return sl_buf_add(b, &c, 1);
}

int sl_buf_addf(struct sl_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -SL_EINTERNAL;
	if ((r = reserve(b, (size_t)n)) != 0)
		return r;
	va_start(ap, fmt);
	vsnprintf(b->data + b->off + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

const char *sl_buf_str(const struct sl_buf *b)
{
	return b->data + b->off;
}

void *sl_buf_data(struct sl_buf *b)
{
	return b->data + b->off;
}

size_t sl_buf_len(const struct sl_buf *b)
{
	return b->len;
}

void sl_buf_consume(struct sl_buf *b, size_t n)
{
	if (n >= b->len) {
		sl_buf_reset(b);
		return;
	}
	b->off += n;
	b->len -= n;
}

void sl_buf_reset(struct sl_buf *b)
{
	b->off = 0;
	b->len = 0;
	b->data[0] = '\0';
}

void sl_buf_truncate(struct sl_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->data[b->off + len] = '\0';
	}
}

char *sl_buf_steal(struct sl_buf *b)
{
	char *p = b->data;

	if (b->off > 0)
		memmove(p, p + b->off, b->len + 1);
	b->off = 0;
	b->alloc = 64;
	b->len = 0;
	b->data = sl_xmalloc(b->alloc);
	b->data[0] = '\0';
	return p;
}
