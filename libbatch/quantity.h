/* quantity.h - Kubernetes resource quantities as exact integer milli-units.
 * "1" cpu = 1000, "500m" = 500, "1Gi" memory = 1073741824000 (bytes * 1000).
 * No floating point anywhere in quota arithmetic. */
#ifndef SL_QUANTITY_H
#define SL_QUANTITY_H

#include <stdint.h>
#include "err.h"

/* Parse "1", "0.5", "500m", "1Gi", "1e3", "2k", ... into milli-units.
 * Values that are not whole milli-units round up (as Kubernetes does for
 * requests). Returns 0 or -SL_EINVAL on syntax/overflow (no message set;
 * callers name the field). */
int sl_quantity_parse(const char *s, int64_t *milli);

/* Canonical text: whole units when divisible ("4", "32Gi" for memory-like
 * values that are exact binary multiples, "1500m" otherwise). Writes at most
 * len bytes including NUL. */
void sl_quantity_format(int64_t milli, char *buf, size_t len);

#endif
