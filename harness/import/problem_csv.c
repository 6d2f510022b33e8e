/*
 * minimalloc's CSV: problems `id,lower,upper,size[,alignment]` (the
 * benchmark suite's header), with half-open [lower, upper) lifetimes,
 * and the other words minimalloc's own reader takes for the first three
 * columns (google/minimalloc src/converter.cc, FromCsv): `buffer` or
 * `buffer_id` for id, `start` or `begin` for lower, and `end` for upper,
 * an end being inclusive (minimalloc adds one: `buffer,start,end,size`
 * with end 2 is [start, 3)).  An optional `name` column is carried into
 * plans and reports; solutions have an `offset` (and, from arenabench, an
 * `arena`) column: the offsets become the problem's fixed offsets, which
 * only the `offline` planner keeps (minimalloc's Buffer.offset).  Columns
 * are read by name; a UTF-8 byte-order mark
 * before the header is skipped.  A plan is written back with the header
 * words its problem used, an end column as an inclusive end again.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "import/problem_csv.h"
#include "import/digits.h"
#include "core/strmap.h"
#include "core/textio.h"

enum col { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, COL_ALIGN, COL_OFFSET,
	   COL_ARENA, COL_NAME, COL_COUNT };
static const char *const col_names[COL_COUNT] = {
	"id", "lower", "upper", "size", "alignment", "offset", "arena", "name",
};
/* The other words minimalloc reads for the first three columns
 * (ab_problem's csv_words: 0 is col_names', 1.. these). */
#define N_ALIASES 3
static const char *const col_aliases[COL_SIZE][N_ALIASES] = {
	[COL_ID] = { "id", "buffer", "buffer_id" },
	[COL_LOWER] = { "lower", "start", "begin" },
	[COL_UPPER] = { "upper", "end", NULL },
};
#define WORD_END 1 /* col_aliases[COL_UPPER][1]: an inclusive end */
#define MAX_FIELDS 16
#define EXPECTED_HEADER "'id,lower,upper,size[,alignment]' or minimalloc's other words (buffer or buffer_id, start or begin, end: inclusive)"

/* The column a header word names (its alias index in *word), or -1. */
static int column_of(const char *w, uint8_t *word)
{
	*word = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		if (!strcmp(w, col_names[c]))
			return c;
		for (int k = 1; c < COL_SIZE && k < N_ALIASES; k++)
			if (col_aliases[c][k] && !strcmp(w, col_aliases[c][k])) {
				*word = (uint8_t)k;
				return c;
			}
	}
	return -1;
}

/* Splits a line at commas in place, trimming spaces; returns the field
 * count (all of them, though only the first max are stored). */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *end = strchr(p, ',');

		if (n == max) {
			for (; end; end = strchr(end + 1, ','))
				n++;
			return n + 1;
		}
		if (end)
			*end = 0;
		while (isspace((unsigned char)*p))
			p++;
		for (char *e = p + strlen(p); e > p && isspace((unsigned char)e[-1]);)
			*--e = 0;
		f[n++] = p;
		if (!end)
			return n;
		p = end + 1;
	}
}

/* A whole field as a decimal integer, read as strtoll reads it in the C
 * locale, without its locale look-ups: an optional '-', then digits (a
 * '+' or a leading space is refused, as the fields are trimmed).
 * -EOVERFLOW outside the signed 64-bit range, even with text after the
 * digits (strtoll reports the range first); -EINVAL without digits or
 * with text after them. */
static int parse_i64(const char *s, int64_t *v)
{
	bool neg = *s == '-', over = false;
	const char *d = s + neg;
	uint64_t x = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

	if (*d < '0' || *d > '9')
		return -EINVAL;
	for (; *d >= '0' && *d <= '9'; d++) {
		unsigned digit = (unsigned)(*d - '0');

		if (x > (limit - digit) / 10)
			over = true; /* the digits still run to their end */
		else
			x = x * 10 + digit;
	}
	if (over)
		return -EOVERFLOW;
	if (*d)
		return -EINVAL;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x; /* 0 - 2^63 is INT64_MIN */
	return 0;
}

/* An id written the one way a number is (digits, no leading zero but
 * "0" itself): two such ids are the same text exactly when their values
 * are equal, and no other id can be the same text as one. */
static bool canonical_number(const char *label)
{
	return label[0] >= '1' ? true : label[0] == '0' && label[1] == 0;
}

