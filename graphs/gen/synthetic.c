/*
 * synthetic: parameterized graph families for the corpus (graphs/synthetic/).
 *
 *   build/gen/synthetic --family F [--seed S] [--param k=v ...] [--name N] OUTDIR
 *   build/gen/synthetic --corpus OUTDIR      the committed default set
 *   build/gen/synthetic --list               families, parameters, defaults
 *
 * The same family, parameters and seed give the same file byte for byte.
 * The seed drives every random choice (widths, lengths, sizes, wiring); the
 * parameters fix the structure.  Families and parameters are documented in
 * graphs/README.md and by --list.
 */
#include "gen.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ parameters */

struct param {
	const char *key, *def, *help;
};

#define MAX_PARAMS 16

struct family {
	const char *name, *about;
	struct param params[MAX_PARAMS];
	int (*build)(struct gen_graph *g, struct gen_rng *r);
};

static const struct family *cur_family;
static const char *set_key[64], *set_val[64];
static int n_set;

static const char *pstr(const char *key)
{
	for (int i = n_set - 1; i >= 0; i--)
		if (!strcmp(set_key[i], key))
			return set_val[i];
	for (int i = 0; i < MAX_PARAMS && cur_family->params[i].key; i++)
		if (!strcmp(cur_family->params[i].key, key))
			return cur_family->params[i].def;
	fprintf(stderr, "synthetic: internal: no parameter '%s'\n", key);
	abort();
}

static int64_t pint(const char *key)
{
	return strtoll(pstr(key), NULL, 0);
}

static double pdbl(const char *key)
{
	return strtod(pstr(key), NULL);
}

/* ----------------------------------------------------------------- shapes */

static int64_t round8(double v)
{
	int64_t r = (int64_t)(v / 8.0 + 0.5) * 8;

	return r < 8 ? 8 : r;
}

/* A width perturbed by the seed: w * U(1 - j, 1 + j), multiple of 8. */
static int64_t jit(struct gen_rng *r, int64_t w)
{
	double j = pdbl("jitter");

	return round8((double)w * (1.0 - j + 2.0 * j * gen_rng_unit(r)));
}

static int seq;

static int act(struct gen_graph *g, int64_t h, int64_t w, int64_t c)
{
	int64_t d[4] = { 1, h, w, c };

	return gen_tensor(g, gen_fmt("t%d", seq++), GEN_INTERMEDIATE, GEN_F32,
			  4, d);
}

static int tensor_like(struct gen_graph *g, int x, enum gen_kind k)
{
	const struct gen_tensor *t = &g->t[x];

	if (t->dtype == GEN_BYTES)
		return gen_tensor_bytes(g, gen_fmt("t%d", seq++), k, t->bytes);
	return gen_tensor(g, gen_fmt("t%d", seq++), k, t->dtype, t->rank,
			  t->dims);
}

static int64_t H(struct gen_graph *g, int x, int i)
{
	return g->t[x].dims[i];
}

static void op1(struct gen_graph *g, const char *type, int n_in,
		const int *in, int out, unsigned flags)
{
	gen_op(g, gen_fmt("op%zu_%s", g->n_op, type), type, n_in, in,
	       out >= 0 ? 1 : 0, &out, 0, NULL, flags);
}

/* conv-like op: NHWC in -> [1, h/s, w/s, c]. */
static int conv(struct gen_graph *g, int x, int64_t c, int s)
{
	int y = act(g, (H(g, x, 1) + s - 1) / s, (H(g, x, 2) + s - 1) / s, c);

	op1(g, "CONV_2D", 1, &x, y, 0);
	return y;
}

static int add(struct gen_graph *g, int a, int b)
{
	int in[2] = { a, b }, y = tensor_like(g, a, GEN_INTERMEDIATE);

	op1(g, "ADD", 2, in, y, GEN_OP_ELEMENTWISE);
	return y;
}

static int head(struct gen_graph *g, int x, int64_t classes)
{
	int64_t d[2] = { 1, H(g, x, 3) };
	int m = gen_tensor(g, gen_fmt("t%d", seq++), GEN_INTERMEDIATE, GEN_F32, 2, d);
	int y;

	op1(g, "MEAN", 1, &x, m, 0);
	d[1] = classes;
	y = gen_tensor(g, gen_fmt("t%d", seq++), GEN_OUTPUT, GEN_F32, 2, d);
	op1(g, "FULLY_CONNECTED", 1, &m, y, 0);
	return y;
}

static int image_input(struct gen_graph *g, int64_t res, int64_t c)
{
	int64_t d[4] = { 1, res, res, c };

	return gen_tensor(g, "input", GEN_INPUT, GEN_F32, 4, d);
}

/* Draws a buffer size from the family's `dist` between min and max. */
static uint64_t draw_size(struct gen_rng *r)
{
	uint64_t lo = (uint64_t)pint("min"), hi = (uint64_t)pint("max");
	const char *d = pstr("dist");

	if (!strcmp(d, "uniform"))
		return (uint64_t)gen_rng_range(r, (int64_t)lo, (int64_t)hi);
	if (!strcmp(d, "bimodal")) /* 90% near min, 10% near max */
		return gen_rng_unit(r) < 0.9 ?
		       gen_rng_log_uniform(r, lo, lo * 4 < hi ? lo * 4 : hi) :
		       gen_rng_log_uniform(r, hi / 4 > lo ? hi / 4 : lo, hi);
	if (!strcmp(d, "pow2")) {
		uint64_t v = gen_rng_log_uniform(r, lo, hi), p = 1;

		while (p * 2 <= v)
			p *= 2;
		return p < lo ? lo : p;
	}
	return gen_rng_log_uniform(r, lo, hi);
}

/* --------------------------------------------------------------- families */

