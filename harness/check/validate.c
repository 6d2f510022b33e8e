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
 * three radix sorts, then O(log_64 n) per buffer.
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

enum ab_verdict ab_validate_plan(const struct ab_problem *p,
				 const struct ab_plan *plan, uint32_t align,
				 struct ab_check_result *res)
{
	struct ab_plan_options o = { .align = align };
	struct ab_key_index *by_first = NULL, *by_last = NULL, *by_addr = NULL;
	struct rank_set live = { 0 };
	uint32_t *rank = NULL, *who = NULL;
	size_t n = p->n, nz = 0, jl = 0;
	struct ab_check_result dummy;
	enum ab_verdict v = AB_PLAN_VALID;

	if (!res)
		res = &dummy;
	set(res, AB_PLAN_VALID, 0, 0);
	/* no byte count of a valid plan passes 2^63 - 1 (a CSV column, a
	 * signed 64-bit integer anywhere downstream) */
	if (plan->n != n || plan->n_arenas < 1 || plan->n_arenas > AB_MAX_ARENAS ||
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
	/* Per-buffer checks. */
	for (size_t i = 0; i < n; i++) {
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
		if (off % al || (off - (off >= plan->arena_base[a] ? plan->arena_base[a] : 0)) % al)
			return set(res, AB_PLAN_MISALIGNED, i, i);
		if (off < plan->arena_base[a] ||
		    end > plan->arena_base[a] + plan->arena_size[a])
			return set(res, AB_PLAN_OUTSIDE_ARENA, i, i);
		if (end > plan->peak)
			return set(res, AB_PLAN_ABOVE_PEAK, i, i);
		nz += p->buf[i].size > 0;
	}
	if (nz < 2)
		return AB_PLAN_VALID;
	by_first = ab_alloc_large(nz * sizeof(*by_first));
	by_last = ab_alloc_large(nz * sizeof(*by_last));
	by_addr = ab_alloc_large(nz * sizeof(*by_addr));
	rank = ab_alloc_large(n * sizeof(*rank));
	who = ab_alloc_large(nz * sizeof(*who));
	if (!by_first || !by_last || !by_addr || !rank || !who || rs_init(&live, nz)) {
		v = set(res, AB_PLAN_CHECK_FAILED, 0, 0);
		goto out;
	}
	/* Zero-size buffers occupy no bytes and can overlap nothing. */
	nz = 0;
	for (size_t i = 0; i < n; i++) {
		if (!p->buf[i].size)
			continue;
		by_first[nz] = (struct ab_key_index){ (uint64_t)p->buf[i].first, (uint32_t)i };
		by_last[nz] = (struct ab_key_index){ (uint64_t)p->buf[i].last, (uint32_t)i };
		by_addr[nz] = (struct ab_key_index){ plan->offset[i], (uint32_t)i };
		nz++;
	}
	if (ab_sort_key_index(by_first, nz) || ab_sort_key_index(by_last, nz) ||
	    ab_sort_key_index(by_addr, nz)) {
		v = set(res, AB_PLAN_CHECK_FAILED, 0, 0);
		goto out;
	}
	for (size_t r = 0; r < nz; r++) {
		rank[by_addr[r].index] = (uint32_t)r;
		who[r] = by_addr[r].index;
	}
	for (size_t jf = 0; jf < nz;) {
		uint64_t t = by_first[jf].key;

		for (; jl < nz && by_last[jl].key < t; jl++)
			rs_remove(&live, rank[by_last[jl].index]);
		for (; jf < nz && by_first[jf].key == t; jf++) {
			size_t i = by_first[jf].index, r = rank[i], q;
			uint64_t off = plan->offset[i], end = off + p->buf[i].size;

			q = rs_pred(&live, r);
			if (q != SIZE_MAX &&
			    plan->offset[who[q]] + p->buf[who[q]].size > off) {
				v = set(res, AB_PLAN_OVERLAP, who[q], i);
				goto out;
			}
			q = rs_succ(&live, r);
			if (q != SIZE_MAX && plan->offset[who[q]] < end) {
				v = set(res, AB_PLAN_OVERLAP, i, who[q]);
				goto out;
			}
			rs_insert(&live, r);
		}
	}
out:
	free(by_first);
	free(by_last);
	free(by_addr);
	free(rank);
	free(who);
	rs_free(&live);
	return v;
}
