/*
 * Tests of the TFLite importer (harness/import/tflite.c).
 *
 *  - fixtures: models built byte by byte by tests/lib/tflite_writer.c, with
 *    every expected count, kind, shape and byte size computed by hand;
 *  - malformed: one test per kind of damage, each checking the return code
 *    and that the message names the file and the problem;
 *  - shared: every model in ../shared/models imports and passes the graph
 *    check, and counts are pinned against sources other than this importer
 *    (PROVENANCE.txt files, TFLite Micro reference problems, published
 *    facts about the models);
 *  - regressions: every input under tests/fuzz/regressions/ fails cleanly.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "import/graph_text.h"
#include "testutil.h"
#include "import/expand.h"
#include "import/tflite.h"
#include "tflite_writer.h"
#include "import/problem_csv.h"

#define FIX_PATH "fixtures/model.tflite"

/* ------------------------------------------------------------- helpers */

static int parse_bytes(const uint8_t *m, size_t len,
		       const struct ab_tflite_options *opt, struct ab_graph *g,
		       struct ab_tflite_info *info, struct ab_error *err)
{
	err->msg[0] = 0;
	return ab_tflite_parse(m, len, FIX_PATH, opt, g, info, err);
}

static int parse_fixture(int which, const struct ab_tflite_options *opt,
			 struct ab_graph *g, struct ab_tflite_info *info,
			 struct ab_error *err)
{
	size_t len;
	uint8_t *m = tfw_fixture(which, &len);
	int rc = parse_bytes(m, len, opt, g, info, err);

	free(m);
	return rc;
}

static void expect_ok(int rc, const struct ab_error *err)
{
	cr_assert_eq(rc, 0, "import failed (%d): %s", rc, err->msg);
}

/* A failure: negative code, and a message with the path and `what`. */
static void expect_fail(int rc, const struct ab_error *err, const char *what)
{
	cr_assert_lt(rc, 0, "expected an error about '%s', got %d", what, rc);
	cr_assert(strstr(err->msg, FIX_PATH),
		  "message does not name the file: %s", err->msg);
	cr_assert(strstr(err->msg, what), "message lacks '%s': %s", what,
		  err->msg);
}

static void expect_tensor(const struct ab_graph *g, size_t i,
			  const char *name, enum ab_tensor_kind kind,
			  enum ab_dtype dtype, uint64_t bytes)
{
	const struct ab_tensor *t;

	cr_assert_lt(i, g->n_tensors);
	t = &g->tensors[i];
	cr_expect_str_eq(t->name, name, "tensor %zu", i);
	cr_expect_eq(t->kind, kind, "tensor %zu '%s': kind %s, expected %s", i,
		     t->name, ab_kind_name(t->kind), ab_kind_name(kind));
	cr_expect_eq(t->dtype, dtype, "tensor %zu '%s': dtype", i, t->name);
	cr_expect_eq(t->bytes, bytes, "tensor %zu '%s': %llu bytes, expected %llu",
		     i, t->name, (unsigned long long)t->bytes,
		     (unsigned long long)bytes);
	cr_expect_eq(t->align, 1);
}

static void expect_list(const int *got, int n_got, const int *want, int n)
{
	cr_assert_eq(n_got, n, "list has %d entries, expected %d", n_got, n);
	for (int i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "entry %d: %d, expected %d", i,
			     got[i], want[i]);
}

/* The model as it would be if the writer built it from *m. */
static uint8_t *build(const struct tfw_model *m, size_t *len)
{
	return tfw_build_model(m, len);
}

/* ------------------------------------------------------------ fixtures */

/*
 * 1x8x8x3 f32 -> CONV_2D(4 filters 3x3x3, i32 bias) -> RELU -> MAX_POOL_2D.
 * Bytes: input 1*8*8*3*4 = 768; weights 4*3*3*3*4 = 432; bias 4*4 = 16;
 * conv and relu outputs 1*8*8*4*4 = 1024; pool output 1*4*4*4*4 = 256.
 */
Test(fixtures, three_ops)
{
	static const int conv_in[] = { 0, 1, 2 }, conv_out[] = { 3 };
	static const int relu_in[] = { 3 }, relu_out[] = { 4 };
	static const int pool_in[] = { 4 }, pool_out[] = { 5 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_THREE_OPS, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 6);
	cr_assert_eq(g.n_ops, 3);
	expect_tensor(&g, 0, "input", AB_KIND_INPUT, AB_DTYPE_F32, 768);
	expect_tensor(&g, 1, "conv/weights", AB_KIND_CONST, AB_DTYPE_F32, 432);
	expect_tensor(&g, 2, "conv/bias", AB_KIND_CONST, AB_DTYPE_I32, 16);
	expect_tensor(&g, 3, "conv/out", AB_KIND_INTERMEDIATE, AB_DTYPE_F32,
		      1024);
	expect_tensor(&g, 4, "relu/out", AB_KIND_INTERMEDIATE, AB_DTYPE_F32,
		      1024);
	expect_tensor(&g, 5, "pool/out", AB_KIND_OUTPUT, AB_DTYPE_F32, 256);
	cr_expect_eq(g.tensors[0].rank, 4);
	cr_expect_eq(g.tensors[0].dims[1], 8);
	cr_expect_eq(g.tensors[0].dims[3], 3);
	cr_expect_eq(g.tensors[2].rank, 1);
	cr_expect_eq(g.tensors[2].dims[0], 4);

	/* Opcode 0 sets only the legacy int8 field (3 = CONV_2D). */
	cr_expect_str_eq(g.ops[0].type, "CONV_2D");
	cr_expect_str_eq(g.ops[1].type, "RELU");
	cr_expect_str_eq(g.ops[2].type, "MAX_POOL_2D");
	cr_expect_str_eq(g.ops[0].name, "op0");
	expect_list(g.ops[0].inputs, g.ops[0].n_inputs, conv_in, 3);
	expect_list(g.ops[0].outputs, g.ops[0].n_outputs, conv_out, 1);
	expect_list(g.ops[1].inputs, g.ops[1].n_inputs, relu_in, 1);
	expect_list(g.ops[1].outputs, g.ops[1].n_outputs, relu_out, 1);
	expect_list(g.ops[2].inputs, g.ops[2].n_inputs, pool_in, 1);
	expect_list(g.ops[2].outputs, g.ops[2].n_outputs, pool_out, 1);
	cr_expect_eq(g.ops[0].flags, 0);
	cr_expect_eq(g.ops[1].flags, AB_OP_ELEMENTWISE);
	cr_expect_eq(g.ops[2].flags, 0);
	cr_expect_eq(g.ops[0].n_scratch, 0);

	cr_expect_str_eq(g.name, "model");
	/* FIX_PATH is fixtures/model.tflite: its folder names the family. */
	cr_expect_str_eq(g.family, "fixtures");
	cr_expect_str_eq(g.source, FIX_PATH);
	cr_expect_eq(info.version, 3);
	cr_expect_eq(info.n_subgraphs, 1);
	cr_expect_str_eq(info.description, "arenabench fixture: three ops");
	cr_expect_str_eq(info.subgraph_name, "main");
	cr_expect_eq(info.weights_bytes, 432 + 16);
	cr_expect_eq(info.n_external_buffers, 0);
	cr_expect_eq(info.n_string_tensors, 0);
	cr_expect_eq(info.n_dynamic_tensors, 0);
	cr_expect_eq(info.n_metadata, 0);
	cr_expect_not(info.has_offline_plan);
	cr_expect_null(info.offline_offsets);
	expect_ok(ab_graph_check(&g, FIX_PATH, &err), &err);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
}

