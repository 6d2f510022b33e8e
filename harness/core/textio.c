/* File and line I/O shared by the parsers and writers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/textio.h"

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int ab_open_input(const char *path, uint64_t limit, FILE **out,
		  uint64_t *size, struct ab_error *err)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not hang; the flag
	 * is cleared once the file is known to be regular. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	*out = NULL;
	if (fd < 0)
		return ab_fail(err, -errno, "%s: cannot open: %s", path,
			       strerror(errno));
	if (fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		return ab_fail(err, -e, "%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ab_fail(err, -EINVAL, "%s: is %s (expected a regular file)",
			       path, file_kind(st.st_mode));
	}
	if ((uint64_t)st.st_size > limit) {
		close(fd);
		return ab_fail(err, -EFBIG, "%s: file of %lld bytes is larger than the %llu-byte limit",
			       path, (long long)st.st_size,
			       (unsigned long long)limit);
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    !(*out = fdopen(fd, "rb"))) {
		int e = errno;

		close(fd);
		return ab_fail(err, -e, "%s: cannot open: %s", path, strerror(e));
	}
	*size = (uint64_t)st.st_size;
	return 0;
}

int ab_read_file(const char *path, char **text, size_t *len,
		 struct ab_error *err)
{
	FILE *f;
	uint64_t size;
	char *buf;
	size_t n;
	int rc = ab_open_input(path, AB_MAX_FILE_BYTES, &f, &size, err);

	if (rc)
		return rc;
	buf = ab_alloc_large((size_t)size + 1);
	if (!buf) {
		fclose(f);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	n = fread(buf, 1, (size_t)size, f);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return ab_fail(err, -EIO, "%s: read error", path);
	}
	fclose(f);
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* v < 10^8 as eight ASCII digits (leading zeros), the first in the lowest
 * byte: the halves v / 10^4 and v % 10^4 in two 32-bit lanes, each split
 * into two digit pairs in 16-bit lanes, each pair into two bytes, every
 * lane at once.  x * 10486 >> 20 is x / 100 for x < 10^4 and z * 103 >> 10
 * is z / 10 for z < 100 (the error stays below the fractions' gap to 1). */
static inline uint64_t eight_digits(uint32_t v)
{
	uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t hundreds = (x * 10486 >> 20) & 0x0000007F0000007Full;
	uint64_t pairs = hundreds | (x - hundreds * 100) << 16;
	uint64_t tens = (pairs * 103 >> 10) & 0x000F000F000F000Full;

	return (tens | (pairs - tens * 10) << 8) + 0x3030303030303030ull;
}

/* v < 10^8 without its leading zeros: the zero digits before the first
 * other one are the lowest bytes whose digit is 0 (the last byte always
 * counts, so 0 is "0"). */
static inline char *put_below_1e8(char *p, uint32_t v)
{
	uint64_t w = eight_digits(v);
	unsigned zeros = (unsigned)__builtin_ctzll((w - 0x3030303030303030ull) |
						   1ull << 56) / 8;

	w >>= 8 * zeros;
	memcpy(p, &w, 8); /* the bytes past the digits are scratch */
	return p + 8 - zeros;
}

char *ab_put_u64(char *p, uint64_t v)
{
	uint64_t w, top;

	if (v < 100000000)
		return put_below_1e8(p, (uint32_t)v);
	top = v / 100000000;
	if (top < 100000000) {
		p = put_below_1e8(p, (uint32_t)top);
	} else { /* 10^16 and above: at most 1844 before two blocks of 8 */
		p = put_below_1e8(p, (uint32_t)(top / 100000000));
		w = eight_digits((uint32_t)(top % 100000000));
		memcpy(p, &w, 8);
		p += 8;
	}
	w = eight_digits((uint32_t)(v - top * 100000000));
	memcpy(p, &w, 8);
	return p + 8;
}
#else
/* Decimal digits of v >= 1: from its bit length (log10 2 ~ 1233 / 4096),
 * one compare with a power of ten corrects the estimate. */
static unsigned decimal_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;

	return t + (v >= pow10[t]);
}

/* "00" .. "99": two digits a division */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

char *ab_put_u64(char *p, uint64_t v)
{
	/* v | 1 has v's digits: an even v + 1 is never a power of ten */
	char *end = p + decimal_digits(v | 1), *d = end;

	while (v >= 100) {
		const char *two = two_digits + 2 * (v % 100);

		v /= 100;
		*--d = two[1];
		*--d = two[0];
	}
	if (v >= 10) {
		d[-1] = two_digits[2 * v + 1];
		d[-2] = two_digits[2 * v];
	} else {
		d[-1] = (char)('0' + v);
	}
	return end;
}
#endif

