/*
 * Tests of `arenabench export` (harness/report/export.c, docs/export.md).
 *
 *  - byte fixture: a tiny .tflite written byte by byte below (the input)
 *    and the header the exporter must put in front of it, also written by
 *    hand from the layout in docs/export.md, with the arithmetic of every
 *    offset in a comment.  The whole output file is compared byte for byte;
 *  - round trip: export, import the result, read its OfflineMemoryAllocation
 *    back as the `offline` planner: offset by offset the plan that was
 *    exported (computed here by the planner itself), valid under both
 *    checks, and the imported graph equals the original's.  On the
 *    tests/lib fixtures and on every ../shared/models/<dir>/ *.tflite;
 *  - refusals: malformed, external data, several subgraphs, unknown Model
 *    fields, bad options; the message names the file and the problem, and
 *    nothing is written (an existing output is kept byte for byte);
 *  - the command line: the report and the exit codes.
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

#include "report/export.h"
#include "report/offline.h"
#include "testutil.h"
#include "tflite_writer.h"

#define U16(v) (uint8_t)((v) & 0xff), (uint8_t)(((v) >> 8) & 0xff)
#define U32(v) (uint8_t)((uint32_t)(v)), (uint8_t)((uint32_t)(v) >> 8), \
	       (uint8_t)((uint32_t)(v) >> 16), (uint8_t)((uint32_t)(v) >> 24)
#define PAD2 0, 0
#define PAD4 0, 0, 0, 0

/* ------------------------------------------------ the hand-written model */

/*
 * One RELU from t0 (f32 [1,4], subgraph input) to t1 (f32 [1,4], output);
 * tensors without names, type or buffer fields (defaults: FLOAT32, buffer
 * 0).  Buffers: 0 empty, 1 "1.5.0" (named by the metadata entry
 * "min_runtime_version", which the export must keep).  Every vtable comes
 * just before its table; every uoffset points forward.  312 bytes.
 */
static const uint8_t hand_model[] = {
	/*   0 */ U32(28),               /* root: 0 + 28 = Model table */
	/*   4 */ 'T', 'F', 'L', '3',
	/*   8 Model vtable: 18 bytes, table 24 bytes; field ids 0..6 */
	/*   8 */ U16(18), U16(24),
	/*  12 */ U16(4), U16(8), U16(12), U16(0), U16(16), U16(0), U16(20),
	/*  26 */ PAD2,
	/*  28 Model table */
	/*  28 */ U32(20),               /* soffset: vtable at 28 - 20 = 8 */
	/*  32 */ U32(3),                /* version 3 */
	/*  36 */ U32(16),               /* operator_codes: 36 + 16 = 52 */
	/*  40 */ U32(20),               /* subgraphs: 40 + 20 = 60 */
	/*  44 */ U32(24),               /* buffers: 44 + 24 = 68 */
	/*  48 */ U32(32),               /* metadata: 48 + 32 = 80 */
	/*  52 */ U32(1), U32(40),       /* operator_codes [56 + 40 = 96] */
	/*  60 */ U32(1), U32(52),       /* subgraphs [64 + 52 = 116] */
	/*  68 */ U32(2), U32(164), U32(172), /* buffers [72 + 164 = 236,
						 76 + 172 = 248] */
	/*  80 */ U32(1), U32(180),      /* metadata [84 + 180 = 264] */
	/*  88 OperatorCode vtable: 6 bytes, table 8; id 0 at 4 */
	/*  88 */ U16(6), U16(8), U16(4), PAD2,
	/*  96 */ U32(8),                /* soffset: 96 - 8 = 88 */
	/* 100 */ 19, 0, 0, 0,           /* deprecated_builtin_code RELU */
	/* 104 SubGraph vtable: 12 bytes, table 20; ids 0..3 */
	/* 104 */ U16(12), U16(20), U16(4), U16(8), U16(12), U16(16),
	/* 116 */ U32(12),               /* soffset: 116 - 12 = 104 */
	/* 120 */ U32(16),               /* tensors: 120 + 16 = 136 */
	/* 124 */ U32(92),               /* inputs: 124 + 92 = 216 */
	/* 128 */ U32(96),               /* outputs: 128 + 96 = 224 */
	/* 132 */ U32(16),               /* operators: 132 + 16 = 148 */
	/* 136 */ U32(2), U32(24), U32(28), /* tensors [140 + 24 = 164,
					       144 + 28 = 172] */
	/* 148 */ U32(1), U32(40),       /* operators [152 + 40 = 192] */
	/* 156 Tensor vtable, shared by both tensors: id 0 (shape) at 4 */
	/* 156 */ U16(6), U16(8), U16(4), PAD2,
	/* 164 */ U32(8), U32(36),       /* t0: vtable 164 - 8 = 156;
					    shape 168 + 36 = 204 */
	/* 172 */ U32(16), U32(28),      /* t1: vtable 172 - 16 = 156;
					    shape 176 + 28 = 204 */
	/* 180 Operator vtable: 10 bytes, table 12; opcode_index absent (0),
	 * inputs at 4, outputs at 8 */
	/* 180 */ U16(10), U16(12), U16(0), U16(4), U16(8), PAD2,
	/* 192 */ U32(12),               /* soffset: 192 - 12 = 180 */
	/* 196 */ U32(20),               /* inputs: 196 + 20 = 216 */
	/* 200 */ U32(24),               /* outputs: 200 + 24 = 224 */
	/* 204 */ U32(2), U32(1), U32(4), /* shape [1, 4] */
	/* 216 */ U32(1), U32(0),        /* [0]: subgraph and op inputs */
	/* 224 */ U32(1), U32(1),        /* [1]: subgraph and op outputs */
	/* 232 Buffer 0: no fields */
	/* 232 */ U16(4), U16(4),
	/* 236 */ U32(4),                /* soffset: 236 - 4 = 232 */
	/* 240 Buffer 1: data at 4 */
	/* 240 */ U16(6), U16(8), U16(4), PAD2,
	/* 248 */ U32(8),                /* soffset: 248 - 8 = 240 */
	/* 252 */ U32(48),               /* data: 252 + 48 = 300 */
	/* 256 Metadata vtable: name at 4, buffer at 8 */
	/* 256 */ U16(8), U16(12), U16(4), U16(8),
	/* 264 */ U32(8),                /* soffset: 264 - 8 = 256 */
	/* 268 */ U32(8),                /* name: 268 + 8 = 276 */
	/* 272 */ U32(1),                /* buffer 1 */
	/* 276 */ U32(19), 'm', 'i', 'n', '_', 'r', 'u', 'n', 't', 'i', 'm',
		  'e', '_', 'v', 'e', 'r', 's', 'i', 'o', 'n', 0,
	/* 300 */ U32(6),                /* data, at 304 = 16 x 19 */
	/* 304 */ '1', '.', '5', '.', '0', 0, PAD2,
};

