/*
 * Every tensor role under every lifetime rule (docs/semantics.md, "Roles and
 * lifetimes"), pinned by hand on one graph that has them all, read both as
 * a .graph file and as a .tflite model written by tests/lib/tflite_writer.c.
 * Then the structural check on both paths (and the CLI's exit 2), and the
 * execution check against a plan made from a deliberately wrong rule.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/graph_text.h"
#include "import/tflite.h"
#include "report/export.h"
#include "transform/reorder.h"
#include "testutil.h"
#include "tflite_writer.h"

/*
 * One tensor per combination (sizes are powers of two so that any sum names
 * its tensors):
 *   s   16  graph input and graph output (state passed through), read by op0
 *   x   32  graph input, read by op0
 *   u    8  graph input, never read
 *   a   64  written by op0, read twice by op1 (listed twice)
 *   d  128  written by op0, never read
 *   r  256  read by op1, never written (the runtime provides it)
 *   o  512  graph output written by op1, read by op2
 *   q 1024  graph output never written
 *   y 2048  graph output written by op2 (listed twice in the .tflite outputs)
 *   v 4096  var, read by op1
 *   z 8192  neither read nor written, no role: nothing to hold
 * op0: s, x -> a, d;  op1: a, a, r, v -> o;  op2: o -> y.
 */
static const char roles_graph[] =
	"graph roles\n"
	"tensor s input+output bytes 16\n"
	"tensor x input bytes 32\n"
	"tensor u input bytes 8\n"
	"tensor a intermediate bytes 64\n"
	"tensor d intermediate bytes 128\n"
	"tensor r intermediate bytes 256\n"
	"tensor o output bytes 512\n"
	"tensor q output bytes 1024\n"
	"tensor y output bytes 2048\n"
	"tensor v var bytes 4096\n"
	"tensor z intermediate bytes 8192\n"
	"op op0 ADD in=s,x out=a,d\n"
	"op op1 ADD in=a,a,r,v out=o flags=side_effect\n"
	"op op2 ADD in=o out=y\n";

#define N_ROLE_TENSORS 11
static const char *const names[N_ROLE_TENSORS] = {
	"s", "x", "u", "a", "d", "r", "o", "q", "y", "v", "z"
};

/* {first, last} per tensor in names[] order; {-1, -1} = not planned.
 * default: steps 0..2.  tflite: steps 0..2, inputs to the end, produced and
 * never read (d) to the end (its reference count never reaches zero), vars
 * in the persistent arena.  tflm: op k at step k + 1, steps 0..3, vars
 * outside the arena. */
static const int32_t want[AB_LIFETIMES_COUNT][N_ROLE_TENSORS][2] = {
	[AB_LIFETIMES_DEFAULT] = {
		{ 0, 2 }, { 0, 0 }, { 0, 0 }, { 0, 1 }, { 0, 0 }, { 0, 1 },
		{ 1, 2 }, { 0, 2 }, { 2, 2 }, { 0, 2 }, { -1, -1 } },
	[AB_LIFETIMES_TFLITE] = {
		{ 0, 2 }, { 0, 2 }, { 0, 2 }, { 0, 1 }, { 0, 2 }, { 0, 1 },
		{ 1, 2 }, { 0, 2 }, { 2, 2 }, { -1, -1 }, { -1, -1 } },
	[AB_LIFETIMES_TFLM] = {
		{ 0, 3 }, { 0, 1 }, { 0, 0 }, { 1, 2 }, { 1, 1 }, { 0, 2 },
		{ 2, 3 }, { 0, 3 }, { 3, 3 }, { -1, -1 }, { -1, -1 } },
};

/*
 * Lower bounds, by hand from the table:
 * default: step 0 s+x+u+a+d+r+q+v = 16+32+8+64+128+256+1024+4096 = 5624,
 *          step 1 s+a+r+o+q+v = 16+64+256+512+1024+4096 = 5968,
 *          step 2 s+o+q+y+v = 16+512+1024+2048+4096 = 7696  -> 7696;
 *          sum 16+32+8+64+128+256+512+1024+2048+4096 = 8184.
 * tflite:  step 0 s+x+u+a+d+r+q = 1528, step 1 adds o = 2040,
 *          step 2 s+x+u+d+o+q+y = 16+32+8+128+512+1024+2048 = 3768
 *          -> 3768; sum 8184 - 4096 = 4088.
 * tflm:    step 0 s+x+u+r+q = 1336, step 1 s+x+a+d+r+q = 1520,
 *          step 2 s+a+r+o+q = 1872, step 3 s+o+q+y = 3600 -> 3600.
 */