/* The first row whose id an earlier row already has (ids are text), or
 * SIZE_MAX.  Canonical numbers (numeric[i]; their values in id[]) are
 * compared as numbers: a bitmap over the values when they are at most
 * 64 n, else sorted; the other ids through a string map, in row order,
 * up to the first repeat found so far; numbers that rise row by row (the
 * sweep's 0, 1, 2, ...) in the one pass that finds the largest.  O(n)
 * but the sort's passes. */
static int first_repeated_id(const struct ab_problem *p, const uint8_t *numeric,
			     size_t *first)
{
	size_t n = p->n, best = SIZE_MAX, m = 0;
	uint64_t top = 0;
	struct ab_strmap ids = { 0 };
	int rc = 0;

	bool rising = true; /* every id a number above the row before's */

	for (size_t i = 0; i < n; i++)
		if (numeric[i]) {
			m++;
			rising &= i == 0 || (uint64_t)p->id[i] > top;
			if ((uint64_t)p->id[i] > top)
				top = (uint64_t)p->id[i];
		}
	if (m == n && rising) {
		*first = SIZE_MAX; /* no value twice: nothing to look up */
		return 0;
	}
	if (m && top / 64 <= n) {
		uint64_t *seen = calloc(top / 64 + 1, sizeof(*seen));

		if (!seen)
			return -ENOMEM;
		for (size_t i = 0; i < n && best == SIZE_MAX; i++) {
			uint64_t v = (uint64_t)p->id[i], bit = 1ull << (v % 64);

			if (!numeric[i])
				continue;
			if (seen[v / 64] & bit)
				best = i;
			seen[v / 64] |= bit;
		}
		free(seen);
	} else if (m) {
		struct ab_key_index *by_value = malloc(m * sizeof(*by_value));

		if (!by_value)
			return -ENOMEM;
		m = 0;
		for (size_t i = 0; i < n; i++)
			if (numeric[i])
				by_value[m++] = (struct ab_key_index){ (uint64_t)p->id[i], (uint32_t)i };
		if (ab_sort_key_index(by_value, m)) {
			free(by_value);
			return -ENOMEM;
		}
		/* stable: within equal values, rows in order; the second is
		 * that value's first repeat */
		for (size_t k = 1; k < m; k++)
			if (by_value[k].key == by_value[k - 1].key &&
			    by_value[k].index < best)
				best = by_value[k].index;
		free(by_value);
	}
	rc = ab_strmap_init(&ids, 1024);
	for (size_t i = 0; !rc && i < n && i < best; i++)
		if (!numeric[i]) {
			rc = ab_strmap_put(&ids, p->label[i], (int64_t)i);
			if (rc == -EEXIST) {
				best = i;
				rc = 0;
			}
		}
	ab_strmap_free(&ids);
	*first = best;
	return rc;
}

/* The columns the header names, by position. */
struct csv_cols {
	int at[COL_COUNT];          /* field index of each column, or -1 */
	uint8_t words[COL_COUNT];   /* which alias named it (col_aliases) */
	int n;                      /* fields in the header */
	uint8_t column[MAX_FIELDS]; /* the column of each field */
};

/* Reads the header (the first line not blank) into *cols. */
static int read_header(struct ab_line_reader *lr, const char *path,
		       struct csv_cols *cols, struct ab_error *err)
{
	char *line, *f[MAX_FIELDS];
	int rc;

	for (int c = 0; c < COL_COUNT; c++)
		cols->at[c] = -1;
	do {
		rc = ab_line_reader_next(lr, &line);
	} while (rc > 0 && line[strspn(line, " \t")] == 0);
	if (rc < 0)
		return ab_fail(err, -EINVAL, "%s:%d: the header line contains a NUL byte or is longer than %d bytes (expected " EXPECTED_HEADER ")",
			       path, lr->line, AB_MAX_LINE_BYTES);
	if (rc == 0)
		return ab_fail(err, -EINVAL, "%s: empty file (expected a header " EXPECTED_HEADER ")",
			       path);
	cols->n = split_fields(line, f, MAX_FIELDS);
	if (cols->n > MAX_FIELDS)
		return ab_fail(err, -EINVAL, "%s:%d: %d columns in the header (at most %d)",
			       path, lr->line, cols->n, MAX_FIELDS);
	for (int i = 0; i < cols->n; i++) {
		uint8_t word;
		int c = column_of(f[i], &word);

		if (c < 0)
			return ab_fail(err, -EINVAL, "%s:%d: unknown column '%s' (expected id, lower, upper, size or minimalloc's buffer, buffer_id, start, begin, end, and optionally alignment, offset, arena, name)",
				       path, lr->line, f[i]);
		if (cols->at[c] >= 0 && !strcmp(f[cols->at[c]], f[i]))
			return ab_fail(err, -EINVAL, "%s:%d: column '%s' appears twice",
				       path, lr->line, f[i]);
		if (cols->at[c] >= 0)
			return ab_fail(err, -EINVAL, "%s:%d: columns '%s' and '%s' both give %s",
				       path, lr->line, f[cols->at[c]], f[i], col_names[c]);
		cols->at[c] = i;
		cols->words[c] = word;
		cols->column[i] = (uint8_t)c;
	}
	for (int c = COL_ID; c <= COL_SIZE; c++)
		if (cols->at[c] < 0)
			return ab_fail(err, -EINVAL, "%s:%d: missing column '%s'%s (expected " EXPECTED_HEADER ")",
				       path, lr->line, col_names[c],
				       c == COL_ID ? " (or buffer, buffer_id)" : c == COL_LOWER ? " (or start, begin)" :
				       c == COL_UPPER ? " (or end)" : "");
	return 0;
}

