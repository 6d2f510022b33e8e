/*
 * Control flow (docs/semantics.md, "Control flow"): .tflite models with
 * IF, WHILE and CALL_ONCE, written by tests/lib/tflite_writer.c, planned
 * under each rule.  Every bound and peak below is worked out by hand in
 * the comments; the execution check runs both IF branches and WHILE
 * bodies 0, 1 and 2 times (check/paths.c).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/paths.h"
#include "import/input.h"
#include "import/tflite.h"
#include "testutil.h"
#include "tflite_writer.h"

enum { F32 = TFW_FLOAT32, BOOL = 6 };

/* Opcodes: 0 RELU, 1 IF, 2 WHILE, 3 CALL_ONCE, 4 LESS, 5 RANDOM_UNIFORM. */
static const struct tfw_opcode codes[] = {
	{ .builtin = 19, .deprecated = 19 },  { .builtin = 118, .deprecated = 118 },
	{ .builtin = 119, .deprecated = 119 }, { .builtin = 129, .deprecated = 127 },
	{ .builtin = 58, .deprecated = 58 },  { .builtin = 148, .deprecated = 127 },
};
static const struct tfw_buffer bufs[] = { { 0 } };

#define T(name, type, n) { name, type, 1, { n }, 0, { 0 }, 0, false }

/*
 * IF with branches of different sizes.
 *   main:  op0 RELU x(16) -> a(32); op1 IF(cond(4), a) -> y(32), then 1,
 *          else 2; op2 RELU y -> out(8)
 *   then:  s0(32) -RELU-> big(256) -RELU-> s2(32)
 *   else:  e0(32) -RELU-> e1(32)
 * Flat operators (steps under default): 0 op0, 1 IF, 2 sg1/enter (writes
 * s0), 3-4 then's ops, 5 sg1/return (reads s2), 6 sg2/enter, 7 else's op,
 * 8 sg2/return (reads e1, and IF's cond, a, y), 9 op2.
 * default: cond [0,8], x [0,0], a [0,8], y [1,9], out [9,9], s0 [2,3],
 * big [3,4], s2 [4,5], e0 [6,7], e1 [7,8].  Live at step 3 and 4:
 * cond + a + y = 68, plus big 256 and s0 or s2 32: 356, the bound (the
 * else branch peaks at 68 + 64 = 132).
 * tflm (--runtime tflm: sizes rounded to 16): the same order, one step
 * later; at step 4: cond 16 + a 32 + y 32 + s0 32 + big 256 = 368.
 * tflite (each subgraph its own arena): main alone, inputs to its end:
 * cond [0,2], x [0,2], a [0,1], y [1,2], out [2,2]: max(52, 84, 60) = 84;
 * then: s0 [0,1], big [0,1], s2 [1,1]: 320; else: e0, e1 [0,0]: 64.
 * The total the interpreter allocates: 84 + 320 + 64 = 468.
 */
