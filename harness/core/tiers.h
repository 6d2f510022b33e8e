/*
 * Memory tiers, the model: a fast memory of fixed capacity in front of a
 * slower one (TCM or SRAM in front of external RAM), each its own arena,
 * fastest first.  The list and its rules (core/tiers.c); the search that
 * fills them is a planner combinator (planners/lib/tiers.h), the check of
 * a tiered plan is check/check.h's ab_tiers_check, the `--tier` spec text
 * is parsed with the other options (cli/options.c).  docs/tiers.md.
 */
#ifndef AB_CORE_TIERS_H
#define AB_CORE_TIERS_H

#include "core/arenabench.h"

#define AB_TIER_NAME_MAX 31
/* Planner runs a bounded tier may spend on its search. */
#define AB_TIER_DEFAULT_RUNS 256

struct ab_tier {
	char name[AB_TIER_NAME_MAX + 1]; /* [a-z0-9_]+ */
	uint64_t capacity;               /* bytes; 0 = unbounded (last only) */
};

/* A character a tier's name may hold: [a-z0-9_]. */
bool ab_tier_name_char(char c);

/* 1..AB_MAX_ARENAS tiers, valid names, no name twice, and only the last
 * tier may be unbounded. */
int ab_tiers_check_list(const struct ab_tier *tiers, int n_tiers,
			struct ab_error *err);

enum ab_tier_benefit {
	AB_TIER_BY_BYTES,    /* keep the most bytes in the fast tiers */
	AB_TIER_BY_ACCESSES, /* keep the most bytes x accesses there */
};
const char *ab_tier_benefit_name(enum ab_tier_benefit b); /* bytes, accesses */
int ab_tier_benefit_from_name(const char *s);             /* -1 if unknown */

struct ab_tier_options {
	enum ab_tier_benefit benefit;
	uint64_t max_runs_per_tier; /* 0 = AB_TIER_DEFAULT_RUNS */
};

/* The tiers of a run (--tier ... --tier-benefit ...): the combinator's
 * configuration (struct ab_combinator.self). */
struct ab_tier_set {
	struct ab_tier tier[AB_MAX_ARENAS];
	int n;
	struct ab_tier_options opt;
};

/* The text of a tiered run for its row (malloc'd, NULL when out of
 * memory): the options column's part, ";tiers=sram:262144+dram;
 * tier_benefit=bytes" (capacities, an unbounded one left out), and each
 * tier's peak, "sram:1024+dram:4096".  self is a struct ab_tier_set. */
char *ab_tiers_options_text(const void *self);
char *ab_tiers_parts_text(const void *self, const struct ab_combined *res);

#endif
