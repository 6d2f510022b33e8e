/*
 * Strategies written in Python on the command line (`--planner
 * py:FILE`, `bench --planners-dir DIR`; docs/python.md): each is a planner
 * whose plan function starts a child process, Python running the
 * package's small runner (python/arenabench/_runner.py) on FILE, pipes the
 * problem to it and reads the offsets back.  The plan then goes through
 * the same checks, CSV row and plots as a C planner's; a strategy that
 * raises, dies or answers badly gives no plan (the row is invalid, with
 * the child's message), and never brings the run down.
 *
 * The child serves every plan of its strategy in this process (started
 * at the first, restarted after a death), so a plan's time is the call
 * through the pipes into a warm interpreter, not its start-up.  Wire
 * format (the runner's docstring says the same): a request on its stdin,
 * a line "arenabench-problem 1 N NAME\n" then four little-endian arrays
 * of N 64-bit values: lower (signed), upper (signed; half-open [lower,
 * upper)), size, align (the buffer's own and the plan's, whichever is
 * larger); the answer on its stdout, 8 bytes "ABPY-OK\n" or "ABPY-ER\n",
 * a little-endian 64-bit length L, then L bytes: N little-endian unsigned
 * 64-bit offsets, or the reason in UTF-8.  What the strategy prints goes
 * to this process's stderr.
 *
 * The interpreter is $ARENABENCH_PYTHON, else the one `make` was given
 * (PYTHON, Debian's /usr/bin/python3); the package is found in the source
 * tree's python/ folder (put first on PYTHONPATH) or wherever the
 * interpreter has it installed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef AB_PYTHON
#define AB_PYTHON "python3"
#endif
#ifndef AB_PYTHON_DIR
#define AB_PYTHON_DIR "python"
#endif

struct py_strategy {
	char *path;
	struct ab_planner planner;
	/* the serving child, started at the first plan and kept for the
	 * next ones (pid 0: none): its stdin and stdout */
	pid_t pid;
	int to_child, from_child;
};

/* Every strategy made in this process (kept until exit: rows point at
 * their planners). */
static struct py_strategy **made;
static size_t n_made;

static const char *python_exe(void)
{
	const char *p = getenv("ARENABENCH_PYTHON");

	return p && *p ? p : AB_PYTHON;
}

/* In the child: stdin, stdout and stderr from the three fds, PYTHONPATH
 * with the source tree's package first, then the runner. */
static void exec_runner(int in, int out, int err, const char *mode,
			const char *path)
{
	const char *old = getenv("PYTHONPATH");
	char *pp = ab_strdupf("%s%s%s", AB_PYTHON_DIR, old && *old ? ":" : "",
			      old ? old : "");

	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	for (int fd = 3; fd < 256; fd++)
		close(fd);
	if (pp)
		setenv("PYTHONPATH", pp, 1);
	execlp(python_exe(), python_exe(), "-m", "arenabench._runner", mode,
	       path, (char *)NULL);
	fprintf(stderr, "cannot start %s: %s (set ARENABENCH_PYTHON)\n",
		python_exe(), strerror(errno));
	_exit(127);
}

struct exchange {
	const uint8_t *send;
	size_t send_len;
	uint8_t *reply;
	size_t reply_len, reply_cap;
	char err_tail[1024]; /* the last bytes of the child's stderr */
	size_t err_len;
	int status;
};

static void keep_tail(struct exchange *x, const char *buf, size_t n)
{
	size_t cap = sizeof(x->err_tail) - 1;

	if (n >= cap) {
		memcpy(x->err_tail, buf + n - cap, cap);
		x->err_len = cap;
	} else {
		if (x->err_len + n > cap) {
			size_t drop = x->err_len + n - cap;

			memmove(x->err_tail, x->err_tail + drop, x->err_len - drop);
			x->err_len -= drop;
		}
		memcpy(x->err_tail + x->err_len, buf, n);
		x->err_len += n;
	}
	x->err_tail[x->err_len] = 0;
}

/* Runs the runner with mode on path: sends x->send on its stdin (a socket,
 * written with MSG_NOSIGNAL: a child that stops reading costs no SIGPIPE),
 * collects stdout into x->reply and the tail of stderr, waits for it.
 * 0, or a negative errno when the child could not be run. */
