/*
 * The two plan checks must be able to say no: constructed overlapping,
 * misaligned and out-of-arena plans are rejected by the geometric check,
 * and a plan made from a deliberately shortened lifetime, which the
 * geometric check cannot see, is caught by the execution check.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "testutil.h"


struct fixture {
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	size_t in, A, B, C, out;
};

/* The hand-made valid plan: in 0, A 4096, B 12288, C 20480, out 36864
 * would be linear; here a tight one: C 0, A 0, B 16384, in 8192, out 16384. */
static void setup(struct fixture *f)
{
	tu_problem(tu_chain_graph, AB_LIFETIMES_DEFAULT, &f->g, &f->p);
	cr_assert_eq(ab_plan_alloc(&f->plan, f->p.n), 0);
	f->in = tu_buf(&f->g, &f->p, "in");
	f->A = tu_buf(&f->g, &f->p, "A");
	f->B = tu_buf(&f->g, &f->p, "B");
	f->C = tu_buf(&f->g, &f->p, "C");
	f->out = tu_buf(&f->g, &f->p, "out");
	f->plan.offset[f->C] = 0;
	f->plan.offset[f->A] = 0;
	f->plan.offset[f->B] = 16384;
	f->plan.offset[f->in] = 8192;
	f->plan.offset[f->out] = 16384;
	ab_plan_finish_single(&f->plan, &f->p);
}

static void teardown(struct fixture *f)
{
	ab_plan_free(&f->plan);
	ab_problem_free(&f->p);
	ab_graph_free(&f->g);
}

Test(geometric, accepts_the_hand_made_plan)
{
	struct fixture f;
	enum ab_exec_mode mode;

	setup(&f);
	cr_expect_eq(f.plan.peak, 24576);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 1, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 4096, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_execute_plan(&f.g, &f.p, &f.plan,
				     NULL, &mode, NULL),
		     AB_PLAN_VALID);
	cr_expect_eq(mode, AB_EXEC_FULL);
	teardown(&f);
}

Test(geometric, rejects_overlap_of_buffers_live_together)
{
	struct fixture f;
	struct ab_check_result r;

	setup(&f);
	/* B [1,2] moved onto A [0,1]'s bytes: both live at step 1 */
	f.plan.offset[f.B] = 4096;
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 1, &r), AB_PLAN_OVERLAP);
	cr_expect((r.a == f.A && r.b == f.B) || (r.a == f.B && r.b == f.A),
		  "reported buffers %zu and %zu", r.a, r.b);
	teardown(&f);
}

Test(geometric, allows_overlap_of_buffers_never_live_together)
{
	struct fixture f;

	setup(&f);
	/* A [0,1] and C [2,3] share [0, 8192) already; also put in [0,0]
	 * onto out [3,3]'s bytes */
	f.plan.offset[f.in] = 16384;
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 1, NULL), AB_PLAN_VALID);
	teardown(&f);
}

Test(geometric, rejects_misaligned_offset)
{
	struct fixture f;
	struct ab_check_result r;

	setup(&f);
	f.plan.offset[f.out] = 16384 + 8; /* still no overlap */
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 8, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 16, &r), AB_PLAN_MISALIGNED);
	cr_expect_eq(r.a, f.out);
	teardown(&f);
}

Test(geometric, rejects_buffer_outside_its_arena)
{
	struct fixture f;
	struct ab_check_result r;

	setup(&f);
	f.plan.arena_size[0] = 24576 - 1;
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 1, &r),
		     AB_PLAN_OUTSIDE_ARENA);
	teardown(&f);
}

Test(geometric, rejects_buffer_above_the_peak)
{
	struct fixture f;

	setup(&f);
	f.plan.peak = 20000;
	f.plan.arena_size[0] = 20000;
	cr_expect_neq(ab_validate_plan(&f.p, &f.plan, 1, NULL), AB_PLAN_VALID);
	teardown(&f);
}

Test(geometric, rejects_bad_arena_index)
{
	struct fixture f;

	setup(&f);
	f.plan.arena[f.A] = 3;
	cr_expect_eq(ab_validate_plan(&f.p, &f.plan, 1, NULL), AB_PLAN_BAD_ARENA);
	teardown(&f);
}

Test(execution, catches_a_plan_made_from_a_shortened_lifetime)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;
	size_t B, C;

	tu_problem(tu_chain_graph, AB_LIFETIMES_DEFAULT, &g, &p);
	B = tu_buf(&g, &p, "B");
	C = tu_buf(&g, &p, "C");
	/* The bug: B is read at step 2, but the problem says it dies at 1. */
	cr_assert_eq(p.buf[B].last, 2);
	p.buf[B].last = 1;
	tu_plan("size_first_fit", &p, 1, &plan);
	/* By hand: C 0, A 0, B meets A only -> 8192, so C [0,16384) covers
	 * B [8192,16384) while op2 reads B and writes C. */
	cr_assert_eq(plan.offset[B], 8192);
	cr_assert_eq(plan.offset[C], 0);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID,
		     "the geometric check shares the lifetime bug");
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL,
				     NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.a, B, "victim");
	cr_expect_eq(r.b, C, "culprit");
	cr_expect_eq(r.step, 2);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(execution, catches_an_output_written_over_its_own_input)
{
	struct fixture f;
	struct ab_check_result r;

	setup(&f);
	/* B (op1's output) on A (op1's input): both live at step 1 */
	f.plan.offset[f.B] = 0;
	f.plan.offset[f.C] = 8192;
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_execute_plan(&f.g, &f.p, &f.plan,
				     NULL, NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.a, f.A);
	cr_expect_eq(r.b, f.B);
	cr_expect_eq(r.step, 1);
	teardown(&f);
}

Test(execution, sampled_mode_still_catches_a_stomp)
{
	struct fixture f;
	enum ab_exec_mode sampled = AB_EXEC_SAMPLED, got;

	setup(&f);
	f.plan.offset[f.B] = 0;
	f.plan.offset[f.C] = 8192;
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_execute_plan(&f.g, &f.p, &f.plan,
				     &sampled, &got, NULL),
		     AB_PLAN_STOMP);
	cr_expect_eq(got, AB_EXEC_SAMPLED);
	teardown(&f);
}

Test(execution, problem_mode_checks_csv_intervals)
{
	/* Without a graph: a [0,3) and b [2,5) overlap in time (step 2). */
	const char *csv = "id,lower,upper,size\na,0,3,8\nb,2,5,8\n";
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_error err;
	struct ab_check_result r;

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "t.csv", &p, &err), 0);
	cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
	plan.offset[0] = 0;
	plan.offset[1] = 4; /* overlaps a's upper half */
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(ab_execute_plan(NULL, &p, &plan,
				     NULL, NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.a, 0);
	cr_expect_eq(r.b, 1);
	plan.offset[1] = 8;
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(ab_execute_plan(NULL, &p, &plan,
				     NULL, NULL, NULL),
		     AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}