/* FULLY_CONNECTED(x 1x16 i8, w 4x16 i8, bias -1) -> y 1x4 i8. */
Test(fixtures, optional_input)
{
	static const int in[] = { 0, 1, -1 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_OPTIONAL_INPUT, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 3);
	cr_assert_eq(g.n_ops, 1);
	expect_tensor(&g, 0, "x", AB_KIND_INPUT, AB_DTYPE_I8, 16);
	expect_tensor(&g, 1, "w", AB_KIND_CONST, AB_DTYPE_I8, 64);
	expect_tensor(&g, 2, "y", AB_KIND_OUTPUT, AB_DTYPE_I8, 4);
	cr_expect_str_eq(g.ops[0].type, "FULLY_CONNECTED");
	expect_list(g.ops[0].inputs, g.ops[0].n_inputs, in, 3);
	cr_expect_eq(info.weights_bytes, 64);
	expect_ok(ab_graph_check(&g, FIX_PATH, &err), &err);
	ab_graph_free(&g);
}

/* Metadata [min_runtime_version, OfflineMemoryAllocation]; the plan is
 * [version 1, 1 subgraph, 3 offsets: 0, 16, -1]. */
Test(fixtures, offline_plan)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_OFFLINE_PLAN, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 3);
	cr_assert_eq(g.n_ops, 2);
	expect_tensor(&g, 1, "b", AB_KIND_INTERMEDIATE, AB_DTYPE_F32, 16);
	cr_expect_eq(info.n_metadata, 2);
	cr_expect_str_eq(info.metadata[0].name, "min_runtime_version");
	cr_expect_eq(info.metadata[0].buffer, 1);
	cr_expect_eq(info.metadata[0].bytes, 6);      /* "1.5.0" + NUL */
	cr_expect_str_eq(info.metadata[1].name, "OfflineMemoryAllocation");
	cr_expect_eq(info.metadata[1].buffer, 2);
	cr_expect_eq(info.metadata[1].bytes, 6 * 4); /* six int32 */
	cr_assert(info.has_offline_plan);
	cr_assert_eq(info.n_offline, 3);
	cr_expect_eq(info.offline_offsets[0], 0);
	cr_expect_eq(info.offline_offsets[1], 16);
	cr_expect_eq(info.offline_offsets[2], -1);
	/* Buffers used only by metadata are not weights. */
	cr_expect_eq(info.weights_bytes, 0);
	cr_expect_str_eq(g.ops[0].type, "MUL");
	cr_expect_eq(g.ops[0].flags, AB_OP_ELEMENTWISE);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
	cr_expect_null(info.offline_offsets);
}

/* Weights (64 bytes) stored after the flatbuffer by Buffer.offset/size,
 * bias (16 bytes) inside it. */
Test(fixtures, external_buffer)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_EXTERNAL, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 4);
	expect_tensor(&g, 1, "w", AB_KIND_CONST, AB_DTYPE_I8, 64);
	expect_tensor(&g, 3, "b", AB_KIND_CONST, AB_DTYPE_I32, 16);
	cr_expect_eq(info.weights_bytes, 80);
	cr_expect_eq(info.n_external_buffers, 1);
	ab_graph_free(&g);
}

/* External data cut off: the buffer's offset/size points past the end. */
Test(fixtures, external_buffer_truncated)
{
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *m = tfw_fixture(TFW_FIX_EXTERNAL, &len);
	int rc = parse_bytes(m, len - 16, NULL, &g, NULL, &err);

	expect_fail(rc, &err, "external data at offset");
	cr_expect(strstr(err.msg, "lies outside the file"), "%s", err.msg);
	free(m);
}

/* RELU on f32 [1,10] with shape_signature [-1,10]: 40 bytes by default. */
Test(fixtures, dynamic_dim)
{
	struct ab_tflite_options opt = { .subgraph = 0, .n_dims = 1 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_DYNAMIC, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	expect_tensor(&g, 0, "x", AB_KIND_INPUT, AB_DTYPE_F32, 40);
	expect_tensor(&g, 1, "y", AB_KIND_OUTPUT, AB_DTYPE_F32, 40);
	cr_expect_eq(info.n_dynamic_tensors, 2);
	cr_expect_not(info.used_dim_overrides);
	ab_graph_free(&g);

	/* --dim d0=4: axis 0 of every dynamic shape, 4*10*4 = 160. */
	strcpy(opt.dims[0].name, "d0");
	opt.dims[0].value = 4;
	rc = parse_fixture(TFW_FIX_DYNAMIC, &opt, &g, &info, &err);
	expect_ok(rc, &err);
	cr_expect_eq(g.tensors[0].bytes, 160);
	cr_expect_eq(g.tensors[0].dims[0], 4);
	cr_expect_eq(g.tensors[1].bytes, 160);
	cr_expect(info.used_dim_overrides);
	ab_graph_free(&g);

	/* --dim x=2: only tensor x; y keeps its stored shape. */
	strcpy(opt.dims[0].name, "x");
	opt.dims[0].value = 2;
	rc = parse_fixture(TFW_FIX_DYNAMIC, &opt, &g, &info, &err);
	expect_ok(rc, &err);
	cr_expect_eq(g.tensors[0].bytes, 80);
	cr_expect_eq(g.tensors[1].bytes, 40);
	ab_graph_free(&g);
}

/* --dim NAME=VALUE through the parser users reach (cli/options.c). */
Test(fixtures, add_dim)
{
	static const char *const bad_args[] = { "=3", "x", "x=", "x=-1",
						"x=abc", "x=3z",
		"a_name_that_is_far_too_long_to_fit_in_sixty_four_bytes_of_storage=1" };
	struct ab_tflite_options opt = { 0 };

	cr_assert_eq(tu_dim(&opt, "d0=4"), 0);
	cr_assert_eq(tu_dim(&opt, "input_1=7"), 0);
	cr_expect_eq(opt.n_dims, 2);
	cr_expect_str_eq(opt.dims[0].name, "d0");
	cr_expect_eq(opt.dims[0].value, 4);
	cr_expect_str_eq(opt.dims[1].name, "input_1");
	cr_expect_eq(opt.dims[1].value, 7);
	for (size_t i = 0; i < sizeof(bad_args) / sizeof(bad_args[0]); i++)
		cr_expect_eq(tu_dim(&opt, bad_args[i]), -EINVAL, "'%s' accepted",
			     bad_args[i]);
	cr_expect_eq(opt.n_dims, 2);
}

/* A dynamic axis whose stored size is -1 too needs an override. */
Test(fixtures, dynamic_dim_unresolved)
{
	struct tfw_model m = *tfw_fixture_model(TFW_FIX_DYNAMIC);
	struct tfw_subgraph sg = m.subgraphs[0];
	struct tfw_tensor t[2] = { sg.tensors[0], sg.tensors[1] };
	struct ab_tflite_options opt = { .n_dims = 1 };
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *b;
	int rc;

	t[0].shape[0] = -1;
	sg.tensors = t;
	m.subgraphs = &sg;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EINVAL);
	expect_fail(rc, &err, "--dim x=VALUE or --dim d0=VALUE");
	cr_expect(strstr(err.msg, "tensor 0 'x'"), "%s", err.msg);

	strcpy(opt.dims[0].name, "d0");
	opt.dims[0].value = 7;
	rc = parse_bytes(b, len, &opt, &g, NULL, &err);
	expect_ok(rc, &err);
	cr_expect_eq(g.tensors[0].bytes, 7 * 10 * 4);
	ab_graph_free(&g);
	free(b);
}