static int f_chain(struct gen_graph *g, struct gen_rng *r)
{
	int64_t n = pint("n");
	int x = gen_tensor_bytes(g, "input", GEN_INPUT, draw_size(r));

	for (int64_t i = 0; i < n; i++) {
		int y = gen_tensor_bytes(g, gen_fmt("t%d", seq++),
					 i == n - 1 ? GEN_OUTPUT : GEN_INTERMEDIATE,
					 draw_size(r));

		op1(g, "OP", 1, &x, y, 0);
		x = y;
	}
	return 0;
}

static int f_residual(struct gen_graph *g, struct gen_rng *r)
{
	int64_t res = pint("res"), c = jit(r, pint("channels"));
	int x = conv(g, image_input(g, res, 3), c, 1);

	for (int64_t s = 0; s < pint("stages"); s++) {
		int64_t cs = jit(r, pint("channels") << s);

		for (int64_t b = 0; b < pint("blocks"); b++) {
			int st = (b == 0 && s > 0) ? 2 : 1;
			int sc = x, y;

			if (st != 1 || H(g, x, 3) != cs)
				sc = conv(g, x, cs, st);
			y = conv(g, x, cs, st);
			y = conv(g, y, cs, 1);
			x = add(g, y, sc);
		}
	}
	head(g, x, 10);
	return 0;
}

static int f_inception(struct gen_graph *g, struct gen_rng *r)
{
	int64_t res = pint("res"), nb = pint("branches"), depth = pint("depth");
	int x = conv(g, image_input(g, res, 3), jit(r, pint("channels")), 2);
	int br[64];

	if (nb < 1 || nb > 64)
		return -EINVAL;
	for (int64_t m = 0; m < pint("modules"); m++) {
		int64_t w = pint("channels") * (1 + m / pint("reduce_every"));

		for (int64_t b = 0; b < nb; b++) {
			int64_t len = gen_rng_range(r, 0, depth);
			int y = x;

			if (len == 0) { /* pooling branch */
				y = tensor_like(g, x, GEN_INTERMEDIATE);
				op1(g, "AVERAGE_POOL_2D", 1, &x, y, 0);
				len = 1;
			}
			for (int64_t i = 0; i < len; i++)
				y = conv(g, y, jit(r, w / nb * (i + 1 == len ? 1 : 2) + 8), 1);
			br[b] = y;
		}
		{
			int64_t c = 0;
			int y;

			for (int64_t b = 0; b < nb; b++)
				c += H(g, br[b], 3);
			y = act(g, H(g, x, 1), H(g, x, 2), c);
			op1(g, "CONCATENATION", (int)nb, br, y, 0);
			x = y;
		}
		if ((m + 1) % pint("reduce_every") == 0 && H(g, x, 1) > 1) {
			int y = act(g, (H(g, x, 1) + 1) / 2, (H(g, x, 2) + 1) / 2, H(g, x, 3));

			op1(g, "MAX_POOL_2D", 1, &x, y, 0);
			x = y;
		}
	}
	head(g, x, 10);
	return 0;
}

static int f_unet(struct gen_graph *g, struct gen_rng *r)
{
	int64_t levels = pint("levels"), convs = pint("convs");
	int x = image_input(g, pint("res"), 3), skip[32];
	int64_t w[32];

	if (levels < 1 || levels > 31)
		return -EINVAL;
	for (int64_t l = 0; l <= levels; l++)
		w[l] = jit(r, pint("channels") << l);
	for (int64_t l = 0; l < levels; l++) {
		for (int64_t i = 0; i < convs; i++)
			x = conv(g, x, w[l], 1);
		skip[l] = x;
		{
			int y = act(g, (H(g, x, 1) + 1) / 2, (H(g, x, 2) + 1) / 2, w[l]);

			op1(g, "MAX_POOL_2D", 1, &x, y, 0);
			x = y;
		}
	}
	for (int64_t i = 0; i < convs; i++)
		x = conv(g, x, w[levels], 1);
	for (int64_t l = levels - 1; l >= 0; l--) {
		int up = act(g, H(g, skip[l], 1), H(g, skip[l], 2), w[l]);
		int in[2] = { skip[l], up }, cat;

		op1(g, "TRANSPOSE_CONV", 1, &x, up, 0);
		cat = act(g, H(g, up, 1), H(g, up, 2), 2 * w[l]);
		op1(g, "CONCATENATION", 2, in, cat, 0);
		x = cat;
		for (int64_t i = 0; i < convs; i++)
			x = conv(g, x, w[l], 1);
	}
	{
		int y = act(g, H(g, x, 1), H(g, x, 2), 2);

		g->t[y].kind = GEN_OUTPUT;
		op1(g, "CONV_2D", 1, &x, y, 0);
	}
	return 0;
}

static int f_dense(struct gen_graph *g, struct gen_rng *r)
{
	int64_t layers = pint("layers");
	int x = conv(g, image_input(g, pint("res"), 3), jit(r, pint("channels")), 1);
	int *outs = malloc(sizeof(*outs) * (size_t)(layers + 1));

	if (!outs)
		return -ENOMEM;
	for (int64_t b = 0; b < pint("blocks"); b++) {
		int64_t c = H(g, x, 3);
		int y;

		outs[0] = x;
		for (int64_t l = 0; l < layers; l++) {
			int64_t k = jit(r, pint("growth"));

			y = act(g, H(g, x, 1), H(g, x, 2), k);
			op1(g, "DENSE_LAYER", (int)l + 1, outs, y, 0);
			outs[l + 1] = y;
			c += k;
		}
		y = act(g, (H(g, x, 1) + 1) / 2, (H(g, x, 2) + 1) / 2, round8((double)c / 2));
		op1(g, "TRANSITION", (int)layers + 1, outs, y, 0);
		x = y;
	}
	free(outs);
	head(g, x, 10);
	return 0;
}

