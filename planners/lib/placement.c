/* Shared placement mechanics: see placement.h for the contract and bounds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_index.h"
#include "lib/placement.h"

/* ------------------------------------------------------------------ orders */

/* Sorts all buffers by (primary, then first, then index) ascending. */
static int order_by(const struct ab_problem *p, uint32_t *order,
		    const uint64_t *primary)
{
	int rc = ab_order_first_use(p, order);

	if (!rc && primary)
		rc = ab_order_stable_by(order, p->n, primary);
	return rc;
}

int ab_order_size_desc(const struct ab_problem *p, uint32_t *order)
{
	uint64_t *neg = malloc((p->n ? p->n : 1) * sizeof(*neg));
	int rc;

	if (!neg)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		neg[i] = ~p->buf[i].size;
	rc = order_by(p, order, neg);
	free(neg);
	return rc;
}

/* ------------------------------------------------------------- the placer */

void ab_placer_free(struct ab_placer *pl)
{
	free(pl->by_first);
	free(pl->first_at);
	free(pl->pos_of);
	free(pl->tree);
	free(pl->hits);
	free(pl->scratch);
	memset(pl, 0, sizeof(*pl));
}

int ab_placer_init(struct ab_placer *pl, const struct ab_problem *p,
		   const uint32_t *subset, size_t m, uint64_t *offsets)
{
	uint64_t *key = NULL;
	int rc = -ENOMEM;

	memset(pl, 0, sizeof(*pl));
	if (!subset)
		m = p->n;
	pl->p = p;
	pl->m = m;
	pl->offset = offsets;
	pl->leaves = 1;
	while (pl->leaves < m)
		pl->leaves *= 2;
	pl->by_first = malloc((m + 1) * sizeof(*pl->by_first));
	pl->first_at = malloc((m + 1) * sizeof(*pl->first_at));
	pl->pos_of = malloc((p->n + 1) * sizeof(*pl->pos_of));
	pl->tree = malloc(2 * pl->leaves * sizeof(*pl->tree));
	key = malloc((p->n + 1) * sizeof(*key));
	if (!pl->by_first || !pl->first_at || !pl->pos_of || !pl->tree || !key)
		goto fail;
	for (size_t j = 0; j < m; j++)
		pl->by_first[j] = subset ? subset[j] : (uint32_t)j;
	for (size_t i = 0; i < p->n; i++)
		key[i] = (uint64_t)p->buf[i].first;
	/* Stable by first, from index order: ties stay by index. */
	if (subset) {
		uint64_t *idx = malloc((p->n + 1) * sizeof(*idx));

		if (!idx)
			goto fail;
		for (size_t i = 0; i < p->n; i++)
			idx[i] = i;
		rc = ab_order_stable_by(pl->by_first, m, idx);
		free(idx);
		if (rc)
			goto fail;
	}
	rc = ab_order_stable_by(pl->by_first, m, key);
	if (rc)
		goto fail;
	for (size_t i = 0; i < p->n; i++)
		pl->pos_of[i] = UINT32_MAX;
	for (size_t j = 0; j < m; j++) {
		pl->pos_of[pl->by_first[j]] = (uint32_t)j;
		pl->first_at[j] = p->buf[pl->by_first[j]].first;
	}
	for (size_t v = 0; v < 2 * pl->leaves; v++)
		pl->tree[v] = INT32_MIN;
	free(key);
	return 0;
fail:
	free(key);
	ab_placer_free(pl);
	return -ENOMEM;
}

void ab_placer_place(struct ab_placer *pl, size_t i, uint64_t offset)
{
	size_t v = pl->leaves + pl->pos_of[i];
	int32_t last = pl->p->buf[i].last;
	uint64_t end = offset + pl->p->buf[i].size;

	pl->offset[i] = offset;
	if (end > pl->top)
		pl->top = end;
	pl->tree[v] = last;
	for (v /= 2; v >= 1 && pl->tree[v] < last; v /= 2)
		pl->tree[v] = last;
}

