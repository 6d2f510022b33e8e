/*
 * The geometric plan check.  A plan is valid when every offset is a
 * multiple of max(align, the buffer's own alignment), every buffer lies
 * inside its arena and below the peak, no two buffers whose live ranges
 * intersect overlap in the flat address space, and, when the plan says it
 * keeps the problem's fixed offsets (plan->fixed_kept), every fixed buffer
 * is at its fixed offset (else AB_PLAN_MOVED_FIXED, checked first; a fixed
 * offset need only meet the buffer's own alignment).
 *
 * Sweep: visit start times in order; before inserting the buffers that
 * start at t, retire those whose last use is before t.  The live set is
 * kept free of overlaps, ordered by address in a segment tree over the
 * distinct (offset, index) ranks (a 64-ary tree of bitmaps), so a
 * newcomer only needs to be compared with its predecessor and successor:
 * a radix sort by address (each offset with its index packed below it in
 * one word when the peak fits above the index bits, packed in the pass
 * that checks each buffer) and a counting sort by each time (radix when
 * the times are sparse, ab_rank_by_time), then O(log_64 n) per buffer.
 * The sweep reads its uses in order, each first use with its bytes; the
 * comparisons with the neighbours' bytes (a read at a random rank each)
 * run CHECK_LAG newcomers behind the look-ups, prefetched, in the same
 * order, so the first overlap found is the same (the pair as before).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/validate.h"

static const char *const verdict_names[] = {
	[AB_PLAN_VALID] = "valid",
	[AB_PLAN_OVERLAP] = "overlap",
	[AB_PLAN_MISALIGNED] = "misaligned",
	[AB_PLAN_OUTSIDE_ARENA] = "outside its arena",
	[AB_PLAN_BAD_ARENA] = "bad arena",
	[AB_PLAN_ABOVE_PEAK] = "above the peak",
	[AB_PLAN_STOMP] = "stomp",
	[AB_PLAN_MOVED_FIXED] = "moved from its fixed offset",
	[AB_PLAN_CHECK_FAILED] = "check failed",
};

const char *ab_verdict_name(enum ab_verdict v)
{
	return (unsigned)v < sizeof(verdict_names) / sizeof(verdict_names[0])
		       ? verdict_names[v]
		       : "?";
}

/* The live buffers' address ranks as a 64-ary tree of bitmaps: level 0
 * has one bit per rank, each level above one bit per non-zero word below.
 * Insert, remove, predecessor and successor touch one word per level:
 * 4 levels for 2^24 ranks (a 10^6-buffer bitmap is 125 KiB, in cache). */
#define RS_MAX_LEVELS 6 /* 64^6 = 2^36 ranks */
struct rank_set {
	int levels;
	uint64_t *word[RS_MAX_LEVELS];
};

static int rs_init(struct rank_set *s, size_t n)
{
	size_t words = n;

	memset(s, 0, sizeof(*s));
	do {
		words = (words + 63) / 64;
		if (s->levels == RS_MAX_LEVELS)
			return -ENOMEM;
		s->word[s->levels] = calloc(words, sizeof(uint64_t));
		if (!s->word[s->levels++])
			return -ENOMEM;
	} while (words > 1);
	return 0;
}

static void rs_free(struct rank_set *s)
{
	for (int l = 0; l < s->levels; l++)
		free(s->word[l]);
}

static void rs_insert(struct rank_set *s, size_t r)
{
	for (int l = 0; l < s->levels; l++, r /= 64) {
		uint64_t was = s->word[l][r / 64];

		s->word[l][r / 64] = was | 1ull << (r % 64);
		if (was)
			return; /* the levels above already know the word */
	}
}

static void rs_remove(struct rank_set *s, size_t r)
{
	for (int l = 0; l < s->levels; l++, r /= 64)
		if ((s->word[l][r / 64] &= ~(1ull << (r % 64))))
			return; /* the word still has a bit: the levels above stay */
}

/* Largest live rank < r, or SIZE_MAX. */
static size_t rs_pred(const struct rank_set *s, size_t r)
{
	int l = 0;

	/* climb until a word holds a bit below the position */
	for (;; l++, r /= 64) {
		uint64_t below;

		if (l == s->levels)
			return SIZE_MAX;
		below = s->word[l][r / 64] & ((1ull << (r % 64)) - 1);
		if (below) {
			r = r / 64 * 64 + 63 - (size_t)__builtin_clzll(below);
			break;
		}
	}
	/* then down, each time to the highest bit */
	for (; l > 0; l--)
		r = r * 64 + 63 - (size_t)__builtin_clzll(s->word[l - 1][r]);
	return r;
}

