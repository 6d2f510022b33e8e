/*
 * Tests of `arenabench explain`, the offline plan and `arenabench suite`
 * (harness/report/explain.c, harness/report/offline.c, harness/report/suite.c).
 *
 *  - a hand-written graph pins the lower-bound step, its operator and the
 *    tensors live there, under the TFLite and default lifetime rules;
 *  - --runtime tflm (through the real CLI) applies 16-byte alignment and
 *    rounding to 16: a case computed by hand;
 *  - the JSON output parses (a small recursive-descent checker) and has
 *    the keys a script reads; strings are escaped;
 *  - offline plans from tests/lib/tflite_writer.h fixtures: imported as
 *    `offline`, checked, and a deliberately overlapping one is invalid;
 *  - the suite command on a folder of tiny CSV problems made here;
 *  - every model under ../shared/models explains with valid plans (skipped
 *    with a message when ../shared is absent).
 * The CLI tests find the binary beside the test binary's directory
 * ($(BUILD)/arenabench); `make test` builds it first.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/explain.h"
#include "report/suite.h"
#include "testutil.h"
#include "tflite_writer.h"

/* The planner itself, by symbol (the harness reaches it through the
 * registry). */
extern const struct ab_planner ab_planner_offline;

/* ------------------------------------------------------------- helpers */

/* in [0, 0]; a [0, 2]; b [1, 2]; ws [1, 1]; c [2, 3]; out [3, 3] under
 * the default rule.  The tflite rule keeps `in` live to step 3. */
static const char hand_graph[] =
	"graph explain_pin\n"
	"family test\n"
	"tensor in   input         u8    100\n"
	"tensor w    const         u8    50\n"
	"tensor a    intermediate  u8    200\n"
	"tensor b    intermediate  u8    300\n"
	"tensor ws   scratch       bytes 64\n"
	"tensor c    intermediate  u8    10\n"
	"tensor out  output        u8    40\n"
	"op op0 CONV_2D in=in,w out=a\n"
	"op op1 RELU    in=a    out=b  scratch=ws\n"
	"op op2 ADD     in=a,b  out=c\n"
	"op op3 MUL     in=c    out=out\n";

static char tmpdir[PATH_MAX];

static void make_tmpdir(void)
{
	tu_tmpdir_make(tmpdir, sizeof(tmpdir), "test_explain");
}

static void remove_tmpdir(void)
{
	tu_tmpdir_remove(tmpdir);
}