void ab_line_reader_init(struct ab_line_reader *lr, const char *text,
			 size_t len)
{
	memset(lr, 0, sizeof(*lr));
	lr->text = text;
	lr->len = len;
}

int ab_line_reader_next(struct ab_line_reader *lr, char **line)
{
	const char *start, *nl;
	size_t n;

	if (lr->pos >= lr->len)
		return 0;
	start = lr->text + lr->pos;
	nl = memchr(start, '\n', lr->len - lr->pos);
	n = nl ? (size_t)(nl - start) : lr->len - lr->pos;
	lr->pos += n + (nl ? 1 : 0);
	lr->line++;
	if (n && start[n - 1] == '\r')
		n--;
	if (n >= AB_MAX_LINE_BYTES || memchr(start, 0, n))
		return -E2BIG;
	if (n + 1 > lr->cap) {
		size_t cap = n + 1 > 256 ? n + 1 : 256;
		char *p = realloc(lr->buf, cap);

		if (!p)
			return -ENOMEM;
		lr->buf = p;
		lr->cap = cap;
	}
	memcpy(lr->buf, start, n);
	lr->buf[n] = 0;
	*line = lr->buf;
	return 1;
}

void ab_line_reader_free(struct ab_line_reader *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* The temporary files being written now, so that a signal handler can
 * remove them (ab_atomic_remove_all); async-signal-safe to read. */
#define MAX_LIVE_TMP 16
static char *volatile live_tmp[MAX_LIVE_TMP];

static void live_add(char *tmp)
{
	for (int i = 0; i < MAX_LIVE_TMP; i++)
		if (!live_tmp[i]) {
			live_tmp[i] = tmp;
			return;
		}
}

static void live_remove(const char *tmp)
{
	for (int i = 0; i < MAX_LIVE_TMP; i++)
		if (live_tmp[i] == tmp)
			live_tmp[i] = NULL;
}

void ab_atomic_remove_all(void)
{
	for (int i = 0; i < MAX_LIVE_TMP; i++)
		if (live_tmp[i])
			unlink(live_tmp[i]);
}

char *ab_resolve_output(const char *path)
{
	char *r = realpath(path, NULL);
	char link[4096];
	ssize_t n;

	if (r)
		return r;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return strdup(path);
	link[n] = 0;
	if (link[0] == '/' || !strchr(path, '/'))
		return strdup(link);
	r = malloc(strlen(path) + (size_t)n + 2);
	if (r) {
		const char *slash = strrchr(path, '/');

		memcpy(r, path, (size_t)(slash - path) + 1);
		strcpy(r + (slash - path) + 1, link);
	}
	return r;
}

int ab_atomic_open(struct ab_atomic_file *af, const char *path,
		   struct ab_error *err)
{
	struct stat st;
	size_t n;
	int fd;

	memset(af, 0, sizeof(*af));
	if (strcmp(path, "-") == 0) {
		/* stdout, written in place; the caller's stream is not closed */
		af->f = stdout;
		af->in_place = af->is_stdout = true;
		af->path = strdup("(standard output)");
		return af->path ? 0 : ab_fail(err, -ENOMEM, "out of memory");
	}
	af->path = ab_resolve_output(path);
	if (!af->path)
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	if (stat(af->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			free(af->path);
			af->path = NULL;
			return ab_fail(err, -EISDIR, "%s: is a directory (expected a file to write)", path);
		}
		/* a FIFO with no reader would block for ever; a socket takes no
		 * file; a device is written in place, never replaced */
		if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)) {
			int e = S_ISFIFO(st.st_mode) ? ESPIPE : EINVAL;

			free(af->path);
			af->path = NULL;
			return ab_fail(err, -e, "%s: is %s (expected a regular file, a device or -; a FIFO is refused, as its reader may never come)",
				       path, file_kind(st.st_mode));
		}
		af->f = fopen(af->path, "w");
		af->in_place = true;
		if (!af->f) {
			int e = errno;

			ab_atomic_abort(af);
			return ab_fail(err, -e, "%s: cannot open: %s", path, strerror(e));
		}
		return 0;
	}
	n = strlen(af->path) + 32;
	af->tmp = malloc(n);
	if (!af->tmp) {
		ab_atomic_abort(af);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	snprintf(af->tmp, n, "%s.tmp.%ld", af->path, (long)getpid());
	live_add(af->tmp);
	/* a new file of our own in the output's folder (never through a
	 * link someone left under the temporary name) */
	unlink(af->tmp);
	fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	af->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!af->f) {
		if (fd >= 0)
			close(fd);
		int e = errno;

		ab_atomic_abort(af);
		return ab_fail(err, -e, "%s: cannot create: %s", path,
			       strerror(e));
	}
	return 0;
}