/* string [2] -> CUSTOM HashString -> int32 [2] (8 bytes). */
Test(fixtures, string_tensor)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_STRING, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	expect_tensor(&g, 0, "text", AB_KIND_INPUT, AB_DTYPE_STRING, 0);
	expect_tensor(&g, 1, "hash", AB_KIND_OUTPUT, AB_DTYPE_I32, 8);
	cr_expect_eq(g.tensors[0].rank, 1);
	cr_expect_eq(g.tensors[0].dims[0], 2);
	cr_expect_eq(info.n_string_tensors, 1);
	cr_expect_str_eq(g.ops[0].type, "CUSTOM:HashString");
	cr_expect_eq(g.ops[0].flags, 0);
	ab_graph_free(&g);
}

/* Subgraph 0: names sanitized ("in put", "x,y=z"), a fallback name (t1),
 * a duplicate made unique (out_t4), a var, an op intermediate that
 * becomes scratch, GELU (code 150 with legacy field 127), a custom op
 * with a space in its name and mutating inputs. */
Test(fixtures, stateful_subgraph0)
{
	static const int op1_in[] = { 2, 1 }, op1_scratch[] = { 4 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_STATEFUL, NULL, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 5);
	cr_assert_eq(g.n_ops, 2);
	expect_tensor(&g, 0, "in_put", AB_KIND_INPUT, AB_DTYPE_F32, 16);
	expect_tensor(&g, 1, "t1", AB_KIND_VAR, AB_DTYPE_F32, 16);
	expect_tensor(&g, 2, "x_y_z", AB_KIND_INTERMEDIATE, AB_DTYPE_F32, 16);
	expect_tensor(&g, 3, "out", AB_KIND_OUTPUT, AB_DTYPE_F32, 16);
	expect_tensor(&g, 4, "out_t4", AB_KIND_SCRATCH, AB_DTYPE_I16, 16);
	cr_expect_str_eq(g.ops[0].type, "GELU");
	cr_expect_eq(g.ops[0].flags, AB_OP_ELEMENTWISE);
	cr_expect_str_eq(g.ops[1].type, "CUSTOM:My_Op");
	cr_expect_eq(g.ops[1].flags, AB_OP_SIDE_EFFECT);
	expect_list(g.ops[1].inputs, g.ops[1].n_inputs, op1_in, 2);
	expect_list(g.ops[1].scratch, g.ops[1].n_scratch, op1_scratch, 1);
	cr_expect_eq(info.n_subgraphs, 2);
	cr_expect_str_eq(info.subgraph_name, "main");
	cr_expect_str_eq(info.description, "stateful fixture");
	cr_assert(info.has_offline_plan);
	cr_assert_eq(info.n_offline, 5);
	cr_expect_eq(info.offline_offsets[0], 0);
	cr_expect_eq(info.offline_offsets[1], -1);
	cr_expect_eq(info.offline_offsets[2], 64);
	cr_expect_eq(info.offline_offsets[3], 128);
	cr_expect_eq(info.offline_offsets[4], -1);
	expect_ok(ab_graph_check(&g, FIX_PATH, &err), &err);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
}

/* Subgraph 1 "init": ASSIGN_VARIABLE (code 144) and TANH; its offline
 * offsets follow subgraph 0's five. */
Test(fixtures, stateful_subgraph1)
{
	struct ab_tflite_options opt = { .subgraph = 1 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = parse_fixture(TFW_FIX_STATEFUL, &opt, &g, &info, &err);

	expect_ok(rc, &err);
	cr_assert_eq(g.n_tensors, 2);
	cr_assert_eq(g.n_ops, 2);
	cr_expect_str_eq(g.name, "model_sg1");
	cr_expect_str_eq(info.subgraph_name, "init");
	expect_tensor(&g, 0, "a", AB_KIND_INPUT, AB_DTYPE_F32, 8);
	expect_tensor(&g, 1, "b", AB_KIND_OUTPUT, AB_DTYPE_F32, 8);
	cr_expect_str_eq(g.ops[0].type, "ASSIGN_VARIABLE");
	cr_expect_eq(g.ops[0].flags, AB_OP_SIDE_EFFECT);
	cr_expect_eq(g.ops[0].n_outputs, 0);
	cr_expect_str_eq(g.ops[1].type, "TANH");
	cr_expect_eq(g.ops[1].flags, AB_OP_ELEMENTWISE);
	cr_assert_eq(info.n_offline, 2);
	cr_expect_eq(info.offline_offsets[0], 256);
	cr_expect_eq(info.offline_offsets[1], -1);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);

	opt.subgraph = 2;
	rc = parse_fixture(TFW_FIX_STATEFUL, &opt, &g, &info, &err);
	cr_expect_eq(rc, -EINVAL);
	expect_fail(rc, &err, "subgraph 2 does not exist (the model has 2");
}

/* Imported names survive the text format: print, parse, compare. */
Test(fixtures, text_round_trip)
{
	for (int f = 0; f < TFW_FIX_COUNT; f++) {
		struct ab_graph g, h;
		struct ab_error err;
		char *text;
		int rc = parse_fixture(f, NULL, &g, NULL, &err);

		expect_ok(rc, &err);
		text = ab_graph_to_text(&g);
		cr_assert_not_null(text);
		rc = ab_graph_parse(text, strlen(text), "roundtrip.graph", &h,
				    &err);
		cr_assert_eq(rc, 0, "fixture %s: %s\n%s", tfw_fixture_name(f),
			     err.msg, text);
		cr_expect_eq(h.n_tensors, g.n_tensors);
		cr_expect_eq(h.n_ops, g.n_ops);
		for (size_t i = 0; i < g.n_tensors && i < h.n_tensors; i++) {
			cr_expect_str_eq(h.tensors[i].name, g.tensors[i].name);
			cr_expect_eq(h.tensors[i].kind, g.tensors[i].kind);
			cr_expect_eq(h.tensors[i].bytes, g.tensors[i].bytes);
		}
		free(text);
		ab_graph_free(&h);
		ab_graph_free(&g);
	}
}

