/*
 * The progress lines of one long plan (exact's phases: complete search,
 * restarts, skyline search, hole closing, band repair, window repair),
 * handed to ab_plan_options.progress; the caller prints them.
 * Contract: nothing here prints or fails; a NULL line or callback says
 * nothing.
 */
#ifndef AB_PROGRESS_LINE_H
#define AB_PROGRESS_LINE_H

#include "core/arenabench.h"

/* The progress lines (`plan`'s stderr) of one plan, every phase: each
 * improvement, a tick at most once a second, a phase's final line only
 * after the plan's first second (short runs stay quiet).  Seconds and
 * nodes count from the plan's start; the first line is preceded by one
 * for the starting plan (best_of's, at 0 nodes and 0 s). */
enum { AB_REPORT_TICK, AB_REPORT_IMPROVED, AB_REPORT_FINAL };
struct ab_progress_line {
	void (*fn)(void *, const struct ab_progress *); /* NULL = none */
	void *user;
	const char *phase;
	double t0, last;          /* the plan's start; the last line */
	uint64_t start_peak;      /* best_of's peak */
	bool opened;              /* the starting plan's line is out */
};

/* One line of kind `why` for the phase l->phase (see above for when a
 * tick or a final line is left out). */
void ab_progress_line_say(struct ab_progress_line *l, int why, uint64_t peak,
			  uint64_t bound, uint64_t nodes);

#endif