static const uint64_t want_bound[AB_LIFETIMES_COUNT] = { 7696, 3768, 3600 };
static const uint64_t want_sum[AB_LIFETIMES_COUNT] = { 8184, 4088, 4088 };

/* The same graph as a .tflite: UINT8 tensors of those byte counts. */
static uint8_t *roles_model(size_t *len)
{
	static const uint32_t bytes[N_ROLE_TENSORS] = {
		16, 32, 8, 64, 128, 256, 512, 1024, 2048, 4096, 8192
	};
	static struct tfw_tensor t[N_ROLE_TENSORS];
	static const struct tfw_op ops[] = {
		{ .opcode = 0, .n_in = 2, .in = { 0, 1 }, .n_out = 2, .out = { 3, 4 } },
		{ .opcode = 0, .n_in = 4, .in = { 3, 3, 5, 9 }, .n_out = 1, .out = { 6 } },
		{ .opcode = 0, .n_in = 1, .in = { 6 }, .n_out = 1, .out = { 8 } },
	};
	static const int32_t inputs[] = { 0, 1, 2 };
	static const int32_t outputs[] = { 0, 6, 7, 8, 8 };
	static const struct tfw_opcode codes[] = { { .builtin = 0 } }; /* ADD */
	static const struct tfw_buffer bufs[] = { { 0 } };
	static const struct tfw_subgraph sg = {
		.name = "main", .n_tensors = N_ROLE_TENSORS, .n_ops = 3,
		.n_inputs = 3, .n_outputs = 5, .tensors = t, .ops = ops,
		.inputs = inputs, .outputs = outputs,
	};
	static const struct tfw_model m = {
		.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 1,
		.opcodes = codes, .subgraphs = &sg, .buffers = bufs,
	};

	for (int i = 0; i < N_ROLE_TENSORS; i++)
		t[i] = (struct tfw_tensor){ .name = names[i], .type = TFW_UINT8,
					    .rank = 1, .shape = { (int32_t)bytes[i] },
					    .is_variable = i == 9 };
	return tfw_build_model(&m, len);
}

static void load_tflite(struct ab_graph *g)
{
	struct ab_error err = { { 0 } };
	size_t len;
	uint8_t *m = roles_model(&len);
	int rc = ab_tflite_parse(m, len, "roles.tflite", NULL, g, NULL, &err);

	free(m);
	cr_assert_eq(rc, 0, "import: %s", err.msg);
	cr_assert_eq(ab_graph_check(g, "roles.tflite", &err), 0, "check: %s",
		     err.msg);
}

static int find(const struct ab_graph *g, const char *name)
{
	for (size_t t = 0; t < g->n_tensors; t++)
		if (strcmp(g->tensors[t].name, name) == 0)
			return (int)t;
	cr_assert_fail("no tensor '%s'", name);
	return -1;
}

static void expect_ranges(const struct ab_graph *g, const char *what)
{
	for (int rule = 0; rule < AB_LIFETIMES_COUNT; rule++) {
		struct ab_problem_options o = { .lifetimes = rule };
		struct ab_problem p;
		struct ab_error err;

		cr_assert_eq(ab_problem_from_graph(g, &o, &p, &err), 0, "%s",
			     err.msg);
		for (int i = 0; i < N_ROLE_TENSORS; i++) {
			int b = p.tensor_buffer[find(g, names[i])];
			int32_t f = b < 0 ? -1 : p.buf[b].first;
			int32_t l = b < 0 ? -1 : p.buf[b].last;

			cr_expect(f == want[rule][i][0] && l == want[rule][i][1],
				  "%s, %s: '%s' live [%d, %d], expected [%d, %d]",
				  what, ab_lifetime_rule_name(rule), names[i],
				  f, l, want[rule][i][0], want[rule][i][1]);
		}
		cr_expect_eq(ab_lower_bound(&p, NULL), want_bound[rule],
			     "%s, %s: lower bound %" PRIu64 ", expected %" PRIu64,
			     what, ab_lifetime_rule_name(rule),
			     ab_lower_bound(&p, NULL), want_bound[rule]);
		cr_expect_eq(ab_sum_bytes(&p), want_sum[rule], "%s, %s: sum",
			     what, ab_lifetime_rule_name(rule));
		ab_problem_free(&p);
	}
}

