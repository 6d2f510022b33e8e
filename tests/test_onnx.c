/*
 * Tests of the ONNX importer (harness/import/onnx*.c, onnx_proto.cc).
 *
 *  - fixtures: small models written by tests/onnx/fixtures.py through
 *    Debian's python3-onnx; every size, lifetime and bound below is worked
 *    out by hand in the comments;
 *  - malformed: truncated, wrong magic, negative and huge dims, element
 *    count overflow: each a message naming the file;
 *  - node tests: every model of Debian's libonnx-testdata imports or is
 *    refused with a message; counts and a dozen named ones pinned;
 *  - shared: every model in ../shared/models/onnx imports, each tensor's
 *    size agrees with tests/onnx/sizes.py (python3-onnx inference plus a
 *    numpy evaluation of the shape computations, not this importer's
 *    folder), and every fast planner's plan passes both checks;
 *  - faithfulness: ResNet-50 and DenseNet-121 as zoo .graph and as ONNX,
 *    their difference in activation bytes accounted operator type by
 *    operator type; DTLN stage 1 as .tflite and .onnx (see below).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strmap.h"
#include "import/input.h"
#include "import/onnx.h"
#include "testutil.h"
#include "check/check.h"

#define PY "/usr/bin/python3"
#define ONNX_DIR AB_SHARED_DIR "/models/onnx"
#define NODE_DIR "/usr/share/libonnx-testdata/data/node"

static char fx[PATH_MAX];

static void fixtures_setup(void)
{
	tu_onnx_fixtures(fx, sizeof(fx), "ab-onnx");
}

static void fixtures_teardown(void)
{
	tu_tmpdir_remove(fx);
}

static int load(const char *path, const char *dim, struct ab_input *in,
		struct ab_error *err)
{
	struct ab_load_options o = { 0 };

	ab_input_set_onnx_loader(ab_onnx_load);
	if (dim)
		cr_assert_eq(tu_dim(&o.tflite, dim), 0);
	err->msg[0] = 0;
	return ab_input_load(path, &o, in, err);
}

static void load_fixture(const char *name, const char *dim, struct ab_input *in)
{
	struct ab_error err;
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/%s.onnx", fx, name);
	cr_assert_eq(load(p, dim, in, &err), 0, "%s: %s", p, err.msg);
}

static const struct ab_tensor *tensor(const struct ab_input *in, const char *name,
				      size_t *buf)
{
	for (size_t i = 0; i < in->graph.n_tensors; i++)
		if (!strcmp(in->graph.tensors[i].name, name)) {
			if (buf)
				*buf = (size_t)in->problem.tensor_buffer[i];
			return &in->graph.tensors[i];
		}
	cr_assert_fail("no tensor '%s'", name);
	return NULL;
}

static void expect_buf(const struct ab_input *in, const char *name,
		       enum ab_tensor_kind kind, uint64_t bytes, int first, int last)
{
	size_t b;
	const struct ab_tensor *t = tensor(in, name, &b);

	cr_expect_eq(t->kind, kind, "'%s': kind %s", name, ab_kind_name(t->kind));
	cr_expect_eq(t->bytes, bytes, "'%s': %llu bytes", name, (unsigned long long)t->bytes);
	if (first < 0) {
		cr_expect_eq((int32_t)b, -1, "'%s' should not be in the arena", name);
		return;
	}
	cr_assert_neq((int32_t)b, -1, "'%s' not in the arena", name);
	cr_expect_eq(in->problem.buf[b].first, first, "'%s': first %d", name,
		     in->problem.buf[b].first);
	cr_expect_eq(in->problem.buf[b].last, last, "'%s': last %d", name,
		     in->problem.buf[b].last);
}

TestSuite(fixtures, .init = fixtures_setup, .fini = fixtures_teardown);

/* chain: x[1,8] f32 (32 B) -Relu-> r (32) -MatMul W[8,16]-> m[1,16] (64)
 * -Sigmoid-> y (64).  Default rule, steps 0..2: x [0,0], r [0,1], m [1,2],
 * y [2,2].  Live: step 0 32+32, step 1 32+64, step 2 64+64 = 128 = bound;
 * sum 192; W is a weight of 8*16*4 = 512 B. */
Test(fixtures, chain)
{
	struct ab_input in;

	load_fixture("chain", NULL, &in);
	cr_expect_eq(in.graph.n_ops, 3);
	cr_expect_str_eq(in.graph.ops[1].type, "MatMul");
	expect_buf(&in, "x", AB_KIND_INPUT, 32, 0, 0);
	expect_buf(&in, "r", AB_KIND_INTERMEDIATE, 32, 0, 1);
	expect_buf(&in, "m", AB_KIND_INTERMEDIATE, 64, 1, 2);
	expect_buf(&in, "y", AB_KIND_OUTPUT, 64, 2, 2);
	expect_buf(&in, "W", AB_KIND_CONST, 512, -1, -1);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 128);
	cr_expect_eq(ab_sum_bytes(&in.problem), 192);
	cr_expect_eq(in.problem.weights_bytes, 512);
	cr_expect_eq(in.onnx.weights_bytes, 512);
	cr_expect_str_eq(in.family, fx + strlen(fx) - strlen(strrchr(fx, '/') + 1));
	ab_input_free(&in);
}

/* branch: x[2,8] (64 B) read by Relu (step 0) and Tanh (step 1); Add at
 * step 2 reads a and b.  x [0,1], a [0,2], b [1,2], y [2,2]; live 128,
 * 192, 192: bound 192, sum 256. */
Test(fixtures, branch)
{
	struct ab_input in;

	load_fixture("branch", NULL, &in);
	expect_buf(&in, "x", AB_KIND_INPUT, 64, 0, 1);
	expect_buf(&in, "a", AB_KIND_INTERMEDIATE, 64, 0, 2);
	expect_buf(&in, "b", AB_KIND_INTERMEDIATE, 64, 1, 2);
	expect_buf(&in, "y", AB_KIND_OUTPUT, 64, 2, 2);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 192);
	cr_expect_eq(ab_sum_bytes(&in.problem), 256);
	ab_input_free(&in);
}

/* W is listed as a graph input and has an initializer: a weight (16 B),
 * not an arena input.  x and y, 16 B each, both live at step 0: 32. */
Test(fixtures, initializer_input)
{
	struct ab_input in;

	load_fixture("init_input", NULL, &in);
	expect_buf(&in, "W", AB_KIND_CONST, 16, -1, -1);
	expect_buf(&in, "x", AB_KIND_INPUT, 16, 0, 0);
	cr_expect_eq(in.problem.n, 2);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 32);
	cr_expect_eq(in.problem.weights_bytes, 16);
	ab_input_free(&in);
}

/* x[N,3] with --dim N=5: 5*3*4 = 60 B.  Shape/Gather/Unsqueeze/Concat are
 * evaluated at import (no buffers), so Reshape's target is [5,1,3] and y
 * is 60 B.  Ops: Relu (0), Reshape (1): x [0,0], r [0,1], y [1,1]; bound
 * 120, sum 180.  Without --dim: refused naming 'N' and the input. */