/*
 * What the exporter puts in front of hand_model for the plan t0 -> 0,
 * t1 -> 16 (docs/export.md, "Layout").  The Model has 5 fields (version,
 * operator_codes, subgraphs, buffers, metadata), 2 buffers and 1 metadata
 * entry to keep.  Every original position p is at 192 + p afterwards.
 */
#define HAND_HEADER 192
static const uint8_t hand_header[HAND_HEADER] = {
	/*   0 */ U32(28),               /* root: the new Model at 28 */
	/*   4 */ 'T', 'F', 'L', '3',
	/*   8 Model vtable: 4 + 2 x 8 = 20 bytes; table 4 + 4 x 5 = 24 */
	/*   8 */ U16(20), U16(24),
	/*  12 */ U16(4), U16(8), U16(12), U16(0), U16(16), U16(0), U16(20),
		  U16(0),
	/*  28 */ U32(20),               /* soffset: 28 - 20 = 8 */
	/*  32 */ U32(3),                /* version, copied */
	/*  36 */ U32(208),              /* operator_codes: 192 + 52 - 36 */
	/*  40 */ U32(212),              /* subgraphs: 192 + 60 - 40 */
	/*  44 */ U32(8),                /* buffers: the vector at 52 */
	/*  48 */ U32(20),               /* metadata: the vector at 68 */
	/*  52 buffers: 3 = the 2 originals + the plan's */
	/*  52 */ U32(3),
	/*  56 */ U32(372),              /* 192 + 236 - 56: buffer 0 */
	/*  60 */ U32(380),              /* 192 + 248 - 60: buffer 1 */
	/*  64 */ U32(44),               /* 108 - 64: the new Buffer */
	/*  68 metadata: the kept entry, then the plan's */
	/*  68 */ U32(2),
	/*  72 */ U32(384),              /* 192 + 264 - 72 */
	/*  76 */ U32(12),               /* 88 - 76: the new Metadata */
	/*  80 Metadata vtable: 8 bytes, table 12; name at 4, buffer at 8 */
	/*  80 */ U16(8), U16(12), U16(4), U16(8),
	/*  88 */ U32(8),                /* soffset: 88 - 8 = 80 */
	/*  92 */ U32(24),               /* name: 92 + 24 = 116 */
	/*  96 */ U32(2),                /* buffer 2: the new one */
	/* 100 Buffer vtable: 8 bytes, table 8; data at 4, offset absent */
	/* 100 */ U16(8), U16(8), U16(4), U16(0),
	/* 108 */ U32(8),                /* soffset: 108 - 8 = 100 */
	/* 112 */ U32(44),               /* data: 112 + 44 = 156 */
	/* 116 */ U32(23), 'O', 'f', 'f', 'l', 'i', 'n', 'e', 'M', 'e', 'm',
		  'o', 'r', 'y', 'A', 'l', 'l', 'o', 'c', 'a', 't', 'i', 'o',
		  'n', 0,                /* 116 + 4 + 23 + 1 = 144 */
	/* 144 */ PAD4, PAD4, PAD4,      /* data must start at 160 = 16 x 10 */
	/* 156 */ U32(20),               /* 5 words x 4 bytes */
	/* 160 */ U32(1),                /* format version */
	/* 164 */ U32(0),                /* subgraph 0 */
	/* 168 */ U32(2),                /* 2 offsets: the model's tensors */
	/* 172 */ U32(0),                /* t0 at 0 */
	/* 176 */ U32(16),               /* t1 at 16 */
	/* 180 */ PAD4, PAD4, PAD4,      /* to 192 = 16 x 12 */
};

