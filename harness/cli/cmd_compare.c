/* `arenabench compare A.csv B.csv` and `compare RUN.csv --planner P
 * --against Q`: report/compare.h does the work; this prints it. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/textio.h"
#include "report/compare.h"

int cmd_compare(struct args *a)
{
	struct ab_cmp_table ta = { 0 }, tb = { 0 };
	struct ab_cmp_result r = { 0 };
	struct ab_cmp_spec spec = { 0 };
	struct ab_error err = { { 0 } };
	bool two = a->planners || a->against;
	int code = EXIT_USAGE;

	if (two ? (a->n_pos != 1 || !a->planners || !a->against) : a->n_pos != 2) {
		fprintf(stderr, "arenabench: compare: expected A.csv B.csv, or RUN.csv --planner P --against Q\n");
		return EXIT_USAGE;
	}
	if (two && strchr(a->planners, ',')) {
		fprintf(stderr, "arenabench: compare: --planner takes one planner, got '%s'\n", a->planners);
		return EXIT_USAGE;
	}
	spec.planner = two ? a->planners : NULL;
	spec.against = two ? a->against : NULL;
	if ((a->match && ab_cmp_parse_match(a->match, &spec.keys, &err)) ||
	    ab_cmp_load(a->pos[0], &ta, &err) ||
	    (!two && ab_cmp_load(a->pos[1], &tb, &err)) ||
	    ab_cmp_run(&ta, two ? &ta : &tb, &spec, &r, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (a->ratios) {
		struct ab_atomic_file af;

		if (ab_atomic_open(&af, a->ratios, &err) ||
		    ab_cmp_write_ratios(af.f, &ta, two ? &ta : &tb, &r) ||
		    ab_atomic_commit(&af, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg[0] ? err.msg : "cannot write the ratios");
			goto out;
		}
	}
	if (a->json)
		ab_cmp_write_json(stdout, &ta, two ? &ta : &tb, &r);
	else
		ab_cmp_write_text(stdout, &ta, two ? &ta : &tb, &r, (size_t)a->top);
	code = 0;
out:
	ab_cmp_result_free(&r);
	ab_cmp_table_free(&ta);
	ab_cmp_table_free(&tb);
	return code;
}
