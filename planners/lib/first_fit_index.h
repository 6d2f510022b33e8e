/*
 * First fit without listing the conflicts: a checkpoint index.
 *
 * The question placement.c answers by listing: the lowest multiple x of the
 * alignment such that no placed buffer live at the same time as buffer i
 * (first <= b and last >= a, [a, b] = i's lifetime) has offset < x + size
 * and end > x.  Listing costs the k conflicts; with sqrt(n) buffers live at
 * once (the scaling sweep) that is n^1.5 in all.
 *
 * Here time is cut at checkpoints T, multiples of a spacing w.  For each
 * checkpoint the index keeps one function of the address,
 *     H_T(y) = max last over placed buffers covering y with first <= T,
 * and for each gap (T, T + w) the placed buffers starting in it, sorted by
 * offset.  A buffer [a, b] asks the checkpoint T = b rounded down to w:
 * the conflicts starting by T are exactly the addresses where H_T >= a,
 * the others start in (T, b] and are in the gap's short list.  First fit
 * merges two streams of blocked ranges sorted by start, as ab_fit_first
 * scans hits by offset: H_T's blocked runs at threshold a (a
 * piecewise-constant function kept in chunks with min/max summaries, so
 * whole blocked or free chunks are stepped over, and a chunk that
 * straddles a is read once as a 64-bit mask of its blocked pieces) and the
 * list's live entries (compacted a block at a time without a branch).
 * Every point skipped is covered by a conflict, every answer is checked
 * against both, so the offsets are those of listing (identical, pinned by
 * tests/test_mechanics.c against the O(n^2) oracle).
 *
 * Costs, with R the longest lifetime and J the walk's steps (the gaps of
 * the conflicts' union narrower than the buffer, below its answer): placing
 * a buffer of lifetime len paints (len + R) / w + 1 functions, O(log n +
 * chunk) each; a query is O(J + chunks read + chunk x straddling chunks
 * read) plus the gap list's entries up to the answer (< w starts).  J is
 * measured, not bounded: on the sweep it follows the
 * union's narrow gaps (docs/scaling.md).  Lifetimes are ranked first (by
 * counting over the steps when they are dense, else by a sort), so
 * sparse step numbers cost nothing.  Zero-size buffers are exact too:
 * addresses are doubled, a buffer of size s at x covers [2x, 2x + 2s)
 * (a point [2x, 2x + 1) when s = 0) and a window is [2x + 1, 2x + 2s).
 *
 * Two things change when, not what: a buffer's answer depends only on
 * which buffers overlapping it in time are placed before it, so any order
 * that keeps every overlapping pair as `order` has it gives the same
 * offsets.  (1) Time-local batches: `order` is cut into batches of about
 * 32 x steps / (mean length + R) buffers, each taken by first use (each
 * buffer after the earlier batch-mates it overlaps), so the few functions
 * a stretch of time uses stay in cache.  (2) Two threads, when the
 * process may use two CPUs and there are at least 4096 buffers: time is
 * cut at the step that balances the two sides; buffers ending before it
 * and buffers starting after it never overlap, so each side has its own
 * thread and index, and the buffers live across the cut (all of which
 * overlap) are placed by both threads together, at the lowest offset
 * free in both indexes.  tests/test_mechanics.c pins both against the
 * oracle, with batches of 1, 3, 64 and the default, and with two threads
 * forced on every problem.
 *
 * Files: first_fit_index.c (gap lists, ranks, the choice of w, batches, the
 * walk and paint), first_fit_runner.c (the placement loop, one or two
 * threads), piecewise.c (the functions H_T), best_fit_index.c (the walk
 * over every gap, for the best-fit rules below); first_fit_internal.h is
 * what they share.
 */
#ifndef AB_FIRST_FIT_INDEX_H
#define AB_FIRST_FIT_INDEX_H

#include "core/arenabench.h"

/* The gap rule the index answers.  First fit is ab_fit_first; the others
 * walk every gap of the conflicts' union in address order (no conflict
 * listed) and keep the rule's winner:
 *  - AB_INDEX_BEST_FIT: placement.h's ab_fit_best (smallest aligned room
 *    that holds the buffer, ties to the lowest; else the aligned top);
 *  - AB_INDEX_TFLITE: TFLite SimpleMemoryArena::Allocate (a later gap wins
 *    when its aligned room is below the best's unaligned room);
 *  - AB_INDEX_XLA: XLA FindChunkCandidate, with the top chunk [top of the
 *    conflicts, heap size) where the heap size is the highest end over
 *    every buffer before it in `order`; in time-local batches a choice the
 *    heap size could still change waits for the batch-mates before it
 *    (best_fit_index.c), so the offsets are those of `order` itself.
 * Costs per best-fit query: the pieces of H_T up to the top of the union
 * in chunks that straddle the threshold (whole chunks on one side are
 * stepped over), plus the gap list; it stops early on a gap of exactly
 * the size (no later gap can win under any of the three rules). */
