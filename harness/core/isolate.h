/*
 * A call run in a child process, for third-party code that may crash on a
 * malformed input (libonnx's shape inference: harness/import/onnx_proto.cc):
 * the crash becomes the input's error, not the harness's.  The one place
 * outside harness/cli that starts a process (scripts/check-deps.sh names
 * it); it prints nothing and exits only in the child.
 */
#ifndef AB_ISOLATE_H
#define AB_ISOLATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ab_isolated {
	char *out;        /* what the child wrote (malloc'd; NUL after len) */
	size_t len;
	int signal;       /* the signal that killed the child, or 0 */
	int exit_status;  /* its exit status when signal is 0 */
};

/* Forks; the child sets the crash signals (SEGV, BUS, FPE, ILL, ABRT) to
 * their default action, runs fn(arg, fd) and exits 0 when it returns 0,
 * else 1.  fn writes its answer to fd (ab_write_all).  The parent reads
 * everything into r->out and waits for the child.  0, or a negative errno
 * (pipe, fork, out of memory) with nothing to free. */
int ab_run_isolated(int (*fn)(void *arg, int fd), void *arg,
		    struct ab_isolated *r);

/* write(2) until all n bytes are out.  0 or -1. */
int ab_write_all(int fd, const void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
