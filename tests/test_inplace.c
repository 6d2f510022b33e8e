/*
 * In-place reuse (--inplace, docs/semantics.md "In-place reuse"): the
 * conditions, each refused on its own; a chain collapsing into one buffer
 * with bounds and offsets computed by hand; the execution check modelling
 * the overwrite and catching deliberately wrong aliasings; and, on every
 * zoo graph, both checks agreeing on in-place plans.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "testutil.h"

#define KiB 1024u

/*
 * The chain in -> conv -> a -> relu -> b -> add(+w) -> c -> conv -> d ->
 * conv -> out; relu and add are elementwise, a, b, c are 16 KiB.
 * Default rule, no in-place: in [0,0] 4K, a [0,1] 16K, b [1,2] 16K,
 * c [2,3] 16K, d [3,4] 8K, out [4,4] 4K.
 * In place: b takes a's buffer (a last read at 1, same size), c takes b's,
 * so a, b, c are one 16 KiB buffer on [0,1] u [1,2] u [2,3] = [0,3].
 */
static const char *const chain =
	"graph inplace_chain\n"
	"tensor in  input        bytes 4096\n"
	"tensor a   intermediate bytes 16384\n"
	"tensor b   intermediate bytes 16384\n"
	"tensor w   const        bytes 64\n"
	"tensor c   intermediate bytes 16384\n"
	"tensor d   intermediate bytes 8192\n"
	"tensor out output       bytes 4096\n"
	"op conv0 CONV_2D in=in  out=a\n"
	"op relu  RELU    in=a   out=b flags=elementwise\n"
	"op add   ADD     in=b,w out=c flags=elementwise\n"
	"op conv1 CONV_2D in=c   out=d\n"
	"op conv2 CONV_2D in=d   out=out\n";

static void problem(const char *text, enum ab_lifetime_rule rule,
		    bool inplace, uint32_t round_to, struct ab_graph *g,
		    struct ab_problem *p)
{
	struct ab_problem_options o = { .lifetimes = rule,
					.round_to = round_to,
					.inplace = inplace };
	struct ab_error err = { { 0 } };

	tu_graph(text, g);
	if (ab_problem_from_graph(g, &o, p, &err))
		cr_assert_fail("no problem from graph: %s", err.msg);
}

static int tensor_index(const struct ab_graph *g, const char *name)
{
	for (size_t t = 0; t < g->n_tensors; t++)
		if (!strcmp(g->tensors[t].name, name))
			return (int)t;
	cr_assert_fail("no tensor %s", name);
	return -1;
}

/* The buffer tensor `name` lives in (any tensor of a shared buffer). */
static int32_t buffer_of(const struct ab_graph *g, const struct ab_problem *p,
			 const char *name)
{
	cr_assert_not_null(p->tensor_buffer);
	cr_assert_eq(p->n_tensors, g->n_tensors);
	return p->tensor_buffer[tensor_index(g, name)];
}

static void expect_range(const struct ab_graph *g, const struct ab_problem *p,
			 const char *name, int32_t first, int32_t last)
{
	int32_t i = buffer_of(g, p, name);

	cr_assert_geq(i, 0, "%s has no buffer", name);
	cr_expect_eq(p->buf[i].first, first, "%s first: got %d, want %d", name,
		     p->buf[i].first, first);
	cr_expect_eq(p->buf[i].last, last, "%s last: got %d, want %d", name,
		     p->buf[i].last, last);
}

static void free_all(struct ab_graph *g, struct ab_problem *p)
{
	ab_problem_free(p);
	ab_graph_free(g);
}

/* ------------------------------------------------------------ the map */

