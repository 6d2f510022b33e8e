/*
 * Proven lower bounds (best_bound) and optimal = yes.
 *
 *  - soundness: on seeded random problems of 5-9 buffers the optimum is
 *    found by an enumerator written here (every capacity C from the
 *    live-bytes bound up; for each, every offset that is a multiple of a
 *    buffer's alignment, in [0, C - size], for every buffer in turn).
 *    exact with node budgets from 1 to its default, and local_search,
 *    must report best_bound <= that optimum, a peak >= it, and optimal =
 *    yes only at peak = optimum.  Small budgets stop exact in the middle
 *    of its bisection, where the bound comes from partial proofs.
 *  - rows (bench/run.c): every row carries best_bound_bytes, a failed
 *    plan's too; optimal = yes only for a valid plan whose peak equals a
 *    proven bound.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
#include "check/check.h"
#include "testutil.h"

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* ------------------------------------------------- the enumerator */

#define MAX_N 9

struct enumerator {
	const struct ab_problem *p;
	uint64_t step[MAX_N]; /* each buffer's effective alignment */
	uint64_t off[MAX_N];
	uint64_t cap;
};

static bool overlap_in_time(const struct ab_buffer *a, const struct ab_buffer *b)
{
	return a->first <= b->last && b->first <= a->last;
}

/* Whether buffers i.. fit below cap with 0..i-1 where they are. */
static bool fits_from(struct enumerator *e, size_t i)
{
	const struct ab_problem *p = e->p;

	if (i == p->n)
		return true;
	for (uint64_t o = 0; o + p->buf[i].size <= e->cap; o += e->step[i]) {
		bool clear = true;

		for (size_t j = 0; j < i && clear; j++)
			if (overlap_in_time(&p->buf[i], &p->buf[j]) &&
			    o < e->off[j] + p->buf[j].size &&
			    e->off[j] < o + p->buf[i].size)
				clear = false;
		if (!clear)
			continue;
		e->off[i] = o;
		if (fits_from(e, i + 1))
			return true;
	}
	return false;
}

/* The least C at which every buffer fits: the optimum peak. */
static uint64_t enumerated_optimum(const struct ab_problem *p, uint32_t align)
{
	struct enumerator e = { .p = p };
	struct ab_plan_options o = { .align = align };

	cr_assert_leq(p->n, MAX_N);
	for (size_t i = 0; i < p->n; i++)
		e.step[i] = ab_effective_align(p, i, &o);
	for (e.cap = ab_lower_bound(p, NULL);; e.cap++)
		if (fits_from(&e, 0))
			return e.cap;
}

/* 5..9 buffers over `steps` steps, sizes unit x 1..max_units; own
 * alignments 1, 2 or 4 when mixed.  Buffers are listed by first step, so
 * the enumerator meets conflicts early. */
static void random_problem(struct ab_problem *p, uint64_t *seed,
			   int32_t steps, uint64_t max_units, uint64_t unit,
			   bool mixed)
{
	size_t n = 5 + lcg(seed) % 5;

	cr_assert_eq(ab_problem_alloc(p, n), 0);
	p->name = strdup("random");
	p->steps = steps;
	for (size_t i = 0; i < n; i++) {
		int32_t a = (int32_t)(lcg(seed) % (uint64_t)steps);
		int32_t len = (int32_t)(lcg(seed) % 3);

		p->buf[i].first = a;
		p->buf[i].last = a + len < steps ? a + len : steps - 1;
		p->buf[i].size = unit * (1 + lcg(seed) % max_units);
		p->buf[i].align = mixed ? 1u << (lcg(seed) % 3) : 1;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 &&
				   p->buf[j - 1].first > p->buf[j].first; j--) {
			struct ab_buffer t = p->buf[j];

			p->buf[j] = p->buf[j - 1];
			p->buf[j - 1] = t;
		}
}

struct tally {
	int problems, above_max_load, partial;
};

