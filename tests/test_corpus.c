/*
 * Corpus checks: generators are deterministic and reproduce the committed
 * files; every committed graph loads; the zoo matches figures published
 * with each architecture (parameter counts, block counts, layer shapes),
 * all computed by hand from the papers' tables, never from the generators;
 * the faithfulness variants match the real .tflite files in ../shared.
 *
 * Run from the repository root (make test does).  Generators are found
 * next to this binary: <BUILD>/tests/test_corpus -> <BUILD>/gen/.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/arenabench.h"
#include "import/graph_text.h"
#include "import/input.h"

/* ---------------------------------------------------------------- helpers */

static const char *gen_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *s;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 16);
	cr_assert(n > 0, "cannot read /proc/self/exe");
	dir[n] = '\0';
	for (int i = 0; i < 2; i++) {
		s = strrchr(dir, '/');
		cr_assert(s, "unexpected test binary path %s", dir);
		*s = '\0';
	}
	cr_assert(strlen(dir) + 5 < sizeof(dir));
	memcpy(dir + strlen(dir), "/gen", 5);
	return dir;
}

static void need_generator(const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", gen_dir(), name);
	if (access(p, X_OK))
		cr_skip_test("generator %s not built (run make first)", p);
}

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	cr_assert_eq(rc, 0, "command failed (%d): %s", rc, cmd);
}

static char *tmpdir(void)
{
	char *d = strdup("/tmp/arenabench-test-corpus.XXXXXX");

	cr_assert(d && mkdtemp(d), "mkdtemp failed");
	return d;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* Every `suffix` file of a is byte-identical in b and vice versa; returns
 * the number of files compared. */
static int same_dirs(const char *a, const char *b, const char *suffix)
{
	const char *dirs[2] = { a, b };
	int count = 0;

	for (int k = 0; k < 2; k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *e;

		cr_assert(d, "cannot open %s", dirs[k]);
		while ((e = readdir(d))) {
			char pa[PATH_MAX], pb[PATH_MAX];
			size_t la, lb;
			char *x, *y;

			if (!has_suffix(e->d_name, suffix))
				continue;
			snprintf(pa, sizeof(pa), "%s/%s", dirs[k], e->d_name);
			snprintf(pb, sizeof(pb), "%s/%s", dirs[1 - k], e->d_name);
			x = slurp(pa, &la);
			y = slurp(pb, &lb);
			cr_assert(y, "%s has no counterpart %s", pa, pb);
			cr_assert(la == lb && !memcmp(x, y, la),
				  "%s and %s differ", pa, pb);
			free(x);
			free(y);
			count += k == 0;
		}
		closedir(d);
	}
	return count;
}

static void rmtree(const char *d)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	if (system(cmd))
		cr_log_warn("could not remove %s", d);
}

/* ------------------------------------------------------------ determinism */

Test(corpus, zoo_is_deterministic_and_committed)
{
	char *a, *b;

	need_generator("zoo");
	a = tmpdir();
	b = tmpdir();
	run("'%s/zoo' '%s' 2>/dev/null", gen_dir(), a);
	run("'%s/zoo' '%s' 2>/dev/null", gen_dir(), b);
	cr_expect_geq(same_dirs(a, b, ".graph"), 20);
	cr_expect_geq(same_dirs(a, "graphs/zoo", ".graph"), 20,
		      "graphs/zoo differs from the generator: run scripts/study/corpus.sh");
	rmtree(a);
	rmtree(b);
	free(a);
	free(b);
}

Test(corpus, synthetic_is_deterministic_and_committed)
{
	char *a, *b;

	need_generator("synthetic");
	a = tmpdir();
	b = tmpdir();
	run("'%s/synthetic' --corpus '%s'", gen_dir(), a);
	run("'%s/synthetic' --corpus '%s'", gen_dir(), b);
	cr_expect_geq(same_dirs(a, b, ".graph"), 27);
	cr_expect_geq(same_dirs(a, "graphs/synthetic", ".graph"), 27,
		      "graphs/synthetic differs from the generator: run scripts/study/corpus.sh");
	rmtree(a);
	rmtree(b);
	free(a);
	free(b);
}

