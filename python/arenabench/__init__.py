"""arenabench from Python: the planners, both plan checks, the importers
and `explain` of the arenabench harness, numpy in and out (docs/python.md).

    import arenabench
    p = arenabench.Problem.from_file("graphs/starter/residual_block.graph")
    plan = arenabench.plan(p, "size_first_fit", align=16)
    arenabench.check(p, plan).verdict        # Verdict.VALID

A strategy written in Python, `offsets = f(problem)`, is planned, checked,
timed and benched like a C planner (@arenabench.strategy, or a file given
to load_strategy / `arenabench bench --planner py:FILE`).
"""

import ctypes
import enum
import json
import os
from ctypes import byref, c_char_p, c_uint32, c_void_p

import numpy as np

from . import _capi
from ._strategy import BufferView, Strategy, as_offsets, load_file, registered, strategy
from .results import Rows, parse_results, read_results

__all__ = ["ArenabenchError", "Problem", "Plan", "Planner", "Verdict", "CheckResult",
           "planners", "plan", "check", "explain", "bench", "read_results",
           "strategy", "load_strategy", "load_strategies", "Strategy"]


class ArenabenchError(Exception):
    """An error of the C library, with its message (naming the file, line or
    tensor and what was expected) and errno (positive)."""

    def __init__(self, message, errno=0):
        super().__init__(message)
        self.errno = errno


def _call(fn, *args):
    err = _capi.Error()
    rc = fn(*args, byref(err))
    if rc:
        raise ArenabenchError(_capi.text(err.msg), -rc)
    return rc


def _arg(s):
    return s.encode() if isinstance(s, str) else s


def _dims_text(dims):
    """dims as the C side takes them: "NAME=VALUE" lines (a dict, pairs or
    "NAME=VALUE" strings)."""
    if not dims:
        return None
    items = dims.items() if isinstance(dims, dict) else dims
    lines = []
    for d in items:
        if isinstance(d, str):
            lines.append(d)
        else:
            k, v = d
            lines.append(f"{k}={v}")
    return "\n".join(lines).encode()


# ----------------------------------------------------------------- problems

class Problem(BufferView):
    """Buffers to place: numpy arrays lower, upper (half-open live steps),
    size and align (the buffer's own alignment), with .buffers (count),
    .sum and .lower_bound (the most raw bytes live at one step), and the
    input it came from.  Make one with from_file or from_arrays."""

    def __init__(self, handle, default_align, path):
        lib = _capi.lib()
        self._handle = c_void_p(handle)
        self._p = lib.abpy_problem(self._handle)
        self.default_align = default_align
        self.path = path
        n = lib.abpy_n(self._p)
        lower = np.empty(n, np.int64)
        upper = np.empty(n, np.int64)
        size = np.empty(n, np.uint64)
        align = np.empty(n, np.uint64)
        lib.abpy_buffers(self._p, 1, lower.ctypes.data, upper.ctypes.data,
                         size.ctypes.data, align.ctypes.data)
        super().__init__(lower, upper, size, align,
                         name=_capi.text(lib.abpy_name(self._handle)))
        self.family = _capi.text(lib.abpy_family(self._handle))
        for a in (self.lower, self.upper, self.size, self.align):
            a.flags.writeable = False
        self._names = None

    @classmethod
    def from_file(cls, path, runtime=None, dims=None):
        """A .graph, minimalloc .csv, .tflite or .onnx file, under the
        command line's conventions: runtime "tflite" (align 64, TFLite's
        lifetimes; a .tflite's default) or "tflm" (align 16, TFLite Micro's
        lifetimes, sizes rounded to 16); dims names symbolic dimensions
        ({"batch_size": 1}, like --dim)."""
        path = os.fspath(path)
        h = c_void_p()
        align = c_uint32()
        _call(_capi.lib().abpy_load, path.encode(), _arg(runtime),
              _dims_text(dims), byref(h), byref(align))
        return cls(h.value, align.value, path)

    @classmethod
    def from_arrays(cls, lower, upper, size, align=1, name="arrays"):
        """Buffers from arrays (minimalloc's convention: buffer i lives on
        [lower[i], upper[i])), read by the same rules as a minimalloc CSV;
        align is one value or one per buffer."""
        lower = np.ascontiguousarray(lower, dtype=np.int64)
        upper = np.ascontiguousarray(upper, dtype=np.int64)
        size = np.ascontiguousarray(size, dtype=np.int64)
        n = len(size)
        if lower.shape != (n,) or upper.shape != (n,):
            raise ValueError(f"from_arrays: lower {lower.shape}, upper {upper.shape} "
                             f"and size {size.shape} must be 1-d arrays of one length")
        al = np.ascontiguousarray(np.broadcast_to(np.asarray(align, dtype=np.int64), (n,)))
        h = c_void_p()
        _call(_capi.lib().abpy_from_arrays, f"{name}.csv".encode(), n,
              lower.ctypes.data, upper.ctypes.data, size.ctypes.data,
              al.ctypes.data, byref(h))
        return cls(h.value, 1, name)

    def __del__(self):
        h = getattr(self, "_handle", None)
        if h is not None and h.value and _capi._lib is not None:
            _capi._lib.abpy_free(h)
            self._handle = None

    @property
    def lower_bound(self):
        return _capi.lib().abpy_lower_bound(self._p)

    @property
    def sum(self):
        return _capi.lib().abpy_sum(self._p)

    def buffer_name(self, i):
        """Buffer i as messages name it: 'tensor', or id N."""
        buf = ctypes.create_string_buffer(512)
        _capi.lib().abpy_buffer_name(self._handle, i, buf, len(buf))
        return buf.value.decode("utf-8", "replace")

    @property
    def names(self):
        if self._names is None:
            self._names = [self.buffer_name(i) for i in range(self.buffers)]
        return self._names