static void check_planner(const char *name, const struct ab_problem *p,
			  uint32_t align, uint64_t budget, uint64_t opt,
			  int inst, struct tally *t)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = align, .budget = budget,
				     .seed = 7 };
	struct ab_plan plan;

	cr_assert_not_null(pl);
	cr_assert_eq(ab_plan_alloc(&plan, p->n), 0);
	cr_assert_eq(pl->plan(p, &o, &plan), 0);
	cr_assert_eq(ab_validate_plan(p, &plan, align, NULL), AB_PLAN_VALID,
		     "%s instance %d", name, inst);
	cr_expect_leq(plan.best_bound, opt,
		      "%s instance %d align %u budget %llu: bound %llu above "
		      "the optimum %llu", name, inst, align,
		      (unsigned long long)budget,
		      (unsigned long long)plan.best_bound,
		      (unsigned long long)opt);
	cr_expect_geq(plan.peak, opt, "%s instance %d", name, inst);
	if (plan.optimal == AB_OPTIMAL_YES)
		cr_expect_eq(plan.peak, opt, "%s instance %d: optimal = yes "
			     "at peak %llu, optimum %llu", name, inst,
			     (unsigned long long)plan.peak,
			     (unsigned long long)opt);
	if (plan.best_bound > ab_lower_bound(p, NULL))
		t->above_max_load++;
	if (plan.best_bound < opt)
		t->partial++;
	ab_plan_free(&plan);
}

static void against_enumeration(uint64_t seed, int count, int32_t steps,
				uint64_t max_units, uint64_t unit,
				uint32_t align, bool mixed, struct tally *t)
{
	static const uint64_t budgets[] = { 1, 3, 10, 30, 100, 1000, 0 };

	for (int inst = 0; inst < count; inst++) {
		struct ab_problem p = { 0 };
		uint64_t opt;

		random_problem(&p, &seed, steps, max_units, unit, mixed);
		opt = enumerated_optimum(&p, align);
		for (size_t k = 0; k < sizeof(budgets) / sizeof(*budgets); k++)
			check_planner("exact", &p, align, budgets[k], opt,
				      inst, t);
		check_planner("local_search", &p, align, 20, opt, inst, t);
		t->problems++;
		ab_problem_free(&p);
	}
}

Test(bounds, best_bound_never_exceeds_the_enumerated_optimum)
{
	struct tally t = { 0 };

	/* sizes 1..6 at alignment 1; sizes 4..24 (unit 4) at alignment 4,
	 * so offsets step by 4 and the granule is 4; own alignments mixed */
	against_enumeration(1001, 120, 5, 6, 1, 1, false, &t);
	against_enumeration(2002, 120, 5, 6, 4, 4, false, &t);
	against_enumeration(3003, 120, 5, 5, 1, 1, true, &t);
	against_enumeration(4004, 120, 4, 5, 1, 4, false, &t);
	cr_expect_eq(t.problems, 480);
	/* the test must meet both kinds of proof: bounds above max-load
	 * (an exhausted search) and budgets that stop short of the optimum */
	cr_expect_gt(t.above_max_load, 0, "no bound above max-load");
	cr_expect_gt(t.partial, 0, "no bound below the optimum");
}

/* ------------------------------------------------------------ rows */

/* Steps 0-1 of a 16-byte buffer a and of b (8 bytes) with c (8 bytes) at
 * step 1; d (16 bytes) alone at step 2.  Live bytes: step 0 a+b = 24,
 * step 1 a+b+c = 32, step 2 16: the bound is 32, and a, b, c stacked
 * reach it (a 0, b 16, c 24, d 0). */
static const char rows_csv[] =
	"id,lower,upper,size\na,0,2,16\nb,0,2,8\nc,1,2,8\nd,2,3,16\n";

static int plan_stacked(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out)
{
	out->offset[0] = 0;
	out->offset[1] = 16;
	out->offset[2] = 24;
	out->offset[3] = 0;
	ab_plan_finish_single(out, p);
	return 0;
}

/* c at 8 lies on a ([0, 16) at steps 0-1, c live at step 1): invalid,
 * yet its peak is the bound, 32 (b at 24 ends there). */
static int plan_overlapping(const struct ab_problem *p,
			    const struct ab_plan_options *o,
			    struct ab_plan *out)
{
	out->offset[0] = 0;
	out->offset[1] = 24;
	out->offset[2] = 8;
	out->offset[3] = 0;
	ab_plan_finish_single(out, p);
	return 0;
}

/* A valid plan of peak 40 (c at 32) that claims optimal = yes with no
 * bound to show for it. */