Test(fixtures, symbolic_batch)
{
	struct ab_input in;
	struct ab_error err;
	char p[PATH_MAX + 32];

	load_fixture("symbolic", "N=5", &in);
	cr_expect_eq(in.graph.n_ops, 2);
	expect_buf(&in, "x", AB_KIND_INPUT, 60, 0, 0);
	expect_buf(&in, "r", AB_KIND_INTERMEDIATE, 60, 0, 1);
	expect_buf(&in, "y", AB_KIND_OUTPUT, 60, 1, 1);
	cr_expect_eq(tensor(&in, "y", NULL)->rank, 3);
	cr_expect_eq(tensor(&in, "y", NULL)->dims[0], 5);
	cr_expect_eq(tensor(&in, "y", NULL)->dims[1], 1);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 120);
	cr_expect_eq(ab_sum_bytes(&in.problem), 180);
	cr_expect(in.onnx.used_dim_overrides);
	ab_input_free(&in);

	/* Without --dim: refused as needing dimensions (the code the bench
	 * skips on), the names kept in in.onnx for the bench's message. */
	snprintf(p, sizeof(p), "%s/symbolic.onnx", fx);
	cr_assert_eq(load(p, NULL, &in, &err), AB_ONNX_NEEDS_DIMS);
	cr_expect(strstr(err.msg, "unresolved symbolic dimension 'N' (first needed by graph input 'x', shape [N,3]); give each with --dim NAME=VALUE"),
		  "%s", err.msg);
	cr_expect_eq(in.onnx.n_missing_dims, 1);
	cr_expect_str_eq(in.onnx.missing_dims[0], "N");
	cr_expect_str_eq(in.onnx.missing_dims_input, "x");
	cr_expect_eq(in.graph.n_tensors, 0, "nothing else is held");
}

/* scale takes --dim as plan does: symbolic.onnx with N=5 is the problem
 * above (3 buffers, at most 2 live at a step), so linear's row has peak
 * 180 (60 + 60 + 60) and bound 120; without --dim it exits 2 naming 'N'. */
Test(fixtures, scale_takes_dims)
{
	char cmd[2 * PATH_MAX], *out = NULL;
	const char *want = "symbolic,3,2,linear,1,";

	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench scale %s/symbolic.onnx --planner linear --dim N=5 "
		 "--benchmark_repetitions=1 --benchmark_min_time=0.0001 2>&1", fx);
	cr_expect_eq(tu_run(cmd, &out), 0, "%s", out);
	cr_expect(strncmp(out, want, strlen(want)) == 0 && strstr(out, ",180,120,ok,1\n"), "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench scale %s/symbolic.onnx --planner linear 2>&1", fx);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, "unresolved symbolic dimension 'N'"), "%s", out);
	free(out);
}

/* The missing names are listed once each, in order of first use, by exact
 * name ('D.1' is not taken for part of 'D.10'); one --dim less still lists
 * the rest.  A model that also fails a check not depending on dimensions
 * (an undefined input, nodes out of order) is refused for that,
 * not as needing --dim: the bench must not skip a malformed model. */
Test(fixtures, symbolic_refusals)
{
	struct ab_input in;
	struct ab_error err;
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/symbolic_many.onnx", fx);
	cr_assert_eq(load(p, NULL, &in, &err), AB_ONNX_NEEDS_DIMS, "%s", err.msg);
	cr_expect_eq(in.onnx.n_missing_dims, 3);
	cr_expect_str_eq(in.onnx.missing_dims[0], "D.10");
	cr_expect_str_eq(in.onnx.missing_dims[1], "D.1");
	cr_expect_str_eq(in.onnx.missing_dims[2], "K");
	cr_expect(strstr(err.msg, "dimensions 'D.10', 'D.1', 'K' (first needed by graph input 'x', shape [D.10,D.1])"),
		  "%s", err.msg);
	cr_assert_eq(load(p, "D.1=2", &in, &err), AB_ONNX_NEEDS_DIMS, "%s", err.msg);
	cr_expect_eq(in.onnx.n_missing_dims, 2);
	cr_expect_str_eq(in.onnx.missing_dims[1], "K");
	/* x [4,2] and z [2,5], f32: x 32 B, z 40 B, rx 32 B, rz 40 B.  Relu x
	 * is step 0, Relu z step 1; inputs live from step 0, outputs to the
	 * end: x [0,0], z [0,1], rx [0,1], rz [1,1].  Step 0: 32 + 40 + 32 =
	 * 104; step 1: 40 + 32 + 40 = 112 = the bound. */
	{
		struct ab_load_options o = { 0 };

		cr_assert_eq(tu_dim(&o.tflite, "D.10=4"), 0);
		cr_assert_eq(tu_dim(&o.tflite, "D.1=2"), 0);
		cr_assert_eq(tu_dim(&o.tflite, "K=5"), 0);
		cr_assert_eq(ab_input_load(p, &o, &in, &err), 0, "%s", err.msg);
		cr_expect_eq(ab_lower_bound(&in.problem, NULL), 112);
		ab_input_free(&in);
	}

	snprintf(p, sizeof(p), "%s/symbolic_undefined.onnx", fx);
	cr_expect_eq(load(p, NULL, &in, &err), -EBADMSG);
	cr_expect(strstr(err.msg, "input 'nowhere' is not defined"), "%s", err.msg);
	snprintf(p, sizeof(p), "%s/symbolic_order.onnx", fx);
	cr_expect_eq(load(p, NULL, &in, &err), -EBADMSG);
	cr_expect(strstr(err.msg, "input 'b' is read before node 1 writes it"), "%s", err.msg);
}

/*
 * Control flow by ONNX Runtime's rule (docs/onnx.md, "Control flow"): a
 * subgraph runs inside its node, inlined after it (SUBGRAPH_ENTER, its
 * nodes, SUBGRAPH_RETURN); outer values it reads are inputs of the node
 * and live through it.  Default rule, bytes by hand:
 *
 * if: 0 If (cond, x -> y), 1 then/enter, 2 Relu x -> t1, 3 Neg t1 -> t2,
 * 4 then/return, 5 else/enter, 6 Sigmoid x -> e1, 7 else/return (reads e1,
 * cond, x, y).  cond (1) [0,7], x (16) [0,7], y (16) [0,7], t1 [2,3],
 * t2 [3,4], e1 [6,7]: the bound is 33 + t1 + t2 = 65 at step 3.
 * if_const (cond a constant false): only else runs: 0 If, 1 enter,
 * 2 Sigmoid, 3 return: x, y [0,3], e1 [2,3]: 48.
 */
Test(fixtures, if_node)
{
	struct ab_input in;

	load_fixture("if", NULL, &in);
	cr_expect_eq(in.graph.n_ops, 8);
	cr_expect_eq(in.graph.n_subgraphs, 3);
	expect_buf(&in, "cond", AB_KIND_INPUT, 1, 0, 7);
	expect_buf(&in, "x", AB_KIND_INPUT, 16, 0, 7);
	expect_buf(&in, "y", AB_KIND_OUTPUT, 16, 0, 7);
	expect_buf(&in, "t1", AB_KIND_INTERMEDIATE, 16, 2, 3);
	expect_buf(&in, "t2", AB_KIND_INTERMEDIATE, 16, 3, 4);
	expect_buf(&in, "e1", AB_KIND_INTERMEDIATE, 16, 6, 7);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 65);
	ab_input_free(&in);

	load_fixture("if_const", NULL, &in);
	cr_expect_eq(in.graph.n_ops, 4);
	expect_buf(&in, "cond", AB_KIND_CONST, 1, -1, -1);
	expect_buf(&in, "e1", AB_KIND_INTERMEDIATE, 16, 2, 3);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 48);
	ab_input_free(&in);
}

/* Plans with planner at alignment 1 and runs both checks (the execution
 * check runs both If branches, a Loop or Scan body 0, 1 and 2 times). */
static uint64_t planned(const struct ab_input *in, const char *planner)
{
	struct ab_plan plan;
	struct ab_check_result res;
	struct ab_plan_options o = { .align = 1 };
	uint64_t peak;

	cr_assert_eq(ab_plan_alloc(&plan, in->problem.n), 0);
	cr_assert_eq(ab_planner_run(ab_planner_find(planner), &in->problem, &o, &plan), 0);
	cr_expect_eq(ab_validate_plan(&in->problem, &plan, 1, &res), AB_PLAN_VALID);
	cr_expect_eq(ab_execute_plan(&in->graph, &in->problem, &plan, NULL, NULL, &res),
		     AB_PLAN_VALID);
	peak = plan.peak;
	ab_plan_free(&plan);
	return peak;
}

