/*
 * ONNX importer (C side): symbolic dimensions, a folder over int64 shape
 * computations fed back into ONNX's shape inference, the importer's own
 * shape rules for ops inference leaves open, then struct ab_graph.
 * The protobuf and inference are in onnx_proto.cc.  Semantics: docs/onnx.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/textio.h"
#include "import/expand.h"
#include "import/onnx.h"
#include "import/onnx_model.h"

#define MAX_ROUNDS 16

enum { E_FLOAT = 1, E_UINT8, E_INT8, E_UINT16, E_INT16, E_INT32, E_INT64,
       E_STRING, E_BOOL, E_FLOAT16, E_DOUBLE, E_UINT32, E_UINT64,
       E_COMPLEX64, E_COMPLEX128, E_BFLOAT16 };

/* One value of the main graph. */
struct val {
	const char *name;
	int producer;            /* node index, -1: input or initializer */
	bool is_input, is_init, is_const, is_output, read;
	const struct ab_onnx_type *type; /* best known (borrowed) */
	struct ab_onnx_type own; /* a type computed here (Shape, hints) */
	bool has_own;
	bool has_data;
	int64_t *data;           /* folded or stored integer value */
	size_t n_data;
	bool hinted_data;        /* already sent to inference */
	bool hinted_type;
	int tensor;              /* graph tensor index, -1 */
};

struct st {
	const char *path;
	struct ab_error *err;
	const struct ab_onnx_options *opt;
	struct ab_onnx_model m;
	struct abx_onnx *h;
	struct ab_strmap map;
	size_t n_vals;
	struct val *v;
	bool *node_const;
	size_t n_rounds, n_hinted;
};

