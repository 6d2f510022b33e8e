/* Shared mechanics of the baseline and search planners: see search.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/search.h"

uint64_t ab_fit_first_fn(const struct ab_hit *hits, size_t k, uint64_t size,
			 uint64_t align, uint64_t top)
{
	return ab_fit_first(hits, k, size, align);
}

uint64_t ab_fit_best_fn(const struct ab_hit *hits, size_t k, uint64_t size,
			uint64_t align, uint64_t top)
{
	return ab_fit_best(hits, k, size, align);
}

int ab_place_in_order_fit(const struct ab_problem *p,
			  const struct ab_plan_options *o,
			  const uint32_t *order, size_t m, ab_fit_fn fit,
			  uint64_t *offsets, uint64_t *top)
{
	struct ab_placer pl;
	uint32_t *live = malloc((m + 1) * sizeof(*live));
	size_t n_live = 0;
	int rc;

	if (!live)
		return -ENOMEM;
	live[0] = 0;
	for (size_t j = 0; j < m; j++) {
		if (p->buf[order[j]].size)
			live[n_live++] = order[j];
		else
			offsets[order[j]] = 0;
	}
	rc = ab_placer_init(&pl, p, live, n_live, offsets);
	if (rc)
		goto out;
	for (size_t j = 0; j < n_live; j++) {
		size_t i = live[j];
		const struct ab_hit *hits;
		size_t k;

		rc = ab_placer_conflicts(&pl, i, &hits, &k);
		if (rc)
			break;
		ab_placer_place(&pl, i,
				fit(hits, k, p->buf[i].size,
				    ab_effective_align(p, i, o), pl.top));
	}
	*top = pl.top;
	ab_placer_free(&pl);
out:
	free(live);
	return rc;
}

int ab_place_suffix_within(const struct ab_problem *p,
			   const struct ab_plan_options *o,
			   const uint32_t *order, size_t m, size_t from,
			   enum ab_fit_rule rule, uint64_t limit,
			   uint64_t *offsets, uint64_t *top)
{
	struct ab_placer pl;
	int rc = ab_placer_init(&pl, p, order, m, offsets);

	if (rc)
		return rc;
	for (size_t j = 0; j < from && j < m; j++)
		ab_placer_place(&pl, order[j], offsets[order[j]]);
	rc = ab_placer_place_each(&pl, p, o, order, from, m, rule, limit);
	*top = pl.top;
	ab_placer_free(&pl);
	return rc;
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

void ab_rng_seed(struct ab_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

uint64_t ab_rng_next(struct ab_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t ab_rng_below(struct ab_rng *r, uint64_t n)
{
	return n <= 1 ? 0 : ab_rng_next(r) % n;
}

double ab_now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------ shared-object baselines */

struct obj_key {
	uint64_t key; /* size in the pool, last use in the in-use heap */
	uint32_t obj;
};

static bool obj_less(const struct obj_key *a, const struct obj_key *b)
{
	return a->key < b->key || (a->key == b->key && a->obj < b->obj);
}

static void heap_push(struct obj_key *h, size_t *n, struct obj_key x)
{
	size_t i = (*n)++;

	while (i && obj_less(&x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static struct obj_key heap_pop(struct obj_key *h, size_t *n)
{
	struct obj_key top = h[0], x = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && obj_less(&h[c + 1], &h[c]))
			c++;
		if (!obj_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
	return top;
}

int ab_gpu_greedy_in_order(const struct ab_problem *p, uint64_t *offsets,
			   uint64_t *total)
{
	size_t n = p->n, n_obj = 0, n_pool = 0, n_use = 0;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint32_t *obj_of = malloc((n + 1) * sizeof(*obj_of));
	uint64_t *obj_size = malloc((n + 1) * sizeof(*obj_size));
	struct obj_key *pool = malloc((n + 1) * sizeof(*pool));
	struct obj_key *use = malloc((n + 1) * sizeof(*use));
	int rc = -ENOMEM;

	if (!order || !obj_of || !obj_size || !pool || !use)
		goto out;
	rc = ab_order_first_use(p, order);
	if (rc)
		goto out;
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j], lo = 0, hi, pick = SIZE_MAX;
		uint64_t s = p->buf[i].size, diff = 0;

		while (n_use && (int64_t)use[0].key < p->buf[i].first) {
			struct obj_key u = heap_pop(use, &n_use);
			struct obj_key x = { obj_size[u.obj], u.obj };
			size_t at = 0, h2 = n_pool;

			while (at < h2) { /* sorted insert by (size, obj) */
				size_t mid = (at + h2) / 2;

				if (obj_less(&pool[mid], &x))
					at = mid + 1;
				else
					h2 = mid;
			}
			memmove(pool + at + 1, pool + at,
				(n_pool - at) * sizeof(*pool));
			pool[at] = x;
			n_pool++;
		}
		/* lower_bound of (s, 0): first with size >= s */
		hi = n_pool;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (pool[mid].key < s)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n_pool) {
			pick = lo;
			diff = pool[lo].key - s;
		}
		if (lo > 0 && (pick == SIZE_MAX || s - pool[lo - 1].key < diff))
			pick = lo - 1;
		if (pick == SIZE_MAX) {
			obj_of[i] = (uint32_t)n_obj;
			obj_size[n_obj++] = s;
		} else {
			uint32_t ob = pool[pick].obj;

			memmove(pool + pick, pool + pick + 1,
				(n_pool - pick - 1) * sizeof(*pool));
			n_pool--;
			obj_of[i] = ob;
			if (s > obj_size[ob])
				obj_size[ob] = s;
		}
		heap_push(use, &n_use,
			  (struct obj_key){ (uint64_t)p->buf[i].last,
					    obj_of[i] });
	}
	/* objects end to end; reuse pool[].key as the base */
	*total = 0;
	for (size_t b = 0; b < n_obj; b++) {
		pool[b].key = *total;
		*total += obj_size[b];
	}
	for (size_t i = 0; i < n; i++)
		offsets[i] = pool[obj_of[i]].key;
	rc = 0;
out:
	free(order);
	free(obj_of);
	free(obj_size);
	free(pool);
	free(use);
	return rc;
}