static int seq_t(struct gen_graph *g, int64_t a, int64_t b, int64_t c,
		 int64_t d, int rank_)
{
	int64_t dims[4] = { a, b, c, d };

	return gen_tensor(g, gen_fmt("t%d", seq++), GEN_INTERMEDIATE, GEN_F32,
			  rank_, dims);
}

static int fc(struct gen_graph *g, int x, int64_t units)
{
	int y = seq_t(g, 1, H(g, x, 1), units, 0, 3);

	op1(g, "FULLY_CONNECTED", 1, &x, y, 0);
	return y;
}

static int unary(struct gen_graph *g, int x, const char *type)
{
	int y = tensor_like(g, x, GEN_INTERMEDIATE);

	op1(g, type, 1, &x, y, GEN_OP_ELEMENTWISE);
	return y;
}

static int f_transformer(struct gen_graph *g, struct gen_rng *r)
{
	int64_t s = jit(r, pint("seq")), h = pint("hidden"), nh = pint("heads");
	int64_t d[3] = { 1, s, h };
	int x = gen_tensor(g, "input", GEN_INPUT, GEN_F32, 3, d);

	for (int64_t l = 0; l < pint("layers"); l++) {
		int q = fc(g, x, h), k = fc(g, x, h), v = fc(g, x, h);
		int in[2] = { q, k }, sc = seq_t(g, 1, nh, s, s, 4), ctx, y;

		op1(g, "BATCH_MATMUL", 2, in, sc, 0);
		sc = unary(g, sc, "SOFTMAX");
		in[0] = sc;
		in[1] = v;
		ctx = seq_t(g, 1, s, h, 0, 3);
		op1(g, "BATCH_MATMUL", 2, in, ctx, 0);
		y = fc(g, ctx, h);
		x = unary(g, add(g, y, x), "LAYER_NORM");
		y = unary(g, fc(g, x, jit(r, h * pint("ff"))), "GELU");
		y = fc(g, y, h);
		x = unary(g, add(g, y, x), "LAYER_NORM");
	}
	g->t[x].kind = GEN_OUTPUT;
	return 0;
}

static int f_decoder(struct gen_graph *g, struct gen_rng *r)
{
	int64_t h = pint("hidden"), nh = pint("heads"), ctxn = pint("ctx");
	int64_t d[3] = { 1, 1, h };
	int x = gen_tensor(g, "input", GEN_INPUT, GEN_F32, 3, d);
	int pos = gen_tensor(g, "position", GEN_INPUT, GEN_I32, 1, d);

	for (int64_t l = 0; l < pint("layers"); l++) {
		int64_t cd[4] = { 1, nh, ctxn, h / nh };
		int kc = gen_tensor(g, gen_fmt("cache_k%lld", (long long)l), GEN_VAR, GEN_F32, 4, cd);
		int vc = gen_tensor(g, gen_fmt("cache_v%lld", (long long)l), GEN_VAR, GEN_F32, 4, cd);
		int a = unary(g, x, "LAYER_NORM");
		int q = fc(g, a, h), k = fc(g, a, h), v = fc(g, a, h);
		int in[3] = { kc, k, pos }, sc, ctx, y;

		gen_op(g, gen_fmt("op%zu_KV_CACHE_UPDATE", g->n_op), "KV_CACHE_UPDATE",
		       3, in, 0, NULL, 0, NULL, GEN_OP_SIDE_EFFECT);
		in[0] = vc;
		in[1] = v;
		gen_op(g, gen_fmt("op%zu_KV_CACHE_UPDATE", g->n_op), "KV_CACHE_UPDATE",
		       3, in, 0, NULL, 0, NULL, GEN_OP_SIDE_EFFECT);
		in[0] = q;
		in[1] = kc;
		sc = seq_t(g, 1, nh, 1, ctxn, 4);
		op1(g, "BATCH_MATMUL", 2, in, sc, 0);
		sc = unary(g, sc, "SOFTMAX");
		in[0] = sc;
		in[1] = vc;
		ctx = seq_t(g, 1, 1, h, 0, 3);
		op1(g, "BATCH_MATMUL", 2, in, ctx, 0);
		x = add(g, fc(g, ctx, h), x);
		y = unary(g, fc(g, unary(g, x, "LAYER_NORM"), jit(r, h * pint("ff"))), "GELU");
		x = add(g, fc(g, y, h), x);
	}
	x = fc(g, unary(g, x, "LAYER_NORM"), pint("vocab"));
	g->t[x].kind = GEN_OUTPUT;
	return 0;
}

static int f_random(struct gen_graph *g, struct gen_rng *r)
{
	int64_t width = pint("width"), depth = pint("depth"), fanin = pint("fanin");
	double skip = pdbl("skip");
	int64_t n = width * (depth + 1);
	int *node = malloc(sizeof(*node) * (size_t)n);
	int *read = calloc((size_t)n, sizeof(*read));
	int in[64];

	if (!node || !read || fanin < 1 || fanin > 64 || width < 1 || depth < 1) {
		free(node);
		free(read);
		return -EINVAL;
	}
	for (int64_t i = 0; i < width; i++)
		node[i] = gen_tensor_bytes(g, gen_fmt("input%lld", (long long)i),
					   GEN_INPUT, draw_size(r));
	for (int64_t l = 1; l <= depth; l++)
		for (int64_t i = 0; i < width; i++) {
			int64_t me = l * width + i;
			int k = 0;

			for (int64_t f = 0; f < fanin; f++) {
				int64_t src_l = l - 1, src, dup = 0;

				if (l > 1 && gen_rng_unit(r) < skip)
					src_l = gen_rng_range(r, 0, l - 2);
				src = src_l * width + gen_rng_range(r, 0, width - 1);
				for (int j = 0; j < k; j++)
					dup |= in[j] == node[src];
				if (dup)
					continue;
				in[k++] = node[src];
				read[src] = 1;
			}
			node[me] = gen_tensor_bytes(g, gen_fmt("t%d", seq++),
						    GEN_INTERMEDIATE, draw_size(r));
			op1(g, "OP", k, in, node[me], 0);
		}
	for (int64_t i = width; i < n; i++)
		if (!read[i])
			g->t[node[i]].kind = GEN_OUTPUT;
	free(node);
	free(read);
	return 0;
}

