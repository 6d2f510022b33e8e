/*
 * What the CLI does with an input, for the fuzz targets: load it (the
 * structural check and the lifetimes included, ab_input_parse), plan it
 * with two planners, and run both checks on each plan.  A plan of an input
 * that loads must pass both: a malformed input is refused at load, never
 * reported as an invalid plan.  Aborts on anything else.
 */
#ifndef AB_FUZZ_CLI_PATH_H
#define AB_FUZZ_CLI_PATH_H

#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/input.h"
#include "check/check.h"

extern const struct ab_planner ab_planner_linear, ab_planner_size_first_fit;

static void fuzz_cli_path(const char *path, const uint8_t *data, size_t size,
			  enum ab_lifetime_rule rule, uint32_t align)
{
	const struct ab_planner *const planners[] = {
		&ab_planner_linear, &ab_planner_size_first_fit
	};
	struct ab_load_options lo;
	struct ab_input in;
	struct ab_error err;
	int rc;

	memset(&lo, 0, sizeof(lo));
	lo.problem.lifetimes = rule;
	lo.problem.round_to = rule == AB_LIFETIMES_TFLM ? 16 : 0;
	err.msg[0] = 0;
	rc = ab_input_parse(path, data, size, &lo, &in, &err);
	if (rc) {
		if (rc > 0 || !err.msg[0] || !strstr(err.msg, path))
			abort(); /* a refusal names the file */
		return;
	}
	/* Large plans would only measure the machine (and slow libFuzzer
	 * down to a few inputs a second under ASan). */
	if (in.problem.n <= 1024 && ab_sum_bytes(&in.problem) <= (1u << 20)) {
		for (size_t i = 0; i < 2; i++) {
			struct ab_plan_options po = { .align = align, .seed = 1 };
			struct ab_plan plan;
			struct ab_check_result res;
			enum ab_exec_mode mode;

			if (ab_plan_alloc(&plan, in.problem.n))
				abort();
			if (ab_planner_run(planners[i], &in.problem, &po, &plan) ||
			    ab_validate_plan(&in.problem, &plan, align, &res) !=
				    AB_PLAN_VALID ||
			    ab_execute_plan(in.has_graph ? &in.graph : NULL,
					    &in.problem, &plan, NULL, &mode,
					    &res) != AB_PLAN_VALID)
				abort();
			ab_plan_free(&plan);
		}
	}
	ab_input_free(&in);
}

#endif
