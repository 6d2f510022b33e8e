/*
 * libFuzzer target: the TFLite importer must turn any byte string into a
 * graph or a clean error, never a crash or an out-of-bounds read.  The
 * exporter's own reader (ab_export_attach, which adds an offline plan to
 * the model) gets every input too: a copy with the plan, or a clean error;
 * a copy it writes must import again with that plan.  Every input also
 * takes the CLI's path (cli_path.h: load, check, plan, both checks).
 * Built and run by scripts/fuzz.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/graph_text.h"
#include "report/export.h"
#include "import/tflite.h"
#include "cli_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const uint8_t *data, size_t size,
		const struct ab_tflite_options *opt)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error err;
	int rc;

	err.msg[0] = 0;
	rc = ab_tflite_parse(data, size, "fuzz.tflite", opt, &g, &info, &err);
	if (rc) {
		/* A failure must say what went wrong. */
		if (rc > 0 || !err.msg[0] || !strstr(err.msg, "fuzz.tflite"))
			abort();
		return;
	}
	/* What the CLI does with it, under every rule: load (the structural
	 * check included), plan, both checks. */
	for (int rule = 0; rule < AB_LIFETIMES_COUNT; rule++)
		fuzz_cli_path("fuzz.tflite", data, size,
			      (enum ab_lifetime_rule)rule,
			      rule == AB_LIFETIMES_TFLITE ? 64 : 16);
	size_t edges = 0;
	for (size_t i = 0; i < g.n_ops; i++)
		edges += (size_t)g.ops[i].n_inputs + (size_t)g.ops[i].n_outputs;
	if (edges < 100000)
		free(ab_graph_to_text(&g));
	if (info.has_offline_plan && info.n_offline != g.n_tensors)
		abort();
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
	if (opt->subgraph == 0 && info.n_subgraphs > 1) {
		struct ab_tflite_options o2 = *opt;

		o2.subgraph = (int)(info.n_subgraphs - 1);
		one(data, size, &o2);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ab_tflite_options opt = { .subgraph = 0, .n_dims = 1 };

	/* One override so that dynamic shapes take both paths. */
	strcpy(opt.dims[0].name, "d0");
	opt.dims[0].value = 3;
	one(data, size, &opt);
	{
		/* A plan for one tensor: [version 1, subgraph 0, 1 offset, -1]. */
		const int32_t words[4] = { 1, 0, 1, -1 };
		uint8_t *out = NULL;
		size_t out_len = 0, header = 0;
		bool replaced = false;
		struct ab_error err;
		int rc;

		err.msg[0] = 0;
		rc = ab_export_attach(data, size, "fuzz.tflite", words, 4, &out,
				      &out_len, &header, &replaced, &err);
		if (rc > 0 || (rc < 0 && (!err.msg[0] || !strstr(err.msg, "fuzz.tflite"))))
			abort();
		if (rc == 0) {
			struct ab_graph g;
			struct ab_tflite_info info;

			if (out_len != header + size || memcmp(out + header, data, size))
				abort(); /* the original bytes follow the header */
			if (ab_tflite_parse(out, out_len, "fuzz-out.tflite", &opt, &g,
					    &info, &err) == 0) {
				ab_graph_free(&g);
				ab_tflite_info_free(&info);
			}
			free(out);
		}
	}
	return 0;
}
