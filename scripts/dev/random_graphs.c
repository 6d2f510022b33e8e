/*
 * Developer tool: 2000 random small graphs (random kinds and roles, ops
 * reading and writing random tensors, so most are malformed) through the
 * CLI's path under every rule; counts refused, planned valid and planned
 * INVALID (which must stay 0).
 *   cc -Iharness -Ibuild -O1 -o build/random_graphs scripts/dev/random_graphs.c \
 *      build/libarenabench.a -lstdc++ -lbenchmark -lpthread -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/arenabench.h"
#include "import/input.h"
#include "check/check.h"
int main(void) {
	static const char *kinds[] = { "input", "intermediate", "intermediate", "output", "var", "const", "input+output", "intermediate+output" };
	unsigned long long seed = 99; size_t refused = 0, valid = 0, invalid = 0;
	#define R(n) ((seed = seed * 6364136223846793005ull + 1442695040888963407ull), (int)((seed >> 33) % (n)))
	for (int i = 0; i < 2000; i++) {
		char text[4096]; int o = 0, nt = 3 + R(5), no = 1 + R(5);
		o += sprintf(text + o, "graph r%d\n", i);
		for (int t = 0; t < nt; t++) o += sprintf(text + o, "tensor t%d %s bytes %d\n", t, kinds[R(8)], 16 << R(4));
		for (int k = 0; k < no; k++) o += sprintf(text + o, "op o%d OP in=t%d,t%d out=t%d\n", k, R(nt), R(nt), R(nt));
		for (int rule = 0; rule < 3; rule++) {
			struct ab_load_options lo; memset(&lo, 0, sizeof(lo)); lo.problem.lifetimes = rule;
			struct ab_input in; struct ab_error err;
			if (ab_input_parse("r.graph", (uint8_t *)text, o, &lo, &in, &err)) { refused++; continue; }
			int bad = 0;
			for (size_t k = 0; k < ab_planner_count(); k++) {
				const struct ab_planner *pl = ab_planner_at(k);
				if (pl->cost != AB_COST_FAST) continue;
				struct ab_plan plan; struct ab_plan_options po = { .align = 16, .seed = 1 }; struct ab_check_result res;
				ab_plan_alloc(&plan, in.problem.n);
				if (pl->plan(&in.problem, &po, &plan) || ab_validate_plan(&in.problem, &plan, 16, &res) != AB_PLAN_VALID ||
				    ab_execute_plan(&in.graph, &in.problem, &plan, NULL, NULL, &res) != AB_PLAN_VALID) { bad = 1; fprintf(stderr, "%s rule %d: %s %s\n%s\n", "graph", rule, pl->name, ab_verdict_name(res.verdict), text); }
				ab_plan_free(&plan);
			}
			bad ? invalid++ : valid++;
			ab_input_free(&in);
		}
	}
	printf("2000 random graphs x 3 rules: refused %zu, planned valid %zu, planned INVALID %zu\n", refused, valid, invalid);
}
