/*
 * Piecewise-constant functions of the address, kept in chunks of CHUNK
 * pieces with each chunk's first start and value range (the threshold
 * walks step over whole chunks that are all below or all at/above a
 * threshold).  Internal to the checkpoint indexes (first_fit_index.h,
 * best_fit_index.h): a function only grows by painting max(H, v) over an
 * address range, and is read by thresholds.
 *
 * The walk functions are inline: they run once per walk step.
 */
#ifndef AB_PIECEWISE_H
#define AB_PIECEWISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHUNK 64         /* pieces per chunk of a function */
#define UNCOVERED INT32_MIN


/* Piece k of a chunk covers [start[k], next piece's start) with value
 * val[k]; the last piece of a function reaches to infinity and is never
 * covered (every paint ends at a finite address). */
struct chunk {
	uint32_t n;
	int32_t val[CHUNK];
	uint64_t start[CHUNK];
};

/* A function's chunks in address order: first start, value range, id. */
struct fun {
	uint64_t *start;
	int32_t *vmin, *vmax;
	uint32_t *chunk;
	uint32_t n, cap;
};

struct at {
	uint32_t r, k; /* chunk index in the function, piece in the chunk */
};

#define SLAB_BITS 12 /* chunks are allocated 4096 at a time, never moved */
#define SLAB (1u << SLAB_BITS)

/* Small blocks (a function's arrays, first_fit_index.c's gap lists): 64 B
 * times a power of two, carved from regions of REGION bytes on huge pages
 * and recycled by size class, so that the index's many small arrays sit
 * together instead of about the whole heap. */
#define BLOCK_CLASSES 15            /* 64 B .. 1 MiB */
#define REGION ((size_t)4 << 20)

struct pool {
	struct chunk **slab;
	size_t slabs, cap_slabs, used;
	uint32_t *spare; /* freed chunk ids */
	size_t spare_n, spare_cap;
	char *carve;            /* the current region's unused tail ... */
	size_t carve_left;      /* ... and its length */
	void **region;          /* every region, and every block too large
				 * for a class (freed with the pool) */
	size_t regions, cap_regions;
	void *spare_block[BLOCK_CLASSES]; /* freed blocks by class, linked */
};

static inline struct chunk *pw_chunk_at(const struct pool *pl, uint32_t id)
{
	return &pl->slab[id >> SLAB_BITS][id & (SLAB - 1)];
}

static inline struct chunk *pw_chunk_of(const struct pool *pl, const struct fun *f,
			      uint32_t r)
{
	return pw_chunk_at(pl, f->chunk[r]);
}

/* Asks for a whole chunk at once: its lines then arrive in parallel. */
static inline void pw_prefetch_chunk(const struct chunk *c)
{
	for (size_t b = 0; b < sizeof(*c); b += 64)
		__builtin_prefetch((const char *)c + b);
}

