/*
 * The bench stage: for every input, planner and alignment, plan, run both
 * plan checks, time the planner with Google Benchmark and collect a row.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/timing.h"
#include "import/dims_file.h"


/* ---------------------------------------------------------------- the run */

struct timed_ctx {
	const struct ab_input *in;
	const struct ab_planner *pl;
	struct ab_plan_options o;
	struct ab_plan *plan;
};

static int timed_plan(void *ctx)
{
	struct timed_ctx *c = ctx;
	struct ab_error err;

	return ab_run_planner(c->in, c->pl, &c->o, c->plan, NULL, &err);
}

struct timing_sink {
	struct ab_row *rows; /* the rows of this input */
};

static void on_timing(void *user, size_t index,
		      const struct ab_timing_result *r)
{
	struct timing_sink *s = user;
	struct ab_row *row = &s->rows[index];

	if (r->error)
		return;
	row->timed = true;
	row->plan_ns = r->median_ns;
	row->plan_ns_stddev = r->stddev_ns;
	row->repetitions = r->repetitions;
}

static int push_row(struct ab_rows *rows, struct ab_row **out)
{
	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 64;
		void *r = realloc(rows->row, cap * sizeof(*rows->row));

		if (!r)
			return -ENOMEM;
		rows->row = r;
		rows->cap = cap;
	}
	*out = &rows->row[rows->n++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

void ab_rows_free(struct ab_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		free(rows->row[i].graph);
		free(rows->row[i].family);
		free(rows->row[i].source);
		free(rows->row[i].options);
		free(rows->row[i].check.message);
		free(rows->row[i].tier_peaks);
	}
	free(rows->row);
	for (size_t i = 0; i < rows->n_skipped; i++) {
		free(rows->skipped[i].path);
		free(rows->skipped[i].why);
		free(rows->skipped[i].flags);
	}
	free(rows->skipped);
	for (size_t i = 0; i < rows->n_dims; i++) {
		free(rows->dims[i].path);
		free(rows->dims[i].dims);
	}
	free(rows->dims);
	memset(rows, 0, sizeof(*rows));
}

/* Appends word to buf as one shell word: as it is when plain, else in
 * single quotes (a quote inside as '\''). */
