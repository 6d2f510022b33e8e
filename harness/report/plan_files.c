/* Plan and live-curve files for plotting: see plan_files.h. */
#include <inttypes.h>

#include "report/plan_files.h"
#include "core/textio.h"
#include "import/problem_csv.h"

int ab_write_live_file(const char *path, const struct ab_problem *p,
		       struct ab_error *err)
{
	struct ab_live_profile lp;
	struct ab_atomic_file f;
	uint64_t lb = ab_lower_bound(p, NULL);
	int rc = ab_live_profile(p, &lp);

	if (rc)
		return ab_fail(err, rc, "%s: out of memory", path);
	rc = ab_atomic_open(&f, path, err);
	if (!rc) {
		fputs("step,live_bytes,lower_bound_bytes\n", f.f);
		for (size_t k = 0; k < lp.n; k++)
			fprintf(f.f, "%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n",
				lp.time[k], lp.bytes[k], lb);
		rc = ab_atomic_commit(&f, err);
	}
	ab_live_profile_free(&lp);
	return rc;
}

int ab_write_plan_file(const char *path, const struct ab_problem *p,
		       const struct ab_plan *plan, struct ab_error *err)
{
	struct ab_atomic_file f;
	int rc = ab_atomic_open(&f, path, err);

	if (rc)
		return rc;
	ab_plan_write_csv(f.f, p, plan);
	return ab_atomic_commit(&f, err);
}