# ----------------------------------------------------------------- planners

class Planner:
    """A planner: name, cost class (fast, budgeted, fixed), language (c or
    python), source (its file) and a line about it."""

    def __init__(self, name, cost, language, source, about, ptr, owner=None):
        self.name, self.cost, self.language = name, cost, language
        self.source, self.about, self._ptr = source, about, ptr
        self._owner = owner  # a Python strategy: keeps its C planner alive

    def __repr__(self):
        return f"Planner({self.name!r}, cost={self.cost!r}, language={self.language!r}, source={self.source!r})"


_registry = None


def _c_planners():
    """The registry's planners (fixed for the library's life: made once)."""
    global _registry
    if _registry is not None:
        return list(_registry)
    lib = _capi.lib()
    out = []
    for i in range(lib.abpy_planner_count()):
        ptr = lib.abpy_planner_at(i)
        name = _capi.text(lib.abpy_planner_name(ptr))
        out.append(Planner(name, _capi.text(lib.abpy_planner_cost(ptr)), "c",
                           f"planners/{name}.c", _capi.text(lib.abpy_planner_about(ptr)), ptr))
    _registry = out
    return list(out)


def _trampoline(s):
    """The C plan function of a Python strategy: the problem handed over as
    a BufferView (alignments with the plan's folded in), the answer copied
    into the plan; an exception becomes the planner's failure message."""
    lib = _capi.lib()

    def plan_fn(p, o, out):
        try:
            n = lib.abpy_n(p)
            lower = np.empty(n, np.int64)
            upper = np.empty(n, np.int64)
            size = np.empty(n, np.uint64)
            align = np.empty(n, np.uint64)
            lib.abpy_buffers(p, lib.abpy_options_align(o), lower.ctypes.data,
                             upper.ctypes.data, size.ctypes.data, align.ctypes.data)
            view = BufferView(lower, upper, size, align,
                              name=_capi.text(lib.abpy_problem_name(p)))
            offsets = as_offsets(s.fn(view), n, f"strategy {s.name}")
            return lib.abpy_plan_set_offsets(p, o, out, offsets.ctypes.data)
        except BaseException as e:  # a strategy's error never crosses into C
            lib.abpy_plan_fail(o, f"{type(e).__name__}: {e}".encode("utf-8", "replace"))
            return -22  # -EINVAL

    return plan_fn


class _CPlanner:
    """The C planner made for a Python strategy (freed with it)."""

    def __init__(self, s):
        lib = _capi.lib()
        self.fn = _capi.PLAN_FN(_trampoline(s))
        self.ptr = lib.abpy_planner_new(s.name.encode(), s.about.encode(),
                                        1 if s.cost == "budgeted" else 0,
                                        b"python", self.fn)
        if not self.ptr:
            raise MemoryError("arenabench: out of memory")

    def __del__(self):
        if getattr(self, "ptr", None) and _capi._lib is not None:
            _capi._lib.abpy_planner_free(self.ptr)
            self.ptr = None


def _python_planner(s):
    if s._c is None:
        s._c = _CPlanner(s)
    return Planner(s.name, s.cost, "python", s.source, s.about, s._c.ptr, owner=s)


def load_strategy(path):
    """The strategy of a Python file (its @arenabench.strategy function, or
    its function plan); also what planner="py:FILE" loads."""
    return load_file(path)


def load_strategies(folder):
    """Every FOLDER/*.py strategy (sorted by name), registered: a folder of
    your own strategies, kept outside the repository, that planners(),
    plan() and bench() then know by name (like `bench --planners-dir`)."""
    out = []
    for f in sorted(os.listdir(folder)):
        if f.endswith(".py") and not f.startswith("."):
            s = load_file(os.path.join(folder, f))
            registered[s.name] = s
            out.append(s)
    return out


