/* One lock per output file: outlock.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/outlock.h"
#include "core/textio.h"

char *ab_out_lock_path(const char *out, struct ab_error *err)
{
	char *file = ab_resolve_output(out), *slash, *dir, *lock = NULL;

	if (!file) {
		ab_fail(err, -ENOMEM, "%s: out of memory", out);
		return NULL;
	}
	slash = strrchr(file, '/');
	if (slash)
		*slash = 0;
	dir = realpath(slash ? (*file ? file : "/") : ".", NULL);
	if (!dir)
		ab_fail(err, -errno, "%s: cannot resolve its folder: %s", out, strerror(errno));
	else
		lock = ab_strdupf("%s/.%s.lock", strcmp(dir, "/") ? dir : "",
				  slash ? slash + 1 : file);
	if (dir && !lock)
		ab_fail(err, -ENOMEM, "%s: out of memory", out);
	free(dir);
	free(file);
	return lock;
}

/* The locks held now, for a signal handler (ab_out_lock_remove_all). */
#define MAX_HELD 4
static char *volatile held[MAX_HELD];

static void held_add(char *path)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (!held[i]) {
			held[i] = path;
			return;
		}
}

static void held_remove(const char *path)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (held[i] == path)
			held[i] = NULL;
}

void ab_out_lock_remove_all(void)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (held[i])
			unlink(held[i]);
}

/* The holder's line in buf (without its newline); "" when empty. */
static void read_holder(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

int ab_out_lock_take(struct ab_out_lock *l, const char *out,
		     const char *command, int inherited_fd, char *stale,
		     size_t stale_len, struct ab_error *err)
{
	char holder[512], host[256] = "unknown", date[32];
	struct stat a, b;
	time_t now = time(NULL);
	int rc, n;

	l->fd = -1;
	l->inherited = 0;
	if (stale && stale_len)
		stale[0] = 0;
	l->path = ab_out_lock_path(out, err);
	if (!l->path)
		return -ENOMEM;
	if (inherited_fd >= 0) {
		/* the campaign's lock, passed down: the same file or nothing */
		if (fstat(inherited_fd, &a) || stat(l->path, &b) ||
		    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
			rc = ab_fail(err, -EINVAL, "%s: the lock passed down (descriptor %d) is not %s",
				     out, inherited_fd, l->path);
			goto fail;
		}
		l->fd = inherited_fd;
		l->inherited = 1;
		return 0;
	}
	/* a holder removes the file on release: a lock taken on a file that
	 * is gone by then is no lock, so take it again on the new one */
	for (int tries = 0;; tries++) {
		l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (l->fd < 0) {
			rc = ab_fail(err, -errno, "%s: cannot open its lock %s: %s", out, l->path,
				     strerror(errno));
			goto fail;
		}
		if (fstat(l->fd, &a) || !S_ISREG(a.st_mode)) {
			rc = ab_fail(err, -EINVAL, "%s: its lock %s is not a regular file", out, l->path);
			goto fail;
		}
		if (flock(l->fd, LOCK_EX | LOCK_NB)) {
			read_holder(l->fd, holder, sizeof(holder));
			rc = ab_fail(err, -EBUSY, "%s is in use by %s (lock %s); refusing a second run on it",
				     out, *holder ? holder : "another run", l->path);
			goto fail;
		}
		if ((stat(l->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) || tries == 100)
			break;
		close(l->fd);
	}
	read_holder(l->fd, holder, sizeof(holder));
	if (strstr(holder, "slurm_jobs=")) {
		rc = ab_fail(err, -EBUSY, "%s is reserved for %s (lock %s; the campaign clears it when they end, or remove it once squeue no longer lists them)",
			     out, holder, l->path);
		goto fail;
	}
	if (*holder && stale && stale_len)
		snprintf(stale, stale_len, "%s", holder);
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	n = snprintf(holder, sizeof(holder), "pid=%ld host=%s started=%s command=%s\n",
		     (long)getpid(), host, date, command);
	if (n < 0 || (size_t)n >= sizeof(holder))
		n = (int)strlen(holder);
	if (ftruncate(l->fd, 0) || pwrite(l->fd, holder, (size_t)n, 0) != n) {
		rc = ab_fail(err, -errno, "%s: cannot write its lock %s: %s", out, l->path,
			     strerror(errno));
		goto fail;
	}
	held_add(l->path);
	return 0;
fail:
	if (l->fd >= 0 && !l->inherited)
		close(l->fd);
	l->fd = -1;
	free(l->path);
	l->path = NULL;
	return rc;
}

void ab_out_lock_release(struct ab_out_lock *l)
{
	if (l->fd >= 0 && !l->inherited) {
		held_remove(l->path);
		/* removed while held, then closed (see the retry in take) */
		unlink(l->path);
		close(l->fd);
	}
	l->fd = -1;
	free(l->path);
	l->path = NULL;
}