/* Opcode resolution as TFLite does it: max(builtin_code, legacy int8). */
Test(fixtures, builtin_code_resolution)
{
	static const struct {
		int32_t builtin;
		int8_t deprecated;
		const char *type;
	} cases[] = {
		{ -1, 3, "CONV_2D" },          /* old file: legacy field only */
		{ 3, 3, "CONV_2D" },
		{ 150, 127, "GELU" },          /* code > 127 */
		{ 0, 9, "FULLY_CONNECTED" },   /* builtin_code left at 0 */
		{ 9, 0, "FULLY_CONNECTED" },
		{ 4000, 127, "BUILTIN_4000" }, /* unknown code: kept as number */
	};
	struct tfw_model m = *tfw_fixture_model(TFW_FIX_OPTIONAL_INPUT);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tfw_opcode c = { cases[i].builtin, cases[i].deprecated,
					NULL };
		struct ab_graph g;
		struct ab_error err;
		size_t len;
		uint8_t *b;
		int rc;

		m.opcodes = &c;
		b = build(&m, &len);
		rc = parse_bytes(b, len, NULL, &g, NULL, &err);
		expect_ok(rc, &err);
		cr_expect_str_eq(g.ops[0].type, cases[i].type, "case %zu", i);
		ab_graph_free(&g);
		free(b);
	}
	cr_expect_str_eq(ab_tflite_builtin_name(3), "CONV_2D");
	cr_expect_str_eq(ab_tflite_builtin_name(144), "ASSIGN_VARIABLE");
	cr_expect_null(ab_tflite_builtin_name(-1));
	cr_expect_null(ab_tflite_builtin_name(100000));
}

/* ----------------------------------------------------------- malformed */

Test(malformed, truncated)
{
	size_t len;
	uint8_t *m = tfw_fixture(TFW_FIX_THREE_OPS, &len);
	struct ab_graph g;
	struct ab_error err;
	int rc;

	rc = parse_bytes(m, 4, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EBADMSG);
	expect_fail(rc, &err, "file is too small (4 bytes; truncated?)");

	rc = parse_bytes(m, len / 2, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "truncated?");
	cr_expect(strstr(err.msg, "past the end of the file") ||
		  strstr(err.msg, "longer than the file"), "%s", err.msg);

	/* Every shorter prefix fails cleanly (ASan runs check the reads). */
	for (size_t n = 0; n < len; n++) {
		uint8_t *cut = malloc(n ? n : 1);

		memcpy(cut, m, n);
		rc = parse_bytes(cut, n, NULL, &g, NULL, &err);
		cr_assert_lt(rc, 0, "a prefix of %zu of %zu bytes imported",
			     n, len);
		cr_assert(strstr(err.msg, FIX_PATH), "%s", err.msg);
		free(cut);
	}
	free(m);
}

Test(malformed, wrong_identifier)
{
	size_t len;
	uint8_t *m = tfw_fixture(TFW_FIX_THREE_OPS, &len);
	struct ab_graph g;
	struct ab_error err;
	int rc;

	memcpy(m + 4, "TFL2", 4);
	rc = parse_bytes(m, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EBADMSG);
	expect_fail(rc, &err, "wrong file identifier 'TFL2' at bytes 4..8 (expected 'TFL3'");
	memcpy(m + 4, "\x00\x01PK", 4);
	rc = parse_bytes(m, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "'\\x00\\x01PK'");
	free(m);
}

/* A minimal model whose Model.subgraphs field holds `raw` verbatim. */
static uint8_t *model_with_raw_subgraphs(uint32_t raw, size_t *len)
{
	struct tfw b;
	tfw_ref root;
	uint8_t *m;

	tfw_init(&b);
	tfw_start(&b);
	tfw_add_u32(&b, 0, 3);   /* version */
	tfw_add_u32(&b, 2, raw); /* subgraphs: a raw uoffset */
	root = tfw_end(&b);
	m = tfw_finish(&b, root, "TFL3", len);
	tfw_free(&b);
	return m;
}

Test(malformed, offset_past_end)
{
	size_t len;
	uint8_t *m = model_with_raw_subgraphs(0x7fff0000u, &len);
	struct ab_graph g;
	struct ab_error err;
	int rc = parse_bytes(m, len, NULL, &g, NULL, &err);

	cr_expect_eq(rc, -EBADMSG);
	expect_fail(rc, &err, "'Model.subgraphs': offset 2147418112");
	cr_expect(strstr(err.msg, "points past the end of the file"), "%s",
		  err.msg);
	free(m);

	/* The root offset itself. */
	m = tfw_fixture(TFW_FIX_THREE_OPS, &len);
	memcpy(m, "\xf0\xff\x00\x00", 4);
	rc = parse_bytes(m, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "'root offset': offset 65520 at 0 points past the end");
	free(m);
}

/* Finishes a model of one subgraph whose only tensor has the shape vector
 * `sh` (already in b), no inputs or outputs, and one empty buffer; frees b. */
static uint8_t *one_tensor_model(struct tfw *b, tfw_ref sh, size_t *len)
{
	tfw_ref t, tv, io, sg, sgv, buf, bufv, root;
	uint8_t *m;

	tfw_start(b);
	tfw_add_ref(b, 0, sh);
	t = tfw_end(b);
	tv = tfw_vec_refs(b, &t, 1);
	io = tfw_vec_i32(b, NULL, 0);
	tfw_start(b);
	tfw_add_ref(b, 0, tv);
	tfw_add_ref(b, 1, io);
	sg = tfw_end(b);
	sgv = tfw_vec_refs(b, &sg, 1);
	tfw_start(b);
	buf = tfw_end(b);
	bufv = tfw_vec_refs(b, &buf, 1);
	tfw_start(b);
	tfw_add_ref(b, 2, sgv);
	tfw_add_ref(b, 4, bufv);
	root = tfw_end(b);
	m = tfw_finish(b, root, "TFL3", len);
	tfw_free(b);
	return m;
}

Test(malformed, vector_longer_than_file)
{
	struct tfw b;
	static const int32_t shape[] = { 1, 2 };
	tfw_ref sh;
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *m;
	int rc;

	/* One subgraph with one tensor whose shape vector claims 2^28
	 * entries. */
	tfw_init(&b);
	sh = tfw_vec_i32_claim(&b, shape, 2, 1u << 28);
	m = one_tensor_model(&b, sh, &len);

	rc = parse_bytes(m, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EBADMSG);
	expect_fail(rc, &err, "'Tensor.shape': vector of 268435456 elements of 4 bytes");
	cr_expect(strstr(err.msg, "is longer than the file"), "%s", err.msg);
	cr_expect(strstr(err.msg, "subgraph 0 tensor 0"), "%s", err.msg);
	free(m);
}