/* Training step of a small residual network: forward, loss, backward
 * (activations live until their gradient step), then SGD updates of the
 * `var` weights.  Phases: forward | backward | optimizer. */
struct fwd {
	int type;      /* 0 conv, 1 add, 2 head */
	int in[2], w, out;
};

static int f_training(struct gen_graph *g, struct gen_rng *r)
{
	int64_t res = pint("res");
	struct fwd *f = NULL;
	size_t nf = 0, cap = 0;
	int x, *grad, *wgrad, loss, labels;

#define PUSH(T_, A_, B_, W_, O_) do { \
		if (nf == cap) { \
			cap = cap ? 2 * cap : 64; \
			f = realloc(f, cap * sizeof(*f)); \
			if (!f) return -ENOMEM; \
		} \
		f[nf++] = (struct fwd){ (T_), { (A_), (B_) }, (W_), (O_) }; \
	} while (0)

	x = image_input(g, res, 3);
	{
		int in = x, w, y;
		int64_t c = jit(r, pint("channels"));
		int64_t wd[4] = { c, 3, 3, 3 };

		w = gen_tensor(g, gen_fmt("w%d", seq++), GEN_VAR, GEN_F32, 4, wd);
		y = act(g, res, res, c);
		{
			int ins[2] = { in, w };

			op1(g, "CONV_2D", 2, ins, y, 0);
		}
		PUSH(0, in, -1, w, y);
		x = y;
	}
	for (int64_t s = 0; s < pint("stages"); s++) {
		int64_t cs = jit(r, pint("channels") << s);

		for (int64_t b = 0; b < pint("blocks"); b++) {
			int st = (b == 0 && s > 0) ? 2 : 1, src = x, y = x, sc = x;

			for (int k = 0; k < 3; k++) {
				int from = k == 2 ? src : y;
				int64_t cin = H(g, from, 3);
				int s2 = (k == 2 || k == 0) ? st : 1;
				int64_t kk = k == 2 ? 1 : 3;
				int64_t wd[4] = { cs, kk, kk, cin };
				int w, o, ins[2];

				if (k == 2 && st == 1 && cin == cs)
					break;
				w = gen_tensor(g, gen_fmt("w%d", seq++), GEN_VAR, GEN_F32, 4, wd);
				o = act(g, (H(g, from, 1) + s2 - 1) / s2,
					(H(g, from, 2) + s2 - 1) / s2, cs);
				ins[0] = from;
				ins[1] = w;
				op1(g, "CONV_2D", 2, ins, o, 0);
				PUSH(0, from, -1, w, o);
				if (k == 2)
					sc = o;
				else
					y = o;
			}
			{
				int o = add(g, y, sc);

				PUSH(1, y, sc, -1, o);
				x = o;
			}
		}
	}
	{
		int64_t d[2] = { 1, 10 }, wd[2] = { 10, H(g, x, 3) };
		int w = gen_tensor(g, gen_fmt("w%d", seq++), GEN_VAR, GEN_F32, 2, wd);
		int o = gen_tensor(g, gen_fmt("t%d", seq++), GEN_INTERMEDIATE, GEN_F32, 2, d);
		int ins[3];

		ins[0] = x;
		ins[1] = w;
		op1(g, "MEAN_FC", 2, ins, o, 0);
		PUSH(2, x, -1, w, o);
		labels = gen_tensor(g, "labels", GEN_INPUT, GEN_I32, 1, d);
		loss = gen_tensor(g, "loss", GEN_OUTPUT, GEN_F32, 0, NULL);
		ins[0] = o;
		ins[1] = labels;
		op1(g, "SOFTMAX_CROSS_ENTROPY", 2, ins, loss, 0);
	}
	/* Backward: grad[t] accumulates dL/dt; contributions summed by ADD_N. */
	grad = malloc(sizeof(*grad) * (g->n_t + 4 * nf + 8));
	wgrad = malloc(sizeof(*wgrad) * (nf + 1));
	if (!grad || !wgrad) {
		free(grad);
		free(wgrad);
		free(f);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g->n_t + 4 * nf + 8; i++)
		grad[i] = -1;
	gen_phase(g);
	{
		int o = f[nf - 1].out;
		int dl = tensor_like(g, o, GEN_INTERMEDIATE), ins[3] = { o, labels, loss };

		op1(g, "SOFTMAX_CROSS_ENTROPY_GRAD", 3, ins, dl, 0);
		grad[o] = dl;
	}
	for (size_t k = nf; k-- > 0;) {
		struct fwd *e = &f[k];
		int dy = grad[e->out], ins[4];

		wgrad[k] = -1;
		if (dy < 0)
			continue;
		for (int a = 0; a < (e->type == 1 ? 2 : 1); a++) {
			int src = e->in[a], dx;

			if (g->t[src].kind == GEN_INPUT)
				continue;
			dx = tensor_like(g, src, GEN_INTERMEDIATE);
			if (e->type == 1) {
				op1(g, "IDENTITY_GRAD", 1, &dy, dx, 0);
			} else {
				ins[0] = dy;
				ins[1] = e->w;
				ins[2] = e->out; /* ReLU mask */
				op1(g, e->type == 2 ? "MEAN_FC_GRAD_INPUT" : "CONV_2D_GRAD_INPUT",
				    3, ins, dx, 0);
			}
			if (grad[src] >= 0) {
				int sum = tensor_like(g, src, GEN_INTERMEDIATE);

				ins[0] = grad[src];
				ins[1] = dx;
				op1(g, "ADD_N", 2, ins, sum, GEN_OP_ELEMENTWISE);
				dx = sum;
			}
			grad[src] = dx;
		}
		if (e->w >= 0) {
			wgrad[k] = tensor_like(g, e->w, GEN_INTERMEDIATE);
			ins[0] = e->in[0];
			ins[1] = dy;
			op1(g, e->type == 2 ? "MEAN_FC_GRAD_FILTER" : "CONV_2D_GRAD_FILTER",
			    2, ins, wgrad[k], 0);
		}
	}
	gen_phase(g);
	for (size_t k = 0; k < nf; k++)
		if (f[k].w >= 0 && wgrad[k] >= 0) {
			int ins[2] = { f[k].w, wgrad[k] };

			gen_op(g, gen_fmt("op%zu_SGD_UPDATE", g->n_op), "SGD_UPDATE",
			       2, ins, 0, NULL, 0, NULL, GEN_OP_SIDE_EFFECT);
		}
	free(grad);
	free(wgrad);
	free(f);
