/*
 * zoo: writes the real-architecture graphs of the corpus (graphs/zoo/).
 *
 *   build/gen/zoo [--scratch] [--only NAME] [--list] OUTDIR
 *
 * Each graph is built at batch 1 from its published definition at TFLite
 * converter granularity: convolution + folded batch norm + ReLU/ReLU6 is one
 * op; add, concat, pad, reshape, pooling, mean and other activations (swish,
 * hard-swish, sigmoid) are ops of their own.  Weights and biases are `const`
 * tensors (float: f32 weights and bias; quantized: i8/u8 weights, i32 bias),
 * so weights_bytes counts parameters.  The header comment of each graph
 * names the paper and table it follows.
 *
 * --scratch additionally writes a `<name>_scratch` variant of every float
 * graph in which each non-1x1 (or strided) float convolution owns an im2col
 * workspace [1, OH, OW, KH*KW*CIN] f32, as TFLite's optimized float
 * CONV_2D kernel allocates.  Without it, only the fixed set of scratch
 * variants listed in main() is written.
 */
#include "gen.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- builder */

enum act { ACT_NONE, ACT_RELU, ACT_RELU6, ACT_TANH };
#define PAD_SAME (-1)
#define PAD_VALID 0

struct net {
	struct gen_graph g;
	enum gen_dtype act;   /* activation dtype */
	enum gen_dtype wt;    /* weight dtype */
	enum gen_dtype bias;  /* bias dtype */
	bool scratch;         /* im2col workspaces for float convs */
	char scope[128];      /* prefix of op names */
	int seq;              /* disambiguates names within a scope */
};

static bool is_float(enum gen_dtype d)
{
	return d == GEN_F32 || d == GEN_F16 || d == GEN_BF16 || d == GEN_F64;
}

static void net_init(struct net *n, const char *name, const char *source,
		     enum gen_dtype act, bool scratch)
{
	gen_graph_init(&n->g, name, "zoo", source);
	n->act = act;
	n->wt = act;
	n->bias = is_float(act) ? act : GEN_I32;
	n->scratch = scratch && is_float(act);
	n->scope[0] = '\0';
	n->seq = 0;
}

static void scope(struct net *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void scope(struct net *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->scope, sizeof(n->scope), fmt, ap);
	va_end(ap);
}

/* A fresh op/tensor name: scope/what, unique within the graph. */
static const char *nm(struct net *n, const char *what)
{
	return gen_fmt("%s%s%s_%d", n->scope, n->scope[0] ? "/" : "", what,
		       n->seq++);
}

static const struct gen_tensor *T(struct net *n, int t)
{
	return &n->g.t[t];
}

static int rank(struct net *n, int t)
{
	return n->g.t[t].rank;
}

static int64_t dim(struct net *n, int t, int i)
{
	const struct gen_tensor *x = T(n, t);

	return x->dims[i < 0 ? x->rank + i : i];
}

static int tens(struct net *n, const char *name, enum gen_kind k,
		enum gen_dtype d, int r, const int64_t *dims)
{
	return gen_tensor(&n->g, name, k, d, r, dims);
}

static int cnst(struct net *n, const char *opname, const char *suffix,
		enum gen_dtype d, int r, const int64_t *dims)
{
	return tens(n, gen_fmt("%s.%s", opname, suffix), GEN_CONST, d, r, dims);
}

static int cnst1(struct net *n, const char *opname, const char *suffix,
		 enum gen_dtype d, int64_t len)
{
	return cnst(n, opname, suffix, d, 1, &len);
}

static int input(struct net *n, const char *name, enum gen_dtype d, int r,
		 const int64_t *dims)
{
	return tens(n, name, GEN_INPUT, d, r, dims);
}

static void output(struct net *n, int t)
{
	n->g.t[t].kind = GEN_OUTPUT;
}

static int inter(struct net *n, const char *name, enum gen_dtype d, int r,
		 const int64_t *dims)
{
	return tens(n, name, GEN_INTERMEDIATE, d, r, dims);
}

static void op(struct net *n, const char *name, const char *type,
	       int n_in, const int *in, int out, int scr, unsigned flags)
{
	gen_op(&n->g, name, type, n_in, in, out >= 0 ? 1 : 0, &out,
	       scr >= 0 ? 1 : 0, &scr, flags);
}

static int64_t out_size(int64_t in, int k, int s, int pad, int dil)
{
	int64_t ke = (int64_t)(k - 1) * dil + 1;

	if (pad == PAD_SAME)
		return (in + s - 1) / s;
	return (in + 2 * pad - ke) / s + 1;
}

static const char *act_suffix(enum act a)
{
	return a == ACT_RELU ? "relu" : a == ACT_RELU6 ? "relu6" :
	       a == ACT_TANH ? "tanh" : "";
}

/* CONV_2D on NHWC; weights OHWI.  pad: PAD_SAME, or explicit (VALID = 0). */
static int conv_full(struct net *n, int x, int cout, int kh, int kw, int sh,
		     int sw, int pad, int dil, enum act a, bool has_bias)
{
	int64_t h = dim(n, x, 1), w = dim(n, x, 2), cin = dim(n, x, 3);
	int64_t od[4] = { 1, out_size(h, kh, sh, pad, dil),
			  out_size(w, kw, sw, pad, dil), cout };
	int64_t wd[4] = { cout, kh, kw, cin };
	const char *name = nm(n, a ? gen_fmt("conv_%s", act_suffix(a)) : "conv");
	int in[3], y, scr = -1;

	in[0] = x;
	in[1] = cnst(n, name, "w", n->wt, 4, wd);
	in[2] = has_bias ? cnst1(n, name, "b", n->bias, cout) : -1;
	if (n->scratch && (kh > 1 || kw > 1 || sh > 1 || sw > 1)) {
		int64_t sd[4] = { 1, od[1], od[2], (int64_t)kh * kw * cin };

		scr = tens(n, gen_fmt("%s.im2col", name), GEN_SCRATCH, n->act,
			   4, sd);
	}
	y = inter(n, name, n->act, 4, od);
	op(n, name, "CONV_2D", 3, in, y, scr, 0);
	return y;
}

static int conv(struct net *n, int x, int cout, int k, int s, enum act a)
{
	return conv_full(n, x, cout, k, k, s, s, PAD_SAME, 1, a, true);
}

static int conv_v(struct net *n, int x, int cout, int k, int s, enum act a)
{
	return conv_full(n, x, cout, k, k, s, s, PAD_VALID, 1, a, true);
}

static int dwconv_full(struct net *n, int x, int k, int s, int pad, int dil,
		       int mult, enum act a)
{
	int64_t h = dim(n, x, 1), w = dim(n, x, 2), c = dim(n, x, 3) * mult;
	int64_t od[4] = { 1, out_size(h, k, s, pad, dil),
			  out_size(w, k, s, pad, dil), c };
	int64_t wd[4] = { 1, k, k, c };
	const char *name = nm(n, a ? gen_fmt("dw_%s", act_suffix(a)) : "dw");
	int in[3], y;

	in[0] = x;
	in[1] = cnst(n, name, "w", n->wt, 4, wd);
	in[2] = cnst1(n, name, "b", n->bias, c);
	y = inter(n, name, n->act, 4, od);
	op(n, name, "DEPTHWISE_CONV_2D", 3, in, y, -1, 0);
	return y;
}

static int dwconv(struct net *n, int x, int k, int s, enum act a)
{
	return dwconv_full(n, x, k, s, PAD_SAME, 1, 1, a);
}

/* Unary op with the output shaped like the input. */
static int unary(struct net *n, int x, const char *type, const char *what,
		 unsigned flags)
{
	const char *name = nm(n, what);
	int y = inter(n, name, T(n, x)->dtype, rank(n, x), T(n, x)->dims);

	op(n, name, type, 1, &x, y, -1, flags);
	return y;
}

/* Broadcasting binary op; the output takes the larger operand's shape. */
static int binary(struct net *n, int a, int b, const char *type,
		  const char *what)
{
	const char *name = nm(n, what);
	int ra = rank(n, a), rb = rank(n, b), r = ra > rb ? ra : rb;
	int in[2] = { a, b }, y;
	int64_t od[GEN_MAX_RANK];

	for (int i = 0; i < r; i++) {
		int64_t da = i < r - ra ? 1 : dim(n, a, i - (r - ra));
		int64_t db = i < r - rb ? 1 : dim(n, b, i - (r - rb));

		if (da != db && da != 1 && db != 1) {
			fprintf(stderr, "zoo: %s: shapes do not broadcast\n", name);
			abort();
		}
		od[i] = da > db ? da : db;
	}
	y = inter(n, name, T(n, gen_tensor_elems(T(n, a)) >=
				gen_tensor_elems(T(n, b)) ? a : b)->dtype, r, od);

	op(n, name, type, 2, in, y, -1, GEN_OP_ELEMENTWISE);
	return y;
}

static int add(struct net *n, int a, int b)
{
	return binary(n, a, b, "ADD", "add");
}

static int mul(struct net *n, int a, int b)
{
	return binary(n, a, b, "MUL", "mul");
}

/* Binary op with a fresh const second operand of the given shape. */
static int binary_const(struct net *n, int x, const char *type,
			const char *what, int r, const int64_t *cd)
{
	const char *name = nm(n, what);
	int in[2], y;

	in[0] = x;
	in[1] = cnst(n, name, "c", is_float(n->act) ? n->act : n->act, r, cd);
	y = inter(n, name, T(n, x)->dtype, rank(n, x), T(n, x)->dims);
	op(n, name, type, 2, in, y, -1, GEN_OP_ELEMENTWISE);
	return y;
}

static int scalar_op(struct net *n, int x, const char *type, const char *what)
{
	return binary_const(n, x, type, what, 0, NULL);
}

static int pool(struct net *n, int x, const char *type, int k, int s, int pad)
{
	int64_t od[4] = { 1, out_size(dim(n, x, 1), k, s, pad, 1),
			  out_size(dim(n, x, 2), k, s, pad, 1), dim(n, x, 3) };
	const char *name = nm(n, strcmp(type, "MAX_POOL_2D") ? "avgpool" : "maxpool");
	int y = inter(n, name, n->act, 4, od);

	op(n, name, type, 1, &x, y, -1, 0);
	return y;
}

/* Average pool over the whole spatial extent -> 1x1xC. */
static int gpool(struct net *n, int x)
{
	const char *name = nm(n, "avgpool");
	int64_t od[4] = { 1, 1, 1, dim(n, x, 3) };
	int y = inter(n, name, n->act, 4, od);

	op(n, name, "AVERAGE_POOL_2D", 1, &x, y, -1, 0);
	return y;
}