/* Flushes and closes (stdout: flushes only); the rename is left to the
 * caller.  On failure the temporary file is removed. */
static int atomic_finish(struct ab_atomic_file *af, struct ab_error *err)
{
	int bad = ferror(af->f) ? EIO : 0;

	errno = 0;
	if (fflush(af->f) != 0)
		bad = errno ? errno : EIO;
	if (!af->in_place && fsync(fileno(af->f)) != 0)
		bad = errno ? errno : EIO;
	if (!af->is_stdout && fclose(af->f) != 0)
		bad = errno ? errno : EIO;
	af->f = NULL;
	if (bad) {
		int rc = ab_fail(err, -EIO, "%s: write error: %s%s", af->path,
				 strerror(bad),
				 af->in_place ? "" : "; the previous file is kept");

		ab_atomic_abort(af);
		return rc;
	}
	return 0;
}

static void atomic_done(struct ab_atomic_file *af)
{
	if (af->tmp)
		live_remove(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}

/* Makes a rename in the folder of path durable (a crash after the
 * rename keeps the new file); a folder that cannot be synced (some file
 * systems refuse) is not an error. */
static void sync_folder(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		if (fsync(fd)) {
			/* EINVAL on some file systems: nothing more to do */
		}
		close(fd);
	}
	free(dir);
}

/* Renames a finished file over its path (nothing to do in place). */
static int atomic_rename(struct ab_atomic_file *af, struct ab_error *err)
{
	if (!af->in_place && rename(af->tmp, af->path) != 0) {
		int e = errno;
		int rc = ab_fail(err, -e, "%s: cannot replace: %s", af->path,
				 strerror(e));

		ab_atomic_abort(af);
		return rc;
	}
	if (!af->in_place)
		sync_folder(af->path);
	atomic_done(af);
	return 0;
}

int ab_atomic_commit(struct ab_atomic_file *af, struct ab_error *err)
{
	int rc = atomic_finish(af, err);

	return rc ? rc : atomic_rename(af, err);
}

int ab_atomic_commit_pair(struct ab_atomic_file *a, struct ab_atomic_file *b,
			  struct ab_error *err)
{
	char *keep = NULL;
	bool had_old;
	int rc = atomic_finish(a, err);

	if (rc) {
		ab_atomic_abort(b);
		return rc;
	}
	rc = atomic_finish(b, err);
	if (rc) {
		ab_atomic_abort(a);
		return rc;
	}
	if (a->in_place || b->in_place) {
		/* both are written out already: only renames are left */
		rc = atomic_rename(b, err);
		if (!rc)
			rc = atomic_rename(a, err);
		else
			ab_atomic_abort(a);
		return rc;
	}
	/* b first, with its old version kept under a second name, so that a
	 * failure to replace a puts the old b back: both or neither. */
	keep = malloc(strlen(b->path) + 32);
	if (!keep) {
		ab_atomic_abort(a);
		ab_atomic_abort(b);
		return ab_fail(err, -ENOMEM, "out of memory");
	}
	snprintf(keep, strlen(b->path) + 32, "%s.old.%ld", b->path, (long)getpid());
	had_old = link(b->path, keep) == 0;
	if (!had_old && errno != ENOENT) {
		/* the old b could not be kept aside: replace neither */
		int e = errno;

		rc = ab_fail(err, -e, "%s: cannot keep the previous version aside: %s; the previous files are kept",
			     b->path, strerror(e));
		goto fail;
	}
	if (rename(b->tmp, b->path) != 0) {
		int e = errno;

		rc = ab_fail(err, -e, "%s: cannot replace: %s; the previous files are kept",
			     b->path, strerror(e));
		goto fail;
	}
	if (rename(a->tmp, a->path) != 0) {
		int e = errno;

		rc = ab_fail(err, -e, "%s: cannot replace: %s; the previous files are kept",
			     a->path, strerror(e));
		if (had_old)
			rename(keep, b->path);
		else
			unlink(b->path);
		had_old = false;
		goto fail;
	}
	if (had_old)
		unlink(keep);
	free(keep);
	sync_folder(a->path);
	sync_folder(b->path);
	atomic_done(a);
	atomic_done(b);
	return 0;
fail:
	if (had_old)
		unlink(keep);
	free(keep);
	ab_atomic_abort(a);
	ab_atomic_abort(b);
	return rc;
}

void ab_atomic_abort(struct ab_atomic_file *af)
{
	if (af->f && !af->is_stdout)
		fclose(af->f);
	if (af->tmp) {
		unlink(af->tmp);
		live_remove(af->tmp);
	}
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}