#undef PUSH
	return 0;
}

/* ---------------------------------------------------- adversarial patterns */

struct ival {
	int start, end; /* inclusive steps: produced at start, last read at end */
	uint64_t size;
};

/* Emits intervals as a graph: the op at step t produces every buffer that
 * starts at t and is the last reader of every buffer that ends at t. */
static int intervals_to_graph(struct gen_graph *g, const struct ival *v,
			      size_t n, int steps)
{
	int *tid = malloc(sizeof(*tid) * (n + 1));
	int *list = malloc(sizeof(*list) * (n + 1));

	if (!tid || !list) {
		free(tid);
		free(list);
		return -ENOMEM;
	}
	for (int t = 0; t < steps; t++) {
		int k = 0, out0 = (int)g->n_t;

		for (size_t i = 0; i < n; i++)
			if (v[i].end == t)
				list[k++] = tid[i];
		for (size_t i = 0; i < n; i++)
			if (v[i].start == t)
				tid[i] = gen_tensor_bytes(g, gen_fmt("b%zu", i),
							  GEN_INTERMEDIATE, v[i].size);
		{
			int n_out = (int)g->n_t - out0, *outs = malloc(sizeof(int) * (size_t)(n_out + 1));

			if (!outs) {
				free(tid);
				free(list);
				return -ENOMEM;
			}
			for (int j = 0; j < n_out; j++)
				outs[j] = out0 + j;
			gen_op(g, gen_fmt("step%d", t), "STEP", k, list, n_out, outs,
			       0, NULL, 0);
			free(outs);
		}
	}
	free(tid);
	free(list);
	return 0;
}

struct placed {
	int64_t off, size;
	int idx;
};

static int cmp_off(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Lowest offset with a gap of `size` among blocks sorted by offset. */
static int64_t first_fit(const struct placed *p, size_t n, int64_t size)
{
	int64_t at = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].off - at >= size)
			return at;
		if (p[i].off + p[i].size > at)
			at = p[i].off + p[i].size;
	}
	return at;
}

/*
 * Frees live blocks (their interval ends at `t`) keeping a cheapest subset
 * in which no free gap below `span` reaches `next` bytes: a DP over blocks
 * sorted by offset, cost = kept bytes; the last kept block must end within
 * `next` of the span so the span does not shrink by a full block.
 */
static int pin_blocks(struct ival *v, struct placed *live, size_t *nlp,
		      int64_t span, int64_t next, int t)
{
	size_t nl = *nlp, w = 0, best = SIZE_MAX;
	int64_t *cost = malloc(sizeof(*cost) * (nl + 1));
	size_t *prev = malloc(sizeof(*prev) * (nl + 1));
	char *keep = calloc(nl + 1, 1);

	if (!cost || !prev || !keep) {
		free(cost);
		free(prev);
		free(keep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nl; i++) {
		cost[i] = -1;
		prev[i] = SIZE_MAX;
		if (live[i].off < next)
			cost[i] = live[i].size;
		for (size_t j = 0; j < i; j++) {
			int64_t gap = live[i].off - (live[j].off + live[j].size);

			if (cost[j] < 0 || gap >= next)
				continue;
			if (cost[i] < 0 || cost[j] + live[i].size < cost[i]) {
				cost[i] = cost[j] + live[i].size;
				prev[i] = j;
			}
		}
		if (cost[i] >= 0 && span - (live[i].off + live[i].size) < next &&
		    (best == SIZE_MAX || cost[i] < cost[best]))
			best = i;
	}
	for (size_t i = best; i != SIZE_MAX; i = prev[i])
		keep[i] = 1;
	for (size_t i = 0; i < nl; i++) {
		if (keep[i])
			live[w++] = live[i];
		else
			v[live[i].idx].end = t;
	}
	*nlp = w;
	free(cost);
	free(prev);
	free(keep);
	return 0;
}

/*
 * Doubling-size checkerboard (after Robson, "Bounds for some functions
 * concerning dynamic storage allocation", J. ACM 21(3), 1974, and "An
 * estimate of the store size necessary for dynamic storage allocation",
 * J. ACM 18(3), 1971: an adversary that frees blocks so that every hole is
 * too small for the next, larger request forces first fit, and any online
 * allocator, to use on the order of M log(n) storage for live size M).
 * Round r allocates blocks of unit*2^r up to the live cap M = load*unit,
 * placed by first fit in start order (the order a time-ordered greedy
 * planner sees them); then every block is freed except a cheapest set that
 * leaves no free gap able to hold a block of the next round (pin_blocks).
 * Max live stays <= M while first fit in start order needs a span growing
 * by about M/2 per round (4.0 M for 9 rounds of load 256).
 */
static int adv_checkerboard(struct gen_graph *g)
{
	int64_t unit = pint("unit"), M = pint("load") * unit;
	int rounds = (int)pint("rounds");
	size_t n = 0, cap = 1024, nl = 0;
	struct ival *v = malloc(cap * sizeof(*v));
	struct placed *live = malloc(cap * sizeof(*live));
	int rc;

	if (!v || !live || rounds < 1 || rounds > 30 || unit < 1 || M < unit) {
		free(v);
		free(live);
		return -EINVAL;
	}
	for (int r = 0; r < rounds; r++) {
		int64_t s = unit << r, used = 0, span = 0;

		for (size_t i = 0; i < nl; i++)
			used += live[i].size;
		while (used + s <= M) {
			if (n == cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof(*v));
				live = realloc(live, cap * sizeof(*live));
				if (!v || !live)
					return -ENOMEM;
			}
			qsort(live, nl, sizeof(*live), cmp_off);
			live[nl] = (struct placed){ first_fit(live, nl, s), s, (int)n };
			nl++;
			v[n++] = (struct ival){ 2 * r, -1, (uint64_t)s };
			used += s;
		}
		if (r == rounds - 1)
			break;
		qsort(live, nl, sizeof(*live), cmp_off);
		for (size_t i = 0; i < nl; i++)
			if (live[i].off + live[i].size > span)
				span = live[i].off + live[i].size;
		if (pin_blocks(v, live, &nl, span, 2 * s, 2 * r + 1))
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i].end < 0)
			v[i].end = 2 * rounds - 1;
	rc = intervals_to_graph(g, v, n, 2 * rounds);
	free(v);
	free(live);
	return rc;
}

