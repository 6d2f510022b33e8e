/*
 * The decision search's set-up (fit_search.h): the searched buffers,
 * their overlaps, the sections (runs of steps with one live set) and the
 * three preorders; the root's section bound and taking a found plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fit_search.h"
#include "lib/placement.h"

/* Above this many overlapping pairs (or section cells) the set-up
 * refuses with -E2BIG: the search would not pay. */
#define MAX_PAIRS 20000000ull

const int ab_fit_preorder_keys[AB_FIT_PREORDERS][3] = {
	{ AB_FIT_KEY_WIDTH, AB_FIT_KEY_AREA, AB_FIT_KEY_TOTAL },
	{ AB_FIT_KEY_TOTAL, AB_FIT_KEY_AREA, AB_FIT_KEY_WIDTH },
	{ AB_FIT_KEY_TOTAL, AB_FIT_KEY_WIDTH, AB_FIT_KEY_AREA },
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static size_t lower_u64(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Overlap lists by a sweep over buffers sorted by first use. */
static int build_overlaps(struct ab_fit_search *x, const uint32_t *by_first)
{
	size_t m = x->m, pairs = 0, n_act = 0;
	uint32_t *act = malloc((m + 1) * sizeof(*act));
	uint32_t *deg = calloc(m + 1, sizeof(*deg));
	const struct ab_buffer *B = x->p->buf;
	int rc = -ENOMEM;

	if (!act || !deg)
		goto out;
	for (int pass = 0; pass < 2; pass++) { /* degrees, then fill */
		n_act = 0;
		for (size_t j = 0; j < m; j++) {
			uint32_t b = by_first[j];
			size_t w = 0;

			for (size_t a = 0; a < n_act; a++) {
				uint32_t o = act[a];

				if (B[x->buf[o]].last < B[x->buf[b]].first)
					continue;
				act[w++] = o;
				if (pass == 0) {
					deg[o]++;
					deg[b]++;
					if (++pairs > MAX_PAIRS) {
						rc = -E2BIG;
						goto out;
					}
				} else {
					x->ov[deg[o]++] = b;
					x->ov[deg[b]++] = o;
				}
			}
			n_act = w;
			act[n_act++] = b;
		}
		if (pass == 0) {
			x->ov_start = malloc((m + 1) * sizeof(*x->ov_start));
			x->ov = malloc((2 * pairs + 1) * sizeof(*x->ov));
			if (!x->ov_start || !x->ov)
				goto out;
			x->ov_start[0] = 0;
			for (size_t b = 0; b < m; b++)
				x->ov_start[b + 1] = x->ov_start[b] + deg[b];
			for (size_t b = 0; b < m; b++)
				deg[b] = x->ov_start[b];
		}
	}
	rc = 0;
out:
	free(act);
	free(deg);
	return rc;
}

/* Sections, their members and totals, and the crossing counts. */
static int build_sections(struct ab_fit_search *x)
{
	const struct ab_problem *p = x->p;
	size_t m = x->m, n_ev = 0;
	uint64_t *ev = malloc((2 * m + 1) * sizeof(*ev)), cells = 0;
	int rc = -ENOMEM;

	if (!ev)
		return -ENOMEM;
	for (size_t b = 0; b < m; b++) {
		ev[n_ev++] = (uint64_t)p->buf[x->buf[b]].first;
		ev[n_ev++] = (uint64_t)p->buf[x->buf[b]].last + 1;
	}
	qsort(ev, n_ev, sizeof(*ev), cmp_u64);
	{
		size_t w = 0;

		for (size_t e = 0; e < n_ev; e++)
			if (!w || ev[w - 1] != ev[e])
				ev[w++] = ev[e];
		n_ev = w;
	}
	x->n_sec = n_ev ? n_ev - 1 : 0;
	x->sec_total0 = calloc(x->n_sec + 1, sizeof(*x->sec_total0));
	x->sec_total = calloc(x->n_sec + 1, sizeof(*x->sec_total));
	x->sec_pad = calloc(x->n_sec + 1, sizeof(*x->sec_pad));
	x->cuts0 = calloc(x->n_sec + 1, sizeof(*x->cuts0));
	x->cuts = calloc(x->n_sec + 1, sizeof(*x->cuts));
	x->witness = calloc(x->n_sec + 1, sizeof(*x->witness));
	x->sm_start = calloc(x->n_sec + 2, sizeof(*x->sm_start));
	x->stamp = calloc(x->n_sec + 1, sizeof(*x->stamp));
	x->affected = malloc((x->n_sec + 1) * sizeof(*x->affected));
	if (!x->sec_total0 || !x->sec_total || !x->sec_pad || !x->cuts0 ||
	    !x->cuts || !x->witness || !x->sm_start || !x->stamp ||
	    !x->affected)
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];

		x->sec_lo[b] = (uint32_t)lower_u64(ev, n_ev,
						   (uint64_t)B->first);
		x->sec_hi[b] = (uint32_t)lower_u64(ev, n_ev,
						   (uint64_t)B->last + 1);
		cells += x->sec_hi[b] - x->sec_lo[b];
		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++) {
			x->sec_total0[s] += x->asize[b];
			if (x->asize[b] - x->size[b] > x->sec_pad[s])
				x->sec_pad[s] = x->asize[b] - x->size[b];
			x->sm_start[s + 2]++;
			if (s + 1 < x->sec_hi[b])
				x->cuts0[s]++;
		}
	}
	if (cells > MAX_PAIRS) {
		rc = -E2BIG;
		goto out;
	}
	for (size_t s = 0; s < x->n_sec; s++)
		x->sm_start[s + 2] += x->sm_start[s + 1];
	x->sm = malloc((cells + 1) * sizeof(*x->sm));
	if (!x->sm)
		goto out;
	for (size_t b = 0; b < m; b++)
		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			x->sm[x->sm_start[s + 1]++] = (uint32_t)b;
	rc = 0;
