/* A deterministic RNG and a monotonic clock: see rng_clock.h. */
#include "core/arenabench.h"
#include "lib/rng_clock.h"

void ab_rng_seed(struct ab_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

uint64_t ab_rng_next(struct ab_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t ab_rng_below(struct ab_rng *r, uint64_t n)
{
	return n <= 1 ? 0 : ab_rng_next(r) % n;
}

double ab_now_seconds(void)
{
	return ab_clock_ns(CLOCK_MONOTONIC) / 1e9;
}