enum ab_index_rule {
	AB_INDEX_FIRST_FIT,
	AB_INDEX_BEST_FIT,
	AB_INDEX_TFLITE,
	AB_INDEX_XLA,
};

struct ab_first_fit_stats {
	uint32_t spacing;   /* checkpoint spacing w used */
	uint32_t batch;     /* time-local batch (1 = in the order given) */
	uint32_t threads;   /* 1, or 2 when cut in time */
	uint64_t crossing;  /* buffers live across the cut (2 threads) */
	uint64_t queries;   /* buffers placed */
	uint64_t walk_steps; /* J summed: blocked stretches of H_T jumped */
	uint64_t paints;    /* function updates */
	uint64_t list_scanned; /* gap-list entries looked at */
	uint64_t pieces;    /* pieces held by all functions at the end */
	uint64_t xla_waits; /* XLA in batches: buffers whose choice waited
			     * for the batch-mates before them (see
			     * best_fit_index.c) */
};

/* The spacing the index would use for order[0..m) (a power of two), or 0
 * when listing the conflicts is expected to be cheaper (small problems,
 * few overlaps) or the index would be too large.  The choice compares
 * counts computed from the lifetimes alone (overlapping pairs against
 * paints and list lengths), so it is deterministic. */
uint32_t ab_first_fit_spacing(const struct ab_problem *p, const uint32_t *order,
			      size_t m);

/* How ab_first_fit_place works; zero fields take the default. */
struct ab_first_fit_config {
	uint32_t spacing; /* checkpoint spacing, a power of two (default: as
			   * ab_first_fit_spacing chooses, or 64) */
	size_t batch;     /* time-local batch (1 = in `order` itself) */
	unsigned threads; /* 1 = one thread; 2 = two whenever a cut in time
			   * exists (the default: two from 4096 buffers when
			   * the process may use two CPUs and the cut pays) */
};

/* Places order[0..m) by first fit (cfg NULL = the defaults).  The offsets
 * are the same for every configuration (first_fit_index.c says why).
 * Fills offsets[buffer], the highest end in *top and, when stats is not
 * NULL, the counts above.  Returns 0 or a negative errno. */
int ab_first_fit_place(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, const struct ab_first_fit_config *cfg,
		       uint64_t *offsets, uint64_t *top,
		       struct ab_first_fit_stats *stats);

/* placement.c's route: ranks the lifetimes once, and places order[0..m)
 * with the index (returns 0) when ab_first_fit_spacing would choose it;
 * returns 1, placing nothing, when listing is cheaper.  Or -ENOMEM. */
int ab_first_fit_route(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, uint64_t *offsets, uint64_t *top);

/* Best fit through the index (best_fit_index.c): places order[0..m) by
 * `rule` (not AB_INDEX_FIRST_FIT) on one thread, with the offsets of the
 * listing path: ab_place_in_order's ab_fit_best for AB_INDEX_BEST_FIT,
 * placement.h's ab_place_nonempty_in_order with tflite_arena's and xla_best_fit's
 * rules for the other two.  Those leave zero-size buffers out (offset 0,
 * never a conflict), and so does this; ab_place_in_order indexes them, so
 * AB_INDEX_BEST_FIT returns 1, placing nothing, when a buffer of the order
 * has size 0.  cfg as for first fit (threads ignored).  Returns 0, 1, or a
 * negative errno. */
int ab_best_fit_place(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, enum ab_index_rule rule,
		      const struct ab_first_fit_config *cfg, uint64_t *offsets,
		      uint64_t *top, struct ab_first_fit_stats *stats);

/* The route of the best-fit planners: as ab_best_fit_place with the
 * spacing ab_first_fit_spacing chooses; returns 1, placing nothing, when it
 * chooses listing (or the order holds a zero-size buffer under
 * AB_INDEX_BEST_FIT).  o->route forces either: AB_ROUTE_LISTING returns 1,
 * AB_ROUTE_INDEX takes the index at its default spacing whatever the
 * problem's size (ab_place_in_order honours it for first fit too). */
int ab_best_fit_route(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, enum ab_index_rule rule, uint64_t *offsets,
		      uint64_t *top);

#endif
