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
 * up to the first repeat found so far.  O(n) but the sort's passes. */
static int first_repeated_id(const struct ab_problem *p, const uint8_t *numeric,
			     size_t *first)
{
	size_t n = p->n, best = SIZE_MAX, m = 0;
	uint64_t top = 0;
	struct ab_strmap ids = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		if (numeric[i]) {
			m++;
			if ((uint64_t)p->id[i] > top)
				top = (uint64_t)p->id[i];
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

int ab_problem_parse_csv(const char *text, size_t len, const char *path,
			 struct ab_problem *out, struct ab_error *err)
{
	struct ab_line_reader lr;
	int col_at[COL_COUNT], ncols = 0, rc;
	char *line, *f[16], *label_end;
	uint8_t *numeric = NULL; /* row i's id is a canonical number */
	int *row_line = NULL;    /* buffer i's line, for messages */
	size_t cap = 0, n = 0, repeat;
	int64_t max_upper = 0;
	uint8_t words[COL_COUNT] = { 0 };

	memset(out, 0, sizeof(*out));
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3; /* a UTF-8 byte-order mark: not part of the header */
		len -= 3;
	}
	ab_line_reader_init(&lr, text, len);
	for (int c = 0; c < COL_COUNT; c++)
		col_at[c] = -1;
	/* Header. */
	do {
		rc = ab_line_reader_next(&lr, &line);
	} while (rc > 0 && line[strspn(line, " \t")] == 0);
	if (rc < 0) {
		rc = ab_fail(err, -EINVAL, "%s:%d: the header line contains a NUL byte or is longer than %d bytes (expected " EXPECTED_HEADER ")",
			     path, lr.line, AB_MAX_LINE_BYTES);
		goto fail;
	}
	if (rc == 0) {
		rc = ab_fail(err, -EINVAL, "%s: empty file (expected a header " EXPECTED_HEADER ")",
			     path);
		goto fail;
	}
	ncols = split_fields(line, f, MAX_FIELDS);
	if (ncols > MAX_FIELDS) {
		rc = ab_fail(err, -EINVAL, "%s:%d: %d columns in the header (at most %d)",
			     path, lr.line, ncols, MAX_FIELDS);
		goto fail;
	}
	for (int i = 0; i < ncols; i++) {
		uint8_t word;
		int c = column_of(f[i], &word);

		if (c < 0) {
			rc = ab_fail(err, -EINVAL, "%s:%d: unknown column '%s' (expected id, lower, upper, size or minimalloc's buffer, buffer_id, start, begin, end, and optionally alignment, offset, arena, name)",
				     path, lr.line, f[i]);
			goto fail;
		}
		if (col_at[c] >= 0 && !strcmp(f[col_at[c]], f[i])) {
			rc = ab_fail(err, -EINVAL, "%s:%d: column '%s' appears twice",
				     path, lr.line, f[i]);
			goto fail;
		}
		if (col_at[c] >= 0) {
			rc = ab_fail(err, -EINVAL, "%s:%d: columns '%s' and '%s' both give %s",
				     path, lr.line, f[col_at[c]], f[i], col_names[c]);
			goto fail;
		}
		col_at[c] = i;
		words[c] = word;
	}
	for (int c = COL_ID; c <= COL_SIZE; c++)
		if (col_at[c] < 0) {
			rc = ab_fail(err, -EINVAL, "%s:%d: missing column '%s'%s (expected " EXPECTED_HEADER ")",
				     path, lr.line, col_names[c],
				     c == COL_ID ? " (or buffer, buffer_id)" : c == COL_LOWER ? " (or start, begin)" :
				     c == COL_UPPER ? " (or end)" : "");
			goto fail;
		}
	memcpy(out->csv_words, words, sizeof(out->csv_words));
	/* Every id's text, one after another in one block: an id is part
	 * of its line, so the ids with their NULs need at most the rest of
	 * the text and one byte (a last line without a newline). */
	out->label_text = ab_alloc_large(len - lr.pos + 2);
	if (!out->label_text)
		goto fail_oom;
	label_end = out->label_text;
	/* At most one row per line left: the arrays are sized once. */
	cap = 1;
	for (const char *q = text + lr.pos; (q = memchr(q, '\n', len - (size_t)(q - text))); q++)
		cap++;
	out->buf = ab_alloc_large(cap * sizeof(*out->buf));
	out->id = ab_alloc_large(cap * sizeof(*out->id));
	out->label = ab_alloc_large(cap * sizeof(*out->label));
	numeric = malloc(cap);
	row_line = malloc(cap * sizeof(*row_line));
	if (col_at[COL_NAME] >= 0)
		out->csv_name = malloc(cap * sizeof(*out->csv_name));
	if (col_at[COL_OFFSET] >= 0)
		out->fixed_offset = malloc(cap * sizeof(*out->fixed_offset));
	if (!out->buf || !out->id || !out->label || !numeric || !row_line ||
	    (col_at[COL_NAME] >= 0 && !out->csv_name) ||
	    (col_at[COL_OFFSET] >= 0 && !out->fixed_offset))
		goto fail_oom;
	/* Rows. */
	while ((rc = ab_line_reader_next(&lr, &line)) > 0) {
		int64_t v[COL_COUNT] = { 0 };
		int nf;

		if (line[strspn(line, " \t")] == 0)
			continue;
		nf = split_fields(line, f, MAX_FIELDS);
		if (nf != ncols) {
			rc = ab_fail(err, -EINVAL, "%s:%d: expected %d fields like the header, got %d",
				     path, lr.line, ncols, nf);
			goto fail;
		}
		for (int c = 0; c < COL_COUNT; c++) {
			const char *cn = c < COL_SIZE ? col_aliases[c][words[c]] : col_names[c];

			if (col_at[c] < 0 || c == COL_ID || c == COL_NAME)
				continue;
			rc = parse_i64(f[col_at[c]], &v[c]);
			if (rc == -EOVERFLOW) {
				rc = ab_fail(err, -EINVAL, "%s:%d: column '%s': %s does not fit in a signed 64-bit integer (at most 9223372036854775807)",
					     path, lr.line, cn, f[col_at[c]]);
				goto fail;
			}
			if (rc) {
				rc = ab_fail(err, -EINVAL, "%s:%d: column '%s': expected an integer, got '%s'",
					     path, lr.line, cn, f[col_at[c]]);
				goto fail;
			}
			if (v[c] < 0) {
				rc = ab_fail(err, -EINVAL, "%s:%d: column '%s': expected a non-negative value, got %" PRId64,
					     path, lr.line, cn, v[c]);
				goto fail;
			}
		}
		/* Ids are names in minimalloc (e.g. "b1"); keep the text. */
		if (!*f[col_at[COL_ID]] || strlen(f[col_at[COL_ID]]) > 256 ||
		    strpbrk(f[col_at[COL_ID]], "\"")) {
			rc = ab_fail(err, -EINVAL, "%s:%d: column 'id': expected a name or number of 1 to 256 characters without quotes, got '%s'",
				     path, lr.line, f[col_at[COL_ID]]);
			goto fail;
		}
		numeric[n] = 0;
		if (parse_i64(f[col_at[COL_ID]], &v[COL_ID]) || v[COL_ID] < 0)
			v[COL_ID] = (int64_t)n;
		else
			numeric[n] = canonical_number(f[col_at[COL_ID]]);
		if (words[COL_UPPER] == WORD_END) {
			/* inclusive: the buffer lives from start through end */
			if (v[COL_UPPER] < v[COL_LOWER]) {
				rc = ab_fail(err, -EINVAL, "%s:%d: buffer %s: end %" PRId64 " is before %s %" PRId64 " (an end is inclusive, as minimalloc reads it: the buffer lives from %s through end)",
					     path, lr.line, f[col_at[COL_ID]], v[COL_UPPER],
					     col_aliases[COL_LOWER][words[COL_LOWER]], v[COL_LOWER],
					     col_aliases[COL_LOWER][words[COL_LOWER]]);
				goto fail;
			}
			if (v[COL_UPPER] < INT64_MAX)
				v[COL_UPPER]++;
		}
		if (v[COL_UPPER] <= v[COL_LOWER]) {
			rc = ab_fail(err, -EINVAL, "%s:%d: buffer %s: upper %" PRId64 " must be greater than %s %" PRId64 " (lifetimes are half-open [%s, upper))",
				     path, lr.line, f[col_at[COL_ID]], v[COL_UPPER],
				     col_aliases[COL_LOWER][words[COL_LOWER]], v[COL_LOWER],
				     col_aliases[COL_LOWER][words[COL_LOWER]]);
			goto fail;
		}
		if (v[COL_UPPER] > INT32_MAX) {
			rc = ab_fail(err, -EINVAL, "%s:%d: buffer %s: %s %s exceeds the supported time range (at most %d as an upper, %d as an end)",
				     path, lr.line, f[col_at[COL_ID]], col_aliases[COL_UPPER][words[COL_UPPER]],
				     f[col_at[COL_UPPER]], INT32_MAX, INT32_MAX - 1);
			goto fail;
		}
		if (col_at[COL_ALIGN] >= 0 &&
		    (v[COL_ALIGN] == 0 || (v[COL_ALIGN] & (v[COL_ALIGN] - 1)) ||
		     v[COL_ALIGN] > (1 << 30))) {
			rc = ab_fail(err, -EINVAL, "%s:%d: buffer %s: alignment %" PRId64 " must be a power of two up to 2^30",
				     path, lr.line, f[col_at[COL_ID]], v[COL_ALIGN]);
			goto fail;
		}
		if (n >= (size_t)INT32_MAX) {
			rc = ab_fail(err, -E2BIG, "%s:%d: too many buffers", path, lr.line);
			goto fail;
		}
		/* a fixed offset keeps the whole buffer below 2^62, so that no
		 * end, arena or peak can pass 2^63 - 1 */
		if (col_at[COL_OFFSET] >= 0 &&
		    ((uint64_t)v[COL_SIZE] > AB_MAX_PROBLEM_BYTES ||
		     (uint64_t)v[COL_OFFSET] > AB_MAX_PROBLEM_BYTES - (uint64_t)v[COL_SIZE])) {
			rc = ab_fail(err, -EOVERFLOW, "%s:%d: buffer %s: column 'offset': offset %" PRId64 " + size %" PRId64 " is past 2^62 bytes (expected offset + size at most %llu, so that no byte count overflows 64 bits)",
				     path, lr.line, f[col_at[COL_ID]], v[COL_OFFSET], v[COL_SIZE],
				     (unsigned long long)AB_MAX_PROBLEM_BYTES);
			goto fail;
		}
		row_line[n] = lr.line;
		out->buf[n].first = (int32_t)v[COL_LOWER];
		out->buf[n].last = (int32_t)(v[COL_UPPER] - 1);
		out->buf[n].size = (uint64_t)v[COL_SIZE];
		out->buf[n].align = col_at[COL_ALIGN] >= 0 ? (uint32_t)v[COL_ALIGN] : 1;
		out->id[n] = v[COL_ID];
		if (col_at[COL_OFFSET] >= 0)
			out->fixed_offset[n] = v[COL_OFFSET];
		{
			size_t idlen = strlen(f[col_at[COL_ID]]) + 1;

			out->label[n] = memcpy(label_end, f[col_at[COL_ID]], idlen);
			label_end += idlen;
		}
		if (col_at[COL_NAME] >= 0)
			out->csv_name[n] = NULL;
		out->n = n + 1; /* owned from here, freed on failure */
		if (col_at[COL_NAME] >= 0) {
			const char *nm = f[col_at[COL_NAME]];

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
		size_t first = 0;

		while (first < repeat && strcmp(out->label[first], out->label[repeat]) &&
		       !(numeric[first] && numeric[repeat] && out->id[first] == out->id[repeat]))
			first++;
		rc = ab_fail(err, -EINVAL, "%s:%d: column '%s': buffer id '%s' appears twice, first on line %d (ids must be unique)",
			     path, row_line[repeat], col_aliases[COL_ID][words[COL_ID]],
			     out->label[repeat], row_line[first]);
		goto fail;
	}
	out->n = n;
	out->tensor = malloc(n * sizeof(*out->tensor));
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

int ab_plan_write_csv(FILE *f, const struct ab_problem *p,
		      const struct ab_plan *plan)
{
	const uint8_t *w = p->csv_words;
	bool aligned = false, end = w[COL_UPPER] == WORD_END;

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
	for (size_t i = 0; i < p->n; i++) {
		/* the numbers: 7 fields of at most 20 digits and a sign each */
		char row[7 * 22], *q = row;

		if (p->label)
			fputs(p->label[i], f);
		else
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
			fwrite(row, 1, (size_t)(q - row), f);
			q = row;
			if (p->csv_name[i])
				fputs(p->csv_name[i], f);
		}
		*q++ = '\n';
		fwrite(row, 1, (size_t)(q - row), f);
	}
	return ferror(f) ? -EIO : 0;
}
