/*
 * Every model a user brings gets planned or a reason (issue 32):
 *
 *  - dims: --dim INPUT:AXIS=VALUE gives a dimension with no name (ONNX)
 *    and one axis of a tensor (TFLite); a dims file gives each model its
 *    own values, and bench records the values used in the .meta;
 *  - skips: a corpus run never dies on one model (control flow, a
 *    malformed file, a model needing --dim), --strict stops at the first;
 *    the campaign (make bench), plots/plots.sh and plots/report/report.sh
 *    over a folder of such models, built here from generated fixtures;
 *    a run over models this project did not make (Debian's
 *    libonnx-testdata) and hand-corrupted copies of them;
 *  - conventions: one lower bound for one .onnx in plan, stats, bench and
 *    explain, each naming the rule and alignment;
 *  - structure: an operator writing a constant (or a variable) is refused
 *    on the .tflite and .onnx paths as on the .graph path;
 *  - export then explain: valid, read under TFLite Micro's rule, on a
 *    fixture and on every .tflite of ../shared/models.
 * Every size below is worked out by hand in the comments.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/dims_file.h"
#include "import/input.h"
#include "import/onnx.h"
#include "testutil.h"
#include "tflite_writer.h"

#define BIN AB_BUILD_DIR "/arenabench"
#define NODE_DIR "/usr/share/libonnx-testdata/data/node"

static char fx[PATH_MAX];

static void fixtures_setup(void)
{
	tu_onnx_fixtures(fx, sizeof(fx), "ab-users");
}

static void fixtures_teardown(void)
{
	tu_tmpdir_remove(fx);
}

TestSuite(users, .init = fixtures_setup, .fini = fixtures_teardown);

/* Runs a command (stderr with stdout); returns its exit status. */
static int run(char **out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int run(char **out, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	return tu_run(cmd, out);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* --------------------------------------------------------------- .tflite */

/* x f32[4] (input) -RELU-> w -ADD(x, w)-> y: w's buffer holds 16 bytes of
 * data (a constant) or, with variable, w is a variable. */
static uint8_t *writes_constant_model(bool variable, size_t *len)
{
	static const uint8_t data[16] = { 0 };
	struct tfw_tensor t[] = {
		{ .name = "x", .type = TFW_FLOAT32, .rank = 1, .shape = { 4 } },
		{ .name = "w", .type = TFW_FLOAT32, .rank = 1, .shape = { 4 },
		  .buffer = variable ? 0 : 1, .is_variable = variable },
		{ .name = "y", .type = TFW_FLOAT32, .rank = 1, .shape = { 4 } },
	};
	struct tfw_op ops[] = {
		{ .opcode = 0, .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } },
		{ .opcode = 1, .n_in = 2, .in = { 0, 1 }, .n_out = 1, .out = { 2 } },
	};
	static const int32_t in[] = { 0 }, out[] = { 2 };
	struct tfw_subgraph sg = { .name = "main", .n_tensors = 3, .n_ops = 2,
		.n_inputs = 1, .n_outputs = 1, .tensors = t, .ops = ops,
		.inputs = in, .outputs = out };
	static const struct tfw_opcode codes[] = { { .builtin = 19, .deprecated = 19 },
						   { .builtin = 0 } };
	struct tfw_buffer bufs[] = { { 0 }, { data, sizeof(data), false } };
	struct tfw_model m = { .version = 3, .n_opcodes = 2, .n_subgraphs = 1,
		.n_buffers = 2, .opcodes = codes, .subgraphs = &sg, .buffers = bufs };

	return tfw_build_model(&m, len);
}

static void write_fixture(const char *dir, const char *name, uint8_t *bytes, size_t len)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	tu_write_bytes(p, bytes, len);
	free(bytes);
}

/* Writing a constant is refused on the .tflite path as on .graph (it was
 * planned as an arena buffer), and so is writing a variable; both name
 * the operator and the tensor, exit 2. */
