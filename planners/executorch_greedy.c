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
 * Complexity: O(n log n) to order, then per spec O(J/64 log(T/B) + P +
 * log n) without listing anything (lib/object_sets.h; J objects, T
 * steps, blocks of B = 16 steps, P pieces in a block): bitsets of the
 * objects over a segment tree on time give the first object with no
 * tenant meeting the spec (the free one) and, since specs come in size
 * order, the first with no tenant whose room above it is below the spec's
 * size (a tenant leaves that layer once the sizes fall to its room): the
 * first where the spec stacks; that object's highest end over the spec's
 * steps comes from its own max tree.  Memory O(n + J T / B) bytes
 * (34 MB of bitsets at 10^6 buffers on the sweep, J = 390).
 * Empty specs (an empty tenant at 0 is no top, which the bitsets do not
 * see), and problems whose bitsets would pass 128 MB, continue from where
 * the bitsets stop with one interval-index query a spec (placement.h):
 * O((k + 1) log n) for the k placed buffers overlapping it, the tenants
 * of every object at once (keys object * stride + offset); sizes whose
 * keys would not fit in 64 bits, with upstream's scan of every object's
 * allocations, O(n^2).  The three give the same offsets (the random
 * problems of tests/test_object_sets.c, the offsets regression; the
 * times: docs/scaling.md, issue 29).
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
 * highest of them even when a lower hole would hold it.  The bitsets cost
 * J/64 words a tree node: very many objects over very many steps pass
 * their budget and fall back to the listing, n^1.5 or worse.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/object_sets.h"
#include "lib/memo.h"
#include "lib/placement.h"
#include "lib/replay.h"

struct object {
	uint64_t size, base;
	int32_t first, last;  /* span of its allocations */
	uint32_t head, n;     /* its first allocation + 1, their number */
};

/* The allocations: each buffer's offset in its object, and the next
 * allocation of the same object + 1 (a list per object, in no order); the
 * objects' sizes so far, which the arena will be at least (best_of's
 * cutoff, o->cutoff). */
struct tenancy {
	uint64_t *at;
	uint32_t *next;
	uint64_t total;
	const struct ab_plan_options *o;
};

static void object_add(struct object *ob, const struct tenancy *tn,
		       uint32_t i, uint64_t offset, const struct ab_buffer *b)
{
	tn->at[i] = offset;
	tn->next[i] = ob->head;
	ob->head = i + 1;
	if (!ob->n++ || b->first < ob->first)
		ob->first = b->first;
	if (ob->n == 1 || b->last > ob->last)
		ob->last = b->last;
}

/* Object *n_obj, of size: AB_ABOVE_CUTOFF once the objects' sizes reach
 * the cutoff (placed specs keep their offsets: the arena only grows). */
static int object_new(struct object *obj, struct tenancy *tn, size_t *n_obj,
		      uint64_t size)
{
	obj[(*n_obj)++].size = size;
	tn->total += size;
	return ab_above_cutoff(tn->o, tn->total) ? AB_ABOVE_CUTOFF : 0;
}

/* Records upstream's choice: a free object, else stacking, else a new
 * one; *j = the object. */
static int assign(struct object *obj, struct tenancy *tn, size_t *n_obj,
		  size_t pick, size_t stack, uint64_t stack_at, uint32_t i,
		  uint64_t size, const struct ab_buffer *b, size_t *j)
{
	int rc = 0;

	if (pick != SIZE_MAX) {
		*j = pick;
	} else if (stack != SIZE_MAX) {
		*j = stack;
	} else {
		*j = *n_obj;
		stack_at = 0;
		rc = object_new(obj, tn, n_obj, size);
	}
	object_add(&obj[*j], tn, i, pick != SIZE_MAX ? 0 : stack_at, b);
	return rc;
}

/* Upstream's scan: each object's allocations in turn, for order[from..n)
 * after the objects already made (the fallback when the interval index's
 * encoding does not fit in 64 bits). */
static int place_scanning(const struct ab_problem *p, const uint32_t *order,
			  uint64_t align, struct object *obj,
			  struct tenancy *tn, size_t *n_objp, size_t from)
{
	size_t n_obj = *n_objp, j;
	int rc = 0;