static int fail(struct st *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct st *s, int code, const char *fmt, ...)
{
	char buf[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ab_fail(s->err, code, "%s: %s", s->path, buf);
}

/* memcpy that allows n == 0 with a NULL source (empty dims, ints). */
static void copy(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
}

static const struct ab_onnx_node *node(struct st *s, int i)
{
	return &s->m.graphs[0].nodes[i];
}

static const char *node_name(struct st *s, int i, char *buf, size_t len)
{
	const struct ab_onnx_node *n = node(s, i);

	snprintf(buf, len, "node %d '%s' (%s)", i, n->name[0] ? n->name : "", n->op);
	return buf;
}

static const struct ab_onnx_attr *attr(const struct ab_onnx_node *n, const char *name)
{
	for (size_t i = 0; i < n->n_attr; i++)
		if (!strcmp(n->attr[i].name, name))
			return &n->attr[i];
	return NULL;
}

static int64_t attr_i(const struct ab_onnx_node *n, const char *name, int64_t def)
{
	const struct ab_onnx_attr *a = attr(n, name);

	return a ? a->i : def;
}

static struct val *lookup(struct st *s, const char *name)
{
	int64_t i = name && name[0] ? ab_strmap_get(&s->map, name) : -1;

	return i < 0 ? NULL : &s->v[i];
}

/* --------------------------------------------------------------- types */

static bool type_static(const struct ab_onnx_type *t)
{
	if (!t || t->category != AB_ONNX_TENSOR || t->rank < 0)
		return false;
	for (int i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return false;
	return true;
}

static uint64_t type_count(const struct ab_onnx_type *t, bool *ovf)
{
	uint64_t c = 1;

	*ovf = false;
	for (int i = 0; i < t->rank; i++) {
		uint64_t d = (uint64_t)t->dims[i];
		if (d && c > UINT64_MAX / d)
			*ovf = true;
		c *= d;
	}
	return c;
}

static void own_free(struct val *x)
{
	if (x->has_own) {
		free(x->own.dims);
		x->own.dims = NULL;
	}
	x->has_own = false;
}

/* Sets x's own type: elem, rank, dims (copied). */
static int set_own(struct val *x, int32_t elem, int rank, const int64_t *dims)
{
	int64_t *d = malloc((size_t)(rank > 0 ? rank : 1) * sizeof(*d));

	if (!d)
		return -ENOMEM;
	own_free(x);
	for (int i = 0; i < rank; i++)
		d[i] = dims[i];
	x->own = (struct ab_onnx_type){ .category = AB_ONNX_TENSOR, .elem = elem,
					.rank = rank, .dims = d };
	x->has_own = true;
	x->type = &x->own;
	return 0;
}

static const struct ab_onnx_type *vtype(const struct val *x)
{
	return x ? x->type : NULL;
}

/* ------------------------------------------------------------- folding */

static bool int_elem(int32_t e)
{
	return e == E_INT64 || e == E_INT32 || e == E_INT16 || e == E_INT8 ||
	       e == E_UINT8 || e == E_UINT16 || e == E_UINT32 || e == E_UINT64 ||
	       e == E_BOOL;
}

/* An input's integer value: data, rank, dims. */
struct ival {
	const int64_t *d;
	size_t n;
	int rank;
	const int64_t *dims;
	int32_t elem;
};

static bool get_ival(struct st *s, const struct ab_onnx_node *n, size_t k,
		     struct ival *o)
{
	struct val *x = k < n->n_in ? lookup(s, n->in[k]) : NULL;

	if (!x || !x->has_data || !type_static(x->type))
		return false;
	*o = (struct ival){ x->data, x->n_data, x->type->rank, x->type->dims,
			    x->type->elem };
	return true;
}

/* Stores a folded value into output 0 of node i. */
static int put(struct st *s, const struct ab_onnx_node *n, int32_t elem,
	       int rank, const int64_t *dims, int64_t *data, size_t count)
{
	struct val *x = lookup(s, n->out[0]);
	int rc;

	if (!x || x->has_data) {
		free(data);
		return 0;
	}
	rc = set_own(x, elem, rank, dims);
	if (rc) {
		free(data);
		return rc;
	}
	x->data = data;
	x->n_data = count;
	x->has_data = true;
	return 1;
}

static int64_t *ialloc(size_t n)
{
	return malloc((n ? n : 1) * sizeof(int64_t));
}

static int64_t norm_axis(int64_t a, int rank)
{
	return a < 0 ? a + rank : a;
}

/* numpy broadcasting of two shapes into out (rank r). */
static bool broadcast(const struct ival *a, const struct ival *b, int *r,
		      int64_t *out)
{
	*r = a->rank > b->rank ? a->rank : b->rank;
	if (*r > AB_MAX_RANK)
		return false;
	for (int i = 0; i < *r; i++) {
		int ia = i - (*r - a->rank), ib = i - (*r - b->rank);
		int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
		if (da != db && da != 1 && db != 1)
			return false;
		out[i] = da == 1 ? db : da;
	}
	return true;
}

static size_t bindex(const struct ival *a, int r, const int64_t *dims, size_t flat)
{
	size_t idx = 0, stride = 1;

	for (int i = r - 1; i >= 0; i--) {
		size_t c = flat % (size_t)dims[i];
		int ia = i - (r - a->rank);
		flat /= (size_t)dims[i];
		if (ia >= 0) {
			if (a->dims[ia] != 1)
				idx += c * stride;
			stride *= (size_t)a->dims[ia];
		}
	}
	return idx;
}

static bool binop(const char *op, int64_t x, int64_t y, int64_t *z)
{
	if (!strcmp(op, "Add")) *z = (int64_t)((uint64_t)x + (uint64_t)y);
	else if (!strcmp(op, "Sub")) *z = (int64_t)((uint64_t)x - (uint64_t)y);
	else if (!strcmp(op, "Mul")) *z = (int64_t)((uint64_t)x * (uint64_t)y);
	else if (!strcmp(op, "Div")) {
		if (y == 0 || (x == INT64_MIN && y == -1))
			return false;
		*z = x / y;
	} else if (!strcmp(op, "Mod")) {
		if (y == 0 || (x == INT64_MIN && y == -1))
			return false;
		*z = x % y;
	} else if (!strcmp(op, "Min")) *z = x < y ? x : y;
	else if (!strcmp(op, "Max")) *z = x > y ? x : y;
	else if (!strcmp(op, "Equal")) *z = x == y;
	else if (!strcmp(op, "Less")) *z = x < y;
	else if (!strcmp(op, "Greater")) *z = x > y;
	else if (!strcmp(op, "LessOrEqual")) *z = x <= y;
	else if (!strcmp(op, "GreaterOrEqual")) *z = x >= y;
	else if (!strcmp(op, "And")) *z = x && y;
	else if (!strcmp(op, "Or")) *z = x || y;
	else return false;
	return true;
}

static bool is_compare(const char *op)
{
	return !strcmp(op, "Equal") || !strcmp(op, "Less") || !strcmp(op, "Greater") ||
	       !strcmp(op, "LessOrEqual") || !strcmp(op, "GreaterOrEqual") ||
	       !strcmp(op, "And") || !strcmp(op, "Or");
}

/* Axes of Squeeze/Unsqueeze/Reduce*: attribute (old opsets) or input 1. */
static bool get_axes(struct st *s, const struct ab_onnx_node *n, int64_t *ax,
		     size_t *na)
{
	const struct ab_onnx_attr *a = attr(n, "axes");
	struct ival v;

	*na = 0;
	if (a) {
		if (a->n_ints > AB_MAX_RANK)
			return false;
		for (size_t i = 0; i < a->n_ints; i++)
			ax[(*na)++] = a->ints[i];
		return true;
	}
	if (n->n_in > 1 && n->in[1][0]) {
		if (!get_ival(s, n, 1, &v) || v.n > AB_MAX_RANK)
			return false;
		for (size_t i = 0; i < v.n; i++)
			ax[(*na)++] = v.d[i];
	}
	return true;
}

/* Tries to evaluate node i (int64 data only).  1 folded, 0 not, <0 error. */
static int fold(struct st *s, int i)
{
	const struct ab_onnx_node *n = node(s, i);
	const char *op = n->op;
	struct ival a, b;
	int64_t dims[AB_MAX_RANK] = { 0 };
	int64_t *o;

	if (n->domain[0] || n->n_out < 1 || !n->out[0][0])
		return 0;
	if (!strcmp(op, "Shape") || !strcmp(op, "Size")) {
		struct val *x = lookup(s, n->n_in ? n->in[0] : NULL);
		const struct ab_onnx_type *t = vtype(x);
		bool ovf;
		if (!type_static(t))
			return 0;
		if (!strcmp(op, "Size")) {
			o = ialloc(1);
			if (!o)
				return -ENOMEM;
			o[0] = (int64_t)type_count(t, &ovf);
			if (ovf) {
				free(o);
				return 0;
			}
			return put(s, n, E_INT64, 0, dims, o, 1);
		}
		int64_t st = norm_axis(attr_i(n, "start", 0), t->rank);
		int64_t en = attr(n, "end") ? norm_axis(attr_i(n, "end", 0), t->rank) : t->rank;
		st = st < 0 ? 0 : st > t->rank ? t->rank : st;
		en = en < 0 ? 0 : en > t->rank ? t->rank : en;
		size_t c = en > st ? (size_t)(en - st) : 0;
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < c; k++)
			o[k] = t->dims[st + (int64_t)k];
		dims[0] = (int64_t)c;
		return put(s, n, E_INT64, 1, dims, o, c);
	}
	if (!strcmp(op, "Constant")) {
		const struct ab_onnx_attr *v = attr(n, "value");
		if (v && v->t && v->t->has_data && v->t->type.rank <= AB_MAX_RANK) {
			o = ialloc(v->t->n_data);
			if (!o)
				return -ENOMEM;
			copy(o, v->t->data, v->t->n_data * sizeof(*o));
			return put(s, n, v->t->type.elem, v->t->type.rank, v->t->type.dims,
				   o, v->t->n_data);
		}
		if ((v = attr(n, "value_int"))) {
			o = ialloc(1);
			if (!o)
				return -ENOMEM;
			o[0] = v->i;
			return put(s, n, E_INT64, 0, dims, o, 1);
		}
		if ((v = attr(n, "value_ints")) && v->n_ints <= AB_ONNX_MAX_FOLD) {
			o = ialloc(v->n_ints);
			if (!o)
				return -ENOMEM;
			copy(o, v->ints, v->n_ints * sizeof(*o));
			dims[0] = (int64_t)v->n_ints;
			return put(s, n, E_INT64, 1, dims, o, v->n_ints);
		}
		return 0;
	}
	if (!strcmp(op, "ConstantOfShape")) {
		const struct ab_onnx_attr *v = attr(n, "value");
		int64_t fill = 0;
		int32_t elem = E_FLOAT;
		uint64_t c = 1;
		if (!get_ival(s, n, 0, &a) || a.n > AB_MAX_RANK)
			return 0;
		if (v && v->t) {
			if (!v->t->has_data || v->t->n_data != 1)
				return 0;
			fill = v->t->data[0];
			elem = v->t->type.elem;
		}
		if (!int_elem(elem))
			return 0;
		for (size_t k = 0; k < a.n; k++) {
			if (a.d[k] < 0 || (a.d[k] && c > AB_ONNX_MAX_FOLD / (uint64_t)a.d[k]))
				return 0;
			c *= (uint64_t)a.d[k];
			dims[k] = a.d[k];
		}
		if (c > AB_ONNX_MAX_FOLD)
			return 0;
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < c; k++)
			o[k] = fill;
		return put(s, n, elem, (int)a.n, dims, o, c);
	}
	if (!get_ival(s, n, 0, &a))
		return 0;
	if (!strcmp(op, "Identity") || !strcmp(op, "Cast") || !strcmp(op, "Squeeze") ||
	    !strcmp(op, "Unsqueeze") || !strcmp(op, "Reshape") || !strcmp(op, "Flatten")) {
		int32_t elem = a.elem;
		int r = 0;
		if (!strcmp(op, "Cast")) {
			elem = (int32_t)attr_i(n, "to", 0);
			if (!int_elem(elem))
				return 0;
		}
		if (!strcmp(op, "Identity") || !strcmp(op, "Cast")) {
			r = a.rank;
			copy(dims, a.dims, (size_t)r * sizeof(*dims));
		} else if (!strcmp(op, "Squeeze")) {
			int64_t ax[AB_MAX_RANK];
			size_t na;
			if (!get_axes(s, n, ax, &na))
				return 0;
			for (int k = 0; k < a.rank; k++) {
				bool drop = false;
				for (size_t j = 0; j < na; j++)
					drop |= norm_axis(ax[j], a.rank) == k;
				if (na == 0)
					drop = a.dims[k] == 1;
				if (!drop)
					dims[r++] = a.dims[k];
			}
		} else if (!strcmp(op, "Unsqueeze")) {
			int64_t ax[AB_MAX_RANK];
			size_t na;
			if (!get_axes(s, n, ax, &na) || a.rank + (int)na > AB_MAX_RANK)
				return 0;
			r = a.rank + (int)na;
			for (int k = 0, src = 0; k < r; k++) {
				bool ins = false;
				for (size_t j = 0; j < na; j++)
					ins |= norm_axis(ax[j], r) == k;
				dims[k] = ins ? 1 : a.dims[src++];
			}
		} else if (!strcmp(op, "Flatten")) {
			int64_t ax = norm_axis(attr_i(n, "axis", 1), a.rank), p = 1;
			for (int k = 0; k < ax && k < a.rank; k++)
				p *= a.dims[k];
			dims[0] = p;
			dims[1] = p ? (int64_t)a.n / p : 0;
			r = 2;
		} else { /* Reshape */
			struct ival sh;
			int neg = -1;
			int64_t p = 1;
			if (!get_ival(s, n, 1, &sh) || sh.n > AB_MAX_RANK)
				return 0;
			r = (int)sh.n;
			for (int k = 0; k < r; k++) {
				dims[k] = sh.d[k] == 0 && !attr_i(n, "allowzero", 0) && k < a.rank
					? a.dims[k] : sh.d[k];
				if (dims[k] == -1)
					neg = k;
				else
					p *= dims[k];
			}
			if (neg >= 0)
				dims[neg] = p ? (int64_t)a.n / p : 0;
		}
		o = ialloc(a.n);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < a.n; k++)
			o[k] = elem == E_BOOL ? a.d[k] != 0 : a.d[k];
		return put(s, n, elem, r, dims, o, a.n);
	}
	if (!strcmp(op, "Neg") || !strcmp(op, "Abs") || !strcmp(op, "Not")) {
		o = ialloc(a.n);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < a.n; k++)
			o[k] = op[0] == 'N' && op[1] == 'e' ? -a.d[k]
			     : op[0] == 'A' ? (a.d[k] < 0 ? -a.d[k] : a.d[k]) : !a.d[k];
		return put(s, n, a.elem, a.rank, a.dims, o, a.n);
	}
	if (!strcmp(op, "Gather")) {
		struct ival ix;
		int64_t ax = norm_axis(attr_i(n, "axis", 0), a.rank);
		size_t outer = 1, inner = 1, c;
		int r = 0;
		if (!get_ival(s, n, 1, &ix) || ax < 0 || ax >= a.rank ||
		    a.rank + ix.rank - 1 > AB_MAX_RANK)
			return 0;
		for (int k = 0; k < ax; k++)
			outer *= (size_t)a.dims[k], dims[r++] = a.dims[k];
		for (int k = 0; k < ix.rank; k++)
			dims[r++] = ix.dims[k];
		for (int k = (int)ax + 1; k < a.rank; k++)
			inner *= (size_t)a.dims[k], dims[r++] = a.dims[k];
		c = outer * ix.n * inner;
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t p = 0; p < outer; p++)
			for (size_t q = 0; q < ix.n; q++) {
				int64_t j = ix.d[q] < 0 ? ix.d[q] + a.dims[ax] : ix.d[q];
				if (j < 0 || j >= a.dims[ax]) {
					free(o);
					return 0;
				}
				for (size_t t = 0; t < inner; t++)
					o[(p * ix.n + q) * inner + t] =
						a.d[(p * (size_t)a.dims[ax] + (size_t)j) * inner + t];
			}
		return put(s, n, a.elem, r, dims, o, c);
	}
	if (!strcmp(op, "Concat")) {
		int64_t ax = norm_axis(attr_i(n, "axis", 0), a.rank), tot = 0;
		size_t outer = 1, inner = 1, c = 0, pos = 0;
		struct ival in[64];
		if (n->n_in > 64 || ax < 0 || ax >= a.rank)
			return 0;
		for (size_t k = 0; k < n->n_in; k++) {
			if (!get_ival(s, n, k, &in[k]) || in[k].rank != a.rank)
				return 0;
			tot += in[k].dims[ax];
			c += in[k].n;
		}
		for (int k = 0; k < a.rank; k++) {
			dims[k] = k == ax ? tot : a.dims[k];
			if (k < ax) outer *= (size_t)a.dims[k];
			if (k > ax) inner *= (size_t)a.dims[k];
		}
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t p = 0; p < outer; p++)
			for (size_t k = 0; k < n->n_in; k++) {
				size_t len = (size_t)in[k].dims[ax] * inner;
				if (pos + len > c) {
					free(o);
					return 0;
				}
				copy(o + pos, in[k].d + p * len, len * sizeof(*o));
				pos += len;
			}
		return put(s, n, a.elem, a.rank, dims, o, c);
	}
	if (!strcmp(op, "Slice")) {
		int64_t st[AB_MAX_RANK], en[AB_MAX_RANK], ax[AB_MAX_RANK], sp[AB_MAX_RANK];
		size_t na = 0;
		const struct ab_onnx_attr *as = attr(n, "starts"), *ae = attr(n, "ends"),
					   *aa = attr(n, "axes");
		struct ival vs, ve, va, vp;
		if (a.rank != 1)
			return 0; /* shape vectors only */
		if (as && ae) {
			na = as->n_ints;
			if (na > AB_MAX_RANK || ae->n_ints != na)
				return 0;
			for (size_t k = 0; k < na; k++) {
				st[k] = as->ints[k], en[k] = ae->ints[k], sp[k] = 1;
				ax[k] = aa && k < aa->n_ints ? aa->ints[k] : (int64_t)k;
			}
		} else {
			if (!get_ival(s, n, 1, &vs) || !get_ival(s, n, 2, &ve) ||
			    vs.n != ve.n || vs.n > AB_MAX_RANK)
				return 0;
			na = vs.n;
			bool has_a = n->n_in > 3 && n->in[3][0], has_p = n->n_in > 4 && n->in[4][0];
			if ((has_a && (!get_ival(s, n, 3, &va) || va.n != na)) ||
			    (has_p && (!get_ival(s, n, 4, &vp) || vp.n != na)))
				return 0;
			for (size_t k = 0; k < na; k++) {
				st[k] = vs.d[k], en[k] = ve.d[k];
				ax[k] = has_a ? va.d[k] : (int64_t)k;
				sp[k] = has_p ? vp.d[k] : 1;
			}
		}
		if (na != 1 || norm_axis(ax[0], 1) != 0 || sp[0] == 0)
			return 0;
		int64_t d = a.dims[0], b0 = st[0] < 0 ? st[0] + d : st[0],
			e0 = en[0] < 0 ? en[0] + d : en[0];
		size_t c = 0;
		if (sp[0] > 0) {
			b0 = b0 < 0 ? 0 : b0 > d ? d : b0;
			e0 = e0 < 0 ? 0 : e0 > d ? d : e0;
		} else {
			b0 = b0 < 0 ? -1 : b0 > d - 1 ? d - 1 : b0;
			e0 = e0 < -1 ? -1 : e0 > d - 1 ? d - 1 : e0;
		}
		o = ialloc((size_t)d);
		if (!o)
			return -ENOMEM;
		for (int64_t k = b0; sp[0] > 0 ? k < e0 : k > e0; k += sp[0])
			o[c++] = a.d[k];
		dims[0] = (int64_t)c;
		return put(s, n, a.elem, 1, dims, o, c);
	}
	if (!strcmp(op, "Range")) {
		struct ival l, dl;
		if (!get_ival(s, n, 1, &l) || !get_ival(s, n, 2, &dl) || a.n != 1 ||
		    l.n != 1 || dl.n != 1 || dl.d[0] == 0)
			return 0;
		int64_t span = l.d[0] - a.d[0], c = span / dl.d[0] + (span % dl.d[0] != 0);
		if (c < 0)
			c = 0;
		if (c > AB_ONNX_MAX_FOLD)
			return 0;
		o = ialloc((size_t)c);
		if (!o)
			return -ENOMEM;
		for (int64_t k = 0; k < c; k++)
			o[k] = a.d[0] + k * dl.d[0];
		dims[0] = c;
		return put(s, n, a.elem, 1, dims, o, (size_t)c);
	}
	if (!strcmp(op, "NonZero")) {
		size_t nz = 0, c;
		for (size_t k = 0; k < a.n; k++)
			nz += a.d[k] != 0;
		c = nz * (size_t)(a.rank ? a.rank : 1);
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0, j = 0; k < a.n; k++) {
			if (!a.d[k])
				continue;
			size_t f = k;
			for (int r = a.rank - 1; r >= 0; r--) {
				o[(size_t)r * nz + j] = (int64_t)(f % (size_t)a.dims[r]);
				f /= (size_t)a.dims[r];
			}
			if (a.rank == 0)
				o[j] = 0;
			j++;
		}
		dims[0] = a.rank ? a.rank : 1;
		dims[1] = (int64_t)nz;
		return put(s, n, E_INT64, 2, dims, o, c);
	}
	if (!strcmp(op, "Transpose")) {
		const struct ab_onnx_attr *p = attr(n, "perm");
		if (a.rank == 1 || a.rank == 0) {
			o = ialloc(a.n);
			if (!o)
				return -ENOMEM;
			copy(o, a.d, a.n * sizeof(*o));
			return put(s, n, a.elem, a.rank, a.dims, o, a.n);
		}
		if (a.rank != 2 || (p && (p->n_ints != 2 || p->ints[0] != 1)))
			return 0;
		o = ialloc(a.n);
		if (!o)
			return -ENOMEM;
		for (int64_t r = 0; r < a.dims[0]; r++)
			for (int64_t c = 0; c < a.dims[1]; c++)
				o[c * a.dims[0] + r] = a.d[r * a.dims[1] + c];
		dims[0] = a.dims[1], dims[1] = a.dims[0];
		return put(s, n, a.elem, 2, dims, o, a.n);
	}
	if (!strcmp(op, "Where")) {
		struct ival x, y;
		int r1, r2;
		int64_t d1[AB_MAX_RANK];
		if (!get_ival(s, n, 1, &x) || !get_ival(s, n, 2, &y) ||
		    !broadcast(&a, &x, &r1, d1))
			return 0;
		struct ival ax_ = { NULL, 0, r1, d1, 0 };
		if (!broadcast(&ax_, &y, &r2, dims))
			return 0;
		bool ovf;
		struct ab_onnx_type t = { AB_ONNX_TENSOR, 0, r2, dims, NULL };
		size_t c = (size_t)type_count(&t, &ovf);
		if (ovf || c > AB_ONNX_MAX_FOLD)
			return 0;
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < c; k++)
			o[k] = a.d[bindex(&a, r2, dims, k)] ? x.d[bindex(&x, r2, dims, k)]
							  : y.d[bindex(&y, r2, dims, k)];
		return put(s, n, x.elem, r2, dims, o, c);
	}
	/* binary elementwise */
	if (n->n_in == 2 && get_ival(s, n, 1, &b)) {
		int r;
		bool ovf;
		int64_t z;
		if (!broadcast(&a, &b, &r, dims) || !binop(op, 0, 1, &z))
			return 0;
		struct ab_onnx_type t = { AB_ONNX_TENSOR, 0, r, dims, NULL };
		size_t c = (size_t)type_count(&t, &ovf);
		if (ovf || c > AB_ONNX_MAX_FOLD)
			return 0;
		o = ialloc(c);
		if (!o)
			return -ENOMEM;
		for (size_t k = 0; k < c; k++)
			if (!binop(op, a.d[bindex(&a, r, dims, k)], b.d[bindex(&b, r, dims, k)],
				   &o[k])) {
				free(o);
				return 0;
			}
		return put(s, n, is_compare(op) ? E_BOOL : a.elem, r, dims, o, c);
	}
	return 0;
}

