/* The `.graph` text format (graphs/README.md): read and written. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "core/strmap.h"
#include "core/textio.h"
#include "import/graph_text.h"

/* ------------------------------------------------------------------ parse */

struct parser {
	const char *path;
	int line;
	struct ab_graph *g;
	struct ab_strmap names;
	struct ab_strmap op_names; /* op name -> its line */
	size_t cap_tensors, cap_ops;
	bool next_op_phase;
	int phase_line; /* of the last 'phase' */
	struct ab_error *err;
};

#define PFAIL(ps, code, fmt, ...)                                           \
	ab_fail((ps)->err, code, "%s:%d: " fmt, (ps)->path, (ps)->line,     \
		##__VA_ARGS__)

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s == ',' || *s == '=' || isspace((unsigned char)*s) ||
		    *s == '#' || iscntrl((unsigned char)*s))
			return false;
	return true;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -EOVERFLOW;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_shape(struct parser *ps, struct ab_tensor *t, const char *s)
{
	if (t->dtype == AB_DTYPE_BYTES) {
		int rc = parse_u64(s, &t->bytes);

		t->rank = -1;
		if (rc == -EOVERFLOW)
			return PFAIL(ps, -EOVERFLOW,
				     "tensor '%s': byte size '%s' does not fit in 64 bits",
				     t->name, s);
		if (rc)
			return PFAIL(ps, -EINVAL,
				     "tensor '%s': expected a byte count after 'bytes', got '%s'",
				     t->name, s);
		return 0;
	}
	t->rank = 0;
	if (strcmp(s, "scalar") != 0) {
		const char *p = s;

		for (;;) {
			char buf[32];
			size_t len = strcspn(p, "x");
			uint64_t v;

			if (t->rank == AB_MAX_RANK)
				return PFAIL(ps, -EINVAL,
					     "tensor '%s': shape '%s' has more than %d dimensions",
					     t->name, s, AB_MAX_RANK);
			if (len == 0 || len >= sizeof(buf))
				goto bad;
			memcpy(buf, p, len);
			buf[len] = 0;
			if (parse_u64(buf, &v) || v > INT64_MAX)
				goto bad;
			t->dims[t->rank++] = (int64_t)v;
			p += len;
			if (!*p)
				break;
			p++;
		}
	}
	if (t->dtype == AB_DTYPE_STRING) {
		t->bytes = 0;
		return 0;
	}
	if (ab_tensor_shape_bytes(t->dtype, t->rank, t->dims, &t->bytes))
		return PFAIL(ps, -EOVERFLOW,
			     "tensor '%s': shape '%s' of %s is too large (byte size overflows 64 bits)",
			     t->name, s, ab_dtype_name(t->dtype));
	return 0;
bad:
	return PFAIL(ps, -EINVAL,
		     "tensor '%s': expected a shape like 1x224x224x3 or 'scalar', got '%s'",
		     t->name, s);
}

