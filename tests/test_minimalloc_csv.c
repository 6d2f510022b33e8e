/*
 * minimalloc's CSV as minimalloc reads and writes it (import/problem_csv.c,
 * after google/minimalloc src/converter.cc FromCsv/ToCsv): the suite's
 * `id,lower,upper,size`, the other words of minimalloc's reader (buffer,
 * buffer_id, start, begin, and end, an inclusive end), a `name` column
 * carried into plans, a UTF-8 byte-order mark, and messages that say what
 * was found.  Expected texts and offsets are worked out by hand in each
 * test.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/arenabench.h"
#include "testutil.h"
#include "import/problem_csv.h"
#include "core/textio.h"

static char *plan_text(const struct ab_problem *p, const char *planner)
{
	struct ab_plan plan;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	tu_plan(planner, p, 1, &plan);
	cr_assert_eq(ab_plan_write_csv(f, p, &plan), 0);
	fclose(f);
	ab_plan_free(&plan);
	return out;
}

static void parse_ok(const char *csv, struct ab_problem *p)
{
	struct ab_error err = { { 0 } };

	cr_assert_eq(ab_problem_parse_csv(csv, strlen(csv), "m.csv", p, &err), 0,
		     "%s", err.msg);
}

static void parse_fails(const char *csv, size_t len, const char *expect)
{
	struct ab_problem p;
	struct ab_error err = { { 0 } };

	cr_assert_lt(ab_problem_parse_csv(csv, len, "m.csv", &p, &err), 0,
		     "accepted: %s", csv);
	cr_expect_str_eq(err.msg, expect);
}

/* minimalloc's README example as its README shows it today: id,lower,
 * upper, half-open: b1 [0,3), b2 [3,9), b3 [0,9), b4 [9,21), b5 [0,21).
 * size_first_fit (size-descending, ties by first use then index) sees b1
 * b3 b5 b2 b4: b1 at 0, b3 at 4 (over b1), b5 at 8, b2 at 0 (b1 ended at
 * 3), b4 at 0 (b2 and b3 ended at 9): 12 bytes, minimalloc's capacity. */
Test(minimalloc_csv, readme_example_plans_in_12_bytes)
{
	const char *csv = "id,lower,upper,size\n"
			  "b1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";
	struct ab_problem p;
	char *out;

	parse_ok(csv, &p);
	cr_expect_eq(ab_lower_bound(&p, NULL), 12);
	out = plan_text(&p, "size_first_fit");
	cr_expect_str_eq(out, "id,lower,upper,size,offset\n"
			      "b1,0,3,4,0\nb2,3,9,4,0\nb3,0,9,4,4\nb4,9,21,4,0\nb5,0,21,4,8\n");
	free(out);
	ab_problem_free(&p);
}

/*
 * The same numbers under the README's earlier header, buffer,start,end:
 * minimalloc reads an end as inclusive (FromCsv adds one; its test
 * FromCsvWithEndColumn reads end 11 as upper 12), so these are b1 [0,4),
 * b2 [3,10), b3 [0,10), b4 [9,22), b5 [0,22): at step 3 b1, b2, b3 and b5
 * are live (16 bytes), and again b2 b3 b4 b5 at step 9: the bound is 16.
 * size_first_fit: b1 at 0, b3 at 4, b5 at 8, b2 at 12 (b1 still lives at
 * step 3), b4 at 0 (b1 ended after step 3).  Written back with its own
 * words and inclusive ends, and read back to the same buffers.
 */
Test(minimalloc_csv, end_column_is_inclusive_and_round_trips)
{
	const char *csv = "buffer,start,end,size\n"
			  "b1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";
	const char *plan = "buffer,start,end,size,offset\n"
			   "b1,0,3,4,0\nb2,3,9,4,12\nb3,0,9,4,4\nb4,9,21,4,0\nb5,0,21,4,8\n";
	struct ab_problem p, q;
	char *out;

	parse_ok(csv, &p);
	cr_assert_eq(p.n, 5);
	cr_expect_eq(p.buf[1].first, 3);
	cr_expect_eq(p.buf[1].last, 9, "end 9 is inclusive");
	cr_expect_eq(ab_lower_bound(&p, NULL), 16);
	out = plan_text(&p, "size_first_fit");
	cr_expect_str_eq(out, plan);
	parse_ok(out, &q);
	cr_assert_eq(q.n, p.n);
	for (size_t i = 0; i < p.n; i++) {
		cr_expect_eq(q.buf[i].first, p.buf[i].first, "buffer %zu", i);
		cr_expect_eq(q.buf[i].last, p.buf[i].last, "buffer %zu", i);
		cr_expect_eq(q.buf[i].size, p.buf[i].size, "buffer %zu", i);
	}
	free(out);
	ab_problem_free(&q);
	ab_problem_free(&p);
}

