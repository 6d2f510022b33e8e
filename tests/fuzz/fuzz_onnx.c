/*
 * libFuzzer target: the ONNX importer (onnx_proto.cc's protobuf reading,
 * inference and error paths, onnx*.c's dims, folder and graph building) must turn
 * any byte string into a graph that checks or a clean error naming the
 * file, never a crash, a leak or an out-of-bounds access.
 * Built and run by scripts/fuzz.sh (target onnx).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One override so that symbolic inputs take both paths. */
	struct ab_tflite_dim dim = { .name = "N", .value = 3 };
	struct ab_onnx_options opt = { 1, &dim };
	struct ab_onnx_info info;
	struct ab_graph g;
	struct ab_error err;
	int rc;

	err.msg[0] = 0;
	rc = ab_onnx_parse(data, size, "fuzz.onnx", &opt, &g, &info, &err);
	if (rc) {
		if (rc > 0 || !err.msg[0] || !strstr(err.msg, "fuzz.onnx"))
			abort();
		/* needing --dim: every missing name listed, non-empty, once */
		if (rc == AB_ONNX_NEEDS_DIMS) {
			if (!info.n_missing_dims || info.n_missing_dims > AB_ONNX_MAX_MISSING_DIMS)
				abort();
			for (size_t i = 0; i < info.n_missing_dims; i++) {
				if (!info.missing_dims[i][0] ||
				    !memchr(info.missing_dims[i], 0, sizeof(info.missing_dims[i])))
					abort();
				for (size_t j = 0; j < i; j++)
					if (!strcmp(info.missing_dims[i], info.missing_dims[j]))
						abort();
			}
		}
		return 0;
	}
	/* What imports has passed the graph check: it must make a problem. */
	struct ab_problem_options po = { .lifetimes = AB_LIFETIMES_DEFAULT };
	struct ab_problem p;
	memset(&p, 0, sizeof(p));
	if (ab_problem_from_graph(&g, &po, &p, &err) > 0)
		abort();
	ab_problem_free(&p);
	ab_graph_free(&g);
	return 0;
}
