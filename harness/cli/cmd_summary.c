/* `arenabench summary RUN.csv`: the per-planner summary that closes
 * `arenabench bench`, from a results CSV (report/summary.h), on stdout. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "report/summary.h"

int cmd_summary(struct args *a)
{
	struct ab_cmp_table t = { 0 };
	struct ab_summary_row *v = NULL;
	struct ab_error err = { { 0 } };
	int code = EXIT_USAGE;

	if (a->n_pos != 1) {
		fprintf(stderr, "arenabench: summary: expected one results CSV\n");
		return EXIT_USAGE;
	}
	if (ab_cmp_load(a->pos[0], &t, &err) || ab_summary_of_table(&t, &v, &err)) {
		fprintf(stderr, "arenabench: %s\n", err.msg);
		goto out;
	}
	if (!ab_summary_write(stdout, v, t.n))
		code = 0;
out:
	free(v);
	ab_cmp_table_free(&t);
	return code;
}
