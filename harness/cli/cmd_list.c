/* `arenabench list`: the registered planners, one line each. */
#include <stdio.h>

#include "cli/cli.h"

int cmd_list(struct args *a)
{
	(void)a;
	for (size_t i = 0; i < ab_planner_count(); i++) {
		const struct ab_planner *pl = ab_planner_at(i);

		printf("%-22s %-9s %s\n", pl->name,
		       ab_cost_class_name(pl->cost), pl->about);
	}
	return 0;
}