/* if_shapes: then gives Relu(x) [4] (16 B), else Concat(x, x) [8] (32 B);
 * inference leaves y's length open and y reserves the larger, 32.  0 If
 * (cond, x -> y), 1 then/enter, 2 Relu -> t1, 3 then/return, 4 else/enter,
 * 5 Concat -> e1, 6 else/return.  cond 1 + x 16 + y 32 = 49 live
 * throughout; with t1 65, with e1 81: the bound, which size_first_fit
 * reaches, and both branches pass the execution check. */
Test(fixtures, if_branches_of_different_shapes)
{
	struct ab_input in;

	load_fixture("if_shapes", NULL, &in);
	expect_buf(&in, "y", AB_KIND_OUTPUT, 32, 0, 6);
	expect_buf(&in, "t1", AB_KIND_INTERMEDIATE, 16, 2, 3);
	expect_buf(&in, "e1", AB_KIND_INTERMEDIATE, 32, 5, 6);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 81);
	cr_expect_eq(planned(&in, "size_first_fit"), 81);
	ab_input_free(&in);
}

/* loop_carried: 0 Loop (M 8, cond 1, v0 16 -> v_final 16), 1 body/enter
 * (i 8, c 1, v 16), 2 Identity c -> c_out, 3 MatMul v, W1 -> h (64),
 * 4 MatMul h, W2 -> v_out (16), 5 body/return (reads c_out, v_out and the
 * Loop's inputs and output), 6 Relu v_final -> y.  The carried state
 * v_final lives through the whole loop, [0,6]; i [1,1] (never read),
 * c [1,2], v [1,3], h [3,4], c_out [2,5], v_out [4,5].  At 3 and 4:
 * 41 (M, cond, v0, v_final) + 64 + 16 + 1 = 122, the bound.
 * loop (no outputs): 0 Loop(cond), 1 enter (i 8, c 1), 2 Identity -> c2,
 * 3 return, 4 Relu x -> y: x 16 + y 16 = 32 at step 4. */
Test(fixtures, loop)
{
	struct ab_input in;

	load_fixture("loop_carried", NULL, &in);
	cr_expect_eq(in.graph.n_ops, 7);
	expect_buf(&in, "v_final", AB_KIND_INTERMEDIATE, 16, 0, 6);
	expect_buf(&in, "h", AB_KIND_INTERMEDIATE, 64, 3, 4);
	expect_buf(&in, "v", AB_KIND_INTERMEDIATE, 16, 1, 3);
	expect_buf(&in, "i", AB_KIND_INTERMEDIATE, 8, 1, 1);
	expect_buf(&in, "W1", AB_KIND_CONST, 256, -1, -1);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 122);
	cr_expect_eq(planned(&in, "size_first_fit"), 122);
	ab_input_free(&in);
	load_fixture("loop", NULL, &in);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 32);
	cr_expect_eq(planned(&in, "tflite_arena"), 32);
	ab_input_free(&in);
}

/* loop_if: an If inside a Loop body, whose branches read the body's h
 * and v: they are the inner If's implicit inputs and live through it.
 * 0 Loop, 1 body/enter (i 8, c 1, v 16), 2 Relu v -> h, 3 If (c, h, v
 * -> r), 4 then/enter, 5 Neg h -> t, 6 then/return, 7 else/enter, 8 Abs
 * v -> e, 9 else/return (reads e and the If's c, h, v, r), 10 Identity c
 * -> c_out, 11 Identity r -> v_out, 12 body/return, 13 Relu -> y.
 * M, cond, v0, v_final: 41 through the loop; h [2,9] (its last read is
 * Neg at 5, the If keeps it to 9), v [1,9], r [3,11]; at 5 (t) and at 8
 * (e): 41 + c + v + h + r + 16 = 106, the bound. */
Test(fixtures, loop_with_if)
{
	struct ab_input in;

	load_fixture("loop_if", NULL, &in);
	cr_expect_eq(in.graph.n_ops, 14);
	expect_buf(&in, "h", AB_KIND_INTERMEDIATE, 16, 2, 9);
	expect_buf(&in, "v", AB_KIND_INTERMEDIATE, 16, 1, 9);
	expect_buf(&in, "r", AB_KIND_INTERMEDIATE, 16, 3, 11);
	expect_buf(&in, "c", AB_KIND_INTERMEDIATE, 1, 1, 10);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 106);
	cr_expect_eq(planned(&in, "size_first_fit"), 106);
	ab_input_free(&in);
}

/* scan: 0 Scan (initial 8, x 24 -> y 8, z 24), 1 body/enter (sum_in 8,
 * next 8), 2 Mul -> t, 3 Add t, next -> sum_out, 4 Identity -> scan_out,
 * 5 body/return.  64 live throughout; at 2: sum_in, next, t; at 3: next,
 * t, sum_out: 64 + 24 = 88, the bound. */
Test(fixtures, scan)
{
	struct ab_input in;

	load_fixture("scan", NULL, &in);
	expect_buf(&in, "z", AB_KIND_OUTPUT, 24, 0, 5);
	expect_buf(&in, "next", AB_KIND_INTERMEDIATE, 8, 1, 3);
	expect_buf(&in, "sum_out", AB_KIND_INTERMEDIATE, 8, 3, 5);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 88);
	cr_expect_eq(planned(&in, "size_first_fit"), 88);
	ab_input_free(&in);
}

Test(fixtures, refused_by_name)
{
	struct ab_input in;
	struct ab_error err;
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/string.onnx", fx);
	cr_expect_eq(load(p, NULL, &in, &err), -EINVAL);
	cr_expect(strstr(err.msg, "'s'") && strstr(err.msg, "string"), "%s", err.msg);
	snprintf(p, sizeof(p), "%s/if_undefined.onnx", fx);
	cr_expect_eq(load(p, NULL, &in, &err), -EBADMSG);
	cr_expect(strstr(err.msg, "if_undefined.onnx: node 'then_relu' (Relu) in subgraph 'then' of If node 'if': input 'nowhere' is not defined"),
		  "%s", err.msg);
}

/* ------------------------------------------------------------ malformed */

static void expect_refused(const char *path, const char *what)
{
	struct ab_input in;
	struct ab_error err;
	int rc = load(path, NULL, &in, &err);

	cr_expect_lt(rc, 0, "%s: imported", path);
	cr_expect(strstr(err.msg, path), "message does not name the file: %s", err.msg);
	cr_expect(strstr(err.msg, what), "message lacks '%s': %s", what, err.msg);
}

Test(fixtures, malformed)
{
	char src[PATH_MAX + 32], p[PATH_MAX + 32];
	size_t len;
	uint8_t *b;

	snprintf(src, sizeof(src), "%s/chain.onnx", fx);
	b = (uint8_t *)tu_slurp(src, &len);
	cr_assert(b && len > 40);
	snprintf(p, sizeof(p), "%s/truncated.onnx", fx);
	tu_write_bytes(p, b, len - 7);
	expect_refused(p, "protobuf parse failed");
	snprintf(p, sizeof(p), "%s/magic.onnx", fx);
	tu_write_bytes(p, (const uint8_t *)"TFL3\xff\xff\xff\xff garbage", 17);
	expect_refused(p, "not an ONNX ModelProto");
	snprintf(p, sizeof(p), "%s/empty.onnx", fx);
	tu_write_bytes(p, b, 0);
	expect_refused(p, "no graph");
	free(b);
}