/* MEAN over H and W, keeping dims when keep is set. */
static int gmean(struct net *n, int x, bool keep)
{
	const char *name = nm(n, "mean");
	int64_t od[4] = { 1, 1, 1, dim(n, x, 3) };
	int64_t od2[2] = { 1, dim(n, x, 3) };
	int in[2] = { x, cnst1(n, name, "axes", GEN_I32, 2) };
	int y = keep ? inter(n, name, n->act, 4, od)
		     : inter(n, name, n->act, 2, od2);

	op(n, name, "MEAN", 2, in, y, -1, 0);
	return y;
}

static int pad_op(struct net *n, int x, int t, int b, int l, int r)
{
	const char *name = nm(n, "pad");
	int64_t pd[2] = { 4, 2 };
	int64_t od[4] = { 1, dim(n, x, 1) + t + b, dim(n, x, 2) + l + r,
			  dim(n, x, 3) };
	int in[2] = { x, cnst(n, name, "paddings", GEN_I32, 2, pd) };
	int y = inter(n, name, n->act, 4, od);

	op(n, name, "PAD", 2, in, y, -1, 0);
	return y;
}

static int reshape(struct net *n, int x, int r, const int64_t *dims)
{
	const char *name = nm(n, "reshape");
	int in[2] = { x, cnst1(n, name, "shape", GEN_I32, r) };
	int y = inter(n, name, T(n, x)->dtype, r, dims);

	if (gen_tensor_elems(T(n, x)) != gen_tensor_elems(T(n, y))) {
		fprintf(stderr, "zoo: %s: reshape changes the element count\n",
			name);
		abort();
	}
	op(n, name, "RESHAPE", 2, in, y, -1, GEN_OP_ELEMENTWISE);
	return y;
}

static int flatten(struct net *n, int x)
{
	int64_t d[2] = { 1, (int64_t)gen_tensor_elems(T(n, x)) };

	return reshape(n, x, 2, d);
}

/* Concatenation along axis (negative counts from the end). */
static int concat(struct net *n, int cnt, const int *xs, int axis)
{
	const char *name = nm(n, "concat");
	int r = rank(n, xs[0]);
	int64_t od[GEN_MAX_RANK];
	int y;

	if (axis < 0)
		axis += r;
	memcpy(od, T(n, xs[0])->dims, sizeof(int64_t) * (size_t)r);
	od[axis] = 0;
	for (int i = 0; i < cnt; i++)
		od[axis] += dim(n, xs[i], axis);
	y = inter(n, name, T(n, xs[0])->dtype, r, od);
	op(n, name, "CONCATENATION", cnt, xs, y, -1, 0);
	return y;
}

static int concat2(struct net *n, int a, int b, int axis)
{
	int xs[2] = { a, b };

	return concat(n, 2, xs, axis);
}

/* FULLY_CONNECTED over the last axis; wtensor >= 0 reuses a weight. */
static int fc_full(struct net *n, int x, int64_t units, enum act a,
		   int wtensor, bool has_bias)
{
	const char *name = nm(n, a ? gen_fmt("fc_%s", act_suffix(a)) : "fc");
	int r = rank(n, x);
	int64_t od[GEN_MAX_RANK], wd[2] = { units, dim(n, x, -1) };
	int in[3], y;

	memcpy(od, T(n, x)->dims, sizeof(int64_t) * (size_t)r);
	od[r - 1] = units;
	in[0] = x;
	in[1] = wtensor >= 0 ? wtensor : cnst(n, name, "w", n->wt, 2, wd);
	in[2] = has_bias ? cnst1(n, name, "b", n->bias, units) : -1;
	y = inter(n, name, n->act, r, od);
	op(n, name, "FULLY_CONNECTED", 3, in, y, -1, 0);
	return y;
}

static int fc(struct net *n, int x, int64_t units, enum act a)
{
	return fc_full(n, x, units, a, -1, true);
}

static int softmax(struct net *n, int x)
{
	return unary(n, x, "SOFTMAX", "softmax", 0);
}

static int logistic(struct net *n, int x)
{
	return unary(n, x, "LOGISTIC", "sigmoid", GEN_OP_ELEMENTWISE);
}

static int hswish(struct net *n, int x)
{
	return unary(n, x, "HARD_SWISH", "hswish", GEN_OP_ELEMENTWISE);
}

/* swish(x) = x * sigmoid(x): the converter emits LOGISTIC then MUL. */
static int swish(struct net *n, int x)
{
	return mul(n, x, logistic(n, x));
}

/* QUANTIZE/requantize to dtype d. */
static int quantize(struct net *n, int x, enum gen_dtype d)
{
	const char *name = nm(n, "quantize");
	int y = inter(n, name, d, rank(n, x), T(n, x)->dims);

	op(n, name, "QUANTIZE", 1, &x, y, -1,
	   gen_dtype_bytes(d) == gen_dtype_bytes(T(n, x)->dtype) ?
	   GEN_OP_ELEMENTWISE : 0);
	return y;
}

static int resize_bilinear(struct net *n, int x, int64_t h, int64_t w)
{
	const char *name = nm(n, "resize");
	int64_t od[4] = { 1, h, w, dim(n, x, 3) };
	int in[2] = { x, cnst1(n, name, "size", GEN_I32, 2) };
	int y = inter(n, name, T(n, x)->dtype, 4, od);

	op(n, name, "RESIZE_BILINEAR", 2, in, y, -1, 0);
	return y;
}

/* Convenience shape literal. */
#define D(...) ((const int64_t[]){ __VA_ARGS__ })
#define NDIMS(...) ((int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)))
#define SHAPE(...) NDIMS(__VA_ARGS__), D(__VA_ARGS__)

static int finish(struct net *n, const char *dir)
{
	int rc = gen_graph_write(&n->g, dir);

	if (rc)
		fprintf(stderr, "zoo: %s/%s.graph: %s\n", dir, n->g.name,
			strerror(-rc));
	else
		fprintf(stderr, "zoo: %-34s ops %5zu  tensors %5zu  const elems %11llu  const bytes %11llu\n",
			n->g.name, n->g.n_op, n->g.n_t,
			(unsigned long long)gen_const_elems(&n->g),
			(unsigned long long)gen_const_bytes(&n->g));
	gen_graph_free(&n->g);
	return rc;
}

/* ------------------------------------------------------------ classifiers */

static const char *dname(enum gen_dtype d)
{
	return gen_dtype_name(d);
}

/* Classifier tail used by TF-slim MobileNets: pool, 1x1 conv logits,
 * reshape, softmax (the layout of the published .tflite files). */
static int slim_head(struct net *n, int x, int classes, bool mean_pool)
{
	scope(n, "logits");
	x = mean_pool ? gmean(n, x, true) : gpool(n, x);
	x = conv(n, x, classes, 1, 1, ACT_NONE);
	x = reshape(n, x, SHAPE(1, classes));
	return softmax(n, x);
}

/*
 * MobileNet v1, Howard et al. 2017, "MobileNets: Efficient Convolutional
 * Neural Networks for Mobile Vision Applications", Table 1 (body) with the
 * width multiplier alpha of Section 3.3 (TF-slim: depth = max(8, alpha*d)).
 * grey_dw: the TFLM person-detection layout, whose first layer on a 1-channel
 * image is a depthwise conv with multiplier 8.
 */
static int mobilenet_v1(const char *dir, const char *name, int alpha100,
			int res, int in_ch, int classes, enum gen_dtype dt,
			bool grey_dw, bool scratch, const char *extra,
			const char *source)
{
	static const int body[13][2] = {
		{ 64, 1 }, { 128, 2 }, { 128, 1 }, { 256, 2 }, { 256, 1 },
		{ 512, 2 }, { 512, 1 }, { 512, 1 }, { 512, 1 }, { 512, 1 },
		{ 512, 1 }, { 1024, 2 }, { 1024, 1 },
	};
	struct net n;
	int x, c;

	net_init(&n, name, source ? source : "Howard et al. 2017 (MobileNets), Table 1",
		 dt, scratch);
	gen_comment(&n.g, "MobileNet v1 %d.%02d/%d, %d input channel(s), %d classes, %s.",
		    alpha100 / 100, alpha100 % 100, res, in_ch, classes, dname(dt));
	gen_comment(&n.g, "Source: Howard et al. 2017, arXiv:1704.04861, Table 1 (body) and");
	gen_comment(&n.g, "Section 3.3 (width multiplier); TF-slim depth rule max(8, alpha*d).");
	if (extra)
		gen_comment(&n.g, "%s", extra);
	x = input(&n, "input", dt, SHAPE(1, res, res, in_ch));
	scope(&n, "conv0");
	c = 32 * alpha100 / 100;
	c = c < 8 ? 8 : c;
	if (grey_dw)
		x = dwconv_full(&n, x, 3, 2, PAD_SAME, 1, c / in_ch, ACT_RELU6);
	else
		x = conv(&n, x, c, 3, 2, ACT_RELU6);
	for (int i = 0; i < 13; i++) {
		c = body[i][0] * alpha100 / 100;
		c = c < 8 ? 8 : c;
		scope(&n, "block%d", i + 1);
		x = dwconv(&n, x, 3, body[i][1], ACT_RELU6);
		x = conv(&n, x, c, 1, 1, ACT_RELU6);
	}
	x = slim_head(&n, x, classes, false);
	output(&n, x);
	return finish(&n, dir);
}

/* MobileNet v2 inverted-residual table (t, c, n, s): Sandler et al. 2018,
 * "MobileNetV2: Inverted Residuals and Linear Bottlenecks", Table 2. */
