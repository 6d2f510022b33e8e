/* `arenabench --version`: the revision built (+dirty when the tree had
 * uncommitted changes), the compiler and the build flags, from
 * build/version.h, which the Makefile rewrites when they change. */
#include <stdio.h>

#include "cli/cli.h"
#include "version.h"

void cli_version(FILE *f)
{
	fprintf(f, "arenabench %s\n", AB_BUILD_REVISION);
#if defined(__clang__)
	fprintf(f, "compiler: clang %s\n", __clang_version__);
#elif defined(__GNUC__)
	fprintf(f, "compiler: gcc %s\n", __VERSION__);
#else
	fprintf(f, "compiler: unknown\n");
#endif
	fprintf(f, "build flags: %s\n", AB_BUILD_FLAGS);
}