/* Last index in [lo, hi) of the ascending a[] with a[i] <= y (a[lo] <= y). */
static inline uint32_t pw_last_le(const uint64_t *a, uint32_t lo, uint32_t hi, uint64_t y)
{
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (a[mid] <= y)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The piece holding address y. */
static inline struct at pw_locate(const struct pool *pl, const struct fun *f, uint64_t y)
{
	struct at at;
	const struct chunk *c;

	at.r = pw_last_le(f->start, 0, f->n, y);
	c = pw_chunk_of(pl, f, at.r);
	at.k = pw_last_le(c->start, 0, c->n, y);
	return at;
}

/* Moves *at forward to the piece holding y (y at or after *at's piece). */
static inline void pw_seek(const struct pool *pl, const struct fun *f, struct at *at,
		 uint64_t y)
{
	const struct chunk *c;

	if (at->r + 1 < f->n && f->start[at->r + 1] <= y) {
		uint32_t step = 1, lo = at->r + 1, hi;

		/* gallop, then bisect: the walk mostly moves a little */
		while (lo + step < f->n && f->start[lo + step] <= y) {
			lo += step;
			step *= 2;
		}
		hi = lo + step < f->n ? lo + step : f->n;
		at->r = pw_last_le(f->start, lo, hi, y);
		at->k = 0;
	}
	c = pw_chunk_of(pl, f, at->r);
	/* the walk mostly lands in the same piece or the next few */
	for (int step = 0; step < 4; step++) {
		if (at->k + 1 >= c->n || c->start[at->k + 1] > y)
			return;
		at->k++;
	}
	at->k = pw_last_le(c->start, at->k, c->n, y);
}

/* Start of the piece after *at, or UINT64_MAX. */
static inline uint64_t pw_next_start(const struct pool *pl, const struct fun *f,
			   const struct at *at)
{
	const struct chunk *c = pw_chunk_of(pl, f, at->r);

	if (at->k + 1 < c->n)
		return c->start[at->k + 1];
	return at->r + 1 < f->n ? f->start[at->r + 1] : UINT64_MAX;
}

static inline void pw_advance(const struct pool *pl, const struct fun *f, struct at *at)
{
	if (++at->k == pw_chunk_of(pl, f, at->r)->n) {
		at->r++;
		at->k = 0;
	}
}

/* Moves *at to the first piece at or after it with value >= a whose start
 * is below limit and returns the blocked address (*at's own piece counts
 * from y); UINT64_MAX when there is none below limit. */
static inline uint64_t pw_next_blocked(const struct pool *pl, const struct fun *f,
			     struct at *at, uint64_t y, uint64_t limit,
			     int32_t a)
{
	const struct chunk *c = pw_chunk_of(pl, f, at->r);

	if (c->val[at->k] >= a)
		return y;
	for (uint32_t k = at->k + 1; k < c->n; k++) {
		if (c->start[k] >= limit)
			return UINT64_MAX;
		if (c->val[k] >= a) {
			at->k = k;
			return c->start[k];
		}
	}
	for (uint32_t r = at->r + 1; r < f->n; r++) {
		if (f->start[r] >= limit)
			return UINT64_MAX;
		if (f->vmax[r] < a)
			continue;
		c = pw_chunk_of(pl, f, r);
		pw_prefetch_chunk(c);
		for (uint32_t k = 0; k < c->n; k++) {
			if (c->start[k] >= limit)
				return UINT64_MAX;
			if (c->val[k] >= a) {
				at->r = r;
				at->k = k;
				return c->start[k];
			}
		}
	}
	return UINT64_MAX;
}

/* Moves *at (on a blocked piece) to the next piece with value < a and
 * returns its start (the last piece is uncovered, so there is one). */
static inline uint64_t pw_next_free(const struct pool *pl, const struct fun *f,
			  struct at *at, int32_t a)
{
	const struct chunk *c = pw_chunk_of(pl, f, at->r);

	for (uint32_t k = at->k + 1; k < c->n; k++)
		if (c->val[k] < a) {
			at->k = k;
			return c->start[k];
		}
	for (uint32_t r = at->r + 1; r < f->n; r++) {
		if (f->vmin[r] >= a)
			continue;
		c = pw_chunk_of(pl, f, r);
		pw_prefetch_chunk(c);
		for (uint32_t k = 0; k < c->n; k++)
			if (c->val[k] < a) {
				at->r = r;
				at->k = k;
				return c->start[k];
			}
	}
	return UINT64_MAX; /* not reached */
}

/* H(y) = max(H(y), v) on [lo, hi), lo < hi (an empty function is made
 * uncovered everywhere first).  Returns 0 or -ENOMEM. */
int pw_paint(struct pool *pl, struct fun *f, uint64_t lo, uint64_t hi,
	     int32_t v);
/* A block of at least `bytes` holding the first old_bytes of old (NULL,
 * 0: none), which goes back to the pool; NULL when out of memory (old is
 * kept).  old_bytes must be what old was asked for.  Everything is freed
 * with the pool: a function's arrays need no free of their own. */
void *pw_block_resize(struct pool *pl, void *old, size_t old_bytes,
		      size_t bytes);
void pw_pool_free(struct pool *pl);

#endif