Test(users, tflite_write_to_constant_or_variable_refused)
{
	size_t len;
	char *out;

	{
		uint8_t *fb = writes_constant_model(false, &len);

		write_fixture(fx, "cw.tflite", fb, len);
	}
	{
		uint8_t *fb = writes_constant_model(true, &len);

		write_fixture(fx, "vw.tflite", fb, len);
	}
	cr_expect_eq(run(&out, BIN " plan %s/cw.tflite --planner linear", fx), 2, "%s", out);
	cr_expect(strstr(out, "cw.tflite: op 'op0': output 'w' is a const tensor (expected intermediate or output: operators never write graph inputs, consts or vars)"),
		  "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " explain %s/vw.tflite", fx), 2, "%s", out);
	cr_expect(strstr(out, "vw.tflite: op 'op0': output 'w' is a var tensor (expected intermediate or output: operators never write graph inputs, consts or vars)"),
		  "%s", out);
	free(out);
	/* the same defect in a .graph file, the same words */
	tu_write_file(fx, "cw.graph", "graph cw\ntensor x input f32 4\ntensor w const f32 4\n"
				      "tensor y output f32 4\nop op0 RELU in=x out=w\nop op1 ADD in=x,w out=y\n");
	cr_expect_eq(run(&out, BIN " plan %s/cw.graph --planner linear", fx), 2, "%s", out);
	cr_expect(strstr(out, "cw.graph:5: op 'op0': output 'w' is a const tensor (expected intermediate or output: operators never write graph inputs, consts or vars)"),
		  "%s", out);
	free(out);
}

/* ONNX: a node writing an initializer (a constant) or a graph input. */
Test(users, onnx_write_to_constant_refused)
{
	char *out;

	cr_expect_eq(run(&out, BIN " plan %s/const_write.onnx --planner linear", fx), 2, "%s", out);
	cr_expect(strstr(out, "const_write.onnx: node 0 'relu' (Relu): output 'W' is already an initializer, a constant (operators never write constants)"),
		  "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " stats %s/const_write.onnx", fx), 2, "%s", out);
	free(out);
}

/* TFW_FIX_DYNAMIC: x and y f32 [1,10], signature [-1,10].  --dim x:0=3
 * gives axis 0 of x only (3 x 10 x 4 = 120 B); d0=5 every other dynamic
 * axis 0 (y: 5 x 10 x 4 = 200 B): INPUT:AXIS comes first. */
Test(users, tflite_axis_form)
{
	struct ab_tflite_options o = { .n_dims = 2 };
	struct ab_tflite_info info = { 0 };
	struct ab_graph g;
	struct ab_error err = { { 0 } };
	size_t len;
	uint8_t *b = tfw_fixture(TFW_FIX_DYNAMIC, &len);

	snprintf(o.dims[0].name, sizeof(o.dims[0].name), "d0");
	o.dims[0].value = 5;
	snprintf(o.dims[1].name, sizeof(o.dims[1].name), "x:0");
	o.dims[1].value = 3;
	cr_assert_eq(ab_tflite_parse(b, len, "dyn.tflite", &o, &g, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(g.tensors[0].bytes, 120);
	cr_expect_eq(g.tensors[1].bytes, 200);
	cr_expect_eq(info.dims_used, 3u, "both values used: %u", info.dims_used);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
	free(b);
}

/* ----------------------------------------------------------------- dims */

/* nameless.onnx: input [?,3] f32 -Relu-> y.  Without a value it needs
 * --dim (the message names input:0); with input:0=5, input and y are
 * 5 x 3 x 4 = 60 B each, both live at step 0: bound 120. */
Test(users, nameless_dimension)
{
	char *out;

	cr_expect_eq(run(&out, BIN " plan %s/nameless.onnx --planner linear", fx), 2, "%s", out);
	cr_expect(strstr(out, "nameless.onnx: unresolved dimension 'input:0' (first needed by graph input 'input', shape [?,3]); give each with --dim NAME=VALUE (INPUT:AXIS=VALUE gives any dimension of a graph input, named or not)"),
		  "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " plan %s/nameless.onnx --planner linear --dim input:0=5", fx), 0, "%s", out);
	cr_expect(strstr(out, "sum:          120 bytes\nlower bound:  120 bytes\n"), "%s", out);
	free(out);
	/* a fixed dimension cannot be changed */
	cr_expect_eq(run(&out, BIN " plan %s/nameless.onnx --planner linear --dim input:1=4", fx), 2, "%s", out);
	cr_expect(strstr(out, "graph input 'input': --dim input:1=4: dimension 1 is 3 in the model"), "%s", out);
	free(out);
	/* x [N,?,4]: N by name and axis 1 by INPUT:AXIS: 2 x 3 x 4 x 4 = 96 B,
	 * x and y: 192; INPUT:AXIS wins over the name: 7 x 3 x 4 x 4 = 336 */
	cr_expect_eq(run(&out, BIN " stats %s/nameless_mixed.onnx --dim N=2 --dim x:1=3", fx), 0, "%s", out);
	cr_expect(strstr(out, "\nnameless_mixed,"), "%s", out);
	cr_expect(strstr(out, ",1,2,192,0,192,2\n"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " stats %s/nameless_mixed.onnx --dim N=2 --dim x:0=7 --dim x:1=3", fx), 0, "%s", out);
	cr_expect(strstr(out, ",1,2,672,0,672,2\n"), "%s", out);
	free(out);
	/* only N given: the message names what is still open */
	cr_expect_eq(run(&out, BIN " plan %s/nameless_mixed.onnx --planner linear --dim N=2", fx), 2, "%s", out);
	cr_expect(strstr(out, "unresolved dimension 'x:1' (first needed by graph input 'x', shape [N,?,4])"), "%s", out);
	free(out);
}

/* The dims file: parsing (messages with file and line), matching by path,
 * file name and stem, and the order (the model's line, the command line,
 * the lines for every model). */
Test(users, dims_file_format)
{
	struct ab_dims_file df;
	struct ab_tflite_options base = { .n_dims = 1 }, o;
	struct ab_error err = { { 0 } };
	const char *text = "# per model\n"
			   "models/ocr/det.onnx: W=640 H=480  # a comment\n"
			   "rec: W=320\n"
			   "a b.tflite: x:0=2\n"
			   "\n"
			   "N=1 W=16\n";

	cr_assert_eq(ab_dims_file_parse(text, strlen(text), "d.txt", &df, &err), 0, "%s", err.msg);
	cr_expect_eq(df.n, 6);
	cr_expect_str_eq(df.e[0].model, "models/ocr/det.onnx");
	cr_expect_str_eq(df.e[2].model, "rec");
	cr_expect_str_eq(df.e[3].model, "a b.tflite");
	cr_expect_str_eq(df.e[3].dim.name, "x:0");
	cr_expect_eq(df.e[4].model, NULL);
	cr_expect_eq(df.e[4].line, 6);
	cr_expect(ab_dims_model_matches("det.onnx", "x/models/ocr/det.onnx"));
	cr_expect(ab_dims_model_matches("ocr/det.onnx", "x/models/ocr/det.onnx"));
	cr_expect(ab_dims_model_matches("det", "x/models/ocr/det.onnx"));
	cr_expect(!ab_dims_model_matches("et.onnx", "x/models/ocr/det.onnx"));
	cr_expect(!ab_dims_model_matches("det.on", "x/models/ocr/det.onnx"));
	/* command line W=1000: the model's line first, then it, then every
	 * model's: det gets W=640 H=480 N=1; another model W=1000 N=1 */
	snprintf(base.dims[0].name, sizeof(base.dims[0].name), "W");
	base.dims[0].value = 1000;
	cr_assert_eq(ab_dims_for_input(&df, "models/ocr/det.onnx", &base, &o, &err), 0);
	cr_expect_eq(o.n_dims, 3);
	cr_expect(!strcmp(o.dims[0].name, "W") && o.dims[0].value == 640);
	cr_expect(!strcmp(o.dims[1].name, "H") && o.dims[1].value == 480);
	cr_expect(!strcmp(o.dims[2].name, "N") && o.dims[2].value == 1);
	cr_assert_eq(ab_dims_for_input(&df, "other.onnx", &base, &o, &err), 0);
	cr_expect_eq(o.n_dims, 2);
	cr_expect(!strcmp(o.dims[0].name, "W") && o.dims[0].value == 1000);
	{
		char used[128];

		cr_expect_eq(ab_dims_used_text(&o, 2u, used, sizeof(used)), 1);
		cr_expect_str_eq(used, "N=1");
	}
	ab_dims_file_free(&df);

	cr_expect_eq(ab_dims_file_parse("m: W=x\n", 7, "d.txt", &df, &err), -EINVAL);
	cr_expect_str_eq(err.msg, "d.txt:1: 'W=x': expected NAME=VALUE (NAME under 64 bytes: a symbolic dimension, a tensor, INPUT:AXIS or dN; VALUE a whole number from 0 to 2147483647)");
	cr_expect_eq(ab_dims_file_parse("\nm:\n", 4, "d.txt", &df, &err), -EINVAL);
	cr_expect_str_eq(err.msg, "d.txt:2: model 'm' has no NAME=VALUE (expected MODEL: NAME=VALUE ...)");
	cr_expect_eq(ab_dims_file_parse(": W=1\n", 6, "d.txt", &df, &err), -EINVAL);
	cr_expect_str_eq(err.msg, "d.txt:1: a ':' with no model before it (expected MODEL: NAME=VALUE ... or NAME=VALUE ...)");
}

/* Two models sharing the name W get their own values from a dims file
 * (img[W,4] f32 -Relu-> r -Neg-> y; img last read at step 0, so the bound
 * is two tensors: wide_a W=2: 32 B each, sum 96, bound 64; wide_b W=8:
 * 128 B each, sum 384, bound 256), bench records them per model, and a
 * bad dims file is refused naming its line. */
Test(users, dims_file_per_model)
{
	char dir[PATH_MAX + 16], dims[PATH_MAX + 16], *out, *csv, *meta;

	snprintf(dir, sizeof(dir), "%s/wide", fx);
	snprintf(dims, sizeof(dims), "%s/dims.txt", fx);
	cr_assert_eq(run(NULL, "mkdir %s && cp %s/wide_a.onnx %s/wide_b.onnx %s/", dir, fx, fx, dir), 0);
	tu_write_file(fx, "dims.txt", "# W differs per model\nwide_a: W=2\nwide_b.onnx: W=8\n");
	cr_expect_eq(run(&out, BIN " bench %s --planners linear --align 1 --no-timing --quiet --dims-file %s --out %s/wide.csv",
			 dir, dims, fx), 0, "%s", out);
	free(out);
	csv = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/wide.csv"), NULL);
	cr_assert(csv);
	cr_expect(strstr(csv, "\n3,wide_a,wide,") && strstr(csv, ",2,3,96,0,64,"), "%s", csv);
	cr_expect(strstr(csv, "\n3,wide_b,wide,") && strstr(csv, ",2,3,384,0,256,"), "%s", csv);
	free(csv);
	meta = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/wide.meta"), NULL);
	cr_assert(meta);
	cr_expect(strstr(meta, "\nskipped_inputs=0\ninput_dims=") && strstr(meta, "/wide/wide_a.onnx: W=2\ninput_dims=") &&
		  strstr(meta, "/wide/wide_b.onnx: W=8\n"), "%s", meta);
	free(meta);
	/* plan and explain read the same file */
	cr_expect_eq(run(&out, BIN " plan %s/wide_b.onnx --planner linear --dims-file %s", dir, dims), 0, "%s", out);
	cr_expect(strstr(out, "sum:          384 bytes\nlower bound:  256 bytes\n"), "%s", out);
	free(out);
	tu_write_file(fx, "bad.txt", "wide_a: W=2\nwide_b W=8\n");
	cr_expect_eq(run(&out, BIN " plan %s/wide_b.onnx --planner linear --dims-file %s/bad.txt", dir, fx), 2, "%s", out);
	cr_expect(strstr(out, "arenabench: --dims-file: ") && strstr(out, "/bad.txt:2: 'wide_b': expected NAME=VALUE"), "%s", out);
	free(out);
}

/* ----------------------------------------------------- one ONNX default */

/* chain.onnx: x[1,8] (32 B) -Relu-> r (32) -MatMul-> m[1,16] (64)
 * -Sigmoid-> y (64).  ONNX Runtime's conventions: default lifetimes (x
 * last read at step 0): live bytes 64, 96, 128: bound 128 (under TFLite's
 * lifetimes x would live to the end: 160), alignment 64.  Every command
 * says 128 and names the rule and alignment; suite takes only minimalloc
 * problems and says so. */
Test(users, onnx_one_bound_in_every_command)
{
	char *out;

	cr_expect_eq(run(&out, BIN " plan %s/chain.onnx --planner linear", fx), 0, "%s", out);
	cr_expect(strstr(out, "lower bound:  128 bytes\n") &&
		  strstr(out, "planner:      linear (align 64; lifetimes=default;"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " stats %s/chain.onnx", fx), 0, "%s", out);
	cr_expect(strstr(out, "\nchain,ab-users"), "%s", out);
	cr_expect(strstr(out, ",3,4,192,512,128,2\n"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " explain %s/chain.onnx", fx), 0, "%s", out);
	cr_expect(strstr(out, "conventions: ONNX Runtime -- 64-byte alignment; lifetimes default"), "%s", out);
	cr_expect(strstr(out, "  lower bound                 128 bytes"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " bench %s/chain.onnx --planners linear --no-timing --quiet --out %s/chain.csv", fx, fx), 0, "%s", out);
	free(out);
	out = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/chain.csv"), NULL);
	cr_assert(out);
	/* one row: align 64 only, bound 128 */
	cr_expect_eq(count_lines(out), 2, "%s", out);
	cr_expect(strstr(out, ",192,512,128,2,linear,fast,64,lifetimes=default;"), "%s", out);
	free(out);
	/* explicit options still win */
	cr_expect_eq(run(&out, BIN " explain %s/chain.onnx --lifetimes tflite --align 1", fx), 0, "%s", out);
	cr_expect(strstr(out, "  lower bound                 160 bytes"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " suite %s/chain.onnx", fx), 2, "%s", out);
	cr_expect(strstr(out, "chain.onnx: not a minimalloc .csv problem"), "%s", out);
	free(out);
}

/* ------------------------------------------------------ export, explain */

/* export then explain: the exported copy carries TFLite Micro's offline
 * plan and explain reads it under TFLite Micro's rule, says why, and
 * finds every plan valid (it printed INVALID PLAN three times under
 * TFLite's lifetimes).  --runtime tflite still reads it TFLite's way. */
Test(users, export_then_explain_fixture)
{
	size_t len;
	char *out;

	{
		uint8_t *fb = tfw_fixture(TFW_FIX_THREE_OPS, &len);

		write_fixture(fx, "three.tflite", fb, len);
	}
	cr_assert_eq(run(&out, BIN " export %s/three.tflite --out %s/three_planned.tflite", fx, fx), 0, "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " explain %s/three_planned.tflite", fx), 0, "%s", out);
	cr_expect(strstr(out, "conventions: TFLite Micro -- 16-byte alignment; lifetimes tflm"), "%s", out);
	cr_expect(strstr(out, "  TFLite Micro's conventions because the model carries an offline plan (OfflineMemoryAllocation metadata"),
		  "%s", out);
	cr_expect(!strstr(out, "INVALID"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " explain %s/three_planned.tflite --json", fx), 0, "%s", out);
	cr_expect(strstr(out, "\"runtime\": \"tflm\", \"runtime_reason\": \"the model carries an offline plan"), "%s", out);
	free(out);
	/* the original has no offline plan: TFLite's, no reason line */
	cr_expect_eq(run(&out, BIN " explain %s/three.tflite", fx), 0, "%s", out);
	cr_expect(strstr(out, "conventions: TFLite -- 64-byte alignment; lifetimes tflite") &&
		  !strstr(out, "because the model carries"), "%s", out);
	free(out);
	cr_expect_eq(run(&out, BIN " explain %s/three_planned.tflite --runtime tflite", fx), 1, "%s", out);
	cr_expect(strstr(out, "conventions: TFLite -- 64-byte alignment"), "%s", out);
	free(out);
}

/* The same round trip on every .tflite of ../shared/models. */
Test(users, export_then_explain_shared, .timeout = 600)
{
	const char *dirs[] = { "tflm", "mediapipe", "coral_test_data" };
	size_t n = 0;

	if (!tu_dir_exists(AB_SHARED_DIR "/models")) {
		cr_skip_test(AB_SHARED_DIR "/models is absent (the shared models are not next to this tree)");
		return;
	}
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char p[PATH_MAX];
		DIR *dp;
		struct dirent *e;

		snprintf(p, sizeof(p), AB_SHARED_DIR "/models/%s", dirs[d]);
		dp = opendir(p);
		if (!dp)
			continue;
		while ((e = readdir(dp))) {
			size_t k = strlen(e->d_name);
			char *out;

			if (k < 8 || strcmp(e->d_name + k - 7, ".tflite"))
				continue;
			cr_expect_eq(run(&out, BIN " export %s/%s --out %s/rt.tflite", p, e->d_name, fx), 0,
				     "%s: %s", e->d_name, out);
			free(out);
			/* TFLite Micro's own planner, and the offline plan that
			 * explain adds as a row of its own */
			cr_expect_eq(run(&out, BIN " explain %s/rt.tflite --planners tflm_greedy", fx), 0, "%s: %s", e->d_name, out);
			cr_expect(strstr(out, "conventions: TFLite Micro") && strstr(out, "\n  offline ") &&
				  !strstr(out, "INVALID"), "%s: %s", e->d_name, out);
			free(out);
			n++;
		}
		closedir(dp);
	}
	cr_expect_geq(n, 40, "%zu shared .tflite models", n);
}

/* --------------------------------------------------------- corpus runs */

/* A folder of every kind of model a user brings: ordinary ones (a .tflite,
 * an .onnx), a control-flow .tflite, a malformed .tflite and .onnx, an
 * ONNX model with a nameless dimension and two sharing a name that needs
 * a different value in each; the dims file gives the values.  `make
 * bench`'s campaign exits 0, plans the five plannable, lists the three
 * others with reasons; the merged .meta carries the skips and dims;
 * plots/plots.sh plans the nameless model's layout with its dims, and the
 * report and the paper's corpus text list both. */
Test(users, corpus_campaign_plots_report, .timeout = 900)
{
	char dir[PATH_MAX + 16], res[PATH_MAX + 16], *out, *meta, *csv, *html;
	size_t len;

	if (run(NULL, "command -v parallel && command -v flock && command -v gnuplot")) {
		cr_skip_test("GNU parallel, flock or gnuplot is missing (sh scripts/deps.sh campaign plots installs them)");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/corpus", fx);
	snprintf(res, sizeof(res), "%s/res", fx);
	cr_assert_eq(run(NULL, "mkdir -p %s %s && cp %s/chain.onnx %s/nameless.onnx %s/wide_a.onnx %s/wide_b.onnx %s/",
			 dir, res, fx, fx, fx, fx, dir), 0);
	{
		uint8_t *fb = tfw_fixture(TFW_FIX_THREE_OPS, &len);

		write_fixture(dir, "three.tflite", fb, len);
	}
	{
		/* IF with two branches, then a WHILE: planned since control
		 * flow is (docs/semantics.md, "Control flow") */
		uint8_t *fb = tfw_fixture(TFW_FIX_CONTROL_FLOW, &len);

		write_fixture(dir, "if_model.tflite", fb, len);
	}
	{
		uint8_t *b = tfw_fixture(TFW_FIX_THREE_OPS, &len);

		write_fixture(dir, "truncated.tflite", b, len / 2);
	}
	tu_write_file(dir, "garbage.onnx", "this is not a protobuf\n");
	tu_write_file(fx, "corpus.dims", "nameless: input:0=5\nwide_a: W=2\nwide_b: W=8\n");

	/* (TMPDIR: the workers' per-CPU locks are this test's, not shared
	 * with campaigns that other users of the machine run) */
	cr_expect_eq(run(&out, "TMPDIR=%s sh scripts/study/campaign.sh run --build " AB_BUILD_DIR " --jobs 2 --dir %s/camp --out %s/results.csv %s -- --align 1,16,64 --no-timing --dims-file %s/corpus.dims",
			 fx, fx, res, dir, fx), 0, "%s", out);
	cr_expect(strstr(out, "campaign: 2 of 8 inputs skipped, the campaign went on without them (listed in "), "%s", out);
	cr_expect(!strstr(out, ".tmp."), "a message names a temporary file: %s", out);
	free(out);
	meta = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, res), "/results.meta"), NULL);
	cr_assert(meta);
	cr_expect(strstr(meta, "\nskipped_inputs=2\n"), "%s", meta);
	cr_expect(strstr(meta, "/corpus/garbage.onnx: not an ONNX ModelProto (protobuf parse failed: truncated, wrong format, or nested too deeply)\n"), "%s", meta);
	cr_expect(!strstr(meta, "/corpus/if_model.tflite: "), "the control-flow model was skipped: %s", meta);
	cr_expect(strstr(meta, "skipped_input=") && strstr(meta, "/corpus/truncated.tflite: "), "%s", meta);
	cr_expect(strstr(meta, "/corpus/nameless.onnx: input:0=5\n") && strstr(meta, "/corpus/wide_a.onnx: W=2\n") &&
		  strstr(meta, "/corpus/wide_b.onnx: W=8\n"), "%s", meta);
	free(meta);
	csv = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, res), "/results.csv"), NULL);
	cr_assert(csv);
	for (const char *g = "chain\0if_model\0nameless\0three\0wide_a\0wide_b\0"; *g; g += strlen(g) + 1) {
		char key[64];

		snprintf(key, sizeof(key), "\n3,%s,corpus,", g);
		cr_expect(strstr(csv, key), "no row of %s", g);
	}
	cr_expect(!strstr(csv, "garbage") && !strstr(csv, "truncated"), "%s", csv);
	/* nameless at input:0=5: 60 + 60 bytes; wide_b at W=8: sum 384 */
	cr_expect(strstr(csv, "\n3,nameless,corpus,") && strstr(csv, ",1,2,120,0,120,"), "%s", csv);
	cr_expect(strstr(csv, ",2,3,384,0,256,"), "%s", csv);
	free(csv);

	/* the report (and its figures, plots/plots.sh) plan the nameless
	 * model's layouts with the bench's value */
	cr_expect_eq(run(&out, "RESULTS_DIR=%s REPORT_OUT=%s/report BUILD=" AB_BUILD_DIR " LAYOUT_GRAPH=%s/nameless.onnx FORMATS=svg sh plots/report/report.sh",
			 res, fx, dir), 0, "%s", out);
	free(out);
	html = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/report/index.html"), NULL);
	cr_assert(html);
	cr_expect(strstr(html, "data-name=\"layout_size_first_fit\"") && strstr(html, "nameless, size_first_fit, align 64"),
		  "no layout of nameless in the report");
	cr_expect(strstr(html, "2 inputs could not be planned and were skipped"), "report");
	cr_expect(strstr(html, "/corpus/garbage.onnx</code></td><td>not an ONNX ModelProto"), "report");
	cr_expect(strstr(html, "/corpus/nameless.onnx</code></td><td>input:0=5</td>"), "report");
	free(html);
	/* the paper's corpus section names them too */
	cr_expect_eq(run(&out, "RESULTS_DIR=%s PLOTS_OUT=%s/plots PAPER_GENERATED=%s/gen sh paper/gen/paper-numbers.sh", res, fx, fx), 0, "%s", out);
	free(out);
	out = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/gen/corpus.tex"), NULL);
	cr_assert(out);
	cr_expect(strstr(out, " The bench could not plan 2 inputs, skipped with the reason recorded in \\texttt{results.meta}: \\texttt{garbage} and \\texttt{truncated}."),
		  "%s", out);
	cr_expect(strstr(out, " 3 models were planned with the \\texttt{-{}-dim} values recorded there (the plan layouts use the same): \\texttt{nameless}, \\texttt{wide\\_a} and \\texttt{wide\\_b}.\n"),
		  "%s", out);
	free(out);

	/* --strict: the first model that cannot be planned fails its shard
	 * and the campaign, nothing written */
	cr_expect_eq(run(&out, "TMPDIR=%s sh scripts/study/campaign.sh run --build " AB_BUILD_DIR " --jobs 1 --dir %s/camp2 --out %s/strict.csv %s -- --align 1 --no-timing --strict --dims-file %s/corpus.dims",
			 fx, fx, res, dir, fx), 2, "%s", out);
	cr_expect(strstr(out, "bench --strict: stopped at the first input that cannot be planned") &&
		  strstr(out, "/strict.csv is unchanged"), "%s", out);
	cr_expect(!strstr(out, ".tmp."), "a message names a temporary file: %s", out);
	free(out);
	cr_expect(access(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, res), "/strict.csv"), F_OK), "--strict wrote a CSV");
}