TestSuite(explain, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(offline, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(suite, .init = make_tmpdir, .fini = remove_tmpdir);
TestSuite(shared);

static const char *write_file(const char *name, const void *data, size_t len)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* The conventions main.c's apply_runtime() gives each runtime. */
static void conventions(struct ab_explain_args *a, const char *runtime)
{
	memset(a, 0, sizeof(*a));
	a->runtime = runtime;
	a->plan.seed = 1;
	if (!strcmp(runtime, "tflm")) {
		a->plan.align = 16;
		a->load.problem.lifetimes = AB_LIFETIMES_TFLM;
		a->load.problem.round_to = 16;
	} else {
		a->plan.align = 64;
		a->load.problem.lifetimes = AB_LIFETIMES_TFLITE;
	}
}

static void explain_ok(const struct ab_explain_args *a,
		       struct ab_explanation *x)
{
	struct ab_error err = { { 0 } };
	int rc = ab_explain(a, x, &err);

	cr_assert_eq(rc, 0, "explain %s: %s", a->path, err.msg);
}

static const char *name_of(const struct ab_explanation *x, size_t buffer)
{
	return x->in.graph.tensors[x->in.problem.tensor[buffer]].name;
}

static char *text_of(const struct ab_explanation *x,
		     const struct ab_explain_args *a, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	if (json)
		cr_assert_eq(ab_explain_write_json(f, x), 0);
	else
		cr_assert_eq(ab_explain_write_text(f, x, a), 0);
	fclose(f);
	return buf;
}

static void expect_all_valid(const struct ab_explanation *x)
{
	for (size_t k = 0; k < x->n_planners * x->n_aligns; k++)
		cr_expect(x->results[k].row.check.valid, "%s: %s at align %u: %s",
			  x->in.path, x->results[k].planner->name,
			  x->results[k].align,
			  x->results[k].row.check.message ? x->results[k].row.check.message : "?");
	cr_expect_eq(x->invalid, 0);
	cr_expect_geq(x->best, 0, "%s: no best plan", x->in.path);
}

/* ------------------------------------------------ a minimal JSON checker */

struct js {
	const char *s;
	int depth;
};

static void js_ws(struct js *j)
{
	while (*j->s == ' ' || *j->s == '\n' || *j->s == '\t' || *j->s == '\r')
		j->s++;
}

static bool js_value(struct js *j);

static bool js_string(struct js *j)
{
	if (*j->s != '"')
		return false;
	for (j->s++; *j->s != '"'; j->s++) {
		if ((unsigned char)*j->s < 0x20 || !*j->s)
			return false;
		if (*j->s == '\\') {
			j->s++;
			if (*j->s == 'u') {
				for (int k = 1; k <= 4; k++)
					if (!isxdigit((unsigned char)j->s[k]))
						return false;
				j->s += 4;
			} else if (!strchr("\"\\/bfnrt", *j->s) || !*j->s) {
				return false;
			}
		}
	}
	j->s++;
	return true;
}

static bool js_number(struct js *j)
{
	char *end;

	if (*j->s != '-' && !isdigit((unsigned char)*j->s))
		return false;
	strtod(j->s, &end);
	if (end == j->s)
		return false;
	j->s = end;
	return true;
}

static bool js_list(struct js *j, char close, bool object)
{
	j->s++;
	js_ws(j);
	if (*j->s == close) {
		j->s++;
		return true;
	}
	for (;;) {
		js_ws(j);
		if (object) {
			if (!js_string(j))
				return false;
			js_ws(j);
			if (*j->s++ != ':')
				return false;
		}
		if (!js_value(j))
			return false;
		js_ws(j);
		if (*j->s == close) {
			j->s++;
			return true;
		}
		if (*j->s++ != ',')
			return false;
	}
}

static bool js_value(struct js *j)
{
	bool ok;

	js_ws(j);
	if (++j->depth > 64)
		return false;
	if (*j->s == '{')
		ok = js_list(j, '}', true);
	else if (*j->s == '[')
		ok = js_list(j, ']', false);
	else if (*j->s == '"')
		ok = js_string(j);
	else if (!strncmp(j->s, "true", 4) || !strncmp(j->s, "null", 4))
		ok = (j->s += 4, true);
	else if (!strncmp(j->s, "false", 5))
		ok = (j->s += 5, true);
	else
		ok = js_number(j);
	j->depth--;
	return ok;
}

static void expect_json(const char *text)
{
	struct js j = { text, 0 };
	bool ok = js_value(&j);

	js_ws(&j);
	cr_assert(ok && !*j.s, "invalid JSON near offset %zu: '%.40s'",
		  (size_t)(j.s - text), j.s);
}

/* The number after "key": at its first occurrence, or -1. */
static long long json_int(const char *text, const char *key)
{
	char k[128];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\": ", key);
	p = strstr(text, k);
	return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

/* ------------------------------------------------------------ the CLI */

static bool cli_path(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = 0;
	slash = strrchr(exe, '/'); /* .../BUILD/tests/test_explain */
	if (!slash)
		return false;
	*slash = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = 0;
	if (strlen(exe) + 12 > len)
		return false;
	strcpy(out, exe);
	strcat(out, "/arenabench");
	return access(out, X_OK) == 0;
}

/* Runs the CLI with a shell command tail; stdout into *out (malloc'd). */
static int run_cli(const char *args, char **out)
{
	char bin[PATH_MAX], cmd[3 * PATH_MAX];
	size_t cap = 1 << 16, len = 0, n;
	FILE *p;
	int st;

	if (!cli_path(bin, sizeof(bin)))
		cr_skip_test("the arenabench binary is not built beside the tests (make builds it)");
	snprintf(cmd, sizeof(cmd), "'%s' --help | grep -q '^  explain MODEL' && '%s' --help | grep -q '^  suite DIR'",
		 bin, bin);
	if (system(cmd) != 0)
		cr_skip_test("%s has no explain/suite commands yet (the main.c hook of docs/explain.md is missing)",
			     bin);
	snprintf(cmd, sizeof(cmd), "'%s' %s", bin, args);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	*out = malloc(cap);
	while ((n = fread(*out + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (len + 1 == cap)
			*out = realloc(*out, cap *= 2);
	}
	(*out)[len] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ------------------------------------------------------ hand-made graph */

Test(explain, pins_lower_bound_step_tflite)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	static const char *const live[] = { "b", "a", "in", "ws" };

	conventions(&a, "tflite");
	a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	explain_ok(&a, &x);
	/* step 0: in 100 + a 200; step 1: in + a + b 300 + ws 64 = 664;
	 * step 2: in + a + b + c 10 = 610; step 3: in + c + out 40 = 150 */
	cr_expect_eq(x.sum_bytes, 714);
	cr_expect_eq(x.lower_bound_bytes, 664);
	cr_expect_eq(x.weights_bytes, 50);
	cr_expect_eq(x.persistent_bytes, 0);
	cr_expect_eq(x.lb_step, 1);
	cr_expect_eq(x.lb_op, 1);
	cr_expect_str_eq(x.in.graph.ops[x.lb_op].type, "RELU");
	cr_assert_eq(x.n_lb_live, 4);
	for (size_t k = 0; k < 4; k++)
		cr_expect_str_eq(name_of(&x, x.lb_live[k]), live[k], "live %zu", k);
	cr_expect_eq(x.align, 64);
	cr_expect_eq(x.aligns[0], 64);
	cr_expect_str_eq(name_of(&x, x.largest[0]), "b");
	cr_expect_eq(x.n_largest, 6);
	expect_all_valid(&x);
	cr_expect_geq(x.best_plan.peak, 664);
	ab_explanation_free(&x);
}

Test(explain, pins_lower_bound_step_default_rule)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	char *text;

	conventions(&a, "tflite");
	a.load.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	a.lifetimes_given = true;
	a.plan.align = 1;
	a.align_given = true;
	a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	explain_ok(&a, &x);
	/* step 1: a 200 + b 300 + ws 64 = 564 (in ended at step 0) */
	cr_expect_eq(x.lower_bound_bytes, 564);
	cr_expect_eq(x.lb_step, 1);
	cr_assert_eq(x.n_lb_live, 3);
	cr_expect_str_eq(name_of(&x, x.lb_live[0]), "b");
	cr_expect_str_eq(name_of(&x, x.lb_live[1]), "a");
	cr_expect_str_eq(name_of(&x, x.lb_live[2]), "ws");
	expect_all_valid(&x);
	/* at align 1 size_first_fit meets the bound: b 0, a 300, ws 500 */
	for (size_t k = 0; k < x.n_planners; k++)
		if (!strcmp(ab_explain_at(&x, k, 0)->planner->name, "size_first_fit"))
			cr_expect_eq(ab_explain_at(&x, k, 0)->row.check.peak_bytes, 564);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "step 1, operator 1 RELU 'op1'"), "%s", text);
	cr_expect(strstr(text, "(--align)"), "overrides are reported");
	cr_expect(strstr(text, "(--lifetimes)"));
	cr_expect(strstr(text, "<- lower bound"));
	free(text);
	ab_explanation_free(&x);
}

/* A chain t0 -> t1 -> ... -> t<len> of RELUs into g (64 KiB); tensor t_i
 * has 64 + (i % 7) * size_step bytes.  Returns the text's length. */
static size_t chain_graph(char *g, int len, int size_step)
{
	size_t n = (size_t)sprintf(g, "graph chain\ntensor t0 input u8 64\n");

	for (int i = 1; i <= len; i++)
		n += (size_t)sprintf(g + n, "tensor t%d %s u8 %d\n", i,
				     i == len ? "output" : "intermediate",
				     64 + (i % 7) * size_step);
	for (int i = 1; i <= len; i++)
		n += (size_t)sprintf(g + n, "op o%d RELU in=t%d out=t%d\n", i,
				     i - 1, i);
	return n;
}

Test(explain, long_schedule_timeline_is_sampled)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	char *g = malloc(1 << 16), *text;
	size_t n = chain_graph(g, 200, 16);
	conventions(&a, "tflite");
	a.path = write_file("chain.graph", g, n);
	a.timeline_rows = 10;
	explain_ok(&a, &x);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "sampled: 10 of 200 rows"), "%s", text);
	cr_expect(strstr(text, "<- lower bound"), "the bound's step is kept");
	expect_all_valid(&x);
	free(text);
	free(g);
	ab_explanation_free(&x);
}