/* Peak of greedy by size (largest first, ties by index; lowest offset that
 * clears every time-overlapping buffer already placed): TFLite's default. */
static uint64_t greedy_by_size_peak(const struct ival *v, size_t n)
{
	size_t *ord = malloc(sizeof(*ord) * n);
	struct placed *p = malloc(sizeof(*p) * n), *c = malloc(sizeof(*c) * n);
	int64_t peak = 0;

	if (!ord || !p || !c)
		abort();
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = 1; i < n; i++) /* stable insertion sort, size desc */
		for (size_t j = i; j > 0 && v[ord[j]].size > v[ord[j - 1]].size; j--) {
			size_t t = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		const struct ival *a = &v[ord[k]];
		size_t nc = 0;

		for (size_t j = 0; j < k; j++) {
			const struct ival *b = &v[ord[j]];

			if (b->start <= a->end && a->start <= b->end)
				c[nc++] = p[j];
		}
		qsort(c, nc, sizeof(*c), cmp_off);
		p[k] = (struct placed){ first_fit(c, nc, (int64_t)a->size),
					(int64_t)a->size, (int)ord[k] };
		if (p[k].off + p[k].size > peak)
			peak = p[k].off + p[k].size;
	}
	free(ord);
	free(p);
	free(c);
	return (uint64_t)peak;
}

static uint64_t max_load(const struct ival *v, size_t n, int steps)
{
	uint64_t best = 0;

	for (int t = 0; t < steps; t++) {
		uint64_t s = 0;

		for (size_t i = 0; i < n; i++)
			if (v[i].start <= t && t <= v[i].end)
				s += v[i].size;
		best = s > best ? s : best;
	}
	return best;
}

/*
 * Greedy-by-size trap found by seeded local search (not a literature
 * construction): starting from random intervals, mutate one buffer at a
 * time (size in 1..8 units, interval within `steps`) and keep a mutation
 * when it does not lower greedy_by_size's peak / max live ratio.  Known
 * results bound how far any such instance can go: OPT <= 3 LOAD (Gergov,
 * "Algorithms for compile-time memory optimization", SODA 1999) and
 * (2 + eps) LOAD is achievable (Buchsbaum et al., "OPT versus LOAD in
 * dynamic storage allocation", STOC 2003), but greedy orders carry no such
 * guarantee; the search finds instances where they are far from LOAD.
 */
static int adv_search(struct gen_graph *g, struct gen_rng *r)
{
	size_t n = (size_t)pint("n");
	int steps = (int)pint("steps");
	int64_t unit = pint("unit"), iters = pint("iters");
	struct ival *v = malloc(sizeof(*v) * (n + 1)), *w = malloc(sizeof(*w) * (n + 1));
	double best;
	int rc;

	if (!v || !w || n < 2 || steps < 2) {
		free(v);
		free(w);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		int a = (int)gen_rng_range(r, 0, steps - 2);

		v[i] = (struct ival){ a, (int)gen_rng_range(r, a + 1, steps - 1),
				      (uint64_t)(unit * gen_rng_range(r, 1, 8)) };
	}
	best = (double)greedy_by_size_peak(v, n) / (double)max_load(v, n, steps);
	for (int64_t it = 0; it < iters; it++) {
		size_t i = (size_t)gen_rng_range(r, 0, (int64_t)n - 1);
		double q;

		memcpy(w, v, sizeof(*v) * n);
		if (gen_rng_unit(r) < 0.5) {
			w[i].size = (uint64_t)(unit * gen_rng_range(r, 1, 8));
		} else {
			int a = (int)gen_rng_range(r, 0, steps - 2);

			w[i].start = a;
			w[i].end = (int)gen_rng_range(r, a + 1, steps - 1);
		}
		q = (double)greedy_by_size_peak(w, n) / (double)max_load(w, n, steps);
		if (q >= best) {
			best = q;
			memcpy(v, w, sizeof(*v) * n);
		}
	}
	gen_comment(g, "Search result: greedy-by-size peak / max live = %.4f.", best);
	rc = intervals_to_graph(g, v, n, steps);
	free(v);
	free(w);
	return rc;
}

static int f_adversarial(struct gen_graph *g, struct gen_rng *r)
{
	const char *p = pstr("pattern");

	if (!strcmp(p, "checkerboard"))
		return adv_checkerboard(g);
	if (!strcmp(p, "search"))
		return adv_search(g, r);
	fprintf(stderr, "synthetic: adversarial: unknown pattern '%s' (checkerboard, search)\n", p);
	return -EINVAL;
}

