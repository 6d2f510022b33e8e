/* The problem stage: buffers with sizes and live ranges, and the bounds
 * computed from them (lower bound = max over steps of live raw bytes). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"

int ab_problem_alloc(struct ab_problem *p, size_t n)
{
	size_t m = n ? n : 1;

	p->n = n;
	p->buf = calloc(m, sizeof(*p->buf));
	p->id = calloc(m, sizeof(*p->id));
	p->tensor = calloc(m, sizeof(*p->tensor));
	if (!p->buf || !p->id || !p->tensor) {
		ab_problem_free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		p->tensor[i] = -1;
	return 0;
}

void ab_problem_free(struct ab_problem *p)
{
	if (!p)
		return;
	free(p->name);
	if (p->csv_name)
		for (size_t i = 0; i < p->n; i++)
			free(p->csv_name[i]);
	free(p->csv_name);
	if (p->label && !p->label_text)
		for (size_t i = 0; i < p->n; i++)
			free(p->label[i]);
	free(p->label);
	free(p->label_text);
	free(p->buf);
	free(p->id);
	free(p->tensor);
	free(p->tensor_buffer);
	free(p->phase_starts);
	free(p->fixed_offset);
	free(p->part);
	memset(p, 0, sizeof(*p));
}

uint64_t ab_sum_bytes(const struct ab_problem *p)
{
	uint64_t s = 0;

	for (size_t i = 0; i < p->n; i++)
		s += p->buf[i].size;
	return s;
}

/* Room for k profile entries. */
static int profile_alloc(struct ab_live_profile *lp, size_t k)
{
	lp->time = malloc((k + 1) * sizeof(*lp->time));
	lp->bytes = malloc((k + 1) * sizeof(*lp->bytes));
	lp->buffers = malloc((k + 1) * sizeof(*lp->buffers));
	if (!lp->time || !lp->bytes || !lp->buffers) {
		ab_live_profile_free(lp);
		return -ENOMEM;
	}
	return 0;
}

/* The dense cases' span of times, last + 2 at the most (an end is at
 * last + 1), when every time is from 0 and the span is at most 2n + 64;
 * 0 when the times do not allow a dense pass. */
static uint64_t dense_span(const struct ab_problem *p)
{
	uint64_t span = 0;

	for (size_t i = 0; i < p->n; i++) {
		if (p->buf[i].first < 0 || p->buf[i].last < p->buf[i].first)
			return 0;
		if ((uint64_t)p->buf[i].last + 2 > span)
			span = (uint64_t)p->buf[i].last + 2;
	}
	return span <= 2 * (uint64_t)p->n + 64 ? span : 0;
}

/* The profile from per-time deltas when the times span at most 2n + 64
 * steps from 0: O(n + span), sequential but for the n scattered adds.
 * 1 when the times do not allow it (nothing done). */
static int live_profile_dense(const struct ab_problem *p,
			      struct ab_live_profile *lp)
{
	uint64_t span = 0;
	int64_t *delta;
	int32_t *moved;
	uint64_t *seen;
	size_t k = 0;
	int64_t bytes = 0, count = 0;

	if (!(span = dense_span(p)))
		return 1;
	delta = ab_alloc_large(span * sizeof(*delta));
	moved = ab_alloc_large(span * sizeof(*moved));
	seen = calloc(span / 64 + 1, sizeof(*seen));
	if (!delta || !moved || !seen) {
		free(delta);
		free(moved);
		free(seen);
		return -ENOMEM;
	}
	memset(delta, 0, span * sizeof(*delta));
	memset(moved, 0, span * sizeof(*moved));
	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = (uint64_t)p->buf[i].first, b = (uint64_t)p->buf[i].last + 1;

		delta[a] += (int64_t)p->buf[i].size;
		delta[b] -= (int64_t)p->buf[i].size;
		moved[a]++;
		moved[b]--;
		seen[a / 64] |= 1ull << (a % 64);
		seen[b / 64] |= 1ull << (b % 64);
	}
	for (size_t w = 0; w <= span / 64; w++)
		k += (size_t)__builtin_popcountll(seen[w]);
	if (profile_alloc(lp, k) == 0) {
		k = 0;
		for (uint64_t t = 0; t < span; t++) {
			if (!(seen[t / 64] >> (t % 64) & 1))
				continue;
			bytes += delta[t];
			count += moved[t];
			lp->time[k] = (int64_t)t;
			lp->bytes[k] = (uint64_t)bytes;
			lp->buffers[k] = (size_t)count;
			k++;
		}
		lp->n = k;
	}
	free(delta);
	free(moved);
	free(seen);
	return lp->time ? 0 : -ENOMEM;
}

/*
 * The live profile: at each distinct time where something starts or ends,
 * the bytes and buffers live from that time on.  Times within 2n + 64
 * steps of 0: per-time deltas, O(n + steps); else O(n log n) by sorting
 * the 2n events, no array over the (possibly huge) time range.
 */
