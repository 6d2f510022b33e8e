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

/* 100 buffers of 10 bytes, all live at step 0, buffer i at 10 i but three
 * moved: 41 to 415, 70 to 695, 99 to 985.  The sweep takes the buffers in
 * index order (one start time, ties by index).  41 [415,425) comes in
 * beside its predecessor 40 [400,410) with no successor yet; 42 [420,430)
 * then finds its predecessor 41 ending at 425: the pair (41, 42),
 * reported before the later overlaps (69 [690,700) with 70 [695,705), 98
 * [980,990) with 99 [985,995)) although more newcomers than the
 * comparisons' lag follow it.  With 41 back at 410 the first is (69, 70);
 * with 70 back too, (98, 99), the last newcomer's. */
Test(geometric, reports_the_first_overlap_in_sweep_order)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan = { 0 };
	struct ab_check_result r;

	cr_assert_eq(ab_problem_alloc(&p, 100), 0);
	p.steps = 1;
	cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
	for (size_t i = 0; i < p.n; i++) {
		p.buf[i] = (struct ab_buffer){ .size = 10, .align = 1, .first = 0, .last = 0 };
		plan.offset[i] = 10 * i;
	}
	plan.offset[41] = 415;
	plan.offset[70] = 695;
	plan.offset[99] = 985;
	ab_plan_finish_single(&plan, &p);
	cr_assert_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_OVERLAP);
	cr_expect_eq(r.a, 41);
	cr_expect_eq(r.b, 42);
	plan.offset[41] = 410;
	cr_assert_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_OVERLAP);
	cr_expect_eq(r.a, 69);
	cr_expect_eq(r.b, 70);
	plan.offset[70] = 700;
	cr_assert_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_OVERLAP);
	cr_expect_eq(r.a, 98);
	cr_expect_eq(r.b, 99);
	plan.offset[99] = 990;
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, &r), AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
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

/* A problem from minimalloc CSV text, its buffers at offset[] in one
 * arena. */
static void csv_plan(const char *csv, const uint64_t *offset,
		     struct ab_problem *p, struct ab_plan *plan)
{
	struct ab_error err;

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "t.csv", p, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	for (size_t i = 0; i < p->n; i++)
		plan->offset[i] = offset[i];
	ab_plan_finish_single(plan, p);
}