Test(inplace, without_the_option_every_tensor_has_its_own_buffer)
{
	struct ab_graph g;
	struct ab_problem p;

	problem(chain, AB_LIFETIMES_DEFAULT, false, 0, &g, &p);
	cr_assert_eq(p.n, 6);
	cr_expect_eq(p.n_aliased, 0);
	/* buffers in tensor order; the const w is not in the arena */
	cr_expect_eq(buffer_of(&g, &p, "in"), 0);
	cr_expect_eq(buffer_of(&g, &p, "a"), 1);
	cr_expect_eq(buffer_of(&g, &p, "b"), 2);
	cr_expect_eq(buffer_of(&g, &p, "w"), -1);
	cr_expect_eq(buffer_of(&g, &p, "c"), 3);
	cr_expect_eq(buffer_of(&g, &p, "d"), 4);
	cr_expect_eq(buffer_of(&g, &p, "out"), 5);
	for (size_t i = 0; i < p.n; i++)
		cr_expect_eq(p.tensor_buffer[p.tensor[i]], (int32_t)i);
	/* steps 0..4: 4+16, 16+16, 16+16, 16+8, 8+4 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 32 * KiB);
	cr_expect_eq(ab_sum_bytes(&p), 64 * KiB);
	free_all(&g, &p);
}

Test(inplace, a_chain_collapses_into_one_buffer)
{
	struct ab_graph g;
	struct ab_problem p;
	int32_t at;

	problem(chain, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	cr_assert_eq(p.n, 4, "in, a=b=c, d, out");
	cr_expect_eq(p.n_aliased, 2);
	cr_expect_eq(buffer_of(&g, &p, "a"), 1);
	cr_expect_eq(buffer_of(&g, &p, "b"), 1);
	cr_expect_eq(buffer_of(&g, &p, "c"), 1);
	cr_expect_eq(p.tensor[1], tensor_index(&g, "a"), "the root names it");
	cr_expect_eq(p.id[1], tensor_index(&g, "a"));
	cr_expect_eq(p.buf[1].size, 16 * KiB);
	expect_range(&g, &p, "in", 0, 0);
	expect_range(&g, &p, "b", 0, 3);
	expect_range(&g, &p, "d", 3, 4);
	expect_range(&g, &p, "out", 4, 4);
	/* steps 0..4: 4+16, 16, 16, 16+8, 8+4 KiB */
	cr_expect_eq(ab_lower_bound(&p, &at), 24 * KiB);
	cr_expect_eq(at, 3);
	cr_expect_eq(ab_sum_bytes(&p), 32 * KiB);
	free_all(&g, &p);
}

Test(inplace, the_tflm_rule_shifts_the_shared_range)
{
	struct ab_graph g;
	struct ab_problem p;

	/* op k at step k+1; in is written before op 0 and read by it: [0,1];
	 * a [1,2], b [2,3], c [3,4] -> one buffer [1,4]. */
	problem(chain, AB_LIFETIMES_TFLM, true, 0, &g, &p);
	cr_assert_eq(p.n, 4);
	expect_range(&g, &p, "in", 0, 1);
	expect_range(&g, &p, "c", 1, 4);
	expect_range(&g, &p, "d", 4, 5);
	/* steps 0..5: 4, 4+16, 16, 16, 16+8, 8+4 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 24 * KiB);
	free_all(&g, &p);
	problem(chain, AB_LIFETIMES_TFLM, false, 0, &g, &p);
	/* steps 2 and 3: 16+16 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 32 * KiB);
	free_all(&g, &p);
}

Test(inplace, the_tflite_rule_keeps_the_graph_input_apart)
{
	struct ab_graph g;
	struct ab_problem p;

	/* in lives to the end [0,4] and is never a candidate. */
	problem(chain, AB_LIFETIMES_TFLITE, true, 0, &g, &p);
	cr_assert_eq(p.n, 4);
	expect_range(&g, &p, "in", 0, 4);
	expect_range(&g, &p, "a", 0, 3);
	/* step 3: in 4 + abc 16 + d 8 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 28 * KiB);
	free_all(&g, &p);
	problem(chain, AB_LIFETIMES_TFLITE, false, 0, &g, &p);
	/* steps 1 and 2: in 4 + 16 + 16 KiB */
	cr_expect_eq(ab_lower_bound(&p, NULL), 36 * KiB);
	free_all(&g, &p);
}

/* ---------------------------------------------------- exact plans */

