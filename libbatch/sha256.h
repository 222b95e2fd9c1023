/* sha256.h - SHA-256 of a buffer in one call. */
#ifndef SL_SHA256_H
#define SL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SL_SHA256_LEN 32

void sl_sha256(const void *data, size_t len, uint8_t out[SL_SHA256_LEN]);
/* The same as 64 lowercase hex digits and a NUL. */
void sl_sha256_hex(const void *data, size_t len, char out[2 * SL_SHA256_LEN + 1]);

#endif
