/*
 * The ONNX importer's folder: shape computations over int64 data
 * (Shape, Gather, Concat, Slice, Reshape, the broadcasting binaries, ...)
 * evaluated at import, as runtimes do at session creation, and the
 * importer's own output types for ops ONNX 1.12's inference leaves open.
 * onnx.c feeds both back into inference.  The list: docs/onnx.md
 * ("Shapes").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx_import.h"

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

static bool get_ival(struct onnx_import *s, const struct ab_onnx_node *n, size_t k,
		     struct ival *o)
{
	struct onnx_val *x = k < n->n_in ? onnx_lookup(s, n->in[k]) : NULL;

	if (!x || !x->has_data || !onnx_type_static(x->type))
		return false;
	*o = (struct ival){ x->data, x->n_data, x->type->rank, x->type->dims,
			    x->type->elem };
	return true;
}

/* Stores a folded value into output 0 of node i. */
static int put(struct onnx_import *s, const struct ab_onnx_node *n, int32_t elem,
	       int rank, const int64_t *dims, int64_t *data, size_t count)
{
	struct onnx_val *x = onnx_lookup(s, n->out[0]);
	int rc;

	if (!x || x->has_data) {
		free(data);
		return 0;
	}
	rc = onnx_set_own(x, elem, rank, dims);
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

/* The data of a broadcast result of rank r: 1 and *o, *c; 0 when it is
 * too large to fold; -ENOMEM. */
static int broadcast_alloc(int r, int64_t *dims, int64_t **o, size_t *c)
{
	struct ab_onnx_type t = { AB_ONNX_TENSOR, 0, r, dims, NULL };
	bool ovf;

	*c = (size_t)onnx_type_count(&t, &ovf);
	if (ovf || *c > AB_ONNX_MAX_FOLD)
		return 0;
	*o = ialloc(*c);
	return *o ? 1 : -ENOMEM;
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
static bool get_axes(struct onnx_import *s, const struct ab_onnx_node *n, int64_t *ax,
		     size_t *na)
{
	const struct ab_onnx_attr *a = onnx_attr(n, "axes");
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
int onnx_fold(struct onnx_import *s, int i)
{
	const struct ab_onnx_node *n = onnx_node(s, i);
	const char *op = n->op;
	struct ival a, b;
	int64_t dims[AB_MAX_RANK] = { 0 };
	int64_t *o;

	if (n->domain[0] || n->n_out < 1 || !n->out[0][0])
		return 0;
	if (!strcmp(op, "Shape") || !strcmp(op, "Size")) {
		struct onnx_val *x = onnx_lookup(s, n->n_in ? n->in[0] : NULL);
		const struct ab_onnx_type *t = onnx_vtype(x);
		bool ovf;
		if (!onnx_type_static(t))
			return 0;
		if (!strcmp(op, "Size")) {
			o = ialloc(1);
			if (!o)
				return -ENOMEM;
			o[0] = (int64_t)onnx_type_count(t, &ovf);
			if (ovf) {
				free(o);
				return 0;
			}
			return put(s, n, E_INT64, 0, dims, o, 1);
		}
		int64_t st = norm_axis(onnx_attr_i(n, "start", 0), t->rank);
		int64_t en = onnx_attr(n, "end") ? norm_axis(onnx_attr_i(n, "end", 0), t->rank) : t->rank;
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
		const struct ab_onnx_attr *v = onnx_attr(n, "value");
		if (v && v->t && v->t->has_data && v->t->type.rank <= AB_MAX_RANK) {
			o = ialloc(v->t->n_data);
			if (!o)
				return -ENOMEM;
			onnx_copy(o, v->t->data, v->t->n_data * sizeof(*o));
			return put(s, n, v->t->type.elem, v->t->type.rank, v->t->type.dims,
				   o, v->t->n_data);
		}
		if ((v = onnx_attr(n, "value_int"))) {
			o = ialloc(1);
			if (!o)
				return -ENOMEM;
			o[0] = v->i;
			return put(s, n, E_INT64, 0, dims, o, 1);
		}
		if ((v = onnx_attr(n, "value_ints")) && v->n_ints <= AB_ONNX_MAX_FOLD) {
			o = ialloc(v->n_ints);
			if (!o)
				return -ENOMEM;
			onnx_copy(o, v->ints, v->n_ints * sizeof(*o));
			dims[0] = (int64_t)v->n_ints;
			return put(s, n, E_INT64, 1, dims, o, v->n_ints);
		}
		return 0;
	}
	if (!strcmp(op, "ConstantOfShape")) {
		const struct ab_onnx_attr *v = onnx_attr(n, "value");
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
			elem = (int32_t)onnx_attr_i(n, "to", 0);
			if (!int_elem(elem))
				return 0;
		}
		if (!strcmp(op, "Identity") || !strcmp(op, "Cast")) {
			r = a.rank;
			onnx_copy(dims, a.dims, (size_t)r * sizeof(*dims));
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
			int64_t ax = norm_axis(onnx_attr_i(n, "axis", 1), a.rank), p = 1;
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
				dims[k] = sh.d[k] == 0 && !onnx_attr_i(n, "allowzero", 0) && k < a.rank
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
		int64_t ax = norm_axis(onnx_attr_i(n, "axis", 0), a.rank);
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
		int64_t ax = norm_axis(onnx_attr_i(n, "axis", 0), a.rank), tot = 0;
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
				onnx_copy(o + pos, in[k].d + p * len, len * sizeof(*o));
				pos += len;
			}
		return put(s, n, a.elem, a.rank, dims, o, c);
	}
	if (!strcmp(op, "Slice")) {
		int64_t st[AB_MAX_RANK], en[AB_MAX_RANK], ax[AB_MAX_RANK], sp[AB_MAX_RANK];
		size_t na = 0;
		const struct ab_onnx_attr *as = onnx_attr(n, "starts"), *ae = onnx_attr(n, "ends"),
					   *aa = onnx_attr(n, "axes");
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
		const struct ab_onnx_attr *p = onnx_attr(n, "perm");
		if (a.rank == 1 || a.rank == 0) {
			o = ialloc(a.n);
			if (!o)
				return -ENOMEM;
			onnx_copy(o, a.d, a.n * sizeof(*o));
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
		size_t c;
		int rc = broadcast_alloc(r2, dims, &o, &c);
		if (rc <= 0)
			return rc;
		for (size_t k = 0; k < c; k++)
			o[k] = a.d[bindex(&a, r2, dims, k)] ? x.d[bindex(&x, r2, dims, k)]
							  : y.d[bindex(&y, r2, dims, k)];
		return put(s, n, x.elem, r2, dims, o, c);
	}
	/* binary elementwise */
	if (n->n_in == 2 && get_ival(s, n, 1, &b)) {
		int r, rc;
		int64_t z;
		size_t c;
		if (!broadcast(&a, &b, &r, dims) || !binop(op, 0, 1, &z))
			return 0;
		rc = broadcast_alloc(r, dims, &o, &c);
		if (rc <= 0)
			return rc;
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
int onnx_own_rule(struct onnx_import *s, int i)
{
	const struct ab_onnx_node *n = onnx_node(s, i);
	struct onnx_val *x = n->n_in ? onnx_lookup(s, n->in[0]) : NULL;
	const struct ab_onnx_type *t = onnx_vtype(x);
	int64_t dims[AB_MAX_RANK];
	int rc, done = 0;

	if (!onnx_type_static(t) || t->rank > AB_MAX_RANK || n->domain[0])
		return 0;
	for (size_t k = 0; k < n->n_out; k++) {
		struct onnx_val *y = onnx_lookup(s, n->out[k]);
		int32_t elem = t->elem;
		if (!y || onnx_type_static(y->type))
			continue;
		onnx_copy(dims, t->dims, (size_t)t->rank * sizeof(*dims));
		if (!strcmp(n->op, "Dropout") && k == 1) {
			elem = E_BOOL;
		} else if ((!strcmp(n->op, "ImageScaler") || !strcmp(n->op, "Affine") ||
			    !strcmp(n->op, "Dropout")) && k == 0) {
		} else if (!strcmp(n->op, "Crop") && k == 0 && t->rank == 4) {
			const struct ab_onnx_attr *b = onnx_attr(n, "border"), *sc = onnx_attr(n, "scale");
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
		rc = onnx_set_own(y, elem, t->rank, dims);
		if (rc)
			return rc;
		done = 1;
	}
	return done;
}
