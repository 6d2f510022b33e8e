/*
 * Developer tool: best_of's walk (planners/best_of.c: the leaders
 * size_first_fit, tflm_greedy, xla_best_fit, then the registry order) with
 * each member's thread CPU time, the cutoff it was given and how it ended
 * (rc -33 = AB_ABOVE_CUTOFF); `nocut` runs every member whole, `setup`
 * gives each cutoff 1 (it stops at its first placement: its set-up).
 * The members share one memo (ab_plan_options.memo), as in best_of; its
 * work is counted in the first member that asks for it.
 * Keep its leader list as best_of.c has it.
 *   cc -Iharness -Iplanners -Ibuild -O2 -o build/best_of_walk scripts/dev/best_of_walk.c \
 *      build/libarenabench.a -lstdc++ -lbenchmark -lpthread -lm
 *   taskset -c 0 build/best_of_walk PROBLEM [nocut|setup]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/arenabench.h"
#include "import/input.h"
#include "lib/memo.h"

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static const char *const leaders[] = { "size_first_fit", "tflm_greedy", "xla_best_fit" };
	const char *mode = argc > 2 ? argv[2] : "cut";
	struct ab_load_options lo;
	struct ab_input in;
	struct ab_error err;
	struct ab_plan tmp;
	size_t seq[256], n_seq = 0, count = ab_planner_count(), best_k = SIZE_MAX;
	bool queued[256] = { false };
	uint64_t best = UINT64_MAX, bound;
	double total = 0;
	struct ab_plan_memo *memo;

	memset(&lo, 0, sizeof(lo));
	if (argc < 2 || count > 256 || ab_input_load(argv[1], &lo, &in, &err)) {
		fprintf(stderr, "usage: best_of_walk PROBLEM [nocut|setup] (%s)\n", argc < 2 ? "" : err.msg);
		return 2;
	}
	bound = ab_lower_bound(&in.problem, NULL);
	for (size_t l = 0; l < 3; l++)
		for (size_t k = 0; k < count; k++)
			if (!strcmp(ab_planner_at(k)->name, leaders[l])) {
				seq[n_seq++] = k;
				queued[k] = true;
			}
	for (size_t k = 0; k < count; k++)
		if (!queued[k] && ab_planner_at(k)->cost == AB_COST_FAST &&
		    strcmp(ab_planner_at(k)->name, "best_of"))
			seq[n_seq++] = k;
	if (ab_plan_alloc(&tmp, in.problem.n) || !(memo = ab_plan_memo_new(&in.problem)))
		return 1;
	printf("%s: %zu buffers, lower bound %llu\n", argv[1], in.problem.n, (unsigned long long)bound);
	for (size_t s = 0; s < n_seq; s++) {
		size_t k = seq[s];
		bool may_tie = k < best_k;
		struct ab_plan_options o = { .align = 1, .memo = memo };
		double t0, t;
		int rc;

		if (best <= bound && !may_tie)
			continue;
		if (!strcmp(mode, "setup"))
			o.cutoff = 1;
		else if (strcmp(mode, "nocut") && best != UINT64_MAX)
			o.cutoff = may_tie ? best + 1 : best;
		ab_plan_reset(&tmp);
		t0 = cpu_seconds();
		rc = ab_planner_at(k)->plan(&in.problem, &o, &tmp);
		t = cpu_seconds() - t0;
		total += t;
		printf("%-20s %8.3f s  cutoff %14llu  rc %3d  peak %llu\n", ab_planner_at(k)->name, t,
		       (unsigned long long)o.cutoff, rc, rc ? 0ull : (unsigned long long)tmp.peak);
		if (!rc && (tmp.peak < best || (tmp.peak == best && may_tie))) {
			best = tmp.peak;
			best_k = k;
		}
	}
	printf("total %.3f s, best %llu (%s)\n", total, (unsigned long long)best,
	       best_k == SIZE_MAX ? "none" : ab_planner_at(best_k)->name);
	ab_plan_memo_free(memo);
	ab_plan_free(&tmp);
	ab_input_free(&in);
	return 0;
}
