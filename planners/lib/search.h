/*
 * Shared mechanics of the baseline and search planners (issue 7), on top
 * of placement.h: placing in an order with any gap rule, and the pieces the
 * budgeted planners share (a deterministic RNG, a clock for the safety
 * stop, the bounded "re-place a suffix" evaluator).
 *
 * Contract: functions named as actions return 0 or a negative errno; none
 * prints or keeps global state.
 */
#ifndef AB_SEARCH_H
#define AB_SEARCH_H

#include "lib/placement.h"

/* A gap rule: hits are the placed, time-overlapping buffers sorted by
 * offset; top is the highest end over all placed buffers so far (the
 * arena's current size).  Returns the offset for a buffer of `size`. */
typedef uint64_t (*ab_fit_fn)(const struct ab_hit *hits, size_t k,
			      uint64_t size, uint64_t align, uint64_t top);

/* Places order[0..m) one by one with `fit`.  Zero-size buffers get offset 0
 * and are not indexed (as TFLite's arenas and XLA's heap do), so they never
 * split a gap.  *top = highest end.  */
int ab_place_in_order_fit(const struct ab_problem *p,
			  const struct ab_plan_options *o,
			  const uint32_t *order, size_t m, ab_fit_fn fit,
			  uint64_t *offsets, uint64_t *top);

/* Re-places order[from..m) by `rule` on top of order[0..from), which keep
 * their offsets[] (as the same rule placed them: a plan from
 * ab_place_in_order over an order with the same first `from` entries is
 * reproduced exactly).  Stops as soon as the highest end exceeds `limit`
 * (then the offsets of order[from..m) are partial).  *top = highest end
 * reached.  Costs one placement query per re-placed buffer, O(log n) per
 * kept one.  Local search's evaluator: a move changes an order from
 * some position on, and a trial worse than the incumbent stops early. */
int ab_place_suffix_within(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m, size_t from,
			   enum ab_fit_rule rule, uint64_t limit,
			   uint64_t *offsets, uint64_t *top);

/* Wrappers with the shape of ab_fit_fn around placement.h's rules. */
uint64_t ab_fit_first_fn(const struct ab_hit *hits, size_t k, uint64_t size,
			 uint64_t align, uint64_t top);
uint64_t ab_fit_best_fn(const struct ab_hit *hits, size_t k, uint64_t size,
			uint64_t align, uint64_t top);

/* order[] = 0..n-1 sorted lexicographically by keys[0], keys[1], ...
 * (each ascending, per buffer), remaining ties by index. */
int ab_order_by_keys(const struct ab_problem *p, uint32_t *order,
		     const uint64_t *const *keys, size_t n_keys);

/* ---------------------------------------------------------- search support */

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


/* ------------------------------------------------ shared-object baselines */

/*
 * The TFLite GPU delegate's GREEDY_IN_ORDER offsets: records stably sorted
 * by first use; each takes, from the pool of objects whose last tenant
 * ended before its first use, the smallest object at least its size or,
 * if it fits closer, the largest smaller one (which grows), else a new
 * object; objects are then laid end to end in creation order
 * (memory_management.cc, ObjectsToOffsets).  Fills offsets[] and *total.
 * This is what reference/baselines.csv calls gpu_greedy_in_order_peak.
 * O(n log n + n * pool) (the pool is a sorted array).
 */
int ab_gpu_greedy_in_order(const struct ab_problem *p, uint64_t *offsets,
			   uint64_t *total);

#endif
