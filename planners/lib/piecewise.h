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

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* Small blocks (a function's arrays): 64 B
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

/* The pieces of c with value >= a, bit k = piece k (bits from c->n on
 * clear).  Four values a step where SSE2 is there (every x86-64). */
static inline uint64_t pw_blocked_mask(const struct chunk *c, int32_t a)
{
	uint64_t m = 0;
	uint32_t k = 0;

#ifdef __SSE2__
	const __m128i va = _mm_set1_epi32(a);

	for (; k + 4 <= c->n; k += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(c->val + k));
		/* val >= a is !(a > val): no overflow at a = INT32_MIN */
		uint64_t below = (uint64_t)_mm_movemask_ps(
			_mm_castsi128_ps(_mm_cmpgt_epi32(va, v)));

		m |= (~below & 15) << k;
	}
#endif
	for (; k < c->n; k++)
		m |= (uint64_t)(c->val[k] >= a) << k;
	return m;
}

/*
 * A function's blocked runs at threshold a (maximal address ranges where
 * H >= a), in address order, for a walk whose position y only rises: a
 * run ending at or below y is passed over, and chunks that end at or below
 * y are not read (a seek over the chunk starts, then one bisection in the
 * chunk holding y).  A chunk wholly below a ends the open run at its start,
 * one wholly at or above a continues it, and one that straddles a is read
 * once as a mask of its blocked pieces, whose changes
 * (mask ^ (mask << 1 | open)) are where runs open and close, taken with
 * count-trailing-zeros; a piece's start is read only there.
 */
struct pw_runs {
	const struct pool *pl;
	const struct fun *f;
	const struct chunk *c; /* chunk r - 1, while changes are pending */
	uint64_t blocked;      /* its blocked pieces, bit k = piece k */
	uint64_t changes;      /* its changes not taken yet */
	uint64_t open_at;      /* start of the open run (or a point in it) */
	uint32_t r;            /* next chunk to read */
	int32_t a;
	bool open;
	uint64_t runs;         /* runs returned (the walk's steps) */
};

static inline void pw_runs_init(struct pw_runs *h, const struct pool *pl,
				const struct fun *f, int32_t a)
{
	h->pl = pl;
	h->f = f;
	h->c = NULL;
	h->blocked = h->changes = h->open_at = 0;
	h->r = 0;
	h->a = a;
	h->open = false;
	h->runs = 0;
}

/* The next blocked run [*s, *e) with *e > y; false when there is none
 * (the last piece of a function is uncovered, so every run closes).  y
 * must not fall between calls. */
static inline bool pw_next_run(struct pw_runs *h, uint64_t y, uint64_t *s,
			       uint64_t *e)
{
	const struct fun *f = h->f;

	for (;;) {
		if (h->changes) {
			/* in locals: *s and *e could alias the fields */
			uint64_t changes = h->changes, blocked = h->blocked;
			uint64_t open_at = h->open_at;
			const uint64_t *start = h->c->start;

			while (changes) {
				unsigned k = (unsigned)__builtin_ctzll(changes);

				changes &= changes - 1;
				if (blocked >> k & 1) {
					open_at = start[k];
				} else if (start[k] > y) {
					h->changes = changes;
					h->open = false;
					h->runs++;
					*e = start[k];
					*s = open_at;
					return true;
				}
			}
			/* the last change taken says whether a run is open */
			h->open = blocked >> (63 - __builtin_clzll(h->changes)) & 1;
			h->open_at = open_at;
			h->changes = 0;
		}
		if (h->r >= f->n)
			return false;
		if (h->r + 1 < f->n && f->start[h->r + 1] <= y) {
			/* chunks that end by y: seek to the one holding y and
			 * start from y's piece (what ends before it is passed
			 * over; a run holding y may be said to open at y) */
			uint32_t r = pw_last_le(f->start, h->r + 1, f->n, y);
			const struct chunk *c;
			uint32_t k;

			h->changes = 0;
			if (f->vmax[r] < h->a) {
				h->open = false;
				h->r = r + 1;
				continue;
			}
			if (f->vmin[r] >= h->a) {
				h->open = true;
				h->open_at = y;
				h->r = r + 1;
				continue;
			}
			c = pw_chunk_of(h->pl, f, r);
			pw_prefetch_chunk(c);
			k = pw_last_le(c->start, 0, c->n, y);
			h->c = c;
			h->blocked = pw_blocked_mask(c, h->a);
			h->open = h->blocked >> k & 1;
			h->open_at = y;
			h->changes = (h->blocked ^ (h->blocked << 1)) &
				     (c->n == 64 ? ~0ull : (1ull << c->n) - 1) &
				     (~0ull << k << 1);
			h->r = r + 1;
			continue;
		}
		{
			uint32_t r = h->r++;

			if (f->vmax[r] < h->a) { /* wholly free */
				if (h->open) {
					h->open = false;
					*e = f->start[r];
					if (*e > y) {
						*s = h->open_at;
						h->runs++;
						return true;
					}
				}
			} else if (f->vmin[r] >= h->a) { /* wholly blocked */
				if (!h->open) {
					h->open = true;
					h->open_at = f->start[r];
				}
			} else {
				const struct chunk *c = pw_chunk_of(h->pl, f, r);

				pw_prefetch_chunk(c); /* its starts with its values */
				h->c = c;
				h->blocked = pw_blocked_mask(c, h->a);
				h->changes = (h->blocked ^ (h->blocked << 1 | h->open)) &
					     (c->n == 64 ? ~0ull : (1ull << c->n) - 1);
			}
		}
	}
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