def _planner_of(p):
    if isinstance(p, Planner):
        return p
    if isinstance(p, Strategy):
        return _python_planner(p)
    if callable(p):
        return _python_planner(getattr(p, "strategy", None) or Strategy(p))
    if isinstance(p, str):
        if p.startswith("py:"):
            return _python_planner(load_file(p[3:]))
        if p in registered:
            return _python_planner(registered[p])
        for x in _c_planners():
            if x.name == p:
                return x
        known = ", ".join(x.name for x in planners())
        raise ArenabenchError(f"unknown planner '{p}' (known: {known})", 22)
    raise TypeError(f"a planner is a name, a Planner, a Strategy or a function, not {type(p).__name__}")


def planners(cost=None):
    """Every planner: the C ones of the registry, then the Python strategies
    registered with @arenabench.strategy; cost filters by class."""
    out = _c_planners() + [_python_planner(s) for s in registered.values()]
    return [p for p in out if cost in (None, "all", p.cost)]


# --------------------------------------------------------------------- plan

class Plan:
    """A plan: offsets (numpy uint64, flat addresses), arena index of each
    buffer, the peak (the arena's bytes), padding (peak minus the same
    planner's peak at align 1: the CSV's padding_bytes), and the planning
    time of the call (wall and CPU ns)."""

    def __init__(self, offsets, peak, align=1, planner=None, arena=None,
                 arena_base=(0,), arena_size=None, peak_align1=None,
                 plan_ns=None, cpu_ns=None, threads=1, iterations=0,
                 best_bound=0):
        self.offsets = offsets
        self.peak = int(peak)
        self.align = int(align)
        self.planner = planner
        self.arena = arena if arena is not None else np.zeros(len(offsets), np.uint16)
        self.arena_base = [int(x) for x in arena_base]
        self.arena_size = [int(x) for x in (arena_size if arena_size is not None else [peak])]
        self.peak_align1 = peak if peak_align1 is None else int(peak_align1)
        self.plan_ns, self.cpu_ns = plan_ns, cpu_ns
        self.threads, self.iterations, self.best_bound = threads, iterations, best_bound

    @property
    def padding(self):
        return self.peak - self.peak_align1

    @property
    def arenas(self):
        return len(self.arena_base)

    @classmethod
    def from_offsets(cls, problem, offsets, align=1):
        """A one-arena plan from offsets you made: peak = the highest end."""
        off = as_offsets(offsets, problem.buffers, "from_offsets")
        if len(off) and int(off.max()) > 1 << 62:
            i = int(np.argmax(off))
            raise ValueError(f"from_offsets: offset {int(off[i])} of buffer {i} is above 2^62 bytes")
        ends = off + problem.size
        return cls(off, int(ends.max()) if len(off) else 0, align=align)

    def __repr__(self):
        return (f"<Plan {self.planner}: peak {self.peak} bytes, align {self.align}, "
                f"{len(self.offsets)} buffers>")


def plan(problem, planner, align=None, budget=0, seed=1):
    """Plans problem with planner (a name, "py:FILE", a Planner, a Strategy
    or a function offsets = f(problem)) at align (default: the input's
    convention, 64 for a .tflite, else 1).  The GIL is released while a C
    planner runs.  A planner's failure raises ArenabenchError with the
    harness's message; the plan is not checked (check() does that)."""
    pl = _planner_of(planner)
    a = problem.default_align if align is None else int(align)
    n = problem.buffers
    # the plan is made in these arrays (room for one even when n is 0)
    offsets = np.empty(max(n, 1), np.uint64)
    arena = np.empty(max(n, 1), np.uint16)
    info = _capi.PlanInfo()
    _call(_capi.lib().abpy_plan, problem._handle, pl._ptr, a, int(budget), int(seed),
          offsets.ctypes.data, arena.ctypes.data, byref(info))
    offsets, arena = offsets[:n], arena[:n]
    k = info.n_arenas
    return Plan(offsets, info.peak, align=a, planner=pl.name, arena=arena,
                arena_base=list(info.arena_base[:k]), arena_size=list(info.arena_size[:k]),
                peak_align1=info.peak_align1, plan_ns=info.wall_ns, cpu_ns=info.cpu_ns,
                threads=info.threads, iterations=info.iterations,
                best_bound=info.best_bound)


# -------------------------------------------------------------------- check

class Verdict(enum.IntEnum):
    """What the checks found (core/arenabench.h, enum ab_verdict)."""
    VALID = 0
    OVERLAP = 1        # two buffers live together overlap in address
    MISALIGNED = 2     # an offset is not a multiple of its alignment
    OUTSIDE_ARENA = 3  # a buffer lies (partly) outside its arena
    BAD_ARENA = 4      # an arena index or an arena's extent is bad
    ABOVE_PEAK = 5     # a buffer ends above the plan's peak
    STOMP = 6          # execution check: a write overwrote a live buffer
    MOVED_FIXED = 7    # a fixed buffer placed elsewhere
    CHECK_FAILED = 8   # the check could not run (memory)


