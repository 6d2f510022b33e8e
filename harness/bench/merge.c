/* Shards into one bench CSV: merge.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/merge.h"
#include "core/sha256.h"
#include "core/textio.h"

char *ab_meta_path(const char *csv)
{
	size_t n = strlen(csv);

	if (n > 4 && !strcmp(csv + n - 4, ".csv"))
		return ab_strdupf("%.*s.meta", (int)(n - 4), csv);
	return ab_strdupf("%s.meta", csv);
}

int ab_meta_get(const char *meta, const char *key, char **value,
		struct ab_error *err)
{
	struct ab_line_reader lr;
	size_t len, k = strlen(key);
	char *text, *line;
	int rc = ab_read_file(meta, &text, &len, err);

	*value = NULL;
	if (rc)
		return rc;
	ab_line_reader_init(&lr, text, len);
	while ((rc = ab_line_reader_next(&lr, &line)) > 0)
		if (!strncmp(line, key, k) && line[k] == '=') {
			*value = strdup(line + k + 1);
			rc = *value ? 0 : ab_fail(err, -ENOMEM, "%s: out of memory", meta);
			break;
		}
	if (rc < 0 && !*value && rc != -ENOMEM)
		rc = ab_fail(err, rc, "%s:%d: a line over %u bytes or holding a NUL byte",
			     meta, lr.line, AB_MAX_LINE_BYTES);
	ab_line_reader_free(&lr);
	free(text);
	return rc < 0 ? rc : 0;
}

/* The first field of a CSV line (its schema_version), as a length. */
static size_t first_field(const char *line)
{
	return strcspn(line, ",");
}

/* One shard read and checked: its text, and where its rows start. */
struct shard {
	char *text;
	size_t len, body;
	size_t rows;
};

static int check_shard(const char *csv, struct shard *s, const char *header,
		       size_t header_len, const char **schema,
		       size_t *schema_len, struct ab_error *err)
{
	char hex[65], *want = NULL, *rows = NULL, *meta = ab_meta_path(csv);
	struct ab_sha256 h;
	const char *p, *end;
	size_t line = 1;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!meta)
		return ab_fail(err, -ENOMEM, "out of memory");
	rc = ab_read_file(csv, &s->text, &s->len, err);
	if (rc)
		goto out;
	rc = ab_meta_get(meta, "csv_sha256", &want, err);
	if (rc)
		goto out;
	if (!want) {
		rc = ab_fail(err, -EINVAL, "shard %s: its .meta %s names no csv_sha256 (expected the sha256 of the CSV: a shard written by arenabench bench or the campaign worker)",
			     csv, meta);
		goto out;
	}
	ab_sha256_init(&h);
	ab_sha256_update(&h, s->text, s->len);
	ab_sha256_hex(&h, hex);
	if (strcmp(hex, want)) {
		rc = ab_fail(err, -EINVAL, "shard %s: its sha256 is %s, its .meta names %s (corrupt, truncated or not the CSV of that .meta)",
			     csv, hex, want);
		goto out;
	}
	p = memchr(s->text, '\n', s->len);
	if (!p || !s->len) {
		rc = ab_fail(err, -EINVAL, "shard %s:1: no header line (expected the bench's CSV header)", csv);
		goto out;
	}
	s->body = (size_t)(p - s->text) + 1;
	if (header && (s->body != header_len || memcmp(s->text, header, header_len))) {
		rc = ab_fail(err, -EINVAL, "shard %s:1: its header differs from the first shard's", csv);
		goto out;
	}
	for (p = s->text + s->body, end = s->text + s->len; p < end; p = memchr(p, '\n', (size_t)(end - p)) + 1) {
		size_t f;

		line++;
		if (!memchr(p, '\n', (size_t)(end - p))) {
			rc = ab_fail(err, -EINVAL, "shard %s:%zu: the last row has no line end (a truncated CSV)", csv, line);
			goto out;
		}
		f = first_field(p);
		if (!*schema) {
			*schema = p;
			*schema_len = f;
		} else if (f != *schema_len || memcmp(p, *schema, f)) {
			rc = ab_fail(err, -EINVAL, "shard %s:%zu: schema_version '%.*s' differs from the first row's '%.*s'",
				     csv, line, (int)(f < 32 ? f : 32), p, (int)(*schema_len < 32 ? *schema_len : 32), *schema);
			goto out;
		}
		s->rows++;
	}
	rc = ab_meta_get(meta, "rows", &rows, err);
	if (!rc && rows && strtoull(rows, NULL, 10) != s->rows)
		rc = ab_fail(err, -EINVAL, "shard %s: %zu rows, its .meta says rows=%s", csv, s->rows, rows);
out:
	free(rows);
	free(want);
	free(meta);
	return rc;
}

int ab_merge_shards(const char *const *shards, size_t n, FILE *out,
		    size_t *rows, struct ab_error *err)
{
	struct shard *s = calloc(n ? n : 1, sizeof(*s));
	const char *schema = NULL;
	size_t schema_len = 0;
	int rc = 0;

	*rows = 0;
	if (!s)
		return ab_fail(err, -ENOMEM, "out of memory");
	if (!n)
		rc = ab_fail(err, -EINVAL, "no shards to merge");
	for (size_t i = 0; i < n && !rc; i++)
		rc = check_shard(shards[i], &s[i], i ? s[0].text : NULL, s[0].body,
				 &schema, &schema_len, err);
	if (!rc) {
		fwrite(s[0].text, 1, s[0].body, out);
		for (size_t i = 0; i < n; i++) {
			fwrite(s[i].text + s[i].body, 1, s[i].len - s[i].body, out);
			*rows += s[i].rows;
		}
		/* write errors surface at the atomic commit (ferror) */
	}
	for (size_t i = 0; i < n; i++)
		free(s[i].text);
	free(s);
	return rc;
}
