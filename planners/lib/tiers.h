/*
 * Memory tiers as a planner combinator: a fast memory of fixed capacity in front of a slower one
 * (TCM or SRAM in front of external RAM), each its own arena.
 *
 * Motivation: TFLite Micro issue 2627 asks for several tensor arenas (its
 * example: 128 kB of internal SRAM next to 32 MB of external RAM, and a
 * model whose 140 kB arena then has to live entirely in the slow one);
 * issue 1173 lists TCM, OCRAM and HyperRAM of an i.MX RT1170.  ExecuTorch
 * PR 21821 plans against an ordered list of banks with byte capacities
 * (buffers fill the fastest bank that can hold them, the rest spill; one
 * bank gives greedy's own plan).  Here any registered planner plans each
 * tier.
 *
 * Algorithm (ab_plan_tiers), tiers fastest first:
 *  1. Rank every buffer by benefit density: benefit / (size x live steps),
 *     the benefit per byte-step of the tier's capacity x time it occupies.
 *     By bytes the benefit is the size (density 1 / live steps: short-lived
 *     buffers first); by accesses it is size x accesses (density accesses
 *     per live step).  Ties: larger first, then earlier first use, then
 *     index; zero-size buffers first.  Deterministic.
 *  2. For each tier but the last, among the unplaced buffers of size <= its
 *     capacity C, in rank order:
 *     a. the longest prefix whose lower bound (most raw bytes live at one
 *        step, a necessary condition for any plan) is <= C;
 *     b. plan that prefix with the planner; if its peak > C, binary search
 *        for a prefix length k that fits with k + 1 not fitting (the planned
 *        peak is not monotone in k, so this is a fitting prefix, not always
 *        the longest);
 *     c. greedy pass: every later candidate whose lower bound with the
 *        chosen set is <= C is tried alone (chosen + it, planned again) and
 *        kept if the peak still fits.
 *     Each planner run of b and c counts against max_runs_per_tier; when
 *     it is spent, the tier keeps the best fitting set so far.
 *  3. The last tier takes every remaining buffer in one planner run.  With
 *     a capacity that the peak exceeds, the plan fails with the bytes
 *     needed; without one it is unbounded.
 *  4. Flat layout: tier t is arena t, based at the end of tier t - 1
 *     rounded up to the largest effective alignment; each arena is sized
 *     to its tier's planned peak.  A single tier is exactly the planner's
 *     own plan (a multi-arena planner's arenas merge into the one tier).
 * A planner always sees its buffers in their original index order (a
 * sub-problem keeps steps and phase markers), so a tier holding every
 * buffer gets the planner's own plan.
 *
 * Complexity: ranking O(n log n); per bounded tier O(log n + R) planner
 * runs on at most n buffers, each with O(n) copying, R <= max_runs_per_tier
 * (default 256); the lower-bound test of a candidate is O(log n) (the
 * library's range tree, range_tree.h, over the compressed times).
 *
 * Weak spots: the density charges a buffer for every step it lives, also
 * where the fast tier is not contested; the prefix search and the greedy
 * pass are heuristics for a knapsack whose weight (the planned peak) is
 * not additive, so a better set may exist; a full tier is never revisited
 * to make room for the next one.
 *
 * The tier list and its rules are core/tiers.h; the check of a tiered
 * plan, check/check.h's ab_tiers_check.  Contract: functions return 0 or
 * a negative errno and fill struct ab_error; nothing prints.
 */
#ifndef AB_LIB_TIERS_H
#define AB_LIB_TIERS_H

#include "core/arenabench.h"
#include "core/tiers.h"

struct ab_tier_report {
	int n_tiers;
	uint64_t peak[AB_MAX_ARENAS];         /* = the plan's arena_size[t] */
	uint64_t capacity[AB_MAX_ARENAS];     /* 0 = unbounded */
	size_t buffers[AB_MAX_ARENAS];
	uint64_t bytes[AB_MAX_ARENAS];        /* raw sizes of its buffers */
	uint64_t access_bytes[AB_MAX_ARENAS]; /* sum of size x accesses */
	uint64_t spilled_bytes;               /* raw bytes outside tier 0 */
	size_t spilled_buffers;
	uint64_t planner_runs;                /* all tiers, the last included */
	bool budget_exhausted;                /* a tier stopped at its run bound */
};

/*
 * Plans p over the tiers (see the top of this file).  accesses[i] is
 * buffer i's reads + writes (ab_buffer_accesses, core) or NULL (1 each; then
 * by accesses ranks as by bytes).  out has room for p->n buffers
 * (ab_plan_alloc); on success out->n_arenas = n_tiers and arena t is tier
 * t.  rep may be NULL.  A last tier too small for the rest fails with
 * -ENOSPC and a message naming the tier, the bytes needed and its capacity.
 */
int ab_plan_tiers(const struct ab_problem *p, const uint32_t *accesses,
		  const struct ab_planner *pl, const struct ab_plan_options *o,
		  const struct ab_tier *tiers, int n_tiers,
		  const struct ab_tier_options *to, struct ab_plan *out,
		  struct ab_tier_report *rep, struct ab_error *err);

/* The combinator (struct ab_combinator.plan) over self, a struct
 * ab_tier_set: ab_plan_tiers with its tiers and options; fills res with
 * each tier's peak and the bytes spilled out of tier 0. */
int ab_tiers_combine(const void *self, const struct ab_planner *pl,
		     const struct ab_problem *p, const uint32_t *accesses,
		     const struct ab_plan_options *o, struct ab_plan *out,
		     struct ab_combined *res, struct ab_error *err);

#endif
