/*
 * arenabench: the command line's dispatch.  See cli.h for the layer and
 * the exit codes; options.c for the options, cmd_<name>.c for a command.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/timing.h"

int main(int argc, char **argv)
{
	struct args a = { 0 };
	enum cli_cmd cmd;
	char err[256];
	int code, rc;

	if (argc < 2) {
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		cli_usage(stdout);
		return 0;
	}
	cmd = cli_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "arenabench: unknown command '%s' (expected list, bench, plan, stats, explain, suite, scale or export)\n",
			argv[1]);
		return EXIT_USAGE;
	}
	if (cmd == CMD_SCALE && argc >= 4 && !strcmp(argv[2], "--write-meta"))
		return cmd_scale(NULL, argc, argv);
	/* Google Benchmark takes its --benchmark_* flags out of argv first. */
	if ((cmd == CMD_BENCH || cmd == CMD_SCALE) &&
	    ab_timing_init(&argc, argv, cmd == CMD_BENCH ? 0.01 : 0.05, 3, err, sizeof(err))) {
		fprintf(stderr, "arenabench: %s\n", err);
		return EXIT_USAGE;
	}
	rc = cli_parse(cmd, argc - 1, argv + 1, &a);
	if (rc) {
		cli_args_free(&a);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	switch (cmd) {
	case CMD_LIST: code = cmd_list(&a); break;
	case CMD_BENCH: code = cmd_bench(&a, argc, argv); break;
	case CMD_PLAN: code = cmd_plan(&a); break;
	case CMD_STATS: code = cmd_stats(&a); break;
	case CMD_EXPLAIN: code = cmd_explain(&a); break;
	case CMD_SUITE: code = cmd_suite(&a); break;
	case CMD_SCALE: code = cmd_scale(&a, argc, argv); break;
	case CMD_EXPORT: code = cmd_export(&a); break;
	default: code = EXIT_USAGE; break;
	}
	cli_args_free(&a);
	return code;
}
