/* Helpers shared by the test files: build problems and plans in a line. */
#ifndef AB_TESTUTIL_H
#define AB_TESTUTIL_H

#include "core/arenabench.h"
#include "import/input.h"

/* Repository root relative paths: tests run from the repository root. */
#define AB_SHARED_DIR "../shared"

/* The worked chain in 4 KiB -> A 8 KiB -> B 8 KiB -> C 16 KiB -> out 4 KiB,
 * one op per arrow (docs/semantics.md). */
extern const char *const tu_chain_graph;

/* xorshift64 (Marsaglia 2003): the randomized tests' generator; *s != 0. */
uint64_t tu_rng_next(uint64_t *s);
/* Uniform enough below n (0 when n is 0). */
uint64_t tu_rng_below(uint64_t *s, uint64_t n);

/* Parses graph text; aborts the test with the parser's message on error. */
void tu_graph(const char *text, struct ab_graph *g);
/* Graph text -> problem under a lifetime rule. */
void tu_problem(const char *text, enum ab_lifetime_rule rule,
		struct ab_graph *g, struct ab_problem *p);
/* An input from text in memory (ab_input_parse, default load options):
 * `name`'s suffix gives the kind; aborts the test with the message. */
void tu_input(const char *name, const char *text, struct ab_input *in);
/* Plans with a registered planner at an alignment; aborts on error. */
void tu_plan(const char *planner, const struct ab_problem *p, uint32_t align,
	     struct ab_plan *plan);
/* Adds one --dim override to opt through the parser users reach (the
 * command line's, cli/options.c): 0, or -EINVAL when it refuses spec
 * (its message on stderr). */
int tu_dim(struct ab_tflite_options *opt, const char *spec);
/* Index of the buffer of the tensor named `name`, or aborts. */
size_t tu_buf(const struct ab_graph *g, const struct ab_problem *p,
	      const char *name);
/* Reads a whole file into a malloc'd string (NULL if missing). */
char *tu_slurp(const char *path, size_t *len);
/* Runs a shell command, returns its exit status; output into *out. */
int tu_run(const char *cmd, char **out);
bool tu_dir_exists(const char *path);
/* A fresh scratch directory $TMPDIR/PREFIX.XXXXXX into dir (len bytes),
 * and its removal with the files in it (not recursive). */
void tu_tmpdir_make(char *dir, size_t len, const char *prefix);
void tu_tmpdir_remove(const char *dir);
/* Loads every .graph, .csv and .tflite input of dir (and of its
 * subdirectories when deep) and calls fn on it; inputs that do not load
 * (a shared model with an unsupported operator: the importer's tests own
 * that) are logged and skipped.  Returns how many fn was called on. */
size_t tu_each_input(const char *dir, bool deep,
		     void (*fn)(const char *path, const struct ab_problem *p,
				void *ctx),
		     void *ctx);
/* tu_each_input over the default corpus (graphs/starter, sweep,
 * synthetic, zoo); asserts that it found more than 50 inputs. */
void tu_each_corpus_input(void (*fn)(const char *path,
				     const struct ab_problem *p, void *ctx),
			  void *ctx);
/* The same over minimalloc's suite and the real models in ../shared
 * (asserting more than 5 and 10); false, nothing called, when ../shared is
 * absent (the caller skips the test with a message). */
bool tu_each_shared_input(void (*fn)(const char *path,
				     const struct ab_problem *p, void *ctx),
			  void *ctx);
/* Expects a command (named by `what`) to have exited with `code` and its
 * output to hold `message`; frees `out`. */
void tu_expect_exit(const char *what, int rc, char *out, int code,
		    const char *message);
/* Writes n bytes to path; aborts the test if it cannot. */
void tu_write_bytes(const char *path, const uint8_t *bytes, size_t n);
/* A fresh scratch directory (tu_tmpdir_make) holding the ONNX fixtures
 * that tests/onnx/fixtures.py writes; aborts the test if it fails. */
void tu_onnx_fixtures(char *dir, size_t len, const char *prefix);
/* Writes text to dir/name; aborts the test if it cannot. */
void tu_write_file(const char *dir, const char *name, const char *text);

#endif
