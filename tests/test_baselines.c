/*
 * The faithful baselines against production planners (issue 7).
 *
 *  - reference: every peak in ../shared/reference/baselines.csv (alignment
 *    1, buffers planned in file order) is reproduced exactly:
 *      tflm_greedy        = tflm_greedy_peak
 *      linear             = tflm_linear_peak (NA for dp_net: not given)
 *      tflite_arena       = tflite_arena_peak
 *      greedy_by_size_gpu = gpu_greedy_by_size_peak
 *      gpu_greedy_in_order (and its core ab_gpu_greedy_in_order in
 *      planners/lib/gpu_objects.c) = gpu_greedy_in_order_peak
 *    tflite_arena ties: equal size *and* equal first use occur in A-K,
 *    input.12, the two audio_preprocessor models and dp_net.  ArenaPlanner
 *    sorts with libstdc++'s unstable std::sort; tflite_arena reproduces
 *    that sort's placement of equal elements (planners/lib/stdsort.c), and
 *    with it every figure matches.  With a stable sort (ties by index)
 *    instead, H.1048576 would differ: 1421312 instead of 1433600 (pinned
 *    below, so the reason stays documented).
 *    gpu_greedy_in_order_peak is *not* a first-fit figure: the delegate's
 *    GREEDY_IN_ORDER assigns shared objects and lays them end to end.
 *    first_fit_in_order (true first fit in that order) is pinned here
 *    against its own figures and is never worse than the delegate's
 *    objects except where noted.
 *  - hand: one small problem, each baseline's offsets computed by hand
 *    from its source's rules (comments below).
 * The reference part is skipped when ../shared is absent.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arenabench.h"
#include "lib/gpu_objects.h"
#include "lib/placement.h"
#include "check/check.h"
#include "import/problem_csv.h"

#define SHARED "../shared"
#define REF SHARED "/reference/baselines.csv"

/* ------------------------------------------------------------- helpers */

static void plan_with(const char *name, const struct ab_problem *p,
		      uint32_t align, struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(name);
	struct ab_plan_options o = { .align = align };
	struct ab_check_result res;
	int rc;

	cr_assert_not_null(pl, "planner %s not registered", name);
	cr_assert_eq(ab_plan_alloc(plan, p->n), 0);
	rc = pl->plan(p, &o, plan);
	cr_assert_eq(rc, 0, "%s failed on %s: %d", name, p->name, rc);
	cr_assert_eq(ab_validate_plan(p, plan, align, &res), AB_PLAN_VALID,
		     "%s on %s: %s (buffers %zu, %zu)", name, p->name,
		     ab_verdict_name(res.verdict), res.a, res.b);
}

static uint64_t peak_of(const char *name, const struct ab_problem *p)
{
	struct ab_plan plan;
	uint64_t peak;

	plan_with(name, p, 1, &plan);
	peak = plan.peak;
	ab_plan_free(&plan);
	return peak;
}

/* ----------------------------------------------------------- reference */

struct ref_row {
	char problem[64], set[32];
	uint64_t tflm, linear, arena, gpu_size, gpu_order;
	bool linear_na;
};

static int read_rows(struct ref_row *rows, int max)
{
	FILE *f = fopen(REF, "r");
	char line[512];
	int n = 0;

	cr_assert_not_null(f, "cannot open %s", REF);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert(strstr(line, "problem,set,buffers,lower_bound_bytes,"
			       "tflm_greedy_peak,tflm_linear_peak,"
			       "tflite_arena_peak,gpu_greedy_by_size_peak,"
			       "gpu_greedy_in_order_peak"),
		  "unexpected header in %s: %s", REF, line);
	while (n < max && fgets(line, sizeof(line), f)) {
		struct ref_row *r = &rows[n];
		char lin[32];
		unsigned long long t, a, s, o;

		if (sscanf(line,
			   "%63[^,],%31[^,],%*[^,],%*[^,],%llu,%31[^,],%llu,%llu,%llu",
			   r->problem, r->set, &t, lin, &a, &s, &o) != 7)
			continue;
		r->tflm = t;
		r->arena = a;
		r->gpu_size = s;
		r->gpu_order = o;
		r->linear_na = !strcmp(lin, "NA");
		r->linear = r->linear_na ? 0 : strtoull(lin, NULL, 10);
		n++;
	}
	fclose(f);
	return n;
}

