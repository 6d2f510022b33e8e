/*
 * multi_arena_phase: one arena per phase of the schedule plus a shared
 * arena for what crosses a phase boundary.
 *
 * Algorithm:
 *  1. Boundaries b_1 < b_2 < ...: the graph's `phase` markers when it has
 *     any.  Otherwise P phases (option `phases`; auto: 1 below 8 steps,
 *     else clamp(steps / 32, 2, 8)), cut at the P - 1 start times where
 *     the fewest bytes cross the cut (bytes of buffers with first < b <=
 *     last), ties to the earliest, at least span / (2P) apart when
 *     possible.
 *  2. Phase p covers [b_p, b_{p+1}).  A buffer belongs to phase p iff
 *     b_p <= first and last < b_{p+1}; every other buffer goes to the
 *     shared arena 0.
 *  3. Each arena is planned by size-descending first fit (placement.h).
 *     Phase arenas are released at their boundary, so they share one
 *     region based at the shared arena's (aligned) size: the flat layout
 *     is the shared arena at 0 and every phase arena at that base.
 *     Peak = shared + the largest phase arena.
 * Complexity: O(n log n + first-fit cost per arena).
 * Source: phase/stage-wise arenas as in multi-arena allocators (e.g.
 * ExecuTorch's per-method memory-planning hierarchy, XLA's per-computation
 * heaps); the cut rule is arenabench's own.
 * Weak spots: anything alive across a cut is pinned in the shared arena
 * for the whole run, so long skips (U-Net) or persistent tensors inflate
 * it; never better than first fit over one arena by more than the
 * cross-phase reuse first fit already finds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memo.h"
#include "lib/placement.h"

static int auto_phases(const struct ab_problem *p,
		       const struct ab_plan_options *o)
{
	int phases = o->phases;

	if (phases <= 0) {
		if (p->steps < 8)
			phases = 1;
		else if (p->steps / 32 < 2)
			phases = 2;
		else if (p->steps / 32 > 8)
			phases = 8;
		else
			phases = (int)(p->steps / 32);
	}
	return phases < AB_MAX_ARENAS - 1 ? phases : AB_MAX_ARENAS - 1;
}

/* Chooses up to want cut times; returns how many, sorted, in cuts[]. */
static int choose_cuts(const struct ab_problem *p, int want, int32_t *cuts,
		       int *n_cuts)
{
	size_t n = p->n;
	int32_t *firsts = malloc((n + 1) * sizeof(*firsts));
	int32_t *lasts = malloc((n + 1) * sizeof(*lasts));
	uint64_t *pre_first = malloc((n + 1) * sizeof(*pre_first));
	uint64_t *pre_last = malloc((n + 1) * sizeof(*pre_last));
	uint32_t *ord = malloc((n + 1) * sizeof(*ord));
	uint64_t *key = malloc((n + 1) * sizeof(*key));
	struct ab_key_index *cand = malloc((n + 1) * sizeof(*cand));
	size_t nc = 0;
	int32_t lo_t, hi_t, spacing;
	int rc = -ENOMEM, got = 0;

	*n_cuts = 0;
	if (!firsts || !lasts || !pre_first || !pre_last || !ord || !key ||
	    !cand)
		goto out;
	/* Sizes in first order and in last order, with prefix sums. */
	for (int pass = 0; pass < 2; pass++) {
		int32_t *t = pass ? lasts : firsts;
		uint64_t *pre = pass ? pre_last : pre_first;

		for (size_t i = 0; i < n; i++) {
			ord[i] = (uint32_t)i;
			key[i] = (uint64_t)(pass ? p->buf[i].last : p->buf[i].first);
		}
		rc = ab_order_stable_by(ord, n, key);
		if (rc)
			goto out;
		pre[0] = 0;
		for (size_t j = 0; j < n; j++) {
			t[j] = (int32_t)key[ord[j]];
			pre[j + 1] = pre[j] + p->buf[ord[j]].size;
		}
	}
	lo_t = firsts[0];
	hi_t = lasts[n - 1];
	spacing = (int32_t)(((int64_t)hi_t - lo_t + 1) / (2 * (want + 1)));
	if (spacing < 1)
		spacing = 1;
	/* Candidates: distinct start times after the earliest. */
	for (size_t j = 0; j < n; j++) {
		int32_t t = firsts[j];
		uint64_t crossing;

		if (t <= lo_t || (j && firsts[j - 1] == t))
			continue;
		/* first < t  minus  last < t */
		crossing = pre_first[j] - pre_last[ab_count_le_i32(lasts, n, t - 1)];
		cand[nc].key = crossing;
		cand[nc].index = (uint32_t)t;
		nc++;
	}
	rc = ab_sort_key_index(cand, nc); /* stable: ties stay earliest */
	if (rc)
		goto out;
	for (int relax = 0; relax < 2 && got < want; relax++) {
		for (size_t c = 0; c < nc && got < want; c++) {
			int32_t t = (int32_t)cand[c].index;
			bool ok = true;

			for (int g = 0; g < got && ok; g++) {
				int32_t d = cuts[g] > t ? cuts[g] - t : t - cuts[g];

				ok = relax ? d != 0 : d >= spacing;
			}
			if (ok)
				cuts[got++] = t;
		}
	}
	/* Sort the chosen cuts by time. */
	for (int a = 1; a < got; a++)
		for (int b = a; b > 0 && cuts[b - 1] > cuts[b]; b--) {
			int32_t x = cuts[b];

			cuts[b] = cuts[b - 1];
			cuts[b - 1] = x;
		}
	*n_cuts = got;
	rc = 0;
out:
	free(firsts);
	free(lasts);
	free(pre_first);
	free(pre_last);
	free(ord);
	free(key);
	free(cand);
	return rc;
}