/* The rules a row's values must meet, once its fields are integers >= 0
 * (v[], by column): in this order, the first one broken. */
enum row_rule {
	ROW_OK,
	ROW_END_BEFORE_START, /* an inclusive end before the start */
	ROW_EMPTY_LIFETIME,   /* upper <= lower */
	ROW_PAST_TIME_RANGE,  /* upper past INT32_MAX */
	ROW_BAD_ALIGNMENT,    /* not a power of two up to 2^30 */
	ROW_TOO_MANY,         /* INT32_MAX buffers already */
	ROW_OFFSET_PAST_2_62, /* offset + size past 2^62 */
};

/* Checks row n's values by the column rules and makes an inclusive end
 * exclusive (v[COL_UPPER]): the one place the rules live, for both row
 * readers below. */
static enum row_rule row_rule(int64_t v[COL_COUNT], const struct csv_cols *cols,
			      size_t n)
{
	if (cols->words[COL_UPPER] == WORD_END) {
		/* inclusive: the buffer lives from start through end */
		if (v[COL_UPPER] < v[COL_LOWER])
			return ROW_END_BEFORE_START;
		if (v[COL_UPPER] < INT64_MAX)
			v[COL_UPPER]++;
	}
	if (v[COL_UPPER] <= v[COL_LOWER])
		return ROW_EMPTY_LIFETIME;
	if (v[COL_UPPER] > INT32_MAX)
		return ROW_PAST_TIME_RANGE;
	if (cols->at[COL_ALIGN] >= 0 &&
	    (v[COL_ALIGN] == 0 || (v[COL_ALIGN] & (v[COL_ALIGN] - 1)) ||
	     v[COL_ALIGN] > (1 << 30)))
		return ROW_BAD_ALIGNMENT;
	if (n >= (size_t)INT32_MAX)
		return ROW_TOO_MANY;
	/* a fixed offset keeps the whole buffer below 2^62, so that no
	 * end, arena or peak can pass 2^63 - 1 */
	if (cols->at[COL_OFFSET] >= 0 &&
	    ((uint64_t)v[COL_SIZE] > AB_MAX_PROBLEM_BYTES ||
	     (uint64_t)v[COL_OFFSET] > AB_MAX_PROBLEM_BYTES - (uint64_t)v[COL_SIZE]))
		return ROW_OFFSET_PAST_2_62;
	return ROW_OK;
}

/* Row n's values (fields f, on line `line`) by the column rules: integers
 * >= 0, the id's text, a lifetime in the time range (an end made
 * exclusive), the alignment a power of two and offset + size below 2^62.
 * *numeric: the id is a canonical number (its value in v[COL_ID]). */
