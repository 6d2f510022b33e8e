"""ctypes over build/libarenabench.so (python/capi/abpy.c): the library is
found, loaded once, and its functions given their C types here; nothing
else in the package names a C symbol.  ctypes releases the GIL around every
call into the library."""

import ctypes
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int,
                    c_int32, c_int64, c_size_t, c_uint16, c_uint32, c_uint64,
                    c_void_p)

AB_MAX_ARENAS = 64


class Error(Structure):
    _fields_ = [("msg", c_char * 1024)]


class PlanInfo(Structure):
    _fields_ = [("peak", c_uint64), ("peak_align1", c_uint64),
                ("n_arenas", c_int32), ("stopped_by", c_int32),
                ("optimal", c_int32), ("threads", c_uint32),
                ("best_bound", c_uint64), ("iterations", c_uint64),
                ("wall_ns", c_double), ("cpu_ns", c_double),
                ("arena_base", c_uint64 * AB_MAX_ARENAS),
                ("arena_size", c_uint64 * AB_MAX_ARENAS)]


class CheckInfo(Structure):
    _fields_ = [("verdict", c_int32), ("exec_mode", c_int32),
                ("a", c_int64), ("b", c_int64), ("step", c_int32),
                ("geometric", c_int32)]


# int plan(const struct ab_problem *, const struct ab_plan_options *,
#          struct ab_plan *): the planner contract (core/arenabench.h)
PLAN_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_void_p)

_SIGNATURES = {
    "abpy_load": (c_int, [c_char_p, c_char_p, c_char_p, POINTER(c_void_p),
                          POINTER(c_uint32), POINTER(Error)]),
    "abpy_from_arrays": (c_int, [c_char_p, c_size_t, c_void_p, c_void_p,
                                 c_void_p, c_void_p, POINTER(c_void_p),
                                 POINTER(Error)]),
    "abpy_free": (None, [c_void_p]),
    "abpy_problem": (c_void_p, [c_void_p]),
    "abpy_n": (c_size_t, [c_void_p]),
    "abpy_problem_name": (c_char_p, [c_void_p]),
    "abpy_buffers": (None, [c_void_p, c_uint32, c_void_p, c_void_p, c_void_p,
                            c_void_p]),
    "abpy_lower_bound": (c_uint64, [c_void_p]),
    "abpy_sum": (c_uint64, [c_void_p]),
    "abpy_name": (c_char_p, [c_void_p]),
    "abpy_family": (c_char_p, [c_void_p]),
    "abpy_steps": (c_size_t, [c_void_p]),
    "abpy_buffer_name": (None, [c_void_p, c_size_t, c_char_p, c_size_t]),
    "abpy_planner_count": (c_size_t, []),
    "abpy_planner_at": (c_void_p, [c_size_t]),
    "abpy_planner_find": (c_void_p, [c_char_p]),
    "abpy_planner_name": (c_char_p, [c_void_p]),
    "abpy_planner_about": (c_char_p, [c_void_p]),
    "abpy_planner_cost": (c_char_p, [c_void_p]),
    "abpy_planner_language": (c_char_p, [c_void_p]),
    "abpy_planner_new": (c_void_p, [c_char_p, c_char_p, c_int, c_char_p,
                                    PLAN_FN]),
    "abpy_planner_free": (None, [c_void_p]),
    "abpy_options_align": (c_uint32, [c_void_p]),
    "abpy_plan_set_offsets": (c_int, [c_void_p, c_void_p, c_void_p,
                                      c_void_p]),
    "abpy_plan_fail": (c_int, [c_void_p, c_char_p]),
    "abpy_plan": (c_int, [c_void_p, c_void_p, c_uint32, c_uint64, c_uint64,
                          c_void_p, c_void_p, POINTER(PlanInfo),
                          POINTER(Error)]),
    "abpy_check": (c_int, [c_void_p, c_void_p, c_void_p, c_int, c_void_p,
                           c_void_p, c_uint64, c_uint32, POINTER(CheckInfo),
                           POINTER(c_void_p), POINTER(Error)]),
    "abpy_free_string": (None, [c_void_p]),
    "abpy_verdict_name": (c_char_p, [c_int]),
    "abpy_exec_mode_name": (c_char_p, [c_int]),
    "abpy_explain_json": (c_int, [c_char_p, c_char_p, c_char_p, c_uint32,
                                  c_char_p, c_char_p, POINTER(c_void_p),
                                  POINTER(Error)]),
    "abpy_bench": (c_int, [POINTER(c_char_p), c_size_t, POINTER(c_void_p),
                           c_size_t, POINTER(c_uint32), c_size_t, c_char_p,
                           c_char_p, c_int, POINTER(c_void_p),
                           POINTER(c_void_p), POINTER(Error)]),
    "abpy_set_onnx_loader": (None, [c_void_p]),
    "abpy_keep_freed_memory": (None, []),
}

_lib = None


def _candidates(name):
    """Where the shared library may be: $ARENABENCH_LIB_DIR, beside this
    package (an installed copy), then the build folder of the source tree
    this package sits in ($AB_BUILD_DIR, else ../../build)."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.environ.get("ARENABENCH_LIB_DIR"), here,
            os.environ.get("AB_BUILD_DIR"),
            os.path.join(os.path.dirname(os.path.dirname(here)), "build")]
    return [os.path.join(d, name) for d in dirs if d]


def lib():
    """The loaded library (loaded on first use, with the ONNX importer
    beside it when that was built)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = _candidates("libarenabench.so")
    path = next((p for p in tried if os.path.exists(p)), None)
    if path is None:
        raise ImportError("arenabench: libarenabench.so not found (looked in: "
                          + ", ".join(tried) + "); run `make python` in the "
                          "source tree, or set ARENABENCH_LIB_DIR")
    handle = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    for name, (res, args) in _SIGNATURES.items():
        fn = getattr(handle, name)
        fn.restype = res
        fn.argtypes = args
    if os.environ.get("ARENABENCH_KEEP_MEMORY", "1") != "0":
        handle.abpy_keep_freed_memory()  # the command line's malloc policy
    onnx = os.path.join(os.path.dirname(path), "libarenabench_onnx.so")
    if os.path.exists(onnx):
        try:
            o = ctypes.CDLL(onnx, mode=ctypes.RTLD_GLOBAL)
            handle.abpy_set_onnx_loader(ctypes.cast(o.ab_onnx_load, c_void_p))
        except OSError:
            pass  # libonnx missing: .onnx inputs are refused with a message
    _lib = handle
    return handle


def text(b):
    return b.decode("utf-8", "replace") if b is not None else None


def take_string(ptr):
    """A malloc'd C string as str, freed."""
    if not ptr.value:
        return None
    try:
        return ctypes.string_at(ptr.value).decode("utf-8", "replace")
    finally:
        lib().abpy_free_string(ptr.value)
