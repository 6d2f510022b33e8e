/*
 * tiling: planning problems whose optimum is known by construction.
 *
 *   build/gen/tiling [--families guillotine,pinwheel] [--sizes 1000,...]
 *                    [--seeds 1,2,3] [--unit 64] OUTDIR
 *
 * A rectangle of T steps x W units of `unit` bytes is cut into n
 * rectangles; each becomes a buffer live over its steps, of its height in
 * bytes.  The tiling covers every (step, byte) cell, so the live bytes at
 * every step are W x unit: the lower bound, and the tiling itself is a
 * plan reaching it, so the optimum is W x unit exactly.  Sizes and the
 * construction's offsets are multiples of `unit`, so any alignment that
 * divides it (64 by default) keeps that optimum.
 *   guillotine: repeatedly a uniformly chosen rectangle is cut by a
 *     straight line (across its relatively longer side, at a uniform
 *     position), as in the guillotine instances OmniMalloc describes;
 *   pinwheel: a chosen rectangle is cut into five, four arms around a
 *     centre (no straight line separates them), falling back to straight
 *     cuts for pieces too thin for a pinwheel and for the last < 4 pieces.
 * T = 2n steps, W = 16384 units (1 MiB at unit 64).  Rows are written in
 * a seeded random order so the construction order is not given away.
 *
 * Writes, per family, size and seed, OUTDIR/<family>_n<N>_s<S>.csv (id,
 * lower,upper,size: half-open lifetimes) and OUTDIR/<same>.plan (the
 * construction's plan: id,lower,upper,size,offset, minimalloc's solution
 * format), and OUTDIR/index.tsv:
 *   problem family buffers seed steps optimum_bytes
 * Same arguments, same files byte for byte.  Everything goes through a
 * temporary file and a rename.
 */
#include "gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH_UNITS 16384

struct rect {
	int64_t t0, t1, y0, y1; /* steps [t0, t1), units [y0, y1) */
};

struct tiling {
	struct rect *r;
	size_t n, cap;
};

static void push(struct tiling *tl, struct rect r)
{
	if (tl->n == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 1024;
		tl->r = realloc(tl->r, tl->cap * sizeof(*tl->r));
		if (!tl->r)
			abort();
	}
	tl->r[tl->n++] = r;
}

/* Cuts r[i] in two by a straight line; false if it is a single cell. */
static bool cut_straight(struct tiling *tl, size_t i, struct gen_rng *g,
			 int64_t steps)
{
	struct rect a = tl->r[i], b = a;
	int64_t dt = a.t1 - a.t0, dy = a.y1 - a.y0;
	/* the relatively longer side (time scaled to the byte width) */
	bool in_time = dt > 1 && (dy == 1 || dt * WIDTH_UNITS >= dy * steps ||
				  gen_rng_range(g, 0, 3) == 0);

	if (dt == 1 && dy == 1)
		return false;
	if (in_time) {
		a.t1 = b.t0 = gen_rng_range(g, a.t0 + 1, a.t1 - 1);
	} else {
		a.y1 = b.y0 = gen_rng_range(g, a.y0 + 1, a.y1 - 1);
	}
	tl->r[i] = a;
	push(tl, b);
	return true;
}

/* Cuts r[i] into a pinwheel: with t0 < a < b < t1 and y0 < c < d < y1,
 * [t0,b)x[y0,c), [b,t1)x[y0,d), [a,t1)x[d,y1), [t0,a)x[c,y1) around the
 * centre [a,b)x[c,d).  False if r[i] is too thin (< 3 in a side). */
static bool cut_pinwheel(struct tiling *tl, size_t i, struct gen_rng *g)
{
	struct rect r = tl->r[i];
	int64_t a, b, c, d;

	if (r.t1 - r.t0 < 3 || r.y1 - r.y0 < 3)
		return false;
	a = gen_rng_range(g, r.t0 + 1, r.t1 - 2);
	b = gen_rng_range(g, a + 1, r.t1 - 1);
	c = gen_rng_range(g, r.y0 + 1, r.y1 - 2);
	d = gen_rng_range(g, c + 1, r.y1 - 1);
	tl->r[i] = (struct rect){ a, b, c, d };
	push(tl, (struct rect){ r.t0, b, r.y0, c });
	push(tl, (struct rect){ b, r.t1, r.y0, d });
	push(tl, (struct rect){ a, r.t1, d, r.y1 });
	push(tl, (struct rect){ r.t0, a, c, r.y1 });
	return true;
}

static void build(struct tiling *tl, bool pinwheel, int64_t n, int64_t steps,
		  struct gen_rng *g)
{
	tl->n = 0;
	push(tl, (struct rect){ 0, steps, 0, WIDTH_UNITS });
	while ((int64_t)tl->n < n) {
		size_t i = (size_t)gen_rng_range(g, 0, (int64_t)tl->n - 1);

		if (pinwheel && (int64_t)tl->n + 4 <= n) {
			/* a few tries for a piece thick enough */
			for (int k = 0; k < 8; k++) {
				if (cut_pinwheel(tl, i, g))
					goto next;
				i = (size_t)gen_rng_range(g, 0, (int64_t)tl->n - 1);
			}
		}
		cut_straight(tl, i, g, steps);
next:;
	}
}

