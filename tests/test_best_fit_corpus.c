/*
 * Best fit through the checkpoint index on every real input there is: the
 * default corpus (graphs/starter, zoo, synthetic), minimalloc's suite and
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
#include <dirent.h>
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

static bool wanted(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && !strcmp(name + n - 6, ".graph")) ||
	       (n > 4 && !strcmp(name + n - 4, ".csv")) ||
	       (n > 7 && !strcmp(name + n - 7, ".tflite"));
}

static void check_problem(const char *path, const struct ab_problem *p)
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

/* Every input of dir (and its subdirectories when deep); returns how many
 * were checked. */
static size_t check_dir(const char *dir, bool deep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t done = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[1024];
		struct ab_load_options lo;
		struct ab_input in;
		struct ab_error err;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (deep && tu_dir_exists(path)) {
			done += check_dir(path, true);
			continue;
		}
		if (!wanted(e->d_name))
			continue;
		memset(&lo, 0, sizeof(lo));
		memset(&in, 0, sizeof(in));
		if (ab_input_load(path, &lo, &in, &err)) {
			/* not every shared model is loadable (unsupported
			 * operators): the importer's tests own that */
			cr_log_info("%s: not loaded (%s)", path, err.msg);
			continue;
		}
		check_problem(path, &in.problem);
		ab_input_free(&in);
		done++;
	}
	closedir(d);
	return done;
}

Test(best_fit_corpus, default_corpus)
{
	size_t n = check_dir("graphs/starter", false) +
		   check_dir("graphs/zoo", false) +
		   check_dir("graphs/synthetic", false);

	cr_assert_gt(n, 50, "only %zu corpus inputs checked", n);
}

Test(best_fit_corpus, shared_problems_and_models)
{
	size_t n;

	if (!tu_dir_exists(AB_SHARED_DIR)) {
		cr_skip_test("../shared is absent: minimalloc's suite and the real models not checked");
		return;
	}
	n = check_dir(AB_SHARED_DIR "/problems/minimalloc", false);
	cr_assert_gt(n, 5, "only %zu minimalloc problems checked", n);
	n = check_dir(AB_SHARED_DIR "/models", true);
	cr_assert_gt(n, 10, "only %zu shared models checked", n);
}
