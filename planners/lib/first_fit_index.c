/* First fit by checkpoints: see first_fit_index.h for the idea and costs. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_index.h"
#include "core/sort.h"

#define CHUNK 64         /* pieces per chunk of a function */
#define UNCOVERED INT32_MIN

/* ------------------------------------------------- piecewise functions */

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

struct pool {
	struct chunk **slab;
	size_t slabs, cap_slabs, used;
	uint32_t *spare; /* freed chunk ids */
	size_t spare_n, spare_cap;
};

static struct chunk *chunk_at(const struct pool *pl, uint32_t id)
{
	return &pl->slab[id >> SLAB_BITS][id & (SLAB - 1)];
}

static int new_chunk(struct pool *pl, uint32_t *id)
{
	if (pl->spare_n) {
		*id = pl->spare[--pl->spare_n];
		return 0;
	}
	if (pl->used == pl->slabs * SLAB) {
		if (pl->slabs == pl->cap_slabs) {
			size_t cap = pl->cap_slabs ? pl->cap_slabs * 2 : 16;
			void *q = realloc(pl->slab, cap * sizeof(*pl->slab));

			if (!q)
				return -ENOMEM;
			pl->slab = q;
			pl->cap_slabs = cap;
		}
		pl->slab[pl->slabs] = malloc(SLAB * sizeof(struct chunk));
		if (!pl->slab[pl->slabs])
			return -ENOMEM;
		pl->slabs++;
	}
	*id = (uint32_t)pl->used++;
	return 0;
}

static int drop_chunk(struct pool *pl, uint32_t id)
{
	if (pl->spare_n == pl->spare_cap) {
		size_t cap = pl->spare_cap ? pl->spare_cap * 2 : 64;
		void *q = realloc(pl->spare, cap * sizeof(*pl->spare));

		if (!q)
			return -ENOMEM;
		pl->spare = q;
		pl->spare_cap = cap;
	}
	pl->spare[pl->spare_n++] = id;
	return 0;
}

static struct chunk *chunk_of(const struct pool *pl, const struct fun *f,
			      uint32_t r)
{
	return chunk_at(pl, f->chunk[r]);
}

/* Asks for a whole chunk at once: its lines then arrive in parallel. */
static void prefetch_chunk(const struct chunk *c)
{
	for (size_t b = 0; b < sizeof(*c); b += 64)
		__builtin_prefetch((const char *)c + b);
}

static void summarize(const struct pool *pl, struct fun *f, uint32_t r)
{
	const struct chunk *c = chunk_of(pl, f, r);
	int32_t lo = c->val[0], hi = c->val[0];

	for (uint32_t k = 1; k < c->n; k++) {
		lo = c->val[k] < lo ? c->val[k] : lo;
		hi = c->val[k] > hi ? c->val[k] : hi;
	}
	f->start[r] = c->start[0];
	f->vmin[r] = lo;
	f->vmax[r] = hi;
}

/* Grows one of a function's parallel arrays to cap elements. */
static int grow(void **a, size_t elem, uint32_t cap)
{
	void *q = realloc(*a, cap * elem);

	if (!q)
		return -ENOMEM;
	*a = q;
	return 0;
}

/* Makes room for a chunk at index r (the caller fills it in). */
static int ref_open(struct fun *f, uint32_t r)
{
	if (f->n == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 8;

		if (grow((void **)&f->start, sizeof(*f->start), cap) ||
		    grow((void **)&f->vmin, sizeof(*f->vmin), cap) ||
		    grow((void **)&f->vmax, sizeof(*f->vmax), cap) ||
		    grow((void **)&f->chunk, sizeof(*f->chunk), cap))
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

	if (rc || (rc = ref_open(f, 0)))
		return rc;
	chunk_at(pl, id)->n = 1;
	chunk_at(pl, id)->start[0] = 0;
	chunk_at(pl, id)->val[0] = UNCOVERED;
	f->chunk[0] = id;
	summarize(pl, f, 0);
	return 0;
}

static void fun_free(struct fun *f)
{
	free(f->start);
	free(f->vmin);
	free(f->vmax);
	free(f->chunk);
}

/* Last index in [lo, hi) of the ascending a[] with a[i] <= y (a[lo] <= y). */
static uint32_t last_le(const uint64_t *a, uint32_t lo, uint32_t hi, uint64_t y)
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
static struct at locate(const struct pool *pl, const struct fun *f, uint64_t y)
{
	struct at at;
	const struct chunk *c;

	at.r = last_le(f->start, 0, f->n, y);
	c = chunk_of(pl, f, at.r);
	at.k = last_le(c->start, 0, c->n, y);
	return at;
}

/* Moves *at forward to the piece holding y (y at or after *at's piece). */
static void seek(const struct pool *pl, const struct fun *f, struct at *at,
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
		at->r = last_le(f->start, lo, hi, y);
		at->k = 0;
	}
	c = chunk_of(pl, f, at->r);
	/* the walk mostly lands in the same piece or the next few */
	for (int step = 0; step < 4; step++) {
		if (at->k + 1 >= c->n || c->start[at->k + 1] > y)
			return;
		at->k++;
	}
	at->k = last_le(c->start, at->k, c->n, y);
}

