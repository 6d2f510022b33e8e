/*
 * What the budgeted planners (local_search, exact) need besides placement:
 * a deterministic generator, so a seed gives one answer, and a monotonic
 * clock for the wall-clock safety stop only (budgets count iterations).
 */
#ifndef AB_RNG_CLOCK_H
#define AB_RNG_CLOCK_H

#include <stdint.h>

/* splitmix64 / xoshiro-style generator: deterministic per seed. */
struct ab_rng {
	uint64_t s;
};
void ab_rng_seed(struct ab_rng *r, uint64_t seed);
uint64_t ab_rng_next(struct ab_rng *r);
/* Uniform in [0, n), n >= 1. */
uint64_t ab_rng_below(struct ab_rng *r, uint64_t n);

/* Monotonic seconds, for the wall-clock safety stop only. */
double ab_now_seconds(void);

#endif