Test(roles, graph_file_every_rule)
{
	struct ab_graph g;

	tu_graph(roles_graph, &g);
	expect_ranges(&g, "roles.graph");
	ab_graph_free(&g);
}

Test(roles, tflite_every_rule)
{
	struct ab_graph g;
	int s;

	load_tflite(&g);
	s = find(&g, "s");
	cr_expect_eq(ab_tensor_roles(&g.tensors[s]),
		     AB_ROLE_GRAPH_INPUT | AB_ROLE_GRAPH_OUTPUT,
		     "'s' keeps both roles");
	cr_expect_eq(g.tensors[find(&g, "r")].kind, AB_KIND_INTERMEDIATE);
	cr_expect_eq(g.tensors[find(&g, "q")].kind, AB_KIND_OUTPUT);
	expect_ranges(&g, "roles.tflite");
	ab_graph_free(&g);
}

/* The text form keeps the roles: write, read back, same ranges. */
Test(roles, text_round_trip)
{
	struct ab_graph g, g2;
	char *text;

	load_tflite(&g);
	text = ab_graph_to_text(&g);
	cr_assert(text);
	cr_expect(strstr(text, "tensor s input+output u8 16"), "%s", text);
	tu_graph(text, &g2);
	expect_ranges(&g2, "round trip");
	free(text);
	ab_graph_free(&g);
	ab_graph_free(&g2);
}

/* Every fast planner's plan passes both checks under every rule. */
Test(roles, plans_pass_both_checks)
{
	struct ab_graph g;

	tu_graph(roles_graph, &g);
	for (int rule = 0; rule < AB_LIFETIMES_COUNT; rule++) {
		struct ab_problem p;
		struct ab_problem_options o = { .lifetimes = rule };
		struct ab_error err;

		cr_assert_eq(ab_problem_from_graph(&g, &o, &p, &err), 0);
		for (size_t i = 0; i < ab_planner_count(); i++) {
			const struct ab_planner *pl = ab_planner_at(i);
			struct ab_plan plan;
			struct ab_check_result res;

			if (pl->cost != AB_COST_FAST)
				continue;
			tu_plan(pl->name, &p, 1, &plan);
			cr_expect_eq(ab_validate_plan(&p, &plan, 1, &res),
				     AB_PLAN_VALID, "%s %s", pl->name,
				     ab_lifetime_rule_name(rule));
			cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL, NULL,
						     &res),
				     AB_PLAN_VALID, "%s %s: %s", pl->name,
				     ab_lifetime_rule_name(rule),
				     ab_verdict_name(res.verdict));
			cr_expect_geq(plan.peak, want_bound[rule]);
			ab_plan_free(&plan);
		}
		ab_problem_free(&p);
	}
	ab_graph_free(&g);
}

/*
 * The mutation test: the problem is built with a deliberately wrong rule
 * (AB_MUTATE_PASSTHROUGH_SHORT ends the pass-through 'p' at its last read,
 * step 0).  Then 'b' (written at op1) may take p's bytes: linear places
 * buffers one after the other, so place them by hand instead:
 *   p 64 [0, 0] (wrongly), a 64 [0, 1], b 64 [1, 1]
 *   p at 0, a at 64, b at 0: no two buffers live together overlap, so the
 *   geometric check passes, but op1 overwrites p, which the graph says must
 *   hold its contents at the end: the execution check names both.
 */