/* Start of the piece after *at, or UINT64_MAX. */
static uint64_t next_start(const struct pool *pl, const struct fun *f,
			   const struct at *at)
{
	const struct chunk *c = chunk_of(pl, f, at->r);

	if (at->k + 1 < c->n)
		return c->start[at->k + 1];
	return at->r + 1 < f->n ? f->start[at->r + 1] : UINT64_MAX;
}

static void advance(const struct pool *pl, const struct fun *f, struct at *at)
{
	if (++at->k == chunk_of(pl, f, at->r)->n) {
		at->r++;
		at->k = 0;
	}
}

/* Inserts piece (start, val) after *at and leaves *at on it. */
static int insert_after(struct pool *pl, struct fun *f, struct at *at,
			uint64_t start, int32_t val)
{
	struct chunk *c = chunk_of(pl, f, at->r);
	uint32_t k = at->k + 1;

	if (c->n == CHUNK) {
		uint32_t id;
		int rc = new_chunk(pl, &id);
		struct chunk *nc;

		if (rc || (rc = ref_open(f, at->r + 1)))
			return rc;
		c = chunk_of(pl, f, at->r);
		nc = chunk_at(pl, id);
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
	struct chunk *c = chunk_of(pl, f, at->r);

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
static int paint(struct pool *pl, struct fun *f, uint64_t lo, uint64_t hi,
		 int32_t v)
{
	struct at w;
	uint32_t r0;
	bool has_prev;
	int32_t prev = 0;
	int rc;

	if (!f->n && (rc = fun_init(pl, f)))
		return rc;
	w = locate(pl, f, lo);
	r0 = w.r;
	{
		struct chunk *c = chunk_of(pl, f, w.r);

		if (c->start[w.k] < lo && c->val[w.k] < v) {
			prev = c->val[w.k]; /* [start, lo) keeps it */
			if ((rc = insert_after(pl, f, &w, lo, prev)))
				return rc;
			has_prev = true;
		} else if (w.k) {
			prev = c->val[w.k - 1];
			has_prev = true;
		} else if (w.r) {
			c = chunk_of(pl, f, w.r - 1);
			prev = c->val[c->n - 1];
			has_prev = true;
		} else {
			has_prev = false;
		}
	}
	for (;;) {
		struct chunk *c = chunk_of(pl, f, w.r);
		uint64_t e = next_start(pl, f, &w);
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
			advance(pl, f, &w);
		}
		if (e >= hi) {
			/* the piece starting at hi may now equal the one before */
			if (e == hi && w.r < f->n &&
			    chunk_of(pl, f, w.r)->val[w.k] == prev &&
			    (rc = erase_at(pl, f, &w)))
				return rc;
			break;
		}
	}
	for (uint32_t r = r0; r <= w.r && r < f->n; r++)
		summarize(pl, f, r);
	return 0;
}

/* Moves *at to the first piece at or after it with value >= a whose start
 * is below limit and returns the blocked address (*at's own piece counts
 * from y); UINT64_MAX when there is none below limit. */
static uint64_t next_blocked(const struct pool *pl, const struct fun *f,
			     struct at *at, uint64_t y, uint64_t limit,
			     int32_t a)
{
	const struct chunk *c = chunk_of(pl, f, at->r);

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
		c = chunk_of(pl, f, r);
		prefetch_chunk(c);
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
static uint64_t next_free(const struct pool *pl, const struct fun *f,
			  struct at *at, int32_t a)
{
	const struct chunk *c = chunk_of(pl, f, at->r);

	for (uint32_t k = at->k + 1; k < c->n; k++)
		if (c->val[k] < a) {
			at->k = k;
			return c->start[k];
		}
	for (uint32_t r = at->r + 1; r < f->n; r++) {
		if (f->vmin[r] >= a)
			continue;
		c = chunk_of(pl, f, r);
		prefetch_chunk(c);
		for (uint32_t k = 0; k < c->n; k++)
			if (c->val[k] < a) {
				at->r = r;
				at->k = k;
				return c->start[k];
			}
	}
	return UINT64_MAX; /* not reached */
}

/* ---------------------------------------------------------- gap lists */

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

static int list_insert(struct list *l, const struct entry *e)
{
	uint32_t lo = 0, hi = l->n;

	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 8;
		void *q = realloc(l->e, cap * sizeof(*l->e));

		if (!q)
			return -ENOMEM;
		l->e = q;
		l->cap = cap;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->e[mid].lo <= e->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(l->e + lo + 1, l->e + lo, (l->n - lo) * sizeof(*l->e));
	l->e[lo] = *e;
	l->n++;
	if (e->hi - e->lo > l->longest)
		l->longest = e->hi - e->lo;
	return 0;
}

/* ------------------------------------------------------------ ranks */

/* The lifetimes of order[0..m), ranked: first/last by buffer are ranks
 * among the distinct steps used, so sparse step numbers cost nothing. */
struct ranks {
	size_t n;              /* buffers of the problem */
	int32_t *first, *last; /* by buffer (order[j]) */
	size_t steps;          /* distinct steps */
	int64_t reach;         /* longest lifetime, in ranks */
	uint64_t total_len;    /* sum of last - first */
	uint64_t pairs;        /* pairs of buffers overlapping in time */
};

/* The j-th of order[0..m): the ranks and the counts below do not depend
 * on the order, so with every buffer of the problem in it they read buffer
 * j itself, in sequence. */
static uint32_t any_order(const uint32_t *order, size_t m, size_t n, size_t j)
{
	return m == n ? (uint32_t)j : order[j];
}

static void ranks_free(struct ranks *r)
{
	free(r->first);
	free(r->last);
}

/* One sort of the 2m end points.  The overlapping pairs come from the
 * same pass: at a group of equal steps, each of its s starts overlaps the
 * buffers already live and the other starts of the group, then the
 * group's ends leave (lifetimes are closed). */
static int rank_lifetimes(const struct ab_problem *p, const uint32_t *order,
			  size_t m, struct ranks *r)
{
	struct ab_key_index *ki = malloc((2 * m + 1) * sizeof(*ki));
	uint64_t live = 0;
	size_t distinct = 0;
	int rc = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->n = p->n;
	r->first = malloc((p->n + 1) * sizeof(*r->first));
	r->last = malloc((p->n + 1) * sizeof(*r->last));
	if (!ki || !r->first || !r->last)
		goto out;
	for (size_t j = 0; j < m; j++) {
		uint32_t i = any_order(order, m, p->n, j);
		const struct ab_buffer *b = &p->buf[i];

		ki[2 * j].key = (uint64_t)((int64_t)b->first - INT32_MIN);
		ki[2 * j].index = 2 * i;
		ki[2 * j + 1].key = (uint64_t)((int64_t)b->last - INT32_MIN);
		ki[2 * j + 1].index = 2 * i + 1;
	}
	rc = ab_sort_key_index(ki, 2 * m);
	if (rc)
		goto out;
	for (size_t q = 0; q < 2 * m;) {
		uint64_t starts = 0, ends = 0;
		size_t g = q;

		for (; g < 2 * m && ki[g].key == ki[q].key; g++) {
			uint32_t i = ki[g].index / 2;

			if (ki[g].index % 2) {
				r->last[i] = (int32_t)distinct;
				ends++;
			} else {
				r->first[i] = (int32_t)distinct;
				starts++;
			}
		}
		r->pairs += starts * live + starts * (starts - 1) / 2;
		live += starts;
		live -= ends;
		distinct++;
		q = g;
	}
	r->steps = distinct;
	for (size_t j = 0; j < m; j++) {
		uint32_t i = any_order(order, m, p->n, j);
		int64_t len = r->last[i] - r->first[i];

		r->total_len += (uint64_t)len;
		if (len > r->reach)
			r->reach = len;
	}
	rc = 0;
out:
	free(ki);
	if (rc)
		ranks_free(r);
	return rc;
}

/* ----------------------------------------------------- the choice of w */

/* Rough costs in ns, measured on the 2-core development machine: one
 * conflict listed (and sorted), one function paint, one gap-list entry
 * looked at, and the index's fixed work per buffer (walk and list). */
#define COST_HIT 40
#define COST_PAINT 120
#define COST_LIST 3
#define COST_QUERY 400
#define MAX_PAINTS_PER_BUFFER 40 /* memory guard: pieces ~ paints */
#define MIN_BUFFERS 256

/* The spacing from the ranks, or 0 (listing is cheaper, or the index
 * would be too large).  Counts only: deterministic. */
static uint32_t choose_spacing(const struct ranks *r, const uint32_t *order,
			       size_t m)
{
	int32_t *f = malloc((m + 1) * sizeof(*f));
	int32_t *l = malloc((m + 1) * sizeof(*l));
	uint64_t *count = NULL, best_cost = UINT64_MAX;
	uint32_t best = 0;

	if (m < MIN_BUFFERS || !f || !l)
		goto out;
	/* once, so that the passes below read them in sequence */
	for (size_t j = 0; j < m; j++) {
		uint32_t i = any_order(order, m, r->n, j);

		f[j] = r->first[i];
		l[j] = r->last[i];
	}
	for (uint32_t shift = 2; shift <= 16; shift++) {
		uint64_t w = 1ull << shift, paints = 0, listed = 0, cost;
		size_t cks = (r->steps - 1) / w + 1;

		for (size_t j = 0; j < m; j++) {
			int64_t hi = (l[j] + r->reach) >> shift;

			if (hi > (int64_t)cks - 1)
				hi = (int64_t)cks - 1;
			paints += (uint64_t)(hi - ((f[j] + (int64_t)w - 1) >> shift) + 1);
		}
		if (paints > MAX_PAINTS_PER_BUFFER * (uint64_t)m)
			continue;
		free(count);
		count = calloc(cks + 1, sizeof(*count));
		if (!count) {
			best = 0;
			goto out;
		}
		for (size_t j = 0; j < m; j++)
			if (f[j] & (w - 1))
				count[f[j] >> shift]++;
		for (size_t j = 0; j < m; j++)
			listed += count[l[j] >> shift] / 2;
		cost = COST_PAINT * paints + COST_LIST * listed + COST_QUERY * m;
		if (cost < best_cost) {
			best_cost = cost;
			best = (uint32_t)w;
		}
	}
	if (best && COST_HIT * r->pairs <= best_cost)
		best = 0;
out:
	free(f);
	free(l);
	free(count);
	return best;
}

uint32_t ab_first_fit_spacing(const struct ab_problem *p, const uint32_t *order,
			      size_t m)
{
	struct ranks r;
	uint32_t w;

	if (m < MIN_BUFFERS || rank_lifetimes(p, order, m, &r))
		return 0;
	w = choose_spacing(&r, order, m);
	ranks_free(&r);
	return w;
}

/* ------------------------------------------------- a time-local order */

/* Candidates a buffer's batch-mates scan, on average, in the default
 * batch (see time_local_order). */
#define BATCH_CANDIDATES 32

/* The default batch: about BATCH_CANDIDATES batch-mates start within a
 * buffer's reach (batch x (mean length + longest + 1) / steps). */
static size_t choose_batch(const struct ranks *r, size_t m)
{
	uint64_t span = r->total_len / (m ? m : 1) + (uint64_t)r->reach + 1;
	uint64_t g = BATCH_CANDIDATES * (uint64_t)r->steps / span;

	if (g < 64)
		g = 64;
	return g > m ? (m ? m : 1) : (size_t)g;
}

/*
 * First fit's answer for a buffer depends only on which of the buffers
 * that overlap it in time are placed before it.  So any order that keeps
 * every overlapping pair in the order of `order` gives the same offsets.
 * This one cuts `order` into batches of consecutive buffers and takes each
 * batch by first use, each buffer after those batch-mates that come before
 * it in `order` and overlap it (depth first; a batch-mate's scan resumes
 * where it stopped, since "placed" only grows).  Overlapping buffers of
 * different batches keep their order because batches go in order.  The
 * index then works through time inside a batch: the few checkpoint
 * functions a stretch of time uses stay in cache while its buffers are
 * placed, instead of every buffer fetching its own from memory.
 * Cost: a sort per batch and, per buffer, the batch-mates starting within
 * its reach (about BATCH_CANDIDATES with the default batch).
 */
static int time_local_order(const uint32_t *order, size_t m,
			    const struct ranks *r, const size_t *ends,
			    size_t batch, bool backward, uint32_t *sched,
			    int32_t *sched_first, int32_t *sched_last)
{
	struct ab_key_index *ki = malloc((batch + 1) * sizeof(*ki));
	uint32_t *slot = malloc((batch + 1) * sizeof(*slot));
	int32_t *tf = malloc((batch + 1) * sizeof(*tf));
	int32_t *tl = malloc((batch + 1) * sizeof(*tl));
	uint32_t *cursor = malloc((batch + 1) * sizeof(*cursor));
	uint32_t *stack = malloc((batch + 1) * sizeof(*stack));
	uint8_t *done = malloc(batch + 1);
	size_t out = 0;
	int rc = -ENOMEM;

	if (!ki || !slot || !tf || !tl || !cursor || !stack || !done)
		goto out;
	rc = 0;
	for (size_t j0 = 0, bq = 0; j0 < m && !rc; j0 = ends[bq++]) {
		size_t nb = ends[bq] - j0;
		const uint32_t *bo = order + j0; /* the batch, by slot */

		for (size_t q = 0; q < nb; q++) {
			ki[q].key = (uint32_t)r->first[bo[q]];
			ki[q].index = (uint32_t)q;
		}
		rc = ab_sort_key_index(ki, nb); /* stable: ties keep the slot order */
		/* by time from here: q-th by first use, its slot and lifetime */
		for (size_t q = 0, lo = 0; !rc && q < nb; q++) {
			slot[q] = ki[q].index;
			tf[q] = r->first[bo[slot[q]]];
			tl[q] = r->last[bo[slot[q]]];
			while (tf[lo] < (int64_t)tf[q] - r->reach)
				lo++;
			cursor[q] = (uint32_t)lo; /* first batch-mate that can overlap */
		}
		memset(done, 0, nb);
		for (size_t k = 0; !rc && k < nb; k++) {
			size_t q = backward ? nb - 1 - k : k, top = 0;

			if (done[q])
				continue;
			stack[top++] = (uint32_t)q;
			while (top) {
				uint32_t t = stack[top - 1];
				bool deeper = false;

				while (cursor[t] < nb && tf[cursor[t]] <= tl[t]) {
					uint32_t v = cursor[t]++;

					if (!done[v] && slot[v] < slot[t] && tl[v] >= tf[t]) {
						stack[top++] = v; /* t waits for v */
						deeper = true;
						break;
					}
				}
				if (!deeper) {
					top--;
					done[t] = 1;
					sched[out] = bo[slot[t]];
					sched_first[out] = tf[t];
					sched_last[out++] = tl[t];
				}
			}
		}
	}
out:
	free(ki);
	free(slot);
	free(tf);
	free(tl);
	free(cursor);
	free(stack);
	free(done);
	return rc;
}

/* ---------------------------------------------------------- placing */

struct index {
	uint32_t shift;        /* spacing w = 1 << shift */
	size_t checkpoints;
	int64_t reach;         /* longest lifetime, in ranks */
	uint32_t *last_query;  /* by checkpoint: 1 + last order position asking */
	struct fun *fun;       /* H_T by checkpoint */
	struct list *list;     /* buffers starting in (T, T + w), by checkpoint */
	struct pool pool;
	struct ab_first_fit_stats st;
};

static void index_free(struct index *ix)
{
	if (ix->fun)
		for (size_t c = 0; c < ix->checkpoints; c++)
			fun_free(&ix->fun[c]);
	if (ix->list)
		for (size_t c = 0; c < ix->checkpoints; c++)
			free(ix->list[c].e);
	for (size_t k = 0; k < ix->pool.slabs; k++)
		free(ix->pool.slab[k]);
	free(ix->pool.slab);
	free(ix->pool.spare);
	free(ix->fun);
	free(ix->list);
	free(ix->last_query);
}

/* The walk: the gap list in offset order (first fit's scan) merged with
 * the blocked stretches of H_T, in doubled addresses; the lowest fit at
 * or above `from`. */
static uint64_t first_fit(struct index *ix, int32_t a, int32_t b,
			  uint64_t size, uint64_t align, uint64_t from)
{
	size_t c = (size_t)b >> ix->shift;
	const struct fun *f = &ix->fun[c];
	const struct list *l = &ix->list[c];
	uint64_t cand = ab_align_up(from, align);
	uint32_t j = 0;
	struct at at = { 0, 0 };

	if (!size)
		return cand;
	for (;;) {
		uint64_t y;

		while (j < l->n) {
			const struct entry *e = &l->e[j];

			ix->st.list_scanned++;
			if (e->first > b || e->last < a || e->hi <= 2 * cand + 1) {
				j++;
				continue;
			}
			if (2 * cand + 2 * size <= e->lo)
				break;
			cand = ab_align_up(e->hi >> 1, align);
			j++;
		}
		if (!f->n)
			return cand;
		seek(&ix->pool, f, &at, 2 * cand + 1);
		y = next_blocked(&ix->pool, f, &at, 2 * cand + 1,
				 2 * cand + 2 * size, a);
		if (y == UINT64_MAX)
			return cand;
		ix->st.walk_steps++;
		cand = ab_align_up(next_free(&ix->pool, f, &at, a) >> 1, align);
		/* entries starting more than `longest` below the window cannot
		 * reach it: skip them by bisection */
		if (j < l->n && 2 * cand + 1 > l->longest &&
		    l->e[j].lo + l->longest <= 2 * cand + 1) {
			uint32_t lo = j, hi = l->n;

			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;

				if (l->e[mid].lo + l->longest <= 2 * cand + 1)
					lo = mid + 1;
				else
					hi = mid;
			}
			j = lo;
		}
	}
}

static int place(struct index *ix, int64_t first, int64_t last, size_t pos,
		 uint64_t x, uint64_t size)
{
	uint64_t w = 1ull << ix->shift;
	uint64_t lo = 2 * x, hi = size ? 2 * (x + size) : 2 * x + 1;
	int64_t c1 = (last + ix->reach) >> ix->shift;
	int rc;

	if (c1 > (int64_t)ix->checkpoints - 1)
		c1 = (int64_t)ix->checkpoints - 1;
	/* the functions are independent: fetch all their chunks first */
	for (int64_t c = (first + (int64_t)w - 1) >> ix->shift; c <= c1; c++) {
		const struct fun *f = &ix->fun[c];

		if (f->n && ix->last_query[c] > pos + 1)
			prefetch_chunk(chunk_of(&ix->pool, f,
						last_le(f->start, 0, f->n, lo)));
	}
	for (int64_t c = (first + (int64_t)w - 1) >> ix->shift; c <= c1; c++) {
		if (ix->last_query[c] <= pos + 1)
			continue; /* no later buffer asks this checkpoint */
		ix->st.paints++;
		rc = paint(&ix->pool, &ix->fun[c], lo, hi, (int32_t)last);
		if (rc)
			return rc;
	}
	if (first & (int64_t)(w - 1)) {
		size_t c = (size_t)first >> ix->shift;
		struct entry e = { lo, hi, (int32_t)first, (int32_t)last };

		if (ix->last_query[c] > pos + 1 && (rc = list_insert(&ix->list[c], &e)))
			return rc;
	}
	return 0;
}

/* One index placing a (sub-)order: its schedule and the ranks of each
 * position. */
struct run {
	struct index ix;
	size_t m;
	uint32_t *sched;
	int32_t *sf, *sl;
};

static void run_free(struct run *rn)
{
	free(rn->sched);
	free(rn->sf);
	free(rn->sl);
	index_free(&rn->ix);
}

/* Batches end at ends[0], ends[1], ... (the last at m), the longest
 * `batch` buffers; batch 1 = in `order` itself. */
static int run_init(struct run *rn, const struct ranks *r,
		    const uint32_t *order, size_t m, uint32_t spacing,
		    const size_t *ends, size_t batch, bool backward)
{
	struct index *ix = &rn->ix;
	int rc;

	memset(rn, 0, sizeof(*rn));
	rn->m = m;
	while ((1u << ix->shift) < spacing)
		ix->shift++;
	ix->reach = r->reach;
	ix->checkpoints = r->steps ? ((r->steps - 1) >> ix->shift) + 1 : 1;
	ix->fun = calloc(ix->checkpoints, sizeof(*ix->fun));
	ix->list = calloc(ix->checkpoints, sizeof(*ix->list));
	ix->last_query = calloc(ix->checkpoints, sizeof(*ix->last_query));
	rn->sched = malloc((m ? m : 1) * sizeof(*rn->sched));
	rn->sf = malloc((m ? m : 1) * sizeof(*rn->sf));
	rn->sl = malloc((m ? m : 1) * sizeof(*rn->sl));
	if (!ix->fun || !ix->list || !ix->last_query || !rn->sched || !rn->sf ||
	    !rn->sl)
		return -ENOMEM;
	if (batch > 1) {
		rc = time_local_order(order, m, r, ends, batch, backward,
				      rn->sched, rn->sf, rn->sl);
		if (rc)
			return rc;
	} else {
		for (size_t j = 0; j < m; j++) {
			rn->sched[j] = order[j];
			rn->sf[j] = r->first[order[j]];
			rn->sl[j] = r->last[order[j]];
		}
	}
	for (size_t j = 0; j < m; j++)
		ix->last_query[(size_t)rn->sl[j] >> ix->shift] = (uint32_t)(j + 1);
	ix->st.spacing = 1u << ix->shift;
	ix->st.batch = batch > 1 ? (uint32_t)batch : 1;
	ix->st.threads = 1;
	return 0;
}

static void run_stats(struct run *rn, struct ab_first_fit_stats *st)
{
	const struct index *ix = &rn->ix;

	*st = ix->st;
	st->queries = rn->m;
	for (size_t c = 0; c < ix->checkpoints; c++)
		for (uint32_t k = 0; k < ix->fun[c].n; k++)
			st->pieces += chunk_of(&ix->pool, &ix->fun[c], k)->n;
}

/* ------------------------------------------------- two threads in time */

/*
 * With two CPUs the problem is cut in time at a rank S: buffers ending
 * before S (left), buffers starting at or after S (right) and the buffers
 * live across S (crossing, all live at S, so they overlap each other).
 * A left and a right buffer never overlap, so each side is placed by its
 * own thread in its own index, crossing buffers included in both.  A
 * crossing buffer must be placed after every earlier buffer that overlaps
 * it, on both sides: each side's schedule keeps that, and the crossing
 * buffers come in the same order on both sides (they all overlap), so the
 * k-th crossing buffer is a meeting point.  There the leader finds the
 * lowest offset that fits both indexes: x = 0; then first fit at or above
 * x on the left, then on the right from there, until both agree (each
 * step is at most the joint answer, so this ends on it), while the other
 * thread waits; both then paint it.  The offsets are first fit's in
 * `order`, the same as with one thread.
 */
struct meeting {
	atomic_uint arrived;  /* crossing buffers the other side reached */
	atomic_uint released; /* crossing buffers the leader has answered */
	atomic_int failed;    /* a side stopped on an error */
	uint32_t buffer;      /* the other side's crossing buffer ... */
	int32_t a, b;         /* ... and its ranks in the other index */
	uint64_t answer;
};

struct side {
	const struct ab_problem *p;
	const struct ab_plan_options *o;
	const uint32_t *order;   /* this side's buffers, in order */
	size_t m;
	const size_t *ends;      /* its batches' ends (the global batches) */
	size_t batch;            /* longest batch */
	uint32_t spacing;
	const uint8_t *crossing; /* by buffer; NULL: one thread, none */
	uint64_t *offsets;
	const struct ranks *r;
	struct run rn;
	struct side *other;
	struct meeting *mt;      /* NULL with one thread */
	bool leader;
	uint64_t top;
	int rc;
};

/* Spins, then yields: the wait is short when both sides are busy. */
static bool wait_until(const atomic_uint *v, unsigned k,
		       const atomic_int *failed)
{
	for (unsigned spins = 0; atomic_load_explicit(v, memory_order_acquire) < k;
	     spins++) {
		if (atomic_load_explicit(failed, memory_order_relaxed))
			return false;
		if (spins > 1000)
			sched_yield();
	}
	return true;
}

/* The placement loop of one index: the whole order (no crossing buffers,
 * no meeting), or one side of two threads. */
static void *side_main(void *arg)
{
	struct side *sd = arg;
	struct run *rn = &sd->rn;
	struct meeting *mt = sd->mt;
	unsigned met = 0;
	int rc;

	/* each side sets itself up (with the whole problem's ranks: a side
	 * leaves the other's checkpoints empty); the other reads this index
	 * only once this side has arrived at a meeting */
	rc = run_init(rn, sd->r, sd->order, sd->m, sd->spacing, sd->ends,
		      sd->batch, !sd->leader);
	for (size_t j = 0; j < rn->m && !rc; j++) {
		uint32_t i = rn->sched[j];
		uint64_t size = sd->p->buf[i].size, x;
		uint64_t align = ab_effective_align(sd->p, i, sd->o);

		if (!sd->crossing || !sd->crossing[i]) {
			x = first_fit(&rn->ix, rn->sf[j], rn->sl[j], size, align, 0);
			sd->offsets[i] = x;
		} else if (!sd->leader) {
			mt->buffer = i;
			mt->a = rn->sf[j];
			mt->b = rn->sl[j];
			atomic_store_explicit(&mt->arrived, ++met, memory_order_release);
			if (!wait_until(&mt->released, met, &mt->failed)) {
				rc = -ECANCELED;
				break;
			}
			x = mt->answer;
		} else {
			struct run *other = &sd->other->rn;

			if (!wait_until(&mt->arrived, ++met, &mt->failed)) {
				rc = -ECANCELED;
				break;
			}
			if (mt->buffer != i) { /* cannot happen: see above */
				rc = -EPROTO;
				break;
			}
			x = 0;
			for (;;) {
				uint64_t here = first_fit(&rn->ix, rn->sf[j], rn->sl[j],
							  size, align, x);
				uint64_t there = first_fit(&other->ix, mt->a, mt->b,
							   size, align, here);

				x = there;
				if (there == here)
					break;
			}
			sd->offsets[i] = x;
			mt->answer = x;
			atomic_store_explicit(&mt->released, met, memory_order_release);
		}
		if (x + size > sd->top)
			sd->top = x + size;
		rc = place(&rn->ix, rn->sf[j], rn->sl[j], j, x, size);
	}
	if (rc && mt)
		atomic_store(&mt->failed, 1);
	sd->rc = rc;
	return NULL;
}

/* The CPUs this process may run on (its affinity), at least 1. */
static unsigned usable_cpus(void)
{
#ifdef CPU_COUNT
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
#endif
	return 1;
}

/* From here a second thread pays: 4096 buffers take about 3 ms, against
 * some 50 us to start a thread and about a microsecond a meeting. */
#define PARALLEL_MIN_BUFFERS 4096

/* The rank S cutting order[0..m) best for two threads: the larger side
 * (its own buffers plus the crossing ones) as small as it can be.  0 when
 * no cut leaves both sides some buffers of their own. */
static int32_t choose_cut(const struct ranks *r, const uint32_t *order,
			  size_t m, size_t *crossing)
{
	size_t *ends = calloc(r->steps + 1, sizeof(*ends));
	size_t *starts = calloc(r->steps + 1, sizeof(*starts));
	size_t left = 0, started = 0, best = SIZE_MAX;
	int32_t cut = 0;

	*crossing = 0;
	if (!ends || !starts)
		goto out;
	for (size_t j = 0; j < m; j++) {
		ends[r->last[order[j]]]++;
		starts[r->first[order[j]]]++;
	}
	for (size_t s = 1; s < r->steps; s++) {
		/* left: last < s; right: first >= s; crossing: the rest */
		size_t right, cross, larger;

		left += ends[s - 1];
		started += starts[s - 1];
		right = m - started;
		cross = m - left - right;
		larger = (left > right ? left : right) + cross;
		if (left && right && larger < best) {
			best = larger;
			cut = (int32_t)s;
			*crossing = cross;
		}
	}
out:
	free(ends);
	free(starts);
	return cut;
}

/* Batch ends for order[0..m): every `batch` buffers. */
static size_t *batch_ends(size_t m, size_t batch)
{
	size_t n = m / batch + 2, *ends = malloc(n * sizeof(*ends));

	if (ends)
		for (size_t q = 0; q < n; q++)
			ends[q] = (q + 1) * batch < m ? (q + 1) * batch : m;
	return ends;
}

/* Two threads (see above); *done = false, nothing placed, when no cut
 * fits (or, unless forced, when it does not pay).  Both sides cut their
 * buffers into the same batches of `order` (each side's share of the
 * global batch q is its batch q), and the right side takes its batches
 * backward in time, so that on both sides the crossing buffers, near the
 * cut, come at the end of a batch: the sides meet after equal shares of
 * work, and wait little. */
static int place_two_sides(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m,
			   const struct ranks *r, uint32_t spacing,
			   size_t batch, bool forced, uint64_t *offsets,
			   uint64_t *top, struct ab_first_fit_stats *stats,
			   bool *done)
{
	struct meeting mt = { 0 };
	struct side sd[2] = { { 0 }, { 0 } };
	uint32_t *sub = NULL;
	size_t *ends = NULL, n_batches = m / batch + 2;
	uint8_t *crossing = NULL;
	size_t cross;
	int32_t cut = choose_cut(r, order, m, &cross);
	pthread_t thread;
	int rc = -ENOMEM;

	*done = false;
	if (!cut || (!forced && cross * 16 > m))
		return 0;
	sub = malloc((2 * m + 2) * sizeof(*sub));
	ends = malloc(2 * n_batches * sizeof(*ends));
	crossing = calloc(p->n + 1, 1);
	if (!sub || !ends || !crossing)
		goto out;
	for (int k = 0; k < 2; k++) {
		size_t n = 0, q = 0, *e = ends + (size_t)k * n_batches;
		uint32_t *so = sub + (size_t)k * (m + 1);

		for (size_t j = 0; j < m; j++) {
			uint32_t i = order[j];
			bool ends_before = r->last[i] < cut, starts_after = r->first[i] >= cut;

			if (!ends_before && !starts_after)
				crossing[i] = 1;
			if (k == 0 ? !starts_after : !ends_before)
				so[n++] = i;
			if ((j + 1) % batch == 0 || j + 1 == m)
				e[q++] = n;
		}
		sd[k] = (struct side){
			.p = p, .o = o, .order = so, .m = n, .ends = e,
			.batch = batch, .spacing = spacing, .crossing = crossing,
			.offsets = offsets, .r = r, .other = &sd[1 - k], .mt = &mt,
			.leader = k == 0,
		};
	}
	if (pthread_create(&thread, NULL, side_main, &sd[1])) {
		rc = 0; /* no second thread: the caller places serially */
		goto out;
	}
	side_main(&sd[0]);
	pthread_join(thread, NULL);
	rc = sd[0].rc && sd[0].rc != -ECANCELED ? sd[0].rc : sd[1].rc;
	if (!rc) {
		*done = true;
		*top = sd[0].top > sd[1].top ? sd[0].top : sd[1].top;
		if (stats) {
			struct ab_first_fit_stats s1;

			run_stats(&sd[0].rn, stats);
			run_stats(&sd[1].rn, &s1);
			stats->queries = m;
			stats->walk_steps += s1.walk_steps;
			stats->paints += s1.paints;
			stats->list_scanned += s1.list_scanned;
			stats->pieces += s1.pieces;
			stats->threads = 2;
			stats->crossing = cross;
		}
	}
out:
	for (int k = 0; k < 2; k++)
		run_free(&sd[k].rn);
	free(sub);
	free(ends);
	free(crossing);
	return rc;
}

/* ------------------------------------------------------------ placing */

static int place_ranked(const struct ab_problem *p,
			const struct ab_plan_options *o, const uint32_t *order,
			size_t m, const struct ranks *r,
			const struct ab_first_fit_config *cfg, uint64_t *offsets,
			uint64_t *top, struct ab_first_fit_stats *stats)
{
	uint32_t spacing = cfg && cfg->spacing ? cfg->spacing : choose_spacing(r, order, m);
	size_t batch = cfg && cfg->batch ? cfg->batch : choose_batch(r, m);
	unsigned threads = cfg && cfg->threads ? cfg->threads
			   : m >= PARALLEL_MIN_BUFFERS ? usable_cpus() : 1;
	struct side one = { 0 };
	size_t *ends;
	int rc;

	if (!spacing)
		spacing = 64;
	*top = 0;
	if (threads >= 2) {
		bool done;

		rc = place_two_sides(p, o, order, m, r, spacing, batch,
				     cfg && cfg->threads >= 2, offsets, top,
				     stats, &done);
		if (rc || done)
			return rc;
	}
	ends = batch_ends(m, batch);
	if (!ends)
		return -ENOMEM;
	one = (struct side){
		.p = p, .o = o, .order = order, .m = m, .ends = ends,
		.batch = batch, .spacing = spacing, .offsets = offsets, .r = r,
		.leader = true,
	};
	side_main(&one);
	rc = one.rc;
	*top = one.top;
	if (!rc && stats)
		run_stats(&one.rn, stats);
	run_free(&one.rn);
	free(ends);
	return rc;
}

int ab_first_fit_place(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, const struct ab_first_fit_config *cfg,
		       uint64_t *offsets, uint64_t *top,
		       struct ab_first_fit_stats *stats)
{
	struct ranks r;
	int rc = rank_lifetimes(p, order, m, &r);

	if (rc)
		return rc;
	rc = place_ranked(p, o, order, m, &r, cfg, offsets, top, stats);
	ranks_free(&r);
	return rc;
}

int ab_first_fit_route(const struct ab_problem *p,
		       const struct ab_plan_options *o, const uint32_t *order,
		       size_t m, uint64_t *offsets, uint64_t *top)
{
	struct ab_first_fit_config cfg = { 0 };
	struct ranks r;
	int rc;

	if (m < MIN_BUFFERS)
		return 1;
	rc = rank_lifetimes(p, order, m, &r);
	if (rc)
		return rc;
	cfg.spacing = choose_spacing(&r, order, m);
	rc = cfg.spacing ? place_ranked(p, o, order, m, &r, &cfg, offsets, top,
					NULL)
			 : 1;
	ranks_free(&r);
	return rc;
}
