/* Piecewise-constant functions in chunks: see piecewise.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "lib/piecewise.h"

/* Room for one more element in the pool's array *a of n elements (*cap
 * allocated, doubling from `first`). */
static int make_room(void **a, size_t n, size_t *cap, size_t elem,
		     size_t first)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : first;
		void *q = realloc(*a, ncap * elem);

		if (!q)
			return -ENOMEM;
		*a = q;
		*cap = ncap;
	}
	return 0;
}

static int new_chunk(struct pool *pl, uint32_t *id)
{
	if (pl->spare_n) {
		*id = pl->spare[--pl->spare_n];
		return 0;
	}
	if (pl->used == pl->slabs * SLAB) {
		if (make_room((void **)&pl->slab, pl->slabs, &pl->cap_slabs,
			      sizeof(*pl->slab), 16))
			return -ENOMEM;
		pl->slab[pl->slabs] = ab_alloc_large(SLAB * sizeof(struct chunk));
		if (!pl->slab[pl->slabs])
			return -ENOMEM;
		pl->slabs++;
	}
	*id = (uint32_t)pl->used++;
	return 0;
}

static int drop_chunk(struct pool *pl, uint32_t id)
{
	if (make_room((void **)&pl->spare, pl->spare_n, &pl->spare_cap,
		      sizeof(*pl->spare), 64))
		return -ENOMEM;
	pl->spare[pl->spare_n++] = id;
	return 0;
}

/* A chunk's first start and value range, after every paint that touched
 * it: four values a step where SSE2 is there (its lanes compare and
 * select; a scalar min/max is one long chain of dependent moves). */
static void summarize(const struct pool *pl, struct fun *f, uint32_t r)
{
	const struct chunk *c = pw_chunk_of(pl, f, r);
	int32_t lo = c->val[0], hi = c->val[0];
	uint32_t k = 1;

#ifdef __SSE2__
	if (c->n >= 8) {
		__m128i vlo = _mm_loadu_si128((const __m128i *)c->val), vhi = vlo;
		int32_t l4[4], h4[4];

		for (k = 4; k + 4 <= c->n; k += 4) {
			__m128i v = _mm_loadu_si128((const __m128i *)(c->val + k));
			__m128i lt = _mm_cmplt_epi32(v, vlo), gt = _mm_cmpgt_epi32(v, vhi);

			vlo = _mm_or_si128(_mm_and_si128(lt, v), _mm_andnot_si128(lt, vlo));
			vhi = _mm_or_si128(_mm_and_si128(gt, v), _mm_andnot_si128(gt, vhi));
		}
		_mm_storeu_si128((__m128i *)l4, vlo);
		_mm_storeu_si128((__m128i *)h4, vhi);
		for (int q = 0; q < 4; q++) {
			lo = l4[q] < lo ? l4[q] : lo;
			hi = h4[q] > hi ? h4[q] : hi;
		}
	}
#endif
	for (; k < c->n; k++) {
		lo = c->val[k] < lo ? c->val[k] : lo;
		hi = c->val[k] > hi ? c->val[k] : hi;
	}
	f->start[r] = c->start[0];
	f->vmin[r] = lo;
	f->vmax[r] = hi;
}

/* The size class of a block of `bytes` (BLOCK_CLASSES: too large). */
static unsigned block_class(size_t bytes)
{
	unsigned c = 0;

	while (c < BLOCK_CLASSES && ((size_t)64 << c) < bytes)
		c++;
	return c;
}

/* Keeps q (a region or an oversized block) until the pool is freed. */
static int keep_region(struct pool *pl, void *q)
{
	if (make_room((void **)&pl->region, pl->regions, &pl->cap_regions,
		      sizeof(*pl->region), 16))
		return -ENOMEM;
	pl->region[pl->regions++] = q;
	return 0;
}

static void *block_new(struct pool *pl, size_t bytes)
{
	unsigned c = block_class(bytes);
	size_t sz = (size_t)64 << c;
	void *q;

	if (c == BLOCK_CLASSES) {
		q = ab_alloc_large(bytes);
		if (q && keep_region(pl, q)) {
			free(q);
			q = NULL;
		}
		return q;
	}
	if ((q = pl->spare_block[c])) {
		memcpy(&pl->spare_block[c], q, sizeof(void *));
		return q;
	}
	if (pl->carve_left < sz) { /* the old tail is left unused */
		/* 64 KiB first, doubling up to REGION: small problems stay small */
		size_t len = pl->regions < 6 ? (size_t)64 << 10 << pl->regions : REGION;

		len = len < sz ? sz : len;
		q = ab_alloc_large(len);
		if (!q)
			return NULL;
		if (keep_region(pl, q)) {
			free(q);
			return NULL;
		}
		pl->carve = q;
		pl->carve_left = len;
	}
	q = pl->carve;
	pl->carve += sz;
	pl->carve_left -= sz;
	return q;
}