/* ------------------------------------------------------------------ table */

#define JITTER { "jitter", "0.25", "widths are scaled by U(1-j, 1+j) per seed, rounded to 8" }
#define SIZES \
	{ "min", "256", "smallest buffer, bytes" }, \
	{ "max", "1048576", "largest buffer, bytes" }, \
	{ "dist", "loguniform", "size distribution: loguniform, uniform, bimodal (90% in [min,4min], 10% in [max/4,max]), pow2 (log-uniform rounded down to a power of two)" }

static const struct family families[] = {
	{ "chain", "a line of ops, each reading the previous output",
	  { { "n", "32", "operators" }, SIZES }, f_chain },
	{ "residual", "ResNet-like: stages of two-conv blocks with identity or projection skips",
	  { { "stages", "3", "stages; each after the first halves the resolution and doubles the width" },
	    { "blocks", "2", "blocks per stage" },
	    { "channels", "32", "width of the first stage (f32 NHWC activations)" },
	    { "res", "64", "input resolution (square)" }, JITTER }, f_residual },
	{ "inception", "Inception-like: modules of parallel conv branches joined by a concat",
	  { { "modules", "6", "modules" },
	    { "branches", "4", "branches per module" },
	    { "depth", "3", "max convs per branch (a branch of length 0 is a pooling branch)" },
	    { "channels", "64", "module width before jitter; grows by channels every reduce_every modules" },
	    { "res", "64", "input resolution (stem halves it)" },
	    { "reduce_every", "2", "a stride-2 max pool after every this many modules" }, JITTER }, f_inception },
	{ "unet", "U-Net-like encoder-decoder with long skips concatenated in the decoder",
	  { { "levels", "4", "down/up levels" },
	    { "channels", "16", "width of the top level (doubles per level)" },
	    { "res", "128", "input resolution" },
	    { "convs", "2", "convs per level" }, JITTER }, f_unet },
	{ "dense", "DenseNet-like: each layer reads all earlier outputs of its block",
	  { { "blocks", "3", "dense blocks; a transition halves resolution and width between them" },
	    { "layers", "6", "layers per block" },
	    { "growth", "32", "channels each layer adds" },
	    { "channels", "64", "stem width" },
	    { "res", "32", "input resolution" }, JITTER }, f_dense },
	{ "transformer", "encoder layers: Q/K/V, scores, softmax, context, residuals, layer norm, MLP",
	  { { "layers", "4", "encoder layers" },
	    { "seq", "128", "sequence length (jittered per seed)" },
	    { "hidden", "256", "model width" },
	    { "heads", "4", "attention heads" },
	    { "ff", "4", "MLP width as a multiple of hidden (jittered per layer)" }, JITTER }, f_transformer },
	{ "decoder", "one decode step with a KV cache held in var tensors",
	  { { "layers", "4", "decoder layers" },
	    { "hidden", "256", "model width" },
	    { "heads", "4", "attention heads" },
	    { "ctx", "512", "KV cache length" },
	    { "ff", "4", "MLP width multiple (jittered per layer)" },
	    { "vocab", "8192", "output logits" }, JITTER }, f_decoder },
	{ "random", "random layered DAG",
	  { { "width", "8", "nodes per layer" },
	    { "depth", "16", "layers after the input layer" },
	    { "fanin", "2", "inputs drawn per node (duplicates dropped)" },
	    { "skip", "0.2", "probability that an input comes from an earlier layer than the previous one" },
	    SIZES }, f_random },
	{ "training", "forward + backward + SGD of a residual network; activations live until their gradient step",
	  { { "stages", "2", "residual stages" },
	    { "blocks", "2", "blocks per stage" },
	    { "channels", "16", "first-stage width" },
	    { "res", "32", "input resolution" }, JITTER }, f_training },
	{ "adversarial", "interval patterns that defeat greedy placement",
	  { { "pattern", "checkerboard", "checkerboard (Robson-style, against first fit in start order) or search (local search against greedy by size)" },
	    { "unit", "1024", "smallest block, bytes" },
	    { "load", "64", "checkerboard: live cap in units" },
	    { "rounds", "7", "checkerboard: doubling rounds (block sizes unit..unit*2^(rounds-1))" },
	    { "n", "24", "search: buffers" },
	    { "steps", "12", "search: steps" },
	    { "iters", "3000", "search: mutations tried" } }, NULL },
};

static int build_adv(struct gen_graph *g, struct gen_rng *r)
{
	return f_adversarial(g, r);
}

static const struct family *find_family(const char *name)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++)
		if (!strcmp(families[i].name, name))
			return &families[i];
	return NULL;
}

static bool known_param(const struct family *f, const char *key)
{
	for (int i = 0; i < MAX_PARAMS && f->params[i].key; i++)
		if (!strcmp(f->params[i].key, key))
			return true;
	return false;
}

/* Builds and writes one graph; returns 0 or -errno. */
static int generate(const struct family *f, uint64_t seed, const char *name,
		    const char *dir)
{
	struct gen_graph g;
	struct gen_rng r;
	char src[1024];
	int rc, len;

	cur_family = f;
	len = snprintf(src, sizeof(src), "arenabench synthetic family %s, seed %llu", f->name,
		       (unsigned long long)seed);
	for (int i = 0; i < n_set && len < (int)sizeof(src); i++)
		len += snprintf(src + len, sizeof(src) - (size_t)len, ", %s %s",
				set_key[i], set_val[i]);
	gen_graph_init(&g, name, f->name, src);
	gen_comment(&g, "Synthetic %s: %s.", f->name, f->about);
	gen_comment(&g, "Regenerate: build/gen/synthetic --family %s --seed %llu%s --name %s DIR",
		    f->name, (unsigned long long)seed, n_set ? " --param ..." : "", name);
	{
		char line[1024];
		int l = 0;

		line[0] = '\0';
		for (int i = 0; i < MAX_PARAMS && f->params[i].key; i++)
			l += snprintf(line + l, sizeof(line) - (size_t)l, "%s%s=%s",
				      i ? " " : "", f->params[i].key, pstr(f->params[i].key));
		gen_comment(&g, "Parameters: %s", line);
	}
	gen_rng_seed(&r, seed);
	seq = 0;
	rc = f->build ? f->build(&g, &r) : build_adv(&g, &r);
	if (!rc)
		rc = gen_graph_write(&g, dir);
	if (rc)
		fprintf(stderr, "synthetic: %s: %s\n", name, strerror(-rc));
	gen_graph_free(&g);
	return rc;
}