static int row_values(char **f, const struct csv_cols *cols, const char *path,
		      int line, size_t n, int64_t v[COL_COUNT],
		      uint8_t *numeric, struct ab_error *err)
{
	const char *id = f[cols->at[COL_ID]];
	const char *lower_word = col_aliases[COL_LOWER][cols->words[COL_LOWER]];
	int rc;

	for (int c = 0; c < COL_COUNT; c++) {
		const char *cn = c < COL_SIZE ? col_aliases[c][cols->words[c]] : col_names[c];

		if (cols->at[c] < 0 || c == COL_ID || c == COL_NAME)
			continue;
		rc = parse_i64(f[cols->at[c]], &v[c]);
		if (rc == -EOVERFLOW)
			return ab_fail(err, -EINVAL, "%s:%d: column '%s': %s does not fit in a signed 64-bit integer (at most 9223372036854775807)",
				     path, line, cn, f[cols->at[c]]);
		if (rc)
			return ab_fail(err, -EINVAL, "%s:%d: column '%s': expected an integer, got '%s'",
				     path, line, cn, f[cols->at[c]]);
		if (v[c] < 0)
			return ab_fail(err, -EINVAL, "%s:%d: column '%s': expected a non-negative value, got %" PRId64,
				     path, line, cn, v[c]);
	}
	/* Ids are names in minimalloc (e.g. "b1"); keep the text. */
	if (!*id || strlen(id) > 256 || strpbrk(id, "\""))
		return ab_fail(err, -EINVAL, "%s:%d: column 'id': expected a name or number of 1 to 256 characters without quotes, got '%s'",
			       path, line, id);
	*numeric = 0;
	if (parse_i64(id, &v[COL_ID]) || v[COL_ID] < 0)
		v[COL_ID] = (int64_t)n;
	else
		*numeric = canonical_number(id);
	switch (row_rule(v, cols, n)) {
	case ROW_OK:
		return 0;
	case ROW_END_BEFORE_START:
		return ab_fail(err, -EINVAL, "%s:%d: buffer %s: end %" PRId64 " is before %s %" PRId64 " (an end is inclusive, as minimalloc reads it: the buffer lives from %s through end)",
			       path, line, id, v[COL_UPPER], lower_word, v[COL_LOWER],
			       lower_word);
	case ROW_EMPTY_LIFETIME:
		return ab_fail(err, -EINVAL, "%s:%d: buffer %s: upper %" PRId64 " must be greater than %s %" PRId64 " (lifetimes are half-open [%s, upper))",
			       path, line, id, v[COL_UPPER], lower_word, v[COL_LOWER],
			       lower_word);
	case ROW_PAST_TIME_RANGE:
		return ab_fail(err, -EINVAL, "%s:%d: buffer %s: %s %s exceeds the supported time range (at most %d as an upper, %d as an end)",
			       path, line, id, col_aliases[COL_UPPER][cols->words[COL_UPPER]],
			       f[cols->at[COL_UPPER]], INT32_MAX, INT32_MAX - 1);
	case ROW_BAD_ALIGNMENT:
		return ab_fail(err, -EINVAL, "%s:%d: buffer %s: alignment %" PRId64 " must be a power of two up to 2^30",
			       path, line, id, v[COL_ALIGN]);
	case ROW_TOO_MANY:
		return ab_fail(err, -E2BIG, "%s:%d: too many buffers", path, line);
	case ROW_OFFSET_PAST_2_62:
		return ab_fail(err, -EOVERFLOW, "%s:%d: buffer %s: column 'offset': offset %" PRId64 " + size %" PRId64 " is past 2^62 bytes (expected offset + size at most %llu, so that no byte count overflows 64 bits)",
			       path, line, id, v[COL_OFFSET], v[COL_SIZE],
			       (unsigned long long)AB_MAX_PROBLEM_BYTES);
	}
	return ab_fail(err, -EINVAL, "%s:%d: unreadable row", path, line);
}

/*
 * The common row read without copying its line: every field is plain
 * digits (at most 18, so no overflow) but the id, which is 1 to 256
 * letters, digits or '_', the fields as many as the header's, no space
 * anywhere, the line ending in "\n", "\r\n" or the text's end; and the
 * rules hold (row_rule).  Then it reads the row as row_values would and
 * returns true, *pos past the line; else false, nothing read, and the
 * line goes to split_fields and row_values, which take every form the
 * rules allow and word every message.  Not used with a name column.
 * Digits are read eight at a time while eight bytes remain (digits_by_eight).
 */