/* ------------------------------------------------------------ helpers */

static char tmpdir[PATH_MAX];

static void make_tmpdir(void)
{
	tu_tmpdir_make(tmpdir, sizeof(tmpdir), "test_export");
}

static void remove_tmpdir(void)
{
	tu_tmpdir_remove(tmpdir);
}

TestSuite(byte_fixture, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(round_trip, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(refuse, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

static char *tmp_path(const char *name)
{
	static char buf[16][PATH_MAX + 64];
	static int k;

	k = (k + 1) % 16;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static const struct ab_load_options tflm_load = {
	.problem = { .lifetimes = AB_LIFETIMES_TFLM, .round_to = 16 },
};

/* The expected plan, made here by the planner itself at alignment 16. */
static void plan_with(const char *planner, const struct ab_input *in,
		      struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(planner);
	struct ab_plan_options o = { .align = 16, .seed = 1 };

	cr_assert_not_null(pl);
	cr_assert_eq(ab_plan_alloc(plan, in->problem.n), 0);
	cr_assert_eq(pl->plan(&in->problem, &o, plan), 0, "%s", planner);
}

/* Tensors and operators of two imports, field by field. */
static void expect_same_graph(const struct ab_graph *a,
			      const struct ab_graph *b, const char *what)
{
	cr_assert_eq(a->n_tensors, b->n_tensors, "%s: tensor count", what);
	cr_assert_eq(a->n_ops, b->n_ops, "%s: operator count", what);
	for (size_t t = 0; t < a->n_tensors; t++) {
		const struct ab_tensor *x = &a->tensors[t], *y = &b->tensors[t];

		cr_expect_str_eq(x->name, y->name, "%s: tensor %zu", what, t);
		cr_expect_eq(x->kind, y->kind, "%s: tensor %zu kind", what, t);
		cr_expect_eq(x->dtype, y->dtype, "%s: tensor %zu type", what, t);
		cr_expect_eq(x->rank, y->rank, "%s: tensor %zu rank", what, t);
		cr_expect_eq(x->bytes, y->bytes, "%s: tensor %zu bytes", what,
			     t);
		for (int d = 0; d < x->rank && d < AB_MAX_RANK; d++)
			cr_expect_eq(x->dims[d], y->dims[d], "%s: tensor %zu dim %d",
				     what, t, d);
	}
	for (size_t k = 0; k < a->n_ops; k++) {
		const struct ab_op *x = &a->ops[k], *y = &b->ops[k];

		cr_expect_str_eq(x->type, y->type, "%s: op %zu type", what, k);
		cr_expect_eq(x->flags, y->flags, "%s: op %zu flags", what, k);
		cr_assert_eq(x->n_inputs, y->n_inputs, "%s: op %zu", what, k);
		cr_assert_eq(x->n_outputs, y->n_outputs, "%s: op %zu", what, k);
		cr_assert_eq(x->n_scratch, y->n_scratch, "%s: op %zu", what, k);
		for (int i = 0; i < x->n_inputs; i++)
			cr_expect_eq(x->inputs[i], y->inputs[i], "%s: op %zu", what, k);
		for (int i = 0; i < x->n_outputs; i++)
			cr_expect_eq(x->outputs[i], y->outputs[i], "%s: op %zu", what, k);
		for (int i = 0; i < x->n_scratch; i++)
			cr_expect_eq(x->scratch[i], y->scratch[i], "%s: op %zu", what, k);
	}
}

/*
 * Export `path` with `planner` (NULL: the default, best_of) and check the
 * round trip.  Returns false (after a log line) for a model the exporter
 * refuses by design (several subgraphs).
 */
static bool round_trip(const char *path, const char *planner)
{
	struct ab_export_options eo = { 0 };
	struct ab_export_report rep;
	struct ab_plan_options o16 = { .align = 16 };
	struct ab_input in1, in2;
	struct ab_plan plan1, plan2;
	struct ab_offline_stats st;
	struct ab_check_result res;
	struct ab_error err = { { 0 } };
	enum ab_exec_mode mode;
	char *orig, *out, *out_path = tmp_path("rt.tflite");
	size_t orig_len, out_len;
	int rc;

	rc = ab_input_load(path, &tflm_load, &in1, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	if (in1.tflite.n_subgraphs != 1) {
		cr_log_info("%s: %zu subgraphs, refused by design (docs/export.md)",
			    path, in1.tflite.n_subgraphs);
		ab_input_free(&in1);
		return false;
	}
	plan_with(planner ? planner : "best_of", &in1, &plan1);
	if (planner)
		eo.planner = ab_planner_find(planner);
	unlink(out_path);
	rc = ab_export_model(path, out_path, &eo, &rep, &err);
	cr_assert_eq(rc, 0, "%s: %s", path, err.msg);
	cr_expect(rep.plan_valid);
	cr_expect_eq(rep.arena_bytes, plan1.peak, "%s", path);
	cr_expect_eq(rep.n_planned, in1.problem.n, "%s", path);

	/* The original bytes, unchanged, after a 16-multiple header. */
	orig = tu_slurp(path, &orig_len);
	out = tu_slurp(out_path, &out_len);
	cr_assert(orig && out);
	cr_expect_eq(rep.header_bytes % 16, 0, "%s", path);
	cr_assert_eq(out_len, orig_len + rep.header_bytes, "%s", path);
	cr_expect_eq(memcmp(out + rep.header_bytes, orig, orig_len), 0,
		     "%s: the original bytes changed", path);

	rc = ab_input_load(out_path, &tflm_load, &in2, &err);
	cr_assert_eq(rc, 0, "%s: the export does not import: %s", path,
		     err.msg);
	expect_same_graph(&in1.graph, &in2.graph, path);
	cr_expect_eq(in2.tflite.version, in1.tflite.version);
	cr_expect_str_eq(in2.tflite.description, in1.tflite.description);
	cr_expect_eq(in2.tflite.weights_bytes, in1.tflite.weights_bytes);
	cr_expect_eq(in2.tflite.n_metadata,
		     in1.tflite.n_metadata + !in1.tflite.has_offline_plan,
		     "%s: metadata entries", path);

	/* The offsets read back: the plan's, -1 for every other tensor. */
	cr_assert(in2.tflite.has_offline_plan, "%s", path);
	cr_assert_eq(in2.tflite.n_offline, in1.graph.n_tensors);
	for (size_t t = 0; t < in1.graph.n_tensors; t++) {
		int64_t want = -1;

		for (size_t i = 0; i < in1.problem.n; i++)
			if ((size_t)in1.problem.tensor[i] == t)
				want = (int64_t)plan1.offset[i];
		cr_expect_eq(in2.tflite.offline_offsets[t], want,
			     "%s: tensor %zu", path, t);
	}

	/* ... as the `offline` planner: identical and valid. */
	cr_assert_eq(in2.problem.n, in1.problem.n);
	cr_assert_eq(ab_plan_alloc(&plan2, in2.problem.n), 0);
	cr_assert_eq(ab_offline_plan(&in2, &o16, &plan2, &st), 0);
	cr_expect_eq(st.fixed, in1.problem.n, "%s", path);
	cr_expect_eq(st.runtime, 0);
	cr_expect_eq(st.misaligned_fixed, 0);
	for (size_t i = 0; i < in2.problem.n; i++)
		cr_expect_eq(plan2.offset[i], plan1.offset[i], "%s: buffer %zu",
			     path, i);
	cr_expect_eq(plan2.peak, plan1.peak, "%s", path);
	cr_expect_eq(ab_validate_plan(&in2.problem, &plan2, 16, &res),
		     AB_PLAN_VALID, "%s: geometric check", path);
	cr_expect_eq(ab_execute_plan(&in2.graph, &in2.problem, &plan2, NULL, &mode, &res),
		     AB_PLAN_VALID, "%s: execution check", path);

	free(orig);
	free(out);
	ab_plan_free(&plan1);
	ab_plan_free(&plan2);
	ab_input_free(&in1);
	ab_input_free(&in2);
	return true;
}

/* ------------------------------------------------------- byte fixture */

Test(byte_fixture, hand_model_imports_as_written)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc = ab_tflite_parse(hand_model, sizeof(hand_model), "hand.tflite",
				 NULL, &g, &info, &err);

	cr_assert_eq(sizeof(hand_model), 312);
	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(g.n_tensors, 2);
	cr_assert_eq(g.n_ops, 1);
	cr_expect_str_eq(g.ops[0].type, "RELU");
	cr_expect_eq(g.tensors[0].kind, AB_KIND_INPUT);
	cr_expect_eq(g.tensors[1].kind, AB_KIND_OUTPUT);
	cr_expect_eq(g.tensors[0].bytes, 16);     /* 1 x 4 x 4 bytes */
	cr_expect_eq(info.version, 3);
	cr_expect_eq(info.n_metadata, 1);
	cr_expect_str_eq(info.metadata[0].name, "min_runtime_version");
	cr_expect_eq(info.metadata[0].bytes, 6);
	cr_expect_not(info.has_offline_plan);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
}

Test(byte_fixture, attach_puts_the_hand_written_header_in_front)
{
	const int32_t words[] = { 1, 0, 2, 0, 16 };
	struct ab_error err;
	uint8_t *out;
	size_t len, hdr;
	bool replaced = true;
	int rc = ab_export_attach(hand_model, sizeof(hand_model), "hand.tflite",
				  words, 5, &out, &len, &hdr, &replaced, &err);

	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(hdr, HAND_HEADER);
	cr_assert_eq(len, HAND_HEADER + sizeof(hand_model));   /* 504 */
	cr_expect_not(replaced);
	for (size_t i = 0; i < HAND_HEADER; i++)
		cr_expect_eq(out[i], hand_header[i], "byte %zu: 0x%02x, expected 0x%02x",
			     i, out[i], hand_header[i]);
	cr_expect_eq(memcmp(out + HAND_HEADER, hand_model, sizeof(hand_model)),
		     0);
	free(out);
}

Test(byte_fixture, other_plan_words_change_only_the_words)
{
	/* t0 left to the runtime, t1 at 32: bytes 172..180 of the header. */
	const int32_t words[] = { 1, 0, 2, -1, 32 };
	uint8_t want[HAND_HEADER];
	const uint8_t w[8] = { U32(-1), U32(32) };
	struct ab_error err;
	uint8_t *out;
	size_t len;

	memcpy(want, hand_header, sizeof(want));
	memcpy(want + 172, w, sizeof(w));
	cr_assert_eq(ab_export_attach(hand_model, sizeof(hand_model), "h",
				      words, 5, &out, &len, NULL, NULL, &err),
		     0, "%s", err.msg);
	cr_assert_eq(len, HAND_HEADER + sizeof(hand_model));
	cr_expect_eq(memcmp(out, want, HAND_HEADER), 0);
	free(out);
}

Test(byte_fixture, export_plans_and_writes_the_hand_written_file)
{
	/* Under tflm lifetimes t0 lives [0, 1] (step 0 is before the op, the
	 * RELU is step 1) and t1 [1, 1]; both 16 bytes.  `linear` puts them
	 * end to end in first-use order: t0 at 0, t1 at 16; arena 32 = the
	 * lower bound (both live at step 1). */
	struct ab_export_options o = { .planner = ab_planner_find("linear") };
	struct ab_export_report rep;
	struct ab_error err;
	char *in = tmp_path("hand.tflite"), *outp = tmp_path("hand.out.tflite");
	char *got;
	size_t len;
	int rc;

	tu_write_bytes(in, hand_model, sizeof(hand_model));
	rc = ab_export_model(in, outp, &o, &rep, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	got = tu_slurp(outp, &len);
	cr_assert_not_null(got);
	cr_assert_eq(len, HAND_HEADER + sizeof(hand_model));
	cr_expect_eq(memcmp(got, hand_header, HAND_HEADER), 0);
	cr_expect_eq(memcmp(got + HAND_HEADER, hand_model, sizeof(hand_model)),
		     0);
	cr_expect_eq(rep.arena_bytes, 32);
	cr_expect_eq(rep.lower_bound_bytes, 32);
	cr_expect_eq(rep.n_tensors, 2);
	cr_expect_eq(rep.n_planned, 2);
	cr_expect_eq(rep.n_runtime + rep.n_const + rep.n_vars + rep.n_empty, 0);
	cr_expect_eq(rep.header_bytes, HAND_HEADER);
	cr_expect_eq(rep.in_bytes, 312);
	cr_expect_eq(rep.out_bytes, 504);
	cr_expect_eq(rep.align, 16);
	cr_expect_str_eq(rep.planner->name, "linear");
	cr_expect_eq(rep.exec_mode, AB_EXEC_FULL);
	free(got);
}

Test(byte_fixture, export_is_deterministic)
{
	char *in = tmp_path("hand.tflite"), *a = tmp_path("a.tflite");
	char *b = tmp_path("b.tflite"), *x, *y;
	struct ab_export_options o = { 0 };
	struct ab_export_report rep;
	struct ab_error err;
	size_t nx, ny;

	tu_write_bytes(in, hand_model, sizeof(hand_model));
	cr_assert_eq(ab_export_model(in, a, &o, &rep, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_export_model(in, b, &o, &rep, &err), 0, "%s", err.msg);
	x = tu_slurp(a, &nx);
	y = tu_slurp(b, &ny);
	cr_assert(x && y);
	cr_assert_eq(nx, ny);
	cr_expect_eq(memcmp(x, y, nx), 0);
	free(x);
	free(y);
}

/* --------------------------------------------------------- round trip */

Test(round_trip, hand_model_with_every_fast_planner)
{
	/* A copy: tmp_path's 16 buffers wrap after 16 round trips. */
	char *in = strdup(tmp_path("hand.tflite"));

	cr_assert_not_null(in);
	tu_write_bytes(in, hand_model, sizeof(hand_model));
	for (size_t k = 0; k < ab_planner_count(); k++)
		if (ab_planner_at(k)->cost == AB_COST_FAST)
			cr_expect(round_trip(in, ab_planner_at(k)->name));
	free(in);
}

Test(round_trip, fixtures)
{
	static const int which[] = { TFW_FIX_THREE_OPS, TFW_FIX_OPTIONAL_INPUT,
				     TFW_FIX_OFFLINE_PLAN, TFW_FIX_DYNAMIC,
				     TFW_FIX_STRING };

	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		char *in = tmp_path("fixture.tflite");
		size_t len;
		uint8_t *m = tfw_fixture(which[i], &len);

		tu_write_bytes(in, m, len);
		free(m);
		cr_expect(round_trip(in, NULL), "%s", tfw_fixture_name(which[i]));
	}
}

Test(round_trip, an_old_plan_is_replaced_and_other_metadata_kept)
{
	/* TFW_FIX_OFFLINE_PLAN: metadata [min_runtime_version -> buffer 1,
	 * OfflineMemoryAllocation -> buffer 2 (0, 16, -1)], 3 buffers.
	 * After export: [min_runtime_version -> 1, OfflineMemoryAllocation
	 * -> 3], the new buffer appended after the three. */
	char *in = tmp_path("old.tflite"), *outp = tmp_path("new.tflite");
	struct ab_export_options o = { .planner = ab_planner_find("linear") };
	struct ab_export_report rep;
	struct ab_tflite_info info;
	struct ab_graph g;
	struct ab_error err;
	size_t len;
	uint8_t *m = tfw_fixture(TFW_FIX_OFFLINE_PLAN, &len);

	tu_write_bytes(in, m, len);
	free(m);
	cr_assert_eq(ab_export_model(in, outp, &o, &rep, &err), 0, "%s",
		     err.msg);
	cr_expect(rep.replaced_old_plan);
	cr_assert_eq(ab_tflite_load(outp, NULL, &g, &info, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(info.n_metadata, 2);
	cr_expect_str_eq(info.metadata[0].name, "min_runtime_version");
	cr_expect_eq(info.metadata[0].buffer, 1);
	cr_expect_str_eq(info.metadata[1].name, "OfflineMemoryAllocation");
	cr_expect_eq(info.metadata[1].buffer, 3);
	cr_expect_eq(info.metadata[1].bytes, 4 * (3 + 3));
	/* a [0,1], b [1,2], c [2,2] under tflm, 16 bytes each; linear: end
	 * to end in first-use order: 0, 16, 32 (the old plan said 0, 16, -1) */
	cr_assert_eq(info.n_offline, 3);
	cr_expect_eq(info.offline_offsets[0], 0);
	cr_expect_eq(info.offline_offsets[1], 16);
	cr_expect_eq(info.offline_offsets[2], 32);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
}

Test(round_trip, an_export_exports_again)
{
	char *in = tmp_path("hand.tflite"), *one = tmp_path("one.tflite");
	char *two = tmp_path("two.tflite");
	struct ab_export_options o = { 0 };
	struct ab_export_report rep;
	struct ab_error err;

	tu_write_bytes(in, hand_model, sizeof(hand_model));
	cr_assert_eq(ab_export_model(in, one, &o, &rep, &err), 0, "%s", err.msg);
	cr_expect_not(rep.replaced_old_plan);
	cr_assert_eq(ab_export_model(one, two, &o, &rep, &err), 0, "%s",
		     err.msg);
	cr_expect(rep.replaced_old_plan);
	cr_expect_eq(rep.in_bytes, 504);
	cr_expect(round_trip(one, NULL));
	cr_expect(round_trip(two, NULL));
}

Test(round_trip, shared_models)
{
	static const char *const subs[] = { "tflm", "coral_test_data",
					    "mediapipe" };
	char dir[512];
	struct stat st;
	size_t n = 0, refused = 0;

	snprintf(dir, sizeof(dir), "%s/models", AB_SHARED_DIR);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		cr_skip_test("%s is absent: the shared models are not checked out beside the repository",
			     dir);
	}
	for (size_t s = 0; s < sizeof(subs) / sizeof(subs[0]); s++) {
		struct dirent **names;
		int k;

		snprintf(dir, sizeof(dir), "%s/models/%s", AB_SHARED_DIR,
			 subs[s]);
		k = scandir(dir, &names, NULL, alphasort);
		for (int i = 0; i < k; i++) {
			const char *f = names[i]->d_name;
			size_t l = strlen(f);
			char path[1024];

			if (l > 7 && !strcmp(f + l - 7, ".tflite")) {
				snprintf(path, sizeof(path), "%s/%s", dir, f);
				if (round_trip(path, NULL))
					n++;
				else
					refused++;
			}
			free(names[i]);
		}
		if (k > 0)
			free(names);
	}
	cr_log_info("export round trip: %zu shared models exported, re-imported and checked (%zu refused by design)",
		    n, refused);
	cr_expect_gt(n, 0, "no shared models found");
}

/* ----------------------------------------------------------- refusals */

/* Runs an export that must fail with `code` and a message containing
 * `needle`; the existing output file must be kept byte for byte. */
static void expect_refused(const char *in, const struct ab_export_options *o,
			   int code, const char *needle)
{
	char *outp = tmp_path("kept.tflite"), *after;
	struct ab_export_report rep;
	struct ab_error err = { { 0 } };
	size_t len;
	int rc;

	tu_write_bytes(outp, (const uint8_t *)"keep", 4);
	rc = ab_export_model(in, outp, o, &rep, &err);
	cr_expect_eq(rc, code, "%s: rc %d, expected %d: %s", in, rc, code,
		     err.msg);
	cr_expect(strstr(err.msg, needle), "message '%s' lacks '%s'", err.msg,
		  needle);
	cr_expect(strstr(err.msg, in) || strstr(err.msg, outp),
		  "message '%s' does not name the file", err.msg);
	after = tu_slurp(outp, &len);
	cr_assert_not_null(after);
	cr_expect(len == 4 && !memcmp(after, "keep", 4),
		  "%s: the existing output was changed", in);
	free(after);
}

static char *fixture_file(int which, const char *name)
{
	char *p = tmp_path(name);
	size_t len;
	uint8_t *m = tfw_fixture(which, &len);

	tu_write_bytes(p, m, len);
	free(m);
	return p;
}

Test(refuse, data_outside_the_flatbuffer)
{
	struct ab_export_options o = { 0 };

	expect_refused(fixture_file(TFW_FIX_EXTERNAL, "ext.tflite"), &o,
		       -ENOTSUP, "buffer 1 keeps its data outside the flatbuffer");
}

Test(refuse, several_subgraphs)
{
	struct ab_export_options o = { 0 };

	expect_refused(fixture_file(TFW_FIX_STATEFUL, "two.tflite"), &o,
		       -ENOTSUP, "2 subgraphs");
}

Test(refuse, a_model_field_the_schema_does_not_have)
{
	/* hand_model plus, at 312, a second Model vtable that also has field
	 * id 8 (at table offset 4); the Model's soffset points there:
	 * 28 - 312 = -284. */
	static const uint8_t vt8[] = {
		U16(22), U16(24), U16(4), U16(8), U16(12), U16(0), U16(16),
		U16(0), U16(20), U16(0), U16(4),
	};
	const uint8_t soff[4] = { U32(-284) };
	uint8_t m[sizeof(hand_model) + sizeof(vt8)];
	const int32_t words[] = { 1, 0, 2, 0, 16 };
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	uint8_t *out = NULL;
	size_t len;

	memcpy(m, hand_model, sizeof(hand_model));
	memcpy(m + sizeof(hand_model), vt8, sizeof(vt8));
	memcpy(m + 28, soff, 4);
	/* Still a model the importer reads (it skips fields it does not
	 * use) ... */
	cr_assert_eq(ab_tflite_parse(m, sizeof(m), "new.tflite", NULL, &g,
				     &info, &err), 0, "%s", err.msg);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
	/* ... but the exporter would copy field 8 blind: refused. */
	cr_expect_eq(ab_export_attach(m, sizeof(m), "new.tflite", words, 5,
				      &out, &len, NULL, NULL, &err),
		     -ENOTSUP);
	cr_expect(strstr(err.msg, "new.tflite") &&
		  strstr(err.msg, "field id 8"), "%s", err.msg);
	cr_expect_null(out);
}

Test(refuse, malformed_models)
{
	const int32_t words[] = { 1, 0, 2, 0, 16 };
	uint8_t m[sizeof(hand_model)];
	struct ab_error err;
	uint8_t *out = NULL;
	size_t len;
	struct ab_export_options o = { 0 };
	char *p = tmp_path("trunc.tflite");

	/* Truncated in the subgraph: the importer names the file. */
	tu_write_bytes(p, hand_model, 150);
	expect_refused(p, &o, -EBADMSG, "trunc.tflite");
	/* Wrong identifier. */
	memcpy(m, hand_model, sizeof(m));
	m[7] = '4';
	cr_expect_eq(ab_export_attach(m, sizeof(m), "id.tflite", words, 5,
				      &out, &len, NULL, NULL, &err), -EBADMSG);
	cr_expect(strstr(err.msg, "id.tflite") && strstr(err.msg, "TFL3"),
		  "%s", err.msg);
	/* A Buffer vector element that points past the end: 76 + 1000. */
	memcpy(m, hand_model, sizeof(m));
	m[76] = 0xe8;
	m[77] = 0x03;
	cr_expect_eq(ab_export_attach(m, sizeof(m), "b.tflite", words, 5,
				      &out, &len, NULL, NULL, &err), -EBADMSG);
	cr_expect(strstr(err.msg, "past the end"), "%s", err.msg);
	cr_expect_null(out);
}

Test(refuse, plan_words_that_do_not_fit_the_model)
{
	const int32_t three[] = { 1, 0, 3, 0, 16, 32 };
	const int32_t lying[] = { 1, 0, 4, 0, 16 };
	struct ab_error err;
	uint8_t *out = NULL;
	size_t len;

	/* TFLite Micro requires the count to be the model's tensor count. */
	cr_expect_eq(ab_export_attach(hand_model, sizeof(hand_model), "h",
				      three, 6, &out, &len, NULL, NULL, &err),
		     -EINVAL);
	cr_expect(strstr(err.msg, "3 offsets but the model has 2 tensors"),
		  "%s", err.msg);
	cr_expect_eq(ab_export_attach(hand_model, sizeof(hand_model), "h",
				      lying, 5, &out, &len, NULL, NULL, &err),
		     -EINVAL);
	cr_expect(strstr(err.msg, "says 4 offsets but 2 follow"), "%s",
		  err.msg);
	cr_expect_null(out);
}

Test(refuse, bad_options)
{
	char *in = tmp_path("hand.tflite");
	struct ab_export_options o = { .align = 8 };
	struct ab_export_report rep;
	struct ab_error err;

	tu_write_bytes(in, hand_model, sizeof(hand_model));
	expect_refused(in, &o, -EINVAL, "power of two >= 16");
	o.align = 48;
	expect_refused(in, &o, -EINVAL, "--align 48");
	o.align = 0;
	/* Never over the input, by name or by another path to it. */
	cr_expect_eq(ab_export_model(in, in, &o, &rep, &err), -EEXIST);
	cr_expect(strstr(err.msg, "overwrite the input"), "%s", err.msg);
	snprintf(err.msg, sizeof(err.msg), "x");
	{
		char other[PATH_MAX + 80];

		snprintf(other, sizeof(other), "%s/./hand.tflite", tmpdir);
		cr_expect_eq(ab_export_model(in, other, &o, &rep, &err),
			     -EEXIST);
	}
	{
		size_t len;
		char *still = tu_slurp(in, &len);

		cr_assert_not_null(still);
		cr_expect(len == sizeof(hand_model) &&
			  !memcmp(still, hand_model, len), "the input changed");
		free(still);
	}
	/* No output file at all: nothing appears. */
	cr_expect_neq(ab_export_model(tmp_path("missing.tflite"),
				      tmp_path("never.tflite"), &o, &rep, &err),
		      0);
	cr_expect_not(file_exists(tmp_path("never.tflite")));
}

/* -------------------------------------------------------- command line */

/* The arenabench next to this test binary: BUILD/tests/x -> BUILD/. */
static bool find_binary(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return false;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return false;
	*slash = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return false;
	*slash = 0;
	snprintf(buf, len, "%s/arenabench", self);
	return access(buf, X_OK) == 0;
}

Test(cli, export_prints_the_report_and_exit_codes_say_what_happened)
{
	char bin[PATH_MAX + 32], cmd[4 * PATH_MAX], *out = NULL;
	char *in = tmp_path("hand.tflite"), *outp = tmp_path("cli.tflite");

	if (!find_binary(bin, sizeof(bin))) {
		cr_skip_test("arenabench is not built next to the test binary");
		return;
	}
	tu_write_bytes(in, hand_model, sizeof(hand_model));
	snprintf(cmd, sizeof(cmd), "%s export %s --out %s --planner linear 2>&1",
		 bin, in, outp);
	cr_assert_eq(tu_run(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "arena:        32 bytes for the planned tensors (lower bound 32)"),
		  "%s", out);
	cr_expect(strstr(out, "2 planned (an offset each), 0 left to the runtime (-1)"),
		  "%s", out);
	cr_expect(strstr(out, "(504 bytes: 192 in front of the original 312"),
		  "%s", out);
	cr_expect(strstr(out, "scratch:") && strstr(out, "not in the model file"),
		  "%s", out);
	free(out);

	/* Usage: no --out, or rules other than TFLite Micro's: exit 2. */
	snprintf(cmd, sizeof(cmd), "%s export %s 2>&1", bin, in);
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "%s export %s --out %s --lifetimes default 2>&1",
		 bin, in, tmp_path("x.tflite"));
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect_not(file_exists(tmp_path("x.tflite")));
	free(out);
	/* A bad model: exit 2, the message names it, nothing written. */
	tu_write_bytes(tmp_path("bad.tflite"), hand_model, 100);
	snprintf(cmd, sizeof(cmd), "%s export %s --out %s 2>&1", bin,
		 tmp_path("bad.tflite"), tmp_path("y.tflite"));
	cr_expect_eq(tu_run(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, "bad.tflite") && strstr(out, "nothing written"),
		  "%s", out);
	cr_expect_not(file_exists(tmp_path("y.tflite")));
	free(out);
}