out:
	free(ev);
	return rc;
}

static int build_preorders(struct ab_fit_search *x, uint32_t *order)
{
	const struct ab_problem *p = x->p;
	size_t m = x->m;
	uint64_t *key[3];
	struct ab_problem view = { .n = m }; /* ab_order_by_keys reads n */
	int rc = -ENOMEM;

	for (int k = 0; k < 3; k++)
		key[k] = malloc((m + 1) * sizeof(*key[k]));
	if (!key[0] || !key[1] || !key[2])
		goto out;
	for (size_t b = 0; b < m; b++) {
		const struct ab_buffer *B = &p->buf[x->buf[b]];
		uint64_t t = 0;

		for (uint32_t s = x->sec_lo[b]; s < x->sec_hi[b]; s++)
			if (x->sec_total0[s] > t)
				t = x->sec_total0[s];
		key[AB_FIT_KEY_TOTAL][b] = ~t;
		key[AB_FIT_KEY_WIDTH][b] = ~(uint64_t)(B->last - B->first + 1);
		key[AB_FIT_KEY_AREA][b] = ~(x->size[b] *
				     (uint64_t)(B->last - B->first + 1));
	}
	for (int h = 0; h < AB_FIT_PREORDERS; h++) {
		const uint64_t *keys[3] = { key[ab_fit_preorder_keys[h][0]],
					    key[ab_fit_preorder_keys[h][1]],
					    key[ab_fit_preorder_keys[h][2]] };

		x->pre[h] = malloc((m + 1) * sizeof(*x->pre[h]));
		if (!x->pre[h])
			goto out;
		rc = ab_order_by_keys(&view, order, keys, 3);
		if (rc)
			goto out;
		for (size_t r = 0; r < m; r++)
			x->pre[h][order[r]] = (uint32_t)r;
	}
	rc = 0;
out:
	for (int k = 0; k < 3; k++)
		free(key[k]);
	return rc;
}