static bool plain_row(const char *text, size_t len, size_t *pos,
		      const struct csv_cols *cols, size_t n,
		      int64_t v[COL_COUNT], const char **id, size_t *id_len,
		      uint8_t *numeric)
{
	const char *q = text + *pos, *end = text + len;

	for (int fi = 0; fi < cols->n; fi++) {
		const char *start = q;
		bool is_id = cols->column[fi] == COL_ID, digits = true;
		uint64_t x = 0;
		size_t width;

		digits_by_eight(&q, end, &x);
		for (; q < end && *q != ',' && *q != '\n' && *q != '\r'; q++) {
			unsigned d = (unsigned)(*q - '0');

			if (d <= 9)
				x = x * 10 + d;
			else if (is_id && ((*q >= 'a' && *q <= 'z') ||
					   (*q >= 'A' && *q <= 'Z') || *q == '_'))
				digits = false;
			else
				return false;
		}
		width = (size_t)(q - start);
		/* at most 18 digits: a number that fits, as parse_i64 reads it */
		if (width == 0 || width > (is_id ? 256 : 18) || (digits && width > 18))
			return false;
		if (fi + 1 < cols->n) {
			if (q == end || *q != ',')
				return false;
			q++;
		}
		if (is_id) {
			*id = start;
			*id_len = width;
			/* as row_values reads it: a number's value, else the row */
			v[COL_ID] = digits ? (int64_t)x : (int64_t)n;
			*numeric = digits && (start[0] != '0' || width == 1);
		} else {
			v[cols->column[fi]] = (int64_t)x;
		}
	}
	if (q < end && *q == '\r')
		q++;
	if (q < end && *q != '\n')
		return false;
	if (row_rule(v, cols, n) != ROW_OK)
		return false;
	*pos = (size_t)(q - text) + (q < end);
	return true;
}

#ifdef AB_HAVE_MASKS_OF_32
/*
 * The commonest row of all, read from one look at its 32 bytes: a line
 * of at most 31 bytes ending in "\n" or "\r\n", of digits and commas
 * only, as many fields as the header's, each 1 to 8 digits.  Byte masks
 * (digits, commas, newlines) find the fields; each field's digits are
 * one 8-byte load.  Such a row is one plain_row takes, read to the same
 * values, so on true it has done what plain_row would; on false nothing
 * is read and plain_row decides.  Needs 40 bytes from *pos (the last
 * field's load may reach 8 bytes past a comma at byte 30).
 */
static bool short_digit_row(const char *text, size_t len, size_t *pos,
			    const struct csv_cols *cols, size_t n,
			    int64_t v[COL_COUNT], const char **id, size_t *id_len,
			    uint8_t *numeric)
{
	const char *q = text + *pos;
	uint32_t nl, content, commas, digits, fields_left;
	unsigned e, at = 0;

	if (len - *pos < 40)
		return false;
	masks_of_32(q, &nl, &commas, &digits);
	if (!nl)
		return false;
	e = (unsigned)__builtin_ctz(nl); /* the line's end */
	if (e && q[e - 1] == '\r')
		e--;
	if (e == 0)
		return false;
	content = (1u << e) - 1;
	commas &= content;
	/* digits and commas only; no field empty (a comma first, last or
	 * after a comma); the header's count of fields */
	if (((digits | commas) & content) != content || (commas & 1) ||
	    (commas >> (e - 1)) || (commas & commas << 1))
		return false;
	fields_left = commas | 1u << e; /* each field's end */
	for (int fi = 0; fi < cols->n; fi++) {
		unsigned end, width;
		uint64_t w, x;

		if (!fields_left) /* fewer fields than the header's */
			return false;
		end = (unsigned)__builtin_ctz(fields_left);
		width = end - at;
		if (width > 8)
			return false;
		memcpy(&w, q + at, 8); /* x86-64: the first byte lowest */
		x = eight_digit_value((w ^ 0x3030303030303030ull) << (8 * (8 - width)));
		if (cols->column[fi] == COL_ID) {
			*id = q + at;
			*id_len = width;
			v[COL_ID] = (int64_t)x;
			*numeric = q[at] != '0' || width == 1;
		} else {
			v[cols->column[fi]] = (int64_t)x;
		}
		fields_left &= fields_left - 1;
		at = end + 1;
	}
	if (fields_left || row_rule(v, cols, n) != ROW_OK) /* more fields */
		return false;
	*pos += (size_t)__builtin_ctz(nl) + 1;
	return true;
}
#endif

/* A row read where it is: the short one from one look (short_digit_row,
 * where SSE2 is), else plain_row; false: neither took it. */
static inline bool row_in_place(const char *text, size_t len, size_t *pos,
				const struct csv_cols *cols, size_t n,
				int64_t v[COL_COUNT], const char **id,
				size_t *id_len, uint8_t *numeric)
{
#ifdef AB_HAVE_MASKS_OF_32
	if (short_digit_row(text, len, pos, cols, n, v, id, id_len, numeric))
		return true;
#endif
	return plain_row(text, len, pos, cols, n, v, id, id_len, numeric);
}

/* The problem's arrays (and *numeric, *row_line per row), sized once for
 * the lines after the header (from text[rows_at]). */
