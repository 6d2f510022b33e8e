/* The TFLite GPU delegate's shared objects: see gpu_objects.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gpu_objects.h"
#include "lib/placement.h"

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