static void expect_offsets(const char *planner, const struct ab_graph *g,
			   const struct ab_problem *p,
			   const char *const *names, const uint64_t *want,
			   size_t n, uint64_t peak)
{
	struct ab_plan plan;

	tu_plan(planner, p, 1, &plan);
	for (size_t k = 0; k < n; k++) {
		int32_t i = buffer_of(g, p, names[k]);

		cr_expect_eq(plan.offset[i], want[k], "%s: %s at %llu, want %llu",
			     planner, names[k],
			     (unsigned long long)plan.offset[i],
			     (unsigned long long)want[k]);
	}
	cr_expect_eq(plan.peak, peak, "%s peak %llu, want %llu", planner,
		     (unsigned long long)plan.peak, (unsigned long long)peak);
	cr_expect_eq(ab_validate_plan(p, &plan, 1, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_execute_plan(g, p, &plan, NULL,
				     NULL, NULL),
		     AB_PLAN_VALID, "%s", planner);
	ab_plan_free(&plan);
}

Test(inplace, linear_and_size_first_fit_offsets_by_hand)
{
	static const char *const names[] = { "in", "a", "b", "c", "d", "out" };
	struct ab_graph g;
	struct ab_problem p;

	/* linear, no in-place, first-use order in a b c d out:
	 * 0, 4K, 4K+16K, 36K, 52K, 60K; peak 64K. */
	problem(chain, AB_LIFETIMES_DEFAULT, false, 0, &g, &p);
	expect_offsets("linear", &g, &p, names,
		       (const uint64_t[]){ 0, 4096, 20480, 36864, 53248, 61440 },
		       6, 65536);
	/* size_first_fit, no in-place: order a b c (16K, by first use), d,
	 * in, out.  a 0; b meets a -> 16K; c meets b only -> 0; d meets c
	 * -> 16K; in meets a only -> 16K; out meets d only -> 0.  Peak 32K
	 * (b's end) = the lower bound. */
	expect_offsets("size_first_fit", &g, &p, names,
		       (const uint64_t[]){ 16384, 0, 16384, 0, 16384, 0 }, 6,
		       32768);
	free_all(&g, &p);

	/* In place: buffers in, abc, d, out.  linear: 0, 4K, 20K, 28K; 32K. */
	problem(chain, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	expect_offsets("linear", &g, &p, names,
		       (const uint64_t[]){ 0, 4096, 4096, 4096, 20480, 28672 },
		       6, 32768);
	/* size_first_fit: abc 0; d [3,4] meets abc [0,3] -> 16K; in [0,0]
	 * meets abc -> 16K; out [4,4] meets d only -> 0.  Peak 24K (d's end)
	 * = the lower bound. */
	expect_offsets("size_first_fit", &g, &p, names,
		       (const uint64_t[]){ 16384, 0, 0, 0, 16384, 0 }, 6,
		       24576);
	free_all(&g, &p);
}

/* ------------------------------------------------- each condition */

/* Expects graph `text` (with in-place) to give each tensor of `names` its
 * own buffer and no alias at all. */
static void expect_refused(const char *text, const char *why,
			   enum ab_lifetime_rule rule, uint32_t round_to)
{
	struct ab_graph g;
	struct ab_problem p, plain;

	problem(text, rule, true, round_to, &g, &p);
	cr_expect_eq(p.n_aliased, 0, "%s: %zu tensors aliased", why,
		     p.n_aliased);
	ab_graph_free(&g);
	problem(text, rule, false, round_to, &g, &plain);
	cr_expect_eq(p.n, plain.n, "%s: %zu buffers, %zu without in-place",
		     why, p.n, plain.n);
	for (size_t t = 0; t < g.n_tensors; t++)
		cr_expect_eq(p.tensor_buffer[t], plain.tensor_buffer[t],
			     "%s: tensor %s", why, g.tensors[t].name);
	ab_problem_free(&plain);
	free_all(&g, &p);
}

Test(inplace, refuses_an_input_read_again_later)
{
	/* a is read by relu and again by add: b may not overwrite it. */
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor a intermediate bytes 64\n"
		       "tensor b intermediate bytes 64\n"
		       "tensor out output bytes 64\n"
		       "op p CONV_2D in=in out=a\n"
		       "op relu RELU in=a out=b flags=elementwise\n"
		       "op add ADD in=b,a out=out\n",
		       "not last read", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, refuses_a_different_size)
{
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor a intermediate bytes 64\n"
		       "tensor b intermediate bytes 32\n"
		       "tensor out output bytes 32\n"
		       "op p CONV_2D in=in out=a\n"
		       "op cast CAST in=a out=b flags=elementwise\n"
		       "op q CONV_2D in=b out=out\n",
		       "size differs", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, refuses_a_graph_input)
{
	/* in is last read by relu and has b's size, but is a graph input
	 * (the caller owns it; under tflite it must survive the run). */
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor b intermediate bytes 64\n"
		       "tensor out output bytes 64\n"
		       "op relu RELU in=in out=b flags=elementwise\n"
		       "op q CONV_2D in=b out=out\n",
		       "graph input", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, refuses_a_graph_output)
{
	/* out may not live in a's buffer: graph outputs are the caller's. */
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor a intermediate bytes 64\n"
		       "tensor out output bytes 64\n"
		       "op p CONV_2D in=in out=a\n"
		       "op relu RELU in=a out=out flags=elementwise\n",
		       "graph output", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, refuses_an_op_that_is_not_elementwise)
{
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor a intermediate bytes 64\n"
		       "tensor b intermediate bytes 64\n"
		       "tensor out output bytes 64\n"
		       "op p CONV_2D in=in out=a\n"
		       "op dw DEPTHWISE_CONV_2D in=a out=b\n"
		       "op q CONV_2D in=b out=out\n",
		       "not elementwise", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, refuses_a_var_input)
{
	/* A var is persistent state, not an intermediate; it also lives for
	 * the whole run, so no single op is its last reader. */
	expect_refused("graph g\n"
		       "tensor in input bytes 64\n"
		       "tensor s var bytes 64\n"
		       "tensor b intermediate bytes 64\n"
		       "tensor out output bytes 64\n"
		       "op relu RELU in=s out=b flags=elementwise\n"
		       "op q ADD in=b,in out=out\n",
		       "var input", AB_LIFETIMES_DEFAULT, 0);
}

Test(inplace, sizes_compare_after_rounding)
{
	static const char *const text =
		"graph g\n"
		"tensor in input bytes 96\n"
		"tensor a intermediate bytes 100\n"
		"tensor b intermediate bytes 104\n"
		"tensor out output bytes 96\n"
		"op p CONV_2D in=in out=a\n"
		"op relu RELU in=a out=b flags=elementwise\n"
		"op q CONV_2D in=b out=out\n";
	struct ab_graph g;
	struct ab_problem p;

	/* 100 and 104 differ raw ... */
	expect_refused(text, "raw sizes differ", AB_LIFETIMES_TFLM, 0);
	/* ... but both round up to 112 at 16 bytes: one buffer of 112 */
	problem(text, AB_LIFETIMES_TFLM, true, 16, &g, &p);
	cr_expect_eq(p.n_aliased, 1);
	cr_expect_eq(buffer_of(&g, &p, "a"), buffer_of(&g, &p, "b"));
	cr_expect_eq(p.buf[buffer_of(&g, &p, "b")].size, 112);
	free_all(&g, &p);
}

Test(inplace, the_first_qualifying_input_in_input_order_wins)
{
	/* add reads a and b, both last read there and of its size.  With
	 * in=x,y the output joins x's buffer; swapping the inputs swaps the
	 * choice. */
	static const char *const fmt =
		"graph g\n"
		"tensor in input bytes 64\n"
		"tensor a intermediate bytes 64\n"
		"tensor b intermediate bytes 64\n"
		"tensor c intermediate bytes 64\n"
		"tensor out output bytes 64\n"
		"op p CONV_2D in=in out=a\n"
		"op q CONV_2D in=in out=b\n"
		"op add ADD in=%s out=c flags=elementwise\n"
		"op r CONV_2D in=c out=out\n";
	const char *orders[2][2] = { { "a,b", "a" }, { "b,a", "b" } };

	for (int k = 0; k < 2; k++) {
		char text[512];
		struct ab_graph g;
		struct ab_problem p;

		snprintf(text, sizeof(text), fmt, orders[k][0]);
		problem(text, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
		cr_expect_eq(p.n_aliased, 1);
		cr_expect_eq(buffer_of(&g, &p, "c"),
			     buffer_of(&g, &p, orders[k][1]), "in=%s",
			     orders[k][0]);
		free_all(&g, &p);
	}
}

Test(inplace, an_earlier_reader_does_not_stop_the_last_one)
{
	/* a is read by q and then by relu, its last reader: b takes a's
	 * buffer (TFLite would refuse: a has two consumers; see
	 * docs/semantics.md).  a [0,2] u b [2,3] = [0,3]. */
	struct ab_graph g;
	struct ab_problem p;

	problem("graph g\n"
		"tensor in input bytes 64\n"
		"tensor a intermediate bytes 64\n"
		"tensor e intermediate bytes 64\n"
		"tensor b intermediate bytes 64\n"
		"tensor out output bytes 64\n"
		"op p CONV_2D in=in out=a\n"
		"op q CONV_2D in=a out=e\n"
		"op relu RELU in=a out=b flags=elementwise\n"
		"op add ADD in=b,e out=out\n",
		AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	cr_expect_eq(p.n_aliased, 1);
	expect_range(&g, &p, "b", 0, 3);
	expect_range(&g, &p, "e", 1, 3);
	free_all(&g, &p);
}

/* ------------------------------------------------ execution check */

Test(inplace, the_execution_check_passes_a_correct_in_place_plan)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;
	enum ab_exec_mode mode;

	problem(chain, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	tu_plan("greedy_last_use", &p, 1, &plan);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL,
				     &mode, &r),
		     AB_PLAN_VALID, "verdict %s, tensors %d %d",
		     ab_verdict_name(r.verdict), r.tensor_a, r.tensor_b);
	cr_expect_eq(mode, AB_EXEC_FULL);
	ab_plan_free(&plan);
	free_all(&g, &p);
}

/* The bench message for a failed check, built on an input made by hand. */
static char *describe(struct ab_graph *g, struct ab_problem *p,
		      const struct ab_plan *plan,
		      const struct ab_check_result *r)
{
	struct ab_input in = { 0 };
	char *msg;

	in.has_graph = true;
	in.graph = *g;
	in.problem = *p;
	msg = ab_describe_check(ab_input_graph(&in), &in.problem, plan, r, "execution");
	cr_assert_not_null(msg);
	return msg;
}

/* a is read by relu and again by add; in-place refuses b -> a (a is not
 * last read at relu).  Here that refused aliasing is forced by hand. */
static const char *const reread =
	"graph reread\n"
	"tensor in  input        bytes 4096\n"
	"tensor a   intermediate bytes 4096\n"
	"tensor b   intermediate bytes 4096\n"
	"tensor c   intermediate bytes 4096\n"
	"tensor out output       bytes 4096\n"
	"op conv0 CONV_2D in=in  out=a\n"
	"op relu  RELU    in=a   out=b flags=elementwise\n"
	"op add   ADD     in=b,a out=c flags=elementwise\n"
	"op conv1 CONV_2D in=c   out=out\n";

Test(inplace, a_wrong_aliasing_is_a_stomp_at_the_later_read)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;
	int ta, tb;
	int32_t A, B;
	char *msg;

	problem(reread, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	ta = tensor_index(&g, "a");
	tb = tensor_index(&g, "b");
	A = buffer_of(&g, &p, "a");
	B = buffer_of(&g, &p, "b");
	cr_assert_neq(A, B, "in-place itself refuses b -> a");
	/* c -> b is legal (b last read at add, first input): 1 alias */
	cr_assert_eq(p.n_aliased, 1);
	cr_assert_eq(buffer_of(&g, &p, "c"), B);
	/* The corruption: a, b and c in one buffer (a's), on the union of
	 * their ranges a [0,2], b+c [1,3]; b's old buffer keeps no tensor. */
	p.tensor_buffer[tb] = A;
	p.tensor_buffer[tensor_index(&g, "c")] = A;
	p.buf[A].last = 3;
	p.buf[B].first = p.buf[B].last = 0;
	tu_plan("size_first_fit", &p, 1, &plan);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID,
		     "the geometric check sees only buffers");
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL,
				     NULL, &r),
		     AB_PLAN_STOMP);
	/* relu wrote b over a (legal at relu, in-place semantics); add reads
	 * a at step 2 and finds b's bytes. */
	cr_expect_eq(r.step, 2);
	cr_expect_eq(r.tensor_a, ta, "victim tensor %d, want a", r.tensor_a);
	cr_expect_eq(r.tensor_b, tb, "culprit tensor %d, want b", r.tensor_b);
	cr_expect_eq(r.a, (size_t)A);
	cr_expect_eq(r.b, (size_t)A);
	msg = describe(&g, &p, &plan, &r);
	cr_expect(strstr(msg, "'a' was overwritten by 'b'") != NULL, "%s", msg);
	free(msg);
	ab_plan_free(&plan);
	free_all(&g, &p);
}