static int alloc_rows(const char *text, size_t len, size_t rows_at,
		      const struct csv_cols *cols, struct ab_problem *out,
		      uint8_t **numeric, int **row_line)
{
	size_t cap = 1;

	/* Every id's text, one after another in one block: an id is part
	 * of its line, so the ids with their NULs need at most the rest of
	 * the text and one byte (a last line without a newline). */
	out->label_text = ab_alloc_large(len - rows_at + 2);
	if (!out->label_text)
		return -ENOMEM;
	/* At most one row per line left: the arrays are sized once. */
	cap += count_newlines(text + rows_at, len - rows_at);
	out->buf = ab_alloc_large(cap * sizeof(*out->buf));
	out->id = ab_alloc_large(cap * sizeof(*out->id));
	out->label = ab_alloc_large(cap * sizeof(*out->label));
	*numeric = ab_alloc_large(cap);
	*row_line = ab_alloc_large(cap * sizeof(**row_line));
	if (cols->at[COL_NAME] >= 0)
		out->csv_name = malloc(cap * sizeof(*out->csv_name));
	if (cols->at[COL_OFFSET] >= 0)
		out->fixed_offset = malloc(cap * sizeof(*out->fixed_offset));
	if (!out->buf || !out->id || !out->label || !*numeric || !*row_line ||
	    (cols->at[COL_NAME] >= 0 && !out->csv_name) ||
	    (cols->at[COL_OFFSET] >= 0 && !out->fixed_offset))
		return -ENOMEM;
	return 0;
}

/* The message for row `repeat`, whose id an earlier row has: both lines. */
static int repeated_id(const struct ab_problem *p, const uint8_t *numeric,
		       const int *row_line, size_t repeat, const char *path,
		       const struct csv_cols *cols, struct ab_error *err)
{
	size_t first = 0;

	while (first < repeat && strcmp(p->label[first], p->label[repeat]) &&
	       !(numeric[first] && numeric[repeat] && p->id[first] == p->id[repeat]))
		first++;
	return ab_fail(err, -EINVAL, "%s:%d: column '%s': buffer id '%s' appears twice, first on line %d (ids must be unique)",
		       path, row_line[repeat], col_aliases[COL_ID][cols->words[COL_ID]],
		       p->label[repeat], row_line[first]);
}

/* Row n's values into the problem, its id's text after label_end;
 * returns the end of the labels. */
static char *put_row(struct ab_problem *out, size_t n, const int64_t v[COL_COUNT],
		     const struct csv_cols *cols, const char *id, size_t id_len,
		     char *label_end)
{
	out->buf[n].first = (int32_t)v[COL_LOWER];
	out->buf[n].last = (int32_t)(v[COL_UPPER] - 1);
	out->buf[n].size = (uint64_t)v[COL_SIZE];
	out->buf[n].align = cols->at[COL_ALIGN] >= 0 ? (uint32_t)v[COL_ALIGN] : 1;
	out->id[n] = v[COL_ID];
	if (cols->at[COL_OFFSET] >= 0)
		out->fixed_offset[n] = v[COL_OFFSET];
	out->label[n] = memcpy(label_end, id, id_len);
	label_end[id_len] = 0;
	return label_end + id_len + 1;
}

/* Ids that are all canonical numbers are their values' text: the plan
 * writer and the messages print the values (p->id) when there are no
 * labels, so the labels go (15 MB at 10^6 rows).  A name column keeps
 * them (its messages name "id LABEL 'NAME'"). */
static void drop_number_labels(struct ab_problem *out, const uint8_t *numeric,
			       const struct csv_cols *cols)
{
	if (cols->at[COL_NAME] >= 0 || memchr(numeric, 0, out->n))
		return;
	free(out->label);
	free(out->label_text);
	out->label = NULL;
	out->label_text = NULL;
}

int ab_problem_parse_csv(const char *text, size_t len, const char *path,
			 struct ab_problem *out, struct ab_error *err)
{
	struct ab_line_reader lr;
	struct csv_cols cols = { 0 };
	int rc;
	char *line, *f[16], *label_end;
	uint8_t *numeric = NULL; /* row i's id is a canonical number */
	int *row_line = NULL;    /* buffer i's line, for messages */
	size_t n = 0, repeat;
	int64_t max_upper = 0;