static int run_child(const char *mode, const char *path, struct exchange *x)
{
	int sv[2], out[2], err[2];
	struct pollfd fds[3];
	size_t sent = 0;
	pid_t pid;
	int rc = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		rc = -errno;
		goto close_sv;
	}
	if (pipe2(err, O_CLOEXEC)) {
		rc = -errno;
		goto close_out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto close_err;
	}
	if (pid == 0)
		exec_runner(sv[1], out[1], err[1], mode, path);
	close(sv[1]);
	close(out[1]);
	close(err[1]);
	sv[1] = out[1] = err[1] = -1;
	if (!x->send_len)
		shutdown(sv[0], SHUT_WR);
	fds[0] = (struct pollfd){ .fd = x->send_len ? sv[0] : -1, .events = POLLOUT };
	fds[1] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	fds[2] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	while (fds[1].fd >= 0 || fds[2].fd >= 0) {
		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (fds[0].fd >= 0 && fds[0].revents) {
			ssize_t k = send(sv[0], x->send + sent, x->send_len - sent,
					 MSG_NOSIGNAL | MSG_DONTWAIT);

			if (k > 0)
				sent += (size_t)k;
			if (k < 0 && errno != EAGAIN && errno != EINTR)
				sent = x->send_len; /* the child stopped reading */
			if (sent == x->send_len) {
				shutdown(sv[0], SHUT_WR);
				fds[0].fd = -1;
			}
		}
		if (fds[1].fd >= 0 && fds[1].revents) {
			ssize_t k;

			if (x->reply_len == x->reply_cap) {
				size_t cap = x->reply_cap ? 2 * x->reply_cap : 65536;
				void *r = realloc(x->reply, cap);

				if (!r) {
					rc = -ENOMEM;
					break;
				}
				x->reply = r;
				x->reply_cap = cap;
			}
			k = read(out[0], x->reply + x->reply_len, x->reply_cap - x->reply_len);
			if (k > 0)
				x->reply_len += (size_t)k;
			else if (k == 0 || errno != EINTR)
				fds[1].fd = -1;
		}
		if (fds[2].fd >= 0 && fds[2].revents) {
			char buf[4096];
			ssize_t k = read(err[0], buf, sizeof(buf));

			if (k > 0)
				keep_tail(x, buf, (size_t)k);
			else if (k == 0 || errno != EINTR)
				fds[2].fd = -1;
		}
	}
	if (rc)
		kill(pid, SIGKILL);
	while (waitpid(pid, &x->status, 0) < 0 && errno == EINTR)
		;
close_err:
	close(err[0]);
	if (err[1] >= 0)
		close(err[1]);
close_out:
	close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
close_sv:
	close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	return rc;
}

/* The child's reason: the last non-empty line of its stderr, or how it
 * ended. */
