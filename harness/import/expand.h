/*
 * Input expansion: the file names arenabench reads, by suffix, in one
 * list, and the expansion of directories (sorted, not recursive) into the
 * files of chosen kinds.  Used by every command that takes inputs (bench,
 * stats, suite).  May include: core.
 * Contract: returns 0 or a negative errno with err filled.
 */
#ifndef AB_EXPAND_H
#define AB_EXPAND_H

#include "core/arenabench.h"

/* Input kinds as a mask. */
enum { AB_INPUT_GRAPH = 1, AB_INPUT_CSV = 2, AB_INPUT_TFLITE = 4,
       AB_INPUT_ONNX = 8, AB_INPUT_ANY = 15 };

/* The suffix of each kind ({".graph", AB_INPUT_GRAPH}, ...), NULL ended. */
struct ab_input_suffix {
	const char *suffix;
	int kind;
};
extern const struct ab_input_suffix ab_input_suffixes[];

/* The kind of a file name by its suffix, 0 if none. */
int ab_input_kind(const char *name);

/*
 * Paths (files, kept as given, or directories, replaced by their files of
 * a kind in `kinds`, sorted) into *out (malloc'd strings in a malloc'd
 * array, *n of them; free with ab_free_inputs).  With empty_dir_fails, a
 * directory without such files is -ENOENT and *empty (may be NULL) is its
 * index in paths; otherwise it adds nothing.
 */
int ab_expand_inputs(const char *const *paths, size_t n_paths, int kinds,
		     bool empty_dir_fails, char ***out, size_t *n,
		     size_t *empty, struct ab_error *err);
void ab_free_inputs(char **files, size_t n);

/*
 * The family of an imported model: the name of the folder it sits in
 * (../shared/models/mediapipe/x.tflite -> "mediapipe"), or `fallback`
 * when the path names no folder (or only "." or "..").  Malloc'd; NULL
 * when out of memory.
 */
char *ab_family_from_path(const char *path, const char *fallback);

#endif