Test(explain, json_parses_and_escapes)
{
	static const char g[] =
		"graph \"quoted\\name\n"
		"tensor x\"y input f32 1x4\n"
		"tensor back\\slash output f32 1x4\n"
		"op o RELU in=x\"y out=back\\slash\n";
	struct ab_explain_args a;
	struct ab_explanation x;
	char *json;

	conventions(&a, "tflite");
	a.path = write_file("quote.graph", g, sizeof(g) - 1);
	explain_ok(&a, &x);
	json = text_of(&x, &a, true);
	expect_json(json);
	cr_expect(strstr(json, "\"x\\\"y\""), "quote escaped: %s", json);
	cr_expect(strstr(json, "\"back\\\\slash\""), "backslash escaped");
	static const char *const keys[] = {
		"\"conventions\"", "\"sum_bytes\"", "\"lower_bound_bytes\"",
		"\"weights_bytes\"", "\"persistent_bytes\"", "\"planners\"",
		"\"reuse_efficiency\"", "\"ratio_to_lower_bound\"",
		"\"lower_bound_step\"", "\"largest_tensors\"", "\"alignments\"",
		"\"all_plans_valid\": true", "\"best_planner\"", "\"offline\": null",
		"\"live_profile\"", "\"time_ms\"",
	};
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		cr_expect(strstr(json, keys[k]), "key %s missing", keys[k]);
	cr_expect_eq(json_int(json, "lower_bound_bytes"), 32);
	free(json);
	ab_explanation_free(&x);

	/* and the hand graph, which has an operator at the bound */
	a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	explain_ok(&a, &x);
	json = text_of(&x, &a, true);
	expect_json(json);
	cr_expect(strstr(json, "\"operator\": {\"index\": 1, \"name\": \"op1\", \"type\": \"RELU\"}"),
		  "%s", json);
	free(json);
	ab_explanation_free(&x);
}

/* in [0,1]; a [1,3]; b [2,3]; ws [2,2]; c [3,4]; out [4,4] (op k at step
 * k + 1), sizes rounded up to 16: 112, 208, 304, 64, 16, 48. */
Test(explain, runtime_tflm_aligns_and_rounds)
{
	char *out = NULL, args[PATH_MAX + 128];
	const char *path;
	int code;

	path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	snprintf(args, sizeof(args), "explain '%s' --runtime tflm --json", path);
	code = run_cli(args, &out);
	cr_assert_eq(code, 0, "exit %d: %s", code, out);
	expect_json(out);
	cr_expect(strstr(out, "\"runtime\": \"tflm\", \"align_bytes\": 16, \"lifetimes\": \"tflm\", \"round_bytes\": 16, \"round_applied\": true, \"overridden\": []"),
		  "%s", out);
	cr_expect_eq(json_int(out, "sum_bytes"), 112 + 208 + 304 + 64 + 16 + 48);
	/* step 2: a 208 + b 304 + ws 64 */
	cr_expect_eq(json_int(out, "lower_bound_bytes"), 576);
	cr_expect(strstr(out, "\"lower_bound_step\": {\"step\": 2, \"operator\": {\"index\": 1"),
		  "%s", out);
	/* size_first_fit: b 0, a 304, in 0, ws 512, out 0, c 512 -> 576 */
	cr_expect(strstr(out, "{\"planner\": \"size_first_fit\", \"align_bytes\": 16, \"valid\": true, \"error\": null, \"peak_bytes\": 576,"),
		  "%s", out);
	cr_expect(strstr(out, "\"all_plans_valid\": true"));
	free(out);

	/* --align overrides the runtime's alignment, nothing else */
	snprintf(args, sizeof(args), "explain '%s' --runtime tflm --align 64 --json", path);
	code = run_cli(args, &out);
	cr_assert_eq(code, 0, "exit %d", code);
	cr_expect(strstr(out, "\"align_bytes\": 64, \"lifetimes\": \"tflm\", \"round_bytes\": 16, \"round_applied\": true, \"overridden\": [\"align\"]"),
		  "%s", out);
	free(out);

	/* the default is TFLite */
	snprintf(args, sizeof(args), "explain '%s'", path);
	code = run_cli(args, &out);
	cr_assert_eq(code, 0);
	cr_expect(strstr(out, "conventions: TFLite -- 64-byte alignment; lifetimes tflite"),
		  "%s", out);
	free(out);
}

Test(explain, tflm_plans_are_aligned_to_16)
{
	struct ab_explain_args a;
	struct ab_explanation x;

	conventions(&a, "tflm");
	a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	explain_ok(&a, &x);
	for (size_t i = 0; i < x.in.problem.n; i++) {
		cr_expect_eq(x.in.problem.buf[i].size % 16, 0);
		cr_expect_eq(x.best_plan.offset[i] % 16, 0);
	}
	cr_expect_eq(x.lb_step, 2);
	cr_expect_eq(x.lb_op, 1);
	cr_expect_eq(x.best_plan.peak, 576);
	expect_all_valid(&x);
	ab_explanation_free(&x);
}

Test(explain, csv_problem)
{
	static const char csv[] = "id,lower,upper,size\n"
				  "0,0,2,10\n1,1,3,20\n2,2,4,5\n";
	struct ab_explain_args a;
	struct ab_explanation x;
	char *text;

	conventions(&a, "tflite");
	a.plan.align = 1;
	a.path = write_file("p.64.csv", csv, sizeof(csv) - 1);
	explain_ok(&a, &x);
	/* t0: 10; t1: 30; t2: 25; t3: 5 */
	cr_expect_eq(x.lower_bound_bytes, 30);
	cr_expect_eq(x.lb_step, 1);
	cr_expect_eq(x.lb_op, -1);
	cr_expect_eq(x.in.problem.capacity, 64);
	expect_all_valid(&x);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "capacity"), "%s", text);
	cr_expect(strstr(text, "lifetimes as the file gives them"));
	free(text);
	text = text_of(&x, &a, true);
	expect_json(text);
	cr_expect(strstr(text, "\"capacity_bytes\": 64"));
	free(text);
	ab_explanation_free(&x);
}

/* The runner ab_explain_plot must not reach in the test below. */
static int no_runner(const char *gnuplot, const char *expr, const char *script)
{
	cr_expect_fail("gnuplot was started: %s %s %s", gnuplot, expr, script);
	return -EIO;
}

Test(explain, plot_needs_gnuplot)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	struct ab_error err = { { 0 } };
	char out[PATH_MAX + 16];
	struct stat st;

	conventions(&a, "tflite");
	a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	snprintf(out, sizeof(out), "%s/plan.svg", tmpdir);
	a.plot = out;
	explain_ok(&a, &x);
	setenv("PATH", "/nonexistent", 1); /* this test runs in its own process */
	cr_expect_lt(ab_explain_plot(&x, &a, no_runner, &err), 0);
	cr_expect(strstr(err.msg, "gnuplot is not installed"), "%s", err.msg);
	cr_expect_neq(stat(out, &st), 0, "nothing written");
	a.plot = "x.txt";
	cr_expect_lt(ab_explain_plot(&x, &a, no_runner, &err), 0);
	cr_expect(strstr(err.msg, ".svg, .png or .pdf"), "%s", err.msg);
	ab_explanation_free(&x);
}

