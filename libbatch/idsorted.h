/* idsorted.h - arrays of records kept in job-id order, the id their first
 * member: where an id is, or would go, by binary search (sluiced's gates
 * and limits keep their waiting jobs so). */
#ifndef SL_IDSORTED_H
#define SL_IDSORTED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first index of v[0..n) (each `size` bytes, a uint64_t id first) whose
 * id is not below id. */
static inline size_t sl_idsorted_lower(const void *v, size_t n, size_t size, uint64_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t at;
		memcpy(&at, (const char *)v + mid * size, sizeof(at));
		if (at < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
