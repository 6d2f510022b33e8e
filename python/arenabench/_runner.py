"""The child process of the command line's Python strategies
(harness/cli/python_planner.c): `python3 -m arenabench._runner MODE FILE`.

MODE describe: prints the strategy's name, cost class and one line about it.
MODE serve: answers plans until stdin ends.  A request is a line
"arenabench-problem 1 N NAME" then four little-endian arrays of N 64-bit
values: lower, upper (half-open [lower, upper)), size, align (the effective
alignment).  An answer is 8 bytes "ABPY-OK\n" or "ABPY-ER\n", a
little-endian 64-bit length L, then L bytes: N little-endian unsigned
64-bit offsets, or the reason (the exception) in UTF-8.

What the strategy prints goes to stderr: stdout carries only answers.
Needs numpy, not the C library."""

import os
import struct
import sys
import traceback


def read_exact(f, n):
    b = f.read(n)
    if len(b) != n:
        raise EOFError(f"request ended after {len(b)} of {n} bytes")
    return b


def answer(out, ok, payload):
    out.write((b"ABPY-OK\n" if ok else b"ABPY-ER\n") + struct.pack("<Q", len(payload)) + payload)
    out.flush()


def serve(s, inp, out):
    import numpy as np
    from arenabench._strategy import BufferView, as_offsets
    while True:
        line = inp.readline()
        if not line:
            return 0
        head = line.decode("utf-8", "replace").rstrip("\n").split(" ", 3)
        if len(head) < 3 or head[0] != "arenabench-problem" or head[1] != "1":
            raise ValueError("expected a request starting 'arenabench-problem 1 N'")
        n = int(head[2])
        a = np.frombuffer(read_exact(inp, 32 * n), dtype="<u8").reshape(4, n)
        try:
            view = BufferView(a[0].view("<i8"), a[1].view("<i8"), a[2], a[3],
                              name=head[3] if len(head) > 3 else "")
            offsets = as_offsets(s.fn(view), n, f"strategy {s.name}")
        except Exception as e:  # noqa: BLE001 -- the row's message
            traceback.print_exc(file=sys.stderr)
            msg = f"{type(e).__name__}: {e}".replace("\n", " ")[:4000]
            answer(out, False, msg.encode("utf-8", "replace"))
            continue
        answer(out, True, offsets.astype("<u8").tobytes())


def main(argv):
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the strategy's prints go to stderr
    sys.stdout = sys.stderr
    if len(argv) != 3 or argv[1] not in ("describe", "serve"):
        print("usage: python3 -m arenabench._runner describe|serve FILE", file=sys.stderr)
        return 2
    mode, path = argv[1], argv[2]
    try:
        from arenabench._strategy import load_file
        s = load_file(path)
        if mode == "describe":
            out.write(f"{s.name}\n{s.cost}\n{s.about}\n".encode())
            out.flush()
            return 0
        return serve(s, sys.stdin.buffer, out)
    except BaseException as e:  # noqa: BLE001 -- the parent reads the last line
        traceback.print_exc(file=sys.stderr)
        print(f"{type(e).__name__}: {e}".replace("\n", " "), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
