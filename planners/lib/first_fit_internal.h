/*
 * The parts of the checkpoint index that its files share (internal: the
 * contract is first_fit_index.h).  first_fit_index.c: the gap lists, the
 * ranked lifetimes, the cost model choosing the spacing, the time-local
 * batches, the index's walk and paint.  first_fit_runner.c: the placement
 * loop, on one thread or on two cut in time.
 */
#ifndef AB_FIRST_FIT_INTERNAL_H
#define AB_FIRST_FIT_INTERNAL_H

#include "lib/first_fit_index.h"
#include "lib/piecewise.h"

/* Buffers starting in one checkpoint gap, by offset (doubled addresses). */
struct entry {
	uint64_t lo, hi;
	int32_t first, last;
};

struct list {
	struct entry *e;
	uint32_t n, cap;
	uint64_t longest; /* max hi - lo */
};

/*
 * The gap list's entries live at some step of [a, b] (first <= b and
 * last >= a), in offset order, for a walk whose position y only rises.
 * (first_fit_index.c's walk, and best_fit_index.c's with y = 0.)
 * Read a block at a time, each block compacted first without a branch (an
 * entry is written, and kept when live): live and dead entries alternate
 * at random, and a branch on each would be mispredicted about half the
 * time.  Entries starting more than the list's longest below y end by y,
 * so a block is compacted from past them (a gallop, then a bisection).
 */
#define FF_LIVE_BLOCK 16

struct ff_live {
	const struct entry *e;
	uint32_t n, j;  /* entries, next to compact */
	uint32_t k, m;  /* next of the block, block length */
	int32_t a, b;
	uint64_t longest;
	uint64_t scanned;
	uint64_t lo[FF_LIVE_BLOCK], hi[FF_LIVE_BLOCK];
};

static inline void ff_live_init(struct ff_live *lv, const struct list *l,
				int32_t a, int32_t b)
{
	lv->e = l->e;
	lv->n = l->n;
	lv->j = lv->k = lv->m = 0;
	lv->a = a;
	lv->b = b;
	lv->longest = l->longest;
	lv->scanned = 0;
}