/* minimalloc's reader takes the words per column, in any order and mix
 * (its tests FromCsvWithAlignment and FromCsvWithEndColumn): begin and
 * buffer with upper; start, buffer_id and end.  6..12 and 5..10 both
 * times: [6,12) is steps 6..11, and end 11 is the same. */
Test(minimalloc_csv, minimalloc_words_mix_per_column)
{
	struct ab_problem p;
	char *out;

	parse_ok("begin,size,buffer,upper,alignment\n6,18,1,12,2\n5,15,0,10,1\n", &p);
	cr_expect_eq(p.buf[0].first, 6);
	cr_expect_eq(p.buf[0].last, 11);
	cr_expect_eq(p.buf[1].last, 9);
	cr_expect_eq(p.buf[0].align, 2);
	ab_problem_free(&p);
	parse_ok("start,size,buffer_id,end\n6,18,1,11\n5,15,0,9\n", &p);
	cr_expect_eq(p.buf[0].first, 6);
	cr_expect_eq(p.buf[0].last, 11);
	cr_expect_eq(p.buf[1].first, 5);
	cr_expect_eq(p.buf[1].last, 9);
	/* written back in its words, columns in arenabench's order: 1 (18
	 * bytes) at 0, 0 (15 bytes, overlapping at 6..9) above it at 18 */
	out = plan_text(&p, "size_first_fit");
	cr_expect_str_eq(out, "buffer_id,start,end,size,offset\n1,6,11,18,0\n0,5,9,15,18\n");
	free(out);
	ab_problem_free(&p);
}

/* A byte-order mark before the header is not part of the first column. */
Test(minimalloc_csv, byte_order_mark_is_skipped)
{
	const char *csv = "\xEF\xBB\xBFid,lower,upper,size\n0,0,2,8\n";
	struct ab_problem p;

	parse_ok(csv, &p);
	cr_expect_eq(p.n, 1);
	cr_expect_eq(p.buf[0].size, 8);
	ab_problem_free(&p);
}

/* A `name` column: [0,2) and [1,3) overlap at step 1, so the second
 * buffer goes above the first: offsets 0 and 8, names written back. */
Test(minimalloc_csv, name_column_is_carried_into_the_plan)
{
	const char *csv = "id,lower,upper,size,name\n0,0,2,8,act0\n1,1,3,8,act1\n";
	struct ab_problem p;
	char *out;

	parse_ok(csv, &p);
	cr_assert_not_null(p.csv_name);
	cr_expect_str_eq(p.csv_name[1], "act1");
	out = plan_text(&p, "size_first_fit");
	cr_expect_str_eq(out, "id,lower,upper,size,offset,name\n"
			      "0,0,2,8,0,act0\n1,1,3,8,8,act1\n");
	free(out);
	ab_problem_free(&p);
}

Test(minimalloc_csv, messages_say_what_was_found)
{
	const char nul[] = "id,lo\0wer\n0,0,1,4\n";

	parse_fails("buffer,start,size\n0,0,4\n", 24,
		    "m.csv:1: missing column 'upper' (or end) (expected 'id,lower,upper,size[,alignment]' or minimalloc's other words (buffer or buffer_id, start or begin, end: inclusive))");
	parse_fails("id,buffer,lower,upper,size\n0,0,0,1,4\n", 38,
		    "m.csv:1: columns 'id' and 'buffer' both give id");
	parse_fails("id,lower,upper,size,colour\n0,0,1,4,red\n", 39,
		    "m.csv:1: unknown column 'colour' (expected id, lower, upper, size or minimalloc's buffer, buffer_id, start, begin, end, and optionally alignment, offset, arena, name)");
	/* minimalloc's gaps and hint columns are not modelled: refused */
	parse_fails("id,lower,upper,size,gaps\n0,0,4,8,1-2\n", 37,
		    "m.csv:1: unknown column 'gaps' (expected id, lower, upper, size or minimalloc's buffer, buffer_id, start, begin, end, and optionally alignment, offset, arena, name)");
	parse_fails(nul, sizeof(nul) - 1,
		    "m.csv:1: the header line contains a NUL byte or is longer than 1048576 bytes (expected 'id,lower,upper,size[,alignment]' or minimalloc's other words (buffer or buffer_id, start or begin, end: inclusive))");
	/* 17 fields: four plus thirteen ones */
	parse_fails("id,lower,upper,size\n0,0,2,8,1,1,1,1,1,1,1,1,1,1,1,1,1\n", 54,
		    "m.csv:2: expected 4 fields like the header, got 17");
	/* 2^63 is one past INT64_MAX */
	parse_fails("id,lower,upper,size\n0,0,2,9223372036854775808\n", 46,
		    "m.csv:2: column 'size': 9223372036854775808 does not fit in a signed 64-bit integer (at most 9223372036854775807)");
	parse_fails("buffer,start,end,size\nb1,5,2,4\n", 31,
		    "m.csv:2: buffer b1: end 2 is before start 5 (an end is inclusive, as minimalloc reads it: the buffer lives from start through end)");
	/* an upper equal to its start is an empty lifetime (an end equal to
	 * its start would be one step) */
	parse_fails("buffer,start,upper,size\nb1,5,5,4\n", 33,
		    "m.csv:2: buffer b1: upper 5 must be greater than start 5 (lifetimes are half-open [start, upper))");
	parse_fails("id,lower,end,size\n0,0,2147483647,4\n", 36,
		    "m.csv:2: buffer 0: end 2147483647 exceeds the supported time range (at most 2147483647 as an upper, 2147483646 as an end)");
}

