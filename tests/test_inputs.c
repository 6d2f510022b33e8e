/*
 * Bad input gets a clear message naming the file, the line or tensor and
 * what was expected; minimalloc's CSV round-trips exactly.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "import/graph_text.h"
#include "testutil.h"
#include "import/problem_csv.h"

struct bad_case {
	const char *text;
	const char *expect; /* a substring of the message */
};

#define H "graph g\n"
static const struct bad_case bad_graphs[] = {
	{ "", "empty graph" },
	{ "tensor a input bytes 4\n", "x.graph:1: expected 'graph NAME'" },
	{ H "graph h\n", "x.graph:2: 'graph' is given twice" },
	{ H "tensor a input\n", "x.graph:2: expected 'tensor NAME KIND DTYPE SHAPE" },
	{ H "tensor a,b input bytes 4\n", "x.graph:2: tensor name 'a,b'" },
	{ H "tensor a weird bytes 4\n", "x.graph:2: tensor 'a': unknown kind 'weird'" },
	{ H "tensor a input f33 4\n", "x.graph:2: tensor 'a': unknown dtype 'f33'" },
	{ H "tensor a input f32 4x-1\n", "x.graph:2: tensor 'a': expected a shape" },
	{ H "tensor a input f32 4xx1\n", "x.graph:2: tensor 'a': expected a shape" },
	{ H "tensor a input bytes 12abc\n", "x.graph:2: tensor 'a': expected a byte count" },
	{ H "tensor a input f32 4294967296x4294967296\n", "x.graph:2: tensor 'a': shape '4294967296x4294967296' of f32 is too large" },
	{ H "tensor a input bytes 99999999999999999999999\n", "does not fit in 64 bits" },
	{ H "tensor a input bytes 4 align=3\n", "x.graph:2: tensor 'a': expected 'align=N' with N a power of two" },
	{ H "tensor a input bytes 4\ntensor a input bytes 4\n", "x.graph:3: tensor 'a' is declared twice" },
	{ H "tensor a input bytes 4\nop o OP in=b out=a\n", "x.graph:3: op 'o': input tensor 'b' is not declared" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\nop o OP in=a out=b bogus=1\n", "x.graph:4: op 'o': unexpected 'bogus=1'" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\nop o OP in=a out=b flags=fast\n", "x.graph:4: op 'o': unknown flag 'fast'" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\nop o OP in=a out=a\n", "x.graph:4: op 'o': output 'a' is a graph input tensor (expected intermediate or output" },
	{ H "tensor a input+output bytes 4\ntensor b intermediate bytes 4\nop o OP in=b out=a\n", "x.graph:4: op 'o': output 'a' is a graph input tensor" },
	{ H "tensor a input bytes 4\ntensor v var bytes 4\nop o OP in=a out=v\n", "x.graph:4: op 'o': output 'v' is a var tensor" },
	{ H "tensor a input bytes 4\ntensor w const bytes 4\nop o OP in=a out=w\n", "x.graph:4: op 'o': output 'w' is a const tensor" },
	{ H "tensor a input+state bytes 4\n", "x.graph:2: tensor 'a': unknown role '+state'" },
	{ H "tensor a scratch+output bytes 4\n", "x.graph:2: tensor 'a': a scratch tensor cannot be a graph input or output" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\nop o OP in=a out=b\nop p OP in=a out=b\n", "x.graph:5: op 'p': output 'b' is already written by op 'o'" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\ntensor c output bytes 4\nop o OP in=b out=c\nop p OP in=a out=b\n", "x.graph:5: op 'o': input 'b' is read before any op writes it" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\ntensor c output bytes 4\nop o OP in=a,b out=b\nop p OP in=b out=c\n", "x.graph:5: op 'o': input 'b' is read before any op writes it (op 'o' writes it itself: a cycle)" },
	{ H "tensor a input bytes 4\ntensor b intermediate bytes 4\ntensor c intermediate bytes 4\ntensor d output bytes 4\nop o OP in=a,c out=b\nop p OP in=b out=c\nop q OP in=c out=d\n", "x.graph:6: op 'o': input 'c' is read before any op writes it (op 'p' writes it later: a forward reference or a cycle)" },
	{ H "tensor a input bytes 4\ntensor s scratch bytes 4\ntensor c output bytes 4\nop o OP in=a out=c\n", "x.graph:3: scratch tensor 's' is not in any op's scratch= list" },
	{ H "tensor a input bytes 4\ntensor s scratch bytes 4\ntensor c output bytes 4\nop o OP in=a,s out=c\n", "op 'o': scratch tensor 's' cannot be an input" },
	{ H "tensor a input bytes 4\n", "has no operators" },
	{ H "tensor a input bytes 4\ntensor c output bytes 4\nop o OP in=a out=c\nphase\n", "'phase' after the last op" },
	{ H "frobnicate\n", "x.graph:2: unknown declaration 'frobnicate'" },
	{ H "tensor a input bytes 4\0\n", "x.graph:2: line too long or contains a NUL byte" },
};

/* Parameters are indices: Criterion may re-execute the binary, so
 * pointers into it cannot be passed. */
ParameterizedTestParameters(inputs, bad_graph)
{
	static size_t idx[sizeof(bad_graphs) / sizeof(bad_graphs[0])];

	for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, sizeof(idx) / sizeof(idx[0]));
}

ParameterizedTest(size_t *pi, inputs, bad_graph)
{
	const struct bad_case *c = &bad_graphs[*pi];

	struct ab_graph g;
	struct ab_error err = { { 0 } };
	size_t len = strlen(c->text);

	if (strstr(c->expect, "NUL"))
		len = strlen(c->text) + 2; /* the NUL and the newline */
	cr_assert_lt(ab_graph_parse(c->text, len, "x.graph", &g, &err), 0,
		     "accepted: %s", c->text);
	cr_expect(strstr(err.msg, c->expect) != NULL,
		  "message '%s' lacks '%s'", err.msg, c->expect);
}

static const struct bad_case bad_csvs[] = {
	{ "", "x.csv: empty file" },
	{ "id,lower,upper\n", "x.csv:1: missing column 'size'" },
	{ "id,lower,upper,size,colour\n", "x.csv:1: unknown column 'colour'" },
	{ "id,lower,upper,size,size\n", "x.csv:1: column 'size' appears twice" },
	{ "id,lower,upper,size\n", "x.csv: no buffers" },
	{ "id,lower,upper,size\n0,0,3\n", "x.csv:2: expected 4 fields like the header, got 3" },
	{ "id,lower,upper,size\n0,0,3,4.5\n", "x.csv:2: column 'size': expected an integer, got '4.5'" },
	{ "id,lower,upper,size\n0,-1,3,4\n", "x.csv:2: column 'lower': expected a non-negative value" },
	{ "id,lower,upper,size\n0,3,3,4\n", "x.csv:2: buffer 0: upper 3 must be greater than lower 3" },
	{ "id,lower,upper,size\n0,4,3,4\n", "x.csv:2: buffer 0: upper 3 must be greater than lower 4" },
	{ "id,lower,upper,size\n0,0,99999999999,4\n", "exceeds the supported time range" },
	{ "id,lower,upper,size\n0,0,1,99999999999999999999\n", "x.csv:2: column 'size': 99999999999999999999 does not fit in a signed 64-bit integer" },
	{ "id,lower,upper,size,alignment\n0,0,1,4,3\n", "x.csv:2: buffer 0: alignment 3 must be a power of two" },
	{ "id,lower,upper,size\nb1,0,1,4\nb1,1,2,4\n", "x.csv:3: column 'id': buffer id 'b1' appears twice, first on line 2" },
	{ "id,lower,upper,size\n,0,1,4\n", "x.csv:2: column 'id': expected a name or number" },
};

/* Parameters are indices: Criterion may re-execute the binary, so
 * pointers into it cannot be passed. */
ParameterizedTestParameters(inputs, bad_csv)
{
	static size_t idx[sizeof(bad_csvs) / sizeof(bad_csvs[0])];

	for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, sizeof(idx) / sizeof(idx[0]));
}

ParameterizedTest(size_t *pi, inputs, bad_csv)
{
	const struct bad_case *c = &bad_csvs[*pi];

	struct ab_problem p;
	struct ab_error err = { { 0 } };

	cr_assert_lt(ab_problem_parse_csv(c->text, strlen(c->text), "x.csv",
					  &p, &err),
		     0, "accepted: %s", c->text);
	cr_expect(strstr(err.msg, c->expect) != NULL,
		  "message '%s' lacks '%s'", err.msg, c->expect);
}

Test(inputs, csv_reads_columns_by_name_and_half_open_lifetimes)
{
	/* columns in another order, spaces, CRLF, an alignment column */
	const char *csv = "size, upper ,lower,id,alignment\r\n"
			  "16,3,0,7,8\r\n"
			  "4, 9, 3, x, 1\r\n";
	struct ab_problem p;
	struct ab_error err;

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "x.csv", &p, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(p.n, 2);
	cr_expect_eq(p.buf[0].size, 16);
	cr_expect_eq(p.buf[0].first, 0);
	cr_expect_eq(p.buf[0].last, 2, "upper 3 is exclusive");
	cr_expect_eq(p.buf[0].align, 8);
	cr_expect_eq(p.id[0], 7);
	cr_expect_str_eq(p.label[1], "x");
	cr_expect_eq(p.buf[1].first, 3);
	cr_expect_eq(p.buf[1].last, 8);
	/* [0,2] and [3,8] never meet: lower bound = the larger */
	cr_expect_eq(ab_lower_bound(&p, NULL), 16);
	ab_problem_free(&p);
}

Test(inputs, csv_round_trips_exactly)
{
	const char *csv = "id,lower,upper,size\n"
			  "b1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";
	struct ab_problem p;
	struct ab_plan plan;
	struct ab_error err;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "x.csv", &p, &err), 0);
	tu_plan("size_first_fit", &p, 1, &plan);
	f = open_memstream(&out, &len);
	cr_assert_eq(ab_plan_write_csv(f, &p, &plan), 0);
	fclose(f);
	/* minimalloc's own example: size-descending first fit needs 12
	 * (= the lower bound): b3 and b5 side by side, b1,b2,b4 on top. By
	 * hand, in size-desc order with ties by first use then index: b1(0)
	 * b3(0) b5(0) b2(3) b4(9): b1 0, b3 4, b5 8, b2 0 (b1 ended), b4 0. */
	cr_expect_str_eq(out, "id,lower,upper,size,offset\n"
			      "b1,0,3,4,0\nb2,3,9,4,0\nb3,0,9,4,4\nb4,9,21,4,0\nb5,0,21,4,8\n");
	cr_expect_eq(plan.peak, 12);
	free(out);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(inputs, graph_text_round_trips_through_the_writer)
{
	const char *text = "graph rt\nfamily starter\nsource somewhere, table 1\n"
			   "tensor a input f32 1x2x3 align=64\n"
			   "tensor w const i8 scalar\n"
			   "tensor s scratch bytes 10\n"
			   "tensor b output bf16 4\n"
			   "phase\n"
			   "op o CONV in=a,-,w out=b scratch=s flags=side_effect,elementwise\n";
	struct ab_graph g;
	char *again;

	tu_graph(text, &g);
	again = ab_graph_to_text(&g);
	cr_expect_str_eq(again, text);
	cr_expect_eq(g.tensors[0].bytes, 24);
	cr_expect_eq(g.tensors[1].bytes, 1);
	cr_expect_eq(g.tensors[3].bytes, 8);
	free(again);
	ab_graph_free(&g);
}