Test(roles, execution_check_catches_shortened_passthrough)
{
	static const char text[] =
		"graph pass\n"
		"tensor p input+output bytes 64\n"
		"tensor a intermediate bytes 64\n"
		"tensor b output bytes 64\n"
		"op op0 ADD in=p out=a\n"
		"op op1 ADD in=a out=b\n";
	struct ab_problem_options o = { .mutate = AB_MUTATE_PASSTHROUGH_SHORT };
	struct ab_graph g;
	struct ab_problem p, good;
	struct ab_plan plan;
	struct ab_check_result res;
	struct ab_error err;
	size_t ip, ia, ib;

	tu_graph(text, &g);
	cr_assert_eq(ab_problem_from_graph(&g, &o, &p, &err), 0);
	ip = tu_buf(&g, &p, "p");
	ia = tu_buf(&g, &p, "a");
	ib = tu_buf(&g, &p, "b");
	cr_assert_eq(p.buf[ip].last, 0, "the mutation ends p at step 0");
	cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
	plan.offset[ip] = 0;
	plan.offset[ia] = 64;
	plan.offset[ib] = 0;
	ab_plan_finish_single(&plan, &p);
	cr_expect_eq(plan.peak, 128);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, &res), AB_PLAN_VALID,
		     "the geometric check shares the wrong lifetimes");
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL, NULL, &res),
		     AB_PLAN_STOMP);
	cr_expect_eq(res.tensor_a, find(&g, "p"), "victim %d", res.tensor_a);
	cr_expect_eq(res.tensor_b, find(&g, "b"), "culprit %d", res.tensor_b);
	/* Without the mutation p lives [0, 1]: at step 1 p, a and b are all
	 * live, 64 + 64 + 64 = 192 bytes, and the plan overlaps. */
	o.mutate = AB_MUTATE_NONE;
	cr_assert_eq(ab_problem_from_graph(&g, &o, &good, &err), 0);
	cr_expect_eq(good.buf[tu_buf(&g, &good, "p")].last, 1);
	cr_expect_eq(ab_lower_bound(&good, NULL), 192);
	cr_expect_eq(ab_validate_plan(&good, &plan, 1, &res), AB_PLAN_OVERLAP);
	ab_plan_free(&plan);
	ab_problem_free(&p);
	ab_problem_free(&good);
	ab_graph_free(&g);
}

/* ------------------------------------------------- malformed structure */

/* A two-op .tflite whose op lists are given: tensors t0 (graph input),
 * t1, t2 (graph output), 4 bytes each. */
static uint8_t *two_ops(const int32_t in0[2], const int32_t out0[1],
			const int32_t in1[1], const int32_t out1[1],
			size_t *len)
{
	static struct tfw_tensor t[3];
	struct tfw_op ops[2] = {
		{ .opcode = 0, .n_in = 2, .in = { in0[0], in0[1] }, .n_out = 1,
		  .out = { out0[0] } },
		{ .opcode = 0, .n_in = 1, .in = { in1[0] }, .n_out = 1,
		  .out = { out1[0] } },
	};
	static const int32_t inputs[] = { 0 };
	static const int32_t outputs[] = { 2 };
	static const struct tfw_opcode codes[] = { { .builtin = 0 } };
	static const struct tfw_buffer bufs[] = { { 0 } };
	struct tfw_subgraph sg = {
		.name = "main", .n_tensors = 3, .n_ops = 2, .n_inputs = 1,
		.n_outputs = 1, .tensors = t, .ops = ops, .inputs = inputs,
		.outputs = outputs,
	};
	struct tfw_model m = {
		.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 1,
		.opcodes = codes, .subgraphs = &sg, .buffers = bufs,
	};
	static const char *const tn[] = { "t0", "t1", "t2" };

	for (int i = 0; i < 3; i++)
		t[i] = (struct tfw_tensor){ .name = tn[i], .type = TFW_UINT8,
					    .rank = 1, .shape = { 4 } };
	return tfw_build_model(&m, len);
}

struct malformed {
	const char *what;
	int32_t in0[2], out0[1], in1[1], out1[1];
	const char *graph;  /* the same as .graph text */
	const char *msg;    /* expected in both messages */
};

