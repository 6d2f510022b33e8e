/*
 * The `.graph` text format (graphs/README.md): the parser, which ends with
 * core's structural check (ab_graph_check), and the canonical writer.
 * Contract: functions return 0 or a negative errno with err filled; `path`
 * is used in messages.
 */
#ifndef AB_GRAPH_TEXT_H
#define AB_GRAPH_TEXT_H

#include "core/arenabench.h"

int ab_graph_parse(const char *text, size_t len, const char *path,
		   struct ab_graph *out, struct ab_error *err);
int ab_graph_load(const char *path, struct ab_graph *out,
		  struct ab_error *err);
/* Writes the canonical text form; returns a malloc'd string. */
char *ab_graph_to_text(const struct ab_graph *g);

#endif