Test(inplace, an_alias_at_an_op_that_is_not_elementwise_is_a_stomp_there)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;
	int32_t C, D;
	char *msg;

	/* conv1 reads c and writes d: a convolution cannot run in place, so
	 * d in c's buffer overwrites an input the op is still reading. */
	problem(chain, AB_LIFETIMES_DEFAULT, true, 0, &g, &p);
	C = buffer_of(&g, &p, "c");
	D = buffer_of(&g, &p, "d");
	p.tensor_buffer[tensor_index(&g, "d")] = C;
	p.buf[C].last = 4;
	p.buf[D].first = p.buf[D].last = 0;
	tu_plan("size_first_fit", &p, 1, &plan);
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, NULL), AB_PLAN_VALID);
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL,
				     NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.step, 3);
	cr_expect_eq(r.tensor_a, tensor_index(&g, "c"));
	cr_expect_eq(r.tensor_b, tensor_index(&g, "d"));
	msg = describe(&g, &p, &plan, &r);
	cr_expect(strstr(msg, "'c' was overwritten by 'd'") != NULL, "%s", msg);
	free(msg);
	ab_plan_free(&plan);
	free_all(&g, &p);
}

Test(inplace, an_alias_onto_a_graph_input_is_caught_under_tflite)
{
	struct ab_graph g;
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_check_result r;
	int32_t In, A;

	/* relu's output in the graph input's buffer: under tflite the input
	 * must survive the run, and the final check finds it overwritten. */
	problem("graph g\n"
		"tensor in input bytes 64\n"
		"tensor a intermediate bytes 64\n"
		"tensor out output bytes 64\n"
		"op relu RELU in=in out=a flags=elementwise\n"
		"op q CONV_2D in=a out=out\n",
		AB_LIFETIMES_TFLITE, true, 0, &g, &p);
	cr_assert_eq(p.n_aliased, 0);
	In = buffer_of(&g, &p, "in");
	A = buffer_of(&g, &p, "a");
	p.tensor_buffer[tensor_index(&g, "a")] = In;
	p.buf[A].first = p.buf[A].last = 1;
	tu_plan("linear", &p, 1, &plan);
	cr_expect_eq(ab_execute_plan(&g, &p, &plan, NULL,
				     NULL, &r),
		     AB_PLAN_STOMP);
	cr_expect_eq(r.tensor_a, tensor_index(&g, "in"));
	cr_expect_eq(r.tensor_b, tensor_index(&g, "a"));
	cr_expect_eq(r.step, 1, "the end-of-run check after the last op");
	ab_plan_free(&plan);
	free_all(&g, &p);
}