/* minimalloc's suite rewritten with minimalloc's other words for the same
 * half-open columns (buffer_id, begin, upper) must give the same problem:
 * same lower bound as the original file, computed by the library on both
 * (the suite's own figure for A is 1048576). */
Test(minimalloc_csv, suite_in_both_headers_agrees)
{
	char *text, *alt;
	size_t len;
	struct ab_problem a, b;

	text = tu_slurp(AB_SHARED_DIR "/problems/minimalloc/A.1048576.csv", &len);
	if (!text)
		cr_skip_test("../shared/problems/minimalloc is absent");
	cr_assert(strncmp(text, "id,lower,upper,size\n", 20) == 0);
	alt = malloc(len + 32);
	cr_assert_not_null(alt);
	strcpy(alt, "buffer_id,begin,upper,size\n");
	strcat(alt, text + 20);
	parse_ok(text, &a);
	parse_ok(alt, &b);
	cr_expect_eq(a.n, 154);
	cr_expect_eq(b.n, a.n);
	cr_expect_eq(ab_lower_bound(&a, NULL), 1048576);
	cr_expect_eq(ab_lower_bound(&b, NULL), 1048576);
	ab_problem_free(&a);
	ab_problem_free(&b);
	free(alt);
	free(text);
}

/*
 * The row reader, case by case, as the strtoll-and-strdup reader before
 * it accepted or refused each line (checked against that build's
 * `arenabench plan` on the same files): fields are trimmed of spaces and
 * tabs, a number is an optional '-' and decimal digits, the 64-bit range
 * is reported before any text after the digits, ids are text (07 and 7
 * are two ids, -0 and 0 too), and the first repeated id in row order is
 * the one named.  want NULL: accepted, and size (of the last row) and id
 * (its numeric id: the number, or the row index for a name) are checked.
 */
struct csv_case {
	const char *rows;  /* after the header "id,lower,upper,size\n" */
	const char *want;  /* the message, or NULL */
	uint64_t size;     /* accepted: the last row's size */
	int64_t id;        /* accepted: the last row's numeric id */
};

