"""The package's API on problems small enough to check by hand: numpy in
and out, both checks, errors as exceptions, explain, the GIL and memory."""

import json
import os
import threading
import time

import numpy as np
import pytest

from conftest import REPO, STARTER, run_cli

TWO_BRANCH = os.path.join(REPO, "graphs", "starter", "two_branch.graph")


def test_numpy_round_trip(ab, tmp_path):
    # three buffers, half-open lifetimes: 0 on [0,2), 1 on [1,3), 2 on [2,4)
    lower, upper, size = [0, 1, 2], [2, 3, 4], [100, 60, 30]
    p = ab.Problem.from_arrays(np.array(lower), np.array(upper), np.array(size), align=[1, 4, 1])
    assert p.buffers == 3
    assert p.lower.dtype == np.int64 and p.lower.tolist() == lower
    assert p.upper.tolist() == upper
    assert p.size.dtype == np.uint64 and p.size.tolist() == size
    assert p.align.tolist() == [1, 4, 1]
    assert p.sum == 190
    # live bytes: step 0: 100, step 1: 160, step 2: 90, step 3: 30
    assert p.lower_bound == 160
    # size_first_fit by hand: 100 at 0; 60 (live with 100) at 100;
    # 30 (live with 60 only, which is at [100,160)) at 0
    plan = ab.plan(p, "size_first_fit")
    assert plan.offsets.dtype == np.uint64
    assert plan.offsets.tolist() == [0, 100, 0]
    assert plan.peak == 160 and plan.padding == 0 and plan.arenas == 1
    assert plan.plan_ns > 0
    # the same problem as a minimalloc CSV file reads back identically
    f = tmp_path / "p.csv"
    f.write_text("id,lower,upper,size,alignment\n0,0,2,100,1\n1,1,3,60,4\n2,2,4,30,1\n")
    q = ab.Problem.from_file(str(f))
    for a in ("lower", "upper", "size", "align"):
        assert getattr(q, a).tolist() == getattr(p, a).tolist()
    # the offsets round-trip into a plan that checks valid
    again = ab.Plan.from_offsets(q, plan.offsets.astype(np.int64))
    assert again.peak == 160
    assert ab.check(q, again).verdict == ab.Verdict.VALID


def test_padding_is_the_csvs(ab):
    # two buffers live together, 5 and 3 bytes: at align 1 peak 8; at
    # align 16 the second starts at 16: peak 19, padding 11
    p = ab.Problem.from_arrays([0, 0], [1, 1], [5, 3])
    plan = ab.plan(p, "size_first_fit", align=16)
    assert plan.offsets.tolist() == [0, 16]
    assert (plan.peak, plan.peak_align1, plan.padding) == (19, 8, 11)


def test_check_catches_a_hand_made_overlap(ab):
    # buffers 0 [0,2) and 1 [1,3) share step 1; 4 bytes each
    p = ab.Problem.from_arrays([0, 1], [2, 3], [4, 4])
    r = ab.check(p, ab.Plan.from_offsets(p, [0, 2]))
    assert r.verdict == ab.Verdict.OVERLAP and not r.valid and not r
    assert r.check == "geometric"
    assert r.indices == (0, 1)
    assert r.buffers == ("id 0", "id 1")
    assert r.message == ("geometric check: buffers id 0 [0,1] at bytes [0,4) and id 1 [1,2] "
                         "at bytes [2,6) are live together and overlap in address")
    assert ab.check(p, ab.Plan.from_offsets(p, [0, 4])).verdict == ab.Verdict.VALID


def test_check_misaligned_and_graph_names(ab):
    p = ab.Problem.from_arrays([0, 2], [1, 3], [8, 8], align=8)
    r = ab.check(p, ab.Plan.from_offsets(p, [0, 4]))
    assert r.verdict == ab.Verdict.MISALIGNED and r.buffers == ("id 1",)
    g = ab.Problem.from_file(TWO_BRANCH)
    bad = ab.Plan.from_offsets(g, np.zeros(g.buffers, np.uint64))
    r = ab.check(g, bad)
    assert r.verdict == ab.Verdict.OVERLAP and r.buffers == ("'in'", "'a1'")


def test_c_errors_are_exceptions_with_the_same_message(ab, tmp_path):
    bad = tmp_path / "bad.graph"
    bad.write_text("graph bad\ntensor x input bytes 8\nop a ADD in=y out=x\n")
    with pytest.raises(ab.ArenabenchError) as e:
        ab.Problem.from_file(str(bad))
    cli = run_cli("plan", str(bad), "--planner", "linear", check=False)
    assert cli.returncode == 2
    assert cli.stderr.strip() == f"arenabench: {e.value}"
    assert str(bad) + ":3" in str(e.value)
    with pytest.raises(ab.ArenabenchError, match="cannot open"):
        ab.Problem.from_file(str(tmp_path / "none.graph"))
    with pytest.raises(ab.ArenabenchError, match=r"arrays.csv:3: buffer 1: upper 1 must be greater than lower 1"):
        ab.Problem.from_arrays([0, 1], [1, 1], [4, 4])
    with pytest.raises(ab.ArenabenchError, match="unknown planner 'nope'"):
        ab.plan(ab.Problem.from_file(TWO_BRANCH), "nope")
    with pytest.raises(ab.ArenabenchError, match="runtime 'tfl': expected tflite or tflm"):
        ab.Problem.from_file(TWO_BRANCH, runtime="tfl")
    junk = tmp_path / "junk.tflite"
    junk.write_bytes(b"\x00" * 7)
    with pytest.raises(ab.ArenabenchError, match="junk.tflite"):
        ab.Problem.from_file(str(junk))
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\xff\xfe not a model")
    with pytest.raises(ab.ArenabenchError, match="junk.onnx"):
        ab.Problem.from_file(str(junk))


