/*
 * libFuzzer target for the two text parsers: the graph format
 * (ab_graph_parse) and minimalloc CSV (ab_problem_parse_csv).  Every
 * input goes to both; each must parse or fail cleanly with a message.
 * A graph that parses and checks also goes through the lifetime stage
 * with in-place reuse (default and tflm rules) and through both operator
 * reorderings (beam width 4), each of which must succeed or fail cleanly.
 * Both kinds also take the CLI's path (cli_path.h: load, check, plan,
 * both checks).
 * Built and run by scripts/fuzz.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arenabench.h"
#include "import/graph_text.h"
#include "transform/reorder.h"
#include "cli_path.h"
#include "import/problem_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy without a terminator, so that a read past `size`
	 * is caught by AddressSanitizer. */
	char *text = malloc(size ? size : 1);
	struct ab_graph g;
	struct ab_problem p;
	struct ab_error err;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);

	err.msg[0] = 0;
	rc = ab_graph_parse(text, size, "fuzz.graph", &g, &err);
	if (rc > 0 || (rc < 0 && !err.msg[0]))
		abort();
	if (rc == 0) {
		err.msg[0] = 0;
		rc = ab_graph_check(&g, "fuzz.graph", &err);
		if (rc > 0 || (rc < 0 && !err.msg[0]))
			abort();
		free(ab_graph_to_text(&g));
		if (rc == 0 && g.n_ops <= 4096) {
			struct ab_problem_options po = { .inplace = true };
			struct ab_reorder_options ro = { .method = AB_REORDER_GREEDY };
			struct ab_graph r;

			for (int rule = 0; rule < 2; rule++) {
				po.lifetimes = rule ? AB_LIFETIMES_TFLM : AB_LIFETIMES_DEFAULT;
				err.msg[0] = 0;
				memset(&p, 0, sizeof(p));
				rc = ab_problem_from_graph(&g, &po, &p, &err);
				if (rc > 0 || (rc < 0 && !err.msg[0]))
					abort();
				if (rc == 0)
					ab_problem_free(&p);
			}
			for (int m = 0; m < 2; m++) {
				ro.method = m ? AB_REORDER_BEAM : AB_REORDER_GREEDY;
				ro.beam_width = 4;
				err.msg[0] = 0;
				rc = ab_graph_reorder(&g, &po, &ro, &r, NULL, &err);
				if (rc > 0 || (rc < 0 && !err.msg[0]))
					abort();
				if (rc == 0)
					ab_graph_free(&r);
			}
		}
		ab_graph_free(&g);
	}

	/* The CLI's path for both kinds: load, check, plan, both checks. */
	fuzz_cli_path("fuzz.graph", (const uint8_t *)text, size,
		      AB_LIFETIMES_DEFAULT, 1);
	fuzz_cli_path("fuzz.csv", (const uint8_t *)text, size,
		      AB_LIFETIMES_DEFAULT, 8);

	err.msg[0] = 0;
	memset(&p, 0, sizeof(p));
	rc = ab_problem_parse_csv(text, size, "fuzz.csv", &p, &err);
	if (rc > 0 || (rc < 0 && !err.msg[0]))
		abort();
	if (rc == 0)
		ab_problem_free(&p);
	free(text);
	return 0;
}