static const struct csv_case csv_cases[] = {
	{ "0,0,1,5\n", NULL, 5, 0 },
	{ " 3 ,\t0\t, 1 ,5 \n", NULL, 5, 3 },                /* spaces and tabs trimmed */
	{ "0,0,1,5\r\n1,0,1,6\r\n", NULL, 6, 1 },            /* CRLF */
	{ "0,0,1,5", NULL, 5, 0 },                           /* no last newline */
	{ "0,0,1,5\n \t \n1,0,1,6\n\n", NULL, 6, 1 },         /* blank lines skipped */
	{ "0,0,1,-0\n", NULL, 0, 0 },                        /* -0 is 0 */
	{ "0,0,1,007\n", NULL, 7, 0 },                       /* leading zeros */
	{ "9223372036854775807,0,1,4\n", NULL, 4, INT64_MAX }, /* the largest id */
	{ "07,0,1,1\n7,0,1,1\n", NULL, 1, 7 },               /* different text */
	{ "-0,0,1,1\n0,0,1,1\n", NULL, 1, 0 },
	{ "b,0,1,1\n-3,0,1,2\n", NULL, 2, 1 },               /* a negative id: the row index */
	{ "99999999999999999999,0,1,3\n", NULL, 3, 0 },      /* an id past 2^63: the row index */
	{ "0,0,1,9223372036854775808\n",
	  "m.csv:2: column 'size': 9223372036854775808 does not fit in a signed 64-bit integer (at most 9223372036854775807)", 0, 0 },
	{ "0,0,1,18446744073709551616\n",
	  "m.csv:2: column 'size': 18446744073709551616 does not fit in a signed 64-bit integer (at most 9223372036854775807)", 0, 0 },
	{ "0,0,1,99999999999999999999x\n",                   /* range before the x */
	  "m.csv:2: column 'size': 99999999999999999999x does not fit in a signed 64-bit integer (at most 9223372036854775807)", 0, 0 },
	{ "0,0,1,-9223372036854775809\n",
	  "m.csv:2: column 'size': -9223372036854775809 does not fit in a signed 64-bit integer (at most 9223372036854775807)", 0, 0 },
	{ "0,0,1,-9223372036854775808\n",
	  "m.csv:2: column 'size': expected a non-negative value, got -9223372036854775808", 0, 0 },
	{ "0,0,1,-1\n", "m.csv:2: column 'size': expected a non-negative value, got -1", 0, 0 },
	{ "0,0,1,+5\n", "m.csv:2: column 'size': expected an integer, got '+5'", 0, 0 },
	{ "0,0,1,5x\n", "m.csv:2: column 'size': expected an integer, got '5x'", 0, 0 },
	{ "0,0,1,-\n", "m.csv:2: column 'size': expected an integer, got '-'", 0, 0 },
	{ "0,0,1,- 5\n", "m.csv:2: column 'size': expected an integer, got '- 5'", 0, 0 },
	{ "0,0,1,\n", "m.csv:2: column 'size': expected an integer, got ''", 0, 0 },
	{ "0,0,1,0x10\n", "m.csv:2: column 'size': expected an integer, got '0x10'", 0, 0 },
	{ "0,0,1,1 2\n", "m.csv:2: column 'size': expected an integer, got '1 2'", 0, 0 },
	{ "0,0,1,1.5\n", "m.csv:2: column 'size': expected an integer, got '1.5'", 0, 0 },
	{ "0,x,1,1\n", "m.csv:2: column 'lower': expected an integer, got 'x'", 0, 0 },
	{ "0,0,1,5,3\n", "m.csv:2: expected 4 fields like the header, got 5", 0, 0 },
	{ "0,0,1,1\n\n0,2,3,1\r\n1,0,1,1\n0,0,1,zz\n",            /* line 6 */
	  "m.csv:6: column 'size': expected an integer, got 'zz'", 0, 0 },
	{ ",0,1,1\n", "m.csv:2: column 'id': expected a name or number of 1 to 256 characters without quotes, got ''", 0, 0 },
	{ "\"a\",0,1,1\n", "m.csv:2: column 'id': expected a name or number of 1 to 256 characters without quotes, got '\"a\"'", 0, 0 },
	{ "7,0,1,1\n7,0,1,1\n", "m.csv:3: column 'id': buffer id '7' appears twice, first on line 2 (ids must be unique)", 0, 0 },
	/* the sum of sizes, each rounded up to 2^30, past 2^62: 2^62 - 2^30
	 * and a 1-byte buffer (2^30) make 2^62 exactly, which fits; the next
	 * byte passes, at line 4; a repeat is named before it; a size alone
	 * above 2^62 at its own line */
	{ "0,0,1,4611686017353646080\n1,0,1,1\n", NULL, 1, 1 },
	{ "0,0,1,4611686017353646080\n1,0,1,1\n2,0,1,1\n",
	  "m.csv:4: column 'size': buffer 2 (1 bytes) brings the sum of sizes past 2^62 bytes (expected a problem whose aligned sizes sum to at most 2^62, so that no byte count overflows 64 bits)", 0, 0 },
	{ "0,0,1,4611686017353646080\n1,0,1,1\n2,0,1,1\n1,0,1,1\n",
	  "m.csv:5: column 'id': buffer id '1' appears twice, first on line 3 (ids must be unique)", 0, 0 },
	{ "b,0,1,7\n0,0,1,4611686018427387905\n",
	  "m.csv:3: column 'size': buffer 0 (4611686018427387905 bytes) brings the sum of sizes past 2^62 bytes (expected a problem whose aligned sizes sum to at most 2^62, so that no byte count overflows 64 bits)", 0, 0 },
	/* ids rising row by row but the last (no repeat while they rise) */
	{ "0,0,1,1\n1,0,1,1\n5,0,1,1\n5,0,1,1\n", "m.csv:5: column 'id': buffer id '5' appears twice, first on line 4 (ids must be unique)", 0, 0 },
	{ "a,0,1,1\n7,0,1,1\na,0,1,1\n", "m.csv:4: column 'id': buffer id 'a' appears twice, first on line 2 (ids must be unique)", 0, 0 },
	/* the first repeat in row order, numbers and names mixed: rows 5 x x 5
	 * repeat x first (row 3, line 4), rows x 5 5 x repeat 5 first */
	{ "5,0,1,1\nx,0,1,1\nx,0,1,1\n5,0,1,1\n", "m.csv:4: column 'id': buffer id 'x' appears twice, first on line 3 (ids must be unique)", 0, 0 },
	{ "x,0,1,1\n5,0,1,1\n5,0,1,1\nx,0,1,1\n", "m.csv:4: column 'id': buffer id '5' appears twice, first on line 3 (ids must be unique)", 0, 0 },
	/* ids far above the row count (compared after a sort, not a bitmap):
	 * 10^10 repeats at row 4, before 3's repeat at row 5 */
	{ "10000000000,0,1,1\n3,0,1,1\n7,0,1,1\n10000000000,0,1,1\n3,0,1,1\n",
	  "m.csv:5: column 'id': buffer id '10000000000' appears twice, first on line 2 (ids must be unique)", 0, 0 },
	{ "3,0,1,1\n10000000000,0,1,1\n3,0,1,1\n10000000000,0,1,1\n",
	  "m.csv:4: column 'id': buffer id '3' appears twice, first on line 2 (ids must be unique)", 0, 0 },
};