/* The committed default set: small and medium presets, seeds 1..3. */
static const struct preset {
	const char *family, *size, *params;
} presets[] = {
	{ "chain", "small", "n=16" },
	{ "chain", "medium", "n=256" },
	{ "residual", "small", "stages=2 blocks=1 channels=16 res=32" },
	{ "residual", "medium", "stages=4 blocks=3 channels=64 res=112" },
	{ "inception", "small", "modules=3 branches=3 depth=2 channels=32 res=32" },
	{ "inception", "medium", "modules=9 branches=4 depth=4 channels=96 res=64" },
	{ "unet", "small", "levels=2 channels=8 res=32" },
	{ "unet", "medium", "levels=4 channels=32 res=256" },
	{ "dense", "small", "blocks=2 layers=4 growth=16 channels=32 res=16" },
	{ "dense", "medium", "blocks=4 layers=12 growth=32 channels=64 res=56" },
	{ "transformer", "small", "layers=2 seq=32 hidden=64 heads=2" },
	{ "transformer", "medium", "layers=8 seq=256 hidden=512 heads=8" },
	{ "decoder", "small", "layers=2 hidden=64 heads=2 ctx=64 vocab=1024" },
	{ "decoder", "medium", "layers=12 hidden=512 heads=8 ctx=1024 vocab=32000" },
	{ "random", "small", "width=4 depth=8" },
	{ "random", "medium", "width=32 depth=64 fanin=3" },
	{ "training", "small", "stages=2 blocks=1 channels=16 res=16" },
	{ "training", "medium", "stages=3 blocks=2 channels=32 res=64" },
	{ "adversarial", "small", "pattern=checkerboard load=16 rounds=4" },
	{ "adversarial", "medium", "pattern=checkerboard load=256 rounds=9" },
	{ "adversarial", "search", "pattern=search n=24 steps=12 iters=3000" },
};

static int set_params(char *buf)
{
	n_set = 0;
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');

		if (!eq || n_set >= 64)
			return -EINVAL;
		*eq = '\0';
		set_key[n_set] = tok;
		set_val[n_set++] = eq + 1;
	}
	return 0;
}

static int write_corpus(const char *dir)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(*presets); i++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			const struct family *f = find_family(presets[i].family);
			char buf[512], name[256];
			int rc;

			snprintf(buf, sizeof(buf), "%s", presets[i].params);
			if (set_params(buf))
				return -EINVAL;
			snprintf(name, sizeof(name), "%s_%s_s%llu", f->name,
				 presets[i].size, (unsigned long long)seed);
			rc = generate(f, seed, name, dir);
			if (rc)
				return rc;
			/* The checkerboard ignores the seed: one copy. */
			if (!strcmp(f->name, "adversarial") &&
			    strstr(presets[i].params, "checkerboard"))
				break;
		}
	n_set = 0;
	return 0;
}

static void list(void)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++) {
		const struct family *f = &families[i];

		printf("%s: %s\n", f->name, f->about);
		for (int k = 0; k < MAX_PARAMS && f->params[k].key; k++)
			printf("  %-12s %-12s %s\n", f->params[k].key,
			       f->params[k].def, f->params[k].help);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: synthetic --family F [--seed S] [--param k=v]... [--name N] OUTDIR\n"
		"       synthetic --corpus OUTDIR\n"
		"       synthetic --list\n");
}

int main(int argc, char **argv)
{
	const struct family *f = NULL;
	const char *dir = NULL, *name = NULL;
	uint64_t seed = 1;
	bool corpus = false;
	char defname[256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			list();
			return 0;
		} else if (!strcmp(argv[i], "--corpus")) {
			corpus = true;
		} else if (!strcmp(argv[i], "--family") && i + 1 < argc) {
			f = find_family(argv[++i]);
			if (!f) {
				fprintf(stderr, "synthetic: unknown family '%s' (see --list)\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--param") && i + 1 < argc) {
			char *eq = strchr(argv[++i], '=');

			if (!eq || n_set >= 64) {
				fprintf(stderr, "synthetic: --param wants key=value, got '%s'\n", argv[i]);
				return 2;
			}
			*eq = '\0';
			set_key[n_set] = argv[i];
			set_val[n_set++] = eq + 1;
		} else if (argv[i][0] == '-') {
			usage();
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (!dir || (!corpus && !f)) {
		usage();
		return 2;
	}
	if (gen_mkdirs(dir)) {
		fprintf(stderr, "synthetic: cannot create %s\n", dir);
		return 1;
	}
	if (corpus)
		return write_corpus(dir) ? 1 : 0;
	for (int i = 0; i < n_set; i++)
		if (!known_param(f, set_key[i])) {
			fprintf(stderr, "synthetic: family %s has no parameter '%s' (see --list)\n",
				f->name, set_key[i]);
			return 2;
		}
	if (!name) {
		snprintf(defname, sizeof(defname), "%s_s%llu", f->name, (unsigned long long)seed);
		name = defname;
	}
	return generate(f, seed, name, dir) ? 1 : 0;
}
