/*
 * Writes the test suite's fixture models (tests/lib/tflite_writer.c) into
 * a directory, as seeds for fuzz_tflite.  Usage: gen_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "tflite_writer.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < TFW_FIX_COUNT; i++) {
		char path[4096];
		size_t len;
		uint8_t *m = tfw_fixture(i, &len);
		FILE *f;

		snprintf(path, sizeof(path), "%s/fixture-%s.tflite", argv[1],
			 tfw_fixture_name(i));
		f = fopen(path, "wb");
		if (!f || fwrite(m, 1, len, f) != len || fclose(f)) {
			fprintf(stderr, "%s: cannot write\n", path);
			return 1;
		}
		free(m);
	}
	return 0;
}