Test(malformed, self_referencing)
{
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *m;
	int rc;

	/* A field offset of 0 points at itself. */
	m = model_with_raw_subgraphs(0, &len);
	rc = parse_bytes(m, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EBADMSG);
	expect_fail(rc, &err, "'Model.subgraphs': offset at");
	cr_expect(strstr(err.msg, "refers to itself (self-referencing or cyclic table)"),
		  "%s", err.msg);
	free(m);

	/* A vector of tables whose element offset is 0. */
	{
		struct tfw b;
		static const int32_t zero[] = { 0 };
		tfw_ref v, root;

		tfw_init(&b);
		v = tfw_vec_i32(&b, zero, 1);
		tfw_start(&b);
		tfw_add_ref(&b, 2, v);
		root = tfw_end(&b);
		m = tfw_finish(&b, root, "TFL3", &len);
		tfw_free(&b);
		rc = parse_bytes(m, len, NULL, &g, NULL, &err);
		expect_fail(rc, &err, "self-referencing or cyclic table");
		free(m);
	}

	/* A table whose vtable offset is 0: the table is its own vtable. */
	{
		struct tfw b;
		tfw_ref root;

		tfw_init(&b);
		tfw_start(&b);
		tfw_add_u32(&b, 0, 3);
		root = tfw_end(&b);
		tfw_patch_u32(&b, root, 0);
		m = tfw_finish(&b, root, "TFL3", &len);
		tfw_free(&b);
		rc = parse_bytes(m, len, NULL, &g, NULL, &err);
		expect_fail(rc, &err, "Model table at offset");
		cr_expect(strstr(err.msg, "is self-referencing"), "%s",
			  err.msg);
		free(m);
	}

	/* A vtable that overlaps its own table (soffset -4). */
	{
		struct tfw b;
		tfw_ref root;

		tfw_init(&b);
		tfw_start(&b);
		/* Field 0 comes right after the soffset and reads as a
		 * vtable of 8 bytes for a 12-byte table. */
		tfw_add_u32(&b, 1, 3);
		tfw_add_u32(&b, 0, 0x000c0008u);
		root = tfw_end(&b);
		tfw_patch_u32(&b, root, (uint32_t)-4);
		m = tfw_finish(&b, root, "TFL3", &len);
		tfw_free(&b);
		rc = parse_bytes(m, len, NULL, &g, NULL, &err);
		expect_fail(rc, &err, "is self-referencing");
		free(m);
	}
}

/* 2^30 x 2^30 x 2^30 f32: the element count overflows 64 bits. */
Test(malformed, huge_dimensions)
{
	struct tfw_model m = *tfw_fixture_model(TFW_FIX_OPTIONAL_INPUT);
	struct tfw_subgraph sg = m.subgraphs[0];
	struct tfw_tensor t[3] = { sg.tensors[0], sg.tensors[1],
				   sg.tensors[2] };
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *b;
	int rc;

	t[2].rank = 3;
	t[2].shape[0] = t[2].shape[1] = t[2].shape[2] = 1 << 30;
	sg.tensors = t;
	m.subgraphs = &sg;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EOVERFLOW);
	expect_fail(rc, &err, "tensor 2 'y'");
	cr_expect(strstr(err.msg, "shape 1073741824x1073741824x1073741824 of INT8: element count overflows 64 bits"),
		  "%s", err.msg);
	free(b);

	/* (2^31-1)^2 INT8 elements fit in 64 bits (an absurd size, but a
	 * size)... */
	t[2].rank = 2;
	t[2].shape[0] = t[2].shape[1] = 0x7fffffff;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_ok(rc, &err);
	cr_expect_eq(g.tensors[2].bytes, 0x7fffffffull * 0x7fffffffull);
	ab_graph_free(&g);
	free(b);

	/* ...as INT64 they take 2^65 bytes... */
	t[2].type = 4;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EOVERFLOW);
	expect_fail(rc, &err, "4611686014132420609 elements of INT64: byte size overflows 64 bits");
	free(b);
	t[2].type = 9;

	/* ...but a fourth axis does. */
	t[2].rank = 4;
	t[2].shape[2] = t[2].shape[3] = 0x7fffffff;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	cr_expect_eq(rc, -EOVERFLOW);
	expect_fail(rc, &err, "overflows 64 bits");
	free(b);

	/* A negative stored dimension. */
	t[2].rank = 2;
	t[2].shape[0] = -5;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "dimension 0 is -5 (expected a size >= 0)");
	free(b);

	/* Rank beyond the limit. */
	{
		static int32_t big[100];
		struct tfw bb;
		tfw_ref sh;

		for (int i = 0; i < 100; i++)
			big[i] = 1;
		tfw_init(&bb);
		sh = tfw_vec_i32(&bb, big, 100);
		b = one_tensor_model(&bb, sh, &len);
		rc = parse_bytes(b, len, NULL, &g, NULL, &err);
		cr_expect_eq(rc, -E2BIG);
		expect_fail(rc, &err, "rank 100 exceeds the limit of 64");
		free(b);
	}
}

/* Indices that point nowhere. */
Test(malformed, bad_indices)
{
	struct tfw_model m = *tfw_fixture_model(TFW_FIX_OPTIONAL_INPUT);
	struct tfw_subgraph sg = m.subgraphs[0];
	struct tfw_op op = sg.ops[0];
	struct tfw_tensor t[3] = { sg.tensors[0], sg.tensors[1],
				   sg.tensors[2] };
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *b;
	int rc;

	sg.ops = &op;
	sg.tensors = t;
	m.subgraphs = &sg;

	op.in[1] = 99;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "subgraph 0 operator 0: 'Operator.inputs' entry 1 is tensor 99 (expected 0..2 or -1)");
	free(b);

	op.in[1] = 1;
	op.out[0] = -1;
	op.n_out = 1;
	op.opcode = 5;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "opcode_index 5 is out of range (the model has 1 operator codes)");
	free(b);

	op.opcode = 0;
	op.out[0] = 2;
	t[1].buffer = 7;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "tensor 1 'w': Tensor.buffer refers to buffer 7 but the model has 2 buffers");
	free(b);

	t[1].buffer = 1;
	t[1].type = 99;
	b = build(&m, &len);
	rc = parse_bytes(b, len, NULL, &g, NULL, &err);
	expect_fail(rc, &err, "unknown tensor type 99");
	free(b);
}

/* Offline plans whose lengths do not add up. */
Test(malformed, offline_plan)
{
	static const int32_t cases[][6] = {
		{ 1, 1, 1000, 0, 0, 0 }, /* count larger than the buffer */
		{ 1, 1, 2, 0, 16, 0 },   /* fewer offsets than tensors */
		{ 1, 1, 3, 0, -7, 0 },   /* an offset below -1 */
	};
	static const char *const msgs[] = {
		"declares 1000 offsets but its buffer holds only 3",
		"has 2 offsets but subgraph 0 needs offsets 0..2",
		"offset of tensor 1 is -7 (expected a byte offset >= 0 or -1)",
	};
	struct tfw_model m = *tfw_fixture_model(TFW_FIX_OFFLINE_PLAN);
	struct tfw_buffer bufs[3] = { m.buffers[0], m.buffers[1],
				      m.buffers[2] };

	m.buffers = bufs;
	for (int i = 0; i < 3; i++) {
		uint8_t plan[24];
		struct ab_graph g;
		struct ab_tflite_info info;
		struct ab_error err;
		size_t len;
		uint8_t *b;
		int rc;

		for (int k = 0; k < 6; k++)
			for (int j = 0; j < 4; j++)
				plan[4 * k + j] = (uint8_t)((uint32_t)cases[i][k] >> (8 * j));
		bufs[2].data = plan;
		bufs[2].size = sizeof(plan);
		b = build(&m, &len);
		rc = parse_bytes(b, len, NULL, &g, &info, &err);
		expect_fail(rc, &err, msgs[i]);
		cr_expect(strstr(err.msg, "metadata 'OfflineMemoryAllocation'"),
			  "%s", err.msg);
		cr_expect_null(info.offline_offsets);
		free(b);
	}
}

Test(malformed, missing_file)
{
	struct ab_graph g;
	struct ab_error err;
	int rc = ab_tflite_load("/nonexistent/model.tflite", NULL, &g, NULL,
				&err);

	cr_expect_eq(rc, -ENOENT);
	cr_expect(strstr(err.msg, "/nonexistent/model.tflite: cannot open"),
		  "%s", err.msg);
}

