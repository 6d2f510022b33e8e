/* A call in a child process; see isolate.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/isolate.h"

int ab_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int ab_run_isolated(int (*fn)(void *arg, int fd), void *arg,
		    struct ab_isolated *r)
{
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	size_t cap = 65536;
	int fds[2], status = 0, rc = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe(fds))
		return -errno;
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		/* the default action, whatever a sanitizer or a fuzzer set:
		 * the parent reads the signal */
		for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
			signal(crash[i], SIG_DFL);
		close(fds[0]);
		_exit(fn(arg, fds[1]) ? 1 : 0);
	}
	close(fds[1]);
	r->out = malloc(cap);
	for (;;) {
		ssize_t n;

		if (r->out && r->len + 1 == cap) {
			char *more = realloc(r->out, cap * 2);

			if (!more) {
				free(r->out);
				r->out = NULL;
			} else {
				r->out = more;
				cap *= 2;
			}
		}
		if (!r->out) { /* keep reading, so the child can finish */
			char sink[4096];

			n = read(fds[0], sink, sizeof(sink));
		} else {
			n = read(fds[0], r->out + r->len, cap - 1 - r->len);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (r->out)
			r->len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	if (!r->out)
		return -ENOMEM;
	r->out[r->len] = 0;
	if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	else
		r->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return 0;
}