static void load_ref_problem(const struct ref_row *r, struct ab_problem *p)
{
	char path[512];
	struct ab_error err;
	int rc;

	snprintf(path, sizeof(path), "%s/%s/%s.csv", SHARED,
		 !strcmp(r->set, "minimalloc") ? "problems/minimalloc"
					       : "reference/tflm_problems",
		 r->problem);
	rc = ab_problem_load_csv(path, p, &err);
	cr_assert_eq(rc, 0, "%s: %s", path, err.msg);
}

static bool have_shared(void)
{
	struct stat st;

	return stat(REF, &st) == 0;
}

Test(reference, every_baseline_peak_exact)
{
	struct ref_row rows[64];
	int n, checked = 0;

	if (!have_shared())
		cr_skip_test("%s absent (run from the repo root next to "
			     "../shared); reference peaks not checked", REF);
	n = read_rows(rows, 64);
	cr_assert_geq(n, 31, "only %d rows in %s", n, REF);
	for (int k = 0; k < n; k++) {
		struct ab_problem p = { 0 };
		uint64_t *off, total;

		load_ref_problem(&rows[k], &p);
		cr_expect_eq(peak_of("tflm_greedy", &p), rows[k].tflm,
			     "tflm_greedy on %s", rows[k].problem);
		if (!rows[k].linear_na)
			cr_expect_eq(peak_of("linear", &p), rows[k].linear,
				     "linear on %s", rows[k].problem);
		cr_expect_eq(peak_of("tflite_arena", &p), rows[k].arena,
			     "tflite_arena on %s", rows[k].problem);
		cr_expect_eq(peak_of("greedy_by_size_gpu", &p),
			     rows[k].gpu_size, "greedy_by_size_gpu on %s",
			     rows[k].problem);
		off = malloc((p.n + 1) * sizeof(*off));
		cr_assert_eq(ab_gpu_greedy_in_order(&p, off, &total), 0);
		cr_expect_eq(total, rows[k].gpu_order,
			     "gpu greedy in order (lib) on %s", rows[k].problem);
		free(off);
		cr_expect_eq(peak_of("gpu_greedy_in_order", &p),
			     rows[k].gpu_order, "gpu_greedy_in_order on %s",
			     rows[k].problem);
		ab_problem_free(&p);
		checked++;
	}
	cr_assert_eq(checked, n);
}

/* first_fit_in_order against the delegate's GREEDY_IN_ORDER objects: its
 * own figures (first fit is a different rule), pinned. */
Test(reference, first_fit_in_order_pinned)
{
	static const struct {
		const char *problem, *set;
		uint64_t peak;
	} pins[] = {
		{ "A.1048576", "minimalloc", 1608704 },
		{ "D.1048576", "minimalloc", 1547264 },
		{ "I.1048576", "minimalloc", 1629184 },
		{ "id_model", "tflm_model", 224488 },
		{ "person_detect", "tflm_model", 82944 },
		{ "retinaface_torch", "tflm_model", 288000 },
	};

	if (!have_shared())
		cr_skip_test("%s absent; reference problems not checked", REF);
	for (size_t k = 0; k < sizeof(pins) / sizeof(pins[0]); k++) {
		struct ref_row r = { 0 };
		struct ab_problem p = { 0 };

		snprintf(r.problem, sizeof(r.problem), "%s", pins[k].problem);
		snprintf(r.set, sizeof(r.set), "%s", pins[k].set);
		load_ref_problem(&r, &p);
		cr_expect_eq(peak_of("first_fit_in_order", &p), pins[k].peak,
			     "first_fit_in_order on %s", pins[k].problem);
		ab_problem_free(&p);
	}
}

/* Why tflite_arena needs libstdc++'s tie order: ties by index on H give
 * another peak.  Recomputed here with a stable order + the same rule. */