/* Smallest live rank > r, or SIZE_MAX. */
static size_t rs_succ(const struct rank_set *s, size_t r)
{
	int l = 0;

	for (;; l++, r /= 64) {
		uint64_t above;

		if (l == s->levels)
			return SIZE_MAX;
		above = r % 64 == 63 ? 0 : s->word[l][r / 64] & (~0ull << (r % 64 + 1));
		if (above) {
			r = r / 64 * 64 + (size_t)__builtin_ctzll(above);
			break;
		}
	}
	for (; l > 0; l--)
		r = r * 64 + (size_t)__builtin_ctzll(s->word[l - 1][r]);
	return r;
}

static enum ab_verdict set(struct ab_check_result *res, enum ab_verdict v,
			   size_t a, size_t b)
{
	res->verdict = v;
	res->a = a;
	res->b = b;
	res->step = -1;
	return v;
}

/* The arenas: inside the peak, and disjoint when the problem has parts. */
static enum ab_verdict check_arenas(const struct ab_problem *p,
				    const struct ab_plan *plan,
				    struct ab_check_result *res)
{
	/* no byte count of a valid plan passes 2^63 - 1 (a CSV column, a
	 * signed 64-bit integer anywhere downstream) */
	if (plan->n != p->n || plan->n_arenas < 1 || plan->n_arenas > AB_MAX_ARENAS ||
	    plan->peak > INT64_MAX)
		return set(res, AB_PLAN_BAD_ARENA, 0, 0);
	for (int a = 0; a < plan->n_arenas; a++)
		if (plan->arena_base[a] + plan->arena_size[a] < plan->arena_base[a] ||
		    plan->arena_base[a] + plan->arena_size[a] > plan->peak)
			return set(res, AB_PLAN_BAD_ARENA, 0, 0);
	/* Separate arenas (problem parts) share no byte. */
	if (p->n_parts > 1 && p->part) {
		if (plan->n_arenas != p->n_parts)
			return set(res, AB_PLAN_BAD_ARENA, 0, 0);
		for (int a = 0; a < plan->n_arenas; a++)
			for (int b = a + 1; b < plan->n_arenas; b++)
				if (plan->arena_size[a] && plan->arena_size[b] &&
				    plan->arena_base[a] < plan->arena_base[b] + plan->arena_size[b] &&
				    plan->arena_base[b] < plan->arena_base[a] + plan->arena_size[a])
					return set(res, AB_PLAN_BAD_ARENA, 0, 0);
	}
	return AB_PLAN_VALID;
}

/* x is not a multiple of al (al >= 1; a power of two without a divide) */
static inline bool misaligned(uint64_t x, uint64_t al)
{
	return (al & (al - 1)) ? x % al != 0 : (x & (al - 1)) != 0;
}

/* Each buffer: its fixed offset kept, aligned, inside its arena and the
 * peak; *nz counts those of nonzero size.  With key, each of those is
 * also written there, its offset with its index packed below it in the
 * low bits (order_by_address's key, built in this same pass). */
static enum ab_verdict check_buffers(const struct ab_problem *p,
				     const struct ab_plan *plan, uint32_t align,
				     struct ab_check_result *res, size_t *nz,
				     uint64_t *key, unsigned low)
{
	struct ab_plan_options o = { .align = align };

	for (size_t i = 0; i < p->n; i++) {
		bool fixed = plan->fixed_kept && p->fixed_offset &&
			     p->fixed_offset[i] >= 0;
		/* a fixed offset is the input's: only the buffer's own
		 * alignment applies to it */
		uint64_t al = fixed ? p->buf[i].align : ab_effective_align(p, i, &o);
		uint64_t off = plan->offset[i], end = off + p->buf[i].size;
		unsigned a = plan->arena[i];

		if (fixed && off != (uint64_t)p->fixed_offset[i])
			return set(res, AB_PLAN_MOVED_FIXED, i, i);
		if (end < off || end > INT64_MAX)
			return set(res, AB_PLAN_OUTSIDE_ARENA, i, i);
		if (a >= (unsigned)plan->n_arenas)
			return set(res, AB_PLAN_BAD_ARENA, i, i);
		/* a problem of parts (an arena per subgraph): buffer i lies
		 * in its part's own arena */
		if (p->n_parts > 1 && p->part && a != p->part[i])
			return set(res, AB_PLAN_BAD_ARENA, i, i);
		if (misaligned(off, al) ||
		    misaligned(off - (off >= plan->arena_base[a] ? plan->arena_base[a] : 0), al))
			return set(res, AB_PLAN_MISALIGNED, i, i);
		if (off < plan->arena_base[a] ||
		    end > plan->arena_base[a] + plan->arena_size[a])
			return set(res, AB_PLAN_OUTSIDE_ARENA, i, i);
		if (end > plan->peak)
			return set(res, AB_PLAN_ABOVE_PEAK, i, i);
		if (key && p->buf[i].size)
			key[*nz] = off << low | i;
		*nz += p->buf[i].size > 0;
	}
	return AB_PLAN_VALID;
}