Test(explain, plot_draws_with_layout_gp)
{
	char *out = NULL, args[2 * PATH_MAX];
	char svg[PATH_MAX + 16];
	const char *path;
	struct stat st;
	int code;

	if (system("command -v gnuplot >/dev/null 2>&1") != 0)
		cr_skip_test("gnuplot is not installed: the drawing is not tested");
	path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	snprintf(svg, sizeof(svg), "%s/plan.svg", tmpdir);
	snprintf(args, sizeof(args), "explain '%s' --plot '%s' 2>&1", path, svg);
	code = run_cli(args, &out);
	cr_expect_eq(code, 0, "exit %d: %s", code, out);
	cr_expect_eq(stat(svg, &st), 0, "no %s: %s", svg, out);
	cr_expect_gt(st.st_size, 1000);
	free(out);
}

/* ------------------------------------- the memory report (issue 16, 9) */

/* The buffer holding the graph tensor named `name`. */
static size_t buffer_named(const struct ab_explanation *x, const char *name)
{
	for (size_t i = 0; i < x->in.problem.n; i++)
		if (!strcmp(name_of(x, i), name))
			return i;
	cr_assert_fail("no buffer %s", name);
	return 0;
}

/* The hand graph under the default rule at alignment 1, planners given. */
static void explain_hand_default(struct ab_explain_args *a,
				 struct ab_explanation *x, const char *planners)
{
	conventions(a, "tflite");
	a->load.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	a->plan.align = 1;
	a->planners = planners;
	a->path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	explain_ok(a, x);
}

/* The buffer-list row of tensor `name` in text: symbol, bytes, offset, end. */
static void list_row(const char *text, const char *name, char *sym,
		     char *bytes, char *off, char *end)
{
	const char *at = strstr(text, "\nbuffers of the best plan");
	char want[64], got[64], first[32];

	cr_assert_not_null(at, "%s", text);
	snprintf(want, sizeof(want), "\n  ");
	for (const char *l = strchr(at + 1, '\n'); l; l = strchr(l + 1, '\n')) {
		if (sscanf(l + 1, " %1s %63s %31s %31s %31s %31s", sym, got, bytes,
			   off, end, first) == 6 && !strcmp(got, name))
			return;
		if (l[1] == '\n')
			break;
	}
	cr_assert_fail("no row for %s in the buffer list: %s", name, at);
}

Test(explain, buffer_list_offsets_by_hand)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	static const struct { const char *name, *sym, *bytes, *off, *end; } row[] = {
		/* size_first_fit by hand, default rule, alignment 1: by size,
		 * each at the lowest offset free over its lifetime:
		 *   b   300 [1,2] -> 0
		 *   a   200 [0,2] -> 300 (b is live at 1..2 below 300)
		 *   in  100 [0,0] -> 0   (b starts at 1)
		 *   ws   64 [1,1] -> 500 (b 0..300, a 300..500 live at 1)
		 *   out  40 [3,3] -> 0   (nothing placed is live at 3)
		 *   c    10 [2,3] -> 500 (b, a live at 2; out 0..40 at 3)
		 * symbols by first use, ties by buffer index: in 0, a 1, b 2,
		 * ws 3, c 4, out 5 (six buffers: none repeats). */
		{ "in", "0", "100", "0", "100" },
		{ "a", "1", "200", "300", "500" },
		{ "b", "2", "300", "0", "300" },
		{ "ws", "3", "64", "500", "564" },
		{ "c", "4", "10", "500", "510" },
		{ "out", "5", "40", "0", "40" },
	};
	char *text, *json, sym[4], bytes[32], off[32], end[32], want[160];

	explain_hand_default(&a, &x, "size_first_fit");
	cr_assert_eq(x.best, 0);
	cr_expect_eq(x.best_plan.peak, 564);
	text = text_of(&x, &a, false);
	json = text_of(&x, &a, true);
	expect_json(json);
	cr_expect_eq(json_int(json, "schema_version"), AB_EXPLAIN_JSON_SCHEMA);
	cr_expect_eq(AB_EXPLAIN_JSON_SCHEMA, 2);
	for (size_t k = 0; k < sizeof(row) / sizeof(row[0]); k++) {
		size_t i = buffer_named(&x, row[k].name);

		cr_expect_eq(x.symbol[i], row[k].sym[0], "%s", row[k].name);
		cr_expect_eq(x.best_plan.offset[i], strtoull(row[k].off, NULL, 10), "%s", row[k].name);
		list_row(text, row[k].name, sym, bytes, off, end);
		cr_expect_str_eq(sym, row[k].sym, "%s", row[k].name);
		cr_expect_str_eq(bytes, row[k].bytes, "%s", row[k].name);
		cr_expect_str_eq(off, row[k].off, "%s", row[k].name);
		cr_expect_str_eq(end, row[k].end, "%s", row[k].name);
		snprintf(want, sizeof(want), "\"name\": \"%s\", \"symbol\": \"%s\", \"bytes\": %s, \"offset\": %s,",
			 row[k].name, row[k].sym, row[k].bytes, row[k].off);
		cr_expect(strstr(json, want), "JSON lacks %s", want);
	}
	cr_expect(strstr(json, "\"plan\": {\"planner\": \"size_first_fit\", \"align_bytes\": 1, \"arena_bytes\": 564,"), "%s", json);
	cr_expect(strstr(json, "\"runtime_extra\": null"), "no TFLite Micro note under tflite");
	free(text);
	free(json);
	ab_explanation_free(&x);
}

/* More than 62 buffers: characters repeat once their holder has ended
 * (a chain: no two live buffers share), and when more than 62 are live at
 * once the clashes are counted and said.  Past 64 buffers the list comes
 * on --buffers only. */
