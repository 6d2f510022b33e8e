"""The package plans exactly what the command line plans: for every
planner, on every starter graph at alignments 1 and 16, and for every fast
planner on one shared .tflite model under its default conventions, the
offsets of arenabench.plan equal those of `arenabench plan --emit-plan`."""

import os

import numpy as np
import pytest

from conftest import SHARED, STARTER, cli_offsets, run_cli

PLANNERS = [line.split()[0] for line in run_cli("list").stdout.splitlines() if line.strip()]
MODEL = os.path.join(SHARED, "models", "tflm", "person_detect.tflite")


def test_the_registry_is_the_clis(ab):
    assert [p.name for p in ab.planners() if p.language == "c"] == PLANNERS
    assert len(PLANNERS) >= 19


@pytest.mark.parametrize("planner", [p for p in PLANNERS if p != "offline"])
@pytest.mark.parametrize("path", STARTER, ids=os.path.basename)
@pytest.mark.parametrize("align", [1, 16])
def test_starter_offsets_bit_identical(ab, planner, path, align, tmp_path):
    problem = ab.Problem.from_file(path)
    plan = ab.plan(problem, planner, align=align)
    assert plan.offsets.dtype == np.uint64
    assert plan.offsets.tolist() == cli_offsets(path, planner, align, tmp_path)
    assert ab.check(problem, plan).verdict == ab.Verdict.VALID


@pytest.mark.skipif(not os.path.exists(MODEL),
                    reason=f"../shared is absent ({MODEL}): the shared-model comparison is skipped")
def test_shared_model_offsets_bit_identical(ab, tmp_path):
    problem = ab.Problem.from_file(MODEL)  # TFLite's conventions: align 64
    assert problem.default_align == 64
    fast = [p.name for p in ab.planners("fast") if p.language == "c"]
    for planner in fast:
        plan = ab.plan(problem, planner)
        assert plan.offsets.tolist() == cli_offsets(MODEL, planner, 64, tmp_path), planner


ONNX = os.path.join(SHARED, "models", "onnx", "mnist_cntk.onnx")


@pytest.mark.skipif(not os.path.exists(ONNX),
                    reason=f"../shared is absent ({ONNX}): the ONNX comparison is skipped")
def test_onnx_through_the_loader_hook(ab, tmp_path):
    # libarenabench_onnx.so handed to the loader hook at load (docs/onnx.md)
    problem = ab.Problem.from_file(ONNX)
    assert problem.buffers > 0
    for planner in ("size_first_fit", "tflite_arena"):
        plan = ab.plan(problem, planner)
        assert plan.offsets.tolist() == cli_offsets(ONNX, planner, 1, tmp_path)
        assert ab.check(problem, plan).valid


@pytest.mark.skipif(not os.path.exists(MODEL),
                    reason=f"../shared is absent ({MODEL}): the shared-model bench is skipped")
def test_bench_rows_are_the_clis(ab, tmp_path):
    """The package's bench and the command line's give the same rows but
    for the timing columns (a .tflite at TFLite's conventions: align 64,
    lifetimes tflite)."""
    out = tmp_path / "r.csv"
    run_cli("bench", MODEL, STARTER[0], "--planners", "size_first_fit,tflite_arena",
            "--no-timing", "--quiet", "--out", str(out))
    cli = ab.read_results(str(out))
    mine = ab.bench([MODEL, STARTER[0]], planners=["size_first_fit", "tflite_arena"], timing=False)
    assert [r["align"] for r in mine if r["graph"] == "person_detect"] == [64, 64]
    assert all("lifetimes=tflite" in r["options"] for r in mine if r["graph"] == "person_detect")
    assert [r["align"] for r in mine if r["graph"] != "person_detect"] == [1, 16, 64] * 2
    assert list(mine) == list(cli)
