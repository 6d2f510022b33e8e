/*
 * Shared placement mechanics for planners: buffer orders, and the query
 * "which already placed buffers overlap buffer i in time, in offset order"
 * with first-fit and best-fit gap rules on top.  Planners call these; they
 * do not copy them.
 *
 * The time index is a max-segment-tree over the buffers sorted by first
 * use, holding the last use of each placed buffer.  The buffers that
 * overlap [a, b] are the placed ones with first <= b (a prefix of that
 * order) and last >= a (found by pruning subtrees whose max last < a).
 * A query reports its k hits in O((k + 1) log n) and sorts them by offset
 * (insertion sort up to 64 hits, else one radix pass on the offset); placing
 * is O(log n).  Listing makes first fit O(n log n + sum (k + 1) log n); with
 * k ~ sqrt(n) live buffers that is n^1.5.  So ab_place_in_order's first fit
 * does not list when first_fit_index.h's cost estimate says its checkpoint
 * index is cheaper (large problems with many overlaps): same offsets, no k
 * term (docs/scaling.md has the measurements).  Best fit walks every gap
 * of the conflicts' union through the same index when it pays and no
 * buffer is empty (first_fit_index.h's ab_best_fit_route), else lists.
 */
#ifndef AB_PLACEMENT_H
#define AB_PLACEMENT_H

#include "core/arenabench.h"

/* ------------------------------------------------------------------ orders */

/* order[] = buffer indices sorted by size descending, then first use, then
 * index (the size_first_fit order).  Returns 0 or -ENOMEM. */
int ab_order_size_desc(const struct ab_problem *p, uint32_t *order);
/* By first use: ab_order_first_use, and ab_order_stable_by for any key
 * (core/arenabench.h). */

