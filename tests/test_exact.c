/*
 * The exact planner (planners/exact.c).
 *
 *  - rectangles: a time x bytes rectangle (T steps x W bytes) cut by random
 *    guillotine cuts into pieces; each piece is a buffer (its byte extent
 *    is the size, its time extent the lifetime).  Every step is fully
 *    covered, so the live-bytes bound is W and the rectangle itself is a
 *    plan of peak W: the optimum is W.  exact must find it and say so.
 *  - brute force: tiny random problems (<= 6 buffers, sizes <= 5, <= 5
 *    steps) solved by enumerating every integer offset of every buffer
 *    (depth-first, pruned only by the best peak so far): exact's peak must
 *    equal that optimum, with optimal = yes and best_bound = the optimum.
 *  - every plan passes the geometric check, at alignment 1 and 4.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "arenabench.h"

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static void run_exact(const struct ab_problem *p, uint32_t align,
		      struct ab_plan *plan)
{
	const struct ab_planner *ex = ab_planner_find("exact");
	struct ab_plan_options o = { .align = align, .budget = 200000 };
	struct ab_check_result res;

	cr_assert_not_null(ex);
	cr_assert_eq(ex->cost, AB_COST_BUDGETED);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	cr_assert_eq(ex->plan(p, &o, plan), 0);
	cr_assert_eq(ab_validate_plan(p, plan, align, &res), AB_PLAN_VALID,
		     "%s: %s (%zu, %zu)", p->name,
		     ab_verdict_name(res.verdict), res.a, res.b);
	cr_assert_leq(plan->best_bound, plan->peak);
}

/* ----------------------------------------------------------- rectangles */

struct piece { int32_t t0, t1; uint64_t b0, b1; }; /* [t0,t1) x [b0,b1) */

static size_t cut(struct piece *out, size_t n, size_t want, uint64_t *seed)
{
	while (n < want) {
		size_t k = lcg(seed) % n;
		struct piece pc = out[k];
		bool in_time = lcg(seed) & 1;

		if (in_time && pc.t1 - pc.t0 >= 2) {
			int32_t t = pc.t0 + 1 + (int32_t)(lcg(seed) %
						  (uint64_t)(pc.t1 - pc.t0 - 1));

			out[k].t1 = t;
			out[n] = pc;
			out[n++].t0 = t;
		} else if (pc.b1 - pc.b0 >= 2) {
			uint64_t b = pc.b0 + 1 + lcg(seed) % (pc.b1 - pc.b0 - 1);

			out[k].b1 = b;
			out[n] = pc;
			out[n++].b0 = b;
		}
	}
	return n;
}

Test(exact, rectangle_cuts_reach_the_bound)
{
	for (uint64_t inst = 1; inst <= 12; inst++) {
		struct piece pcs[32] = { { 0, 8, 0, 64 } };
		uint64_t seed = inst * 977;
		size_t n = cut(pcs, 1, 6 + inst % 10, &seed);
		struct ab_problem p = { 0 };
		struct ab_plan plan;

		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		p.name = strdup("rectangle");
		p.steps = 8;
		for (size_t i = 0; i < n; i++) {
			p.buf[i].size = pcs[i].b1 - pcs[i].b0;
			p.buf[i].align = 1;
			p.buf[i].first = pcs[i].t0;
			p.buf[i].last = pcs[i].t1 - 1;
		}
		cr_assert_eq(ab_lower_bound(&p, NULL), 64);
		run_exact(&p, 1, &plan);
		cr_expect_eq(plan.peak, 64, "instance %llu (%zu pieces): %llu",
			     (unsigned long long)inst, n,
			     (unsigned long long)plan.peak);
		cr_expect_eq(plan.optimal, AB_OPTIMAL_YES);
		cr_expect_eq(plan.best_bound, 64);
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

/* ---------------------------------------------------------- brute force */

struct brute {
	const struct ab_problem *p;
	uint64_t align, off[8], best;
};

static bool live_together(const struct ab_buffer *a, const struct ab_buffer *b)
{
	return a->first <= b->last && b->first <= a->last;
}

static void brute(struct brute *s, size_t i, uint64_t peak)
{
	const struct ab_problem *p = s->p;

	if (peak >= s->best)
		return;
	if (i == p->n) {
		s->best = peak;
		return;
	}
	for (uint64_t o = 0; o + p->buf[i].size < s->best; o += s->align) {
		bool ok = true;

		for (size_t j = 0; j < i && ok; j++)
			if (live_together(&p->buf[i], &p->buf[j]) &&
			    o < s->off[j] + p->buf[j].size &&
			    s->off[j] < o + p->buf[i].size)
				ok = false;
		if (!ok)
			continue;
		s->off[i] = o;
		brute(s, i + 1, peak > o + p->buf[i].size
					? peak : o + p->buf[i].size);
	}
}

static void random_problem(struct ab_problem *p, uint64_t *seed)
{
	size_t n = 2 + lcg(seed) % 5;

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->name = strdup("tiny");
	p->steps = 5;
	for (size_t i = 0; i < n; i++) {
		int32_t a = (int32_t)(lcg(seed) % 5), b = (int32_t)(lcg(seed) % 5);

		p->buf[i].size = 1 + lcg(seed) % 5;
		p->buf[i].align = 1;
		p->buf[i].first = a < b ? a : b;
		p->buf[i].last = a < b ? b : a;
	}
}

static void against_brute_force(uint32_t align)
{
	uint64_t seed = 12345 + align;

	for (int inst = 0; inst < 300; inst++) {
		struct ab_problem p = { 0 };
		struct brute s = { .align = align, .best = UINT64_MAX };
		struct ab_plan plan;

		random_problem(&p, &seed);
		s.p = &p;
		s.best = ab_sum_bytes(&p) * align + 1 + align * p.n;
		brute(&s, 0, 0);
		run_exact(&p, align, &plan);
		cr_expect_eq(plan.peak, s.best, "instance %d align %u: exact %llu, "
			     "brute force %llu", inst, align,
			     (unsigned long long)plan.peak,
			     (unsigned long long)s.best);
		cr_expect_eq(plan.optimal, AB_OPTIMAL_YES, "instance %d", inst);
		cr_expect_eq(plan.best_bound, s.best, "instance %d", inst);
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
}

Test(exact, tiny_problems_match_brute_force)
{
	against_brute_force(1);
}

Test(exact, tiny_problems_match_brute_force_aligned)
{
	against_brute_force(4);
}