static const struct tfw_tensor if_main_t[] = {
	T("cond", TFW_INT32, 1), T("x", F32, 4), T("a", F32, 8),
	T("y", F32, 8), T("out", F32, 2),
};
static const struct tfw_op if_main_ops[] = {
	{ .opcode = 0, .n_in = 1, .in = { 1 }, .n_out = 1, .out = { 2 } },
	{ .opcode = 1, .n_in = 2, .in = { 0, 2 }, .n_out = 1, .out = { 3 },
	  .options_type = 92, .n_sub = 2, .sub = { 1, 2 } },
	{ .opcode = 0, .n_in = 1, .in = { 3 }, .n_out = 1, .out = { 4 } },
};
static const int32_t if_main_in[] = { 0, 1 }, if_main_out[] = { 4 };
static const struct tfw_tensor if_then_t[] = {
	T("s0", F32, 8), T("big", F32, 64), T("s2", F32, 8),
};
static const struct tfw_op if_then_ops[] = {
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
	{ .opcode = 0, .n_in = 1, .in = { 1 }, .n_out = 1, .out = { 2 } },
};
static const int32_t in0[] = { 0 }, out1[] = { 1 }, out2[] = { 2 };
static const struct tfw_tensor if_else_t[] = { T("e0", F32, 8), T("e1", F32, 8) };
static const struct tfw_op if_else_ops[] = {
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_subgraph if_sgs[] = {
	{ "main", 5, 3, 2, 1, if_main_t, if_main_ops, if_main_in, if_main_out },
	{ "then", 3, 2, 1, 1, if_then_t, if_then_ops, in0, out2 },
	{ "else", 2, 1, 1, 1, if_else_t, if_else_ops, in0, out1 },
};

/*
 * WHILE with a loop-carried tensor.
 *   main: op0 WHILE(x 16) -> acc 16, cond 1, body 2; op1 RELU acc -> out 16
 *   cond: i 16 -LESS-> p (bool, 1 byte)
 *   body: v 16 -RELU-> h 64 -RELU-> v2 16
 * Flat: 0 WHILE, 1 sg1/enter, 2 LESS, 3 sg1/return, 4 sg2/enter, 5-6
 * body, 7 sg2/return (reads v2, x, acc), 8 op1.
 * default: x [0,7], acc [0,8] (the carried state: the whole loop),
 * out [8,8], i [1,2], p [2,3], v [4,5], h [5,6], v2 [6,7].  Live at 5
 * and 6: x + acc 32 + h 64 + v or v2 16 = 112, the bound.
 * tflite: main x [0,1], acc [0,1], out [1,1]: 48; cond: i, p [0,0]: 17;
 * body: v [0,1], h [0,1], v2 [1,1]: 96.  Total 48 + 17 + 96 = 161.
 */
static const struct tfw_tensor wh_main_t[] = {
	T("x", F32, 4), T("acc", F32, 4), T("out", F32, 4),
};
static const struct tfw_op wh_main_ops[] = {
	{ .opcode = 2, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 },
	  .options_type = 93, .n_sub = 2, .sub = { 1, 2 } },
	{ .opcode = 0, .n_in = 1, .in = { 1 }, .n_out = 1, .out = { 2 } },
};
static const struct tfw_tensor wh_cond_t[] = { T("i", F32, 4), T("p", BOOL, 1) };
static const struct tfw_op wh_cond_ops[] = {
	{ .opcode = 4, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_tensor wh_body_t[] = {
	T("v", F32, 4), T("h", F32, 16), T("v2", F32, 4),
};
static const struct tfw_subgraph wh_sgs[] = {
	{ "main", 3, 2, 1, 1, wh_main_t, wh_main_ops, in0, out2 },
	{ "cond", 2, 1, 1, 1, wh_cond_t, wh_cond_ops, in0, out1 },
	{ "body", 3, 2, 1, 1, wh_body_t, if_then_ops, in0, out2 },
};

/*
 * CALL_ONCE with an init subgraph.
 *   main: op0 CALL_ONCE (init 1); op1 RELU x 16 -> y 64; op2 RELU y -> out 16
 *   init: op0 RANDOM_UNIFORM -> w 128; op1 RELU w -> w2 32 (never read)
 * Flat: 0 CALL_ONCE, 1 sg1/enter, 2-3 init, 4 sg1/return, 5 op1, 6 op2.
 * default: x [0,5], w [2,3], w2 [3,3], y [5,6], out [6,6]; live at 3:
 * 16 + 128 + 32 = 176, the bound.
 * tflite: main x [0,2], y [1,2], out [2,2]: 96; init: w [0,1], w2 [1,1]
 * (produced, never read: to the end): 160.  Total 256.
 */
static const struct tfw_tensor co_main_t[] = {
	T("x", F32, 4), T("y", F32, 16), T("out", F32, 4),
};
static const struct tfw_op co_main_ops[] = {
	{ .opcode = 3, .options_type = 103, .n_sub = 1, .sub = { 1 } },
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
	{ .opcode = 0, .n_in = 1, .in = { 1 }, .n_out = 1, .out = { 2 } },
};
static const struct tfw_tensor co_init_t[] = { T("w", F32, 32), T("w2", F32, 8) };
static const struct tfw_op co_init_ops[] = {
	{ .opcode = 5, .n_out = 1, .out = { 0 } },
	{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
};
static const struct tfw_subgraph co_sgs[] = {
	{ "main", 3, 3, 1, 1, co_main_t, co_main_ops, in0, out2 },
	{ "init", 2, 2, 0, 0, co_init_t, co_init_ops, NULL, NULL },
};

static uint8_t *model(const struct tfw_subgraph *sgs, int n, size_t *len)
{
	struct tfw_model m = {
		.version = 3, .n_opcodes = 6, .n_subgraphs = n, .n_buffers = 1,
		.opcodes = codes, .subgraphs = sgs, .buffers = bufs,
	};

	return tfw_build_model(&m, len);
}

static void load(const struct tfw_subgraph *sgs, int n,
		 enum ab_lifetime_rule rule, uint32_t round,
		 struct ab_input *in)
{
	struct ab_load_options lo;
	struct ab_error err = { { 0 } };
	size_t len;
	uint8_t *bytes = model(sgs, n, &len);
	int rc;

	memset(&lo, 0, sizeof(lo));
	lo.problem.lifetimes = rule;
	lo.problem.round_to = round;
	rc = ab_input_parse("cf.tflite", bytes, len, &lo, in, &err);
	free(bytes);
	cr_assert_eq(rc, 0, "%s", err.msg);
}

static void expect_range(const struct ab_input *in, const char *name,
			 int32_t first, int32_t last)
{
	size_t i = tu_buf(&in->graph, &in->problem, name);

	cr_expect_eq(in->problem.buf[i].first, first, "%s first %d, expected %d",
		     name, in->problem.buf[i].first, first);
	cr_expect_eq(in->problem.buf[i].last, last, "%s last %d, expected %d",
		     name, in->problem.buf[i].last, last);
}

/* Plans with planner at alignment 1, runs both checks, returns the peak. */
static uint64_t plan_checked(const struct ab_input *in, const char *planner,
			     int *arenas)
{
	const struct ab_planner *pl = ab_planner_find(planner);
	struct ab_plan_options o = { .align = 1 };
	struct ab_check_outcome out = { 0 };
	struct ab_plan plan;
	uint64_t peak;

	cr_assert(pl);
	cr_assert_eq(ab_plan_alloc(&plan, in->problem.n), 0);
	cr_assert_eq(ab_planner_run(pl, &in->problem, &o, &plan), 0);
	cr_assert_eq(ab_check_plan(ab_input_graph(in), &in->problem, &plan, 1, NULL, NULL, &out), 0);
	cr_expect(out.valid, "%s: %s", planner, out.message ? out.message : "?");
	peak = plan.peak;
	*arenas = plan.n_arenas;
	free(out.message);
	ab_plan_free(&plan);
	return peak;
}

Test(control_flow, if_default)
{
	struct ab_input in;
	int arenas;

	load(if_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_expect_eq(in.graph.n_ops, 10);
	cr_expect_str_eq(in.graph.ops[2].type, "SUBGRAPH_ENTER");
	cr_expect_str_eq(in.graph.tensors[6].name, "sg1/big");
	expect_range(&in, "cond", 0, 8);
	expect_range(&in, "a", 0, 8);
	expect_range(&in, "y", 1, 9);
	expect_range(&in, "sg1/big", 3, 4);
	expect_range(&in, "sg1/s2", 4, 5);
	expect_range(&in, "sg2/e1", 7, 8);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 356);
	/* size_first_fit: big 0, a 256, y 288, s0 and s2 320, e0 0, e1 32,
	 * x 0, out 0, cond 352: 356, the bound */
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 356);
	cr_expect_eq(arenas, 1);
	cr_expect_eq(ab_sum_bytes(&in.problem), 4 + 16 + 32 + 32 + 8 + 32 + 256 + 32 + 64);
	ab_input_free(&in);
}

Test(control_flow, if_tflm)
{
	struct ab_input in;

	load(if_sgs, 3, AB_LIFETIMES_TFLM, 16, &in);
	expect_range(&in, "sg1/big", 4, 5);
	expect_range(&in, "cond", 0, 9);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 368);
	ab_input_free(&in);
}

Test(control_flow, if_tflite_arena_per_subgraph)
{
	struct ab_input in;
	int arenas;

	load(if_sgs, 3, AB_LIFETIMES_TFLITE, 0, &in);
	cr_expect_eq(in.problem.n_parts, 3);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 84 + 320 + 64);
	/* each part at its bound with size_first_fit (main: a 0, y 32,
	 * x 64, out 0, cond 80; then: big 0, s0 256, s2 288; else 0, 32) */
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 468);
	cr_expect_eq(arenas, 3);
	ab_input_free(&in);
}