Test(minimalloc_csv, rows_are_read_as_before_case_by_case)
{
	for (size_t k = 0; k < sizeof(csv_cases) / sizeof(csv_cases[0]); k++) {
		const struct csv_case *c = &csv_cases[k];
		char *text = ab_strdupf("id,lower,upper,size\n%s", c->rows);
		struct ab_problem p;
		struct ab_error err = { { 0 } };
		int rc;

		cr_assert_not_null(text);
		rc = ab_problem_parse_csv(text, strlen(text), "m.csv", &p, &err);
		if (c->want) {
			cr_expect_lt(rc, 0, "case %zu accepted: %s", k, c->rows);
			cr_expect_str_eq(err.msg, c->want, "case %zu", k);
		} else {
			cr_expect_eq(rc, 0, "case %zu refused: %s", k, err.msg);
			if (!rc) {
				cr_expect_eq(p.buf[p.n - 1].size, c->size, "case %zu", k);
				cr_expect_eq(p.id[p.n - 1], c->id, "case %zu", k);
				ab_problem_free(&p);
			}
		}
		free(text);
	}
}

/* ----------------------------------------------- the plain-row reader */

/* T with a space before every line's end (before "\r\n", "\n", or the
 * text's end): the reader trims it, so T' means what T means, but no row
 * of T' is plain, so every row goes through split_fields and row_values,
 * the reader of every form. */
static char *with_trailing_spaces(const char *t)
{
	size_t len = strlen(t), k = 0;
	char *out = malloc(2 * len + 2);

	cr_assert_not_null(out);
	for (size_t i = 0; i < len; i++) {
		if (t[i] == '\n' || (t[i] == '\r' && t[i + 1] == '\n'))
			out[k++] = ' ';
		out[k++] = t[i];
		if (t[i] == '\r' && t[i + 1] == '\n')
			out[k++] = t[++i];
	}
	if (len && t[len - 1] != '\n')
		out[k++] = ' ';
	out[k] = 0;
	return out;
}

/* An odd field: a form only the general reader takes (signs, leading
 * zeros, 19 digits and more, letters, quotes, nothing), or a value the
 * rules refuse. */
static const char *odd_field(uint64_t *s)
{
	static const char *const odd[] = {
		"", "-1", "+5", "007", "0", "00", "9223372036854775807",
		"9223372036854775808", "123456789012345678", "1234567890123456789",
		"99999999999999999999", "1x", "x1", "b_2", "\"q\"", "-0", "2147483647",
		"2147483648", "1073741824", "3", "1e3", "_", "Z9", " 4", "4 ",
	};

	return odd[(*s = ab_mix64(*s)) % (sizeof(odd) / sizeof(odd[0]))];
}

/* Field k of row r, whose header word is w: mostly plain and sane (a
 * lifetime of 1 to 4 steps from 0..3, unique ids), one in 25 odd. */
static void random_field(char *out, size_t cap, uint64_t *s, const char *w,
			 int r, int *lower)
{
	uint64_t x = (*s = ab_mix64(*s));

	if (x % 25 == 0) {
		snprintf(out, cap, "%s", odd_field(s));
		return;
	}
	x /= 25;
	if (!strcmp(w, "id") || !strncmp(w, "buffer", 6))
		snprintf(out, cap, x % 3 ? "%d" : "b%d", x % 50 ? r : 0);
	else if (!strcmp(w, "lower") || !strcmp(w, "start") || !strcmp(w, "begin"))
		snprintf(out, cap, "%d", *lower = (int)(x % 4));
	else if (!strcmp(w, "upper") || !strcmp(w, "end"))
		snprintf(out, cap, "%d", *lower + 1 + (int)(x % 4));
	else if (!strcmp(w, "alignment"))
		snprintf(out, cap, "%d", 1 << (x % 7));
	else if (!strcmp(w, "name"))
		snprintf(out, cap, "n%d", (int)(x % 9));
	else
		snprintf(out, cap, "%llu", (unsigned long long)(x % 100000));
}

static void expect_same_problem(const struct ab_problem *a, const struct ab_problem *b,
				const char *text)
{
	cr_assert_eq(a->n, b->n, "%s", text);
	cr_expect_eq(a->steps, b->steps, "%s", text);
	cr_expect_eq(memcmp(a->csv_words, b->csv_words, sizeof(a->csv_words)), 0, "%s", text);
	cr_expect_eq(!a->fixed_offset, !b->fixed_offset, "%s", text);
	for (size_t i = 0; i < a->n; i++) {
		cr_assert_eq(a->buf[i].first, b->buf[i].first, "row %zu of\n%s", i, text);
		cr_assert_eq(a->buf[i].last, b->buf[i].last, "row %zu of\n%s", i, text);
		cr_assert_eq(a->buf[i].size, b->buf[i].size, "row %zu of\n%s", i, text);
		cr_assert_eq(a->buf[i].align, b->buf[i].align, "row %zu of\n%s", i, text);
		cr_assert_eq(a->id[i], b->id[i], "row %zu of\n%s", i, text);
		cr_assert_eq(!a->label, !b->label, "%s", text);
		if (a->label)
			cr_assert_str_eq(a->label[i], b->label[i], "row %zu of\n%s", i, text);
		if (a->fixed_offset && b->fixed_offset)
			cr_assert_eq(a->fixed_offset[i], b->fixed_offset[i], "row %zu of\n%s", i, text);
	}
}

