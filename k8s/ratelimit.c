/* ratelimit.c - token bucket and backoff arithmetic (see ratelimit.h). */
#include "k8s/ratelimit.h"
#include "xalloc.h"

#include <stdlib.h>

struct sl_ratelimit {
	double qps;     /* < 0: unlimited */
	double burst;
	double tokens;
	int64_t last_ms;
};

struct sl_ratelimit *sl_ratelimit_new(double qps, int burst, int64_t now_ms)
{
	struct sl_ratelimit *r = sl_xcalloc(1, sizeof(*r));

	if (qps == 0) {
		qps = SL_RATELIMIT_DEFAULT_QPS;
		burst = SL_RATELIMIT_DEFAULT_BURST;
	}
	r->qps = qps;
	r->burst = burst < 1 ? 1 : burst;
	r->tokens = r->burst;
	r->last_ms = now_ms;
	return r;
}

void sl_ratelimit_free(struct sl_ratelimit *r)
{
	free(r);
}

static void refill(struct sl_ratelimit *r, int64_t now_ms)
{
	if (now_ms <= r->last_ms)
		return;
	r->tokens += (double)(now_ms - r->last_ms) * r->qps / 1000.0;
	if (r->tokens > r->burst)
		r->tokens = r->burst;
	r->last_ms = now_ms;
}

double sl_ratelimit_tokens(struct sl_ratelimit *r, int64_t now_ms)
{
	if (r->qps < 0)
		return r->burst;
	refill(r, now_ms);
	return r->tokens;
}

int64_t sl_ratelimit_try(struct sl_ratelimit *r, int64_t now_ms)
{
	double missing;
	int64_t ms;

	if (r->qps < 0)
		return 0;
	refill(r, now_ms);
	/* The epsilon absorbs float error from many small refills. */
	if (r->tokens >= 1.0 - 1e-9) {
		r->tokens -= 1.0;
		return 0;
	}
	missing = 1.0 - r->tokens;
	ms = (int64_t)(missing * 1000.0 / r->qps);
	if ((double)ms * r->qps / 1000.0 < missing - 1e-9)
		ms++;
	return ms < 1 ? 1 : ms;
}

int64_t sl_backoff_delay(int attempt, int64_t base_ms, int64_t cap_ms, uint32_t rnd)
{
	int64_t d = base_ms, half;

	if (attempt < 1)
		attempt = 1;
	for (int i = 1; i < attempt && d < cap_ms; i++)
		d *= 2;
	if (d > cap_ms)
		d = cap_ms;
	half = d / 2;
	return half + (int64_t)(rnd % (uint64_t)(d - half + 1));
}

int64_t sl_retry_after_delay(int64_t retry_after_s, int64_t cap_ms, uint32_t rnd)
{
	int64_t d = retry_after_s < 0 ? 0 : retry_after_s * 1000;

	if (d > cap_ms)
		d = cap_ms;
	return d + (int64_t)(rnd % (uint64_t)(d / 10 + 1));
}
