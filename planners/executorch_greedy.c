/*
 * executorch_greedy: ExecuTorch's greedy memory planner (the default of its
 * MemoryPlanningAlgorithmSuite), reproduced.
 *
 * Algorithm (exir/memory_planning.py: greedy, pick_shared_obj,
 * materialize_buffer):
 *  1. Specs in the order collect_specs_from_nodes yields them (producer
 *     order: first use, then index), each padded up to the alignment
 *     (spec.realign); bisect.insort by padded size, then reversed: size
 *     descending, equal sizes in *reverse* producer order.
 *  2. Each spec goes to a shared object (a bucket of fixed size, never
 *     resized): the first object, in creation order, none of whose
 *     allocations overlaps it in time (closed intervals), at offset 0;
 *     else (allow_overlapping_allocations, the default) the first object
 *     where the highest end of the overlapping allocations, when > 0, plus
 *     the spec's size fits in the object, at that end; else a new object
 *     of the spec's size.
 *  3. Objects are laid end to end in creation order; the arena is the sum
 *     of their sizes.
 * Ties: as above (creation order, then the reversed insort order).
 * Complexity: O(n log n) + sum over specs of O((k + 1) log n), k = the
 * placed buffers overlapping it: one interval-index query (placement.h,
 * unsorted: the decision takes a max per object, so no sort by offset)
 * sees the overlapping tenants of every object at once.  k grows like the
 * buffers live at a step, so this is n^1.5 where those grow like sqrt n
 * (docs/scaling.md, issue 29).  Upstream scans
 * every object's allocations, O(n^2); that scan is kept as the fallback
 * for sizes whose keys would not fit in 64 bits, and both give the same
 * offsets (checked on the corpus and random problems; the times:
 * docs/planners.md).
 * Source: ExecuTorch exir/memory_planning.py as in keyprocedure/executorch
 * at 2250f82f633b33051df89191359094752206fb90 (a fork of pytorch/executorch
 * carrying the size-sorted greedy of 2025); the suite (algo_list =
 * [greedy] by default) keeps the smallest total, so with the default list
 * it is this planner; `naive` is `linear`.  The banked planner over memory
 * ids with capacities (2026) is not modelled.
 * Not expressible in a problem: mutable buffers (live to the end), graph
 * inputs/outputs that the runtime owns (alloc_graph_input = False) and
 * submodules' reserved space (input_mem_buffer_sizes) need the program;
 * a problem plans every buffer it lists.  XNNPACK's extra_padding (64
 * bytes when the graph has an XNNPACK delegate) is not added.
 * Weak spots: an object is sized by its first (largest) tenant and never
 * grows; a spec overlapping an object's allocations is stacked above the
 * highest of them even when a lower hole would hold it.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"
#include "lib/replay.h"

struct alloc {
	uint32_t buffer;
	uint64_t offset;
};

struct object {
	uint64_t size, base;
	int32_t first, last;  /* span of its allocations */
	struct alloc *a;
	size_t n, cap;
};

