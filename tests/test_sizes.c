/*
 * Sizes that fit (arenabench.h, AB_MAX_PROBLEM_BYTES): every input kind is
 * refused at import, naming the file and the buffer, when its sizes rounded
 * up to 2^30 (the largest --align) sum past 2^62 bytes; at the limit it is
 * planned and checked with no overflow (CI runs this under UBSan).
 *
 * The fitting case: a 4-byte input and a (2^62 - 2^31)-byte output.  Rounded
 * up to 2^30 they take 2^30 + (2^62 - 2^31) = 2^62 - 2^30 bytes: it fits.
 * Both are live at step 0, so the lower bound and linear's peak at
 * alignment 1 are 2^62 - 2^31 + 4 = 4611686016279904260.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/graph_text.h"
#include "import/input.h"
#include "testutil.h"
#include "tflite_writer.h"
#include "check/check.h"
#include "import/problem_csv.h"

#define FITS (4611686018427387904ull - 2147483648ull) /* 2^62 - 2^31 */

/* 2^62 - 2^31 = 2^30 x (2^31 - 1) x 2;  2^63 = 2^30 x 2^30 x 8;
 * 2^64 - 1 = 65535 x 42009217 x 6700417 (its factors 3.5.17.257,
 * 641.65537 and 6700417), each below 2^31 as a TFLite dim must be. */
static const int32_t shapes[3][3] = {
	{ 1 << 30, 2147483647, 2 },
	{ 1 << 30, 1 << 30, 8 },
	{ 65535, 42009217, 6700417 },
};
static const char *const sizes[3] = {
	"4611686016279904256", "9223372036854775808", "18446744073709551615"
};

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	cr_assert(f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
}

static void write_model(const char *path, const int32_t shape[3])
{
	struct tfw_tensor t[2] = {
		{ .name = "in", .type = TFW_UINT8, .rank = 1, .shape = { 4 } },
		{ .name = "big", .type = TFW_UINT8, .rank = 3,
		  .shape = { shape[0], shape[1], shape[2] } },
	};
	struct tfw_op op = { .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1,
			     .out = { 1 } };
	const int32_t in[] = { 0 }, out[] = { 1 };
	const struct tfw_opcode code = { .builtin = 0 };
	const struct tfw_buffer buf = { 0 };
	struct tfw_subgraph sg = {
		.name = "main", .n_tensors = 2, .n_ops = 1, .n_inputs = 1,
		.n_outputs = 1, .tensors = t, .ops = &op, .inputs = in,
		.outputs = out,
	};
	struct tfw_model m = {
		.version = 3, .n_opcodes = 1, .n_subgraphs = 1, .n_buffers = 1,
		.opcodes = &code, .subgraphs = &sg, .buffers = &buf,
	};
	size_t len;
	uint8_t *bytes = tfw_build_model(&m, &len);

	write_file(path, bytes, len);
	free(bytes);
}

/* Writes the case `which` (0: fits, 1: 2^63, 2: 2^64 - 1) of `kind`. */
static void write_case(const char *dir, const char *kind, int which,
		       char *path, size_t cap)
{
	char text[512];

	snprintf(path, cap, "%s/size%d.%s", dir, which, kind);
	if (strcmp(kind, "tflite") == 0) {
		write_model(path, shapes[which]);
		return;
	}
	if (strcmp(kind, "graph") == 0)
		snprintf(text, sizeof(text),
			 "graph size%d\ntensor in input bytes 4\n"
			 "tensor big output bytes %s\nop o OP in=in out=big\n",
			 which, sizes[which]);
	else
		snprintf(text, sizeof(text),
			 "id,lower,upper,size\nin,0,1,4\nbig,0,1,%s\n",
			 sizes[which]);
	write_file(path, text, strlen(text));
}

static const char *const kinds[] = { "graph", "csv", "tflite" };