static const int mnv2_table[7][4] = {
	{ 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
	{ 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 },
};

/*
 * One inverted-residual block.  expand_out (if non-NULL) receives the
 * expansion output (SSD taps it).  dil_stride1: the stride-2 depthwise is
 * replaced by stride 1 (DeepLab output stride 16).
 */
static int mnv2_block(struct net *n, int x, int t, int c, int s,
		      int *expand_out)
{
	int cin = (int)dim(n, x, 3), y = x;

	if (t != 1)
		y = conv(n, y, cin * t, 1, 1, ACT_RELU6);
	if (expand_out)
		*expand_out = y;
	y = dwconv(n, y, 3, s, ACT_RELU6);
	y = conv(n, y, c, 1, 1, ACT_NONE);
	if (s == 1 && cin == c)
		y = add(n, y, x);
	return y;
}

/*
 * MobileNet v2 backbone.  os16: DeepLab's output stride 16 (the stride-2 of
 * the 160 stage becomes 1, with atrous depthwise; shapes as at stride 1).
 * stop_after: number of table rows to run (7 = all).  tap15 receives the
 * expansion output of the first 160 block (SSD's layer_15).
 */
static int mnv2_body(struct net *n, int x, bool os16, int *tap15)
{
	int blk = 0;

	scope(n, "conv0");
	x = conv(n, x, 32, 3, 2, ACT_RELU6);
	for (int r = 0; r < 7; r++)
		for (int i = 0; i < mnv2_table[r][2]; i++) {
			int s = i ? 1 : mnv2_table[r][3];

			if (os16 && r == 5)
				s = 1;
			scope(n, "block%d", blk);
			x = mnv2_block(n, x, mnv2_table[r][0], mnv2_table[r][1],
				       s, (r == 5 && i == 0) ? tap15 : NULL);
			blk++;
		}
	return x;
}

/*
 * MobileNet v2 1.0/224 classifier, 1001 classes (TF-slim).  tf2_ptq: the
 * TF2 full-integer converter layout (QUANTIZE at input and output, MEAN as
 * the global pool), as in coral's tf2_mobilenet_v2_1.0_224_ptq.tflite.
 */
static int mobilenet_v2(const char *dir, const char *name, enum gen_dtype dt,
			bool tf2_ptq, bool scratch)
{
	struct net n;
	int x, tap = -1;

	net_init(&n, name, "Sandler et al. 2018 (MobileNetV2), Table 2", dt, scratch);
	gen_comment(&n.g, "MobileNet v2 1.0/224, 1001 classes, %s%s.", dname(dt),
		    tf2_ptq ? " (TF2 full-integer layout: uint8 I/O with QUANTIZE, MEAN pool)" : "");
	gen_comment(&n.g, "Source: Sandler et al. 2018, arXiv:1801.04381, Table 2.");
	if (tf2_ptq) {
		x = input(&n, "input", GEN_U8, SHAPE(1, 224, 224, 3));
		scope(&n, "in");
		x = quantize(&n, x, dt);
	} else {
		x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	}
	x = mnv2_body(&n, x, false, &tap);
	scope(&n, "conv_last");
	x = conv(&n, x, 1280, 1, 1, ACT_RELU6);
	x = slim_head(&n, x, 1001, tf2_ptq);
	if (tf2_ptq) {
		scope(&n, "out");
		x = quantize(&n, x, GEN_U8);
	}
	output(&n, x);
	return finish(&n, dir);
}

/*
 * DeepLab v3 with a MobileNet v2 backbone at 513x513, output stride 16,
 * PASCAL VOC (21 classes).  Chen et al. 2017, "Rethinking Atrous
 * Convolution for Semantic Image Segmentation", Section 3.3 (image-level
 * features) and Sandler et al. 2018 Section 6.3 (the mobile variant drops
 * the atrous ASPP branches: only the 1x1 conv and image pooling remain).
 * Head as in the published deeplabv3_mnv2_pascal .tflite: pooled branch
 * resized back (and requantized when quantized), concat, 1x1 projection,
 * 1x1 logits, two bilinear resizes (33->33, 33->513) and ARG_MAX (int64).
 */
static int deeplab_v3(const char *dir, const char *name, enum gen_dtype dt,
		      bool scratch)
{
	struct net n;
	int x, feat, pooled, a, b;

	net_init(&n, name, "Chen et al. 2017 (DeepLab v3) Sec. 3.3 + Sandler et al. 2018 Sec. 6.3", dt, scratch);
	gen_comment(&n.g, "DeepLab v3, MobileNet v2 1.0 backbone, 513x513, output stride 16, %s.", dname(dt));
	gen_comment(&n.g, "Source: Chen et al. 2017, arXiv:1706.05587, Sec. 3.3; Sandler et al. 2018,");
	gen_comment(&n.g, "arXiv:1801.04381, Sec. 6.3 (no ASPP atrous branches in the mobile variant).");
	x = input(&n, "input", dt, SHAPE(1, 513, 513, 3));
	feat = mnv2_body(&n, x, true, NULL);
	scope(&n, "aspp");
	pooled = gpool(&n, feat);
	a = conv(&n, feat, 256, 1, 1, ACT_RELU);
	b = conv(&n, pooled, 256, 1, 1, ACT_RELU);
	b = resize_bilinear(&n, b, dim(&n, feat, 1), dim(&n, feat, 2));
	if (!is_float(dt))
		b = quantize(&n, b, dt);
	x = concat2(&n, b, a, 3);
	x = conv(&n, x, 256, 1, 1, ACT_RELU);
	scope(&n, "logits");
	x = conv(&n, x, 21, 1, 1, ACT_NONE);
	x = resize_bilinear(&n, x, dim(&n, x, 1), dim(&n, x, 2));
	x = resize_bilinear(&n, x, 513, 513);
	{
		const char *on = nm(&n, "argmax");
		int in[2] = { x, cnst(&n, on, "axis", GEN_I32, 0, NULL) };
		int y = inter(&n, on, GEN_I64, SHAPE(1, 513, 513));

		op(&n, on, "ARG_MAX", 2, in, y, -1, 0);
		x = y;
	}
	output(&n, x);
	return finish(&n, dir);
}

/*
 * SSD with a MobileNet v2 feature extractor at 300x300, COCO (90 classes +
 * background).  Liu et al. 2016 (SSD) Sec. 2.1; feature maps and extra
 * layers as in Sandler et al. 2018 Sec. 6.2: layer_15 expansion (19x19x576)
 * and the last 1x1 conv (10x10x1280), then extra layers of depth
 * 512/256/256/128 with 1x1 bottlenecks of half depth; 3 anchors on the first
 * map and 6 elsewhere (1917 boxes); 1x1 box and class predictors, reshape,
 * concat, sigmoid and the TFLite detection post-processing op.
 */
static int ssd_mobilenet_v2(const char *dir, const char *name,
			    enum gen_dtype dt, bool scratch)
{
	static const int extra[4] = { 512, 256, 256, 128 };
	struct net n;
	int x, tap = -1, feats[6], boxes[6], cls[6], nb = 0;
	int64_t total = 0;

	net_init(&n, name, "Liu et al. 2016 (SSD) Sec. 2.1 + Sandler et al. 2018 Sec. 6.2", dt, scratch);
	gen_comment(&n.g, "SSD-MobileNet v2 300x300, COCO 91 classes (incl. background), 1917 anchors, %s.", dname(dt));
	gen_comment(&n.g, "Source: Liu et al. 2016, arXiv:1512.02325, Sec. 2.1; Sandler et al. 2018,");
	gen_comment(&n.g, "arXiv:1801.04381, Sec. 6.2 (feature maps layer_15 expansion and layer_19).");
	x = input(&n, "input", dt, SHAPE(1, 300, 300, 3));
	x = mnv2_body(&n, x, false, &tap);
	scope(&n, "conv_last");
	x = conv(&n, x, 1280, 1, 1, ACT_RELU6);
	feats[0] = tap;
	feats[1] = x;
	for (int i = 0; i < 4; i++) {
		scope(&n, "extra%d", i + 1);
		x = conv(&n, x, extra[i] / 2, 1, 1, ACT_RELU6);
		x = conv(&n, x, extra[i], 3, 2, ACT_RELU6);
		feats[2 + i] = x;
	}
	for (int i = 0; i < 6; i++) {
		int a = i ? 6 : 3;
		int64_t cells = dim(&n, feats[i], 1) * dim(&n, feats[i], 2) * a;

		scope(&n, "predictor%d", i);
		boxes[nb] = conv(&n, feats[i], a * 4, 1, 1, ACT_NONE);
		boxes[nb] = reshape(&n, boxes[nb], SHAPE(1, cells, 4));
		cls[nb] = conv(&n, feats[i], a * 91, 1, 1, ACT_NONE);
		cls[nb] = reshape(&n, cls[nb], SHAPE(1, cells, 91));
		nb++;
		total += cells;
	}
	if (total != 1917) {
		fprintf(stderr, "zoo: ssd: %lld anchors, expected 1917\n", (long long)total);
		abort();
	}
	scope(&n, "postprocess");
	{
		int b = concat(&n, 6, boxes, 1);
		int c = logistic(&n, concat(&n, 6, cls, 1));
		const char *on = nm(&n, "detections");
		int in[3] = { b, c, cnst(&n, on, "anchors", GEN_F32, SHAPE(1917, 4)) };
		int outs[4];

		outs[0] = tens(&n, gen_fmt("%s.boxes", on), GEN_OUTPUT, GEN_F32, SHAPE(1, 10, 4));
		outs[1] = tens(&n, gen_fmt("%s.classes", on), GEN_OUTPUT, GEN_F32, SHAPE(1, 10));
		outs[2] = tens(&n, gen_fmt("%s.scores", on), GEN_OUTPUT, GEN_F32, SHAPE(1, 10));
		outs[3] = tens(&n, gen_fmt("%s.count", on), GEN_OUTPUT, GEN_F32, SHAPE(1));
		gen_op(&n.g, on, "TFLite_Detection_PostProcess", 3, in, 4, outs,
		       0, NULL, 0);
	}
	return finish(&n, dir);
}

static int make_div8(double v)
{
	int d = (int)(v + 4) / 8 * 8;

	d = d < 8 ? 8 : d;
	return d < 0.9 * v ? d + 8 : d;
}

/* Squeeze-and-excite with hard-sigmoid gate, as Keras MobileNetV3 converts:
 * MEAN, 1x1 conv + ReLU, 1x1 conv, ADD 3 (ReLU6 fused), MUL 1/6, MUL x. */
static int se_hsig(struct net *n, int x, int red)
{
	int s = gmean(n, x, true);

	s = conv(n, s, red, 1, 1, ACT_RELU);
	s = conv(n, s, (int)dim(n, x, 3), 1, 1, ACT_NONE);
	s = scalar_op(n, s, "ADD", "add3_relu6");
	s = scalar_op(n, s, "MUL", "div6");
	return mul(n, x, s);
}

/* Conv with a separate activation: "RE" fused ReLU, "HS" HARD_SWISH op. */
static int conv_act(struct net *n, int x, int cout, int k, int s, bool hs)
{
	x = conv(n, x, cout, k, s, hs ? ACT_NONE : ACT_RELU);
	return hs ? hswish(n, x) : x;
}

static int dw_act(struct net *n, int x, int k, int s, bool hs)
{
	x = dwconv(n, x, k, s, hs ? ACT_NONE : ACT_RELU);
	return hs ? hswish(n, x) : x;
}

/*
 * MobileNet v3 Large / Small, Howard et al. 2019, "Searching for
 * MobileNetV3", Tables 1 and 2 (k, exp, out, SE, NL, s); SE reduction to
 * make_divisible(exp/4, 8).  1001 classes.  The SE on Small's last 576 conv
 * listed in Table 2 is left out, as in the reference implementations.
 */
static int mobilenet_v3(const char *dir, const char *name, bool large,
			enum gen_dtype dt, bool scratch)
{
	/* k, exp, out, se, hs, s */
	static const int tl[15][6] = {
		{ 3, 16, 16, 0, 0, 1 }, { 3, 64, 24, 0, 0, 2 },
		{ 3, 72, 24, 0, 0, 1 }, { 5, 72, 40, 1, 0, 2 },
		{ 5, 120, 40, 1, 0, 1 }, { 5, 120, 40, 1, 0, 1 },
		{ 3, 240, 80, 0, 1, 2 }, { 3, 200, 80, 0, 1, 1 },
		{ 3, 184, 80, 0, 1, 1 }, { 3, 184, 80, 0, 1, 1 },
		{ 3, 480, 112, 1, 1, 1 }, { 3, 672, 112, 1, 1, 1 },
		{ 5, 672, 160, 1, 1, 2 }, { 5, 960, 160, 1, 1, 1 },
		{ 5, 960, 160, 1, 1, 1 },
	};
	static const int ts[11][6] = {
		{ 3, 16, 16, 1, 0, 2 }, { 3, 72, 24, 0, 0, 2 },
		{ 3, 88, 24, 0, 0, 1 }, { 5, 96, 40, 1, 1, 2 },
		{ 5, 240, 40, 1, 1, 1 }, { 5, 240, 40, 1, 1, 1 },
		{ 5, 120, 48, 1, 1, 1 }, { 5, 144, 48, 1, 1, 1 },
		{ 5, 288, 96, 1, 1, 2 }, { 5, 576, 96, 1, 1, 1 },
		{ 5, 576, 96, 1, 1, 1 },
	};
	const int (*t)[6] = large ? tl : ts;
	int rows = large ? 15 : 11;
	struct net n;
	int x;

	net_init(&n, name, large ? "Howard et al. 2019 (MobileNetV3), Table 1"
				 : "Howard et al. 2019 (MobileNetV3), Table 2", dt, scratch);
	gen_comment(&n.g, "MobileNet v3 %s 1.0/224, 1001 classes, %s.", large ? "Large" : "Small", dname(dt));
	gen_comment(&n.g, "Source: Howard et al. 2019, arXiv:1905.02244, Table %d; SE gate hard-sigmoid.", large ? 1 : 2);
	x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	scope(&n, "conv0");
	x = conv_act(&n, x, 16, 3, 2, true);
	for (int i = 0; i < rows; i++) {
		int cin = (int)dim(&n, x, 3), y = x;

		scope(&n, "bneck%d", i + 1);
		if (t[i][1] != cin)
			y = conv_act(&n, y, t[i][1], 1, 1, t[i][4]);
		y = dw_act(&n, y, t[i][0], t[i][5], t[i][4]);
		if (t[i][3])
			y = se_hsig(&n, y, make_div8(t[i][1] / 4.0));
		y = conv(&n, y, t[i][2], 1, 1, ACT_NONE);
		if (t[i][5] == 1 && cin == t[i][2])
			y = add(&n, y, x);
		x = y;
	}
	scope(&n, "head");
	x = conv_act(&n, x, large ? 960 : 576, 1, 1, true);
	x = gmean(&n, x, true);
	x = hswish(&n, conv(&n, x, large ? 1280 : 1024, 1, 1, ACT_NONE));
	scope(&n, "logits");
	x = conv(&n, x, 1001, 1, 1, ACT_NONE);
	x = reshape(&n, x, SHAPE(1, 1001));
	x = softmax(&n, x);
	output(&n, x);
	return finish(&n, dir);
}

/* Keras-style "correct pad" before a VALID stride-2 conv of kernel k. */
static int pad_for_stride2(struct net *n, int x, int k)
{
	int before = k / 2 - ((dim(n, x, 1) % 2 == 0) ? 1 : 0);
	int after = k / 2;

	return pad_op(n, x, before, after, before, after);
}

/*
 * EfficientNet-B0, Tan & Le 2019, "EfficientNet: Rethinking Model Scaling
 * for Convolutional Neural Networks", Table 1; MBConv with SE (ratio 0.25
 * of the block input) and swish, as in the Keras application (stride-2
 * convs VALID after an explicit PAD).  Swish = LOGISTIC + MUL.
 */
static int efficientnet_b0(const char *dir, const char *name,
			   enum gen_dtype dt, bool scratch)
{
	/* expand, k, out, repeats, stride */
	static const int tb[7][5] = {
		{ 1, 3, 16, 1, 1 }, { 6, 3, 24, 2, 2 }, { 6, 5, 40, 2, 2 },
		{ 6, 3, 80, 3, 2 }, { 6, 5, 112, 3, 1 }, { 6, 5, 192, 4, 2 },
		{ 6, 3, 320, 1, 1 },
	};
	struct net n;
	int x, blk = 0;

	net_init(&n, name, "Tan & Le 2019 (EfficientNet), Table 1", dt, scratch);
	gen_comment(&n.g, "EfficientNet-B0 224x224, 1000 classes, %s.", dname(dt));
	gen_comment(&n.g, "Source: Tan & Le 2019, arXiv:1905.11946, Table 1; SE ratio 0.25, swish.");
	x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	scope(&n, "stem");
	x = pad_for_stride2(&n, x, 3);
	x = swish(&n, conv_v(&n, x, 32, 3, 2, ACT_NONE));
	for (int r = 0; r < 7; r++)
		for (int i = 0; i < tb[r][3]; i++) {
			int cin = (int)dim(&n, x, 3), s = i ? 1 : tb[r][4];
			int k = tb[r][1], y = x, g;

			scope(&n, "block%d", ++blk);
			if (tb[r][0] != 1)
				y = swish(&n, conv(&n, y, cin * tb[r][0], 1, 1, ACT_NONE));
			if (s == 2) {
				y = pad_for_stride2(&n, y, k);
				y = dwconv_full(&n, y, k, 2, PAD_VALID, 1, 1, ACT_NONE);
			} else {
				y = dwconv(&n, y, k, 1, ACT_NONE);
			}
			y = swish(&n, y);
			g = gmean(&n, y, true);
			g = swish(&n, conv(&n, g, cin / 4 > 1 ? cin / 4 : 1, 1, 1, ACT_NONE));
			g = logistic(&n, conv(&n, g, (int)dim(&n, y, 3), 1, 1, ACT_NONE));
			y = mul(&n, y, g);
			y = conv(&n, y, tb[r][2], 1, 1, ACT_NONE);
			if (s == 1 && cin == tb[r][2])
				y = add(&n, y, x);
			x = y;
		}
	scope(&n, "head");
	x = swish(&n, conv(&n, x, 1280, 1, 1, ACT_NONE));
	x = gmean(&n, x, false);
	x = fc(&n, x, 1000, ACT_NONE);
	x = softmax(&n, x);
	output(&n, x);
	return finish(&n, dir);
}

/* Keras ResNet stem: PAD 3, 7x7/2 conv VALID, PAD 1, 3x3/2 max pool VALID. */
static int resnet_stem(struct net *n, int x)
{
	scope(n, "stem");
	x = pad_op(n, x, 3, 3, 3, 3);
	x = conv_v(n, x, 64, 7, 2, ACT_RELU);
	x = pad_op(n, x, 1, 1, 1, 1);
	return pool(n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
}

static int resnet_head(struct net *n, int x, int classes)
{
	scope(n, "head");
	x = gmean(n, x, false);
	x = fc(n, x, classes, ACT_NONE);
	return softmax(n, x);
}

/*
 * ResNet-18 / ResNet-50, He et al. 2016, "Deep Residual Learning for Image
 * Recognition", Table 1.  Basic blocks (18) or bottlenecks (50, stride on
 * the first 1x1 as in the paper and Keras); projection shortcuts (option B)
 * where the shape changes; ReLU fused into the ADD.
 */
static int resnet(const char *dir, const char *name, int depth,
		  enum gen_dtype dt, bool scratch)
{
	static const int reps18[4] = { 2, 2, 2, 2 }, reps50[4] = { 3, 4, 6, 3 };
	const int *reps = depth == 18 ? reps18 : reps50;
	struct net n;
	int x;

	net_init(&n, name, "He et al. 2016 (ResNet), Table 1", dt, scratch);
	gen_comment(&n.g, "ResNet-%d 224x224, 1000 classes, %s.", depth, dname(dt));
	gen_comment(&n.g, "Source: He et al. 2016, arXiv:1512.03385, Table 1 (%s blocks, projection shortcuts).",
		    depth == 18 ? "basic" : "bottleneck");
	x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	x = resnet_stem(&n, x);
	for (int st = 0; st < 4; st++)
		for (int i = 0; i < reps[st]; i++) {
			int w = 64 << st, s = (i == 0 && st > 0) ? 2 : 1;
			int out = depth == 18 ? w : 4 * w, y, sc = x;

			scope(&n, "stage%d_block%d", st + 2, i + 1);
			if (dim(&n, x, 3) != out || s != 1)
				sc = conv(&n, x, out, 1, s, ACT_NONE);
			if (depth == 18) {
				y = conv(&n, x, w, 3, s, ACT_RELU);
				y = conv(&n, y, w, 3, 1, ACT_NONE);
			} else {
				y = conv(&n, x, w, 1, s, ACT_RELU);
				y = conv(&n, y, w, 3, 1, ACT_RELU);
				y = conv(&n, y, out, 1, 1, ACT_NONE);
			}
			x = binary(&n, y, sc, "ADD", "add_relu");
		}
	x = resnet_head(&n, x, 1000);
	output(&n, x);
	return finish(&n, dir);
}

/* Inception conv: BN folded, ReLU fused; kh x kw kernel, SAME unless valid. */
static int iconv(struct net *n, int x, int cout, int kh, int kw, int s,
		 bool valid)
{
	return conv_full(n, x, cout, kh, kw, s, s, valid ? PAD_VALID : PAD_SAME,
			 1, ACT_RELU, true);
}

/*
 * Inception v3 at 299x299, Szegedy et al. 2016, "Rethinking the Inception
 * Architecture for Computer Vision", Table 1 with the modules of Figures
 * 5, 6 and 7 and the grid reductions of Figure 10; branch widths as in the
 * Keras application (mixed0..mixed10).  No auxiliary classifier.
 */
static int inception_v3(const char *dir, const char *name, enum gen_dtype dt,
			bool scratch)
{
	struct net n;
	int x, br[4];

	net_init(&n, name, "Szegedy et al. 2016 (Inception v3), Table 1, Figs. 5-7 and 10", dt, scratch);
	gen_comment(&n.g, "Inception v3 299x299, 1000 classes, no auxiliary head, %s.", dname(dt));
	gen_comment(&n.g, "Source: Szegedy et al. 2016, arXiv:1512.00567, Table 1, Figures 5, 6, 7, 10.");
	x = input(&n, "input", dt, SHAPE(1, 299, 299, 3));
	scope(&n, "stem");
	x = iconv(&n, x, 32, 3, 3, 2, true);
	x = iconv(&n, x, 32, 3, 3, 1, true);
	x = iconv(&n, x, 64, 3, 3, 1, false);
	x = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	x = iconv(&n, x, 80, 1, 1, 1, true);
	x = iconv(&n, x, 192, 3, 3, 1, true);
	x = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	/* 35x35: mixed0-2 (Figure 5) */
	for (int m = 0; m < 3; m++) {
		scope(&n, "mixed%d", m);
		br[0] = iconv(&n, x, 64, 1, 1, 1, false);
		br[1] = iconv(&n, iconv(&n, x, 48, 1, 1, 1, false), 64, 5, 5, 1, false);
		br[2] = iconv(&n, x, 64, 1, 1, 1, false);
		br[2] = iconv(&n, br[2], 96, 3, 3, 1, false);
		br[2] = iconv(&n, br[2], 96, 3, 3, 1, false);
		br[3] = pool(&n, x, "AVERAGE_POOL_2D", 3, 1, PAD_SAME);
		br[3] = iconv(&n, br[3], m ? 64 : 32, 1, 1, 1, false);
		x = concat(&n, 4, br, 3);
	}
	scope(&n, "mixed3");
	br[0] = iconv(&n, x, 384, 3, 3, 2, true);
	br[1] = iconv(&n, x, 64, 1, 1, 1, false);
	br[1] = iconv(&n, br[1], 96, 3, 3, 1, false);
	br[1] = iconv(&n, br[1], 96, 3, 3, 2, true);
	br[2] = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	x = concat(&n, 3, br, 3);
	/* 17x17: mixed4-7 (Figure 6, n = 7) */
	for (int m = 4; m < 8; m++) {
		int c = m == 4 ? 128 : m < 7 ? 160 : 192;

		scope(&n, "mixed%d", m);
		br[0] = iconv(&n, x, 192, 1, 1, 1, false);
		br[1] = iconv(&n, x, c, 1, 1, 1, false);
		br[1] = iconv(&n, br[1], c, 1, 7, 1, false);
		br[1] = iconv(&n, br[1], 192, 7, 1, 1, false);
		br[2] = iconv(&n, x, c, 1, 1, 1, false);
		br[2] = iconv(&n, br[2], c, 7, 1, 1, false);
		br[2] = iconv(&n, br[2], c, 1, 7, 1, false);
		br[2] = iconv(&n, br[2], c, 7, 1, 1, false);
		br[2] = iconv(&n, br[2], 192, 1, 7, 1, false);
		br[3] = pool(&n, x, "AVERAGE_POOL_2D", 3, 1, PAD_SAME);
		br[3] = iconv(&n, br[3], 192, 1, 1, 1, false);
		x = concat(&n, 4, br, 3);
	}
	scope(&n, "mixed8");
	br[0] = iconv(&n, x, 192, 1, 1, 1, false);
	br[0] = iconv(&n, br[0], 320, 3, 3, 2, true);
	br[1] = iconv(&n, x, 192, 1, 1, 1, false);
	br[1] = iconv(&n, br[1], 192, 1, 7, 1, false);
	br[1] = iconv(&n, br[1], 192, 7, 1, 1, false);
	br[1] = iconv(&n, br[1], 192, 3, 3, 2, true);
	br[2] = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	x = concat(&n, 3, br, 3);
	/* 8x8: mixed9-10 (Figure 7) */
	for (int m = 9; m < 11; m++) {
		int a, b;

		scope(&n, "mixed%d", m);
		br[0] = iconv(&n, x, 320, 1, 1, 1, false);
		br[1] = iconv(&n, x, 384, 1, 1, 1, false);
		a = iconv(&n, br[1], 384, 1, 3, 1, false);
		b = iconv(&n, br[1], 384, 3, 1, 1, false);
		br[1] = concat2(&n, a, b, 3);
		br[2] = iconv(&n, x, 448, 1, 1, 1, false);
		br[2] = iconv(&n, br[2], 384, 3, 3, 1, false);
		a = iconv(&n, br[2], 384, 1, 3, 1, false);
		b = iconv(&n, br[2], 384, 3, 1, 1, false);
		br[2] = concat2(&n, a, b, 3);
		br[3] = pool(&n, x, "AVERAGE_POOL_2D", 3, 1, PAD_SAME);
		br[3] = iconv(&n, br[3], 192, 1, 1, 1, false);
		x = concat(&n, 4, br, 3);
	}
	x = resnet_head(&n, x, 1000);
	output(&n, x);
	return finish(&n, dir);
}

/* Pre-activation batch norm + ReLU on a tensor that is not the output of a
 * conv: the converter emits MUL (scale) and ADD (shift, ReLU fused). */
static int bn_relu(struct net *n, int x)
{
	int64_t c = dim(n, x, -1);

	x = binary_const(n, x, "MUL", "bn_scale", 1, &c);
	return binary_const(n, x, "ADD", "bn_shift_relu", 1, &c);
}

/*
 * DenseNet-121, Huang et al. 2017, "Densely Connected Convolutional
 * Networks", Table 1: growth rate 32, blocks of 6/12/24/16 BN-ReLU-1x1(128)-
 * BN-ReLU-3x3(32) layers, transitions with compression 0.5.  Layout as the
 * Keras application: every layer ends in a CONCATENATION of the block so
 * far and its 32 new channels; the second BN folds into the 1x1 conv.
 */
static int densenet121(const char *dir, const char *name, enum gen_dtype dt,
		       bool scratch)
{
	static const int blocks[4] = { 6, 12, 24, 16 };
	struct net n;
	int x;

	net_init(&n, name, "Huang et al. 2017 (DenseNet), Table 1", dt, scratch);
	gen_comment(&n.g, "DenseNet-121 224x224, k = 32, 1000 classes, %s.", dname(dt));
	gen_comment(&n.g, "Source: Huang et al. 2017, arXiv:1608.06993, Table 1 (DenseNet-BC, theta = 0.5).");
	x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	x = resnet_stem(&n, x);
	for (int b = 0; b < 4; b++) {
		for (int l = 0; l < blocks[b]; l++) {
			int y;

			scope(&n, "block%d_layer%d", b + 1, l + 1);
			y = bn_relu(&n, x);
			y = conv(&n, y, 128, 1, 1, ACT_RELU);
			y = conv_full(&n, y, 32, 3, 3, 1, 1, PAD_SAME, 1, ACT_NONE, false);
			x = concat2(&n, x, y, 3);
		}
		if (b == 3)
			break;
		scope(&n, "transition%d", b + 1);
		x = bn_relu(&n, x);
		x = conv_full(&n, x, (int)dim(&n, x, 3) / 2, 1, 1, 1, 1, PAD_SAME, 1,
			      ACT_NONE, false);
		x = pool(&n, x, "AVERAGE_POOL_2D", 2, 2, PAD_VALID);
	}
	scope(&n, "final");
	x = bn_relu(&n, x);
	x = resnet_head(&n, x, 1000);
	output(&n, x);
	return finish(&n, dir);
}

/*
 * SqueezeNet 1.1 (Iandola et al. 2016, "SqueezeNet: AlexNet-level accuracy
 * with 50x fewer parameters", Table 1 for the fire modules; version 1.1 of
 * the authors' repository: 3x3/2 conv of 64, pools after conv1, fire3 and
 * fire5).  No batch norm; pools with ceil rounding (as SAME here only
 * where it equals ceil: 111->55->27->13 is exact with VALID 3/2).
 */
static int squeezenet11(const char *dir, const char *name, enum gen_dtype dt,
			bool scratch)
{
	static const int fire[8][2] = {
		{ 16, 64 }, { 16, 64 }, { 32, 128 }, { 32, 128 },
		{ 48, 192 }, { 48, 192 }, { 64, 256 }, { 64, 256 },
	};
	struct net n;
	int x;

	net_init(&n, name, "Iandola et al. 2016 (SqueezeNet), Table 1; v1.1 layout", dt, scratch);
	gen_comment(&n.g, "SqueezeNet 1.1 224x224, 1000 classes, %s.", dname(dt));
	gen_comment(&n.g, "Source: Iandola et al. 2016, arXiv:1602.07360, Table 1 (fire modules); v1.1 from");
	gen_comment(&n.g, "the authors' SqueezeNet repository (64-filter 3x3/2 conv1, earlier pooling).");
	x = input(&n, "input", dt, SHAPE(1, 224, 224, 3));
	scope(&n, "conv1");
	x = conv_v(&n, x, 64, 3, 2, ACT_RELU);
	x = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	for (int f = 0; f < 8; f++) {
		int s, a, b;

		scope(&n, "fire%d", f + 2);
		s = conv(&n, x, fire[f][0], 1, 1, ACT_RELU);
		a = conv(&n, s, fire[f][1], 1, 1, ACT_RELU);
		b = conv(&n, s, fire[f][1], 3, 1, ACT_RELU);
		x = concat2(&n, a, b, 3);
		if (f == 1 || f == 3)
			x = pool(&n, x, "MAX_POOL_2D", 3, 2, PAD_VALID);
	}
	scope(&n, "conv10");
	x = conv(&n, x, 1000, 1, 1, ACT_RELU);
	x = gpool(&n, x);
	x = reshape(&n, x, SHAPE(1, 1000));
	x = softmax(&n, x);
	output(&n, x);
	return finish(&n, dir);
}

/* Centre crop to h x w (STRIDED_SLICE with const begin/end/strides). */
static int crop(struct net *n, int x, int64_t h, int64_t w)
{
	const char *name = nm(n, "crop");
	int in[4] = { x, cnst1(n, name, "begin", GEN_I32, 4),
		      cnst1(n, name, "end", GEN_I32, 4),
		      cnst1(n, name, "strides", GEN_I32, 4) };
	int y = inter(n, name, n->act, SHAPE(1, h, w, dim(n, x, 3)));

	op(n, name, "STRIDED_SLICE", 4, in, y, -1, 0);
	return y;
}

/* 2x2 stride-2 transposed conv halving the channels. */
static int upconv(struct net *n, int x, int cout)
{
	const char *name = nm(n, "upconv");
	int in[4], y;

	in[0] = cnst1(n, name, "output_shape", GEN_I32, 4);
	in[1] = cnst(n, name, "w", n->wt, SHAPE(cout, 2, 2, dim(n, x, 3)));
	in[2] = x;
	in[3] = cnst1(n, name, "b", n->bias, cout);
	y = inter(n, name, n->act, SHAPE(1, 2 * dim(n, x, 1), 2 * dim(n, x, 2), cout));
	op(n, name, "TRANSPOSE_CONV", 4, in, y, -1, 0);
	return y;
}

/*
 * U-Net, Ronneberger et al. 2015, "U-Net: Convolutional Networks for
 * Biomedical Image Segmentation", Figure 1: 572x572x1 input, unpadded 3x3
 * convs, 2x2 max pools, 2x2 up-convs, cropped skip connections, 388x388x2
 * output.  No batch norm (as in the paper).
 */
static int unet(const char *dir, const char *name, enum gen_dtype dt,
		bool scratch)
{
	struct net n;
	int x, skip[4];

	net_init(&n, name, "Ronneberger et al. 2015 (U-Net), Figure 1", dt, scratch);
	gen_comment(&n.g, "U-Net 572x572x1 -> 388x388x2 (valid convolutions, cropped skips), %s.", dname(dt));
	gen_comment(&n.g, "Source: Ronneberger et al. 2015, arXiv:1505.04597, Figure 1.");
	x = input(&n, "input", dt, SHAPE(1, 572, 572, 1));
	for (int l = 0; l < 4; l++) {
		scope(&n, "down%d", l + 1);
		x = conv_v(&n, x, 64 << l, 3, 1, ACT_RELU);
		x = conv_v(&n, x, 64 << l, 3, 1, ACT_RELU);
		skip[l] = x;
		x = pool(&n, x, "MAX_POOL_2D", 2, 2, PAD_VALID);
	}
	scope(&n, "bottom");
	x = conv_v(&n, x, 1024, 3, 1, ACT_RELU);
	x = conv_v(&n, x, 1024, 3, 1, ACT_RELU);
	for (int l = 3; l >= 0; l--) {
		int c;

		scope(&n, "up%d", l + 1);
		x = upconv(&n, x, 64 << l);
		c = crop(&n, skip[l], dim(&n, x, 1), dim(&n, x, 2));
		x = concat2(&n, c, x, 3);
		x = conv_v(&n, x, 64 << l, 3, 1, ACT_RELU);
		x = conv_v(&n, x, 64 << l, 3, 1, ACT_RELU);
	}
	scope(&n, "out");
	x = conv_v(&n, x, 2, 1, 1, ACT_NONE);
	output(&n, x);
	return finish(&n, dir);
}

/* ----------------------------------------------------------- transformers */

static int transpose(struct net *n, int x, const int *perm)
{
	const char *name = nm(n, "transpose");
	int r = rank(n, x), in[2] = { x, cnst1(n, name, "perm", GEN_I32, r) };
	int64_t od[GEN_MAX_RANK];
	int y;

	for (int i = 0; i < r; i++)
		od[i] = dim(n, x, perm[i]);
	y = inter(n, name, T(n, x)->dtype, r, od);
	op(n, name, "TRANSPOSE", 2, in, y, -1, 0);
	return y;
}

/* BATCH_MATMUL a[..., M, K] x b[..., K, N] (adj_y: b is [..., N, K]). */
static int bmm(struct net *n, int a, int b, bool adj_y)
{
	const char *name = nm(n, adj_y ? "matmul_adjy" : "matmul");
	int r = rank(n, a), in[2] = { a, b };
	int64_t od[GEN_MAX_RANK];
	int y;

	memcpy(od, T(n, a)->dims, sizeof(int64_t) * (size_t)r);
	od[r - 1] = adj_y ? dim(n, b, -2) : dim(n, b, -1);
	y = inter(n, name, n->act, r, od);
	op(n, name, "BATCH_MATMUL", 2, in, y, -1, 0);
	return y;
}

static int gather(struct net *n, int table, int idx)
{
	const char *name = nm(n, "gather");
	int ri = rank(n, idx), in[2] = { table, idx };
	int64_t od[GEN_MAX_RANK];
	int y;

	memcpy(od, T(n, idx)->dims, sizeof(int64_t) * (size_t)ri);
	od[ri] = dim(n, table, 1);
	y = inter(n, name, T(n, table)->dtype, ri + 1, od);
	op(n, name, "GATHER", 2, in, y, -1, 0);
	return y;
}

/* Mean over the last axis, keeping it as 1. */
static int mean_last(struct net *n, int x)
{
	const char *name = nm(n, "mean");
	int r = rank(n, x), in[2] = { x, cnst1(n, name, "axes", GEN_I32, 1) };
	int64_t od[GEN_MAX_RANK];
	int y;

	memcpy(od, T(n, x)->dims, sizeof(int64_t) * (size_t)r);
	od[r - 1] = 1;
	y = inter(n, name, n->act, r, od);
	op(n, name, "MEAN", 2, in, y, -1, 0);
	return y;
}

/*
 * Layer normalization as the TFLite converter lowers it (no fused op):
 * MEAN, SQUARED_DIFFERENCE, MEAN, ADD eps, RSQRT, MUL gamma, MUL x,
 * MUL mean, SUB from beta, ADD.
 */
static int layer_norm(struct net *n, int x)
{
	int64_t h = dim(n, x, -1);
	const char *name = nm(n, "ln");
	int gamma = cnst1(n, name, "gamma", n->act, h);
	int beta = cnst1(n, name, "beta", n->act, h);
	int mu = mean_last(n, x);
	int var = mean_last(n, binary(n, x, mu, "SQUARED_DIFFERENCE", "sqdiff"));
	int r = unary(n, scalar_op(n, var, "ADD", "add_eps"), "RSQRT", "rsqrt", GEN_OP_ELEMENTWISE);
	int g = mul(n, r, gamma);
	int xg = mul(n, x, g);
	int mg = mul(n, mu, g);

	return add(n, xg, binary(n, beta, mg, "SUB", "sub"));
}

/* [1, S, H] -> [1, heads, S, H/heads] (RESHAPE + TRANSPOSE). */
static int split_heads(struct net *n, int x, int heads)
{
	static const int perm[4] = { 0, 2, 1, 3 };
	int64_t s = dim(n, x, 1), h = dim(n, x, 2);

	x = reshape(n, x, SHAPE(1, s, heads, h / heads));
	return transpose(n, x, perm);
}

static int merge_heads(struct net *n, int x)
{
	static const int perm[4] = { 0, 2, 1, 3 };
	int64_t hd = dim(n, x, 1), s = dim(n, x, 2), d = dim(n, x, 3);

	x = transpose(n, x, perm);
	return reshape(n, x, SHAPE(1, s, hd * d));
}

/* softmax(q k^T / sqrt(d) + mask) v on [1, heads, S, d] tensors. */
static int attention(struct net *n, int q, int k, int v, int mask)
{
	int s = bmm(n, q, k, true);

	s = scalar_op(n, s, "MUL", "scale");
	if (mask >= 0)
		s = add(n, s, mask);
	s = softmax(n, s);
	return bmm(n, s, v, false);
}

/* Post-LN encoder layer (BERT) or pre-LN block (ViT), separate Q/K/V. */
static int encoder_layer(struct net *n, int x, int heads, int64_t ff,
			 int mask, bool pre_ln)
{
	int64_t h = dim(n, x, -1);
	int a = pre_ln ? layer_norm(n, x) : x, q, k, v, y;

	q = split_heads(n, fc(n, a, h, ACT_NONE), heads);
	k = split_heads(n, fc(n, a, h, ACT_NONE), heads);
	v = split_heads(n, fc(n, a, h, ACT_NONE), heads);
	y = fc(n, merge_heads(n, attention(n, q, k, v, mask)), h, ACT_NONE);
	x = add(n, y, x);
	if (!pre_ln)
		x = layer_norm(n, x);
	a = pre_ln ? layer_norm(n, x) : x;
	y = unary(n, fc(n, a, ff, ACT_NONE), "GELU", "gelu", GEN_OP_ELEMENTWISE);
	y = fc(n, y, h, ACT_NONE);
	x = add(n, y, x);
	if (!pre_ln)
		x = layer_norm(n, x);
	return x;
}

/*
 * BERT-base, Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional
 * Transformers for Language Understanding", Section 3 (L = 12, H = 768,
 * A = 12, 110M parameters), sequence length 128; WordPiece vocabulary 30522,
 * 512 positions, 2 segments; feed-forward 4H; pooler on [CLS].
 */
static int bert_base(const char *dir, const char *name, int seq)
{
	const int64_t H = 768;
	struct net n;
	int ids, segs, maskin, x, mask, pooled, first;

	net_init(&n, name, "Devlin et al. 2019 (BERT), Sec. 3: BERT-base L=12 H=768 A=12", GEN_F32, false);
	gen_comment(&n.g, "BERT-base encoder, batch 1, sequence %d, f32, with pooler.", seq);
	gen_comment(&n.g, "Source: Devlin et al. 2019, arXiv:1810.04805, Sec. 3 (BERT-base, 110M parameters).");
	gen_comment(&n.g, "Layer norm lowered to 10 elementwise/reduction ops, GELU as one op.");
	ids = input(&n, "input_ids", GEN_I32, SHAPE(1, seq));
	segs = input(&n, "segment_ids", GEN_I32, SHAPE(1, seq));
	maskin = input(&n, "input_mask", GEN_I32, SHAPE(1, seq));
	scope(&n, "embeddings");
	{
		int we = tens(&n, "embeddings.word", GEN_CONST, GEN_F32, SHAPE(30522, H));
		int pe = tens(&n, "embeddings.position", GEN_CONST, GEN_F32, SHAPE(512, H));
		int te = tens(&n, "embeddings.token_type", GEN_CONST, GEN_F32, SHAPE(2, H));
		int pos = tens(&n, "embeddings.position_ids", GEN_CONST, GEN_I32, SHAPE(1, seq));

		x = add(&n, gather(&n, we, ids), gather(&n, te, segs));
		x = add(&n, x, gather(&n, pe, pos));
		x = layer_norm(&n, x);
	}
	scope(&n, "mask");
	{
		const char *cn = nm(&n, "cast");
		int m = inter(&n, cn, GEN_F32, SHAPE(1, seq));

		op(&n, cn, "CAST", 1, &maskin, m, -1, 0);
		m = reshape(&n, m, SHAPE(1, 1, 1, seq));
		m = scalar_op(&n, m, "SUB", "one_minus");
		mask = scalar_op(&n, m, "MUL", "neg_inf");
	}
	for (int l = 0; l < 12; l++) {
		scope(&n, "layer%d", l);
		x = encoder_layer(&n, x, 12, 4 * H, mask, false);
	}
	scope(&n, "pooler");
	{
		const char *sn = nm(&n, "cls");
		int in[4] = { x, cnst1(&n, sn, "begin", GEN_I32, 3),
			      cnst1(&n, sn, "end", GEN_I32, 3),
			      cnst1(&n, sn, "strides", GEN_I32, 3) };

		first = inter(&n, sn, GEN_F32, SHAPE(1, H));
		op(&n, sn, "STRIDED_SLICE", 4, in, first, -1, 0);
		pooled = fc(&n, first, H, ACT_TANH);
	}
	output(&n, x);
	output(&n, pooled);
	return finish(&n, dir);
}

/*
 * ViT-B/16, Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words",
 * Table 1 (ViT-Base: 12 layers, hidden 768, MLP 3072, 12 heads, 86M), at
 * 224x224 (196 patches + class token), pre-LN, 1000-class head.
 */
static int vit_b16(const char *dir, const char *name)
{
	const int64_t H = 768;
	struct net n;
	int x;

	net_init(&n, name, "Dosovitskiy et al. 2021 (ViT), Table 1: ViT-Base/16", GEN_F32, false);
	gen_comment(&n.g, "ViT-B/16 224x224, 197 tokens, 1000 classes, f32.");
	gen_comment(&n.g, "Source: Dosovitskiy et al. 2021, arXiv:2010.11929, Table 1 (ViT-Base, 86M parameters).");
	x = input(&n, "input", GEN_F32, SHAPE(1, 224, 224, 3));
	scope(&n, "embed");
	x = conv_full(&n, x, (int)H, 16, 16, 16, 16, PAD_VALID, 1, ACT_NONE, true);
	x = reshape(&n, x, SHAPE(1, 196, H));
	x = concat2(&n, tens(&n, "embed.cls_token", GEN_CONST, GEN_F32, SHAPE(1, 1, H)), x, 1);
	x = add(&n, x, tens(&n, "embed.position", GEN_CONST, GEN_F32, SHAPE(1, 197, H)));
	for (int l = 0; l < 12; l++) {
		scope(&n, "layer%d", l);
		x = encoder_layer(&n, x, 12, 4 * H, -1, true);
	}
	scope(&n, "head");
	x = layer_norm(&n, x);
	{
		const char *sn = nm(&n, "cls");
		int in[4] = { x, cnst1(&n, sn, "begin", GEN_I32, 3),
			      cnst1(&n, sn, "end", GEN_I32, 3),
			      cnst1(&n, sn, "strides", GEN_I32, 3) };
		int y = inter(&n, sn, GEN_F32, SHAPE(1, H));

		op(&n, sn, "STRIDED_SLICE", 4, in, y, -1, 0);
		x = y;
	}
	x = fc(&n, x, 1000, ACT_NONE);
	output(&n, x);
	return finish(&n, dir);
}

/* Writes k or v ([1, heads, S, d]) into a var cache at the current
 * position: an in-place update of persistent state. */
static void cache_update(struct net *n, int cache, int kv, int pos)
{
	const char *name = nm(n, "cache_update");
	int in[3] = { cache, kv, pos };

	gen_op(&n->g, name, "KV_CACHE_UPDATE", pos >= 0 ? 3 : 2, in, 0, NULL,
	       0, NULL, GEN_OP_SIDE_EFFECT);
}

/*
 * GPT-2 small, Radford et al. 2019, "Language Models are Unsupervised
 * Multitask Learners", Table 2 (smallest model: 12 layers, d_model 768;
 * the table's 117M is the commonly noted miscount of the released model's
 * 124M parameters), vocabulary 50257, context 1024, 12 heads, pre-LN,
 * tied output embedding.  prefill: 128 tokens, logits for every position,
 * K and V written to the cache.  decode: one token at position `pos`
 * (an input) attending over the whole 1024-entry cache with a mask.  The
 * KV cache is one `var` tensor per layer and per K/V ([1, 12, 1024, 64]).
 */
static int gpt2_small(const char *dir, const char *name, bool decode)
{
	const int64_t H = 768, HEADS = 12, CTX = 1024, V = 50257;
	int64_t S = decode ? 1 : 128;
	struct net n;
	int ids, pos = -1, x, wte, wpe, mask, kc[12], vc[12];

	net_init(&n, name, "Radford et al. 2019 (GPT-2), Table 2: smallest model", GEN_F32, false);
	gen_comment(&n.g, "GPT-2 small (124M), f32, %s.", decode ?
		    "one decode step over a 1024-entry KV cache" :
		    "prefill of 128 tokens writing the KV cache");
	gen_comment(&n.g, "Source: Radford et al. 2019, Table 2 (12 layers, d_model 768); vocabulary 50257,");
	gen_comment(&n.g, "context 1024, 12 heads, tied input/output embedding as in the released model.");
	gen_comment(&n.g, "KV cache: one var tensor per layer for K and one for V, [1,12,1024,64] f32.");
	ids = input(&n, "input_ids", GEN_I32, SHAPE(1, S));
	if (decode)
		pos = input(&n, "position", GEN_I32, SHAPE(1, 1));
	for (int l = 0; l < 12; l++) {
		kc[l] = tens(&n, gen_fmt("cache.k%d", l), GEN_VAR, GEN_F32, SHAPE(1, HEADS, CTX, H / HEADS));
		vc[l] = tens(&n, gen_fmt("cache.v%d", l), GEN_VAR, GEN_F32, SHAPE(1, HEADS, CTX, H / HEADS));
	}
	scope(&n, "embed");
	wte = tens(&n, "embed.wte", GEN_CONST, GEN_F32, SHAPE(V, H));
	wpe = tens(&n, "embed.wpe", GEN_CONST, GEN_F32, SHAPE(CTX, H));
	if (decode) {
		const char *gn = nm(&n, "greater");
		int in[2] = { tens(&n, "mask.range", GEN_CONST, GEN_I32, SHAPE(1, 1, 1, CTX)), pos };
		int m = inter(&n, gn, GEN_BOOL, SHAPE(1, 1, 1, CTX));
		const char *cn;

		x = add(&n, gather(&n, wte, ids), gather(&n, wpe, pos));
		op(&n, gn, "GREATER", 2, in, m, -1, 0);
		cn = nm(&n, "cast");
		in[0] = m;
		m = inter(&n, cn, GEN_F32, SHAPE(1, 1, 1, CTX));
		op(&n, cn, "CAST", 1, in, m, -1, 0);
		mask = scalar_op(&n, m, "MUL", "neg_inf");
	} else {
		int p = tens(&n, "embed.position_ids", GEN_CONST, GEN_I32, SHAPE(1, S));

		x = add(&n, gather(&n, wte, ids), gather(&n, wpe, p));
		mask = tens(&n, "mask.causal", GEN_CONST, GEN_F32, SHAPE(1, 1, S, S));
	}
	for (int l = 0; l < 12; l++) {
		int a, q, k, v, y, outs[3];
		const char *sn;

		scope(&n, "layer%d", l);
		a = fc(&n, layer_norm(&n, x), 3 * H, ACT_NONE);
		sn = nm(&n, "split");
		for (int i = 0; i < 3; i++)
			outs[i] = inter(&n, gen_fmt("%s.%c", sn, "qkv"[i]), GEN_F32, SHAPE(1, S, H));
		{
			int in[2] = { cnst(&n, sn, "axis", GEN_I32, 0, NULL), a };

			gen_op(&n.g, sn, "SPLIT", 2, in, 3, outs, 0, NULL, 0);
		}
		q = split_heads(&n, outs[0], (int)HEADS);
		k = split_heads(&n, outs[1], (int)HEADS);
		v = split_heads(&n, outs[2], (int)HEADS);
		cache_update(&n, kc[l], k, pos);
		cache_update(&n, vc[l], v, pos);
		y = decode ? attention(&n, q, kc[l], vc[l], mask)
			   : attention(&n, q, k, v, mask);
		y = fc(&n, merge_heads(&n, y), H, ACT_NONE);
		x = add(&n, y, x);
		y = fc(&n, layer_norm(&n, x), 4 * H, ACT_NONE);
		y = unary(&n, y, "GELU", "gelu", GEN_OP_ELEMENTWISE);
		y = fc(&n, y, H, ACT_NONE);
		x = add(&n, y, x);
	}
	scope(&n, "lm_head");
	x = fc_full(&n, layer_norm(&n, x), V, ACT_NONE, wte, false);
	output(&n, x);
	return finish(&n, dir);
}

/* ------------------------------------------------------------ MLPerf Tiny */

/*
 * Keyword spotting DS-CNN, MLPerf Tiny (Banbury et al. 2021, "MLPerf Tiny
 * Benchmark", Table 1: KWS, DS-CNN, Speech Commands v2, 12 classes), the
 * DS-CNN of Zhang et al. 2017 ("Hello Edge"): 49x10 MFCC input, 10x4/2 conv
 * of 64, four depthwise-separable 3x3 layers of 64, average pool, FC 12.
 */
static int ds_cnn_kws(const char *dir, const char *name, enum gen_dtype dt)
{
	struct net n;
	int x;

	net_init(&n, name, "Banbury et al. 2021 (MLPerf Tiny) Table 1 KWS; Zhang et al. 2017 DS-CNN", dt, false);
	gen_comment(&n.g, "MLPerf Tiny keyword spotting DS-CNN, 49x10x1 MFCC, 12 classes, %s.", dname(dt));
	gen_comment(&n.g, "Source: Banbury et al. 2021, arXiv:2106.07597, Table 1; Zhang et al. 2017,");
	gen_comment(&n.g, "arXiv:1711.07128 (DS-CNN); layer sizes of the MLPerf Tiny reference model.");
	x = input(&n, "input", dt, SHAPE(1, 49, 10, 1));
	scope(&n, "conv1");
	x = conv_full(&n, x, 64, 10, 4, 2, 2, PAD_SAME, 1, ACT_RELU, true);
	for (int i = 0; i < 4; i++) {
		scope(&n, "ds%d", i + 1);
		x = dwconv(&n, x, 3, 1, ACT_RELU);
		x = conv(&n, x, 64, 1, 1, ACT_RELU);
	}
	scope(&n, "head");
	x = gpool(&n, x);
	x = flatten(&n, x);
	x = fc(&n, x, 12, ACT_NONE);
	x = softmax(&n, x);
	output(&n, x);
	return finish(&n, dir);
}

/*
 * Image classification ResNet-8, MLPerf Tiny (Banbury et al. 2021, Table 1:
 * IC, ResNet-8, CIFAR-10): 3x3 conv of 16, three residual stacks of 16, 32,
 * 64 filters (stride 2 with a 1x1 projection in the last two), average pool,
 * FC 10.
 */
static int resnet8(const char *dir, const char *name, enum gen_dtype dt)
{
	struct net n;
	int x;

	net_init(&n, name, "Banbury et al. 2021 (MLPerf Tiny) Table 1 IC: ResNet-8", dt, false);
	gen_comment(&n.g, "MLPerf Tiny image classification ResNet-8, CIFAR-10 32x32x3, 10 classes, %s.", dname(dt));
	gen_comment(&n.g, "Source: Banbury et al. 2021, arXiv:2106.07597, Table 1 and the reference model.");
	x = input(&n, "input", dt, SHAPE(1, 32, 32, 3));
	scope(&n, "conv1");
	x = conv(&n, x, 16, 3, 1, ACT_RELU);
	for (int st = 0; st < 3; st++) {
		int f = 16 << st, s = st ? 2 : 1, y, sc = x;

		scope(&n, "stack%d", st + 1);
		y = conv(&n, x, f, 3, s, ACT_RELU);
		y = conv(&n, y, f, 3, 1, ACT_NONE);
		if (st)
			sc = conv(&n, x, f, 1, s, ACT_NONE);
		x = binary(&n, y, sc, "ADD", "add_relu");
	}
	scope(&n, "head");
	x = gpool(&n, x);
	x = flatten(&n, x);
	x = fc(&n, x, 10, ACT_NONE);
	x = softmax(&n, x);
	output(&n, x);
	return finish(&n, dir);
}

/*
 * Anomaly detection FC autoencoder, MLPerf Tiny (Banbury et al. 2021,
 * Table 1: AD, FC-AutoEncoder, ToyADMOS): 640 inputs (5 frames x 128 mel
 * bins), four FC 128, bottleneck FC 8, four FC 128, FC 640; BN folded,
 * ReLU fused.
 */
static int fc_autoencoder(const char *dir, const char *name, enum gen_dtype dt)
{
	struct net n;
	int x;

	net_init(&n, name, "Banbury et al. 2021 (MLPerf Tiny) Table 1 AD: FC-AutoEncoder", dt, false);
	gen_comment(&n.g, "MLPerf Tiny anomaly detection FC autoencoder, 640 -> 8 -> 640, %s.", dname(dt));
	gen_comment(&n.g, "Source: Banbury et al. 2021, arXiv:2106.07597, Table 1 and the reference model.");
	x = input(&n, "input", dt, SHAPE(1, 640));
	scope(&n, "encoder");
	for (int i = 0; i < 4; i++)
		x = fc(&n, x, 128, ACT_RELU);
	x = fc(&n, x, 8, ACT_RELU);
	scope(&n, "decoder");
	for (int i = 0; i < 4; i++)
		x = fc(&n, x, 128, ACT_RELU);
	x = fc(&n, x, 640, ACT_NONE);
	output(&n, x);
	return finish(&n, dir);
}

/* ------------------------------------------------------------------ main */

struct entry {
	const char *name;
	int (*fn)(const char *dir, const char *name, enum gen_dtype dt,
		  bool scratch, const char *arg);
	enum gen_dtype dt;
	const char *arg;
};

#define GLUE(fname, call) \
	static int fname(const char *dir, const char *name, enum gen_dtype dt, \
			 bool scratch, const char *arg) \
	{ (void)arg; (void)scratch; (void)dt; return call; }

GLUE(z_mnv1_100_224, mobilenet_v1(dir, name, 100, 224, 3, 1001, dt, false, scratch, NULL, NULL))
GLUE(z_mnv1_025_128, mobilenet_v1(dir, name, 25, 128, 3, 1001, dt, false, scratch, NULL, NULL))
GLUE(z_vww, mobilenet_v1(dir, name, 25, 96, 3, 2, dt, false, scratch,
	"MLPerf Tiny visual wake words (Banbury et al. 2021, Table 1: VWW, MobileNetV1 0.25, 96x96).",
	"Banbury et al. 2021 (MLPerf Tiny) Table 1 VWW; Howard et al. 2017 Table 1"))
GLUE(z_person, mobilenet_v1(dir, name, 25, 96, 1, 2, dt, true, scratch,
	"TFLite Micro person detection: 96x96 greyscale, first layer depthwise x8 on 1 channel.",
	"TFLite Micro person detection example; Howard et al. 2017 Table 1"))
GLUE(z_mnv2, mobilenet_v2(dir, name, dt, false, scratch))
GLUE(z_mnv2_tf2, mobilenet_v2(dir, name, dt, true, scratch))
GLUE(z_mnv3_large, mobilenet_v3(dir, name, true, dt, scratch))
GLUE(z_mnv3_small, mobilenet_v3(dir, name, false, dt, scratch))
GLUE(z_resnet18, resnet(dir, name, 18, dt, scratch))
GLUE(z_resnet50, resnet(dir, name, 50, dt, scratch))
GLUE(z_inception_v3, inception_v3(dir, name, dt, scratch))
GLUE(z_densenet121, densenet121(dir, name, dt, scratch))
GLUE(z_efficientnet_b0, efficientnet_b0(dir, name, dt, scratch))
GLUE(z_squeezenet, squeezenet11(dir, name, dt, scratch))
GLUE(z_unet, unet(dir, name, dt, scratch))
GLUE(z_deeplab, deeplab_v3(dir, name, dt, scratch))
GLUE(z_ssd, ssd_mobilenet_v2(dir, name, dt, scratch))
GLUE(z_bert, bert_base(dir, name, 128))
GLUE(z_vit, vit_b16(dir, name))
GLUE(z_gpt2_prefill, gpt2_small(dir, name, false))
GLUE(z_gpt2_decode, gpt2_small(dir, name, true))
GLUE(z_kws, ds_cnn_kws(dir, name, dt))
GLUE(z_resnet8, resnet8(dir, name, dt))
GLUE(z_ae, fc_autoencoder(dir, name, dt))

static const struct entry zoo[] = {
	{ "mobilenet_v1_1.0_224_f32", z_mnv1_100_224, GEN_F32, NULL },
	{ "mobilenet_v1_1.0_224_i8", z_mnv1_100_224, GEN_I8, NULL },
	{ "mobilenet_v1_0.25_128_f32", z_mnv1_025_128, GEN_F32, NULL },
	{ "mobilenet_v1_0.25_128_u8", z_mnv1_025_128, GEN_U8, NULL },
	{ "mobilenet_v1_0.25_128_i8", z_mnv1_025_128, GEN_I8, NULL },
	{ "mobilenet_v2_1.0_224_f32", z_mnv2, GEN_F32, NULL },
	{ "mobilenet_v2_1.0_224_u8", z_mnv2, GEN_U8, NULL },
	{ "mobilenet_v2_1.0_224_i8", z_mnv2_tf2, GEN_I8, NULL },
	{ "mobilenet_v3_large_224_f32", z_mnv3_large, GEN_F32, NULL },
	{ "mobilenet_v3_large_224_i8", z_mnv3_large, GEN_I8, NULL },
	{ "mobilenet_v3_small_224_f32", z_mnv3_small, GEN_F32, NULL },
	{ "mobilenet_v3_small_224_i8", z_mnv3_small, GEN_I8, NULL },
	{ "resnet18_f32", z_resnet18, GEN_F32, NULL },
	{ "resnet50_f32", z_resnet50, GEN_F32, NULL },
	{ "inception_v3_f32", z_inception_v3, GEN_F32, NULL },
	{ "densenet121_f32", z_densenet121, GEN_F32, NULL },
	{ "efficientnet_b0_f32", z_efficientnet_b0, GEN_F32, NULL },
	{ "squeezenet1.1_f32", z_squeezenet, GEN_F32, NULL },
	{ "unet_f32", z_unet, GEN_F32, NULL },
	{ "deeplabv3_mnv2_513_f32", z_deeplab, GEN_F32, NULL },
	{ "deeplabv3_mnv2_513_u8", z_deeplab, GEN_U8, NULL },
	{ "ssd_mobilenet_v2_300_f32", z_ssd, GEN_F32, NULL },
	{ "bert_base_seq128_f32", z_bert, GEN_F32, NULL },
	{ "vit_b16_f32", z_vit, GEN_F32, NULL },
	{ "gpt2_small_prefill128_f32", z_gpt2_prefill, GEN_F32, NULL },
	{ "gpt2_small_decode_f32", z_gpt2_decode, GEN_F32, NULL },
	{ "tiny_kws_dscnn_f32", z_kws, GEN_F32, NULL },
	{ "tiny_kws_dscnn_i8", z_kws, GEN_I8, NULL },
	{ "tiny_vww_mobilenet_v1_0.25_96_f32", z_vww, GEN_F32, NULL },
	{ "tiny_vww_mobilenet_v1_0.25_96_i8", z_vww, GEN_I8, NULL },
	{ "tiny_ic_resnet8_f32", z_resnet8, GEN_F32, NULL },
	{ "tiny_ic_resnet8_i8", z_resnet8, GEN_I8, NULL },
	{ "tiny_ad_fc_autoencoder_f32", z_ae, GEN_F32, NULL },
	{ "tiny_ad_fc_autoencoder_i8", z_ae, GEN_I8, NULL },
	{ "person_detection_i8", z_person, GEN_I8, NULL },
};

/* Scratch variants always written (the im2col workspace study). */
static const char *const scratch_default[] = {
	"mobilenet_v1_1.0_224_f32", "resnet18_f32", "inception_v3_f32",
	"squeezenet1.1_f32",
};

static void usage(void)
{
	fprintf(stderr, "usage: zoo [--scratch] [--only NAME] [--list] OUTDIR\n");
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *only = NULL;
	bool all_scratch = false, list = false;
	size_t nz = sizeof(zoo) / sizeof(zoo[0]);
	int rc = 0, written = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--scratch"))
			all_scratch = true;
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (argv[i][0] == '-') {
			usage();
			return 2;
		} else
			dir = argv[i];
	}
	if (list) {
		for (size_t i = 0; i < nz; i++)
			printf("%s\n", zoo[i].name);
		return 0;
	}
	if (!dir) {
		usage();
		return 2;
	}
	if (gen_mkdirs(dir)) {
		fprintf(stderr, "zoo: cannot create %s\n", dir);
		return 1;
	}
	for (size_t i = 0; i < nz && !rc; i++) {
		const struct entry *e = &zoo[i];
		bool want_scratch = all_scratch;
		char sname[256];

		for (size_t k = 0; k < sizeof(scratch_default) / sizeof(*scratch_default); k++)
			if (!strcmp(e->name, scratch_default[k]))
				want_scratch = true;
		want_scratch = want_scratch && is_float(e->dt) &&
			       e->fn != z_bert && e->fn != z_gpt2_prefill &&
			       e->fn != z_gpt2_decode && e->fn != z_ae;
		snprintf(sname, sizeof(sname), "%s_scratch", e->name);
		if (!only || !strcmp(only, e->name)) {
			rc = e->fn(dir, e->name, e->dt, false, e->arg);
			written++;
		}
		if (!rc && want_scratch && (!only || !strcmp(only, sname))) {
			rc = e->fn(dir, sname, e->dt, true, e->arg);
			written++;
		}
	}
	if (!rc && only && !written) {
		fprintf(stderr, "zoo: no graph named '%s' (see --list)\n", only);
		return 2;
	}
	return rc ? 1 : 0;
}