static int parse_tensor(struct parser *ps, char **tok, int ntok)
{
	struct ab_graph *g = ps->g;
	struct ab_tensor *t;
	int kind, dtype, rc;
	unsigned roles = 0;

	if (ntok < 5)
		return PFAIL(ps, -EINVAL,
			     "expected 'tensor NAME KIND DTYPE SHAPE [align=N]'");
	if (!valid_name(tok[1]))
		return PFAIL(ps, -EINVAL,
			     "tensor name '%s' must be non-empty without ',', '=', '#', spaces or control characters",
			     tok[1]);
	{
		/* KIND[+input][+output]: a tensor with more roles than its
		 * kind names, e.g. input+output (state passed through). */
		char *plus = strchr(tok[2], '+');

		if (plus)
			*plus = 0;
		kind = ab_kind_from_name(tok[2]);
		if (kind < 0)
			return PFAIL(ps, -EINVAL,
				     "tensor '%s': unknown kind '%s' (expected input, output, const, var, scratch or intermediate)",
				     tok[1], tok[2]);
		while (plus) {
			char *role = plus + 1;

			plus = strchr(role, '+');
			if (plus)
				*plus = 0;
			if (strcmp(role, "input") == 0)
				roles |= AB_ROLE_GRAPH_INPUT;
			else if (strcmp(role, "output") == 0)
				roles |= AB_ROLE_GRAPH_OUTPUT;
			else
				return PFAIL(ps, -EINVAL,
					     "tensor '%s': unknown role '+%s' (expected KIND+input or KIND+output)",
					     tok[1], role);
		}
		if (roles && (kind == AB_KIND_SCRATCH))
			return PFAIL(ps, -EINVAL,
				     "tensor '%s': a scratch tensor cannot be a graph input or output",
				     tok[1]);
	}
	dtype = ab_dtype_from_name(tok[3]);
	if (dtype < 0)
		return PFAIL(ps, -EINVAL,
			     "tensor '%s': unknown dtype '%s' (expected f32 f16 bf16 f64 i8 u8 i16 i32 i64 bool string or bytes)",
			     tok[1], tok[3]);
	if (g->n_tensors == ps->cap_tensors) {
		size_t cap = ps->cap_tensors ? ps->cap_tensors * 2 : 64;
		void *p = realloc(g->tensors, cap * sizeof(*g->tensors));

		if (!p)
			return -ENOMEM;
		g->tensors = p;
		ps->cap_tensors = cap;
	}
	t = &g->tensors[g->n_tensors];
	memset(t, 0, sizeof(*t));
	t->name = strdup(tok[1]);
	if (!t->name)
		return -ENOMEM;
	g->n_tensors++; /* owned by g from here on */
	t->kind = kind;
	t->roles = (uint8_t)roles;
	t->dtype = dtype;
	t->align = 1;
	t->line = ps->line;
	rc = parse_shape(ps, t, tok[4]);
	if (rc)
		return rc;
	for (int i = 5; i < ntok; i++) {
		uint64_t a;

		if (strncmp(tok[i], "align=", 6) != 0 ||
		    parse_u64(tok[i] + 6, &a) || a == 0 || (a & (a - 1)) ||
		    a > (1u << 30))
			return PFAIL(ps, -EINVAL,
				     "tensor '%s': expected 'align=N' with N a power of two up to 2^30, got '%s'",
				     t->name, tok[i]);
		t->align = (uint32_t)a;
	}
	rc = ab_strmap_put(&ps->names, t->name, (int64_t)(g->n_tensors - 1));
	if (rc == -EEXIST)
		return PFAIL(ps, -EINVAL, "tensor '%s' is declared twice",
			     t->name);
	return rc;
}

/* Parses "a,b,-" into tensor indices; '-' only where allow_absent. */
static int parse_list(struct parser *ps, const char *op, const char *what,
		      const char *list, bool allow_absent, int **out, int *n)
{
	size_t cnt = 1, i = 0;
	const char *p;
	char *copy, *save = NULL, *name;

	for (p = list; *p; p++)
		cnt += *p == ',';
	*out = malloc(cnt * sizeof(**out));
	copy = strdup(list);
	if (!*out || !copy) {
		free(copy);
		return -ENOMEM;
	}
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		int64_t idx;

		if (allow_absent && strcmp(name, "-") == 0) {
			(*out)[i++] = -1;
			continue;
		}
		idx = ab_strmap_get(&ps->names, name);
		if (idx < 0) {
			int rc = PFAIL(ps, -EINVAL,
				       "op '%s': %s tensor '%s' is not declared (declare tensors before the ops that use them)",
				       op, what, name);

			free(copy);
			return rc;
		}
		(*out)[i++] = (int)idx;
	}
	free(copy);
	if (i == 0)
		return PFAIL(ps, -EINVAL, "op '%s': empty %s list", op, what);
	*n = (int)i;
	return 0;
}

static const struct {
	const char *name;
	uint32_t flag;
} op_flags[] = {
	{ "side_effect", AB_OP_SIDE_EFFECT },
	{ "elementwise", AB_OP_ELEMENTWISE },
};

static int parse_flags(struct parser *ps, struct ab_op *op, const char *list)
{
	char *copy = strdup(list), *save = NULL, *f;

	if (!copy)
		return -ENOMEM;
	for (f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		size_t k;

		for (k = 0; k < sizeof(op_flags) / sizeof(op_flags[0]); k++)
			if (strcmp(f, op_flags[k].name) == 0)
				break;
		if (k == sizeof(op_flags) / sizeof(op_flags[0])) {
			int rc = PFAIL(ps, -EINVAL,
				       "op '%s': unknown flag '%s' (expected side_effect or elementwise)",
				       op->name, f);
			free(copy);
			return rc;
		}
		op->flags |= op_flags[k].flag;
	}
	free(copy);
	return 0;
}