/* Number of entries of the ascending array a[0..n) that are <= x. */
static inline size_t ab_count_le_i32(const int32_t *a, size_t n, int32_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ------------------------------------------------------------- the placer */

struct ab_hit {
	uint64_t offset; /* first byte */
	uint64_t end;    /* one past the last byte */
};

struct ab_placer {
	const struct ab_problem *p;
	size_t m;            /* buffers in the index */
	size_t leaves;       /* power of two >= m */
	uint32_t *by_first;  /* position -> buffer (sorted by first, index) */
	int32_t *first_at;   /* position -> first use, for binary search */
	uint32_t *pos_of;    /* buffer -> position, UINT32_MAX if not indexed */
	int32_t *tree;       /* max last over placed buffers in the subtree */
	uint64_t *offset;    /* buffer -> offset (the caller's array) */
	struct ab_hit *hits; /* last query's result, sorted by offset */
	size_t n_hits, cap_hits;
	struct ab_key_index *scratch;
	size_t cap_scratch;
	uint64_t top;        /* highest end among placed buffers */
};

/* Indexes the buffers subset[0..m) (all buffers when subset is NULL).
 * Offsets of placed buffers are written to offsets[buffer]. */
int ab_placer_init(struct ab_placer *pl, const struct ab_problem *p,
		   const uint32_t *subset, size_t m, uint64_t *offsets);
void ab_placer_free(struct ab_placer *pl);

/* Placed buffers whose live range intersects buffer i's, sorted by offset
 * (ties by end).  The array is valid until the next query. */
int ab_placer_conflicts(struct ab_placer *pl, size_t i,
			const struct ab_hit **hits, size_t *k);
/* Same for an arbitrary closed time range [first, last]. */
int ab_placer_conflicts_range(struct ab_placer *pl, int32_t first,
			      int32_t last, const struct ab_hit **hits,
			      size_t *k);
/* The same hits as ab_placer_conflicts, in no particular order (for
 * callers that aggregate them: no sort). */
int ab_placer_overlapping(struct ab_placer *pl, size_t i,
			  const struct ab_hit **hits, size_t *k);
void ab_placer_place(struct ab_placer *pl, size_t i, uint64_t offset);

/* A gap rule: the offset for a buffer of `size` at alignment `align`,
 * given hits, the placed buffers that overlap it in time, sorted by offset,
 * and top, the highest end over all placed buffers so far (the arena's
 * current size).  The one type every rule has: the two below, and the
 * planners' own (tflite_arena's and xla_best_fit's best fits). */
typedef uint64_t (*ab_gap_rule)(const struct ab_hit *hits, size_t k,
				uint64_t size, uint64_t align, uint64_t top);

/* first fit: the lowest offset, multiple of align, where [off, off+size)
 *   meets no hit (top unused). */
uint64_t ab_fit_first(const struct ab_hit *hits, size_t k, uint64_t size,
		      uint64_t align, uint64_t top);
/* best fit (TFLite SimpleMemoryArena's rule): among gaps between hits
 *   (scanned in offset order, each starting at the aligned end of what lies
 *   below), the one whose room (next offset - aligned start) is smallest
 *   while >= size, ties to the lowest; otherwise the aligned top of the
 *   hits (top unused). */
uint64_t ab_fit_best(const struct ab_hit *hits, size_t k, uint64_t size,
		     uint64_t align, uint64_t top);

/* The placement loop, the one every planner that lists conflicts runs:
 * places order[from..m) one by one, each at rule's offset among the
 * buffers already in pl, while pl->top stays at most limit (UINT64_MAX:
 * all of them).  Fills offsets[] via pl.  The entry points below set pl up
 * and call it. */
int ab_placer_place_each(struct ab_placer *pl, const struct ab_problem *p,
			 const struct ab_plan_options *o, const uint32_t *order,
			 size_t from, size_t m, ab_gap_rule rule,
			 uint64_t limit);

/* Places order[0..m) by rule, every buffer indexed (zero-size ones too);
 * fills offsets[] and returns the highest end in *top.  The entry most
 * planners need.  ab_fit_first and ab_fit_best go through
 * first_fit_index.h when that pays (same offsets).  This and the other
 * loops here (and the index's) return AB_ABOVE_CUTOFF, offsets partial,
 * once the highest end reaches o->cutoff (core/arenabench.h). */
int ab_place_in_order(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, ab_gap_rule rule, uint64_t *offsets,
		      uint64_t *top);

/* The same, except that zero-size buffers get offset 0 and are not
 * indexed (as TFLite's arenas and XLA's heap do), so they never split a
 * gap; no index route (the planner tries ab_best_fit_route first). */
int ab_place_nonempty_in_order(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       const uint32_t *order, size_t m,
			       ab_gap_rule rule, uint64_t *offsets,
			       uint64_t *top);

/* Placing around fixed offsets (the offline planner: TFLite Micro's
 * offline plan, minimalloc's fixed buffers): each buffer with
 * fixed[i] >= 0 is put at fixed[i] as given (aligned or not); then the
 * others, taken in order[0..n) (where the fixed ones are skipped), are
 * placed by rule around them and around each other.  Fills offsets[] and
 * *top. */
int ab_place_around_fixed(const struct ab_problem *p,
			  const struct ab_plan_options *o,
			  const int64_t *fixed, const uint32_t *order,
			  ab_gap_rule rule, uint64_t *offsets, uint64_t *top);

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
			   ab_gap_rule rule, uint64_t limit,
			   uint64_t *offsets, uint64_t *top);

/* The whole of a one-arena planner that only chooses an order: places
 * order[0..n) by the rule and finishes the plan (peak, arena 0). */
int ab_plan_in_order(const struct ab_problem *p,
		     const struct ab_plan_options *o, const uint32_t *order,
		     ab_gap_rule rule, struct ab_plan *out);
/* The same for an order of every buffer made by make_order, which gets the
 * options (memo.h's order functions take the order from o->memo). */
int ab_plan_ordered_by(const struct ab_problem *p,
		       const struct ab_plan_options *o,
		       int (*make_order)(const struct ab_problem *,
					 const struct ab_plan_options *, uint32_t *),
		       ab_gap_rule rule, struct ab_plan *out);
/* The same for an order by key[i] ascending; equal keys in index order, or
 * in reverse index order when ties_reversed. */
int ab_plan_by_key(const struct ab_problem *p,
		   const struct ab_plan_options *o, const uint64_t *key,
		   bool ties_reversed, ab_gap_rule rule,
		   struct ab_plan *out);
/* ab_plan_by_key with the key "size descending". */
int ab_plan_by_size_desc(const struct ab_problem *p,
			 const struct ab_plan_options *o, bool ties_reversed,
			 ab_gap_rule rule, struct ab_plan *out);

/* order[] = 0..n-1 sorted lexicographically by keys[0], keys[1], ...
 * (each ascending, per buffer), remaining ties by index. */
int ab_order_by_keys(const struct ab_problem *p, uint32_t *order,
		     const uint64_t *const *keys, size_t n_keys);

#endif