/* --------------------------------------------- the importer's own rules */

/* Output types that ONNX 1.12's inference leaves open, for ops whose
 * output shape follows from the input's: Dropout's mask (same shape,
 * bool), and the pre-opset-10 experimental ops ImageScaler and Affine
 * (elementwise) and Crop (border or scale), which have no schema in
 * ONNX 1.12.  Returns 1 when a hint was set. */
static int own_rule(struct st *s, int i)
{
	const struct ab_onnx_node *n = node(s, i);
	struct val *x = n->n_in ? lookup(s, n->in[0]) : NULL;
	const struct ab_onnx_type *t = vtype(x);
	int64_t dims[AB_MAX_RANK];
	int rc, done = 0;

	if (!type_static(t) || t->rank > AB_MAX_RANK || n->domain[0])
		return 0;
	for (size_t k = 0; k < n->n_out; k++) {
		struct val *y = lookup(s, n->out[k]);
		int32_t elem = t->elem;
		if (!y || type_static(y->type))
			continue;
		copy(dims, t->dims, (size_t)t->rank * sizeof(*dims));
		if (!strcmp(n->op, "Dropout") && k == 1) {
			elem = E_BOOL;
		} else if ((!strcmp(n->op, "ImageScaler") || !strcmp(n->op, "Affine") ||
			    !strcmp(n->op, "Dropout")) && k == 0) {
		} else if (!strcmp(n->op, "Crop") && k == 0 && t->rank == 4) {
			const struct ab_onnx_attr *b = attr(n, "border"), *sc = attr(n, "scale");
			if (!b || b->n_ints != 4)
				continue;
			if (sc && sc->n_ints == 2) {
				dims[2] = sc->ints[0];
				dims[3] = sc->ints[1];
			} else {
				/* border = [left, top, right, bottom] */
				dims[2] = t->dims[2] - b->ints[1] - b->ints[3];
				dims[3] = t->dims[3] - b->ints[0] - b->ints[2];
			}
			if (dims[2] < 0 || dims[3] < 0)
				continue;
		} else {
			continue;
		}
		rc = set_own(y, elem, t->rank, dims);
		if (rc)
			return rc;
		done = 1;
	}
	return done;
}