/* ------------------------------------------------------- the zoo */

struct zoo_row {
	uint64_t bound, bound_inplace, peak, peak_inplace;
	size_t buffers, aliased;
};

/* size_first_fit and greedy_last_use at alignment 1 and 64 through the
 * harness's own bench path (both checks, full execution unless large). */
static void bench_file(const char *path, enum ab_lifetime_rule rule,
		       bool inplace, struct zoo_row *z)
{
	static const uint32_t aligns[] = { 1, 64 };
	const struct ab_planner *planners[2] = {
		ab_planner_find("size_first_fit"),
		ab_planner_find("greedy_last_use"),
	};
	const char *inputs[1] = { path };
	struct ab_bench_config cfg = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_rows rows;

	cr_assert(planners[0] && planners[1]);
	cfg.inputs = inputs;
	cfg.n_inputs = 1;
	cfg.planners = planners;
	cfg.n_planners = 2;
	cfg.aligns = aligns;
	cfg.n_aligns = 2;
	cfg.load.problem.lifetimes = rule;
	cfg.load.problem.inplace = inplace;
	cfg.plan.seed = 1;
	cfg.strict = true; /* an input that fails to load is an error here */
	cr_assert_eq(ab_bench_run(&cfg, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 4);
	for (size_t r = 0; r < rows.n; r++) {
		const struct ab_row *row = &rows.row[r];

		cr_expect(row->check.valid, "%s%s: %s at align %u: %s", path,
			  inplace ? " (inplace)" : "", row->planner->name,
			  row->align, row->check.message ? row->check.message : "?");
		cr_expect_geq(row->check.peak_bytes, row->lower_bound_bytes);
	}
	/* row 0: size_first_fit at alignment 1 */
	if (inplace) {
		z->bound_inplace = rows.row[0].lower_bound_bytes;
		z->peak_inplace = rows.row[0].check.peak_bytes;
	} else {
		z->bound = rows.row[0].lower_bound_bytes;
		z->peak = rows.row[0].check.peak_bytes;
		z->buffers = rows.row[0].buffers;
	}
	ab_rows_free(&rows);
}

static size_t count_aliased(const char *path, enum ab_lifetime_rule rule)
{
	struct ab_load_options lo = { 0 };
	struct ab_input in;
	struct ab_error err = { { 0 } };
	size_t n;

	lo.problem.lifetimes = rule;
	lo.problem.inplace = true;
	cr_assert_eq(ab_input_load(path, &lo, &in, &err), 0, "%s", err.msg);
	n = in.problem.n_aliased;
	ab_input_free(&in);
	return n;
}

/*
 * Every `ext` file of `dir` without and with in-place: both checks on
 * every plan, a bound that never grows, and (with --verbose) one table
 * row per file: buffers and aliased tensors, the lower bound and
 * size_first_fit's arena at alignment 1, without and with in-place, in
 * bytes.  Returns the files seen (-1: no such folder); *helped counts the
 * files whose bound in-place lowers.
 */
static int check_dir(const char *dir, const char *ext,
		     enum ab_lifetime_rule rule, size_t *helped)
{
	struct dirent **names;
	int count = scandir(dir, &names, NULL, alphasort), files = 0;
	size_t le = strlen(ext);

	if (count < 0)
		return -1;
	cr_log_info("%s, lifetimes %s:", dir, ab_lifetime_rule_name(rule));
	cr_log_info("| graph | buffers | aliased | lower bound | in place | saved | size_first_fit | in place |");
	cr_log_info("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
	for (int j = 0; j < count; j++) {
		const char *name = names[j]->d_name;
		size_t n = strlen(name);
		struct zoo_row z = { 0 };
		char path[1024];

		if (n > le && !strcmp(name + n - le, ext)) {
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			bench_file(path, rule, false, &z);
			bench_file(path, rule, true, &z);
			z.aliased = count_aliased(path, rule);
			cr_expect_leq(z.bound_inplace, z.bound, "%s", path);
			if (z.aliased == 0)
				cr_expect_eq(z.bound_inplace, z.bound, "%s", path);
			*helped += z.bound_inplace < z.bound;
			cr_log_info("| %.*s | %zu | %zu | %llu | %llu | %.1f%% | %llu | %llu |",
				    (int)(n - le), name, z.buffers, z.aliased,
				    (unsigned long long)z.bound,
				    (unsigned long long)z.bound_inplace,
				    z.bound ? 100.0 * (double)(z.bound - z.bound_inplace) /
						      (double)z.bound
					    : 0.0,
				    (unsigned long long)z.peak,
				    (unsigned long long)z.peak_inplace);
			files++;
		}
		free(names[j]);
	}
	free(names);
	return files;
}

/* The table of docs/semantics.md ("In-place reuse"). */
Test(inplace, zoo_plans_pass_both_checks_and_never_need_more,
     .timeout = 900)
{
	size_t helped = 0;
	int files = check_dir("graphs/zoo", ".graph", AB_LIFETIMES_DEFAULT,
			      &helped);

	cr_assert_geq(files, 0, "graphs/zoo is part of the repository");
	cr_expect_gt(files, 30);
	cr_expect_gt(helped, 0, "in-place lowers some zoo bound");
}

/* Real models: the importer's elementwise flags, TFLite's lifetime rule. */
Test(inplace, shared_models_pass_both_checks_in_place, .timeout = 900)
{
	static const char *const dirs[] = {
		AB_SHARED_DIR "/models/tflm",
		AB_SHARED_DIR "/models/coral_test_data",
		AB_SHARED_DIR "/models/mediapipe",
	};
	size_t helped = 0;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (check_dir(dirs[d], ".tflite", AB_LIFETIMES_TFLITE,
			      &helped) < 0)
			cr_log_info("skipping %s: not present", dirs[d]);
}