	for (size_t k = from; !rc && k < p->n; k++) {
		uint32_t i = order[k];
		const struct ab_buffer *b = &p->buf[i];
		uint64_t size = ab_align_up(b->size, align);
		size_t pick = SIZE_MAX, stack = SIZE_MAX;
		uint64_t stack_at = 0;

		for (j = 0; j < n_obj && pick == SIZE_MAX; j++) {
			const struct object *ob = &obj[j];
			uint64_t top = 0;
			bool overlaps = false;

			if (b->last >= ob->first && b->first <= ob->last) {
				for (uint32_t a = ob->head; a; a = tn->next[a - 1]) {
					const struct ab_buffer *t = &p->buf[a - 1];
					uint64_t end;

					if (b->last < t->first || b->first > t->last)
						continue;
					overlaps = true;
					end = tn->at[a - 1] +
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
		rc = assign(obj, tn, &n_obj, pick, stack, stack_at, i, size, b,
			    &j);
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
 * decision costs O(k) more.  Places order[from..n) after the objects
 * already made (empty specs, and what the bitsets' budget leaves).
 */
static int place_indexed(const struct ab_problem *p, const uint32_t *order,
			 uint64_t align, struct object *obj,
			 struct tenancy *tn, size_t *n_objp, uint64_t stride,
			 size_t from)
{
	size_t n = p->n, n_obj = *n_objp;
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
	for (size_t j = 0; j < n_obj; j++)
		for (uint32_t a = obj[j].head; a; a = tn->next[a - 1])
			ab_placer_place(&pl, a - 1, j * stride + tn->at[a - 1]);
	for (size_t k = from; !rc && k < n; k++) {
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
		rc = assign(obj, tn, &n_obj, pick, stack, stack_at, i, size, b,
			    &pick);
		ab_placer_place(&pl, i, pick * stride + tn->at[i]);
	}
	ab_placer_free(&pl);
out_free:
	free(key);
	free(top);
	free(stamp);
	*n_objp = n_obj;
	return rc;
}

/* Steps 0 .. *steps - 1 for every buffer's first and last use, in the
 * same order, so the same overlaps: the steps less the least first use,
 * or their ranks among the distinct ends when that span passes 2 n. */
static int time_steps(const struct ab_problem *p, int32_t *tf, int32_t *tl,
		      int32_t *steps)
{
	size_t n = p->n;
	int32_t lo = INT32_MAX, hi = INT32_MIN, r = -1;
	struct ab_key_index *e;
	int rc;

	for (size_t i = 0; i < n; i++) {
		if (p->buf[i].first < lo)
			lo = p->buf[i].first;
		if (p->buf[i].last > hi)
			hi = p->buf[i].last;
	}
	if (!n || (int64_t)hi - lo < 2 * (int64_t)n) {
		for (size_t i = 0; i < n; i++) {
			tf[i] = p->buf[i].first - lo;
			tl[i] = p->buf[i].last - lo;
		}
		*steps = n ? hi - lo + 1 : 1;
		return 0;
	}
	e = malloc(2 * n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		e[2 * i] = (struct ab_key_index){
			(uint64_t)((int64_t)p->buf[i].first - lo), (uint32_t)(2 * i) };
		e[2 * i + 1] = (struct ab_key_index){
			(uint64_t)((int64_t)p->buf[i].last - lo), (uint32_t)(2 * i + 1) };
	}
	rc = ab_sort_key_index(e, 2 * n);
	for (size_t k = 0; !rc && k < 2 * n; k++) {
		if (!k || e[k].key != e[k - 1].key)
			r++;
		if (e[k].index % 2)
			tl[e[k].index / 2] = r;
		else
			tf[e[k].index / 2] = r;
	}
	*steps = r + 1;
	free(e);
	return rc;
}

/* The bitsets' blocks (2^4 steps) and their budget for both sets: past it
 * (a problem with very many objects over very many steps) the listing
 * takes over. */
enum { SETS_SHIFT = 4, ALL = 0, BLOCKING = 1 };
#define SETS_BUDGET_BYTES ((size_t)128 << 20)

/* A spec by position: its steps; once it blocks, its object and the next
 * spec leaving blocking at the same position + 1 (one line a removal). */
struct at_pos {
	int32_t first, last;
	uint32_t object, next;
};

struct sets_route {
	struct at_pos *at;         /* the spec at each position */
	int32_t steps;
	uint64_t *size;            /* padded size at each position */
	uint64_t *size64;          /* size[64 c], a cached index into it */
	uint32_t *rm_head;         /* first removal from blocking + 1 */
	struct ab_objsets sets;    /* layer ALL: every tenant; BLOCKING */
	struct ab_objtops tops;
};

/* The specs' steps and padded sizes by position in order. */
static int sets_route_init(struct sets_route *r, const struct ab_problem *p,
			   const uint32_t *order, uint64_t align)
{
	size_t n = p->n;
	int32_t *tf = malloc((n + 1) * sizeof(*tf));
	int32_t *tl = malloc((n + 1) * sizeof(*tl));
	int rc = -ENOMEM;

	r->at = malloc((n + 1) * sizeof(*r->at));
	r->size = malloc((n + 1) * sizeof(*r->size));
	r->size64 = malloc((n / 64 + 1) * sizeof(*r->size64));
	r->rm_head = calloc(n + 1, sizeof(*r->rm_head));
	if (tf && tl && r->at && r->size && r->size64 && r->rm_head)
		rc = time_steps(p, tf, tl, &r->steps);
	for (size_t k = 0; !rc && k < n; k++) {
		r->at[k].first = tf[order[k]];
		r->at[k].last = tl[order[k]];
		r->size[k] = ab_align_up(p->buf[order[k]].size, align);
		if (k % 64 == 0)
			r->size64[k / 64] = r->size[k];
	}
	free(tf);
	free(tl);
	if (!rc)
		rc = ab_objsets_init(&r->sets, r->steps, SETS_SHIFT, 2,
				     1u << BLOCKING);
	if (!rc)
		rc = ab_objtops_init(&r->tops, r->steps);
	return rc;
}

static void sets_route_free(struct sets_route *r)
{
	ab_objsets_free(&r->sets);
	ab_objtops_free(&r->tops);
	free(r->at);
	free(r->size);
	free(r->size64);
	free(r->rm_head);
}

/* The spec at position k, in object j with `room` above it, blocks
 * stacking while the specs' size exceeds that room; the sizes fall, so it
 * leaves blocking before the first later spec whose size fits. */
static int block_until_room(struct sets_route *r, size_t n, size_t k,
			    uint32_t j, uint64_t room)
{
	size_t lo = (k + 1) / 64, hi = (n - 1) / 64 + 1;
	int rc = ab_objsets_add(&r->sets, BLOCKING, j, r->at[k].first,
				r->at[k].last);

	/* the sizes fall: the first position past k whose size fits, first
	 * among every 64th size, then among the 64 before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->size64[mid] <= room)
			hi = mid;
		else
			lo = mid + 1;
	}
	hi = lo * 64 < n ? lo * 64 : n;
	lo = lo ? (lo - 1) * 64 : 0;
	if (lo < k + 1)
		lo = k + 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->size[mid] <= room)
			hi = mid;
		else
			lo = mid + 1;
	}
	r->at[k].object = j;
	if (lo < n) {
		r->at[k].next = r->rm_head[lo];
		r->rm_head[lo] = (uint32_t)k + 1;
	}
	return rc;
}

/*
 * The same decisions from bitsets of objects over time (object_sets.h),
 * with no listing: `all` holds every tenant, so the first free object is
 * its first object without one meeting the spec; `blocking` holds the
 * tenants whose room is below the spec's size, so (every object being
 * hit) the first object where the spec stacks is its first object without
 * one; `tops` gives that object's highest end over the spec's steps.
 * Places order[0..*done) and stops at the first empty spec (empty tenants
 * at 0 do not count as a top, which the sets do not see) or when a new
 * object would pass the budget.
 */
static int place_by_sets(const struct ab_problem *p, const uint32_t *order,
			 uint64_t align, struct object *obj,
			 struct tenancy *tn, size_t *n_objp, size_t *done)
{
	size_t n = p->n, n_obj = 0, k = 0;
	struct sets_route r = { 0 };
	int rc = sets_route_init(&r, p, order, align);

	for (; !rc && k < n && r.size[k]; k++) {
		uint64_t size = r.size[k], at = 0;
		int32_t f = r.at[k].first, l = r.at[k].last;
		size_t j;

		for (uint32_t q = r.rm_head[k]; q; q = r.at[q - 1].next)
			ab_objsets_remove(&r.sets, BLOCKING, r.at[q - 1].object,
					  r.at[q - 1].first, r.at[q - 1].last);
		j = ab_objsets_first_without(&r.sets, ALL, f, l, n_obj);
		if (j == n_obj) {
			j = ab_objsets_first_without(&r.sets, BLOCKING, f, l,
						     n_obj);
			if (j < n_obj)
				at = ab_objtops_max(&r.tops, (uint32_t)j, f, l);
		}
		if (j == n_obj) {
			if (ab_objsets_bytes(r.steps, SETS_SHIFT, 2, n_obj + 1) >
			    SETS_BUDGET_BYTES)
				break;
			rc = ab_objsets_reserve(&r.sets, n_obj + 1);
			if (!rc)
				rc = ab_objtops_add_object(&r.tops);
			if (!rc)
				rc = object_new(obj, tn, &n_obj, size);
		}
		if (rc)
			break;
		object_add(&obj[j], tn, order[k], at, &p->buf[order[k]]);
		rc = ab_objsets_add(&r.sets, ALL, (uint32_t)j, f, l);
		if (!rc)
			rc = ab_objtops_raise(&r.tops, (uint32_t)j, f, l,
					      at + size);
		if (!rc && obj[j].size - at - size < size)
			rc = block_until_room(&r, n, k, (uint32_t)j,
					      obj[j].size - at - size);
	}
	sets_route_free(&r);
	*n_objp = n_obj;
	*done = k;
	return rc;
}

static int plan_executorch_greedy(const struct ab_problem *p,
				  const struct ab_plan_options *o,
				  struct ab_plan *out)
{
	size_t n = p->n, n_obj = 0, done = 0;
	uint64_t align = ab_common_align(p, o), total = 0, stride = 1;
	bool indexed;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint64_t *neg = malloc((n + 1) * sizeof(*neg));
	uint64_t *rank = malloc((n + 1) * sizeof(*rank));
	struct object *obj = calloc(n + 1, sizeof(*obj));
	/* offsets within the objects go to out->offset until the bases */
	struct tenancy tn = { out->offset, malloc((n + 1) * sizeof(uint32_t)),
			      0, o };
	int rc = -ENOMEM;

	if (!order || !neg || !rank || !obj || !tn.next)
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
	rc = ab_order_first_use_memo(p, o, order);
	if (rc)
		goto out;
	for (size_t k = 0; k < n; k++)
		rank[order[k]] = UINT64_MAX - k;
	for (size_t i = 0; i < n; i++)
		neg[i] = ~ab_align_up(p->buf[i].size, align);
	const uint64_t *keys[] = { neg, rank };

	rc = ab_order_by_keys(p, order, keys, 2);
	free(neg);
	free(rank);
	neg = NULL;
	rank = NULL;
	if (!rc)
		rc = place_by_sets(p, order, align, obj, &tn, &n_obj, &done);
	if (!rc && done < n && indexed)
		rc = place_indexed(p, order, align, obj, &tn, &n_obj, stride,
				   done);
	else if (!rc && done < n)
		rc = place_scanning(p, order, align, obj, &tn, &n_obj, done);
	if (rc)
		goto out;
	for (size_t j = 0; j < n_obj; j++) {
		obj[j].base = total;
		total += obj[j].size;
		for (uint32_t a = obj[j].head; a; a = tn.next[a - 1])
			out->offset[a - 1] += obj[j].base;
	}
	ab_plan_finish_single(out, p);
	out->peak = out->arena_size[0] = total;
out:
	free(tn.next);
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