Test(reference, tflite_arena_tie_order_matters_on_H)
{
	struct ref_row r = { .problem = "H.1048576", .set = "minimalloc" };
	struct ab_problem p = { 0 };
	uint64_t *size, *first, *off, top;
	uint32_t *order;
	struct ab_plan_options o = { .align = 1 };

	if (!have_shared())
		cr_skip_test("%s absent; reference problems not checked", REF);
	load_ref_problem(&r, &p);
	size = malloc(p.n * sizeof(*size));
	first = malloc(p.n * sizeof(*first));
	off = malloc(p.n * sizeof(*off));
	order = malloc(p.n * sizeof(*order));
	for (size_t i = 0; i < p.n; i++) {
		/* H has no whole-run buffer, so this is ArenaPlanner's key */
		cr_assert(!(p.buf[i].first == 0 && p.buf[i].last == p.steps - 1));
		size[i] = ~p.buf[i].size;
		first[i] = (uint64_t)p.buf[i].first;
	}
	const uint64_t *keys[] = { size, first };
	cr_assert_eq(ab_order_by_keys(&p, order, keys, 2), 0);
	/* SimpleMemoryArena's rule = ab_fit_best at alignment 1 */
	cr_assert_eq(ab_place_nonempty_in_order(&p, &o, order, p.n, ab_fit_best,
					   off, &top), 0);
	cr_expect_eq(top, 1421312);
	cr_expect_eq(peak_of("tflite_arena", &p), 1433600);
	free(size);
	free(first);
	free(off);
	free(order);
	ab_problem_free(&p);
}

/* ---------------------------------------------------------------- hand */

/*
 * One problem, five buffers, steps 0..1 (steps = 2):
 *
 *   i  name size first last
 *   0  A    6    0     0
 *   1  B    3    0     1     (whole run)
 *   2  C    2    0     0
 *   3  D    2    0     1     (whole run)
 *   4  Q    1    1     1
 *
 * Q arrives last in every size order and sees, at step 1, B and D with a
 * 6-byte hole below B and a 2-byte hole between B and D in the size-order
 * layouts: first fit takes the low hole, best fit the small one.
 */
static void hand_problem(struct ab_problem *p)
{
	static const struct { uint64_t size; int32_t first, last; } b[] = {
		{ 6, 0, 0 }, { 3, 0, 1 }, { 2, 0, 0 }, { 2, 0, 1 }, { 1, 1, 1 },
	};

	cr_assert_eq(ab_problem_alloc(p, 5), 0);
	p->name = strdup("hand");
	p->steps = 2;
	for (size_t i = 0; i < 5; i++) {
		p->buf[i].size = b[i].size;
		p->buf[i].align = 1;
		p->buf[i].first = b[i].first;
		p->buf[i].last = b[i].last;
		p->id[i] = (int64_t)i;
	}
}

static void expect_offsets(const char *name, const uint64_t *want,
			   uint64_t peak)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;

	hand_problem(&p);
	plan_with(name, &p, 1, &plan);
	for (size_t i = 0; i < p.n; i++)
		cr_expect_eq(plan.offset[i], want[i],
			     "%s: buffer %zu at %llu, want %llu", name, i,
			     (unsigned long long)plan.offset[i],
			     (unsigned long long)want[i]);
	cr_expect_eq(plan.peak, peak, "%s: peak %llu, want %llu", name,
		     (unsigned long long)plan.peak, (unsigned long long)peak);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}

/* TFLM: size desc, equal sizes in reverse index order: A B D C Q.
 * A -> 0.  B meets A [0,6) -> 6.  D meets A, B [6,9) -> 9.
 * C meets A, B, D [9,11) -> 11.  Q (step 1) meets B [6,9), D [9,11):
 * first fit -> 0.  Peak 13 (C ends at 13). */
Test(hand, tflm_greedy)
{
	expect_offsets("tflm_greedy", (uint64_t[]){ 0, 6, 11, 9, 0 }, 13);
}

/* ArenaPlanner: B and D live the whole run (first 0, last 1): first, by
 * index.  Then A (6), C (2), Q (1).  B -> 0 (nothing placed).  D meets B
 * [0,3) -> 3.  A meets B, D [3,5) -> 5.  C meets B, D, A [5,11) -> 11.
 * Q meets B [0,3), D [3,5): no gap below -> 5.  Peak 13. */
Test(hand, tflite_arena)
{
	expect_offsets("tflite_arena", (uint64_t[]){ 5, 0, 11, 3, 5 }, 13);
}