static int push_hit(struct ab_placer *pl, uint32_t b)
{
	if (pl->n_hits == pl->cap_hits) {
		size_t cap = pl->cap_hits ? pl->cap_hits * 2 : 64;
		void *h = realloc(pl->hits, cap * sizeof(*pl->hits));

		if (!h)
			return -ENOMEM;
		pl->hits = h;
		pl->cap_hits = cap;
	}
	pl->hits[pl->n_hits].offset = pl->offset[b];
	pl->hits[pl->n_hits].end = pl->offset[b] + pl->p->buf[b].size;
	pl->n_hits++;
	return 0;
}

static int sort_hits(struct ab_placer *pl)
{
	size_t k = pl->n_hits;
	struct ab_hit *h = pl->hits;

	if (k <= 64) {
		for (size_t i = 1; i < k; i++) {
			struct ab_hit x = h[i];
			size_t j = i;

			while (j > 0 && (h[j - 1].offset > x.offset ||
					 (h[j - 1].offset == x.offset &&
					  h[j - 1].end > x.end))) {
				h[j] = h[j - 1];
				j--;
			}
			h[j] = x;
		}
		return 0;
	}
	if (2 * k > pl->cap_scratch) {
		void *s = realloc(pl->scratch, 2 * k * sizeof(*pl->scratch));

		if (!s)
			return -ENOMEM;
		pl->scratch = s;
		pl->cap_scratch = 2 * k;
	}
	/* One radix pass by offset; equal offsets (rare: zero-size buffers)
	 * are then ordered by end with an insertion pass. */
	{
		struct ab_key_index *s = pl->scratch;
		struct ab_hit *tmp = (struct ab_hit *)(s + k);

		for (size_t i = 0; i < k; i++) {
			s[i].key = h[i].offset;
			s[i].index = (uint32_t)i;
		}
		if (ab_sort_key_index(s, k))
			return -ENOMEM;
		/* tmp aliases the upper half of scratch: k key_index entries
		 * (16 bytes each) leave room for k hits (16 bytes each). */
		for (size_t i = 0; i < k; i++)
			tmp[i] = h[s[i].index];
		memcpy(h, tmp, k * sizeof(*h));
	}
	for (size_t i = 1; i < k; i++) {
		struct ab_hit x = h[i];
		size_t j = i;

		while (j > 0 && h[j - 1].offset == x.offset &&
		       h[j - 1].end > x.end) {
			h[j] = h[j - 1];
			j--;
		}
		h[j] = x;
	}
	return 0;
}

static int list_overlapping(struct ab_placer *pl, int32_t a, int32_t b)
{
	size_t lo = 0, hi = pl->m, stack[64];
	int sp = 0;

	pl->n_hits = 0;
	/* prefix: positions with first <= b */
	lo = ab_count_le_i32(pl->first_at, hi, b);
	if (lo > 0 && pl->tree[1] >= a) {
		size_t prefix = lo;

		/* Node v at depth d covers positions from
		 * (v - 2^d) * (leaves >> d); prune at the prefix end. */
		stack[sp++] = 1;
		while (sp) {
			size_t v = stack[--sp];
			int depth = 63 - __builtin_clzll((unsigned long long)v);
			size_t l = (v - ((size_t)1 << depth)) *
				   (pl->leaves >> depth);

			if (l >= prefix || pl->tree[v] < a)
				continue;
			if (v >= pl->leaves) {
				if (push_hit(pl, pl->by_first[v - pl->leaves]))
					return -ENOMEM;
				continue;
			}
			stack[sp++] = 2 * v + 1;
			stack[sp++] = 2 * v;
		}
	}
	return 0;
}

int ab_placer_conflicts_range(struct ab_placer *pl, int32_t a, int32_t b,
			      const struct ab_hit **hits, size_t *k)
{
	if (list_overlapping(pl, a, b) || sort_hits(pl))
		return -ENOMEM;
	*hits = pl->hits;
	*k = pl->n_hits;
	return 0;
}

int ab_placer_overlapping(struct ab_placer *pl, size_t i,
			  const struct ab_hit **hits, size_t *k)
{
	if (list_overlapping(pl, pl->p->buf[i].first, pl->p->buf[i].last))
		return -ENOMEM;
	*hits = pl->hits;
	*k = pl->n_hits;
	return 0;
}

int ab_placer_conflicts(struct ab_placer *pl, size_t i,
			const struct ab_hit **hits, size_t *k)
{
	return ab_placer_conflicts_range(pl, pl->p->buf[i].first,
					 pl->p->buf[i].last, hits, k);
}

