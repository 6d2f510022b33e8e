"""The child process of the command line's Python strategies
(harness/cli/python_planner.c): `python3 -m arenabench._runner MODE FILE`.

MODE describe: prints the strategy's name, cost class and one line about it.
MODE plan: reads a problem on stdin -- a line "arenabench-problem 1 N NAME"
then four little-endian arrays of N 64-bit values: lower, upper (half-open
[lower, upper)), size, align (the effective alignment) -- calls the
strategy and writes N little-endian unsigned 64-bit offsets on stdout.

On any error it exits 1 with the reason as the last line of stderr (what the
row's message quotes).  What the strategy prints goes to stderr: stdout
carries only the answer.  Needs numpy, not the C library."""

import os
import sys
import traceback


def main(argv):
    answer = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the strategy's prints go to stderr
    sys.stdout = sys.stderr
    if len(argv) != 3 or argv[1] not in ("describe", "plan"):
        print("usage: python3 -m arenabench._runner describe|plan FILE", file=sys.stderr)
        return 2
    mode, path = argv[1], argv[2]
    try:
        import numpy as np
        from arenabench._strategy import BufferView, as_offsets, load_file
        s = load_file(path)
        if mode == "describe":
            answer.write(f"{s.name}\n{s.cost}\n{s.about}\n".encode())
            answer.flush()
            return 0
        data = sys.stdin.buffer.read()
        nl = data.find(b"\n")
        head = data[:nl].decode("utf-8", "replace").split(" ", 3) if nl >= 0 else []
        if len(head) < 3 or head[0] != "arenabench-problem" or head[1] != "1":
            raise ValueError("expected a request starting 'arenabench-problem 1 N'")
        n = int(head[2])
        body = data[nl + 1:]
        if len(body) != 32 * n:
            raise ValueError(f"request of {len(body)} bytes for {n} buffers; expected {32 * n}")
        a = np.frombuffer(body, dtype="<u8").reshape(4, n)
        view = BufferView(a[0].view("<i8"), a[1].view("<i8"), a[2], a[3],
                          name=head[3] if len(head) > 3 else "")
        offsets = as_offsets(s.fn(view), n, f"strategy {s.name}")
        answer.write(offsets.astype("<u8").tobytes())
        answer.flush()
        return 0
    except BaseException as e:  # noqa: BLE001 -- every failure is the row's message
        traceback.print_exc(file=sys.stderr)
        print(f"{type(e).__name__}: {e}".replace("\n", " "), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