int ab_fit_setup(struct ab_fit_search *x, const struct ab_problem *p,
		 const struct ab_plan_options *o, const uint64_t *pin,
		 size_t max_searched)
{
	size_t m = 0;
	uint32_t *order = NULL;
	uint64_t *first = NULL, align_gcd = 0;
	int rc = -ENOMEM;

	memset(x, 0, sizeof(*x));
	x->p = p;
	x->buf = malloc((p->n + 1) * sizeof(*x->buf));
	if (!x->buf)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (p->buf[i].size)
			x->buf[m++] = (uint32_t)i;
	x->m = m;
	if (m > max_searched)
		return -E2BIG;
	if (pin) {
		x->pin = malloc((m + 1) * sizeof(*x->pin));
		if (!x->pin)
			return -ENOMEM;
		for (size_t b = 0; b < m; b++)
			x->pin[b] = pin[x->buf[b]];
	}
	x->size = malloc((m + 1) * sizeof(*x->size));
	x->asize = malloc((m + 1) * sizeof(*x->asize));
	x->align = malloc((m + 1) * sizeof(*x->align));
	x->sec_lo = malloc((m + 1) * sizeof(*x->sec_lo));
	x->sec_hi = malloc((m + 1) * sizeof(*x->sec_hi));
	x->sol = calloc(m + 1, sizeof(*x->sol));
	x->min_off = calloc(m + 1, sizeof(*x->min_off));
	x->rank = calloc(m + 1, sizeof(*x->rank));
	x->n_witnessed = calloc(m + 1, sizeof(*x->n_witnessed));
	x->width = calloc(m + 1, sizeof(*x->width));
	x->rank_keys = calloc(m + 1, sizeof(*x->rank_keys));
	x->scratch = calloc(m + 1, sizeof(*x->scratch));
	x->raised = calloc(m + 1, sizeof(*x->raised));
	order = malloc((m + 1) * sizeof(*order));
	first = malloc((m + 1) * sizeof(*first));
	if (!x->size || !x->asize || !x->align || !x->sec_lo || !x->sec_hi ||
	    !x->sol || !x->min_off || !x->rank || !x->width ||
	    !x->n_witnessed || !x->rank_keys || !x->scratch || !x->raised ||
	    !order || !first)
		goto out;
	for (size_t b = 0; b < m; b++) {
		x->size[b] = p->buf[x->buf[b]].size;
		x->granule = ab_gcd(x->granule, x->size[b]);
		x->align[b] = ab_effective_align(p, x->buf[b], o);
		align_gcd = ab_gcd(align_gcd, x->align[b]);
		x->width[b] = (uint64_t)(p->buf[x->buf[b]].last -
					 p->buf[x->buf[b]].first) + 1;
		order[b] = (uint32_t)b;
		first[b] = (uint64_t)p->buf[x->buf[b]].first;
	}
	/* Every offset is a multiple of align_gcd (the gcd of all the
	 * alignments), so a buffer with another above it uses its size
	 * rounded up to that.  Canonical offsets are 0, ends of buffers, or
	 * multiples of an alignment > 1, so they and the peak are multiples
	 * of the granule, the gcd of the sizes and of the alignments > 1. */
	for (size_t b = 0; b < m; b++) {
		x->asize[b] = ab_align_up(x->size[b], align_gcd);
		if (x->align[b] > 1)
			x->granule = ab_gcd(x->granule, x->align[b]);
	}
	rc = build_sections(x);
	if (!rc)
		rc = ab_order_stable_by(order, m, first);
	if (!rc)
		rc = build_overlaps(x, order);
	if (!rc)
		rc = build_preorders(x, order);
out:
	free(order);
	free(first);
	return rc;
}

void ab_fit_teardown(struct ab_fit_search *x)
{
	free(x->buf);
	free(x->size);
	free(x->asize);
	free(x->align);
	free(x->ov_start);
	free(x->ov);
	free(x->sec_lo);
	free(x->sec_hi);
	free(x->sec_total0);
	free(x->sm_start);
	free(x->sm);
	free(x->cuts0);
	free(x->cuts);
	free(x->witness);
	for (int h = 0; h < AB_FIT_PREORDERS; h++)
		free(x->pre[h]);
	free(x->sol);
	free(x->pin);
	free(x->min_off);
	free(x->sec_total);
	free(x->sec_pad);
	free(x->rank);
	free(x->n_witnessed);
	free(x->width);
	free(x->rank_keys);
	free(x->scratch);
	free(x->raised);
	free(x->stamp);
	free(x->affected);
	free(x->stk);
	free(x->log);
}

/* The bound at the root: in every section, the buffers stack, each but
 * the top one taking its size rounded up to the alignment gcd; rounded up
 * to the granule. */
uint64_t ab_fit_section_bound(const struct ab_fit_search *x, uint64_t bound)
{
	for (size_t s = 0; s < x->n_sec; s++)
		if (x->sec_total0[s] > bound + x->sec_pad[s])
			bound = x->sec_total0[s] - x->sec_pad[s];
	return (bound + x->granule - 1) / x->granule * x->granule;
}

/* The plan found by the last successful decision. */
void ab_fit_take(const struct ab_fit_search *x, struct ab_plan *out)
{
	for (size_t i = 0; i < x->p->n; i++)
		out->offset[i] = 0;
	for (size_t b = 0; b < x->m; b++)
		out->offset[x->buf[b]] = x->sol[b];
	ab_plan_finish_single(out, x->p);
}