Test(corpus, sweep_is_deterministic_and_committed)
{
	char *a, *b;

	need_generator("sweep");
	a = tmpdir();
	b = tmpdir();
	run("'%s/sweep' --sizes 100,1000 --seeds 1,2,3 '%s' >/dev/null", gen_dir(), a);
	run("'%s/sweep' --sizes 100,1000 --seeds 1,2,3 '%s' >/dev/null", gen_dir(), b);
	cr_expect_eq(same_dirs(a, b, ".tsv"), 1);
	cr_expect_eq(same_dirs(a, "graphs/sweep", ".tsv"), 1);
	cr_expect_eq(same_dirs(a, b, ".csv"), 6);
	cr_expect_eq(same_dirs(a, "graphs/sweep", ".csv"), 6,
		     "graphs/sweep differs from the generator: run scripts/study/corpus.sh");
	rmtree(a);
	rmtree(b);
	free(a);
	free(b);
}

Test(corpus, synthetic_seed_changes_graph)
{
	char *a, p1[PATH_MAX], p2[PATH_MAX];
	size_t l1, l2;
	char *x, *y;

	need_generator("synthetic");
	a = tmpdir();
	run("'%s/synthetic' --family random --seed 1 --name r1 '%s'", gen_dir(), a);
	run("'%s/synthetic' --family random --seed 2 --name r2 '%s'", gen_dir(), a);
	snprintf(p1, sizeof(p1), "%s/r1.graph", a);
	snprintf(p2, sizeof(p2), "%s/r2.graph", a);
	x = slurp(p1, &l1);
	y = slurp(p2, &l2);
	cr_assert(x && y);
	cr_expect(l1 != l2 || memcmp(x, y, l1), "seeds 1 and 2 gave the same graph");
	free(x);
	free(y);
	rmtree(a);
	free(a);
}

/* ------------------------------------------------------- every file loads */

static void load_dir(const char *dir, const char *suffix, int min_files)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert(d, "cannot open %s", dir);
	while ((e = readdir(d))) {
		struct ab_load_options o = { 0 };
		struct ab_error err = { { 0 } };
		struct ab_input in;
		char p[PATH_MAX];
		int rc;

		if (!has_suffix(e->d_name, suffix))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		rc = ab_input_load(p, &o, &in, &err);
		cr_expect_eq(rc, 0, "%s: %s", p, err.msg);
		if (rc)
			continue;
		if (in.has_graph) {
			rc = ab_graph_check(&in.graph, p, &err);
			cr_expect_eq(rc, 0, "%s: %s", p, err.msg);
		}
		cr_expect_gt(in.problem.n, 0, "%s has no buffers", p);
		ab_input_free(&in);
		n++;
	}
	closedir(d);
	cr_expect_geq(n, min_files, "%s: %d files", dir, n);
}

Test(corpus, committed_files_load)
{
	load_dir("graphs/zoo", ".graph", 20);
	load_dir("graphs/synthetic", ".graph", 27);
	load_dir("graphs/sweep", ".csv", 6);
}

/* ------------------------------------------------------- zoo: the figures */

static struct ab_graph zg;
static char zpath[PATH_MAX];

static void zoo_load(const char *name)
{
	struct ab_error err = { { 0 } };

	snprintf(zpath, sizeof(zpath), "graphs/zoo/%s.graph", name);
	ab_graph_free(&zg);
	memset(&zg, 0, sizeof(zg));
	cr_assert_eq(ab_graph_load(zpath, &zg, &err), 0, "%s", err.msg);
}

static void zoo_fini(void)
{
	ab_graph_free(&zg);
	memset(&zg, 0, sizeof(zg));
}

static uint64_t elems(const struct ab_tensor *t)
{
	uint64_t n = 1;

	for (int i = 0; i < t->rank; i++)
		n *= (uint64_t)t->dims[i];
	return n;
}

/* Parameters: elements of f32 (float graphs) or all weight-dtype consts;
 * i32 bookkeeping consts (shapes, axes, paddings) are excluded for float
 * graphs.  Quantized biases are i32 and counted via `with_i32`. */
