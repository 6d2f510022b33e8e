/*
 * The two files one plan drawing needs (plots/layout.gp), written
 * atomically (temporary file, then rename):
 *   plan: minimalloc's solution format, id,lower,upper,size[,alignment],
 *         offset[,arena] (ab_plan_write_csv);
 *   live: step,live_bytes,lower_bound_bytes, one row per change.
 * Used by `plan --emit-plan/--emit-live` and `explain --plot`.
 * Both return 0 or a negative errno with err filled.
 */
#ifndef AB_PLAN_FILES_H
#define AB_PLAN_FILES_H

#include "core/arenabench.h"

int ab_write_plan_file(const char *path, const struct ab_problem *p,
		       const struct ab_plan *plan, struct ab_error *err);
int ab_write_live_file(const char *path, const struct ab_problem *p,
		       struct ab_error *err);

#endif