void *pw_block_resize(struct pool *pl, void *old, size_t old_bytes,
		      size_t bytes)
{
	void *q = block_new(pl, bytes);
	unsigned c = block_class(old_bytes);

	if (!q)
		return NULL;
	if (old) {
		memcpy(q, old, old_bytes < bytes ? old_bytes : bytes);
		if (c < BLOCK_CLASSES) { /* else it stays a region */
			memcpy(old, &pl->spare_block[c], sizeof(void *));
			pl->spare_block[c] = old;
		}
	}
	return q;
}

/* Grows one of a function's parallel arrays from cap to ncap elements. */
static int grow(struct pool *pl, void **a, size_t elem, uint32_t cap,
		uint32_t ncap)
{
	void *q = pw_block_resize(pl, *a, cap * elem, ncap * elem);

	if (!q)
		return -ENOMEM;
	*a = q;
	return 0;
}

/* Makes room for a chunk at index r (the caller fills it in). */
static int ref_open(struct pool *pl, struct fun *f, uint32_t r)
{
	if (f->n == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 8;

		if (grow(pl, (void **)&f->start, sizeof(*f->start), f->cap, cap) ||
		    grow(pl, (void **)&f->vmin, sizeof(*f->vmin), f->cap, cap) ||
		    grow(pl, (void **)&f->vmax, sizeof(*f->vmax), f->cap, cap) ||
		    grow(pl, (void **)&f->chunk, sizeof(*f->chunk), f->cap, cap))
			return -ENOMEM;
		f->cap = cap;
	}
	memmove(f->start + r + 1, f->start + r, (f->n - r) * sizeof(*f->start));
	memmove(f->vmin + r + 1, f->vmin + r, (f->n - r) * sizeof(*f->vmin));
	memmove(f->vmax + r + 1, f->vmax + r, (f->n - r) * sizeof(*f->vmax));
	memmove(f->chunk + r + 1, f->chunk + r, (f->n - r) * sizeof(*f->chunk));
	f->n++;
	return 0;
}

static void ref_close(struct fun *f, uint32_t r)
{
	f->n--;
	memmove(f->start + r, f->start + r + 1, (f->n - r) * sizeof(*f->start));
	memmove(f->vmin + r, f->vmin + r + 1, (f->n - r) * sizeof(*f->vmin));
	memmove(f->vmax + r, f->vmax + r + 1, (f->n - r) * sizeof(*f->vmax));
	memmove(f->chunk + r, f->chunk + r + 1, (f->n - r) * sizeof(*f->chunk));
}

/* An empty function is uncovered everywhere: one piece from 0. */
static int fun_init(struct pool *pl, struct fun *f)
{
	uint32_t id;
	int rc = new_chunk(pl, &id);

	if (rc || (rc = ref_open(pl, f, 0)))
		return rc;
	pw_chunk_at(pl, id)->n = 1;
	pw_chunk_at(pl, id)->start[0] = 0;
	pw_chunk_at(pl, id)->val[0] = UNCOVERED;
	f->chunk[0] = id;
	summarize(pl, f, 0);
	return 0;
}

/* Inserts piece (start, val) after *at and leaves *at on it. */
static int insert_after(struct pool *pl, struct fun *f, struct at *at,
			uint64_t start, int32_t val)
{
	struct chunk *c = pw_chunk_of(pl, f, at->r);
	uint32_t k = at->k + 1;

	if (c->n == CHUNK) {
		uint32_t id;
		int rc = new_chunk(pl, &id);
		struct chunk *nc;

		if (rc || (rc = ref_open(pl, f, at->r + 1)))
			return rc;
		c = pw_chunk_of(pl, f, at->r);
		nc = pw_chunk_at(pl, id);
		nc->n = CHUNK / 2;
		memcpy(nc->start, c->start + CHUNK / 2, CHUNK / 2 * sizeof(*c->start));
		memcpy(nc->val, c->val + CHUNK / 2, CHUNK / 2 * sizeof(*c->val));
		c->n = CHUNK / 2;
		f->chunk[at->r + 1] = id;
		summarize(pl, f, at->r);
		summarize(pl, f, at->r + 1);
		if (k > CHUNK / 2) {
			at->r++;
			k -= CHUNK / 2;
			c = nc;
		}
	}
	memmove(c->start + k + 1, c->start + k, (c->n - k) * sizeof(*c->start));
	memmove(c->val + k + 1, c->val + k, (c->n - k) * sizeof(*c->val));
	c->start[k] = start;
	c->val[k] = val;
	c->n++;
	at->k = k;
	if (val < f->vmin[at->r])
		f->vmin[at->r] = val;
	if (val > f->vmax[at->r])
		f->vmax[at->r] = val;
	return 0;
}

