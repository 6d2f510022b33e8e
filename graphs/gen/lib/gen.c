/* Corpus generator helpers: RNG and graph builder (see gen.h). */
#include "gen.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arenabench.h"

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "gen: out of memory\n");
		abort();
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);

	memcpy(d, s, n);
	return d;
}

/* ------------------------------------------------------------------- rng */

/* splitmix64's sequence from *x (core's ab_mix64: step and finaliser). */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = ab_mix64(*x);

	*x += 0x9e3779b97f4a7c15ull;
	return z;
}

void gen_rng_seed(struct gen_rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gen_rng_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

int64_t gen_rng_range(struct gen_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span, lim, x;

	if (hi <= lo)
		return lo;
	span = (uint64_t)(hi - lo) + 1;
	if (span == 0) /* full 64-bit range */
		return (int64_t)gen_rng_next(r);
	lim = UINT64_MAX - UINT64_MAX % span;
	do
		x = gen_rng_next(r);
	while (x >= lim);
	return lo + (int64_t)(x % span);
}

double gen_rng_unit(struct gen_rng *r)
{
	return (double)(gen_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t gen_rng_log_uniform(struct gen_rng *r, uint64_t lo, uint64_t hi)
{
	double a = log((double)lo), b = log((double)hi + 1.0);
	uint64_t v = (uint64_t)exp(a + (b - a) * gen_rng_unit(r));

	return v < lo ? lo : v > hi ? hi : v;
}

/* ----------------------------------------------------------------- dtypes */

static const char *const dtype_names[GEN_DTYPE_COUNT] = {
	"f32", "f16", "bf16", "f64", "i8", "u8", "i16", "i32", "i64", "bool",
	"bytes",
};
static const size_t dtype_size[GEN_DTYPE_COUNT] = {
	4, 2, 2, 8, 1, 1, 2, 4, 8, 1, 0,
};
static const char *const kind_names[GEN_KIND_COUNT] = {
	"input", "output", "const", "var", "scratch", "intermediate",
};

const char *gen_dtype_name(enum gen_dtype d)
{
	return dtype_names[d];
}

size_t gen_dtype_bytes(enum gen_dtype d)
{
	return dtype_size[d];
}

const char *gen_kind_name(enum gen_kind k)
{
	return kind_names[k];
}

/* -------------------------------------------------------------- builder */

void gen_graph_init(struct gen_graph *g, const char *name,
		    const char *family, const char *source)
{
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(name);
	g->family = xstrdup(family);
	g->source = xstrdup(source);
	g->header = xstrdup("");
}

void gen_graph_free(struct gen_graph *g)
{
	for (size_t i = 0; i < g->n_t; i++)
		free(g->t[i].name);
	for (size_t i = 0; i < g->n_op; i++) {
		free(g->op[i].name);
		free(g->op[i].type);
		free(g->op[i].in);
		free(g->op[i].out);
		free(g->op[i].scratch);
	}
	free(g->t);
	free(g->op);
	free(g->order);
	free(g->name);
	free(g->family);
	free(g->source);
	free(g->header);
	memset(g, 0, sizeof(*g));
}

void gen_comment(struct gen_graph *g, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t a, b;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	a = strlen(g->header);
	b = strlen(line);
	g->header = xrealloc(g->header, a + b + 2);
	memcpy(g->header + a, line, b);
	g->header[a + b] = '\n';
	g->header[a + b + 1] = '\0';
}

static void push_order(struct gen_graph *g, int v)
{
	if (g->n_order == g->cap_order) {
		g->cap_order = g->cap_order ? 2 * g->cap_order : 256;
		g->order = xrealloc(g->order, g->cap_order * sizeof(*g->order));
	}
	g->order[g->n_order++] = v;
}

static struct gen_tensor *new_tensor(struct gen_graph *g, const char *name,
				     enum gen_kind kind, enum gen_dtype dtype)
{
	struct gen_tensor *t;

	if (g->n_t == g->cap_t) {
		g->cap_t = g->cap_t ? 2 * g->cap_t : 256;
		g->t = xrealloc(g->t, g->cap_t * sizeof(*g->t));
	}
	t = &g->t[g->n_t];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->kind = kind;
	t->dtype = dtype;
	t->producer = -1;
	t->last_reader = -1;
	push_order(g, (int)g->n_t);
	g->n_t++;
	return t;
}

int gen_tensor(struct gen_graph *g, const char *name, enum gen_kind kind,
	       enum gen_dtype dtype, int rank, const int64_t *dims_in)
{
	int64_t dims[GEN_MAX_RANK];
	struct gen_tensor *t;
	uint64_t n = 1;

	if (rank < 0 || rank > GEN_MAX_RANK) {
		fprintf(stderr, "gen: tensor '%s': bad rank %d\n", name, rank);
		abort();
	}
	/* Callers often pass another tensor's dims, which new_tensor()'s
	 * realloc may move: copy them first. */
	if (rank)
		memcpy(dims, dims_in, (size_t)rank * sizeof(*dims));
	t = new_tensor(g, name, kind, dtype);
	t->rank = rank;
	for (int i = 0; i < rank; i++) {
		if (dims[i] <= 0) {
			fprintf(stderr, "gen: tensor '%s': dim %d is %lld\n",
				name, i, (long long)dims[i]);
			abort();
		}
		t->dims[i] = dims[i];
		n *= (uint64_t)dims[i];
	}
	t->bytes = n * gen_dtype_bytes(dtype);
	return (int)g->n_t - 1;
}

int gen_tensorv(struct gen_graph *g, const char *name, enum gen_kind kind,
		enum gen_dtype dtype, int rank, ...)
{
	int64_t dims[GEN_MAX_RANK];
	va_list ap;

	va_start(ap, rank);
	for (int i = 0; i < rank && i < GEN_MAX_RANK; i++)
		dims[i] = va_arg(ap, int64_t);
	va_end(ap);
	return gen_tensor(g, name, kind, dtype, rank, dims);
}

int gen_tensor_bytes(struct gen_graph *g, const char *name,
		     enum gen_kind kind, uint64_t bytes)
{
	struct gen_tensor *t = new_tensor(g, name, kind, GEN_BYTES);

	t->rank = -1;
	t->bytes = bytes;
	return (int)g->n_t - 1;
}

static int *copy_list(int n, const int *v)
{
	int *d = xrealloc(NULL, (size_t)(n ? n : 1) * sizeof(*d));

	if (n)
		memcpy(d, v, (size_t)n * sizeof(*d));
	return d;
}

int gen_op(struct gen_graph *g, const char *name, const char *type,
	   int n_in, const int *in, int n_out, const int *out,
	   int n_scratch, const int *scratch, unsigned flags)
{
	struct gen_op *o;
	int idx;

	if (g->n_op == g->cap_op) {
		g->cap_op = g->cap_op ? 2 * g->cap_op : 256;
		g->op = xrealloc(g->op, g->cap_op * sizeof(*g->op));
	}
	idx = (int)g->n_op;
	o = &g->op[g->n_op++];
	o->name = xstrdup(name);
	o->type = xstrdup(type);
	o->n_in = n_in;
	o->n_out = n_out;
	o->n_scratch = n_scratch;
	o->in = copy_list(n_in, in);
	o->out = copy_list(n_out, out);
	o->scratch = copy_list(n_scratch, scratch);
	o->flags = flags;
	o->phase_start = g->pending_phase;
	g->pending_phase = false;
	for (int i = 0; i < n_in; i++)
		if (in[i] >= 0)
			g->t[in[i]].last_reader = idx;
	for (int i = 0; i < n_out; i++)
		g->t[out[i]].producer = idx;
	push_order(g, -(idx + 1));
	return idx;
}

void gen_phase(struct gen_graph *g)
{
	g->pending_phase = true;
}

uint64_t gen_tensor_elems(const struct gen_tensor *t)
{
	uint64_t n = 1;

	if (t->dtype == GEN_BYTES)
		return t->bytes;
	for (int i = 0; i < t->rank; i++)
		n *= (uint64_t)t->dims[i];
	return n;
}

uint64_t gen_const_bytes(const struct gen_graph *g)
{
	uint64_t s = 0;

	for (size_t i = 0; i < g->n_t; i++)
		if (g->t[i].kind == GEN_CONST)
			s += g->t[i].bytes;
	return s;
}

uint64_t gen_const_elems(const struct gen_graph *g)
{
	uint64_t s = 0;

	for (size_t i = 0; i < g->n_t; i++)
		if (g->t[i].kind == GEN_CONST)
			s += gen_tensor_elems(&g->t[i]);
	return s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Structural self-check, so a builder bug never reaches a committed file. */
static int check(const struct gen_graph *g)
{
	char **names = xrealloc(NULL, (g->n_t + 1) * sizeof(*names));
	int *writes = xrealloc(NULL, (g->n_t + 1) * sizeof(*writes));
	int rc = 0;

	for (size_t i = 0; i < g->n_t; i++) {
		names[i] = g->t[i].name;
		writes[i] = 0;
	}
	qsort(names, g->n_t, sizeof(*names), cmp_str);
	for (size_t i = 1; i < g->n_t; i++)
		if (!strcmp(names[i - 1], names[i])) {
			fprintf(stderr, "gen: %s: duplicate tensor '%s'\n",
				g->name, names[i]);
			rc = -EINVAL;
		}
	for (size_t k = 0; k < g->n_op; k++) {
		const struct gen_op *o = &g->op[k];

		for (int i = 0; i < o->n_out; i++)
			writes[o->out[i]]++;
		for (int i = 0; i < o->n_scratch; i++) {
			if (g->t[o->scratch[i]].kind != GEN_SCRATCH) {
				fprintf(stderr, "gen: %s: op '%s' scratch '%s' is not scratch\n",
					g->name, o->name, g->t[o->scratch[i]].name);
				rc = -EINVAL;
			}
			writes[o->scratch[i]]++;
		}
	}
	for (size_t i = 0; i < g->n_t; i++) {
		enum gen_kind k = g->t[i].kind;
		int want = (k == GEN_INTERMEDIATE || k == GEN_OUTPUT ||
			    k == GEN_SCRATCH) ? 1 : 0;

		if (writes[i] != want) {
			fprintf(stderr, "gen: %s: tensor '%s' (%s) written %d times\n",
				g->name, g->t[i].name, gen_kind_name(k), writes[i]);
			rc = -EINVAL;
		}
	}
	free(names);
	free(writes);
	return rc;
}

static void print_list(FILE *f, const char *key, const struct gen_graph *g,
		       int n, const int *v)
{
	if (!n)
		return;
	fprintf(f, " %s=", key);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", v[i] < 0 ? "-" : g->t[v[i]].name);
}

/* The generators' own .graph writer, not import/graph_text.c's canonical
 * one: a generated file keeps its provenance header (# lines) and
 * declares each tensor where the construction made it, between the ops;
 * the canonical writer (no comments, tensors first) would rewrite every
 * checked-in .graph of graphs/ and the results made from them. */
int gen_graph_print(const struct gen_graph *g, FILE *f)
{
	const char *h = g->header;
	int rc = check(g);

	if (rc)
		return rc;
	while (*h) {
		const char *e = strchr(h, '\n');

		fprintf(f, "# %.*s\n", (int)(e - h), h);
		h = e + 1;
	}
	fprintf(f, "graph %s\nfamily %s\nsource %s\n\n", g->name, g->family,
		g->source);
	for (size_t i = 0; i < g->n_order; i++) {
		int v = g->order[i];

		if (v >= 0) {
			const struct gen_tensor *t = &g->t[v];

			fprintf(f, "tensor %s %s %s ", t->name,
				gen_kind_name(t->kind), gen_dtype_name(t->dtype));
			if (t->dtype == GEN_BYTES)
				fprintf(f, "%llu", (unsigned long long)t->bytes);
			else if (t->rank == 0)
				fputs("scalar", f);
			else
				for (int d = 0; d < t->rank; d++)
					fprintf(f, "%s%lld", d ? "x" : "",
						(long long)t->dims[d]);
			if (t->align)
				fprintf(f, " align=%u", t->align);
			fputc('\n', f);
		} else {
			const struct gen_op *o = &g->op[-v - 1];

			if (o->phase_start)
				fputs("phase\n", f);
			fprintf(f, "op %s %s", o->name, o->type);
			print_list(f, "in", g, o->n_in, o->in);
			print_list(f, "out", g, o->n_out, o->out);
			print_list(f, "scratch", g, o->n_scratch, o->scratch);
			if (o->flags) {
				fputs(" flags=", f);
				if (o->flags & GEN_OP_SIDE_EFFECT)
					fprintf(f, "side_effect%s",
						(o->flags & GEN_OP_ELEMENTWISE) ? "," : "");
				if (o->flags & GEN_OP_ELEMENTWISE)
					fputs("elementwise", f);
			}
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int gen_graph_write(const struct gen_graph *g, const char *dir)
{
	char path[4096];
	struct gen_file w;
	int rc;

	snprintf(path, sizeof(path), "%s/%s.graph", dir, g->name);
	rc = gen_file_open(&w, path);
	if (rc)
		return rc;
	return gen_file_close(&w, gen_graph_print(g, w.f));
}

/* ---------------------------------------------------------------- output */

int gen_file_open(struct gen_file *w, const char *path)
{
	struct ab_error err;
	int rc = ab_atomic_open(&w->af, path, &err);

	w->f = rc ? NULL : w->af.f;
	return rc;
}

int gen_file_close(struct gen_file *w, int rc)
{
	struct ab_error err;

	w->f = NULL;
	if (rc) {
		ab_atomic_abort(&w->af);
		return rc;
	}
	return ab_atomic_commit(&w->af, &err);
}

int gen_write_file(const char *path, const char *text, size_t len)
{
	struct gen_file w;
	int rc = gen_file_open(&w, path);

	if (rc)
		return rc;
	return gen_file_close(&w, fwrite(text, 1, len, w.f) == len ? 0 : -EIO);
}

int gen_parse_list(const char *s, int64_t *v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;

		v[n++] = strtoll(s, &end, 10);
		if (end == s || v[n - 1] < 1)
			return -1;
		s = *end == ',' ? end + 1 : end;
	}
	return *s ? -1 : n;
}

const char *gen_fmt(const char *fmt, ...)
{
	static char buf[8][512];
	static int slot;
	char *b = buf[slot];
	va_list ap;

	slot = (slot + 1) % 8;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(buf[0]), fmt, ap);
	va_end(ap);
	return b;
}

int gen_mkdirs(const char *path)
{
	char p[4096];
	size_t n = strlen(path);

	if (n >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return -errno;
		p[i] = i < n ? '/' : '\0';
	}
	return 0;
}