Test(explain, symbols_past_62)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	char *g = malloc(1 << 16), *text;
	size_t n;

	/* chain t0 -> ... -> t70 under the default rule: t_k lives over
	 * steps [k-1, k] (t0 [0, 0]).  First use orders t0..t70; t0..t61 take
	 * the 62 characters 0-9a-zA-Z; t62 (first step 61) takes the one whose
	 * holder ended earliest: t0's '0' (ended at 0), t63 takes t1's '1'. */
	n = chain_graph(g, 70, 0);
	conventions(&a, "tflite");
	a.load.problem.lifetimes = AB_LIFETIMES_DEFAULT;
	a.path = write_file("chain.graph", g, n);
	explain_ok(&a, &x);
	cr_expect_eq(x.symbol[buffer_named(&x, "t61")], 'Z');
	cr_expect_eq(x.symbol[buffer_named(&x, "t62")], '0');
	cr_expect_eq(x.symbol[buffer_named(&x, "t63")], '1');
	cr_expect_eq(x.symbol_clashes, 0);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "(71 buffers, 62 characters: a character is reused once its buffer has ended,\n"
			       "so buffers live at the same step always differ"), "%s", text);
	cr_expect(strstr(text, "\nbuffers: 71 in the best plan; --buffers lists each"), "%s", text);
	cr_expect_null(strstr(text, "buffers of the best plan"));
	free(text);
	a.buffers = true;
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "buffers of the best plan"), "%s", text);
	free(text);
	ab_explanation_free(&x);

	/* 70 inputs read by one ADD and its output y: all 71 live at step 0,
	 * so the 63rd to the 71st by first use (t62..t69, y) each take a
	 * character whose holder is still live: 71 - 62 = 9 clashes. */
	n = (size_t)sprintf(g, "graph wide\n");
	for (int i = 0; i < 70; i++)
		n += (size_t)sprintf(g + n, "tensor t%d input u8 64\n", i);
	n += (size_t)sprintf(g + n, "tensor y output u8 64\nop add ADD in=");
	for (int i = 0; i < 70; i++)
		n += (size_t)sprintf(g + n, "%st%d", i ? "," : "", i);
	n += (size_t)sprintf(g + n, " out=y\n");
	a.path = write_file("wide.graph", g, n);
	explain_ok(&a, &x);
	cr_expect_eq(x.symbol_clashes, 9);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "so 9 buffers share theirs with one live at the\nsame step"), "%s", text);
	free(text);
	free(g);
	ab_explanation_free(&x);
}

/* On a tie the runtime's own planner names the best plan, then best_of,
 * then the order the planners ran (--planners' order here). */
Test(explain, best_label_tie_rule)
{
	static const struct { const char *runtime, *planners, *best; } c[] = {
		{ "tflite", "size_first_fit,tflite_arena,tflm_greedy", "tflite_arena" },
		{ "tflm", "size_first_fit,tflite_arena,tflm_greedy", "tflm_greedy" },
		{ "tflite", "size_first_fit,tflm_greedy,best_of", "best_of" },
		{ "tflite", "tflm_greedy,size_first_fit", "tflm_greedy" },
	};

	for (size_t t = 0; t < sizeof(c) / sizeof(c[0]); t++) {
		struct ab_explain_args a;
		struct ab_explanation x;

		explain_hand_default(&a, &x, c[t].planners);
		/* a tie: every planner meets the bound, 564 (computed by hand
		 * in pins_lower_bound_step_default_rule) */
		for (size_t k = 0; k < x.n_planners; k++)
			cr_assert_eq(ab_explain_at(&x, k, 0)->row.check.peak_bytes, 564,
				     "%s", ab_explain_at(&x, k, 0)->planner->name);
		ab_explanation_free(&x);
		/* the same planners under the runtime of the case */
		conventions(&a, c[t].runtime);
		a.load.problem.lifetimes = AB_LIFETIMES_DEFAULT;
		a.load.problem.round_to = 0;
		a.plan.align = 1;
		a.planners = c[t].planners;
		a.path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
		explain_ok(&a, &x);
		cr_assert_geq(x.best, 0);
		cr_expect_str_eq(ab_explain_at(&x, (size_t)x.best, 0)->planner->name,
				 c[t].best, "runtime %s, planners %s", c[t].runtime, c[t].planners);
		ab_explanation_free(&x);
	}
}

/* --plot's data: the size filter and the step window, by hand. */
Test(explain, plot_data_window_and_size_filter)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	char *plan = NULL, *live = NULL, want[256];
	size_t plen = 0, llen = 0, shown = 0;
	FILE *fp, *fl;

	explain_hand_default(&a, &x, "size_first_fit");
	a.plot_window = true;
	a.plot_from = 1;
	a.plot_to = 2;
	a.plot_min_bytes = 100;
	fp = open_memstream(&plan, &plen);
	fl = open_memstream(&live, &llen);
	cr_assert_eq(ab_explain_plot_data(fp, fl, &x, &a, &shown), 0);
	fclose(fp);
	fclose(fl);
	/* steps 1..2, at least 100 bytes: in [0,0] ends before the window;
	 * ws 64 and c 10 are too small; out [3,3] starts after it.  a [0,2]
	 * is clipped to [1, 3) (upper = last + 1), b [1,2] is [1, 3); offsets
	 * from buffer_list_offsets_by_hand: a 300, b 0. */
	cr_expect_eq(shown, 2);
	snprintf(want, sizeof(want), "id,lower,upper,size,offset,symbol\n%zu,1,3,200,300,1\n%zu,1,3,300,0,2\n",
		 buffer_named(&x, "a"), buffer_named(&x, "b"));
	if (buffer_named(&x, "b") < buffer_named(&x, "a"))
		snprintf(want, sizeof(want), "id,lower,upper,size,offset,symbol\n%zu,1,3,300,0,2\n%zu,1,3,200,300,1\n",
			 buffer_named(&x, "b"), buffer_named(&x, "a"));
	cr_expect_str_eq(plan, want);
	/* live bytes (every buffer): step 1 a+b+ws = 564, step 2 a+b+c = 510,
	 * step 3 c+out = 50 (the step after the window closes the curve);
	 * the bound is 564 */
	cr_expect_str_eq(live, "step,live_bytes,lower_bound_bytes\n1,564,564\n2,510,564\n3,50,564\n");
	free(plan);
	free(live);
	ab_explanation_free(&x);
}

/* Under --runtime tflm the text says what the planned arena leaves out,
 * and the plot's axis uses TFLite Micro's steps. */
Test(explain, tflm_says_what_comes_on_top)
{
	char *out = NULL, args[2 * PATH_MAX];
	const char *path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	int code;

	snprintf(args, sizeof(args), "explain '%s' --runtime tflm 2>&1", path);
	code = run_cli(args, &out);
	cr_expect_eq(code, 0, "%s", out);
	cr_expect(strstr(out, "TFLite Micro: arena_bytes is the planned part of the arena only; the persistent tail"), "%s", out);
	cr_expect(strstr(out, "and the kernels' scratch buffers not listed in the input come on top of it"), "%s", out);
	free(out);
	snprintf(args, sizeof(args), "explain '%s' 2>&1", path);
	code = run_cli(args, &out);
	cr_expect_null(strstr(out, "persistent tail"), "only under tflm");
	free(out);
}