Test(control_flow, while_default)
{
	struct ab_input in;
	int arenas;

	load(wh_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_expect_eq(in.graph.n_ops, 9);
	expect_range(&in, "acc", 0, 8);
	expect_range(&in, "x", 0, 7);
	expect_range(&in, "sg2/h", 5, 6);
	expect_range(&in, "sg1/p", 2, 3);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 112);
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 112);
	ab_input_free(&in);
	load(wh_sgs, 3, AB_LIFETIMES_TFLITE, 0, &in);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 48 + 17 + 96);
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 161);
	cr_expect_eq(arenas, 3);
	ab_input_free(&in);
}

Test(control_flow, call_once)
{
	struct ab_input in;
	int arenas;

	load(co_sgs, 2, AB_LIFETIMES_DEFAULT, 0, &in);
	expect_range(&in, "x", 0, 5);
	expect_range(&in, "sg1/w", 2, 3);
	expect_range(&in, "sg1/w2", 3, 3);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 176);
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 176);
	ab_input_free(&in);
	load(co_sgs, 2, AB_LIFETIMES_TFLITE, 0, &in);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 96 + 160);
	cr_expect_eq(plan_checked(&in, "tflite_arena", &arenas), 256);
	ab_input_free(&in);
}

/* The paths: IF 2, WHILE 3 (0, 1 and 2 iterations of the body). */
Test(control_flow, paths)
{
	struct ab_input in;
	struct ab_path *paths;
	size_t n;

	load(wh_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_assert_eq(ab_control_paths(&in.graph, &paths, &n), 0);
	cr_assert_eq(n, 3);
	/* WHILE, copy, cond (enter, LESS, return), op1: 6; each iteration
	 * adds body (4) and cond (3) */
	cr_expect_eq(paths[0].n, 6);
	cr_expect_eq(paths[1].n, 13);
	cr_expect_eq(paths[2].n, 20);
	cr_expect_str_eq(paths[2].about, "op0 WHILE: iterations 2");
	ab_paths_free(paths, n);
	ab_input_free(&in);
	load(if_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_assert_eq(ab_control_paths(&in.graph, &paths, &n), 0);
	cr_assert_eq(n, 2);
	cr_expect_eq(paths[0].n, 7); /* op0, IF, enter, 2 ops, return, op2 */
	cr_expect_eq(paths[1].n, 6);
	ab_paths_free(paths, n);
	ab_input_free(&in);
}

/* A plan that puts the then branch's output s2 on big, which the same
 * operator reads: the execution check sees the stomp on the then path
 * (flat operator 4, sg1/op1), independently of the intervals.  It follows
 * the kernels' copies, not the intervals: `a` on big would pass it (the
 * IF copies `a` into s0 before the branch runs), while the geometric
 * check refuses it (TFLite Micro keeps an IF's inputs through the call). */
Test(control_flow, execution_check_catches_a_branch_stomp)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_check_result res;
	const struct ab_planner *pl = ab_planner_find("linear");
	struct ab_plan_options o = { .align = 1 };

	load(if_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	cr_assert_eq(ab_planner_run(pl, &in.problem, &o, &plan), 0);
	cr_assert_eq(ab_execute_plan(&in.graph, &in.problem, &plan, NULL, NULL, &res),
		     AB_PLAN_VALID);
	plan.offset[tu_buf(&in.graph, &in.problem, "sg1/s2")] =
		plan.offset[tu_buf(&in.graph, &in.problem, "sg1/big")];
	cr_assert_eq(ab_execute_plan(&in.graph, &in.problem, &plan, NULL, NULL, &res),
		     AB_PLAN_STOMP);
	cr_expect_str_eq(in.graph.tensors[res.tensor_a].name, "sg1/big");
	cr_expect_str_eq(in.graph.tensors[res.tensor_b].name, "sg1/s2");
	cr_expect_eq(res.step, 4);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

/* The else branch's tensors may share bytes with the then branch's: only
 * one runs.  A plan putting e0 on big is valid on both paths. */
Test(control_flow, branches_share_bytes)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_check_result res;
	const struct ab_planner *pl = ab_planner_find("linear");
	struct ab_plan_options o = { .align = 1 };

	load(if_sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	cr_assert_eq(ab_planner_run(pl, &in.problem, &o, &plan), 0);
	plan.offset[tu_buf(&in.graph, &in.problem, "sg2/e0")] =
		plan.offset[tu_buf(&in.graph, &in.problem, "sg1/big")];
	cr_expect_eq(ab_execute_plan(&in.graph, &in.problem, &plan, NULL, NULL, &res),
		     AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

/* The commands on the three fixtures: plan under each runtime, explain,
 * and export, whose written plan re-validates under TFLite Micro's
 * lifetimes (explain --runtime tflm on the exported file: valid). */
Test(control_flow, commands)
{
	static const struct { const struct tfw_subgraph *sgs; int n; const char *name; } fx[] = {
		{ if_sgs, 3, "if" }, { wh_sgs, 3, "while" }, { co_sgs, 2, "once" },
	};
	char dir[256];

	tu_tmpdir_make(dir, sizeof(dir), "ab_cf");
	for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		char path[512], cmd[2048], *out = NULL;
		size_t len;
		uint8_t *bytes = model(fx[i].sgs, fx[i].n, &len);
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.tflite", dir, fx[i].name);
		f = fopen(path, "wb");
		cr_assert(f);
		cr_assert_eq(fwrite(bytes, 1, len, f), len);
		fclose(f);
		free(bytes);
		for (int r = 0; r < 3; r++) {
			static const char *const rt[] = { "--lifetimes default --align 1",
							  "--runtime tflite", "--runtime tflm" };

			snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench plan %s --planner best_of %s 2>&1",
				 path, rt[r]);
			cr_expect_eq(tu_run(cmd, &out), 0, "%s: %s", cmd, out);
			free(out);
			snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench explain %s %s 2>&1",
				 path, rt[r]);
			cr_expect_eq(tu_run(cmd, &out), 0, "%s: %s", cmd, out);
			free(out);
		}
		/* explain: each subgraph's arena under TFLite's rule */
		snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench explain %s --runtime tflite --json 2>&1",
			 path);
		cr_expect_eq(tu_run(cmd, &out), 0, "%s: %s", cmd, out);
		cr_expect(out && strstr(out, i == 0 ? "\"name\": \"then\", \"buffers\": 3, \"lower_bound_bytes\": 320"
					  : i == 1 ? "\"name\": \"body\", \"buffers\": 3, \"lower_bound_bytes\": 96"
						   : "\"name\": \"init\", \"buffers\": 2, \"lower_bound_bytes\": 160"),
			  "%s", out);
		free(out);
		snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench export %s --out %s/%s_planned.tflite 2>&1 && "
			 AB_BUILD_DIR "/arenabench explain %s/%s_planned.tflite --runtime tflm --planners offline 2>&1",
			 path, dir, fx[i].name, dir, fx[i].name);
		cr_expect_eq(tu_run(cmd, &out), 0, "%s: %s", cmd, out);
		cr_expect(out && strstr(out, "valid"), "%s", out);
		cr_expect(out && !strstr(out, "INVALID"), "%s", out);
		free(out);
		snprintf(path, sizeof(path), "%s/%s_planned.tflite", dir, fx[i].name);
		remove(path);
		snprintf(path, sizeof(path), "%s/%s.tflite", dir, fx[i].name);
		remove(path);
	}
	tu_tmpdir_remove(dir);
}