static uint64_t params(bool with_i32)
{
	uint64_t n = 0;

	for (size_t i = 0; i < zg.n_tensors; i++) {
		const struct ab_tensor *t = &zg.tensors[i];

		if (t->kind != AB_KIND_CONST)
			continue;
		if (t->dtype == AB_DTYPE_I32 && !with_i32)
			continue;
		n += elems(t);
	}
	return n;
}

static size_t count_ops(const char *type)
{
	size_t n = 0;

	for (size_t i = 0; i < zg.n_ops; i++)
		n += !strcmp(zg.ops[i].type, type);
	return n;
}

static uint64_t largest_activation(void)
{
	uint64_t best = 0;

	for (size_t i = 0; i < zg.n_tensors; i++) {
		const struct ab_tensor *t = &zg.tensors[i];

		if (t->kind == AB_KIND_INTERMEDIATE && elems(t) > best)
			best = elems(t);
	}
	return best;
}

/* True if a non-const tensor has exactly these dims. */
static bool has_shape(int rank, const int64_t *dims)
{
	for (size_t i = 0; i < zg.n_tensors; i++) {
		const struct ab_tensor *t = &zg.tensors[i];

		if (t->kind == AB_KIND_CONST || t->rank != rank)
			continue;
		if (!memcmp(t->dims, dims, sizeof(int64_t) * (size_t)rank))
			return true;
	}
	return false;
}

#define SHAPE(...) (int)(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)), \
	(const int64_t[]){ __VA_ARGS__ }
#define EXPECT_SHAPE(...) cr_expect(has_shape(SHAPE(__VA_ARGS__)), \
	"%s: no tensor of shape %s", zpath, #__VA_ARGS__)

static void expect_near(uint64_t got, double want, double tol, const char *what)
{
	double rel = fabs((double)got - want) / want;

	cr_expect(rel <= tol, "%s: %s = %llu, published %.0f (off by %.2f%%, tolerance %.1f%%)",
		  zpath, what, (unsigned long long)got, want, 100 * rel, 100 * tol);
}

TestSuite(zoo, .fini = zoo_fini);

/* Sandler et al. 2018, Table 2: the first expansion (t = 6 on 16 channels at
 * 112x112) gives 112x112x96 = 1,204,224 elements, the largest tensor;
 * 3.4M parameters (Table 4, 1000 classes; 1001 here) within 3%. */
Test(zoo, mobilenet_v2)
{
	zoo_load("mobilenet_v2_1.0_224_f32");
	cr_expect_eq(largest_activation(), 1204224);
	EXPECT_SHAPE(1, 112, 112, 96);
	EXPECT_SHAPE(1, 56, 56, 144);
	EXPECT_SHAPE(1, 7, 7, 320);
	EXPECT_SHAPE(1, 7, 7, 1280);
	/* 17 bottlenecks; residual adds where s = 1 and c_in = c_out:
	 * (2-1) + (3-1) + (4-1) + (3-1) + (3-1) = 10. */
	cr_expect_eq(count_ops("ADD"), 10);
	cr_expect_eq(count_ops("DEPTHWISE_CONV_2D"), 17);
	expect_near(params(false), 3.4e6, 0.03, "parameters");
}

/* Howard et al. 2017, Table 1 and 8: 4.2M parameters at 1.0/224 (Table 8);
 * 13 depthwise layers; the widest activation 112x112x64. */
Test(zoo, mobilenet_v1)
{
	zoo_load("mobilenet_v1_1.0_224_f32");
	cr_expect_eq(count_ops("DEPTHWISE_CONV_2D"), 13);
	cr_expect_eq(count_ops("CONV_2D"), 15); /* first, 13 pointwise, logits */
	EXPECT_SHAPE(1, 112, 112, 64);
	EXPECT_SHAPE(1, 7, 7, 1024);
	expect_near(params(false), 4.2e6, 0.02, "parameters");
	/* 0.25/128: 0.47M parameters (Table 8 lists 0.47M for 0.25 MobileNet). */
	zoo_load("mobilenet_v1_0.25_128_f32");
	expect_near(params(false), 0.47e6, 0.02, "parameters");
	EXPECT_SHAPE(1, 64, 64, 16);
}