Test(explain, plot_options_are_checked)
{
	/* options, whether gnuplot must run for the error, the message */
	static const struct { const char *opts; bool drawn; const char *msg; } c[] = {
		{ "--plot-steps 1:2", false, "--plot-steps and --plot-min-bytes apply to --plot FILE" },
		{ "--plot P --plot-steps 2:1", false, "--plot-steps expects FROM:TO, two steps with FROM <= TO, got '2:1'" },
		{ "--plot P --plot-min-bytes 1x", false, "--plot-min-bytes expects a positive number of bytes" },
		/* the hand graph has steps 0..3 under the tflite rule */
		{ "--plot P --plot-steps 4:9", true, "has steps 0 to 3" },
		{ "--plot P --plot-min-bytes 1MiB", true, "nothing to draw: no buffer of at least 1048576 bytes" },
	};
	const char *path = write_file("hand.graph", hand_graph, sizeof(hand_graph) - 1);
	bool gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
	char svg[PATH_MAX + 16];

	snprintf(svg, sizeof(svg), "%s/p.svg", tmpdir);
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		char *out = NULL, args[3 * PATH_MAX], opts[PATH_MAX + 64];
		const char *at = strstr(c[k].opts, "--plot P");
		int code;

		if (c[k].drawn && !gnuplot)
			continue; /* found only once gnuplot would run */
		snprintf(opts, sizeof(opts), "%s", c[k].opts);
		if (at)
			snprintf(opts, sizeof(opts), "--plot '%s'%s", svg, at + 8);
		snprintf(args, sizeof(args), "explain '%s' %s 2>&1", path, opts);
		code = run_cli(args, &out);
		cr_expect_eq(code, 2, "%s: %s", opts, out);
		cr_expect(strstr(out, c[k].msg), "%s: %s", opts, out);
		free(out);
	}
}

/* ----------------------------------------------- .tflite: names, shapes */

static const char *write_model(const struct tfw_model *m, const char *name)
{
	size_t len;
	uint8_t *bytes = tfw_build_model(m, &len);
	const char *p = write_file(name, bytes, len);

	free(bytes);
	return p;
}

Test(explain, unnamed_tensor_gets_fallback_name)
{
	const struct tfw_model *m = tfw_fixture_model(TFW_FIX_OFFLINE_PLAN);
	struct tfw_tensor t[3];
	struct tfw_subgraph sg = m->subgraphs[0];
	struct tfw_model mm = *m;
	struct ab_explain_args a;
	struct ab_explanation x;
	char *json;

	memcpy(t, sg.tensors, sizeof(t));
	t[1].name = NULL;
	sg.tensors = t;
	mm.subgraphs = &sg;
	conventions(&a, "tflm");
	a.path = write_model(&mm, "unnamed.tflite");
	explain_ok(&a, &x);
	cr_expect_str_eq(x.in.graph.tensors[1].name, "t1");
	json = text_of(&x, &a, true);
	expect_json(json);
	cr_expect(strstr(json, "\"name\": \"t1\""), "%s", json);
	free(json);
	ab_explanation_free(&x);
}

Test(explain, dynamic_and_string_tensors_are_reported)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	char *text;

	conventions(&a, "tflite");
	a.path = write_model(tfw_fixture_model(TFW_FIX_DYNAMIC), "dyn.tflite");
	explain_ok(&a, &x);
	cr_expect_gt(x.n_dynamic, 0);
	cr_expect(!x.used_dims);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "sizes use the stored shape"), "%s", text);
	free(text);
	ab_explanation_free(&x);

	cr_assert_eq(tu_dim(&a.load.tflite, "d0=3"), 0);
	explain_ok(&a, &x);
	cr_expect(x.used_dims);
	cr_expect_eq(x.sum_bytes, 2 * 3 * 10 * 4, "two f32 [3,10] tensors");
	text = text_of(&x, &a, true);
	cr_expect(strstr(text, "\"shape_source\": \"--dim\""), "%s", text);
	free(text);
	ab_explanation_free(&x);

	conventions(&a, "tflite");
	a.path = write_model(tfw_fixture_model(TFW_FIX_STRING), "str.tflite");
	explain_ok(&a, &x);
	cr_assert_eq(x.n_strings, 1);
	cr_expect_str_eq(x.in.graph.tensors[x.strings[0]].name, "text");
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "string tensors   1 (variable length: not planned"), "%s", text);
	free(text);
	text = text_of(&x, &a, true);
	expect_json(text);
	cr_expect(strstr(text, "\"string_tensors\": [\"text\"]"), "%s", text);
	free(text);
	ab_explanation_free(&x);
}

/* ---------------------------------------------------------- offline plan */

/* The fixture: a, b, c f32 [1,4] (16 bytes); MUL a -> b, MUL b -> c;
 * plan a 0, b 16, c -1.  Under tflm lifetimes a [0,1], b [1,2], c [2,2]:
 * c goes to 0 (a has ended), peak 32 = the bound. */
Test(offline, fixture_plan_is_imported_and_valid)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	const struct ab_explain_result *r;
	char *text;

	conventions(&a, "tflm");
	a.path = write_model(tfw_fixture_model(TFW_FIX_OFFLINE_PLAN), "off.tflite");
	explain_ok(&a, &x);
	cr_assert(x.has_offline);
	r = ab_explain_at(&x, x.n_planners - 1, 0);
	cr_expect_str_eq(r->planner->name, "offline");
	cr_expect(r->row.check.valid, "%s", r->row.check.message ? r->row.check.message : "");
	cr_expect_eq(r->row.check.peak_bytes, 32);
	cr_expect_eq(x.offline.fixed, 2);
	cr_expect_eq(x.offline.runtime, 1);
	cr_expect_eq(x.offline.misaligned_fixed, 0);
	cr_expect_eq(x.lower_bound_bytes, 32);
	expect_all_valid(&x);
	text = text_of(&x, &a, false);
	cr_expect(strstr(text, "offline: the model's own plan places 2 buffers; 1 marked -1"),
		  "%s", text);
	free(text);
	text = text_of(&x, &a, true);
	expect_json(text);
	cr_expect(strstr(text, "\"offline\": {\"fixed_buffers\": 2, \"runtime_buffers\": 1, \"misaligned_fixed\": 0}"),
		  "%s", text);
	free(text);
	ab_explanation_free(&x);
}

Test(offline, plan_function_places_runtime_buffers)
{
	struct ab_explain_args a;
	struct ab_explanation x;
	struct ab_offline_stats st;
	struct ab_plan plan;

	conventions(&a, "tflm");
	a.path = write_model(tfw_fixture_model(TFW_FIX_OFFLINE_PLAN), "off.tflite");
	explain_ok(&a, &x);
	cr_assert_eq(ab_plan_alloc(&plan, x.in.problem.n), 0);
	cr_assert_eq(ab_offline_plan(&x.in, &a.plan, &plan, &st), 0);
	cr_assert_eq(x.in.problem.n, 3);
	cr_expect_eq(plan.offset[0], 0);  /* a: fixed */
	cr_expect_eq(plan.offset[1], 16); /* b: fixed */
	cr_expect_eq(plan.offset[2], 0);  /* c: first fit beside b */
	cr_expect_eq(plan.peak, 32);
	/* the same from the registered planner over the problem's fixed
	 * offsets, which says it keeps them */
	ab_plan_reset(&plan);
	cr_assert_eq(ab_planner_offline.plan(&x.in.problem, &a.plan, &plan), 0);
	cr_expect_eq(plan.offset[0], 0);
	cr_expect_eq(plan.offset[1], 16);
	cr_expect_eq(plan.offset[2], 0);
	cr_expect(plan.fixed_kept);
	ab_plan_free(&plan);
	ab_explanation_free(&x);
}