/* Models this project did not make: every 8th model of Debian's
 * libonnx-testdata node tests, plus hand-corrupted copies (cut in half, a
 * byte flipped in the header).  One bench over the folder exits 0; every
 * model is either planned (rows) or listed skipped with a reason. */
Test(users, foreign_models_never_stop_a_run, .timeout = 600)
{
	char dir[PATH_MAX + 16], *out, *meta, *csv;
	struct dirent **names;
	int n;
	size_t models = 0, skipped = 0, planned = 0;

	if (!tu_dir_exists(NODE_DIR)) {
		cr_skip_test(NODE_DIR " is absent (sh scripts/deps.sh test onnx installs libonnx-testdata)");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/foreign", fx);
	cr_assert_eq(mkdir(dir, 0755), 0);
	n = scandir(NODE_DIR, &names, NULL, alphasort);
	cr_assert_gt(n, 0);
	for (int i = 0; i < n; i++) {
		char src[PATH_MAX + 300], dst[PATH_MAX + 300];

		if (names[i]->d_name[0] != '.' && i % 8 == 0) {
			snprintf(src, sizeof(src), NODE_DIR "/%s/model.onnx", names[i]->d_name);
			snprintf(dst, sizeof(dst), "%s/%s.onnx", dir, names[i]->d_name);
			if (!access(src, R_OK) && !symlink(src, dst))
				models++;
			if (i % 64 == 0 && !access(src, R_OK)) {
				/* cut in half, and the first byte flipped */
				cr_assert_eq(run(NULL, "head -c $(($(wc -c < %s) / 2)) %s > %s/%s_cut.onnx && "
						       "{ printf '\\377'; tail -c +2 %s; } > %s/%s_flip.onnx",
						 src, src, dir, names[i]->d_name, src, dir, names[i]->d_name), 0);
				models += 2;
			}
		}
		free(names[i]);
	}
	free(names);
	cr_assert_gt(models, 100);
	cr_expect_eq(run(&out, "nice " BIN " bench %s --planners linear --align 1 --no-timing --quiet --out %s/foreign.csv",
			 dir, fx), 0, "%s", out);
	free(out);
	meta = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/foreign.meta"), NULL);
	csv = tu_slurp(strcat(strcpy((char[PATH_MAX + 32]){ 0 }, fx), "/foreign.csv"), NULL);
	cr_assert(meta && csv);
	cr_assert_eq(sscanf(strstr(meta, "\nskipped_inputs=") + 1, "skipped_inputs=%zu", &skipped), 1);
	/* one row per planned model (one planner, one alignment) */
	planned = count_lines(csv) - 1;
	cr_expect_eq(planned + skipped, models, "%zu planned + %zu skipped of %zu", planned, skipped, models);
	cr_expect_gt(planned, 0);
	for (const char *p = meta; (p = strstr(p, "\nskipped_input=")); p++) {
		const char *eol = strchr(p + 1, '\n');
		const char *sep = strstr(p, ".onnx: ");

		cr_expect(sep && sep < eol && eol - sep > 8, "a skip without a reason: %.*s", (int)(eol - p), p);
	}
	cr_expect(strstr(meta, "_cut.onnx: "), "%s", meta);
	free(meta);
	free(csv);
}