/* Written by fixtures-like python one-liners: dims the C side must refuse. */
Test(fixtures, bad_dims)
{
	char cmd[4 * PATH_MAX], p[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd),
		 PY " -c \"import onnx,sys; from onnx import helper as h, TensorProto as T;"
		 "d=sys.argv[1];"
		 "mk=lambda n,s: onnx.save(h.make_model(h.make_graph([h.make_node('Relu',['x'],['y'])],'g',"
		 "[h.make_tensor_value_info('x',T.FLOAT,s)],[h.make_tensor_value_info('y',T.FLOAT,None)])),d+'/'+n+'.onnx');"
		 "mk('neg',[2,-3]); mk('huge',[1<<40,1<<40]); mk('ovf',[1<<62,1<<62,4])\" %s 2>&1", fx);
	cr_assert_eq(tu_run(cmd, NULL), 0);
	snprintf(p, sizeof(p), "%s/neg.onnx", fx);
	expect_refused(p, "negative");
	snprintf(p, sizeof(p), "%s/ovf.onnx", fx);
	expect_refused(p, "overflows 64 bits");
	/* 2^80 elements fit no arena: the element count overflows too. */
	snprintf(p, sizeof(p), "%s/huge.onnx", fx);
	expect_refused(p, "overflows");
}

/* ----------------------------------------------- Debian's node tests */

Test(node_tests, counts)
{
	DIR *d = opendir(NODE_DIR);
	struct dirent *e;
	size_t ok = 0, refused = 0;
	/* Named ones: imported (1) or refused (0), and why. */
	static const struct { const char *name; int imports; const char *why; } named[] = {
		{ "test_abs", 1, NULL },
		{ "test_add_bcast", 1, NULL },
		{ "test_conv_with_strides_padding", 1, NULL },
		{ "test_concat_1d_axis_0", 1, NULL },
		{ "test_reshape_negative_dim", 1, NULL },
		{ "test_gather_0", 1, NULL },
		{ "test_lstm_defaults", 1, NULL },
		{ "test_softmax_axis_0", 1, NULL },
		{ "test_range_float_type_positive_delta_expanded", 1, NULL },
		{ "test_if", 1, NULL },
		{ "test_scan9_sum", 1, NULL },
		{ "test_loop11", 0, "'slice_out'" },
		{ "test_sequence_insert_at_back", 0, "sequence" },
		{ "test_strnormalizer_export_monday_casesensintive_lower", 0, "string" },
		{ "test_shape_start_negative_1", 0, "every node is constant" },
		{ "test_hannwindow_expanded", 0, "(Range)" },
	};
	size_t found[sizeof(named) / sizeof(named[0])] = { 0 };

	if (!d)
		cr_skip_test("%s absent (sh scripts/deps.sh onnx installs libonnx-testdata)", NODE_DIR);
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		struct ab_input in;
		struct ab_error err;
		int rc;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), NODE_DIR "/%s/model.onnx", e->d_name);
		rc = load(p, NULL, &in, &err);
		if (rc == 0) {
			ok++;
			ab_input_free(&in);
		} else {
			refused++;
			cr_expect(rc < 0 && strstr(err.msg, p), "%s: code %d, message %s", p, rc, err.msg);
		}
		for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			if (!strcmp(e->d_name, named[k].name)) {
				found[k] = 1;
				cr_expect_eq(rc == 0, named[k].imports, "%s: %s", named[k].name,
					     rc ? err.msg : "imported");
				if (rc && named[k].why)
					cr_expect(strstr(err.msg, named[k].why), "%s: %s", named[k].name, err.msg);
			}
	}
	closedir(d);
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		cr_expect(found[k], "%s not in %s", named[k].name, NODE_DIR);
	/* ONNX 1.12's node tests: 932 models (counted with ls). */
	cr_expect_eq(ok + refused, 932);
	cr_log_info("node tests: %zu imported, %zu refused\n", ok, refused);
	printf("node tests: %zu imported, %zu refused\n", ok, refused);
	/* libonnx-testdata 1.12.0-2: measured, pinned so that a change shows
	 * (872 and 60 before Loop and Scan were planned: test_scan_sum,
	 * test_scan9_sum and the two Range tests expanded into a Loop). */
	cr_expect_eq(ok, 876, "%zu imported", ok);
	cr_expect_eq(refused, 56, "%zu refused", refused);
}

/*
 * Control flow we did not write: ONNX's own node tests with If, Loop and
 * Scan, planned by every fast planner with both checks.  Bounds by hand:
 * - test_if: If(cond) -> res [5] f32; both branches are Constants (weights):
 *   cond 1 + res 20 = 21.
 * - test_scan9_sum: Scan(initial [2], x [3,2]) -> y [2], z [3,2] (8 + 24 +
 *   8 + 24 = 64 live through the node); body: enter (sum_in, next), Add ->
 *   sum_out, Identity -> scan_out: at the Add 64 + 3 x 8 = 88.
 *   test_scan_sum (opset 8, a batch axis of 1): the same bytes, 88.
 * - test_range_float_type_positive_delta_expanded: 8 scalar nodes, then
 *   Loop(trip int64 8, cond 1, start 4; delta 4 read inside) -> carried 4,
 *   output [2] 8 (29 bytes with start and delta live through it); body:
 *   enter (i 8, cond 1, prev 4: the carried value takes start's shape),
 *   Identity -> cond_out, Add(prev, delta) -> current 4, Identity -> range 4
 *   (a scan slice: output less its first axis).  At the enter 29 + 13 = 42,
 *   at the last Identity 29 + prev + cond_out + current + range = 42.
 */
Test(node_tests, control_flow_planned)
{
	static const struct { const char *name; uint64_t bound; } cf[] = {
		{ "test_if", 21 }, { "test_scan9_sum", 88 }, { "test_scan_sum", 88 },
		{ "test_range_float_type_positive_delta_expanded", 42 },
	};

	if (!tu_dir_exists(NODE_DIR))
		cr_skip_test("%s absent (sh scripts/deps.sh onnx installs libonnx-testdata)", NODE_DIR);
	for (size_t i = 0; i < sizeof(cf) / sizeof(cf[0]); i++) {
		char p[PATH_MAX];
		struct ab_input in;
		struct ab_error err;

		snprintf(p, sizeof(p), NODE_DIR "/%s/model.onnx", cf[i].name);
		cr_assert_eq(load(p, NULL, &in, &err), 0, "%s: %s", p, err.msg);
		cr_expect_gt(in.graph.n_subgraphs, 1, "%s", cf[i].name);
		cr_expect_eq(ab_lower_bound(&in.problem, NULL), cf[i].bound, "%s: %llu",
			     cf[i].name, (unsigned long long)ab_lower_bound(&in.problem, NULL));
		for (size_t k = 0; k < ab_planner_count(); k++)
			if (ab_planner_at(k)->cost == AB_COST_FAST)
				planned(&in, ab_planner_at(k)->name);
		ab_input_free(&in);
	}
}

/* ------------------------------------------------------ shared models */

/* The symbolic dimensions of the shared models (PROVENANCE.txt's values). */
static const char *const dims_for[][4] = {
	{ "fns_candy", "None=1", NULL },
	{ "nanogpt_ezkl", "batch_size=1", NULL },
	{ "ppocr_rec_en_number_crnn", "p2o.DynamicDimension.0=1", "p2o.DynamicDimension.1=320" },
	{ "ppocrv3_det_en", "p2o.DynamicDimension.0=1", "p2o.DynamicDimension.1=640",
	  "p2o.DynamicDimension.2=640" },
	{ "super_resolution", "batch_size=1", NULL },
};