static int object_add(struct object *ob, uint32_t i, uint64_t offset,
		      const struct ab_buffer *b)
{
	if (ob->n == ob->cap) {
		size_t cap = ob->cap ? 2 * ob->cap : 4;
		struct alloc *a = realloc(ob->a, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		ob->a = a;
		ob->cap = cap;
	}
	ob->a[ob->n++] = (struct alloc){ i, offset };
	if (ob->n == 1 || b->first < ob->first)
		ob->first = b->first;
	if (ob->n == 1 || b->last > ob->last)
		ob->last = b->last;
	return 0;
}

/* Records upstream's choice: a free object, else stacking, else a new one. */
static int assign(struct object *obj, size_t *n_obj, size_t pick,
		  size_t stack, uint64_t stack_at, uint32_t i, uint64_t size,
		  const struct ab_buffer *b)
{
	if (pick != SIZE_MAX)
		return object_add(&obj[pick], i, 0, b);
	if (stack != SIZE_MAX)
		return object_add(&obj[stack], i, stack_at, b);
	obj[*n_obj].size = size;
	return object_add(&obj[(*n_obj)++], i, 0, b);
}

/* Upstream's scan: each object's allocations in turn (the fallback when the
 * index's encoding does not fit in 64 bits). */
static int place_scanning(const struct ab_problem *p, const uint32_t *order,
			  uint64_t align, struct object *obj, size_t *n_objp)
{
	size_t n_obj = 0;
	int rc = 0;

	for (size_t k = 0; !rc && k < p->n; k++) {
		uint32_t i = order[k];
		const struct ab_buffer *b = &p->buf[i];
		uint64_t size = ab_align_up(b->size, align);
		size_t pick = SIZE_MAX, stack = SIZE_MAX;
		uint64_t stack_at = 0;

		for (size_t j = 0; j < n_obj && pick == SIZE_MAX; j++) {
			const struct object *ob = &obj[j];
			uint64_t top = 0;
			bool overlaps = false;

			if (b->last >= ob->first && b->first <= ob->last) {
				for (size_t a = 0; a < ob->n; a++) {
					const struct ab_buffer *t =
						&p->buf[ob->a[a].buffer];
					uint64_t end;

					if (b->last < t->first || b->first > t->last)
						continue;
					overlaps = true;
					end = ob->a[a].offset +
					      ab_align_up(t->size, align);
					if (end > top)
						top = end;
				}
			}
			if (!overlaps)
				pick = j;
			else if (stack == SIZE_MAX && top > 0 &&
				 top + size <= ob->size) {
				stack = j;
				stack_at = top;
			}
		}
		rc = assign(obj, &n_obj, pick, stack, stack_at, i, size, b);
	}
	*n_objp = n_obj;
	return rc;
}

/*
 * The same decisions from an interval index over time (placement.h): a
 * placed buffer's key is object * stride + its offset in the object, so
 * one query lists the overlapping tenants of every object at once, in
 * O((k + 1) log n) for k of them.  The first object none of them is in has
 * index <= k, and stacking is only tried when every object is hit, so the
 * decision costs O(k) more.
 */
static int place_indexed(const struct ab_problem *p,
			 const struct ab_plan_options *o, const uint32_t *order,
			 uint64_t align, struct object *obj, size_t *n_objp,
			 uint64_t stride)
{
	size_t n = p->n, n_obj = 0;
	uint64_t total = 0; /* the objects' sizes: the peak so far */
	uint64_t *key = malloc((n + 1) * sizeof(*key));
	uint64_t *top = malloc((n + 1) * sizeof(*top));
	size_t *stamp = malloc((n + 1) * sizeof(*stamp));
	struct ab_placer pl;
	int rc = -ENOMEM;

	if (!key || !top || !stamp)
		goto out_free;
	rc = ab_placer_init(&pl, p, NULL, n, key);
	if (rc)
		goto out_free;
	for (size_t j = 0; j < n; j++)
		stamp[j] = SIZE_MAX;
	for (size_t k = 0; !rc && k < n; k++) {
		uint32_t i = order[k];
		const struct ab_buffer *b = &p->buf[i];
		uint64_t size = ab_align_up(b->size, align), stack_at = 0;
		size_t pick = SIZE_MAX, stack = SIZE_MAX, n_hits;
		const struct ab_hit *hits;

		rc = ab_placer_overlapping(&pl, i, &hits, &n_hits);
		if (rc)
			break;
		for (size_t h = 0; h < n_hits; h++) {
			size_t j = (size_t)(hits[h].offset / stride);
			uint64_t end = ab_align_up(hits[h].end - j * stride, align);

			if (stamp[j] != k) {
				stamp[j] = k;
				top[j] = 0;
			}
			if (end > top[j])
				top[j] = end;
		}
		for (size_t j = 0; j < n_obj && pick == SIZE_MAX; j++)
			if (stamp[j] != k)
				pick = j;
		for (size_t j = 0; pick == SIZE_MAX && j < n_obj; j++)
			if (top[j] > 0 && top[j] + size <= obj[j].size) {
				stack = j;
				stack_at = top[j];
				break;
			}
		rc = assign(obj, &n_obj, pick, stack, stack_at, i, size, b);
		if (!rc && pick == SIZE_MAX && stack == SIZE_MAX) {
			total += size; /* a new object */
			if (ab_above_cutoff(o, total))
				rc = AB_ABOVE_CUTOFF;
		}
		if (!rc) {
			size_t j = pick != SIZE_MAX ? pick : stack != SIZE_MAX
							? stack : n_obj - 1;

			ab_placer_place(&pl, i, j * stride +
						obj[j].a[obj[j].n - 1].offset);
		}
	}
	ab_placer_free(&pl);
out_free:
	free(key);
	free(top);
	free(stamp);
	*n_objp = n_obj;
	return rc;
}

static int plan_executorch_greedy(const struct ab_problem *p,
				  const struct ab_plan_options *o,
				  struct ab_plan *out)
{
	size_t n = p->n, n_obj = 0;
	uint64_t align = ab_common_align(p, o), total = 0, stride = 1;
	bool indexed;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t *neg = malloc((n + 1) * sizeof(*neg));
	uint64_t *rank = malloc((n + 1) * sizeof(*rank));
	struct object *obj = calloc(n + 1, sizeof(*obj));
	int rc = -ENOMEM;

	if (!order || !neg || !rank || !obj)
		goto out;
	rc = -EOVERFLOW;
	if (!align)
		goto out;
	/* Keys object * stride + offset must fit: stride > every object's
	 * size (at most the padded sum), objects <= n. */
	for (size_t i = 0; i < n && total < (1ull << 62); i++)
		total += ab_align_up(p->buf[i].size, align);
	while (stride <= total && stride < (1ull << 62))
		stride *= 2;
	indexed = stride > total &&
		  (unsigned __int128)stride * (n + 1) < ((unsigned __int128)1 << 64);
	total = 0;
	/* Producer order, then size descending with ties reversed. */
	rc = ab_order_first_use(p, order);
	if (rc)
		goto out;
	for (size_t k = 0; k < n; k++)
		rank[order[k]] = UINT64_MAX - k;
	for (size_t i = 0; i < n; i++)
		neg[i] = ~ab_align_up(p->buf[i].size, align);
	const uint64_t *keys[] = { neg, rank };

	rc = ab_order_by_keys(p, order, keys, 2);
	if (!rc && indexed)
		rc = place_indexed(p, o, order, align, obj, &n_obj, stride);
	else if (!rc)
		rc = place_scanning(p, order, align, obj, &n_obj);
	if (rc)
		goto out;
	for (size_t j = 0; j < n_obj; j++) {
		obj[j].base = total;
		total += obj[j].size;
		for (size_t a = 0; a < obj[j].n; a++)
			out->offset[obj[j].a[a].buffer] = obj[j].base +
							  obj[j].a[a].offset;
	}
	ab_plan_finish_single(out, p);
	out->peak = out->arena_size[0] = total;
out:
	for (size_t j = 0; obj && j < n_obj; j++)
		free(obj[j].a);
	free(order);
	free(neg);
	free(rank);
	free(obj);
	return rc;
}

const struct ab_planner ab_planner_executorch_greedy = {
	.name = "executorch_greedy",
	.about = "ExecuTorch greedy: size desc, shared objects of fixed size, stack above overlapping tenants",
	.cost = AB_COST_FAST,
	.plan = plan_executorch_greedy,
};