/* ------------------------------------------------------------- the loop */

static void refresh_types(struct st *s)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];

	for (size_t i = 0; i < g->n_infos; i++) {
		struct val *x = lookup(s, g->infos[i].name);
		if (!x || x->has_own || x->is_input || x->is_init)
			continue;
		if (!type_static(x->type) || type_static(&g->infos[i].type))
			x->type = &g->infos[i].type;
	}
}

static bool random_op(const char *op)
{
	return !strncmp(op, "Random", 6) || !strcmp(op, "Multinomial") ||
	       !strcmp(op, "Bernoulli");
}

/* One pass in node order: constness, folding, own rules.  Returns the
 * number of new facts for inference, or <0. */
static int pass(struct st *s)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	int news = 0, rc;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		bool all = true, any = false;
		for (size_t k = 0; k < n->n_in; k++) {
			struct val *x = lookup(s, n->in[k]);
			if (!n->in[k][0])
				continue;
			any = true;
			all &= x && x->is_const;
		}
		rc = fold(s, (int)i);
		if (rc < 0)
			return rc;
		bool c = !strcmp(n->op, "Constant") ||
			 (rc > 0 && (!strcmp(n->op, "Shape") || !strcmp(n->op, "Size"))) ||
			 (any && all && !n->domain[0] && !random_op(n->op) &&
			  strcmp(n->op, "If") && strcmp(n->op, "Loop") && strcmp(n->op, "Scan"));
		if (c && !s->node_const[i]) {
			s->node_const[i] = true;
			for (size_t k = 0; k < n->n_out; k++) {
				struct val *y = lookup(s, n->out[k]);
				if (y)
					y->is_const = true;
			}
		}
		rc = own_rule(s, (int)i);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < s->n_vals; i++) {
		struct val *x = &s->v[i];
		if (x->has_data && !x->hinted_data && x->producer >= 0)
			news++;
		else if (x->has_own && !x->has_data && !x->hinted_type)
			news++;
	}
	return news;
}

