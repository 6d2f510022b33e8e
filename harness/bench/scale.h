/*
 * `arenabench scale`: one (input, planner) measurement for the scaling
 * study (scripts/study/scaling.sh runs one process per measurement, so the peak
 * resident size belongs to that planner and size alone).
 */
#ifndef AB_SCALE_H
#define AB_SCALE_H

/* The whole subcommand: argv[1] is "scale".  Strips Google Benchmark's
 * flags itself, prints one CSV row (with --header, the header line first)
 * on stdout and messages on stderr.  Returns the exit code: 0 measured
 * (status ok, timed_out or invalid is in the row), 2 bad usage or input. */
int ab_scale_main(int argc, char **argv);

#endif
