/*
 * `arenabench export`: plan a .tflite model under TFLite Micro's rules,
 * check the plan, and write a copy carrying it as OfflineMemoryAllocation
 * metadata (export.h; docs/export.md).  The byte format is
 * harness/report/export_format.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/export.h"
#include "core/textio.h"

/* ----------------------------------------------------- plan -> words */

/* One subgraph only: TFLite Micro checks that word 2 equals the tensor
 * count of all subgraphs, then gives tensor i of *every* subgraph entry i
 * (micro_allocation_info.cc), while its documentation puts the subgraphs'
 * offsets one after the other.  A plan for one subgraph of several would
 * be applied to the others' tensors too. */
static int check_exportable(const struct ab_input *in, struct ab_error *err)
{
	if (!in->is_tflite || !in->has_graph)
		return ab_fail(err, -EINVAL, "%s: not a .tflite model", in->path);
	/* a model with control flow is one flat graph of every subgraph's
	 * tensors in that order (tflite-micro 90b983c2b reads the offsets
	 * so: offline_offsets[offline_index++] over the subgraphs) */
	if (in->tflite.n_subgraphs != 1 && in->graph.n_subgraphs == 0)
		return ab_fail(err, -ENOTSUP, "%s: the model has %zu subgraphs; export writes plans for single-subgraph models only (TFLite Micro gives tensor i of every subgraph the offset in entry i, while its documentation puts the subgraphs' offsets one after the other: see docs/export.md)",
			       in->path, in->tflite.n_subgraphs);
	return 0;
}

int ab_export_plan_words(const struct ab_input *in, const struct ab_plan *plan,
			 int32_t **words, size_t *n_words,
			 struct ab_error *err)
{
	const struct ab_problem *p = &in->problem;
	size_t n = in->graph.n_tensors;
	int32_t *w;
	int rc;

	*words = NULL;
	*n_words = 0;
	rc = check_exportable(in, err);
	if (rc)
		return rc;
	if (n > INT32_MAX - 3)
		return ab_fail(err, -EOVERFLOW, "%s: %zu tensors do not fit the int32 count",
			       in->path, n);
	w = malloc((n + 3) * sizeof(*w));
	if (!w)
		return ab_fail(err, -ENOMEM, "%s: out of memory", in->path);
	w[0] = AB_EXPORT_FORMAT_VERSION;
	w[1] = 0;             /* the subgraph the offsets are for */
	w[2] = (int32_t)n;
	for (size_t t = 0; t < n; t++)
		w[3 + t] = -1;
	for (size_t i = 0; i < p->n; i++) {
		int32_t t = p->tensor ? p->tensor[i] : -1;

		if (t < 0 || (size_t)t >= n) {
			free(w);
			return ab_fail(err, -EINVAL, "%s: buffer %zu of the problem has no model tensor",
				       in->path, i);
		}
		if (plan->offset[i] > INT32_MAX ||
		    p->buf[i].size > (uint64_t)INT32_MAX - plan->offset[i]) {
			free(w);
			return ab_fail(err, -EOVERFLOW, "%s: tensor '%s' at offset %" PRIu64 " (%" PRIu64 " bytes) ends beyond INT32_MAX, the largest offset TFLite Micro stores",
				       in->path, in->graph.tensors[t].name,
				       plan->offset[i], p->buf[i].size);
		}
		w[3 + t] = (int32_t)plan->offset[i];
	}
	*words = w;
	*n_words = n + 3;
	return 0;
}

/* ------------------------------------------------------ the export */

/* The input from model bytes already in memory, as ab_input_load would
 * make it (the structural check included), under TFLite Micro's rules. */
static int load_bytes(const uint8_t *bytes, size_t len, const char *path,
		      const struct ab_tflite_options *topt,
		      struct ab_input *in, struct ab_error *err)
{
	struct ab_load_options lo;
	size_t n = strlen(path);
	char *name = NULL;
	int rc;