static int infer(struct st *s)
{
	struct ab_onnx_hint *h = malloc((s->n_vals + 1) * sizeof(*h));
	size_t n = 0;
	int rc;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_vals; i++) {
		struct val *x = &s->v[i];
		if (x->producer < 0 || !x->has_own)
			continue;
		h[n++] = (struct ab_onnx_hint){ x->name, 0, &x->own,
						x->has_data ? x->data : NULL, x->n_data };
		x->hinted_data |= x->has_data;
		x->hinted_type = true;
	}
	/* Types borrowed from the previous round's value_info are replaced. */
	for (size_t i = 0; i < s->n_vals; i++)
		if (!s->v[i].has_own && !s->v[i].is_input && !s->v[i].is_init)
			s->v[i].type = NULL;
	s->n_hinted = 0;
	for (size_t i = 0; i < n; i++)
		s->n_hinted += !h[i].data;
	rc = abx_onnx_infer(s->h, h, n, &s->m, s->err);
	free(h);
	s->n_rounds++;
	if (!rc)
		refresh_types(s);
	return rc;
}

/* --------------------------------------------------------------- setup */

static int add_val(struct st *s, const char *name, int producer,
		   const struct ab_onnx_type *t, struct val **out)
{
	int64_t j = ab_strmap_get(&s->map, name);

	if (j >= 0) {
		*out = &s->v[j];
		return -EEXIST;
	}
	struct val *x = &s->v[s->n_vals];
	*x = (struct val){ .name = name, .producer = producer, .type = t, .tensor = -1 };
	if (ab_strmap_put(&s->map, name, (int64_t)s->n_vals))
		return -ENOMEM;
	s->n_vals++;
	*out = x;
	return 0;
}

static const struct ab_tflite_dim *find_dim(const struct ab_onnx_options *o,
					    const char *name)
{
	for (size_t i = 0; o && i < o->n_dims; i++)
		if (!strcmp(o->dims[i].name, name))
			return &o->dims[i];
	return NULL;
}

static int setup(struct st *s, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t cap = g->n_inits + g->n_inputs + 1;
	struct val *x;
	char nb[300];
	int rc;

	for (size_t i = 0; i < g->n_nodes; i++)
		cap += g->nodes[i].n_out;
	s->v = calloc(cap, sizeof(*s->v));
	s->node_const = calloc(g->n_nodes + 1, sizeof(*s->node_const));
	if (!s->v || !s->node_const || ab_strmap_init(&s->map, cap))
		return fail(s, -ENOMEM, "out of memory");
	if (s->m.n_sparse_inits)
		return fail(s, -EINVAL, "%zu sparse initializers (sparse tensors are not supported)",
			    s->m.n_sparse_inits);
	for (size_t i = 0; i < g->n_inits; i++) {
		const struct ab_onnx_value *t = &g->inits[i];
		rc = add_val(s, t->name, -1, &t->type, &x);
		if (rc == -EEXIST)
			return fail(s, -EBADMSG, "initializer '%s' appears twice (expected unique names)",
				    t->name);
		if (rc)
			return fail(s, -ENOMEM, "out of memory");
		for (int k = 0; k < t->type.rank; k++)
			if (t->type.dims[k] < 0)
				return fail(s, -EBADMSG, "initializer '%s': dimension %d is negative (expected >= 0)",
					    t->name, k);
		x->is_init = x->is_const = true;
		if (t->has_data && t->type.rank <= AB_MAX_RANK) {
			x->data = t->data; /* borrowed: not freed */
			x->n_data = t->n_data;
			x->has_data = true;
		}
		info->weights_bytes += t->stored_bytes;
		info->n_external += t->external;
	}
	/* Graph inputs: symbolic dimensions take --dim; the others must be
	 * sized in the file. */
	char missing[400] = "";
	const char *first = NULL;
	size_t n_missing = 0;
	for (size_t i = 0; i < g->n_inputs; i++) {
		const struct ab_onnx_value *in = &g->inputs[i];
		if (lookup(s, in->name))
			continue; /* an initializer: a weight */
		rc = add_val(s, in->name, -1, &in->type, &x);
		if (rc == -EEXIST)
			return fail(s, -EBADMSG, "graph input '%s' listed twice", in->name);
		if (rc)
			return fail(s, -ENOMEM, "out of memory");
		x->is_input = true;
		if (in->type.category != AB_ONNX_TENSOR)
			continue; /* refused when sizes are checked */
		if (in->type.rank < 0)
			return fail(s, -EINVAL, "graph input '%s' has no shape (expected a tensor of known rank)",
				    in->name);
		int64_t d[AB_MAX_RANK > 64 ? AB_MAX_RANK : 64];
		for (int k = 0; k < in->type.rank; k++) {
			d[k] = in->type.dims[k];
			if (d[k] == -2)
				return fail(s, -EBADMSG, "graph input '%s': dimension %d is negative (expected >= 0 or a name)",
					    in->name, k);
			if (in->type.params[k]) {
				const struct ab_tflite_dim *o = find_dim(s->opt, in->type.params[k]);
				info->n_dim_params++;
				if (o) {
					d[k] = o->value;
					abx_onnx_set_dim(s->h, in->type.params[k], o->value);
					info->used_dim_overrides = true;
				} else if (!strstr(missing, in->type.params[k])) {
					if (!first)
						first = in->name;
					n_missing++;
					snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
						 "%s'%s'", missing[0] ? ", " : "", in->type.params[k]);
				}
			} else if (d[k] < 0) {
				return fail(s, -EINVAL, "graph input '%s': dimension %d has neither a size nor a name (expected a static input shape)",
					    in->name, k);
			}
		}
		if (!first && (rc = set_own(x, in->type.elem, in->type.rank, d)))
			return fail(s, -ENOMEM, "out of memory");
	}
	if (n_missing)
		return fail(s, -EINVAL, "unresolved symbolic dimension%s %s (first needed by graph input '%s'); give each with --dim NAME=VALUE",
			    n_missing > 1 ? "s" : "", missing, first);
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		for (size_t k = 0; k < n->n_out; k++) {
			if (!n->out[k][0])
				continue;
			rc = add_val(s, n->out[k], (int)i, NULL, &x);
			if (rc == -EEXIST)
				return fail(s, -EBADMSG, "%s: output '%s' is already %s (one producer per value)",
					    node_name(s, (int)i, nb, sizeof(nb)), n->out[k],
					    x->producer >= 0 ? "written by an earlier node" : "a graph input or initializer");
			if (rc)
				return fail(s, -ENOMEM, "out of memory");
		}
		info->n_const_nodes += !strcmp(n->op, "Constant");
		if (!strcmp(n->op, "Constant")) {
			const struct ab_onnx_attr *v = attr(n, "value");
			if (v && v->t)
				info->weights_bytes += v->t->stored_bytes;
		}
	}
	for (size_t i = 0; i < g->n_outputs; i++) {
		x = lookup(s, g->outputs[i].name);
		if (!x)
			return fail(s, -EBADMSG, "graph output '%s' is produced by no node, input or initializer",
				    g->outputs[i].name);
		x->is_output = true;
	}
	return 0;
}