static int parse_op(struct parser *ps, char **tok, int ntok)
{
	struct ab_graph *g = ps->g;
	struct ab_op *op;
	int rc;

	if (ntok < 3)
		return PFAIL(ps, -EINVAL,
			     "expected 'op NAME TYPE [in=..] [out=..] [scratch=..] [flags=..]'");
	if (!valid_name(tok[1]) || !valid_name(tok[2]))
		return PFAIL(ps, -EINVAL,
			     "op name '%s' and type '%s' must be non-empty without ',', '=', '#', spaces or control characters",
			     tok[1], tok[2]);
	if (ab_strmap_get(&ps->op_names, tok[1]) >= 0)
		return PFAIL(ps, -EINVAL,
			     "op '%s' is declared twice (first on line %" PRId64 "; operator names must be unique, as messages and plans name operators)",
			     tok[1], ab_strmap_get(&ps->op_names, tok[1]));
	if (g->n_ops == ps->cap_ops) {
		size_t cap = ps->cap_ops ? ps->cap_ops * 2 : 64;
		void *p = realloc(g->ops, cap * sizeof(*g->ops));

		if (!p)
			return -ENOMEM;
		g->ops = p;
		ps->cap_ops = cap;
	}
	op = &g->ops[g->n_ops];
	memset(op, 0, sizeof(*op));
	op->name = strdup(tok[1]);
	op->type = strdup(tok[2]);
	g->n_ops++;
	if (!op->name || !op->type)
		return -ENOMEM;
	op->line = ps->line;
	rc = ab_strmap_put(&ps->op_names, op->name, ps->line);
	if (rc)
		return rc;
	op->phase_start = ps->next_op_phase;
	ps->next_op_phase = false;
	for (int i = 3; i < ntok; i++) {
		const char *t = tok[i];

		if (strncmp(t, "in=", 3) == 0 && !op->inputs)
			rc = parse_list(ps, op->name, "input", t + 3, true,
					&op->inputs, &op->n_inputs);
		else if (strncmp(t, "out=", 4) == 0 && !op->outputs)
			rc = parse_list(ps, op->name, "output", t + 4, false,
					&op->outputs, &op->n_outputs);
		else if (strncmp(t, "scratch=", 8) == 0 && !op->scratch)
			rc = parse_list(ps, op->name, "scratch", t + 8, false,
					&op->scratch, &op->n_scratch);
		else if (strncmp(t, "flags=", 6) == 0 && !op->flags)
			rc = parse_flags(ps, op, t + 6);
		else
			rc = PFAIL(ps, -EINVAL,
				   "op '%s': unexpected '%s' (expected in=, out=, scratch= or flags=, each at most once)",
				   op->name, t);
		if (rc)
			return rc;
	}
	return 0;
}

static int set_header(struct parser *ps, char **field, const char *key,
		      const char *value)
{
	if (*field)
		return PFAIL(ps, -EINVAL, "'%s' is given twice", key);
	if (!*value)
		return PFAIL(ps, -EINVAL, "expected a value after '%s'", key);
	*field = strdup(value);
	return *field ? 0 : -ENOMEM;
}