/* A buffer's bytes [off, end). */
struct bytes {
	uint64_t off, end;
};

/* A use of a buffer in the sweep: its time and its address rank
 * (UINT32_MAX: size 0, it overlaps nothing); a first use also carries
 * the buffer's bytes, so the sweep reads them in order. */
struct sweep_event {
	int32_t time;
	uint32_t rank;
};

struct sweep_start {
	struct sweep_event ev;
	struct bytes bytes;
};

/* The sweep's arrays: the uses in first-use and last-use order (ties by
 * index), and per address rank the buffer and its bytes.  Built by
 * reading the buffers in index order and writing each where it goes. */
struct sweep {
	struct sweep_start *first;
	struct sweep_event *last;
	uint32_t *who;
	struct bytes *at;
};

/* The low bits that hold a buffer's index in a packed address key. */
static unsigned index_bits(size_t n)
{
	return n > 1 ? 64 - (unsigned)__builtin_clzll(n - 1) : 1;
}

/* The buffers of nonzero size by address, ties by index: who[r] and
 * at[r].off for each rank r, *nz of them.  The offsets with the index
 * packed below them in one word when every offset fits above the index
 * bits (half the bytes to sort: the index bits already rise in input
 * order), as check_buffers wrote them in key[0, *nz); else (key NULL)
 * (offset, index) pairs. */
static int order_by_address(const struct ab_problem *p, const struct ab_plan *plan,
			    uint64_t *key, uint32_t *who, struct bytes *at, size_t *nz)
{
	size_t n = p->n, m = 0;
	unsigned low = index_bits(n);

	if (key) {
		m = *nz;
		if (ab_sort_u64_above(key, m, low))
			return -ENOMEM;
		for (size_t r = 0; r < m; r++) {
			who[r] = (uint32_t)(key[r] & ((1ull << low) - 1));
			at[r].off = key[r] >> low;
		}
	} else {
		struct ab_key_index *by_addr = ab_alloc_large((n + 1) * sizeof(*by_addr));

		for (size_t i = 0; i < n && by_addr; i++)
			if (p->buf[i].size)
				by_addr[m++] = (struct ab_key_index){ plan->offset[i], (uint32_t)i };
		if (!by_addr || ab_sort_key_index(by_addr, m)) {
			free(by_addr);
			return -ENOMEM;
		}
		for (size_t r = 0; r < m; r++) {
			who[r] = by_addr[r].index;
			at[r].off = by_addr[r].key;
		}
		free(by_addr);
	}
	*nz = m;
	return 0;
}

static int sweep_build(const struct ab_problem *p, const struct ab_plan *plan,
		       uint64_t *key, size_t nz, struct sweep *sw)
{
	size_t n = p->n;
	uint32_t *rank = ab_alloc_large((n + 1) * sizeof(*rank));
	uint32_t *time_rank = ab_alloc_large((n + 1) * sizeof(*time_rank));
	int rc = -ENOMEM;

	sw->first = ab_alloc_large((n + 1) * sizeof(*sw->first));
	sw->last = ab_alloc_large((n + 1) * sizeof(*sw->last));
	sw->who = ab_alloc_large((n + 1) * sizeof(*sw->who));
	sw->at = ab_alloc_large((n + 1) * sizeof(*sw->at));
	if (!rank || !time_rank || !sw->first || !sw->last || !sw->who || !sw->at)
		goto out;
	/* Zero-size buffers occupy no bytes and can overlap nothing. */
	for (size_t i = 0; i < n; i++)
		rank[i] = UINT32_MAX;
	if (order_by_address(p, plan, key, sw->who, sw->at, &nz))
		goto out;
	for (size_t r = 0; r < nz; r++) {
		uint32_t i = sw->who[r];

		if (r + 16 < nz) {
			__builtin_prefetch(&p->buf[sw->who[r + 16]]);
			__builtin_prefetch(&rank[sw->who[r + 16]], 1);
		}
		rank[i] = (uint32_t)r;
		sw->at[r].end = sw->at[r].off + p->buf[i].size;
	}
	if (ab_rank_by_time(p, false, time_rank))
		goto out;
	for (size_t i = 0; i < n; i++)
		sw->first[time_rank[i]] = (struct sweep_start){
			{ p->buf[i].first, rank[i] },
			{ plan->offset[i], plan->offset[i] + p->buf[i].size } };
	if (ab_rank_by_time(p, true, time_rank))
		goto out;
	for (size_t i = 0; i < n; i++)
		sw->last[time_rank[i]] = (struct sweep_event){ p->buf[i].last, rank[i] };
	rc = 0;
out:
	free(rank);
	free(time_rank);
	return rc;
}

