/*
 * The two plan checks must be able to say no: constructed overlapping,
 * misaligned and out-of-arena plans are rejected by the geometric check,
 * and a plan made from a deliberately shortened lifetime, which the
 * geometric check cannot see, is caught by the execution check.  A plan
 * that claims the problem's fixed offsets and moves one is its own
 * verdict, naming the buffer.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
#include "check/check.h"
#include "report/offline.h"
#include "testutil.h"
#include "import/problem_csv.h"

/* The planner itself, by symbol (the harness reaches it through the
 * registry). */
extern const struct ab_planner ab_planner_offline;


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

Test(execution, catches_a_stomp_on_the_last_byte_of_a_tail)
{
	/* a: 13 bytes (one word and a 5-byte tail), live [0,3); b: 3 bytes,
	 * live at step 1, at 12: only a's last byte (12) is shared, so only
	 * the tail's compare can see it. */
	const char *csv = "id,lower,upper,size\na,0,3,13\nb,1,2,3\n";
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_error err;
	struct ab_check_result r;

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "t.csv", &p, &err), 0);
	cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
	plan.offset[0] = 0;
	plan.offset[1] = 12;
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(ab_execute_plan(NULL, &p, &plan, NULL, NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.a, 0);
	cr_expect_eq(r.b, 1);
	plan.offset[1] = 13;
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(ab_execute_plan(NULL, &p, &plan, NULL, NULL, NULL),
		     AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* ------------------------------------------------------- fixed offsets */

/*
 * A minimalloc solution as a problem: its `offset` column fixes every
 * buffer.  Lifetimes [0,2) [1,3) [2,4): a [0,1], b [1,2], c [2,3]; a and b
 * meet at step 1, b and c at step 2.  Fixed: a 64..96, b 0..16, c 16..24,
 * no overlap; peak 96 (a's end).
 */
static const char fixed_csv[] =
	"id,lower,upper,size,offset\na,0,2,32,64\nb,1,3,16,0\nc,2,4,8,16\n";

static void load_fixed(struct ab_input *in)
{
	tu_input("fixed.csv", fixed_csv, in);
	cr_assert_not_null(in->problem.fixed_offset);
}

Test(fixed, offline_keeps_the_fixed_offsets)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_plan_options o = { .align = 16 };
	struct ab_check_outcome out = { 0 };

	load_fixed(&in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	cr_assert_eq(ab_planner_offline.plan(&in.problem, &o, &plan), 0);
	cr_expect_eq(plan.offset[0], 64);
	cr_expect_eq(plan.offset[1], 0);
	cr_expect_eq(plan.offset[2], 16);
	cr_expect_eq(plan.peak, 96);
	cr_expect(plan.fixed_kept);
	cr_assert_eq(ab_check_plan(ab_input_graph(&in), &in.problem, &plan, 16, NULL, NULL, &out), 0);
	cr_expect(out.valid, "%s", out.message ? out.message : "");
	free(out.message);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

/* A planner that claims to keep the fixed offsets but puts c at 24, not
 * at its 16 (still clear of b, 0..16, the only buffer live with it). */
static int plan_moves_c(const struct ab_problem *p,
			const struct ab_plan_options *o, struct ab_plan *out)
{
	out->offset[0] = 64;
	out->offset[1] = 0;
	out->offset[2] = 24;
	ab_plan_finish_single(out, p);
	out->fixed_kept = true;
	return 0;
}

static const struct ab_planner moves_c = {
	.name = "moves_c", .about = "test", .cost = AB_COST_FIXED,
	.plan = plan_moves_c,
};

Test(fixed, a_moved_fixed_buffer_is_its_own_verdict_naming_it)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_plan_options o = { .align = 1 };
	struct ab_check_result r;
	struct ab_row row = { 0 };

	load_fixed(&in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	cr_assert_eq(moves_c.plan(&in.problem, &o, &plan), 0);
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1, &r),
		     AB_PLAN_MOVED_FIXED);
	cr_expect_eq(r.a, 2);
	cr_expect_str_eq(ab_verdict_name(AB_PLAN_MOVED_FIXED),
			 "moved from its fixed offset");
	/* through the harness: the row is invalid and names c and both
	 * offsets */
	cr_assert_eq(ab_plan_and_check(&in, &moves_c, &o, &plan, &row, NULL), 0);
	cr_expect(!row.check.valid);
	cr_expect_eq(row.check.verdict, AB_PLAN_MOVED_FIXED);
	cr_assert_not_null(row.check.message);
	cr_expect(strstr(row.check.message,
			 "buffer id c is at byte 24, not at its fixed offset 16"),
		  "%s", row.check.message);
	/* the same offsets from a planner that does not claim the fixed
	 * offsets are an ordinary valid plan */
	plan.fixed_kept = false;
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1, NULL), AB_PLAN_VALID);
	free(row.check.message);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

Test(fixed, a_fixed_offset_need_not_meet_the_alignment_in_use)
{
	/* a [0,1] fixed at 8 (its own alignment 1); b [1,2] left to first
	 * fit at align 16: offset 0 is 16-aligned and b, 8 bytes, ends at 8
	 * where a starts, so b goes to 0.  Valid at align 16 for offline. */
	struct ab_input in;
	struct ab_plan plan;
	struct ab_plan_options o = { .align = 16 };

	tu_input("a.csv", "id,lower,upper,size,offset\na,0,2,8,8\nb,1,3,8,0\n", &in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	/* b unfixed: as the model's -1 */
	in.problem.fixed_offset[1] = -1;
	cr_assert_eq(ab_planner_offline.plan(&in.problem, &o, &plan), 0);
	cr_expect_eq(plan.offset[0], 8);
	cr_expect_eq(plan.offset[1], 0);
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 16, NULL), AB_PLAN_VALID);
	/* a planner that does not keep them is held to the alignment */
	plan.fixed_kept = false;
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 16, NULL),
		     AB_PLAN_MISALIGNED);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

Test(fixed, offline_is_refused_where_nothing_is_fixed)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_plan_options o = { .align = 1 };
	struct ab_row row = { 0 };

	tu_input("free.csv", "id,lower,upper,size\na,0,2,8\n", &in);
	cr_expect_null(in.problem.fixed_offset);
	cr_expect_not(ab_planner_applies(&ab_planner_offline, &in.problem));
	cr_expect(ab_planner_applies(ab_planner_find("size_first_fit"), &in.problem));
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	ab_plan_and_check(&in, &ab_planner_offline, &o, &plan, &row, NULL);
	cr_expect(!row.check.valid);
	cr_assert_not_null(row.check.message);
	cr_expect(strstr(row.check.message, "free.csv fixes no offsets"), "%s",
		  row.check.message);
	free(row.check.message);
	ab_plan_free(&plan);
	ab_input_free(&in);
}
