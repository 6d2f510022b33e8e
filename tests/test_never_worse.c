/*
 * The promise users ask of a production planner: never worse than the
 * baseline.  On seeded random problems and on the corpus (graphs/zoo,
 * graphs/synthetic, minimalloc's suite and TFLM's problems when ../shared
 * is there), at alignments 1, 4 and 16:
 *   best_of <= every faithful baseline (each runtime's reproduced planner),
 *   exact   <= best_of (exact starts from best_of's plan, even on a
 *              budget of a few hundred nodes, used here to stay cheap),
 * and every plan involved passes the geometric check.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/graph_text.h"
#include "testutil.h"
#include "check/check.h"
#include "import/problem_csv.h"

static const char *const faithful[] = {
	"tflm_greedy",     "tflite_arena",     "greedy_by_size_gpu",
	"gpu_greedy_in_order", "xla_best_fit", "ggml_gallocr",
	"executorch_greedy", "ort_sequential", "ort_mem_pattern",
};
#define N_FAITHFUL (sizeof(faithful) / sizeof(faithful[0]))

static uint64_t peak_of(const char *name, const struct ab_problem *p,
			uint32_t align, uint64_t budget, const char *where)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = align, .seed = 1, .budget = budget };
	struct ab_check_result res;
	struct ab_plan plan;
	uint64_t peak;

	cr_assert_not_null(pl, "planner %s not registered", name);
	cr_assert_eq(ab_plan_alloc(&plan, p->n), 0);
	cr_assert_eq(pl->plan(p, &o, &plan), 0, "%s on %s failed", name, where);
	cr_expect_eq(ab_validate_plan(p, &plan, align, &res), AB_PLAN_VALID,
		     "%s on %s (align %u): %s", name, where, align,
		     ab_verdict_name(res.verdict));
	peak = plan.peak;
	ab_plan_free(&plan);
	return peak;
}

static void expect_never_worse(const struct ab_problem *p, const char *where)
{
	static const uint32_t aligns[] = { 1, 4, 16 };

	for (size_t a = 0; a < 3; a++) {
		uint64_t best = peak_of("best_of", p, aligns[a], 0, where);
		uint64_t ex = peak_of("exact", p, aligns[a], 300, where);

		for (size_t k = 0; k < N_FAITHFUL; k++) {
			uint64_t f = peak_of(faithful[k], p, aligns[a], 0, where);

			cr_expect_leq(best, f, "%s (align %u): best_of %llu > %s %llu",
				      where, aligns[a], (unsigned long long)best,
				      faithful[k], (unsigned long long)f);
		}
		cr_expect_leq(ex, best, "%s (align %u): exact %llu > best_of %llu",
			      where, aligns[a], (unsigned long long)ex,
			      (unsigned long long)best);
	}
}

static uint64_t next(uint64_t *s)
{
	uint64_t z = ab_mix64(*s);

	*s += 0x9e3779b97f4a7c15ull;
	return z;
}

Test(never_worse, random_problems, .timeout = 300)
{
	for (uint64_t seed = 1; seed <= 60; seed++) {
		uint64_t s = seed;
		size_t n = 1 + next(&s) % 40;
		int32_t steps = 1 + (int32_t)(next(&s) % 24);
		struct ab_problem p = { 0 };
		char where[64];

		cr_assert_eq(ab_problem_alloc(&p, n), 0);
		p.name = strdup("random");
		p.steps = steps;
		for (size_t i = 0; i < n; i++) {
			int32_t a = (int32_t)(next(&s) % (uint64_t)steps);
			int32_t b = (int32_t)(next(&s) % (uint64_t)steps);
			uint64_t r = next(&s) % 8;

			p.buf[i].first = a < b ? a : b;
			p.buf[i].last = a < b ? b : a;
			/* sizes: equal ones (ties), small, and spread */
			p.buf[i].size = r < 3 ? 64 : r < 5 ? 1 + next(&s) % 16
						       : 1 + next(&s) % 5000;
			p.buf[i].align = next(&s) % 5 == 0 ? 8 : 1;
			p.id[i] = (int64_t)i;
		}
		snprintf(where, sizeof(where), "random seed %llu",
			 (unsigned long long)seed);
		expect_never_worse(&p, where);
		ab_problem_free(&p);
	}
}

static void each_file(const char *dir, const char *ext)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t seen = 0;

	if (!d) {
		cr_log_info("%s absent: skipped", dir);
		return;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), el = strlen(ext);
		struct ab_problem p = { 0 };
		struct ab_error err = { { 0 } };
		char path[512];
		int rc;

		if (len <= el || strcmp(e->d_name + len - el, ext))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!strcmp(ext, ".csv")) {
			rc = ab_problem_load_csv(path, &p, &err);
		} else {
			struct ab_graph g;
			struct ab_problem_options po = { 0 };

			rc = ab_graph_load(path, &g, &err);
			if (!rc) {
				rc = ab_problem_from_graph(&g, &po, &p, &err);
				ab_graph_free(&g);
			}
		}
		cr_assert_eq(rc, 0, "%s: %s", path, err.msg);
		if (p.n <= 3000) /* the largest synthetic graphs are for scaling */
			expect_never_worse(&p, path);
		ab_problem_free(&p);
		seen++;
	}
	closedir(d);
	cr_expect_gt(seen, 0, "%s: no %s file", dir, ext);
}

Test(never_worse, corpus_graphs, .timeout = 600)
{
	each_file("graphs/zoo", ".graph");
	each_file("graphs/synthetic", ".graph");
}

Test(never_worse, shared_problems, .timeout = 600)
{
	if (!tu_dir_exists(AB_SHARED_DIR)) {
		cr_skip_test("%s absent: minimalloc's suite and TFLM's problems not checked",
			     AB_SHARED_DIR);
	}
	each_file(AB_SHARED_DIR "/problems/minimalloc", ".csv");
	each_file(AB_SHARED_DIR "/reference/tflm_problems", ".csv");
}
