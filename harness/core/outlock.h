/* One lock per output file, whatever the path's spelling (docs/io.md,
 * "One run per output"). */
#ifndef AB_OUTLOCK_H
#define AB_OUTLOCK_H

#include <stddef.h>

#include "core/arenabench.h"

/*
 * The lock of an output is the file ".NAME.lock" in the folder the output
 * resolves to (symlinks followed), so "results/x.csv", "$PWD/results/x.csv"
 * and the same folder through a symlink share it; it is held with flock,
 * which the kernel drops when its holder dies, also on an NFS folder that
 * Slurm nodes share.  It holds one line naming the holder,
 *     pid=P host=H started=YYYY-MM-DDTHH:MM:SSZ command=C
 * (scripts/study/campaign.sh writes the same), and is removed on release
 * and on SIGINT, SIGTERM and SIGHUP (a taker checks that the file it
 * locked is still the path's).  A lock file found free was left by a run
 * that was killed: it is taken over and *stale names that run.  A holder line with slurm_jobs= is a
 * Slurm campaign's reservation for its merge job (campaign.sh clears it);
 * it is refused like a held lock.
 */
struct ab_out_lock {
	int fd;     /* -1 when not held */
	char *path; /* the lock file */
	int inherited;
};

/* The lock file's path for an output (malloc'd), or NULL with err set. */
char *ab_out_lock_path(const char *out, struct ab_error *err);

/* Takes the lock of `out` for `command`.  inherited_fd >= 0: a parent
 * (the campaign) holds it on that descriptor; accepted only when it is
 * the same lock file.  -EBUSY names the holder; stale (may be NULL, of
 * stale_len bytes) receives the stale holder's line, or "". */
int ab_out_lock_take(struct ab_out_lock *l, const char *out,
		     const char *command, int inherited_fd, char *stale,
		     size_t stale_len, struct ab_error *err);
/* Removes and releases the lock (nothing when not held or inherited). */
void ab_out_lock_release(struct ab_out_lock *l);
/* Removes every lock file held: for a signal handler. */
void ab_out_lock_remove_all(void);

#endif