/* ----------------------------------------------------- subgraphs (If) */

/* Bytes of the values computed inside graph gi (node outputs), the
 * nested If branches by the same rule; outer-scope names read are
 * marked read in the outer table. */
static int branch_bytes(struct st *s, int gi, uint64_t *bytes, int depth)
{
	const struct ab_onnx_graph *g = &s->m.graphs[gi];
	struct ab_strmap types;
	int rc = 0;

	*bytes = 0;
	if (depth > 16)
		return fail(s, -E2BIG, "If branches nested too deeply");
	if (ab_strmap_init(&types, g->n_infos + 1))
		return fail(s, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n_infos; i++)
		ab_strmap_put(&types, g->infos[i].name, (int64_t)i);
	for (size_t i = 0; i < g->n_nodes && !rc; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (!strcmp(n->op, "Loop") || !strcmp(n->op, "Scan")) {
			rc = fail(s, -EINVAL, "node '%s' (%s) inside an If branch: Loop and Scan are not planned (docs/onnx.md)",
				  n->name, n->op);
			break;
		}
		for (size_t k = 0; k < n->n_in; k++) {
			struct val *x = lookup(s, n->in[k]);
			if (x)
				x->read = true; /* outer scope (or shadowed: harmless) */
		}
		if (!strcmp(n->op, "Constant"))
			continue;
		for (size_t k = 0; k < n->n_attr; k++)
			if (n->attr[k].graph >= 0) {
				uint64_t b;
				rc = branch_bytes(s, n->attr[k].graph, &b, depth + 1);
				if (rc)
					break;
				*bytes += b;
			}
		for (size_t k = 0; k < n->n_out && !rc; k++) {
			int64_t j = n->out[k][0] ? ab_strmap_get(&types, n->out[k]) : -1;
			const struct ab_onnx_type *t = j >= 0 ? &g->infos[j].type : NULL;
			uint64_t b;
			unsigned bits = t ? ab_onnx_elem_bits(t->elem) : 0;
			bool ovf;
			if (!n->out[k][0])
				continue;
			if (!type_static(t) || !bits) {
				rc = fail(s, -EINVAL, "If branch '%s': value '%s' (output of node '%s', %s): shape unknown after inference (expected static branch values)",
					  g->name, n->out[k], n->name, n->op);
				break;
			}
			uint64_t c = type_count(t, &ovf);
			if (ovf || c > UINT64_MAX / bits) {
				rc = fail(s, -EOVERFLOW, "If branch value '%s': element count overflows 64 bits",
					  n->out[k]);
				break;
			}
			b = (c * bits + 7) / 8;
			if (*bytes > UINT64_MAX - b) {
				rc = fail(s, -EOVERFLOW, "If branch '%s': bytes overflow 64 bits", g->name);
				break;
			}
			*bytes += b;
		}
	}
	ab_strmap_free(&types);
	return rc;
}

/* ------------------------------------------------------------ the graph */