static void append_shell_word(char *buf, size_t len, const char *word)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:/+@%=";
	size_t n = strlen(buf);

	if (word[0] && strspn(word, plain) == strlen(word)) {
		snprintf(buf + n, len - n, "%s", word);
		return;
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	for (; *word && n + 5 < len; word++) {
		if (*word == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *word;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n < len ? n : len - 1] = 0;
}

/* Records an input that cannot be planned as skipped: one that needs
 * --dim values (AB_ONNX_NEEDS_DIMS) with the flags naming every missing
 * dimension, any other with the loader's message (its "PATH: " cut). */
static int skip_input(const struct ab_bench_config *cfg, struct ab_rows *rows,
		      const char *path, int code, const struct ab_onnx_info *needs,
		      const struct ab_error *why, struct ab_error *err)
{
	struct ab_skipped_input *s;
	char names[AB_ONNX_MAX_MISSING_DIMS * 80] = "", flags[AB_ONNX_MAX_MISSING_DIMS * 96] = "";
	void *grown = realloc(rows->skipped, (rows->n_skipped + 1) * sizeof(*rows->skipped));
	size_t plen = strlen(path);

	if (!grown)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	rows->skipped = grown;
	s = &rows->skipped[rows->n_skipped];
	if (code == AB_ONNX_NEEDS_DIMS) {
		for (size_t i = 0; i < needs->n_missing_dims; i++) {
			const char *n = needs->missing_dims[i];
			char word[sizeof(needs->missing_dims[0]) + 8];

			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'", i ? ", " : "", n);
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%s--dim ", i ? " " : "");
			snprintf(word, sizeof(word), "%s=VALUE", n);
			append_shell_word(flags, sizeof(flags), word);
		}
		s->why = ab_strdupf("unresolved %sdimension%s %s (first needed by graph input '%s', shape %s)",
				    needs->missing_nameless ? "" : "symbolic ",
				    needs->n_missing_dims > 1 ? "s" : "", names,
				    needs->missing_dims_input, needs->missing_dims_shape);
		s->flags = strdup(flags);
	} else {
		const char *m = why->msg;

		if (!strncmp(m, path, plen) && m[plen] == ':' && m[plen + 1] == ' ')
			m += plen + 2;
		s->why = strdup(m[0] ? m : strerror(code < 0 ? -code : code));
		s->flags = NULL;
	}
	s->path = strdup(path);
	if (!s->path || !s->why || (code == AB_ONNX_NEEDS_DIMS && !s->flags)) {
		free(s->path);
		free(s->why);
		free(s->flags);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	rows->n_skipped++;
	if (cfg->skipped)
		cfg->skipped(cfg->user, s);
	return 0;
}

/* Records the --dim values the import of in applied, if any. */
static int record_dims(struct ab_rows *rows, const struct ab_input *in,
		       const struct ab_load_options *lo)
{
	uint32_t used = in->is_onnx ? in->onnx.dims_used
			: in->is_tflite ? in->tflite.dims_used : 0;
	char text[AB_TFLITE_MAX_DIMS * 96];
	struct ab_input_dims *grown;

	if (!used || !ab_dims_used_text(&lo->tflite, used, text, sizeof(text)))
		return 0;
	grown = realloc(rows->dims, (rows->n_dims + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rows->dims = grown;
	grown[rows->n_dims].path = strdup(in->path);
	grown[rows->n_dims].dims = strdup(text);
	if (!grown[rows->n_dims].path || !grown[rows->n_dims].dims) {
		free(grown[rows->n_dims].path);
		free(grown[rows->n_dims].dims);
		return -ENOMEM;
	}
	rows->n_dims++;
	return 0;
}

static int bench_input(const struct ab_bench_config *cfg,
		       const struct ab_input *in, struct ab_rows *rows,
		       struct ab_error *err)
{
	const struct ab_problem *p = &in->problem;
	size_t first_row = rows->n, per_input;
	uint64_t sum = ab_sum_bytes(p), lb = ab_lower_bound(p, NULL);
	size_t max_live = ab_max_live_buffers(p);
	struct ab_load_options effective = ab_load_in_effect(in, &cfg->load);
	struct ab_plan plan, timing_plan;
	struct ab_verdict_cache cache = { 0 };
	struct timed_ctx *ctx = NULL;
	ab_timed_fn *fns = NULL;
	void **ctxs = NULL;
	const char **names = NULL;
	int rc;

	rc = ab_plan_alloc(&plan, p->n);
	if (!rc)
		rc = ab_plan_alloc(&timing_plan, p->n);
	if (rc)
		return ab_fail(err, rc, "%s: out of memory", in->path);
	for (size_t k = 0; k < cfg->n_planners; k++) {
		const struct ab_planner *pl = cfg->planners[k];
		struct ab_plan_options o = cfg->plan;
		uint64_t peak1 = 0;
		bool have_peak1 = false;

		if (!ab_planner_applies(pl, p))
			continue;
		for (size_t a = 0; a < cfg->n_aligns; a++) {
			struct ab_row *row;

			rc = push_row(rows, &row);
			if (rc)
				goto oom;
			row->graph = strdup(p->name ? p->name : in->path);
			row->family = strdup(in->family);
			row->source = strdup(in->source);
			o.align = cfg->aligns[a];
			row->options = ab_options_string(&effective, &o);
			if (!row->graph || !row->family || !row->source ||
			    !row->options)
				goto oom;
			row->ops = in->ops;
			row->buffers = p->n;
			row->sum_bytes = sum;
			row->weights_bytes = p->weights_bytes;
			row->lower_bound_bytes = lb;
			row->lower_bound_original_bytes =
				in->reordered ? in->reorder.lower_bound_before
					      : lb;
			row->reorder_ns = in->reorder_ns;
			row->max_live_buffers = max_live;
			row->planner = pl;
			row->align = o.align;
			/* peak at alignment 1, from the same planner */
			if (!have_peak1 && o.align != 1) {
				struct ab_row r1 = *row;
				struct ab_plan_options o1 = o;

				r1.check.message = NULL;
				r1.tier_peaks = NULL;
				o1.align = 1;
				ab_plan_and_check(in, pl, &o1, &plan, &r1, &cache);
				if (!r1.check.valid) {
					row->check.message = r1.check.message;
					rows->invalid++;
					if (cfg->problem)
						cfg->problem(cfg->user, row->check.message);
				} else {
					free(r1.check.message);
				}
				free(r1.tier_peaks);
				peak1 = r1.check.peak_bytes;
				have_peak1 = true;
			}
			ab_plan_and_check(in, pl, &o, &plan, row, &cache);
			if (o.align == 1 && !have_peak1) {
				peak1 = row->check.peak_bytes;
				have_peak1 = true;
			}
			row->peak_align1_bytes = peak1;
			if (!row->check.valid) {
				rows->invalid++;
				if (cfg->problem && row->check.message) {
					char *m = ab_strdupf("%s: planner %s at align %u: %s",
							    in->path, pl->name, o.align, row->check.message);

					cfg->problem(cfg->user, m ? m : row->check.message);
					free(m);
				}
			}
		}
	}
	per_input = rows->n - first_row;
	if (cfg->timer && per_input) {
		ctx = calloc(per_input, sizeof(*ctx));
		fns = calloc(per_input, sizeof(*fns));
		ctxs = calloc(per_input, sizeof(*ctxs));
		names = calloc(per_input, sizeof(*names));
		if (!ctx || !fns || !ctxs || !names)
			goto oom;
		for (size_t j = 0; j < per_input; j++) {
			struct ab_row *row = &rows->row[first_row + j];

			ctx[j].in = in;
			ctx[j].pl = row->planner;
			ctx[j].o = cfg->plan;
			ctx[j].o.align = row->align;
			ctx[j].plan = &timing_plan;
			fns[j] = timed_plan;
			ctxs[j] = &ctx[j];
			names[j] = row->planner->name;
		}
		{
			struct timing_sink sink = { &rows->row[first_row] };

			cfg->timer->run(names, fns, ctxs, per_input, on_timing,
					&sink);
		}
	}
	rc = 0;
	goto out;
oom:
	rc = ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
out:
	free(ctx);
	free(fns);
	free(ctxs);
	free(names);
	ab_verdict_cache_free(&cache);
	ab_plan_free(&plan);
	ab_plan_free(&timing_plan);
	return rc;
}

int ab_bench_run(const struct ab_bench_config *cfg, struct ab_rows *rows,
		 struct ab_error *err)
{
	memset(rows, 0, sizeof(*rows));
	for (size_t i = 0; i < cfg->n_inputs; i++) {
		const char *path = cfg->inputs[i];
		struct ab_bench_config own = *cfg;
		struct ab_error why = { { 0 } };
		uint32_t aligns[16];
		struct ab_input in;
		int rc = 0;

		if (cfg->progress)
			cfg->progress(cfg->user, i, cfg->n_inputs, path, "planning");
		memset(&in, 0, sizeof(in));
		if (cfg->input_options) {
			size_t n = cfg->n_aligns < 16 ? cfg->n_aligns : 16;

			memcpy(aligns, cfg->aligns, n * sizeof(*aligns));
			own.aligns = aligns;
			own.n_aligns = n;
			rc = cfg->input_options(cfg->user, path, &own.load, aligns,
						&own.n_aligns, &why);
		}
		if (!rc)
			rc = ab_input_load(path, &own.load, &in, &why);
		if (rc == -ENOMEM || (rc && cfg->strict)) {
			*err = why;
			return rc;
		}
		if (rc) {
			/* one model the run cannot plan never stops it */
			rc = skip_input(cfg, rows, path, rc, &in.onnx, &why, err);
			if (rc)
				return rc;
			continue;
		}
		rc = record_dims(rows, &in, &own.load);
		if (rc)
			rc = ab_fail(err, rc, "%s: out of memory", path);
		else
			rc = bench_input(&own, &in, rows, err);
		ab_input_free(&in);
		if (rc)
			return rc;
	}
	if (cfg->progress)
		cfg->progress(cfg->user, cfg->n_inputs, cfg->n_inputs, NULL,
			      "done");
	return 0;
}

/* ------------------------------------------------------------------ output */

static const char *const columns =
	"schema_version,graph,family,source,ops,buffers,sum_bytes,"
	"weights_bytes,lower_bound_bytes,max_live_buffers,planner,cost_class,"
	"align,options,valid,exec_check,peak_bytes,peak_align1_bytes,"
	"padding_bytes,arenas,stopped_by,optimal,best_bound_bytes,iterations,"
	"plan_ns,plan_ns_stddev,repetitions,lower_bound_original_bytes,"
	"tier_peaks,spilled_bytes,reorder_ns,threads,language";

/* CSV fields never hold commas, quotes or newlines. */
static void put_field(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		char c = *s;

		if (c == ',')
			c = ';';
		else if (c == '"')
			c = '\'';
		else if (c == '\n' || c == '\r')
			c = ' ';
		fputc(c, f);
	}
}

static const char *const optimal_names[] = { "unknown", "yes", "no" };

int ab_rows_write_csv(FILE *f, const struct ab_rows *rows)
{
	fprintf(f, "%s\n", columns);
	for (size_t i = 0; i < rows->n; i++) {
		const struct ab_row *r = &rows->row[i];

		fputs("3,", f);
		put_field(f, r->graph);
		fputc(',', f);
		put_field(f, r->family);
		fputc(',', f);
		put_field(f, r->source);
		fprintf(f, ",%zu,%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu,",
			r->ops, r->buffers, r->sum_bytes, r->weights_bytes,
			r->lower_bound_bytes, r->max_live_buffers);
		put_field(f, r->planner->name);
		fprintf(f, ",%s,%u,", ab_cost_class_name(r->planner->cost),
			r->align);
		put_field(f, r->options);
		fprintf(f, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%d,%s,%s,%" PRIu64 ",%" PRIu64 ",",
			r->check.valid ? "yes" : "no", ab_exec_mode_name(r->check.exec_mode),
			r->check.peak_bytes, r->peak_align1_bytes,
			(int64_t)(r->check.peak_bytes - r->peak_align1_bytes),
			r->check.arenas, ab_stopped_by_name(r->stopped_by),
			optimal_names[r->optimal], r->best_bound_bytes,
			r->iterations);
		if (r->timed)
			fprintf(f, "%.0f,%.0f,%d,", r->plan_ns,
				r->plan_ns_stddev, r->repetitions);
		else
			fputs(",,0,", f);
		fprintf(f, "%" PRIu64 ",", r->lower_bound_original_bytes);
		if (r->tiered) {
			put_field(f, r->tier_peaks ? r->tier_peaks : "");
			fprintf(f, ",%" PRIu64 ",", r->spilled_bytes);
		} else {
			fputs(",,", f);
		}
		if (r->reorder_ns > 0)
			fprintf(f, "%.0f", r->reorder_ns);
		fprintf(f, ",%u,", r->threads ? r->threads : 1);
		put_field(f, r->planner->language ? r->planner->language : "c");
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int ab_write_meta(FILE *f, const struct ab_timer *timer, int argc,
		  char **argv, ab_capture_fn run_capture)
{
	char rev[128], dirty[16], cpu[256] = "unknown", line[512], date[64];
	char bench[128];
	struct utsname u;
	FILE *ci = fopen("/proc/cpuinfo", "r");
	time_t now = time(NULL);

	run_capture("git rev-parse HEAD 2>/dev/null", rev, sizeof(rev));
	run_capture("git status --porcelain --untracked-files=no 2>/dev/null | head -c1 | wc -c",
		    dirty, sizeof(dirty));
	run_capture("dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null",
		    bench, sizeof(bench));
	while (ci && fgets(line, sizeof(line), ci)) {
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(cpu, sizeof(cpu), "%s", c + 2);
				cpu[strcspn(cpu, "\n")] = 0;
			}
			break;
		}
	}
	if (ci)
		fclose(ci);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "git_revision=%s\n", rev);
	fprintf(f, "git_dirty=%s\n", strcmp(dirty, "0") ? "yes" : "no");
#ifdef __clang__
	fprintf(f, "compiler=clang %s\n", __clang_version__);
#else
	fprintf(f, "compiler=gcc %s\n", __VERSION__);
#endif
	fprintf(f, "cpu_model=%s\n", cpu);
	fprintf(f, "cores=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (uname(&u) == 0)
		fprintf(f, "kernel=%s %s %s\n", u.sysname, u.release, u.machine);
	fprintf(f, "date_utc=%s\n", date);
	fprintf(f, "benchmark_library=%s %s\n", timer ? timer->library() : "none", bench);
	fputs("command=", f);
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* One line of the sidecar: control bytes of names become '_'. */
static void put_meta_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < ' ' || *s == 0x7f ? '_' : *s, f);
}

int ab_write_meta_skipped(FILE *f, const struct ab_rows *rows)
{
	fprintf(f, "skipped_inputs=%zu\n", rows->n_skipped);
	for (size_t i = 0; i < rows->n_skipped; i++) {
		const struct ab_skipped_input *s = &rows->skipped[i];

		fputs("skipped_input=", f);
		put_meta_text(f, s->path);
		fputs(": ", f);
		put_meta_text(f, s->why);
		if (s->flags) {
			fputs("; add ", f);
			put_meta_text(f, s->flags);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < rows->n_dims; i++) {
		fputs("input_dims=", f);
		put_meta_text(f, rows->dims[i].path);
		fputs(": ", f);
		put_meta_text(f, rows->dims[i].dims);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}