static const struct malformed bad[] = {
	{ "forward reference", { 0, 1 }, { 2 }, { 2 }, { 1 },
	  "graph m\ntensor t0 input u8 4\ntensor t1 intermediate u8 4\n"
	  "tensor t2 output u8 4\nop op0 ADD in=t0,t1 out=t2\n"
	  "op op1 ADD in=t2 out=t1\n",
	  "op 'op0': input 't1' is read before any op writes it (op 'op1' writes it later" },
	{ "cycle", { 0, 1 }, { 1 }, { 1 }, { 2 },
	  "graph m\ntensor t0 input u8 4\ntensor t1 intermediate u8 4\n"
	  "tensor t2 output u8 4\nop op0 ADD in=t0,t1 out=t1\n"
	  "op op1 ADD in=t1 out=t2\n",
	  "op 'op0': input 't1' is read before any op writes it (op 'op0' writes it itself: a cycle)" },
	{ "two writers", { 0, 0 }, { 2 }, { 0 }, { 2 },
	  "graph m\ntensor t0 input u8 4\ntensor t1 intermediate u8 4\n"
	  "tensor t2 output u8 4\nop op0 ADD in=t0,t0 out=t2\n"
	  "op op1 ADD in=t0 out=t2\n",
	  "op 'op1': output 't2' is already written by op 'op0'" },
	{ "write to an input", { 0, 0 }, { 1 }, { 1 }, { 0 },
	  "graph m\ntensor t0 input u8 4\ntensor t1 intermediate u8 4\n"
	  "tensor t2 output u8 4\nop op0 ADD in=t0,t0 out=t1\n"
	  "op op1 ADD in=t1 out=t0\n",
	  "op 'op1': output 't0' is a graph input tensor" },
};

Test(roles, malformed_refused_on_both_paths)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ab_graph g;
		struct ab_error err = { { 0 } };
		size_t len;
		uint8_t *m = two_ops(bad[i].in0, bad[i].out0, bad[i].in1,
				     bad[i].out1, &len);
		int rc = ab_tflite_parse(m, len, "m.tflite", NULL, &g, NULL, &err);

		free(m);
		cr_assert_eq(rc, 0, "%s: import: %s", bad[i].what, err.msg);
		cr_expect_lt(ab_graph_check(&g, "m.tflite", &err), 0, "%s: accepted",
			     bad[i].what);
		cr_expect(strstr(err.msg, "m.tflite") && strstr(err.msg, bad[i].msg),
			  "%s: .tflite message '%s' lacks '%s'", bad[i].what,
			  err.msg, bad[i].msg);
		ab_graph_free(&g);
		err.msg[0] = 0;
		cr_expect_lt(ab_graph_parse(bad[i].graph, strlen(bad[i].graph),
					    "m.graph", &g, &err), 0);
		cr_expect(strstr(err.msg, "m.graph") && strstr(err.msg, bad[i].msg),
			  "%s: .graph message '%s' lacks '%s'", bad[i].what,
			  err.msg, bad[i].msg);
	}
}

/* The CLI refuses the malformed .tflite with exit 2 in every command that
 * loads a model, and never reports a planner's plan as invalid. */
Test(roles, cli_exit_2)
{
	static const char *const cmds[] = {
		"plan %s --planner linear", "stats %s", "bench %s --out %s.csv",
		"explain %s",
	};
	char dir[256], path[400], cmd[1400];
	size_t len;
	uint8_t *m = two_ops(bad[0].in0, bad[0].out0, bad[0].in1, bad[0].out1,
			     &len);
	FILE *f;

	tu_tmpdir_make(dir, sizeof(dir), "roles");
	snprintf(path, sizeof(path), "%s/fwd.tflite", dir);
	f = fopen(path, "wb");
	cr_assert(f && fwrite(m, 1, len, f) == len && fclose(f) == 0);
	free(m);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char sub[600], *out = NULL;
		int rc;

		snprintf(sub, sizeof(sub), cmds[i], path, path);
		snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench %s 2>&1", sub);
		rc = tu_run(cmd, &out);
		cr_expect_eq(rc, 2, "%s: exit %d\n%s", sub, rc, out);
		cr_expect(out && strstr(out, "fwd.tflite") &&
			  strstr(out, "op 'op0': input 't1' is read before"),
			  "%s: %s", sub, out);
		cr_expect(out && !strstr(out, "INVALID"), "%s: %s", sub, out);
		free(out);
	}
	snprintf(path, sizeof(path), "%s/fwd.tflite.csv", dir);
	cr_expect(!tu_slurp(path, &len), "nothing written by a refused bench");
	tu_tmpdir_remove(dir);
}