/* import/input.c's table of input kinds: a file is read by its suffix,
 * bytes in memory too, and an unknown suffix names the suffixes that can
 * be read that way (.onnx only from a file: its reader takes a path). */
Test(inputs, one_table_of_kinds_for_files_and_bytes)
{
	struct ab_load_options lo = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input in;

	tu_input("b.csv", "id,lower,upper,size,offset\n0,0,2,8,16\n", &in);
	cr_expect_str_eq(in.family, "minimalloc");
	cr_expect_not(in.has_graph);
	cr_expect_eq(in.problem.n, 1);
	/* the offset column is the problem's fixed offsets */
	cr_assert_not_null(in.problem.fixed_offset);
	cr_expect_eq(in.problem.fixed_offset[0], 16);
	ab_input_free(&in);
	tu_input("g.graph", tu_chain_graph, &in);
	cr_expect(in.has_graph);
	cr_expect_null(in.problem.fixed_offset);
	ab_input_free(&in);
	cr_expect_lt(ab_input_load("notes.txt", &lo, &in, &err), 0);
	cr_expect_str_eq(err.msg, "notes.txt: unknown input type (expected a .graph, .csv, .tflite or .onnx file)");
	cr_expect_lt(ab_input_parse("m.onnx", (const uint8_t *)"x", 1, &lo, &in,
				    &err), 0);
	cr_expect_str_eq(err.msg, "m.onnx: unknown input type (expected a .graph, .csv or .tflite file)");
}
