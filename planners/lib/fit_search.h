/*
 * The decision search (fit_search.c, its set-up fit_setup.c): do these
 * buffers fit under C bytes, around buffers pinned at their own offsets?
 * A complete branch and bound over canonical placements (minimalloc): a
 * node places an unplaced buffer at its floor (the highest aligned end
 * of the placed buffers it overlaps in time), in (floor, rank) order,
 * pruned by dominance and a per-section bound kept exact by witnesses,
 * split into independent pieces where no unplaced buffer crosses a
 * section boundary; minimalloc's three preorders in round robin with
 * node limits doubling from 2m.  planners/exact.c's header has the steps.
 *
 * Contract: ab_fit_setup, then any number of decisions, then
 * ab_fit_teardown (also after a failed set-up).  A decision returns
 * AB_FIT_FOUND (x->sol holds the offsets, ab_fit_take copies them out),
 * AB_FIT_NOT_FOUND (a proof: no plan fits under C), AB_FIT_ABORTED (out
 * of nodes: nothing proved), AB_FIT_TIMED_OUT (the safety stop), or
 * -ENOMEM.  A run that ends under its node limit was exhaustive, so its
 * "not found" proves.  Deterministic; nothing prints.
 * Complexity: per node O(k + r log r + overlaps + sections of the piece +
 * members of the sections whose witness moved), k = unplaced buffers of
 * the piece, r = those the last placement raised; exponential in the
 * worst case (the problem is NP-hard).  Set-up O(m log m + overlaps).
 * Source: Moffitt, "MiniMalloc: A Lightweight Memory Allocator for
 * Hardware-Accelerated Machine Learning", ASPLOS 2023, and the public
 * google/minimalloc solver (canonical plans, section inference,
 * dominance, dynamic decomposition with per-piece preorders, round
 * robin); own code.  Witnesses, the aligned section bound, the granule
 * and the pinned buffers are arenabench's.
 * Weak spots: proving that C does not fit just below an optimum above
 * every bound can take exponentially many nodes.
 */
#ifndef AB_FIT_SEARCH_H
#define AB_FIT_SEARCH_H

#include "core/arenabench.h"
#include "lib/progress_line.h"

#define AB_FIT_PREORDERS 3
/* A free buffer's pin (ab_fit_setup's pin[]). */
#define AB_FIT_NO_PIN UINT64_MAX

/* A decision's outcome; negative values are errors. */
enum { AB_FIT_FOUND = 1, AB_FIT_NOT_FOUND, AB_FIT_ABORTED, AB_FIT_TIMED_OUT };

/* The preorders, minimalloc's three: (width, area, total), (total, area,
 * width), (total, width, area), all descending, ties by index; width =
 * steps live, area = width x size, total = the largest section total. */
enum { AB_FIT_KEY_WIDTH, AB_FIT_KEY_AREA, AB_FIT_KEY_TOTAL };
extern const int ab_fit_preorder_keys[AB_FIT_PREORDERS][3];