/* --------------------------------------------------------------- shared */

/* The repository root: the tests run from it, but allow a build dir. */
static const char *repo_root(void)
{
	static const char *const tries[] = { ".", "..", "../.." };
	struct stat st;
	char p[256];

	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/harness/core/arenabench.h", tries[i]);
		if (!stat(p, &st))
			return tries[i];
	}
	return ".";
}

/* ../shared/models/<sub>, or skip the test when shared/ is absent. */
static void models_dir(char *buf, size_t sz, const char *sub)
{
	struct stat st;

	snprintf(buf, sz, "%s/../shared/models%s%s", repo_root(),
		 sub ? "/" : "", sub ? sub : "");
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		cr_skip_test("%s is absent: the shared model corpus is not checked out beside the repository",
			     buf);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

static void load_model(const char *sub, const char *file, struct ab_graph *g,
		       struct ab_tflite_info *info)
{
	char dir[512], path[1024];
	struct ab_error err;
	int rc;

	models_dir(dir, sizeof(dir), sub);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	rc = ab_tflite_load(path, NULL, g, info, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
}

Test(shared, every_model_imports)
{
	static const char *const subs[] = { "tflm", "coral_test_data",
					    "mediapipe" };
	char dir[512];
	size_t n = 0;

	models_dir(dir, sizeof(dir), NULL);
	for (size_t s = 0; s < 3; s++) {
		DIR *d;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/../shared/models/%s",
			 repo_root(), subs[s]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			char path[1024];
			struct ab_graph g;
			struct ab_tflite_info info;
			struct ab_error err;
			int rc;

			if (!has_suffix(e->d_name, ".tflite"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			rc = ab_tflite_load(path, NULL, &g, &info, &err);
			cr_expect_eq(rc, 0, "%s", err.msg);
			if (rc)
				continue;
			n++;
			cr_expect_gt(g.n_ops, 0, "%s", path);
			rc = ab_graph_check(&g, path, &err);
			cr_expect_eq(rc, 0, "%s", err.msg);
			ab_graph_free(&g);
			ab_tflite_info_free(&info);
		}
		closedir(d);
	}
	cr_expect_gt(n, 0, "no .tflite files found");
}

/*
 * PROVENANCE.txt of coral_test_data and mediapipe records, per file,
 * "graph: subgraphs=S ops=N nonconst_tensors=M custom_ops=[...]" as read
 * by whoever fetched the models (not by this importer).  Non-const tensors
 * are all tensors that are not kind const.
 */
static void check_provenance(const char *sub)
{
	char dir[512], path[1024], line[1024], file[256] = "";
	FILE *f;
	int checked = 0;

	models_dir(dir, sizeof(dir), sub);
	snprintf(path, sizeof(path), "%s/PROVENANCE.txt", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: cannot open", path);
	while (fgets(line, sizeof(line), f)) {
		unsigned sgs, ops, nonconst;
		char customs[512] = "";
		struct ab_graph g;
		struct ab_tflite_info info;
		size_t n_nonconst = 0;

		if (sscanf(line, "FILE: %255s", file) == 1)
			continue;
		if (sscanf(line, " graph: subgraphs=%u ops=%u nonconst_tensors=%u custom_ops=%511[^\n]",
			   &sgs, &ops, &nonconst, customs) < 3)
			continue;
		load_model(sub, file, &g, &info);
		cr_expect_eq(info.n_subgraphs, sgs, "%s subgraphs", file);
		cr_expect_eq(g.n_ops, ops, "%s: %zu ops, PROVENANCE says %u",
			     file, g.n_ops, ops);
		for (size_t i = 0; i < g.n_tensors; i++)
			n_nonconst += g.tensors[i].kind != AB_KIND_CONST;
		cr_expect_eq(n_nonconst, nonconst,
			     "%s: %zu non-const tensors, PROVENANCE says %u",
			     file, n_nonconst, nonconst);
		/* custom_ops=['A', 'B']: each is some op's CUSTOM:<name>. */
		for (char *q = strchr(customs, '\''); q;
		     q = strchr(q + 1, '\'')) {
			char *end = strchr(q + 1, '\'');
			char want[300];
			bool found = false;

			if (!end)
				break;
			snprintf(want, sizeof(want), "CUSTOM:%.*s",
				 (int)(end - q - 1), q + 1);
			for (size_t k = 0; k < g.n_ops; k++)
				found |= !strcmp(g.ops[k].type, want);
			cr_expect(found, "%s: no op of type %s", file, want);
			q = end;
		}
		ab_graph_free(&g);
		ab_tflite_info_free(&info);
		checked++;
	}
	fclose(f);
	cr_expect_gt(checked, 5, "%s: too few graph: lines", path);
}

Test(shared, coral_matches_provenance)
{
	check_provenance("coral_test_data");
}

Test(shared, mediapipe_matches_provenance)
{
	check_provenance("mediapipe");
}

/*
 * ../shared/reference/tflm_problems/<model>.csv lists, in tensor-index
 * order, the raw size of every tensor TFLite Micro plans: consts and
 * variables excluded (reference/README.md), and, as TFLM does not plan op
 * intermediates either, our scratch tensors.  Sizes must match one for one.
 */
Test(shared, tflm_sizes_match_reference_problems)
{
	char dir[512], refdir[512];
	DIR *d;
	struct dirent *e;
	int checked = 0;

	models_dir(dir, sizeof(dir), "tflm");
	snprintf(refdir, sizeof(refdir),
		 "%s/../shared/reference/tflm_problems", repo_root());
	d = opendir(refdir);
	if (!d)
		cr_skip_test("%s is absent", refdir);
	while ((e = readdir(d))) {
		char path[1024], model[256], line[256];
		struct ab_graph g;
		struct ab_tflite_info info;
		size_t t = 0;
		FILE *f;

		if (!has_suffix(e->d_name, ".csv"))
			continue;
		snprintf(model, sizeof(model), "%.*s.tflite",
			 (int)(strlen(e->d_name) - 4), e->d_name);
		load_model("tflm", model, &g, &info);
		snprintf(path, sizeof(path), "%s/%s", refdir, e->d_name);
		f = fopen(path, "r");
		cr_assert_not_null(f);
		cr_assert_not_null(fgets(line, sizeof(line), f)); /* header */
		while (fgets(line, sizeof(line), f)) {
			long long id, lo, hi;
			unsigned long long size;

			if (sscanf(line, "%lld,%lld,%lld,%llu", &id, &lo, &hi,
				   &size) != 4)
				continue;
			while (t < g.n_tensors &&
			       (g.tensors[t].kind == AB_KIND_CONST ||
				g.tensors[t].kind == AB_KIND_VAR ||
				g.tensors[t].kind == AB_KIND_SCRATCH))
				t++;
			cr_assert_lt(t, g.n_tensors,
				     "%s: more rows than planned tensors", model);
			cr_expect_eq(g.tensors[t].bytes, size,
				     "%s: buffer %lld is tensor %zu '%s' of %llu bytes, reference says %llu",
				     model, id, t, g.tensors[t].name,
				     (unsigned long long)g.tensors[t].bytes,
				     size);
			t++;
		}
		while (t < g.n_tensors &&
		       (g.tensors[t].kind == AB_KIND_CONST ||
			g.tensors[t].kind == AB_KIND_VAR ||
			g.tensors[t].kind == AB_KIND_SCRATCH))
			t++;
		cr_expect_eq(t, g.n_tensors, "%s: planned tensors left over",
			     model);
		fclose(f);
		ab_graph_free(&g);
		ab_tflite_info_free(&info);
		checked++;
	}
	closedir(d);
	cr_expect_gt(checked, 10);
}

static const struct ab_tensor *only_kind(const struct ab_graph *g,
					 enum ab_tensor_kind k, size_t nth)
{
	for (size_t i = 0; i < g->n_tensors; i++)
		if (g->tensors[i].kind == k && nth-- == 0)
			return &g->tensors[i];
	return NULL;
}

static const struct ab_tensor *named(const struct ab_graph *g,
				     const char *name)
{
	for (size_t i = 0; i < g->n_tensors; i++)
		if (!strcmp(g->tensors[i].name, name))
			return &g->tensors[i];
	cr_assert_fail("no tensor named '%s'", name);
	return NULL;
}

static void expect_shape(const struct ab_tensor *t, enum ab_dtype d,
			 int rank, const int64_t *dims)
{
	cr_assert_not_null(t);
	cr_expect_eq(t->dtype, d, "'%s' dtype %s", t->name,
		     ab_dtype_name(t->dtype));
	cr_assert_eq(t->rank, rank, "'%s' rank %d", t->name, t->rank);
	for (int i = 0; i < rank; i++)
		cr_expect_eq(t->dims[i], dims[i], "'%s' dim %d", t->name, i);
}

static size_t count_type(const struct ab_graph *g, const char *type)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n_ops; i++)
		n += !strcmp(g->ops[i].type, type);
	return n;
}

/*
 * person_detect (TFLM): input 96x96 grayscale int8 and 2 output classes
 * (person / no person) are the documented interface of TFLM's
 * person_detection example (kNumCols = kNumRows = 96, kNumChannels = 1,
 * kCategoryCount = 2).  31 ops (14 DEPTHWISE_CONV_2D, 14 CONV_2D,
 * AVERAGE_POOL_2D, RESHAPE, SOFTMAX) and 89 tensors, 57 of them const,
 * from an independent Python reading of the file; 32 planned tensors =
 * the 32 rows of reference/tflm_problems/person_detect.csv.
 */
Test(shared, pinned_person_detect)
{
	static const int64_t in[] = { 1, 96, 96, 1 }, out[] = { 1, 2 };
	struct ab_graph g;
	struct ab_tflite_info info;

	load_model("tflm", "person_detect.tflite", &g, &info);
	cr_expect_eq(g.n_ops, 31);
	cr_expect_eq(g.n_tensors, 89);
	cr_expect_eq(count_type(&g, "DEPTHWISE_CONV_2D"), 14);
	cr_expect_eq(count_type(&g, "CONV_2D"), 14);
	cr_expect_eq(count_type(&g, "SOFTMAX"), 1);
	cr_expect_eq(g.n_tensors - 57, 32);
	expect_shape(only_kind(&g, AB_KIND_INPUT, 0), AB_DTYPE_I8, 4, in);
	expect_shape(only_kind(&g, AB_KIND_OUTPUT, 0), AB_DTYPE_I8, 2, out);
	cr_expect_null(only_kind(&g, AB_KIND_INPUT, 1));
	ab_graph_free(&g);
}

/*
 * mobilenet_v1_0.25_128_quant (Coral): 31 ops and 32 non-const tensors per
 * PROVENANCE.txt; the published MobileNet v1 interface is a 128x128 RGB
 * uint8 image in and 1001 ImageNet classes out; the architecture has 13
 * depthwise-separable blocks (13 DEPTHWISE_CONV_2D) plus the stem and
 * logits convolutions (15 CONV_2D).
 */
Test(shared, pinned_mobilenet_v1)
{
	static const int64_t in[] = { 1, 128, 128, 3 }, out[] = { 1, 1001 };
	struct ab_graph g;
	struct ab_tflite_info info;

	load_model("coral_test_data", "mobilenet_v1_0.25_128_quant.tflite", &g,
		   &info);
	cr_expect_eq(g.n_ops, 31);
	cr_expect_eq(count_type(&g, "DEPTHWISE_CONV_2D"), 13);
	cr_expect_eq(count_type(&g, "CONV_2D"), 15);
	expect_shape(only_kind(&g, AB_KIND_INPUT, 0), AB_DTYPE_U8, 4, in);
	expect_shape(only_kind(&g, AB_KIND_OUTPUT, 0), AB_DTYPE_U8, 2, out);
	cr_expect_eq(only_kind(&g, AB_KIND_INPUT, 0)->bytes, 128 * 128 * 3);
	ab_graph_free(&g);
}

/*
 * hello_world_float (TFLM): the example's model is three Dense layers
 * (16, 16, 1 units) on one float in and out: 3 FULLY_CONNECTED ops,
 * 6 consts (3 kernels + 3 biases), 10 tensors; 4 planned tensors = the
 * rows of reference/tflm_problems/hello_world_float.csv.
 */
Test(shared, pinned_hello_world)
{
	static const int64_t one[] = { 1, 1 };
	struct ab_graph g;
	struct ab_tflite_info info;
	size_t consts = 0;

	load_model("tflm", "hello_world_float.tflite", &g, &info);
	cr_expect_eq(g.n_ops, 3);
	cr_expect_eq(count_type(&g, "FULLY_CONNECTED"), 3);
	cr_expect_eq(g.n_tensors, 10);
	for (size_t i = 0; i < g.n_tensors; i++)
		consts += g.tensors[i].kind == AB_KIND_CONST;
	cr_expect_eq(consts, 6);
	expect_shape(only_kind(&g, AB_KIND_INPUT, 0), AB_DTYPE_F32, 2, one);
	expect_shape(only_kind(&g, AB_KIND_OUTPUT, 0), AB_DTYPE_F32, 2, one);
	/* The dense kernel 16x1 f32 is 64 bytes of weights, etc.: the
	 * weights are 1x16 + 16 + 16x16 + 16 + 16x1 + 1 floats = 321 floats
	 * = 1284 bytes. */
	cr_expect_eq(info.weights_bytes, 1284);
	ab_graph_free(&g);
}

/*
 * keyword_scrambled (TFLM): 15 ops (2 QUANTIZE, 7 SVDF, 5 FULLY_CONNECTED,
 * SOFTMAX), 54 tensors of which 31 const and 7 variables (the SVDF
 * activation states), from the independent Python reading; 16 planned
 * tensors = the rows of reference/tflm_problems/keyword_scrambled.csv.
 * Input int16 1x96, output int32 1x2 (Python reading).
 */
Test(shared, pinned_keyword_scrambled)
{
	static const int64_t in[] = { 1, 96 }, out[] = { 1, 2 };
	struct ab_graph g;
	struct ab_tflite_info info;
	size_t vars = 0, consts = 0;

	load_model("tflm", "keyword_scrambled.tflite", &g, &info);
	cr_expect_eq(g.n_ops, 15);
	cr_expect_eq(g.n_tensors, 54);
	cr_expect_eq(count_type(&g, "SVDF"), 7);
	for (size_t i = 0; i < g.n_tensors; i++) {
		vars += g.tensors[i].kind == AB_KIND_VAR;
		consts += g.tensors[i].kind == AB_KIND_CONST;
	}
	cr_expect_eq(vars, 7);
	cr_expect_eq(consts, 31);
	cr_expect_eq(g.n_tensors - vars - consts, 16);
	/* Every SVDF reads its state variable: stateful. */
	for (size_t k = 0; k < g.n_ops; k++)
		if (!strcmp(g.ops[k].type, "SVDF"))
			cr_expect(g.ops[k].flags & AB_OP_SIDE_EFFECT);
	expect_shape(only_kind(&g, AB_KIND_INPUT, 0), AB_DTYPE_I16, 2, in);
	expect_shape(only_kind(&g, AB_KIND_OUTPUT, 0), AB_DTYPE_I32, 2, out);
	ab_graph_free(&g);
}

/*
 * face_detection_short_range (MediaPipe BlazeFace): 164 ops, 165 non-const
 * tensors (PROVENANCE.txt); the model card's interface is a 128x128 RGB
 * float image in and 896 anchors out (16 box/keypoint regressors and 1
 * score each); fp16 weights are expanded by DEQUANTIZE ops.
 */
Test(shared, pinned_face_detection_short_range)
{
	static const int64_t in[] = { 1, 128, 128, 3 };
	static const int64_t reg[] = { 1, 896, 16 }, cls[] = { 1, 896, 1 };
	struct ab_graph g;
	struct ab_tflite_info info;

	load_model("mediapipe", "face_detection_short_range.tflite", &g,
		   &info);
	cr_expect_eq(g.n_ops, 164);
	cr_expect_gt(count_type(&g, "DEQUANTIZE"), 0);
	expect_shape(only_kind(&g, AB_KIND_INPUT, 0), AB_DTYPE_F32, 4, in);
	expect_shape(named(&g, "regressors"), AB_DTYPE_F32, 3, reg);
	expect_shape(named(&g, "classificators"), AB_DTYPE_F32, 3, cls);
	cr_expect_eq(named(&g, "regressors")->kind, AB_KIND_OUTPUT);
	cr_expect_eq(named(&g, "classificators")->kind, AB_KIND_OUTPUT);
	ab_graph_free(&g);
}

/*
 * traffic_model (Coral): 185 ops and 209 non-const tensors with the custom
 * op TFLite_Detection_PostProcess (PROVENANCE.txt); its recurrent state
 * makes it the one model here with 3 graph inputs: the image and two LSTM
 * states of 8x8x320 (PROVENANCE's description; names and uint8 type from
 * the independent Python reading).
 */
Test(shared, pinned_traffic_model)
{
	static const int64_t st[] = { 1, 8, 8, 320 };
	struct ab_graph g;
	struct ab_tflite_info info;
	size_t ins = 0;

	load_model("coral_test_data", "traffic_model.tflite", &g, &info);
	cr_expect_eq(g.n_ops, 185);
	for (size_t i = 0; i < g.n_tensors; i++)
		ins += g.tensors[i].kind == AB_KIND_INPUT;
	cr_expect_eq(ins, 3);
	cr_expect_eq(count_type(&g, "CUSTOM:TFLite_Detection_PostProcess"), 1);
	/* The two states, named and shaped as the Python reading shows. */
	expect_shape(named(&g, "raw_inputs/init_lstm_c"), AB_DTYPE_U8, 4, st);
	expect_shape(named(&g, "raw_inputs/init_lstm_h"), AB_DTYPE_U8, 4, st);
	cr_expect_eq(named(&g, "raw_inputs/init_lstm_h")->kind, AB_KIND_INPUT);
	ab_graph_free(&g);
}

/* Speed: the largest shared model imports in well under a second. */
Test(shared, import_is_fast)
{
	char dir[512], path[1024];
	struct ab_graph g;
	struct ab_error err;
	struct timespec t0, t1;
	double s;
	int rc;

	models_dir(dir, sizeof(dir), "coral_test_data");
	snprintf(path, sizeof(path), "%s/tf2_mobilenet_v2_1.0_224_ptq.tflite",
		 dir);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = ab_tflite_load(path, NULL, &g, NULL, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_assert_eq(rc, 0, "%s", err.msg);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_expect_lt(s, 0.5, "%s took %.3f s", path, s);
	ab_graph_free(&g);
}

/* ---------------------------------------------------------- regressions */

/*
 * Inputs found by the fuzzers (tests/fuzz/regressions/): tflite-* go to the
 * importer, text-* to the graph and CSV parsers.  Each must fail (or
 * succeed) cleanly: a negative code comes with a message.
 */
Test(regressions, fuzz_inputs)
{
	char dir[512];
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/regressions", repo_root());
	d = opendir(dir);
	cr_assert_not_null(d, "%s: cannot open", dir);
	while ((e = readdir(d))) {
		char path[1024];
		uint8_t *buf;
		long len;
		FILE *f;
		struct ab_error err;
		int rc;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		cr_assert_not_null(f, "%s", path);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		buf = malloc(len > 0 ? (size_t)len : 1);
		cr_assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		err.msg[0] = 0;
		if (!strncmp(e->d_name, "tflite-", 7)) {
			struct ab_graph g;
			struct ab_tflite_info info;

			rc = ab_tflite_parse(buf, (size_t)len, path, NULL, &g,
					     &info, &err);
			cr_expect(rc <= 0, "%s", path);
			cr_expect(rc == 0 || strstr(err.msg, path), "%s: '%s'",
				  path, err.msg);
			if (!rc) {
				ab_graph_free(&g);
				ab_tflite_info_free(&info);
			}
		} else if (!strncmp(e->d_name, "text-", 5)) {
			struct ab_graph g;
			struct ab_problem p;

			rc = ab_graph_parse((const char *)buf, (size_t)len,
					    path, &g, &err);
			cr_expect(rc == 0 || (rc < 0 && err.msg[0]), "%s", path);
			if (!rc)
				ab_graph_free(&g);
			memset(&p, 0, sizeof(p));
			err.msg[0] = 0;
			rc = ab_problem_parse_csv((const char *)buf,
						  (size_t)len, path, &p, &err);
			cr_expect(rc == 0 || (rc < 0 && err.msg[0]), "%s", path);
			if (!rc)
				ab_problem_free(&p);
		}
		free(buf);
	}
	closedir(d);
}

/*
 * A model's family is the folder it sits in, so that two folders of
 * models are two families in the CSV, figures and paper (issue 16); a
 * path without a folder falls back to the importer's name.
 */
Test(family, from_folder)
{
	static const struct { const char *path, *family; } cases[] = {
		{ "../shared/models/mediapipe/face_landmark.tflite", "mediapipe" },
		{ "/abs/tflm/person_detect.tflite", "tflm" },
		{ "corpus//coral/x.tflite", "coral" },	/* doubled slash */
		{ "model.tflite", "tflite" },		/* no folder */
		{ "./model.tflite", "tflite" },		/* "." names nothing */
		{ "../model.tflite", "tflite" },		/* nor does ".." */
		{ "/model.tflite", "tflite" },		/* the root */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *f = ab_family_from_path(cases[i].path, "tflite");

		cr_assert(f);
		cr_expect_str_eq(f, cases[i].family, "%s", cases[i].path);
		free(f);
	}
}