/*
 * export on the roles model: every fast planner's offsets, as written in the
 * exported file, checked against the tflm ranges of the hand table above
 * (an independent check: it reads neither the lifetime code nor the
 * execution check).  Sizes are rounded to 16 as TFLite Micro does: s and u
 * take 16 bytes, x 32, the rest their own (multiples of 16).
 */
Test(roles, export_offsets_respect_tflm_ranges)
{
	static const uint64_t rounded[N_ROLE_TENSORS] = {
		16, 32, 16, 64, 128, 256, 512, 1024, 2048, 4096, 8192
	};
	const int32_t (*r)[2] = want[AB_LIFETIMES_TFLM];
	char dir[256], in[400], out[400];
	size_t len;
	uint8_t *m = roles_model(&len);
	FILE *f;

	tu_tmpdir_make(dir, sizeof(dir), "roles");
	snprintf(in, sizeof(in), "%s/roles.tflite", dir);
	snprintf(out, sizeof(out), "%s/roles.out.tflite", dir);
	f = fopen(in, "wb");
	cr_assert(f && fwrite(m, 1, len, f) == len && fclose(f) == 0);
	free(m);
	for (size_t k = 0; k < ab_planner_count(); k++) {
		struct ab_export_options o = { .planner = ab_planner_at(k) };
		struct ab_export_report rep;
		struct ab_error err;
		struct ab_graph g;
		struct ab_tflite_info info;
		int32_t off[N_ROLE_TENSORS];

		if (o.planner->cost != AB_COST_FAST)
			continue;
		cr_assert_eq(ab_export_model(in, out, &o, &rep, &err), 0,
			     "%s: %s", o.planner->name, err.msg);
		/* tflm lower bound with sizes rounded: step 3 s+o+q+y =
		 * 16+512+1024+2048 = 3600, as before (all multiples of 16);
		 * step 0 gains 8 for u: 1344 < 3600. */
		cr_expect_eq(rep.lower_bound_bytes, 3600, "%s", o.planner->name);
		cr_assert_eq(ab_tflite_load(out, NULL, &g, &info, &err), 0, "%s",
			     err.msg);
		cr_assert(info.has_offline_plan);
		for (int i = 0; i < N_ROLE_TENSORS; i++)
			off[i] = info.offline_offsets[find(&g, names[i])];
		for (int i = 0; i < N_ROLE_TENSORS; i++) {
			cr_expect_eq(off[i] >= 0, r[i][0] >= 0,
				     "%s: '%s' offset %d", o.planner->name,
				     names[i], off[i]);
			for (int j = i + 1; j < N_ROLE_TENSORS; j++) {
				bool live = r[i][0] >= 0 && r[j][0] >= 0 &&
					    r[i][0] <= r[j][1] && r[j][0] <= r[i][1];
				bool meet = off[i] >= 0 && off[j] >= 0 &&
					    (uint64_t)off[i] < off[j] + rounded[j] &&
					    (uint64_t)off[j] < off[i] + rounded[i];

				cr_expect(!(live && meet), "%s: '%s' at %d and '%s' at %d overlap while both are live",
					  o.planner->name, names[i], off[i],
					  names[j], off[j]);
			}
		}
		ab_graph_free(&g);
		ab_tflite_info_free(&info);
		remove(out);
	}
	remove(in);
	tu_tmpdir_remove(dir);
}

/* A wake-word-like model: subgraph 0 is cond, x -> IF -> y, calling
 * subgraphs 1 and 2 (x -> ADD -> y each).  The branches are planned inside
 * the IF (docs/semantics.md, "Control flow": IF, then's ENTER, ADD, RETURN,
 * else's ENTER, ADD, RETURN: 7 operators); an IF whose options do not name
 * its branches is refused by name; a branch asked for by --subgraph plans
 * alone, as TFLite plans it in its own arena. */