Test(offline, overlapping_plan_is_invalid)
{
#define LE(v) (uint8_t)((uint32_t)(v)), (uint8_t)((uint32_t)(v) >> 8), \
	      (uint8_t)((uint32_t)(v) >> 16), (uint8_t)((uint32_t)(v) >> 24)
	/* a and b both at 0, live together at step 1 */
	static const uint8_t bad[] = { LE(1), LE(1), LE(3), LE(0), LE(0), LE(-1) };
#undef LE
	const struct tfw_model *m = tfw_fixture_model(TFW_FIX_OFFLINE_PLAN);
	struct tfw_buffer bufs[3];
	struct tfw_model mm = *m;
	struct ab_explain_args a;
	struct ab_explanation x;
	const struct ab_explain_result *r;
	char *out = NULL, args[PATH_MAX + 64];
	int code;

	cr_assert_eq(m->n_buffers, 3);
	memcpy(bufs, m->buffers, sizeof(bufs));
	bufs[2].data = bad;
	bufs[2].size = sizeof(bad);
	mm.buffers = bufs;
	conventions(&a, "tflm");
	a.path = write_model(&mm, "overlap.tflite");
	explain_ok(&a, &x);
	cr_assert(x.has_offline);
	r = ab_explain_at(&x, x.n_planners - 1, 0);
	cr_expect_str_eq(r->planner->name, "offline");
	cr_expect(!r->row.check.valid);
	cr_assert_not_null(r->row.check.message);
	cr_expect(strstr(r->row.check.message, "'a'") && strstr(r->row.check.message, "'b'") &&
		  strstr(r->row.check.message, "overlap"), "%s", r->row.check.message);
	cr_expect_eq(x.invalid, x.n_aligns, "only the offline plans are invalid");
	cr_expect_geq(x.best, 0);
	cr_expect_str_neq(ab_explain_at(&x, (size_t)x.best, 0)->planner->name, "offline");
	ab_explanation_free(&x);

	/* the command says so and exits 1 */
	snprintf(args, sizeof(args), "explain '%s' --runtime tflm 2>&1", a.path);
	code = run_cli(args, &out);
	cr_expect_eq(code, 1, "exit %d", code);
	cr_expect(strstr(out, "INVALID"), "%s", out);
	free(out);
}

/* Three MULs a -> b -> c -> d (f32 [1,4], 16 bytes each) with the offline
 * plan given.  Under --inplace, c = MUL(b, b) takes b's buffer (b is an
 * intermediate last read there, c is read by the next op); a is the graph
 * input and d the output, so neither joins.  TFLM lifetimes: a [0,1],
 * b [1,2], c [2,3], d [3,3]; the chain b+c [1,3]. */