/* Random texts, read as they are (plain rows in place) and with trailing
 * spaces (every row split): the same problem, or the same message. */
Test(minimalloc_csv, plain_rows_read_as_split_rows)
{
	static const char *const headers[] = {
		"id,lower,upper,size", "buffer,start,end,size", "id,lower,upper,size,alignment",
		"buffer_id,begin,upper,size,offset", "size,upper,lower,id",
		"id,lower,upper,size,name",
	};
	uint64_t s = 7;
	int accepted = 0, refused = 0;

	for (int trial = 0; trial < 4000; trial++) {
		char text[4096], field[64];
		const char *h = headers[trial % 6];
		int nf = 1, rows = 1 + (int)((s = ab_mix64(s)) % 6);
		size_t len = (size_t)snprintf(text, sizeof(text), "%s%s", h,
					      trial % 7 == 0 ? "\r\n" : "\n");
		struct ab_problem a, b;
		struct ab_error ea = { { 0 } }, eb = { { 0 } };
		char *spaced;
		int ra, rb;

		for (const char *c = h; *c; c++)
			nf += *c == ',';
		for (int r = 0; r < rows; r++) {
			uint64_t shape = (s = ab_mix64(s)) % 30;
			int fields = shape == 0 ? nf - 1 : shape == 1 ? nf + 1 : nf;
			const char *w = h;
			int lower = 0;

			if (shape == 2) {
				len += (size_t)snprintf(text + len, sizeof(text) - len, "\n");
				continue;
			}
			/* the lifetime's columns come in the header's order:
			 * "size,upper,lower,id" draws upper before lower */
			for (int k = 0; k < fields; k++) {
				char word[16];
				size_t wl = strcspn(w, ",");

				snprintf(word, sizeof(word), "%.*s", (int)wl, w);
				w += wl + (w[wl] == ',');
				random_field(field, sizeof(field), &s, word, r, &lower);
				len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s",
							k ? "," : "", field);
			}
			if (r + 1 < rows || trial % 3)
				len += (size_t)snprintf(text + len, sizeof(text) - len, "%s",
							trial % 5 == 0 ? "\r\n" : "\n");
		}
		spaced = with_trailing_spaces(text);
		ra = ab_problem_parse_csv(text, strlen(text), "r.csv", &a, &ea);
		rb = ab_problem_parse_csv(spaced, strlen(spaced), "r.csv", &b, &eb);
		cr_assert_eq(ra, rb, "%s\n%s | %s", text, ea.msg, eb.msg);
		if (ra) {
			cr_assert_str_eq(ea.msg, eb.msg, "%s", text);
			refused++;
		} else {
			expect_same_problem(&a, &b, text);
			ab_problem_free(&a);
			ab_problem_free(&b);
			accepted++;
		}
		free(spaced);
	}
	cr_expect_gt(accepted, 500, "%d accepted", accepted);
	cr_expect_gt(refused, 500, "%d refused", refused);
}

/* The plain reader takes digits eight bytes at a time while eight bytes
 * remain, then a byte at a time: every width from 1 to 18 digits, in each
 * column, its field ending 0 to 11 bytes before the text's end (with and
 * without a last newline), reads the value written (pinned by hand for a
 * few widths, else strtoull's), as the split reader reads it too. */