/* GPU greedy by size: stable size desc = A B C D Q.  A -> 0.  B -> 6.
 * C (step 0) meets A [0,6), B [6,9) -> 9.  D meets A, B, C [9,11) -> 11.
 * Q meets B [6,9), D [11,13): gaps [0,6) (room 6) and [9,11) (room 2):
 * best fit -> 9.  Peak 13. */
Test(hand, greedy_by_size_gpu)
{
	expect_offsets("greedy_by_size_gpu", (uint64_t[]){ 0, 6, 9, 11, 9 },
		       13);
}

/* First fit by first use: A B C D (first 0, by index), Q.  A -> 0,
 * B -> 6, C -> 9, D -> 11, Q meets B [6,9), D [11,13) -> 0.  Peak 13. */
Test(hand, first_fit_in_order)
{
	expect_offsets("first_fit_in_order", (uint64_t[]){ 0, 6, 9, 11, 0 },
		       13);
}

/* XLA.  Spatial: size desc, length desc, index: A B D C Q.  A -> 0
 * (heap 6).  B meets A -> off 6, top chunk [6,6) empty -> 6 (heap 9).
 * D meets A, B -> 9 (heap 11).  C meets A, B, D -> 11 (heap 13).
 * Q meets B [6,9), D [9,11): free [0,6) size 6; top chunk [11,13) size 2
 * fits and is smaller -> 11.  Heap 13.
 * Temporal: length desc, size desc: B D A C Q.  B -> 0 (3), D -> 3 (5),
 * A meets B, D -> 5 (11), C -> 11 (13), Q meets B, D: top chunk [5,13)
 * -> 5.  Heap 13.  Equal heaps: the first (spatial) is kept. */
Test(hand, xla_best_fit)
{
	expect_offsets("xla_best_fit", (uint64_t[]){ 0, 6, 11, 9, 11 }, 13);
}

/* GPU greedy in order (objects): by first use A B C D Q.  A, B, C, D find
 * an empty pool: objects 0..3 of sizes 6, 3, 2, 2.  Q (first 1) frees the
 * objects whose last use is < 1: A's (6) and C's (2); the smallest >= 1 is
 * C's object (size 2, nothing smaller) -> object 2.  End to end: objects at
 * 0, 6, 9, 11; Q at 9; total 13. */
Test(hand, gpu_greedy_in_order_objects)
{
	struct ab_problem p = { 0 };
	uint64_t off[5], total;
	const uint64_t want[5] = { 0, 6, 9, 11, 9 };

	hand_problem(&p);
	cr_assert_eq(ab_gpu_greedy_in_order(&p, off, &total), 0);
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(off[i], want[i], "buffer %zu", i);
	cr_expect_eq(total, 13);
	ab_problem_free(&p);
}

/* Every baseline at alignment 16 on the hand problem: offsets aligned and
 * the plan valid (plan_with runs the geometric check). */
Test(hand, aligned_plans_valid)
{
	struct ab_problem p = { 0 };
	const char *names[] = { "tflm_greedy", "tflite_arena",
				"greedy_by_size_gpu", "first_fit_in_order",
				"xla_best_fit", "gpu_greedy_in_order" };

	hand_problem(&p);
	for (size_t k = 0; k < 6; k++) {
		struct ab_plan plan;

		plan_with(names[k], &p, 16, &plan);
		for (size_t i = 0; i < p.n; i++)
			cr_expect_eq(plan.offset[i] % 16, 0, "%s", names[k]);
		ab_plan_free(&plan);
	}
	ab_problem_free(&p);
}

/* gpu_greedy_in_order at alignment 4 on the hand problem: the objects of
 * gpu_greedy_in_order_objects (sizes 6, 3, 2, 2, in creation order; Q
 * shares C's object) get aligned bases: 0; align_up(0+6, 4) = 8;
 * align_up(8+3, 4) = 12; align_up(12+2, 4) = 16; peak 16 + 2 = 18. */
Test(hand, gpu_greedy_in_order_aligned_bases)
{
	struct ab_problem p = { 0 };
	struct ab_plan plan;
	const uint64_t want[5] = { 0, 8, 12, 16, 12 };

	hand_problem(&p);
	plan_with("gpu_greedy_in_order", &p, 4, &plan);
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(plan.offset[i], want[i], "buffer %zu", i);
	cr_expect_eq(plan.peak, 18);
	ab_plan_free(&plan);
	ab_problem_free(&p);
}