/* ---------------------------------------------------------------- gap rules */

uint64_t ab_fit_first(const struct ab_hit *hits, size_t k, uint64_t size,
		      uint64_t align, uint64_t top)
{
	uint64_t cand = 0;

	for (size_t j = 0; j < k; j++) {
		if (hits[j].end <= cand)
			continue;
		if (cand + size <= hits[j].offset)
			break;
		cand = ab_align_up(hits[j].end, align);
	}
	return cand;
}

uint64_t ab_fit_best(const struct ab_hit *hits, size_t k, uint64_t size,
		     uint64_t align, uint64_t top)
{
	uint64_t cur = 0, best = UINT64_MAX, best_room = UINT64_MAX;

	for (size_t j = 0; j < k; j++) {
		uint64_t start = ab_align_up(cur, align);

		if (start + size <= hits[j].offset &&
		    hits[j].offset - start < best_room) {
			best_room = hits[j].offset - start;
			best = start;
		}
		if (hits[j].end > cur)
			cur = hits[j].end;
	}
	return best != UINT64_MAX ? best : ab_align_up(cur, align);
}

/* The loop's one setup: indexes index[0..m_index) (NULL: every buffer),
 * puts order[0..from) where offsets[] already says (kept), then places
 * order[from..m) by rule while the top stays at most limit, and below
 * o->cutoff (else AB_ABOVE_CUTOFF). */
static int place_listed(const struct ab_problem *p,
			const struct ab_plan_options *o, const uint32_t *index,
			size_t m_index, const uint32_t *order, size_t from,
			size_t m, ab_gap_rule rule, uint64_t limit,
			uint64_t *offsets, uint64_t *top)
{
	struct ab_placer pl;
	int rc = ab_placer_init(&pl, p, index, m_index, offsets);

	if (rc)
		return rc;
	if (o->cutoff && o->cutoff - 1 < limit)
		limit = o->cutoff - 1;
	for (size_t j = 0; j < from; j++)
		ab_placer_place(&pl, order[j], offsets[order[j]]);
	rc = ab_placer_place_each(&pl, p, o, order, from, m, rule, limit);
	if (!rc && ab_above_cutoff(o, pl.top))
		rc = AB_ABOVE_CUTOFF;
	*top = pl.top;
	ab_placer_free(&pl);
	return rc;
}

int ab_place_in_order(const struct ab_problem *p,
		      const struct ab_plan_options *o, const uint32_t *order,
		      size_t m, ab_gap_rule rule, uint64_t *offsets,
		      uint64_t *top)
{
	int rc;

	/* first fit without listing, when the lifetimes say it pays (or
	 * when o->route forces it) */
	if (rule == ab_fit_first && o->route != AB_ROUTE_LISTING &&
	    (rc = o->route == AB_ROUTE_INDEX
			  ? ab_first_fit_place(p, o, order, m, NULL, offsets,
					       top, NULL)
			  : ab_first_fit_route(p, o, order, m, offsets, top)) <= 0)
		return rc;
	/* best fit by the same index, when it pays and no buffer is empty */
	if (rule == ab_fit_best &&
	    (rc = ab_best_fit_route(p, o, order, m, AB_INDEX_BEST_FIT, offsets,
				    top)) <= 0)
		return rc;
	return place_listed(p, o, order, m, order, 0, m, rule, UINT64_MAX,
			    offsets, top);
}

int ab_placer_place_each(struct ab_placer *pl, const struct ab_problem *p,
			 const struct ab_plan_options *o, const uint32_t *order,
			 size_t from, size_t m, ab_gap_rule rule,
			 uint64_t limit)
{
	for (size_t j = from; j < m && pl->top <= limit; j++) {
		size_t i = order[j];
		const struct ab_hit *hits;
		size_t k;
		int rc = ab_placer_conflicts(pl, i, &hits, &k);

		if (rc)
			return rc;
		ab_placer_place(pl, i, rule(hits, k, p->buf[i].size,
					    ab_effective_align(p, i, o),
					    pl->top));
	}
	return 0;
}