	memset(out, 0, sizeof(*out));
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3; /* a UTF-8 byte-order mark: not part of the header */
		len -= 3;
	}
	ab_line_reader_init(&lr, text, len);
	rc = read_header(&lr, path, &cols, err);
	if (rc)
		goto fail;
	memcpy(out->csv_words, cols.words, sizeof(out->csv_words));
	if (alloc_rows(text, len, lr.pos, &cols, out, &numeric, &row_line))
		goto fail_oom;
	label_end = out->label_text;
	/* Rows: a plain one read in place (plain_row), else split. */
	for (;;) {
		int64_t v[COL_COUNT] = { 0 };
		const char *id = NULL;
		size_t id_len = 0;
		int nf;

		if (cols.at[COL_NAME] < 0 && lr.pos < len &&
		    row_in_place(text, len, &lr.pos, &cols, n, v, &id, &id_len,
				 &numeric[n])) {
			lr.line++;
		} else {
			rc = ab_line_reader_next(&lr, &line);
			if (rc <= 0)
				break;
			if (line[strspn(line, " \t")] == 0)
				continue;
			nf = split_fields(line, f, MAX_FIELDS);
			if (nf != cols.n) {
				rc = ab_fail(err, -EINVAL, "%s:%d: expected %d fields like the header, got %d",
					     path, lr.line, cols.n, nf);
				goto fail;
			}
			memset(v, 0, sizeof(v));
			rc = row_values(f, &cols, path, lr.line, n, v, &numeric[n], err);
			if (rc)
				goto fail;
			id = f[cols.at[COL_ID]];
			id_len = strlen(id);
		}
		row_line[n] = lr.line;
		label_end = put_row(out, n, v, &cols, id, id_len, label_end);
		if (cols.at[COL_NAME] >= 0)
			out->csv_name[n] = NULL;
		out->n = n + 1; /* owned from here, freed on failure */
		if (cols.at[COL_NAME] >= 0) {
			const char *nm = f[cols.at[COL_NAME]];

			if (strlen(nm) > 256 || strpbrk(nm, "\"")) {
				rc = ab_fail(err, -EINVAL, "%s:%d: column 'name': expected at most 256 characters without quotes, got '%s'",
					     path, lr.line, nm);
				goto fail;
			}
			out->csv_name[n] = strdup(nm);
			if (!out->csv_name[n])
				goto fail_oom;
		}
		if (v[COL_UPPER] > max_upper)
			max_upper = v[COL_UPPER];
		n++;
	}
	if (rc < 0) {
		rc = ab_fail(err, rc, "%s:%d: line too long or contains a NUL byte",
			     path, lr.line);
		goto fail;
	}
	if (n == 0) {
		rc = ab_fail(err, -EINVAL, "%s: no buffers (expected rows after the header)", path);
		goto fail;
	}
	/* Duplicate ids make a solution ambiguous. */
	if (first_repeated_id(out, numeric, &repeat))
		goto fail_oom;
	if (repeat != SIZE_MAX) {
		rc = repeated_id(out, numeric, row_line, repeat, path, &cols, err);
		goto fail;
	}
	out->n = n;
	out->tensor = ab_alloc_large(n * sizeof(*out->tensor));
	if (!out->tensor)
		goto fail_oom;
	for (size_t i = 0; i < n; i++)
		out->tensor[i] = -1;
	out->steps = (int32_t)max_upper;
	if (ab_problem_oversize(out) >= 0) {
		int64_t i = ab_problem_oversize(out);

		rc = ab_fail(err, -EOVERFLOW, "%s:%d: column 'size': buffer %s (%" PRIu64 " bytes) brings the sum of sizes past 2^62 bytes (expected a problem whose aligned sizes sum to at most 2^62, so that no byte count overflows 64 bits)",
			     path, row_line[i], out->label[i], out->buf[i].size);
		goto fail;
	}
	drop_number_labels(out, numeric, &cols);
	free(numeric);
	free(row_line);
	ab_line_reader_free(&lr);
	return 0;
fail_oom:
	rc = ab_fail(err, -ENOMEM, "%s: out of memory", path);
fail:
	free(numeric);
	free(row_line);
	ab_line_reader_free(&lr);
	ab_problem_free(out);
	return rc;
}

/* Names a problem after its file: "dir/A.1048576.csv" -> "A.1048576". */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = strdup(base ? base + 1 : path);
	size_t len;

	if (!name)
		return NULL;
	len = strlen(name);
	if (len > 4 && strcmp(name + len - 4, ".csv") == 0)
		name[len - 4] = 0;
	for (char *p = name; *p; p++)
		if (*p == ',' || *p == '"' || isspace((unsigned char)*p))
			*p = '_';
	return name;
}

