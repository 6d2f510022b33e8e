/* The check of a tiered plan (check/check.h). */
#include <errno.h>
#include <inttypes.h>

#include "check/check.h"

int ab_tiers_check(const struct ab_plan *plan, const struct ab_tier *tiers,
		   int n_tiers, struct ab_error *err)
{
	if (plan->n_arenas != n_tiers)
		return ab_fail(err, -EINVAL,
			       "tiered plan has %d arenas, expected one per tier (%d)",
			       plan->n_arenas, n_tiers);
	for (int t = 0; t < n_tiers; t++) {
		if (tiers[t].capacity && plan->arena_size[t] > tiers[t].capacity)
			return ab_fail(err, -ENOSPC,
				       "tier '%s': peak %" PRIu64 " bytes exceeds its capacity %" PRIu64 " bytes",
				       tiers[t].name, plan->arena_size[t],
				       tiers[t].capacity);
		if (t > 0 && plan->arena_base[t] <
				     plan->arena_base[t - 1] + plan->arena_size[t - 1])
			return ab_fail(err, -EINVAL,
				       "tier '%s' starts at %" PRIu64 ", inside tier '%s' (which ends at %" PRIu64
				       "): tiers are separate memories",
				       tiers[t].name, plan->arena_base[t],
				       tiers[t - 1].name,
				       plan->arena_base[t - 1] + plan->arena_size[t - 1]);
	}
	return 0;
}

int ab_tiers_check_set(const void *self, const struct ab_plan *plan,
		       struct ab_error *err)
{
	const struct ab_tier_set *t = self;

	return ab_tiers_check(plan, t->tier, t->n, err);
}
