"""Strategies written in Python, without the C library: the problem a
strategy sees (BufferView), the decorator that registers one, and loading one
from a file.  The command line's child process (_runner.py) needs only this
module and numpy."""

import importlib.util
import os
import sys

import numpy as np

COST_CLASSES = ("fast", "budgeted")


def live_lower_bound(lower, upper, size):
    """The most raw bytes live at one time: buffers live on [lower, upper)."""
    if len(size) == 0:
        return 0
    times = np.concatenate([lower, upper])
    delta = np.concatenate([size.astype(np.int64), -size.astype(np.int64)])
    # at equal times the ends (upper) come first: [lower, upper) is half-open
    order = np.lexsort((delta, times))
    live = np.cumsum(delta[order])
    return int(live.max())


class BufferView:
    """The buffers a strategy places: buffer i lives on the steps
    [lower[i], upper[i]) (half-open, minimalloc's convention), needs size[i]
    bytes and an offset that is a multiple of align[i] (the buffer's own
    alignment and the plan's, whichever is larger)."""

    def __init__(self, lower, upper, size, align, name=""):
        self.lower = np.ascontiguousarray(lower, dtype=np.int64)
        self.upper = np.ascontiguousarray(upper, dtype=np.int64)
        self.size = np.ascontiguousarray(size, dtype=np.uint64)
        self.align = np.ascontiguousarray(align, dtype=np.uint64)
        self.name = name

    @property
    def buffers(self):
        return len(self.size)

    def __len__(self):
        return len(self.size)

    @property
    def sum(self):
        return int(self.size.sum(dtype=np.uint64))

    @property
    def lower_bound(self):
        return live_lower_bound(self.lower, self.upper, self.size)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}: {self.buffers} buffers>"


class Strategy:
    """A Python function `offsets = fn(problem)` as a planner: name, cost
    class ("fast" or "budgeted"), a line saying what it does, and where it
    comes from (its file)."""

    def __init__(self, fn, name=None, cost="fast", about=None, source=None):
        if cost not in COST_CLASSES:
            raise ValueError(f"strategy {name or fn.__name__}: cost {cost!r}: "
                             f"expected one of {', '.join(COST_CLASSES)}")
        self.fn = fn
        self.name = name or fn.__name__
        self.cost = cost
        doc = (fn.__doc__ or "").strip().splitlines()
        self.about = about or (doc[0] if doc else "a strategy written in Python")
        self.source = source or getattr(sys.modules.get(fn.__module__),
                                        "__file__", None) or "python"
        self.language = "python"
        self._c = None  # the C planner made for it (arenabench._planner_of)

    def __call__(self, problem):
        return self.fn(problem)

    def __repr__(self):
        return f"<Strategy {self.name} ({self.cost}, python: {self.source})>"


registered = {}


def strategy(fn=None, *, name=None, cost="fast", about=None):
    """Registers fn as a strategy: `@arenabench.strategy` or
    `@arenabench.strategy(name="mine", cost="fast")`.  Registered
    strategies are listed by planners() and run by name in plan() and
    bench()."""
    def wrap(f):
        s = Strategy(f, name=name, cost=cost, about=about)
        registered[s.name] = s
        f.strategy = s
        return f
    return wrap(fn) if fn is not None else wrap


def load_file(path):
    """The strategy of a Python file: the function it registers with
    @arenabench.strategy (exactly one), or else its function `plan`.  Its
    name is the registered name, or the file's stem."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: no such strategy file")
    spec = importlib.util.spec_from_file_location(f"arenabench_strategy_{stem}", path)
    module = importlib.util.module_from_spec(spec)
    before = dict(registered)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    mine = [s for k, s in registered.items() if before.get(k) is not s]
    if len(mine) > 1:
        raise ValueError(f"{path}: registers {len(mine)} strategies "
                         f"({', '.join(s.name for s in mine)}); expected one")
    if mine:
        s = mine[0]
        s.source = path
        return s
    fn = getattr(module, "plan", None)
    if not callable(fn):
        raise ValueError(f"{path}: expected a function plan(problem) returning "
                         "the offsets, or one decorated with @arenabench.strategy")
    return Strategy(fn, name=stem, cost=getattr(module, "COST", "fast"),
                    about=getattr(module, "ABOUT", None), source=path)


def as_offsets(result, n, who):
    """A strategy's answer as n unsigned 64-bit offsets, or ValueError
    saying what was expected."""
    a = np.asarray(result)
    if a.shape != (n,):
        raise ValueError(f"{who} returned offsets of shape {a.shape}; expected ({n},), "
                         "one offset per buffer")
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"{who} returned offsets of type {a.dtype}; expected integers")
    if a.dtype.kind == "i" and n and a.min() < 0:
        i = int(np.argmin(a))
        raise ValueError(f"{who} returned offset {int(a[i])} for buffer {i}; "
                         "expected a non-negative offset")
    return np.ascontiguousarray(a, dtype=np.uint64)