static int parse_line(struct parser *ps, char *line)
{
	char *tok[64];
	int ntok = 0;
	char *rest, *p;

	/* Comments run to the end of the line. */
	p = strchr(line, '#');
	if (p)
		*p = 0;
	p = line;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	/* The header keywords take the rest of the line as their value. */
	rest = p + strcspn(p, " \t");
	if (*rest) {
		*rest++ = 0;
		while (isspace((unsigned char)*rest))
			rest++;
		for (char *e = rest + strlen(rest);
		     e > rest && isspace((unsigned char)e[-1]);)
			*--e = 0;
	}
	if (!ps->g->name && strcmp(p, "graph") != 0)
		return PFAIL(ps, -EINVAL,
			     "expected 'graph NAME' as the first declaration, got '%s'",
			     p);
	if (strcmp(p, "graph") == 0) {
		if (!valid_name(rest))
			return PFAIL(ps, -EINVAL,
				     "expected 'graph NAME' with a name without spaces, ',' or '='");
		return set_header(ps, &ps->g->name, "graph", rest);
	}
	if (strcmp(p, "family") == 0) {
		if (!valid_name(rest))
			return PFAIL(ps, -EINVAL,
				     "expected 'family NAME' with a name without spaces, ',' or '='");
		return set_header(ps, &ps->g->family, "family", rest);
	}
	if (strcmp(p, "source") == 0)
		return set_header(ps, &ps->g->source, "source", rest);
	if (strcmp(p, "phase") == 0) {
		if (*rest)
			return PFAIL(ps, -EINVAL, "'phase' takes no arguments");
		ps->next_op_phase = true;
		ps->phase_line = ps->line;
		return 0;
	}
	tok[ntok++] = p;
	for (char *save = NULL, *t = strtok_r(rest, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (ntok == (int)(sizeof(tok) / sizeof(tok[0])))
			return PFAIL(ps, -EINVAL, "too many fields on one line");
		tok[ntok++] = t;
	}
	if (strcmp(p, "tensor") == 0)
		return parse_tensor(ps, tok, ntok);
	if (strcmp(p, "op") == 0)
		return parse_op(ps, tok, ntok);
	return PFAIL(ps, -EINVAL,
		     "unknown declaration '%s' (expected graph, family, source, tensor, op or phase)",
		     p);
}

int ab_graph_parse(const char *text, size_t len, const char *path,
		   struct ab_graph *out, struct ab_error *err)
{
	struct parser ps = { .path = path, .g = out, .err = err };
	struct ab_line_reader lr;
	char *line;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = ab_strmap_init(&ps.names, 256);
	if (!rc && (rc = ab_strmap_init(&ps.op_names, 256)))
		ab_strmap_free(&ps.names);
	if (rc)
		return ab_fail(err, rc, "%s: out of memory", path);
	/* a UTF-8 byte-order mark before the first line is skipped, as in
	 * a minimalloc CSV */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	ab_line_reader_init(&lr, text, len);
	while ((rc = ab_line_reader_next(&lr, &line)) > 0) {
		ps.line = lr.line;
		rc = parse_line(&ps, line);
		if (rc)
			break;
	}
	if (rc == -ENOMEM)
		ab_fail(err, rc, "%s: out of memory", path);
	else if (rc < 0 && rc != -EINVAL && rc != -EOVERFLOW)
		ab_fail(err, rc, "%s:%d: %s", path, lr.line,
			rc == -E2BIG ? "line too long or contains a NUL byte"
				     : "cannot read line");
	ab_line_reader_free(&lr);
	ab_strmap_free(&ps.names);
	ab_strmap_free(&ps.op_names);
	if (!rc && !out->name)
		rc = ab_fail(err, -EINVAL, "%s: empty graph (expected 'graph NAME' and operators)",
			     path);
	if (!rc && ps.next_op_phase)
		rc = ab_fail(err, -EINVAL, "%s:%d: 'phase' after the last op (a phase must start at an op)",
			     path, ps.phase_line);
	if (!rc)
		rc = ab_graph_check(out, path, err);
	if (rc)
		ab_graph_free(out);
	return rc;
}

int ab_graph_load(const char *path, struct ab_graph *out, struct ab_error *err)
{
	char *text;
	size_t len;
	int rc = ab_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	rc = ab_graph_parse(text, len, path, out, err);
	free(text);
	return rc;
}

/* ------------------------------------------------------------------ write */

static void put_list(FILE *f, const char *key, const struct ab_graph *g,
		     const int *idx, int n)
{
	if (n <= 0)
		return;
	fprintf(f, " %s=", key);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "",
			idx[i] < 0 ? "-" : g->tensors[idx[i]].name);
}

char *ab_graph_to_text(const struct ab_graph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "graph %s\n", g->name ? g->name : "unnamed");
	if (g->family)
		fprintf(f, "family %s\n", g->family);
	if (g->source)
		fprintf(f, "source %s\n", g->source);
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct ab_tensor *t = &g->tensors[i];

		unsigned extra = ab_tensor_roles(t) &
				 ~(t->kind == AB_KIND_INPUT ? AB_ROLE_GRAPH_INPUT : 0u) &
				 ~(t->kind == AB_KIND_OUTPUT ? AB_ROLE_GRAPH_OUTPUT : 0u);

		fprintf(f, "tensor %s %s%s%s %s ", t->name, ab_kind_name(t->kind),
			extra & AB_ROLE_GRAPH_INPUT ? "+input" : "",
			extra & AB_ROLE_GRAPH_OUTPUT ? "+output" : "",
			ab_dtype_name(t->dtype));
		if (t->dtype == AB_DTYPE_BYTES || t->rank < 0) {
			fprintf(f, "%" PRIu64, t->bytes);
		} else if (t->rank == 0) {
			fputs("scalar", f);
		} else {
			for (int d = 0; d < t->rank; d++)
				fprintf(f, "%s%" PRId64, d ? "x" : "",
					t->dims[d]);
		}
		if (t->align > 1)
			fprintf(f, " align=%u", t->align);
		fputc('\n', f);
	}
	for (size_t k = 0; k < g->n_ops; k++) {
		const struct ab_op *op = &g->ops[k];

		if (op->phase_start)
			fputs("phase\n", f);
		fprintf(f, "op %s %s", op->name, op->type);
		put_list(f, "in", g, op->inputs, op->n_inputs);
		put_list(f, "out", g, op->outputs, op->n_outputs);
		put_list(f, "scratch", g, op->scratch, op->n_scratch);
		if (op->flags) {
			const char *sep = "";

			fputs(" flags=", f);
			for (size_t k2 = 0; k2 < sizeof(op_flags) / sizeof(op_flags[0]); k2++)
				if (op->flags & op_flags[k2].flag) {
					fprintf(f, "%s%s", sep, op_flags[k2].name);
					sep = ",";
				}
		}
		fputc('\n', f);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