static void shared_one(const char *file, size_t *planned)
{
	char p[PATH_MAX], cmd[2 * PATH_MAX], stem[256];
	struct ab_load_options o = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input in;
	char *out = NULL;
	const char *extra = "";
	char args[512] = "";

	snprintf(p, sizeof(p), ONNX_DIR "/%s", file);
	snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(file) - 5), file);
	for (size_t k = 0; k < sizeof(dims_for) / sizeof(dims_for[0]); k++)
		if (!strcmp(dims_for[k][0], stem))
			for (int j = 1; j < 4 && dims_for[k][j]; j++) {
				cr_assert_eq(tu_dim(&o.tflite, dims_for[k][j]), 0);
				snprintf(args + strlen(args), sizeof(args) - strlen(args), " %s",
					 dims_for[k][j]);
			}
	(void)extra;
	ab_input_set_onnx_loader(ab_onnx_load);
	if (ab_input_load(p, &o, &in, &err)) {
		cr_expect_fail("%s: %s", p, err.msg);
		return;
	}
	cr_expect_str_eq(in.family, "onnx");
	/* Sizes against the independent derivation. */
	snprintf(cmd, sizeof(cmd), PY " tests/onnx/sizes.py %s%s", p, args);
	cr_assert_eq(tu_run(cmd, &out), 0, "%s failed", cmd);
	struct ab_strmap m;
	size_t n_lines = 0, checked = 0;
	char *save = NULL;
	cr_assert_eq(ab_strmap_init(&m, 1024), 0);
	char **names = calloc(strlen(out) + 1, sizeof(*names));
	uint64_t *bytes = calloc(strlen(out) + 1, sizeof(*bytes));
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		for (char *q = sp + 1; *q; q++) /* the importer's name cleaning */
			if ((unsigned char)*q <= ' ' || *q == ',' || *q == '=' || *q == '#')
				*q = '_';
		names[n_lines] = sp + 1;
		bytes[n_lines] = line[0] == '?' ? UINT64_MAX : strtoull(line, NULL, 10);
		ab_strmap_put(&m, sp + 1, (int64_t)n_lines);
		n_lines++;
	}
	for (size_t i = 0; i < in.graph.n_tensors; i++) {
		const struct ab_tensor *t = &in.graph.tensors[i];
		int64_t j;
		if (t->kind == AB_KIND_CONST || t->kind == AB_KIND_INPUT || t->kind == AB_KIND_SCRATCH)
			continue;
		j = ab_strmap_get(&m, t->name);
		cr_expect_geq(j, 0, "%s: '%s' not derived by sizes.py", file, t->name);
		if (j < 0)
			continue;
		cr_expect_eq(bytes[j], t->bytes, "%s: '%s': importer %llu B, sizes.py %llu B", file,
			     t->name, (unsigned long long)t->bytes, (unsigned long long)bytes[j]);
		checked++;
	}
	cr_expect_gt(checked, 0);
	/* Every fast planner, both checks. */
	for (size_t k = 0; k < ab_planner_count(); k++) {
		const struct ab_planner *pl = ab_planner_at(k);
		struct ab_plan plan;
		struct ab_plan_options po = { .align = 64, .seed = 1 };
		struct ab_check_result res;
		enum ab_exec_mode mode;
		if (pl->cost != AB_COST_FAST)
			continue;
		cr_assert_eq(ab_plan_alloc(&plan, in.problem.n), 0);
		cr_expect_eq(pl->plan(&in.problem, &po, &plan), 0, "%s: %s failed", file, pl->name);
		cr_expect_eq(ab_validate_plan(&in.problem, &plan, 64, &res), AB_PLAN_VALID,
			     "%s: %s: invalid plan", file, pl->name);
		cr_expect_eq(ab_execute_plan(&in.graph, &in.problem, &plan,
					     NULL, &mode, &res), AB_PLAN_VALID,
			     "%s: %s: execution check", file, pl->name);
		cr_expect_geq(plan.peak, ab_lower_bound(&in.problem, NULL));
		ab_plan_free(&plan);
	}
	(*planned)++;
	ab_strmap_free(&m);
	free(names);
	free(bytes);
	free(out);
	ab_input_free(&in);
}

Test(shared, every_model_sizes_and_plans, .timeout = 600)
{
	DIR *d = opendir(ONNX_DIR);
	struct dirent *e;
	size_t n = 0, planned = 0;

	if (!d)
		cr_skip_test("%s absent: the shared ONNX models are skipped", ONNX_DIR);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".onnx"))
			continue;
		n++;
		shared_one(e->d_name, &planned);
	}
	closedir(d);
	cr_expect_eq(n, 16);
	cr_expect_geq(planned, 14, "%zu of %zu models plan", planned, n);
}

/* The CLI: a malformed model is a message and exit 2; a good one plans. */
Test(fixtures, cli_exit_codes)
{
	char cmd[2 * PATH_MAX], p[PATH_MAX + 32];
	char *out = NULL;

	snprintf(p, sizeof(p), "%s/bad.onnx", fx);
	tu_write_bytes(p, (const uint8_t *)"\x08\x07\x12\xff\xff\xff\xff\x0f", 8);
	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench plan %s --planner linear 2>&1", p);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, p), "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench explain %s/chain.onnx 2>&1", fx);
	cr_expect_eq(tu_run(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "format onnx, 3 operators"), "%s", out);
	free(out);
}

/* bench over a folder: a model that only needs --dim values is skipped
 * (named with its flags on stderr, listed in the .meta, exit 0, the other
 * model's rows written); --strict makes it exit 2 with nothing written; a
 * model that needs dims and is malformed is skipped as malformed (its
 * reason the undefined name), and --strict stops there too. */
Test(fixtures, bench_skips_models_needing_dims)
{
	char dir[PATH_MAX + 32], cmd[8 * PATH_MAX], csv[PATH_MAX + 64], meta[PATH_MAX + 64];
	char *out = NULL, *text;
	size_t len;

	snprintf(dir, sizeof(dir), "%s/corpus", fx);
	snprintf(csv, sizeof(csv), "%s/out.csv", fx);
	snprintf(meta, sizeof(meta), "%s/out.meta", fx);
	snprintf(cmd, sizeof(cmd), "mkdir %s && cp %s/chain.onnx %s/symbolic.onnx %s/", dir, fx, fx, dir);
	cr_assert_eq(tu_run(cmd, NULL), 0);
	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench bench %s --planners linear --align 1 --no-timing --quiet --out %s 2>&1",
		 dir, csv);
	cr_expect_eq(tu_run(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "skipped ") && strstr(out, "symbolic.onnx: unresolved symbolic dimension 'N'") &&
		  strstr(out, "add --dim N=VALUE to plan it"), "%s", out);
	free(out);
	/* header + chain's one row (one planner, one alignment) */
	text = tu_slurp(csv, &len);
	cr_assert(text);
	cr_expect(strstr(text, "\n3,chain,") && !strstr(text, ",symbolic,"), "%s", text);
	{
		size_t lines = 0;

		for (char *c = text; *c; c++)
			lines += *c == '\n';
		cr_expect_eq(lines, 2, "%s", text);
	}
	free(text);
	text = tu_slurp(meta, &len);
	cr_assert(text);
	cr_expect(strstr(text, "\nskipped_inputs=1\n"), "%s", text);
	cr_expect(strstr(text, "symbolic.onnx: unresolved symbolic dimension 'N' (first needed by graph input 'x', shape [N,3]); add --dim N=VALUE\n"),
		  "%s", text);
	free(text);

	snprintf(cmd, sizeof(cmd), "rm -f %s %s && " AB_BUILD_DIR "/arenabench bench %s --planners linear --no-timing --strict --out %s 2>&1",
		 csv, meta, dir, csv);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, "'N'") && strstr(out, "nothing written"), "%s", out);
	free(out);
	cr_expect(access(csv, F_OK) && access(meta, F_OK), "--strict wrote a CSV");

	/* a malformed model is skipped too, with the importer's reason (not
	 * as needing --dim); under --strict it stops the run */
	snprintf(cmd, sizeof(cmd), "cp %s/symbolic_undefined.onnx %s/ && " AB_BUILD_DIR "/arenabench bench %s --planners linear --align 1 --no-timing --quiet --out %s 2>&1",
		 fx, dir, dir, csv);
	cr_expect_eq(tu_run(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "symbolic_undefined.onnx: node 0 'add' (Add): input 'nowhere' is not defined") &&
		  strstr(out, "(--strict makes this an error)"), "%s", out);
	free(out);
	text = tu_slurp(meta, &len);
	cr_assert(text);
	cr_expect(strstr(text, "\nskipped_inputs=2\n"), "%s", text);
	cr_expect(strstr(text, "symbolic_undefined.onnx: node 0 'add' (Add): input 'nowhere' is not defined"), "%s", text);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -f %s %s && " AB_BUILD_DIR "/arenabench bench %s --planners linear --no-timing --strict --out %s 2>&1",
		 csv, meta, dir, csv);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, "nothing written"), "%s", out);
	free(out);
	cr_expect(access(csv, F_OK), "--strict still wrote a CSV");
}

