/*
 * Developer tool: one-bit flips of a .tflite through the CLI's path (load with
 * the structural check, every fast planner, both checks); counts refused,
 * planned valid and planned INVALID (which must stay 0).
 *   cc -Iharness -Ibuild -O1 -o build/flip_sweep scripts/dev/flip_sweep.c \
 *      build/libarenabench.a -lstdc++ -lbenchmark -lpthread -lm
 *   build/flip_sweep MODEL.tflite FLIPS RULE   (RULE 0 default, 1 tflite, 2 tflm)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/arenabench.h"
#include "import/input.h"
#include "check/check.h"
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "rb"); static uint8_t buf[1 << 22];
	size_t n = fread(buf, 1, sizeof(buf), f); fclose(f);
	int trials = atoi(argv[2]), rule = atoi(argv[3]);
	unsigned long long seed = 12345; size_t refused = 0, valid = 0, invalid = 0, planfail = 0;
	for (int i = 0; i < trials; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		size_t pos = (seed >> 33) % n; uint8_t old = buf[pos];
		buf[pos] ^= (uint8_t)(1u << ((seed >> 20) & 7));
		struct ab_load_options lo; memset(&lo, 0, sizeof(lo)); lo.problem.lifetimes = rule;
		struct ab_input in; struct ab_error err;
		if (ab_input_parse("flip.tflite", buf, n, &lo, &in, &err)) { refused++; buf[pos] = old; continue; }
		int bad = 0;
		for (size_t k = 0; k < ab_planner_count(); k++) {
			const struct ab_planner *pl = ab_planner_at(k);
			if (pl->cost != AB_COST_FAST) continue;
			struct ab_plan plan; struct ab_plan_options po = { .align = 64, .seed = 1 };
			struct ab_check_result res;
			ab_plan_alloc(&plan, in.problem.n);
			if (pl->plan(&in.problem, &po, &plan)) { planfail++; ab_plan_free(&plan); continue; }
			if (ab_validate_plan(&in.problem, &plan, 64, &res) != AB_PLAN_VALID ||
			    ab_execute_plan(&in.graph, &in.problem, &plan, NULL, NULL, &res) != AB_PLAN_VALID) {
				bad = 1; fprintf(stderr, "pos %zu: %s invalid (%s)\n", pos, pl->name, ab_verdict_name(res.verdict));
			}
			ab_plan_free(&plan);
		}
		if (bad) invalid++; else valid++;
		ab_input_free(&in); buf[pos] = old;
	}
	printf("%s: %d flips: refused %zu, planned valid %zu, planned INVALID %zu, planner failures %zu\n", argv[1], trials, refused, valid, invalid, planfail);
}
