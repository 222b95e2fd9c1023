/* quantity.c - Kubernetes quantity grammar to exact int64 milli-units.
 *
 *   quantity ::= [+-] number suffix
 *   number   ::= digits | digits "." [digits] | "." digits
 *   suffix   ::= "" | n u m k M G T P E | Ki Mi Gi Ti Pi Ei | (e|E) [+-] digits
 *
 * The value is digits * 2^a * 10^b with integers a >= 0 and any b, so it is
 * computed exactly: no floating point, every step checked for overflow, and
 * fractions of a milli-unit rounded away from zero as Kubernetes does. Negative
 * values parse (the grammar allows them); callers decide whether to refuse. */
#include "quantity.h"

#include <stdio.h>
#include <string.h>

#define QTY_MAX_LEN 64   /* longer strings are not quantities anyone writes */

struct suffix {
	const char *text;
	int pow2;  /* value is multiplied by 2^pow2 ... */
	int pow10; /* ... and by 10^pow10 */
};

static const struct suffix suffixes[] = {
	{"n", 0, -9}, {"u", 0, -6}, {"m", 0, -3}, {"", 0, 0},
	{"k", 0, 3}, {"M", 0, 6}, {"G", 0, 9}, {"T", 0, 12}, {"P", 0, 15}, {"E", 0, 18},
	{"Ki", 10, 0}, {"Mi", 20, 0}, {"Gi", 30, 0}, {"Ti", 40, 0}, {"Pi", 50, 0},
	{"Ei", 60, 0},
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "e-3", "E12": the exponent form. */
static int parse_exponent(const char *s, int *pow10)
{
	int neg = 0, v = 0;

	if (*s != 'e' && *s != 'E')
		return -1;
	s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!is_digit(*s))
		return -1;
	for (; is_digit(*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > 100000) /* far past overflow or zero; keeps ints small */
			return -1;
	}
	if (*s != '\0')
		return -1;
	*pow10 = neg ? -v : v;
	return 0;
}

static int parse_suffix(const char *s, int *pow2, int *pow10)
{
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcmp(s, suffixes[i].text) == 0) {
			*pow2 = suffixes[i].pow2;
			*pow10 = suffixes[i].pow10;
			return 0;
		}
	}
	*pow2 = 0;
	return parse_exponent(s, pow10);
}

/* v = v * 10 + d, or -1 on overflow. */
static int push_digit(uint64_t *v, int d)
{
	if (*v > (UINT64_MAX - (uint64_t)d) / 10)
		return -1;
	*v = *v * 10 + (uint64_t)d;
	return 0;
}

/* ceil(D * 2^pow2 * 10^pow10), D the integer spelled by digits[0..n) (no
 * leading zero). The first n + pow10 digits are the integer part; the rest
 * are folded from the last one backwards into floor(fraction * 2^pow2)
 * (nested floors are exact) while noting any nonzero remainder. */
static int scale(const char *digits, long n, int pow2, long pow10, uint64_t *out)
{
	uint64_t v = 0, mult = (uint64_t)1 << pow2;
	uint64_t frac = 0, t; /* frac < mult <= 2^60, so t < 10 * 2^60 fits */
	long keep = n + pow10, i;
	int inexact = 0;

	if (keep > 20)
		return -1; /* >= 10^20 > UINT64_MAX */
	for (i = 0; i < keep; i++)
		if (push_digit(&v, i < n ? digits[i] - '0' : 0) != 0)
			return -1;
	if (v != 0 && v > UINT64_MAX / mult)
		return -1;
	v *= mult;
	for (i = n - 1; i >= 0 && i >= keep; i--) {
		t = (uint64_t)(digits[i] - '0') * mult + frac;
		inexact |= (t % 10) != 0;
		frac = t / 10;
	}
	/* Zeros between the point and the first digit ("0.00d"). */
	for (i = keep; i < 0 && frac != 0; i++) {
		inexact |= (frac % 10) != 0;
		frac /= 10;
	}
	if (v > UINT64_MAX - frac - 1)
		return -1;
	*out = v + frac + (uint64_t)inexact;
	return 0;
}

int sl_quantity_parse(const char *s, int64_t *milli)
{
	char digits[QTY_MAX_LEN];
	size_t n = 0, nint = 0;
	int neg = 0, seen = 0, pow2, pow10;
	uint64_t v;

	if (s == NULL || strlen(s) >= QTY_MAX_LEN)
		return -SL_EINVAL;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; is_digit(*s); s++, seen = 1)
		if (n > 0 || *s != '0')
			digits[n++] = *s;
	nint = n;
	if (*s == '.')
		for (s++; is_digit(*s); s++, seen = 1)
			digits[n++] = *s;
	if (!seen || parse_suffix(s, &pow2, &pow10) != 0)
		return -SL_EINVAL;
	/* Leading zeros of a pure fraction only shift the exponent. */
	pow10 += 3 - (int)(n - nint);
	while (n > 0 && digits[0] == '0')
		memmove(digits, digits + 1, --n);
	while (n > 0 && digits[n - 1] == '0') {
		n--;
		pow10++;
	}
	if (n == 0) {
		*milli = 0;
		return 0;
	}
	if (scale(digits, (long)n, pow2, pow10, &v) != 0 || v > (uint64_t)INT64_MAX)
		return -SL_EINVAL;
	*milli = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Binary suffixes only from Mi upwards: a memory size is a multiple of 1Mi in
 * practice, while "2Ki" cpus would only confuse. */
void sl_quantity_format(int64_t milli, char *buf, size_t len)
{
	static const char *const bin[] = {"Ei", "Pi", "Ti", "Gi", "Mi"};
	const char *sign = milli < 0 ? "-" : "";
	uint64_t mag = milli < 0 ? 0 - (uint64_t)milli : (uint64_t)milli;
	uint64_t units = mag / 1000;
	int i;

	if (len == 0)
		return;
	if (mag % 1000 != 0) {
		snprintf(buf, len, "%s%llum", sign, (unsigned long long)mag);
		return;
	}
	for (i = 0; i < 5; i++) {
		uint64_t unit = (uint64_t)1 << (60 - 10 * i);
		if (units >= unit && units % unit == 0) {
			snprintf(buf, len, "%s%llu%s", sign,
				 (unsigned long long)(units / unit), bin[i]);
			return;
		}
	}
	snprintf(buf, len, "%s%llu", sign, (unsigned long long)units);
}
