/*
 * Restarts for a budgeted tree search: Luby's universal schedule of node
 * limits and per-buffer random factors that perturb a preorder's keys,
 * so each restart branches in another order.
 */
#ifndef AB_RESTARTS_H
#define AB_RESTARTS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/rng_clock.h"

/* Luby, Sinclair and Zuckerman (1993): 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...;
 * i >= 1 is the restart's number. */
uint64_t ab_luby(uint64_t i);

/* factor[0..n): independent, uniform in [1 - spread, 1 + spread]. */
void ab_random_factors(double *factor, size_t n, double spread,
		       struct ab_rng *rng);

#endif