static int plan_claims_optimal(const struct ab_problem *p,
			       const struct ab_plan_options *o,
			       struct ab_plan *out)
{
	out->offset[0] = 0;
	out->offset[1] = 16;
	out->offset[2] = 32;
	out->offset[3] = 0;
	ab_plan_finish_single(out, p);
	out->optimal = AB_OPTIMAL_YES;
	return 0;
}

static int plan_fails(const struct ab_problem *p,
		      const struct ab_plan_options *o, struct ab_plan *out)
{
	return -EINVAL;
}

static void row_of(const struct ab_planner *pl, const char *csv,
		   uint32_t align, struct ab_row *row)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_plan_options o = { .align = align };

	tu_input("rows.csv", csv, &in);
	memset(row, 0, sizeof(*row));
	row->lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	ab_plan_and_check(&in, pl, &o, &plan, row, NULL);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

#define FAKE(fn) { .name = #fn, .about = "test", .cost = AB_COST_FAST, \
		   .plan = fn }

Test(bounds, optimal_only_for_a_valid_plan_at_a_proven_bound)
{
	static const struct ab_planner stacked = FAKE(plan_stacked),
		overlapping = FAKE(plan_overlapping),
		claims = FAKE(plan_claims_optimal), fails = FAKE(plan_fails);
	struct ab_row row;

	row_of(&stacked, rows_csv, 1, &row);
	cr_expect(row.check.valid);
	cr_expect_eq(row.check.peak_bytes, 32);
	cr_expect_eq(row.best_bound_bytes, 32);
	cr_expect_eq(row.optimal, AB_OPTIMAL_YES);
	free(row.check.message);

	row_of(&overlapping, rows_csv, 1, &row);
	cr_expect(!row.check.valid);
	cr_expect_eq(row.optimal, AB_OPTIMAL_UNKNOWN,
		     "an invalid plan at the bound is not optimal");
	free(row.check.message);

	row_of(&claims, rows_csv, 1, &row);
	cr_expect(row.check.valid);
	cr_expect_eq(row.check.peak_bytes, 40);
	cr_expect_eq(row.best_bound_bytes, 32);
	cr_expect_eq(row.optimal, AB_OPTIMAL_UNKNOWN,
		     "optimal = yes at 40 with a bound of 32");
	free(row.check.message);

	row_of(&fails, rows_csv, 1, &row);
	cr_expect(row.plan_failed);
	cr_expect_eq(row.best_bound_bytes, 32, "a failed plan's row keeps "
		     "the live-bytes bound");
	cr_expect_eq(row.optimal, AB_OPTIMAL_UNKNOWN);
	free(row.check.message);
}

Test(bounds, exact_row_records_a_bound_above_max_load)
{
	/* tests/test_exact.c's search_proves_an_optimum_above_every_bound,
	 * as a CSV (upper = last + 1), alignment 4: live bytes at steps 3-4
	 * are b0 + b3 = 1 + 8 = 9, the bound; b3 at 0 and b0 at 8 is the
	 * only way to stay within 9 there, which forces b1 (5 bytes) to 0
	 * at step 1 and b2 (2 bytes, offset a multiple of 4) to 8 at step 0:
	 * peak 10.  So the optimum is 10 and only exact's exhausted search
	 * proves it: the row says best_bound_bytes 10 > lower_bound_bytes 9,
	 * optimal yes. */
	static const char csv[] = "id,lower,upper,size\n"
				  "b0,1,5,1\nb1,0,2,5\nb2,0,1,2\nb3,3,6,8\n";
	struct ab_row row;

	row_of(ab_planner_find("exact"), csv, 4, &row);
	cr_expect(row.check.valid);
	cr_expect_eq(row.lower_bound_bytes, 9);
	cr_expect_eq(row.check.peak_bytes, 10);
	cr_expect_eq(row.best_bound_bytes, 10);
	cr_expect_eq(row.optimal, AB_OPTIMAL_YES);
	free(row.check.message);
	/* a fast planner's row on the same problem: the live-bytes bound */
	row_of(ab_planner_find("best_of"), csv, 4, &row);
	cr_expect_eq(row.best_bound_bytes, 9);
	cr_expect_neq(row.optimal, AB_OPTIMAL_YES);
	free(row.check.message);
}
