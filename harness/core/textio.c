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
	buf = malloc((size_t)size + 1);
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

int ab_atomic_open(struct ab_atomic_file *af, const char *path,
		   struct ab_error *err)
{
	size_t n = strlen(path) + 32;

	memset(af, 0, sizeof(*af));
	af->path = strdup(path);
	af->tmp = malloc(n);
	if (!af->path || !af->tmp) {
		ab_atomic_abort(af);
		return ab_fail(err, -ENOMEM, "%s: out of memory", path);
	}
	snprintf(af->tmp, n, "%s.tmp.%ld", path, (long)getpid());
	af->f = fopen(af->tmp, "w");
	if (!af->f) {
		int e = errno;

		ab_atomic_abort(af);
		return ab_fail(err, -e, "%s: cannot create: %s", path,
			       strerror(e));
	}
	return 0;
}

int ab_atomic_commit(struct ab_atomic_file *af, struct ab_error *err)
{
	int bad = ferror(af->f);

	if (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0)
		bad = 1;
	if (fclose(af->f) != 0)
		bad = 1;
	af->f = NULL;
	if (bad) {
		int rc = ab_fail(err, -EIO, "%s: write error; the previous file is kept",
				 af->path);
		ab_atomic_abort(af);
		return rc;
	}
	if (rename(af->tmp, af->path) != 0) {
		int e = errno;
		int rc = ab_fail(err, -e, "%s: cannot replace: %s", af->path,
				 strerror(e));
		ab_atomic_abort(af);
		return rc;
	}
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
	return 0;
}

void ab_atomic_abort(struct ab_atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}
