/*
 * sweep: synthetic planning problems for the scaling study, as minimalloc
 * CSV (id,lower,upper,size; half-open [lower, upper) integer intervals).
 *
 *   build/gen/sweep [--sizes 100,1000,...] [--seeds 1,2,3] OUTDIR
 *
 * Writes OUTDIR/sweep_n<N>_s<S>.csv for every size and seed, and
 * OUTDIR/index.tsv with one tab-separated row per problem (a .tsv, so that
 * tools reading every *.csv of the folder as a problem skip it):
 *   problem buffers seed steps max_live_buffers sum_bytes lower_bound_bytes
 * (also printed to stdout).
 *
 * Model: n buffers over n steps.  Sizes are log-uniform in [64 B, 1 MiB];
 * each buffer starts at a uniform step in [0, n) and lives a uniform
 * length in [1, 2*sqrt(n) - 1] steps (mean sqrt(n)), so about sqrt(n)
 * buffers are live at once.  Rows are sorted by lower bound (ids follow).
 * Same n and seed, same file byte for byte.  10^6 buffers take well under
 * a second.
 */
#include "gen.h"
#include "core/textio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SIZE 64
#define MAX_SIZE (1u << 20)

struct stats {
	int64_t steps, max_live;
	uint64_t sum, lb;
};

static int write_problem(const char *dir, int64_t n, uint64_t seed,
			 struct stats *st)
{
	int64_t maxlen = 2 * (int64_t)sqrt((double)n) - 1;
	int64_t *lower = malloc(sizeof(*lower) * (size_t)n);
	int64_t *len = malloc(sizeof(*len) * (size_t)n);
	uint32_t *size = malloc(sizeof(*size) * (size_t)n);
	int64_t *count = calloc((size_t)n + 1, sizeof(*count));
	int64_t *order = malloc(sizeof(*order) * (size_t)n);
	int64_t *dlive = NULL;
	int64_t *dbytes = NULL;
	char path[4096], *buf = NULL, *p;
	struct gen_rng r;
	int rc = -ENOMEM;

	if (maxlen < 1)
		maxlen = 1;
	if (!lower || !len || !size || !count || !order)
		goto out;
	gen_rng_seed(&r, seed ^ ((uint64_t)n * 0x9e3779b97f4a7c15ull));
	for (int64_t i = 0; i < n; i++) {
		lower[i] = gen_rng_range(&r, 0, n - 1);
		len[i] = gen_rng_range(&r, 1, maxlen);
		size[i] = (uint32_t)gen_rng_log_uniform(&r, MIN_SIZE, MAX_SIZE);
		count[lower[i] + 1]++;
	}
	/* Counting sort by lower, stable in draw order. */
	for (int64_t i = 0; i < n; i++)
		count[i + 1] += count[i];
	for (int64_t i = 0; i < n; i++)
		order[count[lower[i]]++] = i;
	st->steps = n + maxlen;
	dlive = calloc((size_t)st->steps + 1, sizeof(*dlive));
	dbytes = calloc((size_t)st->steps + 1, sizeof(*dbytes));
	buf = malloc((size_t)n * 40 + 64);
	if (!dlive || !dbytes || !buf)
		goto out;
	p = buf;
	memcpy(p, "id,lower,upper,size\n", 20);
	p += 20;
	st->sum = 0;
	for (int64_t k = 0; k < n; k++) {
		int64_t i = order[k], lo = lower[i], up = lower[i] + len[i];

		p = ab_put_u64(p, (uint64_t)k);
		*p++ = ',';
		p = ab_put_u64(p, (uint64_t)lo);
		*p++ = ',';
		p = ab_put_u64(p, (uint64_t)up);
		*p++ = ',';
		p = ab_put_u64(p, size[i]);
		*p++ = '\n';
		dlive[lo]++;
		dlive[up]--;
		dbytes[lo] += size[i];
		dbytes[up] -= size[i];
		st->sum += size[i];
	}
	{
		int64_t live = 0, bytes = 0;

		st->max_live = 0;
		st->lb = 0;
		for (int64_t t = 0; t < st->steps; t++) {
			live += dlive[t];
			bytes += dbytes[t];
			if (live > st->max_live)
				st->max_live = live;
			if ((uint64_t)bytes > st->lb)
				st->lb = (uint64_t)bytes;
		}
	}
	snprintf(path, sizeof(path), "%s/sweep_n%lld_s%llu.csv", dir,
		 (long long)n, (unsigned long long)seed);
	rc = gen_write_file(path, buf, (size_t)(p - buf));
out:
	free(lower);
	free(len);
	free(size);
	free(count);
	free(order);
	free(dlive);
	free(dbytes);
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	int64_t sizes[32] = { 100, 1000, 10000, 100000, 1000000 }, seeds[32] = { 1, 2, 3 };
	int ns = 5, nseed = 3;
	const char *dir = NULL;
	char ipath[4096];
	struct gen_file idx;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
			ns = gen_parse_list(argv[++i], sizes, 32);
		} else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			nseed = gen_parse_list(argv[++i], seeds, 32);
		} else if (argv[i][0] == '-') {
			ns = -1;
			break;
		} else {
			dir = argv[i];
		}
	}
	if (!dir || ns < 1 || nseed < 1) {
		fprintf(stderr, "usage: sweep [--sizes 100,1000,...] [--seeds 1,2,3] OUTDIR\n");
		return 2;
	}
	if (gen_mkdirs(dir)) {
		fprintf(stderr, "sweep: cannot create %s\n", dir);
		return 1;
	}
	snprintf(ipath, sizeof(ipath), "%s/index.tsv", dir);
	rc = gen_file_open(&idx, ipath);
	if (rc) {
		fprintf(stderr, "sweep: %s: %s\n", ipath, strerror(-rc));
		return 1;
	}
	fprintf(idx.f, "problem\tbuffers\tseed\tsteps\tmax_live_buffers\tsum_bytes\tlower_bound_bytes\n");
	printf("problem\tbuffers\tseed\tsteps\tmax_live_buffers\tsum_bytes\tlower_bound_bytes\n");
	for (int a = 0; a < ns; a++)
		for (int b = 0; b < nseed; b++) {
			struct stats st;

			rc = write_problem(dir, sizes[a], (uint64_t)seeds[b], &st);
			if (rc) {
				fprintf(stderr, "sweep: n=%lld seed=%lld: %s\n",
					(long long)sizes[a], (long long)seeds[b], strerror(-rc));
				gen_file_close(&idx, rc);
				return 1;
			}
			fprintf(idx.f, "sweep_n%lld_s%lld\t%lld\t%lld\t%lld\t%lld\t%llu\t%llu\n",
				(long long)sizes[a], (long long)seeds[b], (long long)sizes[a],
				(long long)seeds[b], (long long)st.steps, (long long)st.max_live,
				(unsigned long long)st.sum, (unsigned long long)st.lb);
			printf("sweep_n%lld_s%lld\t%lld\t%lld\t%lld\t%lld\t%llu\t%llu\n",
			       (long long)sizes[a], (long long)seeds[b], (long long)sizes[a],
			       (long long)seeds[b], (long long)st.steps, (long long)st.max_live,
			       (unsigned long long)st.sum, (unsigned long long)st.lb);
		}
	if (gen_file_close(&idx, ferror(idx.f) ? -EIO : 0)) {
		fprintf(stderr, "sweep: cannot write %s\n", ipath);
		return 1;
	}
	return 0;
}