static int plan_multi_arena_phase(const struct ab_problem *p,
				  const struct ab_plan_options *o,
				  struct ab_plan *out)
{
	size_t n = p->n;
	int32_t cuts[AB_MAX_ARENAS];
	int n_cuts = 0, n_arenas, rc;
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint32_t *subset = malloc((n + 1) * sizeof(*subset));
	uint64_t base = 0, max_align = 1, max_phase = 0;

	if (!order || !subset) {
		rc = -ENOMEM;
		goto out;
	}
	if (n == 0) {
		ab_plan_finish_single(out, p);
		rc = 0;
		goto out;
	}
	if (p->n_phase_starts) {
		for (size_t k = 0; k < p->n_phase_starts &&
				   n_cuts < AB_MAX_ARENAS - 2; k++)
			if (!n_cuts || p->phase_starts[k] > cuts[n_cuts - 1])
				cuts[n_cuts++] = p->phase_starts[k];
	} else {
		rc = choose_cuts(p, auto_phases(p, o) - 1, cuts, &n_cuts);
		if (rc)
			goto out;
	}
	n_arenas = n_cuts + 2; /* shared + phases */
	/* Arena of each buffer: phase q = number of cuts <= first. */
	for (size_t i = 0; i < n; i++) {
		size_t q = ab_count_le_i32(cuts, (size_t)n_cuts, p->buf[i].first);
		bool inside = q == (size_t)n_cuts || p->buf[i].last < cuts[q];

		out->arena[i] = inside ? (uint16_t)(q + 1) : 0;
		if (ab_effective_align(p, i, o) > max_align)
			max_align = ab_effective_align(p, i, o);
	}
	rc = ab_order_size_desc_memo(p, o, order);
	if (rc)
		goto out;
	for (int a = 0; a < n_arenas; a++) {
		size_t m = 0;
		uint64_t top = 0;
		/* a phase arena's top t makes the peak at least base + t */
		struct ab_plan_options oa = *o;

		if (a && o->cutoff)
			oa.cutoff = o->cutoff > base ? o->cutoff - base : 1;
		for (size_t j = 0; j < n; j++)
			if (out->arena[order[j]] == a)
				subset[m++] = order[j];
		rc = ab_place_in_order(p, &oa, subset, m, ab_fit_first,
				       out->offset, &top);
		if (rc)
			goto out;
		if (a == 0) {
			out->arena_base[0] = 0;
			out->arena_size[0] = top;
			base = ab_align_up(top, max_align);
		} else {
			for (size_t j = 0; j < m; j++)
				out->offset[subset[j]] += base;
			out->arena_base[a] = base;
			out->arena_size[a] = top;
			if (top > max_phase)
				max_phase = top;
		}
	}
	out->n_arenas = n_arenas;
	out->peak = max_phase ? base + max_phase : out->arena_size[0];
	rc = 0;
out:
	free(order);
	free(subset);
	return rc;
}

const struct ab_planner ab_planner_multi_arena_phase = {
	.name = "multi_arena_phase",
	.about = "an arena per schedule phase (cut where fewest bytes cross) plus a shared arena",
	.cost = AB_COST_FAST,
	.plan = plan_multi_arena_phase,
};
