/*
 * libFuzzer target for the two text parsers: the graph format
 * (ab_graph_parse) and minimalloc CSV (ab_problem_parse_csv).  Every
 * input goes to both; each must parse or fail cleanly with a message.
 * Built and run by scripts/fuzz.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arenabench.h"

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
		ab_graph_free(&g);
	}

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