/* He et al. 2016, Table 1: ResNet-50 has 3 + 4 + 6 + 3 = 16 bottleneck
 * blocks, ResNet-18 has 8 basic blocks.  Parameters: torchvision's published
 * counts 25,557,032 and 11,689,512 include batch-norm gamma and beta; with
 * BN folded each BN channel keeps one bias instead of two, so subtract the
 * BN channel counts (hand-summed from Table 1: 26,560 and 4,800). */
Test(zoo, resnet)
{
	zoo_load("resnet50_f32");
	cr_expect_eq(count_ops("ADD"), 16);
	cr_expect_eq(params(false), 25557032 - 26560);
	EXPECT_SHAPE(1, 112, 112, 64);
	EXPECT_SHAPE(1, 56, 56, 256);
	EXPECT_SHAPE(1, 28, 28, 512);
	EXPECT_SHAPE(1, 14, 14, 1024);
	EXPECT_SHAPE(1, 7, 7, 2048);
	zoo_load("resnet18_f32");
	cr_expect_eq(count_ops("ADD"), 8);
	cr_expect_eq(params(false), 11689512 - 4800);
	EXPECT_SHAPE(1, 7, 7, 512);
}

/* Szegedy et al. 2016, Table 1: 35x35x288 after the 35x35 modules (the
 * first outputs 256), 17x17x768, 8x8x2048.  Parameters: the Keras
 * application's trainable count 23,817,352 (conv weights + BN beta + FC)
 * equals the folded count. */
Test(zoo, inception_v3)
{
	zoo_load("inception_v3_f32");
	EXPECT_SHAPE(1, 147, 147, 64);
	EXPECT_SHAPE(1, 35, 35, 192);
	EXPECT_SHAPE(1, 35, 35, 256);
	EXPECT_SHAPE(1, 35, 35, 288);
	EXPECT_SHAPE(1, 17, 17, 768);
	EXPECT_SHAPE(1, 8, 8, 1280);
	EXPECT_SHAPE(1, 8, 8, 2048);
	cr_expect_eq(params(false), 23817352);
}

/* Huang et al. 2017, Table 1: 6 + 12 + 24 + 16 = 58 dense layers, each
 * ending in a concat; block outputs 64 + 6*32 = 256, 128 + 12*32 = 512,
 * 256 + 24*32 = 1024, 512 + 16*32 = 1024 channels; 8.0M parameters
 * (torchvision 7,978,856) within 1%. */
Test(zoo, densenet121)
{
	zoo_load("densenet121_f32");
	cr_expect_eq(count_ops("CONCATENATION"), 58);
	EXPECT_SHAPE(1, 56, 56, 256);
	EXPECT_SHAPE(1, 28, 28, 512);
	EXPECT_SHAPE(1, 14, 14, 1024);
	EXPECT_SHAPE(1, 7, 7, 1024);
	expect_near(params(false), 7978856, 0.01, "parameters");
}

/* Tan & Le 2019, Table 1: 16 MBConv blocks, stem 112x112x32, head
 * 7x7x1280; 5.3M parameters (Table 2) within 2%. */
Test(zoo, efficientnet_b0)
{
	zoo_load("efficientnet_b0_f32");
	EXPECT_SHAPE(1, 112, 112, 32);
	EXPECT_SHAPE(1, 112, 112, 16);
	EXPECT_SHAPE(1, 56, 56, 24);
	EXPECT_SHAPE(1, 7, 7, 320);
	EXPECT_SHAPE(1, 7, 7, 1280);
	/* one SE gate per block: 16 MEAN ops + the head's global pool */
	cr_expect_eq(count_ops("MEAN"), 17);
	expect_near(params(false), 5.3e6, 0.02, "parameters");
}

/* Howard et al. 2019, Table 3: Large 5.4M, Small 2.5M parameters (1000
 * classes; 1001 here adds 1,281 and 1,025) within 3%. */
Test(zoo, mobilenet_v3)
{
	zoo_load("mobilenet_v3_large_224_f32");
	EXPECT_SHAPE(1, 112, 112, 16);
	EXPECT_SHAPE(1, 7, 7, 960);
	expect_near(params(false), 5.4e6, 0.03, "parameters");
	zoo_load("mobilenet_v3_small_224_f32");
	EXPECT_SHAPE(1, 56, 56, 16);
	EXPECT_SHAPE(1, 7, 7, 576);
	expect_near(params(false), 2.5e6, 0.03, "parameters");
}

