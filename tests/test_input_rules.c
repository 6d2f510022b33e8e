/*
 * Bounded numbers and one set of input rules (issue 28): fixed offsets
 * checked to fit (offset + size at most 2^62, so no peak passes 2^63 - 1),
 * a plan past 2^63 - 1 never valid, a UTF-8 byte-order mark taken by
 * .graph as by .csv, a line in every message, control characters shown as
 * \xNN in every message, duplicate operator names refused.  Every
 * expected text is what the user must see; the bytes are written here.
 * Runs build/arenabench from the repository root.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/validate.h"
#include "core/arenabench.h"
#include "testutil.h"

#ifndef AB_BUILD_DIR
#define AB_BUILD_DIR "build"
#endif
#define BIN AB_BUILD_DIR "/arenabench"

static char dir[256];

static void setup(void) { tu_tmpdir_make(dir, sizeof(dir), "arenabench-rules"); }
static void teardown(void) { tu_tmpdir_remove(dir); }
TestSuite(input_rules, .init = setup, .fini = teardown);

static void file(const char *name, const char *text) { tu_write_file(dir, name, text); }

/* `arenabench ARGS` in dir: stdout and stderr into *out, the exit code. */
static int ab(const char *args, char **out)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cd '%s' && timeout 20 %s/%s %s 2>&1", dir,
		 getenv("PWD") ? getenv("PWD") : ".", BIN, args);
	return tu_run(cmd, out);
}

static void expect(const char *args, int code, const char *message)
{
	char *out = NULL;
	int rc = ab(args, &out);

	cr_expect_eq(rc, code, "%s: exit %d, expected %d (%s)", args, rc, code, out);
	cr_expect(strstr(out, message) != NULL, "%s: '%s' lacks '%s'", args, out, message);
	free(out);
}

/* The case: huge fixed offsets planned by `offline` gave a peak
 * above 2^63 - 1 and valid=yes.  Now refused with file, line and field;
 * the largest offset that fits (2^62 - 8 + 8 = 2^62) plans as given. */
Test(input_rules, fixed_offsets_past_2_62_are_refused_by_file_line_and_field)
{
	file("big.csv", "id,lower,upper,size,offset\nb0,0,2,8,0\nb1,0,2,8,9223372036854775000\n");
	expect("plan big.csv --planner offline", 2,
	       "big.csv:3: buffer b1: column 'offset': offset 9223372036854775000 + size 8 is past 2^62 bytes");
	expect("bench big.csv --planners offline --no-timing --quiet --out r.csv", 2, "big.csv:3: buffer b1: column 'offset'");
	file("edge.csv", "id,lower,upper,size,offset\nb0,0,2,8,4611686018427387896\n");
	expect("plan edge.csv --planner offline", 0, "peak:         4611686018427387904 bytes");
	file("one.csv", "id,lower,upper,size,offset\nb0,0,2,8,4611686018427387897\n");
	expect("plan one.csv --planner offline", 2, "one.csv:2: buffer b0: column 'offset': offset 4611686018427387897 + size 8");
}

/* The geometric check never calls a plan valid whose bytes pass 2^63 - 1,
 * whatever produced it. */
Test(input_rules, a_plan_past_2_63_is_never_valid)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan = { 0 };
	struct ab_check_result res;

	cr_assert_eq(ab_problem_alloc(&p, 1), 0);
	p.buf[0] = (struct ab_buffer){ .first = 0, .last = 1, .size = 16, .align = 1 };
	p.steps = 2;
	cr_assert_eq(ab_plan_alloc(&plan, 1), 0);
	plan.offset[0] = (uint64_t)INT64_MAX - 7; /* ends at 2^63 + 8 */
	plan.arena[0] = 0;
	plan.n_arenas = 1;
	plan.arena_base[0] = 0;
	plan.arena_size[0] = plan.peak = (uint64_t)INT64_MAX + 9;
	cr_expect_neq(ab_validate_plan(&p, &plan, 1, &res), AB_PLAN_VALID);
	/* the same buffer at 2^62: valid, the control case */
	plan.offset[0] = 1ull << 62;
	plan.arena_size[0] = plan.peak = (1ull << 62) + 16;
	cr_expect_eq(ab_validate_plan(&p, &plan, 1, &res), AB_PLAN_VALID);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