Test(roles, control_flow_planned_or_refused_by_name)
{
	static const struct tfw_tensor t0[] = {
		{ .name = "cond", .type = TFW_UINT8, .rank = 1, .shape = { 1 } },
		{ .name = "x", .type = TFW_UINT8, .rank = 1, .shape = { 64 } },
		{ .name = "y", .type = TFW_UINT8, .rank = 1, .shape = { 64 } },
	};
	static const struct tfw_tensor t1[] = {
		{ .name = "bx", .type = TFW_UINT8, .rank = 1, .shape = { 64 } },
		{ .name = "by", .type = TFW_UINT8, .rank = 1, .shape = { 64 } },
	};
	static struct tfw_op if_op = { .opcode = 1, .n_in = 2,
		.in = { 0, 1 }, .n_out = 1, .out = { 2 } };
	static const struct tfw_op add = { .opcode = 0, .n_in = 1,
		.in = { 0 }, .n_out = 1, .out = { 1 } };
	static const int32_t in0[] = { 0, 1 }, out0[] = { 2 };
	static const int32_t in1[] = { 0 }, out1[] = { 1 };
	static const struct tfw_subgraph sg[3] = {
		{ .name = "main", .n_tensors = 3, .n_ops = 1, .n_inputs = 2,
		  .n_outputs = 1, .tensors = t0, .ops = &if_op, .inputs = in0,
		  .outputs = out0 },
		{ .name = "then", .n_tensors = 2, .n_ops = 1, .n_inputs = 1,
		  .n_outputs = 1, .tensors = t1, .ops = &add, .inputs = in1,
		  .outputs = out1 },
		{ .name = "else", .n_tensors = 2, .n_ops = 1, .n_inputs = 1,
		  .n_outputs = 1, .tensors = t1, .ops = &add, .inputs = in1,
		  .outputs = out1 },
	};
	static const struct tfw_opcode codes[] = { { .builtin = 0 },
						   { .builtin = 118 } };
	static const struct tfw_buffer bufs[] = { { 0 } };
	static const struct tfw_model m = {
		.version = 3, .n_opcodes = 2, .n_subgraphs = 3, .n_buffers = 1,
		.opcodes = codes, .subgraphs = sg, .buffers = bufs,
	};
	struct ab_tflite_options o = { .subgraph = 0 };
	struct ab_graph g;
	struct ab_error err = { { 0 } };
	size_t len;
	uint8_t *bytes = tfw_build_model(&m, &len);

	cr_expect_eq(ab_tflite_parse(bytes, len, "ww.tflite", &o, &g, NULL, &err),
		     -EBADMSG);
	cr_expect(strstr(err.msg, "ww.tflite: subgraph 0 operator 0: IF has options of union type 0 (expected 92"),
		  "%s", err.msg);
	free(bytes);
	if_op.options_type = 92;
	if_op.n_sub = 2;
	if_op.sub[0] = 1;
	if_op.sub[1] = 2;
	bytes = tfw_build_model(&m, &len);
	cr_assert_eq(ab_tflite_parse(bytes, len, "ww.tflite", &o, &g, NULL, &err),
		     0, "%s", err.msg);
	cr_expect_eq(g.n_ops, 7);
	cr_expect_eq(g.n_tensors, 7);
	ab_graph_free(&g);
	o.subgraph = 1;
	cr_assert_eq(ab_tflite_parse(bytes, len, "ww.tflite", &o, &g, NULL, &err),
		     0, "%s", err.msg);
	cr_expect_eq(g.n_ops, 1);
	ab_graph_free(&g);
	{
		/* scale takes --subgraph as plan does: the branch alone (its row
		 * named ww_sg1) is bx and by, 64 B each, both live at its ADD, so
		 * linear's row has 2 buffers, 2 live, scale's alignment 1, peak
		 * 128 and bound 128 */
		char dir[256], path[400], cmd[1400], *out = NULL;
		const char *row = "ww_sg1,2,2,linear,1,";
		FILE *f;

		tu_tmpdir_make(dir, sizeof(dir), "roles");
		snprintf(path, sizeof(path), "%s/ww.tflite", dir);
		f = fopen(path, "wb");
		cr_assert(f && fwrite(bytes, 1, len, f) == len && !fclose(f));
		snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench scale %s --subgraph 1 --planner linear "
			 "--benchmark_repetitions=1 --benchmark_min_time=0.0001 2>&1", path);
		cr_expect_eq(tu_run(cmd, &out), 0, "%s", out);
		cr_expect(strncmp(out, row, strlen(row)) == 0 && strstr(out, ",128,128,ok,1\n"),
			  "%s", out);
		free(out);
		tu_tmpdir_remove(dir);
	}
	free(bytes);
}