/* SqueezeNet 1.1: 1,235,496 parameters (no BN, so exact); 13x13x512 after
 * fire9; conv1 111x111x64. */
Test(zoo, squeezenet)
{
	zoo_load("squeezenet1.1_f32");
	cr_expect_eq(params(false), 1235496);
	EXPECT_SHAPE(1, 111, 111, 64);
	EXPECT_SHAPE(1, 55, 55, 128);
	EXPECT_SHAPE(1, 13, 13, 512);
	cr_expect_eq(count_ops("CONCATENATION"), 8);
}

/* Ronneberger et al. 2015, Figure 1: 572 -> 570x570x64 ... 388x388x2.
 * Parameters by hand: encoder 18,842,048 + decoder 12,188,610. */
Test(zoo, unet)
{
	zoo_load("unet_f32");
	EXPECT_SHAPE(1, 570, 570, 64);
	EXPECT_SHAPE(1, 30, 30, 1024);
	EXPECT_SHAPE(1, 28, 28, 1024);
	EXPECT_SHAPE(1, 392, 392, 128);
	EXPECT_SHAPE(1, 388, 388, 2);
	cr_expect_eq(params(false), 31030658);
}

/* DeepLab v3 at 513 with output stride 16: features 33x33x320, logits
 * upsampled to 513x513x21, ARG_MAX to 513x513 int64. */
Test(zoo, deeplab_v3)
{
	zoo_load("deeplabv3_mnv2_513_u8");
	EXPECT_SHAPE(1, 257, 257, 96);
	EXPECT_SHAPE(1, 33, 33, 320);
	EXPECT_SHAPE(1, 33, 33, 512);
	EXPECT_SHAPE(1, 513, 513, 21);
	EXPECT_SHAPE(1, 513, 513);
}

/* SSD-MobileNet v2 300: 19*19*3 + (100 + 25 + 9 + 4 + 1) * 6 = 1917 boxes. */
Test(zoo, ssd_mobilenet_v2)
{
	zoo_load("ssd_mobilenet_v2_300_f32");
	EXPECT_SHAPE(1, 19, 19, 576);
	EXPECT_SHAPE(1, 10, 10, 1280);
	EXPECT_SHAPE(1, 1, 1, 128);
	EXPECT_SHAPE(1, 1917, 4);
	EXPECT_SHAPE(1, 1917, 91);
}

/* Devlin et al. 2019: BERT-base 110M parameters; 12 layers, 12 heads at
 * sequence 128 give 1x12x128x128 scores. */
Test(zoo, bert_base)
{
	zoo_load("bert_base_seq128_f32");
	expect_near(params(false), 110e6, 0.01, "parameters");
	EXPECT_SHAPE(1, 12, 128, 128);
	EXPECT_SHAPE(1, 128, 3072);
	cr_expect_eq(count_ops("SOFTMAX"), 12);
}

/* Dosovitskiy et al. 2021, Table 1: ViT-Base 86M; 14*14 + 1 = 197 tokens. */
Test(zoo, vit_b16)
{
	zoo_load("vit_b16_f32");
	expect_near(params(false), 86e6, 0.01, "parameters");
	EXPECT_SHAPE(1, 14, 14, 768);
	EXPECT_SHAPE(1, 197, 768);
	EXPECT_SHAPE(1, 12, 197, 197);
}

/* GPT-2 small: 124,439,808 parameters with the tied embedding (the paper's
 * Table 2 says 117M, a miscount noted by its authors); KV cache
 * 12 layers x 2 x 12 x 1024 x 64 x 4 bytes = 75,497,472 bytes of vars. */
Test(zoo, gpt2_small)
{
	const char *names[2] = { "gpt2_small_prefill128_f32", "gpt2_small_decode_f32" };

	for (int k = 0; k < 2; k++) {
		uint64_t var = 0;

		zoo_load(names[k]);
		expect_near(params(false), 124439808, 0.001, "parameters");
		for (size_t i = 0; i < zg.n_tensors; i++)
			if (zg.tensors[i].kind == AB_KIND_VAR)
				var += zg.tensors[i].bytes;
		cr_expect_eq(var, 75497472, "%s: KV cache bytes %llu", zpath,
			     (unsigned long long)var);
	}
	EXPECT_SHAPE(1, 12, 1, 1024);  /* decode scores over the cache */
	EXPECT_SHAPE(1, 1, 50257);
	zoo_load("gpt2_small_prefill128_f32");
	EXPECT_SHAPE(1, 12, 128, 128);
	EXPECT_SHAPE(1, 128, 50257);
}

