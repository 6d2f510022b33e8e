/*
 * The model's semantics, pinned with numbers computed by hand: lifetimes
 * under each rule, lower bounds, and every core planner's exact offsets on
 * the worked examples (docs/semantics.md).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "import/graph_text.h"
#include "testutil.h"
#include "check/check.h"

#define KiB 1024u

/* in 4 KiB -> A 8 KiB -> B 8 KiB -> C 16 KiB -> out 4 KiB, one op per arrow */

static void expect_live(const struct ab_graph *g, const struct ab_problem *p,
			const char *name, int32_t first, int32_t last)
{
	size_t i = tu_buf(g, p, name);

	cr_expect_eq(p->buf[i].first, first, "%s first: got %d, want %d", name,
		     p->buf[i].first, first);
	cr_expect_eq(p->buf[i].last, last, "%s last: got %d, want %d", name,
		     p->buf[i].last, last);
}

Test(lifetimes, chain_default_rule)
{
	struct ab_graph g;
	struct ab_problem p;
	int32_t at;

	tu_problem(tu_chain_graph, AB_LIFETIMES_DEFAULT, &g, &p);
	cr_assert_eq(p.n, 5);
	expect_live(&g, &p, "in", 0, 0);
	expect_live(&g, &p, "A", 0, 1);
	expect_live(&g, &p, "B", 1, 2);
	expect_live(&g, &p, "C", 2, 3);
	expect_live(&g, &p, "out", 3, 3);
	/* max(4+8, 8+8, 8+16, 16+4) KiB: 24, not 16 */
	cr_expect_eq(ab_lower_bound(&p, &at), 24 * KiB);
	cr_expect_eq(at, 2);
	cr_expect_eq(ab_sum_bytes(&p), 40 * KiB);
	cr_expect_eq(ab_max_live_buffers(&p), 2);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(lifetimes, chain_tflite_rule_keeps_inputs_to_the_end)
{
	struct ab_graph g;
	struct ab_problem p;

	tu_problem(tu_chain_graph, AB_LIFETIMES_TFLITE, &g, &p);
	expect_live(&g, &p, "in", 0, 3);
	expect_live(&g, &p, "A", 0, 1);
	/* step 2: in 4 + B 8 + C 16 = 28 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 28 * KiB);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(lifetimes, chain_tflm_rule_shifts_ops_by_one)
{
	struct ab_graph g;
	struct ab_problem p;

	tu_problem(tu_chain_graph, AB_LIFETIMES_TFLM, &g, &p);
	expect_live(&g, &p, "in", 0, 1);
	expect_live(&g, &p, "A", 1, 2);
	expect_live(&g, &p, "B", 2, 3);
	expect_live(&g, &p, "C", 3, 4);
	expect_live(&g, &p, "out", 4, 4);
	cr_expect_eq(p.steps, 5);
	cr_expect_eq(ab_lower_bound(&p, NULL), 24 * KiB);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(lifetimes, kinds)
{
	/* op0 writes t (never read) and u; op1 reads u and owns scratch s;
	 * v is a var, w a const, x an input nobody reads. */
	const char *text =
		"graph kinds\n"
		"tensor x  input        bytes 10\n"
		"tensor i  input        bytes 20\n"
		"tensor w  const        f32 2x3\n"
		"tensor v  var          bytes 40\n"
		"tensor t  intermediate bytes 50\n"
		"tensor u  intermediate bytes 60\n"
		"tensor s  scratch      bytes 70\n"
		"tensor o  output       bytes 80\n"
		"op a OP in=i,w out=t,u\n"
		"op b OP in=u,v out=o scratch=s\n"
		"op c OP in=o out=-\n";
	struct ab_graph g;
	struct ab_problem p;
	struct ab_error err;

	/* '-' is only for absent inputs */
	cr_assert_neq(ab_graph_parse(text, strlen(text), "k.graph", &g, &err), 0);
	cr_expect(strstr(err.msg, "k.graph:12:") != NULL, "%s", err.msg);
	text = "graph kinds\n"
	       "tensor x  input        bytes 10\n"
	       "tensor i  input        bytes 20\n"
	       "tensor w  const        f32 2x3\n"
	       "tensor v  var          bytes 40\n"
	       "tensor t  intermediate bytes 50\n"
	       "tensor u  intermediate bytes 60\n"
	       "tensor s  scratch      bytes 70\n"
	       "tensor o  output       bytes 80\n"
	       "tensor z  intermediate bytes 5\n"
	       "op a OP in=i,w out=t,u\n"
	       "op b OP in=u,v out=o scratch=s\n"
	       "op c OP in=o,- out=z\n";
	tu_problem(text, AB_LIFETIMES_DEFAULT, &g, &p);
	cr_expect_eq(p.n, 8, "the const is not planned");
	cr_expect_eq(p.weights_bytes, 24);
	expect_live(&g, &p, "x", 0, 0);
	expect_live(&g, &p, "i", 0, 0);
	expect_live(&g, &p, "v", 0, 2);
	expect_live(&g, &p, "t", 0, 0);
	expect_live(&g, &p, "u", 0, 1);
	expect_live(&g, &p, "s", 1, 1);
	expect_live(&g, &p, "o", 1, 2);
	expect_live(&g, &p, "z", 2, 2);
	/* step 1: v 40 + u 60 + s 70 + o 80 = 250 */
	cr_expect_eq(ab_lower_bound(&p, NULL), 250);
	ab_problem_free(&p);
	{
		/* --no-scratch: s is not planned; step 1 is then v 40 + u 60
		 * + o 80 = 180, and 7 buffers remain. */
		struct ab_problem_options o = { .lifetimes = AB_LIFETIMES_DEFAULT,
						.exclude_scratch = true };

		cr_assert_eq(ab_problem_from_graph(&g, &o, &p, &err), 0, "%s", err.msg);
		cr_expect_eq(p.n, 7, "scratch left out");
		cr_expect_eq(ab_lower_bound(&p, NULL), 180);
		ab_problem_free(&p);
	}
	ab_graph_free(&g);
}

/* ------------------------------------------------- planners, by hand */

static void expect_offsets(const char *planner, const char *text,
			   uint32_t align, const char *const *names,
			   const uint64_t *offsets, size_t n, uint64_t peak)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;

	tu_problem(text, AB_LIFETIMES_DEFAULT, &g, &p);
	tu_plan(planner, &p, align, &plan);
	for (size_t k = 0; k < n; k++) {
		size_t i = tu_buf(&g, &p, names[k]);

		cr_expect_eq(plan.offset[i], offsets[k],
			     "%s: %s at %llu, want %llu", planner, names[k],
			     (unsigned long long)plan.offset[i],
			     (unsigned long long)offsets[k]);
	}
	cr_expect_eq(plan.peak, peak, "%s: peak %llu, want %llu", planner,
		     (unsigned long long)plan.peak, (unsigned long long)peak);
	cr_expect_eq(ab_validate_plan(&p, &plan, align, NULL), AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

static const char *const chain_names[] = { "in", "A", "B", "C", "out" };

Test(planners, linear_chain)
{
	/* end to end in first-use order: 0, 4, 12, 20, 36 KiB */
	const uint64_t off[] = { 0, 4 * KiB, 12 * KiB, 20 * KiB, 36 * KiB };

	expect_offsets("linear", tu_chain_graph, 1, chain_names, off, 5, 40 * KiB);
}

Test(planners, greedy_last_use_chain)
{
	/* by last use: in(0) A(1) B(2) C(3, first 2) out(3, first 3).
	 * in opens slot 0; A (first 0) opens slot 1; B joins slot 0 (last
	 * 0 < 1); C joins slot 1 (1 < 2); out joins slot 0 (2 < 3).
	 * slot 0 = max(4, 8, 4) = 8 KiB at 0; slot 1 = 16 KiB at 8 KiB. */
	const uint64_t off[] = { 0, 8 * KiB, 0, 8 * KiB, 0 };

	expect_offsets("greedy_last_use", tu_chain_graph, 1, chain_names, off, 5,
		       24 * KiB);
}

Test(planners, size_first_fit_chain)
{
	/* by size: C, A, B, in, out.  C at 0; A at 0 (not live with C);
	 * B meets C and A: 16 KiB; in meets A: 8 KiB; out meets C: 16 KiB */
	const uint64_t off[] = { 8 * KiB, 0, 16 * KiB, 0, 16 * KiB };

	expect_offsets("size_first_fit", tu_chain_graph, 1, chain_names, off, 5,
		       24 * KiB);
}

Test(planners, multi_arena_phase_chain_is_one_phase_below_8_ops)
{
	/* 4 ops: one phase, so the phase arena is first fit over everything */
	const uint64_t off[] = { 8 * KiB, 0, 16 * KiB, 0, 16 * KiB };

	expect_offsets("multi_arena_phase", tu_chain_graph, 1, chain_names, off, 5,
		       24 * KiB);
}

static const char *conv_relu =
	"graph conv_relu\n"
	"tensor in  input        f32 1x16x16x8\n"
	"tensor w0  const        f32 3x3x8x8\n"
	"tensor t0  intermediate f32 1x16x16x8\n"
	"tensor t1  intermediate f32 1x16x16x8\n"
	"tensor w1  const        f32 3x3x8x1\n"
	"tensor t2  intermediate f32 1x16x16x8\n"
	"tensor out output       f32 1x16x16x8\n"
	"op conv   CONV_2D           in=in,w0 out=t0\n"
	"op relu0  RELU              in=t0    out=t1\n"
	"op dwconv DEPTHWISE_CONV_2D in=t1,w1 out=t2\n"
	"op relu1  RELU              in=t2    out=out\n";

Test(planners, greedy_last_use_conv_relu_needs_two_slots)
{
	/* every activation is 16*16*8*4 = 8192 bytes; in, t1, out share
	 * slot 0 and t0, t2 slot 1: 2 slots, 16 KiB */
	const char *const names[] = { "in", "t0", "t1", "t2", "out" };
	const uint64_t off[] = { 0, 8 * KiB, 0, 8 * KiB, 0 };

	expect_offsets("greedy_last_use", conv_relu, 1, names, off, 5,
		       16 * KiB);
}

static const char *two_branch =
	"graph two_branch\n"
	"tensor in    input        bytes 1000\n"
	"tensor a1    intermediate bytes 3000\n"
	"tensor a2    intermediate bytes 2000\n"
	"tensor b1    intermediate bytes 500\n"
	"tensor im2col scratch     bytes 4500\n"
	"tensor cat   intermediate bytes 2500\n"
	"tensor out   output       bytes 1000\n"
	"op a_conv1 CONV_2D in=in out=a1\n"
	"op a_conv3 CONV_2D in=a1 out=a2 scratch=im2col\n"
	"op b_pool  POOL in=in out=b1\n"
	"op concat  CONCATENATION in=a2,b1 out=cat\n"
	"phase\n"
	"op head    FULLY_CONNECTED in=cat out=out\n";
static const char *const tb_names[] = { "in", "a1", "a2", "b1", "im2col",
					"cat", "out" };

Test(planners, two_branch_lower_bound)
{
	struct ab_graph g;
	struct ab_problem p;
	int32_t at;

	tu_problem(two_branch, AB_LIFETIMES_DEFAULT, &g, &p);
	/* step 1: in 1000 + a1 3000 + a2 2000 + im2col 4500 */
	cr_expect_eq(ab_lower_bound(&p, &at), 10500);
	cr_expect_eq(at, 1);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(planners, size_first_fit_two_branch)
{
	/* im2col@0; a1@4500; cat@0; a2 meets cat,im2col,a1 -> 7500;
	 * in meets im2col,a1,a2 -> 9500; out meets cat -> 2500;
	 * b1 meets cat,a2,in -> 2500 */
	const uint64_t off[] = { 9500, 4500, 7500, 2500, 0, 0, 2500 };

	expect_offsets("size_first_fit", two_branch, 1, tb_names, off, 7,
		       10500);
}

Test(planners, greedy_last_use_two_branch)
{
	/* by (last, first): a1 im2col in a2 b1 cat out.  Slots: a1 -> 0,
	 * im2col -> 1, in -> 2, a2 -> 3; b1 -> 1 (last 1, set after slot 0's,
	 * so the tie goes to the most recent); cat -> 2; out -> 1.
	 * sizes 3000, 4500, 2500, 2000 -> bases 0, 3000, 7500, 10000 */
	const uint64_t off[] = { 7500, 0, 10000, 3000, 3000, 7500, 3000 };

	expect_offsets("greedy_last_use", two_branch, 1, tb_names, off, 7,
		       12000);
}

Test(planners, multi_arena_phase_two_branch_uses_the_marker)
{
	/* cut at step 4: cat [3,4] crosses it -> shared arena [0, 2500).
	 * Phase 1 by first fit: im2col 0, a1 4500, a2 7500, in 9500, b1 0;
	 * phase 2: out 0.  Phase arenas are based at 2500. */
	const uint64_t off[] = { 12000, 7000, 10000, 2500, 2500, 0, 2500 };
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;

	expect_offsets("multi_arena_phase", two_branch, 1, tb_names, off, 7,
		       13000);
	tu_problem(two_branch, AB_LIFETIMES_DEFAULT, &g, &p);
	tu_plan("multi_arena_phase", &p, 1, &plan);
	cr_expect_eq(plan.n_arenas, 3);
	cr_expect_eq(plan.arena[tu_buf(&g, &p, "cat")], 0);
	cr_expect_eq(plan.arena[tu_buf(&g, &p, "a1")], 1);
	cr_expect_eq(plan.arena[tu_buf(&g, &p, "out")], 2);
	cr_expect_eq(plan.arena_size[0], 2500);
	cr_expect_eq(plan.arena_base[1], 2500);
	cr_expect_eq(plan.arena_size[1], 10500);
	cr_expect_eq(plan.arena_size[2], 1000);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(planners, multi_arena_phase_gives_8_op_graphs_two_phases)
{
	char text[2048];
	size_t len = 0;
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;

	len += (size_t)snprintf(text + len, sizeof(text) - len,
				"graph c8\ntensor t0 input bytes 100\n");
	for (int k = 1; k <= 8; k++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"tensor t%d %s bytes %d\n", k,
					k == 8 ? "output" : "intermediate",
					100 * k);
	for (int k = 0; k < 8; k++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"op o%d OP in=t%d out=t%d\n", k, k, k + 1);
	tu_problem(text, AB_LIFETIMES_DEFAULT, &g, &p);
	tu_plan("multi_arena_phase", &p, 1, &plan);
	cr_expect_geq(plan.n_arenas, 3, "shared + at least 2 phases");
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	ab_graph_free(&g);
}

Test(planners, alignment_constrains_offsets_not_sizes)
{
	/* sizes 100, 50, 30 all live together; linear at align 64:
	 * 0, 128, 192 and peak 192 + 30 = 222 (sizes are not rounded) */
	const char *text = "graph al\n"
			   "tensor a input bytes 100\n"
			   "tensor b input bytes 50\n"
			   "tensor c output bytes 30\n"
			   "op o OP in=a,b out=c\n";
	const char *const names[] = { "a", "b", "c" };
	const uint64_t off[] = { 0, 128, 192 };

	expect_offsets("linear", text, 64, names, off, 3, 222);
}

Test(planners, own_alignment_raises_the_harness_alignment)
{
	/* b carries align=256: linear at align 16 puts it at 256 */
	const char *text = "graph al\n"
			   "tensor a input bytes 100\n"
			   "tensor b input bytes 50 align=256\n"
			   "tensor c output bytes 30\n"
			   "op o OP in=a,b out=c\n";
	const char *const names[] = { "a", "b", "c" };
	const uint64_t off[] = { 0, 256, 320 };

	expect_offsets("linear", text, 16, names, off, 3, 350);
}
