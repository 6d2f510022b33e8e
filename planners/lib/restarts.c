/*
 * Restart schedule and key perturbation (see restarts.h).
 * Complexity: ab_luby O(log i); ab_random_factors O(n).
 * Source: M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las
 * Vegas algorithms", Information Processing Letters 47 (1993); own code.
 */
#include "lib/restarts.h"

uint64_t ab_luby(uint64_t i)
{
	/* if i = 2^k - 1 the term is 2^(k-1); otherwise it repeats the
	 * sequence from its start: term(i - (2^(k-1) - 1)) for the k with
	 * 2^(k-1) <= i < 2^k - 1 */
	for (;;) {
		uint64_t k = 1;

		while ((UINT64_C(1) << k) - 1 < i)
			k++;
		if ((UINT64_C(1) << k) - 1 == i)
			return UINT64_C(1) << (k - 1);
		i -= (UINT64_C(1) << (k - 1)) - 1;
	}
}

void ab_random_factors(double *factor, size_t n, double spread,
		       struct ab_rng *rng)
{
	for (size_t i = 0; i < n; i++) {
		double u = (double)(ab_rng_next(rng) >> 11) * 0x1p-53;

		factor[i] = 1.0 + spread * (2.0 * u - 1.0);
	}
}
