/*
 * arenabench: the command line's dispatch.  See cli.h for the layer and
 * the exit codes; options.c for the options, cmd_<name>.c for a command.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/timing.h"
#include "core/textio.h"
#include "import/input.h"
#include "import/onnx.h"

/* Output that never reached its reader is a failure (stdout on a full
 * disk, /dev/full, a closed pipe): flush and close are checked too. */
static int cli_finish_stdout(int code)
{
	/* a command that failed on stdout (an output "-") said so */
	if (code && ferror(stdout)) {
		fclose(stdout);
		return code;
	}
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fprintf(stderr, "arenabench: cannot write to standard output: %s\n",
			strerror(errno));
		return code ? code : EXIT_USAGE;
	}
	return code;
}

/* SIGINT, SIGTERM, SIGHUP: no temporary output is left behind. */
static void on_signal(int sig)
{
	ab_atomic_remove_all();
	ab_out_lock_remove_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A signal ignored when we started (nohup, a background job of a
 * script) stays ignored. */
static void catch_signals(void)
{
	for (size_t i = 0; i < 3; i++) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

		if (signal(sigs[i], on_signal) == SIG_IGN)
			signal(sigs[i], SIG_IGN);
	}
}

/* Refuses, before any work, an output that is one of the inputs or two
 * outputs naming one file; names both.  0 or EXIT_USAGE. */
static int check_outputs(const struct args *a)
{
	const char *outs[5] = { a->cmd == CMD_BENCH || a->out_given ? a->out : NULL,
				a->emit_plan, a->emit_live, a->plot, a->ratios };
	static const char *const what[5] = { "--out", "--emit-plan", "--emit-live", "--plot", "--ratios" };
	char *id[5] = { 0 };
	int code = 0;

	for (int i = 0; i < 5 && !code; i++) {
		if (!outs[i])
			continue;
		id[i] = cli_path_identity(outs[i]);
		for (size_t k = 0; k < a->n_pos && id[i] && !code; k++) {
			char *in = cli_path_identity(a->pos[k]);

			if (in && !strcmp(in, id[i]) && strcmp(in, "-")) {
				fprintf(stderr, "arenabench: %s %s is the input %s: refusing to overwrite an input (nothing done)\n",
					what[i], outs[i], a->pos[k]);
				code = EXIT_USAGE;
			}
			free(in);
		}
		for (int j = 0; j < i && id[i] && !code; j++)
			if (id[j] && !strcmp(id[i], id[j])) {
				fprintf(stderr, "arenabench: %s %s and %s %s name one file: only one of them would be kept (nothing done)\n",
					what[j], outs[j], what[i], outs[i]);
				code = EXIT_USAGE;
			}
	}
	for (int i = 0; i < 5; i++)
		free(id[i]);
	return code;
}

static bool has_suffix(const char *p, const char *suffix)
{
	size_t n = strlen(p), k = strlen(suffix);

	return n >= k && !strcmp(p + n - k, suffix);
}

/* Refuses, before any work, an option that no input can take: the model
 * options (--dim, --subgraph) without a model, the operator-graph options
 * (--lifetimes, --round, --no-scratch, --inplace, --reorder) when every
 * input is a minimalloc CSV (a directory may hold either).  An error, never
 * silence; a mix of kinds is cli_warn_csv_inputs's.  0 or EXIT_USAGE. */
static int check_kind_options(const struct args *a)
{
	bool model = false, graph = false;
	char names[128];

	for (size_t k = 0; k < a->n_pos; k++) {
		const char *p = a->pos[k];
		struct stat st;
		bool dir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

		model |= dir || has_suffix(p, ".tflite") || has_suffix(p, ".onnx");
		graph |= dir || !has_suffix(p, ".csv");
	}
	if ((a->load.tflite.n_dims || a->load.tflite.subgraph) && !model &&
	    a->cmd != CMD_EXPORT) {
		fprintf(stderr, "arenabench: %s applies to model files (.tflite, .onnx), and %s%s (nothing done)\n",
			a->load.tflite.n_dims ? "--dim" : "--subgraph",
			a->n_pos == 1 ? a->pos[0] : "none of the inputs is one",
			a->n_pos == 1 ? " is not one" : "");
		return EXIT_USAGE;
	}
	if (!graph && a->n_pos && cli_graph_options(a, names, sizeof(names))) {
		fprintf(stderr, "arenabench: %s %s to operator graphs (.graph, .tflite, .onnx), and %s%s: a minimalloc CSV gives its lifetimes and sizes as they are (nothing done)\n",
			names, strchr(names, ',') ? "apply" : "applies",
			a->n_pos == 1 ? a->pos[0] : "every input is a .csv",
			a->n_pos == 1 ? " is a .csv" : "");
		return EXIT_USAGE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	enum cli_cmd cmd;
	char err[256];
	int code, rc;

	/* The ONNX importer is linked here (not in libarenabench.a). */
	ab_input_set_onnx_loader(ab_onnx_load);
	/* Freed memory stays with the process for the next stage.  glibc
	 * gives a large array its own mapping (from 128 KiB; the threshold
	 * then follows the largest one freed) and unmaps it on free, so each
	 * stage of a 10^6-buffer plan (parse, bound, plan, both checks)
	 * faulted its arrays in afresh, page by page: page faults were 14 %
	 * of perf's samples of the whole command (docs/scaling.md, the whole
	 * command).  Arrays up to 32 MiB (glibc's largest threshold) now come
	 * from the heap, which is never trimmed. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, -1);
	if (argc < 2) {
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		cli_usage(stdout);
		return cli_finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version")) {
		cli_version(stdout);
		return cli_finish_stdout(0);
	}
	cmd = cli_command(argv[1]);
	if (!cmd) {
		cli_unknown_command(argv[1]);
		return EXIT_USAGE;
	}
	if (cmd == CMD_MERGE) {
		catch_signals();
		return cli_finish_stdout(cmd_merge(argc, argv));
	}
	if (cmd == CMD_SCALE && argc >= 3 &&
	    (!strcmp(argv[2], "--write-meta") || !strcmp(argv[2], "--sort-reference")))
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
		return rc > 0 ? cli_finish_stdout(0) : EXIT_USAGE;
	}
	if (check_outputs(&a) || check_kind_options(&a)) {
		cli_args_free(&a);
		return EXIT_USAGE;
	}
	catch_signals();
	switch (cmd) {
	case CMD_LIST: code = cmd_list(&a); break;
	case CMD_BENCH: code = cmd_bench(&a, argc, argv); break;
	case CMD_PLAN: code = cmd_plan(&a); break;
	case CMD_STATS: code = cmd_stats(&a); break;
	case CMD_EXPLAIN: code = cmd_explain(&a); break;
	case CMD_SUITE: code = cmd_suite(&a); break;
	case CMD_SCALE: code = cmd_scale(&a, argc, argv); break;
	case CMD_EXPORT: code = cmd_export(&a); break;
	case CMD_COMPARE: code = cmd_compare(&a); break;
	case CMD_SUMMARY: code = cmd_summary(&a); break;
	default: code = EXIT_USAGE; break;
	}
	cli_args_free(&a);
	return cli_finish_stdout(code);
}
