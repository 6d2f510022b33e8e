/* A dims file: each model's --dim values (dims_file.h, docs/onnx.md). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textio.h"
#include "import/dims_file.h"

void ab_dims_file_free(struct ab_dims_file *df)
{
	for (size_t i = 0; i < df->n; i++)
		free(df->e[i].model);
	free(df->e);
	free(df->path);
	memset(df, 0, sizeof(*df));
}

/* NAME=VALUE (NAME before the last '=', VALUE 0..INT32_MAX) into d. */
static bool parse_dim(const char *tok, struct ab_tflite_dim *d)
{
	const char *eq = strrchr(tok, '=');
	char *end;
	unsigned long long v;

	if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof(d->name) ||
	    !isdigit((unsigned char)eq[1]))
		return false;
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end || v > INT32_MAX)
		return false;
	memcpy(d->name, tok, (size_t)(eq - tok));
	d->name[eq - tok] = 0;
	d->value = (int64_t)v;
	return true;
}

static int add_entry(struct ab_dims_file *df, const char *model,
		     const struct ab_tflite_dim *d, int line)
{
	struct ab_dims_entry *grown = realloc(df->e, (df->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	df->e = grown;
	df->e[df->n].model = model ? strdup(model) : NULL;
	if (model && !df->e[df->n].model)
		return -ENOMEM;
	df->e[df->n].dim = *d;
	df->e[df->n].line = line;
	df->n++;
	return 0;
}

/* The key of a model line: text before the last ':' that white space or
 * the line's end follows; NULL (and *rest = line) for a line of every
 * model. */
static char *split_model(char *line, char **rest)
{
	char *key = NULL;

	for (char *c = line; *c; c++)
		if (*c == ':' && (!c[1] || c[1] == ' ' || c[1] == '\t'))
			key = c;
	if (!key) {
		*rest = line;
		return NULL;
	}
	*key = 0;
	*rest = key + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	for (char *e = line + strlen(line); e > line && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = 0;
	return line;
}

int ab_dims_file_parse(const char *text, size_t len, const char *path,
		       struct ab_dims_file *df, struct ab_error *err)
{
	struct ab_line_reader lr;
	char *line;
	int rc;

	memset(df, 0, sizeof(*df));
	df->path = strdup(path);
	if (!df->path)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	ab_line_reader_init(&lr, text, len);
	while ((rc = ab_line_reader_next(&lr, &line)) == 1) {
		char *hash = strchr(line, '#'), *rest, *model, *save = NULL, *tok;
		size_t given = 0;

		if (hash)
			*hash = 0;
		model = split_model(line, &rest);
		if (model && !*model) {
			rc = ab_fail(err, -EINVAL, "%s:%d: a ':' with no model before it (expected MODEL: NAME=VALUE ... or NAME=VALUE ...)",
				     path, lr.line);
			goto fail;
		}
		for (tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
			struct ab_tflite_dim d;

			if (!parse_dim(tok, &d)) {
				rc = ab_fail(err, -EINVAL, "%s:%d: '%s': expected NAME=VALUE (NAME under %zu bytes: a symbolic dimension, a tensor, INPUT:AXIS or dN; VALUE a whole number from 0 to %d)",
					     path, lr.line, tok, sizeof(d.name), INT32_MAX);
				goto fail;
			}
			if (add_entry(df, model, &d, lr.line)) {
				rc = ab_fail(err, -ENOMEM, "%s: out of memory", path);
				goto fail;
			}
			given++;
		}
		if (model && !given) {
			rc = ab_fail(err, -EINVAL, "%s:%d: model '%s' has no NAME=VALUE (expected MODEL: NAME=VALUE ...)",
				     path, lr.line, model);
			goto fail;
		}
	}
	if (rc < 0) {
		rc = ab_fail(err, rc, "%s:%d: line too long or holds a NUL byte (expected text lines)",
			     path, lr.line + 1);
		goto fail;
	}
	ab_line_reader_free(&lr);
	return 0;
fail:
	ab_line_reader_free(&lr);
	ab_dims_file_free(df);
	return rc;
}

int ab_dims_file_load(const char *path, struct ab_dims_file *df,
		      struct ab_error *err)
{
	char *text;
	size_t len;
	int rc = ab_read_file(path, &text, &len, err);

	if (rc) {
		memset(df, 0, sizeof(*df));
		return rc;
	}
	rc = ab_dims_file_parse(text, len, path, df, err);
	free(text);
	return rc;
}

bool ab_dims_model_matches(const char *model, const char *path)
{
	size_t m = strlen(model), p = strlen(path);
	const char *base = strrchr(path, '/');
	const char *dot;

	if (!strcmp(model, path))
		return true;
	/* a trailing part after a '/': the file name, or folder/file */
	if (m < p && path[p - m - 1] == '/' && !strcmp(path + p - m, model))
		return true;
	/* the stem */
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && (size_t)(dot - base) == m && !strncmp(base, model, m) &&
	       (!strcmp(dot, ".onnx") || !strcmp(dot, ".tflite"));
}

static bool has_name(const struct ab_tflite_options *o, const char *name)
{
	for (size_t i = 0; i < o->n_dims; i++)
		if (!strcmp(o->dims[i].name, name))
			return true;
	return false;
}

static int add(struct ab_tflite_options *o, const struct ab_tflite_dim *d,
	       const char *path, struct ab_error *err)
{
	if (has_name(o, d->name))
		return 0;
	if (o->n_dims == AB_TFLITE_MAX_DIMS)
		return ab_fail(err, -E2BIG, "%s: more than %d --dim values for this model (the command line's and the dims file's together)",
			       path, AB_TFLITE_MAX_DIMS);
	o->dims[o->n_dims++] = *d;
	return 0;
}

int ab_dims_for_input(const struct ab_dims_file *df, const char *path,
		      const struct ab_tflite_options *base,
		      struct ab_tflite_options *out, struct ab_error *err)
{
	int rc = 0;

	*out = *base;
	out->n_dims = 0;
	for (size_t i = 0; df && i < df->n && !rc; i++)
		if (df->e[i].model && ab_dims_model_matches(df->e[i].model, path))
			rc = add(out, &df->e[i].dim, path, err);
	for (size_t i = 0; i < base->n_dims && !rc; i++)
		rc = add(out, &base->dims[i], path, err);
	for (size_t i = 0; df && i < df->n && !rc; i++)
		if (!df->e[i].model)
			rc = add(out, &df->e[i].dim, path, err);
	return rc;
}

size_t ab_dims_used_text(const struct ab_tflite_options *opt, uint32_t used,
			 char *buf, size_t len)
{
	size_t n = 0, k = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < opt->n_dims && i < 32; i++) {
		if (!(used & (1u << i)))
			continue;
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s=%" PRId64,
					      n ? " " : "", opt->dims[i].name,
					      opt->dims[i].value);
		n++;
	}
	return n;
}