static void child_reason(const struct exchange *x, char *buf, size_t len)
{
	char tail[sizeof(x->err_tail)];
	char *end, *line;

	memcpy(tail, x->err_tail, x->err_len + 1);
	end = tail + strlen(tail);
	while (end > tail && (end[-1] == '\n' || end[-1] == ' '))
		*--end = 0;
	line = strrchr(tail, '\n');
	line = line ? line + 1 : tail;
	if (*line)
		snprintf(buf, len, "%s", line);
	else if (WIFSIGNALED(x->status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(x->status));
	else
		snprintf(buf, len, "exit status %d", WEXITSTATUS(x->status));
}

static bool child_ok(const struct exchange *x)
{
	return WIFEXITED(x->status) && WEXITSTATUS(x->status) == 0;
}

static void put_u64(uint8_t *b, uint64_t v)
{
	for (int k = 0; k < 8; k++)
		b[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get_u64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int k = 7; k >= 0; k--)
		v = v << 8 | b[k];
	return v;
}

/* Starts the serving child of s (stdin a socket, written with
 * MSG_NOSIGNAL: a child that dies costs no SIGPIPE; stderr shared). */
static int start_server(struct py_strategy *s)
{
	int sv[2], out[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		int e = -errno;

		close(sv[0]);
		close(sv[1]);
		return e;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(sv[0]);
		close(sv[1]);
		close(out[0]);
		close(out[1]);
		return e;
	}
	if (pid == 0)
		exec_runner(sv[1], out[1], 2, "serve", s->path);
	close(sv[1]);
	close(out[1]);
	s->pid = pid;
	s->to_child = sv[0];
	s->from_child = out[0];
	return 0;
}

/* Ends the serving child (after a failed exchange) and says how it ended. */
static void stop_server(struct py_strategy *s, char *why, size_t len)
{
	int status = 0;
	pid_t done = 0;

	close(s->to_child);
	close(s->from_child);
	/* a child that closed its end is ending: up to 2 s to say how */
	for (int k = 0; k < 200 && !(done = waitpid(s->pid, &status, WNOHANG)); k++)
		usleep(10000);
	if (done <= 0) {
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
		if (why)
			snprintf(why, len, "the strategy's process stopped answering");
	} else if (why) {
		if (WIFSIGNALED(status))
			snprintf(why, len, "the strategy's process was killed by signal %d", WTERMSIG(status));
		else
			snprintf(why, len, "the strategy's process ended (exit status %d)", WEXITSTATUS(status));
	}
	s->pid = 0;
}

static int send_all(int fd, const uint8_t *b, size_t n)
{
	while (n) {
		ssize_t k = send(fd, b, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -EPIPE;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static int read_all(int fd, uint8_t *b, size_t n)
{
	while (n) {
		ssize_t k = read(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -EPIPE;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static int plan_python(const struct ab_problem *p,
		       const struct ab_plan_options *o, struct ab_plan *out)
{
	struct py_strategy *s = (struct py_strategy *)o->context;
	char head[512], why[256];
	uint8_t *req, *w, frame[16], *reply = NULL;
	uint64_t len;
	size_t hlen, n = p->n;
	int rc;

	if (!s)
		return ab_fail(o->why, -EINVAL, "a Python strategy run without its context");
	hlen = (size_t)snprintf(head, sizeof(head), "arenabench-problem 1 %zu %s\n",
				n, p->name ? p->name : "");
	if (hlen >= sizeof(head))
		hlen = sizeof(head) - 1, head[hlen - 1] = '\n';
	for (size_t k = 0; k + 1 < hlen; k++)
		if (head[k] == '\n')
			head[k] = ' ';
	req = malloc(hlen + 32 * n + 1);
	if (!req)
		return -ENOMEM;
	memcpy(req, head, hlen);
	w = req + hlen;
	for (size_t i = 0; i < n; i++)
		put_u64(w + 8 * i, (uint64_t)(int64_t)p->buf[i].first);
	w += 8 * n;
	for (size_t i = 0; i < n; i++)
		put_u64(w + 8 * i, (uint64_t)((int64_t)p->buf[i].last + 1));
	w += 8 * n;
	for (size_t i = 0; i < n; i++)
		put_u64(w + 8 * i, p->buf[i].size);
	w += 8 * n;
	for (size_t i = 0; i < n; i++)
		put_u64(w + 8 * i, ab_effective_align(p, i, o));
	if (!s->pid && (rc = start_server(s))) {
		free(req);
		return ab_fail(o->why, rc, "%s: cannot run %s: %s", s->path,
			       python_exe(), strerror(-rc));
	}
	rc = send_all(s->to_child, req, hlen + 32 * n);
	free(req);
	if (!rc)
		rc = read_all(s->from_child, frame, sizeof(frame));
	if (rc) {
		stop_server(s, why, sizeof(why));
		return ab_fail(o->why, -EIO, "%s: %s", s->path, why);
	}
	len = get_u64(frame + 8);
	if (memcmp(frame, "ABPY-OK\n", 8) && memcmp(frame, "ABPY-ER\n", 8)) {
		stop_server(s, NULL, 0);
		return ab_fail(o->why, -EIO, "%s: the runner answered out of protocol", s->path);
	}
	if (len > (uint64_t)8 * n + 65536 || !(reply = malloc(len + 1)) ||
	    read_all(s->from_child, reply, len)) {
		free(reply);
		stop_server(s, why, sizeof(why));
		return ab_fail(o->why, -EIO, "%s: %s", s->path, why);
	}
	reply[len] = 0;
	if (!memcmp(frame, "ABPY-ER\n", 8)) {
		rc = ab_fail(o->why, -EINVAL, "%s: %s", s->path, (char *)reply);
		goto out;
	}
	if (len != 8 * n) {
		rc = ab_fail(o->why, -EINVAL, "%s: answered %" PRIu64 " bytes; expected %zu (8 per buffer)",
			     s->path, len, 8 * n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v = get_u64(reply + 8 * i);

		if (v > AB_MAX_PROBLEM_BYTES) {
			rc = ab_fail(o->why, -ERANGE, "%s: offset %" PRIu64 " of buffer %zu is above 2^62 bytes",
				     s->path, v, i);
			goto out;
		}
		out->offset[i] = v;
		out->arena[i] = 0;
	}
	ab_plan_finish_single(out, p);
	rc = 0;
out:
	free(reply);
	return rc;
}

/* Reads a "describe" answer: name, cost class and one line about it. */
static int describe(struct py_strategy *s, char *msg, size_t len)
{
	struct exchange x = { 0 };
	char *text, *name, *cost, *about, *save = NULL;
	int rc = run_child("describe", s->path, &x);

	if (rc) {
		snprintf(msg, len, "%s: cannot run %s: %s (set ARENABENCH_PYTHON)",
			 s->path, python_exe(), strerror(-rc));
		free(x.reply);
		return rc;
	}
	if (!child_ok(&x)) {
		char why[1100];

		child_reason(&x, why, sizeof(why));
		snprintf(msg, len, "%s: %s", s->path, why);
		free(x.reply);
		return -EINVAL;
	}
	text = strndup((const char *)x.reply, x.reply_len);
	free(x.reply);
	if (!text)
		return -ENOMEM;
	name = strtok_r(text, "\n", &save);
	cost = name ? strtok_r(NULL, "\n", &save) : NULL;
	about = cost ? strtok_r(NULL, "\n", &save) : NULL;
	if (!about) {
		snprintf(msg, len, "%s: the runner's description is incomplete", s->path);
		free(text);
		return -EINVAL;
	}
	s->planner.name = strdup(name);
	s->planner.about = strdup(about);
	s->planner.cost = !strcmp(cost, "budgeted") ? AB_COST_BUDGETED : AB_COST_FAST;
	free(text);
	return s->planner.name && s->planner.about ? 0 : -ENOMEM;
}

int cli_python_planner(const char *path, const struct ab_planner **out)
{
	struct py_strategy *s;
	char msg[1200];
	void *grown;
	int rc;

	for (size_t i = 0; i < n_made; i++)
		if (!strcmp(made[i]->path, path)) {
			*out = &made[i]->planner;
			return 0;
		}
	if (access(path, R_OK)) {
		fprintf(stderr, "arenabench: py:%s: %s (expected a Python strategy file)\n",
			path, strerror(errno));
		return -ENOENT;
	}
	s = calloc(1, sizeof(*s));
	grown = realloc(made, (n_made + 1) * sizeof(*made));
	if (!s || !grown || !(s->path = strdup(path))) {
		free(s);
		if (grown)
			made = grown;
		fprintf(stderr, "arenabench: out of memory\n");
		return -ENOMEM;
	}
	made = grown;
	rc = describe(s, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "arenabench: py:%s\n", msg);
		free(s->path);
		free(s);
		return rc;
	}
	s->planner.plan = plan_python;
	s->planner.language = "python";
	s->planner.context = s;
	made[n_made++] = s;
	*out = &s->planner;
	return 0;
}

int cli_add_python_planner(const char *path, const struct ab_planner ***list,
			   size_t *n)
{
	const struct ab_planner *pl, **grown;
	int rc = cli_python_planner(path, &pl);

	if (rc)
		return rc;
	grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (!grown) {
		fprintf(stderr, "arenabench: out of memory\n");
		return -ENOMEM;
	}
	grown[(*n)++] = pl;
	*list = grown;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_py(const struct dirent *d)
{
	size_t k = strlen(d->d_name);

	return d->d_name[0] != '.' && k > 3 && !strcmp(d->d_name + k - 3, ".py");
}

int cli_python_planners_dir(const char *dir, const struct ab_planner ***list,
			    size_t *n)
{
	struct dirent **ents;
	int k = scandir(dir, &ents, is_py, by_name), rc = 0;

	if (k < 0) {
		fprintf(stderr, "arenabench: --planners-dir %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	if (!k)
		fprintf(stderr, "arenabench: warning: --planners-dir %s holds no .py strategy\n", dir);
	for (int i = 0; i < k; i++) {
		char *path = rc ? NULL : ab_strdupf("%s/%s", dir, ents[i]->d_name);

		if (!rc)
			rc = path ? cli_add_python_planner(path, list, n) : -ENOMEM;
		free(path);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int cli_find_planner(const char *name, const struct ab_planner **out)
{
	if (!strncmp(name, "py:", 3))
		return cli_python_planner(name + 3, out);
	*out = ab_planner_find(name);
	return 0;
}