def test_a_strategy_that_raises_is_an_exception_not_a_crash(ab):
    p = ab.Problem.from_file(TWO_BRANCH)

    def broken(problem):
        raise RuntimeError("no idea")

    def short(problem):
        return [0]

    with pytest.raises(ab.ArenabenchError, match="planner broken failed: RuntimeError: no idea"):
        ab.plan(p, broken)
    with pytest.raises(ab.ArenabenchError, match=r"returned offsets of shape \(1,\); expected \(7,\)"):
        ab.plan(p, short)


def test_explain_is_the_clis_json(ab):
    doc = ab.explain(TWO_BRANCH)
    cli = json.loads(run_cli("explain", TWO_BRANCH, "--json").stdout)
    for d in (doc, cli):  # timings differ from run to run
        d.pop("time_ms")
        d.pop("cpu_ms")
    assert doc == cli
    # step 1 holds in, a1, a2 and im2col: 1000 + 3000 + 2000 + 4500 bytes
    assert doc["lower_bound_bytes"] == 10500


def test_read_results_reads_a_bench_csv(ab, tmp_path):
    out = tmp_path / "r.csv"
    run_cli("bench", TWO_BRANCH, "--planners", "linear", "--align", "1", "--no-timing",
            "--quiet", "--out", str(out))
    rows = ab.read_results(str(out))
    assert len(rows) == 1
    r = rows[0]
    # two_branch: linear places every buffer end to end: sum 14,500 bytes
    assert (r["graph"], r["planner"], r["align"], r["valid"], r["language"]) == \
        ("two_branch", "linear", 1, "yes", "c")
    assert r["peak_bytes"] == r["sum_bytes"] == 14500
    assert r["plan_ns"] is None and r["repetitions"] == 0
    assert rows.columns[0] == "schema_version" and rows.columns[-1] == "language"


def test_the_gil_is_released_while_c_plans(ab):
    n = 100000
    rng = np.random.default_rng(1)
    lower = rng.integers(0, 20000, n)
    p = ab.Problem.from_arrays(lower, lower + rng.integers(1, 200, n), rng.integers(1, 4096, n))
    ticks = 0
    done = threading.Event()

    def work():
        ab.plan(p, "xla_best_fit")
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        time.sleep(0.001)  # needs the GIL back after each sleep
        ticks += 1
    t.join()
    # the plan takes well over 20 ms; with the GIL held during it this
    # thread could not have woken up
    assert ticks > 10


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_no_leak_over_ten_thousand_plan_calls(ab):
    p = ab.Problem.from_file(TWO_BRANCH)
    for _ in range(500):  # warm up: allocator pools, ctypes caches
        ab.check(p, ab.plan(p, "tflite_arena", align=16))
    before = rss_kib()
    for _ in range(10000):
        ab.check(p, ab.plan(p, "tflite_arena", align=16))
    grown = rss_kib() - before
    # a leak of even 100 bytes a call would be about 1 MiB
    assert grown < 1024, f"RSS grew by {grown} KiB over 10^4 plan calls"


def test_docs_overhead_table_is_the_csvs():
    """docs/python.md's cost table is rendered from
    results/reference/python-overhead.csv (python/benchmarks/overhead.py
    --write-doc): it fails when the two drift apart."""
    import importlib.util
    path = os.path.join(REPO, "python", "benchmarks", "overhead.py")
    spec = importlib.util.spec_from_file_location("overhead", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    with open(m.DOC) as f:
        assert m.doc_block(f.read()) == m.render()


@pytest.mark.parametrize("suffix", [".graph", ".csv", ".tflite", ".onnx"])
def test_bad_bytes_are_exceptions_never_a_crash(ab, tmp_path, suffix):
    """Random and truncated inputs of every kind: each either loads or
    raises ArenabenchError naming the file (a crash would end pytest)."""
    rng = np.random.default_rng(7)
    good = {".graph": open(TWO_BRANCH, "rb").read(),
            ".csv": b"id,lower,upper,size\n0,0,2,8\n1,1,3,8\n"}.get(suffix, b"")
    blobs = [rng.integers(0, 256, int(rng.integers(0, 400)), dtype=np.uint8).tobytes()
             for _ in range(30)]
    blobs += [good[:k] for k in range(0, len(good), max(1, len(good) // 20))]
    for k, blob in enumerate(blobs):
        f = tmp_path / f"in{k}{suffix}"
        f.write_bytes(blob)
        try:
            p = ab.Problem.from_file(str(f))
        except ab.ArenabenchError as e:
            assert f"in{k}{suffix}" in str(e), str(e)
        else:
            assert ab.check(p, ab.plan(p, "size_first_fit")).valid