class CheckResult:
    """verdict, valid, message (the harness's, naming the buffers), the
    offending buffers (names and indices), which check found it
    (geometric or execution), the execution check's mode and step."""

    def __init__(self, verdict, message, indices, names, check, exec_mode, step):
        self.verdict, self.message, self.indices = verdict, message, indices
        self.buffers, self.check, self.exec_mode, self.step = names, check, exec_mode, step

    @property
    def valid(self):
        return self.verdict == Verdict.VALID

    def __bool__(self):
        return self.valid

    def __repr__(self):
        return f"<CheckResult {self.verdict.name}{': ' + self.message if self.message else ''}>"


def check(problem, plan):
    """Both checks of plan at its alignment: the geometric sweep, then (if
    that passes) the execution check, which runs the schedule on a real
    arena.  Returns a CheckResult; an invalid plan is a result, not an
    exception."""
    lib = _capi.lib()
    n = problem.buffers
    off = np.ascontiguousarray(plan.offsets, dtype=np.uint64)
    arena = np.ascontiguousarray(plan.arena, dtype=np.uint16)
    if off.shape != (n,) or arena.shape != (n,):
        raise ValueError(f"check: the plan has {off.shape} offsets and {arena.shape} arena "
                         f"indices; the problem has {n} buffers")
    k = plan.arenas
    base = np.ascontiguousarray(plan.arena_base, dtype=np.uint64)
    size = np.ascontiguousarray(plan.arena_size, dtype=np.uint64)
    if base.shape != (k,) or size.shape != (k,):
        raise ValueError("check: arena_base and arena_size must have one entry per arena")
    info = _capi.CheckInfo()
    msg = c_void_p()
    _call(lib.abpy_check, problem._handle, off.ctypes.data, arena.ctypes.data, k,
          base.ctypes.data, size.ctypes.data, int(plan.peak), int(plan.align),
          byref(info), byref(msg))
    message = _capi.take_string(msg)
    idx = tuple(i for i in (info.a, info.b) if i >= 0)
    return CheckResult(Verdict(info.verdict), message, idx,
                       tuple(problem.buffer_name(i) for i in idx),
                       "geometric" if info.geometric else "execution",
                       _capi.text(lib.abpy_exec_mode_name(info.exec_mode)) if info.exec_mode >= 0 else None,
                       info.step)


# ------------------------------------------------------------ explain, bench

def explain(path, runtime=None, dims=None, align=None, planners=None, cost=None):
    """`arenabench explain PATH --json` as a dict: the same document
    (docs/explain.md), with the same defaults (runtime tflite)."""
    js = c_void_p()
    names = ",".join(planners) if isinstance(planners, (list, tuple)) else planners
    _call(_capi.lib().abpy_explain_json, os.fspath(path).encode(), _arg(runtime),
          _dims_text(dims), int(align or 0), _arg(names), _arg(cost), byref(js))
    return json.loads(_capi.take_string(js))


def bench(paths, planners=None, align=None, runtime=None, dims=None, timing=True):
    """`arenabench bench` in this process: every input (files or folders)
    with every planner (names, "py:FILE", strategies; default: every fast
    C planner and the registered strategies) and alignment (default: 1, 16
    and 64, a .tflite 64), every plan checked, timed with Google Benchmark
    unless timing=False.  Returns Rows: dicts with the CSV's columns, and
    .messages, the invalid plans' reasons."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if planners is None:
        pls = planners_list = [p for p in _c_planners() if p.cost == "fast"] + \
            [_python_planner(s) for s in registered.values()]
    else:
        if isinstance(planners, (str, Strategy)) or callable(planners):
            planners = [planners]
        pls = planners_list = [_planner_of(p) for p in planners]
    aligns = [] if align is None else ([int(align)] if np.isscalar(align) else [int(a) for a in align])
    c_paths = (c_char_p * len(paths))(*[os.fspath(p).encode() for p in paths])
    c_pls = (c_void_p * len(pls))(*[p._ptr for p in pls])
    c_aligns = (c_uint32 * max(1, len(aligns)))(*aligns)
    csv, msgs = c_void_p(), c_void_p()
    _call(_capi.lib().abpy_bench, c_paths, len(paths), c_pls, len(pls), c_aligns,
          len(aligns), _arg(runtime), _dims_text(dims), 1 if timing else 0,
          byref(csv), byref(msgs))
    del planners_list
    rows = parse_results(_capi.take_string(csv), "bench")
    text = _capi.take_string(msgs) or ""
    rows.messages = [m for m in text.splitlines() if m]
    return rows