	memset(&lo, 0, sizeof(lo));
	lo.problem.lifetimes = AB_LIFETIMES_TFLM;
	lo.problem.round_to = AB_TFLM_ALIGN;
	lo.tflite = *topt;
	/* the bytes are a .tflite whatever the output is called ("-", a
	 * device, x.bin): the reader goes by the name's extension */
	if (n < 7 || strcmp(path + n - 7, ".tflite")) {
		name = ab_strdupf("%s as .tflite", path);
		if (!name)
			return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	rc = ab_input_parse(name ? name : path, bytes, len, &lo, in, err);
	free(name);
	return rc;
}

/*
 * The double check: the offsets as written in the exported model, against
 * what must survive according to that model's own graph (the execution
 * check derives it from the declarations and the operator order, never
 * from the intervals the planner saw), in full mode.  A stomp refuses the
 * export, naming the two tensors.
 */
static int check_written(const uint8_t *bytes, size_t len, const char *path,
			 const struct ab_tflite_options *topt,
			 struct ab_error *err)
{
	const enum ab_exec_mode full = AB_EXEC_FULL;
	struct ab_input in2;
	struct ab_plan plan = { 0 };
	struct ab_check_result res;
	int rc = load_bytes(bytes, len, path, topt, &in2, err);

	if (rc) {
		struct ab_error why = *err;

		return ab_fail(err, -EPROTO, "the exported model does not import (a bug; nothing written): %s",
			       why.msg);
	}
	rc = ab_plan_alloc(&plan, in2.problem.n);
	if (rc) {
		rc = ab_fail(err, rc, "%s: out of memory", path);
		goto out;
	}
	for (size_t i = 0; i < in2.problem.n; i++) {
		int32_t t = in2.problem.tensor[i];
		int32_t off = in2.tflite.has_offline_plan &&
					      (size_t)t < in2.tflite.n_offline
				      ? in2.tflite.offline_offsets[t]
				      : -1;

		if (off < 0) {
			rc = ab_fail(err, -EPROTO, "%s: tensor '%s' needs arena bytes but the exported plan gives it no offset (a bug; nothing written)",
				     path, in2.graph.tensors[t].name);
			goto out;
		}
		plan.offset[i] = (uint64_t)off;
	}
	ab_plan_finish_single(&plan, &in2.problem);
	if (plan.peak <= AB_EXEC_MAX_ARENA_BYTES &&
	    ab_execute_plan(&in2.graph, &in2.problem, &plan, &full, NULL,
			    &res) != AB_PLAN_VALID) {
		rc = ab_fail(err, -EPROTO, "%s: the offsets written fail the execution check against the model's own graph: '%s' is overwritten by '%s' while it must hold its contents (step %d); nothing written",
			     path,
			     res.tensor_a >= 0 ? in2.graph.tensors[res.tensor_a].name : "?",
			     res.tensor_b >= 0 ? in2.graph.tensors[res.tensor_b].name : "?",
			     (int)res.step);
		goto out;
	}
out:
	ab_plan_free(&plan);
	ab_input_free(&in2);
	return rc;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The written bytes, imported again: the plan must come back as written. */
static int read_back(const uint8_t *bytes, size_t len, const char *path,
		     const struct ab_tflite_options *topt,
		     const struct ab_input *in, const int32_t *words,
		     struct ab_error *err)
{
	struct ab_graph g;
	struct ab_tflite_info info;
	struct ab_error why;
	int rc = ab_tflite_parse(bytes, len, path, topt, &g, &info, &why);

	if (rc)
		return ab_fail(err, -EPROTO, "the exported model does not import (a bug; nothing written): %s",
			       why.msg);
	if (!info.has_offline_plan || info.n_offline != in->graph.n_tensors ||
	    g.n_tensors != in->graph.n_tensors || g.n_ops != in->graph.n_ops ||
	    memcmp(info.offline_offsets, words + 3,
		   in->graph.n_tensors * sizeof(*words)))
		rc = ab_fail(err, -EPROTO, "%s: the exported model does not read back with the plan written (a bug; nothing written)",
			     path);
	ab_graph_free(&g);
	ab_tflite_info_free(&info);
	return rc;
}

static void count_tensors(const struct ab_input *in, const int32_t *words,
			  struct ab_export_report *rep)
{
	for (size_t t = 0; t < in->graph.n_tensors; t++) {
		const struct ab_tensor *tt = &in->graph.tensors[t];

		if (words[3 + t] >= 0) {
			rep->n_planned++;
		} else if (tt->kind == AB_KIND_CONST) {
			rep->n_const++;
		} else if (tt->kind == AB_KIND_VAR) {
			rep->n_vars++;
			rep->var_bytes += ab_align_up(tt->bytes, AB_TFLM_ALIGN);
		} else if (tt->bytes == 0) {
			rep->n_empty++;
		} else {
			rep->n_runtime++;
		}
	}
}

int ab_export_model(const char *in_path, const char *out_path,
		    const struct ab_export_options *o,
		    struct ab_export_report *rep, struct ab_error *err)
{
	const struct ab_planner *pl = o->planner ? o->planner
						 : ab_planner_find("best_of");
	struct ab_plan_options po = o->plan;
	struct ab_input in;
	struct ab_plan plan = { 0 };
	struct ab_row row = { 0 };
	struct ab_atomic_file af;
	int32_t *words = NULL;
	size_t n_words, len, out_len;
	uint8_t *out = NULL;
	char *bytes = NULL;
	int rc;