static bool elementwise(const char *op)
{
	static const char *const ops[] = {
		"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "Mod", "PRelu", "Relu",
		"LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Elu", "Selu",
		"Celu", "Gelu", "Exp", "Log", "Sqrt", "Reciprocal", "Abs", "Neg", "Sin",
		"Cos", "Floor", "Ceil", "Round", "Sign", "Not", "Clip", "Erf", "Softplus",
		"Softsign", "Identity", "Reshape", "Squeeze", "Unsqueeze", "Flatten",
		"Cast", "Dropout", "QuantizeLinear", "DequantizeLinear", "ImageScaler",
		"Affine", "Mish", "ThresholdedRelu", NULL };

	for (size_t i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

/* Text-format-safe copy of an ONNX name (as the TFLite importer does). */
static char *clean_name(const char *s, const char *fallback, size_t idx)
{
	char *r = s && s[0] ? ab_strdupf("%.512s", s) : ab_strdupf("%s%zu", fallback, idx);

	if (!r)
		return NULL;
	for (char *p = r; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == ',' || *p == '=' || *p == '#' ||
		    (unsigned char)*p == 0x7f)
			*p = '_';
	if (!strcmp(r, "-"))
		r[0] = '_';
	return r;
}

static int size_tensor(struct st *s, const struct val *x, struct ab_tensor *t)
{
	const struct ab_onnx_type *ty = x->type;
	char nb[300];
	const char *what = x->producer >= 0 ? node_name(s, x->producer, nb, sizeof(nb))
					    : x->is_input ? "the graph's inputs" : "the initializers";

	if (!ty || ty->category == AB_ONNX_UNKNOWN || (ty->category == AB_ONNX_TENSOR && ty->rank < 0) ||
	    (ty->category == AB_ONNX_TENSOR && !type_static(ty))) {
		char dims[200] = "";
		for (int k = 0; ty && k < ty->rank && strlen(dims) < 180; k++)
			snprintf(dims + strlen(dims), sizeof(dims) - strlen(dims), "%s%s", k ? "x" : "",
				 ty->dims[k] >= 0 ? "" : "?");
		for (int k = 0; ty && k < ty->rank; k++)
			if (ty->dims[k] == -2)
				return fail(s, -EBADMSG, "value '%s' (from %s): dimension %d is negative",
					    x->name, what, k);
		return fail(s, -EINVAL, "value '%s' (from %s): shape %s after ONNX shape inference and constant folding (expected static dimensions; see docs/onnx.md)",
			    x->name, what,
			    !ty || ty->category == AB_ONNX_UNKNOWN ? "unknown"
			    : ty->rank < 0 ? "of unknown rank" : "not fully known");
	}
	if (ty->category != AB_ONNX_TENSOR)
		return fail(s, -EINVAL, "value '%s' (from %s) is a %s (expected a tensor; sequence, map, optional and sparse values cannot be planned statically)",
			    x->name, what,
			    ty->category == AB_ONNX_SEQUENCE ? "sequence" : ty->category == AB_ONNX_MAP ? "map"
			    : ty->category == AB_ONNX_OPTIONAL ? "optional value" : "sparse tensor");
	static const int map[17] = { -1, AB_DTYPE_F32, AB_DTYPE_U8, AB_DTYPE_I8, -2, AB_DTYPE_I16,
		AB_DTYPE_I32, AB_DTYPE_I64, -3, AB_DTYPE_BOOL, AB_DTYPE_F16, AB_DTYPE_F64, -2, -2,
		-2, -2, AB_DTYPE_BF16 };
	int d = ty->elem > 0 && ty->elem < 17 ? map[ty->elem] : -1;
	if (d == -3)
		return fail(s, -EINVAL, "value '%s' (from %s) is a string tensor (variable length: cannot be planned statically)",
			    x->name, what);
	if (d == -1)
		return fail(s, -EINVAL, "value '%s' (from %s): element type %d (%s) is not supported (expected float, float16, bfloat16, double, int8..64, uint8..64 or bool)",
			    x->name, what, ty->elem, ab_onnx_elem_name(ty->elem));
	bool ovf;
	uint64_t c = type_count(ty, &ovf), bits = ab_onnx_elem_bits(ty->elem);
	if (ovf || c > UINT64_MAX / bits)
		return fail(s, -EOVERFLOW, "value '%s' (from %s): element count overflows 64 bits (expected a size that fits in memory)",
			    x->name, what);
	t->bytes = (c * bits + 7) / 8;
	if (d == -2 || ty->rank > AB_MAX_RANK) {
		t->dtype = AB_DTYPE_BYTES;
		t->rank = -1;
	} else {
		t->dtype = (enum ab_dtype)d;
		t->rank = ty->rank;
		for (int k = 0; k < ty->rank; k++)
			t->dims[k] = ty->dims[k];
		if (ab_tensor_shape_bytes(t->dtype, t->rank, t->dims, &t->bytes))
			return fail(s, -EOVERFLOW, "value '%s': element count overflows 64 bits",
				    x->name);
	}
	return 0;
}

static int build(struct st *s, struct ab_graph *out, struct ab_onnx_info *info)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t n_ops = 0, n_t = 0, n_if = 0;
	char nb[300];
	int rc;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i]) {
			info->n_folded_nodes += strcmp(n->op, "Constant") != 0;
			continue;
		}
		if (!strcmp(n->op, "Loop") || !strcmp(n->op, "Scan"))
			return fail(s, -EINVAL, "%s: control flow with a loop is not planned (its body's tensors live across iterations; docs/onnx.md)",
				    node_name(s, (int)i, nb, sizeof(nb)));
		n_ops++;
		n_if += !strcmp(n->op, "If");
		for (size_t k = 0; k < n->n_in; k++) {
			struct val *x = lookup(s, n->in[k]);
			if (n->in[k][0] && !x)
				return fail(s, -EBADMSG, "%s: input '%s' is not defined (no node, input or initializer has that name)",
					    node_name(s, (int)i, nb, sizeof(nb)), n->in[k]);
			if (x && x->producer >= (int)i)
				return fail(s, -EBADMSG, "%s: input '%s' is read before node %d writes it (ONNX requires nodes in topological order)",
					    node_name(s, (int)i, nb, sizeof(nb)), n->in[k], x->producer);
			if (x)
				x->read = true;
		}
	}
	if (!n_ops)
		return fail(s, -EINVAL, "no operator left to plan (every node is constant)");
	out->tensors = calloc(s->n_vals + n_if + 1, sizeof(*out->tensors));
	out->ops = calloc(n_ops, sizeof(*out->ops));
	if (!out->tensors || !out->ops)
		return fail(s, -ENOMEM, "out of memory");
	/* Subgraph outer reads mark values read before tensors are chosen. */
	uint64_t *if_bytes = calloc(g->n_nodes + 1, sizeof(*if_bytes));
	if (!if_bytes)
		return fail(s, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n_nodes && n_if; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		struct val *cond = n->n_in ? lookup(s, n->in[0]) : NULL;
		if (s->node_const[i] || strcmp(n->op, "If"))
			continue;
		for (size_t k = 0; k < n->n_attr; k++) {
			uint64_t b;
			bool then_b = !strcmp(n->attr[k].name, "then_branch");
			if (n->attr[k].graph < 0)
				continue;
			/* a constant condition: only the taken branch runs */
			if (cond && cond->has_data && cond->n_data == 1 &&
			    (cond->data[0] != 0) != then_b)
				continue;
			rc = branch_bytes(s, n->attr[k].graph, &b, 0);
			if (rc) {
				free(if_bytes);
				return rc;
			}
			if (b > if_bytes[i])
				if_bytes[i] = b;
		}
	}
	/* Tensors: inputs, consts read by an op, node outputs of ops. */
	for (size_t i = 0; i < s->n_vals; i++) {
		struct val *x = &s->v[i];
		bool op_out = x->producer >= 0 && !s->node_const[x->producer];
		if (!(x->is_input || op_out || (x->is_const && x->read) ||
		      (x->is_const && x->is_output)))
			continue;
		struct ab_tensor *t = &out->tensors[n_t];
		rc = size_tensor(s, x, t);
		if (rc) {
			free(if_bytes);
			return rc;
		}
		t->name = clean_name(x->name, "v", i);
		if (!t->name) {
			free(if_bytes);
			return fail(s, -ENOMEM, "out of memory");
		}
		t->align = 1;
		t->kind = x->is_const ? AB_KIND_CONST : x->is_input ? AB_KIND_INPUT
			: x->is_output ? AB_KIND_OUTPUT : AB_KIND_INTERMEDIATE;
		x->tensor = (int)n_t++;
		out->n_tensors = n_t;
	}
	/* Ops, in the file's order. */
	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		struct ab_op *o = &out->ops[out->n_ops++];
		o->name = clean_name(n->name, "node", i);
		o->type = n->domain[0] ? ab_strdupf("%s:%s", n->domain, n->op) : ab_strdupf("%s", n->op);
		o->inputs = calloc(n->n_in + 1, sizeof(int));
		o->outputs = calloc(n->n_out + 1, sizeof(int));
		o->scratch = calloc(1, sizeof(int));
		if (!o->name || !o->type || !o->inputs || !o->outputs || !o->scratch) {
			free(if_bytes);
			return fail(s, -ENOMEM, "out of memory");
		}
		for (size_t k = 0; k < n->n_in; k++) {
			struct val *x = lookup(s, n->in[k]);
			o->inputs[o->n_inputs++] = x ? x->tensor : -1;
		}
		for (size_t k = 0; k < n->n_out; k++) {
			struct val *x = lookup(s, n->out[k]);
			if (x && x->tensor >= 0)
				o->outputs[o->n_outputs++] = x->tensor;
		}
		if (elementwise(n->op))
			o->flags |= AB_OP_ELEMENTWISE;
		if (random_op(n->op))
			o->flags |= AB_OP_SIDE_EFFECT;
		if (!strcmp(n->op, "If") && if_bytes[i]) {
			struct ab_tensor *t = &out->tensors[out->n_tensors];
			t->name = ab_strdupf("%s:branch", o->name);
			if (!t->name) {
				free(if_bytes);
				return fail(s, -ENOMEM, "out of memory");
			}
			t->kind = AB_KIND_SCRATCH;
			t->dtype = AB_DTYPE_BYTES;
			t->rank = -1;
			t->bytes = if_bytes[i];
			t->align = 1;
			o->scratch[o->n_scratch++] = (int)out->n_tensors++;
		}
	}
	/* Outer values read only inside If branches: inputs of the If. */
	for (size_t i = 0; i < out->n_ops && n_if; i++) {
		(void)i;
	}
	free(if_bytes);
	return 0;
}

