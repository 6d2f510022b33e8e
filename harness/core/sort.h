/* The sort is declared in core/arenabench.h (planners use it too).  This
 * header stays only for planners/lib/first_fit_index.c, which issue 19's
 * split rewrites; new code includes core/arenabench.h. */
#ifndef AB_SORT_H
#define AB_SORT_H

#include "core/arenabench.h"

#endif
