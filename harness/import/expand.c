/* Input expansion; see expand.h. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/expand.h"

const struct ab_input_suffix ab_input_suffixes[] = {
	{ ".graph", AB_INPUT_GRAPH },
	{ ".csv", AB_INPUT_CSV },
	{ ".tflite", AB_INPUT_TFLITE },
	{ ".onnx", AB_INPUT_ONNX },
	{ NULL, 0 },
};

char *ab_family_from_path(const char *path, const char *fallback)
{
	const char *e = strrchr(path, '/'), *b;

	while (e && e > path && e[-1] == '/') /* "dir//x" */
		e--;
	if (!e || e == path)
		return ab_strdupf("%s", fallback);
	for (b = e; b > path && b[-1] != '/'; b--)
		;
	if (e - b == 0 || (e - b == 1 && b[0] == '.') || (e - b == 2 && !strncmp(b, "..", 2)))
		return ab_strdupf("%s", fallback);
	return ab_strdupf("%.*s", (int)(e - b), b);
}

int ab_input_kind(const char *name)
{
	size_t n = strlen(name);

	for (const struct ab_input_suffix *s = ab_input_suffixes; s->suffix; s++) {
		size_t k = strlen(s->suffix);

		if (n > k && !strcmp(name + n - k, s->suffix))
			return s->kind;
	}
	return 0;
}

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *l, char *s)
{
	if (!s)
		return -ENOMEM;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			free(s);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ab_free_inputs(char **files, size_t n)
{
	for (size_t i = 0; files && i < n; i++)
		free(files[i]);
	free(files);
}

int ab_expand_inputs(const char *const *paths, size_t n_paths, int kinds,
		     bool empty_dir_fails, char ***out, size_t *n,
		     size_t *empty, struct ab_error *err)
{
	struct names l = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n_paths && !rc; i++) {
		const char *path = paths[i];
		struct stat st;
		struct dirent *e;
		size_t first = l.n;
		DIR *d;

		if (stat(path, &st)) {
			rc = ab_fail(err, -errno, "%s: %s", path, strerror(errno));
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc = names_add(&l, strdup(path));
			continue;
		}
		d = opendir(path);
		if (!d) {
			rc = ab_fail(err, -errno, "%s: %s", path, strerror(errno));
			break;
		}
		while (!rc && (e = readdir(d))) {
			char *f;

			if (e->d_name[0] == '.' || !(ab_input_kind(e->d_name) & kinds))
				continue;
			if (asprintf(&f, "%s/%s", path, e->d_name) < 0)
				f = NULL;
			rc = names_add(&l, f);
		}
		closedir(d);
		if (!rc && empty_dir_fails && l.n == first) {
			if (empty)
				*empty = i;
			rc = ab_fail(err, -ENOENT, "%s: no input files in this directory", path);
		}
		if (!rc)
			qsort(l.v + first, l.n - first, sizeof(*l.v), cmp_str);
	}
	if (rc == -ENOMEM)
		ab_fail(err, rc, "out of memory");
	if (rc) {
		ab_free_inputs(l.v, l.n);
		return rc;
	}
	*out = l.v;
	*n = l.n;
	return 0;
}