Test(sizes, at_the_limit_plans_and_checks)
{
	char dir[256], path[400];

	tu_tmpdir_make(dir, sizeof(dir), "sizes");
	for (int k = 0; k < 3; k++) {
		struct ab_load_options lo = { 0 };
		struct ab_input in;
		struct ab_error err;
		struct ab_plan plan;
		struct ab_check_result res;

		write_case(dir, kinds[k], 0, path, sizeof(path));
		cr_assert_eq(ab_input_load(path, &lo, &in, &err), 0, "%s: %s",
			     kinds[k], err.msg);
		cr_expect_eq(ab_sum_bytes(&in.problem), FITS + 4, "%s", kinds[k]);
		cr_expect_eq(ab_lower_bound(&in.problem, NULL), FITS + 4, "%s",
			     kinds[k]);
		tu_plan("linear", &in.problem, 1, &plan);
		cr_expect_eq(plan.peak, FITS + 4, "%s: peak %" PRIu64, kinds[k],
			     plan.peak);
		cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1, &res),
			     AB_PLAN_VALID, "%s", kinds[k]);
		/* Aligned to 2^30 the big one starts at 2^30: still fits. */
		ab_plan_free(&plan);
		tu_plan("size_first_fit", &in.problem, 1u << 30, &plan);
		cr_expect_eq(ab_validate_plan(&in.problem, &plan, 1u << 30, &res),
			     AB_PLAN_VALID, "%s", kinds[k]);
		cr_expect_lt(plan.peak, UINT64_MAX);
		ab_plan_free(&plan);
		/* best_of and exact keep UINT64_MAX as "no plan yet": a real
		 * peak can no longer be taken for it. */
		tu_plan("best_of", &in.problem, 1, &plan);
		cr_expect_eq(plan.peak, FITS + 4, "%s: best_of", kinds[k]);
		ab_plan_free(&plan);
		tu_plan("exact", &in.problem, 1, &plan);
		cr_expect_eq(plan.peak, FITS + 4, "%s: exact", kinds[k]);
		ab_plan_free(&plan);
		ab_input_free(&in);
		remove(path);
	}
	tu_tmpdir_remove(dir);
}

Test(sizes, past_the_limit_refused_by_name)
{
	char dir[256], path[400];

	tu_tmpdir_make(dir, sizeof(dir), "sizes");
	for (int k = 0; k < 3; k++)
		for (int which = 1; which < 3; which++) {
			struct ab_load_options lo = { 0 };
			struct ab_input in;
			struct ab_error err = { { 0 } };

			write_case(dir, kinds[k], which, path, sizeof(path));
			cr_expect_lt(ab_input_load(path, &lo, &in, &err), 0,
				     "%s %s accepted", kinds[k], sizes[which]);
			cr_expect(strstr(err.msg, path), "%s: %s", kinds[k],
				  err.msg);
			/* The CSV reader stops at int64 (2^63 - 1) and says
			 * so at the line; the others name the buffer (the
			 * .tflite importer sees 2^64 - 1 overflow already in
			 * its byte count). */
			if (strcmp(kinds[k], "csv") == 0)
				cr_expect(strstr(err.msg, ":3: column 'size'"),
					  "%s", err.msg);
			else
				cr_expect(strstr(err.msg, "'big'") &&
					  (strstr(err.msg, "past 2^62") ||
					   strstr(err.msg, "overflows 64 bits")),
					  "%s %s: %s", kinds[k], sizes[which],
					  err.msg);
			remove(path);
		}
	tu_tmpdir_remove(dir);
}

/* Two buffers that fit alone but not together, in every kind that can
 * say it: each 2^61 + 2^30 bytes, together past 2^62. */
Test(sizes, sum_past_the_limit)
{
	static const char graph[] =
		"graph two\ntensor a input bytes 2305843010287435776\n"
		"tensor b output bytes 2305843010287435776\nop o OP in=a out=b\n";
	static const char csv[] =
		"id,lower,upper,size\na,0,1,2305843010287435776\n"
		"b,5,6,2305843010287435776\n";
	struct ab_graph g;
	struct ab_problem p;
	struct ab_problem_options o = { 0 };
	struct ab_error err = { { 0 } };

	cr_assert_eq(ab_graph_parse(graph, strlen(graph), "two.graph", &g, &err), 0);
	cr_expect_lt(ab_problem_from_graph(&g, &o, &p, &err), 0);
	cr_expect(strstr(err.msg, "tensor 'b'"), "%s", err.msg);
	ab_graph_free(&g);
	/* Not live together: the sum, not the bound, is what must fit. */
	cr_expect_lt(ab_problem_parse_csv(csv, strlen(csv), "two.csv", &p, &err), 0);
	cr_expect(strstr(err.msg, "two.csv:3: column 'size': buffer b (2305843010287435776 bytes)"), "%s", err.msg);
}