/* Removes the piece at *at (never a function's first piece); *at is left
 * on the piece that followed it (r == f->n past the last one).  The value
 * bounds of the chunk stay valid bounds; the caller tightens them. */
static int erase_at(struct pool *pl, struct fun *f, struct at *at)
{
	struct chunk *c = pw_chunk_of(pl, f, at->r);

	c->n--;
	memmove(c->start + at->k, c->start + at->k + 1,
		(c->n - at->k) * sizeof(*c->start));
	memmove(c->val + at->k, c->val + at->k + 1,
		(c->n - at->k) * sizeof(*c->val));
	if (c->n == 0) {
		int rc = drop_chunk(pl, f->chunk[at->r]);

		ref_close(f, at->r);
		at->k = 0;
		return rc;
	}
	if (at->k == 0)
		f->start[at->r] = c->start[0];
	if (at->k == c->n) {
		at->r++;
		at->k = 0;
	}
	return 0;
}

/* H(y) = max(H(y), v) on [lo, hi), lo < hi, in one pass that keeps equal
 * neighbours merged (the function is merged before and after). */
int pw_paint(struct pool *pl, struct fun *f, uint64_t lo, uint64_t hi,
	     int32_t v)
{
	struct at w;
	uint32_t r0;
	bool has_prev;
	int32_t prev = 0;
	int rc;

	if (!f->n && (rc = fun_init(pl, f)))
		return rc;
	w = pw_locate(pl, f, lo);
	r0 = w.r;
	{
		struct chunk *c = pw_chunk_of(pl, f, w.r);

		if (c->start[w.k] < lo && c->val[w.k] < v) {
			prev = c->val[w.k]; /* [start, lo) keeps it */
			if ((rc = insert_after(pl, f, &w, lo, prev)))
				return rc;
			has_prev = true;
		} else if (w.k) {
			prev = c->val[w.k - 1];
			has_prev = true;
		} else if (w.r) {
			c = pw_chunk_of(pl, f, w.r - 1);
			prev = c->val[c->n - 1];
			has_prev = true;
		} else {
			has_prev = false;
		}
	}
	for (;;) {
		struct chunk *c = pw_chunk_of(pl, f, w.r);
		uint64_t e = pw_next_start(pl, f, &w);
		int32_t old = c->val[w.k], now = old < v ? v : old;

		if (e > hi && old < v) { /* [hi, e) keeps old */
			if (has_prev && prev == v) {
				c->start[w.k] = hi; /* the piece before takes [s, hi) */
				if (w.k == 0)
					f->start[w.r] = hi;
			} else {
				c->val[w.k] = v;
				if ((rc = insert_after(pl, f, &w, hi, old)))
					return rc;
			}
			break;
		}
		if (has_prev && now == prev) {
			if ((rc = erase_at(pl, f, &w)))
				return rc;
		} else {
			c->val[w.k] = now;
			prev = now;
			has_prev = true;
			pw_advance(pl, f, &w);
		}
		if (e >= hi) {
			/* the piece starting at hi may now equal the one before */
			if (e == hi && w.r < f->n &&
			    pw_chunk_of(pl, f, w.r)->val[w.k] == prev &&
			    (rc = erase_at(pl, f, &w)))
				return rc;
			break;
		}
	}
	for (uint32_t r = r0; r <= w.r && r < f->n; r++)
		summarize(pl, f, r);
	return 0;
}

void pw_pool_free(struct pool *pl)
{
	for (size_t k = 0; k < pl->slabs; k++)
		free(pl->slab[k]);
	free(pl->slab);
	free(pl->spare);
	for (size_t k = 0; k < pl->regions; k++)
		free(pl->region[k]);
	free(pl->region);
}