/* Malformed control flow, refused by name: a callee out of range, the
 * root called again (recursion), one subgraph called twice. */
Test(control_flow, refused_by_name)
{
	static const struct { int32_t then_sg, else_sg; const char *msg; } bad[] = {
		{ 1, 5, "IF names subgraph 5 (expected 0..2)" },
		{ 0, 2, "IF calls subgraph 0 'main', which is already called elsewhere or is the root" },
		{ 1, 1, "IF calls subgraph 1 'then', which is already called elsewhere" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tfw_op ops[3];
		struct tfw_subgraph sgs[3];
		struct ab_graph g;
		struct ab_error err = { { 0 } };
		size_t len;
		uint8_t *bytes;

		memcpy(ops, if_main_ops, sizeof(ops));
		memcpy(sgs, if_sgs, sizeof(sgs));
		ops[1].sub[0] = bad[i].then_sg;
		ops[1].sub[1] = bad[i].else_sg;
		sgs[0].ops = ops;
		bytes = model(sgs, 3, &len);
		cr_expect_lt(ab_tflite_parse(bytes, len, "bad.tflite", NULL, &g, NULL, &err), 0);
		cr_expect(strstr(err.msg, "bad.tflite: subgraph 0 operator 1: ") &&
			  strstr(err.msg, bad[i].msg), "%s", err.msg);
		free(bytes);
	}
}

/* Under TFLite's rule every subgraph has its own arena: a plan that puts
 * the parts in one arena (a planner run on the whole problem rather than
 * through ab_planner_run) is refused by the geometric check. */
Test(control_flow, tflite_parts_need_their_own_arenas)
{
	struct ab_input in;
	struct ab_plan plan;
	struct ab_check_result res;
	struct ab_plan_options o = { .align = 1 };

	load(if_sgs, 3, AB_LIFETIMES_TFLITE, 0, &in);
	cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
	cr_assert_eq(ab_planner_find("linear")->plan(&in.problem, &o, &plan), 0);
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1, &res), AB_PLAN_BAD_ARENA);
	ab_plan_reset(&plan);
	cr_assert_eq(ab_planner_run(ab_planner_find("linear"), &in.problem, &o, &plan), 0);
	cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1, &res), AB_PLAN_VALID);
	/* linear: main 4 + 16 + 32 + 32 + 8 = 92, then 320, else 64 */
	cr_expect_eq(plan.arena_size[0], 92);
	cr_expect_eq(plan.arena_size[1], 320);
	cr_expect_eq(plan.arena_size[2], 64);
	cr_expect_eq(plan.peak, 476);
	ab_plan_free(&plan);
	ab_input_free(&in);
}

/* A WHILE condition that reads a tensor nothing writes (the runtime
 * provides it; fuzz_tflite found it, tests/fuzz/regressions/
 * tflite-while-cond-reads-unwritten): the condition runs again after every
 * body, so the tensor lives to the loop's last RETURN, not to its read in
 * the flat order.  The WHILE model with a condition of no inputs: 0 WHILE,
 * 1 sg1/enter (writes nothing), 2 LESS i -> p, 3 sg1/return, 4 sg2/enter,
 * 5-6 body, 7 sg2/return, 8 op1: i [0,7] rather than [0,2].  The bound:
 * x + acc 32 + i 16 + h 64 + v or v2 16 = 128 at 5 and 6. */
Test(control_flow, loop_reads_of_unwritten_tensors)
{
	struct tfw_subgraph sgs[3];
	struct ab_input in;
	int arenas;

	memcpy(sgs, wh_sgs, sizeof(sgs));
	sgs[1].n_inputs = 0;
	load(sgs, 3, AB_LIFETIMES_DEFAULT, 0, &in);
	expect_range(&in, "sg1/i", 0, 7);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 128);
	cr_expect_eq(plan_checked(&in, "size_first_fit", &arenas), 128);
	ab_input_free(&in);
}
