/*
 * Best fit through the checkpoint index on every real input there is: the
 * default corpus (graphs/starter, sweep, synthetic, zoo), minimalloc's suite and
 * the shared real models (../shared, skipped with a message when absent).
 * For each of the three best-fit rules (ab_fit_best's, TFLite's, XLA's),
 * in size-descending and first-use order, at alignments 1 and 64, the index
 * forced (its default spacing and batch, and spacing 4 in the order itself)
 * gives the O(n^2) oracle's offsets (tests/lib/oracle.c).  The inputs are
 * small (the largest a few thousand buffers), so the index is not the
 * planners' route here: this is the old path's answer forced through the
 * new one.  test_mechanics.c covers random and large-k problems.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/first_fit_index.h"
#include "lib/placement.h"
#include "oracle.h"
#include "testutil.h"

static const enum ab_index_rule rules[] = { AB_INDEX_BEST_FIT, AB_INDEX_TFLITE,
					    AB_INDEX_XLA };
static const enum oracle_rule oracles[] = { ORACLE_SMALLEST, ORACLE_TFLITE,
					    ORACLE_XLA };

static void check_problem(const char *path, const struct ab_problem *p,
			  void *ctx)
{
	uint32_t *order = malloc((p->n + 1) * sizeof(*order));
	uint64_t *want = calloc(p->n + 1, sizeof(*want));
	uint64_t *got = calloc(p->n + 1, sizeof(*got)), top;
	bool empty = false;

	cr_assert(order && want && got);
	for (size_t i = 0; i < p->n; i++)
		empty |= !p->buf[i].size;
	for (int which = 0; which < 2; which++)
	for (uint32_t align = 1; align <= 64; align *= 64)
	for (int r = 0; r < 3; r++) {
		struct ab_plan_options o = { .align = align };

		cr_assert_eq(which ? ab_order_first_use(p, order)
				   : ab_order_size_desc(p, order), 0);
		cr_assert_eq(oracle_gap_rule(p, &o, order, p->n, oracles[r], want), 0);
		for (int c = 0; c < 2; c++) {
			struct ab_first_fit_config cfg = { c ? 4 : 0, c ? 1 : 0, 1 };
			int rc = ab_best_fit_place(p, &o, order, p->n, rules[r],
						   &cfg, got, &top, NULL);

			if (rules[r] == AB_INDEX_BEST_FIT && empty) {
				cr_assert_eq(rc, 1, "%s", path);
				continue;
			}
			cr_assert_eq(rc, 0, "%s", path);
			for (size_t i = 0; i < p->n; i++)
				cr_assert_eq(got[i], want[i],
					     "%s rule %d order %d align %u config %d: buffer %zu at %llu, oracle %llu",
					     path, r, which, align, c, i,
					     (unsigned long long)got[i],
					     (unsigned long long)want[i]);
		}
	}
	free(order);
	free(want);
	free(got);
}

Test(best_fit_corpus, default_corpus, .timeout = 600)
{
	tu_each_corpus_input(check_problem, NULL);
}

Test(best_fit_corpus, shared_problems_and_models, .timeout = 600)
{
	if (!tu_each_shared_input(check_problem, NULL))
		cr_skip_test("../shared is absent: minimalloc's suite and the real models not checked");
}