Test(minimalloc_csv, digits_at_every_width_and_distance_from_the_end)
{
	static const char digits[] = "918273645546372819";
	static const struct { int width; uint64_t value; } by_hand[] = {
		{ 1, 9 }, { 7, 9182736 }, { 8, 91827364 }, { 9, 918273645 },
		{ 16, 9182736455463728ull }, { 17, 91827364554637281ull },
		{ 18, 918273645546372819ull },
	};

	for (int width = 1; width <= 18; width++)
		for (int pad = 0; pad < 12; pad++)
			for (int nl = 0; nl < 2; nl++) {
				char text[256], field[24], *spaced;
				struct ab_problem a, b;
				uint64_t want;

				snprintf(field, sizeof(field), "%.*s", width, digits);
				want = strtoull(field, NULL, 10);
				for (size_t k = 0; k < sizeof(by_hand) / sizeof(by_hand[0]); k++)
					if (by_hand[k].width == width)
						cr_assert_eq(want, by_hand[k].value);
				/* the size last, then pad more bytes after it in
				 * an alignment column ("1" and zeros are refused
				 * but for powers of two: pad as an id's length) */
				snprintf(text, sizeof(text),
					 "id,lower,upper,size\n%.*s7,3,%.*s,%s%s",
					 pad, "123456789012", width < 10 ? width : 9,
					 "999999999", field, nl ? "\n" : "");
				spaced = with_trailing_spaces(text);
				parse_ok(text, &a);
				parse_ok(spaced, &b);
				expect_same_problem(&a, &b, text);
				cr_assert_eq(a.buf[0].size, want, "%s", text);
				cr_assert_eq(a.buf[0].first, 3, "%s", text);
				cr_assert_eq(a.id[0], (int64_t)strtoull(text + 20, NULL, 10), "%s", text);
				ab_problem_free(&a);
				ab_problem_free(&b);
				free(spaced);
				/* the same number as the id, the last field before
				 * the lifetime and size */
				snprintf(text, sizeof(text), "size,lower,upper,id\n%.*s1,0,1,%s%s",
					 pad, "123456789012", field, nl ? "\n" : "");
				parse_ok(text, &a);
				cr_assert_eq(a.id[0], (int64_t)want, "%s", text);
				cr_assert_eq(a.buf[0].size, strtoull(text + 20, NULL, 10), "%s", text);
				ab_problem_free(&a);
			}
	/* 19 digits (the split reader's: accepted below 2^63), 20 digits
	 * (refused) and a letter past the first eight digits (refused) */
	{
		struct ab_problem p;

		parse_ok("id,lower,upper,size\n1,0,1,1234567890123456789\n", &p);
		cr_expect_eq(p.buf[0].size, 1234567890123456789ull);
		ab_problem_free(&p);
	}
	parse_fails("id,lower,upper,size\n1,0,1,12345678901234567890\n", 46,
		    "m.csv:2: column 'size': 12345678901234567890 does not fit in a signed 64-bit integer (at most 9223372036854775807)");
	parse_fails("id,lower,upper,size\n1,0,1,123456789x12\n", 38,
		    "m.csv:2: column 'size': expected an integer, got '123456789x12'");
}

/* Random rows of numbers 1 to 18 digits long (ids letters too), as they
 * are and with trailing spaces: the same problem, and each value the one
 * printed. */
Test(minimalloc_csv, long_numbers_read_as_split_rows)
{
	uint64_t s = 11;

	for (int trial = 0; trial < 2000; trial++) {
		char text[4096];
		uint64_t size[8];
		int rows = 1 + (int)((s = ab_mix64(s)) % 8);
		size_t len = (size_t)snprintf(text, sizeof(text), "id,lower,upper,size\n");
		struct ab_problem a, b;
		char *spaced;

		for (int r = 0; r < rows; r++) {
			unsigned width = 1 + (unsigned)((s = ab_mix64(s)) % 18);
			uint64_t x = (s = ab_mix64(s)) % 1000000000000000000ull, p10 = 1;

			for (unsigned k = 0; k < width; k++)
				p10 *= 10;
			size[r] = x % p10;
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						s % 3 ? "%d,%u,%u,%llu%s" : "b%d,%u,%u,%llu%s",
						r, (unsigned)(s % 1000), 1000 + (unsigned)(s % 99999),
						(unsigned long long)size[r],
						r + 1 < rows || s % 2 ? "\n" : "");
		}
		spaced = with_trailing_spaces(text);
		parse_ok(text, &a);
		parse_ok(spaced, &b);
		expect_same_problem(&a, &b, text);
		for (int r = 0; r < rows; r++)
			cr_assert_eq(a.buf[r].size, size[r], "row %d of\n%s", r, text);
		ab_problem_free(&a);
		ab_problem_free(&b);
		free(spaced);
	}
}

/* Texts that end just before a page the process may not read (a guard
 * page, PROT_NONE): the reader reads nothing past its length, whatever
 * the last field's width and with or without a last newline (a read of
 * one byte too many faults). */
Test(minimalloc_csv, reader_stops_at_the_text_end_before_a_guard_page)
{
	long page = sysconf(_SC_PAGESIZE);
	char *two = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert_neq(two, MAP_FAILED);
	cr_assert_eq(mprotect(two + page, (size_t)page, PROT_NONE), 0);
	for (int width = 1; width <= 18; width++)
		for (int nl = 0; nl < 3; nl++) {
			char text[128];
			int len = snprintf(text, sizeof(text), "id,lower,upper,size\n1,0,1,%.*s%s",
					   width, "123456789123456789",
					   nl == 1 ? "\n" : nl == 2 ? "\r\n" : "");
			char *at = two + page - len;
			struct ab_problem p;
			struct ab_error err = { { 0 } };

			memcpy(at, text, (size_t)len);
			cr_assert_eq(ab_problem_parse_csv(at, (size_t)len, "g.csv", &p, &err), 0,
				     "%s", err.msg);
			cr_expect_eq(p.buf[0].size, strtoull(text + 26, NULL, 10), "%s", text);
			ab_problem_free(&p);
		}
	munmap(two, 2 * (size_t)page);
}