Test(input_rules, a_byte_order_mark_is_taken_by_graph_as_by_csv)
{
	static const char graph[] = "graph g\ntensor a input u8 16\ntensor b output u8 16\nop o1 RELU in=a out=b\n";
	char *plain = NULL, *bom = NULL, text[256];

	file("plain.graph", graph);
	snprintf(text, sizeof(text), "\xef\xbb\xbf%s", graph);
	file("bom.graph", text);
	file("bom.csv", "\xef\xbb\xbfid,lower,upper,size\n0,0,2,16\n");
	cr_expect_eq(ab("plan plain.graph --planner linear | grep -v 'time\\|input:'", &plain), 0, "%s", plain);
	cr_expect_eq(ab("plan bom.graph --planner linear | grep -v 'time\\|input:'", &bom), 0, "%s", bom);
	cr_expect_str_eq(bom, plain);
	expect("plan bom.csv --planner linear", 0, "peak:         16 bytes");
	free(plain);
	free(bom);
}

/* A control character shows as \xNN, with the file, line and field. */
Test(input_rules, control_characters_are_shown_visibly_with_file_line_and_field)
{
	file("c.csv", "id,lower,upper,size\n0,0,2,1\x01" "6\n");
	expect("plan c.csv --planner linear", 2, "c.csv:2: column 'size': expected an integer, got '1\\x016'");
	file("c.graph", "graph g\ntensor a input u8 1\x01" "6\ntensor b output u8 16\nop o1 RELU in=a out=b\n");
	expect("plan c.graph --planner linear", 2, "c.graph:2: tensor 'a': expected a shape like 1x224x224x3 or 'scalar', got '1\\x016'");
	file("n.graph", "graph g\ntensor a\x7f input u8 16\ntensor b output u8 16\nop o1 RELU in=a out=b\n");
	expect("plan n.graph --planner linear", 2, "n.graph:2: tensor name 'a\\x7f' must be non-empty without ',', '=', '#', spaces or control characters");
	file("o.graph", "graph g\ntensor a input u8 16\ntensor b output u8 16\nop o\x1b[31m RELU in=a out=b\n");
	expect("plan o.graph --planner linear", 2, "o.graph:4: op name 'o\\x1b[31m' and type 'RELU' must be non-empty");
}

/* Every message, whatever the format (.tflite and .onnx name tensors and
 * operators from the file too), goes through one formatter. */
Test(input_rules, every_message_shows_control_characters)
{
	struct ab_error err = { { 0 } };

	ab_fail(&err, -1, "m.tflite: tensor '%s': %s", "t\x01\x1f\x7f", "bad\ttab");
	cr_expect_str_eq(err.msg, "m.tflite: tensor 't\\x01\\x1f\\x7f': bad\\x09tab");
}

Test(input_rules, duplicate_operator_names_are_refused_naming_both_lines)
{
	file("d.graph", "graph g\ntensor a input u8 16\ntensor b intermediate u8 16\ntensor c output u8 16\n"
			"op o1 RELU in=a out=b\n# a comment\nop o1 RELU in=b out=c\n");
	expect("plan d.graph --planner linear", 2,
	       "d.graph:7: op 'o1' is declared twice (first on line 5; operator names must be unique");
}

/* Messages that named no line now name it. */
Test(input_rules, a_line_in_every_message)
{
	file("dup.csv", "id,lower,upper,size\nb1,0,2,8\n\nb2,0,1,4\nb1,1,2,4\n");
	expect("plan dup.csv --planner linear", 2,
	       "dup.csv:5: column 'id': buffer id 'b1' appears twice, first on line 2 (ids must be unique)");
	file("sum.csv", "id,lower,upper,size\nb1,0,2,4611686018427387904\nb2,0,1,4096\n");
	expect("plan sum.csv --planner linear", 2, "sum.csv:3: column 'size': buffer b2 (4096 bytes) brings the sum of sizes past 2^62 bytes");
	file("p.graph", "graph g\ntensor a input u8 16\ntensor b output u8 16\nop o1 RELU in=a out=b\nphase\n");
	expect("plan p.graph --planner linear", 2, "p.graph:5: 'phase' after the last op");
}