/* MLPerf Tiny, parameters summed by hand from the reference models:
 * DS-CNN 2,624 + 4 x (640 + 4,160) + 780 = 22,604;
 * ResNet-8 448 + 4,640 + 14,432 + 57,536 + 650 = 77,706;
 * FC autoencoder 82,048 + 3 x 16,512 + 1,032 + 1,152 + 3 x 16,512 + 82,560
 * = 265,864; MobileNet v1 0.25 at 2 classes 224 + 12,400 + 197,712 + 514
 * = 210,850. */
Test(zoo, mlperf_tiny)
{
	zoo_load("tiny_kws_dscnn_f32");
	cr_expect_eq(params(false), 22604);
	EXPECT_SHAPE(1, 25, 5, 64);
	zoo_load("tiny_ic_resnet8_f32");
	cr_expect_eq(params(false), 77706);
	EXPECT_SHAPE(1, 8, 8, 64);
	zoo_load("tiny_ad_fc_autoencoder_f32");
	cr_expect_eq(params(false), 265864);
	EXPECT_SHAPE(1, 8);
	zoo_load("tiny_vww_mobilenet_v1_0.25_96_f32");
	cr_expect_eq(params(false), 210850);
	EXPECT_SHAPE(1, 48, 48, 8);
	EXPECT_SHAPE(1, 3, 3, 256);
	/* int8: 1-byte weights, 4-byte biases: the same counts in elements */
	zoo_load("tiny_vww_mobilenet_v1_0.25_96_i8");
	cr_expect_eq(params(true), 210850 + 2);
}

/* --------------------------------------------- synthetic family properties */

static struct ab_graph sg;

static void syn_load(const char *name)
{
	struct ab_error err = { { 0 } };
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "graphs/synthetic/%s.graph", name);
	ab_graph_free(&sg);
	memset(&sg, 0, sizeof(sg));
	cr_assert_eq(ab_graph_load(p, &sg, &err), 0, "%s", err.msg);
}

static void syn_fini(void)
{
	ab_graph_free(&sg);
	memset(&sg, 0, sizeof(sg));
}

TestSuite(synthetic, .fini = syn_fini);

Test(synthetic, decoder_keeps_cache_in_vars)
{
	size_t vars = 0, side = 0;

	syn_load("decoder_small_s1");
	for (size_t i = 0; i < sg.n_tensors; i++)
		vars += sg.tensors[i].kind == AB_KIND_VAR;
	for (size_t i = 0; i < sg.n_ops; i++)
		side += !!(sg.ops[i].flags & AB_OP_SIDE_EFFECT);
	cr_expect_eq(vars, 4);  /* layers=2: K and V per layer */
	cr_expect_eq(side, 4);
}

Test(synthetic, dense_layers_read_all_earlier_outputs)
{
	size_t k = 0;

	syn_load("dense_small_s1");
	for (size_t i = 0; i < sg.n_ops; i++)
		if (!strcmp(sg.ops[i].type, "DENSE_LAYER"))
			cr_expect_eq(sg.ops[i].n_inputs, (int)(k++ % 4) + 1);
	cr_expect_eq(k, 8); /* blocks=2 layers=4 */
}

Test(synthetic, training_has_three_phases)
{
	size_t phases = 0;

	syn_load("training_small_s1");
	for (size_t i = 0; i < sg.n_ops; i++)
		phases += sg.ops[i].phase_start;
	cr_expect_eq(phases, 2); /* forward | backward | optimizer */
}

/* Checkerboard medium: live never exceeds load x unit = 256 x 1024 bytes,
 * and the last round's blocks are 1024 x 2^8 = 256 KiB. */