/* The reordering's own memory model follows the same table: its peak for
 * the file's order is the lower bound above, under every rule. */
Test(roles, reorder_model_agrees)
{
	const int32_t order[3] = { 0, 1, 2 };
	struct ab_graph g;

	tu_graph(roles_graph, &g);
	for (int rule = 0; rule < AB_LIFETIMES_COUNT; rule++) {
		struct ab_problem_options o = { .lifetimes = rule };
		struct ab_error err;
		uint64_t peak = 0;

		cr_assert_eq(ab_reorder_model_peak(&g, &o, order, &peak, &err), 0,
			     "%s", err.msg);
		cr_expect_eq(peak, want_bound[rule], "%s: %" PRIu64,
			     ab_lifetime_rule_name(rule), peak);
	}
	ab_graph_free(&g);
}

/* One default per input kind: for a .tflite, TFLite's rule and its 64-byte
 * alignment in every command, printed in the summaries and recorded in the
 * CSV's options column.  On the roles model the tflite bound is 3768 (the
 * table above), the default rule's 7696. */
Test(roles, tflite_default_in_every_command)
{
	static const char *const cmds[] = {
		"plan %s --planner linear", "stats %s",
		"bench %s --planners linear --no-timing --quiet --out %s.csv",
		"explain %s",
	};
	char dir[256], path[400], cmd[1400];
	size_t len;
	uint8_t *m = roles_model(&len);
	FILE *f;

	tu_tmpdir_make(dir, sizeof(dir), "roles");
	snprintf(path, sizeof(path), "%s/roles.tflite", dir);
	f = fopen(path, "wb");
	cr_assert(f && fwrite(m, 1, len, f) == len && fclose(f) == 0);
	free(m);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char sub[900], *out = NULL, *csv;
		int rc;

		snprintf(sub, sizeof(sub), cmds[i], path, path);
		snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench %s 2>&1", sub);
		rc = tu_run(cmd, &out);
		cr_expect_eq(rc, 0, "%s: exit %d\n%s", sub, rc, out);
		if (i == 2) {
			snprintf(cmd, sizeof(cmd), "%s.csv", path);
			csv = tu_slurp(cmd, &len);
			cr_assert(csv, "%s: no CSV", sub);
			cr_expect(strstr(csv, ",3768,") && strstr(csv, "lifetimes=tflite") &&
				  strstr(csv, ",linear,fast,64,"),
				  "%s: %s", sub, csv);
			free(csv);
		} else {
			cr_expect(out && (strstr(out, "3768") || strstr(out, "3,768")),
				  "%s: lower bound 3768 expected\n%s", sub, out);
			cr_expect(out && !strstr(out, "7696") && !strstr(out, "7,696"),
				  "%s: the default rule's bound\n%s", sub, out);
			if (i != 1) /* stats is a CSV of graph statistics */
				cr_expect(out && strstr(out, "tflite") && strstr(out, "64"),
					  "%s: the rule and alignment are printed\n%s", sub, out);
		}
		free(out);
	}
	/* --lifetimes default says otherwise. */
	snprintf(cmd, sizeof(cmd), AB_BUILD_DIR "/arenabench plan %s --planner linear --lifetimes default 2>&1", path);
	{
		char *out = NULL;

		cr_expect_eq(tu_run(cmd, &out), 0);
		cr_expect(out && strstr(out, "7696"), "%s", out);
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "%s.csv", path);
	remove(cmd);
	remove(path);
	tu_tmpdir_remove(dir);
}
