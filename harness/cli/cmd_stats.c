/* `arenabench stats INPUT...`: a CSV of corpus statistics, no planning. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "import/expand.h"

int cmd_stats(struct args *a)
{
	char **files = NULL;
	size_t n_files = 0;
	int code = 0;

	if (!a->n_pos) {
		fprintf(stderr, "arenabench: stats: expected input files or directories\n");
		return EXIT_USAGE;
	}
	if (cli_inputs(a, &files, &n_files))
		return EXIT_USAGE;
	puts("graph,family,source,ops,buffers,sum_bytes,weights_bytes,lower_bound_bytes,max_live_buffers");
	for (size_t i = 0; i < n_files; i++) {
		struct ab_error err = { { 0 } };
		struct ab_input in;
		struct ab_load_options lo = a->load;
		uint32_t aligns[16];
		size_t n_aligns = 0;
		const char *s;

		if (cli_input_options(a, files[i], &lo, aligns, &n_aligns, NULL, NULL, &err) ||
		    ab_input_load(files[i], &lo, &in, &err)) {
			fprintf(stderr, "arenabench: %s\n", err.msg);
			code = EXIT_USAGE;
			break;
		}
		printf("%s,%s,", in.problem.name, in.family);
		for (s = in.source; *s; s++)
			putchar(*s == ',' ? ';' : *s == '"' ? '\'' : *s);
		printf(",%zu,%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu\n",
		       in.ops, in.problem.n, ab_sum_bytes(&in.problem),
		       in.problem.weights_bytes, ab_lower_bound(&in.problem, NULL),
		       ab_max_live_buffers(&in.problem));
		ab_input_free(&in);
	}
	ab_free_inputs(files, n_files);
	return code;
}