/* The first j' >= j with e[j'].lo + longest > y (the list is by lo). */
static inline uint32_t ff_skip_ended(const struct entry *e, uint32_t n, uint32_t j,
			   uint64_t longest, uint64_t y)
{
	uint32_t lo = j + 1, hi, step = 1;

	if (j >= n || e[j].lo + longest > y)
		return j;
	/* gallop from j (the walk mostly moves a little), then bisect */
	while (lo + step < n && e[lo + step - 1].lo + longest <= y) {
		lo += step;
		step *= 2;
	}
	hi = lo + step < n ? lo + step : n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (e[mid].lo + longest <= y)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The next live entry [*s, *e) with *e > y; false when there is none. */
static inline bool ff_next_live(struct ff_live *lv, uint64_t y, uint64_t *s,
			     uint64_t *e)
{
	for (;;) {
		for (uint32_t k = lv->k, m = lv->m; k < m; k++)
			if (lv->hi[k] > y) {
				*e = lv->hi[k];
				*s = lv->lo[k];
				lv->k = k + 1;
				return true;
			}
		lv->k = lv->m;
		lv->j = ff_skip_ended(lv->e, lv->n, lv->j, lv->longest, y);
		if (lv->j == lv->n)
			return false;
		{
			/* in locals: the stores into lo[] and hi[] could alias
			 * the struct's fields, which would be read again */
			uint32_t j = lv->j, m = 0;
			uint32_t stop = lv->n - j < FF_LIVE_BLOCK ? lv->n : j + FF_LIVE_BLOCK;
			int32_t a = lv->a, b = lv->b;
			const struct entry *en = lv->e;

			lv->scanned += stop - j;
			for (; j < stop; j++) {
				lv->lo[m] = en[j].lo;
				lv->hi[m] = en[j].hi;
				m += (en[j].first <= b) & (en[j].last >= a);
			}
			lv->j = j;
			lv->k = 0;
			lv->m = m;
		}
	}
}

/* The lifetimes of order[0..m), ranked: first/last by buffer are ranks
 * among the distinct steps used, so sparse step numbers cost nothing. */
struct ranks {
	size_t n;              /* buffers of the problem */
	int32_t *first, *last; /* by buffer (order[j]) */
	size_t steps;          /* distinct steps */
	int64_t reach;         /* longest lifetime, in ranks */
	uint64_t total_len;    /* sum of last - first */
	uint64_t pairs;        /* pairs of buffers overlapping in time */
	struct ab_plan_memo *memo; /* lent by this memo: not to be freed */
};

/* What planners work out from the problem alone, worked out once for
 * best_of's members (ab_plan_options.memo, memo.h): every buffer's ranks
 * and the spacing they give, and two orders of every buffer. */
struct ab_plan_memo {
	const struct ab_problem *p;
	bool ranked, spaced;
	struct ranks r;
	uint32_t spacing;
	uint32_t *first_use, *size_desc; /* NULL until asked for */
};

struct index {
	uint32_t shift;        /* spacing w = 1 << shift */
	size_t checkpoints;
	int64_t reach;         /* longest lifetime, in ranks */
	uint32_t *last_query;  /* by checkpoint: 1 + last order position asking */
	struct fun *fun;       /* H_T by checkpoint */
	struct list *list;     /* buffers starting in (T, T + w), by checkpoint */
	struct entry *entries; /* the lists' room, one array */
	struct pool pool;
	struct ab_first_fit_stats st;
};

/* One index placing a (sub-)order: its schedule and the ranks of each
 * position. */
struct run {
	struct index ix;
	size_t m;
	uint32_t *sched;
	int32_t *sf, *sl;
};

/* The j-th of order[0..m): the ranks and the counts below do not depend
 * on the order, so with every buffer of the problem in it they read buffer
 * j itself, in sequence. */
static inline uint32_t ff_any_order(const uint32_t *order, size_t m, size_t n, size_t j)
{
	return m == n ? (uint32_t)j : order[j];
}

int ff_rank_lifetimes(const struct ab_problem *p, const uint32_t *order,
		      size_t m, struct ranks *r);
/* The same, lent by o->memo when it is p's and order holds every buffer
 * (the ranks do not depend on the order then). */
int ff_rank_lifetimes_memo(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m, struct ranks *r);
void ff_ranks_free(struct ranks *r);

/* The spacing from the ranks, or 0 (listing is cheaper, or the index
 * would be too large); the default time-local batch. */
uint32_t ff_choose_spacing(const struct ranks *r, const uint32_t *order,
			   size_t m);
/* The same, kept in the memo that lent r (whose ranks hold every buffer,
 * so the spacing does not depend on the order either). */
uint32_t ff_choose_spacing_memo(const struct ranks *r, const uint32_t *order,
				size_t m);
size_t ff_choose_batch(const struct ranks *r, size_t m);

/* Buffer [a, b] (ranks) asks its checkpoint: the lowest first fit at or
 * above `from`.  ff_place paints a buffer placed at x, the pos-th of the
 * run's schedule. */
uint64_t ff_first_fit(struct index *ix, int32_t a, int32_t b, uint64_t size,
		      uint64_t align, uint64_t from);
/* A best-fit rule's pick over the gaps of the conflicts' union: the chosen
 * gap's offset (UINT64_MAX: no gap holds the buffer), its room, and the
 * union's aligned top (0 when the walk stopped on an exact fit). */
struct bf_pick {
	uint64_t best, room, top;
};

/* The same buffer's answer under a best-fit rule (best_fit_index.c): every
 * gap of the conflicts' union, walked in address order; heap = XLA's heap
 * size (the highest end over the buffers before it in `order`), read by
 * AB_INDEX_XLA only.  The pick into *out when out is not NULL. */
uint64_t ff_best_fit(struct index *ix, int32_t a, int32_t b, uint64_t size,
		     uint64_t align, enum ab_index_rule rule, uint64_t heap,
		     struct bf_pick *out);

/* XLA's rule in time-local batches (best_fit_index.c says how the heap
 * size is kept exact): the placement loop of a one-thread run whose
 * schedule was cut at ends[] (batch > 1).  Fills offsets and *top; stops
 * with AB_ABOVE_CUTOFF once *top reaches o->cutoff. */
int ff_place_xla_batches(struct run *rn, const struct ab_problem *p,
			 const struct ab_plan_options *o,
			 const uint32_t *order, const size_t *ends,
			 const struct ranks *r,
			 uint64_t *offsets, uint64_t *top);
int ff_place(struct index *ix, int64_t first, int64_t last, size_t pos,
	     uint64_t x, uint64_t size);

/* A run's schedule: batches end at ends[0], ends[1], ... (the last at m),
 * the longest `batch` buffers; batch 1 = in `order` itself; backward takes
 * each batch from its end in time. */
int ff_run_init(struct run *rn, const struct ranks *r, const uint32_t *order,
		size_t m, uint32_t spacing, const size_t *ends, size_t batch,
		bool backward);
void ff_run_free(struct run *rn);
void ff_run_stats(struct run *rn, struct ab_first_fit_stats *st);

/* first_fit_runner.c: places order[0..m) by the configuration (zero
 * fields: the defaults chosen from the ranks), on one or two threads. */
int ff_place_ranked(const struct ab_problem *p,
		    const struct ab_plan_options *o, const uint32_t *order,
		    size_t m, const struct ranks *r,
		    const struct ab_first_fit_config *cfg,
		    enum ab_index_rule rule, uint64_t *offsets,
		    uint64_t *top, struct ab_first_fit_stats *stats);

#endif