	memset(rep, 0, sizeof(*rep));
	po.align = o->align ? o->align : AB_TFLM_ALIGN;
	if (po.align < AB_TFLM_ALIGN || (po.align & (po.align - 1)))
		return ab_fail(err, -EINVAL, "%s: --align %u: TFLite Micro starts every arena buffer at a multiple of 16, so the alignment must be a power of two >= 16",
			       in_path, po.align);
	if (!pl)
		return ab_fail(err, -EINVAL, "no planner named best_of is registered");
	if (!out_path || !*out_path)
		return ab_fail(err, -EINVAL, "%s: no output file (expected --out OUT.tflite)",
			       in_path);
	if (same_file(in_path, out_path))
		return ab_fail(err, -EEXIST, "%s: the output would overwrite the input; choose another --out",
			       out_path);
	rep->planner = pl;
	rep->align = po.align;

	rc = ab_read_file(in_path, &bytes, &len, err);
	if (rc)
		return rc;
	rc = load_bytes((const uint8_t *)bytes, len, in_path, &o->tflite, &in,
			err);
	if (rc)
		goto out_free_bytes;
	rep->n_subgraphs = in.tflite.n_subgraphs;
	rep->n_ops = in.graph.n_ops;
	rep->n_tensors = in.graph.n_tensors;
	rep->in_bytes = len;
	rc = check_exportable(&in, err);
	if (rc)
		goto out_free_input;

	rc = ab_plan_alloc(&plan, in.problem.n);
	if (rc) {
		rc = ab_fail(err, rc, "%s: out of memory", in_path);
		goto out_free_input;
	}
	row.lower_bound_bytes = ab_lower_bound(&in.problem, NULL);
	rc = ab_plan_and_check(&in, pl, &po, &plan, &row, NULL);
	rep->lower_bound_bytes = row.lower_bound_bytes;
	rep->arena_bytes = plan.peak;
	rep->exec_mode = row.check.exec_mode;
	rep->plan_valid = !rc && row.check.valid;
	if (rc) {
		rc = ab_fail(err, rc, "%s: planner %s failed: %s", in_path,
			     pl->name, row.check.message ? row.check.message : strerror(-rc));
		goto out_free_plan;
	}
	if (!row.check.valid) {
		rc = ab_fail(err, -EPROTO, "%s: the %s plan failed a check, nothing written: %s",
			     in_path, pl->name, row.check.message ? row.check.message : "?");
		goto out_free_plan;
	}

	rc = ab_export_plan_words(&in, &plan, &words, &n_words, err);
	if (!rc)
		rc = ab_export_attach((const uint8_t *)bytes, len, in_path, words,
				      n_words, &out, &out_len,
				      &rep->header_bytes,
				      &rep->replaced_old_plan, err);
	if (!rc)
		rc = read_back(out, out_len, out_path, &o->tflite, &in, words,
			       err);
	if (!rc)
		rc = check_written(out, out_len, out_path, &o->tflite, err);
	if (rc)
		goto out_free_words;
	count_tensors(&in, words, rep);
	rep->out_bytes = out_len;

	rc = ab_atomic_open(&af, out_path, err);
	if (rc)
		goto out_free_words;
	if (fwrite(out, 1, out_len, af.f) != out_len) {
		ab_atomic_abort(&af);
		rc = ab_fail(err, -EIO, "%s: write error; nothing written",
			     out_path);
		goto out_free_words;
	}
	rc = ab_atomic_commit(&af, err);
out_free_words:
	free(out);
	free(words);
out_free_plan:
	free(row.check.message);
	ab_plan_free(&plan);
out_free_input:
	ab_input_free(&in);
out_free_bytes:
	free(bytes);
	return rc;
}