/* Files through ab_problem_load_csv: one of exactly a page (4,096 bytes)
 * whose last row has no newline and ends on the page's last byte (its
 * last field read by the byte loop after the eight-byte steps); an empty
 * file. */
Test(minimalloc_csv, file_of_exactly_a_page_and_an_empty_file)
{
	char dir[256], path[300];
	char text[4097];
	size_t len = (size_t)snprintf(text, sizeof(text), "id,lower,upper,size\n");
	struct ab_problem p;
	struct ab_error err = { { 0 } };
	FILE *f;
	int rows = 0;

	while (len + 24 < 4096)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%d,0,1,%d\n",
					rows, rows + 1), rows++;
	/* the last row fills the page to its end, no newline */
	len += (size_t)snprintf(text + len, sizeof(text) - len, "%d,0,1,", rows);
	memset(text + len, '7', 4096 - len);
	text[4096] = 0;
	tu_tmpdir_make(dir, sizeof(dir), "csvmap");
	snprintf(path, sizeof(path), "%s/page.csv", dir);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(text, 1, 4096, f), 4096);
	fclose(f);
	cr_assert_eq(ab_problem_load_csv(path, &p, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n, (size_t)rows + 1);
	cr_expect_eq(p.buf[rows].size, strtoull(text + len, NULL, 10));
	/* rows 0..355 take 4,062 bytes after the 20 of the header, then
	 * "356,0,1," and 14 sevens */
	cr_expect_eq(rows, 356);
	cr_expect_eq(p.buf[rows].size, 77777777777777ull);
	ab_problem_free(&p);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fclose(f);
	cr_assert_lt(ab_problem_load_csv(path, &p, &err), 0);
	cr_expect(strstr(err.msg, "page.csv: empty file (expected a header"), "%s", err.msg);
	tu_tmpdir_remove(dir);
}

/* ab_put_u64 against printf's %llu: the edges of every digit count and
 * random values of every bit length. */
Test(minimalloc_csv, decimal_writer_matches_printf)
{
	char got[32], want[32];
	uint64_t s = 3, p10 = 1;

	for (int k = 0; k < 20; k++, p10 *= 10)
		for (int d = -2; d <= 2; d++) {
			uint64_t v = p10 + (uint64_t)(int64_t)d;

			*ab_put_u64(got, v) = 0;
			snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
			cr_assert_str_eq(got, want);
		}
	for (int k = 0; k < 200000; k++) {
		uint64_t v = (s = ab_mix64(s)) >> (k % 64);

		*ab_put_u64(got, v) = 0;
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		cr_assert_str_eq(got, want);
	}
	/* every value of each four-digit half, alone and in both halves */
	for (uint64_t i = 0; i < 10000; i++)
		for (int k = 0; k < 3; k++) {
			uint64_t v = k == 0 ? i : k == 1 ? i * 10000 : i * 10001;

			*ab_put_u64(got, v) = 0;
			snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
			cr_assert_str_eq(got, want);
		}
	*ab_put_u64(got, UINT64_MAX) = 0;
	cr_expect_str_eq(got, "18446744073709551615");
}

/* A plan of 20,000 rows with 200-character ids and names: the rows cross
 * the writer's 64 KiB blocks, and the text is each row as printf writes
 * it. */
Test(minimalloc_csv, long_plan_is_written_row_by_row)
{
	size_t n = 20000, len = 0;
	char *csv = malloc(n * 460 + 64), *want = malloc(n * 460 + 64), *got = NULL;
	struct ab_problem p;
	struct ab_plan plan;
	FILE *f;
	size_t got_len = 0;

	cr_assert(csv && want);
	len = (size_t)sprintf(csv, "id,lower,upper,size,name\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(csv + len, "%0200zu,%zu,%zu,%zu,%0*zu\n", i, i % 7,
				       i % 7 + 1 + i % 3, 1 + i * 37 % 1000, (int)(i % 201), i);
	parse_ok(csv, &p);
	cr_assert_eq(ab_plan_alloc(&plan, p.n), 0);
	for (size_t i = 0; i < n; i++)
		plan.offset[i] = i * 1000;
	ab_plan_finish_single(&plan, &p);
	f = open_memstream(&got, &got_len);
	cr_assert_eq(ab_plan_write_csv(f, &p, &plan), 0);
	fclose(f);
	len = (size_t)sprintf(want, "id,lower,upper,size,offset,name\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(want + len, "%0200zu,%zu,%zu,%zu,%zu,%0*zu\n", i, i % 7,
				       i % 7 + 1 + i % 3, 1 + i * 37 % 1000, i * 1000,
				       (int)(i % 201), i);
	cr_expect_eq(got_len, len);
	cr_expect_str_eq(got, want);
	free(got);
	free(want);
	free(csv);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}