/* A newcomer's bytes, its rank and its neighbours' ranks when it came
 * (NONE: no neighbour on that side), to be compared later. */
#define NONE UINT32_MAX
struct pending {
	struct bytes bytes;
	uint32_t rank, pred, succ;
};

/* The comparisons read the neighbours' bytes at random ranks, so they run
 * CHECK_LAG newcomers after the look-ups, the bytes prefetched meanwhile.
 * A comparison reads only what a look-up found in the live set as it was
 * then, and at[] never changes, so the late one finds what an immediate
 * one would; they run in sweep order, so the first overlap reported is
 * the same. */
#define CHECK_LAG 32

/* The newcomer overlaps its predecessor or its successor (checked in that
 * order): the verdict and the pair set in *res. */
static bool overlaps_neighbour(const struct sweep *sw, const struct pending *c,
			       struct ab_check_result *res)
{
	if (c->pred != NONE && sw->at[c->pred].end > c->bytes.off) {
		set(res, AB_PLAN_OVERLAP, sw->who[c->pred], sw->who[c->rank]);
		return true;
	}
	if (c->succ != NONE && sw->at[c->succ].off < c->bytes.end) {
		set(res, AB_PLAN_OVERLAP, sw->who[c->rank], sw->who[c->succ]);
		return true;
	}
	return false;
}

static void sweep_free(struct sweep *sw)
{
	free(sw->first);
	free(sw->last);
	free(sw->who);
	free(sw->at);
}

enum ab_verdict ab_validate_plan(const struct ab_problem *p,
				 const struct ab_plan *plan, uint32_t align,
				 struct ab_check_result *res)
{
	struct sweep sw = { 0 };
	struct rank_set live = { 0 };
	size_t n = p->n, nz = 0, jl = 0, found = 0, checked = 0;
	struct pending ring[CHECK_LAG];
	struct ab_check_result dummy;
	enum ab_verdict v = AB_PLAN_VALID;
	unsigned low = index_bits(n);
	uint64_t *key = NULL; /* packed address keys, when they fit */
	int built;

	if (!res)
		res = &dummy;
	set(res, AB_PLAN_VALID, 0, 0);
	v = check_arenas(p, plan, res);
	/* every byte a valid plan places is below the peak: when the peak
	 * fits above the index bits, so does every offset */
	if (v == AB_PLAN_VALID && n > 1 && (plan->peak >> (64 - low)) == 0)
		key = ab_alloc_large((n + 1) * sizeof(*key));
	if (v == AB_PLAN_VALID)
		v = check_buffers(p, plan, align, res, &nz, key, low);
	if (v != AB_PLAN_VALID || nz < 2) {
		free(key);
		return v;
	}
	built = sweep_build(p, plan, key, nz, &sw);
	free(key); /* sorted into sw.who and sw.at */
	if (built || rs_init(&live, nz)) {
		v = set(res, AB_PLAN_CHECK_FAILED, 0, 0);
		goto out;
	}
	for (size_t jf = 0; jf < n;) {
		int32_t t = sw.first[jf].ev.time;

		for (; jl < n && sw.last[jl].time < t; jl++)
			if (sw.last[jl].rank != UINT32_MAX)
				rs_remove(&live, sw.last[jl].rank);
		for (; jf < n && sw.first[jf].ev.time == t; jf++) {
			const struct sweep_start *b = &sw.first[jf];
			struct pending *c = &ring[found % CHECK_LAG];
			size_t r = b->ev.rank;

			if (r == UINT32_MAX)
				continue;
			if (found - checked == CHECK_LAG) {
				if (overlaps_neighbour(&sw, c, res)) {
					v = AB_PLAN_OVERLAP;
					goto out;
				}
				checked++;
			}
			*c = (struct pending){ b->bytes, (uint32_t)r,
					       (uint32_t)rs_pred(&live, r),
					       (uint32_t)rs_succ(&live, r) };
			__builtin_prefetch(&sw.at[c->pred == NONE ? r : c->pred]);
			__builtin_prefetch(&sw.at[c->succ == NONE ? r : c->succ]);
			rs_insert(&live, r);
			found++;
		}
	}
	for (; checked < found; checked++)
		if (overlaps_neighbour(&sw, &ring[checked % CHECK_LAG], res)) {
			v = AB_PLAN_OVERLAP;
			break;
		}
out:
	sweep_free(&sw);
	rs_free(&live);
	return v;
}
