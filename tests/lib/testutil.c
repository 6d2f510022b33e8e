/* Helpers shared by the test files. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "import/graph_text.h"
#include "testutil.h"

const char *const tu_chain_graph =
	"graph chain\n"
	"tensor in  input        bytes 4096\n"
	"tensor A   intermediate bytes 8192\n"
	"tensor B   intermediate bytes 8192\n"
	"tensor C   intermediate bytes 16384\n"
	"tensor out output       bytes 4096\n"
	"op op0 OP in=in out=A\n"
	"op op1 OP in=A  out=B\n"
	"op op2 OP in=B  out=C\n"
	"op op3 OP in=C  out=out\n";

void tu_graph(const char *text, struct ab_graph *g)
{
	struct ab_error err = { { 0 } };
	int rc = ab_graph_parse(text, strlen(text), "test.graph", g, &err);

	if (rc)
		cr_assert_fail("graph does not parse: %s", err.msg);
}

void tu_problem(const char *text, enum ab_lifetime_rule rule,
		struct ab_graph *g, struct ab_problem *p)
{
	struct ab_problem_options o = { .lifetimes = rule };
	struct ab_error err = { { 0 } };

	tu_graph(text, g);
	if (ab_problem_from_graph(g, &o, p, &err))
		cr_assert_fail("no problem from graph: %s", err.msg);
}

void tu_input(const char *name, const char *text, struct ab_input *in)
{
	struct ab_load_options lo = { 0 };
	struct ab_error err = { { 0 } };

	if (ab_input_parse(name, (const uint8_t *)text, strlen(text), &lo, in,
			   &err))
		cr_assert_fail("%s", err.msg);
}

void tu_plan(const char *planner, const struct ab_problem *p, uint32_t align,
	     struct ab_plan *plan)
{
	const struct ab_planner *pl = ab_planner_find(planner);
	struct ab_plan_options o = { .align = align, .seed = 1 };

	if (!pl)
		cr_assert_fail("planner %s is not registered", planner);
	if (ab_plan_alloc(plan, p->n))
		cr_assert_fail("out of memory");
	if (pl->plan(p, &o, plan))
		cr_assert_fail("planner %s failed", planner);
}

size_t tu_buf(const struct ab_graph *g, const struct ab_problem *p,
	      const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->tensor[i] >= 0 &&
		    strcmp(g->tensors[p->tensor[i]].name, name) == 0)
			return i;
	cr_assert_fail("no buffer for tensor %s", name);
	return 0;
}

char *tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

int tu_run(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int status;

	if (!p || !buf)
		cr_assert_fail("cannot run %s", cmd);
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, p);

		n += got;
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
		if (got == 0)
			break;
	}
	buf[n] = 0;
	status = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool tu_dir_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void tu_tmpdir_make(char *dir, size_t len, const char *prefix)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, len, "%s/%s.XXXXXX", t && *t ? t : "/tmp", prefix);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

void tu_tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX + 256];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

void tu_write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "cannot create %s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

static bool is_input_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && !strcmp(name + n - 6, ".graph")) ||
	       (n > 4 && !strcmp(name + n - 4, ".csv")) ||
	       (n > 7 && !strcmp(name + n - 7, ".tflite"));
}

size_t tu_each_input(const char *dir, bool deep,
		     void (*fn)(const char *path, const struct ab_problem *p,
				void *ctx),
		     void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t done = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX + 256];
		struct ab_load_options lo;
		struct ab_input in;
		struct ab_error err;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (deep && tu_dir_exists(path)) {
			done += tu_each_input(path, true, fn, ctx);
			continue;
		}
		if (!is_input_name(e->d_name))
			continue;
		memset(&lo, 0, sizeof(lo));
		memset(&in, 0, sizeof(in));
		if (ab_input_load(path, &lo, &in, &err)) {
			cr_log_info("%s: not loaded (%s)", path, err.msg);
			continue;
		}
		fn(path, &in.problem, ctx);
		ab_input_free(&in);
		done++;
	}
	closedir(d);
	return done;
}

void tu_each_corpus_input(void (*fn)(const char *path,
				     const struct ab_problem *p, void *ctx),
			  void *ctx)
{
	size_t n = tu_each_input("graphs/starter", false, fn, ctx) +
		   tu_each_input("graphs/sweep", false, fn, ctx) +
		   tu_each_input("graphs/synthetic", false, fn, ctx) +
		   tu_each_input("graphs/zoo", false, fn, ctx);

	cr_assert_gt(n, 50, "only %zu corpus inputs checked", n);
}

bool tu_each_shared_input(void (*fn)(const char *path,
				     const struct ab_problem *p, void *ctx),
			  void *ctx)
{
	size_t n;

	if (!tu_dir_exists(AB_SHARED_DIR))
		return false;
	n = tu_each_input(AB_SHARED_DIR "/problems/minimalloc", false, fn, ctx);
	cr_assert_gt(n, 5, "only %zu minimalloc problems checked", n);
	n = tu_each_input(AB_SHARED_DIR "/models", true, fn, ctx);
	cr_assert_gt(n, 10, "only %zu shared models checked", n);
	return true;
}

int tu_dim(struct ab_tflite_options *opt, const char *spec)
{
	char *argv[] = { "plan", "--dim", (char *)spec, "model.tflite", NULL };
	struct args a;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = cli_parse(CMD_PLAN, 4, argv, &a);
	if (!rc) {
		cr_assert_lt(opt->n_dims, AB_TFLITE_MAX_DIMS, "--dim %s: room", spec);
		for (size_t i = 0; i < a.load.tflite.n_dims &&
				opt->n_dims < AB_TFLITE_MAX_DIMS; i++)
			opt->dims[opt->n_dims++] = a.load.tflite.dims[i];
	}
	cli_args_free(&a);
	return rc;
}

void tu_expect_exit(const char *what, int rc, char *out, int code,
		    const char *message)
{
	const char *o = out ? out : "";

	cr_expect_eq(rc, code, "%s: exit %d, expected %d (%s)", what, rc, code, o);
	cr_expect(strstr(o, message) != NULL, "%s: '%s' lacks '%s'", what, o, message);
	free(out);
}

void tu_write_bytes(const char *path, const uint8_t *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(bytes, 1, n, f), n, "%s: short write", path);
	cr_assert_eq(fclose(f), 0, "%s: %s", path, strerror(errno));
}

void tu_onnx_fixtures(char *dir, size_t len, const char *prefix)
{
	char cmd[PATH_MAX + 64];

	tu_tmpdir_make(dir, len, prefix);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 tests/onnx/fixtures.py %s 2>&1", dir);
	cr_assert_eq(tu_run(cmd, NULL), 0, "tests/onnx/fixtures.py failed");
}

uint64_t tu_rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

uint64_t tu_rng_below(uint64_t *s, uint64_t n)
{
	return n ? tu_rng_next(s) % n : 0;
}