/* Every fuzz finding under tests/fuzz/regressions/onnx-* fails cleanly. */
Test(regressions, fuzz_inputs)
{
	DIR *d = opendir("tests/fuzz/regressions");
	struct dirent *e;
	size_t n = 0;

	cr_assert(d);
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		size_t len;
		uint8_t *b;
		struct ab_graph g;
		struct ab_error err = { { 0 } };
		struct ab_tflite_dim dim = { .name = "N", .value = 3 };
		struct ab_onnx_options o = { 1, &dim };
		int rc;

		if (strncmp(e->d_name, "onnx-", 5))
			continue;
		snprintf(p, sizeof(p), "tests/fuzz/regressions/%s", e->d_name);
		b = (uint8_t *)tu_slurp(p, &len);
		cr_assert(b);
		rc = ab_onnx_parse(b, len, p, &o, &g, NULL, &err);
		cr_expect(rc <= 0);
		if (rc)
			cr_expect(strstr(err.msg, p), "%s: %s", p, err.msg);
		else
			ab_graph_free(&g);
		free(b);
		n++;
	}
	closedir(d);
	cr_expect_geq(n, 1);
}

/* ------------------------------------------------------- faithfulness */

/* Which network exists in both formats.  ../shared/models holds no
 * MobileNet (or other classifier) both as .tflite and as .onnx: its
 * MobileNets are .tflite only (coral_test_data, tflm), and the ONNX
 * folder's MobileNetV3 backbones sit inside other networks (pan_mnv3s,
 * the PaddleOCR models).  The one pair there is DTLN stage 1 (below).
 * The zoo holds ResNet-50 and DenseNet-121 at TFLite granularity (built
 * from the papers: BatchNorm folded into CONV_2D or kept as MUL + ADD,
 * ReLU fused into CONV_2D/ADD, padding as PAD ops), the ONNX folder the
 * Caffe2 exports (BatchNormalization, Mul, Add and Relu as nodes,
 * padding inside Conv/MaxPool).  The peak step holds the same tensors in
 * both, so the lower bounds agree exactly; the sums of activation bytes
 * differ by operator granularity, accounted below operator type by
 * operator type: the tensors of the types paired across the formats have
 * the same bytes (or a difference worked out by hand), the others exist
 * in one format only, and the accounted difference equals the measured
 * one to the byte. */

/* Bytes of the outputs of the operators of one type, those for which
 * keep (if given) holds. */
static uint64_t type_bytes(const struct ab_input *in, const char *type,
			   bool (*keep)(const struct ab_input *, size_t))
{
	uint64_t s = 0;

	for (size_t i = 0; i < in->graph.n_ops; i++)
		if (!strcmp(in->graph.ops[i].type, type) && (!keep || keep(in, i)))
			for (int k = 0; k < in->graph.ops[i].n_outputs; k++)
				s += in->graph.tensors[in->graph.ops[i].outputs[k]].bytes;
	return s;
}

/* The operator writing input k of operator i, or -1. */
static long producer_of(const struct ab_input *in, size_t i, int k)
{
	int t = in->graph.ops[i].n_inputs > k ? in->graph.ops[i].inputs[k] : -1;

	for (size_t j = 0; t >= 0 && j < i; j++)
		for (int o = 0; o < in->graph.ops[j].n_outputs; o++)
			if (in->graph.ops[j].outputs[o] == t)
				return (long)j;
	return -1;
}

static bool op_is(const struct ab_input *in, long i, const char *type)
{
	return i >= 0 && !strcmp(in->graph.ops[i].type, type);
}

/* Caffe2's scale layer after a BatchNormalization that follows a Conv
 * (Conv -> BatchNormalization -> Mul -> Add): TFLite folds all of it into
 * the CONV_2D.  Mul: its input comes from such a BatchNormalization; Add:
 * from such a Mul. */
static bool after_conv_bn(const struct ab_input *in, size_t i)
{
	long p = producer_of(in, i, 0);

	if (!strcmp(in->graph.ops[i].type, "Add"))
		return op_is(in, p, "Mul") && after_conv_bn(in, (size_t)p);
	return op_is(in, p, "BatchNormalization") && op_is(in, producer_of(in, (size_t)p, 0), "Conv");
}

static bool not_after_conv_bn(const struct ab_input *in, size_t i)
{
	return !after_conv_bn(in, i);
}

static uint64_t input_bytes(const struct ab_input *in)
{
	uint64_t s = 0;

	for (size_t i = 0; i < in->graph.n_tensors; i++)
		if (in->graph.tensors[i].kind == AB_KIND_INPUT)
			s += in->graph.tensors[i].bytes;
	return s;
}

/* Sum of the listed types' outputs plus the graph inputs: equal to the
 * sum of activation bytes when the list names every operator type. */
static uint64_t listed_bytes(const struct ab_input *in, const char *const *types)
{
	uint64_t s = input_bytes(in);

	for (size_t k = 0; types[k]; k++)
		s += type_bytes(in, types[k], NULL);
	return s;
}