Test(synthetic, checkerboard_load)
{
	struct ab_load_options o = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input in;

	cr_assert_eq(ab_input_load("graphs/synthetic/adversarial_medium_s1.graph",
				   &o, &in, &err), 0, "%s", err.msg);
	cr_expect_eq(ab_lower_bound(&in.problem, NULL), 262144);
	ab_input_free(&in);
}

/* Sweep: n buffers, sizes in [64, 1 MiB], about sqrt(n) live. */
Test(synthetic, sweep_problem_shape)
{
	static const int sizes[2] = { 100, 1000 };

	for (int k = 0; k < 2; k++) {
		struct ab_load_options o = { 0 };
		struct ab_error err = { { 0 } };
		struct ab_input in;
		char p[PATH_MAX];
		double root = sqrt(sizes[k]);
		size_t live;

		snprintf(p, sizeof(p), "graphs/sweep/sweep_n%d_s1.csv", sizes[k]);
		cr_assert_eq(ab_input_load(p, &o, &in, &err), 0, "%s", err.msg);
		cr_expect_eq(in.problem.n, (size_t)sizes[k]);
		for (size_t i = 0; i < in.problem.n; i++)
			cr_expect(in.problem.buf[i].size >= 64 &&
				  in.problem.buf[i].size <= 1048576);
		live = ab_max_live_buffers(&in.problem);
		cr_expect(live >= root && live <= 2.5 * root,
			  "%s: max live %zu for sqrt(n) = %.1f", p, live, root);
		ab_input_free(&in);
	}
}

/* ----------------------------------------- faithfulness to real .tflite */

static void faithful(const char *real, const char *zoo)
{
	struct ab_load_options o = { 0 };
	struct ab_error err = { { 0 } };
	struct ab_input a, b;
	char rp[PATH_MAX], zp[PATH_MAX];
	uint64_t sa, sb, la, lb;

	snprintf(rp, sizeof(rp), "../shared/models/%s", real);
	snprintf(zp, sizeof(zp), "graphs/zoo/%s.graph", zoo);
	if (access(rp, R_OK))
		cr_skip_test("%s not found (needs ../shared next to the repository)", rp);
	cr_assert_eq(ab_input_load(rp, &o, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ab_input_load(zp, &o, &b, &err), 0, "%s", err.msg);
	sa = ab_sum_bytes(&a.problem);
	sb = ab_sum_bytes(&b.problem);
	la = ab_lower_bound(&a.problem, NULL);
	lb = ab_lower_bound(&b.problem, NULL);
	cr_expect(fabs((double)sb - (double)sa) <= 0.05 * (double)sa,
		  "%s: activation sum %llu vs real %llu", zoo,
		  (unsigned long long)sb, (unsigned long long)sa);
	cr_expect(fabs((double)lb - (double)la) <= 0.05 * (double)la,
		  "%s: lower bound %llu vs real %llu", zoo,
		  (unsigned long long)lb, (unsigned long long)la);
	cr_expect(fabs((double)b.problem.weights_bytes - (double)a.problem.weights_bytes) <=
		  0.05 * (double)a.problem.weights_bytes,
		  "%s: weights %llu vs real %llu", zoo,
		  (unsigned long long)b.problem.weights_bytes,
		  (unsigned long long)a.problem.weights_bytes);
	ab_input_free(&a);
	ab_input_free(&b);
}

Test(faithful, mobilenet_v1_025_128_u8)
{
	faithful("coral_test_data/mobilenet_v1_0.25_128_quant.tflite", "mobilenet_v1_0.25_128_u8");
}

Test(faithful, mobilenet_v2_u8)
{
	faithful("coral_test_data/mobilenet_v2_1.0_224_quant.tflite", "mobilenet_v2_1.0_224_u8");
}

Test(faithful, mobilenet_v2_i8)
{
	faithful("coral_test_data/tf2_mobilenet_v2_1.0_224_ptq.tflite", "mobilenet_v2_1.0_224_i8");
}

Test(faithful, deeplab_v3_u8)
{
	faithful("coral_test_data/deeplabv3_mnv2_pascal_quant.tflite", "deeplabv3_mnv2_513_u8");
}

Test(faithful, person_detection)
{
	faithful("tflm/person_detect.tflite", "person_detection_i8");
}
