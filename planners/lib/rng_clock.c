/* A deterministic RNG and a monotonic clock: see rng_clock.h. */
#include "core/arenabench.h"
#include "lib/rng_clock.h"

void ab_rng_seed(struct ab_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

/* splitmix64: the state steps by the golden gamma, ab_mix64 is the step
 * and the finaliser at once. */
uint64_t ab_rng_next(struct ab_rng *r)
{
	uint64_t z = ab_mix64(r->s);

	r->s += 0x9e3779b97f4a7c15ull;
	return z;
}

uint64_t ab_rng_below(struct ab_rng *r, uint64_t n)
{
	return n <= 1 ? 0 : ab_rng_next(r) % n;
}

double ab_now_seconds(void)
{
	return ab_clock_ns(CLOCK_MONOTONIC) / 1e9;
}