struct ab_fit_undo {
	uint32_t what; /* buffer, or section | LOG_SECTION */
	uint32_t aux;  /* a section's old witness */
	uint64_t old;  /* a buffer's old floor */
};
struct ab_fit_candidate { /* order_candidates */
	uint64_t floor;
	uint32_t rank, b;
};
struct ab_fit_rank_key { /* rerank */
	uint64_t key[3];
	uint32_t b;
};
struct ab_fit_search {
	const struct ab_problem *p;
	size_t m;                  /* searched buffers (size > 0) */
	uint32_t *buf;             /* search index -> problem index */
	uint64_t *size, *align, *width; /* width = steps live */
	uint64_t *asize;           /* size rounded up to the alignment gcd */
	uint64_t granule;          /* gcd of sizes and alignments > 1 */
	uint32_t *ov_start, *ov;   /* CSR overlap lists */
	uint32_t *sec_lo, *sec_hi; /* section range [lo, hi) per buffer */
	size_t n_sec;
	uint64_t *sec_total0;      /* asize bytes per section */
	uint64_t *sec_pad;         /* largest asize - size in a section */
	uint32_t *sm_start, *sm;   /* CSR: buffers live in each section */
	uint32_t *cuts0;           /* buffers crossing boundary s | s + 1 */
	uint32_t *pre[AB_FIT_PREORDERS]; /* preorder rank per buffer */
	/* one decision's state */
	uint64_t cap;              /* C */
	int heuristic;             /* the preorder of this run */
	uint32_t *rank;            /* current rank (pieces rerank) */
	uint64_t *min_off;         /* floor of each buffer; PLACED if placed */
	uint64_t *sol;             /* offset at placement: the plan once
				    * AB_FIT_FOUND */
	uint64_t *pin;             /* window repair: a fixed buffer's offset,
				    * AB_FIT_NO_PIN for the free ones;
				    * NULL = none */
	uint64_t *sec_total;       /* unplaced asize bytes per section */
	uint32_t *cuts;            /* unplaced buffers crossing s | s + 1 */
	uint32_t *witness;         /* see set_witness */
	uint32_t *n_witnessed;     /* sections a buffer is the witness of */
	uint32_t *raised;          /* clock of the placement that last raised */
	uint32_t *stamp, *affected, clock;
	struct ab_fit_rank_key *rank_keys; /* rerank's scratch */
	double *factor;            /* restarts: a factor per buffer on the
				    * preorder's keys; NULL = none */
	struct ab_fit_candidate *scratch; /* order_candidates' scratch */
	uint32_t *stk;             /* candidate lists, one per frame */
	size_t n_stk, cap_stk;
	struct ab_fit_undo *log;   /* changes to undo, newest last */
	size_t n_log, cap_log;
	/* limits, set by the caller after ab_fit_setup (budget: nodes in
	 * all; deadline: the safety stop, 0 = none), and what was spent */
	uint64_t nodes, node_limit, nodes_total, budget;
	double deadline;           /* safety stop, 0 = none */
	bool timed_out;
	struct ab_progress_line *line; /* the plan's; NULL in window repairs */
	uint64_t peak_now, bound_now; /* the incumbent's peak, the bound */
};

/*
 * Sets x up for p's buffers of nonzero size (at most max_searched of
 * them and 2 x 10^7 overlapping pairs, else -E2BIG).  pin: per problem
 * buffer, a fixed offset or AB_FIT_NO_PIN; NULL = all free.  0 or
 * -errno.
 */
int ab_fit_setup(struct ab_fit_search *x, const struct ab_problem *p,
		 const struct ab_plan_options *o, const uint64_t *pin,
		 size_t max_searched);
void ab_fit_teardown(struct ab_fit_search *x);

/* Does everything fit under cap?  Round robin over the preorders with
 * doubling node limits, at most `budget` nodes (and x->budget in all). */
int ab_fit_decide(struct ab_fit_search *x, uint64_t cap, uint64_t budget);
/* One run with preorder h (its keys scaled by x->factor when set) and a
 * node limit. */
int ab_fit_decide_once(struct ab_fit_search *x, uint64_t cap, int h,
		       uint64_t limit);

/* The bound at the root: in every section, the buffers stack, each but
 * the top one taking its size rounded up to the alignment gcd; the larger
 * of that and bound, rounded up to the granule. */
uint64_t ab_fit_section_bound(const struct ab_fit_search *x, uint64_t bound);
/* The plan found by the last AB_FIT_FOUND decision, into out. */
void ab_fit_take(const struct ab_fit_search *x, struct ab_plan *out);
/* A progress line on x->line with the incumbent's peak and the bound
 * (x->peak_now, x->bound_now); nothing in the plan's first second. */
void ab_fit_report(struct ab_fit_search *x, bool improved);

#endif