static int write_problem(const char *dir, const char *family, bool pinwheel,
			 int64_t n, uint64_t seed, uint64_t unit)
{
	struct tiling tl = { 0 };
	struct gen_rng g;
	int64_t steps = 2 * n;
	size_t *perm, len_p = 0, len_s = 0, cap = (size_t)n * 64 + 64;
	char *prob = malloc(cap), *plan = malloc(cap), path[4096];
	int rc;

	perm = malloc((size_t)n * sizeof(*perm));
	if (!prob || !plan || !perm)
		abort();
	gen_rng_seed(&g, seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)n ^
			 (pinwheel ? 0x5bd1e995ull : 0));
	build(&tl, pinwheel, n, steps, &g);
	for (size_t i = 0; i < tl.n; i++)
		perm[i] = i;
	for (size_t i = tl.n; i > 1; i--) { /* Fisher-Yates */
		size_t j = (size_t)gen_rng_range(&g, 0, (int64_t)i - 1), t;

		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	len_p = (size_t)sprintf(prob, "id,lower,upper,size\n");
	len_s = (size_t)sprintf(plan, "id,lower,upper,size,offset\n");
	for (size_t k = 0; k < tl.n; k++) {
		const struct rect *r = &tl.r[perm[k]];
		unsigned long long lo = (unsigned long long)r->t0,
				   up = (unsigned long long)r->t1,
				   sz = (unsigned long long)((uint64_t)(r->y1 - r->y0) * unit),
				   off = (unsigned long long)((uint64_t)r->y0 * unit);

		len_p += (size_t)sprintf(prob + len_p, "%zu,%llu,%llu,%llu\n",
					 k, lo, up, sz);
		len_s += (size_t)sprintf(plan + len_s,
					 "%zu,%llu,%llu,%llu,%llu\n", k, lo, up,
					 sz, off);
	}
	snprintf(path, sizeof(path), "%s/%s_n%lld_s%llu.csv", dir, family,
		 (long long)n, (unsigned long long)seed);
	rc = gen_write_file(path, prob, len_p);
	if (!rc) {
		snprintf(path, sizeof(path), "%s/%s_n%lld_s%llu.plan", dir,
			 family, (long long)n, (unsigned long long)seed);
		rc = gen_write_file(path, plan, len_s);
	}
	free(tl.r);
	free(perm);
	free(prob);
	free(plan);
	return rc;
}

int main(int argc, char **argv)
{
	int64_t sizes[32] = { 1000 }, seeds[32] = { 1 }, unit = 64;
	int ns = 1, nseed = 1, nfam = 2;
	bool fam[2] = { true, true }; /* guillotine, pinwheel */
	static const char *const names[2] = { "guillotine", "pinwheel" };
	const char *dir = NULL;
	char ipath[4096], *idx = NULL;
	size_t ilen = 0, icap = 1 << 16;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			ns = gen_parse_list(argv[++i], sizes, 32);
		} else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			nseed = gen_parse_list(argv[++i], seeds, 32);
		} else if (!strcmp(argv[i], "--unit") && i + 1 < argc) {
			unit = strtoll(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--families") && i + 1 < argc) {
			const char *f = argv[++i];

			fam[0] = strstr(f, "guillotine") != NULL;
			fam[1] = strstr(f, "pinwheel") != NULL;
			nfam = fam[0] + fam[1];
		} else if (argv[i][0] == '-') {
			ns = -1;
			break;
		} else {
			dir = argv[i];
		}
	}
	if (!dir || ns < 1 || nseed < 1 || unit < 1 || !nfam) {
		fprintf(stderr, "usage: tiling [--families guillotine,pinwheel] [--sizes 1000,...] [--seeds 1,2,3] [--unit 64] OUTDIR\n");
		return 2;
	}
	if (gen_mkdirs(dir)) {
		fprintf(stderr, "tiling: cannot create %s\n", dir);
		return 1;
	}
	idx = malloc(icap);
	if (!idx)
		return 1;
	ilen = (size_t)sprintf(idx, "problem\tfamily\tbuffers\tseed\tsteps\toptimum_bytes\n");
	for (int f = 0; f < 2; f++)
		for (int a = 0; a < ns && fam[f]; a++)
			for (int b = 0; b < nseed; b++) {
				int rc = write_problem(dir, names[f], f == 1, sizes[a],
						       (uint64_t)seeds[b], (uint64_t)unit);

				if (rc) {
					fprintf(stderr, "tiling: %s n=%lld seed=%lld: %s\n",
						names[f], (long long)sizes[a],
						(long long)seeds[b], strerror(-rc));
					return 1;
				}
				if (ilen + 256 > icap)
					idx = realloc(idx, icap *= 2);
				if (!idx)
					return 1;
				ilen += (size_t)sprintf(idx + ilen, "%s_n%lld_s%lld\t%s\t%lld\t%lld\t%lld\t%llu\n",
							names[f], (long long)sizes[a], (long long)seeds[b],
							names[f], (long long)sizes[a], (long long)seeds[b],
							(long long)(2 * sizes[a]),
							(unsigned long long)WIDTH_UNITS * (unsigned long long)unit);
			}
	snprintf(ipath, sizeof(ipath), "%s/index.tsv", dir);
	if (gen_write_file(ipath, idx, ilen)) {
		fprintf(stderr, "tiling: cannot write %s\n", ipath);
		return 1;
	}
	fputs(idx, stdout);
	free(idx);
	return 0;
}