int ab_problem_load_csv(const char *path, struct ab_problem *out,
			struct ab_error *err)
{
	char *text;
	size_t len;
	int rc = ab_read_file(path, &text, &len, err);
	const char *cap;

	if (rc)
		return rc;
	rc = ab_problem_parse_csv(text, len, path, out, err);
	free(text);
	if (rc)
		return rc;
	out->name = name_from_path(path);
	if (!out->name) {
		ab_problem_free(out);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	/* minimalloc names its problems NAME.CAPACITY.csv. */
	cap = strrchr(out->name, '.');
	if (cap && cap[1] && strspn(cap + 1, "0123456789") == strlen(cap + 1))
		out->capacity = strtoull(cap + 1, NULL, 10);
	return 0;
}

/* v in decimal at p, a '-' first when negative (ab_put_u64). */
static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return ab_put_u64(p, 0 - (uint64_t)v);
	}
	return ab_put_u64(p, (uint64_t)v);
}

/* Rows are formatted into one block and written a block at a time:
 * 256 KiB, a quarter of the write(2) calls of 64 KiB blocks (a 26 MB plan
 * at 10^6 rows: 42.5-43.6 ms of CPU against 43.0-46.5), and still in the
 * second-level cache when the kernel copies it. */
struct out_block {
	FILE *f;
	size_t n;
	char text[1 << 18];
};

static void block_flush(struct out_block *b)
{
	if (b->n)
		fwrite(b->text, 1, b->n, b->f);
	b->n = 0;
}

static void block_put(struct out_block *b, const char *s, size_t len)
{
	if (sizeof(b->text) - b->n < len) {
		block_flush(b);
		if (len > sizeof(b->text)) {
			fwrite(s, 1, len, b->f);
			return;
		}
	}
	memcpy(b->text + b->n, s, len);
	b->n += len;
}

int ab_plan_write_csv(FILE *f, const struct ab_problem *p,
		      const struct ab_plan *plan)
{
	const uint8_t *w = p->csv_words;
	bool aligned = false, end = w[COL_UPPER] == WORD_END;
	struct out_block *blk = malloc(sizeof(*blk));

	for (size_t i = 0; i < p->n; i++)
		aligned |= p->buf[i].align > 1;
	for (int c = COL_ID; c < COL_SIZE; c++)
		fprintf(f, "%s,", col_aliases[c][w[c] < N_ALIASES && col_aliases[c][w[c]] ? w[c] : 0]);
	fputs("size", f);
	if (aligned)
		fputs(",alignment", f);
	fputs(",offset", f);
	if (plan->n_arenas > 1)
		fputs(",arena", f);
	if (p->csv_name)
		fputs(",name", f);
	fputc('\n', f);
	if (!blk)
		return -ENOMEM;
	blk->f = f;
	blk->n = 0;
	for (size_t i = 0; i < p->n; i++) {
		/* room for the numbers: 7 fields of at most 20 digits, a sign
		 * and a comma each, and the newline */
		char *q;

		if (p->label)
			block_put(blk, p->label[i], strlen(p->label[i]));
		if (sizeof(blk->text) - blk->n < 7 * 22 + 1)
			block_flush(blk);
		q = blk->text + blk->n;
		if (!p->label)
			q = put_i64(q, p->id[i]);
		*q++ = ',';
		q = put_i64(q, p->buf[i].first);
		*q++ = ',';
		q = put_i64(q, (int64_t)p->buf[i].last + (end ? 0 : 1));
		*q++ = ',';
		q = ab_put_u64(q, p->buf[i].size);
		if (aligned) {
			*q++ = ',';
			q = ab_put_u64(q, p->buf[i].align);
		}
		*q++ = ',';
		q = ab_put_u64(q, plan->offset[i]);
		if (plan->n_arenas > 1) {
			*q++ = ',';
			q = ab_put_u64(q, plan->arena[i]);
		}
		if (p->csv_name) {
			*q++ = ',';
			blk->n = (size_t)(q - blk->text);
			if (p->csv_name[i])
				block_put(blk, p->csv_name[i], strlen(p->csv_name[i]));
			if (sizeof(blk->text) - blk->n < 1)
				block_flush(blk);
			q = blk->text + blk->n;
		}
		*q++ = '\n';
		blk->n = (size_t)(q - blk->text);
	}
	block_flush(blk);
	free(blk);
	return ferror(f) ? -EIO : 0;
}