int ab_plan_in_order(const struct ab_problem *p,
		     const struct ab_plan_options *o, const uint32_t *order,
		     ab_gap_rule rule, struct ab_plan *out)
{
	uint64_t top;
	int rc = ab_place_in_order(p, o, order, p->n, rule, out->offset, &top);

	if (!rc)
		ab_plan_finish_single(out, p);
	return rc;
}

int ab_plan_by_key(const struct ab_problem *p,
		   const struct ab_plan_options *o, const uint64_t *key,
		   bool ties_reversed, ab_gap_rule rule,
		   struct ab_plan *out)
{
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));
	int rc;

	if (!order)
		return -ENOMEM;
	for (size_t j = 0; j < p->n; j++)
		order[j] = (uint32_t)(ties_reversed ? p->n - 1 - j : j);
	rc = ab_order_stable_by(order, p->n, key);
	if (!rc)
		rc = ab_plan_in_order(p, o, order, rule, out);
	free(order);
	return rc;
}

int ab_plan_ordered_by(const struct ab_problem *p,
		       const struct ab_plan_options *o,
		       int (*make_order)(const struct ab_problem *,
					 const struct ab_plan_options *, uint32_t *),
		       ab_gap_rule rule, struct ab_plan *out)
{
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));
	int rc;

	if (!order)
		return -ENOMEM;
	rc = make_order(p, o, order);
	if (!rc)
		rc = ab_plan_in_order(p, o, order, rule, out);
	free(order);
	return rc;
}

int ab_plan_by_size_desc(const struct ab_problem *p,
			 const struct ab_plan_options *o, bool ties_reversed,
			 ab_gap_rule rule, struct ab_plan *out)
{
	uint64_t *key = malloc((p->n + 1) * sizeof(*key));
	int rc;

	if (!key)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		key[i] = ~p->buf[i].size;
	rc = ab_plan_by_key(p, o, key, ties_reversed, rule, out);
	free(key);
	return rc;
}

/* ------------------------------------------------ orders by keys, suffixes */

int ab_place_nonempty_in_order(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       const uint32_t *order, size_t m,
			       ab_gap_rule rule, uint64_t *offsets,
			       uint64_t *top)
{
	uint32_t *live = malloc((m + 1) * sizeof(*live));
	size_t n_live = 0;
	int rc;

	if (!live)
		return -ENOMEM;
	for (size_t j = 0; j < m; j++) {
		if (p->buf[order[j]].size)
			live[n_live++] = order[j];
		else
			offsets[order[j]] = 0;
	}
	rc = place_listed(p, o, live, n_live, live, 0, n_live, rule, UINT64_MAX,
			  offsets, top);
	free(live);
	return rc;
}

int ab_place_around_fixed(const struct ab_problem *p,
			  const struct ab_plan_options *o,
			  const int64_t *fixed, const uint32_t *order,
			  ab_gap_rule rule, uint64_t *offsets, uint64_t *top)
{
	/* the fixed buffers in index order, then the others in order */
	uint32_t *seq = malloc((p->n + 1) * sizeof(*seq));
	size_t n_fixed = 0, k;
	int rc;

	if (!seq)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (fixed[i] >= 0) {
			offsets[i] = (uint64_t)fixed[i];
			seq[n_fixed++] = (uint32_t)i;
		}
	k = n_fixed;
	for (size_t j = 0; j < p->n; j++)
		if (fixed[order[j]] < 0)
			seq[k++] = order[j];
	rc = place_listed(p, o, NULL, 0, seq, n_fixed, p->n, rule, UINT64_MAX,
			  offsets, top);
	free(seq);
	return rc;
}

int ab_place_suffix_within(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m, size_t from,
			   ab_gap_rule rule, uint64_t limit,
			   uint64_t *offsets, uint64_t *top)
{
	return place_listed(p, o, order, m, order, from < m ? from : m, m,
			    rule, limit, offsets, top);
}

int ab_order_by_keys(const struct ab_problem *p, uint32_t *order,
		     const uint64_t *const *keys, size_t n_keys)
{
	int rc = 0;

	for (size_t i = 0; i < p->n; i++)
		order[i] = (uint32_t)i;
	/* Stable passes from the least significant key up. */
	for (size_t k = n_keys; k-- > 0 && !rc;)
		rc = ab_order_stable_by(order, p->n, keys[k]);
	return rc;
}