static const char *write_three_muls(const int32_t plan[4], const char *name)
{
#define LE(v) (uint8_t)((uint32_t)(v)), (uint8_t)((uint32_t)(v) >> 8), \
	      (uint8_t)((uint32_t)(v) >> 16), (uint8_t)((uint32_t)(v) >> 24)
	uint8_t meta[] = { LE(1), LE(1), LE(4), LE(plan[0]), LE(plan[1]),
			   LE(plan[2]), LE(plan[3]) };
#undef LE
	static const struct tfw_tensor tensors[] = {
		{ "a", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
		{ "b", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
		{ "c", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
		{ "d", TFW_FLOAT32, 2, { 1, 4 }, 0, { 0 }, 0, false },
	};
	static const struct tfw_op ops[] = {
		{ .opcode = 0, .n_in = 2, .in = { 0, 0 }, .n_out = 1, .out = { 1 } },
		{ .opcode = 0, .n_in = 2, .in = { 1, 1 }, .n_out = 1, .out = { 2 } },
		{ .opcode = 0, .n_in = 2, .in = { 2, 2 }, .n_out = 1, .out = { 3 } },
	};
	static const int32_t in0[] = { 0 }, out3[] = { 3 };
	const struct tfw_model *m = tfw_fixture_model(TFW_FIX_OFFLINE_PLAN);
	struct tfw_subgraph sg = *m->subgraphs;
	struct tfw_buffer bufs[3];
	struct tfw_model mm = *m;

	cr_assert_eq(m->n_buffers, 3);
	sg.n_tensors = 4;
	sg.tensors = tensors;
	sg.n_ops = 3;
	sg.ops = ops;
	sg.inputs = in0;
	sg.outputs = out3;
	memcpy(bufs, m->buffers, sizeof(bufs));
	bufs[2].data = meta;
	bufs[2].size = sizeof(meta);
	mm.subgraphs = &sg;
	mm.buffers = bufs;
	return write_model(&mm, name);
}

/* The model places b at 16 and c at 32; --inplace would put both in one
 * buffer, so the offline row is refused by name, not planned at b's
 * offset as if c had been placed there. */
Test(offline, inplace_chain_the_model_splits_is_refused)
{
	static const int32_t plan[4] = { 0, 16, 32, -1 };
	struct ab_explain_args a;
	struct ab_explanation x;
	const struct ab_explain_result *r;

	conventions(&a, "tflm");
	a.load.problem.inplace = true;
	a.path = write_three_muls(plan, "split.tflite");
	explain_ok(&a, &x);
	cr_assert_eq(x.in.problem.n, 3, "b and c share a buffer");
	r = ab_explain_at(&x, x.n_planners - 1, 0);
	cr_expect_str_eq(r->planner->name, "offline");
	cr_expect(!r->row.check.valid);
	cr_assert_not_null(r->row.check.message);
	cr_expect(strstr(r->row.check.message, "tensors 'b' and 'c'") &&
		  strstr(r->row.check.message, "at 16 and 32"), "%s", r->row.check.message);
	ab_explanation_free(&x);

	/* without --inplace the same plan is the model's and valid: c at
	 * 32 beside b, d (-1) at 0 where a ended */
	conventions(&a, "tflm");
	a.path = write_three_muls(plan, "split.tflite");
	explain_ok(&a, &x);
	r = ab_explain_at(&x, x.n_planners - 1, 0);
	cr_expect(r->row.check.valid, "%s", r->row.check.message ? r->row.check.message : "");
	cr_expect_eq(r->row.check.peak_bytes, 48);
	ab_explanation_free(&x);
}

/* A chain whose root is marked -1 follows the tensor the model does
 * place: b -1, c 16 puts the chain b+c at 16, d (-1, live with it at
 * step 3) at 0; a at 0 ended at step 1.  Peak 32. */
Test(offline, inplace_chain_takes_its_placed_tensors_offset)
{
	static const int32_t plan[4] = { 0, -1, 16, -1 };
	struct ab_explain_args a;
	struct ab_explanation x;
	struct ab_offline_stats st;
	struct ab_plan p;

	conventions(&a, "tflm");
	a.load.problem.inplace = true;
	a.path = write_three_muls(plan, "follow.tflite");
	explain_ok(&a, &x);
	cr_assert_eq(x.in.problem.n, 3);
	cr_assert_eq(ab_plan_alloc(&p, x.in.problem.n), 0);
	cr_assert_eq(ab_offline_plan(&x.in, &a.plan, &p, &st), 0);
	for (size_t i = 0; i < x.in.problem.n; i++) {
		int32_t t = x.in.problem.tensor[i];

		if (t == 0)
			cr_expect_eq(p.offset[i], 0, "a");
		else if (t == 1)
			cr_expect_eq(p.offset[i], 16, "chain b+c");
		else
			cr_expect_eq(p.offset[i], 0, "d (tensor %d)", t);
	}
	cr_expect_eq(st.fixed, 2);
	cr_expect_eq(st.runtime, 1);
	cr_expect_eq(p.peak, 32);
	ab_plan_free(&p);
	ab_explanation_free(&x);
}

/* ----------------------------------------------------------------- suite */

/* tiny.100: [0,2) 10, [1,3) 20, [2,4) 5 -> bound 30, sum 35.
 * wide.64: [0,1) 40, [0,1) 8, [1,2) 48 -> bound 48, sum 96. */
static void write_suite(void)
{
	static const char tiny[] = "id,lower,upper,size\n0,0,2,10\n1,1,3,20\n2,2,4,5\n";
	static const char wide[] = "id,lower,upper,size\n0,0,1,40\n1,0,1,8\n2,1,2,48\n";

	write_file("tiny.100.csv", tiny, sizeof(tiny) - 1);
	write_file("wide.64.csv", wide, sizeof(wide) - 1);
	write_file("README.txt", "not a problem\n", 14);
}

Test(suite, runs_every_planner_on_a_folder)
{
	struct ab_suite_args a = { 0 };
	struct ab_error err = { { 0 } };
	const char *paths[] = { tmpdir };
	struct ab_suite s;
	char *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *f;

	write_suite();
	a.paths = paths;
	a.n_paths = 1;
	cr_assert_eq(ab_suite_run(&a, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(s.n_problems, 2);
	cr_expect_str_eq(s.problems[0].name, "tiny.100");
	cr_expect_eq(s.problems[0].capacity_bytes, 100);
	cr_expect_eq(s.problems[0].lower_bound_bytes, 30);
	cr_expect_str_eq(s.problems[1].name, "wide.64");
	cr_expect_eq(s.problems[1].capacity_bytes, 64);
	cr_expect_eq(s.problems[1].lower_bound_bytes, 48);
	cr_expect_eq(s.invalid, 0);
	for (size_t k = 0; k < s.n_planners; k++) {
		cr_expect(s.planners[k]->cost == AB_COST_FAST);
		for (size_t i = 0; i < 2; i++) {
			cr_expect(s.problems[i].valid[k]);
			cr_expect_geq(s.problems[i].peak_bytes[k],
				      s.problems[i].lower_bound_bytes);
		}
		if (!strcmp(s.planners[k]->name, "linear")) {
			cr_expect_eq(s.problems[0].peak_bytes[k], 35);
			cr_expect_eq(s.problems[1].peak_bytes[k], 96);
		}
	}
	f = open_memstream(&buf, &len);
	ab_suite_write_csv(f, &s);
	fclose(f);
	cr_expect(!strncmp(buf, "problem,buffers,capacity_bytes,lower_bound_bytes,planner,align,valid,peak_bytes\n",
			   80), "%s", buf);
	for (char *c = buf; *c; c++)
		lines += *c == '\n';
	cr_expect_eq(lines, 1 + 2 * s.n_planners);
	cr_expect(strstr(buf, "tiny.100,3,100,30,linear,1,yes,35\n"), "%s", buf);
	free(buf);
	ab_suite_free(&s);
}

Test(suite, cli_table_and_csv)
{
	char *out = NULL, args[3 * PATH_MAX], csv[PATH_MAX + 16];
	struct stat st;
	int code;

	write_suite();
	snprintf(csv, sizeof(csv), "%s/out.csv", tmpdir);
	snprintf(args, sizeof(args), "suite '%s' --out '%s' --quiet", tmpdir, csv);
	code = run_cli(args, &out);
	cr_expect_eq(code, 0, "exit %d: %s", code, out);
	cr_expect(strstr(out, "minimalloc suite: 2 problems"), "%s", out);
	cr_expect(strstr(out, "tiny.100"), "%s", out);
	cr_expect(strstr(out, "fits_cap"), "%s", out);
	cr_expect_eq(stat(csv, &st), 0);
	free(out);
	/* a folder without problems is an error, and nothing is written */
	unlink(csv);
	snprintf(args, sizeof(args), "suite '%s/none' --out '%s' 2>&1", tmpdir, csv);
	code = run_cli(args, &out);
	cr_expect_eq(code, 2, "exit %d: %s", code, out);
	cr_expect_neq(stat(csv, &st), 0);
	free(out);
}

/* ---------------------------------------------------------------- shared */

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

Test(shared, every_model_explains_with_valid_plans, .timeout = 120)
{
	static const char *const subs[] = { "tflm", "coral_test_data",
					    "mediapipe" };
	char dir[512];
	struct stat st;
	size_t n = 0;

	snprintf(dir, sizeof(dir), "%s/../shared/models", repo_root());
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		cr_skip_test("%s is absent: the shared model corpus is not checked out beside the repository",
			     dir);
	for (size_t s = 0; s < 3; s++) {
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/../shared/models/%s",
			 repo_root(), subs[s]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			char path[1024];
			struct ab_explain_args a;
			struct ab_explanation x;
			struct ab_error err = { { 0 } };
			int rc;

			if (l < 7 || strcmp(e->d_name + l - 7, ".tflite"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			conventions(&a, "tflite");
			a.path = path;
			rc = ab_explain(&a, &x, &err);
			cr_expect_eq(rc, 0, "%s", err.msg);
			if (rc)
				continue;
			expect_all_valid(&x);
			cr_expect_geq(x.n_planners, 1);
			cr_expect(x.lower_bound_bytes <= x.best_plan.peak);
			ab_explanation_free(&x);
			n++;
		}
		closedir(d);
	}
	cr_expect_gt(n, 30, "only %zu models explained", n);
}
