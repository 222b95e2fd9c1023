/* ratelimit.h - client-side pacing for the Kubernetes REST client: a token
 * bucket (QPS/burst, as client-go's flowcontrol) and jittered exponential
 * backoff. Pure arithmetic over an injected clock so tests need no sleeping. */
#ifndef SL_K8S_RATELIMIT_H
#define SL_K8S_RATELIMIT_H

#include <stdint.h>

/* client-go rest.DefaultQPS / rest.DefaultBurst. */
#define SL_RATELIMIT_DEFAULT_QPS 5.0
#define SL_RATELIMIT_DEFAULT_BURST 10

struct sl_ratelimit;

/* qps == 0 selects the defaults (5/10); qps < 0 disables limiting (every
 * take succeeds). burst < 1 is treated as 1. The bucket starts full at
 * now_ms. Caller frees with sl_ratelimit_free(). */
struct sl_ratelimit *sl_ratelimit_new(double qps, int burst, int64_t now_ms);
void sl_ratelimit_free(struct sl_ratelimit *r);

/* Take one token if available: returns 0 when taken, else the number of
 * milliseconds (>= 1) until one will be (nothing is taken then). Callers keep
 * their own FIFO, so a request never overtakes an earlier one. */
int64_t sl_ratelimit_try(struct sl_ratelimit *r, int64_t now_ms);

/* Tokens available now (for tests and `scontrol show config`). */
double sl_ratelimit_tokens(struct sl_ratelimit *r, int64_t now_ms);

/* Delay before retry number `attempt` (1 = first retry): base * 2^(attempt-1)
 * capped at cap_ms, then "equal jitter": uniformly in [d/2, d] driven by
 * rnd (any 32-bit random value), so concurrent clients spread out but the
 * delay never collapses to zero. */
int64_t sl_backoff_delay(int attempt, int64_t base_ms, int64_t cap_ms, uint32_t rnd);

/* Server-requested delay (Retry-After seconds) plus up to 10 % jitter, so a
 * herd told "retry in 1 s" does not return in lockstep. cap_ms bounds a
 * hostile or buggy header. */
int64_t sl_retry_after_delay(int64_t retry_after_s, int64_t cap_ms, uint32_t rnd);

#endif