/* Outer-scope values that If branches read become inputs of the If op
 * (they must stay live until it runs). */
static void collect_free(struct st *s, int gi, struct val **list, size_t *n, size_t cap)
{
	const struct ab_onnx_graph *g = &s->m.graphs[gi];

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *nd = &g->nodes[i];
		for (size_t k = 0; k < nd->n_in; k++) {
			struct val *x = lookup(s, nd->in[k]);
			bool seen = false;
			if (!x)
				continue;
			for (size_t j = 0; j < *n; j++)
				seen |= list[j] == x;
			if (!seen && *n < cap)
				list[(*n)++] = x;
		}
		for (size_t k = 0; k < nd->n_attr; k++)
			if (nd->attr[k].graph >= 0)
				collect_free(s, nd->attr[k].graph, list, n, cap);
	}
	for (size_t i = 0; i < g->n_outputs; i++) {
		struct val *x = lookup(s, g->outputs[i].name);
		bool seen = false;
		for (size_t j = 0; x && j < *n; j++)
			seen |= list[j] == x;
		if (x && !seen && *n < cap)
			list[(*n)++] = x;
	}
}

static int add_if_inputs(struct st *s, struct ab_graph *out)
{
	const struct ab_onnx_graph *g = &s->m.graphs[0];
	size_t op = 0;

	for (size_t i = 0; i < g->n_nodes; i++) {
		const struct ab_onnx_node *n = &g->nodes[i];
		if (s->node_const[i])
			continue;
		struct ab_op *o = &out->ops[op++];
		if (strcmp(n->op, "If"))
			continue;
		struct val *list[256];
		size_t nl = 0;
		for (size_t k = 0; k < n->n_attr; k++)
			if (n->attr[k].graph >= 0)
				collect_free(s, n->attr[k].graph, list, &nl, 256);
		int *ni = realloc(o->inputs, ((size_t)o->n_inputs + nl + 1) * sizeof(int));
		if (!ni)
			return fail(s, -ENOMEM, "out of memory");
		o->inputs = ni;
		for (size_t j = 0; j < nl; j++) {
			if (list[j]->tensor < 0)
				continue;
			if (list[j]->producer >= (int)i)
				return fail(s, -EBADMSG, "If node '%s': a branch reads '%s' before it is written",
					    n->name, list[j]->name);
			o->inputs[o->n_inputs++] = list[j]->tensor;
		}
	}
	return 0;
}

static char *stem(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".onnx"))
		n -= 5;
	return ab_strdupf("%.*s", (int)n, b);
}

int ab_onnx_parse(const uint8_t *data, size_t len, const char *path,
		  const struct ab_onnx_options *opt, struct ab_graph *out,
		  struct ab_onnx_info *info, struct ab_error *err)
{
	struct st s = { .path = path, .err = err, .opt = opt };
	struct ab_onnx_info local;
	int rc, news = 1;

	memset(out, 0, sizeof(*out));
	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	rc = abx_onnx_open(data, len, path, &s.h, &s.m, err);
	if (rc)
		return rc;
	info->ir_version = s.m.ir_version;
	info->opset = s.m.opset;
	snprintf(info->producer, sizeof(info->producer), "%s", s.m.producer ? s.m.producer : "");
	info->n_nodes = s.m.graphs[0].n_nodes;
	info->n_initializers = s.m.graphs[0].n_inits;
	for (size_t i = 1; i < s.m.n_graphs; i++)
		info->n_subgraph_nodes += s.m.graphs[i].n_nodes;
	rc = setup(&s, info);
	/* Inference, then fold and apply own rules, until nothing new. */
	while (!rc && news > 0 && s.n_rounds < MAX_ROUNDS) {
		rc = infer(&s);
		if (!rc)
			news = pass(&s);
		if (news < 0)
			rc = fail(&s, news, "out of memory");
	}
	info->n_inference_rounds = s.n_rounds;
	info->n_hinted = s.n_hinted;
	if (!rc)
		rc = build(&s, out, info);
	if (!rc)
		rc = add_if_inputs(&s, out);
	if (!rc) {
		out->name = stem(path);
		out->family = ab_family_from_path(path, "onnx");
		out->source = ab_strdupf("%s", path);
		if (!out->name || !out->family || !out->source)
			rc = fail(&s, -ENOMEM, "out of memory");
	}
	if (!rc)
		rc = ab_graph_check(out, path, err);
	for (size_t i = 0; i < s.n_vals; i++) {
		if (!s.v[i].is_init)
			free(s.v[i].data);
		own_free(&s.v[i]);
	}
	free(s.v);
	free(s.node_const);
	ab_strmap_free(&s.map);
	abx_onnx_close(s.h, &s.m);
	if (rc)
		ab_graph_free(out);
	return rc;
}

int ab_onnx_load(const char *path, const struct ab_onnx_options *opt,
		 struct ab_graph *out, struct ab_onnx_info *info,
		 struct ab_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = ab_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	rc = ab_onnx_parse((const uint8_t *)text, len, path, opt, out, info, err);
	free(text);
	return rc;
}