Test(execution, problem_mode_checks_csv_intervals)
{
	/* Without a graph: a [0,3) and b [2,5) overlap in time (step 2). */
	const char *csv = "id,lower,upper,size\na,0,3,8\nb,2,5,8\n";
	const uint64_t at[] = { 0, 4 }; /* b overlaps a's upper half */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;

	csv_plan(csv, at, &p, &plan);
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

/* a: 11 image words (88 bytes in full mode, 11 * 4096 in sampled), live
 * [0,3); b: 8 bytes, live [1,3), over a's word w: the one shared word is
 * a's first, last or any middle one (the middle ones are written and
 * compared two at a time, then one), and each is caught when a is read
 * at its last use, step 2, b the culprit. */
Test(execution, catches_a_stomp_on_every_word_of_a_buffer)
{
	const char *csv = "id,lower,upper,size\na,0,3,45056\nb,1,3,8\n";
	static const enum ab_exec_mode modes[] = { AB_EXEC_FULL, AB_EXEC_SAMPLED };
	const uint64_t at[] = { 0, 0 }; /* b moves over a's words below */
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;

	csv_plan(csv, at, &p, &plan);
	for (int m = 0; m < 2; m++) {
		uint64_t stride = modes[m] == AB_EXEC_FULL ? 8 : AB_EXEC_SAMPLE_STRIDE;

		p.buf[0].size = 11 * stride;
		for (uint64_t w = 0; w < 11; w++) {
			plan.offset[0] = 0;
			plan.offset[1] = w * stride;
			ab_plan_finish_single(&plan, &p);
			cr_expect_eq(ab_execute_plan(NULL, &p, &plan, &modes[m], NULL, &r),
				     AB_PLAN_STOMP, "mode %d word %llu", m,
				     (unsigned long long)w);
			cr_expect_eq(r.a, 0);
			cr_expect_eq(r.b, 1);
			cr_expect_eq(r.step, 2);
		}
		plan.offset[1] = 11 * stride;
		ab_plan_finish_single(&plan, &p);
		cr_expect_eq(ab_execute_plan(NULL, &p, &plan, &modes[m], NULL, NULL),
			     AB_PLAN_VALID);
	}
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(execution, catches_a_stomp_on_the_last_byte_of_a_tail)
{
	/* a: 13 bytes (one word and a 5-byte tail), live [0,3); b: 3 bytes,
	 * live at step 1, at 12: only a's last byte (12) is shared, so only
	 * the tail's compare can see it. */
	const char *csv = "id,lower,upper,size\na,0,3,13\nb,1,2,3\n";
	const uint64_t at[] = { 0, 12 };
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;

	csv_plan(csv, at, &p, &plan);
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

/* ------------------------------------------------ what sampling catches */

/*
 * The sampled execution check keeps only the words at fixed arena
 * addresses, every AB_EXEC_SAMPLE_STRIDE bytes (4096): two buffers that
 * overlap both own every sampled word inside their overlap, so any
 * overlap that holds a whole sampled word is caught, wherever the two
 * buffers start.  (Sampling at offsets relative to each buffer's start,
 * as this check did before, caught an overlap only when the two starts
 * lined up modulo 4 KiB, or at their first and last words.)
 */
static enum ab_verdict run_mode(const struct ab_problem *p,
				const struct ab_plan *plan,
				enum ab_exec_mode mode,
				struct ab_check_result *r)
{
	enum ab_exec_mode got;
	enum ab_verdict v = ab_execute_plan(NULL, p, plan, &mode, &got, r);

	cr_expect_eq(got, mode);
	return v;
}

Test(sampling, catches_an_overlap_whose_starts_do_not_line_up)
{
	/* a [0,3) 16 KiB at 0; b [1,2) 8 KiB at 100: they share bytes
	 * [100, 8292), which hold the sampled words at 4096 and 8192.  The
	 * old sampling wrote a at 0, 4096, 8192, 12288 and 16376, b at 100,
	 * 4196 and 8284: no byte in common, so it passed this plan. */
	const char *csv = "id,lower,upper,size\na,0,3,16384\nb,1,2,8192\n";
	const uint64_t at[] = { 0, 100 };
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;

	csv_plan(csv, at, &p, &plan);
	cr_expect_eq(run_mode(&p, &plan, AB_EXEC_SAMPLED, &r), AB_PLAN_STOMP);
	cr_expect_eq(r.a, 0, "victim a");
	cr_expect_eq(r.b, 1, "culprit b");
	cr_expect_eq(r.step, 2, "seen at a's last use");
	cr_expect_eq(run_mode(&p, &plan, AB_EXEC_FULL, &r), AB_PLAN_STOMP);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* An arena above 4 GiB is still run, sampled (its image is 1/512 of it):
 * a at 5 GiB (16 KiB) and b 100 bytes above it (8 KiB), live together,
 * share the sampled word at 5 GiB + 4096; placed apart they pass.  Full
 * mode forced above 4 GiB is skipped (the geometric check alone runs).
 * Above 128 GiB the stride doubles per doubling of the arena: at 300 GiB
 * it is 16 KiB (300 GiB / 2^14 = 19.7 M words, / 2^13 = 39.3 M > 2^25),
 * so the same 8 KiB overlap, which holds no multiple of 16 KiB, is not
 * seen, while a 32 KiB b at the same place shares the word at
 * 300 GiB + 16 KiB and is caught. */
/* The execution check of the CSV problem planned at `at` (force: NULL for
 * the mode chosen by size), its mode in *got. */
static enum ab_verdict exec_csv(const char *csv, const uint64_t *at,
				const enum ab_exec_mode *force,
				enum ab_exec_mode *got, struct ab_check_result *r)
{
	struct ab_problem p;
	struct ab_plan plan;
	enum ab_verdict v;

	csv_plan(csv, at, &p, &plan);
	v = ab_execute_plan(NULL, &p, &plan, force, got, r);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	return v;
}

Test(sampling, an_arena_above_4_gib_is_sampled_not_skipped)
{
	const char *csv = "id,lower,upper,size\na,0,3,16384\nb,1,2,8192\n";
	const char *wide = "id,lower,upper,size\na,0,3,65536\nb,1,2,32768\n";
	const uint64_t five = 5ull << 30, big = 300ull << 30;
	const uint64_t apart[] = { five, five + 16384 };
	const uint64_t over[] = { five, five + 100 };
	const uint64_t far[] = { big, big + 100 };
	enum ab_exec_mode full = AB_EXEC_FULL, got;
	struct ab_check_result r;

	cr_expect_eq(ab_exec_sample_shift(128ull << 30), 12);
	cr_expect_eq(ab_exec_sample_shift((128ull << 30) + 4096), 13);
	cr_expect_eq(ab_exec_sample_shift(big + 65536), 14);
	cr_expect_eq(exec_csv(csv, apart, NULL, &got, &r), AB_PLAN_VALID);
	cr_expect_eq(got, AB_EXEC_SAMPLED, "auto mode: sampled, not skipped");

	cr_expect_eq(exec_csv(csv, over, NULL, &got, &r), AB_PLAN_STOMP);
	cr_expect_eq(got, AB_EXEC_SAMPLED);
	cr_expect_eq(r.a, 0, "victim a");
	cr_expect_eq(r.b, 1, "culprit b");
	cr_expect_eq(exec_csv(csv, over, &full, &got, &r), AB_PLAN_VALID);
	cr_expect_eq(got, AB_EXEC_SKIPPED, "full forced above 4 GiB: skipped");

	cr_expect_eq(exec_csv(csv, far, NULL, &got, &r), AB_PLAN_VALID,
		     "at 300 GiB an 8 KiB overlap holds no sampled word");
	cr_expect_eq(got, AB_EXEC_SAMPLED);
	cr_expect_eq(exec_csv(wide, far, NULL, &got, &r), AB_PLAN_STOMP);
	cr_expect_eq(got, AB_EXEC_SAMPLED);
	cr_expect_eq(r.a, 0, "victim a");
	cr_expect_eq(r.b, 1, "culprit b");
}

Test(sampling, graph_mode_catches_an_output_shifted_off_the_page_grid)
{
	struct fixture f;
	struct ab_check_result r;
	enum ab_exec_mode sampled = AB_EXEC_SAMPLED;

	setup(&f);
	/* B (op1's output, 8 KiB) at 100, on A [0, 8192): they share
	 * [100, 8192), which holds the sampled word at 4096.  The old
	 * sampling wrote A at 0, 4096 and 8184, B at 100, 4196 and 8284. */
	f.plan.offset[f.B] = 100;
	f.plan.offset[f.C] = 8192 + 100;
	ab_plan_finish_single(&f.plan, &f.p);
	cr_expect_eq(ab_execute_plan(&f.g, &f.p, &f.plan, &sampled, NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.a, f.A);
	cr_expect_eq(r.b, f.B);
	cr_expect_eq(r.step, 1);
	teardown(&f);
}

Test(sampling, the_guarantee_is_a_whole_sampled_word)
{
	/* a [0,3) 16 KiB at 0; b [1,2) at 8.  b of 4088 bytes covers
	 * [8, 4096): between the sampled words [0,8) and [4096,4104), so the
	 * sampled check cannot see it (the geometric check does); the full
	 * check writes every byte and does.  b of 4096 bytes covers
	 * [8, 4104), which holds the word at 4096: caught. */
	const char *narrow = "id,lower,upper,size\na,0,3,16384\nb,1,2,4088\n";
	const char *wide = "id,lower,upper,size\na,0,3,16384\nb,1,2,4096\n";
	const uint64_t at[] = { 0, 8 };
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;

	csv_plan(narrow, at, &p, &plan);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_OVERLAP);
	cr_expect_eq(run_mode(&p, &plan, AB_EXEC_SAMPLED, &r), AB_PLAN_VALID);
	cr_expect_eq(run_mode(&p, &plan, AB_EXEC_FULL, &r), AB_PLAN_STOMP);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	csv_plan(wide, at, &p, &plan);
	cr_expect_eq(run_mode(&p, &plan, AB_EXEC_SAMPLED, &r), AB_PLAN_STOMP);
	cr_expect_eq(r.a, 0);
	cr_expect_eq(r.b, 1);
	cr_expect_eq(r.step, 2);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* Does [lo, hi) meet the 8 bytes at a multiple of stride, or hold them
 * all?  Counted word by word, as the statement reads. */
static void meets_sampled_word(uint64_t lo, uint64_t hi, uint64_t stride,
			       bool *some, bool *whole)
{
	for (uint64_t k = 0; k * stride < hi; k++) {
		uint64_t w = k * stride;

		if (w < hi && w + 8 > lo)
			*some = true;
		if (w >= lo && w + 8 <= hi)
			*whole = true;
	}
}

/*
 * Random small problems and plans (overlaps everywhere), both modes,
 * against the statement: when two buffers live at the same time share a
 * whole sampled word (stride 8 in full mode: any 15 bytes), the check says
 * stomp; when no two share a byte of one, it says valid.  (In between,
 * a stomp is found unless the shared bytes happen to agree.)
 */
Test(sampling, matches_the_statement_on_random_plans)
{
	uint64_t s = 29;
	int stomps[2] = { 0 }, valids[2] = { 0 };

	for (int trial = 0; trial < 3000; trial++) {
		char csv[2048];
		uint64_t at[10];
		size_t n = 2 + (size_t)(trial % 9), len;
		struct ab_problem p;
		struct ab_plan plan;
		int m = trial % 2;
		enum ab_exec_mode mode = m ? AB_EXEC_SAMPLED : AB_EXEC_FULL;
		uint64_t stride = m ? AB_EXEC_SAMPLE_STRIDE : 8;
		/* full mode on small buffers: the same statement at stride 8 */
		uint64_t span = m ? 40000 : 300, big = m ? 12000 : 60;
		bool some = false, whole = false;
		enum ab_verdict v;

		len = (size_t)snprintf(csv, sizeof(csv), "id,lower,upper,size\n");
		for (size_t i = 0; i < n; i++) {
			int32_t first = (int32_t)((s = ab_mix64(s)) % 6);
			int32_t life = 1 + (int32_t)((s = ab_mix64(s)) % 3);
			uint64_t size = 1 + (s = ab_mix64(s)) % big;

			at[i] = (s = ab_mix64(s)) % span;
			len += (size_t)snprintf(csv + len, sizeof(csv) - len,
						"%zu,%d,%d,%llu\n", i, first,
						first + life, (unsigned long long)size);
		}
		csv_plan(csv, at, &p, &plan);
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				uint64_t lo = at[i] > at[j] ? at[i] : at[j];
				uint64_t ei = at[i] + p.buf[i].size, ej = at[j] + p.buf[j].size;
				uint64_t hi = ei < ej ? ei : ej;

				if (p.buf[i].first <= p.buf[j].last &&
				    p.buf[j].first <= p.buf[i].last && lo < hi)
					meets_sampled_word(lo, hi, stride, &some, &whole);
			}
		v = run_mode(&p, &plan, mode, NULL);
		if (whole)
			cr_assert_eq(v, AB_PLAN_STOMP, "trial %d, %s:\n%s", trial,
				     ab_exec_mode_name(mode), csv);
		if (!some)
			cr_assert_eq(v, AB_PLAN_VALID, "trial %d, %s:\n%s", trial,
				     ab_exec_mode_name(mode), csv);
		stomps[m] += whole;
		valids[m] += !some;
		ab_plan_free(&plan);
		ab_problem_free(&p);
	}
	/* both sides of the statement were exercised in both modes */
	for (int m = 0; m < 2; m++) {
		cr_expect_gt(stomps[m], 100, "mode %d: %d stomps", m, stomps[m]);
		cr_expect_gt(valids[m], 100, "mode %d: %d valid", m, valids[m]);
	}
}