static void load_pair(const char *zoo, const char *onnx, struct ab_input *a, struct ab_input *b)
{
	struct ab_load_options o = { 0 };
	struct ab_error err = { { 0 } };

	if (!tu_dir_exists(ONNX_DIR))
		cr_skip_test("%s absent", ONNX_DIR);
	ab_input_set_onnx_loader(ab_onnx_load);
	cr_assert_eq(ab_input_load(zoo, &o, a, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_input_load(onnx, &o, b, &err), 0, "%s", err.msg);
}

/* DenseNet-121 (k = 32, 224x224, f32; sizes C x H x W x 4 B).
 *  - pre-activation BatchNorm sites (before each dense layer's 1x1 conv,
 *    each transition and the head; 62): zoo MUL + ADD(+ReLU), ONNX
 *    BatchNormalization + Mul + Add + Relu; their tensor is C_in x H x W:
 *    block 1 C_in 64..224 step 32 (6) + transition 256 = 1120 ch at 56^2:
 *    1120*3136*4 = 14,049,280; block 2 128..480 (12) + 512 = 4160 ch at
 *    28^2: 13,045,760; block 3 256..992 (24) + 1024 = 16,000 ch at 14^2:
 *    12,544,000; block 4 512..992 (16) + 1024 = 13,056 ch at 7^2:
 *    2,558,976; total 42,198,016 = zoo MUL = zoo ADD = ONNX Mul/Add there.
 *  - post-conv BatchNorm sites (after the stem conv and every
 *    bottleneck 1x1 conv; 59): the zoo folds BN + ReLU into CONV_2D, ONNX
 *    has BatchNormalization, Mul, Add, Relu: stem 64*112^2*4 = 3,211,264;
 *    128 ch at 56^2 x 6 = 9,633,792, at 28^2 x 12 = 4,816,896, at 14^2 x
 *    24 = 2,408,448, at 7^2 x 16 = 401,408: total 20,471,808.
 *  - ONNX only: BatchNormalization and Relu at all 121 sites (42,198,016 +
 *    20,471,808 = 62,669,824 each) and Mul and Add at the 59 post-conv
 *    sites (20,471,808 each): 166,283,264.
 *  - zoo only: the stem's PADs 230*230*3*4 + 114*114*64*4 = 634,800 +
 *    3,326,976 = 3,961,776 and SOFTMAX 1000*4 = 4,000 (the Caffe2 graph
 *    ends at the classifier): 3,965,776.
 *  - paired, equal: Conv (121) = CONV_2D (120) + FULLY_CONNECTED (the
 *    classifier, a 1x1 Conv in ONNX); Concat = CONCATENATION; AveragePool,
 *    MaxPool; GlobalAveragePool = MEAN.
 *  Accounted difference: 166,283,264 - 3,965,776 = 162,317,488 = ONNX's sum
 *  321,084,320 - zoo's 158,766,832 (measured).  Bound 8,429,568 in both. */
Test(faithfulness, densenet121_zoo_vs_onnx)
{
	static const char *const zoo_types[] = { "CONV_2D", "FULLY_CONNECTED", "CONCATENATION",
		"AVERAGE_POOL_2D", "MAX_POOL_2D", "MEAN", "MUL", "ADD", "PAD", "SOFTMAX", NULL };
	static const char *const onnx_types[] = { "Conv", "Concat", "AveragePool", "MaxPool",
		"GlobalAveragePool", "Mul", "Add", "BatchNormalization", "Relu", NULL };
	struct ab_input a, b;

	load_pair("graphs/zoo/densenet121_f32.graph", ONNX_DIR "/densenet121_light.onnx", &a, &b);
	cr_expect_eq(ab_lower_bound(&a.problem, NULL), 8429568);
	cr_expect_eq(ab_lower_bound(&b.problem, NULL), 8429568);
	/* every operator type is in the accounting */
	cr_expect_eq(listed_bytes(&a, zoo_types), ab_sum_bytes(&a.problem));
	cr_expect_eq(listed_bytes(&b, onnx_types), ab_sum_bytes(&b.problem));
	cr_expect_eq(input_bytes(&a), input_bytes(&b));
	/* paired types */
	cr_expect_eq(type_bytes(&b, "Conv", NULL),
		     type_bytes(&a, "CONV_2D", NULL) + type_bytes(&a, "FULLY_CONNECTED", NULL));
	cr_expect_eq(type_bytes(&b, "Concat", NULL), type_bytes(&a, "CONCATENATION", NULL));
	cr_expect_eq(type_bytes(&b, "AveragePool", NULL), type_bytes(&a, "AVERAGE_POOL_2D", NULL));
	cr_expect_eq(type_bytes(&b, "MaxPool", NULL), type_bytes(&a, "MAX_POOL_2D", NULL));
	cr_expect_eq(type_bytes(&b, "GlobalAveragePool", NULL), type_bytes(&a, "MEAN", NULL));
	cr_expect_eq(type_bytes(&b, "Mul", not_after_conv_bn), 42198016);
	cr_expect_eq(type_bytes(&a, "MUL", NULL), 42198016);
	cr_expect_eq(type_bytes(&b, "Add", not_after_conv_bn), 42198016);
	cr_expect_eq(type_bytes(&a, "ADD", NULL), 42198016);
	/* in one format only */
	uint64_t onnx_only = type_bytes(&b, "BatchNormalization", NULL) + type_bytes(&b, "Relu", NULL) +
			     type_bytes(&b, "Mul", after_conv_bn) + type_bytes(&b, "Add", after_conv_bn);
	uint64_t zoo_only = type_bytes(&a, "PAD", NULL) + type_bytes(&a, "SOFTMAX", NULL);
	cr_expect_eq(type_bytes(&b, "BatchNormalization", NULL), 62669824);
	cr_expect_eq(type_bytes(&b, "Relu", NULL), 62669824);
	cr_expect_eq(type_bytes(&b, "Mul", after_conv_bn), 20471808);
	cr_expect_eq(type_bytes(&b, "Add", after_conv_bn), 20471808);
	cr_expect_eq(onnx_only, 166283264);
	cr_expect_eq(zoo_only, 3965776);
	/* accounted = measured */
	cr_expect_eq(ab_sum_bytes(&b.problem), 321084320);
	cr_expect_eq(ab_sum_bytes(&a.problem), 158766832);
	cr_expect_eq(ab_sum_bytes(&b.problem) - ab_sum_bytes(&a.problem), onnx_only - zoo_only);
	ab_input_free(&a);
	ab_input_free(&b);
}

/* ResNet-50 (224x224, f32).
 *  - ONNX only: BatchNormalization after each of the 53 convs (the zoo
 *    folds it into CONV_2D; each the size of its Conv's output, so their
 *    sum is ONNX's Conv sum, 44,455,936), the 49 Relu (fused into CONV_2D
 *    or ADD in the zoo: after the stem conv 64*112^2*4 = 3,211,264; after
 *    conv1 and conv2 of each bottleneck, at ONNX's resolutions, stage 2
 *    6 x 64*56^2*4 = 4,816,896, stage 3 1,605,632 + 401,408 + 6 x 401,408
 *    = 4,415,488, stage 4 802,816 + 200,704 + 10 x 200,704 = 3,010,560,
 *    stage 5 401,408 + 100,352 + 4 x 100,352 = 903,168; after the 16 Sums
 *    22,077,440 (= the zoo's ADD); total 38,434,816) and the Reshape before Gemm
 *    (2048*4 = 8,192; the zoo's MEAN gives [1,2048] directly).
 *  - zoo only: the stem's PADs, 3,961,776 (as for DenseNet).
 *  - paired, equal: Sum = ADD (16 residual adds), MaxPool = MAX_POOL_2D,
 *    AveragePool = MEAN, Gemm = FULLY_CONNECTED, Softmax = SOFTMAX.
 *  - paired, not equal: Conv vs CONV_2D.  The Caffe2 graph strides the 3x3
 *    conv of the first bottleneck of stages 3-5 (its 1x1 conv before runs
 *    at the input resolution), the zoo the 1x1 conv (as He et al.'s
 *    original), so ONNX's 1x1 output is 4x the zoo's there: 128 ch 56^2
 *    vs 28^2: 1,605,632 - 401,408 = 1,204,224; 256 ch 28^2 vs 14^2:
 *    802,816 - 200,704 = 602,112; 512 ch 14^2 vs 7^2: 401,408 - 100,352 =
 *    301,056; together 2,107,392.
 *  Accounted: 44,455,936 + 38,434,816 + 8,192 - 3,961,776 + 2,107,392 =
 *  81,044,560 = ONNX's 150,853,440 - zoo's 69,808,880 (measured).
 *  Bound 9,633,792 in both (the stem's 112x112x64 conv output and its
 *  neighbour at the peak step). */
Test(faithfulness, resnet50_zoo_vs_onnx)
{
	static const char *const zoo_types[] = { "CONV_2D", "ADD", "MAX_POOL_2D", "MEAN",
		"FULLY_CONNECTED", "SOFTMAX", "PAD", NULL };
	static const char *const onnx_types[] = { "Conv", "Sum", "MaxPool", "AveragePool", "Gemm",
		"Softmax", "BatchNormalization", "Relu", "Reshape", NULL };
	struct ab_input a, b;

	load_pair("graphs/zoo/resnet50_f32.graph", ONNX_DIR "/resnet50_light.onnx", &a, &b);
	cr_expect_eq(ab_lower_bound(&a.problem, NULL), 9633792);
	cr_expect_eq(ab_lower_bound(&b.problem, NULL), 9633792);
	cr_expect_eq(listed_bytes(&a, zoo_types), ab_sum_bytes(&a.problem));
	cr_expect_eq(listed_bytes(&b, onnx_types), ab_sum_bytes(&b.problem));
	cr_expect_eq(input_bytes(&a), input_bytes(&b));
	cr_expect_eq(type_bytes(&b, "Sum", NULL), type_bytes(&a, "ADD", NULL));
	cr_expect_eq(type_bytes(&b, "MaxPool", NULL), type_bytes(&a, "MAX_POOL_2D", NULL));
	cr_expect_eq(type_bytes(&b, "AveragePool", NULL), type_bytes(&a, "MEAN", NULL));
	cr_expect_eq(type_bytes(&b, "Gemm", NULL), type_bytes(&a, "FULLY_CONNECTED", NULL));
	cr_expect_eq(type_bytes(&b, "Softmax", NULL), type_bytes(&a, "SOFTMAX", NULL));
	cr_expect_eq(type_bytes(&b, "Conv", NULL) - type_bytes(&a, "CONV_2D", NULL), 2107392);
	cr_expect_eq(type_bytes(&b, "BatchNormalization", NULL), type_bytes(&b, "Conv", NULL));
	cr_expect_eq(type_bytes(&b, "BatchNormalization", NULL), 44455936);
	cr_expect_eq(type_bytes(&b, "Relu", NULL), 38434816);
	cr_expect_eq(type_bytes(&b, "Reshape", NULL), 8192);
	cr_expect_eq(type_bytes(&a, "PAD", NULL), 3961776);
	uint64_t onnx_only = type_bytes(&b, "BatchNormalization", NULL) + type_bytes(&b, "Relu", NULL) +
			     type_bytes(&b, "Reshape", NULL);
	uint64_t zoo_only = type_bytes(&a, "PAD", NULL);
	cr_expect_eq(ab_sum_bytes(&b.problem), 150853440);
	cr_expect_eq(ab_sum_bytes(&a.problem), 69808880);
	cr_expect_eq(ab_sum_bytes(&b.problem) - ab_sum_bytes(&a.problem),
		     onnx_only - zoo_only + 2107392);
	ab_input_free(&a);
	ab_input_free(&b);
}

/* Element count of the outputs of the operators of one type. */
static uint64_t type_elems(const struct ab_input *in, const char *type)
{
	uint64_t s = 0;

	for (size_t i = 0; i < in->graph.n_ops; i++)
		if (!strcmp(in->graph.ops[i].type, type))
			for (int k = 0; k < in->graph.ops[i].n_outputs; k++) {
				const struct ab_tensor *t = &in->graph.tensors[in->graph.ops[i].outputs[k]];
				uint64_t e = 1;

				cr_assert_geq(t->rank, 0);
				for (int d = 0; d < t->rank; d++)
					e *= (uint64_t)t->dims[d];
				s += e;
			}
	return s;
}

/* DTLN stage 1 (Westhausen and Meyer 2020: two LSTMs of 128 units on a
 * 257-bin magnitude frame, a dense layer and a sigmoid mask) is in
 * ../shared/models twice: TFLite Micro's int8 dtln_noise_suppression.tflite
 * (4 operators; the LSTM states are 4 variables of 128, h int8 and c
 * int16, updated in place) and breizhn/DTLN's f32 model_1.onnx (36 nodes;
 * the states come in as input_3 [1,2,128,2] and go out as an output).
 * Counted in elements (int8 against f32 makes bytes differ 4x anyway):
 *  - TFLite: input 257, LSTM outputs 2 x 128, FULLY_CONNECTED 257,
 *    LOGISTIC 257: 1,027.
 *  - ONNX, paired: inputs 257 + the state 512 (TFLite's variables); LSTM
 *    768 = Y 2 x 128 (TFLite's LSTM outputs) + Y_h and Y_c 4 x 128 (the
 *    state TFLite writes in its variables); MatMul 257 = FULLY_CONNECTED;
 *    Sigmoid 257 = LOGISTIC.
 *  - ONNX only: the state plumbing, Slice 4 x 128 = 512, Squeeze 4 x 128
 *    (state) + 4 x 128 (Y_h, Y_c) + 2 x 128 (Y) = 1,280, Unsqueeze 4 x 128
 *    + 4 x 128 + 2 x 256 = 1,536, Concat 2 x 256 + 512 = 1,024; the
 *    time-major layout of ONNX's LSTM, Transpose 257 + 3 x 128 = 641; the
 *    bias Add TFLite fuses into FULLY_CONNECTED, 257.  Together 5,250, and
 *    with the state (512 in, 512 out of the LSTMs) 6,274 = 7,301 - 1,027.
 *  Bounds (default lifetimes, align 1): ONNX at step 4, the last Slice
 *  unpacking the state: input_3 512 + the transposed frame 257 + the four
 *  slices 512 = 1,281 f32 = 5,124 B.  TFLite at the LOGISTIC: 257 + 257
 *  int8 with the variables (planned under default, live for the whole
 *  run) 2 x 128 int8 + 2 x 128 int16: 514 + 256 + 512 = 1,282 B. */
Test(faithfulness, dtln_stage1_tflite_vs_onnx)
{
	struct ab_load_options o = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input a, b;
	const char *tfl = AB_SHARED_DIR "/models/tflm/dtln_noise_suppression.tflite";

	if (!tu_dir_exists(ONNX_DIR) || access(tfl, R_OK))
		cr_skip_test("%s or %s absent", ONNX_DIR, tfl);
	ab_input_set_onnx_loader(ab_onnx_load);
	cr_assert_eq(ab_input_load(tfl, &o, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_input_load(ONNX_DIR "/dtln_model_1.onnx", &o, &b, &err), 0, "%s", err.msg);
	cr_expect_eq(type_elems(&a, "UNIDIRECTIONAL_SEQUENCE_LSTM"), 256);
	cr_expect_eq(type_elems(&a, "FULLY_CONNECTED") + type_elems(&a, "LOGISTIC"), 514);
	cr_expect_eq(type_elems(&b, "LSTM"), 256 + 512);
	cr_expect_eq(type_elems(&b, "MatMul"), type_elems(&a, "FULLY_CONNECTED"));
	cr_expect_eq(type_elems(&b, "Sigmoid"), type_elems(&a, "LOGISTIC"));
	cr_expect_eq(type_elems(&b, "Slice"), 512);
	cr_expect_eq(type_elems(&b, "Squeeze"), 1280);
	cr_expect_eq(type_elems(&b, "Unsqueeze"), 1536);
	cr_expect_eq(type_elems(&b, "Concat"), 1024);
	cr_expect_eq(type_elems(&b, "Transpose"), 641);
	cr_expect_eq(type_elems(&b, "Add"), 257);
	/* the sums: every operator type above, plus the inputs */
	cr_expect_eq(ab_sum_bytes(&b.problem), (uint64_t)(257 + 512 + 768 + 257 + 257 + 512 + 1280 +
							  1536 + 1024 + 641 + 257) * 4);
	cr_expect_eq(ab_sum_bytes(&b.problem), 7301 * 4);
	/* TFLite: 1,027 int8 activations and the 768 B of variables */
	cr_expect_eq(ab_sum_bytes(&a.problem), 1027 + 768);
	cr_expect_eq(ab_lower_bound(&b.problem, NULL), 5124);
	cr_expect_eq(ab_lower_bound(&a.problem, NULL), 1282);
	ab_input_free(&a);
	ab_input_free(&b);
}
