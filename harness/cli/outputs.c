/*
 * The output rules every command shares (docs/io.md, "Outputs"): an output
 * is compared with the inputs by device and inode, never by spelling; a
 * results CSV is locked by its identity while it is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

char *cli_path_identity(const char *path)
{
	struct stat st;
	char buf[64], *dir, *slash, *r, *out;

	if (!strcmp(path, "-"))
		return strdup("-");
	if (stat(path, &st) == 0) {
		snprintf(buf, sizeof(buf), "@%llu:%llu", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
		return strdup(buf);
	}
	dir = strdup(path);
	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	r = realpath(slash ? (*dir ? dir : "/") : ".", NULL);
	out = r ? malloc(strlen(r) + strlen(path) + 2) : NULL;
	if (out)
		sprintf(out, "%s/%s", r, slash ? slash + 1 : path);
	free(r);
	free(dir);
	return out;
}

int cli_refuse_inputs(const char *what, const char *out,
		      const char *const *files, size_t n)
{
	char *id = cli_path_identity(out);
	int code = 0;

	if (!id || !strcmp(id, "-")) {
		free(id);
		return 0;
	}
	for (size_t k = 0; k < n && !code; k++) {
		char *in = cli_path_identity(files[k]);

		if (in && !strcmp(in, id)) {
			fprintf(stderr, "arenabench: %s %s is the input %s: refusing to overwrite an input (nothing done)\n",
				what, out, files[k]);
			code = EXIT_USAGE;
		}
		free(in);
	}
	free(id);
	return code;
}

int cli_lock_output(struct ab_out_lock *l, const char *out,
		    const char *command)
{
	struct ab_error err = { { 0 } };
	const char *env = getenv("ARENABENCH_OUT_LOCK_FD");
	char stale[512], *end;
	struct stat st;
	long fd = -1;

	l->fd = -1;
	l->path = NULL;
	/* standard output and devices are written in place: nothing to lock */
	if (!strcmp(out, "-") || (stat(out, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))))
		return 0;
	if (env && *env) {
		errno = 0;
		fd = strtol(env, &end, 10);
		if (errno || *end || fd < 0 || fd > 1 << 20) {
			fprintf(stderr, "arenabench: ARENABENCH_OUT_LOCK_FD='%s': expected a descriptor number\n", env);
			return EXIT_USAGE;
		}
	}
	if (ab_out_lock_take(l, out, command, (int)fd, stale, sizeof(stale), &err)) {
		fprintf(stderr, "arenabench: %s; nothing done\n", err.msg);
		return EXIT_USAGE;
	}
	if (*stale)
		fprintf(stderr, "arenabench: note: took over the stale lock %s of a run that ended without releasing it (%s)\n",
			l->path, stale);
	return 0;
}

int cli_refuse_special(const char *what, const char *out)
{
	struct stat st;
	const char *kind = NULL;

	if (!strcmp(out, "-") || stat(out, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		kind = "a directory";
	else if (S_ISFIFO(st.st_mode))
		kind = "a FIFO (its reader may never come: refused rather than hang)";
	else if (S_ISSOCK(st.st_mode))
		kind = "a socket";
	if (!kind)
		return 0;
	fprintf(stderr, "arenabench: %s %s is %s (expected a regular file, a device or -; nothing done)\n",
		what, out, kind);
	return EXIT_USAGE;
}