int ab_live_profile(const struct ab_problem *p, struct ab_live_profile *lp)
{
	struct ab_key_index *ev = NULL;
	size_t ne = 2 * p->n, k = 0;
	int64_t bytes = 0, count = 0;
	int rc;

	memset(lp, 0, sizeof(*lp));
	if (p->n == 0)
		return 0;
	rc = live_profile_dense(p, lp);
	if (rc <= 0)
		return rc;
	ev = ab_alloc_large(ne * sizeof(*ev));
	if (!ev || profile_alloc(lp, ne)) {
		free(ev);
		return -ENOMEM;
	}
	/* Key: time * 2 (+1 for an end) so starts sort before ends that share
	 * the time only when the end is at time+1 exclusive: an end event is
	 * at last + 1, a start at first. */
	for (size_t i = 0; i < p->n; i++) {
		ev[2 * i].key = (uint64_t)p->buf[i].first;
		ev[2 * i].index = (uint32_t)i * 2;
		ev[2 * i + 1].key = (uint64_t)p->buf[i].last + 1;
		ev[2 * i + 1].index = (uint32_t)i * 2 + 1;
	}
	ab_sort_key_index(ev, ne);
	for (size_t e = 0; e < ne;) {
		uint64_t t = ev[e].key;

		for (; e < ne && ev[e].key == t; e++) {
			size_t i = ev[e].index / 2;
			int64_t sign = (ev[e].index & 1) ? -1 : 1;

			bytes += sign * (int64_t)p->buf[i].size;
			count += sign;
		}
		lp->time[k] = (int64_t)t;
		lp->bytes[k] = (uint64_t)bytes;
		lp->buffers[k] = (size_t)count;
		k++;
	}
	lp->n = k;
	free(ev);
	return 0;
}

void ab_live_profile_free(struct ab_live_profile *lp)
{
	free(lp->time);
	free(lp->bytes);
	free(lp->buffers);
	memset(lp, 0, sizeof(*lp));
}

int64_t ab_problem_oversize(const struct ab_problem *p)
{
	uint64_t total = 0;

	for (size_t i = 0; i < p->n; i++) {
		uint64_t a = p->buf[i].align > AB_MAX_ALIGN ? p->buf[i].align
							     : AB_MAX_ALIGN;
		uint64_t sz = p->buf[i].size;

		if (sz > AB_MAX_PROBLEM_BYTES)
			return (int64_t)i;
		/* no overflow: sz, a <= 2^62; a power of two without a divide */
		sz = (a & (a - 1)) ? ab_align_up(sz, a) : (sz + a - 1) & ~(a - 1);
		if (sz > AB_MAX_PROBLEM_BYTES - total)
			return (int64_t)i;
		total += sz;
	}
	return -1;
}

/* Separate arenas: each part needs its own most-live bytes and the
 * arenas add up.  *at_step is the peak step of the part with the largest
 * bound.  0 when out of memory. */
static uint64_t parts_bound(const struct ab_problem *p, int32_t *at_step)
{
	struct ab_buffer *b = malloc((p->n + 1) * sizeof(*b));
	uint64_t sum = 0, top = 0;

	if (!b)
		return 0;
	for (int j = 0; j < p->n_parts; j++) {
		struct ab_problem one = { .buf = b };
		uint64_t lb;
		int32_t w;

		for (size_t i = 0; i < p->n; i++)
			if (p->part[i] == j)
				b[one.n++] = p->buf[i];
		lb = ab_lower_bound(&one, &w);
		sum += lb;
		if (lb > top) {
			top = lb;
			if (at_step)
				*at_step = w;
		}
	}
	free(b);
	return sum;
}

/* The bound from per-time byte deltas alone when the times span at most
 * 2n + 64 steps from 0 (the profile's dense case, without its counts and
 * its bitmap of event times: the most bytes live first reached is at a
 * start, so the same step).  1 when the times do not allow it. */
static int lower_bound_dense(const struct ab_problem *p, uint64_t *best,
			     int32_t *at_step)
{
	uint64_t span = 0;
	int64_t *delta, bytes = 0;

	if (!(span = dense_span(p)))
		return 1;
	delta = ab_alloc_large(span * sizeof(*delta));
	if (!delta)
		return -ENOMEM;
	memset(delta, 0, span * sizeof(*delta));
	for (size_t i = 0; i < p->n; i++) {
		delta[p->buf[i].first] += (int64_t)p->buf[i].size;
		delta[p->buf[i].last + 1] -= (int64_t)p->buf[i].size;
	}
	*best = 0;
	for (uint64_t t = 0; t < span; t++) {
		bytes += delta[t];
		if ((uint64_t)bytes > *best) {
			*best = (uint64_t)bytes;
			if (at_step)
				*at_step = (int32_t)t;
		}
	}
	free(delta);
	return 0;
}

uint64_t ab_lower_bound(const struct ab_problem *p, int32_t *at_step)
{
	struct ab_live_profile lp;
	uint64_t best = 0;
	int rc;

	if (at_step)
		*at_step = -1;
	if (p->n_parts > 1 && p->part)
		return parts_bound(p, at_step);
	rc = lower_bound_dense(p, &best, at_step);
	if (rc <= 0)
		return rc ? 0 : best;
	if (ab_live_profile(p, &lp))
		return 0;
	for (size_t k = 0; k < lp.n; k++) {
		if (lp.bytes[k] > best) {
			best = lp.bytes[k];
			if (at_step)
				*at_step = (int32_t)lp.time[k];
		}
	}
	ab_live_profile_free(&lp);
	return best;
}

size_t ab_max_live_buffers(const struct ab_problem *p)
{
	struct ab_live_profile lp;
	size_t best = 0;

	if (ab_live_profile(p, &lp))
		return 0;
	for (size_t k = 0; k < lp.n; k++)
		if (lp.buffers[k] > best)
			best = lp.buffers[k];
	ab_live_profile_free(&lp);
	return best;
}
